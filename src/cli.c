/* cli.c - not written yet. */
typedef int condnet_placeholder_cli;
