/* tui/explain.h - the words the screen explains itself with: what every
 * number and mark means (the explain panel, x or the second page of ?) and
 * what every key does (the first page of ?). The manual page (man/condnet.1,
 * "Terms on the screen") holds the same definitions, spelled in ASCII as the
 * screen's --ascii mode spells them; tests/tui.sh checks that it does. */
#ifndef CONDNET_TUI_EXPLAIN_H
#define CONDNET_TUI_EXPLAIN_H

typedef struct Explain {
	const char *term;
	const char *text;
} Explain;

extern const Explain explain_terms[];
extern const int explain_nterms;
extern const Explain explain_keys[];
extern const int explain_nkeys;

#endif
