/* tui/worker_plane.c - what the Plane view shows, computed on the worker
 * with the library and published: the training points, the regions of the
 * current network (while it trains, at most every quarter second and at
 * most a fortieth of the training's time, with the maps but not the
 * squeeze's marks), and the maps of every hidden
 * layer with the squeeze's marks at τ and the combinations that replace the
 * removed neurons; after an Algorithm-1 step, the maps of the network
 * before it with the step's removals. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg3_combination.h"
#include "base/clock.h"
#include "tui/worker.h"
#include "tui/worker_int.h"
#include "tui/worker_plane.h"

static void maps_free(ShownMaps *m, int nh)
{
	for (int i = 0; m && i < nh; i++) {
		alg3_combinations_free(&m[i].c);
		free(m[i].act);
		free(m[i].comb);
	}
	free(m);
}

static void panels_free(ShownPanels *pn)
{
	for (int k = 0; k < 5; k++)
		plane_regions_free(&pn->reg[k]);
	memset(pn, 0, sizeof *pn);
}

void plane_shown_free(ShownPlane *p)
{
	free(p->pts);
	free(p->lab);
	plane_regions_free(&p->reg);
	maps_free(p->maps, p->m - 1);
	panels_free(&p->pn);
	memset(p, 0, sizeof *p);
}

/* The map of removed neuron r's combination where the refit works: its
 * fit by the kept neurons' activations and a constant (act_coef), on the
 * maps of the kept ones (act[0..nkeep), in pivot order). */
static void act_combination_map(const Alg3Combinations *c, const float *act, int r, float *out)
{
	size_t np = (size_t)PLANE_MAP_PX * PLANE_MAP_PX;
	const double *a = c->act_coef + (size_t)r * (c->nkeep + 1);
	for (size_t i = 0; i < np; i++) {
		double v = a[c->nkeep];
		for (int k = 0; k < c->nkeep; k++)
			v += a[k] * act[(size_t)k * np + i];
		out[i] = (float)v;
	}
}

/* One hidden layer: which neurons the squeeze at tau keeps (or, with
 * nkeep > 0, the first nkeep pivots), the combinations of the others, and
 * every neuron's map with the combinations' maps: of the activations
 * fitted on sample (the training points the refit uses) when there is
 * one, else of the pre-activations' combination in Ŵ. */
static int layer_maps(const Net *net, int layer, const PlaneBox *box, double tau, int nkeep,
                      const Dataset *sample, ShownMaps *out, Err *e)
{
	if (nkeep > 0 ? alg3_combinations(net, layer, nkeep, &out->c, e)
	              : alg3_combinations_at(net, layer, tau, &out->c, e))
		return -1;
	Alg3Combinations *c = &out->c;
	int gone = c->n - c->nkeep;
	/* where the refit works; without a sample (or rows enough) the maps
	 * show the combination in Ŵ */
	if (gone && sample && alg3_combinations_act(net, sample, c, NULL) < 0) {
		free(c->act_coef);
		free(c->act_residual);
		c->act_coef = c->act_residual = NULL;
	}
	PlaneMaps pm;
	if (plane_maps(net, layer, box, PLANE_MAP_PX, PLANE_MAP_PX, &pm, e))
		return -1;
	size_t np = (size_t)PLANE_MAP_PX * PLANE_MAP_PX;
	out->act = malloc((size_t)c->n * np * sizeof *out->act);
	out->comb = malloc(((size_t)gone * np + 1) * sizeof *out->comb);
	if (!out->act || !out->comb) {
		plane_maps_free(&pm);
		return err_set(e, "out of memory for the maps of layer %d", layer);
	}
	for (int t = 0; t < c->n; t++)
		plane_map_activation(net, &pm, c->perm[t], out->act + (size_t)t * np);
	for (int r = 0; r < gone; r++)
		if (c->act_coef)
			act_combination_map(c, out->act, r, out->comb + (size_t)r * np);
		else
			plane_map_combination(net, &pm, c->perm, c->coef + (size_t)r * c->nkeep,
			                      c->nkeep, out->comb + (size_t)r * np);
	plane_maps_free(&pm);
	return 0;
}

/* The maps of every hidden layer of net into p (m, maps): at tau, or
 * keeping counts[i-1] of layer i when counts is given. */
static int all_maps(const Net *net, const PlaneBox *box, double tau, const int *counts,
                    const Dataset *sample, ShownPlane *p, Err *e)
{
	p->m = net->m;
	p->maps = net->m > 1 ? calloc((size_t)net->m - 1, sizeof *p->maps) : NULL;
	if (net->m > 1 && !p->maps)
		return err_set(e, "out of memory for the maps");
	for (int i = 1; i < net->m; i++)
		if (layer_maps(net, i, box, tau, counts ? counts[i - 1] : 0, sample,
		               &p->maps[i - 1], e))
			return -1;
	return 0;
}

int plane_shown_compute(const Net *net, const Net *maps_of, double tau, const int *counts,
                        const Dataset *sample, ShownPlane *p, Err *e)
{
	if (plane_regions(net, &p->box, PLANE_REGION_PX, PLANE_REGION_PX, &p->reg, e) < 0)
		return -1;
	return all_maps(maps_of, &p->box, tau, counts, sample, p, e);
}

