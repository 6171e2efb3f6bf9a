/* plane_inputs.h - the inputs a class can switch on for data in the plane,
 * as TensorFlow Playground has them: beside x and y, their functions x², y²,
 * xy, sin x and sin y. A network then reads x, y and the inputs switched
 * on, in that order; its record of how its inputs are made (data/prep.h,
 * PREP_PLANE) names them, and so does a session log's `inputs` line.
 *
 * The rows of a data set in the plane (two features as given) are made
 * into those inputs before the scale step, which is then over all of them
 * (data/datasets.h). */
#ifndef CONDNET_PLANE_INPUTS_H
#define CONDNET_PLANE_INPUTS_H

#include <stddef.h>

#include "base/err.h"

/* The inputs beyond x and y, one bit each, in the order the network reads
 * them. */
enum {
	PLANE_X2 = 1,
	PLANE_Y2 = 2,
	PLANE_XY = 4,
	PLANE_SINX = 8,
	PLANE_SINY = 16,
	PLANE_INPUTS_ALL = 31
};
#define PLANE_INPUT_KINDS 5
/* Their names in a log and on a command line, comma-separated. */
#define PLANE_INPUT_NAMES "x2, y2, xy, sinx, siny"

/* "x2,sinx" (any order, no repeats) or "none" into *mask; -1 with a message
 * naming the inputs otherwise. */
int plane_inputs_parse(const char *spec, unsigned *mask, Err *e);
/* The mask as plane_inputs_parse reads it ("x2,sinx", "none"); returns buf. */
const char *plane_inputs_format(unsigned mask, char *buf, size_t len);
/* The network's inputs under mask: 2 + the bits set. */
int plane_inputs_count(unsigned mask);
/* Input k (0-based, < plane_inputs_count) under mask for people: "x", "y",
 * "x²", "y²", "xy", "sin x", "sin y" ("x^2", "y^2" with ascii). */
const char *plane_inputs_name(unsigned mask, int k, int ascii);
/* The inputs of the point (x, y) under mask into out[0..count). */
void plane_inputs_row(unsigned mask, double x, double y, float *out);
/* n points (x, y pairs) made into rows of the inputs under mask, out
 * n × count. */
void plane_inputs_rows(unsigned mask, const float *xy, int n, float *out);
#endif
