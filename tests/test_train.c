/* test_train.c - backpropagation against finite differences, the training
 * loop (batches, epochs, callbacks, determinism, divergence) and evaluation. */
#include <float.h>
#include <math.h>

#include "engine/net.h"
#include "engine/train.h"
#include "engine/train_pass.h"
#include "testutil.h"

/* A data set in a plain struct (rows of n × d floats, labels in [0, k)). */
/* net_error's value, NaN when it fails. */
static double error_of(const Net *net, const Dataset *d, double *loss)
{
	double err;
	return net_error(net, d, &err, loss, NULL) ? NAN : err;
}

static Dataset *make_data(int n, int d, int k)
{
	Dataset *ds = calloc(1, sizeof *ds);
	ds->n = n;
	ds->d = d;
	ds->k = k;
	ds->x = calloc((size_t)n * d, sizeof(float));
	ds->y = calloc((size_t)n, sizeof(int));
	strcpy(ds->name, "test data");
	return ds;
}

static void free_data(Dataset *ds)
{
	free(ds->x);
	free(ds->y);
	free(ds);
}

/* k Gaussian clusters in d dimensions, centres 4 apart on the axes. */
static Dataset *clusters(int per_class, int d, int k, uint64_t seed)
{
	Dataset *ds = make_data(per_class * k, d, k);
	Rng r;
	rng_seed(&r, seed);
	for (int i = 0; i < ds->n; i++) {
		int c = i % k;
		ds->y[i] = c;
		for (int j = 0; j < d; j++)
			ds->x[i * d + j] =
			    (float)((j == c % d ? 4.0 * (c < d ? 1 : -1) : 0.0) + rng_normal(&r));
	}
	return ds;
}

/* The loss of the network computed independently, in double with libm. */
static double ref_loss(const Net *net, const double *p, const float *x, const int *y, int n)
{
	double buf[2][64], total = 0;
	for (int r = 0; r < n; r++) {
		const int *w = net->n;
		for (int j = 0; j < w[0]; j++)
			buf[0][j] = x[r * w[0] + j];
		int cur = 0;
		size_t off = 0;
		for (int i = 0; i < net->m; i++) {
			double *in = buf[cur], *out = buf[1 - cur];
			const double *W = p + off, *b = W + (size_t)w[i] * w[i + 1];
			for (int c = 0; c < w[i + 1]; c++) {
				double s = b[c];
				for (int k = 0; k < w[i]; k++)
					s += in[k] * W[k * w[i + 1] + c];
				if (i < net->m - 1) {
					switch (net->act) {
					case ACT_ERF:
						s = erf(net->act_a * s);
						break;
					case ACT_TANH:
						s = tanh(s);
						break;
					case ACT_RELU:
						s = s > 0 ? s : 0;
						break;
					default:
						s = 1 / (1 + exp(-s));
					}
				}
				out[c] = s;
			}
			off += ((size_t)w[i] + 1) * w[i + 1];
			cur = 1 - cur;
		}
		double *z = buf[cur], mx = z[0], sum = 0;
		for (int c = 1; c < w[net->m]; c++)
			mx = fmax(mx, z[c]);
		for (int c = 0; c < w[net->m]; c++)
			sum += exp(z[c] - mx);
		total += log(sum) - (z[y[r]] - mx);
	}
	return total / n;
}

START_TEST(test_gradient_check)
{
	enum { B = 7 };
	int widths[] = {5, 4, 3, 3};
	float x[B * 5];
	int y[B] = {0, 1, 2, 2, 1, 0, 1};
	Rng r;
	rng_seed(&r, 11);
	for (int i = 0; i < B * 5; i++)
		x[i] = (float)rng_normal(&r);
	for (int k = 0; k < ACT_COUNT; k++) {
		Net *net = net_new(3, widths, (ActKind)k, 0.8f, NULL);
		net_init_glorot(net, &r);
		for (size_t i = 0; i < net->nparam; i++)
			net->param[i] += (float)(0.3 * rng_normal(&r));
		float grad[64];
		double loss, p[64];
		Err e;
		ck_assert_uint_le(net->nparam, 64);
		ck_assert_int_eq(train_gradient(net, x, y, B, grad, &loss, &e), 0);
		for (size_t i = 0; i < net->nparam; i++)
			p[i] = net->param[i];
		ck_assert_double_eq_tol(loss, ref_loss(net, p, x, y, B), 2e-6);
		/* Central differences in double, h = 1e-5: truncation ~1e-10. */
		double worst = 0;
		for (size_t i = 0; i < net->nparam; i++) {
			double h = 1e-5, save = p[i];
			p[i] = save + h;
			double lp = ref_loss(net, p, x, y, B);
			p[i] = save - h;
			double lm = ref_loss(net, p, x, y, B);
			p[i] = save;
			double fd = (lp - lm) / (2 * h);
			double rel = fabs(fd - grad[i]) / fmax(fabs(fd), 1e-3);
			worst = fmax(worst, rel);
		}
		/* float32 products on O(1) values: a few 1e-6 relative at most. */
		ck_assert_msg(worst < 1e-4, "%s: worst relative gradient error %g",
		              act_name((ActKind)k), worst);
		net_free(net);
	}
}
END_TEST

