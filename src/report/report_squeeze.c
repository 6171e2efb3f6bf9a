/* report_squeeze.c - a squeeze's per-layer decisions, the networks it
 * made, its costs before and after, squeeze rounds (the paper's Table 13),
 * as tables and JSON, and condnet squeeze's record. */
#include "report/report_squeeze.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_eval.h"
#include "report/report_int.h"
#include "report/report_rec.h"

/* ---- per-layer decisions ---- */

SqueezeLayerRow *report_squeeze_layer_rows(const Net *before, const LayerCond *lc_before,
                                           const Net *after, const LayerCond *lc_after,
                                           const Alg3 *pass, Err *e)
{
	int m = before->m;
	SqueezeLayerRow *r = calloc((size_t)m, sizeof *r);
	if (!r) {
		err_set(e, "out of memory");
		return NULL;
	}
	for (int i = 0; i < m; i++) {
		int hidden = i < m - 1, decided = hidden && !pass->o.keep_counts;
		r[i] = (SqueezeLayerRow){.layer = i + 1,
		                         .n_before = net_units(before, i + 1),
		                         .n_after = net_units(after, i + 1),
		                         .kappa = lc_before[i].kappa,
		                         .kappa_dec = hidden ? pass->kappa_dec[i] : NAN,
		                         .kappa_after = lc_after[i].kappa,
		                         .kappa_retrained = NAN,
		                         .by_threshold = decided ? pass->removed_qr[i] : -1,
		                         .by_loop =
		                             decided ? pass->removed[i] - pass->removed_qr[i] : -1};
	}
	return r;
}

enum {
	SL_LAYER,
	SL_BEFORE,
	SL_AFTER,
	SL_KAPPA,
	SL_DEC,
	SL_KAFTER,
	SL_RETR,
	SL_THR,
	SL_LOOP,
	SL_NCOL
};
static const RecCol layer_cols[SL_NCOL] = {
    [SL_LAYER] =
        {.head = "layer", .name = "layer", .key = "layer", .type = REC_INT, .flags = REC_TC},
    [SL_BEFORE] = {.head = "n before",
                   .name = "n_before",
                   .key = "n_before",
                   .type = REC_COUNT,
                   .flags = REC_TC},
    [SL_AFTER] =
        {.head = "after", .name = "n_after", .key = "n_after", .type = REC_COUNT, .flags = REC_TC},
    [SL_KAPPA] = {.head = "κ as given",
                  .name = "kappa",
                  .key = "kappa_before",
                  .type = REC_KAPPA,
                  .flags = REC_TC},
    [SL_DEC] = {.head = "κ at decision",
                .name = "kappa_decision",
                .key = "kappa_decision",
                .type = REC_KAPPA,
                .flags = REC_TC | REC_JNULL},
    [SL_KAFTER] = {.head = "κ after",
                   .name = "kappa_after",
                   .key = "kappa_after",
                   .type = REC_KAPPA,
                   .flags = REC_TC},
    /* only when some layer was retrained */
    [SL_RETR] = {.head = "κ retrained",
                 .name = "kappa_retrained",
                 .key = "kappa_retrained",
                 .type = REC_KAPPA,
                 .flags = REC_TC | REC_OPT,
                 .cnone = "nan"},
    [SL_THR] = {.head = "by |r_jj|",
                .name = "removed_threshold",
                .key = "removed_threshold",
                .type = REC_INT,
                .flags = REC_TC},
    [SL_LOOP] = {.head = "by κ loop",
                 .name = "removed_loop",
                 .key = "removed_loop",
                 .type = REC_INT,
                 .flags = REC_TC},
};
static const RecKind layer_kind = {.col = layer_cols, .ncol = SL_NCOL};

