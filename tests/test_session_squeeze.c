/* test_session_squeeze.c - the session's squeeze pass: the rest of
 * Algorithm 3 applied at once, proposals held and decided, made on the spot
 * when a log is replayed, undone, and a squeeze action that names its
 * layer. */
#include <math.h>

#include "alg/alg3_squeeze.h"
#include "model/model_io.h"
#include "session/session_setting.h"
#include "session_test.h"

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
	strcpy(sv.save.path, model);
	ck_assert_msg(session_apply(s, &sv, NULL, &e) == 0, "%s", e.msg);
	ck_assert_ptr_eq(session_squeeze_proposal(s), held);

	/* applied: the network is the held proposal applied */
	Alg3Proposal sp;
	propose_apply(want, 1, 3, &sp);
	assert_same_proposal(held, &sp);
	alg3_proposal_free(&sp);
	SessAction a = act(SESS_SQUEEZE);
	a.squeeze.layer = 1;
	a.squeeze.apply = 1;
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
	SessAction t = session_setting_action(SET_TAU, 4);
	ck_assert_int_eq(session_apply(s, &t, NULL, &e), 0);
	ck_assert_ptr_null(session_squeeze_proposal(s));
	ck_assert_uint_eq(session_param_crc(s->net), after1);

	/* without a pass, a squeeze action decides its layer on the spot, at the
	 * τ of now */
	net_free(w2);
	w2 = net_clone(want, &e);
	propose_apply(w2, 2, 4, &sp);
	alg3_proposal_free(&sp);
	a.squeeze.layer = 2;
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
	a.squeeze.layer = 1;
	a.squeeze.apply = 0;
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
	a.squeeze.layer = 1;
	a.squeeze.apply = 1;
	ck_assert_int_eq(session_apply(s, &a, NULL, &e), 0);
	ck_assert_uint_eq(session_param_crc(s->net), session_param_crc(w2));
	ck_assert_ptr_null(session_squeeze_proposal(s));
	ck_assert_int_eq(session_can_undo(s), 1);
	/* an apply that removes nothing (layer 1, now within τ) is no change
	 * to undo */
	t.set.value = 1e6;
	ck_assert_int_eq(session_apply(s, &t, NULL, &e), 0);
	Alg3Opts o;
	alg3_opts_default(&o);
	o.tau = t.set.value;
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
	a.squeeze.layer = 1;
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
	a.squeeze.apply = 1;
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
	Suite *s = suite_create("session_squeeze");
	TCase *tc = tcase_create("squeeze");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, squeeze_pass);
	tcase_add_test(tc, squeeze_apply_all);
	tcase_add_test(tc, squeeze_action_names_its_layer);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
