/* tui/keys_speed.c - the speed of the trainings on the screen: { slower
 * and } faster, from one epoch a second to full speed, . one epoch more
 * and then a pause (worker_pace.c waits between the epochs). */
#include <math.h>
#include <stdio.h>

#include "tui/tui_int.h"
#include "tui/views_int.h"

/* { slower, } faster: the speed of the trainings on the screen, from one
 * epoch a second to full speed; . one epoch more, then a pause. */
void tui_speed_key(Tui *t, int ch)
{
	static const double ladder[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 0};
	const int n = sizeof ladder / sizeof *ladder;
	if (ch == '.') {
		if (worker_step_epoch(t->w) < 0)
			worker_status(t->w, 0,
			              "nothing trains: . steps a training one epoch at a time "
			              "(t trains)");
		else
			worker_status(
			    t->w, 0,
			    "one epoch, then a pause: . one more, space goes on, Esc stops");
		return;
	}
	const Shown *p = worker_lock(t->w);
	double now = p->speed > 0 ? p->speed : INFINITY;
	worker_unlock(t->w);
	/* the next step of the ladder from the speed now (--speed may be between) */
	int k;
	if (ch == '}')
		for (k = 0; k < n - 1 && ladder[k] <= now; k++)
			;
	else if (now <= ladder[0]) /* (--speed or a lesson below the ladder: kept) */
		k = -1;
	else
		for (k = n - 2; k > 0 && ladder[k] >= now; k--)
			;
	char s[64];
	if (k < 0) {
		worker_status(t->w, 0, "training speed: %s, the slowest ({ slower, } faster)",
		              views_speed(now, s, sizeof s));
		return;
	}
	Err e = {{0}};
	if (worker_set_speed(t->w, ladder[k], &e) < 0) {
		worker_status(t->w, 1, "%s", e.msg);
		return;
	}
	worker_status(t->w, 0, "training speed: %s ({ slower, } faster, . one epoch)",
	              views_speed(ladder[k], s, sizeof s));
}
