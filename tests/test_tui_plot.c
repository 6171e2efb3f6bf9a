/* test_tui_plot.c - where a chart puts its markers, read back from the
 * cells of a curses screen (drawn into /dev/null): every marker on the row
 * whose range of values holds its value, whatever it meets there (values
 * close together, equal values, charts of 3 to 5 rows, a threshold line,
 * a broken axis); markers of several series that meet share one cell,
 * drawn as the shared glyph; the labels of the axis say what their rows
 * hold, and none labels a row beside the threshold. */
#include <curses.h>
#include <math.h>
#include <wchar.h>

#include "testutil.h"
#include "tui/plot.h"
#include "tui/screen.h"

static void setup(void)
{
	setenv("TERM", "xterm-256color", 1);
	setenv("LINES", "40", 1);
	setenv("COLUMNS", "100", 1);
	setenv("LC_ALL", "C.UTF-8", 1);
	ck_assert_ptr_nonnull(freopen("/dev/null", "w", stdout));
	Err e = {{0}};
	ck_assert_int_eq(screen_init(0, &e), 0);
	erase();
}

static void teardown(void)
{
	screen_end();
}

/* The text of the cell at (y, x), UTF-8. */
static const char *cell(int y, int x, char *buf, size_t len)
{
	cchar_t cc;
	wchar_t w[8] = {0};
	attr_t a;
	short pair;
	buf[0] = '\0';
	if (mvin_wch(y, x, &cc) == ERR || getcchar(&cc, w, &a, &pair, NULL) == ERR)
		return buf;
	wcstombs(buf, w, len);
	return buf;
}

/* The value a label on row r of the plot's axis says, when it has one
 * that is a number ("1e4", "25", "12.5%"); 0 when none. */
static int label_of(const Plot *p, int r, double *v)
{
	char text[64] = "", c[16];
	int n = 0;
	for (int x = p->left - 1 - p->ylabw; x < p->left - 1; x++) {
		cell(p->top + r, x, c, sizeof c);
		if (strcmp(c, " ") && strlen(c) + (size_t)n < sizeof text - 1)
			n += snprintf(text + n, sizeof text - (size_t)n, "%s", c);
	}
	char *end;
	double d = strtod(text, &end);
	if (end == text || (*end && strcmp(end, "%")))
		return 0;
	*v = d;
	return 1;
}

typedef struct Mark {
	double x, y;
	const char *glyph;
	ScrColor c;
} Mark;

/* Draws the marks in order; each must then show on the row of its value
 * (its own glyph within xslack columns of its x, or the shared glyph at
 * its x), that row's range must hold the value, no labelled row may say
 * otherwise (a mark above a label's row is larger than the label, below
 * smaller), and the labels must be true of their rows. */
static void check_marks(Plot *p, const Mark *m, int n)
{
	char c[16];
	for (int i = 0; i < n; i++)
		plot_mark(p, m[i].x, m[i].y, m[i].c, 1, m[i].glyph);
	for (int r = 0; r < p->rows; r++) {
		double v, lo, hi;
		plot_row_range(p, r, &lo, &hi);
		if (label_of(p, r, &v))
			ck_assert_msg(v >= lo * (1 - 1e-9) - 1e-9 && v <= hi * (1 + 1e-9) + 1e-9,
			              "row %d labelled %g holds [%g, %g]", r, v, lo, hi);
	}
	for (int i = 0; i < n; i++) {
		int r = plot_y(p, m[i].y), c0 = plot_x(p, m[i].x), found = -1;
		for (int d = 0; d <= p->xslack && found < 0; d++)
			for (int s = -1; s <= 1; s += 2) {
				int x = c0 + s * d;
				if (x >= 0 && x < p->cols &&
				    !strcmp(cell(p->top + r, p->left + x, c, sizeof c), m[i].glyph))
					found = x;
			}
		if (found < 0 &&
		    !strcmp(cell(p->top + r, p->left + c0, c, sizeof c), plot_shared_glyph()))
			found = c0;
		ck_assert_msg(found >= 0, "mark %d (%s at %g, %g) is not on row %d", i, m[i].glyph,
		              m[i].x, m[i].y, r);
		double lo, hi;
		plot_row_range(p, r, &lo, &hi);
		ck_assert_msg(m[i].y >= lo && m[i].y <= hi, "mark %d, %g, on row %d of [%g, %g]", i,
		              m[i].y, r, lo, hi);
		/* as the labels say: above a label's row larger, below smaller */
		for (int k = 0; k < p->rows; k++) {
			double v;
			if (k == r || !label_of(p, k, &v))
				continue;
			double y = m[i].y;
			if (k > r)
				ck_assert_msg(y > v, "mark %d, %g, above the row labelled %g", i, y,
				              v);
			else
				ck_assert_msg(y < v, "mark %d, %g, below the row labelled %g", i, y,
				              v);
		}
	}
}

