/* onnx_wire.c - ONNX files as bytes: reading them whole, checking the
 * protobuf wire form against the schema before protobuf-c unpacks it, and
 * tensors as doubles with their dimensions checked against their data. */
#include "model/onnx_int.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "model/onnx_io.h"

OnnxName onnx_name(const char *s)
{
	OnnxName n;
	size_t i = 0;
	for (; s && s[i] && i < 60; i++)
		n.s[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	if (s && s[i])
		memcpy(n.s + i, "...", 4);
	else
		n.s[i] = '\0';
	return n;
}

const char *onnx_type_name(int32_t type, char buf[32])
{
	static const char *const names[] = {
	    "UNDEFINED", "FLOAT",  "UINT8",     "INT8",       "UINT16",  "INT16",
	    "INT32",     "INT64",  "STRING",    "BOOL",       "FLOAT16", "DOUBLE",
	    "UINT32",    "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16"};
	if (type >= 0 && type < (int32_t)(sizeof names / sizeof *names))
		snprintf(buf, 32, "%s (%d)", names[type], (int)type);
	else
		snprintf(buf, 32, "type %d", (int)type);
	return buf;
}

int onnx_read_file(const char *path, uint8_t **buf, size_t *len, Err *e)
{
	long long size;
	FILE *f = file_open_regular(path, "rb", &size, e);
	if (!f)
		return -1;
	if (size > ONNX_MAX_BYTES) {
		fclose(f);
		return err_set(e, "%s: %lld bytes, more than protobuf's limit of %lld", path, size,
		               ONNX_MAX_BYTES);
	}
	uint8_t *b = malloc(size ? (size_t)size : 1);
	if (!b) {
		fclose(f);
		return err_set(e, "%s: out of memory for %lld bytes", path, size);
	}
	size_t got = fread(b, 1, (size_t)size, f);
	int more = fgetc(f) != EOF;
	fclose(f);
	if (got != (size_t)size || more) {
		free(b);
		return err_set(e, "%s: the file changed size while being read", path);
	}
	*buf = b;
	*len = (size_t)size;
	return 0;
}

/* A varint at p[*i..len) into *v; -1 when it runs past len or beyond 10 bytes. */
static int varint(const uint8_t *p, size_t len, size_t *i, uint64_t *v)
{
	uint64_t x = 0;
	for (int shift = 0; shift < 70; shift += 7) {
		if (*i >= len)
			return -1;
		uint8_t b = p[(*i)++];
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

/* The wire type a field of this type is written with (2 for length-delimited). */
static int wire_of(ProtobufCType t)
{
	switch (t) {
	case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_FIXED64:
	case PROTOBUF_C_TYPE_DOUBLE:
		return 1;
	case PROTOBUF_C_TYPE_SFIXED32:
	case PROTOBUF_C_TYPE_FIXED32:
	case PROTOBUF_C_TYPE_FLOAT:
		return 5;
	case PROTOBUF_C_TYPE_STRING:
	case PROTOBUF_C_TYPE_BYTES:
	case PROTOBUF_C_TYPE_MESSAGE:
		return 2;
	default:
		return 0;
	}
}

/* Walks the fields of one message of type d at p[0..len) (offset base in the
 * file), recursing into fields that hold messages. */
static int scan(const ProtobufCMessageDescriptor *d, const uint8_t *p, size_t len, size_t base,
                int depth, Err *e)
{
	if (depth > ONNX_MAX_DEPTH)
		return err_set(e, "offset %zu: messages nested more than %d deep", base,
		               ONNX_MAX_DEPTH);
	size_t i = 0;
	while (i < len) {
		size_t at = i;
		uint64_t key, v;
		if (varint(p, len, &i, &key))
			return err_set(e, "offset %zu: %s: truncated field key", base + at,
			               d->short_name);
		uint64_t num = key >> 3;
		int wt = (int)(key & 7);
		if (num == 0 || num > 0x1fffffff)
			return err_set(e,
			               "offset %zu: %s: field number %llu, expected 1..536870911",
			               base + at, d->short_name, (unsigned long long)num);
		const ProtobufCFieldDescriptor *f =
		    protobuf_c_message_descriptor_get_field(d, (unsigned)num);
		if (f) {
			int want = wire_of(f->type);
			int packed = f->label == PROTOBUF_C_LABEL_REPEATED && want != 2 && wt == 2;
			if (wt != want && !packed)
				return err_set(e,
				               "offset %zu: %s field %llu (%s) has wire type %d, "
				               "expected %d",
				               base + at, d->short_name, (unsigned long long)num,
				               f->name, wt, want);
		}
		switch (wt) {
		case 0:
			if (varint(p, len, &i, &v))
				return err_set(e, "offset %zu: %s: truncated varint of field %llu",
				               base + at, d->short_name, (unsigned long long)num);
			break;
		case 1:
		case 5:
			if (len - i < (wt == 1 ? 8u : 4u))
				return err_set(e, "offset %zu: %s: field %llu cut short", base + at,
				               d->short_name, (unsigned long long)num);
			i += wt == 1 ? 8 : 4;
			break;
		case 2:
			if (varint(p, len, &i, &v) || v > len - i)
				return err_set(
				    e,
				    "offset %zu: %s field %llu%s%s%s: length runs past the "
				    "end of its message (%zu bytes left)",
				    base + at, d->short_name, (unsigned long long)num,
				    f ? " (" : "", f ? f->name : "", f ? ")" : "",
				    len - (i < len ? i : len));
			if (f && f->type == PROTOBUF_C_TYPE_MESSAGE &&
			    scan(f->descriptor, p + i, (size_t)v, base + i, depth + 1, e))
				return -1;
			i += (size_t)v;
			break;
		default:
			return err_set(e,
			               "offset %zu: %s field %llu has wire type %d (expected 0, 1, "
			               "2 or 5)",
			               base + at, d->short_name, (unsigned long long)num, wt);
		}
	}
	return 0;
}

ProtobufCMessage *onnx_unpack(const ProtobufCMessageDescriptor *d, const uint8_t *buf, size_t len,
                              Err *e)
{
	if (len == 0) {
		err_set(e, "empty file, expected an ONNX %s", d->short_name);
		return NULL;
	}
	if (scan(d, buf, len, 0, 0, e))
		return NULL;
	ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, len, buf);
	if (!m)
		err_set(e, "not a valid ONNX %s (protobuf-c could not unpack it)", d->short_name);
	return m;
}

/* Little-endian bytes as a float or double. */
static double le_value(const uint8_t *p, int size)
{
	uint64_t u = 0;
	for (int k = size - 1; k >= 0; k--)
		u = u << 8 | p[k];
	if (size == 4) {
		uint32_t w = (uint32_t)u;
		float f;
		memcpy(&f, &w, sizeof f);
		return f;
	}
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

/* The number of values the dimensions describe, refused beyond 2^40. */
static int dims_count(const Onnx__TensorProto *t, const char *what, OnnxTensor *out, Err *e)
{
	if (t->n_dims > ONNX_MAXDIMS)
		return err_set(e, "%s: %zu dimensions, more than %d", what, t->n_dims,
		               ONNX_MAXDIMS);
	size_t count = 1;
	out->nd = (int)t->n_dims;
	for (size_t k = 0; k < t->n_dims; k++) {
		long long d = (long long)t->dims[k];
		if (d < 0)
			return err_set(e, "%s: dimension %zu is %lld, expected >= 0", what, k, d);
		if (d > 0 && count > ((size_t)1 << 40) / (size_t)d)
			return err_set(e, "%s: dimensions hold more than 2^40 values", what);
		count *= (size_t)d;
		out->dims[k] = d;
	}
	out->count = count;
	return 0;
}

int onnx_tensor_values(const Onnx__TensorProto *t, const char *what, OnnxTensor *out, Err *e)
{
	char tb[32];
	memset(out, 0, sizeof *out);
	if (t->has_data_location && t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)
		return err_set(
		    e, "%s: data stored in an external file, which condnet does not read", what);
	if (t->segment)
		return err_set(e, "%s: a segment of a tensor, expected a whole tensor", what);
	int32_t type = t->has_data_type ? t->data_type : 0;
	if (type != ONNX_FLOAT && type != ONNX_DOUBLE)
		return err_set(e, "%s: data type %s, expected FLOAT (1) or DOUBLE (11)", what,
		               onnx_type_name(type, tb));
	if (dims_count(t, what, out, e))
		return -1;
	size_t n = out->count, size = type == ONNX_FLOAT ? 4 : 8;
	size_t typed = type == ONNX_FLOAT ? t->n_float_data : t->n_double_data;
	if (t->has_raw_data && typed)
		return err_set(e, "%s: values both in raw_data and in %s, expected one", what,
		               type == ONNX_FLOAT ? "float_data" : "double_data");
	if (t->has_raw_data ? t->raw_data.len != n * size : typed != n) {
		size_t have = t->has_raw_data ? t->raw_data.len : typed * size;
		return err_set(e,
		               "%s: %zu bytes of %s, but its dimensions need %zu values (%zu "
		               "bytes)",
		               what, have,
		               t->has_raw_data ? "raw_data"
		                               : (size == 4 ? "float_data" : "double_data"),
		               n, n * size);
	}
	out->v = malloc((n ? n : 1) * sizeof *out->v);
	if (!out->v)
		return err_set(e, "%s: out of memory for %zu values", what, n);
	for (size_t i = 0; i < n; i++) {
		double v = t->has_raw_data ? le_value(t->raw_data.data + i * size, (int)size)
		           : size == 4     ? t->float_data[i]
		                           : t->double_data[i];
		if (!isfinite(v) || fabs(v) > FLT_MAX) {
			free(out->v);
			out->v = NULL;
			return err_set(e, "%s: value %zu is %g, expected a finite float32", what, i,
			               v);
		}
		out->v[i] = v;
	}
	return 0;
}

int onnx_read_tensor(const char *path, float **data, int *nd, long long dims[8], Err *e)
{
	uint8_t *buf;
	size_t len;
	if (onnx_read_file(path, &buf, &len, e))
		return -1;
	Onnx__TensorProto *t =
	    (Onnx__TensorProto *)onnx_unpack(&onnx__tensor_proto__descriptor, buf, len, e);
	free(buf);
	OnnxTensor v;
	if (!t || onnx_tensor_values(t, "tensor", &v, e)) {
		if (t)
			protobuf_c_message_free_unpacked(&t->base, NULL);
		return err_prefix(e, "%s", path);
	}
	protobuf_c_message_free_unpacked(&t->base, NULL);
	float *f = malloc((v.count ? v.count : 1) * sizeof *f);
	if (!f) {
		free(v.v);
		return err_set(e, "%s: out of memory for %zu values", path, v.count);
	}
	for (size_t i = 0; i < v.count; i++)
		f[i] = (float)v.v[i];
	free(v.v);
	*data = f;
	*nd = v.nd;
	memcpy(dims, v.dims, sizeof v.dims);
	return 0;
}
