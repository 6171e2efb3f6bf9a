/* cmd_replay.c - not written yet. */
typedef int condnet_placeholder_cmd_replay;
