#!/bin/sh
# sweep-parallel.sh - Algorithm 2 with GNU parallel: every trial a process
# of its own, on this machine or on the machines of an ssh login file. The
# trials are planned (condnet sweep --plan), run, and gathered; when the
# pick is at an edge of the beta range, the gather plans the beta Algorithm 2
# adds there, and the loop runs that too. The result is the table of
# `condnet sweep OPTIONS` in one process.
#
#   sweep-parallel.sh [-j JOBS] [-S SSHLOGINFILE] [-d DIR] -- SWEEP-OPTIONS...
#
#   sweep-parallel.sh -j 2 -- --data mnist --load alg1.model --beta 1.0:2.4:0.2 \
#           --q 5 --val-per-class 1000 --threads 1 --json sweep.json
#
# -j      trials at a time on each machine (default 2)
# -S      run the trials on the machines listed (parallel --sshloginfile);
#         they must see the current directory's files, the data and condnet
#         at the same paths
# -d      directory of the trial files (default trials); the plan is DIR.plan
# CONDNET the condnet to run (default: condnet on PATH)
set -eu
jobs=2 logins='' dir=trials
while getopts j:S:d: opt; do
	case $opt in
	j) jobs=$OPTARG ;;
	S) logins=$OPTARG ;;
	d) dir=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
condnet=${CONDNET:-condnet}
plan=$dir.plan

"$condnet" sweep "$@" --plan "$plan" --out "$dir"
while [ -s "$plan" ]; do
	if [ -n "$logins" ]; then
		parallel --sshloginfile "$logins" -j "$jobs" --halt now,fail=1 <"$plan"
	else
		parallel -j "$jobs" --halt now,fail=1 <"$plan"
	fi
	"$condnet" sweep "$@" --gather --out "$dir" --plan "$plan" "$dir"/beta-*-trial-*.json
done
