/* session_graph.c - what a session does with a graph network
 * (engine/graph.h): reads it from a model file or an ONNX file, and refuses
 * the actions that work layer by layer through W and b. */
#include "session/session.h"

#include "model/model_io.h"
#include "model/onnx_io.h"

Net *session_read_net(const char *path, int onnx, Err *e)
{
	return onnx ? onnx_import_any(path, NULL, e) : model_load_any(path, e);
}

int session_refuse_graph(int graph, const char *what, Err *e)
{
	return graph ? err_set(e, "%s is not available for graph networks yet", what) : 0;
}
