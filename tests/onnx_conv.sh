#!/bin/sh
# onnx_conv.sh - networks with convolution layers through ONNX and NumPy,
# checked by others' code: condnet's export passes
# onnx.checker.check_model(full_check=True) and OpenCV's cv2.dnn computes
# condnet's probabilities (tests/onnx_run) to 1e-5, for every activation;
# LeNet-5-shaped networks trained a few steps in PyTorch (a pool before and
# after the activation, padding, Flatten and view) and exported to ONNX
# import into condnet and answer as PyTorch does to 1e-5; condnet's .npy
# export in the torch layout loads into PyTorch's modules, and in the Keras
# layout into a channels-last NumPy pass, and both answer as condnet does;
# convolutions and pools of other kinds (strides, dilations, uneven padding,
# 3×3 pools, no activation) import as graph networks, and maps as the
# output are refused naming the node.
# Needs Python with onnx, cv2, numpy and torch (Debian python3-onnx,
# python3-opencv, python3-torch, which ./install-deps installs): skipped
# (exit 77) without them.
. "$(dirname "$0")/lib.sh"
C=$CONDNET
RUN=$(cd "${top_builddir:-.}" && pwd)/tests/onnx_run
cd "$TMP" || exit 1

PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import onnx, cv2, numpy, torch' >/dev/null 2>&1; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	echo "no Python with onnx, cv2, numpy and torch (Debian python3-onnx python3-opencv" \
		"python3-torch): skipped"
	exit 77
fi
[ -x "$RUN" ] || { echo "tests/onnx_run is not built"; exit 1; }

## 1x8x8 images of a bar, 2 classes
bar_images 400 3 >img.csv
D="--data csv:img.csv --shape 8x8"

## condnet's export, checked by ONNX and run by OpenCV
for act in erf tanh relu sigmoid; do
	expect_ok "train a $act network of convolutions" "$C" train $D --act "$act" --act-scale 1.5 \
		--layers conv:3:3:same,pool:2,conv:4:2,6 --epochs 2 --save "$act.model" --quiet
	expect_ok "$act: export --onnx" "$C" export --load "$act.model" --onnx "$act.onnx"
	check "$act: onnx.checker, the input's maps, and OpenCV's outputs" \
		"$PY" - "$act.onnx" "$RUN" "$act.model" <<'EOF'
import subprocess, sys
import cv2, numpy as np, onnx
path, run, model = sys.argv[1:4]
m = onnx.load(path)
onnx.checker.check_model(m, full_check=True)
assert m.ir_version == 7 and [(o.domain, o.version) for o in m.opset_import] == [('', 13)]
dims = [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim]
assert dims[1:] == [1, 8, 8], dims
ops = [n.op_type for n in m.graph.node]
assert ops.count('Conv') == 2 and ops.count('MaxPool') == 1 and 'Flatten' in ops, ops
x = np.random.default_rng(5).standard_normal((64, 1, 8, 8)).astype(np.float32)
np.save('x.npy', x.reshape(64, 64))
subprocess.check_call([run, model, 'x.npy', 'condnet.npy'])
want = np.load('condnet.npy')
net = cv2.dnn.readNetFromONNX(path)
net.setInput(x)
got = net.forward()
d = np.abs(got - want).max()
print(f'{path}: OpenCV differs from condnet by {d:.3g}')
assert got.shape == want.shape and d <= 1e-5, d
EOF
	cat "$TMP/check"
done

## PyTorch's LeNet-5-shaped networks into condnet
check "PyTorch's networks import and answer as PyTorch does" "$PY" - "$RUN" <<'EOF'
import subprocess, sys
import numpy as np, torch, torch.nn as nn
run = sys.argv[1]
torch.manual_seed(1)

class A(nn.Module):  # LeNet-5's shape: pool after relu, then before it; view as Reshape
    def __init__(s):
        super().__init__()
        s.c1, s.c2 = nn.Conv2d(1, 3, 5), nn.Conv2d(3, 4, 3, padding=1)
        s.f1, s.f2, s.f3 = nn.Linear(4 * 2 * 2, 12), nn.Linear(12, 8), nn.Linear(8, 3)
    def forward(s, x):
        x = torch.max_pool2d(torch.relu(s.c1(x)), 2)
        x = torch.relu(torch.max_pool2d(s.c2(x), 2))
        x = x.view(-1, 16)
        return s.f3(torch.relu(s.f2(torch.relu(s.f1(x)))))

