/* test_session.c - the session log: format/parse round trips, rejection of
 * corrupt lines, and replay against the same engine calls made directly;
 * the network a hook sees while training, adopting a sweep's pick, and the
 * squeeze pass (held proposals, decisions on the spot, undo). */
#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "alg/alg1_proportion.h"
#include "alg/alg3_squeeze.h"
#include "base/rng.h"
#include "data/datasets.h"
#include "model/model_io.h"
#include "session/session.h"
#include "testutil.h"

static SessAction act(SessKind k)
{
	SessAction a;
	memset(&a, 0, sizeof a);
	a.kind = k;
	a.label_col = -1;
	return a;
}

/* One action of every kind, with awkward values where a kind has text. */
static int all_actions(SessAction *v)
{
	int n = 0;
	v[n] = act(SESS_DATA);
	strcpy(v[n].spec, "csv:/tmp/a b,/tmp/100%.csv");
	strcpy(v[n].path, "/data dir");
	v[n].features = 200;
	v[n].label_col = 3;
	v[n].seed = 18446744073709551615ULL;
	v[n].limit = 50;
	v[n].x = 0.1;
	v[n].scale = DATA_STANDARDIZE;
	v[n++].val_per_class = 7;
	v[n] = act(SESS_DATA);
	strcpy(v[n].spec, "spiral");
	v[n].seed = 4;
	v[n].points = 120;
	v[n].has_noise = 1;
	v[n++].noise = 0.1 + 0.2;
	v[n] = act(SESS_OPTS);
	v[n].batch = 32;
	v[n].threads = 2;
	v[n++].x = 1e-3;
	v[n] = act(SESS_NET);
	strcpy(v[n].spec, "3x50,20");
	v[n].act = ACT_RELU;
	v[n].x = 1.5;
	v[n++].seed = 42;
	v[n] = act(SESS_LOAD);
	strcpy(v[n].path, "/tmp/m=1.model");
	v[n].has_crc = 1;
	v[n++].crc = 0xdeadbeef;
	v[n] = act(SESS_LOAD); /* with the seed of the trainings after it */
	strcpy(v[n].path, "/tmp/m.model");
	v[n].has_seed = 1;
	v[n++].seed = 7;
	v[n] = act(SESS_TAU);
	v[n++].x = 25 * 1.25 * 1.25 / 1.25 * 1.25;
	v[n] = act(SESS_ETA);
	v[n++].x = 0.1;
	v[n] = act(SESS_TRAIN);
	v[n++].x = 2.5;
	v[n] = act(SESS_TRAIN);
	v[n].x = 30;
	v[n++].patience = 4;
	v[n] = act(SESS_SCHED);
	strcpy(v[n].spec, "step:2.5:0.25");
	v[n++].x = 0.75;
	v[n] = act(SESS_SCHED);
	strcpy(v[n++].spec, "cosine");
	v[n++] = act(SESS_ALG1_STEP);
	v[n] = act(SESS_ALG1_RUN);
	v[n++].steps = 3;
	v[n] = act(SESS_SWEEP);
	strcpy(v[n].spec, "0.6:1.6:0.2");
	v[n++].q = 2;
	v[n] = act(SESS_SQUEEZE);
	v[n].layer = 2;
	v[n].apply = 1;
	v[n++].comp = 1;
	v[n] = act(SESS_SQUEEZE);
	v[n++].layer = 1;
	v[n] = act(SESS_NEURON);
	v[n].apply = 1;
	v[n].layer = 2;
	v[n++].seed = 18446744073709551615ULL;
	v[n] = act(SESS_NEURON);
	v[n].layer = 1;
	v[n++].neuron = 17;
	v[n] = act(SESS_LAYER);
	v[n].apply = 1;
	v[n++].layer = 0;
	v[n] = act(SESS_LAYER);
	v[n++].layer = 3;
	v[n] = act(SESS_INPUTS);
	strcpy(v[n].spec, "sinx,x2");
	v[n++].seed = 5;
	v[n] = act(SESS_INPUTS);
	strcpy(v[n++].spec, "none");
	v[n++] = act(SESS_UNDO);
	v[n] = act(SESS_SAVE);
	strcpy(v[n].path, "out.model");
	n++;
	return n;
}

START_TEST(round_trip)
{
	SessAction v[48], b;
	char line[2048], again[2048];
	Err e = {{0}};
	int n = all_actions(v), seen[SESS_KIND_COUNT] = {0};
	for (int i = 0; i < n; i++) {
		session_format(&v[i], line, sizeof line);
		ck_assert_msg(!strchr(line, '\n'), "newline in '%s'", line);
		ck_assert_int_eq(session_parse(line, &b, &e), 1);
		ck_assert_int_eq(b.kind, v[i].kind);
		ck_assert_str_eq(session_format(&b, again, sizeof again), line);
		ck_assert_str_eq(b.spec, v[i].spec);
		ck_assert_str_eq(b.path, v[i].path);
		ck_assert(b.x == v[i].x); /* bit-exact */
		ck_assert(b.seed == v[i].seed);
		ck_assert_int_eq(b.has_seed, v[i].has_seed);
		ck_assert_int_eq(b.crc, v[i].crc);
		ck_assert_int_eq(b.apply, v[i].apply);
		ck_assert_int_eq(b.layer, v[i].layer);
		ck_assert_int_eq(b.neuron, v[i].neuron);
		ck_assert_int_eq(b.patience, v[i].patience);
		ck_assert_int_eq(b.points, v[i].points);
		ck_assert_int_eq(b.has_noise, v[i].has_noise);
		ck_assert(b.noise == v[i].noise);
		seen[v[i].kind] = 1;
	}
	for (int k = 0; k < SESS_KIND_COUNT; k++)
		ck_assert_msg(seen[k], "kind %s not covered", session_kind_name(k));
	session_format(&v[0], line, sizeof line);
	ck_assert_msg(strstr(line, "spec=csv:/tmp/a%20b,/tmp/100%25.csv"), "escaping: %s", line);
	ck_assert_int_eq(session_parse("   # a comment", &b, &e), 0);
	ck_assert_int_eq(session_parse("", &b, &e), 0);
}
END_TEST

