/* cli.h - the batch commands and what only they share. Every command
 * takes the common options of setup/opts.h (the screen takes them too) and
 * sets its run up with setup/setup.h; this adds the outputs a command
 * checks before its work, its failure message, and the commands themselves. */
#ifndef CONDNET_CLI_H
#define CONDNET_CLI_H

#include "base/err.h"
#include "engine/limits.h"
#include "setup/opts.h"
#include "setup/places.h"
#include "setup/setup.h"

/* --schedule for a command without a validation set (no plateau), as an own
 * option whose help the command words: its getopt entry; cli_no_plateau
 * refuses the plateau schedule (2 after the message, else 0). */
#define CLI_SCHEDULE_OPTION                                                                        \
	{                                                                                          \
		"schedule", required_argument, NULL, OPTS_SCHEDULE                                 \
	}
int cli_no_plateau(const CommonOpts *c, const char *cmd, const char *why);

/* A file of a command besides the common options' (--load, --data, --save,
 * --json, --csv): an output, a file written with file_write's flags
 * (FILE_OUT_TEXT for text), or with CLI_OUT_DIR a directory the command
 * creates when it is missing; or with CLI_IN an input (a file, or with
 * CLI_OUT_DIR too a directory of files). what is the option that names it
 * ("--out"); names, for a directory, the files in it the command reads or
 * writes (base/file_roles.h). path NULL: not given. */
typedef struct CliOut {
	const char *path;
	int flags;
	const char *what;
	const char *const *names;
} CliOut;
#define CLI_OUT_DIR 0x100
#define CLI_IN 0x200

/* Checks, before any data is read or anything trained, that every output
 * of the command can be written: c's --save (a model: binary), --json and
 * --csv (text: "-" is standard output), and the n entries of own; and that
 * none of them takes the place of an input (c's --load and --data files,
 * own's CLI_IN entries) or of another output, by device and inode with
 * links followed (base/file_roles.h, the roles setup_roles lists). A file
 * whose directory is one of own's CLI_OUT_DIR entries (made by the command)
 * passes when that directory can be made. For every command, right after
 * its options are parsed: a long run is never lost to a typo. When one text
 * output is standard output ("-", /dev/stdout), the text report goes to
 * standard error from then on (file_stdout_for_records), so that standard
 * output carries the record alone; two of them are an error. */
int cli_check_outputs(const CommonOpts *c, const CliOut *own, int n, Err *e);

/* The start of a command that runs a network, once its options are
 * parsed: its outputs checked (cli_check_outputs, with the n entries of
 * own), then, but for --dry-run, its data read and its network made, loaded
 * or fresh as the options say, a chain or a graph network
 * (setup_load_data_any, setup_make_net_any). 1 after a dry run (nothing
 * read or made), 0 with *train, *test and *net, -1 with a message. */
int cli_open_any(const char *cmd, const CommonOpts *c, const CliOut *own, int n, Dataset **train,
                 Dataset **test, Net **net, Err *e);

/* Prints "condnet CMD: message" to stderr; returns the exit status: 1, or
 * 130 when a stop signal the command took (SIGINT, SIGTERM, …) ended the
 * work that failed. */
int cli_fail(const char *cmd, const Err *e);

/* Subcommands: each returns the process exit status (0 ok, 1 failure,
 * 2 usage error). argv[0] is the subcommand name. */
int cmd_train(int argc, char **argv);
int cmd_alg1(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_squeeze(int argc, char **argv);
int cmd_cond(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_paper(int argc, char **argv);
int cmd_replay(int argc, char **argv);

#endif
