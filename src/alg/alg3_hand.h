/* alg3_hand.h - a neuron removed by hand beside Algorithm 3's choice: the
 * neuron the pivoted QR of Ŵ⁽ⁱ⁾ puts last (the one a squeeze that keeps all
 * but one of the layer's neurons removes) and the test accuracy of the
 * network without each, so that a class can compare its own choice with
 * the algorithm's at the same count. */
#ifndef CONDNET_ALG3_HAND_H
#define CONDNET_ALG3_HAND_H

#include "base/err.h"
#include "data/dataset.h"
#include "engine/net.h"

typedef struct Alg3Hand {
	int layer;       /* the hidden layer, 1..m-1 */
	int hand, qr;    /* the neuron removed by hand and pivoted QR's last, from 0 */
	double acc_hand; /* accuracy on the evaluation set, percent, without the neuron
	                  * removed by hand */
	double acc_qr;   /* the same without QR's (acc_hand when they are one) */
} Alg3Hand;

/* The comparison for neuron `hand` (from 0) of hidden layer `layer` of net,
 * measured on eval. 0, 1 when the calling thread's stop said stop, or -1
 * with a message (a layer of one neuron has none to remove). */
int alg3_hand(const Net *net, int layer, int hand, const Dataset *eval, Alg3Hand *out, Err *e);

#endif
