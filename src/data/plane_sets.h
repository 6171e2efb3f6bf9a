/* plane_sets.h - data sets in the plane, as TensorFlow Playground draws
 * them: two features, two or three classes, every point drawn from a seed.
 *
 *   spiral   three arms turning out of the centre (3 classes)
 *   circles  a disc inside a ring (2 classes)
 *   xor      the four quadrants, opposite ones alike (2 classes)
 *   gauss    three round clouds (3 classes)
 *   moons    two interleaved half circles (2 classes)
 *
 * The points lie within about [-1, 1]²; the noise is the standard
 * deviation of a normal displacement added to both coordinates. The
 * classes take turns (point i is of class i mod k), so every class holds
 * about the same share. */
#ifndef CONDNET_PLANE_SETS_H
#define CONDNET_PLANE_SETS_H

#include <stdint.h>

#include "base/err.h"
#include "data/dataset.h"

/* The names, for messages and help: "spiral, circles, xor, gauss, moons". */
#define PLANE_SET_NAMES "spiral, circles, xor, gauss, moons"

/* The points of a plane data set's training part when none are asked for
 * (its test part has as many, drawn from another seed). */
#define PLANE_POINTS_DEFAULT 300

/* 1 when name is one of the plane data sets. */
int plane_set_is(const char *name);
/* The classes of a plane data set (0 for another name). */
int plane_set_classes(const char *name);
/* The noise a plane data set has when none is asked for (-1 for another
 * name). */
double plane_set_noise(const char *name);

/* points points of the named set, with noise (≥ 0), from seed; NULL with a
 * message for an unknown name, too few points (two per class at least) or
 * no memory. Same name, points, noise and seed: the same points. */
Dataset *plane_set(const char *name, int points, double noise, uint64_t seed, Err *e);

#endif
