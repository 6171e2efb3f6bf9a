/* session.c - the session state and the actions that change it (the undo
 * stack is in session_undo.c, the squeeze pass in session_squeeze.c, the
 * log lines in session_action.c and the log file in session_log.c). */
#include "session/session.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "alg/alg3_squeeze.h"
#include "base/rng.h"
#include "data/datasets.h"
#include "engine/train_plan.h"
#include "model/model_io.h"
#include "session/session_int.h"
#include "session/session_setting.h"

/* ---- the session ---- */

Session *session_new(Err *e)
{
	Session *s = calloc(1, sizeof *s);
	if (!s) {
		err_set(e, "out of memory for a session");
		return NULL;
	}
	session_settings_reset(s);
	train_opts_default(&s->topt);
	dataspec_default(&s->dspec);
	return s;
}

void session_rewind(Session *s)
{
	session_squeeze_stop(s);
	undo_clear(s);
	net_free(s->net);
	alg1_free(s->alg1);
	alg2_free(s->sweep);
	dataset_free(s->sweep_tr);
	dataset_free(s->sweep_v);
	s->net = NULL;
	s->alg1 = NULL;
	s->sweep = NULL;
	s->sweep_tr = s->sweep_v = NULL;
	if (s->plain_train) { /* the data action's sets, as it made them */
		dataset_free(s->train);
		dataset_free(s->test);
		s->train = s->plain_train;
		s->test = s->plain_test;
		s->plain_train = s->plain_test = NULL;
	}
	s->inputs = 0;
	s->alg1_live = s->sweep_done = 0;
	session_settings_reset(s);
	train_opts_default(&s->topt);
	s->seed = 0;
	s->ntrain = 0;
	s->training = NULL;
	s->dirty = 0;
}

void session_free(Session *s)
{
	if (!s)
		return;
	undo_clear(s);
	free(s->undo);
	session_squeeze_stop(s);
	net_free(s->net);
	alg1_free(s->alg1);
	alg2_free(s->sweep);
	dataset_free(s->train);
	dataset_free(s->test);
	dataset_free(s->sweep_tr);
	dataset_free(s->sweep_v);
	dataset_free(s->plain_train);
	dataset_free(s->plain_test);
	if (s->log)
		fclose(s->log);
	free(s);
}

uint32_t session_param_crc(const Net *net)
{
	uLong c = crc32(0L, Z_NULL, 0);
	const Bytef *p = (const Bytef *)net->param;
	size_t left = net->nparam * sizeof *net->param;
	while (left) {
		uInt chunk = left > (1u << 30) ? (1u << 30) : (uInt)left;
		c = crc32(c, p, chunk);
		p += chunk;
		left -= chunk;
	}
	return (uint32_t)c;
}

int session_test_acc(const Session *s, double *acc, Err *e)
{
	*acc = NAN;
	/* in slices under a screen's stop: it is answered within one */
	return s->net ? net_accuracy(s->net, s->test, NULL, acc, e) : 0;
}

int session_can_undo(const Session *s)
{
	return s->nundo;
}

const Net *session_training(const Session *s)
{
	if (s->training)
		return s->training;
	return s->alg1 ? s->alg1->training : NULL;
}

int session_adopt_action(const Session *s, SessAction *a, double *beta, Err *e)
{
	int p = s->sweep && s->sweep_done ? alg2_pick(s->sweep) : -1;
	if (p < 0 || !s->net)
		return err_set(e, "adopt: no finished beta sweep (b runs one)");
	const Alg2Beta *b = &s->sweep->b[p];
	int m = s->sweep->base->m;
	size_t k = 0;
	memset(a, 0, sizeof *a);
	a->kind = SESS_NET;
	SessNetArgs *na = &a->net;
	for (int i = 1; i < m; i++) {
		int n = snprintf(na->layers + k, sizeof na->layers - k, i > 1 ? ",%d" : "%d",
		                 b->widths[i]);
		if (n < 0 || (size_t)n >= sizeof na->layers - k)
			return err_set(e,
			               "adopt: the widths of beta = %g are longer than %zu "
			               "characters",
			               b->beta, sizeof na->layers - 1);
		k += (size_t)n;
	}
	na->act = (int)s->net->act;
	na->act_a = s->net->act_a;
	na->seed = s->seed;
	*beta = b->beta;
	return 0;
}

/* Loads the data set; a plane data set's points and noise, as drawn, go
 * into the action, so that its log line draws the same points whatever the
 * defaults become. */
