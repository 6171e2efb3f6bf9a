/* report_json.h - what the report files that write JSON records share (not
 * a public interface): numbers and arrays as JSON, and giving up on a
 * record when memory runs out. */
#ifndef CONDNET_REPORT_JSON_H
#define CONDNET_REPORT_JSON_H

#include <cjson/cJSON.h>

#include "base/err.h"

/* A number, or null for NaN and ∞ (JSON has neither). */
cJSON *report_json_num(double v);
cJSON *report_json_nums(const double *v, int n);
cJSON *report_json_ints(const int *v, int n);
/* Frees root, says "out of memory for a JSON record" and returns NULL. */
cJSON *report_json_nomem(cJSON *root, Err *e);

#endif
