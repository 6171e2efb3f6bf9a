/* model_io.c - not written yet. */
typedef int condnet_placeholder_model_io;