static int do_data(Session *s, SessDataArgs *a, Err *e)
{
	DataSpec d;
	Dataset *tr = NULL, *te = NULL;
	dataspec_default(&d);
	d.spec = a->spec;
	d.dir = a->dir[0] ? a->dir : NULL;
	d.features = a->features;
	d.label_col = a->label_col;
	d.seed = a->seed;
	d.limit = a->limit;
	d.scale = a->scale;
	d.points = a->points;
	d.noise = a->has_noise ? a->noise : -1;
	d.inputs = a->inputs;
	memcpy(d.shape, a->shape, sizeof d.shape);
	if (datasets_load(&d, &tr, &te, e) < 0)
		return -1;
	if (datasets_plane_params(&d, &d.points, &d.noise, NULL) == 0) {
		a->points = d.points;
		a->noise = d.noise;
		a->has_noise = 1;
	}
	undo_clear(s); /* its snapshots may hold data sets of the inputs */
	dataset_free(s->train);
	dataset_free(s->test);
	dataset_free(s->sweep_tr);
	dataset_free(s->sweep_v);
	dataset_free(s->plain_train);
	dataset_free(s->plain_test);
	s->sweep_tr = s->sweep_v = s->plain_train = s->plain_test = NULL;
	s->inputs = 0;
	s->train = tr;
	s->test = te;
	snprintf(s->data_spec, sizeof s->data_spec, "%s", a->spec);
	snprintf(s->data_dir, sizeof s->data_dir, "%s", a->dir);
	s->dspec = d;
	s->dspec.spec = s->data_spec;
	s->dspec.dir = s->data_dir[0] ? s->data_dir : NULL;
	s->val_frac = a->val_frac;
	s->val_per_class = a->val_per_class;
	undo_clear(s);
	net_free(s->net);
	alg1_free(s->alg1);
	alg2_free(s->sweep);
	s->net = NULL;
	s->alg1 = NULL;
	s->sweep = NULL;
	s->alg1_live = 0;
	s->dirty = 0;
	return 0;
}

/* Replaces the network by a new one (fresh or loaded): undoable. */
static int set_net(Session *s, Net *net, Err *e)
{
	SessSnapshot sn;
	if (net->n[0] != s->train->d || net->n[net->m] != s->train->k) {
		int d = net->n[0], k = net->n[net->m];
		net_free(net);
		return err_set(e,
		               "the network has %d inputs and %d outputs, the data set %d features "
		               "and %d classes",
		               d, k, s->train->d, s->train->k);
	}
	if (session_net_inputs(s, net, e) < 0) {
		net_free(net);
		return -1;
	}
	if (s->net) {
		if (snap_take(s, &sn, e) < 0 || undo_push(s, &sn, e) < 0) {
			net_free(net);
			return -1;
		}
	}
	net_free(s->net);
	s->net = net;
	s->alg1_live = 0;
	s->dirty = 0;
	return 0;
}

static int do_net(Session *s, const SessNetArgs *a, Err *e)
{
	const Dataset *t = s->train;
	Net *net = net_fresh_spec(a->layers, t->d, t->c, t->h, t->w, t->k, (ActKind)a->act,
	                          (float)a->act_a, a->seed, t->name, e);
	if (!net)
		return err_prefix(e, "the network %s", a->layers);
	s->seed = a->seed;
	return set_net(s, net, e);
}

static int do_load(Session *s, SessLoadArgs *a, Err *e)
{
	Net *net = session_read_net(a->path, a->onnx, e);
	if (!net)
		return -1;
	/* images of the network's shape, as the batch commands hold a load to */
	const Dataset *t = s->train;
	if (t && net_check_images(net, t->c, t->h, t->w, t->name, e) < 0) {
		net_free(net);
		return err_prefix(e, "%s", a->path);
	}
	uint32_t crc = session_param_crc(net);
	if (a->has_crc && crc != a->crc) {
		net_free(net);
		return err_set(e,
		               "%s: the parameters' CRC-32 is %08x, the session loaded %08x "
		               "(the file has changed)",
		               a->path, (unsigned)crc, (unsigned)a->crc);
	}
	a->has_crc = 1;
	a->crc = crc;
	if (set_net(s, net, e) < 0)
		return -1;
	if (a->has_seed) /* the trainings that follow, as --seed said */
		s->seed = a->seed;
	snprintf(s->loaded, sizeof s->loaded, "%s", a->path);
	return 0;
}

/* Algorithm 2's split of the training set (by the data action's validation
 * fraction or rows per class), made on first use. */
static int need_split(Session *s, Err *e)
{
	if (!s->sweep_tr && dataset_split(s->train, s->val_frac, s->val_per_class, s->seed,
	                                  &s->sweep_tr, &s->sweep_v, e) < 0)
		return err_prefix(e, "validation split");
	return 0;
}

