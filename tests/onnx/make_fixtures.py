#!/usr/bin/python3
"""make_fixtures.py - the ONNX fixtures of tests/test_onnx_io: small MLPs
exported by torch.onnx.export (Debian python3-torch), with PyTorch's outputs on
fixed inputs, and a few graphs written with onnx.helper (Debian python3-onnx)
in the forms torch does not produce (MatMul + Add, float_data, Constant
nodes, a Transpose of the weights, IR 3 initializers listed as inputs).

    tests/onnx/make_fixtures.py [DIR]      (default: the directory of this script)

For each NAME it writes NAME.onnx, NAME.in.pb (the inputs, a TensorProto) and
NAME.out.pb (what PyTorch, or numpy for the onnx.helper graphs, computes);
dropout_train and residual are for the refusals (their outputs are unused),
and so are bad_NAME.onnx, damaged models (wrong lengths, dimensions, types,
a cycle, an input nothing defines, shapes that do not chain).
The files are committed, so `make check` needs no Python; run this again
only to regenerate them.
"""
import os
import sys

import numpy as np
import onnx
import torch
from onnx import helper, numpy_helper, TensorProto

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
ROWS = 7


class Erf(torch.nn.Module):
    """erf(a·x), the paper's tunable error function."""

    def __init__(self, a):
        super().__init__()
        self.a = a

    def forward(self, x):
        return torch.erf(self.a * x)


class Residual(torch.nn.Module):
    """x + relu(W x + b): a skip connection."""

    def __init__(self, n):
        super().__init__()
        self.inner = torch.nn.Linear(n, n)

    def forward(self, x):
        return x + torch.relu(self.inner(x))


def save(name, model_bytes, x, y):
    with open(os.path.join(OUT, name + '.onnx'), 'wb') as f:
        f.write(model_bytes)
    for suffix, a in (('.in.pb', x), ('.out.pb', y)):
        with open(os.path.join(OUT, name + suffix), 'wb') as f:
            f.write(numpy_helper.from_array(a).SerializeToString())
    print(f'{name}: {x.shape} -> {y.shape}')


def torch_fixture(name, make_layers, opset, dtype=torch.float32, **kw):
    torch.manual_seed(sum(map(ord, name)))
    layers = make_layers()
    model = torch.nn.Sequential(*layers).to(dtype).eval()
    x = torch.randn(ROWS, layers[0].in_features, dtype=dtype)
    with torch.no_grad():
        y = model(x)
    if 'training' in kw:
        model.train()
    path = os.path.join(OUT, name + '.onnx')
    torch.onnx.export(model, x, path, opset_version=opset, input_names=['x'],
                      output_names=['y'], dynamic_axes={'x': {0: 'batch'}, 'y': {0: 'batch'}},
                      **kw)
    with open(path, 'rb') as f:
        save(name, f.read(), x.numpy(), y.numpy())


def torch_fixtures():
    L = torch.nn.Linear
    nn = torch.nn
    torch_fixture('relu', lambda: [L(6, 5), nn.ReLU(), L(5, 4), nn.ReLU(), L(4, 3)], 13)
    torch_fixture('tanh_softmax', lambda: [L(6, 5), nn.Tanh(), L(5, 3), nn.Softmax(dim=1)], 13)
    torch_fixture('sigmoid_opset9', lambda: [L(4, 6), nn.Sigmoid(), L(6, 2)], 9)
    torch_fixture('erf_softmax', lambda: [L(5, 4), Erf(1.5), L(4, 4), Erf(1.5), L(4, 3),
                                          nn.Softmax(dim=1)], 13)
    torch_fixture('linear_softmax', lambda: [L(5, 3), nn.Softmax(dim=1)], 13)
    torch_fixture('no_bias', lambda: [L(5, 4, bias=False), nn.ReLU(), L(4, 3, bias=False)], 13)
    torch_fixture('float64', lambda: [L(4, 3), nn.Tanh(), L(3, 2)], 13, dtype=torch.float64)
    torch_fixture('inputs_ir3', lambda: [L(4, 3), nn.ReLU(), L(3, 2)], 9,
                  keep_initializers_as_inputs=True)
    # refused: Dropout left in (exported in training mode), a skip connection
    torch_fixture('dropout_train', lambda: [L(4, 3), nn.Dropout(0.5), nn.ReLU(), L(3, 2)], 13,
                  training=torch.onnx.TrainingMode.TRAINING, do_constant_folding=False)
    torch_fixture('residual', lambda: [L(4, 3), Residual(3), L(3, 2)], 13)


def helper_model(name, nodes, inits, nin, nout, opset=13):
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info('x', TensorProto.FLOAT, ['N', nin])],
        [helper.make_tensor_value_info('y', TensorProto.FLOAT, ['N', nout])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', opset)],
                              producer_name='make_fixtures.py')
    model.ir_version = 7
    onnx.checker.check_model(model)
    return model.SerializeToString()