static void bad(const char *line, const char *want)
{
	SessAction a;
	Err e = {{0}};
	ck_assert_msg(session_parse(line, &a, &e) == -1, "accepted '%s'", line);
	ck_assert_msg(strstr(e.msg, want), "'%s': message '%s' lacks '%s'", line, e.msg, want);
}

START_TEST(corrupt_lines)
{
	bad("frobnicate 3", "unknown action 'frobnicate'");
	bad("tau", "tau: missing a value");
	bad("tau abc", "tau: 'abc' is not a number");
	bad("tau 0.5", "tau: '0.5' must be greater than 1");
	bad("tau 2 3", "tau: more than one value");
	bad("eta -1", "eta: '-1' is not a positive number");
	bad("squeeze layer=1", "squeeze: missing apply or refuse");
	bad("squeeze layer=x apply", "layer: expected an integer");
	bad("squeeze layer=1 maybe", "unexpected word 'maybe'");
	bad("net layers=3x5 act=cosine act_a=1 seed=1", "unknown activation 'cosine'");
	bad("net layers=3x5 act=erf act_a=1", "net: missing seed");
	bad("load path=a crc=xyz", "crc: expected 8 hexadecimal digits");
	bad("save path=a%2", "bad escape");
	bad("opts batch=0 lr=0.1", "batch: '0' is not a positive integer");
	bad("undo path=x", "undo: unknown field 'path'");
	bad("sched", "sched: missing a schedule");
	bad("sched linear", "sched: schedule 'linear': expected constant");
	bad("sched step:1 cosine", "sched: more than one schedule");
	bad("sched cosine warmup=-1", "warmup: '-1' must be at least 0");
	bad("train 5 patience=0", "patience: '0' is not a positive integer");
	bad("tau 30 patience=2", "tau: unknown field 'patience'");
}
END_TEST

static const char *write_log(const char *dir, const char *text)
{
	static char path[1024];
	snprintf(path, sizeof path, "%s", tu_write(dir, "s.log", text, strlen(text)));
	return path;
}

START_TEST(corrupt_log_names_line)
{
	const char *dir = tu_tmpdir();
	const char *path = write_log(dir, "# condnet session log, version 1\n"
	                                  "tau 30\n"
	                                  "eta 1\n"
	                                  "tau 1e999\n");
	Session *s = session_new(NULL);
	Err e = {{0}};
	char want[1100];
	ck_assert_int_eq(session_replay(s, path, NULL, &e), -1);
	snprintf(want, sizeof want, "%s:2: ", path);
	/* line 2 fails first: no data set yet */
	ck_assert_msg(strstr(e.msg, want) == e.msg, "message '%s'", e.msg);
	ck_assert_msg(strstr(e.msg, "no data set yet"), "message '%s'", e.msg);
	session_free(s);

	path = write_log(dir, "data spec=synthetic features=0 label_col=-1 seed=1 limit=20 "
	                      "val_frac=0.1 val_per_class=0\n\ntau 1e999\n");
	s = session_new(&e);
	ck_assert_int_eq(session_replay(s, path, NULL, &e), -1);
	snprintf(want, sizeof want, "%s:3: tau: '1e999' must be at most 1e+12", path);
	ck_assert_msg(strstr(e.msg, want) == e.msg, "message '%s'", e.msg);
	session_free(s);
}
END_TEST

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
	a[4].layer = 7;
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

/* A log recording other kernels or another split than a replay here would
 * use is named with its line; one recording this process's, or nothing, is
 * not. */
