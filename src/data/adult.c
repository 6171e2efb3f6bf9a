/* adult.c - the UCI Adult data set: scaled continuous fields and one-hot
 * categories, in the column order of adult_feature_name(). */
#include "data/adult.h"
#include "data/csv.h"
#include "data/text.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ADULT_FIELDS 15
#define ADULT_CONT 6
#define ADULT_GROUPS 8

/* clang-format off */
static const char *const workclass[] = {
	"Private", "Self-emp-not-inc", "Self-emp-inc", "Federal-gov",
	"Local-gov", "State-gov", "Without-pay", "Never-worked",
};
static const char *const education[] = {
	"Bachelors", "Some-college", "11th", "HS-grad", "Prof-school", "Assoc-acdm",
	"Assoc-voc", "9th", "7th-8th", "12th", "Masters", "1st-4th", "10th",
	"Doctorate", "5th-6th", "Preschool",
};
static const char *const marital[] = {
	"Married-civ-spouse", "Divorced", "Never-married", "Separated",
	"Widowed", "Married-spouse-absent", "Married-AF-spouse",
};
static const char *const occupation[] = {
	"Tech-support", "Craft-repair", "Other-service", "Sales", "Exec-managerial",
	"Prof-specialty", "Handlers-cleaners", "Machine-op-inspct", "Adm-clerical",
	"Farming-fishing", "Transport-moving", "Priv-house-serv", "Protective-serv",
	"Armed-Forces",
};
static const char *const relationship[] = {
	"Wife", "Own-child", "Husband", "Not-in-family", "Other-relative", "Unmarried",
};
static const char *const race[] = {
	"White", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other", "Black",
};
static const char *const sex[] = {"Female", "Male"};
static const char *const country[] = {
	"United-States", "Cambodia", "England", "Puerto-Rico", "Canada", "Germany",
	"Outlying-US(Guam-USVI-etc)", "India", "Japan", "Greece", "South", "China",
	"Cuba", "Iran", "Honduras", "Philippines", "Italy", "Poland", "Jamaica",
	"Vietnam", "Mexico", "Portugal", "Ireland", "France", "Dominican-Republic",
	"Laos", "Ecuador", "Taiwan", "Haiti", "Columbia", "Hungary", "Guatemala",
	"Nicaragua", "Scotland", "Thailand", "Yugoslavia", "El-Salvador",
	"Trinadad&Tobago", "Peru", "Hong", "Holand-Netherlands",
};
#define COUNT(a) ((int)(sizeof(a) / sizeof(a)[0]))

/* The 15 fields of a record, in file order. */
static const char *const field_name[ADULT_FIELDS] = {
	"age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
	"occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
	"hours-per-week", "native-country", "income",
};

/* Continuous fields: their position in the record and upper bound. */
static const int cont_field[ADULT_CONT] = {0, 2, 4, 10, 11, 12};
static const double cont_max[ADULT_CONT] = {100, 2e6, 25, 2e5, 1e4, 120};

/* Categorical fields: position in the record and category list. */
static const struct {
	int field;
	const char *const *names;
	int count;
} groups[ADULT_GROUPS] = {
	{1, workclass, COUNT(workclass)},
	{3, education, COUNT(education)},
	{5, marital, COUNT(marital)},
	{6, occupation, COUNT(occupation)},
	{7, relationship, COUNT(relationship)},
	{8, race, COUNT(race)},
	{9, sex, COUNT(sex)},
	{13, country, COUNT(country)},
};
/* clang-format on */

int adult_feature_count(void)
{
	int n = ADULT_CONT;
	for (int g = 0; g < ADULT_GROUPS; g++)
		n += groups[g].count;
	return n;
}

const char *adult_feature_name(int j, char *buf, size_t len)
{
	if (j < 0 || len == 0)
		return NULL;
	if (j < ADULT_CONT) {
		snprintf(buf, len, "%s", field_name[cont_field[j]]);
		return buf;
	}
	j -= ADULT_CONT;
	for (int g = 0; g < ADULT_GROUPS; g++) {
		if (j < groups[g].count) {
			snprintf(buf, len, "%s=%s", field_name[groups[g].field],
			         groups[g].names[j]);
			return buf;
		}
		j -= groups[g].count;
	}
	return NULL;
}

/*
 * One record into x (adult_feature_count() values, zeroed by the caller) and
 * *y. Continuous field f with bound u becomes 100·v/u; category c of group g
 * sets x[6 + offset(g) + c] = 1, '?' sets nothing.
 */
