/* test_model_io.c - model files read back: round trips (with the schedule
 * and its position, and the preprocessing), files of versions 1 to 3,
 * damage detection, forged sizes, values beyond the table of limits, and
 * the blocks that record how the inputs were made. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <zlib.h>

#include "model_test.h"

/* The record of 6 Haar coefficients of 3×4 images (a 4×4 transform),
 * standardized: every field set. */
static Prep *sample_prep(void)
{
	Prep *p = prep_new(PREP_HAAR, 6, NULL);
	ck_assert_ptr_nonnull(p);
	p->rows = 3;
	p->cols = 4;
	p->n = 4;
	p->scale = DATA_STANDARDIZE;
	int idx[6] = {0, 5, 3, 15, 9, 2};
	for (int j = 0; j < 6; j++) {
		p->idx[j] = idx[j];
		p->mean[j] = 0.1 * j - 0.25;
		p->sd[j] = 1.0 / (j + 3);
	}
	return p;
}

START_TEST(test_round_trip)
{
	const char *dir = tu_tmpdir();
	char path[600];
	snprintf(path, sizeof path, "%s/m.cnm", dir);
	Err e;
	for (int adam = 0; adam < 2; adam++) {
		Net *net = model_net(adam);
		ck_assert_msg(model_save(net, path, &e) == 0, "%s", e.msg);
		Net *back = model_load(path, &e);
		ck_assert_msg(back != NULL, "%s", e.msg);
		expect_same(net, back);
		size_t len;
		free(tu_read(path, &len));
		/* Header 40 + 4·(m+1) bytes, the floats, the schedule, the record,
		 * the preprocessing (32 + 20 bytes per input), the CRC. */
		ck_assert_uint_eq(len, 40 + 16 + 4 * net->nparam * (adam ? 3 : 1) +
		                           MODEL_SCHED_BYTES + MODEL_RUN_BYTES + 32 + 20 * 6 + 4);
		ck_assert_int_eq(count_others(dir, "m.cnm"), 0);
		net_free(net);
		net_free(back);
	}
	tu_rmtree(dir);
}
END_TEST

START_TEST(test_damage_detected)
{
	const char *dir = tu_tmpdir();
	char path[600];
	snprintf(path, sizeof path, "%s/m.cnm", dir);
	Net *net = model_net(1);
	Err e;
	ck_assert_int_eq(model_save(net, path, &e), 0);
	size_t len;
	unsigned char *good = tu_read(path, &len), *buf = malloc(len);
	/* A flipped bit in a parameter, in the Adam state, in the CRC itself. */
	size_t at[] = {60, len / 2, len - 20, len - 2};
	for (int k = 0; k < 4; k++) {
		memcpy(buf, good, len);
		buf[at[k]] ^= 0x10;
		expect_load_error(dir, buf, len, "checksum mismatch at offset");
	}
	memcpy(buf, good, len);
	buf[3] = 'X';
	expect_load_error(dir, buf, len, "not a condnet model (bad magic at offset 0)");
	expect_load_error(dir, good, len - 9, "but its header describes");
	expect_load_error(dir, good, len - 1, "truncated");
	expect_load_error(dir, good, 30, "too short for a model file");
	expect_load_error(dir, good, 0, "too short for a model file");
	/* One byte too many. */
	unsigned char *longer = calloc(len + 1, 1);
	memcpy(longer, good, len);
	expect_load_error(dir, longer, len + 1, "trailing data");
	free(longer);
	snprintf(path, sizeof path, "%s/missing.cnm", dir);
	ck_assert_ptr_null(model_load(path, &e));
	ck_assert_msg(strstr(e.msg, "cannot open: No such file or directory"), "%s", e.msg);
	free(good);
	free(buf);
	net_free(net);
	tu_rmtree(dir);
}
END_TEST