/* The points and box of the training set into p, or why it is not in the
 * plane; 1 when it is. */
static int points(const Session *s, ShownPlane *p)
{
	Err e = {{0}};
	const Dataset *d = s->train;
	if (!d || plane_box(d, &p->box, &e) < 0) {
		snprintf(p->why, sizeof p->why, "%.60s has %.90s",
		         s->data_spec[0] ? s->data_spec : "the data set", e.msg);
		return 0;
	}
	int n = d->n < PLANE_SHOWN_POINTS ? d->n : PLANE_SHOWN_POINTS;
	p->pts = malloc((size_t)n * 2 * sizeof *p->pts);
	p->lab = malloc((size_t)n * sizeof *p->lab);
	if (!p->pts || !p->lab) {
		free(p->pts);
		free(p->lab);
		p->pts = NULL;
		p->lab = NULL;
		snprintf(p->why, sizeof p->why, "no memory for the points");
		return 0;
	}
	for (int i = 0; i < n; i++) {
		long r = (long)i * d->n / n;
		p->pts[2 * i] = d->x[(size_t)d->d * r];
		p->pts[2 * i + 1] = d->x[(size_t)d->d * r + 1];
		p->lab[i] = d->y[r];
	}
	p->npts = n;
	p->k = d->k;
	p->on = 1;
	return 1;
}

/* Puts n in place of what is shown (under the lock) and frees the old; the
 * panels shown stay when they belong to the network crc (a proposal still
 * waiting, the network Algorithm 1's step left). */
static void swap_in(Worker *w, ShownPlane *n, uint32_t crc)
{
	pthread_mutex_lock(&w->mu);
	ShownPlane old = w->shown.pl;
	if (old.pn.n && old.pn.crc == crc && !n->pn.n) {
		n->pn = old.pn;
		memset(&old.pn, 0, sizeof old.pn);
	}
	w->shown.pl = *n;
	pthread_mutex_unlock(&w->mu);
	plane_shown_free(&old);
}

/* The panels of net with hidden layer i keeping counts[i-1] (the random
 * draws the squeeze preview's, from the session's seed) into pn. */
static int panels(Worker *w, const Net *net, const int *counts, const PlaneBox *box,
                  ShownPanels *pn, Err *e)
{
	const Session *s = w->s;
	Alg3Regions r;
	memset(pn, 0, sizeof *pn);
	if (alg3_regions(net, counts, s->test, s->train, PLANE_PANEL_DRAWS, s->seed, box,
	                 PLANE_PANEL_PX, PLANE_PANEL_PX, &r, e) < 0)
		return -1;
	for (int k = 0; k < REGION_NPANELS; k++) {
		pn->reg[k] = r.reg[k];
		pn->acc[k] = r.acc[k];
		memset(&r.reg[k], 0, sizeof r.reg[k]);
	}
	pn->n = REGION_NPANELS;
	pn->removed = r.removed;
	pn->draws = r.draws;
	pn->median = r.median;
	pn->mean = r.mean;
	pn->sd = r.sd;
	pn->mean_comp = r.mean_comp;
	pn->sd_comp = r.sd_comp;
	alg3_regions_free(&r);
	return 0;
}

/* Shows pn (taken over) in place of the panels shown. */
static void show_panels(Worker *w, ShownPanels *pn)
{
	pthread_mutex_lock(&w->mu);
	ShownPanels old = w->shown.pl.pn;
	w->shown.pl.pn = *pn;
	pthread_mutex_unlock(&w->mu);
	panels_free(&old);
}

void worker_plane_preview(Worker *w, const Alg3Proposal *sp)
{
	Session *s = w->s;
	if (!w->shown.pl.on || !s->net || s->net->graph)
		return;
	Err e = {{0}};
	ShownPanels pn;
	if (w->plane_before) {
		/* a proposal ends the showing of the last removal */
		net_free(w->plane_before);
		w->plane_before = NULL;
		worker_plane_publish(w);
	}
	int *counts = malloc((size_t)s->net->m * sizeof *counts);
	for (int i = 1; counts && i < s->net->m; i++)
		counts[i - 1] = i == sp->layer ? sp->nkeep : s->net->n[i];
	if (!counts || panels(w, s->net, counts, &w->shown.pl.box, &pn, &e) < 0) {
		worker_status(w, 1, "the Plane view's panels: %s",
		              e.msg[0] ? e.msg : "out of memory");
		free(counts);
		return;
	}
	free(counts);
	pn.layer = sp->layer;
	pn.crc = session_param_crc(s->net);
	show_panels(w, &pn);
}

