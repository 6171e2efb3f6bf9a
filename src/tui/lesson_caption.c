/* tui/lesson_caption.c - what a caption says: the numbers of its text, and
 * whether the view it is shown with shows what it claims and names (see
 * lesson_caption.h). */
#include "tui/lesson_caption.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/views.h"

/* ---- the numbers of a text ---- */

/* The code point of the UTF-8 character that starts at t (0 for a byte
 * that starts none). */
static unsigned code_at(const unsigned char *t)
{
	if (t[0] < 0x80)
		return t[0];
	if ((t[0] & 0xe0) == 0xc0 && (t[1] & 0xc0) == 0x80)
		return (t[0] & 0x1fu) << 6 | (t[1] & 0x3fu);
	if ((t[0] & 0xf0) == 0xe0 && (t[1] & 0xc0) == 0x80 && (t[2] & 0xc0) == 0x80)
		return (t[0] & 0x0fu) << 12 | (t[1] & 0x3fu) << 6 | (t[2] & 0x3fu);
	return 0;
}

/* A letter of a formula ("2ε_v", "12x"): an ASCII letter, '_', or a
 * character below U+2000 (Greek, accented); dashes, arrows and the signs
 * of mathematics from U+2000 on separate numbers ("1.0–47.9"). */
static int is_letter_at(const unsigned char *t)
{
	unsigned c = code_at(t);
	return isalpha(t[0]) || t[0] == '_' || (c >= 0x80 && c < 0x2000);
}

/* The same for the character that ends just before t[i]. */
static int letter_before(const unsigned char *t, size_t i)
{
	size_t k = i - 1;
	while (k > 0 && (t[k] & 0xc0) == 0x80)
		k--;
	return t[k] >= 0x80 && (t[k] & 0xc0) != 0x80 ? is_letter_at(t + k)
	                                             : is_letter_at(t + i - 1);
}

int lesson_numbers(const char *text, void (*fn)(const char *tok, void *ud), void *ud)
{
	int count = 0;
	const unsigned char *t = (const unsigned char *)text;
	for (size_t i = 0; t[i];) {
		if (!isdigit(t[i]) || (i > 0 && (letter_before(t, i) || isdigit(t[i - 1])))) {
			i++;
			continue;
		}
		size_t j = i;
		/* digits and what joins them: 1,200  0.2:1.4  10-32-3  12x300 */
		while (t[j] && (isdigit(t[j]) || strchr(".,:-", t[j]) ||
		                (t[j] == 'x' && isdigit(t[j + 1]) && isdigit(t[j - 1]))))
			j++;
		size_t end = j;
		while (end > i && !isdigit(t[end - 1]))
			end--; /* a sentence's full stop or comma is not the number's */
		if (end == j && t[j] && is_letter_at(t + j)) {
			i = j; /* "2ε_v", "12x300": a formula's part */
			continue;
		}
		char tok[128];
		size_t n = end - i < sizeof tok - 1 ? end - i : sizeof tok - 1, k = 0;
		/* thousands separators go: "1,200" is 1200 */
		int thousands = 1;
		for (size_t c = i, run = 0; c < i + n; c++) {
			if (t[c] == ',') {
				if ((c == i + n - 4 || t[c + 4] == ',') && run >= 1 && run <= 3)
					run = 0;
				else
					thousands = 0;
			} else if (isdigit(t[c])) {
				run++;
			} else {
				thousands = 0;
			}
		}
		for (size_t c = i; c < i + n; c++)
			if (!(thousands && t[c] == ','))
				tok[k++] = (char)t[c];
		tok[k] = '\0';
		if (fn)
			fn(tok, ud);
		count++;
		i = j;
	}
	return count;
}

/* ---- what the view shown can show ---- */

#define V(v) (1u << (v))
#define EVERY 0xffu

/* The views on which a claim can be read (the title or header rows show τ,
 * η, the widths and the test accuracy on every view; the data set is
 * named on the layer table and the plane's regions, and in the header). */
