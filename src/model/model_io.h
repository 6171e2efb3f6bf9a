/* model_io.h - the model file: a versioned binary format with a checksum.
 *
 * Layout (little-endian): magic "CONDNET\0", u32 version, u32 header bytes,
 * u32 m, u32 act, f32 act_a, u32 n[0..m], i64 adam_t, u32 flags (bit 0: Adam
 * state present), then the parameters (f32 × nparam) and, if flagged, the
 * Adam moments, then (version 2 on) the learning-rate schedule of the run
 * under way and its position (MODEL_SCHED_BYTES: u32 kind, u32 patience,
 * f64 every, f64 factor, f64 period, f64 warmup, i64 step, u32 reductions,
 * u32 bad, u32 has_best, u32 0, f64 best), then (version 3 on) what the
 * last training computed with (MODEL_RUN_BYTES: u32 reproducible mode 0/1,
 * u32 threads, u32 parts, u32 0, OpenBLAS's kernels as 32 bytes of text
 * padded with NULs, all NULs when not recorded: base/repro.h), then (version
 * 4 on) the preprocessing of the inputs (data/prep.h; MODEL_PREP_HEAD bytes:
 * u32 kind, u32 scale step, u32 image rows, u32 image cols, u32 Haar size,
 * u32 the inputs of the plane, u32 0 twice; then u32 idx[n[0]], f64
 * mean[n[0]], f64 sd[n[0]]; kind 0 when not recorded; the image's size for
 * Haar coefficients and pixels, the Haar size and idx for Haar coefficients
 * only, the inputs beyond x and y (data/plane_inputs.h, a bit each) for
 * points of the plane only, 0 otherwise), then a CRC-32 (zlib) of
 * everything before it. Version 5 adds to the header, after the flags, the
 * block of the convolution layers (model/model_conv.h), and the widths of
 * their maps count their values; a network without convolutions is written
 * as version 4, so condnet before version 5 reads it, and refuses a version
 * 5 file as newer than it reads. Version 6 records a graph network
 * (engine/graph.h): m is 1, n[0] and n[1] the graph's inputs and classes,
 * the graph's block (model/model_graph.h) where version 5 has the
 * convolutions', the parameters the graph's; only graph networks are
 * written so. A version-1 file loads with no schedule
 * run (constant, not started), a version-1 or 2 file with no record of its
 * training, a version 1 to 3 file with no record of its preprocessing. Every size is checked
 * against the file length before it is trusted, every value against the table of limits; a save is
 * checked the same way before it is written. Saving goes through file_write (base/file.h): a
 * temporary file beside the target (a link's target), fsynced and renamed
 * over it, so a failed save leaves the previous file intact; a device or FIFO
 * is written straight; "-" and a terminal are refused, the file being
 * binary. */
#ifndef CONDNET_MODEL_IO_H
#define CONDNET_MODEL_IO_H

#include "base/err.h"
#include "engine/net.h"

#define MODEL_VERSION 6
/* Bytes of the schedule block of version 2 on. */
#define MODEL_SCHED_BYTES 72
/* Bytes of the block of version 3 on that records the training's kernels. */
#define MODEL_RUN_BYTES 48
/* Bytes of the fixed part of the preprocessing block of version 4 on, and
 * of the whole block for n[0] inputs. */
#define MODEL_PREP_HEAD 32
#define MODEL_PREP_BYTES(n0) (MODEL_PREP_HEAD + 20 * (size_t)(n0))

int model_save(const Net *net, const char *path, Err *e);
/* The bytes model_save writes for net: header, parameters, the Adam
 * moments when the network has taken an Adam step, the schedule state, the
 * record of the training, the preprocessing and the checksum. */
size_t model_file_bytes(const Net *net);
/* The model in path, with every check: sizes against the file, the CRC,
 * and every value against the table of limits (engine/limits.h): widths,
 * parameter count, activation scale, Adam step count, the schedule, the
 * preprocessing; every parameter and Adam moment finite, the second moments
 * not negative. */
Net *model_load(const char *path, Err *e);
/* The same, but model_load refuses a graph network (version 6), naming the
 * commands that take one, and model_load_any reads either kind. */
Net *model_load_any(const char *path, Err *e);
/* The same checks on a model's bytes in memory (name for messages), with
 * no network built: model_save runs them on what it is about to write, and
 * refuses to write what would not load back. */
int model_check(const void *buf, size_t len, const char *name, Err *e);

#endif
