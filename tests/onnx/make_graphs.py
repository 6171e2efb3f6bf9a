#!/usr/bin/python3
"""make_graphs.py - small ONNX graphs of every operator a graph network holds
(condnet import --onnx), written with onnx.helper, their inputs and what a
NumPy reference computes on them, for tests/onnx_graph.sh:

    tests/onnx/make_graphs.py DIR

For each case NAME it writes DIR/NAME.onnx (checked by onnx.checker with
full_check), DIR/NAME.x.npy (rows of inputs, each sample's values in a row)
and DIR/NAME.y.npy (the outputs the graph computes on them: logits, or the
probabilities when it ends in a Softmax), and prints NAME. The reference is
written from ONNX's definitions, loop by loop, not from condnet's code.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

OUT = sys.argv[1]
ROWS = 5
rng = np.random.default_rng(53)


def rand(*shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


# ---- the reference, from ONNX's operator definitions ----

def out_side(n, k, s, d, lo, hi, ceil):
    span = d * (k - 1) + 1
    room = n + lo + hi - span
    o = (-(-room // s) if ceil else room // s) + 1
    if ceil and (o - 1) * s >= n + lo:
        o -= 1
    return o


def conv(x, W, b, strides=(1, 1), dil=(1, 1), pads=(0, 0, 0, 0), group=1):
    n, c, H, Wd = x.shape
    co, cig, kh, kw = W.shape
    xp = np.zeros((n, c, H + pads[0] + pads[2], Wd + pads[1] + pads[3]), np.float64)
    xp[:, :, pads[0]:pads[0] + H, pads[1]:pads[1] + Wd] = x
    oh = out_side(H, kh, strides[0], dil[0], pads[0], pads[2], False)
    ow = out_side(Wd, kw, strides[1], dil[1], pads[1], pads[3], False)
    y = np.zeros((n, co, oh, ow))
    cog = co // group
    for o in range(co):
        g = o // cog
        for ci in range(cig):
            for ky in range(kh):
                for kx in range(kw):
                    y0, x0 = ky * dil[0], kx * dil[1]
                    patch = xp[:, g * cig + ci, y0:y0 + strides[0] * (oh - 1) + 1:strides[0],
                               x0:x0 + strides[1] * (ow - 1) + 1:strides[1]]
                    y[:, o] += W[o, ci, ky, kx] * patch
        y[:, o] += b[o]
    return y


def pool(x, kind, k, s=(1, 1), pads=(0, 0, 0, 0), ceil=0, count_pad=0):
    n, c, H, Wd = x.shape
    oh = out_side(H, k[0], s[0], 1, pads[0], pads[2], ceil)
    ow = out_side(Wd, k[1], s[1], 1, pads[1], pads[3], ceil)
    y = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            ys, xs = i * s[0] - pads[0], j * s[1] - pads[1]
            ye, xe = ys + k[0], xs + k[1]
            win = x[:, :, max(ys, 0):min(ye, H), max(xs, 0):min(xe, Wd)]
            if kind == 'max':
                y[:, :, i, j] = win.max(axis=(2, 3))
                continue
            if count_pad:
                div = (min(ye, H + pads[2]) - ys) * (min(xe, Wd + pads[3]) - xs)
            else:
                div = win.shape[2] * win.shape[3]
            y[:, :, i, j] = win.sum(axis=(2, 3)) / div
    return y


def batchnorm(x, s, b, mean, var, eps=1e-5):
    sh = (1, -1) + (1,) * (x.ndim - 2)
    return (x - mean.reshape(sh)) / np.sqrt(var.reshape(sh) + eps) * s.reshape(sh) + b.reshape(sh)


def erf(x):
    from math import erf as e
    return np.vectorize(e)(x)


def softmax(z):
    z = z - z.max(1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(1, keepdims=True)


# ---- the graphs ----

class G:
    """A graph being written: initializers, nodes, the reference alongside."""

    def __init__(self, shape):
        self.shape = shape
        self.nodes, self.inits, self.k = [], [], 0

    def init(self, a, dtype=None):
        name = f'c{len(self.inits)}'
        self.inits.append(nh.from_array(a if dtype is None else a.astype(dtype), name))
        return name

    def node(self, op, ins, **attrs):
        self.k += 1
        out = f't{self.k}'
        self.nodes.append(h.make_node(op, ins, [out], name=f'{op.lower()}{self.k}', **attrs))
        return out

    def save(self, name, out, classes, x, y, opset=13):
        g = h.make_graph(self.nodes, name,
                         [h.make_tensor_value_info('x', T.FLOAT, ['N', *self.shape[1:]])],
                         [h.make_tensor_value_info(out, T.FLOAT, ['N', classes])], self.inits)
        m = h.make_model(g, opset_imports=[h.make_opsetid('', opset)])
        m.ir_version = 7
        onnx.checker.check_model(m, full_check=True)
        onnx.save(m, os.path.join(OUT, name + '.onnx'))
        np.save(os.path.join(OUT, name + '.x.npy'), x.reshape(len(x), -1).astype(np.float32))
        np.save(os.path.join(OUT, name + '.y.npy'), y.astype(np.float32))
        print(name)


def head(g, t, ref, classes=3):
    """Flatten and a Gemm to the classes (transB as torch writes Linear)."""
    f = g.node('Flatten', [t], axis=1)
    r = ref.reshape(len(ref), -1)
    W, b = rand(classes, r.shape[1]), rand(classes)
    return g.node('Gemm', [f, g.init(W), g.init(b)], transB=1), r @ W.T.astype(np.float64) + b


def conv_case(name, shape, co, k, **a):
    x = rand(ROWS, *shape[1:])
    g = G(shape)
    W, b = rand(co, shape[1] // a.get('group', 1), *k), rand(co)
    attrs = {key: list(v) if isinstance(v, tuple) else v for key, v in a.items()
             if key not in ('auto_pad_ref',)}
    t = g.node('Conv', ['x', g.init(W), g.init(b)], kernel_shape=list(k), **attrs)
    ref_pads = a.get('auto_pad_ref', a.get('pads', (0, 0, 0, 0)))
    ref = conv(x, W, b, a.get('strides', (1, 1)), a.get('dilations', (1, 1)), ref_pads,
               a.get('group', 1))
    out, y = head(g, t, ref)
    g.save(name, out, 3, x, y)


def convs():
    conv_case('conv_stride', (1, 3, 9, 9), 4, (3, 3), strides=(2, 2), pads=(1, 1, 1, 1))
    conv_case('conv_dilation', (1, 2, 10, 10), 3, (3, 3), dilations=(2, 2), pads=(2, 2, 2, 2))
    conv_case('conv_groups', (1, 4, 7, 7), 6, (3, 3), group=2, pads=(1, 1, 1, 1))
    conv_case('conv_depthwise', (1, 4, 8, 8), 4, (3, 3), group=4, pads=(1, 1, 1, 1),
              strides=(2, 2))
    conv_case('conv_depthwise_x2', (1, 3, 7, 7), 6, (3, 3), group=3, pads=(1, 0, 1, 2))
    conv_case('conv_asym_pads', (1, 2, 8, 9), 3, (2, 3), strides=(1, 2), pads=(0, 1, 2, 1))
    # SAME: the output ceil(in / s), the odd cell of padding after (upper) or before (lower)
    conv_case('conv_same_upper', (1, 2, 7, 7), 3, (4, 4), strides=(2, 2), auto_pad='SAME_UPPER',
              auto_pad_ref=(1, 1, 2, 2))
    conv_case('conv_same_lower', (1, 2, 7, 7), 3, (4, 4), strides=(2, 2), auto_pad='SAME_LOWER',
              auto_pad_ref=(2, 2, 1, 1))
    conv_case('conv_valid', (1, 2, 7, 7), 3, (3, 3), strides=(2, 2), auto_pad='VALID')
    conv_case('conv_1x1', (1, 5, 6, 6), 4, (1, 1))


def pools():
    for name, kind, a in (
            ('maxpool_s2_pad', 'max', dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])),
            ('maxpool_ceil', 'max', dict(kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)),
            ('maxpool_asym', 'max', dict(kernel_shape=[2, 3], strides=[1, 2], pads=[0, 1, 1, 2])),
            ('avgpool_pad', 'avg', dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])),
            ('avgpool_count_pad', 'avg', dict(kernel_shape=[3, 3], strides=[2, 2],
                                              pads=[1, 1, 1, 1], count_include_pad=1)),
            ('avgpool_ceil', 'avg', dict(kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1)),
            ('avgpool_ceil_count_pad', 'avg', dict(kernel_shape=[3, 3], strides=[2, 2],
                                                   pads=[1, 1, 1, 1], ceil_mode=1,
                                                   count_include_pad=1))):
        x = rand(ROWS, 2, 9, 9)
        g = G((1, 2, 9, 9))
        t = g.node('MaxPool' if kind == 'max' else 'AveragePool', ['x'], **a)
        ref = pool(x, kind, a['kernel_shape'], a['strides'], a.get('pads', (0, 0, 0, 0)),
                   a.get('ceil_mode', 0), a.get('count_include_pad', 0))
        out, y = head(g, t, ref)
        g.save(name, out, 3, x, y)
    x = rand(ROWS, 3, 5, 4)
    g = G((1, 3, 5, 4))
    out, y = head(g, g.node('GlobalAveragePool', ['x']), x.mean(axis=(2, 3), keepdims=True))
    g.save('globalavg', out, 3, x, y)


def batchnorms():
    """BatchNormalization after a Conv and after a Gemm (folded), alone (a
    per-channel scale and shift), and Add or Mul of per-channel constants."""
    c = 3
    bn = [rand(c, lo=0.5, hi=1.5), rand(c), rand(c), rand(c, lo=0.5, hi=2.0)]
    x = rand(ROWS, 2, 6, 6)
    g = G((1, 2, 6, 6))
    W, b = rand(c, 2, 3, 3), rand(c)
    t = g.node('Conv', ['x', g.init(W), g.init(b)], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    t = g.node('BatchNormalization', [t] + [g.init(a) for a in bn], epsilon=1e-3)
    t = g.node('Relu', [t])
    ref = np.maximum(batchnorm(conv(x, W, b, pads=(1, 1, 1, 1)), *bn, eps=1e-3), 0)
    out, y = head(g, t, ref)
    g.save('conv_bn', out, 3, x, y)

    x = rand(ROWS, c, 4, 4)
    g = G((1, c, 4, 4))
    t = g.node('BatchNormalization', ['x'] + [g.init(a) for a in bn])
    sc, sh = rand(1, c, 1, 1), rand(c, 1, 1)
    t = g.node('Mul', [t, g.init(sc)])
    t = g.node('Add', [g.init(sh), t])
    W2, b2 = rand(2, c, 3, 3), rand(2)
    t = g.node('Conv', [t, g.init(W2), g.init(b2)], kernel_shape=[3, 3])
    ref = conv(batchnorm(x, *bn) * sc + sh, W2, b2)
    out, y = head(g, t, ref)
    g.save('bn_alone', out, 3, x, y)

    x = rand(ROWS, 6)
    g = G((1, 6))
    W, b = rand(c, 6), rand(c)
    t = g.node('Gemm', ['x', g.init(W), g.init(b)], transB=1)
    t = g.node('BatchNormalization', [t] + [g.init(a) for a in bn])
    t = g.node('Tanh', [t])
    W2 = rand(c, 2)
    t = g.node('MatMul', [t, g.init(W2)])
    b2 = rand(2)
    t = g.node('Add', [t, g.init(b2)])
    ref = np.tanh(batchnorm(x @ W.T.astype(np.float64) + b, *bn)) @ W2 + b2
    g.save('gemm_bn_matmul_add', t, 2, x, ref)


def joins():
    """A residual block (two Adds, one a projection shortcut) and a Concat
    of two branches."""
    x = rand(ROWS, 3, 6, 6)
    g = G((1, 3, 6, 6))
    W1, b1, W2, b2 = rand(3, 3, 3, 3), rand(3), rand(3, 3, 3, 3), rand(3)
    t = g.node('Relu', [g.node('Conv', ['x', g.init(W1), g.init(b1)], kernel_shape=[3, 3],
                               pads=[1, 1, 1, 1])])
    t = g.node('Conv', [t, g.init(W2), g.init(b2)], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    s = g.node('Relu', [g.node('Add', [t, 'x'])])
    Wp, bp, W3, b3 = rand(4, 3, 1, 1), rand(4), rand(4, 3, 3, 3), rand(4)
    p = g.node('Conv', [s, g.init(Wp), g.init(bp)], kernel_shape=[1, 1], strides=[2, 2])
    q = g.node('Conv', [s, g.init(W3), g.init(b3)], kernel_shape=[3, 3], strides=[2, 2],
               pads=[1, 1, 1, 1])
    u = g.node('Relu', [g.node('Add', [q, p])])
    r1 = np.maximum(conv(x, W1, b1, pads=(1, 1, 1, 1)), 0)
    rs = np.maximum(conv(r1, W2, b2, pads=(1, 1, 1, 1)) + x, 0)
    ru = np.maximum(conv(rs, W3, b3, (2, 2), pads=(1, 1, 1, 1)) + conv(rs, Wp, bp, (2, 2)), 0)
    out, y = head(g, u, ru)
    g.save('residual', out, 3, x, y)

    x = rand(ROWS, 2, 5, 5)
    g = G((1, 2, 5, 5))
    Wa, ba, Wb, bb = rand(3, 2, 3, 3), rand(3), rand(1, 2, 1, 1), rand(1)
    a = g.node('Conv', ['x', g.init(Wa), g.init(ba)], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    b = g.node('Conv', ['x', g.init(Wb), g.init(bb)], kernel_shape=[1, 1])
    t = g.node('Concat', [a, 'x', b], axis=1)
    ref = np.concatenate([conv(x, Wa, ba, pads=(1, 1, 1, 1)), x, conv(x, Wb, bb)], axis=1)
    out, y = head(g, g.node('Sigmoid', [t]), 1 / (1 + np.exp(-ref)))
    g.save('concat', out, 3, x, y)


def activations():
    x = rand(ROWS, 2, 4, 4, lo=-8, hi=8)
    for name, ops, ref in (
            ('relu', [('Relu', {})], np.maximum(x, 0)),
            ('relu6', [('Clip', {'min': 0.0, 'max': 6.0})], np.clip(x, 0, 6)),
            ('clip', [('Clip', {'min': -1.5, 'max': 2.5})], np.clip(x, -1.5, 2.5)),
            ('clip_min', [('Clip', {'min': -0.5})], np.maximum(x, -0.5)),
            ('leakyrelu', [('LeakyRelu', {'alpha': 0.2})], np.where(x >= 0, x, 0.2 * x)),
            ('sigmoid', [('Sigmoid', {})], 1 / (1 + np.exp(-x.astype(np.float64)))),
            ('tanh', [('Tanh', {})], np.tanh(x)),
            ('erf_scaled', [('Mul', {'by': 0.25}), ('Erf', {})], erf(0.25 * x.astype(np.float64))),
            ('identity_dropout', [('Identity', {}), ('Dropout', {})], x)):
        g = G((1, 2, 4, 4))
        t = 'x'
        for op, a in ops:
            if op == 'Clip':
                ins = [t, g.init(np.array(a['min'], np.float32)),
                       g.init(np.array(a['max'], np.float32)) if 'max' in a else '']
                t = g.node('Clip', ins if ins[-1] else ins[:2])
            elif op == 'Mul':
                t = g.node('Mul', [t, g.init(np.array(a['by'], np.float32))])
            elif op == 'Dropout':
                t = g.node('Dropout', [t, g.init(np.array(0.5, np.float32)),
                                       g.init(np.array(False), np.bool_)])
            else:
                t = g.node(op, [t], **a)
        out, y = head(g, t, ref)
        g.save(name, out, 3, x, y)


def shapes():
    """Reshape of features into maps and back, Flatten, a final Softmax."""
    x = rand(ROWS, 32)
    g = G((1, 32))
    t = g.node('Reshape', ['x', g.init(np.array([0, 2, 4, 4], np.int64))])
    W, b = rand(3, 2, 3, 3), rand(3)
    t = g.node('Conv', [t, g.init(W), g.init(b)], kernel_shape=[3, 3])
    t = g.node('Reshape', [t, g.init(np.array([-1, 12], np.int64))])
    W2, b2 = rand(4, 12), rand(4)
    t = g.node('Gemm', [t, g.init(W2), g.init(b2)], transB=1, alpha=0.5, beta=2.0)
    t = g.node('Softmax', [t], axis=-1)
    ref = conv(x.reshape(ROWS, 2, 4, 4), W, b).reshape(ROWS, 12)
    ref = softmax(0.5 * ref @ W2.T.astype(np.float64) + 2.0 * b2)
    g.save('reshape_softmax', t, 4, x, ref)


os.makedirs(OUT, exist_ok=True)
convs()
pools()
batchnorms()
joins()
activations()
shapes()