START_TEST(test_gradient_errors)
{
	int widths[] = {2, 3, 2};
	Net *net = net_new(2, widths, ACT_ERF, 1.0f, NULL);
	float x[4] = {0}, grad[32];
	Err e;
	ck_assert_int_eq(train_gradient(net, x, (int[]){0, 2}, 2, grad, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "train_gradient: row 2 has label 2, outside 0..1");
	ck_assert_int_eq(train_gradient(net, x, NULL, 0, grad, NULL, &e), -1);
	net_free(net);
}
END_TEST

START_TEST(test_learns_clusters)
{
	Dataset *tr = clusters(100, 4, 5, 1), *te = clusters(100, 4, 5, 2);
	int widths[] = {4, 16, 16, 5};
	Net *net = net_new(3, widths, ACT_ERF, 1.0f, NULL);
	Rng r;
	rng_seed(&r, 3);
	net_init_glorot(net, &r);
	double loss0;
	double err0 = error_of(net, te, &loss0);
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 20;
	o.adam.lr = 0.01;
	Err e;
	ck_assert_int_eq(train_epochs(net, tr, &o, 20, NULL, NULL, &e), 0);
	ck_assert_int_eq(net->adam_t, 20 * 25);
	double loss, err = error_of(net, te, &loss);
	ck_assert_double_gt(err0, 0.3);
	ck_assert_double_lt(err, 0.05);
	ck_assert_double_lt(loss, 0.5 * loss0);
	net_free(net);
	free_data(tr);
	free_data(te);
}
END_TEST

START_TEST(test_deterministic)
{
	Dataset *tr = clusters(40, 3, 3, 4);
	int widths[] = {3, 8, 3};
	Net *a = net_new(2, widths, ACT_TANH, 1.0f, NULL);
	Rng r;
	rng_seed(&r, 5);
	net_init_glorot(a, &r);
	Net *b = net_clone(a, NULL), *c = net_clone(a, NULL);
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 16;
	o.seed = 77;
	Err e;
	ck_assert_int_eq(train_epochs(a, tr, &o, 3, NULL, NULL, &e), 0);
	ck_assert_int_eq(train_epochs(b, tr, &o, 3, NULL, NULL, &e), 0);
	o.seed = 78;
	ck_assert_int_eq(train_epochs(c, tr, &o, 3, NULL, NULL, &e), 0);
	ck_assert_mem_eq(a->param, b->param, a->nparam * sizeof(float));
	ck_assert_mem_eq(a->adam_v, b->adam_v, a->nparam * sizeof(float));
	ck_assert_int_ne(memcmp(a->param, c->param, a->nparam * sizeof(float)), 0);
	net_free(a);
	net_free(b);
	net_free(c);
	free_data(tr);
}
END_TEST

/* Trains a copy of net for 3 epochs with the batch split into `threads`
 * parts computed by `workers` threads; the copy is returned. */
static Net *train_split(const Net *net, const Dataset *d, int threads, int workers)
{
	Net *c = net_clone(net, NULL);
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 64;
	o.seed = 5;
	o.threads = threads;
	o.workers = workers;
	Err e;
	ck_assert_int_eq(train_epochs(c, d, &o, 3, NULL, NULL, &e), 0);
	return c;
}

static void assert_same_net(const Net *a, const Net *b)
{
	ck_assert_int_eq(a->adam_t, b->adam_t);
	ck_assert_mem_eq(a->param, b->param, a->nparam * sizeof(float));
	ck_assert_mem_eq(a->adam_m, b->adam_m, a->nparam * sizeof(float));
	ck_assert_mem_eq(a->adam_v, b->adam_v, a->nparam * sizeof(float));
}

/* The pooled trainer: with the batch split into 3 parts on 3 threads,
 * repeated runs give the same bits, and so do 1 or 2 threads running the
 * same 3 parts. The network is big enough for 3 parts (25 MFLOP a batch)
 * with columns in every part. */
START_TEST(test_pooled_deterministic)
{
	Dataset *tr = clusters(60, 64, 5, 21);
	int widths[] = {64, 200, 160, 128, 5};
	Net *net = net_new(4, widths, ACT_ERF, 1.0f, NULL);
	ck_assert_int_eq(pass_parts(net, 64, 3), 3);
	ck_assert_int_eq(pass_parts(net, 64, 8), 3);
	ck_assert_int_eq(pass_parts(net, 8, 3), 1);
	Rng r;
	rng_seed(&r, 6);
	net_init_glorot(net, &r);
	Net *a = train_split(net, tr, 3, 0);
	for (int k = 0; k < 3; k++) {
		Net *b = train_split(net, tr, 3, 0);
		assert_same_net(a, b);
		net_free(b);
	}
	for (int workers = 1; workers <= 2; workers++) {
		Net *c = train_split(net, tr, 3, workers);
		assert_same_net(a, c);
		net_free(c);
	}
	/* and it trained */
	ck_assert_int_ne(memcmp(a->param, net->param, a->nparam * sizeof(float)), 0);
	ck_assert_double_lt(error_of(a, tr, NULL), 0.2);
	net_free(a);
	net_free(net);
	free_data(tr);
}
END_TEST

/* Evaluation in chunks of rows gives the same bits on any thread count. */
START_TEST(test_error_threads)
{
	Dataset *d = clusters(700, 6, 4, 22); /* 2,800 rows: three chunks */
	int widths[] = {6, 40, 4};
	Net *net = net_new(2, widths, ACT_TANH, 1.0f, NULL);
	Rng r;
	rng_seed(&r, 7);
	net_init_glorot(net, &r);
	double l1, err1;
	ck_assert_int_eq(net_error_threads(net, d, 1, &err1, &l1, NULL), 0);
	ck_assert(err1 > 0 && err1 < 1);
	for (int t = 2; t <= 4; t++) {
		double l, err;
		ck_assert_int_eq(net_error_threads(net, d, t, &err, &l, NULL), 0);
		ck_assert_mem_eq(&err, &err1, sizeof err);
		ck_assert_mem_eq(&l, &l1, sizeof l);
	}
	net_free(net);
	free_data(d);
}
END_TEST

typedef struct Log {
	int calls, ends, stop_after;
	long last_batch, batches;
	double last_epoch, end_loss[4], end_acc[4];
} Log;

static int record(const TrainProgress *p, void *ud)
{
	Log *l = ud;
	l->calls++;
	l->last_batch = p->batch;
	l->batches = p->batches;
	l->last_epoch = p->epoch;
	ck_assert_double_ge(p->seconds, 0.0);
	if (p->epoch_end && l->ends < 4) {
		l->end_loss[l->ends] = p->loss;
		l->end_acc[l->ends] = p->acc;
		l->ends++;
	}
	return l->stop_after && l->calls >= l->stop_after;
}

/* 103 rows in batches of 10: 11 batches an epoch, the last of 3 rows. With
 * lr = 0 the weights stay put, so the epoch's mean loss over its batches
 * must equal the loss over all rows (the partial batch included). */
START_TEST(test_epochs_and_progress)
{
	Dataset *tr = make_data(103, 3, 3);
	Rng r;
	rng_seed(&r, 8);
	for (int i = 0; i < 103 * 3; i++)
		tr->x[i] = (float)rng_normal(&r);
	for (int i = 0; i < 103; i++)
		tr->y[i] = (int)rng_below(&r, 3);
	int widths[] = {3, 6, 3};
	Net *net = net_new(2, widths, ACT_SIGMOID, 1.0f, NULL);
	net_init_glorot(net, &r);
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 10;
	o.adam.lr = 0.0;
	Err e;
	Log l = {0};
	ck_assert_int_eq(train_epochs(net, tr, &o, 2, record, &l, &e), 0);
	ck_assert_int_eq(l.calls, 22);
	ck_assert_int_eq(l.last_batch, 22);
	ck_assert_int_eq(l.batches, 22);
	ck_assert_int_eq(l.ends, 2);
	ck_assert_double_eq(l.last_epoch, 2.0);
	double loss, err = error_of(net, tr, &loss);
	for (int k = 0; k < 2; k++) {
		ck_assert_double_eq_tol(l.end_loss[k], loss, 1e-6);
		ck_assert_double_eq_tol(l.end_acc[k], 1.0 - err, 1e-12);
	}
	/* Fractional epochs: ceil(0.5 · 11) = 6 batches, no epoch end. */
	memset(&l, 0, sizeof l);
	ck_assert_int_eq(train_epochs(net, tr, &o, 0.5, record, &l, &e), 0);
	ck_assert_int_eq(l.calls, 6);
	ck_assert_int_eq(l.ends, 0);
	ck_assert_double_eq_tol(l.last_epoch, 6.0 / 11.0, 1e-12);
	ck_assert_int_eq(net->adam_t, 28);
	/* 0.3 epochs of 10 batches is 3 batches (0.3·10 = 3.0000000000000004). */
	o.batch = 11;
	memset(&l, 0, sizeof l);
	ck_assert_int_eq(train_epochs(net, tr, &o, 0.3, record, &l, &e), 0);
	ck_assert_int_eq(l.calls, 3);
	/* The callback stops training after 3 batches. */
	memset(&l, 0, sizeof l);
	l.stop_after = 3;
	ck_assert_int_eq(train_epochs(net, tr, &o, 1, record, &l, &e), 1);
	ck_assert_int_eq(l.calls, 3);
	ck_assert_int_eq(net->adam_t, 34);
	net_free(net);
	free_data(tr);
}
END_TEST

START_TEST(test_trainer_step)
{
	Dataset *tr = clusters(20, 2, 2, 9);
	int widths[] = {2, 4, 2};
	Net *net = net_new(2, widths, ACT_RELU, 1.0f, NULL), *twin;
	Rng r;
	rng_seed(&r, 1);
	net_init_glorot(net, &r);
	twin = net_clone(net, NULL);
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 7;
	Err e;
	Trainer *t = trainer_new(net, tr, &o, &e);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(trainer_batches_per_epoch(t), 6);
	Log l = {0};
	trainer_set_callback(t, record, &l);
	trainer_set_report_every(t, 4);
	long done = 0;
	ck_assert_int_eq(trainer_step(t, 5, &done, &e), 0);
	ck_assert_int_eq(done, 5);
	/* Reports at batch 4 and at the end of the call. */
	ck_assert_int_eq(l.calls, 2);
	ck_assert_int_eq(l.last_batch, 5);
	ck_assert_int_eq(l.batches, 5);
	ck_assert_double_eq_tol(trainer_epoch(t), 5.0 / 6.0, 1e-12);
	ck_assert_int_eq(trainer_step(t, 7, &done, &e), 0);
	ck_assert_int_eq(done, 7);
	ck_assert_double_eq(trainer_epoch(t), 2.0);
	trainer_free(t);
	/* Stepping in pieces equals training two epochs at once. */
	ck_assert_int_eq(train_epochs(twin, tr, &o, 2, NULL, NULL, &e), 0);
	ck_assert_mem_eq(net->param, twin->param, net->nparam * sizeof(float));
	net_free(net);
	net_free(twin);
	free_data(tr);
}
END_TEST

START_TEST(test_diverges)
{
	Dataset *tr = clusters(50, 4, 2, 10);
	for (int i = 0; i < tr->n * tr->d; i++)
		tr->x[i] *= 1e6f;
	int widths[] = {4, 32, 32, 32, 32, 2};
	Net *net = net_new(5, widths, ACT_RELU, 1.0f, NULL);
	Rng r;
	rng_seed(&r, 12);
	net_init_glorot(net, &r);
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 10;
	o.adam.lr = 1e6;
	Err e;
	Trainer *t = trainer_new(net, tr, &o, &e);
	ck_assert_ptr_nonnull(t);
	Net *before = NULL;
	long steps = 0;
	int rc = 0;
	while (rc == 0 && steps < 1000) {
		net_free(before);
		before = net_clone(net, &e);
		rc = trainer_step(t, 1, NULL, &e);
		steps++;
	}
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strstr(e.msg, "training diverged at epoch ") == e.msg, "%s", e.msg);
	ck_assert_msg(strstr(e.msg, "; weights kept from before that batch"), "%s", e.msg);
	char want[64];
	snprintf(want, sizeof want, "epoch %ld, batch %ld (loss ", (steps - 1) / 10 + 1,
	         (steps - 1) % 10 + 1);
	ck_assert_msg(strstr(e.msg, want), "%s lacks %s", e.msg, want);
	for (size_t i = 0; i < net->nparam; i++)
		ck_assert(isfinite(net->param[i]));
	ck_assert_mem_eq(net->param, before->param, net->nparam * sizeof(float));
	ck_assert_int_eq(net->adam_t, before->adam_t);
	trainer_free(t);
	net_free(before);
	net_free(net);
	free_data(tr);
}
END_TEST