/* Algorithm 2's sweep of the algorithm1 lesson at 80x24: five rows, the
 * top two above a break; t, v, s of each β, the values in percent. */
START_TEST(sweep_marks_hold_their_rows)
{
	static const double beta[] = {0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4};
	static const double tr[] = {14.35, 6.04, 1.72, 0.87, 0.41, 0.20, 0.09};
	static const double va[] = {12.17, 4.33, 1.83, 0.83, 0.83, 0.83, 0.83};
	static const double sc[] = {9.98, 2.63, 1.94, 0.80, 1.26, 1.46, 1.57};
	Plot p;
	ck_assert_int_eq(plot_begin(&p, 1, 0, 8, 42, 7, 2, 0.152, 1.448, 0, 2, 0), 0);
	ck_assert_int_eq(p.rows, 5);
	ck_assert_int_eq(plot_break(&p, 19.9, 2), 0);
	p.xslack = 2;
	plot_axes(&p, 1, "%", 1);
	Mark m[21];
	for (int i = 0; i < 7; i++) {
		m[3 * i] = (Mark){beta[i], sc[i], i == 3 ? "*" : "s", C_KEY};
		m[3 * i + 1] = (Mark){beta[i], va[i], "v", C_TITLE};
		m[3 * i + 2] = (Mark){beta[i], tr[i], "t", C_GOOD};
	}
	check_marks(&p, m, 21);
	plot_end(&p);
}
END_TEST

/* Values close together and equal: on one row, beside each other where
 * the slack allows, else in one shared cell. */
START_TEST(close_and_equal_values_share_a_row)
{
	Plot p;
	ck_assert_int_eq(plot_begin(&p, 1, 0, 7, 60, 5, 1, 0, 7, 20, 40, 0), 0);
	ck_assert_int_eq(p.rows, 5);
	plot_axes(&p, 0, NULL, 1);
	Mark m[] = {{0, 32, "1", C_GOOD},    {0, 32, "2", C_TITLE}, {0, 32, "3", C_KEY},
	            {0, 32, "4", C_MARK},    {1, 30, "1", C_GOOD},  {1, 29, "2", C_TITLE},
	            {1, 29.5, "3", C_KEY},   {1, 29, "4", C_MARK},  {7, 20, "1", C_GOOD},
	            {7, 20.2, "2", C_TITLE}, {7, 20.1, "3", C_KEY}};
	p.xslack = 1;
	check_marks(&p, m, (int)(sizeof m / sizeof *m));
	/* four layers of 32 at x = 0: three fit (0, 1 and the shared cell) */
	ck_assert_int_ge(p.nshared, 1);
	char c[16];
	int r = plot_y(&p, 32);
	for (int k = 0; k < p.rows; k++)
		if (k != r)
			for (int x = 0; x < 3; x++)
				ck_assert_str_eq(cell(p.top + k, p.left + x, c, sizeof c), " ");
	plot_end(&p);
	/* without slack every equal value shares its cell */
	erase();
	ck_assert_int_eq(plot_begin(&p, 1, 0, 7, 60, 5, 1, 0, 7, 20, 40, 0), 0);
	plot_axes(&p, 0, NULL, 1);
	ck_assert_int_eq(plot_mark(&p, 3, 25, C_GOOD, 1, "1"), 0);
	ck_assert_int_eq(plot_mark(&p, 3, 25, C_GOOD, 1, "1"), 0);
	ck_assert_int_eq(plot_mark(&p, 3, 25, C_KEY, 1, "2"), 2);
	ck_assert_int_eq(plot_mark(&p, 3, 25.1, C_KEY, 1, "3"), 2);
	ck_assert_int_eq(p.nshared, 1);
	ck_assert_str_eq(cell(p.top + plot_y(&p, 25), p.left + plot_x(&p, 3), c, sizeof c),
	                 plot_shared_glyph());
	plot_end(&p);
}
END_TEST

