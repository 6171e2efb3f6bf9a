/* cmd_cond.c - not written yet. */
typedef int condnet_placeholder_cmd_cond;
