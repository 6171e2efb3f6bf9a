/* tui/lesson_claims.c - a lesson's captions held to the state they speak
 * of (see lesson_claims.h). */
#include "tui/lesson_claims.h"
#include "tui/lesson_caption.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg3_combination.h"
#include "alg/alg3_compare.h"
#include "alg/alg3_hand.h"
#include "alg/alg3_regions.h"
#include "engine/plane.h"
#include "tui/views.h"
#include "tui/worker.h"

/* ---- the state ---- */

/* A number written with some digits holds when x rounds to it. */
static int holds(const char *want, double x)
{
	char *end;
	double v = strtod(want, &end);
	if (*end)
		return 0;
	const char *dot = strchr(want, '.');
	int dec = dot ? (int)strlen(dot + 1) : 0;
	return fabs(x - v) <= 0.5 * pow(10, -dec) + 1e-9 * fabs(v);
}

static long hidden_sum(const Net *net)
{
	long s = 0;
	for (int i = 1; i < net->m; i++)
		s += net->n[i];
	return s;
}

/* Σ hidden widths of the lesson's first network (its first net action). */
static long hidden_first(const Lesson *l)
{
	for (int k = 0; k < l->n; k++)
		if (l->a[k].kind == SESS_NET) {
			long s = 0;
			for (const char *c = l->a[k].net.layers; *c;) {
				s += strtol(c, (char **)&c, 10);
				c += *c == ',';
			}
			return s;
		}
	return -1;
}

typedef struct Ctx {
	const Lesson *l;
	Session *s;
	LayerCond *lc;
	int pos;       /* the lesson's actions applied */
	char got[256]; /* what the state says, for the message */
} Ctx;

static int layer_of(const char *key, const Session *s)
{
	const char *dot = strchr(key, '.');
	int l = dot ? atoi(dot + 1) : 0;
	return l >= 1 && l <= s->net->m ? l : 0;
}

/* A list "A,B,…" against n measured values (what the state says into buf). */
static int values(const char *want, const double *got, int n, char *buf, size_t len)
{
	int ok = 1, k = 0;
	size_t o = 0;
	buf[0] = '\0';
	for (const char *c = want; k < n; k++) {
		char w[32];
		size_t m = strcspn(c, ",");
		snprintf(w, sizeof w, "%.*s", (int)(m < 31 ? m : 31), c);
		ok &= m > 0 && holds(w, got[k]);
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%.2f", k ? "," : "", got[k]);
		c += m;
		if (k + 1 < n && *c++ != ',')
			ok = 0;
		if (k + 1 == n && *c)
			ok = 0; /* more values than the state has */
	}
	return ok;
}

/* "QR,NORM,RANDOM" against three measured accuracies. */
static int three(const char *want, const double *got, char *buf, size_t len)
{
	return values(want, got, 3, buf, len);
}

/* Layer's proposal, as the screen shows it: what it keeps (what 0), or the
 * what-if line without (1) or with compensation (2). */
static int proposal(Ctx *c, int layer, int what, const char *want, Err *e)
{
	Session *s = c->s;
	Alg3LayerCompare lc;
	int pr = session_squeeze_propose(s, layer, e);
	if (pr != 0)
		return pr < 0 ? -1 : err_set(e, "stopped");
	const Alg3Proposal *sp = session_squeeze_proposal(s);
	int keep = sp->nkeep, rc = 0;
	if (what)
		rc = alg3_compare_layer(s->net, sp, s->test, s->train, SQZ_PREVIEW_DRAWS, s->seed,
		                        1, 0, &lc, e);
	session_squeeze_stop(s);
	if (rc != 0)
		return rc < 0 ? -1 : err_set(e, "stopped");
	if (!what) {
		snprintf(c->got, sizeof c->got, "%d", keep);
		return holds(want, keep);
	}
	return three(want, what == 1 ? lc.acc : lc.acc_comp, c->got, sizeof c->got);
}

/* A squeeze seen as regions, as the Plane view's panels show it: net with
 * hidden layer i keeping counts[i-1] (the random draws those of the
 * screen's preview). what 0: "QR,COMP,RANDOM", the accuracies with pivoted
 * QR's choice removed, the same compensated, the median random draw; 1:
 * the mean of the random draws compensated; 2: "QR,COMP". */
