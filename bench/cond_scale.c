/* cond_scale.c - the conditioning of one n-n-n-10 network with random
 * weights (Glorot, biases 0.01·N(0,1), seed 1), for bench/cond-scale:
 *
 *   cond_scale THREADS N REPS DIR
 *   cond_scale THREADS N REPS paths
 *
 * writes Ŵ⁽¹⁾ ((n+1)×n, float64, row-major) to DIR/w.f64 for numpy and the
 * network to DIR/m.model for the real binary, then times, best of REPS:
 *   - κ(Ŵ⁽¹⁾) on LAPACK's path (cond_kappa, THREADS OpenBLAS threads),
 *     LAPACK's dgesdd without vectors called directly on the same threads,
 *     and GSL's path (n ≤ 1024; once above 512);
 *   - Algorithm 3's proposal for layer 1 at τ = 25 (alg3_propose on the
 *     default path), once, with the κ loop's probes counted (alg3_kloop on
 *     the same triangle), and the loop one neuron at a time as condnet ran
 *     it before (GSL's path) for n ≤ 512;
 * and prints one line of key=value pairs. With "paths" instead of DIR: the
 * values and the pivoted QR of an (n+1)×n Gaussian matrix on GSL's path and
 * on LAPACK's, best of REPS, where the default path changes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alg/alg3_kloop.h"
#include "alg/alg3_squeeze.h"
#include "base/blas.h"
#include "base/rng.h"
#include "bench.h"
#include "engine/cond.h"
#include "engine/cond_matrix.h"
#include "engine/net.h"
#include "model/model_io.h"

extern void dgesdd_(const char *jobz, const int *m, const int *n, double *a, const int *lda,
                    double *s, double *u, const int *ldu, double *vt, const int *ldvt, double *work,
                    const int *lwork, int *iwork, int *info, size_t jobz_len);

static void die(const char *what, const Err *e)
{
	fprintf(stderr, "cond_scale: %s: %s\n", what, e ? e->msg : "out of memory");
	exit(1);
}

/* dgesdd('N') of the row-major rows×cols A (read as its transpose, the same
 * σ's), on `threads` OpenBLAS threads; seconds, κ into *k. */
static double time_dgesdd(const double *A, int rows, int cols, int threads, double *k)
{
	int m = cols, n = rows, lwork = -1, info = 0, mn = m < n ? m : n;
	double q, *B = malloc(sizeof *B * (size_t)m * n), *s = malloc(sizeof *s * (size_t)mn);
	int *iw = malloc(sizeof *iw * 8 * (size_t)mn);
	dgesdd_("N", &m, &n, B, &m, s, NULL, &m, NULL, &n, &q, &lwork, iw, &info, 1);
	lwork = (int)q;
	double *w = malloc(sizeof *w * (size_t)lwork);
	if (!B || !s || !iw || !w)
		die("dgesdd", NULL);
	memcpy(B, A, sizeof *B * (size_t)m * n);
	blas_set_threads(threads);
	double t0 = now();
	dgesdd_("N", &m, &n, B, &m, s, NULL, &m, NULL, &n, w, &lwork, iw, &info, 1);
	double t = now() - t0;
	blas_set_threads(1);
	if (info)
		die("dgesdd did not converge", NULL);
	*k = s[0] / s[mn - 1];
	free(B);
	free(s);
	free(iw);
	free(w);
	return t;
}

static double time_kappa(const double *A, int rows, int cols, CondPath path, double *k)
{
	Err e;
	cond_set_path(path);
	double t0 = now();
	int rc = cond_kappa(A, rows, cols, k, &e);
	double t = now() - t0;
	cond_set_path(COND_PATH_AUTO);
	if (rc)
		die("kappa", &e);
	return t;
}

/* The κ loop one neuron at a time, on GSL's path: seconds, and its answer. */
static double time_old_loop(const Net *net, const Alg3Proposal *sp, int *nkeep)
{
	Err e;
	cond_set_path(COND_PATH_GSL);
	double t0 = now();
	int p = sp->p_qr;
	double k;
	int rc = cond_kappa_columns(net, 1, sp->perm, p, &k, &e);
	while (rc == 0 && p > 1 && cond_over(k, 25))
		rc = cond_kappa_columns(net, 1, sp->perm, --p, &k, &e);
	double t = now() - t0;
	cond_set_path(COND_PATH_AUTO);
	if (rc)
		die("the loop", &e);
	*nkeep = p;
	return t;
}

/* The two paths on one (n+1)×n Gaussian matrix, best of reps: seconds of
 * the values and of the pivoted QR on GSL's and on LAPACK's. */
