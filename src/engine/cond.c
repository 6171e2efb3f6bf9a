/* cond.c - the conditioning of a network's stacked weight matrices
 * Ŵ = [W; bᵀ]: one layer, or all layers on threads, from the matrix
 * primitives of cond_matrix.c. */
#include "engine/cond.h"
#include "engine/hook.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/blas.h"
#include "base/fpmode.h"
#include "engine/cond_matrix.h"

int cond_layers(const Net *net)
{
	return net->graph ? graph_nlayers(net->graph) : net->m;
}

/* Layer l's W and b, its rows and columns: a chain's layer, or a graph
 * network's Conv or Gemm node. */
static void layer_matrix(const Net *net, int l, const float **W, const float **b, int *rows,
                         int *cols)
{
	if (net->graph) {
		const Graph *g = net->graph;
		int k = graph_layer_node(g, l);
		*rows = graph_rows(g, k);
		*cols = graph_cols(g, k);
		*W = net->param + g->node[k].off;
		*b = *W + (size_t)*rows * *cols;
		return;
	}
	/* a convolution's rows are C_in·K·K, its columns C_out (net.h) */
	*rows = net_rows(net, l - 1);
	*cols = net_cols(net, l - 1);
	*W = net->W[l - 1];
	*b = net->b[l - 1];
}

double *cond_stacked(const Net *net, int layer, const int *cols_sel, int ncols, int *rows,
                     int *cols, Err *e)
{
	if (!net || layer < 1 || layer > cond_layers(net)) {
		err_set(e, "layer %d does not exist (expected 1..%d)", layer,
		        net ? cond_layers(net) : 0);
		return NULL;
	}
	int nin, nout;
	const float *W, *b;
	layer_matrix(net, layer, &W, &b, &nin, &nout);
	int nc = cols_sel ? ncols : nout;
	if (nc < 1) {
		err_set(e, "layer %d: %d columns of Ŵ asked for, expected at least 1", layer, nc);
		return NULL;
	}
	for (int j = 0; cols_sel && j < nc; j++)
		if (cols_sel[j] < 0 || cols_sel[j] >= nout) {
			err_set(e, "layer %d: %s %d does not exist (expected 0..%d)", layer,
			        net_unit_name(net, layer, 0), cols_sel[j], nout - 1);
			return NULL;
		}
	double *A = malloc((size_t)(nin + 1) * nc * sizeof *A);
	if (!A) {
		err_set(e, "layer %d: out of memory for Ŵ", layer);
		return NULL;
	}
	for (int j = 0; j < nc; j++) {
		int c = cols_sel ? cols_sel[j] : j;
		for (int r = 0; r < nin; r++)
			A[(size_t)r * nc + j] = W[(size_t)r * nout + c];
		A[(size_t)nin * nc + j] = b[c];
	}
	if (rows)
		*rows = nin + 1;
	if (cols)
		*cols = nc;
	return A;
}

/* Algorithm 1, line 4: p = #{σ_j < σ₁/τ}; Algorithm 3, line 4 (relative):
 * rank_qr = #{|r_jj| ≥ |r_11|/τ}. A zero matrix has rank 0. */
void cond_set_tau(LayerCond *lc, double tau)
{
	lc->tau = tau;
	lc->p = 0;
	if (lc->sv[0] <= 0.0) {
		lc->p = lc->nsv;
	} else {
		for (int j = 0; j < lc->nsv; j++)
			if (lc->sv[j] < lc->sv[0] / tau)
				lc->p++;
	}
	lc->rank_svd = lc->nsv - lc->p;
	lc->rank_qr = lc->rdiag ? 0 : -1;
	for (int j = 0; lc->rdiag && j < lc->nsv; j++)
		if (lc->rdiag[j] > 0.0 && lc->rdiag[j] >= 1.0 / tau)
			lc->rank_qr++;
}

/* Significant digits of κ in text: the 13th digit differs between
 * OpenBLAS's kernels (base/repro.h), the 6th does not. */
#define KAPPA_DIGITS 6

