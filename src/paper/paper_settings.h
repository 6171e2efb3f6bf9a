/* paper_settings.h - what a stage's numbers depend on, as its stage file
 * records it ("settings"), and the check that a stage directory holds the
 * results of one setting only: a run reuses a stage file only when it was
 * made under the settings of the run, and refuses the directory, naming the
 * first setting that differs, when it was not; so a report never sets the
 * numbers of one setting under the command line of another. And the options
 * of a run these settings are made from, and the stages of each experiment. */
#ifndef CONDNET_PAPER_SETTINGS_H
#define CONDNET_PAPER_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/err.h"
#include "data/dataset.h"
#include "engine/hook.h"

typedef struct PaperOpts {
	const char *which;    /* "mnist" or "adult" */
	const char *out;      /* stage directory */
	const char *report;   /* Markdown report path */
	const char *data_dir; /* NULL: the default data directory */
	const char *stages;   /* comma-separated stage names to run, NULL = all */
	int quick;            /* small subset, few epochs: a smoke run */
	int converge;         /* 1: every full training to convergence (paper_stage.h),
	                       * not as written */
	float act_a;          /* a in the hidden layers' erf(a·x): 1 is the paper's */
	int no_report;        /* run the stages, write no report */
	int data_scale;       /* DATA_RAW (the paper's), DATA_CENTER or DATA_STANDARDIZE */
	uint64_t seed;
	int threads;
	/* Training progress, and a HOOK_NOTE line per stage event ("alg1: done
	 * in 12.3 s"); may be NULL. */
	const Hook *hook;
} PaperOpts;

/* Names of the stages of an experiment, NULL-terminated. */
const char *const *paper_stage_names(const char *which);

/* The settings as named text fields: the experiment (mnist or adult), the
 * seed, the features' scaling, quick or full, the training (as written or to
 * convergence), the activation's scale and the reproducible mode. */
enum { PAPER_SETTINGS_MAX = 8 };
typedef struct PaperSettings {
	int n; /* -1: the file records none (made before condnet recorded them) */
	struct {
		char key[16];
		char value[48];
	} f[PAPER_SETTINGS_MAX];
} PaperSettings;

/* The settings of the run o. */
void paper_settings(const PaperOpts *o, PaperSettings *st);
/* The "settings" object of a stage file into st (n = -1 when it has none);
 * -1 with a message naming the file when it is not an object of short
 * strings. */
int paper_settings_read(const cJSON *obj, const char *file, PaperSettings *st, Err *e);
/* 0 when got (a stage file's) holds want's settings; else a message naming
 * the file, the first setting that differs and both values as options. */
int paper_settings_match(const char *file, const PaperSettings *got, const PaperSettings *want,
                         Err *e);
/* The settings as the command line that gives them ("condnet paper adult
 * --quick --seed 1"): one line, the same for the same settings. */
const char *paper_settings_command(const PaperSettings *st, char *buf, size_t len);

/* The record of the data a stage computed on ("train 150 rows of 104
 * features, 2 classes, CRC-32 1a2b3c4d; test …"). */
const char *paper_data_record(const Dataset *train, const Dataset *test, char *buf, size_t len);

/* Every stage file and partial file of o's experiment in o->out against the
 * settings of o: -1 with a message naming the file and the setting when one
 * was made under others; 0 otherwise, with warn (may be NULL) naming the
 * files that record no settings (an older condnet's: used as they are), ""
 * when there are none. */
int paper_check_settings(const PaperOpts *o, char *warn, size_t len, Err *e);

#endif
