/* paper.c - the stage runner of the paper reproductions and what the MNIST
 * and Adult experiments share. */
#include "paper/paper.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "engine/alg3_squeeze.h"
#include "engine/cond.h"
#include "data/datasets.h"
#include "base/file.h"
#include "engine/model_io.h"
#include "paper/paper_stage.h"
#include "base/clock.h"

static const char *const mnist_names[] = {"alg1", "alg2", "final", "verify", "squeeze",
					  "add20", "eta", "tau", "over", NULL};
static const char *const adult_names[] = {"alg1", "alg2", "final", "verify", "squeeze", "over",
					  NULL};

const char *const *paper_stage_names(const char *which)
{
	if (!strcmp(which, "mnist"))
		return mnist_names;
	if (!strcmp(which, "adult"))
		return adult_names;
	return NULL;
}

void paper_say(const Paper *p, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	if (!p->o.say)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	p->o.say(line, p->o.say_ud);
}

cJSON *paper_need(const Paper *p, const char *stage, Err *e)
{
	cJSON *r = paper_result(p, stage);
	if (!r)
		err_set(e, "needs the result of stage '%s' (run it first: --stages %s)", stage, stage);
	return r;
}

const char *paper_path(const Paper *p, const char *file, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", p->o.out, file);
	return buf;
}

cJSON *paper_result(const Paper *p, const char *stage)
{
	return cJSON_GetObjectItemCaseSensitive(p->res, stage);
}

static char *slurp(const char *path, Err *e)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 65536;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				err_set(e, "%s: out of memory", path);
				return NULL;
			}
			buf = nb;
		}
		size_t got = fread(buf + len, 1, 4096, f);
		len += got;
		if (got < 4096)
			break;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static const char *partial_path(const Paper *p, const char *stage, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.partial.json", p->o.out, stage);
	return buf;
}

cJSON *paper_partial_load(Paper *p, const char *stage)
{
	char path[1024];
	char *text = slurp(partial_path(p, stage, path, sizeof path), NULL);
	cJSON *part = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (part && cJSON_IsObject(part)) {
		paper_say(p, "%s: resuming from %s", stage, path);
		double before = paper_json_num(part, "seconds");
		p->before = isnan(before) ? 0 : before;
		return part;
	}
	cJSON_Delete(part);
	return cJSON_CreateObject();
}

int paper_partial_save(const Paper *p, const char *stage, cJSON *part, Err *e)
{
	char path[1024];
	cJSON_DeleteItemFromObjectCaseSensitive(part, "seconds");
	cJSON_AddNumberToObject(part, "seconds", p->before + clock_seconds() - p->t0);
	char *json = cJSON_Print(part);
	if (!json)
		return err_set(e, "out of memory");
	int rc = file_write_atomic(partial_path(p, stage, path, sizeof path), json, strlen(json), e);
	free(json);
	return rc;
}

/* The data sets are read when the first stage has to run: a report made
 * from stage results alone needs none. */
static int load_data(Paper *p, Err *e)
{
	DataSpec ds;
	dataspec_default(&ds);
	ds.spec = p->o.which;
	ds.dir = p->o.data_dir;
	ds.features = 200;
	ds.seed = p->o.seed;
	ds.scale = p->o.data_scale;
	if (p->o.quick)
		ds.limit = !strcmp(p->o.which, "mnist") ? 30 : 150;
	if (datasets_load(&ds, &p->train, &p->test, e) < 0)
		return -1;
	/* Algorithm 2's validation set: 1,000 images per class for MNIST, 10 % for Adult. */
	if (!strcmp(p->o.which, "mnist") && !p->o.quick)
		return dataset_split(p->train, 0, 1000, p->o.seed, &p->tr, &p->val, e);
	return dataset_split(p->train, 0.1, 0, p->o.seed, &p->tr, &p->val, e);
}

