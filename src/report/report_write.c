/* report_write.c - the files records are written to: a JSON record, with
 * the kernels it was computed with, and a text a report function writes,
 * each written whole or not at all (base/file.h). */
#include "report/report.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/kernels.h"
#include "report/report_rec.h"

/* The kernels a record was computed with, and why when there is a why
 * (base/kernels.h): "kernels", "kernels_why". 0, or -1 when out of memory. */
static int kernels_json(cJSON *root)
{
	if (!cJSON_IsObject(root) || cJSON_GetObjectItemCaseSensitive(root, "kernels"))
		return 0;
	KernelsChoice k;
	char why[256];
	kernels_current(&k);
	if (json_add(root, "kernels", cJSON_CreateString(k.core), NULL))
		return -1;
	if (kernels_why_text(&k, 0, why, sizeof why)[0] &&
	    json_add(root, "kernels_why", cJSON_CreateString(why), NULL))
		return -1;
	return 0;
}

int report_write_json(const char *path, struct cJSON *root, Err *e)
{
	if (root && kernels_json(root))
		return err_set(e, "%s: out of memory while formatting JSON", path);
	char *s = root ? cJSON_Print(root) : NULL;
	if (!s)
		return err_set(e, "%s: out of memory while formatting JSON", path);
	size_t n = strlen(s);
	s[n] = '\n'; /* cJSON's terminator becomes the final newline */
	int rc = file_write(path, s, n + 1, FILE_OUT_TEXT, e);
	cJSON_free(s);
	return rc;
}

void report_free(struct cJSON *root)
{
	cJSON_Delete(root);
}

int report_write_record(const char *path, struct cJSON *root, Err *e)
{
	if (!root)
		return -1;
	int rc = report_write_json(path, root, e);
	cJSON_Delete(root);
	return rc;
}

int report_write_file(const char *path, ReportFn fn, const void *ud, Err *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return err_set(e, "%s: out of memory", path);
	int rc = fn(f, ud, e);
	if (fclose(f)) {
		free(buf);
		return err_set(e, "%s: out of memory", path);
	}
	if (rc == 0)
		rc = file_write(path, buf, len, FILE_OUT_TEXT, e);
	else
		err_prefix(e, "%s", path);
	free(buf);
	return rc;
}
