/* signals.c - the handlers of signals.h: a stop request, an end deferred
 * past the saves under way, temporary files removed on a fault.
 *
 * The deferral is a handshake on two sequentially consistent atomics: a
 * save raises `saving` and then reads `pending`; a handler sets `pending`
 * and then reads `saving`. In any interleaving at least one of the two sees
 * the other's write, so either the handler leaves the end to the save (which
 * sends the signal again when the last save ends), or the save sees the end
 * coming and never creates its file. A fault sets `dying` before it removes
 * the tracked files, and a save reads it after tracking its own, so a file
 * created meanwhile is removed by one or the other. Everything a handler calls is
 * async-signal-safe (sigaction, pthread_sigmask, raise, unlink, _exit). */
#include "base/signals.h"

#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Temporary files tracked at once (concurrent saves); more are not tracked
 * for faults, though still deferred for the other signals. */
enum { SLOTS = 16 };

static atomic_int saving;               /* saves holding (or about to create) a temporary file */
static atomic_int pending;              /* a signal that ends the process once they are done */
static atomic_int dying;                /* a fault is ending the process */
static atomic_int creating;             /* saves between signals_save_begin and their track */
static volatile sig_atomic_t stop_sig;  /* the first stop signal */
static volatile sig_atomic_t stop_mode; /* 0: none, 1: the first stops, 2: every one stops */
static atomic_int slot_used[SLOTS];     /* 0 free, 2 being filled, 1 names a file */
static char slot_name[SLOTS][PATH_MAX + 16];
static _Thread_local int in_group; /* this thread is inside signals_group_begin/end */
static atomic_int stop_seen;       /* the work asked signals_stop after the stop came */
static sem_t stop_came;            /* posted by the first stop (the watchdog waits) */
static atomic_int watching;        /* the watchdog runs */

static const int faults[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGABRT};
enum { NFAULTS = sizeof faults / sizeof *faults };
static struct sigaction old_fault[NFAULTS];

/* The signals that end a process by default and come from outside. */
static const int ends[] = {
    SIGHUP,    SIGINT,  SIGQUIT, SIGTERM,   SIGUSR1, SIGUSR2,
    SIGALRM,   SIGPIPE, SIGXCPU, SIGVTALRM, SIGPROF, SIGIO,
#ifdef SIGPWR
    SIGPWR,
#endif
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
};

static int is_stop(int sig)
{
	return sig == SIGHUP || sig == SIGINT || sig == SIGQUIT || sig == SIGTERM;
}

/* Ends the process by sig's default action (128 + sig, or a core). */
static void die(int sig)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	raise(sig);
	_exit(128 + sig);
}

/* A signal from outside: a stop request, or the end once no save is under way. */
static void end_or_defer(int sig)
{
	if (stop_mode && is_stop(sig) && (stop_mode == 2 || !stop_sig)) {
		if (!stop_sig) {
			stop_sig = sig;
			if (atomic_load(&watching))
				sem_post(&stop_came);
		}
		return;
	}
	atomic_store(&pending, sig);
	if (atomic_load(&saving) > 0)
		return; /* the last save to end sends it again */
	die(sig);
}

static void on_end(int sig)
{
	end_or_defer(sig);
}

/* Removes the temporary files of the saves under way: a save that tracks
 * its file after this sees dying and removes it; one between its begin and
 * its track (an open) is waited for, 0.2 s at most. */
static void discard_tracked(void)
{
	atomic_store(&dying, 1);
	for (int k = 0; k < 200 && atomic_load(&creating) > 0; k++) {
		struct timespec ms = {0, 1000000};
		nanosleep(&ms, NULL);
	}
	for (int i = 0; i < SLOTS; i++)
		if (atomic_load(&slot_used[i]) == 1)
			unlink(slot_name[i]);
}

void signals_discard_saves(void)
{
	discard_tracked();
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	/* sent by another process (kill, sigqueue): it can wait like the others */
	if (si && (si->si_code == SI_USER || si->si_code == SI_QUEUE)) {
		end_or_defer(sig);
		return;
	}
	discard_tracked();
	for (int k = 0; k < NFAULTS; k++)
		if (faults[k] == sig)
			sigaction(sig, &old_fault[k], NULL);
	/* a fault runs its instruction again on return, now under the old
	 * handler; a signal that was sent is sent again */
	if (!si || si->si_code <= 0)
		raise(sig);
}

/* Installs fn for sig unless sig arrives ignored (and not forced); old
 * receives the action there was. */
static void take(int sig, int force, void (*fn)(int), void (*act)(int, siginfo_t *, void *),
                 struct sigaction *old)
{
	struct sigaction cur, sa;
	if (sigaction(sig, NULL, &cur) != 0 || (cur.sa_handler == SIG_IGN && !force))
		return;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (act) {
		sa.sa_sigaction = act;
		sa.sa_flags |= SA_SIGINFO;
	} else {
		sa.sa_handler = fn;
	}
	sigaction(sig, &sa, old);
}

