/* plane_squeeze.c - the squeeze seen as regions, over seeds: for each seed,
 * the session the plane lesson plays (the spiral drawn from the seed, a
 * 2-64-64-3 network too wide for it from the seed, 300 epochs at lr 0.01,
 * τ = 10), Algorithm 3's first proposal as the screen shows it, and its four
 * panels' accuracies (alg3_regions.h: now, QR's choice removed, the same
 * compensated, as many at random: the median of the preview's 5 draws, and
 * the draws' mean without and with compensation), in the reproducible mode.
 * Counts how often compensated QR removal keeps the accuracy within one
 * point while random removal does not.
 *
 *   plane_squeeze [SEEDS [WIDTH [TAU]]]   (defaults 10, 64, 10) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "alg/alg3_regions.h"
#include "base/repro.h"
#include "engine/plane.h"
#include "session/session.h"
#include "session/session_setting.h"

static void die(const char *what, const Err *e)
{
	fprintf(stderr, "plane_squeeze: %s: %s\n", what, e->msg);
	exit(1);
}

static void apply(Session *s, SessAction a, Err *e)
{
	if (session_apply(s, &a, NULL, e) < 0)
		die(session_action_name(&a), e);
}

int main(int argc, char **argv)
{
	Err e = {{0}};
	if (repro_enter(argv, &e) < 0)
		die("the reproducible mode", &e);
	int seeds = argc > 1 ? atoi(argv[1]) : 10, width = argc > 2 ? atoi(argv[2]) : 64;
	double tau = argc > 3 ? atof(argv[3]) : 10;
	if (seeds < 1 || width < 1 || !(tau > 1)) {
		fprintf(stderr, "usage: plane_squeeze [SEEDS [WIDTH [TAU]]]\n");
		return 2;
	}
	printf("| seed | layer: removed of | now | QR | QR, compensated | at random (median of "
	       "5) | random mean ± sd | random compensated, mean ± sd | compensated QR within 1 "
	       "point | random within 1 point |\n|---|---|---|---|---|---|---|---|---|---|\n");
	int qr_ok = 0, rnd_ok = 0, both = 0, rnd_comp_ok = 0, proposals = 0;
	for (int seed = 1; seed <= seeds; seed++) {
		Session *s = session_new(&e);
		SessAction d = {.kind = SESS_DATA,
		                .data = {.spec = "spiral",
		                         .label_col = -1,
		                         .seed = (uint64_t)seed,
		                         .val_frac = 0.1}};
		apply(s, d, &e);
		apply(s,
		      (SessAction){.kind = SESS_OPTS,
		                   .opts = {.batch = 50, .lr = 0.01, .threads = 1}},
		      &e);
		SessAction n = {.kind = SESS_NET,
		                .net = {.act = ACT_ERF, .act_a = 1, .seed = (uint64_t)seed}};
		snprintf(n.net.layers, sizeof n.net.layers, "%d,%d", width, width);
		apply(s, n, &e);
		apply(s, (SessAction){.kind = SESS_TRAIN, .train = {.epochs = 300}}, &e);
		apply(s, session_setting_action(SET_TAU, tau), &e);
		int st = session_squeeze_start(s, &e);
		if (st < 0)
			die("squeeze", &e);
		const Alg3Proposal *sp = session_squeeze_proposal(s);
		if (!sp) {
			printf("| %d | nothing to remove at τ = %g | | | | | | | | |\n", seed, tau);
			session_free(s);
			continue;
		}
		proposals++;
		int counts[2] = {s->net->n[1], s->net->n[2]};
		counts[sp->layer - 1] = sp->nkeep;
		PlaneBox box;
		Alg3Regions r;
		if (plane_box(s->train, &box, &e) < 0 ||
		    alg3_regions(s->net, counts, s->test, s->train, 5, s->seed, &box, 64, 64, &r,
		                 &e) < 0)
			die("regions", &e);
		double now = r.acc[REGION_NOW];
		int q = r.acc[REGION_QR_COMP] >= now - 1, g = r.acc[REGION_RANDOM] >= now - 1;
		qr_ok += q;
		rnd_ok += g;
		both += q && !g;
		rnd_comp_ok += r.mean_comp >= now - 1;
		printf("| %d | %d: %d of %d | %.2f | %.2f | %.2f | %.2f | %.1f ± %.1f | %.1f ± "
		       "%.1f | %s "
		       "| %s |\n",
		       seed, sp->layer, sp->n_before - sp->nkeep, sp->n_before, now,
		       r.acc[REGION_QR], r.acc[REGION_QR_COMP], r.acc[REGION_RANDOM], r.mean, r.sd,
		       r.mean_comp, r.sd_comp, q ? "yes" : "no", g ? "yes" : "no");
		alg3_regions_free(&r);
		session_free(s);
	}
	printf("\nOf %d seeds with a proposal at τ = %g: compensated QR removal kept the accuracy "
	       "within one point %d times, the random draw (the median) %d times; compensated QR "
	       "within one point while the random draw was not: %d. The random draws compensated "
	       "kept it on average within one point %d times.\n",
	       proposals, tau, qr_ok, rnd_ok, both, rnd_comp_ok);
	return 0;
}
