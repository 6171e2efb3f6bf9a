/* prep_text.h - the preprocessing record (data/prep.h) as one line of text,
 * for the formats that carry no model file: an ONNX model's metadata
 * ("condnet.prep") and a .npy set's manifest ("prep …"), so that a network
 * exported and imported again reads its inputs as it did.
 *
 *   kind=haar d=3 scale=standardize rows=28 cols=28 n=32 idx=0,5,9
 *   mean=0.12,… sd=1.5,…
 *
 * (one line), numbers as %.17g: the means and scales come back to the
 * bit. */
#ifndef CONDNET_PREP_TEXT_H
#define CONDNET_PREP_TEXT_H

#include "base/err.h"
#include "data/prep.h"

/* The line of p (malloc'd, no line feed); NULL with a message when out of
 * memory. */
char *prep_to_text(const Prep *p, Err *e);

/* The record of a line made by prep_to_text, for a network of d inputs,
 * checked as a model file's (a known kind and scale step, valid Haar sizes
 * and distinct coefficients, finite means, positive scales); NULL with a
 * message naming what is wrong. */
Prep *prep_from_text(const char *s, int d, Err *e);

#endif