/* Weights that stop being finite (a learning rate far past the table's,
 * given through the API) are named as such: at the next batch, and at the
 * end of an epoch of one batch; a network at the Adam step limit trains no
 * further. */
START_TEST(test_weights_not_finite)
{
	Dataset *tr = clusters(20, 4, 2, 10);
	int widths[] = {4, 8, 2};
	TrainOpts o;
	train_opts_default(&o);
	o.adam.lr = 1e300; /* inf as a float in the Adam step */
	Err e;
	for (int b = 0; b < 2; b++) {
		o.batch = b ? tr->n : 10; /* 4 batches per epoch, or 1 */
		Net *net = net_new(2, widths, ACT_TANH, 1.0f, NULL);
		Rng r;
		rng_seed(&r, 3);
		net_init_glorot(net, &r);
		ck_assert_int_eq(train_epochs(net, tr, &o, 3, NULL, NULL, &e), -1);
		const char *want = b ? "training diverged at epoch 1: the weights are not finite "
		                       "after batch 1"
		                     : "training diverged at epoch 1, batch 2: the weights are not "
		                       "finite (loss "; /* nan or -nan */
		ck_assert_msg(!strncmp(e.msg, want, strlen(want)), "%s", e.msg);
		net_free(net);
	}
	Net *net = net_new(2, widths, ACT_TANH, 1.0f, NULL);
	o.adam.lr = 1e-3;
	net->adam_t = INT64_C(1) << 53;
	ck_assert_int_eq(train_epochs(net, tr, &o, 1, NULL, NULL, &e), -1);
	ck_assert_str_eq(e.msg,
	                 "the network has taken 9007199254740992 Adam steps, condnet's limit "
	                 "(2^53): it trains no further");
	net_free(net);
	free_data(tr);
}
END_TEST

