#!/bin/sh
# cli.sh - not written yet: skipped.
exit 77
