/* fuzz_model.c - model_load_any on arbitrary bytes (chains and graph
 * networks), and on the same bytes with
 * the trailing CRC-32 recomputed so that mutations reach the checks behind
 * the checksum (the table of limits, finite values). model_check on the
 * bytes in memory must agree with model_load on the file; a model that
 * loads must save and load again to the same shape, parameters, Adam step
 * count and schedule. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_file.h"
#include "model/model_io.h"

static void check(const uint8_t *data, size_t size)
{
	static char out[256];
	Err e;
	Net *net = model_load_any(fuzz_file(data, size, ".model"), &e);
	if ((model_check(data, size, "mem", &e) == 0) != (net != NULL))
		abort();
	if (!net) {
		if (!e.msg[0])
			abort();
		return;
	}
	if (!out[0])
		snprintf(out, sizeof out, "%s.again", fuzz_file(data, size, ".model"));
	Net *back = NULL;
	if (model_save(net, out, &e) < 0 || !(back = model_load_any(out, &e)))
		abort();
	if (back->m != net->m || memcmp(back->n, net->n, (size_t)(net->m + 1) * sizeof *net->n) ||
	    back->adam_t != net->adam_t || !sched_equal(&back->sched, &net->sched) ||
	    back->sched_st.step != net->sched_st.step)
		abort();
	if (!back->graph != !net->graph || back->nparam != net->nparam ||
	    memcmp(back->param, net->param, net->nparam * sizeof *net->param))
		abort();
	if (net->graph && (back->graph->n != net->graph->n ||
	                   memcmp(back->graph->node, net->graph->node,
	                          (size_t)net->graph->n * sizeof *net->graph->node)))
		abort();
	for (int i = 0; !net->graph && i < net->m; i++)
		if (memcmp(back->W[i], net->W[i],
		           (size_t)net->n[i] * (size_t)net->n[i + 1] * sizeof *net->W[i]) ||
		    memcmp(back->b[i], net->b[i], (size_t)net->n[i + 1] * sizeof *net->b[i]))
			abort();
	net_free(back);
	net_free(net);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check(data, size);
	uint8_t *fixed = fuzz_with_crc(data, size);
	if (fixed)
		check(fixed, size);
	free(fixed);
	return 0;
}
