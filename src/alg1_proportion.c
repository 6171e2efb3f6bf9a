/* alg1_proportion.c - not written yet. */
typedef int condnet_placeholder_alg1_proportion;
