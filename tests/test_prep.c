/* test_prep.c - the preprocessing record: its scale step computes what
 * dataset_standardize computes, to the bit; its Haar step turns pixel
 * values into the coefficients data/mnist.c makes of image bytes, to the
 * bit, and its pixel step into the pixels data/mnist.c scales; copies are
 * whole; a record and rows that do not fit are refused naming both. */
#include <math.h>

#include "base/rng.h"
#include "data/dataset.h"
#include "data/haar.h"
#include "data/prep.h"
#include "data/prep_text.h"
#include "testutil.h"

static Dataset *random_set(int n, int d, uint64_t seed)
{
	Dataset *ds = dataset_new(n, d, 2, NULL);
	Rng r;
	rng_seed(&r, seed);
	for (long i = 0; i < (long)n * d; i++)
		ds->x[i] = (float)(3 + 2 * rng_normal(&r));
	for (int i = 0; i < ds->n; i++)
		ds->x[(long)i * d] = 7; /* a constant feature: centred only */
	return ds;
}

START_TEST(scale_step_is_dataset_standardize)
{
	Err e;
	for (int scale = DATA_RAW; scale <= DATA_STANDARDIZE; scale++) {
		Dataset *tr = random_set(300, 6, 1), *te = random_set(100, 6, 2);
		Dataset *tr2 = dataset_clone(tr, NULL), *te2 = dataset_clone(te, NULL);
		if (scale != DATA_RAW)
			dataset_standardize(tr, te, scale == DATA_STANDARDIZE);
		Prep *p = prep_new(PREP_FEATURES, 6, &e);
		ck_assert_int_eq(prep_fit(p, tr2, scale, &e), 0);
		prep_scale(p, tr2);
		prep_scale(p, te2);
		ck_assert_mem_eq(tr->x, tr2->x, sizeof(float) * 300 * 6);
		ck_assert_mem_eq(te->x, te2->x, sizeof(float) * 100 * 6);
		ck_assert_int_eq(p->scale, scale);
		ck_assert_double_eq(p->sd[0], 1);
		ck_assert(scale != DATA_STANDARDIZE || p->sd[1] != 1);
		ck_assert(scale == DATA_RAW ? p->mean[0] == 0 : p->mean[0] == 7);
		prep_free(p);
		dataset_free(tr);
		dataset_free(te);
		dataset_free(tr2);
		dataset_free(te2);
	}
	Prep *p = prep_new(PREP_FEATURES, 5, &e);
	Dataset *d = random_set(10, 6, 3);
	ck_assert_int_eq(prep_fit(p, d, DATA_CENTER, &e), -1);
	prep_free(p);
	dataset_free(d);
}
END_TEST

START_TEST(pixels_are_mnists_coefficients)
{
	enum { N = 5, R = 28, C = 28, K = 7 };
	static const int idx[K] = {0, 5, 33, 1023, 512, 100, 31};
	unsigned char img[N][R * C];
	float px[N * R * C];
	Rng r;
	rng_seed(&r, 4);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < R * C; j++) {
			img[i][j] = (unsigned char)(rng_uniform(&r) * 256);
			px[i * R * C + j] = img[i][j];
		}
	Err e;
	Prep *p = prep_new(PREP_HAAR, K, &e);
	p->rows = R;
	p->cols = C;
	p->n = 32;
	memcpy(p->idx, idx, sizeof idx);
	ck_assert_int_eq(prep_raw_width(p), R * C);
	float got[N * K], want[N * K];
	ck_assert_msg(prep_pixels(p, px, N, got, &e) == 0, "%s", e.msg);
	double out[32 * 32];
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(haar_image(img[i], R, C, 32, out, NULL), 0);
		for (int j = 0; j < K; j++)
			want[i * K + j] = (float)out[idx[j]];
	}
	ck_assert_mem_eq(got, want, sizeof got);
	p->kind = PREP_FEATURES;
	ck_assert_int_eq(prep_pixels(p, px, N, got, &e), -1);
	prep_free(p);
}
END_TEST

