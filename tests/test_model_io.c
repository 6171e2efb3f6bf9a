/* test_model_io.c - model files: round trips (with the schedule and its
 * position, and the preprocessing), files of versions 1 to 3, damage
 * detection, forged sizes, saves that leave the previous file intact on
 * failure, and a save in little memory. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <zlib.h>

#include "base/file.h"
#include "model/model_io.h"
#include "testutil.h"

static Net *sample_net(int with_adam)
{
	int w[] = {6, 5, 4, 3};
	Net *net = net_new(3, w, ACT_SIGMOID, 0.75f, NULL);
	Rng r;
	rng_seed(&r, 21);
	net_init_glorot(net, &r);
	if (with_adam) {
		for (size_t i = 0; i < net->nparam; i++) {
			net->adam_m[i] = (float)rng_normal(&r);
			net->adam_v[i] = (float)rng_uniform(&r);
		}
		net->adam_t = 1234567890123LL;
		net->sched = (LrSchedule){
		    .kind = SCHED_PLATEAU, .patience = 3, .factor = 0.3, .warmup = 0.25};
		net->sched_st = (SchedState){
		    .step = 98765, .reductions = 2, .bad = 1, .has_best = 1, .best = 0.123456789};
		net->run = (ReproRecord){.on = 1, .kernels = "Haswell", .threads = 3, .parts = 2};
	}
	return net;
}

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

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Recomputes the trailing CRC so that only the forged field is wrong. */
static void fix_crc(unsigned char *buf, size_t len)
{
	put32(buf + len - 4, (uint32_t)crc32_z(crc32(0L, Z_NULL, 0), buf, len - 4));
}

/* Files in dir other than the given name (temporary leftovers). */
static int count_others(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && strcmp(de->d_name, name))
			n++;
	closedir(d);
	return n;
}

static void expect_same(const Net *a, const Net *b)
{
	ck_assert_int_eq(a->m, b->m);
	ck_assert_mem_eq(a->n, b->n, (size_t)(a->m + 1) * sizeof(int));
	ck_assert_int_eq(a->act, b->act);
	ck_assert_mem_eq(&a->act_a, &b->act_a, sizeof(float));
	ck_assert_uint_eq(a->nparam, b->nparam);
	ck_assert_mem_eq(a->param, b->param, a->nparam * sizeof(float));
	ck_assert_mem_eq(a->adam_m, b->adam_m, a->nparam * sizeof(float));
	ck_assert_mem_eq(a->adam_v, b->adam_v, a->nparam * sizeof(float));
	ck_assert_int_eq(a->adam_t, b->adam_t);
	ck_assert(sched_equal(&a->sched, &b->sched));
	ck_assert_mem_eq(&a->sched_st, &b->sched_st, sizeof a->sched_st);
	ck_assert_int_eq(a->run.on, b->run.on);
	ck_assert_str_eq(a->run.kernels, b->run.kernels);
	ck_assert_int_eq(a->run.threads, b->run.threads);
	ck_assert_int_eq(a->run.parts, b->run.parts);
	ck_assert_int_eq(!a->prep, !b->prep);
	if (a->prep) {
		const Prep *p = a->prep, *q = b->prep;
		ck_assert_int_eq(p->kind, q->kind);
		ck_assert_int_eq(p->scale, q->scale);
		ck_assert_int_eq(p->rows, q->rows);
		ck_assert_int_eq(p->cols, q->cols);
		ck_assert_int_eq(p->n, q->n);
		ck_assert_mem_eq(p->idx, q->idx, (size_t)p->d * sizeof *p->idx);
		ck_assert_mem_eq(p->mean, q->mean, (size_t)p->d * sizeof *p->mean);
		ck_assert_mem_eq(p->sd, q->sd, (size_t)p->d * sizeof *p->sd);
	}
}

