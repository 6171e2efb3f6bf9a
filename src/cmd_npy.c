/* cmd_npy.c - not written yet. */
typedef int condnet_placeholder_cmd_npy;
