/* alg2_widths.c - the widths of Algorithm 2's networks: every hidden width
 * scaled by β, and the checks of a β list against the table of limits and
 * against itself (two β that give the same network). */
#include "engine/alg2_scale.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/limits.h"

void alg2_scaled_widths(const Net *base, double beta, int *widths)
{
	int m = base->m;
	widths[0] = base->n[0];
	widths[m] = base->n[m];
	for (int i = 1; i < m; i++) {
		/* round half away from zero; the nudge keeps 1.15·10 = 11.4999… at 12;
		 * a width past 10^9 stays there (llround of more is undefined) */
		double x = beta * base->n[i] + 1e-9;
		long long w = x >= 1e9 ? 1000000000LL : llround(x);
		widths[i] = w < 1 ? 1 : (int)w;
	}
}

int alg2_check_betas(const Net *base, const double *betas, int n, Err *e)
{
	int *w = malloc((size_t)(base->m + 1) * sizeof *w);
	if (!w)
		return err_set(e, "out of memory");
	int rc = 0;
	for (int i = 0; i < n && rc == 0; i++) {
		char what[64];
		snprintf(what, sizeof what, "β = %g: its network", betas[i]);
		alg2_scaled_widths(base, betas[i], w);
		rc = limit_check_widths(base->m, w, what, NULL, e);
	}
	free(w);
	return rc;
}

int alg2_check_distinct(const Net *base, const double *betas, int n, Err *e)
{
	int m = base->m, rc = 0;
	if (m < 2)
		return 0; /* no hidden layer: every β gives the same network */
	int *w = malloc(2 * (size_t)(m + 1) * sizeof *w);
	if (!w)
		return err_set(e, "out of memory");
	for (int i = 0; i < n && rc == 0; i++) {
		alg2_scaled_widths(base, betas[i], w);
		for (int j = 0; j < i && rc == 0; j++) {
			alg2_scaled_widths(base, betas[j], w + m + 1);
			if (memcmp(w, w + m + 1, (size_t)(m + 1) * sizeof *w))
				continue;
			char shape[160];
			size_t pos = 0;
			for (int k = 1; k < m && pos + 16 < sizeof shape; k++)
				pos += (size_t)snprintf(shape + pos, sizeof shape - pos,
							k > 1 ? "x%d" : "%d", w[k]);
			if (pos + 16 >= sizeof shape)
				snprintf(shape + pos, sizeof shape - pos, "…");
			rc = err_set(e, "β = %g and β = %g give the same hidden layers %s: a step "
					"that adds no neuron, expected β further apart", betas[j],
				     betas[i], shape);
		}
	}
	free(w);
	return rc;
}
