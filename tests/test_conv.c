/* test_conv.c - convolution and pooling layers: the --layers specification
 * and the shapes it gives, the lowering to columns, the gradients of every
 * new layer against finite differences of a direct double-precision
 * forward pass, evaluation against that pass, and training (learning, and
 * the same bits on any number of threads). */
#include <math.h>

#include "engine/conv.h"
#include "engine/layers.h"
#include "engine/net.h"
#include "engine/train.h"
#include "engine/train_pass.h"
#include "testutil.h"

/* ---- a direct forward pass in double ---- */

static double act_d(const Net *net, double s)
{
	switch (net->act) {
	case ACT_ERF:
		return erf(net->act_a * s);
	case ACT_TANH:
		return tanh(s);
	case ACT_RELU:
		return s > 0 ? s : 0;
	default:
		return 1 / (1 + exp(-s));
	}
}

/* The logits of one input row x under the parameters p (net's layout):
 * every convolution by its definition, loops over positions and kernel
 * offsets, the pool by its windows. out gets n[m] values. */
static void ref_logits(const Net *net, const double *p, const float *x, double *out)
{
	int d = net->n[0];
	double *in = malloc((size_t)d * sizeof *in);
	for (int j = 0; j < d; j++)
		in[j] = x[j];
	size_t off = 0;
	for (int i = 0; i < net->m; i++) {
		int rows = net_rows(net, i), cols = net_cols(net, i);
		const double *W = p + off, *b = W + (size_t)rows * cols;
		double *o = malloc((size_t)net->n[i + 1] * sizeof *o);
		if (i < net->nconv) {
			const ConvShape *c = &net->conv[i];
			int K = c->k, ho = c->h_conv, wo = c->w_conv;
			double *a = malloc((size_t)c->c_out * ho * wo * sizeof *a);
			for (int co = 0; co < c->c_out; co++)
				for (int oy = 0; oy < ho; oy++)
					for (int ox = 0; ox < wo; ox++) {
						double s = b[co];
						for (int ci = 0; ci < c->c_in; ci++)
							for (int ky = 0; ky < K; ky++)
								for (int kx = 0; kx < K; kx++) {
									int iy = oy + ky - c->pad,
									    ix = ox + kx - c->pad;
									if (iy < 0 || ix < 0 ||
									    iy >= c->h_in ||
									    ix >= c->w_in)
										continue;
									s +=
									    in[(ci * c->h_in + iy) *
									           c->w_in +
									       ix] *
									    W[((ci * K + ky) * K +
									       kx) *
									          cols +
									      co];
								}
						a[(co * ho + oy) * wo + ox] = act_d(net, s);
					}
			for (int co = 0; co < c->c_out; co++)
				for (int py = 0; py < c->h_out; py++)
					for (int px = 0; px < c->w_out; px++) {
						double v;
						if (!c->pool) {
							v = a[(co * ho + py) * wo + px];
						} else {
							v = -INFINITY;
							for (int q = 0; q < 4; q++)
								v = fmax(
								    v,
								    a[(co * ho + 2 * py + q / 2) *
								          wo +
								      2 * px + q % 2]);
						}
						o[(co * c->h_out + py) * c->w_out + px] = v;
					}
			free(a);
		} else {
			for (int c = 0; c < cols; c++) {
				double s = b[c];
				for (int k = 0; k < rows; k++)
					s += in[k] * W[(size_t)k * cols + c];
				o[c] = i < net->m - 1 ? act_d(net, s) : s;
			}
		}
		off += net_layer_params(net, i);
		free(in);
		in = o;
	}
	memcpy(out, in, (size_t)net->n[net->m] * sizeof *out);
	free(in);
}

