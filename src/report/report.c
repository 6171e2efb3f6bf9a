/* report.c - the records of the algorithms: a network's conditioning per
 * layer, Algorithm 1's iterations and a β sweep, each
 * described once (report_rec.h) and written as the paper's tables and as
 * JSON (the files records are written to are report_write.c's). Squeeze
 * rounds are report_squeeze.c's. */
#include "report/report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_groups.h"
#include "report/report_int.h"
#include "report/report_layers.h"
#include "report/report_rec.h"

/* ---- a network's conditioning, layer by layer ---- */

/* A network with convolutions adds what each layer is (the kind column and
 * a convolution's sizes, absent for a dense network); a convolution's κ, p
 * and ranks are those of its Ŵ, a column per output channel, n_i its
 * channels. */
enum {
	CL_LAYER,
	CL_KIND,
	CL_GROUP,
	CL_TYPE,
	CL_N,
	CL_ROWS,
	CL_COLS,
	CL_KAPPA,
	CL_P,
	CL_SVD,
	CL_SV,
	CL_QR,
	CL_RDIAG,
	CL_CHANNELS,
	CL_KERNEL,
	CL_PADDING,
	CL_POOL,
	CL_MAPS,
	CL_NODE,
	CL_NCOL
};
static const RecCol cond_cols[CL_NCOL] = {
    [CL_LAYER] = {.head = "Layer",
                  .name = "layer",
                  .key = "layer",
                  .type = REC_INT,
                  .flags = REC_TC,
                  .dfmt = F_0F},
    [CL_KIND] = {.head = "kind", .name = "kind", .type = REC_TEXT, .flags = REC_TC | REC_OPT},
    [CL_TYPE] = {.key = "kind", .type = REC_TEXT},
    [CL_CHANNELS] = {.key = "channels", .type = REC_INT},
    [CL_KERNEL] = {.key = "kernel", .type = REC_INT},
    [CL_PADDING] = {.key = "padding", .type = REC_INT},
    [CL_POOL] = {.key = "pool", .type = REC_FLAG},
    [CL_MAPS] = {.key = "maps", .type = REC_ARRAY},
    [CL_NODE] = {.key = "node", .type = REC_INT}, /* a graph network's layer */
    /* a graph network's layer: its channel group (engine/graph_groups.h) */
    [CL_GROUP] = {.head = "group",
                  .name = "group",
                  .key = "group",
                  .type = REC_INT,
                  .flags = REC_TC | REC_OPT},
    [CL_N] =
        {.head = "n_i", .name = "n", .key = "n", .type = REC_COUNT, .flags = REC_TC, .dfmt = F_0F},
    [CL_ROWS] = {.key = "rows", .type = REC_INT},
    [CL_COLS] = {.key = "cols", .type = REC_INT},
    [CL_KAPPA] = {.head = "κ(Ŵ)",
                  .name = "kappa",
                  .key = "kappa",
                  .type = REC_KAPPA_TAU,
                  .flags = REC_TC | REC_JNULL,
                  .dfmt = F_17G},
    [CL_P] = {.head = "p (τ=%g)",
              .name = "p",
              .key = "p",
              .type = REC_INT,
              .flags = REC_TC | REC_JNULL,
              .dfmt = F_0F},
    [CL_SVD] = {.head = "rank (SVD)",
                .name = "rank_svd",
                .key = "rank_svd",
                .type = REC_INT,
                .flags = REC_TC | REC_JNULL,
                .dfmt = F_0F},
    [CL_SV] = {.key = "sv", .type = REC_ARRAY},
    /* "-" without the pivoted QR (cond_net_values) */
    [CL_QR] = {.head = "rank (QR)",
               .name = "rank_qr",
               .key = "rank_qr",
               .type = REC_INT,
               .flags = REC_TC,
               .cnone = "-",
               .dfmt = F_0F},
    [CL_RDIAG] = {.key = "rdiag", .type = REC_ARRAY},
};
static const RecKind cond_kind = {.col = cond_cols, .ncol = CL_NCOL};