def B():  # tanh, no second pool, nn.Flatten
    return nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.Tanh(), nn.MaxPool2d(2),
                         nn.Conv2d(2, 3, 3), nn.Tanh(), nn.Flatten(), nn.Linear(3 * 5 * 5, 3))

for name, net in (('a', A()), ('b', B())):
    x = torch.rand(64, 1, 14, 14)
    y = torch.randint(0, 3, (64,))
    opt = torch.optim.Adam(net.parameters(), 0.01)
    for _ in range(20):  # trained a little: weights off their initial draws
        opt.zero_grad()
        nn.functional.cross_entropy(net(x), y).backward()
        opt.step()
    net.eval()
    torch.onnx.export(net, x[:2], f'pt_{name}.onnx', opset_version=13, input_names=['x'],
                      output_names=['y'], dynamic_axes={'x': {0: 'N'}, 'y': {0: 'N'}})
    xs = torch.rand(256, 1, 14, 14)
    with torch.no_grad():
        want = net(xs).numpy()
    np.save('ptx.npy', xs.reshape(256, -1).numpy())
    subprocess.check_call([run, f'pt_{name}.onnx', 'ptx.npy', 'pty.npy'])
    d = np.abs(np.load('pty.npy') - want).max()
    print(f'network {name}: condnet differs from PyTorch by {d:.3g}')
    assert d <= 1e-5, d
EOF
cat "$TMP/check"
expect_ok "import PyTorch's network a" "$C" import --onnx pt_a.onnx --save pt_a.model
expect_grep "it is LeNet-5's shape" '^imported 1x14x14-3@5x5-pool-4@3x3pad1-pool-12-8-3 \(5 layers' "$TMP/out"

## convolutions of other kinds: graph networks
"$PY" - <<'EOF'
import numpy as np, onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh
def model(name, nodes, inits, shape=(1, 1, 6, 6)):
    g = h.make_graph(nodes, name, [h.make_tensor_value_info('x', T.FLOAT, ['N', *shape[1:]])],
                     [h.make_tensor_value_info('y', T.FLOAT, ['N', 2])],
                     [nh.from_array(v.astype(np.float32), k) for k, v in inits.items()])
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid('', 13)]), name + '.onnx')
w, b = np.ones((2, 1, 3, 3)), np.zeros(2)
fc = lambda n: {'W': np.ones((2, n)), 'c': np.zeros(2)}  # n: the features before it
tail = [h.make_node('Relu', ['z'], ['r']), h.make_node('Flatten', ['r'], ['f']),
        h.make_node('Gemm', ['f', 'W', 'c'], ['y'], transB=1)]
model('stride', [h.make_node('Conv', ['x', 'w', 'b'], ['z'], strides=[2, 2])] + tail,
      {'w': w, 'b': b, **fc(8)})
model('dilation', [h.make_node('Conv', ['x', 'w', 'b'], ['z'], dilations=[2, 2])] + tail,
      {'w': w, 'b': b, **fc(8)})
model('pool3', [h.make_node('Conv', ['x', 'w', 'b'], ['c0']),
                h.make_node('MaxPool', ['c0'], ['z'], kernel_shape=[3, 3], strides=[3, 3])] + tail,
      {'w': w, 'b': b, **fc(2)})
model('noact', [h.make_node('Conv', ['x', 'w', 'b'], ['z']), h.make_node('Flatten', ['z'], ['f']),
                h.make_node('Gemm', ['f', 'W', 'c'], ['y'], transB=1)], {'w': w, 'b': b, **fc(32)})
model('pads', [h.make_node('Conv', ['x', 'w', 'b'], ['z'], pads=[1, 0, 1, 0])] + tail,
      {'w': w, 'b': b, **fc(48)})
model('maps_out', [h.make_node('Conv', ['x', 'w', 'b'], ['z']), h.make_node('Relu', ['z'], ['y'])],
      {'w': w, 'b': b})
