/* setup/places.h - where condnet's own files are: the data folders it
 * installs (lessons), the source tree of a program run from its build tree
 * (whose files stand in for installed ones), and the manual and the fetch
 * script its messages name. */
#ifndef CONDNET_SETUP_PLACES_H
#define CONDNET_SETUP_PLACES_H

#include <limits.h>
#include <stddef.h>

/* 1 when the program runs from its build tree (configure's config.status
 * lies beside it), with the source tree's directory in dir: its files
 * (man/condnet.1, data/lessons) stand in for installed ones there. */
int places_source_tree(char *dir, size_t len);
/* The directories where condnet's installed data folder sub ("lessons")
 * may be, in the order to look: the configured data directory, the one
 * beside the executable (PREFIX/share/condnet/sub for PREFIX/bin/condnet),
 * and the source tree's data/sub when run from a build tree. At most max;
 * returns how many. */
int places_data_dirs(const char *sub, char dirs[][PATH_MAX], int max);
/* How to read the manual: "man condnet", or "man ./man/condnet.1" (the
 * source tree's page, by its path) for a program run from its build tree. */
const char *places_man_hint(void);
/* The command that fetches a data set: the installed fetch script
 * ($(pkgdatadir)/fetch, or PREFIX/share/condnet/fetch beside the executable),
 * else the source tree's data/fetch for a program run from its build tree,
 * each by its absolute path; "data/fetch" when none is found. */
const char *places_fetch_hint(void);

#endif
