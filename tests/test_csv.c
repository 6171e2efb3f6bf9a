/* test_csv.c - the numeric CSV loader: headers, label columns, every error. */
#include "data/csv.h"
#include "testutil.h"

/* One scratch directory for the whole run, removed when the tests end. */
static char dir[512];

static void dir_make(void)
{
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
}

static void dir_remove(void)
{
	tu_rmtree(dir);
}

static char path[1024];

static const char *put(const char *text)
{
	snprintf(path, sizeof path, "%s", tu_write(dir, "d.csv", text, strlen(text)));
	return path;
}

/* Loads text expecting failure; the message must contain want. */
static void fails_with(const char *text, int label_col, const char *want)
{
	Dataset *ds = (Dataset *)1;
	Err e;
	ck_assert_int_eq(csv_load(put(text), label_col, &ds, &e), -1);
	ck_assert_ptr_null(ds);
	ck_assert_msg(strstr(e.msg, want) != NULL, "message '%s' lacks '%s'", e.msg, want);
}

START_TEST(test_header_label_last)
{
	Dataset *ds;
	Err e;
	ck_assert_int_eq(
	    csv_load(put("x1, x2 ,class\r\n1.5,-2,0\r\n\r\n3e2, 4 ,2\r\n  \n5,6,1"), -1, &ds, &e),
	    0);
	ck_assert_int_eq(ds->n, 3);
	ck_assert_int_eq(ds->d, 2);
	ck_assert_int_eq(ds->k, 3);
	ck_assert_float_eq(ds->x[0], 1.5f);
	ck_assert_float_eq(ds->x[1], -2.0f);
	ck_assert_float_eq(ds->x[2], 300.0f);
	ck_assert_float_eq(ds->x[5], 6.0f);
	ck_assert_int_eq(ds->y[0], 0);
	ck_assert_int_eq(ds->y[1], 2);
	ck_assert_int_eq(ds->y[2], 1);
	ck_assert_str_eq(ds->name, "d.csv");
	dataset_free(ds);
}
END_TEST

START_TEST(test_no_header_label_first)
{
	Dataset *ds;
	Err e;
	ck_assert_int_eq(csv_load(put("4,0.25,0.5,0.75\n0,1,2,3\n"), 0, &ds, &e), 0);
	ck_assert_int_eq(ds->n, 2);
	ck_assert_int_eq(ds->d, 3);
	ck_assert_int_eq(ds->k, 5);
	ck_assert_int_eq(ds->y[0], 4);
	ck_assert_int_eq(ds->y[1], 0);
	ck_assert_float_eq(ds->x[0], 0.25f);
	ck_assert_float_eq(ds->x[2], 0.75f);
	ck_assert_float_eq(ds->x[3], 1.0f);
	dataset_free(ds);
	/* A middle label column. */
	ck_assert_int_eq(csv_load(put("7,1,8\n9,0,10\n"), 1, &ds, &e), 0);
	ck_assert_int_eq(ds->y[0], 1);
	ck_assert_float_eq(ds->x[1], 8.0f);
	ck_assert_float_eq(ds->x[2], 9.0f);
	dataset_free(ds);
}
END_TEST

START_TEST(test_long_line)
{
	/* 5000 features on one line: no fixed line buffer. */
	size_t cap = 5001 * 8 + 16;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	size_t at = 0;
	for (int j = 0; j < 5000; j++)
		at += (size_t)snprintf(text + at, cap - at, "%d.5,", j);
	snprintf(text + at, cap - at, "1\n");
	Dataset *ds;
	Err e;
	ck_assert_int_eq(csv_load(put(text), -1, &ds, &e), 0);
	ck_assert_int_eq(ds->d, 5000);
	ck_assert_float_eq(ds->x[4999], 4999.5f);
	ck_assert_int_eq(ds->y[0], 1);
	dataset_free(ds);
	free(text);
}
END_TEST

