/* cmd_alg1.c - not written yet. */
typedef int condnet_placeholder_cmd_alg1;
