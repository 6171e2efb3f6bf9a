/* cmd_paper.c - `condnet paper mnist|adult`: reproduce the paper's experiments. */
#include <stdio.h>

#include "cli.h"

int cmd_paper(int argc, char **argv)
{
	fprintf(stderr, "condnet paper: not available in this build\n");
	return 1;
}
