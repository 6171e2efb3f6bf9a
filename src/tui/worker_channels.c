/* tui/worker_channels.c - what the Plane view shows of a network with
 * convolutions, computed on the worker with the library and published: on
 * example images of the test set, every convolution layer's channel maps
 * in pivoted-QR order with the squeeze's marks at τ, and for each channel
 * the squeeze drops the map of the combination of kept channels that
 * replaces it (alg/alg3_combination.h: its column of Ŵ as a combination of
 * the kept columns; engine/conv_maps.h: that combination's map). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg3_combination.h"
#include "engine/conv_maps.h"
#include "tui/worker.h"
#include "tui/worker_int.h"

void channels_shown_free(ShownChannels *c)
{
	for (int i = 0; c->layers && i < c->nconv; i++) {
		alg3_combinations_free(&c->layers[i].c);
		free(c->layers[i].act);
		free(c->layers[i].comb);
	}
	free(c->layers);
	free(c->img);
	memset(c, 0, sizeof *c);
}

/* The first test row of each class, in class order, at most CHAN_EXAMPLES. */
static void examples(const Dataset *d, ShownChannels *c)
{
	c->nex = 0;
	for (int k = 0; k < d->k && c->nex < CHAN_EXAMPLES; k++)
		for (int r = 0; r < d->n; r++)
			if (d->y[r] == k) {
				c->row[c->nex] = r;
				c->label[c->nex++] = k;
				break;
			}
}

/* Layer `layer`'s maps on every example, with the squeeze's marks at tau. */
static int layer_maps(const Net *net, const Dataset *test, int layer, double tau,
                      const ShownChannels *c, ShownChanLayer *out, Err *e)
{
	if (alg3_combinations_at(net, layer, tau, &out->c, e))
		return -1;
	const ConvShape *cs = &net->conv[layer - 1];
	const Alg3Combinations *cb = &out->c;
	size_t per = (size_t)cs->h_out * cs->w_out;
	int n = cb->n, gone = n - cb->nkeep;
	out->h = cs->h_out;
	out->w = cs->w_out;
	float *maps = malloc((size_t)n * per * sizeof *maps);
	out->act = malloc((size_t)c->nex * n * per * sizeof *out->act);
	out->comb = malloc(((size_t)c->nex * gone * per + 1) * sizeof *out->comb);
	int rc = maps && out->act && out->comb ? 0 : err_set(e, "out of memory for the maps");
	for (int x = 0; rc == 0 && x < c->nex; x++) {
		const float *img = test->x + (size_t)c->row[x] * test->d;
		rc = conv_channel_maps(net, layer, img, maps, cb->perm, cb->nkeep, cb->coef, gone,
		                       out->comb + (size_t)x * gone * per, e);
		for (int t = 0; rc == 0 && t < n; t++)
			memcpy(out->act + ((size_t)x * n + t) * per,
			       maps + (size_t)cb->perm[t] * per, per * sizeof *maps);
	}
	free(maps);
	return rc;
}

static int compute(const Session *s, ShownChannels *c, Err *e)
{
	const Net *net = s->net;
	examples(s->test, c);
	if (c->nex == 0)
		return err_set(e, "the test set has no rows");
	net_input_shape(net, &c->c, &c->h, &c->w);
	size_t d = (size_t)c->c * c->h * c->w;
	c->img = malloc((size_t)c->nex * d * sizeof *c->img);
	c->layers = calloc((size_t)net->nconv, sizeof *c->layers);
	if (!c->img || !c->layers)
		return err_set(e, "out of memory for the maps");
	for (int x = 0; x < c->nex; x++)
		memcpy(c->img + (size_t)x * d, s->test->x + (size_t)c->row[x] * s->test->d,
		       d * sizeof *c->img);
	c->nconv = net->nconv;
	for (int i = 1; i <= net->nconv; i++)
		if (layer_maps(net, s->test, i, c->tau, c, &c->layers[i - 1], e))
			return err_prefix(e, "layer %d", i);
	return 0;
}

void worker_channels_publish(Worker *w)
{
	Session *s = w->s;
	Err e = {{0}};
	ShownChannels n = {0};
	n.tau = s->tau;
	n.on = s->net && s->net->nconv > 0;
	if (n.on && !s->test)
		snprintf(n.why, sizeof n.why, "no test set to take example images from");
	else if (n.on && compute(s, &n, &e) < 0) {
		channels_shown_free(&n);
		n.on = 1;
		n.tau = s->tau;
		snprintf(n.why, sizeof n.why, "%.150s", e.msg[0] ? e.msg : "out of memory");
	}
	pthread_mutex_lock(&w->mu);
	ShownChannels old = w->shown.ch;
	w->shown.ch = n;
	pthread_mutex_unlock(&w->mu);
	channels_shown_free(&old);
}
