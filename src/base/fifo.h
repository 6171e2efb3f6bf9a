/* fifo.h - a FIFO written without holding a stop (file_write's): the open
 * of a FIFO that no process reads waits for ever, and so does a write to one
 * whose reader stopped reading; a stop signal the command takes as a request
 * (signals_trap_stop) would not end either. These wait in steps of 20 ms
 * and give up once a stop has been seen for half a second (one that came
 * before the wait leaves a reader that long to come). */
#ifndef CONDNET_FIFO_H
#define CONDNET_FIFO_H

#include <stddef.h>

/* 1 when the wait should end: a stop seen FIFO_GRACE seconds ago (*stop_seen,
 * 0 at first, keeps when it was first seen). */
int fifo_give_up(double *stop_seen);

/* Opens the FIFO path for writing without blocking, waiting for a reader
 * until fifo_give_up; the descriptor stays non-blocking (write with poll).
 * -1 with errno set (EINTR: given up). */
int fifo_open(const char *path, double *stop_seen);

/* Writes all of data to fd, retrying after interrupts and short writes;
 * with stop_seen (a FIFO opened by fifo_open) it waits while the reader is
 * slow, until fifo_give_up: -1 with errno EINTR then. NULL: any descriptor. */
int fifo_write_all(int fd, const void *data, size_t len, double *stop_seen);

#endif
