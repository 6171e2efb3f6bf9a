/* prep.c - the preprocessing record of a data set: its kind of input, its
 * Haar coefficients, and the means and scales of its training set. */
#include "data/prep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/adult.h"
#include "data/dataset.h"
#include "data/haar.h"

Prep *prep_new(PrepKind kind, int d, Err *e)
{
	if (d < 1 || (unsigned)kind >= PREP_KINDS) {
		err_set(e, "a preprocessing record of %d features (kind %d): expected d >= 1", d,
		        (int)kind);
		return NULL;
	}
	Prep *p = calloc(1, sizeof *p);
	if (p) {
		p->idx = calloc((size_t)d, sizeof *p->idx);
		p->mean = calloc((size_t)d, sizeof *p->mean);
		p->sd = malloc((size_t)d * sizeof *p->sd);
	}
	if (!p || !p->idx || !p->mean || !p->sd) {
		prep_free(p);
		err_set(e, "out of memory for the preprocessing of %d features", d);
		return NULL;
	}
	for (int j = 0; j < d; j++)
		p->sd[j] = 1;
	p->kind = kind;
	p->d = d;
	p->scale = DATA_RAW;
	return p;
}

Prep *prep_clone(const Prep *p, Err *e)
{
	if (!p)
		return NULL;
	Prep *c = prep_new(p->kind, p->d, e);
	if (!c)
		return NULL;
	c->rows = p->rows;
	c->cols = p->cols;
	c->n = p->n;
	c->scale = p->scale;
	memcpy(c->idx, p->idx, (size_t)p->d * sizeof *c->idx);
	memcpy(c->mean, p->mean, (size_t)p->d * sizeof *c->mean);
	memcpy(c->sd, p->sd, (size_t)p->d * sizeof *c->sd);
	return c;
}

void prep_free(Prep *p)
{
	if (!p)
		return;
	free(p->idx);
	free(p->mean);
	free(p->sd);
	free(p);
}

const char *prep_kind_name(PrepKind k)
{
	static const char *const names[PREP_KINDS] = {"none", "features", "haar", "adult",
	                                              "pixels"};
	return (unsigned)k < PREP_KINDS ? names[k] : "unknown";
}

const char *prep_scale_name(int scale)
{
	static const char *const names[DATA_SCALES] = {"raw", "center", "standardize"};
	return scale >= 0 && scale < DATA_SCALES ? names[scale] : "unknown";
}

const char *prep_describe(const Prep *p, char *buf, size_t len)
{
	const char *how = p->scale == DATA_STANDARDIZE ? ", standardized on its training set"
	                  : p->scale == DATA_CENTER    ? ", centred on its training set"
	                                               : "";
	switch (p->kind) {
	case PREP_HAAR:
		snprintf(buf, len, "%d Haar coefficients of %d×%d images%s", p->d, p->rows, p->cols,
		         how);
		break;
	case PREP_ADULT:
		snprintf(buf, len, "UCI Adult records (%d encoded features)%s", p->d, how);
		break;
	case PREP_PIXELS:
		snprintf(buf, len, "%d pixels of %d×%d images, scaled to [0, 1]%s", p->d, p->rows,
		         p->cols, how);
		break;
	case PREP_FEATURES:
		snprintf(buf, len, "%d features as given%s", p->d, how);
		break;
	default:
		snprintf(buf, len, "%d inputs, preprocessing not recorded", p->d);
	}
	return buf;
}

int prep_raw_width(const Prep *p)
{
	if (p->kind == PREP_HAAR || p->kind == PREP_PIXELS)
		return p->rows * p->cols;
	if (p->kind == PREP_ADULT)
		return ADULT_RECORD_FIELDS;
	return p->d;
}

/* What a record reads, for messages: "mnist's Haar coefficients of 28×28 images". */
static const char *reads(const Prep *p, char *buf, size_t len)
{
	switch (p->kind) {
	case PREP_HAAR:
		snprintf(buf, len, "Haar coefficients of %d×%d images", p->rows, p->cols);
		break;
	case PREP_ADULT:
		snprintf(buf, len, "encoded UCI Adult records");
		break;
	case PREP_PIXELS:
		snprintf(buf, len, "pixels of %d×%d images", p->rows, p->cols);
		break;
	default:
		snprintf(buf, len, "features as given");
	}
	return buf;
}

int prep_check(const Prep *model, const Prep *data, const char *model_name, const char *data_name,
               Err *e)
{
	char a[96], b[96];
	if (model->d != data->d)
		return err_set(e, "%s has %d inputs, but %s has %d features", model_name, model->d,
		               data_name, data->d);
	if (model->kind == PREP_NONE || data->kind == PREP_NONE)
		return 0;
	if (model->kind != data->kind)
		return err_set(e, "%s reads %s, but %s gives %s", model_name,
		               reads(model, a, sizeof a), data_name, reads(data, b, sizeof b));
	if (model->kind != PREP_HAAR && model->kind != PREP_PIXELS)
		return 0;
	if (model->rows != data->rows || model->cols != data->cols || model->n != data->n)
		return err_set(e, "%s reads %s, but %s gives %s", model_name,
		               reads(model, a, sizeof a), data_name, reads(data, b, sizeof b));
	for (int j = 0; j < model->d; j++)
		if (model->idx[j] != data->idx[j])
			return err_set(e,
			               "%s reads Haar coefficient %d as feature %d, but %s chose "
			               "coefficient %d there",
			               model_name, model->idx[j], j, data_name, data->idx[j]);
	return 0;
}

/* The pixel rows scaled as data/mnist.c scales image bytes: x/255 in float. */
static int scale_pixels(const Prep *p, const float *px, int n, float *out, Err *e)
{
	size_t w = (size_t)p->rows * (size_t)p->cols;
	if (p->rows < 1 || p->cols < 1 || w != (size_t)p->d)
		return err_set(e, "the preprocessing record's %d×%d images are not its %d pixels",
		               p->rows, p->cols, p->d);
	for (size_t i = 0; i < (size_t)n * w; i++)
		out[i] = px[i] / 255.0f;
	return 0;
}

int prep_pixels(const Prep *p, const float *px, int n, float *out, Err *e)
{
	if (p->kind == PREP_PIXELS)
		return scale_pixels(p, px, n, out, e);
	if (p->kind != PREP_HAAR || p->n < 1 || p->rows > p->n || p->cols > p->n)
		return err_set(e, "the preprocessing record holds no Haar transform");
	size_t nn = (size_t)p->n * (size_t)p->n, w = (size_t)p->rows * (size_t)p->cols;
	double *img = malloc(nn * sizeof *img);
	if (!img)
		return err_set(e, "out of memory for a %d×%d image", p->n, p->n);
	for (int i = 0; i < n; i++) {
		const float *row = px + (size_t)i * w;
		memset(img, 0, nn * sizeof *img);
		/* the bytes of an idx image become x/255.0 in data/haar.c: the same here */
		for (int r = 0; r < p->rows; r++)
			for (int c = 0; c < p->cols; c++)
				img[(size_t)r * p->n + c] = row[(size_t)r * p->cols + c] / 255.0;
		if (haar2d(img, img, p->n, e)) {
			free(img);
			return -1;
		}
		float *x = out + (size_t)i * p->d;
		for (int j = 0; j < p->d; j++)
			x[j] = (float)img[p->idx[j]];
	}
	free(img);
	return 0;
}
