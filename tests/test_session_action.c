/* test_session_action.c - an action as a log line, the table of actions
 * and of settings both ways: format/parse round trips of every kind, every
 * field given twice refused, corrupt lines named, the command line's ranges
 * held in a log, plane data's points and noise, and the longest lines. */
#include <stdint.h>
#include <sys/stat.h>

#include "data/datasets.h"
#include "session/session_setting.h"
#include "session_test.h"

/* One action of every kind, with awkward values where a kind has text. */
static int all_actions(SessAction *v)
{
	int n = 0;
	v[n] = act(SESS_DATA);
	strcpy(v[n].data.spec, "csv:/tmp/a b,/tmp/100%.csv");
	strcpy(v[n].data.dir, "/data dir");
	v[n].data.features = 200;
	v[n].data.label_col = 3;
	v[n].data.seed = 18446744073709551615ULL;
	v[n].data.limit = 50;
	v[n].data.val_frac = 0.1;
	v[n].data.scale = DATA_STANDARDIZE;
	v[n++].data.val_per_class = 7;
	v[n] = act(SESS_DATA);
	strcpy(v[n].data.spec, "spiral");
	v[n].data.seed = 4;
	v[n].data.points = 120;
	v[n].data.has_noise = 1;
	v[n++].data.noise = 0.1 + 0.2;
	v[n] = act(SESS_OPTS);
	v[n].opts = (SessOptsArgs){.batch = 32, .threads = 2, .lr = 1e-3};
	n++;
	v[n] = act(SESS_NET);
	strcpy(v[n].net.layers, "3x50,20");
	v[n].net.act = ACT_RELU;
	v[n].net.act_a = 1.5;
	v[n++].net.seed = 42;
	v[n] = act(SESS_LOAD);
	strcpy(v[n].load.path, "/tmp/m=1.model");
	v[n].load.has_crc = 1;
	v[n++].load.crc = 0xdeadbeef;
	v[n] = act(SESS_LOAD); /* with the seed of the trainings after it */
	strcpy(v[n].load.path, "/tmp/m.model");
	v[n].load.has_seed = 1;
	v[n++].load.seed = 7;
	v[n++] = session_setting_action(SET_TAU, 25 * 1.25 * 1.25 / 1.25 * 1.25);
	v[n++] = session_setting_action(SET_ETA, 0.1);
	v[n] = act(SESS_TRAIN);
	v[n++].train.epochs = 2.5;
	v[n] = act(SESS_TRAIN);
	v[n].train.epochs = 30;
	v[n++].train.patience = 4;
	v[n] = act(SESS_SET);
	v[n].set.id = SET_SCHED;
	strcpy(v[n].set.spec, "step:2.5:0.25");
	v[n++].set.warmup = 0.75;
	v[n] = act(SESS_SET);
	v[n].set.id = SET_SCHED;
	strcpy(v[n++].set.spec, "cosine");
	v[n++] = act(SESS_ALG1_STEP);
	v[n] = act(SESS_ALG1_RUN);
	v[n++].run.steps = 3;
	v[n] = act(SESS_SWEEP);
	strcpy(v[n].sweep.betas, "0.6:1.6:0.2");
	v[n++].sweep.q = 2;
	v[n] = act(SESS_SQUEEZE);
	v[n++].squeeze = (SessSqueezeArgs){.layer = 2, .apply = 1, .comp = 1};
	v[n] = act(SESS_SQUEEZE);
	v[n++].squeeze.layer = 1;
	v[n] = act(SESS_NEURON);
	v[n++].neuron = (SessNeuronArgs){.add = 1, .layer = 2, .seed = 18446744073709551615ULL};
	v[n] = act(SESS_NEURON);
	v[n++].neuron = (SessNeuronArgs){.layer = 1, .neuron = 17};
	v[n] = act(SESS_LAYER);
	v[n++].layer = (SessLayerArgs){.add = 1, .after = 0};
	v[n] = act(SESS_LAYER);
	v[n++].layer.layer = 3;
	v[n] = act(SESS_INPUTS);
	strcpy(v[n].inputs.names, "sinx,x2");
	v[n++].inputs.seed = 5;
	v[n] = act(SESS_INPUTS);
	strcpy(v[n++].inputs.names, "none");
	v[n++] = act(SESS_UNDO);
	v[n] = act(SESS_SAVE);
	strcpy(v[n].save.path, "out.model");
	n++;
	return n;
}

