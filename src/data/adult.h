/* adult.h - the UCI Adult (Census Income) data set as the paper prepares it.
 *
 * Continuous fields (age, fnlwgt, education-num, capital-gain, capital-loss,
 * hours-per-week) are scaled to 0-100 by the upper bounds 100, 2e6, 25, 2e5,
 * 1e4 and 120. Categorical fields (workclass, education, marital-status,
 * occupation, relationship, race, sex, native-country) are one-hot over the
 * category lists of the UCI description, so training and test files give the
 * same columns. A missing value '?' sets no bit of its group (all zeros).
 * Label: 1 for ">50K", 0 for "<=50K"; the test file's first line
 * ("|1x3 Cross validator") and the trailing '.' on its labels are handled.
 * The text rules (encoding, NUL, line ends) are those of data/text.h, shared
 * with the CSV loader. */
#ifndef CONDNET_ADULT_H
#define CONDNET_ADULT_H

#include "data/dataset.h"
#include <stddef.h>

#include "base/err.h"

/* Number of features produced (6 continuous + all one-hot columns). */
int adult_feature_count(void);
/* Name of feature j (e.g. "age", "workclass=Private") into buf (len bytes,
 * 96 hold every name); returns buf, or NULL when there is no feature j. */
const char *adult_feature_name(int j, char *buf, size_t len);

int adult_load(const char *path, Dataset **out, Err *e);

/* The fields of a record without its income (the label). */
#define ADULT_RECORD_FIELDS 14

/* Records without the income field (ADULT_RECORD_FIELDS of them), encoded
 * as adult_load encodes them, in file order; path "-" is standard input.
 * The set has 2 classes and every label 0 (none is known). Errors name the
 * line and the field. */
int adult_load_unlabelled(const char *path, Dataset **out, Err *e);

#endif