START_TEST(log_check_names_other_kernels)
{
	const char *dir = tu_tmpdir();
	ReproRecord now;
	char rec[128], text[512], want[1200];
	Err w = {{0}};
	repro_current(&now, 2);
	snprintf(text, sizeof text,
	         "# condnet session log, version 1\nopts batch=50 lr=0.001 "
	         "threads=2\n# run %s\n",
	         repro_format(&now, rec, sizeof rec));
	const char *same = tu_write(dir, "same.log", text, strlen(text));
	ck_assert_int_eq(session_log_check(same, &w), 0);
	const char *old = "# condnet session log, version 1\nopts batch=50 lr=0.001\n";
	const char *none = tu_write(dir, "none.log", old, strlen(old));
	ck_assert_int_eq(session_log_check(none, &w), 0);
	snprintf(text, sizeof text,
	         "# condnet session log, version 1\nopts batch=50 lr=0.001 "
	         "threads=2\n# run reproducible=on kernels=NoSuchCore threads=2 parts=%d\n",
	         now.parts);
	const char *other = tu_write(dir, "other.log", text, strlen(text));
	ck_assert_int_eq(session_log_check(other, &w), -1);
	snprintf(want, sizeof want,
	         "%s:3: recorded with NoSuchCore kernels, %d part%s; this run: "
	         "%s, %d part",
	         other, now.parts, now.parts == 1 ? "" : "s", now.kernels, now.parts);
	ck_assert_msg(!strncmp(w.msg, want, strlen(want)), "%s", w.msg);
	ck_assert(strstr(w.msg, "numbers may differ"));
	/* the same kernels, another split: 3 parts recorded, this run's differ */
	snprintf(text, sizeof text,
	         "opts batch=50 lr=0.001 threads=3\n# run reproducible=off "
	         "kernels=%s threads=3 parts=3\n",
	         now.kernels);
	const char *parts = tu_write(dir, "parts.log", text, strlen(text));
	ck_assert_int_eq(session_log_check(parts, &w) < 0, repro_on());
	tu_rmtree(dir);
}
END_TEST

/* Two records compared: other kernels, or the same kernels splitting a
 * batch into another number of parts, may give other numbers and say so;
 * the same kernels (in any case) and parts do not, whatever the threads;
 * a record without kernels says nothing. */
START_TEST(repro_compare_kernels_and_parts)
{
	ReproRecord rec, now, back;
	char text[128];
	Err e;
	ck_assert_int_eq(repro_parse("reproducible=on kernels=Haswell threads=3 parts=2", &rec, &e),
	                 0);
	ck_assert(rec.on && !strcmp(rec.kernels, "Haswell") && rec.threads == 3 && rec.parts == 2);
	ck_assert_int_eq(repro_parse(repro_format(&rec, text, sizeof text), &back, &e), 0);
	ck_assert_mem_eq(&back, &rec, sizeof rec);
	now = rec;
	now.threads = 1;
	snprintf(now.kernels, sizeof now.kernels, "HASWELL");
	ck_assert_int_eq(repro_compare(&rec, &now, &e), 0);
	now.parts = 3;
	ck_assert_int_eq(repro_compare(&rec, &now, &e), -1);
	ck_assert_str_eq(e.msg,
	                 "recorded with Haswell kernels, 2 parts; this run: HASWELL, 3 parts — "
	                 "numbers may differ");
	now.parts = 2;
	snprintf(now.kernels, sizeof now.kernels, "Zen");
	ck_assert_int_eq(repro_compare(&rec, &now, &e), -1);
	ck_assert_str_eq(e.msg, "recorded with Haswell kernels, 2 parts; this run: Zen, 2 parts — "
	                        "numbers may differ");
	rec.kernels[0] = '\0';
	ck_assert_int_eq(repro_compare(&rec, &now, &e), 0);
}
END_TEST

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
	a.x = 5;
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

static const char small_log[] =
    "data spec=synthetic features=0 label_col=-1 seed=3 limit=60 val_frac=0.2 val_per_class=0\n"
    "opts batch=20 lr=0.01\n"
    "net layers=16,12 act=tanh act_a=1 seed=5\n"
    "tau 3\n"
    "eta 0.5\n";

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
	a.x = 0.5;
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
	strcpy(sw.spec, "0.5,1.5");
	sw.q = 1;
	ck_assert_msg(session_apply(s, &sw, NULL, &e) == 0, "%s", e.msg);
	int p = alg2_pick(s->sweep);
	ck_assert_int_ge(p, 0);
	ck_assert_int_eq(session_adopt_action(s, &a, &beta, &e), 0);
	ck_assert(beta == s->sweep->b[p].beta);
	ck_assert_str_eq(a.spec, beta == 0.5 ? "8,6" : "24,18");
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

/* The command line's ranges hold in a log too: τ > 1 (as --tau and
 * Algorithm 1 require), η and epochs > 0, β lists and widths as --beta and
 * --layers parse them, q in 1..1000. */
/* A plane data set's line records its points and noise as drawn, the
 * set's own when none were asked for, so that a replay draws the same
 * points; out of range they are refused. */
