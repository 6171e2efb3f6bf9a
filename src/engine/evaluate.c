/* evaluate.c - a network's answers on a labelled data set, its confusion
 * matrix and per-class figures, and the agreement of two networks. */
#include "engine/evaluate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int net_evaluate(const Net *net, const Dataset *d, int with_prob, NetRowsFn progress, void *ud,
                 Evaluation *out, Err *e)
{
	memset(out, 0, sizeof *out);
	int k = net->n[net->m];
	if (d->d != net->n[0])
		return err_set(e, "the network has %d inputs, but %s has %d features", net->n[0],
		               d->name, d->d);
	if (d->n < 1)
		return err_set(e, "%s has no rows", d->name);
	out->n = d->n;
	out->k = k;
	out->cls = malloc((size_t)d->n * sizeof *out->cls);
	out->rows = calloc((size_t)k, sizeof *out->rows);
	out->answered = calloc((size_t)k, sizeof *out->answered);
	out->hits = calloc((size_t)k, sizeof *out->hits);
	int conf = k <= EVAL_MAX_CONFUSION;
	if (conf)
		out->confusion = calloc((size_t)k * (size_t)k, sizeof *out->confusion);
	if (with_prob)
		out->prob = malloc((size_t)d->n * (size_t)k * sizeof *out->prob);
	if (!out->cls || !out->rows || !out->answered || !out->hits || (conf && !out->confusion) ||
	    (with_prob && !out->prob)) {
		evaluation_free(out);
		return err_set(e, "out of memory for the answers to %d rows", d->n);
	}
	int rc = net_classify(net, d->x, d->y, d->n, out->cls, out->prob, &out->correct, &out->loss,
	                      progress, ud, e);
	if (rc) {
		if (rc < 0)
			err_prefix(e, "%s", d->name);
		evaluation_free(out);
		return rc;
	}
	out->error = 1.0 - (double)out->correct / d->n;
	for (int r = 0; r < d->n; r++) {
		int t = d->y[r], a = out->cls[r];
		out->rows[t]++;
		if (a == NET_NO_ANSWER) {
			out->no_answer++;
			continue;
		}
		out->answered[a]++;
		out->hits[t] += t == a;
		if (out->confusion)
			out->confusion[(size_t)t * k + a]++;
	}
	return 0;
}

void evaluation_free(Evaluation *ev)
{
	free(ev->cls);
	free(ev->prob);
	free(ev->rows);
	free(ev->answered);
	free(ev->hits);
	free(ev->confusion);
	memset(ev, 0, sizeof *ev);
}

double evaluation_precision(const Evaluation *ev, int c)
{
	return ev->answered[c] ? (double)ev->hits[c] / ev->answered[c] : NAN;
}

double evaluation_recall(const Evaluation *ev, int c)
{
	return ev->rows[c] ? (double)ev->hits[c] / ev->rows[c] : NAN;
}

int agreement_of(const int *a, const int *b, const int *y, int n, int k, Agreement *out, Err *e)
{
	memset(out, 0, sizeof *out);
	if (n < 1 || k < 1)
		return err_set(e, "an agreement of %d rows and %d classes", n, k);
	out->differ = calloc((size_t)k, sizeof *out->differ);
	if (!out->differ)
		return err_set(e, "out of memory");
	for (int r = 0; r < n; r++) {
		if (y[r] < 0 || y[r] >= k) {
			agreement_free(out);
			return err_set(e, "row %d has class %d, outside 0..%d", r + 1, y[r], k - 1);
		}
		if (a[r] == b[r] && a[r] != NET_NO_ANSWER)
			out->same++;
		else
			out->differ[y[r]]++;
	}
	out->n = n;
	out->k = k;
	out->share = (double)out->same / n;
	return 0;
}

int evaluation_agreement(const Evaluation *a, const Evaluation *b, const int *y, Agreement *out,
                         Err *e)
{
	if (a->n != b->n)
		return err_set(e, "answers to %d and to %d rows cannot be compared", a->n, b->n);
	return agreement_of(a->cls, b->cls, y, a->n, a->k > b->k ? a->k : b->k, out, e);
}

int net_agreement(const Net *a, const Net *b, const Dataset *d, Agreement *out, Err *e)
{
	Evaluation ea, eb;
	memset(out, 0, sizeof *out);
	if (net_evaluate(a, d, 0, NULL, NULL, &ea, e))
		return -1;
	int rc = net_evaluate(b, d, 0, NULL, NULL, &eb, e);
	if (rc == 0) {
		rc = evaluation_agreement(&ea, &eb, d->y, out, e);
		evaluation_free(&eb);
	}
	evaluation_free(&ea);
	return rc ? -1 : 0;
}

void agreement_free(Agreement *ag)
{
	free(ag->differ);
	ag->differ = NULL;
}