static int parse_record(const char *path, long lineno, char *line, float *x, int *y, Err *e)
{
	char *f[ADULT_FIELDS];
	/* without a label (y NULL) a record ends before its income field */
	int want = y ? ADULT_FIELDS : ADULT_FIELDS - 1, nf = 0;
	for (char *p = line;;) {
		char *c = strchr(p, ',');
		if (c)
			*c = '\0';
		if (nf == want)
			return err_set(e,
			               "%s:%ld: more than %d fields: unexpected '%.40s' after %s",
			               path, lineno, want, csv_trim(p), field_name[want - 1]);
		f[nf++] = csv_trim(p);
		if (!c)
			break;
		p = c + 1;
	}
	if (nf < want)
		return err_set(e, "%s:%ld: %d fields, expected %d: field %d (%s) is missing", path,
		               lineno, nf, want, nf + 1, field_name[nf]);
	for (int j = 0; j < ADULT_CONT; j++) {
		int fi = cont_field[j];
		char *end;
		errno = 0;
		double v = strtod(f[fi], &end);
		if (!*f[fi] || *end || !isfinite(v))
			return err_set(e, "%s:%ld: field %d (%s): '%.40s' is not a number", path,
			               lineno, fi + 1, field_name[fi], f[fi]);
		if (v < 0)
			return err_set(e, "%s:%ld: field %d (%s): %g is negative, expected >= 0",
			               path, lineno, fi + 1, field_name[fi], v);
		double scaled = 100.0 * v / cont_max[j];
		if (scaled > FLT_MAX)
			return err_set(
			    e, "%s:%ld: field %d (%s): '%.40s' is too large, expected at most %g",
			    path, lineno, fi + 1, field_name[fi], f[fi],
			    FLT_MAX / 100.0 * cont_max[j]);
		x[j] = (float)scaled;
	}
	int off = ADULT_CONT;
	for (int g = 0; g < ADULT_GROUPS; g++) {
		const char *s = f[groups[g].field];
		if (strcmp(s, "?") != 0) {
			int c = 0;
			while (c < groups[g].count && strcmp(s, groups[g].names[c]) != 0)
				c++;
			if (c == groups[g].count)
				return err_set(e, "%s:%ld: field %d (%s): unknown category '%.40s'",
				               path, lineno, groups[g].field + 1,
				               field_name[groups[g].field], s);
			x[off + c] = 1.0f;
		}
		off += groups[g].count;
	}
	if (!y)
		return 0;
	const char *lab = f[ADULT_FIELDS - 1];
	size_t ll = strlen(lab);
	if (ll && lab[ll - 1] == '.')
		ll--;
	if (ll == 4 && strncmp(lab, ">50K", 4) == 0)
		*y = 1;
	else if (ll == 5 && strncmp(lab, "<=50K", 5) == 0)
		*y = 0;
	else
		return err_set(
		    e, "%s:%ld: field %d (income): expected '>50K' or '<=50K', found '%.40s'", path,
		    lineno, ADULT_FIELDS, lab);
	return 0;
}

/* Records with (labelled) or without their income field. */
static int load_records(const char *path, int labelled, Dataset **out, Err *e)
{
	*out = NULL;
	TextFile t;
	/* new records (without labels) may come from standard input */
	if ((labelled ? text_open : text_open_input)(&t, path, e))
		return -1;
	int d = adult_feature_count(), rc = -1, got;
	size_t n = 0, cap = 0, len;
	float *x = NULL;
	int *y = NULL;
	while ((got = text_next(&t, &len, e)) > 0) {
		long lineno = t.line;
		char *s = csv_trim(t.buf);
		/* Blank lines and '|' comment lines (the test file's first line). */
		if (!*s || *s == '|')
			continue;
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 4096;
			float *nx =
			    ncap <= 0x7fffffff ? realloc(x, ncap * (size_t)d * sizeof *nx) : NULL;
			if (nx)
				x = nx;
			int *ny = nx ? realloc(y, ncap * sizeof *ny) : NULL;
			if (ny)
				y = ny;
			if (!nx || !ny) {
				err_set(e, "%s:%ld: out of memory after %zu rows", t.path, lineno,
				        n);
				goto done;
			}
			cap = ncap;
		}
		float *row = x + n * (size_t)d;
		memset(row, 0, (size_t)d * sizeof *row);
		y[n] = 0;
		if (parse_record(t.path, lineno, s, row, labelled ? &y[n] : NULL, e) != 0)
			goto done;
		n++;
	}
	if (got < 0)
		goto done;
	if (n == 0) {
		err_set(e, "%s: no records, expected lines of %d comma-separated fields", t.path,
		        labelled ? ADULT_FIELDS : ADULT_RECORD_FIELDS);
		goto done;
	}
	Dataset *ds = dataset_new((int)n, d, 2, e);
	if (!ds) {
		err_set(e, "%s: out of memory for %zu rows", t.path, n);
		goto done;
	}
	memcpy(ds->x, x, n * (size_t)d * sizeof *x);
	memcpy(ds->y, y, n * sizeof *y);
	const char *base = strrchr(t.path, '/');
	snprintf(ds->name, sizeof ds->name, "adult (%s)", base ? base + 1 : t.path);
	*out = ds;
	rc = 0;
done:
	free(x);
	free(y);
	text_close(&t);
	return rc;
}

int adult_load(const char *path, Dataset **out, Err *e)
{
	return load_records(path, 1, out, e);
}

int adult_load_unlabelled(const char *path, Dataset **out, Err *e)
{
	return load_records(path, 0, out, e);
}