static double ref_loss(const Net *net, const double *p, const float *x, const int *y, int n)
{
	int k = net->n[net->m];
	double *z = malloc((size_t)k * sizeof *z), total = 0;
	for (int r = 0; r < n; r++) {
		ref_logits(net, p, x + (size_t)r * net->n[0], z);
		double mx = z[0], sum = 0;
		for (int c = 1; c < k; c++)
			mx = fmax(mx, z[c]);
		for (int c = 0; c < k; c++)
			sum += exp(z[c] - mx);
		total += log(sum) - (z[y[r]] - mx);
	}
	free(z);
	return total / n;
}

static Net *spec_net(const char *spec, int c, int h, int w, int classes, ActKind act, uint64_t seed)
{
	Err e;
	Net *net = net_fresh_spec(spec, c * h * w, c, h, w, classes, act, 0.8f, seed, "test", &e);
	ck_assert_msg(net != NULL, "%s: %s", spec, e.msg);
	return net;
}

static double *params_d(const Net *net)
{
	double *p = malloc(net->nparam * sizeof *p);
	for (size_t i = 0; i < net->nparam; i++)
		p[i] = net->param[i];
	return p;
}

/* The worst relative difference between grad and central differences of
 * ref_loss (h = 1e-5, in double). */
static double worst_gradient_error(const Net *net, const float *grad, const float *x, const int *y,
                                   int n)
{
	double *p = params_d(net), worst = 0;
	for (size_t i = 0; i < net->nparam; i++) {
		double h = 1e-5, save = p[i];
		p[i] = save + h;
		double lp = ref_loss(net, p, x, y, n);
		p[i] = save - h;
		double lm = ref_loss(net, p, x, y, n);
		p[i] = save;
		double fd = (lp - lm) / (2 * h);
		worst = fmax(worst, fabs(fd - grad[i]) / fmax(fabs(fd), 1e-3));
	}
	free(p);
	return worst;
}

static const char *const grad_specs[][2] = {
    /* spec, input c×h×w */
    {"conv:2:3,pool:2,4", "1x6x6"},             /* a pooled convolution, then dense */
    {"conv:3:3:same,conv:2:2,pool:2", "2x5x5"}, /* same padding, two chained, even kernel */
    {"conv:2:3:1,pool:2,3", "1x7x7"},           /* padding 1, an odd map pooled (rounded down) */
    {"conv:2:2,5", "3x4x3"},                    /* no pool, a map that is not square */
};

START_TEST(test_gradient_check)
{
	enum { B = 5 };
	int c, h, w;
	ck_assert_int_eq(sscanf(grad_specs[_i][1], "%dx%dx%d", &c, &h, &w), 3);
	int d = c * h * w, y[B] = {0, 1, 2, 2, 1};
	float *x = malloc((size_t)B * d * sizeof *x);
	Rng r;
	rng_seed(&r, 11 + _i);
	for (int i = 0; i < B * d; i++)
		x[i] = (float)rng_normal(&r);
	for (int k = 0; k < ACT_COUNT; k++) {
		Net *net = spec_net(grad_specs[_i][0], c, h, w, 3, (ActKind)k, 5);
		for (size_t i = 0; i < net->nparam; i++)
			net->param[i] += (float)(0.3 * rng_normal(&r));
		float *grad = malloc(net->nparam * sizeof *grad);
		float *g3 = malloc(net->nparam * sizeof *g3);
		double loss;
		Err e;
		ck_assert_int_eq(train_gradient(net, x, y, B, grad, &loss, &e), 0);
		double *p = params_d(net);
		ck_assert_double_eq_tol(loss, ref_loss(net, p, x, y, B), 2e-6);
		free(p);
		double worst = worst_gradient_error(net, grad, x, y, B);
		ck_assert_msg(worst < 1e-4, "%s, %s: worst relative gradient error %g",
		              grad_specs[_i][0], act_name((ActKind)k), worst);
		/* the batch in 3 parts (the samples shared out, the gradients added
		 * in part order) gives the same gradient but for rounding */
		Work *wk = work_new(net, B, 3, &e);
		ck_assert_ptr_nonnull(wk);
		long correct = 0;
		int finite;
		double l3 = pass_batch(wk, NULL, net, x, y, B, g3, &correct, &finite);
		work_free(wk);
		ck_assert_int_eq(finite, 1);
		ck_assert_double_eq_tol(l3, loss, 1e-6);
		for (size_t i = 0; i < net->nparam; i++)
			ck_assert_float_eq_tol(g3[i], grad[i], 1e-5f + 1e-4f * fabsf(grad[i]));
		free(grad);
		free(g3);
		net_free(net);
	}
	free(x);
}
END_TEST

