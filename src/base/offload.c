/* offload.c - work on a thread of its own that its caller can stop waiting
 * for. */
#include "base/offload.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "base/fpmode.h"

typedef struct Task {
	char name[16];
	void (*fn)(void *job);
	void (*done)(void *job);
	void *job;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int finished, left;
} Task;

static atomic_int nleft;

/* At exit: while work is left running, no library destructor may free what
 * it uses, so the process ends here, its streams flushed. */
static void end_if_left(int status, void *arg)
{
	(void)arg;
	if (atomic_load(&nleft) > 0) {
		fflush(NULL);
		_exit(status);
	}
}

void offload_init(void)
{
	on_exit(end_if_left, NULL);
}

int offload_left(void)
{
	return atomic_load(&nleft);
}

void offload_note_left(void)
{
	atomic_fetch_add(&nleft, 1);
}

static void task_free(Task *t)
{
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->cv);
	free(t);
}

static void *task_main(void *arg)
{
	Task *t = arg;
	pthread_setname_np(pthread_self(), t->name);
	t->fn(t->job);
	pthread_mutex_lock(&t->mu);
	t->finished = 1;
	int left = t->left;
	pthread_cond_signal(&t->cv);
	pthread_mutex_unlock(&t->mu);
	/* a caller that waits takes the task back; one that left, left it here */
	if (left) {
		t->done(t->job);
		task_free(t);
		atomic_fetch_sub(&nleft, 1);
	}
	return NULL;
}

int offload_run(const char *name, void (*fn)(void *job), void (*done)(void *job), void *job,
                int (*stop)(void *ud), void *ud)
{
	Task *t = calloc(1, sizeof *t);
	if (!t)
		return -1;
	snprintf(t->name, sizeof t->name, "%s", name);
	t->fn = fn;
	t->done = done;
	t->job = job;
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	pthread_t th;
	if (thread_start(&th, task_main, t) != 0) {
		task_free(t);
		return -1;
	}
	pthread_detach(th);
	pthread_mutex_lock(&t->mu);
	while (!t->finished) {
		if (stop && stop(ud)) {
			t->left = 1;
			atomic_fetch_add(&nleft, 1);
			pthread_mutex_unlock(&t->mu);
			return 1;
		}
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 20 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&t->cv, &t->mu, &ts);
	}
	pthread_mutex_unlock(&t->mu);
	task_free(t);
	return 0;
}
