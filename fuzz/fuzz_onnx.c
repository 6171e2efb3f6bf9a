/* fuzz_onnx.c - onnx_import_any_mem on arbitrary bytes (the loader's wire
 * check, protobuf-c's unpacking, the graph and tensor checks, a chain's and
 * a graph network's). A model that imports must export and import again to
 * the same widths, activation (a chain's), nodes (a graph's) and
 * parameters. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/onnx_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[256];
	Err e;
	e.msg[0] = '\0';
	Net *net = onnx_import_any_mem(data, size, "fuzz.onnx", NULL, &e);
	if (!net) {
		if (!e.msg[0])
			abort();
		return 0;
	}
	if (!out[0]) {
		const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
		snprintf(out, sizeof out, "%s/condnet-fuzz-onnx-%d.onnx", dir, (int)getpid());
	}
	Net *back = NULL;
	if (onnx_export(net, out, NULL, &e) < 0 || !(back = onnx_import_any(out, NULL, &e)))
		abort();
	if (!back->graph != !net->graph)
		abort();
	for (int k = 1; net->graph && k < net->graph->n; k++) {
		const GraphNode *a = &net->graph->node[k], *b = &back->graph->node[k];
		if (back->graph->n != net->graph->n || a->op != b->op || a->c != b->c ||
		    a->h != b->h || a->w != b->w || a->nin != b->nin)
			abort();
	}
	if (back->m != net->m || memcmp(back->n, net->n, (size_t)(net->m + 1) * sizeof *net->n) ||
	    memcmp(back->param, net->param, net->nparam * sizeof *net->param))
		abort();
	if (net->m > 1 && (back->act != net->act || back->act_a != net->act_a))
		abort();
	net_free(back);
	net_free(net);
	return 0;
}