static void paths(int n, int reps)
{
	Rng r;
	rng_seed(&r, 2);
	int rows = n + 1;
	double *A = malloc(sizeof *A * (size_t)rows * n), *sv = malloc(sizeof *sv * (size_t)n);
	double *rd = malloc(sizeof *rd * (size_t)n);
	int *perm = malloc(sizeof *perm * (size_t)n);
	if (!A || !sv || !rd || !perm)
		die("paths", NULL);
	for (long i = 0; i < (long)rows * n; i++)
		A[i] = rng_normal(&r);
	double t[2][2] = {{1e30, 1e30}, {1e30, 1e30}};
	Err e;
	for (int k = 0; k < reps; k++)
		for (int p = 0; p < 2; p++) {
			cond_set_path(p ? COND_PATH_LAPACK : COND_PATH_GSL);
			double t0 = now();
			if (cond_singular_values(A, rows, n, sv, &e))
				die("values", &e);
			double t1 = now();
			if (cond_qrpt(A, rows, n, perm, rd, &e))
				die("qr", &e);
			t[p][0] = fmin(t[p][0], t1 - t0);
			t[p][1] = fmin(t[p][1], now() - t1);
		}
	cond_set_path(COND_PATH_AUTO);
	printf("n=%d values_gsl_s=%.5f values_lapack_s=%.5f qr_gsl_s=%.5f qr_lapack_s=%.5f\n", n,
	       t[0][0], t[1][0], t[0][1], t[1][1]);
	free(A);
	free(sv);
	free(rd);
	free(perm);
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[4], "paths")) {
		cond_set_threads(atoi(argv[1]));
		paths(atoi(argv[2]), atoi(argv[3]));
		return 0;
	}
	if (argc != 5) {
		fprintf(stderr, "usage: cond_scale THREADS N REPS DIR|paths\n");
		return 2;
	}
	int threads = atoi(argv[1]), n = atoi(argv[2]), reps = atoi(argv[3]);
	const char *dir = argv[4];
	if (threads < 1 || n < 2 || reps < 1)
		return 2;
	cond_set_threads(threads);
	int w[4] = {n, n, n, 10};
	Err e;
	Net *net = net_new(3, w, ACT_ERF, 1.0f, &e);
	if (!net)
		die("net", &e);
	Rng r;
	rng_seed(&r, 1);
	net_init_glorot(net, &r);
	for (int l = 0; l < 3; l++)
		for (int i = 0; i < w[l + 1]; i++)
			net->b[l][i] = (float)(0.01 * rng_normal(&r));
	char path[4096];
	snprintf(path, sizeof path, "%s/m.model", dir);
	if (model_save(net, path, &e))
		die("model", &e);
	int rows, cols;
	double *A = cond_stacked(net, 1, NULL, 0, &rows, &cols, &e);
	snprintf(path, sizeof path, "%s/w.f64", dir);
	FILE *f = fopen(path, "wb");
	if (!A || !f || fwrite(A, sizeof *A, (size_t)rows * cols, f) != (size_t)rows * cols ||
	    fclose(f))
		die(path, NULL);

	double tl = 1e30, td = 1e30, tg = NAN, kl = 0, kd = 0, kg = NAN;
	for (int i = 0; i < reps; i++) {
		tl = fmin(tl, time_kappa(A, rows, cols, COND_PATH_LAPACK, &kl));
		td = fmin(td, time_dgesdd(A, rows, cols, threads, &kd));
	}
	if (n <= 1024) {
		tg = 1e30;
		for (int i = 0; i < (n <= 512 ? reps : 1); i++)
			tg = fmin(tg, time_kappa(A, rows, cols, COND_PATH_GSL, &kg));
	}
	printf("n=%d kappa_lapack_s=%.4f kappa_dgesdd_s=%.4f kappa_gsl_s=%.4f kappa=%.10g "
	       "kappa_rel_dgesdd=%.2e kappa_rel_gsl=%.2e",
	       n, tl, td, tg, kl, fabs(kl - kd) / kd, fabs(kl - kg) / kg);
	fflush(stdout);

	Alg3Opts o;
	alg3_opts_default(&o);
	Alg3Proposal sp;
	double t0 = now();
	if (alg3_propose(net, 1, &o, &sp, &e))
		die("propose", &e);
	double tp = now() - t0;
	/* the probes of that κ loop, counted on the same triangle */
	int k = sp.nrdiag;
	double *R = malloc(sizeof *R * (size_t)k * k), *rd = malloc(sizeof *rd * (size_t)k);
	int *perm = malloc(sizeof *perm * (size_t)cols);
	if (!R || !rd || !perm || cond_qrpt_r(A, rows, cols, perm, rd, R, &e))
		die("qrpt", &e);
	double s1 = 0, k1;
	if (cond_kappa_s1(A, rows, cols, &k1, &s1, &e))
		die("kappa", &e);
	KLoopLayer in = {net, 1, perm, R, k, sp.p_qr, o.tau, s1};
	KLoopResult res;
	t0 = now();
	if (alg3_kloop(&in, 1, &res, &e))
		die("kloop", &e);
	double tk = now() - t0;
	printf(" propose_s=%.3f kloop_s=%.3f p_qr=%d nkeep=%d blocks=%d columns=%d guided=%d", tp,
	       tk, sp.p_qr, sp.nkeep, res.evals_tri, res.evals_cols, res.guided);
	if (res.nkeep != sp.nkeep)
		die("the two κ loops disagree", NULL);
	if (n <= 512) {
		int old;
		double to = time_old_loop(net, &sp, &old);
		printf(" old_loop_s=%.3f old_nkeep=%d", to, old);
	}
	printf("\n");
	alg3_proposal_free(&sp);
	free(R);
	free(rd);
	free(perm);
	free(A);
	net_free(net);
	return 0;
}