int paper_stage(Paper *p, const Stage *s, int run, Err *e)
{
	char path[1024];
	paper_path(p, s->name, path, sizeof path);
	strncat(path, ".json", sizeof path - strlen(path) - 1);
	char *text = slurp(path, e);
	if (text) {
		cJSON *old = cJSON_Parse(text);
		free(text);
		if (old && cJSON_IsObject(old)) {
			cJSON_AddItemToObject(p->res, s->name, old);
			paper_say(p, "%s (%s): reusing %s", s->name, s->what, path);
			return 0;
		}
		cJSON_Delete(old);
		paper_say(p, "%s: %s is not a valid result; recomputing", s->name, path);
	}
	if (!run)
		return 0;
	if (!p->train && load_data(p, e) < 0)
		return -1;
	paper_say(p, "%s (%s): running", s->name, s->what);
	cJSON *out = cJSON_CreateObject();
	if (!out)
		return err_set(e, "out of memory");
	p->t0 = clock_seconds();
	p->before = 0;
	if (s->run(p, out, e) < 0) {
		cJSON_Delete(out);
		return err_prefix(e, "stage %s", s->name);
	}
	cJSON_AddNumberToObject(out, "threads", p->o.threads);
	cJSON_AddNumberToObject(out, "seconds", p->before + clock_seconds() - p->t0);
	char *json = cJSON_Print(out);
	if (!json) {
		cJSON_Delete(out);
		return err_set(e, "out of memory");
	}
	int rc = file_write_atomic(path, json, strlen(json), e);
	free(json);
	if (rc < 0) {
		cJSON_Delete(out);
		return -1;
	}
	cJSON_AddItemToObject(p->res, s->name, out);
	char part[1024];
	unlink(partial_path(p, s->name, part, sizeof part));
	paper_say(p, "%s: done in %.1f s", s->name, clock_seconds() - p->t0);
	return 0;
}

Net *paper_net(const Paper *p, const int *hidden, int nh, uint64_t seed, Err *e)
{
	int w[64];
	if (nh + 2 > 64) {
		err_set(e, "too many layers (%d)", nh);
		return NULL;
	}
	w[0] = p->train->d;
	memcpy(w + 1, hidden, (size_t)nh * sizeof *w);
	w[nh + 1] = p->train->k;
	Net *net = net_new(nh + 1, w, ACT_ERF, 1.0f);
	if (!net) {
		err_set(e, "out of memory for a network");
		return NULL;
	}
	Rng r;
	rng_seed(&r, seed);
	net_init_glorot(net, &r);
	return net;
}

int paper_train(const Paper *p, Net *net, const Dataset *d, double epochs, Err *e)
{
	TrainOpts t = p->topt;
	t.seed = rng_derive(p->o.seed, (uint64_t)net_hidden_total(net) * 131 + (uint64_t)net->adam_t);
	int rc = train_epochs(net, d, &t, epochs, p->o.cb, p->o.cb_ud, e);
	if (rc == 1)
		return err_set(e, "interrupted");
	return rc;
}

int paper_train_full(const Paper *p, Net *net, const Dataset *d, int max_epochs, int *epochs,
		     Err *e)
{
	int ep = 0;
	while (ep < max_epochs) {
		if (paper_train(p, net, d, 1.0, e) < 0)
			return -1;
		ep++;
		if (net_error(net, d, NULL) == 0.0)
			break;
	}
	if (epochs)
		*epochs = ep;
	return 0;
}

double paper_acc(const Net *net, const Dataset *d)
{
	return 100.0 * (1.0 - net_error(net, d, NULL));
}

cJSON *paper_json_net(const Net *net, double tau, Err *e)
{
	LayerCond *lc = calloc((size_t)net->m, sizeof *lc);
	if (!lc) {
		err_set(e, "out of memory");
		return NULL;
	}
	if (cond_net_values(net, tau, lc, e) < 0) {
		free(lc);
		return NULL;
	}
	cJSON *o = cJSON_CreateObject();
	cJSON *n = cJSON_AddArrayToObject(o, "n");
	cJSON *k = cJSON_AddArrayToObject(o, "kappa");
	cJSON *pp = cJSON_AddArrayToObject(o, "p");
	for (int i = 0; i < net->m; i++) {
		cJSON_AddItemToArray(n, cJSON_CreateNumber(net->n[i + 1]));
		cJSON_AddItemToArray(k, cJSON_CreateNumber(isfinite(lc[i].kappa) ? lc[i].kappa : -1));
		cJSON_AddItemToArray(pp, cJSON_CreateNumber(lc[i].p));
		cond_layer_free(&lc[i]);
	}
	free(lc);
	return o;
}