START_TEST(test_forged_header)
{
	const char *dir = tu_tmpdir();
	char path[1024], want[1200];
	snprintf(path, sizeof path, "%s/m.cnm", dir);
	Net *net = model_net(1);
	Err e;
	ck_assert_int_eq(model_save(net, path, &e), 0);
	size_t len;
	unsigned char *good = tu_read(path, &len), *buf = malloc(len);

	memcpy(buf, good, len);
	put_u32(buf + 8, 7);
	tu_fix_crc(buf, len);
	const char *p = tu_write(dir, "v7.cnm", buf, len);
	snprintf(want, sizeof want, "%s: format version 7 is newer than this condnet reads (%d)", p,
	         MODEL_VERSION);
	snprintf(path, sizeof path, "%s", p);
	ck_assert_ptr_null(model_load(path, &e));
	ck_assert_str_eq(e.msg, want);

	memcpy(buf, good, len);
	put_u32(buf + 16, 1000000000u);
	tu_fix_crc(buf, len);
	expect_load_error(dir, buf, len, "1000000000 layers at offset 16 do not fit");

	/* m = 4 still fits in the file, but the header size then disagrees. */
	memcpy(buf, good, len);
	put_u32(buf + 16, 4);
	expect_load_error(dir, buf, len, "header size 56 at offset 12, expected 60 for 4 layers");

	/* Widths of 2³¹, of 2³⁰ (past the table's limit) and of 10^7 (the
	 * limit, far too many parameters for the file). */
	memcpy(buf, good, len);
	put_u32(buf + 32, 0x80000000u);
	tu_fix_crc(buf, len);
	expect_load_error(dir, buf, len,
	                  "width n[1] = 2147483648 at offset 32 is not a positive int");
	memcpy(buf, good, len);
	put_u32(buf + 28, 1u << 30);
	tu_fix_crc(buf, len);
	expect_load_error(
	    dir, buf, len,
	    "width n[0] = 1073741824 at offset 28 is more than condnet's limit of 10000000");
	memcpy(buf, good, len);
	put_u32(buf + 28, 10000000);
	put_u32(buf + 32, 10000000);
	tu_fix_crc(buf, len);
	expect_load_error(dir, buf, len, "need more parameters than a file of");
	memcpy(buf, good, len);
	put_u32(buf + 36, 0);
	expect_load_error(dir, buf, len, "width n[2] = 0 at offset 36");

	memcpy(buf, good, len);
	put_u32(buf + 20, 9);
	expect_load_error(dir, buf, len, "unknown activation 9 at offset 20");
	memcpy(buf, good, len);
	put_u32(buf + 52, 6);
	expect_load_error(dir, buf, len, "unknown flags 0x6 at offset 52");
	memcpy(buf, good, len);
	buf[51] = 0x80;
	expect_load_error(dir, buf, len, "negative Adam step count at offset 44");
	memcpy(buf, good, len);
	put_u32(buf + 8, 0);
	expect_load_error(dir, buf, len, "format version 0 at offset 8 is not valid");

	/* Clearing the Adam flag makes the file too long for its header. */
	memcpy(buf, good, len);
	put_u32(buf + 52, 0);
	expect_load_error(dir, buf, len, "trailing data");

	free(good);
	free(buf);
	net_free(net);
	tu_rmtree(dir);
}
END_TEST

/* A version-1 file (no schedule block) loads as a network with no schedule
 * run, a version-2 file with no record of its training; a forged schedule
 * or record block is refused with its offset. */
