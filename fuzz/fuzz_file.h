/* fuzz_file.h - writes a fuzz input to a temporary file for loaders that take
 * a path (the file is created once per process and rewritten for each
 * input), and recomputes the trailing checksum of a mutated input. */
#ifndef CONDNET_FUZZ_FILE_H
#define CONDNET_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* Returns the path of a file holding exactly data[0..size); suffix (".gz",
 * ".csv", …) is kept at the end of the name. Never NULL: a failure to write
 * the input is a fault of the harness, not of the loader. */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
	static char path[256];
	static int fd = -1;
	if (fd < 0) {
		const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
		snprintf(path, sizeof path, "%s/condnet-fuzz-XXXXXX%s", dir, suffix);
		fd = mkstemps(path, (int)strlen(suffix));
		if (fd < 0) {
			perror(path);
			abort();
		}
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size) {
		perror(path);
		abort();
	}
	return path;
}

/* A copy of data[0..size) whose last four bytes are the CRC-32 (zlib,
 * little-endian) of the bytes before them, as condnet's model files and
 * feature cache end: mutations then reach the checks behind the checksum.
 * NULL when size < 8 or memory runs out; free it. */
static inline uint8_t *fuzz_with_crc(const uint8_t *data, size_t size)
{
	if (size < 8)
		return NULL;
	uint8_t *fixed = malloc(size);
	if (!fixed)
		return NULL;
	memcpy(fixed, data, size);
	uLong crc = crc32_z(crc32(0L, Z_NULL, 0), fixed, size - 4);
	for (int i = 0; i < 4; i++)
		fixed[size - 4 + i] = (uint8_t)(crc >> (8 * i));
	return fixed;
}

#endif
