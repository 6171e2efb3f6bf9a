/* model_test.h - what the tests of model files share (test_model_io.c,
 * test_model_save.c, test_schedule.c): a network with a training's state
 * to write, two networks compared field by field, the files a save leaves
 * beside its own, and a file the reader must refuse with a message. */
#ifndef CONDNET_MODEL_TEST_H
#define CONDNET_MODEL_TEST_H

#include <dirent.h>

#include "base/rng.h"
#include "engine/schedule.h"
#include "model/model_io.h"
#include "testutil.h"

/* 6-5-4-3 (sigmoid, scale 0.75) with Glorot weights; with with_adam the
 * state of a training under way: Adam's moments and step, a plateau
 * schedule and its position, the record of the kernels it ran on. */
static inline Net *model_net(int with_adam)
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

/* Files in dir other than the given name (temporary leftovers). */
static inline int count_others(const char *dir, const char *name)
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

static inline void expect_same(const Net *a, const Net *b)
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

/* The bytes buf written as a model file in dir, which the reader refuses
 * with a message naming the file and holding text. */
static inline void expect_load_error(const char *dir, const unsigned char *buf, size_t len,
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

#endif
