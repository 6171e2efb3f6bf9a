/* plane_inputs.c - x, y and the functions of them a class switches on
 * (plane_inputs.h). */
#include "data/plane_inputs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/list.h"

static const char *const names[PLANE_INPUT_KINDS] = {"x2", "y2", "xy", "sinx", "siny"};
static const char *const shown[PLANE_INPUT_KINDS][2] = {
    {"x²", "x^2"}, {"y²", "y^2"}, {"xy", "xy"}, {"sin x", "sin x"}, {"sin y", "sin y"}};

int plane_inputs_parse(const char *spec, unsigned *mask, Err *e)
{
	*mask = 0;
	if (!strcmp(spec, "none"))
		return 0;
	const char *p = spec, *item;
	size_t len;
	int n = 0, r;
	while ((r = list_next(&p, &item, &len, &n, "inputs", spec, e)) > 0) {
		int k = 0;
		while (k < PLANE_INPUT_KINDS &&
		       !(strlen(names[k]) == len && !strncmp(item, names[k], len)))
			k++;
		if (k == PLANE_INPUT_KINDS)
			return err_set(e, "inputs \"%s\": '%.*s' is not one of %s (or none)", spec,
			               (int)len, item, PLANE_INPUT_NAMES);
		if (*mask & (1u << k))
			return err_set(e, "inputs \"%s\": %s named twice", spec, names[k]);
		*mask |= 1u << k;
	}
	return r;
}

const char *plane_inputs_format(unsigned mask, char *buf, size_t len)
{
	size_t n = 0;
	if (!len)
		return buf;
	buf[0] = '\0';
	for (int k = 0; k < PLANE_INPUT_KINDS; k++)
		if (mask & (1u << k)) {
			int w = snprintf(buf + n, len - n, "%s%s", n ? "," : "", names[k]);
			if (w < 0 || (size_t)w >= len - n)
				break;
			n += (size_t)w;
		}
	if (!n)
		snprintf(buf, len, "none");
	return buf;
}

int plane_inputs_count(unsigned mask)
{
	int c = 2;
	for (int k = 0; k < PLANE_INPUT_KINDS; k++)
		c += (mask >> k) & 1;
	return c;
}

const char *plane_inputs_name(unsigned mask, int k, int ascii)
{
	if (k == 0 || k == 1)
		return k ? "y" : "x";
	for (int b = 0, at = 2; b < PLANE_INPUT_KINDS; b++)
		if (mask & (1u << b) && at++ == k)
			return shown[b][ascii ? 1 : 0];
	return "?";
}

void plane_inputs_row(unsigned mask, double x, double y, float *out)
{
	const double v[PLANE_INPUT_KINDS] = {x * x, y * y, x * y, sin(x), sin(y)};
	int c = 0;
	out[c++] = (float)x;
	out[c++] = (float)y;
	for (int k = 0; k < PLANE_INPUT_KINDS; k++)
		if (mask & (1u << k))
			out[c++] = (float)v[k];
}

void plane_inputs_rows(unsigned mask, const float *xy, int n, float *out)
{
	int d = plane_inputs_count(mask);
	for (int i = 0; i < n; i++)
		plane_inputs_row(mask, xy[2 * (size_t)i], xy[2 * (size_t)i + 1],
		                 out + (size_t)i * d);
}