START_TEST(test_errors)
{
	fails_with("a,b,c,d,e\n1,2,3,4,0\n1,2,3,4,1\n\n\n1,2,3,4,1\n1,2,3,0\n", -1,
	           "d.csv:7: 4 fields, expected 5");
	fails_with("1,2,0\n1,2,3,1\n", -1, "d.csv:2: 4 fields, expected 3");
	fails_with("a,b,y\n1,2,0\n1,abc,1\n", -1, "d.csv:3: column 2: 'abc' is not a number");
	fails_with("1,2,0\n1,2x,0\n", -1, "d.csv:2: column 2: '2x' is not a number");
	fails_with("1,2,0\n1,,0\n", -1, "d.csv:2: column 2: '' is not a number");
	fails_with("1,2,0\nnan,2,1\n", -1, "d.csv:2: column 1: 'nan' is NaN");
	fails_with("1,2,0\n1,-inf,1\n", -1, "d.csv:2: column 2: '-inf' is not a finite");
	fails_with("1,1e39,0\n", -1, "d.csv:1: column 2: '1e39' is not a finite single-precision");
	fails_with("", -1, "d.csv: empty file");
	fails_with("\n  \r\n", -1, "d.csv: empty file");
	fails_with("a,b\n", -1, "d.csv: a header line and no data rows");
	fails_with("1,2,1.5\n", -1, "d.csv:1: column 3: label '1.5' is not a non-negative integer");
	fails_with("1,2,-1\n", -1, "d.csv:1: column 3: label '-1' is not a non-negative integer");
	fails_with("1,2,100001\n", -1, "d.csv:1: column 3: label '100001' is larger than 100000");
	fails_with("1,2,0\n", 3, "label column 3 (counting from 0) but rows have 3 fields");
	fails_with("1\n2\n", -1, "d.csv:1: 1 field, expected at least 2");
	Dataset *ds;
	Err e;
	ck_assert_int_eq(csv_load("/nonexistent/d.csv", -1, &ds, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/d.csv: cannot open"));
}
END_TEST

#define BOM "\xef\xbb\xbf"

/* A UTF-8 byte-order mark is skipped: the first row is data, not a header
 * (and a header after a mark is still a header). */
START_TEST(test_byte_order_mark)
{
	Dataset *ds;
	Err e;
	ck_assert_int_eq(csv_load(put(BOM "1,2,0\n3,4,1\n"), -1, &ds, &e), 0);
	ck_assert_int_eq(ds->n, 2);
	ck_assert_float_eq(ds->x[0], 1.0f);
	ck_assert_float_eq(ds->x[1], 2.0f);
	ck_assert_int_eq(ds->y[0], 0);
	dataset_free(ds);
	ck_assert_int_eq(csv_load(put(BOM "a,b,y\n3,4,1\n"), -1, &ds, &e), 0);
	ck_assert_int_eq(ds->n, 1);
	ck_assert_float_eq(ds->x[0], 3.0f);
	dataset_free(ds);
	/* only at the start of the file */
	fails_with("1,2,0\n" BOM "3,4,1\n", -1, "d.csv:2: column 1: '" BOM "3' is not a number");
}
END_TEST

/* A NUL byte is named with its line and position, not counted as a field end. */
START_TEST(test_nul_byte)
{
	Dataset *ds = (Dataset *)1;
	Err e;
	const char text[] = "1,2,0\n3,4\0,1\n";
	const char *p = tu_write(dir, "nul.csv", text, sizeof text - 1);
	ck_assert_int_eq(csv_load(p, -1, &ds, &e), -1);
	ck_assert_ptr_null(ds);
	ck_assert_ptr_nonnull(strstr(e.msg, "nul.csv:2: NUL byte at character 4, expected text"));
	const char text2[] = BOM "1,\0";
	p = tu_write(dir, "nul.csv", text2, sizeof text2 - 1);
	ck_assert_int_eq(csv_load(p, -1, &ds, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "nul.csv:1: NUL byte at character 3, expected text"));
}
END_TEST

/* A header is a first line in which no field is a number; a first line
 * with a number in it is a row, so damage there is reported, not dropped
 * as a header (1.0,,0 and 1.0,2.O,1 used to vanish). */
START_TEST(test_header_rule)
{
	Dataset *ds;
	Err e;
	fails_with("1.0,,0\n3,4,1\n", -1,
	           "d.csv:1: column 2: '' is not a number (a first line with a number in it is "
	           "data, not a header)");
	fails_with("1.0,2.O,1\n3,4,1\n", -1, "d.csv:1: column 2: '2.O' is not a number (a first");
	fails_with("x,2,y\n3,4,1\n", -1, "d.csv:1: column 1: 'x' is not a number (a first");
	/* the remark belongs to the first line only */
	fails_with("a,b,y\n1,,0\n", -1, "d.csv:2: column 2: '' is not a number");
	Err e2;
	ck_assert_int_eq(csv_load(put("a,b,y\n1,,0\n"), -1, &ds, &e2), -1);
	ck_assert_ptr_null(strstr(e2.msg, "header"));
	/* names, empty names and quoted names make a header */
	ck_assert_int_eq(csv_load(put("x,,\"y\"\n1,2,0\n3,4,1\n"), -1, &ds, &e), 0);
	ck_assert_int_eq(ds->n, 2);
	dataset_free(ds);
}
END_TEST

/* Lines end with LF, CRLF or a lone CR: the same rows each way. */
START_TEST(test_line_ends)
{
	const char *texts[] = {"x,y\n1,0\n2,1\n3,0", "x,y\r\n1,0\r\n2,1\r\n3,0\r\n",
	                       "x,y\r1,0\r2,1\r3,0\r", "x,y\r1,0\n2,1\r\n3,0\r"};
	for (int t = 0; t < 4; t++) {
		Dataset *ds;
		Err e;
		ck_assert_msg(csv_load(put(texts[t]), -1, &ds, &e) == 0, "%d: %s", t, e.msg);
		ck_assert_int_eq(ds->n, 3);
		ck_assert_float_eq(ds->x[2], 3.0f);
		ck_assert_int_eq(ds->y[1], 1);
		dataset_free(ds);
	}
	/* line numbers count CR-ended lines */
	fails_with("1,0\r2,x\r", -1, "d.csv:2: column 2: 'x' is not a number");
}
END_TEST

/* UTF-16 (or UTF-32) text is named by its byte-order mark. */
START_TEST(test_utf16)
{
	Dataset *ds = (Dataset *)1;
	Err e;
	const char le[] = "\xff\xfe"
	                  "1\0,\0"
	                  "0\0\n\0";
	ck_assert_int_eq(csv_load(tu_write(dir, "u.csv", le, sizeof le - 1), -1, &ds, &e), -1);
	ck_assert_ptr_null(ds);
	ck_assert_ptr_nonnull(strstr(e.msg, "u.csv: starts with a UTF-16 or UTF-32 byte-order "
	                                    "mark (FF FE), expected UTF-8 or ASCII text"));
	const char be[] = "\xfe\xff"
	                  "\0"
	                  "1\0,\0"
	                  "0\0\n";
	ck_assert_int_eq(csv_load(tu_write(dir, "u.csv", be, sizeof be - 1), -1, &ds, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "(FE FF)"));
}
END_TEST

/* A line of more than 16 MiB is refused once the limit is reached. */
START_TEST(test_line_limit)
{
	size_t len = (16u << 20) + 10;
	char *text = malloc(len);
	ck_assert_ptr_nonnull(text);
	memcpy(text, "1,2,0\n", 6);
	memset(text + 6, '1', len - 6);
	Dataset *ds = (Dataset *)1;
	Err e;
	const char *p = tu_write(dir, "long.csv", text, len);
	free(text);
	ck_assert_int_eq(csv_load(p, -1, &ds, &e), -1);
	ck_assert_ptr_null(ds);
	ck_assert_ptr_nonnull(strstr(e.msg, "long.csv:2: line longer than 16777216 bytes"));
}
END_TEST

/* Devices and directories are refused before reading (csv:/dev/zero would
 * grow one line without bound). */
START_TEST(test_not_regular)
{
	Dataset *ds = (Dataset *)1;
	Err e;
	ck_assert_int_eq(csv_load("/dev/zero", -1, &ds, &e), -1);
	ck_assert_ptr_null(ds);
	ck_assert_str_eq(e.msg, "/dev/zero: not a regular file");
	ck_assert_int_eq(csv_load(dir, -1, &ds, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, ": not a regular file"));
}
END_TEST

/* Rows without labels (what predict reads): a header, every column a
 * feature; the width, a value out of range, NaN and text refused naming the
 * line and column; a byte-order mark and lone CR line ends read past. */
START_TEST(test_rows_without_labels)
{
	Dataset *ds;
	Err e;
	CsvRows o = {.cols = 3, .cols_why = "m.model takes 3 inputs"};
	ck_assert_msg(csv_load_rows(put("\xef\xbb\xbf"
	                                "a,b,c\r1,2,3\r\n\n4,5.5,-6\n"),
	                            &o, &ds, &e) == 0,
	              "%s", e.msg);
	ck_assert_int_eq(ds->n, 2);
	ck_assert_int_eq(ds->d, 3);
	ck_assert_int_eq(ds->k, 1);
	static const float want[6] = {1, 2, 3, 4, 5.5f, -6};
	ck_assert_mem_eq(ds->x, want, sizeof want);
	ck_assert_int_eq(ds->y[0] + ds->y[1], 0);
	dataset_free(ds);
	/* one column is a row of one feature (a CR within the bytes read ahead) */
	ck_assert_int_eq(csv_load_rows(put("7\r8\n"), NULL, &ds, &e), 0);
	ck_assert_int_eq(ds->n * 10 + ds->d, 21);
	dataset_free(ds);

	ck_assert_int_eq(csv_load_rows(put("1,2\n"), &o, &ds, &e), -1);
	ck_assert_msg(strstr(e.msg, "d.csv:1: 2 columns, but m.model takes 3 inputs"), "%s", e.msg);
	ck_assert_int_eq(csv_load_rows(put("x,y,z\n1,2,3\n1,2\n"), &o, &ds, &e), -1);
	ck_assert_msg(strstr(e.msg, "d.csv:3: 2 fields, expected 3"), "%s", e.msg);
	ck_assert_int_eq(csv_load_rows(put("1,2,3\n4,nan,6\n"), &o, &ds, &e), -1);
	ck_assert_msg(strstr(e.msg, "d.csv:2: column 2: 'nan' is NaN"), "%s", e.msg);
	ck_assert_int_eq(csv_load_rows(put("1,2,3\n4,5,six\n"), &o, &ds, &e), -1);
	ck_assert_msg(strstr(e.msg, "d.csv:2: column 3: 'six' is not a number"), "%s", e.msg);
	ck_assert_int_eq(csv_load_rows(put(""), &o, &ds, &e), -1);
	ck_assert_msg(strstr(e.msg, "d.csv: empty file"), "%s", e.msg);
	CsvRows px = {.lo = 0, .hi = 255, .range_why = "a pixel value"};
	ck_assert_int_eq(csv_load_rows(put("0,255\n12,256\n"), &px, &ds, &e), -1);
	ck_assert_msg(strstr(e.msg, "d.csv:2: column 2: a pixel value is 256, expected 0..255"),
	              "%s", e.msg);
}
END_TEST

/* Labels held below the network's outputs: a larger one names its line and column. */
START_TEST(test_classes_limit)
{
	Dataset *ds;
	Err e;
	ck_assert_int_eq(csv_load_classes(put("1,2,0\n3,4,2\n"), -1, 3, &ds, &e), 0);
	dataset_free(ds);
	ck_assert_int_eq(csv_load_classes(put("1,2,0\n3,4,3\n"), -1, 3, &ds, &e), -1);
	ck_assert_msg(strstr(e.msg, "d.csv:2: column 3: class 3 is beyond the network's 3 outputs "
	                            "(classes 0..2)"),
	              "%s", e.msg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("csv");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_header_label_last);
	tcase_add_test(tc, test_no_header_label_first);
	tcase_add_test(tc, test_long_line);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_byte_order_mark);
	tcase_add_test(tc, test_nul_byte);
	tcase_add_test(tc, test_line_limit);
	tcase_add_test(tc, test_header_rule);
	tcase_add_test(tc, test_line_ends);
	tcase_add_test(tc, test_utf16);
	tcase_add_test(tc, test_not_regular);
	tcase_add_test(tc, test_rows_without_labels);
	tcase_add_test(tc, test_classes_limit);
	tcase_add_unchecked_fixture(tc, dir_make, dir_remove);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
