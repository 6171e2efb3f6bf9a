/* fann_epoch.c - one epoch of the same network in FANN (libfann), for
 * comparison: the same layer sizes, symmetric sigmoid hidden units (FANN has
 * no erf), FANN_TRAIN_RPROP (its fastest batch algorithm) and, for
 * mini-batch-like updates, FANN_TRAIN_INCREMENTAL; float32, 60,000 random rows.
 * FANN runs on one thread, row by row (no matrix products), so a full epoch
 * of this network takes minutes: bench/train-epoch times ROWS rows and scales.
 *
 *   fann_epoch [ROWS]   (default 60000; a smaller count is scaled up) */
#include <fann.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	int arg = argc > 1 ? atoi(argv[1]) : 60000;
	if (arg < 1 || arg > 60000) {
		fprintf(stderr, "usage: fann_epoch [ROWS 1..60000]\n");
		return 2;
	}
	unsigned rows = (unsigned)arg;
	unsigned w[] = {200, 600, 410, 510, 420, 364, 319, 278, 249, 212, 180, 130, 50, 10};
	struct fann_train_data *d = fann_create_train(rows, 200, 10);
	if (!d)
		return 1;
	srand(1);
	for (unsigned i = 0; i < rows; i++) {
		for (int j = 0; j < 200; j++)
			d->input[i][j] = (fann_type)rand() / RAND_MAX - 0.5f;
		for (int j = 0; j < 10; j++)
			d->output[i][j] = j == (int)(i % 10) ? 1 : -1;
	}
	enum fann_train_enum algs[] = {FANN_TRAIN_RPROP, FANN_TRAIN_INCREMENTAL};
	for (int a = 0; a < 2; a++) {
		struct fann *ann = fann_create_standard_array(14, w);
		if (!ann)
			return 1;
		fann_set_activation_function_hidden(ann, FANN_SIGMOID_SYMMETRIC);
		fann_set_activation_function_output(ann, FANN_SIGMOID_SYMMETRIC);
		fann_set_training_algorithm(ann, algs[a]);
		double t0 = now();
		fann_train_epoch(ann, d);
		double t = (now() - t0) * 60000.0 / rows;
		printf("%s: epoch %.2f s (of 60000 rows)\n", FANN_TRAIN_NAMES[algs[a]], t);
		fann_destroy(ann);
	}
	fann_destroy_train(d);
	return 0;
}
