/* alg2_scale.c - not written yet. */
typedef int condnet_placeholder_alg2_scale;