/* The record of --inputs pixels: pixel values become x/255 as
 * mnist_load_pixels makes them of image bytes, to the bit; it is named and
 * described as pixels; an image of another shape, Haar coefficients, or a
 * size that is not its width are refused. */
START_TEST(pixels_are_mnists_pixels)
{
	enum { N = 4, R = 3, C = 5 };
	unsigned char img[N * R * C];
	float px[N * R * C], got[N * R * C];
	for (int i = 0; i < N * R * C; i++) {
		img[i] = (unsigned char)(i * 37 % 256);
		px[i] = img[i];
	}
	img[0] = 255;
	px[0] = 255;
	Err e;
	Prep *p = prep_new(PREP_PIXELS, R * C, &e);
	p->rows = R;
	p->cols = C;
	ck_assert_int_eq(prep_raw_width(p), R * C);
	ck_assert_msg(prep_pixels(p, px, N, got, &e) == 0, "%s", e.msg);
	for (int i = 0; i < N * R * C; i++)
		ck_assert_float_eq(got[i], img[i] / 255.0f); /* as data/mnist.c */
	ck_assert_float_eq(got[0], 1);
	char buf[128];
	p->scale = DATA_STANDARDIZE;
	ck_assert_str_eq(prep_describe(p, buf, sizeof buf),
	                 "15 pixels of 3×5 images, scaled to [0, 1], standardized on its "
	                 "training set");
	ck_assert_str_eq(prep_kind_name(PREP_PIXELS), "pixels");

	Prep *d = prep_clone(p, &e);
	ck_assert_int_eq(d->kind, PREP_PIXELS);
	ck_assert_int_eq(d->rows * 10 + d->cols, 35);
	ck_assert_int_eq(prep_check(p, d, "p.model", "mnist-pixels train", &e), 0);
	d->rows = C;
	d->cols = R;
	ck_assert_int_eq(prep_check(p, d, "p.model", "mnist-pixels train", &e), -1);
	ck_assert_str_eq(e.msg, "p.model reads pixels of 3×5 images, but mnist-pixels train gives "
	                        "pixels of 5×3 images");
	d->kind = PREP_HAAR;
	d->rows = R;
	d->cols = C;
	d->n = 8;
	ck_assert_int_eq(prep_check(p, d, "p.model", "mnist-haar15 train", &e), -1);
	ck_assert_str_eq(e.msg, "p.model reads pixels of 3×5 images, but mnist-haar15 train gives "
	                        "Haar coefficients of 3×5 images");
	p->rows = 2;
	ck_assert_int_eq(prep_pixels(p, px, N, got, &e), -1);
	ck_assert_str_eq(e.msg, "the preprocessing record's 2×5 images are not its 15 pixels");
	prep_free(d);
	prep_free(p);
}
END_TEST

START_TEST(clone_is_whole)
{
	Err e;
	Prep *p = prep_new(PREP_HAAR, 3, &e);
	p->rows = 3;
	p->cols = 2;
	p->n = 4;
	p->scale = DATA_CENTER;
	for (int j = 0; j < 3; j++) {
		p->idx[j] = 5 - j;
		p->mean[j] = j / 7.0;
	}
	Prep *c = prep_clone(p, &e);
	ck_assert_int_eq(c->kind, PREP_HAAR);
	ck_assert_int_eq(c->rows * 10 + c->cols, 32);
	ck_assert_int_eq(c->n, 4);
	ck_assert_int_eq(c->scale, DATA_CENTER);
	ck_assert_mem_eq(c->idx, p->idx, 3 * sizeof(int));
	ck_assert_mem_eq(c->mean, p->mean, 3 * sizeof(double));
	ck_assert_mem_eq(c->sd, p->sd, 3 * sizeof(double));
	char buf[128];
	ck_assert_str_eq(prep_describe(c, buf, sizeof buf),
	                 "3 Haar coefficients of 3×2 images, centred on its training set");
	ck_assert_ptr_null(prep_clone(NULL, &e));
	prep_free(c);
	prep_free(p);
}
END_TEST

/* The record as one line of text (ONNX metadata, a .npy manifest) and back,
 * to the bit; a line that does not hold a valid record is refused. */