cJSON *paper_json_alg1(const Alg1 *a)
{
	cJSON *arr = cJSON_CreateArray();
	for (int r = 0; r < a->nrec; r++) {
		const Alg1Record *rec = &a->rec[r];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "iter", rec->iter);
		cJSON *n = cJSON_AddArrayToObject(o, "n");
		cJSON *k = cJSON_AddArrayToObject(o, "kappa");
		cJSON *pp = cJSON_AddArrayToObject(o, "p");
		for (int i = 0; i < rec->m; i++) {
			cJSON_AddItemToArray(n, cJSON_CreateNumber(rec->n[i + 1]));
			cJSON_AddItemToArray(
				k, cJSON_CreateNumber(isfinite(rec->kappa[i]) ? rec->kappa[i] : -1));
			cJSON_AddItemToArray(pp, cJSON_CreateNumber(rec->p[i]));
		}
		cJSON_AddNumberToObject(o, "max_kappa", rec->max_kappa);
		cJSON_AddNumberToObject(o, "sum_n", (double)rec->sum_n);
		cJSON_AddNumberToObject(o, "train_error", rec->train_error);
		cJSON_AddNumberToObject(o, "seconds", rec->seconds);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

int paper_json_ints(const cJSON *obj, const char *key, int *out, int max)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!cJSON_IsArray(a))
		return -1;
	int n = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, a)
	{
		if (n >= max || !cJSON_IsNumber(it))
			return -1;
		out[n++] = (int)it->valuedouble;
	}
	return n;
}

