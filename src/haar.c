/* haar.c - not written yet. */
typedef int condnet_placeholder_haar;
