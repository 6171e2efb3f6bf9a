/* tui/views_int.h - what the view files share: the body's rows, number
 * formats and one function per view. */
#ifndef CONDNET_TUI_VIEWS_INT_H
#define CONDNET_TUI_VIEWS_INT_H

#include <stddef.h>

#include "tui/views.h"

#define S(x) screen_sym(SYM_##x)

/* κ with the digits that keep its side of τ ("∞" for infinity). */
const char *views_kappa(double k, double tau, char *buf, size_t len);
/* Widths n[0..m] as "10-32×4-3" (runs of equal hidden widths folded). */
const char *views_shape(const int *n, int m, char *buf, size_t len);

/* The columns the header's state takes at the right end of its first row;
 * 1 when the header shows the data set whole (not in presentation mode,
 * nor when the screen is too narrow for it): else the views that name it
 * do. */
int views_state_width(const Shown *p, const UiState *u);
int views_data_in_header(const Shown *p, const UiState *u);
/* A training speed in words: "5 epochs/s", "full speed". */
const char *views_speed(double speed, char *buf, size_t len);

/* Each view draws rows top..bot (inclusive). */
void view_layers(const Shown *p, UiState *u, int top, int bot);
void view_alg1(const Shown *p, UiState *u, int top, int bot);
void view_sweep(const Shown *p, UiState *u, int top, int bot);
void view_squeeze(const Shown *p, UiState *u, int top, int bot);
void view_spectrum(const Shown *p, UiState *u, int top, int bot);
void view_history(const Shown *p, UiState *u, int top, int bot);
void view_plane(const Shown *p, UiState *u, int top, int bot);
void view_network(const Shown *p, UiState *u, int top, int bot);
/* A name in at most w columns: its end (what tells a graph's nodes apart)
 * after an ellipsis when it is longer; into buf. */
const char *views_fit_name(const char *name, int w, char *buf, size_t len);
/* View 8 of a graph network (p->net.graph): its nodes (view_graph.c). */
void view_graph(const Shown *p, UiState *u, int top, int bot);
/* For a graph network in a view that works layer by layer through W and b
 * (Algorithms 1 and 2, the Plane view): a note saying so in its place,
 * and 1; else 0. */
int view_graph_note(const Shown *p, const UiState *u, int top, int bot);
/* The key under view 8 on row y: shown of the weights are drawn. */
void view_network_key(const Shown *p, int y, int shown, int of);
void view_panel(const Shown *p, UiState *u, int top, int bot);
/* The Plane view of a network with convolutions (view_channels.c). */
void view_channels(const Shown *p, UiState *u, int top, int bot);

/* A log-scale plot of a decreasing profile v[0..n) (σ_j/σ₁ or |r_jj|/|r_11|)
 * in the rectangle, over total >= n points (those from n on have no value:
 * the neurons beyond a layer's rank, drawn on the bottom row), the line 1/τ
 * under the points and labelled in the margin, the values from index keep
 * on marked × in C_WARN; title above. keep is what the engine counted,
 * never counted here again: a layer's rank_svd (n − p_i) or rank_qr, or a
 * proposal's nkeep. */
void views_profile(int top, int left, int rows, int cols, const char *title, const double *v, int n,
                   int total, double tau, int keep);

/* κ of every layer per Algorithm-1 iteration (log), with the τ each
 * iteration ran with; the selected layer highlighted when there are more
 * than nine. */
void views_kappa_iterations(const Shown *p, const UiState *u, int top, int left, int rows,
                            int cols);
/* The widths n_i of every hidden layer per Algorithm-1 iteration. */
/* The fewest rows the κ chart per iteration of m layers needs in cols
 * columns (the widths' chart beside it needs no more). */
int views_iterations_rows(const UiState *u, int m, int cols);
void views_widths_iterations(const Shown *p, const UiState *u, int top, int left, int rows,
                             int cols);
/* That chart while the network is the one Algorithm 1 left (or when no
 * training was charted), else κ against the epochs of the last training:
 * the history of the network shown, not of one it replaced. */
void views_kappa_recent(const Shown *p, const UiState *u, int top, int left, int rows, int cols);

#endif