START_TEST(test_version_1_and_schedule_block)
{
	const char *dir = tu_tmpdir();
	char path[1100];
	snprintf(path, sizeof path, "%s/m.cnm", dir);
	Net *net = model_net(1);
	Err e;
	ck_assert_int_eq(model_save(net, path, &e), 0);
	size_t len;
	unsigned char *good = tu_read(path, &len);
	size_t len1 = len - MODEL_SCHED_BYTES - MODEL_RUN_BYTES - MODEL_PREP_BYTES(6);
	unsigned char *v1 = malloc(len1);
	memcpy(v1, good, len1 - 4);
	put_u32(v1 + 8, 1);
	tu_fix_crc(v1, len1);
	const char *p = tu_write(dir, "v1.cnm", v1, len1);
	snprintf(path, sizeof path, "%s", p);
	Net *back = model_load(path, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert_mem_eq(back->param, net->param, net->nparam * sizeof(float));
	ck_assert_mem_eq(back->adam_v, net->adam_v, net->nparam * sizeof(float));
	ck_assert_int_eq(back->adam_t, net->adam_t);
	ck_assert_int_eq(back->sched.kind, SCHED_CONSTANT);
	ck_assert_int_eq(back->sched_st.step, 0);
	net_free(back);

	/* A version-2 file (no record block) loads with no record. */
	size_t len2 = len - MODEL_RUN_BYTES - MODEL_PREP_BYTES(6);
	unsigned char *v2 = malloc(len2);
	memcpy(v2, good, len2 - 4);
	put_u32(v2 + 8, 2);
	tu_fix_crc(v2, len2);
	p = tu_write(dir, "v2.cnm", v2, len2);
	snprintf(path, sizeof path, "%s", p);
	back = model_load(path, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert_mem_eq(back->param, net->param, net->nparam * sizeof(float));
	ck_assert_int_eq(back->sched.kind, SCHED_PLATEAU);
	ck_assert_str_eq(back->run.kernels, "");
	ck_assert_int_eq(back->run.parts, 0);
	net_free(back);
	free(v2);

	/* The schedule block starts MODEL_SCHED_BYTES + MODEL_RUN_BYTES + the
	 * preprocessing + 4 bytes before the end, the record block
	 * MODEL_RUN_BYTES + the preprocessing + 4. */
	size_t pbytes = MODEL_PREP_BYTES(6);
	size_t blk = len - 4 - pbytes - MODEL_RUN_BYTES - MODEL_SCHED_BYTES;
	size_t rblk = len - 4 - pbytes - MODEL_RUN_BYTES;
	unsigned char *buf = malloc(len);
	char want[64];
	memcpy(buf, good, len);
	put_u32(buf + blk, 9);
	tu_fix_crc(buf, len);
	snprintf(want, sizeof want, "unknown schedule kind 9 at offset %zu", blk);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	buf[blk + 16 + 7] = 0xbf; /* the factor becomes negative */
	tu_fix_crc(buf, len);
	snprintf(want, sizeof want, "the schedule at offset %zu: factor", blk);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	put_u32(buf + blk + 56, 2);
	tu_fix_crc(buf, len);
	snprintf(want, sizeof want, "position at offset %zu is not valid", blk + 40);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	put_u32(buf + rblk, 2); /* the mode is 0 or 1 */
	tu_fix_crc(buf, len);
	snprintf(want, sizeof want, "the record of the training at offset %zu is not valid", rblk);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	buf[rblk + 16 + 31] = 'x'; /* the kernels' name without its NUL */
	tu_fix_crc(buf, len);
	expect_load_error(dir, buf, len, want);
	free(buf);
	free(v1);
	free(good);
	net_free(net);
	tu_rmtree(dir);
}
END_TEST

/* Values that are well-formed but out of the table of limits, under a valid
 * CRC, are refused with their offset; model_save refuses to write a model
 * that would be refused so (the bytes are checked before they are written),
 * and leaves no file. */
START_TEST(test_values_out_of_limits)
{
	const char *dir = tu_tmpdir();
	char path[1024];
	snprintf(path, sizeof path, "%s/m.cnm", dir);
	Net *net = model_net(1);
	Err e;
	ck_assert_int_eq(model_save(net, path, &e), 0);
	size_t len;
	unsigned char *good = tu_read(path, &len), *buf = malloc(len);
	size_t hb = 40 + 16, np = net->nparam;
	float nan = NAN, inf = INFINITY, neg = -1.0f, big = 1e30f;

	memcpy(buf, good, len);
	memcpy(buf + 24, &big, 4);
	tu_fix_crc(buf, len);
	expect_load_error(dir, buf, len,
	                  "the activation scale at offset 24: 1.00000002e+30 must be "
	                  "at most 1e+06");
	memcpy(buf, good, len);
	memcpy(buf + hb + 4 * 7, &nan, 4);
	tu_fix_crc(buf, len);
	expect_load_error(dir, buf, len,
	                  "parameter 7 (layer 1) at offset 84 is nan, expected a "
	                  "finite number");
	memcpy(buf, good, len);
	memcpy(buf + hb + 4 * (np - 1), &inf, 4);
	tu_fix_crc(buf, len);
	expect_load_error(dir, buf, len, "(layer 3)");
	memcpy(buf, good, len);
	memcpy(buf + hb + 4 * (np + 2), &nan, 4);
	tu_fix_crc(buf, len);
	expect_load_error(dir, buf, len, "Adam's first moment 2 at offset");
	memcpy(buf, good, len);
	memcpy(buf + hb + 4 * (2 * np + 3), &neg, 4);
	tu_fix_crc(buf, len);
	expect_load_error(dir, buf, len, "Adam's second moment 3 at offset");
	/* Adam step counts past 2^53 (INT64_MAX overflowed in training) */
	memcpy(buf, good, len);
	put_u32(buf + 44, 0xffffffffu);
	put_u32(buf + 48, 0x7fffffffu);
	tu_fix_crc(buf, len);
	expect_load_error(dir, buf, len,
	                  "Adam step count 9223372036854775807 at offset 44 is more "
	                  "than condnet's limit of 2^53");
	memcpy(buf, good, len);
	put_u32(buf + 44, 0);
	put_u32(buf + 48, 1u << 21); /* 2^53 itself loads */
	tu_fix_crc(buf, len);
	const char *p = tu_write(dir, "steps.cnm", buf, len);
	Net *back = model_load(p, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert(back->adam_t == (INT64_C(1) << 53));
	net_free(back);

	/* what the loader refuses, the saver does not write */
	char out[1100];
	snprintf(out, sizeof out, "%s/never.cnm", dir);
	net->param[3] = NAN;
	ck_assert_int_eq(model_save(net, out, &e), -1);
	ck_assert_msg(strstr(e.msg, "which would not load back: ") &&
	                  strstr(e.msg, "parameter 3 (layer 1) at offset 68 is nan"),
	              "%s", e.msg);
	ck_assert_int_eq(access(out, F_OK), -1);
	net->param[3] = 0;
	net->act_a = 1e30f;
	ck_assert_int_eq(model_save(net, out, &e), -1);
	ck_assert_msg(strstr(e.msg, "the activation scale at offset 24"), "%s", e.msg);
	net->act_a = 0.75f;
	net->adam_t = INT64_MAX;
	ck_assert_int_eq(model_save(net, out, &e), -1);
	ck_assert_msg(strstr(e.msg, "Adam step count 9223372036854775807"), "%s", e.msg);
	ck_assert_int_eq(access(out, F_OK), -1);
	ck_assert_int_eq(count_others(dir, "m.cnm"), 2); /* bad.cnm, steps.cnm: no temporary file */
	free(good);
	free(buf);
	net_free(net);
}
END_TEST

/* The preprocessing round-trips (every field, to the bit), travels with a
 * clone, a version-3 file (no preprocessing block) loads with none, and a
 * forged block is refused naming its offset. */
START_TEST(test_prep_block)
{
	const char *dir = tu_tmpdir();
	char path[1100], want[160];
	snprintf(path, sizeof path, "%s/m.cnm", dir);
	Net *net = model_net(1);
	Err e;
	Prep *p = sample_prep();
	ck_assert_int_eq(net_set_prep(net, p, &e), 0);
	ck_assert_msg(model_save(net, path, &e) == 0, "%s", e.msg);
	Net *back = model_load(path, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	expect_same(net, back);
	Net *copy = net_clone(back, &e);
	expect_same(net, copy);
	net_free(copy);
	net_free(back);

	/* the record must fit the network's inputs */
	Prep *wide = prep_new(PREP_FEATURES, 7, NULL);
	ck_assert_int_eq(net_set_prep(net, wide, &e), -1);
	ck_assert_str_eq(e.msg, "a preprocessing of 7 features for a network of 6 inputs");
	prep_free(wide);

	size_t len;
	unsigned char *good = tu_read(path, &len);
	size_t pblk = len - 4 - MODEL_PREP_BYTES(6);
	/* version 3: no preprocessing block */
	size_t len3 = len - MODEL_PREP_BYTES(6);
	unsigned char *v3 = malloc(len3);
	memcpy(v3, good, len3 - 4);
	put_u32(v3 + 8, 3);
	tu_fix_crc(v3, len3);
	const char *f = tu_write(dir, "v3.cnm", v3, len3);
	snprintf(path, sizeof path, "%s", f);
	back = model_load(path, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert_ptr_null(back->prep);
	ck_assert_mem_eq(back->param, net->param, net->nparam * sizeof(float));
	net_free(back);
	/* a version-4 file without a record loads with none */
	ck_assert_int_eq(net_set_prep(net, NULL, &e), 0);
	snprintf(path, sizeof path, "%s/none.cnm", dir);
	ck_assert_int_eq(model_save(net, path, &e), 0);
	back = model_load(path, &e);
	ck_assert_ptr_nonnull(back);
	ck_assert_ptr_null(back->prep);
	net_free(back);

	unsigned char *buf = malloc(len);
	memcpy(buf, good, len);
	put_u32(buf + pblk, 7); /* kind */
	tu_fix_crc(buf, len);
	snprintf(want, sizeof want, "the preprocessing at offset %zu is not valid (kind 7", pblk);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	put_u32(buf + pblk + 16, 6); /* a transform of 6 is not a power of 2 */
	tu_fix_crc(buf, len);
	snprintf(want, sizeof want, "Haar sizes at offset %zu (3×4 images, transform 6)", pblk + 8);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	put_u32(buf + pblk + 32 + 4, 0); /* coefficient 1 repeats coefficient 0 */
	tu_fix_crc(buf, len);
	snprintf(want, sizeof want, "Haar coefficient 1 at offset %zu is 0, expected distinct",
	         pblk + 36);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	memset(buf + pblk + 32 + 24 + 48 + 8 * 2, 0, 8); /* feature 2's scale 0 */
	tu_fix_crc(buf, len);
	snprintf(want, sizeof want,
	         "feature 2's mean -0.05 and scale 0 at offset %zu do not fit the scale step "
	         "'standardize'",
	         pblk + 32 + 24 + 16);
	expect_load_error(dir, buf, len, want);
	free(buf);
	free(v3);
	free(good);
	prep_free(p);
	net_free(net);
	tu_rmtree(dir);
}
END_TEST

/* The record of --inputs pixels round-trips with its image size; an image
 * size that is not the network's inputs, a Haar size or a coefficient in
 * it are refused naming their offset. */
START_TEST(test_prep_pixels)
{
	const char *dir = tu_tmpdir();
	char path[1100], want[160];
	snprintf(path, sizeof path, "%s/px.cnm", dir);
	Net *net = model_net(1);
	Err e;
	Prep *p = prep_new(PREP_PIXELS, 6, NULL);
	p->rows = 2;
	p->cols = 3;
	p->scale = DATA_CENTER;
	for (int j = 0; j < 6; j++)
		p->mean[j] = j / 9.0;
	ck_assert_int_eq(net_set_prep(net, p, &e), 0);
	ck_assert_msg(model_save(net, path, &e) == 0, "%s", e.msg);
	Net *back = model_load(path, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	expect_same(net, back);
	ck_assert_int_eq(back->prep->kind, PREP_PIXELS);
	ck_assert_int_eq(back->prep->rows * 10 + back->prep->cols, 23);
	net_free(back);

	size_t len;
	unsigned char *good = tu_read(path, &len), *buf = malloc(len);
	size_t pblk = len - 4 - MODEL_PREP_BYTES(6);
	memcpy(buf, good, len);
	put_u32(buf + pblk + 8, 3); /* 3×3 images: not 6 pixels */
	tu_fix_crc(buf, len);
	snprintf(want, sizeof want, "image size at offset %zu (3×3) is not its 6 pixels", pblk + 8);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	put_u32(buf + pblk + 16, 4); /* a Haar size */
	tu_fix_crc(buf, len);
	snprintf(want, sizeof want,
	         "the preprocessing at offset %zu holds Haar coefficients for pixels inputs", pblk);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	put_u32(buf + pblk + 32 + 8, 5); /* a coefficient */
	tu_fix_crc(buf, len);
	expect_load_error(dir, buf, len, want);
	/* a save checks the same: the record must fit */
	net->prep->cols = 2;
	ck_assert_int_eq(model_save(net, path, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "(2×2) is not its 6 pixels"));
	free(buf);
	free(good);
	prep_free(p);
	net_free(net);
	tu_rmtree(dir);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("model_io");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_damage_detected);
	tcase_add_test(tc, test_forged_header);
	tcase_add_test(tc, test_values_out_of_limits);
	tcase_add_test(tc, test_version_1_and_schedule_block);
	tcase_add_test(tc, test_prep_block);
	tcase_add_test(tc, test_prep_pixels);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