/* Every action reads back as it was written, to the bit; every kind and
 * every setting is among them. */
START_TEST(round_trip)
{
	SessAction v[48], b;
	char line[2048], again[2048];
	Err e = {{0}};
	int n = all_actions(v), seen[SESS_KIND_COUNT] = {0}, set[SESS_SET_MAX] = {0};
	for (int i = 0; i < n; i++) {
		session_format(&v[i], line, sizeof line);
		ck_assert_msg(!strchr(line, '\n'), "newline in '%s'", line);
		ck_assert_msg(session_parse(line, &b, &e) == 1, "%s: %s", line, e.msg);
		ck_assert_str_eq(session_format(&b, again, sizeof again), line);
		ck_assert_msg(!memcmp(&b, &v[i], sizeof b), "'%s' read back otherwise", line);
		seen[v[i].kind] = 1;
		if (v[i].kind == SESS_SET)
			set[v[i].set.id] = 1;
	}
	for (int k = 0; k < SESS_KIND_COUNT; k++)
		ck_assert_msg(seen[k], "kind %d not covered", k);
	for (int k = 0; k < session_nsettings; k++)
		ck_assert_msg(set[k], "setting %s not covered", session_settings[k].name);
	session_format(&v[0], line, sizeof line);
	ck_assert_msg(strstr(line, "spec=csv:/tmp/a%20b,/tmp/100%25.csv"), "escaping: %s", line);
	/* the lines as older condnets wrote them */
	ck_assert_str_eq(session_format(&v[7], line, sizeof line), "eta 0.10000000000000001");
	ck_assert_str_eq(session_format(&v[10], line, sizeof line),
	                 "sched step:2.5:0.25 warmup=0.75");
	ck_assert_str_eq(session_format(&v[15], line, sizeof line), "squeeze layer=2 apply comp=1");
	ck_assert_str_eq(session_format(&v[17], line, sizeof line),
	                 "neuron add layer=2 seed=18446744073709551615");
	ck_assert_str_eq(session_format(&v[18], line, sizeof line),
	                 "neuron remove layer=1 neuron=17");
	ck_assert_str_eq(session_format(&v[19], line, sizeof line), "layer add after=0");
	ck_assert_int_eq(session_parse("   # a comment", &b, &e), 0);
	ck_assert_int_eq(session_parse("", &b, &e), 0);
}
END_TEST

START_TEST(corrupt_lines)
{
	bad("frobnicate 3",
	    "unknown action 'frobnicate' (expected data, opts, net, load, tau, eta, "
	    "sched, train, alg1-step, alg1-run, sweep, squeeze, neuron, layer, "
	    "inputs, undo or save)");
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

/* A key given twice is refused, naming it, whichever value comes last; a
 * bare value given twice as well. */
START_TEST(fields_given_twice)
{
	bad("net layers=8,8 layers=4 act=erf act_a=1 seed=1", "net: layers given twice");
	bad("net layers=8 act=erf act_a=1 seed=1 seed=1", "net: seed given twice");
	bad("neuron remove layer=1 layer=2 neuron=1", "neuron: layer given twice");
	bad("data spec=moons spec=spiral features=0 label_col=-1 seed=1 limit=0 val_frac=0.1 "
	    "val_per_class=0",
	    "data: spec given twice");
	bad("load path=a crc=00000001 crc=00000001", "load: crc given twice");
	bad("sched cosine warmup=1 warmup=2", "sched: warmup given twice");
	bad("train 3 patience=2 patience=3", "train: patience given twice");
	bad("squeeze layer=1 apply refuse comp=0", "squeeze: apply or refuse, not both");
	bad("layer add remove after=1", "layer: add or remove, not both");
	bad("inputs x2 y2 seed=1", "inputs: more than one list of inputs");
	/* and the log's reader names the line */
	const char *path =
	    write_log(tu_tmpdir(), "data spec=synthetic features=0 label_col=-1 seed=1 limit=20 "
	                           "val_frac=0.1 val_per_class=0\nnet layers=8,8 layers=4 act=erf "
	                           "act_a=1 seed=1\n");
	Session *s = session_new(NULL);
	Err e = {{0}};
	char want[1100];
	ck_assert_int_eq(session_replay(s, path, NULL, &e), -1);
	snprintf(want, sizeof want, "%s:2: net: layers given twice", path);
	ck_assert_str_eq(e.msg, want);
	session_free(s);
}
END_TEST

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
	strcpy(a.data.spec, "circles");
	a.data.seed = 9;
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
	ck_assert_int_eq(b.data.points, 40);
	ck_assert_int_eq(b.data.has_noise, 1);
	ck_assert(b.data.noise == 0);
	bad("data spec=moons features=0 label_col=-1 seed=1 limit=0 val_frac=0.1 val_per_class=0 "
	    "points=5",
	    "points: '5' is out of range (6..1000000)");
	bad("data spec=moons features=0 label_col=-1 seed=1 limit=0 val_frac=0.1 val_per_class=0 "
	    "noise=2",
	    "noise: '2' must be at most 1");
	/* applied directly (as the screen does), the same limits */
	s = session_new(&e);
	a.data.points = 3;
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "points: 3 must be at least 6");
	session_free(s);
}
END_TEST