/* col2im is the adjoint of im2col: <im2col(x), c> = <x, col2im(c)>. */
START_TEST(test_lowering_adjoint)
{
	ConvShape cs[2];
	LayerSpec s[2] = {{.conv = 1, .units = 2, .k = 3, .pad = 1},
	                  {.conv = 1, .units = 3, .k = 2}};
	Err e;
	ck_assert_int_eq(layers_geometry(s, 2, 3, 5, 4, cs, &e), 0);
	for (int l = 0; l < 2; l++) {
		enum { NS = 3 };
		const ConvShape *c = &cs[l];
		size_t in = (size_t)c->c_in * c->h_in * c->w_in, nc = conv_col_floats(c, NS);
		float *x = malloc(NS * in * sizeof *x), *col = malloc(nc * sizeof *col);
		float *cr = malloc(nc * sizeof *cr), *gx = calloc(NS * in, sizeof *gx);
		Rng r;
		rng_seed(&r, 3 + l);
		for (size_t i = 0; i < NS * in; i++)
			x[i] = (float)rng_normal(&r);
		for (size_t i = 0; i < nc; i++)
			cr[i] = (float)rng_normal(&r);
		conv_im2col(c, x, in, NS, col);
		conv_col2im(c, cr, NS, gx, in);
		double a = 0, b = 0;
		for (size_t i = 0; i < nc; i++)
			a += (double)col[i] * cr[i];
		for (size_t i = 0; i < NS * in; i++)
			b += (double)x[i] * gx[i];
		ck_assert_double_eq_tol(a, b, 1e-4 * fmax(1, fabs(a)));
		ck_assert_double_ne(a, 0);
		free(x);
		free(col);
		free(cr);
		free(gx);
	}
}
END_TEST

/* net_forward (evaluation, in blocks of samples) answers as the direct pass,
 * for one row and for many, and its hidden layers are the maps. */
START_TEST(test_forward_matches_reference)
{
	enum { N = 70 };
	Net *net = spec_net("conv:3:3,pool:2,conv:4:3:same,6", 2, 8, 7, 4, ACT_TANH, 9);
	int d = net->n[0], k = net->n[4];
	ck_assert_int_eq(net->nconv, 2);
	ck_assert_int_eq(net->n[1], 3 * 3 * 2);
	ck_assert_int_eq(net->n[2], 4 * 3 * 2);
	float *x = malloc((size_t)N * d * sizeof *x), *prob = malloc((size_t)N * k * sizeof *prob);
	Rng r;
	rng_seed(&r, 1);
	for (int i = 0; i < N * d; i++)
		x[i] = (float)rng_normal(&r);
	Err e;
	ck_assert_int_eq(net_forward(net, x, N, 4, prob, &e), 0);
	double *p = params_d(net), z[4];
	for (int s = 0; s < N; s++) {
		ref_logits(net, p, x + (size_t)s * d, z);
		double mx = fmax(fmax(z[0], z[1]), fmax(z[2], z[3])), sum = 0;
		for (int c = 0; c < k; c++)
			sum += exp(z[c] - mx);
		for (int c = 0; c < k; c++)
			ck_assert_double_eq_tol(prob[s * k + c], exp(z[c] - mx) / sum, 1e-6);
	}
	float one[4];
	ck_assert_int_eq(net_forward(net, x + (N - 1) * d, 1, 4, one, &e), 0);
	for (int c = 0; c < k; c++)
		ck_assert_float_eq_tol(one[c], prob[(N - 1) * k + c], 1e-7f);
	free(p);
	free(x);
	free(prob);
	net_free(net);
}
END_TEST