static int layer_set(const SqueezeLayerRow *r, int n, RecSet *s, Err *e)
{
	RecVal *v = calloc((size_t)(n > 0 ? n : 1) * SL_NCOL, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for a table of %d layers", n);
	for (int i = 0; i < n; i++) {
		RecVal *x = v + (size_t)i * SL_NCOL;
		x[SL_LAYER] = rec_num(r[i].layer);
		x[SL_BEFORE] = rec_num(r[i].n_before);
		x[SL_AFTER] = rec_num(r[i].n_after);
		x[SL_KAPPA] = rec_num(r[i].kappa);
		x[SL_DEC] = (RecVal){.v = r[i].kappa_dec, .absent = isnan(r[i].kappa_dec)};
		x[SL_KAFTER] = rec_num(r[i].kappa_after);
		x[SL_RETR] =
		    (RecVal){.v = r[i].kappa_retrained, .absent = isnan(r[i].kappa_retrained)};
		x[SL_THR] = (RecVal){.v = r[i].by_threshold, .absent = r[i].by_threshold < 0};
		x[SL_LOOP] = (RecVal){.v = r[i].by_loop, .absent = r[i].by_loop < 0};
	}
	*s = (RecSet){&layer_kind, v, n, 0};
	return 0;
}

int report_squeeze_layers(FILE *f, const SqueezeLayerRow *r, int n, ReportFormat fmt, Err *e)
{
	RecSet s;
	if (layer_set(r, n, &s, e))
		return -1;
	int rc = rec_table(f, &s, fmt, e);
	free((void *)s.v);
	return rc;
}

cJSON *report_squeeze_layers_json(const SqueezeLayerRow *r, int n, Err *e)
{
	RecSet s;
	if (layer_set(r, n, &s, e))
		return NULL;
	cJSON *a = rec_json(&s, e);
	free((void *)s.v);
	return a;
}

int report_squeeze_decisions(FILE *f, const SqueezeDecisionRow *r, int n, ReportFormat fmt, Err *e)
{
	static const RecCol cols[] = {
	    {.head = "layer", .name = "layer", .type = REC_INT, .flags = REC_TC},
	    {.head = "n before", .name = "n_before", .type = REC_COUNT, .flags = REC_TC},
	    {.head = "n after", .name = "n_after", .type = REC_COUNT, .flags = REC_TC},
	    {.head = "τ", .name = "tau", .type = REC_NUM, .flags = REC_TC, .fmt = F_G},
	    {.head = "κ at decision",
	     .name = "kappa_decision",
	     .type = REC_KAPPA_TAU,
	     .flags = REC_TC},
	    {.head = "κ after", .name = "kappa_after", .type = REC_KAPPA_TAU, .flags = REC_TC},
	    {.head = "decision",
	     .name = "decision",
	     .type = REC_FLAG,
	     .flags = REC_TC,
	     .yes = "applied",
	     .no = "refused",
	     .cyes = "applied",
	     .cno = "refused"},
	    {.head = "compensated",
	     .name = "compensated",
	     .type = REC_FLAG,
	     .flags = REC_TC,
	     .yes = "yes",
	     .no = "no",
	     .cyes = "yes",
	     .cno = "no"},
	    {.head = "test acc. after (%)",
	     .name = "test_acc_after",
	     .type = REC_PCT,
	     .flags = REC_TC},
	};
	static const RecKind kind = {.col = cols, .ncol = 9};
	RecVal *v = calloc((size_t)(n > 0 ? n : 1) * 9, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for a table of %d decisions", n);
	for (int i = 0; i < n; i++) {
		const SqueezeDecisionRow *d = &r[i];
		RecVal *x = v + (size_t)i * 9;
		x[0] = rec_num(d->layer);
		x[1] = rec_num(d->n_before);
		x[2] = rec_num(d->n_after);
		x[3] = rec_num(d->tau);
		x[4] = (RecVal){.v = d->kappa_dec, .aux = d->tau};
		x[5] = (RecVal){.v = d->kappa_after, .aux = d->tau};
		x[6] = rec_num(d->applied);
		x[7] = rec_num(d->compensated);
		x[8] = rec_num(d->acc_after);
	}
	RecSet s = {&kind, v, n, 0};
	int rc = rec_table(f, &s, fmt, e);
	free(v);
	return rc;
}

int report_squeeze_networks(FILE *f, const SqueezeNetRow *r, int n, ReportFormat fmt, Err *e)
{
	static const RecCol cols[] = {
	    {.head = "network", .name = "network", .type = REC_TEXT, .flags = REC_TC},
	    {.head = "τ",
	     .name = "tau",
	     .type = REC_NUM,
	     .flags = REC_TC,
	     .fmt = F_G,
	     .none = "counts given"},
	    {.head = "criterion", .name = "criterion", .type = REC_TEXT, .flags = REC_TC},
	    {.head = "compensation",
	     .name = "compensated",
	     .type = REC_FLAG,
	     .flags = REC_TC,
	     .yes = "yes",
	     .no = "no"},
	    {.head = "neurons removed", .name = "removed", .type = REC_COUNT, .flags = REC_TC},
	    {.head = "acc. squeezed (%)", .name = "acc_squeezed", .type = REC_PCT, .flags = REC_TC},
	    {.head = "retrained (%)", .name = "acc_retrained", .type = REC_PCT, .flags = REC_TC},
	};
	static const RecKind kind = {.col = cols, .ncol = 7};
	RecVal *v = calloc((size_t)(n > 0 ? n : 1) * 7, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for a table of %d networks", n);
	for (int i = 0; i < n; i++) {
		const SqueezeNetRow *w = &r[i];
		RecVal *x = v + (size_t)i * 7;
		x[0] = (RecVal){.s = w->kept ? "kept" : "other (not kept)",
		                .cs = w->kept ? "kept" : "other"};
		x[1] = (RecVal){.v = w->tau, .absent = w->counted};
		x[2] = (RecVal){.s = w->criterion};
		x[3] = rec_num(w->compensated);
		x[4] = rec_num(w->removed);
		x[5] = rec_num(w->acc_squeezed);
		x[6] = rec_num(w->acc_retrained);
	}
	RecSet s = {&kind, v, n, 0};
	int rc = rec_table(f, &s, fmt, e);
	free(v);
	return rc;
}

/* ---- costs ---- */

static void cost_values(const NetCost *c, double v[5])
{
	v[0] = (double)c->params;
	v[1] = c->madds;
	v[2] = (double)c->file_bytes;
	v[3] = 1e6 * c->sec_b1;
	v[4] = 1e6 * c->sec_b256;
}

/* The measures down, before, after and their ratio across. */
int report_costs(FILE *f, const NetCost *before, const NetCost *after, ReportFormat fmt, Err *e)
{
	static const RecCol rows[] = {
	    {.head = "parameters", .name = "parameters", .type = REC_COUNT},
	    {.head = "multiply-adds per sample",
	     .name = "multiply_adds_per_sample",
	     .type = REC_COUNT},
	    {.head = "model file (bytes)", .name = "model_file_bytes", .type = REC_COUNT},
	    {.head = "forward, batch 1 (µs/sample)",
	     .name = "forward_us_per_sample_batch1",
	     .type = REC_NUM,
	     .fmt = F_2F,
	     .cfmt = F_4F},
	    {.head = "forward, batch 256 (µs/sample)",
	     .name = "forward_us_per_sample_batch256",
	     .type = REC_NUM,
	     .fmt = F_2F,
	     .cfmt = F_4F},
	};
	static const RecCol ratio = {.type = REC_NUM, .fmt = F_3F};
	const char *head[] = {"", "before", "after", "after/before"};
	const char *hcsv[] = {"what", "before", "after", "ratio"};
	int csv = fmt == REPORT_CSV;
	Table t;
	if (table_init(&t, 6, 4, e))
		return -1;
	for (int c = 0; c < 4; c++)
		table_set(&t, 0, c, "%s", csv ? hcsv[c] : head[c]);
	double b[5], a[5];
	cost_values(before, b);
	cost_values(after, a);
	for (int r = 0; r < 5; r++) {
		char buf[REPORT_CELL];
		table_set(&t, r + 1, 0, "%s", csv ? rows[r].name : rows[r].head);
		for (int k = 0; k < 2; k++) {
			double v = k ? a[r] : b[r];
			RecVal x = {.v = v, .absent = isnan(v)};
			table_set(&t, r + 1, k + 1, "%s",
			          rec_cell(&rows[r], &x, fmt, buf, sizeof buf));
		}
		RecVal q = {.v = a[r] / b[r], .absent = isnan(a[r] / b[r]) || b[r] == 0};
		table_set(&t, r + 1, 3, "%s", rec_cell(&ratio, &q, fmt, buf, sizeof buf));
	}
	return table_put(f, &t, fmt, e);
}

cJSON *report_cost_json(const NetCost *c, Err *e)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || json_add(o, "parameters", cJSON_CreateNumber((double)c->params), e) ||
	    json_add(o, "multiply_adds_per_sample", cJSON_CreateNumber(c->madds), e) ||
	    json_add(o, "model_file_bytes", cJSON_CreateNumber((double)c->file_bytes), e) ||
	    json_add(o, "forward_seconds_per_sample_batch1", json_num(c->sec_b1), e) ||
	    json_add(o, "forward_seconds_per_sample_batch256", json_num(c->sec_b256), e) ||
	    json_add(o, "timing_repeats", cJSON_CreateNumber(c->repeats), e) ||
	    json_add(o, "threads", cJSON_CreateNumber(c->threads), e))
		return json_nomem(o, e);
	return o;
}

/* ---- squeeze rounds (report.h) ---- */

enum { RO_LAYERS, RO_REMOVED, RO_ACC, RO_TAU, RO_PER_LAYER, RO_BEFORE, RO_NCOL };
static const RecCol round_cols[RO_NCOL] = {
    [RO_LAYERS] = {.type = REC_ARRAY, .flags = REC_T},
    [RO_REMOVED] =
        {.head = "removed", .name = "removed", .key = "removed", .type = REC_COUNT, .flags = REC_T},
    [RO_ACC] = {.head = "Accuracy (%)",
                .name = "accuracy",
                .key = "acc_after",
                .type = REC_PCT,
                .flags = REC_T},
    [RO_TAU] = {.key = "tau", .type = REC_NUM},
    [RO_PER_LAYER] = {.key = "removed_per_layer", .type = REC_ARRAY},
    [RO_BEFORE] = {.key = "acc_before", .type = REC_PCT},
};
static const int round_json_order[] = {RO_TAU, RO_REMOVED, RO_PER_LAYER, RO_BEFORE, RO_ACC};
static const RecKind round_kind = {
    .col = round_cols, .ncol = RO_NCOL, .json = round_json_order, .njson = 5};

static int round_set(const Alg3Round *r, int n, double tau, RecSet *s, Err *e)
{
	RecVal *v = calloc((size_t)(n > 0 ? n : 1) * RO_NCOL, sizeof *v);
	if (!v)
		return err_set(e, "out of memory for a table of %d rounds", n);
	for (int j = 0; j < n; j++) {
		RecVal *x = v + (size_t)j * RO_NCOL;
		x[RO_LAYERS] = (RecVal){.ia = r[j].n + 1, .na = r[j].m - 1};
		x[RO_REMOVED] = rec_num(r[j].removed);
		x[RO_ACC] = rec_num(r[j].acc_retrained);
		x[RO_TAU] = rec_num(tau);
		x[RO_PER_LAYER] = (RecVal){.ia = r[j].removed_per_layer, .na = r[j].m};
		x[RO_BEFORE] = rec_num(r[j].acc_squeezed);
	}
	*s = (RecSet){&round_kind, v, n, 0};
	return 0;
}

int report_squeeze_rounds(FILE *f, const Alg3Round *r, int nround, int m, ReportFormat fmt, Err *e)
{
	RecSet s;
	if (nround < 1)
		return 0;
	if (round_set(r, nround, NAN, &s, e))
		return -1;
	int rc = rec_across(f, &s, -1, "Layer / round", "row", m - 1, fmt, e);
	free((void *)s.v);
	return rc;
}

int report_trained_json(cJSON *o, const TrainResult *r, Err *e)
{
	if (json_add(o, "epochs", cJSON_CreateNumber(r->epochs), e))
		return -1;
	if (isnan(r->val_acc))
		return 0;
	return json_add(o, "best_epoch", cJSON_CreateNumber(r->best_epoch), e) ||
	               json_add(o, "val_acc", cJSON_CreateNumber(100 * r->val_acc), e)
	           ? -1
	           : 0;
}

cJSON *report_squeeze_round_json(const Alg3Round *r, double tau, Err *e)
{
	RecSet s;
	cJSON *o = cJSON_CreateObject(), *net = cJSON_CreateObject();
	if (!o || !net || round_set(r, 1, tau, &s, e)) {
		cJSON_Delete(net);
		return json_nomem(o, e);
	}
	int bad = rec_json_fields(o, &s, 0, e) || report_trained_json(o, &r->trained, e) ||
	          report_net_fields(net, r->n, r->m, r->kappa, r->p, e);
	free((void *)s.v);
	if (bad) {
		cJSON_Delete(net);
		return json_nomem(o, e);
	}
	if (json_add(o, "net", net, e))
		return json_nomem(o, e);
	return o;
}

cJSON *report_squeeze_rounds_json(const Alg3Round *r, int n, double tau, Err *e)
{
	cJSON *a = cJSON_CreateArray();
	if (!a)
		return json_nomem(a, e);
	for (int k = 0; k < n; k++) {
		if (json_push(a, report_squeeze_round_json(&r[k], tau, e), e))
			return json_nomem(a, e);
	}
	return a;
}

/* ---- condnet squeeze's record ---- */

struct cJSON *report_squeeze_record(const SqueezeSettings *s, Err *e)
{
	const Alg3Opts *so = s->so;
	cJSON *rec = cJSON_CreateObject();
	if (!rec)
		return json_nomem(rec, e);
	int bad =
	    json_add(rec, "model", cJSON_CreateString(s->model), e) ||
	    json_add(rec, "shape_before", cJSON_CreateString(s->shape_before), e) ||
	    json_add(rec, "tau", cJSON_CreateNumber(so->tau), e) ||
	    (s->ntau > 1 && json_add(rec, "taus", cJSON_CreateDoubleArray(s->taus, s->ntau), e)) ||
	    json_add(rec, "while_loop", cJSON_CreateBool(so->while_loop), e) ||
	    json_add(rec, "compensate", cJSON_CreateBool(so->compensate), e) ||
	    json_add(rec, "criterion", cJSON_CreateString(alg3_criterion_name(so->criterion)), e) ||
	    (so->criterion == ALG3_RANDOM &&
	     json_add(rec, "seed", cJSON_CreateNumber((double)so->seed), e)) ||
	    (s->keep && json_add(rec, "keep_counts", json_ints(s->keep, s->nkeep), e)) ||
	    json_add(rec, "retrain_epochs", cJSON_CreateNumber(s->retrain_epochs), e) ||
	    json_add(rec, "retrain_schedule", cJSON_CreateString(s->retrain_schedule), e) ||
	    json_add(rec, "retrain_warmup", cJSON_CreateNumber(s->retrain_warmup), e) ||
	    json_add(rec, "retrain_early_stop", cJSON_CreateNumber(s->retrain_early_stop), e);
	return bad ? json_nomem(rec, e) : rec;
}

/* The other network: made with the other compensation setting, or failed. */
static int other_json(cJSON *rec, const SqueezeNetRow *o, double acc0, const Agreement *ag, Err *e)
{
	cJSON *x = cJSON_CreateObject();
	if (json_add(rec, "other_network", x, e) ||
	    json_add(x, "what",
	             cJSON_CreateString("the same squeeze with the other compensation setting: "
	                                "a different network, not kept"),
	             e) ||
	    json_add(x, "compensate", cJSON_CreateBool(o->compensated), e))
		return -1;
	if (o->failed)
		return json_add(x, "failed", cJSON_CreateString(o->failed), e);
	if (json_add(x, "removed", cJSON_CreateNumber(o->removed), e) ||
	    (!isnan(acc0) && json_add(x, "acc_squeezed", cJSON_CreateNumber(o->acc_squeezed), e)))
		return -1;
	return ag ? json_add(x, "agreement", report_agreement_json(&ag[1], e), e) : 0;
}

int report_squeeze_once_json(struct cJSON *rec, const SqueezeNetRow nr[2],
                             const SqueezeLayerRow *rows, int m, double acc0, int by_threshold,
                             const Agreement *ag, const TrainResult *retrained, Err *e)
{
	const SqueezeNetRow *k = &nr[0], *o = &nr[1];
	if (json_add(rec, "layers", report_squeeze_layers_json(rows, m, e), e) ||
	    json_add(rec, "removed", cJSON_CreateNumber(k->removed), e))
		return -1;
	if (!k->counted &&
	    (json_add(rec, "removed_threshold", cJSON_CreateNumber(by_threshold), e) ||
	     json_add(rec, "removed_loop", cJSON_CreateNumber(k->removed - by_threshold), e)))
		return -1;
	/* the other squeeze's removals only when it was made */
	if ((!o->failed || !k->compensated) &&
	    json_add(rec, "removed_without_compensation",
	             cJSON_CreateNumber(k->compensated ? o->removed : k->removed), e))
		return -1;
	if ((!o->failed || k->compensated) &&
	    json_add(rec, "removed_with_compensation",
	             cJSON_CreateNumber(k->compensated ? k->removed : o->removed), e))
		return -1;
	if (!isnan(acc0) &&
	    (json_add(rec, "acc_before_squeeze", cJSON_CreateNumber(acc0), e) ||
	     json_add(rec, "acc_squeezed", cJSON_CreateNumber(k->acc_squeezed), e) ||
	     (isfinite(k->acc_retrained) &&
	      json_add(rec, "acc_retrained", cJSON_CreateNumber(k->acc_retrained), e))))
		return -1;
	if (other_json(rec, o, acc0, ag, e))
		return -1;
	if (ag && (json_add(rec, "agreement_squeezed", report_agreement_json(&ag[0], e), e) ||
	           (retrained &&
	            json_add(rec, "agreement_retrained", report_agreement_json(&ag[2], e), e))))
		return -1;
	if (!retrained)
		return 0;
	if (json_add(rec, "retrain_epochs_run", cJSON_CreateNumber(retrained->epochs), e) ||
	    json_add(rec, "retrain_best_epoch", cJSON_CreateNumber(retrained->best_epoch), e))
		return -1;
	if (!isnan(retrained->val_acc))
		return json_add(rec, "retrain_val_accuracy",
		                cJSON_CreateNumber(100 * retrained->val_acc), e);
	return 0;
}

int report_squeeze_rounds_run_json(struct cJSON *rec, const Alg3Round *r, int n, double tau,
                                   int stable, const Agreement *ag, Err *e)
{
	if (json_add(rec, "rounds", report_squeeze_rounds_json(r, n, tau, e), e) ||
	    (ag && json_add(rec, "agreement", report_agreement_json(ag, e), e)))
		return -1;
	return stable >= 0 ? json_add(rec, "stable", cJSON_CreateBool(stable), e) : 0;
}

int report_squeeze_costs_json(struct cJSON *rec, const NetCost *before, const NetCost *after,
                              Err *e)
{
	return json_add(rec, "cost_before", report_cost_json(before, e), e) ||
	               json_add(rec, "cost_after", report_cost_json(after, e), e)
	           ? -1
	           : 0;
}

int report_squeeze_shape_after(struct cJSON *rec, const char *shape, Err *e)
{
	return json_add(rec, "shape_after", cJSON_CreateString(shape), e);
}
