#!/usr/bin/python3
"""make_hostile.py - ONNX files that condnet import must refuse, naming the
node and what is wrong, written with onnx.helper (no checker: most of them
are what onnx.checker refuses too), for tests/onnx_hostile.sh:

    tests/onnx/make_hostile.py DIR

Each file is a small valid network (a Conv, a Relu, a Flatten and a Gemm
on 1x6x6 maps) with one fault; DIR/NAME.onnx for each NAME printed.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

OUT = sys.argv[1]
rng = np.random.default_rng(1)


def arr(*shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


def model(name, nodes, inits, in_shape=('N', 1, 6, 6), out_shape=('N', 2), opset=13):
    g = h.make_graph(nodes, name, [h.make_tensor_value_info('x', T.FLOAT, list(in_shape))],
                     [h.make_tensor_value_info('y', T.FLOAT, list(out_shape))],
                     [nh.from_array(v, k) for k, v in inits.items()])
    m = h.make_model(g, opset_imports=[h.make_opsetid('', opset)])
    m.ir_version = 7
    onnx.save(m, os.path.join(OUT, name + '.onnx'))
    print(name)


def net(name, conv_attrs=None, W=None, b=None, pool=None, reshape=None, in_shape=('N', 1, 6, 6),
        extra=None):
    """x -> Conv -> Relu [-> pool] -> Flatten or Reshape -> Gemm -> y."""
    W = arr(2, 1, 3, 3) if W is None else W
    b = arr(2) if b is None else b
    a = {'kernel_shape': [W.shape[2], W.shape[3]], 'pads': [1, 1, 1, 1]}
    a.update(conv_attrs or {})
    a = {k: v for k, v in a.items() if v is not None}
    conv = h.make_node('Conv', ['x', 'W', 'b'], ['c'], name='conv', **a)
    if extra:
        extra(conv)
    nodes = [conv, h.make_node('Relu', ['c'], ['r'], name='relu')]
    inits = {'W': W, 'b': b}
    last, size = 'r', W.shape[0] * 36
    if pool:
        op, pa, fix = pool
        p = h.make_node(op, [last], ['p'], name='pool', **pa)
        if fix:
            fix(p)
        nodes.append(p)
        last, size = 'p', W.shape[0] * 9
    if reshape is not None:
        inits['shape'] = np.array(reshape, np.int64)
        nodes.append(h.make_node('Reshape', [last, 'shape'], ['f'], name='reshape'))
    else:
        nodes.append(h.make_node('Flatten', [last], ['f'], name='flatten', axis=1))
    inits['G'] = arr(2, size)
    inits['g'] = arr(2)
    nodes.append(h.make_node('Gemm', ['f', 'G', 'g'], ['y'], name='fc', transB=1))
    model(name, nodes, inits, in_shape)


def twice(node):
    node.attribute.append(h.make_attribute('pads', [0, 0, 0, 0]))


os.makedirs(OUT, exist_ok=True)
# every dimension checked before a cast or a product
BIG = 2 ** 62
net('dims_input_2e62p1', in_shape=('N', BIG + 1, 1, 1), W=arr(2, 1, 1, 1),
    conv_attrs={'pads': None})
net('dims_input_2e40', in_shape=('N', 2 ** 40, 6, 6), W=arr(2, 1, 1, 1), conv_attrs={'pads': None})
net('dims_input_2e62x4x1', in_shape=('N', BIG, 4, 1), W=arr(2, 1, 1, 1), conv_attrs={'pads': None})
model('dims_reshape_2e62p1',
      [h.make_node('Reshape', ['x', 'shape'], ['m'], name='to_maps'),
       h.make_node('Conv', ['m', 'W', 'b'], ['c'], name='conv', kernel_shape=[1, 1]),
       h.make_node('Relu', ['c'], ['r'], name='relu'),
       h.make_node('Flatten', ['r'], ['f'], name='flatten', axis=1),
       h.make_node('Gemm', ['f', 'G', 'g'], ['y'], name='fc', transB=1)],
      {'shape': np.array([0, BIG + 1, 1, 1], np.int64), 'W': arr(2, 1, 1, 1), 'b': arr(2),
       'G': arr(2, 2), 'g': arr(2)}, in_shape=('N', 1))
# attributes onnx.checker refuses
net('attr_twice', extra=twice)
net('attr_auto_pad_int', extra=lambda n: n.attribute.append(h.make_attribute('auto_pad', 1)))
net('attr_valid_with_pads', conv_attrs={'auto_pad': 'VALID'})
net('attr_reshape_minus7', reshape=[0, 2, -7])
net('attr_unknown', extra=lambda n: n.attribute.append(h.make_attribute('stride', [1, 1])))
# Conv and pool faults named as they are
net('conv_kernel_shape_5', conv_attrs={'kernel_shape': [5, 5]})
net('conv_bias_4x1', W=arr(4, 1, 3, 3), b=arr(4, 1))
net('conv_group_3', conv_attrs={'group': 3})
net('pool_dilated', pool=('MaxPool', {'kernel_shape': [2, 2], 'strides': [2, 2],
                                      'dilations': [2, 2]}, None))
net('pool_no_kernel_shape', pool=('MaxPool', {'strides': [2, 2]}, None))
net('pool_all_padding', pool=('AveragePool', {'kernel_shape': [2, 2], 'strides': [2, 2],
                                              'pads': [2, 2, 2, 2]}, None))
# graphs condnet does not read
model('add_broadcast', [h.make_node('Conv', ['x', 'W', 'b'], ['c'], name='conv', kernel_shape=[3, 3]),
                        h.make_node('Add', ['c', 'x'], ['s'], name='add'),
                        h.make_node('Flatten', ['s'], ['f'], name='flatten'),
                        h.make_node('Gemm', ['f', 'G', 'g'], ['y'], name='fc', transB=1)],
      {'W': arr(2, 1, 3, 3), 'b': arr(2), 'G': arr(2, 32), 'g': arr(2)})
model('concat_sizes', [h.make_node('Conv', ['x', 'W', 'b'], ['c'], name='conv', kernel_shape=[3, 3]),
                       h.make_node('Concat', ['c', 'x'], ['s'], name='cat', axis=1),
                       h.make_node('Flatten', ['s'], ['f'], name='flatten'),
                       h.make_node('Gemm', ['f', 'G', 'g'], ['y'], name='fc', transB=1)],
      {'W': arr(2, 1, 3, 3), 'b': arr(2), 'G': arr(2, 32), 'g': arr(2)})
model('softmax_inside', [h.make_node('Softmax', ['x'], ['s'], name='soft', axis=1),
                         h.make_node('Flatten', ['s'], ['f'], name='flatten'),
                         h.make_node('Gemm', ['f', 'G', 'g'], ['y'], name='fc', transB=1)],
      {'G': arr(2, 36), 'g': arr(2)})
model('other_operator', [h.make_node('Resize', ['x', '', 'sc'], ['s'], name='resize'),
                         h.make_node('Flatten', ['s'], ['f'], name='flatten'),
                         h.make_node('Gemm', ['f', 'G', 'g'], ['y'], name='fc', transB=1)],
      {'sc': np.array([1, 1, 1, 1], np.float32), 'G': arr(2, 36), 'g': arr(2)})
model('dropout_training', [h.make_node('Dropout', ['x', 'ratio', 'mode'], ['d'], name='drop'),
                           h.make_node('Flatten', ['d'], ['f'], name='flatten'),
                           h.make_node('Gemm', ['f', 'G', 'g'], ['y'], name='fc', transB=1)],
      {'ratio': np.array(0.5, np.float32), 'mode': np.array(True), 'G': arr(2, 36),
       'g': arr(2)})
model('batchnorm_training',
      [h.make_node('BatchNormalization', ['x', 's', 'b', 'm', 'v'], ['n'], name='bn',
                   training_mode=1),
       h.make_node('Flatten', ['n'], ['f'], name='flatten'),
       h.make_node('Gemm', ['f', 'G', 'g'], ['y'], name='fc', transB=1)],
      {'s': arr(1), 'b': arr(1), 'm': arr(1), 'v': np.ones(1, np.float32), 'G': arr(2, 36),
       'g': arr(2)})
model('dead_branch', [h.make_node('Relu', ['x'], ['dead'], name='unused'),
                      h.make_node('Flatten', ['x'], ['f'], name='flatten'),
                      h.make_node('Gemm', ['f', 'G', 'g'], ['y'], name='fc', transB=1)],
      {'G': arr(2, 36), 'g': arr(2)})
model('output_maps', [h.make_node('Conv', ['x', 'W', 'b'], ['c'], name='conv', kernel_shape=[1, 1]),
                      h.make_node('Add', ['c', 'c'], ['y'], name='add')],
      {'W': arr(1, 1, 1, 1), 'b': arr(1)}, out_shape=('N', 1, 6, 6))
