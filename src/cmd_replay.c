/* cmd_replay.c - `condnet replay LOG`. */
#include <stdio.h>

#include "cli.h"

int cmd_replay(int argc, char **argv)
{
	fprintf(stderr, "condnet replay: not available in this build\n");
	return 1;
}