/* κ of a network against τ on 3, 4 and 5 rows (log): every value on its
 * side of the line, no label beside the line, each label true. */
START_TEST(short_threshold_charts)
{
	static const double k[] = {19.38, 31.55, 53.19, 58.59, 172.8, 943, 177, 231.1, 488.9, 3728};
	for (int rows = 3; rows <= 5; rows++) {
		erase();
		Plot p;
		double lo = 19.38, hi = 3728;
		plot_range(&lo, &hi, 1);
		ck_assert_int_eq(plot_begin(&p, 1, 0, rows + 2, 80, 5, 1, 0.5, 10.5, lo, hi, 1), 0);
		ck_assert_int_eq(p.rows, rows);
		plot_threshold(&p, 20);
		plot_axes(&p, 0, NULL, 1);
		plot_hline(&p, 20, C_MARK, NULL);
		Mark m[10];
		char g[10][2];
		for (int i = 0; i < 10; i++) {
			g[i][0] = (char)('0' + i), g[i][1] = 0;
			m[i] = (Mark){i + 1, k[i], g[i], C_WARN};
		}
		check_marks(&p, m, 10);
		int t = plot_y(&p, 20);
		ck_assert_int_lt(plot_y(&p, 31.55), t);
		ck_assert_int_gt(plot_y(&p, 19.38), t);
		double v;
		if (t > 0)
			ck_assert(!label_of(&p, t - 1, &v));
		if (t < p.rows - 1)
			ck_assert(!label_of(&p, t + 1, &v));
		plot_end(&p);
	}
}
END_TEST

/* The ranges of the rows part the axis: each row's below the one above
 * it, none empty, on a linear, a log and a broken axis. */
START_TEST(row_ranges_part_the_axis)
{
	Plot p;
	for (int kind = 0; kind < 3; kind++) {
		ck_assert_int_eq(plot_begin(&p, 0, 0, 10, 40, 5, 1, 0, 1, kind == 1 ? 1 : 0,
		                            kind == 1 ? 1000 : 10, kind == 1),
		                 0);
		if (kind == 2)
			ck_assert_int_eq(plot_break(&p, 500, 3), 0);
		double prev_lo = INFINITY;
		for (int r = 0; r < p.rows; r++) {
			double lo, hi;
			plot_row_range(&p, r, &lo, &hi);
			ck_assert_msg(lo < hi, "row %d: [%g, %g]", r, lo, hi);
			ck_assert_msg(hi <= prev_lo * (1 + 1e-12), "row %d overlaps the row above",
			              r);
			/* its middle is drawn on it */
			double mid = isinf(hi)             ? lo * 2 + 1
			             : isinf(lo)           ? hi - 1
			             : kind == 1 && lo > 0 ? sqrt(lo * hi)
			                                   : (lo + hi) / 2;
			ck_assert_int_eq(plot_y(&p, mid), r);
			prev_lo = lo;
		}
		plot_end(&p);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tui_plot");
	TCase *tc = tcase_create("plot");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, sweep_marks_hold_their_rows);
	tcase_add_test(tc, close_and_equal_values_share_a_row);
	tcase_add_test(tc, short_threshold_charts);
	tcase_add_test(tc, row_ranges_part_the_axis);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