EOF
while IFS='|' read -r f shape; do
	expect_ok "import reads $f as a graph network" "$C" import --onnx "$f.onnx" --save "$f.model"
	expect_grep "... $shape" "^imported 1x6x6 graph: $shape \(" "$TMP/out"
done <<'EOF'
stride|1 Conv, 1 Gemm, 1 Relu, 1 Reshape -> 2
dilation|1 Conv, 1 Gemm, 1 Relu, 1 Reshape -> 2
pool3|1 Conv, 1 Gemm, 1 MaxPool, 1 Relu, 1 Reshape -> 2
noact|1 Conv, 1 Gemm, 1 Reshape -> 2
pads|1 Conv, 1 Gemm, 1 Relu, 1 Reshape -> 2
EOF
expect_exit "import refuses maps as the output" 1 \
	"node 1 \(Relu\): the graph ends in maps of 2×4×4, not in \(batch, classes\)" \
	"$C" import --onnx maps_out.onnx --save x.model

## condnet's .npy export in PyTorch's modules and in a channels-last NumPy pass
expect_ok "train a relu network of convolutions" "$C" train $D --act relu \
	--layers conv:3:3,pool:2,conv:4:2:1,6 --epochs 2 --save r.model --quiet
expect_ok "export --npy --layout torch" "$C" export --load r.model --npy nt --layout torch
expect_ok "export --npy --layout keras" "$C" export --load r.model --npy nk --layout keras
check "the .npy files answer as condnet in PyTorch and in NumPy (channels last)" \
	"$PY" - "$RUN" <<'EOF'
import subprocess, sys
import numpy as np, torch, torch.nn as nn
run = sys.argv[1]
x = np.random.default_rng(2).standard_normal((50, 1, 8, 8)).astype(np.float32)
np.save('x.npy', x.reshape(50, 64))
subprocess.check_call([run, 'r.model', 'x.npy', 'want.npy'])
want = np.load('want.npy')
L = lambda d, k: (np.load(f'{d}/W{k}.npy'), np.load(f'{d}/b{k}.npy'))
# PyTorch's modules hold the torch layout as they are
net = nn.Sequential(nn.Conv2d(1, 3, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(3, 4, 2, padding=1),
                    nn.ReLU(), nn.Flatten(), nn.Linear(4 * 4 * 4, 6), nn.ReLU(), nn.Linear(6, 2))
for i, k in ((0, 1), (3, 2), (6, 3), (8, 4)):
    w, b = L('nt', k)
    net[i].weight.data, net[i].bias.data = torch.from_numpy(w), torch.from_numpy(b)
with torch.no_grad():
    got = torch.softmax(net(torch.from_numpy(x)), 1).numpy()
d = np.abs(got - want).max()
print(f'torch layout in PyTorch: differs from condnet by {d:.3g}')
assert d <= 1e-5, d
# Keras' layout: (K, K, in, out) kernels on channels-last maps, flattened as (y, x, c)
def conv(h, w, b, pad):  # h: N×H×W×C
    K = w.shape[0]
    h = np.pad(h, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    H, W = h.shape[1] - K + 1, h.shape[2] - K + 1
    out = np.zeros((h.shape[0], H, W, w.shape[3]))
    for y in range(K):
        for xx in range(K):
            out += h[:, y:y + H, xx:xx + W, :] @ w[y, xx]
    return np.maximum(out + b, 0)
pool = lambda h: h[:, :h.shape[1] // 2 * 2, :h.shape[2] // 2 * 2].reshape(
    h.shape[0], h.shape[1] // 2, 2, h.shape[2] // 2, 2, h.shape[3]).max(axis=(2, 4))
h = pool(conv(x.transpose(0, 2, 3, 1).astype(np.float64), *L('nk', 1), 0))
h = conv(h, *L('nk', 2), 1).reshape(50, -1)
w3, b3 = L('nk', 3)
w4, b4 = L('nk', 4)
z = np.maximum(h @ w3 + b3, 0) @ w4 + b4
got = np.exp(z - z.max(1, keepdims=True))
got /= got.sum(1, keepdims=True)
d = np.abs(got - want).max()
print(f'keras layout, channels last: differs from condnet by {d:.3g}')
assert d <= 1e-5, d
EOF
cat "$TMP/check"
finish