static void expect_spec(const char *spec, int n, int nconv)
{
	LayerSpec *s;
	int count;
	Err e;
	ck_assert_msg(layers_parse(spec, &s, &count, &e) == 0, "%s: %s", spec, e.msg);
	ck_assert_int_eq(count, n);
	ck_assert_int_eq(layers_conv_count(s, count), nconv);
	free(s);
}

static void expect_spec_error(const char *spec, const char *text)
{
	LayerSpec *s = (LayerSpec *)1;
	int count = 5;
	Err e = {""};
	ck_assert_int_eq(layers_parse(spec, &s, &count, &e), -1);
	ck_assert_ptr_null(s);
	ck_assert_msg(strstr(e.msg, text), "\"%s\": got \"%s\", expected \"%s\"", spec, e.msg,
	              text);
}

START_TEST(test_parse)
{
	LayerSpec *s;
	int n;
	Err e;
	ck_assert_int_eq(layers_parse("conv:6:5,pool:2,conv:16:5:same,pool:2,120,84", &s, &n, &e),
	                 0);
	ck_assert_int_eq(n, 4);
	ck_assert(s[0].conv && s[0].units == 6 && s[0].k == 5 && s[0].pad == 0 && s[0].pool);
	ck_assert(s[1].conv && s[1].units == 16 && s[1].k == 5 && s[1].pad == 2 && s[1].pool);
	ck_assert(!s[2].conv && s[2].units == 120 && !s[3].conv && s[3].units == 84);
	free(s);
	expect_spec("conv:4:3:1", 1, 1);
	expect_spec("conv:4:3:valid,conv:2:1,2x5", 4, 2);
	expect_spec("12x300", 12, 0);
	expect_spec_error("conv:6", "expected ':' and the kernel side at the end");
	expect_spec_error("conv6:5", "expected ':' and the output channels at column 5");
	expect_spec_error("conv:0:5", "channel count at column 6 must be positive");
	expect_spec_error("conv:6:0", "kernel side at column 8 must be positive");
	expect_spec_error("conv:6:65", "kernel side at column 8 is too large (at most 64)");
	expect_spec_error("conv:6:4:same", "'same' at column 10 needs an odd kernel side, not 4");
	expect_spec_error("conv:6:5:5", "padding 5 at column 10 is not below the kernel side 5");
	expect_spec_error("conv:6:5:full", "expected same, valid or the padding at column 10");
	expect_spec_error("pool:2,120", "the pool at column 1 follows no convolution");
	expect_spec_error("conv:6:5,pool:2,pool:2", "the pool at column 17 follows no convolution");
	expect_spec_error("120,pool:2", "the pool at column 5 follows no convolution");
	expect_spec_error("conv:6:5,pool:3", "pool size 3 at column 15: condnet pools 2×2 windows");
	expect_spec_error("120,conv:6:5", "the convolution at column 5 follows a dense layer");
	expect_spec_error("cov:6:5", "expected a width, conv:C:K or pool:2 at column 1, found 'c'");
	expect_spec_error("conv:6:5x2", "expected ',' at column 9, found 'x'");
	expect_spec_error("conv:6:5,", "expected a width at the end");
	/* the dense-only parser says what it takes */
	int *w = (int *)1, count;
	ck_assert_int_eq(net_parse_layers("conv:6:5,10", &w, &count, &e), -1);
	ck_assert_ptr_null(w);
	ck_assert_str_eq(e.msg, "layers \"conv:6:5,10\": convolutions are not taken here, only "
	                        "dense widths");
}
END_TEST