const char *cond_kappa_str(double kappa, double tau, char *buf, size_t len)
{
	if (isinf(kappa) || isnan(kappa)) {
		snprintf(buf, len, "%s", isnan(kappa) ? "nan" : "inf");
		return buf;
	}
	double shown = kappa;
	for (int d = 4; d <= KAPPA_DIGITS; d++) {
		snprintf(buf, len, "%.*g", d, kappa);
		shown = strtod(buf, NULL);
		if (!(tau > 0) || (cond_over(shown, tau) == cond_over(kappa, tau) &&
		                   (shown != tau || kappa == tau)))
			return buf;
	}
	/* KAPPA_DIGITS put κ on τ or across it: the number of that many digits
	 * next to τ on κ's side */
	double step = pow(10.0, floor(log10(fabs(shown))) - (KAPPA_DIGITS - 1));
	int over = cond_over(kappa, tau);
	for (int k = 0; k < 100 && (over ? !cond_over(shown, tau) : !(shown < tau)); k++) {
		shown += over ? step : -step;
		snprintf(buf, len, "%.*g", KAPPA_DIGITS, shown);
		shown = strtod(buf, NULL);
	}
	return buf;
}

void cond_layer_free(LayerCond *lc)
{
	if (!lc)
		return;
	free(lc->sv);
	free(lc->perm);
	free(lc->rdiag);
	lc->sv = NULL;
	lc->perm = NULL;
	lc->rdiag = NULL;
}

int cond_over(double kappa, double tau)
{
	return kappa > tau;
}

int cond_check_tau(double tau, Err *e)
{
	if (!(tau >= 1.0) || isinf(tau))
		return err_set(e, "τ = %g, expected a finite number ≥ 1", tau);
	return 0;
}

/* One layer: σ's and κ, and the pivoted QR when with_qr (cond_sv_qrpt, which
 * reduces a tall Ŵ to its triangle once for both). */
static int layer_fill_part(const Net *net, int layer, double tau, int with_qr, LayerCond *lc,
                           Err *e)
{
	memset(lc, 0, sizeof *lc);
	if (!net || layer < 1 || layer > cond_layers(net))
		return err_set(e, "layer %d does not exist (expected 1..%d)", layer,
		               net ? cond_layers(net) : 0);
	if (cond_check_tau(tau, e))
		return -1;
	int rows, cols, rc = -1;
	double *A = cond_stacked(net, layer, NULL, 0, &rows, &cols, e);
	if (!A)
		return -1;
	lc->layer = layer;
	lc->node = net->graph ? graph_layer_node(net->graph, layer) : 0;
	lc->conv = net->graph ? net->graph->node[lc->node].op == GRAPH_CONV : layer <= net->nconv;
	lc->rows = rows;
	lc->cols = cols;
	lc->nsv = rows < cols ? rows : cols;
	lc->sv = malloc((size_t)lc->nsv * sizeof *lc->sv);
	if (with_qr) {
		lc->rdiag = malloc((size_t)lc->nsv * sizeof *lc->rdiag);
		lc->perm = malloc((size_t)cols * sizeof *lc->perm);
	}
	if (!lc->sv || (with_qr && (!lc->rdiag || !lc->perm))) {
		err_set(e, "layer %d: out of memory", layer);
		goto fail;
	}
	/* a large decomposition may be stopped (1), its message prefixed too */
	rc = with_qr ? cond_sv_qrpt(A, rows, cols, lc->sv, lc->perm, lc->rdiag, e)
	             : cond_singular_values(A, rows, cols, lc->sv, e);
	if (rc) {
		err_prefix(e, "layer %d: Ŵ", layer);
		goto fail;
	}
	free(A);
	lc->kappa = cond_kappa_sv(lc->sv, lc->nsv);
	cond_set_tau(lc, tau);
	return 0;
fail:
	free(A);
	cond_layer_free(lc);
	return rc;
}

/* One layer: σ's and κ, and the pivoted QR when with_qr (cond_sv_qrpt, which
 * reduces a tall Ŵ to its triangle once for both); reported to the thread's
 * meter as what it is. */
