/* tui/view_network_key.c - the key under the network diagram (view 8):
 * the maps' ramp, the weights' colours and how many of them are drawn,
 * the classes' colours, as much of it as fits the row. */
#include <curses.h>
#include <stdio.h>

#include "tui/palette.h"
#include "tui/screen.h"
#include "tui/view_plane.h"
#include "tui/views_int.h"

void view_network_key(const Shown *p, int y, int shown, int of)
{
	int x = 0, color = screen_color();
	const ShownNet *d = &p->net;
	/* the maps' ramp and the classes' colours as the Plane view keys them */
	if (d->plane)
		x += plane_key_maps(y, x, COLS - x, 1.0) + 2;
	if (color && !screen_ascii()) {
		x += screen_put(y, x, 0, C_DIM, 0, "weight ");
		attr_set(A_BOLD, (short)palette_pair(palette_sign(1), -1), NULL);
		mvaddstr(y, x, "⣿⣿ +");
		attr_set(A_BOLD, (short)palette_pair(palette_sign(-1), -1), NULL);
		mvaddstr(y, x + 5, "⣿⣿ −");
		attr_set(A_NORMAL, 0, NULL);
		x += 10;
	} else {
		x += screen_put(y, x, 0, C_DIM, 0, "weight %s",
		                screen_ascii() ? "--- + ... -" : "(lines: +, dots: -)");
	}
	int k = d->n[d->m], kw = d->plane ? 6 + 4 * k : 0;
	char w[160];
	snprintf(w, sizeof w, " heavier: larger |w|, the strongest %d of %d drawn", shown, of);
	if (x + screen_width(w) + 2 + kw > COLS)
		snprintf(w, sizeof w, " (%d of %d)", shown, of);
	if (x + screen_width(w) + 2 + kw <= COLS)
		x += screen_put(y, x, COLS - x, C_DIM, 0, "%s", w);
	if (d->plane && x + 2 + kw <= COLS)
		plane_key_classes(y, x + 2, COLS - x - 2, k);
}