static int do_train(Session *s, const SessTrainArgs *a, const Hook *h, Err *e)
{
	TrainPlan p;
	const Dataset *d = s->train;
	train_plan_default(&p, &s->topt, a->epochs);
	p.opts.seed = rng_derive(s->seed, 0x7000 + (uint64_t)s->ntrain);
	p.patience = a->patience;
	if (a->patience > 0 || s->topt.sched.kind == SCHED_PLATEAU) {
		if (need_split(s, e) < 0)
			return -1;
		d = s->sweep_tr;
		p.val = s->sweep_v;
	}
	Net *backup = net_clone(s->net, e);
	if (!backup)
		return err_set(e, "out of memory copying the network");
	TrainResult r;
	s->training = s->net;
	int rc = train_plan_fit(s->net, d, &p, h, &r, e);
	s->training = NULL;
	if (rc != 0 || hook_cancelled(h)) {
		net_free(s->net);
		s->net = backup;
		/* a failure that a cancel caused (κ stopped half way) is the cancel */
		return rc < 0 && !hook_cancelled(h) ? -1 : 1;
	}
	net_free(backup);
	s->trained = r;
	s->ntrain++;
	s->alg1_live = 0;
	s->dirty = 1;
	return 0;
}

/* Runs Algorithm-1 iterations (at most max, 0 = until it stops); *done gets
 * how many finished. One undo entry for all of them. */
static int do_alg1(Session *s, int max, const Hook *h, int *done, Err *e)
{
	SessSnapshot before;
	*done = 0;
	if (snap_take(s, &before, e) < 0)
		return -1;
	if (!s->alg1 || !s->alg1_live) {
		Alg1Opts o;
		alg1_opts_default(&o);
		o.tau = s->tau;
		o.eta = s->eta;
		o.seed = s->seed;
		o.train = s->topt;
		Alg1 *a = alg1_new(s->net, s->train, &o, e);
		if (!a) {
			snap_free(&before);
			return -1;
		}
		a->eval = s->test; /* the accuracy of every iteration, for people */
		alg1_free(s->alg1);
		s->alg1 = a;
		s->alg1_live = 1;
	}
	Alg1 *a = s->alg1;
	int rc = 0;
	while (!max || *done < max) {
		if (a->nrec > 0 && a->status != ALG1_RUNNING)
			break;
		Alg1 *back = alg1_clone(a, e);
		if (!back) {
			rc = -1;
			break;
		}
		int st = alg1_step(a, h, e);
		if (st != 0 || hook_cancelled(h)) {
			alg1_free(a);
			s->alg1 = a = back;
			rc = st < 0 && !hook_cancelled(h) ? -1 : 1;
			break;
		}
		alg1_free(back);
		Net *n = net_clone(a->net, e);
		if (!n) {
			rc = err_set(e, "out of memory copying the network");
			break;
		}
		net_free(s->net);
		s->net = n;
		s->dirty = 1;
		(*done)++;
	}
	if (*done == 0) {
		snap_restore(s, &before);
		return rc ? rc : 0;
	}
	if (undo_push(s, &before, rc < 0 ? NULL : e) < 0)
		snap_free(&before);
	return rc;
}

static int do_sweep(Session *s, const SessSweepArgs *a, const Hook *h, Err *e)
{
	Alg2Opts o;
	alg2_opts_default(&o);
	if (alg2_parse_betas(a->betas, &o, e) < 0)
		return err_prefix(e, "betas");
	o.q = a->q;
	o.eta = s->eta;
	o.seed = s->seed;
	o.train = s->topt;
	o.jobs = s->jobs;
	sched_default(&o.train.sched); /* the trials train eta epochs at the constant rate */
	if (need_split(s, e) < 0)
		return -1;
	Alg2 *sw = alg2_new(s->net, s->sweep_tr, s->sweep_v, &o, e);
	if (!sw)
		return -1;
	alg2_free(s->sweep);
	s->sweep = sw;
	s->sweep_done = 0;
	int rc = alg2_run(sw, h, e);
	if (rc > 0 || hook_cancelled(h))
		return 1;
	if (rc < 0)
		return -1;
	s->sweep_done = 1;
	return 0;
}

/* What the actions that work layer by layer through W and b are called in
 * a graph network's refusal; NULL for those that take a graph. */
static const char *graph_what(SessKind k)
{
	switch (k) {
	case SESS_ALG1_STEP:
	case SESS_ALG1_RUN:
		return "Algorithm 1";
	case SESS_SWEEP:
		return "Algorithm 2's sweep of β";
	case SESS_NEURON:
	case SESS_LAYER:
		return "editing by hand";
	case SESS_INPUTS:
		return "the plane's inputs";
	default:
		return NULL;
	}
}

/* What an action needs before it runs: a log line that is not cut, the
 * numbers a log line is held to (the screen's actions too), a data set, and
 * for most a network. */