/* The command line's ranges hold in a log too: τ > 1 (as --tau and
 * Algorithm 1 require), η and epochs > 0, β lists and widths as --beta and
 * --layers parse them, q in 1..1000. */
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
	ck_assert(a.set.value == 1.0000001);
	ck_assert_int_eq(session_parse("eta 1e6", &a, &e), 1);
	ck_assert_int_eq(session_parse("sweep betas=0.5:1.5:0.5 q=1000", &a, &e), 1);
	ck_assert_int_eq(session_parse("net layers=3x5,2 act=erf act_a=1 seed=1", &a, &e), 1);
	/* applied directly (as the screen does), τ = 1 is refused as well */
	Session *s = session_new(&e);
	ck_assert_int_eq(session_replay(s, write_log(tu_tmpdir(), small_log), NULL, &e), 0);
	SessAction t = session_setting_action(SET_TAU, 1);
	ck_assert_int_eq(session_apply(s, &t, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "tau: 1 must be greater than 1");
	ck_assert(s->tau == 3);
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
	strcpy(a.save.path, path);
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
		ck_assert_str_eq(b.save.path, path);
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
	SessDataArgs *d = &big.data;
	memset(d->spec, ' ', sizeof d->spec - 1);
	memset(d->dir, '%', sizeof d->dir - 1);
	d->features = d->label_col = d->limit = d->val_per_class = -2147483647 - 1;
	d->seed = UINT64_MAX;
	d->val_frac = -2.2250738585072014e-308;
	ck_assert_msg(session_format_line(&big, line, SESS_LINE_MAX + 1, &e) == 0, "%s", e.msg);
	ck_assert_uint_le(strlen(line), SESS_LINE_MAX);
	ck_assert_uint_gt(strlen(line), 3 * 1023 + 3 * 255);
	ck_assert_int_eq(session_parse(line, &back, &e), -1); /* the numbers are out of range */
	ck_assert_msg(!strstr(e.msg, "longer than"), "%s", e.msg);
	a = act(SESS_SAVE);
	strcpy(a.save.path, path);
	ck_assert_int_eq(session_format_line(&a, line, 2048, &e), -1);
	ck_assert_str_eq(e.msg, "save: the log line needs more than 2047 characters");

	snprintf(rm, sizeof rm, "%s/s.log", dir);
	unlink(rm);
	unlink(logp);
	rmdir(sub);
	rmdir(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("session_action");
	TCase *tc = tcase_create("line");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, corrupt_lines);
	tcase_add_test(tc, fields_given_twice);
	tcase_add_test(tc, log_ranges_match_the_cli);
	tcase_add_test(tc, plane_data_line);
	tcase_add_test(tc, long_paths_are_logged_whole);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
