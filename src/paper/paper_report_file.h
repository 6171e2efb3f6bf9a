/* paper_report_file.h - the report file: never replaced by a report of
 * fewer stages.
 *
 * A run of some stages (--stages alg1), or into a new --out, makes a report
 * of the stages it finds; written over a report that holds more (the
 * committed docs/results-adult.md of six stages), it would lose them without
 * a word. The stages a report holds are the rows of its table of stages
 * ("| stage | what | seconds |"). */
#ifndef CONDNET_PAPER_REPORT_FILE_H
#define CONDNET_PAPER_REPORT_FILE_H

#include <stddef.h>

#include "base/err.h"

/* 0 when the report text (len bytes) may be written to path: nothing is
 * there, what is there is not a paper report (no table of stages), or every
 * stage it holds is in text too. Else -1, naming the stages the file would
 * lose and where the stage results are (out). */
int paper_report_keeps(const char *path, const char *text, size_t len, const char *out, Err *e);

#endif
