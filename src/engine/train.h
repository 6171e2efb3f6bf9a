/* train.h - mini-batch training with Adam, forward and backward passes as
 * OpenBLAS sgemm on batch-major float32 matrices, and evaluation.
 *
 * A Trainer holds the workspaces for one network shape and one data set and
 * can be stepped a few batches at a time, so a screen can stay responsive and
 * an algorithm can train fractional epochs. It computes on a pool of its own
 * threads (base/pool.h), OpenBLAS itself on one thread in each: every batch's
 * work is split into TrainOpts.threads parts (fewer for a small network;
 * REPRO_PARTS whatever the threads in the reproducible mode, base/repro.h).
 * Results depend only on the seed, that count and the network's shape: not
 * on how many threads run the parts (workers), and evaluation not on any
 * thread count. */
#ifndef CONDNET_TRAIN_H
#define CONDNET_TRAIN_H

#include <stdint.h>

#include "base/err.h"
#include "data/dataset.h"
#include "engine/adam.h"
#include "engine/net.h"

typedef struct TrainOpts {
	int batch;        /* mini-batch size (default 50) */
	AdamOpts adam;    /* adam.lr is the base rate the schedule scales */
	uint64_t seed;    /* shuffling order */
	int shuffle;      /* 1 (default): reshuffle every epoch */
	int threads;      /* threads, and parts a batch is split into (fewer for a small
	                     network: train_pass.h); 0 = the default, pool_default_threads();
	                     > 0 also becomes that default */
	int workers;      /* threads that compute the parts, 1..threads; 0 = threads. Fewer
	                     compute the same bits (Algorithm 2's trials side by side) */
	LrSchedule sched; /* the learning-rate schedule (default constant) */
	int sched_keep;   /* 0 (default): a new trainer starts a run of sched on the
	                   * network; 1: it continues the run the network carries
	                   * (net->sched from net->sched_st), and sched is ignored */
} TrainOpts;

#define TRAIN_MAX_THREADS 64

void train_opts_default(TrainOpts *o);
/* The thread count these options ask for (threads, or the default when 0;
 * at most TRAIN_MAX_THREADS): a trainer splits each batch into that many
 * parts, or fewer for a small network. */
int train_threads(const TrainOpts *o);

typedef struct TrainProgress {
	double epoch;   /* epochs done, fractional */
	long batch;     /* batches done in this call */
	long batches;   /* batches this call will run */
	double loss;    /* mean cross-entropy over the batches of the current epoch so far */
	double acc;     /* training accuracy over the same batches */
	double seconds; /* wall time since the call started */
	int epoch_end;  /* 1 when this report closes an epoch */
	double lr;      /* the learning rate of the last batch (schedule applied) */
} TrainProgress;

/* Called after every batch (or every few: see trainer_set_report_every);
 * returning non-zero stops training early (train_* then return 1). */
typedef int (*TrainCallback)(const TrainProgress *p, void *ud);

typedef struct Trainer Trainer;

/* The trainer keeps pointers to net and data; both must outlive it, and the
 * net's shape must not change while it lives (create a new one after a
 * structural change). Unless o->sched_keep, it sets net->sched to o->sched
 * and zeroes net->sched_st: a new run of the schedule, whose every batch
 * advances net->sched_st.step. Fails when the schedule cannot run
 * (sched_ready: an unresolved cosine). */
Trainer *trainer_new(Net *net, const Dataset *data, const TrainOpts *o, Err *e);
void trainer_free(Trainer *t);
/* Runs nbatches mini-batches, the number run into *done (may be NULL): 0;
 * 1 when the callback asked to stop (after *done of them); -1 on error (a
 * NaN or Inf loss: the weights from before that batch are restored and the
 * message names the epoch and batch). */
int trainer_step(Trainer *t, long nbatches, long *done, Err *e);
double trainer_epoch(const Trainer *t); /* epochs done so far, fractional */
long trainer_batches_per_epoch(const Trainer *t);
/* Advances the batch order by nbatches batches without training, reshuffling
 * where training would: a trainer with the seed of an earlier one, skipping
 * the batches that one ran, goes on in its order (a resumed run). */
