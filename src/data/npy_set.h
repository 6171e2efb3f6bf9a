/* npy_set.h - a set of .npy files in one directory (a network's W1.npy
 * b1.npy …, a data set's x_train.npy …) that appears whole or not at all,
 * and the manifest a reader checks it by.
 *
 * Writing (npy_set_begin, npy_set_add_*, npy_set_commit): every file is
 * written first into a directory of its own, then
 * - when DIR does not exist, that directory (DIR.tmp.XXXXXX, beside DIR) is
 *   renamed to DIR: the set appears at once, whole, or not at all;
 * - when DIR exists, the files are written into DIR.tmp.XXXXXX beside it,
 *   which also gets the manifest, DIR's other files (second links to them,
 *   copies of its symbolic links) and DIR's mode, and the two directories
 *   are exchanged in one rename (renameat2 RENAME_EXCHANGE): DIR holds the
 *   older set or the new one whatever ends the process, SIGKILL included,
 *   and whoever reads it (condnet, NumPy) never sees a mix;
 * - only where DIR cannot be exchanged (it holds a directory, FIFO or other
 *   entry that is not a file or link, it is a mount point or this process's
 *   working directory, or its file system has no RENAME_EXCHANGE) are the
 *   files renamed over DIR's one by one, between two writes of the manifest:
 *   from before the first rename the manifest names the new files, so a set
 *   cut short (SIGKILL, a crash) or mixed with another export's does not
 *   match it and npy_set_check refuses it.
 * A full disk fails while the files are written aside, before DIR changes.
 * The manifest (NPY_SET_MANIFEST) lists every file with its shape, size and
 * CRC-32. A signal that would end the process waits until the set is in
 * place or removed (signals_group_begin). SIGKILL may leave the directory
 * written aside: the next set written for DIR removes it (a directory the
 * run that wrote it still holds, flock, is left to that run).
 *
 * Reading (npy_set_check): a directory without a manifest (written by a
 * Keras or PyTorch script) is read as it is; with one, every file it lists
 * must be there with its size and CRC-32. */
#ifndef CONDNET_NPY_SET_H
#define CONDNET_NPY_SET_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "data/dataset.h"

#define NPY_SET_MANIFEST "condnet-manifest.txt"

typedef struct NpySet NpySet;

/* A set to be written into dir (made if missing); kind says what it holds
 * ("network", "data") in the manifest. NULL with a message. */
NpySet *npy_set_begin(const char *dir, const char *kind, Err *e);
/* A line "KEY VALUE" of the manifest (a network's layout). */
int npy_set_note(NpySet *s, const char *key, const char *value, Err *e);
/* A file NAME of the set: a 1-D (cols < 0) or 2-D float32 or int32 array. */
int npy_set_add_f32(NpySet *s, const char *name, const float *v, long rows, long cols, Err *e);
int npy_set_add_i32(NpySet *s, const char *name, const int32_t *v, long rows, long cols, Err *e);
/* A float32 array of nd (1 to 4) dimensions dims (a convolution's kernels). */
int npy_set_add_f32_nd(NpySet *s, const char *name, const float *v, int nd, const long *dims,
                       Err *e);
/* A data set as x_PART.npy (rows × features, float32, the features the
 * trainer sees) and y_PART.npy (rows, int32 class labels) of the set. */
int npy_set_add_dataset(NpySet *s, const Dataset *ds, const char *part, Err *e);
/* Puts the set in place and frees s; on failure what was written aside is
 * removed (and DIR may be left between two sets, which its manifest then
 * refuses). */
int npy_set_commit(NpySet *s, Err *e);
/* Removes what was written aside and frees s (NULL is accepted). */
void npy_set_abort(NpySet *s);

/* A file the manifest lists. */
typedef struct NpySetFile {
	char name[64];
	char shape[48]; /* "4x8", "8" */
	long long bytes;
	uint32_t crc;
} NpySetFile;

/* A manifest read back. */
typedef struct NpyManifest {
	char kind[32];    /* "network", "data" */
	char layout[32];  /* a network's: "keras", "torch" */
	char input[32];   /* a network with convolutions: its input images "CxHxW" */
	char layers[512]; /* and its layers as --layers names them ("conv:6:5,pool:2,120") */
	char *prep;       /* a network's record of its inputs' preprocessing
	                   * (data/prep_text.h), or NULL */
	int n;
	NpySetFile *files;
} NpyManifest;

/* Reads dir's manifest into m and checks every file it lists: 1 when they
 * all match, 0 when dir has no manifest (m empty), -1 with a message naming
 * the first file that is missing or differs (the set is not whole). */
int npy_set_check(const char *dir, NpyManifest *m, Err *e);
void npy_manifest_free(NpyManifest *m);

#endif
