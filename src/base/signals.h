/* signals.h - what a signal does to condnet, and saves that no signal cuts.
 *
 * signals_init (from main) takes every catchable signal whose default
 * action ends a process, unless it arrives ignored (nohup's SIGHUP stays
 * ignored):
 *
 * - A signal that comes from outside (SIGHUP, SIGINT, SIGQUIT, SIGTERM,
 *   SIGUSR1, SIGALRM, SIGPIPE, SIGXCPU, the real-time signals, …) ends the
 *   process as its default action would (status 128 + the signal, a core
 *   for SIGQUIT), but never during a save: while file_write holds a
 *   temporary file the end waits until the file is renamed into place or
 *   removed, then the signal is sent again with its default action. A save
 *   is thus whole or absent, and no temporary file is left.
 * - A fault (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGABRT)
 *   cannot wait: its handler removes the temporary files of the saves under
 *   way, then hands the signal to the handler that was there before
 *   (AddressSanitizer's, or the default).
 * - SIGXFSZ is ignored: a write past `ulimit -f` fails with EFBIG and the
 *   save says so.
 *
 * signals_trap_stop turns SIGHUP, SIGINT, SIGQUIT and SIGTERM into a
 * request to stop that the work polls (signals_stop) between batches, so a
 * command can end its run, report and exit cleanly. SIGINT, SIGQUIT and
 * SIGTERM are taken even when they arrive ignored (a shell starts background
 * commands with SIGINT and SIGQUIT ignored); SIGHUP is left ignored under
 * nohup. */
#ifndef CONDNET_SIGNALS_H
#define CONDNET_SIGNALS_H

/* Installs the handlers above; call once, before any thread starts. */
void signals_init(void);

/* SIGHUP, SIGINT, SIGQUIT and SIGTERM set the stop request instead of
 * ending the process. With repeat 0 (batch commands) only the first does: a
 * second one ends the process (after any save under way), and so does the
 * first when the work has not asked signals_stop within a second of it (a
 * thread stuck where nothing asks): a single stop signal always ends a
 * batch command, within a second when the work is stuck. With repeat 1 (the
 * screen, which ends its worker itself) every one sets it. */
void signals_trap_stop(int repeat);

/* The first stop signal that arrived (SIGHUP, SIGINT, SIGQUIT, SIGTERM),
 * or 0. Asking it once the stop came is taking it (the watchdog above). */
int signals_stop(void);

/* "SIGHUP", "SIGINT", … for messages. */
const char *signals_name(int sig);

/* For file_write: brackets the life of a temporary file (from before it is
 * created to after it is renamed or removed). A signal that ends the process
 * waits for signals_save_end; if one is already on its way,
 * signals_save_begin does not return. signals_save_track is called once,
 * right after the attempt to create the file, with its name (removed if a
 * fault ends the process meanwhile) or NULL when none was created; it
 * returns a slot for signals_save_end (-1 when all slots are in use). */
void signals_save_begin(void);
int signals_save_track(const char *tmp);
void signals_save_end(int slot);

/* The process is about to end while another thread may be saving (a
 * thread that did not stop in time): the temporary files of the saves under
 * way are removed, as a fault removes them, and a save that creates its file
 * from now on removes it; the files saved stay as they were. */
void signals_discard_saves(void);

/* Brackets saves that make one whole (the files of a .npy set): a signal
 * that ends the process waits for signals_group_end, as it waits for one
 * save, and the saves inside go on meanwhile; if one is already on its way,
 * signals_group_begin does not return. (A fault cannot wait: the temporary
 * file of the save under way is removed, the files already in the group's
 * directory stay.) On the thread that calls it; groups do not nest. */
void signals_group_begin(void);
void signals_group_end(void);

#endif