static unsigned key_views(const char *key)
{
	static const struct {
		const char *key;
		unsigned views;
	} table[] = {
	    {"tau", EVERY},
	    {"eta", EVERY},
	    {"acc", EVERY},
	    {"net", EVERY},
	    {"n.", EVERY},
	    {"train", V(VIEW_LAYERS) | V(VIEW_PLANE)},
	    {"test", V(VIEW_LAYERS) | V(VIEW_PLANE)},
	    {"features", V(VIEW_LAYERS) | V(VIEW_PLANE)},
	    {"classes", V(VIEW_LAYERS) | V(VIEW_PLANE)},
	    {"steps", V(VIEW_HISTORY)},
	    {"kappa.", V(VIEW_LAYERS) | V(VIEW_SPECTRUM)},
	    {"p.", V(VIEW_LAYERS) | V(VIEW_SPECTRUM)},
	    {"rank.", V(VIEW_LAYERS) | V(VIEW_SPECTRUM)},
	    {"rows.", V(VIEW_SPECTRUM)},
	    {"deficit.", V(VIEW_SPECTRUM)},
	    {"over", V(VIEW_LAYERS) | V(VIEW_ALG1) | V(VIEW_HISTORY)},
	    {"nover", V(VIEW_LAYERS) | V(VIEW_ALG1) | V(VIEW_HISTORY)},
	    {"iter", V(VIEW_ALG1) | V(VIEW_HISTORY)},
	    {"alg1_acc.", V(VIEW_ALG1) | V(VIEW_HISTORY)},
	    {"pick", V(VIEW_SWEEP)},
	    {"rises", V(VIEW_SWEEP)},
	    {"keep.", V(VIEW_SQUEEZE) | V(VIEW_PLANE)},
	    {"drop.", V(VIEW_SQUEEZE) | V(VIEW_PLANE)},
	    {"whatif", V(VIEW_SQUEEZE)},
	    {"regions.", V(VIEW_PLANE)},
	    {"random_comp.", V(VIEW_PLANE)},
	    {"step", V(VIEW_PLANE)},
	    {"fit.", V(VIEW_PLANE)},
	    {"refit.", V(VIEW_PLANE)},
	    {"removed", V(VIEW_SQUEEZE) | V(VIEW_PLANE)},
	    {"hidden", V(VIEW_ALG1)},
	    {"hidden_was", V(VIEW_ALG1)},
	    {"share", V(VIEW_ALG1)},
	    {"compare", 0}, /* a command's answer: on no view */
	};
	for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
		size_t n = strlen(table[i].key);
		if (!strncmp(key, table[i].key, n) &&
		    (table[i].key[n - 1] == '.' || !key[n] || key[n] == '.' || key[n] == '_'))
			return table[i].views;
	}
	return EVERY;
}

/* What a caption names, and the views that show it. */
static const struct {
	const char *words;
	unsigned views;
	const char *what;
} named[] = {
    {"flag r", V(VIEW_LAYERS), "the flag r of the layer table"},
    {"marked !", V(VIEW_LAYERS) | V(VIEW_ALG1), "the marks !"},
    {"what-if line", V(VIEW_SQUEEZE), "the squeeze view's what-if line"},
    {"the chart", V(VIEW_SWEEP) | V(VIEW_SPECTRUM) | V(VIEW_HISTORY) | V(VIEW_ALG1), "a chart"},
    {"the bars", V(VIEW_SWEEP), "the sweep's spread bars"},
    {"regions", V(VIEW_PLANE), "the decision regions"},
    {"maps", V(VIEW_PLANE), "the neuron maps"},
    {"panels", V(VIEW_PLANE), "the Plane view's panels"},
    {"combination", V(VIEW_PLANE), "the combinations (≈)"},
    {"spectrum", V(VIEW_SPECTRUM), "a layer's spectrum"},
};

int lesson_caption_shown(const char *caption, const char *claims, int at, int view, Err *e)
{
	const char *vn = views_name((ViewId)view, 0);
	for (const char *c = caption; (c = strstr(c, "view ")) != NULL; c += 5) {
		int n = atoi(c + 5);
		if (n >= 1 && n <= VIEW_COUNT && n - 1 != view)
			return err_set(
			    e, "the caption before action %d names view %d over view %d (%s)",
			    at + 1, n, view + 1, vn);
	}
	for (size_t i = 0; i < sizeof named / sizeof *named; i++)
		if (strstr(caption, named[i].words) && !(named[i].views & V(view)))
			return err_set(
			    e, "the caption before action %d speaks of %s over view %d (%s)",
			    at + 1, named[i].what, view + 1, vn);
	/* a combination's closeness is a number on the screen, not a word */
	if (strstr(caption, "combination") &&
	    !(claims && (strstr(claims, "fit.") || strstr(claims, "refit."))))
		return err_set(e,
		               "the caption before action %d speaks of combinations without their "
		               "residuals (a fit.L or refit.L claim)",
		               at + 1);
	char buf[4096], *save = NULL;
	snprintf(buf, sizeof buf, "%s", claims ? claims : "");
	for (char *tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		char *eq = strchr(tok, '=');
		if (eq)
			*eq = '\0';
		if (!(key_views(tok) & V(view)))
			return err_set(e,
			               "the caption before action %d claims %s over view %d (%s), "
			               "which does not show it",
			               at + 1, tok, view + 1, vn);
	}
	return 0;
}
