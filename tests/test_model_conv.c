/* test_model_conv.c - model files of networks with convolution layers:
 * version 5 with the block of their shapes, round trips, dense networks
 * still written as version 4, and damaged or forged blocks refused. */
#include <stdint.h>
#include <zlib.h>

#include "model/model_conv.h"
#include "model/model_io.h"
#include "testutil.h"

static Net *conv_net(void)
{
	Err e;
	Net *net = net_fresh_spec("conv:3:3:same,pool:2,conv:4:2,7", 2 * 6 * 5, 2, 6, 5, 3,
	                          ACT_TANH, 1, 7, "test", &e);
	ck_assert_msg(net != NULL, "%s", e.msg);
	Rng r;
	rng_seed(&r, 2);
	for (size_t i = 0; i < net->nparam; i++) {
		net->adam_m[i] = (float)rng_normal(&r);
		net->adam_v[i] = (float)rng_uniform(&r);
	}
	net->adam_t = 42;
	Prep *p = prep_new(PREP_FEATURES, net->n[0], &e);
	p->scale = DATA_CENTER;
	for (int j = 0; j < p->d; j++)
		p->mean[j] = 0.01 * j;
	ck_assert_int_eq(net_set_prep(net, p, &e), 0);
	prep_free(p);
	return net;
}

/* The bytes of net's model file (malloc'd) into *len. */
static unsigned char *file_of(const Net *net, size_t *len)
{
	const char *dir = tu_tmpdir();
	char path[600];
	snprintf(path, sizeof path, "%s/m.cnm", dir);
	Err e;
	ck_assert_msg(model_save(net, path, &e) == 0, "%s", e.msg);
	unsigned char *buf = tu_read(path, len);
	ck_assert_uint_eq(*len, model_file_bytes(net));
	return buf;
}