def helper_fixtures():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((ROWS, 4)).astype(np.float32)
    W1 = rng.standard_normal((4, 3)).astype(np.float32)
    b1 = rng.standard_normal(3).astype(np.float32)
    W2 = rng.standard_normal((3, 2)).astype(np.float32)
    b2 = rng.standard_normal(2).astype(np.float32)

    def softmax(z):
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)

    # MatMul + Add, weights in float_data (typed fields), the erf scale a Constant
    # node, the second weight the Transpose of an (out, in) constant
    inits = [helper.make_tensor('W1', TensorProto.FLOAT, W1.shape, W1.ravel().tolist()),
             helper.make_tensor('b1', TensorProto.FLOAT, b1.shape, b1.tolist()),
             numpy_helper.from_array(W2.T.copy(), 'W2t'),
             helper.make_tensor('b2', TensorProto.FLOAT, (1, 2), b2.tolist())]
    nodes = [helper.make_node('MatMul', ['x', 'W1'], ['m1']),
             helper.make_node('Add', ['b1', 'm1'], ['z1']),
             helper.make_node('Constant', [], ['a'], value=helper.make_tensor(
                 'a', TensorProto.FLOAT, (), [0.75])),
             helper.make_node('Mul', ['z1', 'a'], ['s1']),
             helper.make_node('Erf', ['s1'], ['h1']),
             helper.make_node('Transpose', ['W2t'], ['W2'], perm=[1, 0]),
             helper.make_node('MatMul', ['h1', 'W2'], ['m2']),
             helper.make_node('Add', ['m2', 'b2'], ['z2']),
             helper.make_node('Softmax', ['z2'], ['y'], axis=-1)]
    from math import erf
    h = np.vectorize(erf)(0.75 * (x @ W1 + b1))
    y = softmax(h @ W2 + b2).astype(np.float32)
    save('matmul_add', helper_model('matmul_add', nodes, inits, 4, 2), x, y)

    # Gemm with alpha, beta and a bias of one value broadcast over the outputs,
    # weights as float64 raw data
    W1d = W1.astype(np.float64)
    inits = [numpy_helper.from_array(W1d, 'W1'),
             numpy_helper.from_array(np.array([0.5], dtype=np.float64), 'c1'),
             numpy_helper.from_array(W2.T.copy(), 'W2'), numpy_helper.from_array(b2, 'b2')]
    nodes = [helper.make_node('Gemm', ['x', 'W1', 'c1'], ['z1'], alpha=2.0, beta=-1.0),
             helper.make_node('Sigmoid', ['z1'], ['h1']),
             helper.make_node('Gemm', ['h1', 'W2', 'b2'], ['y'], transB=1)]
    h = 1 / (1 + np.exp(-(2.0 * (x @ W1d) - 0.5)))
    y = (h @ W2 + b2).astype(np.float32)
    save('gemm_alpha_beta', helper_model('gemm_alpha_beta', nodes, inits, 4, 2), x, y)


def bad_fixtures():
    """Damaged models for the loader's refusals (bad_NAME.onnx, no outputs)."""
    rng = np.random.default_rng(5)
    W1 = rng.standard_normal((4, 3)).astype(np.float32)
    b1 = rng.standard_normal(3).astype(np.float32)
    W2 = rng.standard_normal((3, 2)).astype(np.float32)

    def model(name, nodes, inits, nin=4, nout=2, elem=TensorProto.FLOAT):
        graph = helper.make_graph(
            nodes, name, [helper.make_tensor_value_info('x', elem, ['N', nin])],
            [helper.make_tensor_value_info('y', TensorProto.FLOAT, ['N', nout])], inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)])
        m.ir_version = 7
        with open(os.path.join(OUT, 'bad_' + name + '.onnx'), 'wb') as f:
            f.write(m.SerializeToString())
        print('bad_' + name)

    def init(name, a):
        return numpy_helper.from_array(a, name)

    def mlp(inits=None, act='Relu'):
        nodes = [helper.make_node('Gemm', ['x', 'W1', 'b1'], ['z1'], name='fc1'),
                 helper.make_node(act, ['z1'], ['h1'], name='act1'),
                 helper.make_node('MatMul', ['h1', 'W2'], ['y'], name='fc2')]
        return nodes, inits or [init('W1', W1), init('b1', b1), init('W2', W2)]

    nodes, inits = mlp()
    inits[0].raw_data = inits[0].raw_data[:44]
    model('raw_length', nodes, inits)
    nodes, inits = mlp()
    inits[0].dims[0] = -4
    model('negative_dim', nodes, inits)
    nodes, inits = mlp()
    inits[0].dims[:] = [1 << 30, 1 << 30]
    model('huge_dims', nodes, inits)
    nodes, inits = mlp()
    inits[0].CopyFrom(init('W1', W1.astype(np.int64)))
    model('int64_weights', nodes, inits)
    nodes, inits = mlp()
    inits[0].data_location = TensorProto.EXTERNAL
    inits[0].external_data.add(key='location', value='weights.bin')
    model('external', nodes, inits)
    nodes, inits = mlp()
    inits[2] = init('W2', rng.standard_normal((5, 2)).astype(np.float32))
    model('chain', nodes, inits)
    nodes, inits = mlp()
    model('input_width', nodes, inits, nin=5)
    model('output_width', nodes, inits, nout=3)
    model('int_input', nodes, inits, elem=TensorProto.INT32)
    nodes, inits = mlp()
    nodes[0].input[2] = 'b0'
    model('dangling', nodes, inits)
    # a cycle: z1 + r -> a, relu(a) -> r
    nodes = [helper.make_node('Gemm', ['x', 'W1', 'b1'], ['z1'], name='fc1'),
             helper.make_node('Add', ['z1', 'r'], ['a'], name='loop_add'),
             helper.make_node('Relu', ['a'], ['r'], name='loop_relu'),
             helper.make_node('MatMul', ['r', 'W2'], ['y'], name='fc2')]
    model('cycle', nodes, [init('W1', W1), init('b1', b1), init('W2', W2)])
    nodes, inits = mlp()
    nodes[2].output[0] = 'z2'
    nodes += [helper.make_node('Tanh', ['z2'], ['h2'], name='act2'),
              helper.make_node('MatMul', ['h2', 'W3'], ['y'], name='fc3')]
    inits.append(init('W3', rng.standard_normal((2, 2)).astype(np.float32)))
    model('two_acts', nodes, inits)


if __name__ == '__main__':
    torch_fixtures()
    helper_fixtures()
    bad_fixtures()
