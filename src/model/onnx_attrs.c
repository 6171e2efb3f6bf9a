/* onnx_attrs.c - a node's attributes against ONNX's schema of its operator,
 * for the operators condnet reads: each named once, each one the operator
 * has (in some opset), each of its type. What onnx.checker refuses, condnet
 * refuses before it reads a value, naming the node and the attribute. */
#include <stdio.h>
#include <string.h>

#include "model/onnx_int.h"

enum {
	A_F = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT,
	A_I = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT,
	A_S = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING,
	A_T = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR,
	A_FS = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS,
	A_IS = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS,
	A_SS = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS,
	A_SP = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSOR,
};

typedef struct AttrSpec {
	const char *name;
	int type;
} AttrSpec;

#define POOL_ATTRS                                                                                 \
	{"auto_pad", A_S}, {"kernel_shape", A_IS}, {"pads", A_IS}, {"strides", A_IS},              \
	    {"ceil_mode", A_I},                                                                    \
	{                                                                                          \
		"dilations", A_IS                                                                  \
	}
#define OLD                                                                                        \
	{                                                                                          \
		"consumed_inputs", A_IS                                                            \
	} /* opsets before 6 */

static const struct {
	const char *op;
	AttrSpec a[10];
} schema[] = {
    {"Conv",
     {{"auto_pad", A_S},
      {"dilations", A_IS},
      {"group", A_I},
      {"kernel_shape", A_IS},
      {"pads", A_IS},
      {"strides", A_IS}}},
    {"MaxPool", {POOL_ATTRS, {"storage_order", A_I}}},
    {"AveragePool", {POOL_ATTRS, {"count_include_pad", A_I}}},
    {"GlobalAveragePool", {{NULL, 0}}},
    {"BatchNormalization",
     {{"epsilon", A_F},
      {"momentum", A_F},
      {"training_mode", A_I},
      {"spatial", A_I},
      {"is_test", A_I},
      OLD}},
    {"Add", {{"broadcast", A_I}, {"axis", A_I}, OLD}},
    {"Mul", {{"broadcast", A_I}, {"axis", A_I}, OLD}},
    {"Concat", {{"axis", A_I}}},
    {"Relu", {OLD}},
    {"Sigmoid", {OLD}},
    {"Tanh", {OLD}},
    {"Erf", {{NULL, 0}}},
    {"Clip", {{"min", A_F}, {"max", A_F}, OLD}},
    {"LeakyRelu", {{"alpha", A_F}, OLD}},
    {"Flatten", {{"axis", A_I}}},
    {"Reshape", {{"allowzero", A_I}, {"shape", A_IS}, OLD}},
    {"Gemm", {{"alpha", A_F}, {"beta", A_F}, {"transA", A_I}, {"transB", A_I}, {"broadcast", A_I}}},
    {"MatMul", {{NULL, 0}}},
    {"Softmax", {{"axis", A_I}}},
    {"Identity", {{NULL, 0}}},
    {"Dropout", {{"ratio", A_F}, {"seed", A_I}, {"is_test", A_I}, OLD}},
    {"Transpose", {{"perm", A_IS}}},
    {"Constant",
     {{"value", A_T},
      {"value_float", A_F},
      {"value_floats", A_FS},
      {"value_int", A_I},
      {"value_ints", A_IS},
      {"value_string", A_S},
      {"value_strings", A_SS},
      {"sparse_value", A_SP}}},
};

static const char *type_name(int t)
{
	switch (t) {
	case A_F:
		return "FLOAT";
	case A_I:
		return "INT";
	case A_S:
		return "STRING";
	case A_T:
		return "TENSOR";
	case A_FS:
		return "FLOATS";
	case A_IS:
		return "INTS";
	case A_SS:
		return "STRINGS";
	case A_SP:
		return "SPARSE_TENSOR";
	default:
		return "UNDEFINED";
	}
}

/* 1 when a's value is there for the type t (a without its type field). */
static int holds(const Onnx__AttributeProto *a, int t)
{
	switch (t) {
	case A_F:
		return a->has_f;
	case A_I:
		return a->has_i;
	case A_S:
		return a->has_s;
	case A_T:
		return a->t != NULL;
	case A_FS:
		return a->n_floats > 0 || !(a->has_f || a->has_i || a->has_s || a->n_ints);
	case A_IS:
		return a->n_ints > 0 || !(a->has_f || a->has_i || a->has_s || a->n_floats);
	default:
		return 1;
	}
}

/* The names of op's attributes, for a message. */
static void names_of(int i, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int j = 0; j < 10 && schema[i].a[j].name && at < len; j++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", j ? ", " : "",
		                       schema[i].a[j].name);
}

static int check_node(const Onnx__GraphProto *g, int k, Err *e)
{
	const Onnx__NodeProto *n = g->node[k];
	int i = 0, ns = (int)(sizeof schema / sizeof *schema);
	while (i < ns && strcmp(schema[i].op, n->op_type))
		i++;
	if (i == ns)
		return 0; /* an operator check_op refuses */
	for (size_t j = 0; j < n->n_attribute; j++) {
		const Onnx__AttributeProto *a = n->attribute[j];
		const char *name = a->name ? a->name : "";
		for (size_t q = 0; q < j; q++)
			if (n->attribute[q]->name && !strcmp(n->attribute[q]->name, name))
				return onnx_node_err(g, k, e, "attribute '%s' given twice",
				                     onnx_name(name).s);
		int t = 0;
		for (int s = 0; s < 10 && schema[i].a[s].name && !t; s++)
			if (!strcmp(schema[i].a[s].name, name))
				t = schema[i].a[s].type;
		if (!t) {
			char list[256];
			names_of(i, list, sizeof list);
			return onnx_node_err(g, k, e, "attribute '%s' is not one of %s's (%s)",
			                     onnx_name(name).s, n->op_type,
			                     list[0] ? list : "it has none");
		}
		if (a->has_type ? (int)a->type != t : !holds(a, t))
			return onnx_node_err(
			    g, k, e, "attribute '%s' is %s, expected %s", onnx_name(name).s,
			    a->has_type ? type_name((int)a->type) : "of another type",
			    type_name(t));
	}
	return 0;
}

int onnx_check_attrs(const Onnx__GraphProto *g, Err *e)
{
	for (size_t k = 0; k < g->n_node; k++)
		if (check_node(g, (int)k, e))
			return -1;
	return 0;
}
