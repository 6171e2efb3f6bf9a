/* tui/keys_speed.c - the speed of the trainings on the screen: { slower
 * and } faster, from one epoch a second to full speed, . one epoch more
 * and then a pause (worker_pace.c waits between the epochs). */
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
		return;
	}
	const Shown *p = worker_lock(t->w);
	double now = p->speed;
	worker_unlock(t->w);
	int k = 0;
	while (k < n - 1 && ladder[k] != now && !(now > 0 && ladder[k] > now))
		k++;
	k = ch == '}' ? (k < n - 1 ? k + 1 : k) : (k > 0 ? k - 1 : 0);
	worker_set_speed(t->w, ladder[k]);
	char s[64];
	worker_status(t->w, 0, "training speed: %s ({ slower, } faster, . one epoch)",
	              views_speed(ladder[k], s, sizeof s));
}