START_TEST(test_round_trip)
{
	Net *net = conv_net();
	size_t len;
	unsigned char *buf = file_of(net, &len);
	ck_assert_uint_eq(get_u32(buf + 8), 5);
	/* the header: 28 + 4·(m+1) + 12, then the block: 4 + 32 a convolution */
	int m = net->m;
	ck_assert_uint_eq(get_u32(buf + 12), 28 + 4 * (m + 1) + 12 + 4 + 32 * 2);
	const unsigned char *blk = buf + 28 + 4 * (m + 1) + 12;
	ck_assert_uint_eq(get_u32(blk), 2);
	uint32_t want[16] = {2, 6, 5, 3, 3, 1, 1, 0, 3, 3, 2, 4, 2, 0, 0, 0};
	for (int j = 0; j < 16; j++)
		ck_assert_uint_eq(get_u32(blk + 4 + 4 * j), want[j]);
	Err e;
	ck_assert_int_eq(model_check(buf, len, "mem", &e), 0);
	const char *dir = tu_tmpdir();
	const char *path = tu_write(dir, "a.cnm", buf, len);
	Net *back = model_load(path, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	ck_assert_int_eq(back->nconv, 2);
	ck_assert_mem_eq(back->conv, net->conv, 2 * sizeof *net->conv);
	ck_assert_mem_eq(back->n, net->n, (size_t)(m + 1) * sizeof *net->n);
	ck_assert_uint_eq(back->nparam, net->nparam);
	ck_assert_mem_eq(back->param, net->param, net->nparam * sizeof(float));
	ck_assert_mem_eq(back->adam_v, net->adam_v, net->nparam * sizeof(float));
	ck_assert_int_eq(back->adam_t, 42);
	ck_assert_ptr_nonnull(back->prep);
	ck_assert_double_eq(back->prep->mean[7], 0.07);
	net_free(back);
	free(buf);
	net_free(net);
}
END_TEST

/* A network without convolutions is written as version 4: the file older
 * condnets read, byte for byte as before. */
START_TEST(test_dense_stays_version_4)
{
	Net *net = net_fresh(2, (int[]){5, 4, 3}, ACT_ERF, 1, 3, NULL);
	size_t len;
	unsigned char *buf = file_of(net, &len);
	ck_assert_uint_eq(get_u32(buf + 8), 4);
	ck_assert_uint_eq(get_u32(buf + 12), 28 + 4 * 3 + 12);
	ck_assert_uint_eq(len, 28 + 12 + 12 + 4 * net->nparam + MODEL_SCHED_BYTES +
	                           MODEL_RUN_BYTES + MODEL_PREP_BYTES(5) + 4);
	free(buf);
	net_free(net);
}
END_TEST

static void expect_error(unsigned char *buf, size_t len, const char *text)
{
	tu_fix_crc(buf, len);
	Err e = {""};
	ck_assert_int_eq(model_check(buf, len, "m.cnm", &e), -1);
	ck_assert_msg(strstr(e.msg, text), "got \"%s\", expected \"%s\"", e.msg, text);
}

START_TEST(test_forged_block)
{
	Net *net = conv_net();
	size_t len;
	unsigned char *good = file_of(net, &len), *buf = malloc(len);
	int m = net->m;
	size_t blk = 28 + 4 * ((size_t)m + 1) + 12;
	/* a reader meeting a version later than its own, as a reader of version
	 * 4 meets this one */
	memcpy(buf, good, len);
	put_u32(buf + 8, 7);
	expect_error(buf, len, "m.cnm: format version 7 is newer than this condnet reads (6)");
	/* a version 6 header (a graph network's) of 4 layers */
	memcpy(buf, good, len);
	put_u32(buf + 8, 6);
	expect_error(buf, len, "m.cnm: 4 layers at offset 16, expected 1 for a graph network");
	/* another kernel: the widths no longer follow */
	memcpy(buf, good, len);
	put_u32(buf + blk + 4 + 16, 9);
	expect_error(buf, len, "layer 1: a 9×9 kernel on 6×5 maps (padded) is larger than the map");
	memcpy(buf, good, len);
	put_u32(buf + blk + 4 + 16, 5);
	expect_error(buf, len, "layer 2 reads 3×3×2 maps, but layer 1 gives 3×2×1");
	memcpy(buf, good, len);
	put_u32(buf + blk + 4 + 32 + 16, 3);
	expect_error(buf, len, "the convolution layers at offset");
	/* the widths forged to another map size */
	memcpy(buf, good, len);
	put_u32(buf + 28 + 4, 60);
	expect_error(buf, len, "width n[1] = 60, but the maps there hold 18 values");
	/* as many convolutions as layers, or more than the header holds */
	memcpy(buf, good, len);
	put_u32(buf + blk, 3);
	expect_error(buf, len,
	             "header size 128 at offset 12, expected 160 for 4 layers, 3 of them "
	             "convolutions");
	memcpy(buf, good, len);
	put_u32(buf + blk, 4);
	put_u32(buf + 12, 192);
	expect_error(buf, len, "4 convolution layers at offset 60 in a network of 4 layers");
	memcpy(buf, good, len);
	put_u32(buf + blk + 4 + 28, 1);
	expect_error(buf, len, "convolution layer 1 at offset 64 is not valid");
	memcpy(buf, good, len);
	put_u32(buf + blk + 4 + 24, 2);
	expect_error(buf, len, "pool 2 is not a convolution condnet makes");
	memcpy(buf, good, len);
	put_u32(buf + 12, get_u32(good + 12) + 3);
	expect_error(buf, len,
	             "header size 131 at offset 12, expected 64 and a block of "
	             "convolutions for 4 layers");
	/* a block whose first layer holds no convolution at all */
	memcpy(buf, good, len);
	put_u32(buf + blk + 4 + 12, 0);
	expect_error(buf, len, "0 channels, kernel 3");
	free(good);
	free(buf);
	net_free(net);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("model_conv");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_dense_stays_version_4);
	tcase_add_test(tc, test_forged_block);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
