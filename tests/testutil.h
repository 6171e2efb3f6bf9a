/* testutil.h - small helpers shared by the unit tests (Check). */
#ifndef CONDNET_TESTUTIL_H
#define CONDNET_TESTUTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A fresh temporary directory for one test (under $TMPDIR or /tmp). */
static inline const char *tu_tmpdir(void)
{
	static char dir[512];
	const char *base = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/condnet-test-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	return dir;
}

/* Writes len bytes to dir/name; returns the path (static buffer, copy it). */
static inline const char *tu_write(const char *dir, const char *name, const void *data, size_t len)
{
	static char path[1024];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len) {
		perror(path);
		exit(1);
	}
	fclose(f);
	return path;
}

/* Runs one suite; the test program's exit status. */
static inline int tu_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
