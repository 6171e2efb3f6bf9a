/* cmd_train.c - not written yet. */
typedef int condnet_placeholder_cmd_train;
