/* answer.c - the class a row of outputs answers (train.h's net_answer):
 * the one rule of every answer condnet counts or writes, a chain's or a
 * graph network's. */
#include <math.h>

#include "engine/train.h"

int net_answer(const float *out, int k)
{
	int arg = 0;
	for (int j = 0; j < k; j++) {
		if (!isfinite(out[j]))
			return NET_NO_ANSWER;
		if (out[j] > out[arg])
			arg = j;
	}
	return arg;
}