/* What a layer of a network with convolutions is: its kind, and a
 * convolution's sizes (text into kind, its maps C, H, W into maps). */
static void conv_vals(const Net *net, int i, RecVal *r, char *kind, size_t len, int *maps)
{
	for (int c = CL_CHANNELS; c <= CL_NODE; c++)
		r[c] = rec_absent();
	r[CL_KIND] = r[CL_TYPE] = rec_absent();
	if (net && net->graph) { /* a graph network's layer i + 1: a Conv or Gemm node */
		int k = graph_layer_node(net->graph, i + 1);
		const GraphNode *n = &net->graph->node[k];
		r[CL_KIND] = (RecVal){.s = report_graph_kind(net->graph, k, kind, len)};
		r[CL_TYPE] = (RecVal){.s = n->op == GRAPH_CONV ? "conv" : "dense"};
		r[CL_NODE] = rec_num(k);
		maps[0] = n->c, maps[1] = n->h, maps[2] = n->w;
		if (n->op == GRAPH_CONV)
			r[CL_CHANNELS] = rec_num(n->c), r[CL_MAPS] = (RecVal){.ia = maps, .na = 3};
		return;
	}
	if (!net || !net->nconv)
		return;
	r[CL_KIND] = (RecVal){.s = report_layer_kind(net, i, kind, len)};
	r[CL_TYPE] = (RecVal){.s = i < net->nconv ? "conv" : "dense"};
	if (i >= net->nconv)
		return;
	const ConvShape *cs = &net->conv[i];
	r[CL_CHANNELS] = rec_num(cs->c_out);
	r[CL_KERNEL] = rec_num(cs->k);
	r[CL_PADDING] = rec_num(cs->pad);
	r[CL_POOL] = rec_num(cs->pool);
	maps[0] = cs->c_out;
	maps[1] = cs->h_out;
	maps[2] = cs->w_out;
	r[CL_MAPS] = (RecVal){.ia = maps, .na = 3};
}

/* The layers of lc (m of them; of net, which may be NULL) as records, into
 * *s (free s->v: the texts of the kinds are in the same block). */
static int cond_set(const Net *net, const LayerCond *lc, int m, RecSet *s, Err *e)
{
	enum { KIND = 128 };
	size_t nv = (size_t)(m > 0 ? m : 1) * CL_NCOL;
	RecVal *v = calloc(1, nv * sizeof *v + (size_t)(m > 0 ? m : 1) * (KIND + 3 * sizeof(int)));
	if (!v)
		return err_set(e, "out of memory for the table of %d layers", m);
	int *maps = (int *)(v + nv);
	char *kind = (char *)(maps + 3 * (m > 0 ? m : 1));
	/* a graph's groups; without them (too many channels) the column is left out */
	Err ge;
	ChannelGroups *gg = net && net->graph ? graph_groups(net->graph, &ge) : NULL;
	for (int i = 0; i < m; i++) {
		const LayerCond *l = &lc[i];
		RecVal *r = v + (size_t)i * CL_NCOL;
		r[CL_LAYER] = rec_num(l->layer);
		r[CL_N] = rec_num(l->cols);
		r[CL_ROWS] = rec_num(l->rows);
		r[CL_COLS] = rec_num(l->cols);
		r[CL_KAPPA] = (RecVal){.v = l->kappa, .aux = l->tau};
		r[CL_P] = rec_num(l->p);
		r[CL_SVD] = rec_num(l->rank_svd);
		r[CL_SV] = (RecVal){.a = l->sv, .na = l->nsv};
		r[CL_QR] = (RecVal){.v = l->rank_qr, .absent = l->rank_qr < 0};
		r[CL_RDIAG] = (RecVal){.a = l->rdiag, .na = l->nsv, .absent = !l->rdiag};
		conv_vals(net && i < cond_layers(net) ? net : NULL, i, r, kind + (size_t)i * KIND,
		          KIND, maps + 3 * (size_t)i);
		r[CL_GROUP] = gg && i < gg->nlayers ? rec_num(gg->of_layer[i] + 1) : rec_absent();
	}
	graph_groups_free(gg);
	*s = (RecSet){&cond_kind, v, m, m > 0 ? lc[0].tau : 0};
	return 0;
}

