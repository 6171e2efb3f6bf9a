/* setup/setup.h - the run the common options (setup/opts.h) describe, as
 * both front ends set it up: its data sets, its network (loaded or made
 * fresh), the room its work needs under an address-space limit, and the
 * plan of its training. */
#ifndef CONDNET_SETUP_SETUP_H
#define CONDNET_SETUP_SETUP_H

#include <stddef.h>

#include <limits.h>

#include "base/err.h"
#include "base/file_roles.h"
#include "data/dataset.h"
#include "engine/net.h"
#include "engine/schedule.h"
#include "engine/train_plan.h"
#include "setup/opts.h"

/* Loads the data sets. Either output may be NULL. With --load (a chain's
 * model file or a graph network's), the data's inputs are made as the
 * model's record says (its Haar coefficients or its pixels, its means and
 * scales: setup_spec_from_record, datasets_load_as) unless --inputs or
 * --features say otherwise; a scale step given must be the record's
 * (setup_check_scale). */
int setup_load_data_any(const CommonOpts *c, Dataset **train, Dataset **test, Err *e);
/* The network of --load MODEL or --onnx FILE (read as import reads it), a
 * chain or a graph network, checked against train's inputs, images,
 * classes and preprocessing, or a fresh one from --layers (a chain, or a
 * residual family's graph) with Glorot weights from --seed. */
/* The inputs the record rec (NULL: none) names, into spec, unless told (the
 * options gave --inputs or --features): the Haar coefficients it chose or
 * its pixels, when spec is MNIST or Fashion-MNIST (another data set makes
 * neither, and is left as given). What else the record says,
 * datasets_load_as applies. */
void setup_spec_from_record(const Prep *rec, int told, DataSpec *spec);
/* 0 when the scale step given (DATA_RAW: none) may go with the record rec
 * of the model name: none given, or the record's; else -1 saying which
 * option to drop (the inputs are made as the record says). */
int setup_check_scale(int given, const Prep *rec, const char *name, Err *e);
Net *setup_make_net_any(const CommonOpts *c, const Dataset *train, Err *e);
/* Under an address-space limit (ulimit -v), the room for the run to come
 * (base/blas.h: OpenBLAS's buffers for --threads threads and work bytes of
 * its own), or a message saying how much it needs; setup_make_net_any asks it
 * for the network it returns. setup_work_bytes is the estimate for a run on
 * net (0 for NULL): its gradients and Adam's moments, a batch's activations
 * per thread, the conditioning's copies of its widest Ŵ. */
int setup_reserve(const CommonOpts *c, double work, Err *e);
double setup_work_bytes(const CommonOpts *c, const Net *net);
/* 0 when the model name, whose preprocessing record is model (NULL: none
 * recorded), can read the data made by the record data: the same kind of
 * input and the same scale step (else a message saying which option to give
 * or drop). */
int setup_check_prep(const Prep *model, const Prep *data, const char *name, Err *e);
/* The files the common options name, as roles for file_roles_apart
 * (base/file_roles.h): --load, --onnx and the data set's files read (csv's, or a
 * fetched set's directory with the names of its files), --save, --json and
 * --csv written; --save may replace the model --load read (a model trained
 * further, saved over itself). The paths made up are kept in bufs. Returns the count, at
 * most SETUP_MAX_ROLES. */
#define SETUP_MAX_ROLES 9
int setup_roles(const CommonOpts *c, FileRole *r, char bufs[][PATH_MAX]);
/* The files a data set spec reads from dir ("" or NULL: the data
 * directory), named what: a CSV's one or two files, a fetched set's
 * directory with its files' names (the idx files and their feature cache,
 * adult.*); none for the sets condnet makes. At most 2 roles, in bufs[0]
 * and bufs[1]; their count. */
int setup_data_roles(const char *spec, const char *dir, const char *what, FileRole *r,
                     char bufs[][PATH_MAX]);

/* model_save, after recording the preprocessing of train's inputs in net
 * when it has none (a network made on train). */
int setup_save_model(Net *net, const char *path, const Dataset *train, Err *e);

/* The training the options describe: c->train (with --schedule and
 * --warmup) for `epochs`, the cap under --early-stop. When early stopping or
 * a plateau schedule (sched, NULL for --schedule's) needs a validation set,
 * train is split by --val-frac or --val-per-class with --seed into *tr and
 * *val, which the plan trains and validates on and the caller frees;
 * otherwise both are NULL and the plan trains on all of train. */
int setup_plan(const CommonOpts *c, const Dataset *train, const LrSchedule *sched, double epochs,
               TrainPlan *p, Dataset **tr, Dataset **val, Err *e);
/* One line saying how the plan trains: "schedule plateau:2:0.1, warm-up 1
 * epoch, early stopping after 5 epochs on 6000 validation rows". */
const char *setup_plan_str(const TrainPlan *p, const LrSchedule *sched, char *buf, size_t len);

#endif