static int regions(Ctx *c, const Net *net, const int *counts, int what, const char *want, Err *e)
{
	const Session *s = c->s;
	PlaneBox box;
	Alg3Regions r;
	/* the accuracies do not depend on the grid: the smallest will do */
	if (plane_box(s->train, &box, e) < 0 ||
	    alg3_regions(net, counts, s->test, s->train, SQZ_PREVIEW_DRAWS, s->seed, &box, 1, 1, &r,
	                 e) < 0)
		return -1;
	double got[3] = {r.acc[REGION_QR], r.acc[REGION_QR_COMP], r.acc[REGION_RANDOM]};
	int ok = what == 1 ? values(want, &r.mean_comp, 1, c->got, sizeof c->got)
	                   : values(want, got, what == 0 ? 3 : 2, c->got, sizeof c->got);
	alg3_regions_free(&r);
	return ok;
}

/* The neurons layer's squeeze proposal at τ keeps, or -1. */
static int proposed_keep(Session *s, int layer, Err *e)
{
	int pr = session_squeeze_propose(s, layer, e);
	if (pr != 0)
		return pr < 0 ? -1 : err_set(e, "stopped");
	int keep = session_squeeze_proposal(s)->nkeep;
	session_squeeze_stop(s);
	return keep;
}

/* Layer's squeeze proposal at τ as regions (regions' what). */
static int proposal_regions(Ctx *c, int layer, int what, const char *want, Err *e)
{
	Session *s = c->s;
	int keep = proposed_keep(s, layer, e);
	if (keep < 0)
		return -1;
	int *counts = malloc((size_t)s->net->m * sizeof *counts);
	if (!counts)
		return err_set(e, "out of memory");
	for (int i = 1; i < s->net->m; i++)
		counts[i - 1] = i == layer ? keep : s->net->n[i];
	int rc = regions(c, s->net, counts, what, want, e);
	free(counts);
	return rc;
}

/* Algorithm 1's last step as regions: the network before it (the undo
 * snapshot the step left) keeping the widths of the network now. */
static int step_regions(Ctx *c, const char *want, Err *e)
{
	const Session *s = c->s;
	const Net *before = s->nundo ? s->undo[s->nundo - 1].net : NULL;
	if (!s->alg1 || !before || before->m != s->net->m)
		return err_set(e, "no Algorithm-1 step to show as regions");
	int *counts = malloc((size_t)s->net->m * sizeof *counts);
	if (!counts)
		return err_set(e, "out of memory");
	for (int i = 1; i < s->net->m; i++)
		counts[i - 1] = s->net->n[i];
	int rc = regions(c, before, counts, 2, want, e);
	free(counts);
	return rc;
}

/* Layer's dropped neurons as the Plane view's maps show them, fitted where
 * the refit works (alg3_combinations_act): after Algorithm 1's step or a
 * squeeze (the last action), the network before it keeping the widths it
 * left; else the squeeze proposal at τ. what 0: "LO,HI,MEDIAN", the
 * residuals' spread in percent; 1: the share the next layer's refit
 * leaves. */
static int fits(Ctx *c, int layer, int what, const char *want, Err *e)
{
	Session *s = c->s;
	int pos = c->pos;
	SessKind last = pos > c->l->setup ? c->l->a[pos - 1].kind : SESS_DATA;
	const Net *before = s->nundo ? s->undo[s->nundo - 1].net : NULL;
	int after =
	    (last == SESS_SQUEEZE || last == SESS_ALG1_STEP) && before && before->m == s->net->m;
	Alg3Combinations cb;
	if (after) {
		if (alg3_combinations(before, layer, s->net->n[layer], &cb, e) < 0)
			return -1;
	} else {
		int pr = session_squeeze_propose(s, layer, e);
		if (pr != 0)
			return pr < 0 ? -1 : err_set(e, "stopped");
		int rc = alg3_combinations_of(s->net, session_squeeze_proposal(s), &cb, e);
		session_squeeze_stop(s);
		if (rc < 0)
			return -1;
	}
	double got[3];
	int rc = alg3_combinations_act(after ? before : s->net, s->train, &cb, e);
	if (rc == 0 && alg3_combinations_spread(&cb, &got[0], &got[2], &got[1]) < 0)
		rc = err_set(e, "layer %d drops no neuron", layer);
	for (int k = 0; k < 3; k++)
		got[k] *= 100;
	double refit = 100 * cb.refit;
	alg3_combinations_free(&cb);
	if (rc < 0)
		return -1;
	return what ? values(want, &refit, 1, c->got, sizeof c->got)
	            : values(want, got, 3, c->got, sizeof c->got);
}

