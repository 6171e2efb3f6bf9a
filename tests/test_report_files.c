/* test_report_files.c - report_export_files names every file the screen's
 * export writes, and only those: the data and scripts report_screen_plots
 * and report_network_plots write (read back from the directory), and the
 * images their scripts draw (read from their "set output" lines), for a
 * network with and without the charts that depend on what was run. The
 * screen holds these files apart from the session's (tui/worker_files.c),
 * so a file written but not named could write over one of them. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cond.h"
#include "fixtures.h"
#include "report/report_plot.h"
#include "testutil.h"

typedef struct Names {
	char name[64][96];
	int n;
} Names;

static int keep(const char *path, const char *what, void *ud)
{
	Names *s = ud;
	const char *slash = strrchr(path, '/');
	ck_assert(what && *what);
	ck_assert_int_lt(s->n, 64);
	snprintf(s->name[s->n++], sizeof s->name[0], "%s", slash ? slash + 1 : path);
	return 0;
}

static int has(const Names *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return 1;
	return 0;
}

/* The files in dir, and the images the scripts there draw. */
static void written(const char *dir, Names *s)
{
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	struct dirent *de;
	char path[4200], line[512];
	s->n = 0;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && strcmp(de->d_name, "x.md"))
			keep(de->d_name, "file", s);
	closedir(d);
	for (int i = 0, n = s->n; i < n; i++) {
		if (!strstr(s->name[i], ".gp"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, s->name[i]);
		FILE *f = fopen(path, "r");
		ck_assert_ptr_nonnull(f);
		char out[96];
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "set output '%95[^']'", out) == 1 && !has(s, out))
				keep(out, "image", s);
		fclose(f);
	}
}

static void same(const Names *a, const Names *b)
{
	ck_assert_int_eq(a->n, b->n);
	for (int i = 0; i < a->n; i++)
		ck_assert_msg(has(b, a->name[i]), "%s written but not named, or named twice",
		              a->name[i]);
}

START_TEST(names_what_is_written)
{
	Net *net = fx_sample_net(ACT_TANH, 1, 3);
	LayerCond *lc = NULL;
	Err e = {{0}};
	ck_assert_int_eq(cond_net_new(net, 25, 1, &lc, &e), 0);
	double epoch[2] = {1, 2}, kappa[6] = {2, 3, 4, 2, 3, 4}, acc[2] = {0.5, 0.6},
	       lr[2] = {1e-3, 1e-3}, loss[2] = {1, 0.9};
	for (int with = 0; with < 2; with++) {
		const char *dir = tu_tmpdir();
		ReportScreen s = {.net = net, .lc = lc, .tau = 25, .pick = -1};
		if (with) /* κ against epochs and a training's curve */
			s = (ReportScreen){.net = net,
			                   .lc = lc,
			                   .tau = 25,
			                   .pick = -1,
			                   .ks_what = "t",
			                   .ks_m = 3,
			                   .ks_n = 2,
			                   .ks_epoch = epoch,
			                   .ks_kappa = kappa,
			                   .ep_what = "t",
			                   .ep_n = 2,
			                   .ep_done = 1,
			                   .ep_acc = acc,
			                   .ep_lr = lr,
			                   .ep_loss = loss};
		const float *w[3] = {NULL, NULL, NULL};
		float w1[20], w2[12], w3[6];
		for (int i = 0; i < 20; i++)
			w1[i] = (float)(i % 5) - 2;
		for (int i = 0; i < 12; i++)
			w2[i] = (float)(i % 3) - 1;
		for (int i = 0; i < 6; i++)
			w3[i] = (float)i - 3;
		w[0] = w1, w[1] = w2, w[2] = w3;
		const Alg3Combinations *marks[2] = {NULL, NULL};
		ReportNetwork rn = {.title = "n",
		                    .subtitle = "",
		                    .m = net->m,
		                    .n = net->n,
		                    .w = w,
		                    .cap = 64,
		                    .tau = 25,
		                    .marks = marks,
		                    .lc = lc,
		                    .px = 24};
		ck_assert_int_ge(report_screen_plots(dir, "x", &s, &e), 0);
		ck_assert_msg(report_network_plots(dir, "x", &rn, &e) >= 0, "%s", e.msg);
		Names named = {.n = 0}, got;
		ck_assert_int_eq(report_export_files(dir, "x", &s, &rn, NULL, keep, &named, &e), 0);
		written(dir, &got);
		same(&got, &named);
		same(&named, &got);
		ck_assert(has(&named, "x-curve.png") == with);
		ck_assert(has(&named, "x-network.pdf"));
	}
	cond_net_free(lc, net->m);
	net_free(net);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report_files");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, names_what_is_written);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