void trainer_skip(Trainer *t, long nbatches);

/* Trains for `epochs` (may be fractional: ceil(epochs·batches-per-epoch)
 * batches); a cosine schedule without a length runs over these epochs.
 * Returns 0 when done, 1 when cb asked to stop, -1 on error (a plateau
 * schedule, which needs a validation set: see train_plan.h). */
int train_epochs(Net *net, const Dataset *data, const TrainOpts *o, double epochs, TrainCallback cb,
                 void *ud, Err *e);

/* Classification error in [0,1] (into *err) and mean cross-entropy (into
 * *loss, may be NULL) of net on data, in chunks of 1024 rows on
 * pool_default_threads() threads (each chunk on one, so the result does not
 * depend on the count). 0, or -1 with a message when the data set does not
 * fit the network (features, labels), is empty, or memory runs out. */
int net_error(const Net *net, const Dataset *data, double *err, double *loss, Err *e);
/* The same on `threads` threads (0: the default). */
int net_error_threads(const Net *net, const Dataset *data, int threads, double *err, double *loss,
                      Err *e);
/* Output-layer probabilities or the last hidden activations: the forward
 * pass over rows x[0..n) into out (n × n[layer]); layer 0..m, m = softmax.
 * Chunked and threaded as net_error. */
int net_forward(const Net *net, const float *x, int n, int layer, float *out, Err *e);
/* The same on the calling thread alone, with OpenBLAS on blas_threads
 * threads of its own (left so; one when < 1), as a program that hands a batch
 * to a threaded OpenBLAS runs it: for timing a forward pass on the threads of
 * --threads (model/net_cost.h). The outputs are net_forward's but for the
 * last bits where OpenBLAS's threads split its products otherwise. */
int net_forward_blas(const Net *net, const float *x, int n, int layer, float *out, int blas_threads,
                     Err *e);

/* The class a row of k outputs (logits or probabilities) answers: the
 * first largest output, or NET_NO_ANSWER when an output is not finite (an
 * input so large that the network overflows): such a row answers no class,
 * is counted as answered wrong, and its loss is not finite. The one rule for
 * every answer condnet counts or writes (evaluation, predict, the regions of
 * the plane, the squeeze preview). */
#define NET_NO_ANSWER (-1)
int net_answer(const float *out, int k);

/* Reports how many of total rows are done; non-zero asks to stop. */
typedef int (*NetRowsFn)(long done, long total, void *ud);
/* What net answers for rows x[0..n) (n × n[0]): cls[r] the class of row r
 * (net_answer's: the first largest output, the one net_error counts as the
 * answer, or NET_NO_ANSWER when an output is not finite, its probabilities
 * then NaN) and, when prob is not NULL, the probabilities (n × n[m]). With labels y (may
 * be NULL; each below n[m], else an error naming the row from 1) *correct
 * and *loss (either may be NULL) are the rows answered right and the mean
 * cross-entropy, summed as net_error sums them: 1 − correct/n and the loss
 * are net_error's to the bit. Computed in slices of 16384 rows, progress
 * (may be NULL) told after each: 0, 1 when progress asked to stop, -1. */
int net_classify(const Net *net, const float *x, const int *y, int n, int *cls, float *prob,
                 long *correct, double *loss, NetRowsFn progress, void *ud, Err *e);

/* The callback trainer_step reports to (after every batch by default, and
 * always on the last batch of an epoch and of the call); NULL for none. */
void trainer_set_callback(Trainer *t, TrainCallback cb, void *ud);
/* Reports every `every` batches (>= 1). */
void trainer_set_report_every(Trainer *t, long every);

/* The gradient of the mean cross-entropy over rows x[0..n) (n × n[0]) with
 * labels y[0..n), written to grad[0..nparam) in the parameter layout, and
 * the loss into *loss (if given). Allocates its own workspace; the network
 * is not changed. */
int train_gradient(Net *net, const float *x, const int *y, int n, float *grad, double *loss,
                   Err *e);

#endif
