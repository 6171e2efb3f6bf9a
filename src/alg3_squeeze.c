/* alg3_squeeze.c - not written yet. */
typedef int condnet_placeholder_alg3_squeeze;