static int layer_fill(const Net *net, int layer, double tau, int with_qr, LayerCond *lc, Err *e)
{
	char what[96];
	snprintf(what, sizeof what, "%s of layer %d", with_qr ? "κ and pivoted QR" : "κ", layer);
	HookPart was = hook_meter_part(what, 0.0, 1.0);
	int rc = layer_fill_part(net, layer, tau, with_qr, lc, e);
	hook_meter_restore(was);
	return rc;
}

int cond_layer(const Net *net, int layer, double tau, LayerCond *lc, Err *e)
{
	return layer_fill(net, layer, tau, 1, lc, e);
}

int cond_layer_values(const Net *net, int layer, double tau, LayerCond *lc, Err *e)
{
	return layer_fill(net, layer, tau, 0, lc, e);
}

#define COND_MAX_THREADS 16

static atomic_int cond_threads;

void cond_set_threads(int n)
{
	atomic_store(&cond_threads, n > 0 ? n : 0);
	cond_matrix_set_threads(n);
}

/* The layers of one cond_net call, handed out one at a time to the threads. */
typedef struct Batch {
	const Net *net;
	double tau;
	int with_qr;
	LayerCond *lc;
	Err *errs;  /* one message per layer */
	int *rc;    /* one status per layer */
	int *order; /* layers, most expensive first */
	atomic_int next;
	int (*stop)(void *); /* the caller's stop predicate, or NULL */
	void *stop_ud;
	atomic_int stopped; /* the first layer not begun for a stop, or 0 */
	atomic_int cut;     /* a layer stopped while it was decomposed, or 0 */
	HookMeter meter;    /* the caller's meter, or NULL */
	void *meter_ud;
	HookPart part; /* the caller's part of its whole */
	pthread_mutex_t meter_mu;
	double *frac; /* per layer: the share of its work done */
	double *cost; /* per layer: its work, for the whole's share */
	char what[64];
} Batch;

/* The meter of a layer's thread: its share into frac[l-1], the whole's
 * share (layers weighted by their work) to the caller's meter. */
typedef struct BatchSlot {
	Batch *b;
	int l;
} BatchSlot;

static void batch_meter(const char *what, double frac, void *ud)
{
	(void)what;
	BatchSlot *s = ud;
	Batch *b = s->b;
	pthread_mutex_lock(&b->meter_mu);
	b->frac[s->l - 1] = frac;
	double done = 0, all = 0;
	for (int i = 0; i < cond_layers(b->net); i++) {
		done += b->cost[i] * b->frac[i];
		all += b->cost[i];
	}
	double f = all > 0 ? done / all : 1.0;
	b->meter(b->what, b->part.f0 + f * (b->part.f1 - b->part.f0), b->meter_ud);
	pthread_mutex_unlock(&b->meter_mu);
}

static void *batch_run(void *arg)
{
	Batch *b = arg;
	int k;
	/* the decompositions ask the caller's stop (cond_matrix.h) and report to
	 * the batch */
	int (*stop0)(void *);
	void *stop_ud0, *meter_ud0;
	HookMeter meter0;
	hook_thread_stop_get(&stop0, &stop_ud0);
	hook_thread_meter_get(&meter0, &meter_ud0);
	HookPart part0 = hook_meter_part(NULL, 0.0, 1.0);
	hook_set_thread_stop(b->stop, b->stop_ud);
	cond_matrix_one_thread(1);
	while ((k = atomic_fetch_add(&b->next, 1)) < cond_layers(b->net)) {
		int l = b->order[k];
		if (atomic_load(&b->stopped) || atomic_load(&b->cut) ||
		    (b->stop && b->stop(b->stop_ud))) {
			int none = 0;
			atomic_compare_exchange_strong(&b->stopped, &none, l);
			b->rc[l - 1] = -1;
			continue;
		}
		BatchSlot slot = {b, l};
		hook_set_thread_meter(b->meter ? batch_meter : NULL, &slot);
		b->rc[l - 1] =
		    layer_fill(b->net, l, b->tau, b->with_qr, &b->lc[l - 1], &b->errs[l - 1]);
		if (b->meter && b->rc[l - 1] == 0) /* GSL's path reports nothing on its way */
			batch_meter(NULL, 1.0, &slot);
		if (b->rc[l - 1] == 1) {
			int none = 0;
			atomic_compare_exchange_strong(&b->cut, &none, l);
		}
	}
	cond_matrix_one_thread(0);
	hook_set_thread_stop(stop0, stop_ud0);
	hook_set_thread_meter(meter0, meter_ud0);
	hook_meter_restore(part0);
	return NULL;
}