START_TEST(plane_data_line)
{
	const char *dir = tu_tmpdir();
	char path[1024], line[SESS_LINE_MAX + 2];
	Err e = {{0}};
	snprintf(path, sizeof path, "%s/plane.log", dir);
	Session *s = session_new(&e);
	ck_assert_int_eq(session_log_open(s, path, &e), 0);
	SessAction a = act(SESS_DATA);
	strcpy(a.spec, "circles");
	a.seed = 9;
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), 0);
	ck_assert_int_eq(s->train->n, 300);
	ck_assert_int_eq(s->train->d, 2);
	Dataset *first = dataset_clone(s->train, &e);
	session_free(s);
	FILE *f = fopen(path, "r");
	int found = 0;
	while (fgets(line, sizeof line, f))
		found += !strncmp(line, "data spec=circles ", 18) &&
		         strstr(line, " points=300 noise=0.050000000000000003\n");
	fclose(f);
	ck_assert_int_eq(found, 1);
	s = session_new(&e);
	ck_assert_int_eq(session_replay(s, path, NULL, &e), 0);
	ck_assert(!memcmp(s->train->x, first->x, 300 * 2 * sizeof *first->x));
	session_free(s);
	dataset_free(first);
	SessAction b;
	ck_assert_int_eq(session_parse("data spec=moons features=0 label_col=-1 seed=1 limit=0 "
	                               "val_frac=0.1 val_per_class=0 points=40 noise=0",
	                               &b, &e),
	                 1);
	ck_assert_int_eq(b.points, 40);
	ck_assert_int_eq(b.has_noise, 1);
	ck_assert(b.noise == 0);
	bad("data spec=moons features=0 label_col=-1 seed=1 limit=0 val_frac=0.1 val_per_class=0 "
	    "points=5",
	    "points: '5' is out of range (6..1000000)");
	bad("data spec=moons features=0 label_col=-1 seed=1 limit=0 val_frac=0.1 val_per_class=0 "
	    "noise=2",
	    "noise: '2' must be at most 1");
	/* applied directly (as the screen does), the same limits */
	s = session_new(&e);
	a.points = 3;
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "points: 3 must be at least 6");
	session_free(s);
}
END_TEST

START_TEST(log_ranges_match_the_cli)
{
	SessAction a;
	Err e = {{0}};
	bad("tau 1", "tau: '1' must be greater than 1");
	bad("tau 1e13", "tau: '1e13' must be at most 1e+12");
	bad("eta 0", "eta: '0' is not a positive number");
	bad("eta 2e6", "eta: '2e6' must be at most 1e+06");
	bad("train 0", "train: '0' is not a positive number");
	bad("train 1e7", "train: '1e7' must be at most 1e+06");
	bad("sweep betas=1,-2 q=1", "sweep: betas \"1,-2\": β = -2, every β must be > 0");
	bad("sweep betas=1:2:0 q=1", "sweep: betas \"1:2:0\": step 0, expected > 0");
	bad("sweep betas=1 q=0", "q: '0' is not a positive integer");
	bad("sweep betas=1 q=1001", "q: '1001' is out of range (1..1000)");
	bad("net layers=3,0,4 act=erf act_a=1 seed=1",
	    "net: layers \"3,0,4\": width at column 3 must be positive, not 0");
	bad("net layers=99999999999 act=erf act_a=1 seed=1",
	    "net: layers \"99999999999\": width at column 1 is too large");
	ck_assert_int_eq(session_parse("tau 1.0000001", &a, &e), 1);
	ck_assert(a.x == 1.0000001);
	ck_assert_int_eq(session_parse("eta 1e6", &a, &e), 1);
	ck_assert_int_eq(session_parse("sweep betas=0.5:1.5:0.5 q=1000", &a, &e), 1);
	ck_assert_int_eq(session_parse("net layers=3x5,2 act=erf act_a=1 seed=1", &a, &e), 1);
	/* applied directly (as the screen does), τ = 1 is refused as well */
	Session *s = session_new(&e);
	ck_assert_int_eq(session_replay(s, write_log(tu_tmpdir(), small_log), NULL, &e), 0);
	SessAction t = act(SESS_TAU);
	t.x = 1;
	ck_assert_int_eq(session_apply(s, &t, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "tau: 1 must be greater than 1");
	ck_assert(s->tau == 3);
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
	SessAction pl = act(SESS_SCHED), tr = act(SESS_TRAIN);
	tr.x = 0.5;
	ck_assert_int_eq(session_apply(s, &tr, NULL, &e), 0); /* alg1 no longer goes on */
	strcpy(pl.spec, "plateau:2");
	ck_assert_int_eq(session_apply(s, &pl, NULL, &e), 0);
	ck_assert_int_eq(session_apply(s, &st, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "Algorithm 1: the plateau schedule needs a validation set, which "
	                        "Algorithm 1 has not (it trains η epochs each time)");
	pl = act(SESS_SCHED);
	strcpy(pl.spec, "constant");
	ck_assert_int_eq(session_apply(s, &pl, NULL, &e), 0);
	ck_assert_msg(session_apply(s, &st, NULL, &e) == 0, "%s", e.msg);
	session_free(s);
}
END_TEST

/* A path of 965 characters, 900 of them spaces (each logged as %20), is
 * logged whole and read back whole; the longest possible action fits a
 * log line; a line that does not fit its buffer is an error, never cut. */
START_TEST(long_paths_are_logged_whole)
{
	char dir[512], sub[1024], path[1024], logp[1100], rm[1100];
	char line[SESS_LINE_MAX + 2], blanks[101];
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	memset(blanks, ' ', 100);
	blanks[100] = '\0';
	snprintf(sub, sizeof sub, "%s/%s", dir, blanks);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	int n = snprintf(path, sizeof path, "%s", sub);
	for (int i = 0; i < 8; i++)
		n += snprintf(path + n, sizeof path - (size_t)n, "/../%s", blanks);
	snprintf(path + n, sizeof path - (size_t)n, "/m.model");
	ck_assert_uint_gt(strlen(path), 900);

	Session *s = session_new(NULL);
	Err e = {{0}};
	snprintf(logp, sizeof logp, "%s/long.log", dir);
	ck_assert_int_eq(session_log_open(s, logp, &e), 0);
	ck_assert_int_eq(session_replay(s, write_log(dir, small_log), NULL, &e), 0);
	SessAction a = act(SESS_SAVE);
	strcpy(a.path, path);
	ck_assert_msg(session_apply(s, &a, NULL, &e) == 0, "%s", e.msg);
	session_free(s);
	FILE *f = fopen(logp, "r");
	ck_assert_ptr_nonnull(f);
	int saves = 0;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "save ", 5))
			continue;
		saves++;
		SessAction b;
		ck_assert_msg(session_parse(line, &b, &e) == 1, "%s", e.msg);
		ck_assert_str_eq(b.path, path);
	}
	fclose(f);
	ck_assert_int_eq(saves, 1);
	/* the logged line replays, and saves where the path points */
	Session *r = session_new(&e);
	ck_assert_msg(session_replay(r, logp, NULL, &e) == 0, "%s", e.msg);
	session_free(r);
	snprintf(rm, sizeof rm, "%s/m.model", sub);
	ck_assert_int_eq(unlink(rm), 0);

	/* every field at its longest, every character escaped */
	SessAction big = act(SESS_DATA), back;
	memset(big.spec, ' ', sizeof big.spec - 1);
	memset(big.path, '%', sizeof big.path - 1);
	big.features = big.label_col = big.limit = big.val_per_class = -2147483647 - 1;
	big.seed = UINT64_MAX;
	big.x = -2.2250738585072014e-308;
	ck_assert_msg(session_format_line(&big, line, SESS_LINE_MAX + 1, &e) == 0, "%s", e.msg);
	ck_assert_uint_le(strlen(line), SESS_LINE_MAX);
	ck_assert_uint_gt(strlen(line), 3 * 1023 + 3 * 255);
	ck_assert_int_eq(session_parse(line, &back, &e), -1); /* the numbers are out of range */
	ck_assert_msg(!strstr(e.msg, "longer than"), "%s", e.msg);
	a = act(SESS_SAVE);
	strcpy(a.path, path);
	ck_assert_int_eq(session_format_line(&a, line, 2048, &e), -1);
	ck_assert_str_eq(e.msg, "save: the log line needs more than 2047 characters");

	snprintf(rm, sizeof rm, "%s/s.log", dir);
	unlink(rm);
	unlink(logp);
	rmdir(sub);
	rmdir(dir);
}
END_TEST

