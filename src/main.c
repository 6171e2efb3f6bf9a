/* main.c - condnet's entry point: picks the subcommand and hands over. */
#include <stdio.h>
#include <string.h>

#include "base/file.h"
#include "base/kernels.h"
#include "base/offload.h"
#include "base/repro.h"
#include "base/signals.h"
#include "cli/cli.h"
#include "config.h"
#include "data/datasets.h"
#include "setup/places.h"
#include "tui/tui.h"

static const struct {
	const char *name;
	int (*run)(int, char **);
	const char *what;
} commands[] = {
    {"tui", tui_cmd, "the interactive screen (the default with no command)"},
    {"train", cmd_train, "train a network"},
    {"alg1", cmd_alg1, "Algorithm 1: proportions of neurons by conditioning"},
    {"sweep", cmd_sweep, "Algorithm 2: scale the widths by each beta"},
    {"squeeze", cmd_squeeze, "Algorithm 3: squeeze a trained network with pivoted QR"},
    {"cond", cmd_cond, "print the per-layer conditioning of a saved model"},
    {"eval", cmd_eval, "accuracy, per-class figures and agreement of saved networks"},
    {"predict", cmd_predict, "the classes and probabilities a saved network answers"},
    {"import", cmd_import, "read a dense network from NumPy .npy files or an ONNX model"},
    {"export", cmd_export, "write a model as NumPy .npy files or an ONNX model"},
    {"paper", cmd_paper, "reproduce the paper's experiments (mnist or adult)"},
    {"replay", cmd_replay, "replay a session log without a screen"},
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: condnet [COMMAND] [OPTIONS]\n\n"
	           "Shape a feed-forward network by the conditioning of its weight matrices.\n\n"
	           "Commands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].what);
	fprintf(
	    f,
	    "\nWithout a command, or with options only, condnet opens the screen (condnet tui).\n"
	    "'condnet COMMAND --help' lists a command's options; %s explains them all.\n"
	    "  -h, --help     this text\n"
	    "  -V, --version  the version, and the OpenBLAS kernels condnet runs and why\n",
	    places_man_hint());
}

/* The screen, with "tui" as the command name its messages carry. */
static int screen(int argc, char **argv)
{
	argv[0] = (char *)"tui";
	return tui_cmd(argc, argv);
}

/* 1 when argv[1..argc) holds the option `name`, alone or as name=VALUE. */
static int has_option(int argc, char **argv, const char *name)
{
	size_t n = strlen(name);
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strncmp(argv[i], name, n) && (argv[i][n] == '\0' || argv[i][n] == '='))
			return 1;
	return 0;
}

/* Enters the reproducible mode (base/repro.h) when the command line asks
 * for it, before any computing: on by default for paper and replay, and for
 * the screen when it plays or records a lesson (--play, --log); outside it,
 * runs on the best kernels the CPU allows when OpenBLAS took it for an older
 * one (base/kernels.h). Either re-executes the program when OpenBLAS's
 * kernels have to change, so it runs before anything permutes argv. 0, or 1
 * after a message. */
static int enter_mode(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "tui";
	int screen_cmd = !strcmp(c, "tui") || c[0] == '-';
	int def =
	    !strcmp(c, "paper") || !strcmp(c, "replay") ||
	    (screen_cmd && (has_option(argc, argv, "--play") || has_option(argc, argv, "--log")));
	if (has_option(argc, argv, "--help") || has_option(argc, argv, "-h"))
		return 0;
	Err e = {{0}};
	if (!repro_wanted(argc, argv, def)) {
		/* new kernels that cannot be had: said, and the run goes on */
		if (kernels_enter(argv, &e))
			fprintf(stderr, "condnet: %s\n", e.msg);
		return 0;
	}
	if (repro_enter(argv, &e) == 0)
		return 0;
	fprintf(stderr, "condnet: %s\n", e.msg);
	return 1;
}

/* The status to exit with: a write to standard output that failed (a full
 * disk, /dev/full, a closed descriptor) turns a success into a failure, with
 * a message; what the command printed would otherwise be lost unsaid. */
static int finish(const char *cmd, int rc)
{
	Err e = {{0}};
	if (file_flush_stdout(&e) == 0)
		return rc;
	fprintf(stderr, "condnet%s%s: %s\n", cmd ? " " : "", cmd ? cmd : "", e.msg);
	return rc == 0 ? 1 : rc;
}

int main(int argc, char **argv)
{
	/* No file opened later takes the place of a closed standard output */
	file_guard_std_fds();
	/* A write past `ulimit -f` fails with EFBIG (SIGXFSZ is ignored); a
	 * signal that ends the process waits for the save under way, and a
	 * fault removes its temporary file (base/signals.h). */
	signals_init();
	/* work a stop left running ends with the process (base/offload.h) */
	offload_init();
	/* missing data sets are reported with the fetch script there is */
	datasets_set_fetch(places_fetch_hint);
	const char *c = argc > 1 ? argv[1] : "tui";
	if (!strcmp(c, "-h") || !strcmp(c, "--help")) {
		usage(stdout);
		return finish(NULL, 0);
	}
	if (enter_mode(argc, argv))
		return 1;
	if (argc < 2)
		return finish("tui", screen(argc, argv));
	if (!strcmp(c, "-V") || !strcmp(c, "--version")) {
		char k[320], cpu[256] = "not x86";
		CpuRegs r;
		CpuFeatures f;
		if (cpu_read(&r) == 0) {
			cpu_decode(&r, &f);
			cpu_describe(&f, cpu, sizeof cpu);
		}
		printf("condnet %s\nkernels: %s\ncpu: %s\n", PACKAGE_VERSION,
		       kernels_describe(0, k, sizeof k), cpu);
		return finish(NULL, 0);
	}
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		if (!strcmp(c, commands[i].name))
			return finish(commands[i].name, commands[i].run(argc - 1, argv + 1));
	if (c[0] == '-') /* options only: they belong to the screen */
		return finish("tui", screen(argc, argv));
	fprintf(stderr, "condnet: unknown command '%s'\n", c);
	usage(stderr);
	return 2;
}
