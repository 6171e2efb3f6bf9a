/* paper_dir.h - the stage directory (--out): the files the stages write
 * there, which no other output may name, and its lock.
 *
 * Runs that share a stage directory at the same time must be of one
 * setting (paper_settings.h) and compute different stages: the stage plan's
 * processes (`condnet paper … --plan`) do, each one stage. The lock is the
 * file OUT/.lock, locked with fcntl: every run holds a shared lock on it
 * while it runs and the file names the setting of the runs that hold it; a
 * run of another setting is refused, naming the process that holds it and
 * its setting, and so is a run that would compute a stage another run is
 * computing (an exclusive lock of the stage's own byte of the file). The
 * locks end with the process, however it ends. */
#ifndef CONDNET_PAPER_DIR_H
#define CONDNET_PAPER_DIR_H

#include "base/err.h"
#include "paper/paper.h"

typedef struct PaperLock {
	int fd; /* the lock file, -1 when none is held */
} PaperLock;

/* Takes the lock of o->out for a run of o's setting that computes the
 * stages named in run (NULL-terminated; none: a report made from stage
 * results, which takes no lock). -1 with a message naming the process in
 * the way. lk->fd is -1 when no lock was taken (nothing to compute, or a
 * file system without locks). */
int paper_dir_lock(const PaperOpts *o, const char *const *run, PaperLock *lk, Err *e);
void paper_dir_unlock(PaperLock *lk);

/* Refuses an output path (opt names it in the message: "--report") that
 * names a file the stages write into o->out (STAGE.json,
 * STAGE.partial.json, their models, the lock), by name or through links:
 * the report or plan would replace a stage's result. */
int paper_check_output(const PaperOpts *o, const char *opt, const char *path, Err *e);

#endif
