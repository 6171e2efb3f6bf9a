/* cmd_sweep.c - not written yet. */
typedef int condnet_placeholder_cmd_sweep;