double paper_json_num(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

int paper_save(const Paper *p, const Net *net, const char *file, Err *e)
{
	char path[1024];
	return model_save(net, paper_path(p, file, path, sizeof path), e);
}

Net *paper_load(const Paper *p, const char *file, Err *e)
{
	char path[1024];
	return model_load(paper_path(p, file, path, sizeof path), e);
}

cJSON *paper_squeeze_row(const Paper *p, const Net *net, double tau, int epochs, int until_full,
			 Net **keep, Err *e)
{
	Net *sq = net_clone(net);
	int *removed = calloc((size_t)net->m, sizeof *removed);
	cJSON *row = NULL;
	if (!sq || !removed) {
		err_set(e, "out of memory");
		goto done;
	}
	SqueezeOpts so;
	squeeze_opts_default(&so);
	so.tau = tau;
	int total = squeeze_net(sq, &so, NULL, removed, e);
	if (total < 0)
		goto done;
	double before = paper_acc(sq, p->test);
	int ran = epochs;
	if (until_full ? paper_train_full(p, sq, p->train, epochs, &ran, e)
		       : paper_train(p, sq, p->train, epochs, e))
		goto done;
	row = cJSON_CreateObject();
	cJSON_AddNumberToObject(row, "tau", tau);
	cJSON_AddNumberToObject(row, "removed", total);
	cJSON_AddItemToObject(row, "removed_per_layer", cJSON_CreateIntArray(removed, net->m));
	cJSON_AddNumberToObject(row, "acc_before", before);
	cJSON_AddNumberToObject(row, "acc_after", paper_acc(sq, p->test));
	cJSON_AddNumberToObject(row, "epochs", ran);
	cJSON *shape = paper_json_net(sq, tau, e);
	if (!shape) {
		cJSON_Delete(row);
		row = NULL;
		goto done;
	}
	cJSON_AddItemToObject(row, "net", shape);
	if (keep) {
		*keep = sq;
		sq = NULL;
	}
done:
	net_free(sq);
	free(removed);
	return row;
}

void md_num(FILE *f, double v, int decimals)
{
	if (isnan(v))
		fputs("—", f);
	else
		fprintf(f, "%.*f", decimals, v);
}

void md_int_thousands(FILE *f, double v)
{
	if (isnan(v) || v < 0) {
		fputs(v < 0 ? "∞" : "—", f);
		return;
	}
	long x = lround(v);
	if (x >= 1000)
		fprintf(f, "%ld,%03ld", x / 1000, x % 1000);
	else
		fprintf(f, "%ld", x);
}

static char flags[4096];

void md_flag(const char *what, double ours, double paper)
{
	if (isnan(ours) || isnan(paper) || fabs(ours - paper) <= 0.3)
		return;
	size_t l = strlen(flags);
	snprintf(flags + l, sizeof flags - l, "- %s: %.2f here, %.2f in the paper (%+.2f points)\n",
		 what, ours, paper, ours - paper);
}

void md_flags(FILE *f)
{
	fprintf(f, "\n## Differences of more than 0.3 percentage points\n\n%s\n",
		flags[0] ? flags : "None.\n");
	flags[0] = '\0';
}

void md_pair(FILE *f, double ours, double paper, int decimals, const char *what)
{
	fputc(' ', f);
	if (decimals < 0)
		md_int_thousands(f, ours);
	else
		md_num(f, ours, decimals);
	fputs(" | ", f);
	if (decimals < 0)
		md_int_thousands(f, paper);
	else
		md_num(f, paper, decimals);
	fputs(" |", f);
	if (what)
		md_flag(what, ours, paper);
}

void md_squeeze_rows(FILE *f, const cJSON *rows, const double (*paper)[4], int np,
		     const char *name)
{
	fprintf(f, "| τ | removed | (paper) | accuracy before retraining | (paper) | after | (paper) "
		   "|\n|---:|---:|---:|---:|---:|---:|---:|\n");
	const cJSON *r;
	cJSON_ArrayForEach(r, rows)
	{
		double tau = paper_json_num(r, "tau");
		const double *pp = NULL;
		for (int i = 0; i < np; i++)
			if (paper[i][0] == tau)
				pp = paper[i];
		char what[96];
		snprintf(what, sizeof what, "%s, τ = %g, accuracy after retraining", name, tau);
		fprintf(f, "| %g |", tau);
		md_pair(f, paper_json_num(r, "removed"), pp ? pp[1] : NAN, 0, NULL);
		md_pair(f, paper_json_num(r, "acc_before"), pp ? pp[2] : NAN, 2, NULL);
		md_pair(f, paper_json_num(r, "acc_after"), pp ? pp[3] : NAN, 2, what);
		fputc('\n', f);
	}
	fputc('\n', f);
}

void md_test_errors(FILE *f, const cJSON *ver, const double *paper, double beta0,
		    const char *name)
{
	fprintf(f, "## %s — test error (%%) of every β fully trained\n\n| β | test error | "
		   "(paper) |\n|---:|---:|---:|\n", name);
	const cJSON *b;
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(ver, "betas"))
	{
		double beta = paper_json_num(b, "beta");
		int j = (int)lround((beta - beta0) / 0.2);
		int known = j >= 0 && j < 8 && fabs(beta - (beta0 + 0.2 * j)) < 1e-6;
		char what[64];
		snprintf(what, sizeof what, "%s test error at β = %.1f", name, beta);
		fprintf(f, "| %.1f |", beta);
		md_pair(f, 100 - paper_json_num(b, "test_acc"), known ? paper[j] : NAN, 2, what);
		fputc('\n', f);
	}
	fputc('\n', f);
}

double paper_json_at(const cJSON *obj, const char *key, int i)
{
	const cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(obj, key), i);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

