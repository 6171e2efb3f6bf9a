/* alg3_hand.c - a neuron removed by hand beside the one pivoted QR removes
 * first (alg3_hand.h). */
#include "alg/alg3_hand.h"

#include <math.h>
#include <stdlib.h>

#include "engine/cond.h"
#include "engine/train_plan.h"

/* The accuracy of net without neuron j of hidden layer `layer`. */
static int without(const Net *net, int layer, int j, const Dataset *eval, double *acc, Err *e)
{
	Net *c = net_clone(net, e);
	if (!c)
		return -1;
	int rc = net_remove_neuron(c, layer, j, e);
	if (rc == 0)
		rc = net_accuracy(c, eval, NULL, acc, e);
	net_free(c);
	return rc;
}

int alg3_hand(const Net *net, int layer, int hand, const Dataset *eval, Alg3Hand *out, Err *e)
{
	*out = (Alg3Hand){layer, hand, -1, NAN, NAN};
	if (layer < 1 || layer >= net->m)
		return err_set(e, "layer %d is not a hidden layer (1..%d)", layer, net->m - 1);
	if (net->n[layer] < 2)
		return err_set(e, "hidden layer %d has one neuron: none can go", layer);
	if (hand < 0 || hand >= net->n[layer])
		return err_set(e, "neuron %d: hidden layer %d has %d", hand + 1, layer,
		               net->n[layer]);
	LayerCond lc;
	int rc = cond_layer(net, layer, COND_TAU_DEFAULT, &lc, e);
	if (rc != 0)
		return rc;
	out->qr = lc.perm[lc.cols - 1];
	cond_layer_free(&lc);
	if ((rc = without(net, layer, hand, eval, &out->acc_hand, e)) != 0)
		return rc;
	if (out->qr == hand) {
		out->acc_qr = out->acc_hand;
		return 0;
	}
	return without(net, layer, out->qr, eval, &out->acc_qr, e);
}
