/* cond.h - conditioning of the stacked weight matrices, per layer or for
 * the whole network on threads (the decompositions themselves, through GSL
 * or LAPACK, are engine/cond_matrix.h's).
 *
 * For hidden or output layer i (1..m), Ŵ⁽ⁱ⁾ is W⁽ⁱ⁾ with the row b⁽ⁱ⁾
 * appended: (n[i-1]+1) × n[i], one column per neuron, in double precision;
 * for a convolution layer (C_in·K·K + 1) × C_out, one column per output
 * channel (engine/layers.h), and everything below holds with channels in
 * the place of neurons.
 * κ(Ŵ) = σ₁/σ_r over its r = min(rows, cols) singular values; p(τ) is the
 * number of those below σ₁/τ (Algorithm 1, line 4). Column-pivoted QR,
 * Ŵ P = Q R, orders the neurons from most to least independent; the profile
 * |r_jj|/|r_11| is non-increasing and its count ≥ 1/τ is the QR rank estimate
 * (Algorithm 3, line 4, with the threshold relative to |r_11|).
 *
 * A graph network's layers are its Conv and Gemm nodes (engine/graph.h),
 * layer l the l-th of them in the graph's order: Ŵ = [W; bᵀ] with W as the
 * graph holds it, ((C_in/g)·kh·kw) × C_out for a Conv (a column per output
 * channel; a depthwise one reads kh·kw values of one channel) and inputs ×
 * outputs for a Gemm. cond_layers says how many; everything below takes
 * them as a chain's layers but the functions of single columns, which the
 * algorithms use (they refuse a graph). */
#ifndef CONDNET_COND_H
#define CONDNET_COND_H

#include "base/err.h"
#include "engine/net.h"

/* The threshold τ on κ(Ŵ⁽ⁱ⁾) that Algorithms 1 and 3 start from when no
 * other is given (the paper's MNIST value): alg1_opts_default,
 * alg3_opts_default and the session take it from here. */
#define COND_TAU_DEFAULT 25.0

/* The rule of line 2 of Algorithms 1 and 3: 1 when κ > τ (the layer is
 * ill-conditioned at τ), else 0; a NaN κ (an all-zero Ŵ has no meaningful
 * ratio) is not over. Every test of κ against τ asks it. */
int cond_over(double kappa, double tau);
/* The τ the conditioning counts p and the QR rank at, and Algorithm 3
 * squeezes at: finite and ≥ 1. 0, or -1 and "τ = T, expected a finite
 * number ≥ 1". (Algorithm 1 asks more: alg1_check_tau.) */
int cond_check_tau(double tau, Err *e);

typedef struct LayerCond {
	int layer;      /* 1..m */
	int rows, cols; /* n[i-1]+1, n[i] */
	int nsv;        /* min(rows, cols) */
	double *sv;     /* nsv singular values, descending */
	double kappa;   /* sv[0]/sv[nsv-1]; INFINITY when the last is 0 */
	double tau;     /* the τ that p and rank_qr refer to */
	int p;          /* singular values below sv[0]/tau */
	int rank_svd;   /* nsv - p */
	int *perm;      /* cols entries: neuron indices in pivot order */
	double *rdiag;  /* nsv entries: |r_jj|/|r_11| in pivot order */
	int rank_qr;    /* entries of rdiag >= 1/tau */
	int conv;       /* 1: a convolution layer, whose columns are its output channels */
	int node;       /* a graph network's layer: its node (engine/graph.h); else 0 */
} LayerCond;

/* The layers the conditioning sees: m for a chain, the Conv and Gemm nodes
 * of a graph network. */
int cond_layers(const Net *net);

/* Ŵ⁽ˡᵃʸᵉʳ⁾ as a malloc'd rows×cols row-major double matrix. If cols_sel is
 * not NULL, only those ncols columns, in that order. NULL with a message for
 * a layer or column that does not exist, or no memory. */
double *cond_stacked(const Net *net, int layer, const int *cols_sel, int ncols, int *rows,
                     int *cols, Err *e);

