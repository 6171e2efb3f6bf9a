/* tui/worker_pace.c - training at a speed a class can follow. After every
 * epoch of a training the screen runs (a t training, Algorithm 1's), at a
 * speed of E epochs a second the regions, the neuron maps and the network
 * diagram are drawn for the network as that epoch left it, and the worker
 * waits what is left of 1/E s; a step of one epoch pauses after it. The
 * waiting happens between two epochs, in the engine's hook, and reads the
 * network without changing it: the weights are those of full speed, bit
 * for bit. */
#include <math.h>
#include <pthread.h>
#include <time.h>

#include "base/clock.h"
#include "engine/limits.h"
#include "tui/worker.h"
#include "tui/worker_int.h"

/* The longest single wait: a longer one is waited in turns of this, the
 * caller asking again after each, so that no deadline leaves time_t. */
#define WAIT_TURN 3600.0

/* Waits on the resume condition until t (clock_seconds), or a change of
 * speed, pause, cancel or quit signals it (the lock held); at most
 * WAIT_TURN seconds, whatever t is (a NaN waits nothing). */
static void wait_until(Worker *w, double t)
{
	struct timespec now, until;
	double left = t - clock_seconds();
	if (!(left > 0))
		return;
	if (!(left < WAIT_TURN))
		left = WAIT_TURN;
	clock_gettime(CLOCK_REALTIME, &now);
	double s = now.tv_sec + now.tv_nsec * 1e-9 + left;
	until.tv_sec = (time_t)floor(s);
	until.tv_nsec = (long)((s - floor(s)) * 1e9);
	pthread_cond_timedwait(&w->resume, &w->mu, &until);
}

void worker_pace_epoch(Worker *w, const TrainEpoch *te)
{
	const Net *net = session_training(w->s);
	if (net != te->net || !pthread_equal(pthread_self(), w->th))
		return;
	pthread_mutex_lock(&w->mu);
	/* a step back replays what was watched at full speed: the same weights */
	int replay = w->shown.replaying;
	int slow = (w->shown.speed > 0 || w->step_epoch) && !replay;
	pthread_mutex_unlock(&w->mu);
	/* what the epoch left, drawn for it */
	if (slow) {
		worker_plane_sample(w, net, te->epoch, 1);
		worker_diagram_sample(w, net, 1);
	}
	pthread_mutex_lock(&w->mu);
	if (te->epoch == 1)
		w->epoch_at = w->t_job;
	if (w->step_epoch) {
		w->step_epoch = 0;
		w->shown.paused = 1;
		w->shown.paused_epoch = te->epoch;
	}
	while (!w->cancel && !w->quit) {
		double speed = w->shown.speed, t = w->epoch_at + (speed > 0 ? 1 / speed : 0);
		if (w->shown.paused)
			pthread_cond_wait(&w->resume, &w->mu);
		else if (speed > 0 && !replay && clock_seconds() < t)
			wait_until(w, t);
		else
			break;
	}
	w->shown.paused_epoch = 0;
	w->epoch_at = clock_seconds();
	pthread_mutex_unlock(&w->mu);
}

int worker_set_speed(Worker *w, double speed, Err *e)
{
	/* every way a speed comes in is held to the one rule */
	if (speed != 0 && limit_check(LIM_SPEED, speed, "the training speed", NULL, e) < 0)
		return -1;
	pthread_mutex_lock(&w->mu);
	w->shown.speed = speed;
	pthread_cond_broadcast(&w->resume); /* a wait under way takes the new speed */
	pthread_mutex_unlock(&w->mu);
	return 0;
}

int worker_step_epoch(Worker *w)
{
	pthread_mutex_lock(&w->mu);
	int r = -1;
	if (w->shown.busy) {
		w->step_epoch = 1;
		w->shown.paused = 0;
		pthread_cond_broadcast(&w->resume);
		r = 0;
	}
	pthread_mutex_unlock(&w->mu);
	return r;
}