static int compare(Ctx *c, double tau, int comp, const char *want, Err *e)
{
	Alg3CompareOpts o;
	Alg3Compare r;
	alg3_compare_opts_default(&o);
	o.tau = tau;
	o.seed = 1; /* `condnet squeeze --compare`'s default --seed */
	o.compensate = comp;
	o.cost_repeats = 0;
	int rc = alg3_compare(c->s->net, &o, c->s->train, c->s->test, NULL, &r, e);
	if (rc != 0)
		return rc < 0 ? -1 : err_set(e, "stopped");
	double got[3];
	for (int k = 0; k < 3; k++)
		got[k] = r.acc[comp ? CMP_COMPENSATED : CMP_SQUEEZED][k].acc;
	alg3_compare_free(&r);
	return three(want, got, c->got, sizeof c->got);
}

static int over_list(const Ctx *c, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < c->s->net->m; i++)
		if (c->lc[i].kappa > c->s->tau)
			k += (size_t)snprintf(buf + k, len - k, "%s%d", k ? "," : "", i + 1);
	if (!k)
		snprintf(buf, len, "none");
	return 0;
}

/* 1 when the sweep's criterion grows at every β after its pick. */
static int rises(const Session *s)
{
	int p = s->sweep ? alg2_pick(s->sweep) : -1;
	if (p < 0 || p + 1 >= s->sweep->nb)
		return 0;
	for (int i = p + 1; i < s->sweep->nb; i++)
		if (!(s->sweep->b[i].score > s->sweep->b[i - 1].score))
			return 0;
	return 1;
}

/* hand.L.J: neuron J (from 1) of layer L, removed by hand by the last
 * change, beside the one Algorithm 3 removes first, "QR,HAND,QR_ACC": QR's
 * neuron (from 1) and the test accuracies without each, measured on the
 * network before that change (the undo stack's top). */
static int hand(Ctx *c, const char *key, const char *want, Err *e)
{
	int l = 0, j = 0;
	Alg3Hand h;
	const Session *s = c->s;
	if (sscanf(key, "hand.%d.%d", &l, &j) != 2)
		return err_set(e, "%s: expected hand.LAYER.NEURON", key);
	if (!s->nundo)
		return err_set(e, "%s: no change to look before", key);
	int rc = alg3_hand(s->undo[s->nundo - 1].net, l, j - 1, s->test, &h, e);
	if (rc != 0)
		return rc < 0 ? -1 : err_set(e, "stopped");
	double got[3] = {h.qr + 1, h.acc_hand, h.acc_qr};
	return values(want, got, 3, c->got, sizeof c->got);
}

/* pivot.L.J: where neuron J (from 1) of layer L stands in the pivoted QR
 * of its Ŵ, from 1 (view 8 says "pivot T of N"). */
static int pivot(Ctx *c, const char *key, const char *want, Err *e)
{
	int l = 0, j = 0;
	if (sscanf(key, "pivot.%d.%d", &l, &j) != 2 || l < 1 || l > c->s->net->m || j < 1 ||
	    j > c->s->net->n[l])
		return err_set(e, "%s: expected pivot.LAYER.NEURON of the network", key);
	const LayerCond *lc = &c->lc[l - 1];
	for (int t = 0; lc->perm && t < lc->cols; t++)
		if (lc->perm[t] == j - 1) {
			snprintf(c->got, sizeof c->got, "%d", t + 1);
			return holds(want, t + 1);
		}
	return err_set(e, "%s: layer %d has no pivot order", key, l);
}

/* One claim: 1 holds, 0 does not (c->got says what the state is), -1 error.
 * Long on purpose: a branch per claim key, each the line that reads the
 * state it names, in one place as the lessons' format lists them. */
