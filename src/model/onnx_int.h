/* onnx_int.h - shared by the ONNX reader and writer (onnx_wire.c,
 * onnx_import.c, onnx_export.c): the protobuf-c bindings generated at build
 * time from ONNX's schema, a checked unpacking of untrusted bytes, and
 * tensors as doubles. Not part of the library's interface. */
#ifndef CONDNET_ONNX_INT_H
#define CONDNET_ONNX_INT_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "onnx/onnx.pb-c.h"

#define ONNX_MAXDIMS 8
/* protobuf's own limit on a message */
#define ONNX_MAX_BYTES 0x7fffffffLL
/* messages nested deeper than this are refused before protobuf-c recurses */
#define ONNX_MAX_DEPTH 64

/* ONNX's TensorProto.DataType values condnet reads. */
enum { ONNX_FLOAT = 1, ONNX_DOUBLE = 11 };

/* A name from the file, cut to 60 characters with bytes outside printable
 * ASCII shown as '?', for messages: onnx_name(s).s. */
typedef struct OnnxName {
	char s[72];
} OnnxName;
OnnxName onnx_name(const char *s);

/* The name of a TensorProto.DataType ("FLOAT", "INT64", …, "type 99"). */
const char *onnx_type_name(int32_t type, char buf[32]);

/* The whole file at path (malloc'd), refused when it is not a regular file or
 * larger than ONNX_MAX_BYTES. */
int onnx_read_file(const char *path, uint8_t **buf, size_t *len, Err *e);

/* Checks buf[0..len) as the wire form of message d before protobuf-c sees it
 * (every key, length and wire type against the schema, nesting at most
 * ONNX_MAX_DEPTH deep: a message says the offset and field), then unpacks it.
 * Free the result with protobuf_c_message_free_unpacked. */
ProtobufCMessage *onnx_unpack(const ProtobufCMessageDescriptor *d, const uint8_t *buf, size_t len,
                              Err *e);

/* A tensor's values as doubles, row-major. */
typedef struct OnnxTensor {
	int nd;
	long long dims[ONNX_MAXDIMS];
	size_t count;
	double *v; /* malloc'd (count entries, at least one allocated) */
} OnnxTensor;

/* Reads t (FLOAT or DOUBLE; raw_data little-endian, or float_data /
 * double_data): the dimensions must be non-negative and their product the
 * number of values stored, every value a finite float32. what names the
 * tensor in messages ("initializer 'fc1.weight'"). */
int onnx_tensor_values(const Onnx__TensorProto *t, const char *what, OnnxTensor *out, Err *e);

/* The graph as the importer sees it: where every tensor name is defined and
 * who reads it, checked for one definition per name, inputs defined before
 * the node that reads them (no cycle, nothing dangling), and which nodes
 * only compute constants (Constant, and Identity or Transpose of constants). */
enum { DEF_INPUT = 1, DEF_INIT, DEF_NODE };

typedef struct OnnxDef {
	const char *name; /* NULL: an empty slot of the table */
	int kind;         /* DEF_INPUT, DEF_INIT or DEF_NODE */
	int idx;          /* the graph input, initializer or node that defines it */
	int nuse;         /* how many node inputs read it */
	int user[2];      /* the first two nodes that read it */
	int out;          /* DEF_NODE: which of the node's outputs it is (0: the first, the
	                   * one condnet computes) */
} OnnxDef;

typedef struct OnnxGraph {
	const Onnx__GraphProto *g;
	long opset;    /* the default domain's opset version */
	OnnxDef *defs; /* open-addressing table of cap slots */
	size_t cap;
	unsigned char *isconst; /* per node */
} OnnxGraph;

/* "node 3 'fc1' (Gemm)", or "node 3 (Gemm)" for a node without a name. */
typedef struct OnnxNodeStr {
	char s[200];
} OnnxNodeStr;
OnnxNodeStr onnx_node_str(const Onnx__GraphProto *g, int k);
/* Sets "node 3 'fc1' (Gemm): " and the formatted text; returns -1. */
int onnx_node_err(const Onnx__GraphProto *g, int k, Err *e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Fills gr for g: operators outside what a dense network uses (graph 0) or
 * what a graph network uses (graph 1: onnx_io.h) are refused first, naming
 * the node and operator; then the definitions: one a name, an input
 * defined before its reader, no reader of an output condnet does not
 * compute (a MaxPool's indices, a Dropout's mask). */
int onnx_graph_init(OnnxGraph *gr, const Onnx__GraphProto *g, long opset, int graph, Err *e);
/* Every node's attributes against the schema of its operator (after
 * onnx_graph_init): each named once, one the operator has, of its type. 0,
 * or -1 with a message naming the node and the attribute. */
int onnx_check_attrs(const Onnx__GraphProto *g, Err *e);
void onnx_graph_free(OnnxGraph *gr);
OnnxDef *onnx_graph_def(const OnnxGraph *gr, const char *name);

/* Whether name holds a constant, and its values (node k is the reader, for
 * messages). */
int onnx_graph_is_const(const OnnxGraph *gr, const char *name);
int onnx_graph_const(const OnnxGraph *gr, const char *name, int k, OnnxTensor *out, Err *e);

/* The int64 values of the constant name (an initializer or a Constant node
 * of INT64, one dimension of 1..max values), node k reading it, into d and
 * *nd; what names it in messages ("its shape"). */
int onnx_graph_int64s(const OnnxGraph *gr, const char *name, int k, const char *what, long long *d,
                      int *nd, int max, Err *e);
/* The one value of the BOOL constant name into *v (an initializer or a
 * Constant node). */
int onnx_graph_bool(const OnnxGraph *gr, const char *name, int k, const char *what, int *v, Err *e);

/* What an import found besides the network (onnx_io.h's OnnxInfo), and
 * the record of the inputs' preprocessing the metadata holds read into
 * net (none: nothing recorded). */
struct OnnxInfo;
void onnx_model_info(struct OnnxInfo *info, const Onnx__ModelProto *m, long opset, int softmax,
                     int identity, int graph);
struct Net;
int onnx_model_prep(struct Net *net, const Onnx__ModelProto *m, Err *e);
/* The graph of m as a graph network (onnx_gimport.c), info (may be NULL)
 * filled; NULL with a message naming the node. */
struct Net *onnx_gimport(const Onnx__ModelProto *m, struct OnnxInfo *info, Err *e);

/* A graph network as an ONNX model at path (onnx_gexport.c; onnx_export
 * hands graph networks there). */
struct OnnxMeta;
int onnx_gexport(const struct Net *net, const char *path, const struct OnnxMeta *meta, Err *e);

/* The model's opset version of the default domain ('' or 'ai.onnx'). */
long onnx_default_opset(const Onnx__ModelProto *m, Err *e);

/* The rank and feature count (the product of the dimensions after the first;
 * -1 when one is not fixed) of a graph input or output (what: "input" or
 * "output"); a rank of 2 and an unknown count when it has no shape. Refused
 * when it is not a tensor of FLOAT or DOUBLE, has fewer than 2 dimensions, or
 * a negative one. */
int onnx_value_shape(const Onnx__ValueInfoProto *v, const char *what, int *rank, long long *width,
                     Err *e);

/* Node attributes: an integer or float attribute's value, def when absent;
 * -1 and a message when it has another type. */
const Onnx__AttributeProto *onnx_attr(const Onnx__NodeProto *n, const char *name);
int onnx_attr_int(const Onnx__GraphProto *g, int k, const char *name, long long def, long long *out,
                  Err *e);
int onnx_attr_float(const Onnx__GraphProto *g, int k, const char *name, double def, double *out,
                    Err *e);

#endif