/* A log is one session's: another process opening it is refused, naming
 * the process that holds it. A line that cannot be written (the file size
 * limit standing in for a full disk) is taken back whole, the log closed,
 * and the cause kept for the screen to say (it used to be lost silently). */
START_TEST(log_is_locked_and_never_silently_lost)
{
	const char *dir = tu_tmpdir();
	char logp[600], msg[1024] = "", want[1200];
	snprintf(logp, sizeof logp, "%s/l.log", dir);
	Session *s = session_new(NULL);
	Err e = {{0}};
	ck_assert_int_eq(session_log_open(s, logp, &e), 0);
	ck_assert_int_eq(session_replay(s, write_log(dir, small_log), NULL, &e), 0);
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	pid_t pid = fork();
	if (pid == 0) {
		Session *t = session_new(NULL);
		Err f = {{0}};
		int rc = session_log_open(t, logp, &f);
		ssize_t w = write(fds[1], f.msg, strlen(f.msg) + 1);
		_exit(rc == -1 && w > 0 ? 0 : 1);
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_gt(read(fds[0], msg, sizeof msg - 1), 0);
	close(fds[0]);
	close(fds[1]);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the second open: %s", msg);
	snprintf(want, sizeof want,
	         "%s: the session log is in use by process %ld (another screen writes it): give "
	         "another --log",
	         logp, (long)getpid());
	ck_assert_str_eq(msg, want);

	struct stat before;
	ck_assert_int_eq(stat(logp, &before), 0);
	signal(SIGXFSZ, SIG_IGN);
	struct rlimit old, lim;
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = (rlim_t)before.st_size + 5; /* part of the next line fits */
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	SessAction a = act(SESS_TAU);
	a.x = 30;
	ck_assert_msg(session_apply(s, &a, NULL, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	ck_assert_int_eq(s->log_err, EFBIG);
	ck_assert_ptr_null(s->log);
	struct stat after;
	ck_assert_int_eq(stat(logp, &after), 0);
	ck_assert_int_eq(after.st_size, before.st_size); /* the cut line is taken back */
	/* nothing more is written: the log stays the whole lines before the lost one */
	a.x = 40;
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), 0);
	ck_assert_int_eq(stat(logp, &after), 0);
	ck_assert_int_eq(after.st_size, before.st_size);
	session_free(s);
	Session *r = session_new(&e);
	ck_assert_msg(session_replay(r, logp, NULL, &e) == 0, "%s", e.msg);
	session_free(r);
}
END_TEST

/* A device or a directory is not read as a log (replay /dev/zero would
 * read blank lines for ever). */
/* The default log's directory: $XDG_STATE_HOME/condnet/, else
 * $HOME/.local/state/condnet/, and without HOME the home directory the
 * system gives the user (the data directory's rule; it used to refuse to
 * start); the null device is no log at all. */
START_TEST(log_dir_without_home)
{
	char dir[1024], want[1200];
	Err e = {{0}};
	setenv("XDG_STATE_HOME", "/x/state", 1);
	ck_assert_int_eq(session_log_dir(dir, sizeof dir, &e), 0);
	ck_assert_str_eq(dir, "/x/state/condnet/");
	unsetenv("XDG_STATE_HOME");
	setenv("HOME", "/h", 1);
	ck_assert_int_eq(session_log_dir(dir, sizeof dir, &e), 0);
	ck_assert_str_eq(dir, "/h/.local/state/condnet/");
	unsetenv("HOME");
	struct passwd *pw = getpwuid(getuid());
	snprintf(want, sizeof want, "%s/.local/state/condnet/",
	         pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : ".");
	ck_assert_msg(session_log_dir(dir, sizeof dir, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(dir, want);
	ck_assert(session_log_is_none("/dev/null"));
	ck_assert(!session_log_is_none("/dev/zero"));
	ck_assert(!session_log_is_none("/no/such/file"));
	Err c = {{0}};
	ck_assert_int_eq(session_log_check_path("/dev/null", &c), 0);
}
END_TEST

START_TEST(replay_refuses_non_regular_files)
{
	Session *s = session_new(NULL);
	Err e = {{0}};
	const char *dir = tu_tmpdir();
	char want[600];
	ck_assert_int_eq(session_replay(s, "/dev/zero", NULL, &e), -1);
	ck_assert_str_eq(e.msg, "/dev/zero: not a regular file");
	ck_assert_int_eq(session_replay(s, dir, NULL, &e), -1);
	snprintf(want, sizeof want, "%s: not a regular file", dir);
	ck_assert_str_eq(e.msg, want);
	rmdir(dir);
	session_free(s);
}
END_TEST

/* What the hook heard of Algorithm 3. */
static int alg3_steps;
static char alg3_text[512];

static void on_alg3(const HookStep *st, void *ud)
{
	(void)ud;
	if (st->kind == HOOK_ALG3_LAYER) {
		alg3_steps++;
		snprintf(alg3_text, sizeof alg3_text, "%s", st->text);
	}
}

/* The proposal Algorithm 3 makes for a layer of net at τ, and net with it
 * applied (without compensation). */
static void propose_apply(Net *net, int layer, double tau, Alg3Proposal *sp)
{
	Alg3Opts o;
	Err e = {{0}};
	alg3_opts_default(&o);
	o.tau = tau;
	ck_assert_int_eq(alg3_propose(net, layer, &o, sp, &e), 0);
	ck_assert_msg(alg3_apply_proposal(net, sp, 0, NULL, &e) == 0, "%s", e.msg);
}

static void assert_same_proposal(const Alg3Proposal *a, const Alg3Proposal *b)
{
	ck_assert_int_eq(a->layer, b->layer);
	ck_assert_int_eq(a->n_before, b->n_before);
	ck_assert_int_eq(a->nkeep, b->nkeep);
	ck_assert(a->kappa_before == b->kappa_before ||
	          (isnan(a->kappa_before) && isnan(b->kappa_before)));
	ck_assert_mem_eq(a->keep, b->keep, sizeof(int) * (size_t)a->nkeep);
}

static int applied_steps;
static void count_applied(const HookStep *st, void *ud)
{
	(void)ud;
	applied_steps += st->kind == HOOK_ALG3_LAYER && st->applied;
}
static int always(void *ud)
{
	(void)ud;
	return 1;
}

/* "Apply all remaining": the rest of Algorithm 3 in one call, each
 * decision a logged squeeze action; the network Algorithm 3 run whole
 * gives; a cancel before a decision leaves the proposal waiting. */
START_TEST(squeeze_apply_all)
{
	const char *dir = tu_tmpdir();
	char logp[1100], line[256];
	Session *s = session_new(NULL);
	Err e = {{0}};
	snprintf(logp, sizeof logp, "%s/all.log", dir);
	ck_assert_int_eq(session_replay(s, write_log(dir, small_log), NULL, &e), 0);
	ck_assert_int_eq(session_log_open(s, logp, &e), 0);
	Net *want = net_clone(s->net, &e);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = 3;
	o.compensate = 1;
	int removed[4] = {0};
	int total = 0;
	ck_assert_int_eq(alg3_squeeze_net(want, &o, s->train, removed, &total, &e), 0);
	ck_assert_int_gt(total, 0);
	ck_assert_int_eq(session_squeeze_start(s, &e), 0);
	ck_assert_ptr_nonnull(session_squeeze_proposal(s));
	Hook stop = {.cancelled = always};
	ck_assert_int_eq(session_squeeze_apply_all(s, 1, &stop, &e), 1);
	ck_assert_ptr_nonnull(session_squeeze_proposal(s));
	applied_steps = 0;
	Hook h = {.step = count_applied};
	ck_assert_msg(session_squeeze_apply_all(s, 1, &h, &e) == 0, "%s", e.msg);
	ck_assert_ptr_null(session_squeeze_proposal(s));
	ck_assert_uint_eq(session_param_crc(s->net), session_param_crc(want));
	ck_assert_mem_eq(s->net->n, want->n, sizeof(int) * 4);
	int layers = (removed[0] > 0) + (removed[1] > 0);
	ck_assert_int_eq(applied_steps, layers);
	ck_assert_int_eq(session_can_undo(s), layers);
	/* nothing left: nothing more to do */
	ck_assert_int_eq(session_squeeze_apply_all(s, 1, &h, &e), 0);
	FILE *f = fopen(logp, "r");
	int n = 0;
	while (fgets(line, sizeof line, f))
		n += !strncmp(line, "squeeze layer=", 14) && strstr(line, " apply comp=1\n");
	fclose(f);
	ck_assert_int_eq(n, layers);
	net_free(want);
	session_free(s);
}
END_TEST

START_TEST(squeeze_pass)
{
	const char *dir = tu_tmpdir();
	char logp[1100], model[1100];
	Session *s = session_new(NULL);
	Err e = {{0}};
	snprintf(logp, sizeof logp, "%s/pass.log", dir);
	snprintf(model, sizeof model, "%s/m.model", dir);
	ck_assert_int_eq(session_log_open(s, logp, &e), 0);
	ck_assert_int_eq(session_replay(s, write_log(dir, small_log), NULL, &e), 0);
	Net *want = net_clone(s->net, &e);
	uint32_t start = session_param_crc(s->net);
	Hook h = {.step = on_alg3};
	alg3_steps = 0;

	/* the pass proposes layer 1 first, as Algorithm 3 does */
	ck_assert_ptr_null(session_squeeze_proposal(s));
	ck_assert_int_eq(session_squeeze_start(s, &e), 0);
	ck_assert_ptr_nonnull(session_squeeze_proposal(s));
	const Alg3Proposal *held = session_squeeze_proposal(s);
	ck_assert_ptr_nonnull(held);
	ck_assert_int_eq(held->layer, 1);
	ck_assert_int_lt(held->nkeep, held->n_before);
	ck_assert_uint_eq(session_param_crc(s->net), start);
	/* a save does not end the pass */
	SessAction sv = act(SESS_SAVE);
	strcpy(sv.path, model);
	ck_assert_msg(session_apply(s, &sv, NULL, &e) == 0, "%s", e.msg);
	ck_assert_ptr_eq(session_squeeze_proposal(s), held);

	/* applied: the network is the held proposal applied */
	Alg3Proposal sp;
	propose_apply(want, 1, 3, &sp);
	assert_same_proposal(held, &sp);
	alg3_proposal_free(&sp);
	SessAction a = act(SESS_SQUEEZE);
	a.layer = 1;
	a.apply = 1;
	ck_assert_msg(session_apply(s, &a, &h, &e) == 0, "%s", e.msg);
	ck_assert_mem_eq(s->net->n, want->n, sizeof(int) * 4);
	ck_assert_uint_eq(session_param_crc(s->net), session_param_crc(want));
	ck_assert_int_eq(alg3_steps, 1);
	ck_assert(!strncmp(alg3_text, "Algorithm 3, layer 1: ", 22));
	ck_assert_int_eq(session_can_undo(s), 1);
	uint32_t after1 = session_param_crc(s->net);

	/* the next proposal is held: layer 2, on the squeezed network */
	held = session_squeeze_proposal(s);
	ck_assert_ptr_nonnull(held);
	ck_assert_int_eq(held->layer, 2);
	Net *w2 = net_clone(want, &e);
	propose_apply(w2, 2, 3, &sp);
	assert_same_proposal(held, &sp);
	ck_assert_int_lt(sp.nkeep, sp.n_before);
	alg3_proposal_free(&sp);

	/* any other action ends the pass */
	SessAction t = act(SESS_TAU);
	t.x = 4;
	ck_assert_int_eq(session_apply(s, &t, NULL, &e), 0);
	ck_assert_ptr_null(session_squeeze_proposal(s));
	ck_assert_uint_eq(session_param_crc(s->net), after1);

	/* without a pass, a squeeze action decides its layer on the spot, at the
	 * τ of now */
	net_free(w2);
	w2 = net_clone(want, &e);
	propose_apply(w2, 2, 4, &sp);
	alg3_proposal_free(&sp);
	a.layer = 2;
	ck_assert_msg(session_apply(s, &a, &h, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(session_param_crc(s->net), session_param_crc(w2));
	ck_assert_mem_eq(s->net->n, w2->n, sizeof(int) * 4);
	ck_assert_int_eq(alg3_steps, 2);
	ck_assert_ptr_null(session_squeeze_proposal(s));
	ck_assert_int_eq(session_can_undo(s), 2);

	/* undo restores the network before each squeeze */
	SessAction u = act(SESS_UNDO);
	ck_assert_int_eq(session_apply(s, &u, NULL, &e), 0);
	ck_assert_uint_eq(session_param_crc(s->net), after1);
	ck_assert_mem_eq(s->net->n, want->n, sizeof(int) * 4);
	ck_assert_int_eq(session_apply(s, &u, NULL, &e), 0);
	ck_assert_uint_eq(session_param_crc(s->net), start);
	ck_assert_int_eq(s->net->n[1], 16);
	ck_assert_int_eq(s->net->n[2], 12);

	/* refusing the held proposal keeps the network and holds the next */
	ck_assert_int_eq(session_squeeze_start(s, &e), 0);
	ck_assert_ptr_nonnull(session_squeeze_proposal(s));
	a.layer = 1;
	a.apply = 0;
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), 0);
	ck_assert_uint_eq(session_param_crc(s->net), start);
	ck_assert_int_eq(session_can_undo(s), 0);
	held = session_squeeze_proposal(s);
	ck_assert_ptr_nonnull(held);
	ck_assert_int_eq(held->layer, 2);
	/* a squeeze action for another layer than the one held decides that
	 * layer alone, and ends the pass */
	net_free(w2);
	w2 = net_clone(s->net, &e);
	propose_apply(w2, 1, 4, &sp);
	alg3_proposal_free(&sp);
	a.layer = 1;
	a.apply = 1;
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), 0);
	ck_assert_uint_eq(session_param_crc(s->net), session_param_crc(w2));
	ck_assert_ptr_null(session_squeeze_proposal(s));
	ck_assert_int_eq(session_can_undo(s), 1);
	/* an apply that removes nothing (layer 1, now within τ) is no change
	 * to undo */
	t.x = 1e6;
	ck_assert_int_eq(session_apply(s, &t, NULL, &e), 0);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = t.x;
	ck_assert_int_eq(alg3_propose(s->net, 1, &o, &sp, &e), 0);
	ck_assert_int_eq(sp.nkeep, sp.n_before);
	alg3_proposal_free(&sp);
	uint32_t last = session_param_crc(s->net);
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), 0);
	ck_assert_uint_eq(session_param_crc(s->net), last);
	ck_assert_int_eq(session_can_undo(s), 1);
	session_free(s);

	/* the log replays to the same network, each squeeze decided on the spot */
	s = session_new(&e);
	ck_assert_msg(session_replay(s, logp, NULL, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(session_param_crc(s->net), last);
	ck_assert_int_eq(session_can_undo(s), 1);
	session_free(s);
	net_free(w2);
	net_free(want);
}
END_TEST

/* Two hidden layers of one width: a squeeze action names the layer the held
 * proposal is for, or it is decided alone. */
START_TEST(squeeze_action_names_its_layer)
{
	static const char log12[] =
	    "data spec=synthetic features=0 label_col=-1 seed=3 limit=60 val_frac=0.2 "
	    "val_per_class=0\n"
	    "net layers=12,12 act=tanh act_a=1 seed=5\n"
	    "tau 3\n";
	Session *s = session_new(NULL);
	Err e = {{0}};
	ck_assert_int_eq(session_replay(s, write_log(tu_tmpdir(), log12), NULL, &e), 0);
	ck_assert_int_eq(session_squeeze_start(s, &e), 0);
	ck_assert_ptr_nonnull(session_squeeze_proposal(s));
	ck_assert_int_eq(session_squeeze_proposal(s)->layer, 1);
	SessAction a = act(SESS_SQUEEZE);
	a.layer = 1;
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), 0); /* refused */
	const Alg3Proposal *held = session_squeeze_proposal(s);
	ck_assert_ptr_nonnull(held);
	ck_assert_int_eq(held->layer, 2);
	ck_assert_int_eq(held->n_before, 12);
	ck_assert_int_lt(held->nkeep, 12);
	Net *w = net_clone(s->net, &e);
	Alg3Proposal sp;
	propose_apply(w, 1, 3, &sp);
	ck_assert_int_lt(sp.nkeep, 12);
	alg3_proposal_free(&sp);
	a.apply = 1;
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), 0);
	ck_assert_mem_eq(s->net->n, w->n, sizeof(int) * 4);
	ck_assert_int_eq(s->net->n[2], 12);
	ck_assert_uint_eq(session_param_crc(s->net), session_param_crc(w));
	net_free(w);
	session_free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("session");
	TCase *tc = tcase_create("log");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, corrupt_lines);
	tcase_add_test(tc, corrupt_log_names_line);
	tcase_add_test(tc, replay_matches_direct_calls);
	tcase_add_test(tc, replay_actions_after_a_rewind);
	tcase_add_test(tc, log_check_names_other_kernels);
	tcase_add_test(tc, repro_compare_kernels_and_parts);
	tcase_add_test(tc, cancel_rolls_back);
	tcase_add_test(tc, load_checks_crc);
	tcase_add_test(tc, hook_sees_the_training_net);
	tcase_add_test(tc, adopt_the_pick);
	tcase_add_test(tc, log_ranges_match_the_cli);
	tcase_add_test(tc, setters_reach_algorithm1);
	tcase_add_test(tc, plane_data_line);
	tcase_add_test(tc, long_paths_are_logged_whole);
	tcase_add_test(tc, replay_refuses_non_regular_files);
	tcase_add_test(tc, log_dir_without_home);
	tcase_add_test(tc, log_is_locked_and_never_silently_lost);
	tcase_add_test(tc, squeeze_pass);
	tcase_add_test(tc, squeeze_apply_all);
	tcase_add_test(tc, squeeze_action_names_its_layer);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