static int claim(Ctx *c, const char *key, const char *val, Err *e)
{
	const Session *s = c->s;
	const Net *net = s->net;
	if (net && net->graph && strcmp(key, "net")) /* the claims read a chain's layers */
		return session_refuse_graph(1, "A lesson's claim of its layers", e);
	int l = layer_of(key, s);
	long was = hidden_first(c->l), now = hidden_sum(net);
	double x = NAN;
	if (!strcmp(key, "net")) {
		net_shape_str(net, c->got, sizeof c->got);
		return !strcmp(val, c->got);
	}
	if (!strcmp(key, "over")) {
		over_list(c, c->got, sizeof c->got);
		return !strcmp(val, c->got);
	}
	if (!strcmp(key, "rises")) {
		snprintf(c->got, sizeof c->got, "%s",
		         rises(s) ? "after-pick" : "not at every beta");
		return !strcmp(val, "after-pick") && rises(s);
	}
	if (!strncmp(key, "keep.", 5) && l)
		return proposal(c, l, 0, val, e);
	if (!strncmp(key, "regions.", 8) && l)
		return proposal_regions(c, l, 0, val, e);
	if (!strncmp(key, "random_comp.", 12) && l)
		return proposal_regions(c, l, 1, val, e);
	if (!strcmp(key, "step"))
		return step_regions(c, val, e);
	if (!strncmp(key, "fit.", 4) && l)
		return fits(c, l, 0, val, e);
	if (!strncmp(key, "refit.", 6) && l)
		return fits(c, l, 1, val, e);
	if (!strncmp(key, "whatif.", 7) && l)
		return proposal(c, l, 1, val, e);
	if (!strncmp(key, "whatif_comp.", 12) && l)
		return proposal(c, l, 2, val, e);
	if (!strncmp(key, "compare.", 8))
		return compare(c, atof(key + 8), 0, val, e);
	if (!strncmp(key, "hand.", 5))
		return hand(c, key, val, e);
	if (!strncmp(key, "pivot.", 6))
		return pivot(c, key, val, e);
	if (!strncmp(key, "compare_comp.", 13))
		return compare(c, atof(key + 13), 1, val, e);
	if (!strcmp(key, "hidden"))
		x = (double)now;
	else if (!strcmp(key, "hidden_was"))
		x = (double)was;
	else if (!strcmp(key, "removed"))
		x = (double)(was - now);
	else if (!strcmp(key, "share"))
		x = round(100.0 * (double)now / (double)was);
	else if (!strcmp(key, "tau"))
		x = s->tau;
	else if (!strcmp(key, "eta"))
		x = s->eta;
	else if (!strcmp(key, "acc")) {
		if (session_test_acc(s, &x, e) < 0)
			return -1;
	} else if (!strcmp(key, "train"))
		x = s->train->n;
	else if (!strcmp(key, "test"))
		x = s->test ? s->test->n : 0;
	else if (!strcmp(key, "features"))
		x = s->train->d;
	else if (!strcmp(key, "classes"))
		x = s->train->k;
	else if (!strcmp(key, "steps"))
		x = s->eta * ceil((double)s->train->n / s->topt.batch);
	else if (!strncmp(key, "steps.", 6))
		x = atof(key + 6) * ceil((double)s->train->n / s->topt.batch);
	else if (!strcmp(key, "nover")) {
		x = 0;
		for (int i = 0; i < net->m; i++)
			x += c->lc[i].kappa > s->tau;
	} else if (!strcmp(key, "iter") && s->alg1 && s->alg1->nrec)
		x = s->alg1->rec[s->alg1->nrec - 1].iter;
	else if (!strncmp(key, "alg1_acc.", 9) && s->alg1 && atoi(key + 9) < s->alg1->nrec)
		x = 100 * (1 - s->alg1->rec[atoi(key + 9)].eval_error);
	else if (!strcmp(key, "pick") && s->sweep && alg2_pick(s->sweep) >= 0)
		x = s->sweep->b[alg2_pick(s->sweep)].beta;
	else if (!strncmp(key, "n.", 2) && l)
		x = net->n[l];
	else if (!strncmp(key, "rows.", 5) && l)
		x = c->lc[l - 1].rows;
	else if (!strncmp(key, "rank.", 5) && l)
		x = c->lc[l - 1].rank_svd;
	else if (!strncmp(key, "p.", 2) && l)
		x = c->lc[l - 1].p;
	else if (!strncmp(key, "drop.", 5) && l) {
		int keep = proposed_keep(c->s, l, e);
		if (keep < 0)
			return -1;
		x = net->n[l] - keep;
	} else if (!strncmp(key, "kappa.", 6) && l)
		x = c->lc[l - 1].kappa;
	else if (!strncmp(key, "deficit.", 8) && l)
		x = net->n[l] - c->lc[l - 1].rank_svd;
	else
		return err_set(e, "no claim '%s' (lesson_claims.h lists them)", key);
	snprintf(c->got, sizeof c->got, "%.6g", x);
	if (isinf(x))
		return !strcmp(val, "inf");
	return holds(val, x);
}

/* ---- every number accounted for ---- */

typedef struct Tokens {
	char t[64][128];
	int n;
} Tokens;

static void collect(const char *tok, void *ud)
{
	Tokens *k = ud;
	if (k->n < 64)
		snprintf(k->t[k->n++], sizeof k->t[0], "%s", tok);
}