START_TEST(text_round_trip)
{
	Err e;
	Prep *p = prep_new(PREP_HAAR, 3, &e);
	p->rows = 28;
	p->cols = 28;
	p->n = 32;
	p->scale = DATA_STANDARDIZE;
	for (int j = 0; j < 3; j++) {
		p->idx[j] = 7 * j + 2;
		p->mean[j] = 1.0 / (j + 3);
		p->sd[j] = 0.1 + 1.0 / 7 * j;
	}
	char *t = prep_to_text(p, &e);
	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_null(strchr(t, '\n'));
	Prep *q = prep_from_text(t, 3, &e);
	ck_assert_msg(q != NULL, "%s", e.msg);
	ck_assert_int_eq(q->kind, PREP_HAAR);
	ck_assert_int_eq(q->n * 10000 + q->rows * 100 + q->cols, 322828);
	ck_assert_mem_eq(q->idx, p->idx, 3 * sizeof(int));
	ck_assert_mem_eq(q->mean, p->mean, 3 * sizeof(double));
	ck_assert_mem_eq(q->sd, p->sd, 3 * sizeof(double));
	ck_assert_ptr_null(prep_from_text(t, 4, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "is of 3 inputs, the network has 4"));
	prep_free(q);
	free(t);
	static const char *const bad[] = {"kind=haar d=3 scale=raw rows=28 cols=28 n=32 idx=2,2,9",
	                                  "kind=haar d=3 scale=raw rows=28 cols=28 n=30 idx=1,2,3",
	                                  "kind=features d=3 scale=standardize mean=0,1,2 sd=1,0,1",
	                                  "kind=features d=3 scale=center mean=0,nan,2 sd=1,1,1",
	                                  "kind=features d=3 scale=standardize mean=0,1 sd=1,1,1",
	                                  "kind=pixels d=3 scale=raw rows=2 cols=2",
	                                  "kind=bogus d=3 scale=raw"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		e.msg[0] = '\0';
		ck_assert_msg(prep_from_text(bad[i], 3, &e) == NULL, "accepted %s", bad[i]);
		ck_assert_msg(strstr(e.msg, "the preprocessing record"), "%s: %s", bad[i], e.msg);
	}
	prep_free(p);
}
END_TEST

START_TEST(check_names_both)
{
	Err e;
	Prep *m = prep_new(PREP_HAAR, 4, &e), *d = prep_new(PREP_HAAR, 4, &e);
	m->rows = d->rows = m->cols = d->cols = 28;
	m->n = d->n = 32;
	for (int j = 0; j < 4; j++)
		m->idx[j] = d->idx[j] = 10 * j;
	ck_assert_int_eq(prep_check(m, d, "m.model", "mnist train", &e), 0);
	d->idx[2] = 3;
	ck_assert_int_eq(prep_check(m, d, "m.model", "mnist train", &e), -1);
	ck_assert_str_eq(e.msg, "m.model reads Haar coefficient 20 as feature 2, but mnist train "
	                        "chose coefficient 3 there");
	Prep *a = prep_new(PREP_ADULT, 4, &e), *f = prep_new(PREP_FEATURES, 5, &e);
	ck_assert_int_eq(prep_check(m, a, "m.model", "adult train", &e), -1);
	ck_assert_str_eq(e.msg, "m.model reads Haar coefficients of 28×28 images, but adult train "
	                        "gives encoded UCI Adult records");
	ck_assert_int_eq(prep_check(a, f, "a.model", "x.csv", &e), -1);
	ck_assert_str_eq(e.msg, "a.model has 4 inputs, but x.csv has 5 features");
	Prep *none = prep_new(PREP_NONE, 4, &e);
	ck_assert_int_eq(prep_check(none, a, "old.model", "adult train", &e), 0);
	prep_free(m);
	prep_free(d);
	prep_free(a);
	prep_free(f);
	prep_free(none);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("prep");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, scale_step_is_dataset_standardize);
	tcase_add_test(tc, pixels_are_mnists_coefficients);
	tcase_add_test(tc, pixels_are_mnists_pixels);
	tcase_add_test(tc, clone_is_whole);
	tcase_add_test(tc, check_names_both);
	tcase_add_test(tc, text_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
