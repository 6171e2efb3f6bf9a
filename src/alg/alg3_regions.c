/* alg3_regions.c - the decision regions of a network and of its squeezed
 * variants: by pivoted QR, with compensation, and at random. */
#include "alg/alg3_regions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "engine/train.h"
#include "engine/train_plan.h"

void alg3_regions_free(Alg3Regions *r)
{
	if (!r)
		return;
	for (int p = 0; p < REGION_NPANELS; p++)
		plane_regions_free(&r->reg[p]);
	free(r->draw_acc);
	r->draw_acc = NULL;
}

Net *alg3_variant(const Net *net, const int *counts, Alg3Criterion c, uint64_t seed, int comp,
                  const Dataset *sample, Err *e)
{
	Alg3Opts o;
	alg3_opts_default(&o);
	o.criterion = c;
	o.seed = seed;
	o.compensate = comp;
	o.keep_counts = counts;
	Net *v = net_clone(net, e);
	if (v && alg3_squeeze_net(v, &o, sample, NULL, NULL, e) != 0) {
		net_free(v);
		return NULL;
	}
	return v;
}

/* The regions and accuracy of one variant (net itself when c < 0) into
 * panel p. */
static int panel(const Net *net, const int *counts, int c, uint64_t seed, int comp,
                 const Dataset *eval, const Dataset *sample, const PlaneBox *b, int w, int h,
                 Alg3Regions *out, RegionPanel p, Err *e)
{
	Net *v = c < 0 ? NULL : alg3_variant(net, counts, (Alg3Criterion)c, seed, comp, sample, e);
	const Net *n = c < 0 ? net : v;
	int rc = -1;
	if (n && net_accuracy(n, eval, NULL, &out->acc[p], e) == 0 &&
	    plane_regions(n, b, w, h, &out->reg[p], e) == 0)
		rc = 0;
	net_free(v);
	return rc;
}

static void mean_sd(const double *v, int n, double *mean, double *sd)
{
	double s = 0, ss = 0;
	for (int r = 0; r < n; r++)
		s += v[r];
	*mean = s / n;
	for (int r = 0; r < n; r++)
		ss += (v[r] - *mean) * (v[r] - *mean);
	*sd = n > 1 ? sqrt(ss / (n - 1)) : NAN;
}

/* The draw whose accuracy is the median (the lower middle of an even
 * count; of equal accuracies the first draw). */
static int median_draw(const double *acc, int n)
{
	int *ord = malloc((size_t)n * sizeof *ord);
	if (!ord)
		return 0;
	for (int r = 0; r < n; r++) {
		int t = r;
		while (t > 0 && acc[ord[t - 1]] > acc[r]) {
			ord[t] = ord[t - 1];
			t--;
		}
		ord[t] = r;
	}
	int m = ord[(n - 1) / 2];
	free(ord);
	return m;
}

int alg3_regions(const Net *net, const int *counts, const Dataset *eval, const Dataset *sample,
                 int draws, uint64_t seed, const PlaneBox *b, int w, int h, Alg3Regions *out,
                 Err *e)
{
	memset(out, 0, sizeof *out);
	if (!net || !counts || !eval || !sample || draws < 1)
		return err_set(e, "the regions of a squeeze need a network, counts, an evaluation "
		                  "set, a sample and at least 1 random draw");
	if (alg3_check_counts(net, counts, net->m - 1, e) < 0)
		return -1;
	for (int i = 1; i < net->m; i++)
		out->removed += net->n[i] - counts[i - 1];
	out->draws = draws;
	double *comp = malloc((size_t)draws * sizeof *comp);
	out->draw_acc = malloc((size_t)draws * sizeof *out->draw_acc);
	if (!comp || !out->draw_acc) {
		free(comp);
		alg3_regions_free(out);
		return err_set(e, "out of memory");
	}
	int rc = panel(net, counts, -1, 0, 0, eval, sample, b, w, h, out, REGION_NOW, e);
	if (rc == 0)
		rc = panel(net, counts, ALG3_QR, 0, 0, eval, sample, b, w, h, out, REGION_QR, e);
	if (rc == 0)
		rc = panel(net, counts, ALG3_QR, 0, 1, eval, sample, b, w, h, out, REGION_QR_COMP,
		           e);
	for (int r = 0; rc == 0 && r < draws; r++) {
		uint64_t s = rng_derive(seed, (uint64_t)r);
		for (int k = 0; rc == 0 && k < 2; k++) {
			Net *v = alg3_variant(net, counts, ALG3_RANDOM, s, k, sample, e);
			rc = v ? net_accuracy(v, eval, NULL, k ? &comp[r] : &out->draw_acc[r], e)
			       : -1;
			net_free(v);
		}
	}
	if (rc == 0) {
		mean_sd(out->draw_acc, draws, &out->mean, &out->sd);
		mean_sd(comp, draws, &out->mean_comp, &out->sd_comp);
		out->median = median_draw(out->draw_acc, draws);
		rc = panel(net, counts, ALG3_RANDOM, rng_derive(seed, (uint64_t)out->median), 0,
		           eval, sample, b, w, h, out, REGION_RANDOM, e);
	}
	free(comp);
	if (rc)
		alg3_regions_free(out);
	return rc;
}
