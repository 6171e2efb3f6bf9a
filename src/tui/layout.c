/* tui/layout.c - the screen's rows (see layout.h). */
#include "tui/layout.h"

#include <string.h>

int layout_caption_max(const LayoutIn *in)
{
	/* the title or the header and tabs, the narration, the bottom rows and a
	 * blank row before the view */
	int fixed = in->present ? 2 + in->narration + in->busy + in->bottom : 3 + 1 + 5;
	int max = in->lines - fixed - LAYOUT_MIN_BODY;
	return max > 0 ? max : 0;
}

/* Presentation mode: a title row, the caption, the narration under it, the
 * view, and the progress and prompt rows only when there is something. */
static void present(const LayoutIn *in, Layout *o)
{
	int y = 1, last = in->lines - 1;
	o->header_rows = 1;
	o->status_row = in->bottom ? last-- : -1;
	o->prog_row = in->busy ? last-- : -1;
	if (in->caption) {
		o->cap_top = y;
		if (!in->caption_open && in->caption > 1 && in->caption > (in->lines - 1) / 4) {
			o->caption_folded = 1;
			o->cap_rows = 1;
		} else if (in->caption > layout_caption_max(in)) {
			o->caption_page = 1;
			o->cap_rows = last - y + 1 - in->narration;
		} else {
			o->cap_rows = in->caption;
		}
		y += o->cap_rows;
	}
	if (in->narration) {
		o->narr_top = y;
		o->narr_rows = in->narration;
		y += in->narration;
	}
	o->body_top = y + (in->caption || in->narration); /* a blank row before the view */
	o->body_bot = last;
	if (o->caption_page)
		o->body_top = last + 1;
}

void layout_compute(const LayoutIn *in, Layout *o)
{
	memset(o, 0, sizeof *o);
	o->tabs = o->prog_row = o->set_row = o->status_row = o->footer_row = -1;
	if (in->present) {
		present(in, o);
		return;
	}
	int last = in->lines - 1;
	o->header_rows = 2;
	o->tabs = 2;
	o->footer_row = last;
	o->status_row = last - 1;
	o->set_row = last - 2;
	o->prog_row = last - 3;
	o->narr_top = last - 4;
	o->narr_rows = 1;
	o->body_bot = last - 5;
	o->body_top = 3;
	if (in->caption) {
		o->cap_top = 3;
		if (in->caption > layout_caption_max(in)) {
			o->caption_page = 1;
			o->cap_rows = o->body_bot - 3 + 1;
			o->body_top = o->body_bot + 1;
		} else {
			o->cap_rows = in->caption;
			o->body_top = 3 + in->caption + 1;
		}
	}
}