static void expect_net_error(const char *spec, int c, int h, int w, const char *text)
{
	Err e = {""};
	int d = c ? c * h * w : 10;
	Net *net = net_fresh_spec(spec, d, c, h, w, 3, ACT_RELU, 1, 1, "images", &e);
	ck_assert_ptr_null(net);
	ck_assert_msg(strstr(e.msg, text), "\"%s\": got \"%s\", expected \"%s\"", spec, e.msg,
	              text);
}

START_TEST(test_shapes)
{
	Net *net = spec_net("conv:6:5,pool:2,conv:16:5,pool:2,120,84", 1, 28, 28, 10, ACT_RELU, 1);
	int want[] = {784, 6 * 12 * 12, 16 * 4 * 4, 120, 84, 10};
	ck_assert_int_eq(net->m, 5);
	for (int i = 0; i <= 5; i++)
		ck_assert_int_eq(net->n[i], want[i]);
	ck_assert_int_eq(net_rows(net, 0), 25);
	ck_assert_int_eq(net_cols(net, 0), 6);
	ck_assert_int_eq(net_rows(net, 1), 150);
	ck_assert_int_eq(net_cols(net, 1), 16);
	ck_assert_int_eq(net_rows(net, 2), 256);
	/* LeNet-5's 44,426 parameters (the 5-layer variant with 10 outputs) */
	ck_assert_uint_eq(net->nparam, 156 + 2416 + 30840 + 10164 + 850);
	char buf[128];
	ck_assert_str_eq(net_shape_str(net, buf, sizeof buf),
	                 "1x28x28-6@5x5-pool-16@5x5-pool-120-84-10");
	/* Glorot with Keras' fans: a convolution's fan-out is C_out·K·K */
	double lim = sqrt(6.0 / (25 + 150)), mx = 0;
	for (int j = 0; j < 150; j++)
		mx = fmax(mx, fabs(net->W[0][j]));
	ck_assert_double_le(mx, lim);
	ck_assert_double_gt(mx, 0.8 * lim);
	Err e;
	/* a convolution's units are its channels: channel 0 of layer 2 goes with
	 * its kernels and bias and the flatten's 16 rows of its map; a dense
	 * neuron with its column and row */
	ck_assert_int_eq(net_units(net, 2), 16);
	ck_assert_int_eq(net_unit_rows(net, 1), 25);
	ck_assert_int_eq(net_unit_rows(net, 2), 16);
	ck_assert_int_eq(net_unit_rows(net, 3), 1);
	ck_assert_int_eq(net_remove_neuron(net, 2, 0, &e), 0);
	ck_assert_int_eq(net->conv[1].c_out, 15);
	ck_assert_int_eq(net->n[2], 15 * 16);
	ck_assert_int_eq(net_remove_neuron(net, 3, 0, &e), 0);
	ck_assert_int_eq(net->n[3], 119);
	ck_assert_uint_eq(net->nparam, 156 + 151 * 15 + 241 * 119 + 120 * 84 + 850);
	Net *copy = net_clone(net, &e);
	ck_assert_ptr_nonnull(copy);
	ck_assert_int_eq(copy->nconv, 2);
	ck_assert_mem_eq(copy->param, net->param, net->nparam * sizeof(float));
	Net *small = net_reshape(net, (int[]){1, 2, 3, 4}, &e);
	ck_assert_ptr_nonnull(small);
	ck_assert_str_eq(net_shape_str(small, buf, sizeof buf),
	                 "1x28x28-1@5x5-pool-2@5x5-pool-3-4-10");
	ck_assert_uint_eq(small->nparam, 26 + 26 * 2 + 33 * 3 + 16 + 50);
	net_free(small);
	net_free(copy);
	net_free(net);
	expect_net_error("conv:4:5", 1, 4, 4, "layer 1: a 5×5 kernel on 4×4 maps is larger");
	expect_net_error("conv:4:3:1,conv:2:7", 1, 4, 4, "layer 2: a 7×7 kernel on 4×4 maps");
	expect_net_error("conv:2:2,pool:2,conv:2:1,pool:2", 1, 3, 3,
	                 "layer 2: a 2×2 pool on 1×1 maps has no window");
	expect_net_error("conv:2:3", 0, 0, 0,
	                 "a convolution needs images, and images holds 10 features without "
	                 "an image's shape");
	expect_net_error("conv:2:3,pool:2", 1, 1, 2, "layer 1: a 3×3 kernel on 1×2 maps");
}
END_TEST

