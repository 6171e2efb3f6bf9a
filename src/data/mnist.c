/* mnist.c - MNIST and Fashion-MNIST as Haar-wavelet features (or raw pixels),
 * with a checksummed cache of the features beside the idx files (its file:
 * mnist_cache.c). */
#include "data/mnist.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "base/blas.h"
#include "base/file.h"
#include "data/haar.h"
#include "data/idx.h"

/* Images per blas_dsyrk_t call when forming the Gram matrix. */
#define GRAM_ROWS 4096

static const char *const FILES[4] = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                                     "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};

/* The four raw input sets. */
typedef struct Raw {
	uint8_t *px[2]; /* train, test: n*rows*cols bytes */
	int *y[2];
	int n[2];
	int rows, cols;
} Raw;

static void raw_free(Raw *r)
{
	for (int s = 0; s < 2; s++) {
		free(r->px[s]);
		free(r->y[s]);
	}
}

/* dir/name if it is a regular file, else dir/name.gz, into path (a
 * PATH_MAX-ish buffer); something else there (a directory) is named. */
static int find_file(const char *dir, const char *name, char *path, size_t len, Err *e)
{
	struct stat st;
	for (int gz = 0; gz < 2; gz++) {
		snprintf(path, len, gz ? "%s/%s.gz" : "%s/%s", dir, name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return 0;
	}
	for (int gz = 0; gz < 2; gz++) {
		snprintf(path, len, gz ? "%s/%s.gz" : "%s/%s", dir, name);
		if (stat(path, &st) == 0)
			return err_set(e, "%s: %s, expected an idx file", path,
			               file_kind(st.st_mode));
	}
	return err_set(e, "%s/%s: not found (nor %s.gz), expected an idx file", dir, name, name);
}

static int load_raw(const char *dir, Raw *r, Err *e)
{
	char path[4096];
	memset(r, 0, sizeof *r);
	for (int s = 0; s < 2; s++) {
		int rows, cols, ny;
		if (find_file(dir, FILES[2 * s], path, sizeof path, e) ||
		    idx_load_images(path, &r->px[s], &r->n[s], &rows, &cols, e))
			goto fail;
		if (find_file(dir, FILES[2 * s + 1], path, sizeof path, e) ||
		    idx_load_labels(path, &r->y[s], &ny, MNIST_CLASSES, e))
			goto fail;
		if (ny != r->n[s]) {
			err_set(e, "%s: %d labels for %d images, expected equal counts", path, ny,
			        r->n[s]);
			goto fail;
		}
		if (r->n[s] < 1 || rows < 1 || cols < 1) {
			err_set(e, "%s/%s: no images (%d of %d×%d)", dir, FILES[2 * s], r->n[s],
			        rows, cols);
			goto fail;
		}
		if (s == 1 && (rows != r->rows || cols != r->cols)) {
			err_set(e, "%s/%s: images are %d×%d, expected %d×%d as in the training set",
			        dir, FILES[2], rows, cols, r->rows, r->cols);
			goto fail;
		}
		r->rows = rows;
		r->cols = cols;
	}
	return 0;
fail:
	raw_free(r);
	return -1;
}

/* CRC-32 of the contents of the four input files, in order; the cache key. */
static int inputs_crc(const char *dir, uint32_t *crc, Err *e)
{
	char path[4096];
	unsigned char *buf = malloc(1 << 20);
	if (!buf)
		return err_set(e, "%s: out of memory for the input checksum", dir);
	uLong c = crc32(0L, Z_NULL, 0);
	for (int i = 0; i < 4; i++) {
		if (find_file(dir, FILES[i], path, sizeof path, e))
			goto fail;
		FILE *f = file_open_regular(path, "rb", NULL, e);
		if (!f)
			goto fail;
		size_t got;
		while ((got = fread(buf, 1, 1 << 20, f)) > 0)
			c = crc32(c, buf, (uInt)got);
		int bad = ferror(f);
		fclose(f);
		if (bad) {
			err_set(e, "%s: read error", path);
			goto fail;
		}
	}
	free(buf);
	*crc = (uint32_t)c;
	return 0;
fail:
	free(buf);
	return -1;
}

/*
 * Feature selection as in the paper's MNIST experiment (the 200 "most
 * significant wavelets ... chosen by rank-revealing QR decomposition of the
 * matrix formed from the wavelet coefficients of all images in the training
 * set"). Each image is padded to n×n (n = 32 for 28×28) and Haar-transformed;
 * A (ntrain × n²) is never stored: its Gram matrix G = AᵀA is accumulated over
 * blocks of GRAM_ROWS images, G += A_blockᵀ A_block, and haar_select_gram()
 * pivots on G.
 */
static int choose_qr(const Raw *r, int n, int k, double *blk, int *idx, const char *name, Err *e)
{
	int nn = n * n;
	long plen = (long)r->rows * r->cols;
	double *G = calloc((size_t)nn * nn, sizeof *G);
	if (!G)
		return err_set(e, "%s: out of memory for the %d×%d Gram matrix", name, nn, nn);
	for (int i0 = 0; i0 < r->n[0]; i0 += GRAM_ROWS) {
		int nb = r->n[0] - i0 < GRAM_ROWS ? r->n[0] - i0 : GRAM_ROWS;
		for (int i = 0; i < nb; i++)
			if (haar_image(r->px[0] + (i0 + i) * plen, r->rows, r->cols, n,
			               blk + (long)i * nn, e)) {
				free(G);
				return err_prefix(e, "%s", name);
			}
		blas_dsyrk_t(nn, nb, 1.0, blk, nn, 1.0, G, nn);
	}
	int rc = haar_select_gram(G, nn, k, idx, e);
	free(G);
	return rc ? err_prefix(e, "%s", name) : 0;
}

/* The variance of every coefficient over the training images (Welford's
 * update, in double), then the k largest. */
static int choose_variance(const Raw *r, int n, int k, double *blk, int *idx, const char *name,
                           Err *e)
{
	int nn = n * n;
	long plen = (long)r->rows * r->cols;
	double *mean = calloc((size_t)nn, sizeof *mean), *m2 = calloc((size_t)nn, sizeof *m2);
	int rc = -1;
	if (!mean || !m2) {
		err_set(e, "%s: out of memory for %d variances", name, nn);
		goto done;
	}
	for (int i = 0; i < r->n[0]; i++) {
		if (haar_image(r->px[0] + i * plen, r->rows, r->cols, n, blk, e)) {
			err_prefix(e, "%s", name);
			goto done;
		}
		for (int j = 0; j < nn; j++) {
			double d = blk[j] - mean[j];
			mean[j] += d / (i + 1);
			m2[j] += d * (blk[j] - mean[j]);
		}
	}
	for (int j = 0; j < nn; j++)
		m2[j] /= r->n[0];
	rc = haar_select_variance(m2, nn, k, idx, e) ? err_prefix(e, "%s", name) : 0;
done:
	free(mean);
	free(m2);
	return rc;
}

/* The k coefficients of the kind, in the order the features take them. */
static int choose(const Raw *r, int n, int k, MnistInputs kind, double *blk, int *idx,
                  const char *name, Err *e)
{
	switch (kind) {
	case MNIST_VARIANCE:
		return choose_variance(r, n, k, blk, idx, name, e);
	case MNIST_COARSE: {
		int *order = malloc((size_t)n * n * sizeof *order);
		if (!order)
			return err_set(e, "%s: out of memory for %d indices", name, n * n);
		haar_coarse_order(n, order);
		memcpy(idx, order, (size_t)k * sizeof *idx);
		free(order);
		return 0;
	}
	case MNIST_ALL:
		for (int j = 0; j < k; j++)
			idx[j] = j;
		return 0;
	case MNIST_QR:
	default:
		return choose_qr(r, n, k, blk, idx, name, e);
	}
}

/* The k coefficients idx of every image of both sets: each transform
 * (cheap: O(n²) per image) keeps the chosen coefficients only. blk holds one
 * n×n transform. */
static int coefficients(const Raw *r, int n, const int *idx, int k, double *blk, const char *name,
                        Dataset *ds[2], Err *e)
{
	long plen = (long)r->rows * r->cols;
	for (int s = 0; s < 2; s++) {
		ds[s] = dataset_new(r->n[s], k, MNIST_CLASSES, e);
		if (!ds[s])
			return err_set(e, "%s: out of memory for %d×%d features", name, r->n[s], k);
		snprintf(ds[s]->name, sizeof ds[s]->name, "%s-haar%d %s", name, k,
		         s ? "test" : "train");
		for (int i = 0; i < r->n[s]; i++) {
			if (haar_image(r->px[s] + i * plen, r->rows, r->cols, n, blk, e))
				return err_prefix(e, "%s", name);
			float *x = ds[s]->x + (long)i * k;
			for (int j = 0; j < k; j++)
				x[j] = (float)blk[idx[j]];
			ds[s]->y[i] = r->y[s][i];
		}
	}
	return 0;
}

/*
 * The chosen coefficients of every image: a second pass recomputes each
 * transform and keeps the chosen coefficients only, so the peak memory is
 * the bytes of the images, one block (GRAM_ROWS × n² doubles), the Gram
 * matrix of the QR choice and the result.
 */
static int build(const Raw *r, int n, int k, MnistInputs kind, const char *name, Dataset **train,
                 Dataset **test, int **idx_out, Err *e)
{
	int nn = n * n;
	double *blk = malloc((size_t)GRAM_ROWS * nn * sizeof *blk);
	int *idx = malloc((size_t)k * sizeof *idx);
	Dataset *ds[2] = {NULL, NULL};
	if (!blk || !idx) {
		err_set(e, "%s: out of memory for the Haar transforms of %d images", name,
		        GRAM_ROWS);
		goto fail;
	}
	if (choose(r, n, k, kind, blk, idx, name, e) ||
	    coefficients(r, n, idx, k, blk, name, ds, e))
		goto fail;
	free(blk);
	*train = ds[0];
	*test = ds[1];
	*idx_out = idx;
	return 0;
fail:
	free(blk);
	free(idx);
	dataset_free(ds[0]);
	dataset_free(ds[1]);
	return -1;
}

static const char *const INPUTS[] = {"qr", "variance", "coarse", "all", "pixels"};

const char *mnist_inputs_name(MnistInputs kind)
{
	return kind >= MNIST_QR && kind <= MNIST_PIXELS ? INPUTS[kind] : "?";
}

int mnist_inputs_parse(const char *s)
{
	for (int i = MNIST_QR; i <= MNIST_PIXELS; i++)
		if (!strcmp(s, INPUTS[i]))
			return i;
	return -1;
}

/* "mnist-haar200", "mnist-haar200-variance", "mnist-haar200-coarse",
 * "mnist-haar-all", "mnist-pixels": the data sets' names and the caches'. */
static void inputs_label(char *buf, size_t len, const char *name, MnistInputs kind, int k)
{
	if (kind == MNIST_ALL || kind == MNIST_PIXELS)
		snprintf(buf, len, "%s-%s", name, kind == MNIST_ALL ? "haar-all" : "pixels");
	else if (kind == MNIST_QR)
		snprintf(buf, len, "%s-haar%d", name, k);
	else
		snprintf(buf, len, "%s-haar%d-%s", name, k, INPUTS[kind]);
}

static void name_sets(Dataset *train, Dataset *test, const char *name, MnistInputs kind, int k)
{
	char label[160];
	inputs_label(label, sizeof label, name, kind, k);
	snprintf(train->name, sizeof train->name, "%.100s train", label);
	snprintf(test->name, sizeof test->name, "%.100s test", label);
}

int mnist_load(const char *dir, const char *name, int features, Dataset **train, Dataset **test,
               int **idx_out, Err *e)
{
	return mnist_load_inputs(dir, name, MNIST_QR, features, train, test, idx_out, e);
}

int mnist_load_inputs(const char *dir, const char *name, MnistInputs kind, int features,
                      Dataset **train, Dataset **test, int **idx_out, Err *e)
{
	Raw r;
	uint32_t key = 0;
	char path[4096], label[160];
	int *idx = NULL;
	*train = *test = NULL;
	if (idx_out)
		*idx_out = NULL;
	/* Images up to 32×32 (MNIST's 28×28) are padded to 32×32: 1024 coefficients. */
	int n = 32;
	if (kind < MNIST_QR || kind > MNIST_PIXELS)
		return err_set(e, "%s: inputs of kind %d asked for, expected 0 to %d", name, kind,
		               MNIST_PIXELS);
	if (kind == MNIST_PIXELS) {
		if (mnist_load_pixels(dir, train, test, e))
			return err_prefix(e, "%s", name);
		name_sets(*train, *test, name, kind, 0);
		return 0;
	}
	if (kind == MNIST_ALL)
		features = n * n;
	if (features < 1 || features > n * n)
		return err_set(e, "%s: %d wavelet features asked for, expected 1 to %d", name,
		               features, n * n);
	if (inputs_crc(dir, &key, e))
		return err_prefix(e, "%s", name);
	/* the key of a choice other than the paper's also covers its name, so a
	 * cache of one choice is never read as another's */
	if (kind != MNIST_QR)
		key = (uint32_t)crc32(key, (const Bytef *)INPUTS[kind], (uInt)strlen(INPUTS[kind]));
	inputs_label(label, sizeof label, name, kind, features);
	snprintf(path, sizeof path, "%s/%s.cache", dir, label);
	/* a cache that is missing, stale, damaged or holds a bad value is built
	 * again and replaced */
	Err ignored;
	if (mnist_cache_read(path, features, n, key, name, train, test, &idx, &ignored) == 0)
		goto done;
	if (load_raw(dir, &r, e))
		return err_prefix(e, "%s", name);
	if (r.rows > n || r.cols > n) {
		err_set(e, "%s/%s: images are %d×%d, expected at most %d×%d", dir, FILES[0], r.rows,
		        r.cols, n, n);
		raw_free(&r);
		return -1;
	}
	int rc = build(&r, n, features, kind, name, train, test, &idx, e);
	raw_free(&r);
	if (rc)
		return -1;
	mnist_cache_write(path, n, key, *train, *test, idx);
done:
	if (idx_out)
		*idx_out = idx;
	else
		free(idx);
	name_sets(*train, *test, name, kind, features);
	return 0;
}

int mnist_load_coeffs(const char *dir, const char *name, const int *idx, int k, Dataset **train,
                      Dataset **test, Err *e)
{
	Raw r;
	Dataset *ds[2] = {NULL, NULL};
	int n = 32; /* as mnist_load_inputs: every image padded to 32×32 */
	*train = *test = NULL;
	if (k < 1 || k > n * n)
		return err_set(e, "%s: %d wavelet features asked for, expected 1 to %d", name, k,
		               n * n);
	for (int j = 0; j < k; j++)
		if (idx[j] < 0 || idx[j] >= n * n)
			return err_set(
			    e,
			    "%s: Haar coefficient %d asked for as feature %d, expected 0 to "
			    "%d",
			    name, idx[j], j, n * n - 1);
	if (load_raw(dir, &r, e))
		return err_prefix(e, "%s", name);
	double *blk = NULL;
	int rc = -1;
	if (r.rows > n || r.cols > n)
		err_set(e, "%s/%s: images are %d×%d, expected at most %d×%d", dir, FILES[0], r.rows,
		        r.cols, n, n);
	else if (!(blk = malloc((size_t)n * n * sizeof *blk)))
		err_set(e, "%s: out of memory for a Haar transform", name);
	else
		rc = coefficients(&r, n, idx, k, blk, name, ds, e);
	free(blk);
	raw_free(&r);
	if (rc) {
		dataset_free(ds[0]);
		dataset_free(ds[1]);
		return -1;
	}
	char label[160];
	snprintf(label, sizeof label, "%s-haar%d-recorded", name, k);
	snprintf(ds[0]->name, sizeof ds[0]->name, "%.100s train", label);
	snprintf(ds[1]->name, sizeof ds[1]->name, "%.100s test", label);
	*train = ds[0];
	*test = ds[1];
	return 0;
}

int mnist_image_shape(const char *dir, int *rows, int *cols, Err *e)
{
	char path[4096];
	int n;
	if (find_file(dir, FILES[0], path, sizeof path, e) ||
	    idx_image_shape(path, &n, rows, cols, e))
		return -1;
	return 0;
}

/* The last component of dir, for data set names ("fashion-pixels train"). */
static const char *base_name(const char *dir)
{
	const char *end = dir + strlen(dir);
	while (end > dir && end[-1] == '/')
		end--;
	const char *b = end;
	while (b > dir && b[-1] != '/')
		b--;
	return b;
}

int mnist_load_pixels(const char *dir, Dataset **train, Dataset **test, Err *e)
{
	Raw r;
	Dataset *ds[2] = {NULL, NULL};
	*train = *test = NULL;
	if (load_raw(dir, &r, e))
		return -1;
	const char *b = base_name(dir);
	int blen = (int)strcspn(b, "/");
	if (blen == 0 || (blen == 1 && b[0] == '.')) {
		b = "mnist";
		blen = 5;
	}
	int d = r.rows * r.cols;
	for (int s = 0; s < 2; s++) {
		ds[s] = dataset_new(r.n[s], d, MNIST_CLASSES, e);
		if (!ds[s]) {
			err_set(e, "%s: out of memory for %d×%d pixels", dir, r.n[s], d);
			dataset_free(ds[0]);
			raw_free(&r);
			return -1;
		}
		snprintf(ds[s]->name, sizeof ds[s]->name, "%.*s-pixels %s", blen, b,
		         s ? "test" : "train");
		for (long i = 0; i < (long)r.n[s] * d; i++)
			ds[s]->x[i] = r.px[s][i] / 255.0f;
		ds[s]->c = 1;
		ds[s]->h = r.rows;
		ds[s]->w = r.cols;
		memcpy(ds[s]->y, r.y[s], (size_t)r.n[s] * sizeof *r.y[s]);
	}
	raw_free(&r);
	*train = ds[0];
	*test = ds[1];
	return 0;
}