void md_head(const Paper *p, FILE *f, const char *title)
{
	struct utsname u;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	fprintf(f, "# %s\n\n", title);
	fprintf(f, "Every figure here was measured by `condnet paper %s%s%s --seed %llu` "
		   "(stage results in `%s/`). Beside each is the paper's figure. ",
		p->o.which, p->o.quick ? " --quick" : "",
		p->o.data_scale == DATA_CENTER	      ? " --center"
		: p->o.data_scale == DATA_STANDARDIZE ? " --standardize"
						      : "",
		(unsigned long long)p->o.seed, p->o.out);
	fprintf(f, "Training: Adam (lr 0.001, β₁ 0.9, β₂ 0.999, ε 1e-8), erf activation, Glorot "
		   "uniform weights, zero biases, batch %d, float32.%s%s\n\n",
		p->topt.batch,
		p->o.data_scale == DATA_CENTER	      ? " Features centred on their training means."
		: p->o.data_scale == DATA_STANDARDIZE ? " Features standardized over the training set."
						      : "",
		p->o.quick ? " **This is a quick smoke run on a small subset: its numbers are not "
			     "comparable with the paper's.**"
			   : "");
	fprintf(f, "What we found where the figures differ is in `docs/reproduction-notes.md`.\n\n");
	/* The thread count the stages ran with (recorded by each stage); this
	 * run's when no stage recorded one. */
	int lo = 0, hi = 0;
	const cJSON *st;
	cJSON_ArrayForEach(st, p->res)
	{
		double t = paper_json_num(st, "threads");
		if (isnan(t))
			continue;
		lo = lo && lo < (int)t ? lo : (int)t;
		hi = hi > (int)t ? hi : (int)t;
	}
	if (!hi)
		lo = hi = p->o.threads;
	if (uname(&u) == 0 && lo == hi)
		fprintf(f, "Machine: %s %s, %ld cores, %d OpenBLAS threads.\n\n", u.sysname, u.machine,
			cores, lo);
	else if (uname(&u) == 0)
		fprintf(f, "Machine: %s %s, %ld cores, %d to %d OpenBLAS threads (stages differ).\n\n",
			u.sysname, u.machine, cores, lo, hi);
	fprintf(f, "| stage | what | seconds |\n|---|---|---:|\n");
	const cJSON *s;
	cJSON_ArrayForEach(s, p->res)
	{
		fprintf(f, "| %s | ", s->string);
		const Stage *st = !strcmp(p->o.which, "mnist") ? paper_mnist_stages : paper_adult_stages;
		for (; st->name; st++)
			if (!strcmp(st->name, s->string))
				fputs(st->what, f);
		fprintf(f, " | %.1f", paper_json_num(s, "seconds"));
		const cJSON *note = cJSON_GetObjectItemCaseSensitive(s, "seconds_note");
		if (cJSON_IsString(note))
			fprintf(f, " (%s)", note->valuestring);
		fputs(" |\n", f);
	}
	fputc('\n', f);
}

int paper_scaled(const Paper *p, int width)
{
	if (!p->o.quick)
		return width;
	int w = width / 10;
	return w < 2 ? 2 : w;
}

static int wanted(const PaperOpts *o, const char *name)
{
	if (!o->stages || !*o->stages)
		return 1;
	size_t len = strlen(name);
	for (const char *s = o->stages; *s;) {
		const char *c = strchr(s, ',');
		size_t l = c ? (size_t)(c - s) : strlen(s);
		if (l == len && !strncmp(s, name, len))
			return 1;
		s += l + (c ? 1 : 0);
	}
	return 0;
}

static int write_report(const Paper *p, Err *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return err_set(e, "out of memory");
	if (!strcmp(p->o.which, "mnist"))
		paper_mnist_report(p, f);
	else
		paper_adult_report(p, f);
	fclose(f);
	int rc = file_write_atomic(p->o.report, buf, len, e);
	free(buf);
	return rc;
}

int paper_run(const PaperOpts *o, Err *e)
{
	const Stage *stages;
	if (!strcmp(o->which, "mnist"))
		stages = paper_mnist_stages;
	else if (!strcmp(o->which, "adult"))
		stages = paper_adult_stages;
	else
		return err_set(e, "unknown experiment '%s' (mnist or adult)", o->which);
	if (o->stages)
		for (const char *s = o->stages; *s;) {
			const char *c = strchr(s, ',');
			size_t l = c ? (size_t)(c - s) : strlen(s);
			int found = 0;
			for (const Stage *st = stages; st->name; st++)
				found |= strlen(st->name) == l && !strncmp(st->name, s, l);
			if (!found)
				return err_set(e, "unknown stage '%.*s' for %s", (int)l, s, o->which);
			s += l + (c ? 1 : 0);
		}
	if (file_make_dir(o->out, e) < 0)
		return -1;

	Paper p = {.o = *o};
	train_opts_default(&p.topt);
	p.topt.batch = !strcmp(o->which, "mnist") ? 50 : 20;
	p.topt.threads = o->threads;
	p.res = cJSON_CreateObject();
	int rc = p.res ? 0 : err_set(e, "out of memory");
	/* Stages not asked for still contribute what an earlier run computed. */
	for (const Stage *s = stages; rc == 0 && s->name; s++)
		rc = paper_stage(&p, s, wanted(o, s->name), e);
	if (rc == 0)
		rc = write_report(&p, e);
	cJSON_Delete(p.res);
	dataset_free(p.train);
	dataset_free(p.test);
	dataset_free(p.tr);
	dataset_free(p.val);
	return rc;
}
