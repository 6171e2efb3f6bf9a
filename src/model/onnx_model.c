/* onnx_model.c - what an ONNX model says besides its graph, for either
 * import: the versions, names and producer (OnnxInfo), and the record of
 * the inputs' preprocessing condnet writes in its metadata. */
#include <stdio.h>
#include <string.h>

#include "data/prep_text.h"
#include "engine/net.h"
#include "model/onnx_int.h"
#include "model/onnx_io.h"

void onnx_model_info(OnnxInfo *info, const Onnx__ModelProto *m, long opset, int softmax,
                     int identity, int graph)
{
	const Onnx__GraphProto *g = m->graph;
	memset(info, 0, sizeof *info);
	info->softmax = softmax;
	info->identity = identity;
	info->graph = graph;
	info->opset = opset;
	info->ir_version = m->has_ir_version ? (long)m->ir_version : 0;
	for (size_t i = 0; i < g->n_input; i++) {
		int init = 0;
		for (size_t j = 0; j < g->n_initializer && !init; j++)
			init = !strcmp(g->initializer[j]->name, g->input[i]->name);
		if (!init) {
			snprintf(info->input, sizeof info->input, "%s", g->input[i]->name);
			break;
		}
	}
	snprintf(info->output, sizeof info->output, "%s", g->output[0]->name);
	snprintf(info->producer, sizeof info->producer, "%s%s%s",
	         m->producer_name ? m->producer_name : "", m->producer_version ? " " : "",
	         m->producer_version ? m->producer_version : "");
}

int onnx_model_prep(Net *net, const Onnx__ModelProto *m, Err *e)
{
	for (size_t i = 0; i < m->n_metadata_props; i++) {
		const Onnx__StringStringEntryProto *p = m->metadata_props[i];
		if (!p->key || strcmp(p->key, ONNX_META_PREP))
			continue;
		Prep *r = prep_from_text(p->value ? p->value : "", net->n[0], e);
		int rc = r ? net_set_prep(net, r, e) : -1;
		prep_free(r);
		return rc < 0 ? err_prefix(e, "metadata %s", ONNX_META_PREP) : 0;
	}
	return 0;
}
