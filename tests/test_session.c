/* test_session.c - the session: a log replayed against the same engine
 * calls made directly, a lesson stepped back, a cancelled action rolled
 * back, a load's CRC, the network a hook sees while training, adopting a
 * sweep's pick, and the settings table (τ and η through their setters). */
#include <math.h>

#include "alg/alg1_proportion.h"
#include "alg/alg3_squeeze.h"
#include "base/rng.h"
#include "data/datasets.h"
#include "engine/cond.h"
#include "engine/schedule.h"
#include "model/model_io.h"
#include "session/session_setting.h"
#include "session_test.h"

static const char replay_log[] =
    "data spec=synthetic features=0 label_col=-1 seed=3 limit=60 val_frac=0.2 val_per_class=0\n"
    "opts batch=20 lr=0.01\n"
    "net layers=16,12 act=tanh act_a=1 seed=5\n"
    "tau 3\n"
    "eta 0.5\n"
    "train 1\n"
    "alg1-step\n"
    "alg1-step\n"
    "squeeze layer=1 apply comp=0\n"
    "undo\n"
    "squeeze layer=2 apply comp=0\n";

/* The engine calls the log above stands for, made by hand. */
static Net *direct(void)
{
	DataSpec d;
	Dataset *tr, *te;
	Err e = {{0}};
	dataspec_default(&d);
	d.spec = "synthetic";
	d.features = 0;
	d.seed = 3;
	d.limit = 60;
	ck_assert_msg(datasets_load(&d, &tr, &te, &e) == 0, "%s", e.msg);
	int w[4] = {tr->d, 16, 12, tr->k};
	Net *net = net_new(3, w, ACT_TANH, 1, &e);
	Rng r;
	rng_seed(&r, 5);
	net_init_glorot(net, &r);
	TrainOpts to;
	train_opts_default(&to);
	to.batch = 20;
	to.adam.lr = 0.01;
	TrainOpts t1 = to;
	t1.seed = rng_derive(5, 0x7000);
	ck_assert_int_eq(train_epochs(net, tr, &t1, 1, NULL, NULL, &e), 0);
	Alg1Opts ao;
	alg1_opts_default(&ao);
	ao.tau = 3;
	ao.eta = 0.5;
	ao.seed = 5;
	ao.train = to;
	Alg1 *a = alg1_new(net, tr, &ao, &e);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_ge(alg1_step(a, NULL, &e), 0);
	ck_assert_int_ge(alg1_step(a, NULL, &e), 0);
	net_free(net);
	net = net_clone(a->net, &e);
	alg1_free(a);
	Alg3Opts so;
	Alg3Proposal sp;
	alg3_opts_default(&so);
	so.tau = 3;
	so.compensate = 0;
	ck_assert_int_eq(alg3_propose(net, 2, &so, &sp, &e), 0);
	if (sp.nkeep < sp.n_before)
		ck_assert_int_eq(alg3_apply_proposal(net, &sp, 0, tr, &e), 0);
	alg3_proposal_free(&sp);
	dataset_free(tr);
	dataset_free(te);
	return net;
}