void signals_init(void)
{
	static atomic_int done;
	if (atomic_exchange(&done, 1))
		return;
	signal(SIGXFSZ, SIG_IGN);
	for (size_t i = 0; i < sizeof ends / sizeof *ends; i++)
		take(ends[i], 0, on_end, NULL, NULL);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		take(sig, 0, on_end, NULL, NULL);
	for (int k = 0; k < NFAULTS; k++) {
		sigaction(faults[k], NULL, &old_fault[k]);
		take(faults[k], 0, NULL, on_fault, &old_fault[k]);
	}
}

/* The watchdog of a batch command's stop: once a stop came, the work has
 * STOP_TAKEN_WITHIN seconds to ask signals_stop (it does between batches,
 * layers, slices); if it does not (a thread stuck where nothing asks, such as
 * OpenBLAS waiting for memory it cannot have), the stop ends the process as
 * a second signal would: after any save under way, by its default action.
 * The time a save takes does not count: a long save ends, then the work
 * asks. */
#define STOP_TAKEN_WITHIN 0.75

static void *watchdog(void *arg)
{
	(void)arg;
	while (sem_wait(&stop_came) != 0)
		;
	for (int k = 0; k < (int)(STOP_TAKEN_WITHIN * 50);) {
		if (atomic_load(&stop_seen))
			return NULL;
		struct timespec ts = {0, 20 * 1000 * 1000};
		nanosleep(&ts, NULL);
		k += atomic_load(&saving) == 0;
	}
	if (atomic_load(&stop_seen))
		return NULL;
	int sig = stop_sig;
	char msg[160];
	int n = snprintf(msg, sizeof msg,
	                 "condnet: %s was not taken within a second (the work is stuck where "
	                 "it cannot stop): ending\n",
	                 signals_name(sig));
	if (n > 0)
		(void)!write(STDERR_FILENO, msg,
		             (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
	atomic_store(&pending, sig);
	if (atomic_load(&saving) == 0)
		die(sig);
	return NULL; /* the last save to end sends it */
}

static void start_watchdog(void)
{
	if (atomic_exchange(&watching, 1) || sem_init(&stop_came, 0, 0) != 0)
		return;
	pthread_attr_t at;
	pthread_t tid;
	if (pthread_attr_init(&at) != 0)
		return;
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	/* small, beside the static TLS every thread carries (OpenBLAS: 60 KiB) */
	pthread_attr_setstacksize(&at, 256 * 1024);
	/* the watchdog takes no signal: the handlers run on the work's threads */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_create(&tid, &at, watchdog, NULL) != 0)
		atomic_store(&watching, 0);
	else
		pthread_setname_np(tid, "stop watchdog");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&at);
}

void signals_trap_stop(int repeat)
{
	signals_init();
	if (!repeat)
		start_watchdog();
	stop_mode = repeat ? 2 : 1;
	/* a shell starts a background command with SIGINT and SIGQUIT ignored;
	 * a stop is asked for with them all the same (kill -INT) */
	take(SIGINT, 1, on_end, NULL, NULL);
	take(SIGQUIT, 1, on_end, NULL, NULL);
	take(SIGTERM, 1, on_end, NULL, NULL);
}

int signals_stop(void)
{
	int sig = stop_sig;
	if (sig)
		atomic_store(&stop_seen, 1);
	return sig;
}

const char *signals_name(int sig)
{
	switch (sig) {
	case SIGHUP:
		return "SIGHUP";
	case SIGINT:
		return "SIGINT";
	case SIGQUIT:
		return "SIGQUIT";
	case SIGTERM:
		return "SIGTERM";
	}
	return "a signal";
}

void signals_save_begin(void)
{
	atomic_fetch_add(&saving, 1);
	atomic_fetch_add(&creating, 1);
	if (atomic_load(&dying)) {
		atomic_fetch_sub(&creating, 1);
		for (;;)
			pause();
	}
	/* inside a group the end waits for the group's end: its saves go on */
	if (!atomic_load(&pending) || in_group)
		return;
	/* an end is on its way: create nothing; the last save to end sends it */
	atomic_fetch_sub(&creating, 1);
	signals_save_end(-1);
	for (;;)
		pause();
}

int signals_save_track(const char *tmp)
{
	int slot = -1;
	for (int i = 0; tmp && i < SLOTS && slot < 0; i++) {
		int expect = 0;
		if (atomic_compare_exchange_strong(&slot_used[i], &expect, 2)) {
			snprintf(slot_name[i], sizeof slot_name[i], "%s", tmp);
			atomic_store(&slot_used[i], 1);
			slot = i;
		}
	}
	atomic_fetch_sub(&creating, 1);
	if (tmp && atomic_load(&dying)) { /* the fault's handler may have missed it */
		unlink(tmp);
		for (;;)
			pause();
	}
	return slot;
}

void signals_save_end(int slot)
{
	if (slot >= 0 && slot < SLOTS)
		atomic_store(&slot_used[slot], 0);
	if (atomic_fetch_sub(&saving, 1) == 1) {
		int sig = atomic_load(&pending);
		if (sig)
			die(sig);
	}
}

void signals_group_begin(void)
{
	atomic_fetch_add(&saving, 1);
	if (atomic_load(&pending)) {
		/* an end is on its way: start nothing; the last save to end sends it */
		signals_save_end(-1);
		for (;;)
			pause();
	}
	in_group = 1;
}

void signals_group_end(void)
{
	in_group = 0;
	signals_save_end(-1);
}