int report_cond(FILE *f, const Net *net, const LayerCond *lc, ReportFormat fmt, Err *e)
{
	RecSet s;
	if (cond_set(net, lc, cond_layers(net), &s, e))
		return -1;
	int rc = rec_table(f, &s, fmt, e);
	free((void *)s.v);
	return rc;
}

int report_cond_data(FILE *f, const LayerCond *lc, int m, double tau, Err *e)
{
	RecSet s;
	char note[64];
	if (cond_set(NULL, lc, m, &s, e))
		return -1;
	snprintf(note, sizeof note, "(tau = %g; kappa inf when singular)", tau);
	int rc = rec_data_head(f, &s, NULL, note, 0, e) || rec_data(f, &s, e) ? -1 : 0;
	free((void *)s.v);
	return rc;
}

int report_net_fields(cJSON *o, const int *n, int m, const double *kappa, const int *p, Err *e)
{
	if (json_add(o, "n", json_ints(n, m + 1), e) ||
	    json_add(o, "kappa", json_nums(kappa, m), e) || json_add(o, "p", json_ints(p, m), e))
		return -1;
	return 0;
}

/* The κ and p of lc[0..m) as arrays, for net_fields; -1 when out of memory. */
static int lc_arrays(const LayerCond *lc, int m, double **kappa, int **p)
{
	*kappa = calloc((size_t)(m > 0 ? m : 1), sizeof **kappa);
	*p = calloc((size_t)(m > 0 ? m : 1), sizeof **p);
	if (!*kappa || !*p) {
		free(*kappa);
		free(*p);
		return -1;
	}
	for (int i = 0; i < m; i++) {
		(*kappa)[i] = lc[i].kappa;
		(*p)[i] = lc[i].p;
	}
	return 0;
}

/* The network's κ of lc into o. */
static int lc_fields(cJSON *o, const int *n, const LayerCond *lc, int m, Err *e)
{
	double *kappa = NULL;
	int *p = NULL;
	if (lc_arrays(lc, m, &kappa, &p) < 0)
		return err_set(e, "out of memory for a JSON record");
	int rc = report_net_fields(o, n, m, kappa, p, e);
	free(kappa);
	free(p);
	return rc;
}

cJSON *report_net_json(const Net *net, const LayerCond *lc, Err *e)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || lc_fields(o, net->n, lc, net->m, e))
		return json_nomem(o, e);
	return o;
}

int report_wide_json(cJSON *o, Err *e)
{
	CondWide w = cond_get_wide();
	return w == COND_WIDE_PAPER ? 0
	                            : json_add(o, "wide", cJSON_CreateString(cond_wide_name(w)), e);
}

/* A graph network's channel groups under "groups". */
static int groups_json(cJSON *root, const Graph *g, Err *e)
{
	ChannelGroups *gg = graph_groups(g, e);
	if (!gg)
		return -1;
	cJSON *a = report_groups_json(gg, e);
	graph_groups_free(gg);
	return a ? json_add(root, "groups", a, e) : -1;
}

cJSON *report_cond_json(const Net *net, const LayerCond *lc, Err *e)
{
	char shape[512];
	RecSet s;
	int m = cond_layers(net);
	cJSON *root = cJSON_CreateObject(), *layers = NULL;
	int *units = malloc((size_t)(m + 1) * sizeof *units);
	if (!root || !units || cond_set(net, lc, m, &s, e)) {
		free(units);
		return json_nomem(root, e);
	}
	for (int i = 0; net->graph && i <= m; i++) /* the inputs, then each Ŵ's columns */
		units[i] = i ? lc[i - 1].cols : net->n[0];
	if (!net->graph)
		net_units_all(net, units); /* the columns of each Ŵ: neurons or channels */
	double maxk = 0;
	for (int i = 0; i < m; i++) /* a NaN stays: the maximum is unknown */
		if (isnan(lc[i].kappa) || lc[i].kappa > maxk)
			maxk = lc[i].kappa;
	int bad = json_add(root, "shape",
	                   cJSON_CreateString(net_shape_str(net, shape, sizeof shape)), e) ||
	          json_add(root, "m", cJSON_CreateNumber(m), e) ||
	          (net->graph && json_add(root, "graph", cJSON_CreateTrue(), e)) ||
	          lc_fields(root, units, lc, m, e) ||
	          json_add(root, "tau", json_num(m > 0 ? lc[0].tau : NAN), e) ||
	          json_add(root, "max_kappa", json_num(maxk), e) || report_wide_json(root, e) ||
	          !(layers = rec_json(&s, e)) || json_add(root, "layers", layers, e) ||
	          (net->graph && groups_json(root, net->graph, e));
	free((void *)s.v);
	free(units);
	return bad ? json_nomem(root, e) : root;
}

