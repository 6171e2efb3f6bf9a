/* model_io_int.h - what the writer (model_save.c) and the reader
 * (model_io.c) of model files share (not a public interface): the
 * header's layout and the reader's checks on bytes made in memory (the
 * numbers in the file's order are model_bytes.h's). */
#ifndef CONDNET_MODEL_IO_INT_H
#define CONDNET_MODEL_IO_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/err.h"
#include "model/model_bytes.h"
#include "model/model_conv.h"

/* The file's first bytes. */
static const char MAGIC[8] = {'C', 'O', 'N', 'D', 'N', 'E', 'T', '\0'};

/* Bytes before n[0]: magic, version, header bytes, m, act, act_a. */
#define FIXED_HEAD 28
/* Bytes after n[m] in the header: adam_t, flags. */
#define TAIL_HEAD 12
#define FLAG_ADAM 1u

/* The header of m layers, in bytes. */
static inline uint64_t header_bytes(uint64_t m)
{
	return FIXED_HEAD + 4 * (m + 1) + TAIL_HEAD;
}

/* The header of m layers, nconv of them convolutions (their block from
 * version 5 on). */
static inline uint64_t header_bytes_v(uint64_t m, uint32_t version, uint64_t nconv)
{
	return header_bytes(m) + (version >= 5 ? model_conv_bytes(nconv) : 0);
}

/* The loader's checks (model_load) on size bytes that next(ud, dst, n)
 * gives in order, n at a time; path names them in messages. 0, or -1 with
 * the message the loader would give. */
int model_read_check(void (*next)(void *ud, unsigned char *dst, size_t n), void *ud, uint64_t size,
                     const char *path, Err *e);

#endif
