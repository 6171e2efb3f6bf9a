/* tui.c - the interactive screen. */
#include <stdio.h>

#include "cli.h"

int cmd_tui(int argc, char **argv)
{
	fprintf(stderr, "condnet: the interactive screen is not available in this build\n");
	return 1;
}
