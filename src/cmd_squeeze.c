/* cmd_squeeze.c - not written yet. */
typedef int condnet_placeholder_cmd_squeeze;
