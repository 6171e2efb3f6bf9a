/* clock.h - seconds on the monotonic clock, for timing epochs, stages and
 * the screen's refresh. */
#ifndef CONDNET_CLOCK_H
#define CONDNET_CLOCK_H

#include <time.h>

static inline double clock_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