static int has(const Tokens *k, const char *tok)
{
	for (int i = 0; i < k->n; i++)
		if (!strcmp(k->t[i], tok))
			return 1;
	return 0;
}

/* A caption with its claims and the numbers declared not the state. */
typedef struct Said {
	const char *caption, *claims, *plain;
	int at; /* the position they were written at, for messages */
} Said;

/* The numbers the claims and the #~ lines account for. */
static void accounted(const Said *d, Tokens *ok)
{
	char buf[4096], *save = NULL;
	ok->n = 0;
	if (d->plain)
		lesson_numbers(d->plain, collect, ok);
	if (!d->claims)
		return;
	snprintf(buf, sizeof buf, "%s", d->claims);
	for (char *tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq)
			continue;
		/* the layer or τ a key names (n.1, compare.10), the whole value, and
		 * a list's items each (whatif, compare, over) */
		char *dot = strchr(tok, '.');
		if (dot && dot < eq)
			collect((*eq = '\0', dot + 1), ok);
		collect(eq + 1, ok);
		for (char *c = eq + 1; *c;) {
			char item[128];
			size_t n = strcspn(c, ",");
			snprintf(item, sizeof item, "%.*s", (int)n, c);
			collect(item, ok);
			c += n + (c[n] == ',');
		}
	}
}

static int numbers_accounted(const Said *d, Err *e)
{
	Tokens said = {.n = 0}, ok;
	lesson_numbers(d->caption, collect, &said);
	accounted(d, &ok);
	for (int i = 0; i < said.n; i++)
		if (!has(&ok, said.t[i]))
			return err_set(
			    e,
			    "the caption before action %d states %s, which no claim (#=) "
			    "checks and no #~ line declares",
			    d->at + 1, said.t[i]);
	return 0;
}

/* The caption shown on screen sc, with its claims. */
static Said said_on(const Lesson *l, LessonScreen sc)
{
	Said d = {NULL, NULL, NULL, sc.pos};
	if (sc.proposal && sc.pos < l->n && l->pcaption[sc.pos]) {
		d.caption = l->pcaption[sc.pos];
		d.claims = l->pclaims[sc.pos];
		d.plain = l->pplain[sc.pos];
		return d;
	}
	for (int k = sc.pos > l->n ? l->n : sc.pos; k >= l->setup; k--)
		if (l->caption[k] || l->claims[k]) {
			d.caption = l->caption[k];
			d.claims = l->claims[k];
			d.plain = l->plain[k];
			d.at = k;
			break;
		}
	return d;
}

int lesson_check_screen(const Lesson *l, LessonScreen sc, Session *s, Err *e)
{
	if (sc.pos < 0 || sc.pos > l->n)
		return 0;
	Said d = said_on(l, sc);
	if (!d.caption && !d.claims)
		return 0;
	int arg;
	if (d.caption && (numbers_accounted(&d, e) < 0 ||
	                  lesson_caption_shown(d.caption, d.claims, d.at,
	                                       lesson_screen_view(l, sc, &arg), e) < 0))
		return -1;
	if (!d.claims)
		return 0;
	Ctx c = {l, s, NULL, sc.pos, ""};
	if (cond_net_new(s->net, s->tau, 1, &c.lc, e) != 0)
		return err_set(e, "the conditioning of the network failed");
	char buf[4096];
	int rc = 0;
	snprintf(buf, sizeof buf, "%s", d.claims);
	char *save = NULL;
	for (char *tok = strtok_r(buf, " \n", &save); tok && rc == 0;
	     tok = strtok_r(NULL, " \n", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq) {
			rc = err_set(e, "claim '%s' before action %d: expected KEY=VALUE", tok,
			             d.at + 1);
			break;
		}
		*eq = '\0';
		int r = claim(&c, tok, eq + 1, e);
		if (r < 0)
			rc = err_prefix(e, "claim %s before action %d%s", tok, d.at + 1,
			                d.at < sc.pos ? ", still shown after it" : "");
		else if (r == 0)
			rc = err_set(
			    e, "the caption before action %d claims %s=%s, the state%s says %s",
			    d.at + 1, tok, eq + 1,
			    sc.proposal     ? " with the proposal"
			    : d.at < sc.pos ? " of a later action, where it is still shown,"
			                    : "",
			    c.got);
	}
	cond_net_free(c.lc, s->net->m);
	return rc;
}

int lesson_check_at(const Lesson *l, int pos, Session *s, Err *e)
{
	LessonScreen sc = {pos, 0};
	return lesson_check_screen(l, sc, s, e);
}
