/* report_layers.c - what each layer of a network with convolutions is. */
#include "report/report_layers.h"

#include <stdio.h>

const char *report_layer_kind(const Net *net, int i, char *buf, size_t len)
{
	if (i >= net->nconv) {
		snprintf(buf, len, "dense");
		return buf;
	}
	const ConvShape *c = &net->conv[i];
	char pad[24] = "";
	if (c->pad)
		snprintf(pad, sizeof pad, " pad %d", c->pad);
	snprintf(buf, len, "conv %d@%d×%d%s%s → %d×%d×%d", c->c_out, c->k, c->k, pad,
	         c->pool ? ", pool" : "", c->c_out, c->h_out, c->w_out);
	return buf;
}