/* side×side images of a bar, horizontal (class 0) or vertical (1),
 * anywhere, in noise. */
static Dataset *bars(int n, int side, uint64_t seed)
{
	Dataset *ds = dataset_new(n, side * side, 2, NULL);
	Rng r;
	rng_seed(&r, seed);
	for (int i = 0; i < n; i++) {
		int cls = i % 2, at = (int)(rng_uniform(&r) * side);
		float *x = ds->x + (size_t)i * side * side;
		for (int j = 0; j < side * side; j++)
			x[j] = (float)(0.3 * rng_normal(&r));
		for (int t = 0; t < side; t++)
			x[cls ? t * side + at : at * side + t] += 1.0f;
		ds->y[i] = cls;
	}
	return ds;
}

START_TEST(test_learns_bars)
{
	Dataset *tr = bars(400, 8, 1), *te = bars(200, 8, 2);
	Net *net = spec_net("conv:4:3,pool:2,8", 1, 8, 8, 2, ACT_RELU, 3);
	TrainOpts o;
	train_opts_default(&o);
	o.batch = 20;
	o.adam.lr = 0.01;
	o.threads = 2;
	double err0, err;
	Err e;
	ck_assert_int_eq(net_error(net, te, &err0, NULL, &e), 0);
	ck_assert_int_eq(train_epochs(net, tr, &o, 10, NULL, NULL, &e), 0);
	ck_assert_int_eq(net_error(net, te, &err, NULL, &e), 0);
	ck_assert_double_gt(err0, 0.2);
	ck_assert_double_lt(err, 0.05);
	net_free(net);
	dataset_free(tr);
	dataset_free(te);
}
END_TEST

/* A batch in 3 parts gives the same bits on 1, 2 and 3 threads. */
START_TEST(test_parts_deterministic)
{
	Dataset *tr = bars(256, 16, 4);
	Net *net = spec_net("conv:8:3:same,conv:8:3,pool:2,16", 1, 16, 16, 2, ACT_ERF, 2);
	ck_assert_int_eq(pass_parts(net, 64, 3), 3);
	Net *out[3];
	for (int t = 1; t <= 3; t++) {
		TrainOpts o;
		train_opts_default(&o);
		o.batch = 64;
		o.threads = 3;
		o.workers = t;
		Err e;
		out[t - 1] = net_clone(net, &e);
		ck_assert_int_eq(train_epochs(out[t - 1], tr, &o, 2, NULL, NULL, &e), 0);
	}
	ck_assert_mem_eq(out[0]->param, out[1]->param, net->nparam * sizeof(float));
	ck_assert_mem_eq(out[0]->param, out[2]->param, net->nparam * sizeof(float));
	ck_assert(memcmp(out[0]->param, net->param, net->nparam * sizeof(float)) != 0);
	for (int t = 0; t < 3; t++)
		net_free(out[t]);
	net_free(net);
	dataset_free(tr);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("conv");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_gradient_check, 0,
	                    (int)(sizeof grad_specs / sizeof *grad_specs));
	tcase_add_test(tc, test_lowering_adjoint);
	tcase_add_test(tc, test_forward_matches_reference);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_shapes);
	tcase_add_test(tc, test_learns_bars);
	tcase_add_test(tc, test_parts_deterministic);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