static int may_apply(const Session *s, const SessAction *a, Err *e)
{
	const char *name = session_action_name(a);
	if (s->log) {
		/* an action whose log line would be cut is refused, not logged wrong */
		char line[SESS_LINE_MAX + 1];
		if (session_format_line(a, line, sizeof line, e) < 0)
			return -1;
	}
	if (session_check(a, e) < 0)
		return -1;
	if (a->kind != SESS_DATA && !s->train)
		return err_set(e, "%s: no data set yet (the first action must be 'data')", name);
	if (a->kind > SESS_NET && a->kind != SESS_LOAD && a->kind != SESS_SET && !s->net)
		return err_set(e, "%s: no network yet (expected 'net' or 'load' before it)", name);
	const char *what = graph_what(a->kind);
	return what ? session_refuse_graph(s->net && s->net->graph, what, e) : 0;
}

static int do_opts(Session *s, const SessOptsArgs *a, Err *e)
{
	if (a->batch < 1 || !(a->lr > 0))
		return err_set(e, "opts: batch must be >= 1 and lr > 0");
	s->topt.batch = a->batch;
	s->topt.adam.lr = a->lr;
	s->topt.threads = a->threads;
	return 0;
}

static int do_undo(Session *s, Err *e)
{
	if (!s->nundo)
		return err_set(e, "undo: nothing to undo");
	snap_restore(s, &s->undo[--s->nundo]);
	s->dirty = 1;
	return 0;
}

static int do_save(Session *s, const SessSaveArgs *a, Err *e)
{
	/* the model records how the data's inputs were made */
	if (!s->replay && !s->net->prep && s->train && s->train->prep &&
	    s->train->prep->d == s->net->n[0] && net_set_prep(s->net, s->train->prep, e))
		return -1;
	if (!s->replay && model_save(s->net, a->path, e) < 0)
		return -1;
	if (!s->replay)
		snprintf(s->saved, sizeof s->saved, "%s", a->path);
	s->dirty = 0;
	return 0;
}

/* Algorithm 1's iterations: a run cut short is logged with those done. */
static int do_alg1_run(Session *s, SessAction *a, const Hook *h, Err *e)
{
	int done = 0;
	int rc = do_alg1(s, a->kind == SESS_ALG1_STEP ? 1 : a->run.steps, h, &done, e);
	if (a->kind == SESS_ALG1_RUN && rc != 0 && done > 0) {
		a->run.steps = done;
		session_log_action(s, a);
	}
	return rc;
}

int session_apply(Session *s, const SessAction *act, const Hook *h, Err *e)
{
	SessAction a = *act;
	int rc;
	if (may_apply(s, &a, e) < 0)
		return -1;
	/* a squeeze pass lives on the network as it is: any other change ends it */
	if (a.kind != SESS_SQUEEZE && a.kind != SESS_SAVE)
		session_squeeze_stop(s);
	switch (a.kind) {
	case SESS_DATA:
		rc = do_data(s, &a.data, e);
		break;
	case SESS_OPTS:
		rc = do_opts(s, &a.opts, e);
		break;
	case SESS_NET:
		rc = do_net(s, &a.net, e);
		break;
	case SESS_LOAD:
		rc = do_load(s, &a.load, e);
		break;
	case SESS_SET:
		rc = session_setting_apply(s, &a, e);
		break;
	case SESS_TRAIN:
		rc = do_train(s, &a.train, h, e);
		break;
	case SESS_ALG1_STEP:
	case SESS_ALG1_RUN:
		rc = do_alg1_run(s, &a, h, e);
		break;
	case SESS_SWEEP:
		rc = do_sweep(s, &a.sweep, h, e);
		break;
	case SESS_SQUEEZE:
		rc = session_do_squeeze(s, &a, h, e);
		break;
	case SESS_NEURON:
	case SESS_LAYER:
		rc = session_do_edit(s, &a, e);
		break;
	case SESS_INPUTS:
		rc = session_do_inputs(s, &a, e);
		break;
	case SESS_UNDO:
		rc = do_undo(s, e);
		break;
	case SESS_SAVE:
		rc = do_save(s, &a.save, e);
		break;
	default:
		return err_set(e, "unknown action kind %d", (int)a.kind);
	}
	if (rc == 0)
		session_log_action(s, &a);
	return rc;
}

/* The rest of Algorithm 3's pass, one logged squeeze action a layer. */
int session_squeeze_apply_all(Session *s, int comp, const Hook *h, Err *e)
{
	const Alg3Proposal *sp;
	const GroupDecision *gp = NULL;
	while ((sp = session_squeeze_proposal(s)) || (gp = session_group_proposal(s))) {
		if (hook_cancelled(h))
			return 1;
		SessAction a = {.kind = SESS_SQUEEZE,
		                .squeeze = {.layer = sp ? sp->layer : 0,
		                            .group = sp ? 0 : gp->group,
		                            .apply = 1,
		                            .comp = comp}};
		int rc = session_apply(s, &a, h, e);
		if (rc != 0)
			return rc;
	}
	return 0;
}