/* Fills lc for one layer (allocating sv, perm, rdiag): 0; 1 when its
 * decomposition was stopped (cond_matrix.h: the calling thread's stop or a
 * stop signal; lc left empty; "layer L: Ŵ: stopped during …"), -1 with a
 * message. */
int cond_layer(const Net *net, int layer, double tau, LayerCond *lc, Err *e);
/* All m layers into lc[0..m): 0; 1 when the calling thread's stop said
 * stop (hook_set_thread_stop; e says before which layer, or in which
 * layer's decomposition), -1 on failure; every entry is then left empty. */
int cond_net(const Net *net, double tau, LayerCond *lc, Err *e);
/* Recomputes p, rank_svd and rank_qr for another τ without decomposing again. */
void cond_set_tau(LayerCond *lc, double tau);

/* κ, the singular values, p and rank_svd only: no pivoted QR, so perm and
 * rdiag are NULL and rank_qr is -1 (cond_set_tau keeps it so). The values
 * are the ones cond_layer computes, bit for bit. About half the work of
 * cond_layer; for callers that need κ and p but not the neuron order. */
int cond_layer_values(const Net *net, int layer, double tau, LayerCond *lc, Err *e);
/* cond_net without the pivoted QR (see cond_layer_values). Both ask the
 * calling thread's stop (hook_set_thread_stop) before each layer, and
 * return 1 with "stopped before layer L" when it says stop; a layer's
 * decomposition asks it too (1, as cond_layer says).
 * Both report to the calling thread's meter (hook_set_thread_meter) the
 * share of the whole done, layers weighted by their work, from the threads
 * that decompose. */
int cond_net_values(const Net *net, double tau, LayerCond *lc, Err *e);
/* Threads cond_net and cond_net_values decompose layers on (one layer per
 * thread at a time, each with OpenBLAS on one thread; the results do not
 * depend on the count), and the OpenBLAS threads LAPACK's path decomposes a
 * single large matrix on (cond_layer, a squeeze's proposal; there the last
 * digits may depend on the count). 0, the default, means the number of
 * online CPUs. While cond_net runs, OpenBLAS is set to one thread and then
 * restored (blas_set_threads), so neither should run beside training in
 * another thread. */
void cond_set_threads(int n);
void cond_layer_free(LayerCond *lc); /* frees the arrays, not lc */
/* The conditioning of every layer of net at τ in a new array of net->m
 * entries into *lc: cond_net, or cond_net_values when with_qr is 0. 0; 1
 * when stopped, -1 with a message (*lc NULL both). Free it with
 * cond_net_free. */
int cond_net_new(const Net *net, double tau, int with_qr, LayerCond **lc, Err *e);
/* Frees the m entries of lc and lc itself (NULL accepted). */
void cond_net_free(LayerCond *lc, int m);
/* The largest κ of lc[0..m), 0 for m = 0; ∞ when some κ is ∞ or NaN (an
 * all-zero Ŵ has no meaningful ratio: it counts as singular). */
double cond_max_kappa(const LayerCond *lc, int m);
/* κ as text with 4 significant digits, or up to 6 where 4 would put it on
 * the wrong side of τ or on τ itself (κ = 25.0004 > τ = 25 reads 25.0004,
 * not 25); where 6 are not enough either, the 6-digit number next to τ on
 * κ's side (κ = 25.0000001 reads 25.0001), so that κ > τ never reads as τ
 * and no digit shows that differs between machines. "inf" for ∞. tau <= 0:
 * 4 digits. Returns buf. */
const char *cond_kappa_str(double kappa, double tau, char *buf, size_t len);

/* κ of Ŵ⁽ˡᵃʸᵉʳ⁾ restricted to the given columns into *kappa: 0, or -1 with
 * a message, or 1 when its decomposition was stopped (*kappa NaN both). */
int cond_kappa_columns(const Net *net, int layer, const int *cols_sel, int ncols, double *kappa,
                       Err *e);
/* cond_kappa_columns, and their σ₁ into *s1 (may be NULL). */
int cond_kappa_columns_s1(const Net *net, int layer, const int *cols_sel, int ncols, double *kappa,
                          double *s1, Err *e);

#endif
