/* fifo.c - a FIFO written without holding a stop: its open and its writes
 * wait in steps of 20 ms, asking the stop between them. */
#include "base/fifo.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include "base/signals.h"

/* Waiting on a FIFO ends once a stop signal has been seen for this long
 * (signals_trap_stop): one that came during the wait ends it within that,
 * and one taken before it leaves the reader that much time to come. */
#define FIFO_GRACE 0.5

/* 1 when the wait on a FIFO should end: a stop seen FIFO_GRACE ago. */
int fifo_give_up(double *stop_seen)
{
	if (!signals_stop())
		return 0;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	double now = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
	if (*stop_seen == 0)
		*stop_seen = now;
	return now - *stop_seen >= FIFO_GRACE;
}

/* Opens the FIFO path for writing without blocking: waits for a reader in
 * steps of 20 ms (the open of a FIFO with none waits for ever, and a stop
 * signal taken as a request would not end it). The descriptor stays
 * non-blocking for fifo_write_all. -1 with errno set (EINTR: stopped). */
int fifo_open(const char *path, double *stop_seen)
{
	for (;;) {
		int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0 || errno != ENXIO)
			return fd;
		if (fifo_give_up(stop_seen)) {
			errno = EINTR;
			return -1;
		}
		struct timespec ts = {0, 20 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
}

/* Writes all of data to fd, retrying after interrupts and short writes.
 * With stop_seen (a non-blocking FIFO's) it waits while the reader is slow
 * (poll, 20 ms at a time) unless a stop says give up: -1 with errno EINTR
 * then. */
int fifo_write_all(int fd, const void *data, size_t len, double *stop_seen)
{
	const char *p = data;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN || !stop_seen)
				return -1;
			if (fifo_give_up(stop_seen)) {
				errno = EINTR;
				return -1;
			}
			struct pollfd pf = {fd, POLLOUT, 0};
			poll(&pf, 1, 20);
			continue;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}