/* Work of one layer's decomposition, ∝ min(r, c)²·max(r, c). */
static double layer_cost(const Net *net, int layer)
{
	const float *W, *b;
	int rows, cols;
	layer_matrix(net, layer, &W, &b, &rows, &cols);
	double r = rows + 1.0, c = cols;
	return r < c ? r * r * c : c * c * r;
}

/* All layers, each decomposed by exactly one thread with the same code as
 * cond_layer, so the thread count changes the time but not one bit of the
 * results. On failure the message is the lowest failing layer's. Long on
 * purpose: the team's share-out, its stop and its failures in one place. */
static int net_fill(const Net *net, double tau, int with_qr, LayerCond *lc, Err *e)
{
	if (!net)
		return err_set(e, "no network");
	int m = cond_layers(net);
	if (m < 1)
		return 0;
	memset(lc, 0, (size_t)m * sizeof *lc);
	if (cond_check_tau(tau, e))
		return -1;
	Batch b = {.net = net, .tau = tau, .with_qr = with_qr, .lc = lc};
	hook_thread_stop_get(&b.stop, &b.stop_ud);
	hook_thread_meter_get(&b.meter, &b.meter_ud);
	b.part = hook_meter_part(NULL, 0.0, 1.0);
	hook_meter_restore(b.part);
	snprintf(b.what, sizeof b.what, "%s of %d layer%s", with_qr ? "κ and pivoted QR" : "κ", m,
	         m == 1 ? "" : "s");
	b.errs = calloc((size_t)m, sizeof *b.errs);
	b.rc = calloc((size_t)m, sizeof *b.rc);
	b.order = malloc((size_t)m * sizeof *b.order);
	b.frac = calloc((size_t)m, sizeof *b.frac);
	b.cost = malloc((size_t)m * sizeof *b.cost);
	if (!b.errs || !b.rc || !b.order || !b.frac || !b.cost) {
		free(b.errs);
		free(b.rc);
		free(b.order);
		free(b.frac);
		free(b.cost);
		return err_set(e, "out of memory for the conditioning of %d layers", m);
	}
	pthread_mutex_init(&b.meter_mu, NULL);
	for (int l = 1; l <= m; l++)
		b.cost[l - 1] = layer_cost(net, l);
	for (int k = 0; k < m; k++) {
		int l = k + 1, j = k;
		for (; j > 0 && layer_cost(net, b.order[j - 1]) < layer_cost(net, l); j--)
			b.order[j] = b.order[j - 1];
		b.order[j] = l;
	}
	atomic_init(&b.next, 0);
	atomic_init(&b.stopped, 0);
	atomic_init(&b.cut, 0);
	int nt = atomic_load(&cond_threads);
	if (nt == 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		nt = cpus > 0 ? (int)cpus : 1;
	}
	nt = nt < m ? nt : m;
	nt = nt < COND_MAX_THREADS ? nt : COND_MAX_THREADS;
	/* GSL's Householder steps call OpenBLAS's level 2 on matrices of a few
	 * hundred rows: its threads gain nothing there and, shared by two
	 * layers, cost twice the time in hand-offs. One while the layers run. */
	int blas_threads = blas_get_threads();
	if (blas_threads > 1)
		blas_set_threads(1);
	pthread_t tid[COND_MAX_THREADS];
	int started = 0;
	/* A thread that cannot be started leaves its share to the others. */
	for (; started < nt - 1; started++)
		if (thread_start(&tid[started], batch_run, &b) != 0)
			break;
	batch_run(&b);
	for (int k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	if (blas_threads > 1)
		blas_set_threads(blas_threads);
	int rc = 0;
	for (int l = 1; l <= m; l++) {
		if (b.rc[l - 1] < 0 && rc == 0) {
			rc = -1;
			if (e)
				*e = b.errs[l - 1];
		}
	}
	/* a layer stopped inside its decomposition says so itself */
	int cut = atomic_load(&b.cut);
	if (cut) {
		rc = 1;
		if (e)
			*e = b.errs[cut - 1];
	} else if (atomic_load(&b.stopped)) {
		rc = err_stop(e, "stopped before layer %d", atomic_load(&b.stopped));
	}
	if (rc)
		for (int l = 1; l <= m; l++)
			cond_layer_free(&lc[l - 1]);
	pthread_mutex_destroy(&b.meter_mu);
	free(b.errs);
	free(b.rc);
	free(b.order);
	free(b.frac);
	free(b.cost);
	return rc;
}

int cond_net(const Net *net, double tau, LayerCond *lc, Err *e)
{
	return net_fill(net, tau, 1, lc, e);
}

int cond_net_values(const Net *net, double tau, LayerCond *lc, Err *e)
{
	return net_fill(net, tau, 0, lc, e);
}

int cond_net_new(const Net *net, double tau, int with_qr, LayerCond **lc, Err *e)
{
	*lc = NULL;
	if (!net)
		return err_set(e, "no network");
	int m = cond_layers(net);
	LayerCond *c = calloc((size_t)(m > 0 ? m : 1), sizeof *c);
	if (!c)
		return err_set(e, "out of memory for the conditioning of %d layers", m);
	int rc = net_fill(net, tau, with_qr, c, e);
	if (rc != 0) {
		free(c);
		return rc;
	}
	*lc = c;
	return 0;
}

void cond_net_free(LayerCond *lc, int m)
{
	for (int i = 0; lc && i < m; i++)
		cond_layer_free(&lc[i]);
	free(lc);
}

double cond_max_kappa(const LayerCond *lc, int m)
{
	double k = 0;
	for (int i = 0; i < m; i++)
		if (!(lc[i].kappa <= k))
			k = isnan(lc[i].kappa) ? INFINITY : lc[i].kappa;
	return k;
}

int cond_kappa_columns(const Net *net, int layer, const int *cols_sel, int ncols, double *kappa,
                       Err *e)
{
	return cond_kappa_columns_s1(net, layer, cols_sel, ncols, kappa, NULL, e);
}

int cond_kappa_columns_s1(const Net *net, int layer, const int *cols_sel, int ncols, double *kappa,
                          double *s1, Err *e)
{
	*kappa = NAN;
	if (net && net_refuse_graph(net, "the conditioning of chosen columns", e))
		return -1;
	if (!net || layer < 1 || layer > net->m)
		return err_set(e, "layer %d does not exist (expected 1..%d)", layer,
		               net ? net->m : 0);
	if (ncols < 1)
		return err_set(e, "layer %d: %d columns selected, expected at least 1", layer,
		               ncols);
	int units = net_cols(net, layer - 1);
	for (int j = 0; j < ncols; j++)
		if (cols_sel[j] < 0 || cols_sel[j] >= units)
			return err_set(e, "layer %d: column %d is not a %s (expected 0..%d)", layer,
			               cols_sel[j], net_unit_name(net, layer, 0), units - 1);
	int rows, cols;
	double *A = cond_stacked(net, layer, cols_sel, ncols, &rows, &cols, e);
	if (!A)
		return -1;
	int rc = cond_kappa_s1(A, rows, cols, kappa, s1, e);
	free(A);
	if (rc) /* failed, or stopped (1) */
		err_prefix(e, "layer %d: Ŵ", layer);
	return rc;
}