/* ---- Algorithm 1's iterations ---- */

enum {
	AL_ITER,
	AL_LAYERS,
	AL_MAXK,
	AL_SUMN,
	AL_N,
	AL_KAPPA,
	AL_P,
	AL_ERR,
	AL_SECS,
	AL_TAU,
	AL_ETA,
	AL_ACC,
	AL_NCOL
};
static const RecCol alg1_cols[AL_NCOL] = {
    [AL_ITER] = {.name = "iteration", .key = "iter", .type = REC_INT, .dfmt = F_0F},
    [AL_LAYERS] = {.name = "n", .type = REC_ARRAY, .flags = REC_T, .dfmt = F_0F},
    [AL_MAXK] = {.head = "max(κ_i)",
                 .name = "max_kappa",
                 .dname = "max_kappa (kappa NaN where infinite)",
                 .key = "max_kappa",
                 .type = REC_NUM,
                 .flags = REC_T | REC_INFNAN,
                 .fmt = F_1F,
                 .cfmt = F_9G,
                 .dfmt = F_17G},
    [AL_SUMN] = {.head = "Σ(n_i)",
                 .name = "sum_n",
                 .key = "sum_n",
                 .type = REC_COUNT,
                 .flags = REC_T,
                 .dfmt = F_0F},
    [AL_N] = {.key = "n", .type = REC_ARRAY},
    [AL_KAPPA] =
        {.name = "kappa", .key = "kappa", .type = REC_ARRAY, .flags = REC_INFNAN, .dfmt = F_17G},
    [AL_P] = {.key = "p", .type = REC_ARRAY},
    [AL_ERR] = {.key = "train_error", .type = REC_NUM},
    [AL_SECS] = {.key = "seconds", .type = REC_NUM},
    [AL_TAU] = {.name = "tau", .key = "tau", .type = REC_NUM, .dfmt = F_G},
    [AL_ETA] = {.name = "eta", .key = "eta", .type = REC_NUM, .dfmt = F_G},
    [AL_ACC] = {.head = "test acc %",
                .name = "test_acc_percent",
                .type = REC_PCT,
                .flags = REC_T | REC_OPT,
                .dfmt = F_4F},
};
static const int alg1_json_order[] = {AL_ITER, AL_N,   AL_KAPPA, AL_P,   AL_MAXK,
                                      AL_SUMN, AL_ERR, AL_SECS,  AL_TAU, AL_ETA};
static const int alg1_data_order[] = {AL_ITER, AL_TAU,  AL_ETA,   AL_SUMN,
                                      AL_ACC,  AL_MAXK, AL_KAPPA, AL_LAYERS};
static const RecKind alg1_kind = {.col = alg1_cols,
                                  .ncol = AL_NCOL,
                                  .json = alg1_json_order,
                                  .njson = 10,
                                  .data = alg1_data_order,
                                  .ndata = 8};