START_TEST(test_round_trip)
{
	const char *dir = tu_tmpdir();
	char path[600];
	snprintf(path, sizeof path, "%s/m.cnm", dir);
	Err e;
	for (int adam = 0; adam < 2; adam++) {
		Net *net = sample_net(adam);
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

static void expect_load_error(const char *dir, const unsigned char *buf, size_t len,
                              const char *text)
{
	const char *p = tu_write(dir, "bad.cnm", buf, len);
	char path[1024];
	snprintf(path, sizeof path, "%s", p);
	Err e = {""};
	ck_assert_ptr_null(model_load(path, &e));
	ck_assert_msg(strncmp(e.msg, path, strlen(path)) == 0, "message lacks the file: %s", e.msg);
	ck_assert_msg(strstr(e.msg, text), "got \"%s\", expected \"%s\"", e.msg, text);
}

START_TEST(test_damage_detected)
{
	const char *dir = tu_tmpdir();
	char path[600];
	snprintf(path, sizeof path, "%s/m.cnm", dir);
	Net *net = sample_net(1);
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
	Net *net = sample_net(1);
	Err e;
	ck_assert_int_eq(model_save(net, path, &e), 0);
	size_t len;
	unsigned char *good = tu_read(path, &len), *buf = malloc(len);

	memcpy(buf, good, len);
	put32(buf + 8, 7);
	fix_crc(buf, len);
	const char *p = tu_write(dir, "v7.cnm", buf, len);
	snprintf(want, sizeof want, "%s: format version 7 is newer than this condnet reads (%d)", p,
	         MODEL_VERSION);
	snprintf(path, sizeof path, "%s", p);
	ck_assert_ptr_null(model_load(path, &e));
	ck_assert_str_eq(e.msg, want);

	memcpy(buf, good, len);
	put32(buf + 16, 1000000000u);
	fix_crc(buf, len);
	expect_load_error(dir, buf, len, "1000000000 layers at offset 16 do not fit");

	/* m = 4 still fits in the file, but the header size then disagrees. */
	memcpy(buf, good, len);
	put32(buf + 16, 4);
	expect_load_error(dir, buf, len, "header size 56 at offset 12, expected 60 for 4 layers");

	/* Widths of 2³¹, of 2³⁰ (past the table's limit) and of 10^7 (the
	 * limit, far too many parameters for the file). */
	memcpy(buf, good, len);
	put32(buf + 32, 0x80000000u);
	fix_crc(buf, len);
	expect_load_error(dir, buf, len,
	                  "width n[1] = 2147483648 at offset 32 is not a positive int");
	memcpy(buf, good, len);
	put32(buf + 28, 1u << 30);
	fix_crc(buf, len);
	expect_load_error(
	    dir, buf, len,
	    "width n[0] = 1073741824 at offset 28 is more than condnet's limit of 10000000");
	memcpy(buf, good, len);
	put32(buf + 28, 10000000);
	put32(buf + 32, 10000000);
	fix_crc(buf, len);
	expect_load_error(dir, buf, len, "need more parameters than a file of");
	memcpy(buf, good, len);
	put32(buf + 36, 0);
	expect_load_error(dir, buf, len, "width n[2] = 0 at offset 36");

	memcpy(buf, good, len);
	put32(buf + 20, 9);
	expect_load_error(dir, buf, len, "unknown activation 9 at offset 20");
	memcpy(buf, good, len);
	put32(buf + 52, 6);
	expect_load_error(dir, buf, len, "unknown flags 0x6 at offset 52");
	memcpy(buf, good, len);
	buf[51] = 0x80;
	expect_load_error(dir, buf, len, "negative Adam step count at offset 44");
	memcpy(buf, good, len);
	put32(buf + 8, 0);
	expect_load_error(dir, buf, len, "format version 0 at offset 8 is not valid");

	/* Clearing the Adam flag makes the file too long for its header. */
	memcpy(buf, good, len);
	put32(buf + 52, 0);
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
	Net *net = sample_net(1);
	Err e;
	ck_assert_int_eq(model_save(net, path, &e), 0);
	size_t len;
	unsigned char *good = tu_read(path, &len);
	size_t len1 = len - MODEL_SCHED_BYTES - MODEL_RUN_BYTES - MODEL_PREP_BYTES(6);
	unsigned char *v1 = malloc(len1);
	memcpy(v1, good, len1 - 4);
	put32(v1 + 8, 1);
	fix_crc(v1, len1);
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
	put32(v2 + 8, 2);
	fix_crc(v2, len2);
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
	put32(buf + blk, 9);
	fix_crc(buf, len);
	snprintf(want, sizeof want, "unknown schedule kind 9 at offset %zu", blk);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	buf[blk + 16 + 7] = 0xbf; /* the factor becomes negative */
	fix_crc(buf, len);
	snprintf(want, sizeof want, "the schedule at offset %zu: factor", blk);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	put32(buf + blk + 56, 2);
	fix_crc(buf, len);
	snprintf(want, sizeof want, "position at offset %zu is not valid", blk + 40);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	put32(buf + rblk, 2); /* the mode is 0 or 1 */
	fix_crc(buf, len);
	snprintf(want, sizeof want, "the record of the training at offset %zu is not valid", rblk);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	buf[rblk + 16 + 31] = 'x'; /* the kernels' name without its NUL */
	fix_crc(buf, len);
	expect_load_error(dir, buf, len, want);
	free(buf);
	free(v1);
	free(good);
	net_free(net);
	tu_rmtree(dir);
}
END_TEST

/* A model is binary: "-" (standard output) is refused before anything is
 * written. (The writer itself is tested in test_file and test_file_write.) */
START_TEST(test_save_refuses_dash)
{
	Net *net = sample_net(0);
	Err e;
	ck_assert_int_eq(model_save(net, "-", &e), -1);
	ck_assert_msg(strstr(e.msg, "-: standard output takes only text"), "%s", e.msg);
	net_free(net);
}
END_TEST

/* Saving into a directory the process may not write to fails with the
 * errno text and leaves the previous model as it was. Root may write
 * anywhere, so a forked child gives up its privileges first. */
START_TEST(test_save_unwritable_dir)
{
	const char *dir = tu_tmpdir();
	char d[600], path[700];
	snprintf(d, sizeof d, "%s/ro", dir);
	snprintf(path, sizeof path, "%s/m.cnm", d);
	ck_assert_int_eq(mkdir(d, 0755), 0);
	Net *old = sample_net(0);
	Err e;
	ck_assert_int_eq(model_save(old, path, &e), 0);
	size_t len0;
	unsigned char *before = tu_read(path, &len0);
	chmod(dir, 0755);
	chmod(d, 0555);
	int pipefd[2];
	ck_assert_int_eq(pipe(pipefd), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(pipefd[0]);
		free(before);
		net_free(old);
		if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
			_exit(2);
		Net *newer = sample_net(1);
		int rc = model_save(newer, path, &e);
		net_free(newer);
		ssize_t w = write(pipefd[1], e.msg, strlen(e.msg) + 1);
		(void)w;
		_exit(rc == -1 ? 0 : 1);
	}
	close(pipefd[1]);
	char msg[1024] = "";
	ssize_t got = read(pipefd[0], msg, sizeof msg - 1);
	close(pipefd[0]);
	int status;
	waitpid(pid, &status, 0);
	chmod(d, 0755);
	ck_assert(got > 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "save did not fail: %s", msg);
	ck_assert_msg(strstr(msg, path) == msg, "%s", msg);
	ck_assert_msg(strstr(msg, "cannot create a temporary file beside it: Permission denied"),
	              "%s", msg);
	size_t len1;
	unsigned char *after = tu_read(path, &len1);
	ck_assert_uint_eq(len0, len1);
	ck_assert_mem_eq(before, after, len0);
	ck_assert_int_eq(count_others(d, "m.cnm"), 0);
	Net *back = model_load(path, &e);
	expect_same(old, back);
	free(before);
	free(after);
	net_free(back);
	net_free(old);
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
	Net *net = sample_net(1);
	Err e;
	ck_assert_int_eq(model_save(net, path, &e), 0);
	size_t len;
	unsigned char *good = tu_read(path, &len), *buf = malloc(len);
	size_t hb = 40 + 16, np = net->nparam;
	float nan = NAN, inf = INFINITY, neg = -1.0f, big = 1e30f;

	memcpy(buf, good, len);
	memcpy(buf + 24, &big, 4);
	fix_crc(buf, len);
	expect_load_error(dir, buf, len,
	                  "the activation scale at offset 24: 1.00000002e+30 must be "
	                  "at most 1e+06");
	memcpy(buf, good, len);
	memcpy(buf + hb + 4 * 7, &nan, 4);
	fix_crc(buf, len);
	expect_load_error(dir, buf, len,
	                  "parameter 7 (layer 1) at offset 84 is nan, expected a "
	                  "finite number");
	memcpy(buf, good, len);
	memcpy(buf + hb + 4 * (np - 1), &inf, 4);
	fix_crc(buf, len);
	expect_load_error(dir, buf, len, "(layer 3)");
	memcpy(buf, good, len);
	memcpy(buf + hb + 4 * (np + 2), &nan, 4);
	fix_crc(buf, len);
	expect_load_error(dir, buf, len, "Adam's first moment 2 at offset");
	memcpy(buf, good, len);
	memcpy(buf + hb + 4 * (2 * np + 3), &neg, 4);
	fix_crc(buf, len);
	expect_load_error(dir, buf, len, "Adam's second moment 3 at offset");
	/* Adam step counts past 2^53 (INT64_MAX overflowed in training) */
	memcpy(buf, good, len);
	put32(buf + 44, 0xffffffffu);
	put32(buf + 48, 0x7fffffffu);
	fix_crc(buf, len);
	expect_load_error(dir, buf, len,
	                  "Adam step count 9223372036854775807 at offset 44 is more "
	                  "than condnet's limit of 2^53");
	memcpy(buf, good, len);
	put32(buf + 44, 0);
	put32(buf + 48, 1u << 21); /* 2^53 itself loads */
	fix_crc(buf, len);
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
	Net *net = sample_net(1);
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
	put32(v3 + 8, 3);
	fix_crc(v3, len3);
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
	put32(buf + pblk, 7); /* kind */
	fix_crc(buf, len);
	snprintf(want, sizeof want, "the preprocessing at offset %zu is not valid (kind 7", pblk);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	put32(buf + pblk + 16, 6); /* a transform of 6 is not a power of 2 */
	fix_crc(buf, len);
	snprintf(want, sizeof want, "Haar sizes at offset %zu (3×4 images, transform 6)", pblk + 8);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	put32(buf + pblk + 32 + 4, 0); /* coefficient 1 repeats coefficient 0 */
	fix_crc(buf, len);
	snprintf(want, sizeof want, "Haar coefficient 1 at offset %zu is 0, expected distinct",
	         pblk + 36);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	memset(buf + pblk + 32 + 24 + 48 + 8 * 2, 0, 8); /* feature 2's scale 0 */
	fix_crc(buf, len);
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
	Net *net = sample_net(1);
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
	put32(buf + pblk + 8, 3); /* 3×3 images: not 6 pixels */
	fix_crc(buf, len);
	snprintf(want, sizeof want, "image size at offset %zu (3×3) is not its 6 pixels", pblk + 8);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	put32(buf + pblk + 16, 4); /* a Haar size */
	fix_crc(buf, len);
	snprintf(want, sizeof want,
	         "the preprocessing at offset %zu holds Haar coefficients for pixels inputs", pblk);
	expect_load_error(dir, buf, len, want);
	memcpy(buf, good, len);
	put32(buf + pblk + 32 + 8, 5); /* a coefficient */
	fix_crc(buf, len);
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

/* The address space the process maps now (VmSize), in bytes. */
static long long mapped_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long long pages = -1;
	if (!f || fscanf(f, "%lld", &pages) != 1)
		pages = -1;
	if (f)
		fclose(f);
	return pages < 0 ? -1 : pages * sysconf(_SC_PAGESIZE);
}

/* A save streams the file to disk: with the address space held to 24 MiB
 * beyond what the process maps, a network whose file is 46 MiB (weights and
 * both Adam moments) is saved, whole, and loads back. It used to build the
 * file in one buffer ("out of memory for 48304328 bytes"), and a run that had
 * trained was lost at its save. */
START_TEST(test_save_in_little_memory)
{
#if defined(__SANITIZE_ADDRESS__)
	return; /* AddressSanitizer maps terabytes of shadow: no limit applies */
#endif
	const char *dir = tu_tmpdir();
	char path[600];
	snprintf(path, sizeof path, "%s/big.model", dir);
	int w[] = {2000, 2000, 10};
	Net *net = net_new(2, w, ACT_ERF, 1.0f, NULL);
	ck_assert_ptr_nonnull(net);
	Rng r;
	rng_seed(&r, 5);
	net_init_glorot(net, &r);
	for (size_t i = 0; i < net->nparam; i++) {
		net->adam_m[i] = net->param[i] / 2;
		net->adam_v[i] = net->param[i] * net->param[i];
	}
	net->adam_t = 7;
	ck_assert_uint_gt(model_file_bytes(net), (size_t)46 << 20);
	struct rlimit old, lim;
	ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
	long long now = mapped_bytes();
	ck_assert_int_gt(now, 0);
	lim.rlim_cur = (rlim_t)now + ((rlim_t)24 << 20);
	lim.rlim_max = old.rlim_max;
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &lim), 0);
	Err e = {{0}};
	int rc = model_save(net, path, &e);
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
	ck_assert_msg(rc == 0, "%s", e.msg);
	Net *back = model_load(path, &e);
	ck_assert_msg(back != NULL, "%s", e.msg);
	expect_same(net, back);
	ck_assert_int_eq(count_others(dir, "big.model"), 0);
	net_free(net);
	net_free(back);
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
	tcase_add_test(tc, test_save_refuses_dash);
	tcase_add_test(tc, test_save_unwritable_dir);
	tcase_add_test(tc, test_save_in_little_memory);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
