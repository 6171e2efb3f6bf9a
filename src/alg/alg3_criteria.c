/* alg3_criteria.c - the orders in which a squeeze keeps a layer's neurons:
 * the paper's pivoted QR, and for comparison the outgoing-weight norm and a
 * seeded random order. */
#include "alg/alg3_squeeze.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"

static const char *const names[ALG3_NCRITERIA] = {"qr", "norm", "random"};

const char *alg3_criterion_name(Alg3Criterion c)
{
	return (unsigned)c < ALG3_NCRITERIA ? names[c] : "?";
}

int alg3_criterion_parse(const char *s, Alg3Criterion *c, Err *e)
{
	for (int i = 0; s && i < ALG3_NCRITERIA; i++)
		if (!strcmp(s, names[i])) {
			*c = (Alg3Criterion)i;
			return 0;
		}
	return err_set(e, "unknown criterion '%s' (expected qr, norm or random)", s ? s : "");
}

int alg3_check_counts(const Net *net, const int *counts, int ncounts, Err *e)
{
	if (ncounts != net->m - 1)
		return err_set(e, "%d keep counts for a network of %d hidden layers", ncounts,
		               net->m - 1);
	for (int i = 1; i < net->m; i++) {
		int n = net_units(net, i);
		if (counts[i - 1] < 1 || counts[i - 1] > n)
			return err_set(e, "layer %d: keep %d of %d %s, expected 1..%d", i,
			               counts[i - 1], n, net_unit_name(net, i, 1), n);
	}
	return 0;
}

typedef struct Ranked {
	double key;
	int j;
} Ranked;

/* Larger key first; equal keys by index, so the order is well defined. */
static int by_key_desc(const void *pa, const void *pb)
{
	const Ranked *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key < b->key ? 1 : -1;
	return (a->j > b->j) - (a->j < b->j);
}

/* Neuron j of hidden layer i feeds layer i+1 through row j of W⁽ⁱ⁺¹⁾
 * (net->W[i], n_i × n_{i+1}), a channel through its block of rows (its
 * slices of the next kernels, or the flatten's rows of its map,
 * net_unit_rows): order by the 2-norm of those weights, largest first. */
static int order_norm(const Net *net, int layer, int *order, Err *e)
{
	int n = net_units(net, layer), q = net_cols(net, layer);
	size_t len = (size_t)net_unit_rows(net, layer) * q;
	Ranked *r = malloc((size_t)n * sizeof *r);
	if (!r)
		return err_set(e, "layer %d: out of memory", layer);
	const float *W = net->W[layer];
	for (int j = 0; j < n; j++) {
		double s = 0;
		for (size_t k = 0; k < len; k++)
			s += (double)W[(size_t)j * len + k] * W[(size_t)j * len + k];
		r[j] = (Ranked){sqrt(s), j};
	}
	qsort(r, (size_t)n, sizeof *r, by_key_desc);
	for (int j = 0; j < n; j++)
		order[j] = r[j].j;
	free(r);
	return 0;
}

static int order_qr(const Net *net, int layer, int *order, Err *e)
{
	int rows, cols;
	double *A = cond_stacked(net, layer, NULL, 0, &rows, &cols, e);
	if (!A)
		return -1;
	double *rd = malloc((size_t)(rows < cols ? rows : cols) * sizeof *rd);
	int rc = rd ? cond_qrpt(A, rows, cols, order, rd, e)
	            : err_set(e, "layer %d: out of memory", layer);
	free(rd);
	free(A);
	return rc;
}

int alg3_order(const Net *net, int layer, Alg3Criterion c, uint64_t seed, int *order, Err *e)
{
	if (!net)
		return err_set(e, "no network");
	if (layer < 1 || layer > net->m - 1)
		return err_set(e, "layer %d is not a hidden layer (expected 1..%d)", layer,
		               net->m - 1);
	switch (c) {
	case ALG3_QR:
		return order_qr(net, layer, order, e);
	case ALG3_NORM:
		return order_norm(net, layer, order, e);
	case ALG3_RANDOM: {
		Rng r;
		rng_seed(&r, rng_derive(seed, (uint64_t)layer));
		int n = net_units(net, layer);
		for (int j = 0; j < n; j++)
			order[j] = j;
		rng_shuffle(&r, order, n);
		return 0;
	}
	default:
		return err_set(e, "unknown squeeze criterion %d", (int)c);
	}
}
