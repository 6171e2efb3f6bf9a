/* plane_sets.c - the data sets in the plane: spiral, circles, xor, gauss and
 * moons, each point from the seeded generator. */
#include "data/plane_sets.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/rng.h"

/* One point of class c (of k) into p[0..2) before the noise, drawn from r. */
typedef void (*PointFn)(Rng *r, int c, int k, double *p);

/* An arm of the spiral: from the centre outwards, turning 3.5 radians. */
static void spiral(Rng *r, int c, int k, double *p)
{
	double t = rng_uniform(r);
	double rad = 0.1 + 0.9 * t, th = 2.0 * M_PI * c / k + 3.5 * t;
	p[0] = rad * cos(th);
	p[1] = rad * sin(th);
}

/* Class 0 in the disc of radius 0.45, class 1 in the ring 0.65..1. */
static void circles(Rng *r, int c, int k, double *p)
{
	(void)k;
	double th = 2.0 * M_PI * rng_uniform(r);
	double rad = c == 0 ? 0.45 * sqrt(rng_uniform(r)) : 0.65 + 0.35 * rng_uniform(r);
	p[0] = rad * cos(th);
	p[1] = rad * sin(th);
}

/* Uniform in [-1, 1]² away from the axes (|x|, |y| ≥ 0.05), in the
 * quadrants of class c: class 0 where x·y > 0. */
static void quadrants(Rng *r, int c, int k, double *p)
{
	(void)k;
	double a = 0.05 + 0.95 * rng_uniform(r), b = 0.05 + 0.95 * rng_uniform(r);
	int flip = rng_uniform(r) < 0.5;
	p[0] = flip ? -a : a;
	p[1] = (c == 0) == !flip ? b : -b;
}

/* A round cloud of standard deviation 0.2 around a point at radius 0.55. */
static void gauss(Rng *r, int c, int k, double *p)
{
	double th = M_PI / 2 + 2.0 * M_PI * c / k;
	p[0] = 0.55 * cos(th) + 0.2 * rng_normal(r);
	p[1] = 0.55 * sin(th) + 0.2 * rng_normal(r);
}

/* The upper half circle (class 0) and the lower one shifted right and up
 * into it, as scikit-learn's make_moons, scaled into [-1, 1]². */
static void moons(Rng *r, int c, int k, double *p)
{
	(void)k;
	double t = M_PI * rng_uniform(r);
	double x = c == 0 ? cos(t) : 1.0 - cos(t), y = c == 0 ? sin(t) : 0.5 - sin(t);
	p[0] = (x - 0.5) / 1.5;
	p[1] = (y - 0.25) / 1.5;
}

static const struct {
	const char *name;
	PointFn fn;
	int k;
	double noise;
} sets[] = {
    {"spiral", spiral, 3, 0.05}, {"circles", circles, 2, 0.05}, {"xor", quadrants, 2, 0.05},
    {"gauss", gauss, 3, 0.05},   {"moons", moons, 2, 0.08},
};
#define NSETS ((int)(sizeof sets / sizeof *sets))

static int find(const char *name)
{
	for (int i = 0; name && i < NSETS; i++)
		if (!strcmp(name, sets[i].name))
			return i;
	return -1;
}

int plane_set_is(const char *name)
{
	return find(name) >= 0;
}

int plane_set_classes(const char *name)
{
	int i = find(name);
	return i < 0 ? 0 : sets[i].k;
}

double plane_set_noise(const char *name)
{
	int i = find(name);
	return i < 0 ? -1 : sets[i].noise;
}

Dataset *plane_set(const char *name, int points, double noise, uint64_t seed, Err *e)
{
	int i = find(name);
	if (i < 0) {
		err_set(e, "unknown plane data set '%s': expected %s", name ? name : "",
		        PLANE_SET_NAMES);
		return NULL;
	}
	int k = sets[i].k;
	if (points < 2 * k || !(noise >= 0) || isinf(noise)) {
		err_set(e,
		        "%s: %d points with noise %g: expected at least %d points and a finite "
		        "noise ≥ 0",
		        name, points, noise, 2 * k);
		return NULL;
	}
	Dataset *ds = dataset_new(points, 2, k, e);
	if (!ds)
		return NULL;
	Rng r;
	rng_seed(&r, seed);
	for (int j = 0; j < points; j++) {
		double p[2];
		int c = j % k;
		sets[i].fn(&r, c, k, p);
		ds->x[2 * j] = (float)(p[0] + noise * rng_normal(&r));
		ds->x[2 * j + 1] = (float)(p[1] + noise * rng_normal(&r));
		ds->y[j] = c;
	}
	snprintf(ds->name, sizeof ds->name, "%s (%d points, noise %g, seed %llu)", name, points,
	         noise, (unsigned long long)seed);
	return ds;
}
