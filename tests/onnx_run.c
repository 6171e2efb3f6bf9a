/* onnx_run.c - condnet's outputs for given inputs, for the ONNX check
 * scripts (tests/onnx_cv2.sh, tests/onnx_tally.sh):
 *
 *   onnx_run MODEL X.npy OUT.npy    MODEL a condnet model (softmax outputs) or
 *                                   an .onnx file (the outputs its graph
 *                                   computes); X rows × inputs; OUT float32
 *   onnx_run --check MODEL.onnx DIR the input_0.pb of every test data set
 *                                   in DIR (test_data_set_N) run through
 *                                   the import and compared with its
 *                                   output_0.pb: prints the largest
 *                                   difference; exit 0 when every value is
 *                                   within 1e-5 (relative above 1), 1 when
 *                                   not, 2 when the import is refused */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/npy.h"
#include "model/model_io.h"
#include "model/onnx_io.h"

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

static int run(const char *model, const char *xpath, const char *opath)
{
	Err e = {{0}};
	OnnxInfo info = {.softmax = 1};
	Net *net = ends_with(model, ".onnx") ? onnx_import_any(model, &info, &e)
	                                     : model_load_any(model, &e);
	double *x = NULL;
	int nd;
	long shape[2];
	if (!net || npy_read(xpath, &x, &nd, shape, &e)) {
		fprintf(stderr, "onnx_run: %s\n", e.msg);
		net_free(net);
		return 1;
	}
	long rows = nd == 2 ? shape[0] : 1, cols = nd == 2 ? shape[1] : shape[0];
	if (cols != net->n[0]) {
		fprintf(stderr, "onnx_run: %s: %ld columns, the network has %d inputs\n", xpath,
		        cols, net->n[0]);
		return 1;
	}
	float *xf = malloc((size_t)(rows * cols + 1) * sizeof *xf);
	float *out = malloc((size_t)(rows * net->n[net->m] + 1) * sizeof *out);
	for (long i = 0; i < rows * cols; i++)
		xf[i] = (float)x[i];
	int rc = onnx_forward(net, info.softmax, xf, (int)rows, out, &e) ||
	         npy_write_f32(opath, out, rows, net->n[net->m], &e);
	if (rc)
		fprintf(stderr, "onnx_run: %s\n", e.msg);
	free(x);
	free(xf);
	free(out);
	net_free(net);
	return rc;
}

/* One test data set: the largest difference from output_0.pb, or -1. */
static double check_set(const Net *net, const OnnxInfo *info, const char *dir)
{
	char in[4096], outp[4096];
	snprintf(in, sizeof in, "%s/input_0.pb", dir);
	snprintf(outp, sizeof outp, "%s/output_0.pb", dir);
	Err e = {{0}};
	float *x = NULL, *want = NULL;
	int nx, nw;
	long long dx[8], dw[8];
	if (onnx_read_tensor(in, &x, &nx, dx, &e) || onnx_read_tensor(outp, &want, &nw, dw, &e)) {
		fprintf(stderr, "onnx_run: %s\n", e.msg);
		free(x);
		return -1;
	}
	long long rows = nx ? dx[0] : 1, cols = 1, wn = 1;
	for (int i = 1; i < nx; i++)
		cols *= dx[i];
	for (int i = 0; i < nw; i++)
		wn *= dw[i];
	double worst = -1;
	float *got = NULL;
	if (cols != net->n[0] || wn != rows * net->n[net->m])
		fprintf(stderr,
		        "onnx_run: %s: %lld×%lld inputs and %lld outputs do not fit %d-...-%d\n",
		        dir, rows, cols, wn, net->n[0], net->n[net->m]);
	else if (!(got = malloc((size_t)wn * sizeof *got)) ||
	         onnx_forward(net, info->softmax, x, (int)rows, got, &e))
		fprintf(stderr, "onnx_run: %s: %s\n", dir, e.msg);
	else
		for (long long i = 0; i < wn; i++) {
			double d = fabs((double)got[i] - want[i]) / fmax(1.0, fabs(want[i]));
			worst = fmax(worst, d);
		}
	free(x);
	free(want);
	free(got);
	return worst;
}

static int check(const char *model, const char *dir)
{
	Err e = {{0}};
	OnnxInfo info;
	Net *net = onnx_import_any(model, &info, &e);
	if (!net) {
		printf("refused: %s\n", e.msg);
		return 2;
	}
	char pat[4096];
	snprintf(pat, sizeof pat, "%s/test_data_set_*", dir);
	glob_t g;
	int rc = 0;
	double worst = 0;
	if (glob(pat, 0, NULL, &g) || g.gl_pathc == 0) {
		printf("no test data sets in %s\n", dir);
		net_free(net);
		return 1;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		double d = check_set(net, &info, g.gl_pathv[i]);
		if (d < 0 || d > 1e-5)
			rc = 1;
		worst = d < 0 ? INFINITY : fmax(worst, d);
	}
	printf("%s: %zu data set%s, largest difference %.3g\n", rc ? "differs" : "reproduced",
	       g.gl_pathc, g.gl_pathc > 1 ? "s" : "", worst);
	globfree(&g);
	net_free(net);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--check"))
		return check(argv[2], argv[3]);
	if (argc == 4)
		return run(argv[1], argv[2], argv[3]);
	fprintf(stderr, "usage: onnx_run MODEL X.npy OUT.npy | onnx_run --check MODEL.onnx DIR\n");
	return 2;
}
