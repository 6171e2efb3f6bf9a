/* cmd_replay.c - `condnet replay LOG`: re-run a recorded screen session
 * through the same engine calls, without a screen, and print the result. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "engine/cond.h"
#include "model/model_io.h"
#include "report/report.h"
#include "session/session.h"

static const char replay_help[] =
    "Usage: condnet replay LOG [OPTIONS]\n\n"
    "Applies every action of a session log (as the screen wrote it) through the same\n"
    "engine calls, without a screen, and prints the final per-layer table and the\n"
    "lines 'widths', 'params', 'crc32' (of the parameters) and 'test_accuracy'.\n"
    "The log's save lines write nothing; a load line checks the recorded CRC-32.\n"
    "A bad line stops the replay with LOG:LINE: and what was expected.\n"
    "  --save MODEL         write the final network\n"
    "  --markdown           print the table as Markdown\n"
    "  --reproducible       the reproducible mode (Haswell kernels, every batch in 2\n"
    "                       parts); the default here\n"
    "  --no-reproducible    this CPU's fastest OpenBLAS kernels instead of the\n"
    "                       reproducible mode\n"
    "  --wide R             what kappa and p count for a wide layer, as the screen\n"
    "                       that wrote the log was told: paper (default) or "
    "zero\n" OPTS_DRY_RUN_HELP "  -h, --help           this text\n";

static void print_result(const Session *s, ReportFormat fmt)
{
	char shape[512];
	LayerCond *lc;
	Err e = {{0}};
	if (cond_net_new(s->net, s->tau, 1, &lc, &e) != 0 ||
	    report_cond(stdout, s->net, lc, fmt, &e))
		fprintf(stderr, "condnet replay: conditioning: %s\n", e.msg);
	cond_net_free(lc, cond_layers(s->net)); /* a graph's are its Conv and Gemm nodes */
	printf("widths %s\n", net_shape_str(s->net, shape, sizeof shape));
	printf("params %zu\n", s->net->nparam);
	printf("crc32 %08x\n", (unsigned)session_param_crc(s->net));
	double acc;
	Err ae = {{0}};
	if (session_test_acc(s, &acc, &ae) < 0)
		fprintf(stderr, "condnet replay: test accuracy: %s\n", ae.msg);
	printf("test_accuracy %.2f\n", acc);
}

enum { OPT_MARKDOWN = OPTS_OWN };

static const struct option own[] = {
    {"markdown", no_argument, NULL, OPT_MARKDOWN},
    {0},
};

static int own_opt(int opt, const char *arg, void *ud, Err *e)
{
	if (opt == OPT_MARKDOWN)
		*(ReportFormat *)ud = REPORT_MARKDOWN;
	return 0;
}

int cmd_replay(int argc, char **argv)
{
	CommonOpts c;
	ReportFormat fmt = REPORT_TEXT;
	int first = 0;
	opts_default(&c);
	struct option table[opts_table_len(own)];
	opts_table(table, opts_table_len(own),
	           OPTS_BIT(OPTS_SAVE) | OPTS_BIT(OPTS_WIDE) | OPTS_BIT(OPTS_REPRO) |
	               OPTS_BIT(OPTS_NO_REPRO),
	           own);
	int pr = opts_parse(argc, argv, NULL, &c, table, own_opt, &fmt, replay_help, &first);
	if (pr)
		return pr == 1 ? 0 : 2;
	if (first != argc - 1) {
		fputs(replay_help, stderr);
		return 2;
	}
	const char *save = c.save, *log = argv[first];
	Err e = {{0}};
	CliOut in[] = {{log, CLI_IN, "replay", NULL}};
	if (cli_check_outputs(&c, in, 1, &e))
		return cli_fail("replay", &e);
	if (opts_dry_run("replay"))
		return 0;
	/* under an address-space limit, the room for the log's trainings */
	if (setup_reserve(&c, 0, &e))
		return cli_fail("replay", &e);
	Session *s = session_new(NULL);
	if (!s) {
		fprintf(stderr, "condnet replay: out of memory\n");
		return 1;
	}
	s->replay = 1;
	int rc = 0;
	Err warn = {{0}};
	if (session_log_check(log, &warn) < 0)
		fprintf(stderr, "condnet replay: %s\n", warn.msg);
	if (session_replay(s, log, NULL, &e) != 0) {
		fprintf(stderr, "condnet replay: %s\n", e.msg);
		rc = 1;
	} else if (!s->net) {
		fprintf(stderr, "condnet replay: %s: the log builds no network\n", log);
		rc = 1;
	} else {
		print_result(s, fmt);
		if (save && setup_save_model(s->net, save, s->train, &e) < 0) {
			fprintf(stderr, "condnet replay: %s\n", e.msg);
			rc = 1;
		}
	}
	session_free(s);
	return rc;
}