void worker_plane_publish(Worker *w)
{
	Session *s = w->s;
	Err e = {{0}};
	ShownPlane n = {0};
	n.tau = s->tau;
	if (s->net && s->net->graph) {
		snprintf(n.why, sizeof n.why,
		         "the network is a graph: the Plane view draws the neurons of chains");
		swap_in(w, &n, 0);
		return;
	}
	if (!points(s, &n) || !s->net) {
		swap_in(w, &n, 0);
		return;
	}
	/* Algorithm 1's step stays shown while the network is the one it left */
	const Net *before = w->plane_before;
	uint32_t crc = session_param_crc(s->net);
	int step = before && crc == w->plane_after_crc;
	if (!step) {
		net_free(w->plane_before);
		w->plane_before = NULL;
	}
	int *counts = step ? malloc((size_t)s->net->m * sizeof *counts) : NULL;
	for (int i = 1; counts && i < s->net->m; i++)
		counts[i - 1] = s->net->n[i];
	if ((step && !counts) || plane_shown_compute(s->net, step ? before : s->net, s->tau, counts,
	                                             s->train, &n, &e) < 0)
		worker_status(w, 1, "the Plane view: %s", e.msg[0] ? e.msg : "out of memory");
	n.step = step ? w->plane_step : 0;
	n.step_layer = step ? w->plane_step_layer : 0;
	n.crc = step ? session_param_crc(before) : crc;
	free(counts);
	swap_in(w, &n, crc);
}

Net *worker_plane_before(Worker *w, const SessAction *a)
{
	const Session *s = w->s;
	if (a->kind != SESS_ALG1_STEP || !s->net || !s->alg1 || !s->alg1_live ||
	    s->alg1->status != ALG1_RUNNING || !w->shown.pl.on)
		return NULL;
	return net_clone(s->net, NULL);
}

void worker_plane_step(Worker *w, Net *before)
{
	const Net *now = w->s->net;
	int changed = 0;
	for (int i = 1; before && now && before->m == now->m && i < now->m; i++)
		changed |= before->n[i] != now->n[i];
	net_free(w->plane_before);
	w->plane_before = NULL;
	if (!changed) {
		net_free(before);
		return;
	}
	w->plane_before = before;
	w->plane_after_crc = session_param_crc(now);
	w->plane_step = 1;
	w->plane_step_layer = 0;
	/* the panels: the network before the step, its removals by QR, with
	 * compensation, at random; and the network the step left */
	Err e = {{0}};
	ShownPanels pn;
	int *counts = malloc((size_t)now->m * sizeof *counts);
	for (int i = 1; counts && i < now->m; i++)
		counts[i - 1] = now->n[i];
	if (counts && panels(w, before, counts, &w->shown.pl.box, &pn, &e) == 0 &&
	    plane_regions(now, &w->shown.pl.box, PLANE_PANEL_PX, PLANE_PANEL_PX, &pn.reg[4], &e) ==
	        0) {
		session_test_acc(w->s, &pn.acc[4], NULL);
		pn.n = 5;
		pn.crc = w->plane_after_crc;
		show_panels(w, &pn);
	} else {
		worker_status(w, 1, "the Plane view's panels: %s",
		              e.msg[0] ? e.msg : "out of memory");
	}
	free(counts);
	worker_plane_publish(w);
}

void worker_plane_squeezed(Worker *w, Net *before, int layer)
{
	net_free(w->plane_before);
	w->plane_before = NULL;
	if (!before || !w->shown.pl.on || !w->s->net || before->m != w->s->net->m) {
		net_free(before);
		return;
	}
	w->plane_before = before;
	w->plane_after_crc = session_param_crc(w->s->net);
	w->plane_step = 2;
	w->plane_step_layer = layer;
}

void worker_plane_sample(Worker *w, const Net *net, double epoch, int force)
{
	/* the worker thread writes pl, so reading it here needs no lock */
	const ShownPlane *p = &w->shown.pl;
	double t = clock_seconds();
	/* at most 2.5 % of the time (beside the live κ's 5 %), unless forced */
	if (!p->on || net->graph || (!force && t - w->plane_last < fmax(0.25, 39 * w->plane_cost)))
		return;
	Err e = {{0}};
	ShownPlane n = {0};
	n.box = p->box;
	n.tau = w->s->tau;
	/* the maps in pivoted-QR order, without the squeeze's marks (its κ loop
	 * costs more than the rest): every neuron "kept" */
	int *all = malloc((size_t)net->m * sizeof *all);
	for (int i = 1; all && i < net->m; i++)
		all[i - 1] = net->n[i];
	if (!all || plane_shown_compute(net, net, n.tau, all, NULL, &n, &e) < 0) {
		free(all);
		plane_shown_free(&n);
		return;
	}
	free(all);
	n.live = 1;
	n.epoch = epoch;
	n.on = 1;
	n.k = p->k;
	n.crc = session_param_crc(net);
	/* the points stay */
	pthread_mutex_lock(&w->mu);
	ShownPlane old = w->shown.pl;
	n.npts = old.npts;
	n.pts = old.pts;
	n.lab = old.lab;
	w->shown.pl = n;
	pthread_mutex_unlock(&w->mu);
	old.pts = NULL;
	old.lab = NULL;
	plane_shown_free(&old);
	w->plane_last = clock_seconds();
	w->plane_cost = w->plane_last - t;
}