/* Algorithm 1's records (n of them) as records, into *s (free s->v). */
static int alg1_set(const Alg1Record *rec, int n, RecSet *s, Err *e)
{
	RecVal *v = calloc((size_t)(n > 0 ? n : 1) * AL_NCOL, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for a table of %d iterations", n);
	for (int j = 0; j < n; j++) {
		const Alg1Record *r = &rec[j];
		RecVal *x = v + (size_t)j * AL_NCOL;
		x[AL_ITER] = rec_num(r->iter);
		x[AL_LAYERS] = (RecVal){.ia = r->n + 1, .na = r->m};
		x[AL_MAXK] = rec_num(r->max_kappa);
		x[AL_SUMN] = rec_num((double)r->sum_n);
		x[AL_N] = (RecVal){.ia = r->n, .na = r->m + 1};
		x[AL_KAPPA] = (RecVal){.a = r->kappa, .na = r->m};
		x[AL_P] = (RecVal){.ia = r->p, .na = r->m};
		x[AL_ERR] = rec_num(r->train_error);
		x[AL_SECS] = rec_num(r->seconds);
		x[AL_TAU] = rec_num(r->tau);
		x[AL_ETA] = rec_num(r->eta);
		x[AL_ACC] = rec_num(100 * (1 - r->eval_error));
		x[AL_ACC].absent = isnan(r->eval_error); /* measured without a test set */
	}
	*s = (RecSet){&alg1_kind, v, n, 0};
	return 0;
}

int report_alg1_summary(FILE *f, const Alg1 *a, ReportFormat fmt, Err *e)
{
	static const RecCol cols[] = {
	    {.head = "Layer", .name = "layer", .type = REC_INT, .flags = REC_TC},
	    {.head = "initial n_i", .name = "n_initial", .type = REC_COUNT, .flags = REC_TC},
	    {.head = "initial κ(Ŵ)", .name = "kappa_initial", .type = REC_KAPPA, .flags = REC_TC},
	    {.head = "final n_i", .name = "n_final", .type = REC_COUNT, .flags = REC_TC},
	    {.head = "final κ(Ŵ)", .name = "kappa_final", .type = REC_KAPPA, .flags = REC_TC},
	};
	static const RecKind kind = {.col = cols, .ncol = 5};
	if (a->nrec < 1)
		return 0;
	const Alg1Record *r0 = &a->rec[0], *r1 = &a->rec[a->nrec - 1];
	int m = r0->m < r1->m ? r0->m : r1->m;
	RecVal *v = calloc((size_t)(m > 0 ? m : 1) * 5, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for a table of %d layers", m);
	for (int i = 0; i < m; i++) {
		RecVal *x = v + (size_t)i * 5;
		x[0] = rec_num(i + 1);
		x[1] = rec_num(r0->n[i + 1]);
		x[2] = rec_num(r0->kappa[i]);
		x[3] = rec_num(r1->n[i + 1]);
		x[4] = rec_num(r1->kappa[i]);
	}
	RecSet s = {&kind, v, m, 0};
	int rc = rec_table(f, &s, fmt, e);
	free(v);
	return rc;
}

int report_alg1_history(FILE *f, const Alg1 *a, ReportFormat fmt, Err *e)
{
	/* a run stopped before its first record: the CSV keeps its row names */
	if (a->nrec < 1 && (fmt != REPORT_CSV || !a->net))
		return 0;
	RecSet s;
	if (alg1_set(a->rec, a->nrec, &s, e))
		return -1;
	int m = a->nrec > 0 ? a->rec[0].m : a->net->m;
	int rc = rec_across(f, &s, AL_ITER, "Layer / iteration", "row", m, fmt, e);
	free((void *)s.v);
	return rc;
}

int report_alg1_data(FILE *f, const Alg1Record *rec, int n, Err *e)
{
	RecSet s;
	if (n < 1 || alg1_set(rec, n, &s, e))
		return n < 1 ? 0 : -1;
	int rc = rec_data_head(f, &s, NULL, NULL, rec[0].m, e) || rec_data(f, &s, e) ? -1 : 0;
	free((void *)s.v);
	return rc;
}

cJSON *report_alg1_json(const Alg1 *a, Err *e)
{
	RecSet s;
	cJSON *root = cJSON_CreateObject(), *hist = NULL;
	if (!root || alg1_set(a->rec, a->nrec, &s, e))
		return json_nomem(root, e);
	int bad = json_add(root, "tau", cJSON_CreateNumber(a->o.tau), e) ||
	          report_wide_json(root, e) ||
	          json_add(root, "eta", cJSON_CreateNumber(a->o.eta), e) ||
	          json_add(root, "round", cJSON_CreateNumber(a->o.round), e) ||
	          json_add(root, "max_iter", cJSON_CreateNumber(a->o.max_iter), e) ||
	          json_add(root, "warm", cJSON_CreateBool(a->o.warm), e) ||
	          json_add(root, "seed", cJSON_CreateNumber((double)a->o.seed), e) ||
	          json_add(root, "status", cJSON_CreateString(alg1_status_name(a->status)), e) ||
	          json_add(root, "reason", cJSON_CreateString(a->reason), e) ||
	          !(hist = rec_json(&s, e)) || json_add(root, "history", hist, e);
	free((void *)s.v);
	if (!bad && a->nrec > 0) {
		const Alg1Record *r = &a->rec[a->nrec - 1];
		bad = json_add(root, "final_n", json_ints(r->n, r->m + 1), e) ||
		      json_add(root, "final_kappa", json_nums(r->kappa, r->m), e) ||
		      json_add(root, "final_max_kappa", json_num(r->max_kappa), e);
	}
	return bad ? json_nomem(root, e) : root;
}

/* ---- a β sweep ---- */

enum {
	BE_BETA,
	BE_ERR_TR,
	BE_ERR_V,
	BE_SCORE,
	BE_SMIN,
	BE_SMAX,
	BE_TRIALS,
	BE_PICK,
	BE_N,
	BE_NCOL
};
static const RecCol beta_cols[BE_NCOL] = {
    [BE_BETA] = {.head = "β",
                 .name = "beta",
                 .key = "beta",
                 .type = REC_NUM,
                 .flags = REC_TC,
                 .fmt = F_1F,
                 .cfmt = F_6G,
                 .dfmt = F_G},
    [BE_ERR_TR] = {.head = "ε_tr (%)",
                   .name = "err_tr",
                   .key = "err_tr",
                   .type = REC_PCT,
                   .flags = REC_TC | REC_JNULL,
                   .dfmt = F_4F},
    [BE_ERR_V] = {.head = "ε_v (%)",
                  .name = "err_v",
                  .key = "err_v",
                  .type = REC_PCT,
                  .flags = REC_TC | REC_JNULL,
                  .dfmt = F_4F},
    [BE_SCORE] = {.head = "2ε_v − ε_tr (%)",
                  .name = "score",
                  .key = "score",
                  .type = REC_PCT,
                  .flags = REC_TC | REC_JNULL,
                  .dfmt = F_4F},
    [BE_SMIN] = {.name = "score_min", .type = REC_NUM, .dfmt = F_4F},
    [BE_SMAX] = {.name = "score_max", .type = REC_NUM, .dfmt = F_4F},
    [BE_TRIALS] = {.head = "trials",
                   .name = "trials",
                   .key = "trials",
                   .type = REC_OF,
                   .flags = REC_TC,
                   .dfmt = F_0F},
    [BE_PICK] = {.head = "",
                 .name = "pick",
                 .type = REC_FLAG,
                 .flags = REC_TC,
                 .dfmt = F_0F,
                 .yes = "pick",
                 .no = ""},
    [BE_N] = {.key = "n", .type = REC_ARRAY},
};
static const int beta_json_order[] = {BE_BETA, BE_N, BE_TRIALS, BE_ERR_TR, BE_ERR_V, BE_SCORE};
static const RecKind beta_kind = {
    .col = beta_cols, .ncol = BE_NCOL, .json = beta_json_order, .njson = 6};

/* The betas b[0..n) as records into *s (free s->v): all of them, or only
 * those with a trial done (done_only); errors in percent, absent before a
 * trial. */
static int beta_set(const ReportBeta *b, int n, int pick, int q, int done_only, RecSet *s, Err *e)
{
	RecVal *v = calloc((size_t)(n > 0 ? n : 1) * BE_NCOL, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for a table of %d betas", n);
	int rows = 0;
	for (int i = 0; i < n; i++) {
		if (done_only && b[i].done < 1)
			continue;
		RecVal *x = v + (size_t)rows++ * BE_NCOL;
		unsigned char none = b[i].done < 1;
		x[BE_BETA] = rec_num(b[i].beta);
		x[BE_ERR_TR] = (RecVal){.v = 100 * b[i].err_tr, .absent = none};
		x[BE_ERR_V] = (RecVal){.v = 100 * b[i].err_v, .absent = none};
		x[BE_SCORE] = (RecVal){.v = 100 * b[i].score, .absent = none, .bold = i == pick};
		x[BE_SMIN] = rec_num(100 * b[i].smin);
		x[BE_SMAX] = rec_num(100 * b[i].smax);
		x[BE_TRIALS] = (RecVal){.v = b[i].done, .aux = q};
		x[BE_PICK] = rec_num(i == pick);
		x[BE_N] = (RecVal){.ia = b[i].widths, .na = b[i].nwidths};
	}
	*s = (RecSet){&beta_kind, v, rows, 0};
	return 0;
}

/* The betas of a sweep, for beta_set (free the array). */
static ReportBeta *alg2_betas(const Alg2 *a, Err *e)
{
	ReportBeta *b = calloc((size_t)(a->nb > 0 ? a->nb : 1), sizeof *b);
	if (!b) {
		err_set(e, "out of memory for a table of %d betas", a->nb);
		return NULL;
	}
	for (int i = 0; i < a->nb; i++)
		b[i] =
		    (ReportBeta){a->b[i].beta, a->b[i].err_tr, a->b[i].err_v,  a->b[i].score, NAN,
		                 NAN,          a->b[i].done,   a->b[i].widths, a->nw};
	return b;
}

int report_alg2(FILE *f, const Alg2 *a, ReportFormat fmt, Err *e)
{
	ReportBeta *b = alg2_betas(a, e);
	RecSet s;
	if (!b || beta_set(b, a->nb, alg2_pick(a), a->o.q, 1, &s, e)) {
		free(b);
		return -1;
	}
	int rc = rec_table(f, &s, fmt, e);
	free((void *)s.v);
	free(b);
	return rc;
}

int report_betas_data(FILE *f, const ReportBeta *b, int n, int pick, Err *e)
{
	RecSet s;
	if (beta_set(b, n, pick, 0, 0, &s, e))
		return -1;
	int rc = rec_data_head(
	             f, &s, NULL,
	             "(percent; score = 2 err_v - err_tr, min and max over single trials)", 0, e) ||
	                 rec_data(f, &s, e)
	             ? -1
	             : 0;
	free((void *)s.v);
	return rc;
}

cJSON *report_alg2_json(const Alg2 *a, Err *e)
{
	ReportBeta *b = alg2_betas(a, e);
	RecSet s;
	cJSON *root = cJSON_CreateObject(), *bs = NULL;
	int pick = alg2_pick(a), g = a->base->graph != NULL;
	if (!b || !root || beta_set(b, a->nb, pick, a->o.q, 0, &s, e)) {
		free(b);
		return json_nomem(root, e);
	}
	int bad = !(bs = rec_json(&s, e)) || json_add(root, "betas", bs, e) ||
	          json_add(root, "pick", json_num(pick >= 0 ? a->b[pick].beta : NAN), e) ||
	          (pick >= 0 && json_add(root, g ? "pick_units" : "pick_n",
	                                 json_ints(a->b[pick].widths, a->nw), e)) ||
	          (g && json_add(root, "graph", cJSON_CreateBool(1), e)) ||
	          json_add(root, "q", cJSON_CreateNumber(a->o.q), e) ||
	          json_add(root, "eta", cJSON_CreateNumber(a->o.eta), e) ||
	          json_add(root, "seed", cJSON_CreateNumber((double)a->o.seed), e);
	free((void *)s.v);
	free(b);
	return bad ? json_nomem(root, e) : root;
}
