/* tui/worker_diagram.c - what the network diagram (view 8) shows, computed
 * on the worker and published: the widths, the weights among the first
 * DIAG_MAX neurons of every layer with each layer's largest |w|, on data in
 * the plane the maps of the inputs and of the class probabilities over it
 * (engine/plane.h; the hidden neurons' are the Plane view's), and the
 * combinations of the squeeze proposal waiting (alg/alg3_combination.h).
 * After a job, and while a network trains at most every quarter second (as
 * the regions) or, at a slow speed, after every epoch. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg3_combination.h"
#include "base/clock.h"
#include "tui/worker.h"
#include "tui/worker_int.h"

void worker_diagram_free(ShownNet *d)
{
	for (int i = 0; d->w && i < d->m; i++)
		free(d->w[i]);
	free(d->w);
	free(d->n);
	free(d->wmax);
	free(d->in_maps);
	free(d->out_maps);
	for (int i = 0; d->hid_maps && i < d->m - 1; i++)
		free(d->hid_maps[i]);
	free(d->hid_maps);
	alg3_combinations_free(&d->c);
	graph_free(d->graph);
	memset(d, 0, sizeof *d);
}

/* The weights of net into d (m, n, w, wmax); -1 when out of memory. */
static int weights(const Net *net, ShownNet *d)
{
	d->m = net->m;
	d->n = malloc((size_t)(net->m + 1) * sizeof *d->n);
	d->w = calloc((size_t)net->m, sizeof *d->w);
	d->wmax = calloc((size_t)net->m, sizeof *d->wmax);
	if (!d->n || !d->w || !d->wmax)
		return -1;
	memcpy(d->n, net->n, (size_t)(net->m + 1) * sizeof *d->n);
	for (int i = 0; i < net->m; i++) {
		if (i < net->nconv)
			continue; /* a convolution's weights are its kernels: no lines */
		int rows = net->n[i], cols = net->n[i + 1];
		int r = rows < DIAG_MAX ? rows : DIAG_MAX, c = cols < DIAG_MAX ? cols : DIAG_MAX;
		if (!(d->w[i] = malloc((size_t)r * c * sizeof *d->w[i])))
			return -1;
		for (int j = 0; j < r; j++)
			memcpy(d->w[i] + (size_t)j * c, net->W[i] + (size_t)j * cols,
			       (size_t)c * sizeof(float));
		double mx = 0;
		for (size_t k = 0; k < (size_t)rows * cols; k++)
			mx = fmax(mx, fabs(net->W[i][k]));
		d->wmax[i] = mx;
	}
	return 0;
}

/* The maps of net's inputs and outputs over box into d. */
static int io_maps(const Net *net, const PlaneBox *box, ShownNet *d, Err *e)
{
	PlaneMaps in, out;
	size_t np = (size_t)PLANE_MAP_PX * PLANE_MAP_PX;
	if (plane_io_maps(net, 0, box, PLANE_MAP_PX, PLANE_MAP_PX, &in, e) < 0)
		return -1;
	if (plane_io_maps(net, net->m, box, PLANE_MAP_PX, PLANE_MAP_PX, &out, e) < 0) {
		plane_maps_free(&in);
		return -1;
	}
	int nin = in.n < DIAG_MAX ? in.n : DIAG_MAX;
	d->in_maps = malloc((size_t)nin * np * sizeof *d->in_maps);
	if (d->in_maps)
		memcpy(d->in_maps, in.z, (size_t)nin * np * sizeof *d->in_maps);
	d->out_maps = out.z; /* taken over */
	plane_maps_free(&in);
	if (!d->in_maps)
		return err_set(e, "out of memory for the inputs' maps");
	/* every hidden neuron's activation: the network as it is (the Plane
	 * view's maps may be of the one before a step) */
	if (net->m > 1 && !(d->hid_maps = calloc((size_t)net->m - 1, sizeof *d->hid_maps)))
		return err_set(e, "out of memory for the maps");
	for (int l = 1; l < net->m; l++) {
		PlaneMaps pm;
		int n = net->n[l] < DIAG_MAX ? net->n[l] : DIAG_MAX;
		if (plane_maps(net, l, box, PLANE_MAP_PX, PLANE_MAP_PX, &pm, e) < 0)
			return -1;
		d->hid_maps[l - 1] = malloc((size_t)n * np * sizeof **d->hid_maps);
		for (int j = 0; d->hid_maps[l - 1] && j < n; j++)
			plane_map_activation(net, &pm, j, d->hid_maps[l - 1] + (size_t)j * np);
		plane_maps_free(&pm);
		if (!d->hid_maps[l - 1])
			return err_set(e, "out of memory for the maps of layer %d", l);
	}
	d->plane = 1;
	return 0;
}

/* What the diagram shows of net into d: the proposal's combinations when
 * sp is given (in activations too, fitted on sample, as the Plane view's),
 * the maps on data in the plane (box given). */
static int diagram(const Net *net, const Alg3Proposal *sp, const Dataset *sample,
                   const PlaneBox *box, ShownNet *d, Err *e)
{
	memset(d, 0, sizeof *d);
	if (net->graph) /* its nodes, in their order: no weights, maps or proposal */
		return (d->graph = graph_clone(net->graph, e)) ? 0 : -1;
	if (weights(net, d) < 0)
		return err_set(e, "out of memory for the diagram");
	if (box && io_maps(net, box, d, e) < 0)
		return -1;
	if (sp && alg3_combinations_of(net, sp, &d->c, e) < 0)
		return -1;
	/* where the refit works: what a class compares the maps with */
	if (sp && sample)
		alg3_combinations_act(net, sample, &d->c, NULL);
	return 0;
}

/* Puts d in place of what is shown, freeing the old. */
static void swap_in(Worker *w, ShownNet *d)
{
	pthread_mutex_lock(&w->mu);
	ShownNet old = w->shown.net;
	w->shown.net = *d;
	pthread_mutex_unlock(&w->mu);
	worker_diagram_free(&old);
}

void worker_diagram_publish(Worker *w)
{
	const Session *s = w->s;
	ShownNet d = {0};
	Err e = {{0}};
	if (!s->net) {
		swap_in(w, &d);
		return;
	}
	/* the worker thread writes pl: read without the lock */
	const ShownPlane *pl = &w->shown.pl;
	if (diagram(s->net, session_squeeze_proposal(s), s->train, pl->on ? &pl->box : NULL, &d,
	            &e) < 0) {
		worker_diagram_free(&d);
		worker_status(w, 1, "the network diagram: %s", e.msg[0] ? e.msg : "out of memory");
		return;
	}
	d.inputs = s->inputs;
	d.crc = session_param_crc(s->net);
	swap_in(w, &d);
}

void worker_diagram_sample(Worker *w, const Net *net, int force)
{
	double t = clock_seconds();
	if (!force && t - w->diagram_last < fmax(0.25, 39 * w->diagram_cost))
		return;
	const ShownPlane *pl = &w->shown.pl;
	ShownNet d;
	if (diagram(net, NULL, NULL, pl->on ? &pl->box : NULL, &d, NULL) < 0) {
		worker_diagram_free(&d);
		return;
	}
	d.inputs = w->s->inputs;
	d.live = 1;
	swap_in(w, &d);
	w->diagram_last = clock_seconds();
	w->diagram_cost = w->diagram_last - t;
}