START_TEST(test_shape_errors)
{
	Dataset *tr = clusters(5, 3, 3, 1);
	int widths[] = {4, 5, 3};
	Net *net = net_new(2, widths, ACT_ERF, 1.0f, NULL);
	TrainOpts o;
	train_opts_default(&o);
	Err e;
	ck_assert_int_eq(train_epochs(net, tr, &o, 1, NULL, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "test data: 3 features per row, but the network takes 4 inputs");
	double err;
	ck_assert_int_eq(net_error(net, tr, &err, NULL, &e), -1);
	ck_assert(isnan(err));
	ck_assert_str_eq(e.msg, "the data set 'test data' has 3 features, the network 4 inputs");
	net_free(net);
	widths[0] = 3;
	widths[2] = 2;
	net = net_new(2, widths, ACT_ERF, 1.0f, &e);
	ck_assert_ptr_null(trainer_new(net, tr, &o, &e));
	ck_assert_str_eq(e.msg, "test data: row 3 has label 2, outside the network's 2 classes");
	widths[2] = 3;
	net_free(net);
	net = net_new(2, widths, ACT_ERF, 1.0f, &e);
	o.batch = 0;
	ck_assert_ptr_null(trainer_new(net, tr, &o, &e));
	ck_assert_str_eq(e.msg, "batch size 0: expected a positive integer");
	o.batch = 5;
	ck_assert_int_eq(train_epochs(net, tr, &o, -1, NULL, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "epochs -1: expected a number from 0 to 1e6");
	net_free(net);
	free_data(tr);
}
END_TEST

/* Zero weights: every class has probability 1/k, the loss is log k, and
 * the first arg max (class 0) is predicted for every row. */
START_TEST(test_error_known_answer)
{
	Dataset *d = make_data(10, 2, 4);
	for (int i = 0; i < 10; i++)
		d->y[i] = i < 3 ? 0 : 1 + i % 3;
	int widths[] = {2, 3, 4};
	Net *net = net_new(2, widths, ACT_SIGMOID, 1.0f, NULL);
	double loss, err = error_of(net, d, &loss);
	ck_assert_double_eq_tol(err, 0.7, 1e-12);
	ck_assert_double_eq_tol(loss, log(4.0), 1e-6);
	float p[10 * 4], h[10 * 3];
	Err e;
	ck_assert_int_eq(net_forward(net, d->x, 10, 2, p, &e), 0);
	ck_assert_int_eq(net_forward(net, d->x, 10, 1, h, &e), 0);
	for (int i = 0; i < 40; i++)
		ck_assert_float_eq_tol(p[i], 0.25f, 1e-7f);
	for (int i = 0; i < 30; i++)
		ck_assert_float_eq(h[i], 0.5f);
	ck_assert_int_eq(net_forward(net, d->x, 10, 3, p, &e), -1);
	ck_assert_str_eq(e.msg, "net_forward: layer 3 outside 0..2");
	net_free(net);
	free_data(d);
}
END_TEST

/* Chunked evaluation over 2,500 rows equals row-at-a-time evaluation. */
START_TEST(test_forward_chunks)
{
	enum { N = 2500 };
	int widths[] = {3, 7, 5, 4};
	Net *net = net_new(3, widths, ACT_ERF, 1.0f, NULL);
	Rng r;
	rng_seed(&r, 13);
	net_init_glorot(net, &r);
	float *x = malloc(N * 3 * sizeof *x), *all = malloc(N * 5 * sizeof *all), one[5];
	for (int i = 0; i < N * 3; i++)
		x[i] = (float)rng_normal(&r);
	Err e;
	ck_assert_int_eq(net_forward(net, x, N, 2, all, &e), 0);
	for (int i = 0; i < N; i += 97) {
		ck_assert_int_eq(net_forward(net, x + i * 3, 1, 2, one, &e), 0);
		for (int j = 0; j < 5; j++)
			ck_assert_float_eq_tol(all[i * 5 + j], one[j], 1e-6f);
	}
	ck_assert_int_eq(net_forward(net, x + (N - 1) * 3, 1, 2, one, &e), 0);
	for (int j = 0; j < 5; j++)
		ck_assert_float_eq_tol(all[(N - 1) * 5 + j], one[j], 1e-6f);
	ck_assert_int_eq(net_forward(net, x, N, 0, all, &e), 0);
	ck_assert_mem_eq(all, x, N * 3 * sizeof *x);
	free(x);
	free(all);
	net_free(net);
}
END_TEST

/* The trainer's finiteness check: every length and position of one ∞, −∞
 * or NaN (the vector lanes, the unrolled blocks and the scalar tail) is
 * caught; the extremes of the finite floats pass. */
START_TEST(test_all_finite)
{
	enum { N = 70 };
	float x[N];
	const float bad[] = {INFINITY, -INFINITY, NAN};
	const float good[] = {FLT_MAX, -FLT_MAX, FLT_MIN, 1e-45f, -0.0f};
	for (int n = 0; n <= N; n++) {
		for (int i = 0; i < n; i++)
			x[i] = good[i % 5];
		ck_assert_int_eq(pass_all_finite(x, (size_t)n), 1);
		for (int i = 0; i < n; i++)
			for (int b = 0; b < 3; b++) {
				float keep = x[i];
				x[i] = bad[b];
				ck_assert_msg(!pass_all_finite(x, (size_t)n), "n %d, %g at %d", n,
				              bad[b], i);
				x[i] = keep;
			}
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("train");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_gradient_check);
	tcase_add_test(tc, test_gradient_errors);
	tcase_add_test(tc, test_learns_clusters);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_pooled_deterministic);
	tcase_add_test(tc, test_error_threads);
	tcase_add_test(tc, test_epochs_and_progress);
	tcase_add_test(tc, test_trainer_step);
	tcase_add_test(tc, test_diverges);
	tcase_add_test(tc, test_weights_not_finite);
	tcase_add_test(tc, test_shape_errors);
	tcase_add_test(tc, test_error_known_answer);
	tcase_add_test(tc, test_forward_chunks);
	tcase_add_test(tc, test_all_finite);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