START_TEST(replay_matches_direct_calls)
{
	const char *dir = tu_tmpdir();
	const char *path = write_log(dir, replay_log);
	char logged[1100];
	Session *s = session_new(NULL);
	Err e = {{0}};
	snprintf(logged, sizeof logged, "%s/again.log", dir);
	ck_assert_int_eq(session_log_open(s, logged, &e), 0);
	ck_assert_msg(session_replay(s, path, NULL, &e) == 0, "%s", e.msg);
	Net *want = direct();
	ck_assert_int_eq(s->net->m, want->m);
	for (int i = 0; i <= want->m; i++)
		ck_assert_int_eq(s->net->n[i], want->n[i]);
	ck_assert_uint_eq(session_param_crc(s->net), session_param_crc(want));
	/* two iterations, the first squeeze (undone), the second squeeze */
	ck_assert_int_eq(session_can_undo(s), 3);
	session_free(s);
	net_free(want);

	/* The session's own log, replayed, gives the same network again. */
	FILE *f = fopen(logged, "r");
	char line[2048];
	int nl = 0;
	while (fgets(line, sizeof line, f))
		nl++;
	fclose(f);
	ck_assert_int_eq(nl, 13); /* the header, the 11 actions, the record after opts */
	/* a replay here computes what this process recorded */
	ck_assert_int_eq(session_log_check(logged, &e), 0);
	Session *s2 = session_new(&e), *s3 = session_new(&e);
	ck_assert_int_eq(session_replay(s2, path, NULL, &e), 0);
	ck_assert_msg(session_replay(s3, logged, NULL, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(session_param_crc(s2->net), session_param_crc(s3->net));
	session_free(s2);
	session_free(s3);
}
END_TEST

static char notes[16][64];
static int nnotes;
static void keep_note(const HookStep *st, void *ud)
{
	(void)ud;
	if (st->kind == HOOK_NOTE && nnotes < 16)
		snprintf(notes[nnotes++], sizeof notes[0], "%s", st->text);
}

/* A lesson stepped back: the session rewound to its data and the actions
 * after it replayed, announced one by one, to the network a replay of the
 * same lines gives; a bad action stops it and says how far it came. */
START_TEST(replay_actions_after_a_rewind)
{
	const char *path = write_log(tu_tmpdir(), replay_log);
	TextFile f;
	SessAction a[16];
	int n = 0, done = -1;
	Err e = {{0}};
	ck_assert_int_eq(session_log_read(&f, path, &e), 0);
	while (n < 16 && session_log_next(&f, &a[n], &e) > 0)
		n++;
	text_close(&f);
	ck_assert_int_eq(n, 11);
	Session *s = session_new(&e), *want = session_new(&e);
	ck_assert_int_eq(session_replay(want, path, NULL, &e), 0);
	/* the data, then something the rewind forgets */
	ck_assert_int_eq(session_apply(s, &a[0], NULL, &e), 0);
	ck_assert_int_eq(session_apply(s, &a[2], NULL, &e), 0);
	nnotes = 0;
	Hook h = {.step = keep_note};
	ck_assert_msg(session_replay_actions(s, a + 1, n - 1, &h, &done, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(done, n - 1);
	ck_assert_int_eq(nnotes, n - 1);
	ck_assert_str_eq(notes[0], "replaying action 1 of 10");
	ck_assert_str_eq(notes[9], "replaying action 10 of 10");
	ck_assert_uint_eq(session_param_crc(s->net), session_param_crc(want->net));
	ck_assert_int_eq(session_can_undo(s), session_can_undo(want));
	/* a squeeze of a layer that does not exist stops it at that action */
	a[4] = a[8];
	a[4].squeeze.layer = 7;
	ck_assert_int_eq(session_replay_actions(s, a + 1, n - 1, NULL, &done, &e), -1);
	ck_assert_int_eq(done, 3);
	ck_assert_str_eq(e.msg, "squeeze: layer 7 is not a hidden layer (1..2)");
	session_free(s);
	session_free(want);
}
END_TEST

static int calls;
static int stop_after_3(const TrainProgress *p, void *ud)
{
	(void)p;
	(void)ud;
	return ++calls >= 3;
}
static int is_cancelled(void *ud)
{
	(void)ud;
	return calls >= 3;
}

START_TEST(cancel_rolls_back)
{
	const char *dir = tu_tmpdir();
	char logp[1100];
	const char *path =
	    write_log(dir, "data spec=synthetic features=0 label_col=-1 seed=3 limit=60 "
	                   "val_frac=0.2 val_per_class=0\n"
	                   "opts batch=10 lr=0.01\n"
	                   "net layers=8 act=erf act_a=1 seed=9\n");
	Session *s = session_new(NULL);
	Err e = {{0}};
	snprintf(logp, sizeof logp, "%s/c.log", dir);
	ck_assert_int_eq(session_log_open(s, logp, &e), 0);
	ck_assert_int_eq(session_replay(s, path, NULL, &e), 0);
	uint32_t before = session_param_crc(s->net);
	Hook h = {.progress = stop_after_3, .cancelled = is_cancelled};
	SessAction a = act(SESS_TRAIN);
	a.train.epochs = 5;
	calls = 0;
	ck_assert_int_eq(session_apply(s, &a, &h, &e), 1);
	ck_assert_uint_eq(session_param_crc(s->net), before);
	a = act(SESS_ALG1_STEP);
	calls = 0;
	ck_assert_int_eq(session_apply(s, &a, &h, &e), 1);
	ck_assert_uint_eq(session_param_crc(s->net), before);
	ck_assert_int_eq(session_can_undo(s), 0);
	a = act(SESS_UNDO);
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "undo: nothing to undo");
	session_free(s);
	/* Neither cancelled action, nor the failed undo, reached the log. */
	FILE *f = fopen(logp, "r");
	char line[2048], last[2048] = "";
	while (fgets(line, sizeof line, f))
		strcpy(last, line);
	fclose(f);
	ck_assert_str_eq(last, "net layers=8 act=erf act_a=1 seed=9\n");
}
END_TEST

START_TEST(load_checks_crc)
{
	const char *dir = tu_tmpdir();
	char model[1100], text[3000];
	snprintf(model, sizeof model, "%s/m.model", dir);
	const char *head = "data spec=synthetic features=0 label_col=-1 seed=3 limit=30 "
	                   "val_frac=0.2 val_per_class=0\nnet layers=6 act=erf act_a=1 seed=2\n";
	snprintf(text, sizeof text, "%ssave path=%s\n", head, model);
	Session *s = session_new(NULL);
	Err e = {{0}};
	ck_assert_int_eq(session_replay(s, write_log(dir, text), NULL, &e), 0);
	uint32_t crc = session_param_crc(s->net);
	session_free(s);
	/* the saved model records how the data's inputs were made */
	Net *saved = model_load(model, &e);
	ck_assert_msg(saved != NULL, "%s", e.msg);
	ck_assert_ptr_nonnull(saved->prep);
	ck_assert_int_eq(saved->prep->kind, PREP_FEATURES);
	ck_assert_int_eq(saved->prep->scale, DATA_RAW);
	net_free(saved);
	snprintf(text, sizeof text, "%sload path=%s crc=%08x\n", head, model, (unsigned)crc);
	s = session_new(&e);
	ck_assert_msg(session_replay(s, write_log(dir, text), NULL, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(session_param_crc(s->net), crc);
	ck_assert_int_eq(session_can_undo(s), 1);
	ck_assert(s->seed == 2); /* without seed=, the trainings keep the session's */
	session_free(s);
	/* with seed=, the trainings after it use that seed (tui --load M --seed S) */
	snprintf(text, sizeof text, "%sload path=%s seed=7\n", head, model);
	s = session_new(&e);
	ck_assert_msg(session_replay(s, write_log(dir, text), NULL, &e) == 0, "%s", e.msg);
	ck_assert(s->seed == 7);
	session_free(s);
	snprintf(text, sizeof text, "%sload path=%s crc=%08x\n", head, model, (unsigned)crc ^ 1u);
	s = session_new(&e);
	ck_assert_int_eq(session_replay(s, write_log(dir, text), NULL, &e), -1);
	ck_assert_msg(strstr(e.msg, ":3: ") && strstr(e.msg, "the file has changed"), "%s", e.msg);
	session_free(s);
}
END_TEST

/* What the training hook saw: the network's widths, and whether it was
 * the session's current network. */
static struct {
	Session *s;
	int calls, m, n[8], is_current;
} seen;

static int look(const TrainProgress *p, void *ud)
{
	(void)p;
	(void)ud;
	const Net *t = session_training(seen.s);
	ck_assert_ptr_nonnull(t);
	if (seen.calls++ == 0) {
		seen.m = t->m;
		memcpy(seen.n, t->n, (size_t)(t->m + 1) * sizeof *t->n);
		seen.is_current = t == seen.s->net;
	}
	return 0;
}

START_TEST(hook_sees_the_training_net)
{
	Session *s = session_new(NULL);
	Err e = {{0}};
	Hook h = {.progress = look};
	ck_assert_int_eq(session_replay(s, write_log(tu_tmpdir(), small_log), NULL, &e), 0);
	ck_assert_ptr_null(session_training(s));
	memset(&seen, 0, sizeof seen);
	seen.s = s;
	SessAction a = act(SESS_TRAIN);
	a.train.epochs = 0.5;
	ck_assert_int_eq(session_apply(s, &a, &h, &e), 0);
	ck_assert_int_gt(seen.calls, 0);
	ck_assert_int_eq(seen.is_current, 1);
	/* the first step trains a copy of the current shape */
	a = act(SESS_ALG1_STEP);
	seen.calls = 0;
	ck_assert_int_eq(session_apply(s, &a, &h, &e), 0);
	ck_assert_int_gt(seen.calls, 0);
	ck_assert_int_eq(seen.is_current, 0);
	ck_assert_int_eq(seen.m, 3);
	ck_assert_int_eq(seen.n[1], 16);
	ck_assert_int_eq(seen.n[2], 12);
	/* the second trains the reduced network that line 4 plans */
	int want[4];
	ck_assert_int_gt(alg1_next_widths(s->alg1, want, &e), 0);
	seen.calls = 0;
	ck_assert_int_eq(session_apply(s, &a, &h, &e), 0);
	ck_assert_int_gt(seen.calls, 0);
	ck_assert_mem_eq(seen.n, want, sizeof want);
	ck_assert_mem_eq(s->net->n, want, sizeof want);
	ck_assert_ptr_null(session_training(s));
	ck_assert_ptr_null(s->alg1->training);
	session_free(s);
}
END_TEST

START_TEST(adopt_the_pick)
{
	const char *dir = tu_tmpdir();
	char logp[1100], line[2048], prev[2048] = "";
	Session *s = session_new(NULL);
	Err e = {{0}};
	double beta;
	snprintf(logp, sizeof logp, "%s/adopt.log", dir);
	ck_assert_int_eq(session_log_open(s, logp, &e), 0);
	ck_assert_int_eq(session_replay(s, write_log(dir, small_log), NULL, &e), 0);
	SessAction a;
	ck_assert_int_eq(session_adopt_action(s, &a, &beta, &e), -1);
	ck_assert_str_eq(e.msg, "adopt: no finished beta sweep (b runs one)");
	uint32_t before = session_param_crc(s->net);
	SessAction sw = act(SESS_SWEEP);
	strcpy(sw.sweep.betas, "0.5,1.5");
	sw.sweep.q = 1;
	ck_assert_msg(session_apply(s, &sw, NULL, &e) == 0, "%s", e.msg);
	int p = alg2_pick(s->sweep);
	ck_assert_int_ge(p, 0);
	ck_assert_int_eq(session_adopt_action(s, &a, &beta, &e), 0);
	ck_assert(beta == s->sweep->b[p].beta);
	ck_assert_str_eq(a.net.layers, beta == 0.5 ? "8,6" : "24,18");
	session_log_note(s, "adopt the beta sweep's pick, beta = %.17g", beta);
	ck_assert_msg(session_apply(s, &a, NULL, &e) == 0, "%s", e.msg);
	/* fresh Glorot weights of the pick's widths, with the session's seed */
	int w[4] = {s->train->d, beta == 0.5 ? 8 : 24, beta == 0.5 ? 6 : 18, s->train->k};
	Net *want = net_new(3, w, ACT_TANH, 1, &e);
	Rng r;
	rng_seed(&r, 5);
	net_init_glorot(want, &r);
	ck_assert_mem_eq(s->net->n, want->n, sizeof w);
	ck_assert_uint_eq(session_param_crc(s->net), session_param_crc(want));
	net_free(want);
	uint32_t adopted = session_param_crc(s->net);
	SessAction u = act(SESS_UNDO);
	ck_assert_int_eq(session_apply(s, &u, NULL, &e), 0);
	ck_assert_uint_eq(session_param_crc(s->net), before);
	session_free(s);
	/* the log names the pick in a note, then holds a plain net line */
	FILE *f = fopen(logp, "r");
	static char text[16384];
	size_t len = 0, kept = 0;
	int found = 0;
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(prev, "# adopt the beta sweep's pick, beta = ", 38))
			found = !strncmp(line, "net layers=", 11);
		strcpy(prev, line);
		kept = len;
		len += (size_t)snprintf(text + len, sizeof text - len, "%s", line);
	}
	fclose(f);
	ck_assert_msg(found, "no note and net line in %s", logp);
	ck_assert_str_eq(prev, "undo\n");
	/* replayed, it adopts (as an undoable change) and undoes the same way */
	s = session_new(&e);
	ck_assert_msg(session_replay(s, logp, NULL, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(session_param_crc(s->net), before);
	session_free(s);
	text[kept] = '\0';
	s = session_new(&e);
	ck_assert_msg(session_replay(s, write_log(dir, text), NULL, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(session_param_crc(s->net), adopted);
	ck_assert_int_eq(session_can_undo(s), 1);
	session_free(s);
}
END_TEST

/* τ and η reach the session and its Algorithm 1 through their setters
 * only: the next iteration runs at the new values, and a value Algorithm 1
 * refuses changes neither the session nor the algorithm. */
START_TEST(setters_reach_algorithm1)
{
	Err e = {{0}};
	Session *s = session_new(&e);
	ck_assert_int_eq(session_replay(s, write_log(tu_tmpdir(), small_log), NULL, &e), 0);
	SessAction st = act(SESS_ALG1_STEP);
	ck_assert_msg(session_apply(s, &st, NULL, &e) == 0, "%s", e.msg);
	ck_assert(s->alg1 && s->alg1->o.tau == 3 && s->alg1->o.eta == 0.5);
	ck_assert_int_eq(session_set_tau(s, 4.5, &e), 0);
	ck_assert_int_eq(session_set_eta(s, 0.25, &e), 0);
	ck_assert(s->tau == 4.5 && s->alg1->o.tau == 4.5);
	ck_assert(s->eta == 0.25 && s->alg1->o.eta == 0.25);
	ck_assert_int_eq(session_set_tau(s, 1, &e), -1);
	ck_assert_str_eq(e.msg, "τ = 1, expected a finite threshold > 1");
	ck_assert_int_eq(session_set_eta(s, -1, &e), -1);
	ck_assert_str_eq(e.msg, "η = -1, expected a positive number of epochs");
	ck_assert(s->tau == 4.5 && s->alg1->o.tau == 4.5);
	ck_assert(s->eta == 0.25 && s->alg1->o.eta == 0.25);
	if (s->alg1->status == ALG1_RUNNING) {
		ck_assert_msg(session_apply(s, &st, NULL, &e) == 0, "%s", e.msg);
		ck_assert(s->alg1->rec[1].tau == 4.5 && s->alg1->rec[1].eta == 0.25);
		ck_assert(s->alg1->rec[0].tau == 3 && s->alg1->rec[0].eta == 0.5);
	}
	/* a new Algorithm 1 under a plateau schedule is refused by its own rule */
	SessAction pl = act(SESS_SET), tr = act(SESS_TRAIN);
	pl.set.id = SET_SCHED;
	tr.train.epochs = 0.5;
	ck_assert_int_eq(session_apply(s, &tr, NULL, &e), 0); /* alg1 no longer goes on */
	strcpy(pl.set.spec, "plateau:2");
	ck_assert_int_eq(session_apply(s, &pl, NULL, &e), 0);
	ck_assert_int_eq(session_apply(s, &st, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "Algorithm 1: the plateau schedule needs a validation set, which "
	                        "Algorithm 1 has not (it trains η epochs each time)");
	strcpy(pl.set.spec, "constant");
	ck_assert_int_eq(session_apply(s, &pl, NULL, &e), 0);
	ck_assert_msg(session_apply(s, &st, NULL, &e) == 0, "%s", e.msg);
	session_free(s);
}
END_TEST

/* The settings table: each row read and written by its name, a new session
 * at the defaults, a number applied through the engine's setter or kept in
 * the session's slot, held to its row of the table of limits, and said on
 * the screen with its symbol and unit. */
START_TEST(settings_table)
{
	Err e = {{0}};
	ck_assert_int_le(session_nsettings, SESS_SET_MAX);
	for (int i = 0; i < session_nsettings; i++) {
		const SessSetting *t = &session_settings[i];
		ck_assert_ptr_eq(session_setting_find(t->name), t);
		ck_assert_msg(t->ask, "%s: no key asks for it", t->name);
		ck_assert_msg(t->hint_keys && t->help && t->sym && t->ascii, "%s", t->name);
	}
	ck_assert_ptr_null(session_setting_find("zeta2"));
	Session *s = session_new(&e);
	ck_assert(s->tau == COND_TAU_DEFAULT && s->eta == 1);
	ck_assert(session_setting_get(s, SET_TAU) == COND_TAU_DEFAULT);
	SessAction a = session_setting_action(SET_ETA, 2.5), b;
	ck_assert_int_eq(session_setting_check(&a, &e), 0);
	ck_assert_int_eq(session_setting_apply(s, &a, &e), 0);
	ck_assert(s->eta == 2.5 && session_setting_get(s, SET_ETA) == 2.5);
	char buf[256];
	ck_assert_str_eq(session_setting_said(&a, s, buf, sizeof buf), "η = 2.5 epochs");
	ck_assert_str_eq(session_setting_narrate(&a, s, "none", 0, buf, sizeof buf),
	                 "η = 2.5: every training of Algorithms 1 and 2 now runs 2.5 epochs");
	a.set.value = 0;
	ck_assert_int_eq(session_setting_check(&a, &e), -1);
	ck_assert_str_eq(e.msg, "eta: 0 is not a positive number");
	/* the schedule: parsed with its warm-up, said as the session follows it */
	ck_assert_int_eq(session_parse("sched step:5:0.5 warmup=2", &b, &e), 1);
	ck_assert_int_eq(session_setting_apply(s, &b, &e), 0);
	ck_assert_int_eq(s->topt.sched.kind, SCHED_STEP);
	ck_assert(s->topt.sched.warmup == 2);
	ck_assert_str_eq(session_setting_said(&b, NULL, buf, sizeof buf), "sched");
	ck_assert_str_eq(session_setting_said(&b, s, buf, sizeof buf),
	                 "schedule step:5:0.5, warm-up 2 epochs: the next trainings follow it");
	session_rewind(s);
	ck_assert(s->eta == 1 && s->tau == COND_TAU_DEFAULT);
	session_free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("session");
	TCase *tc = tcase_create("session");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, replay_matches_direct_calls);
	tcase_add_test(tc, replay_actions_after_a_rewind);
	tcase_add_test(tc, cancel_rolls_back);
	tcase_add_test(tc, load_checks_crc);
	tcase_add_test(tc, hook_sees_the_training_net);
	tcase_add_test(tc, adopt_the_pick);
	tcase_add_test(tc, setters_reach_algorithm1);
	tcase_add_test(tc, settings_table);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
