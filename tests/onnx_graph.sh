#!/bin/sh
# onnx_graph.sh - graph networks through ONNX, checked by others' code.
# Small graphs of every operator a graph network holds (strides, dilations,
# groups and depthwise convolutions, asymmetric and SAME padding, pools with
# ceil_mode and count_include_pad, BatchNormalization folded and alone, Add,
# Concat, the activations, Reshape and Softmax), written by
# tests/onnx/make_graphs.py with their outputs by a NumPy reference: condnet
# computes the reference's outputs to 1e-5, as an ONNX file and as the
# model file it imports into; condnet's export of each passes
# onnx.checker.check_model(full_check=True), and OpenCV's dnn and a PyTorch
# network rebuilt from the exported file node by node compute condnet's
# probabilities to 1e-5 (OpenCV but for count_include_pad, which OpenCV 4.6
# does not apply). torchvision's resnet18 and mobilenet_v2 with random
# weights and batch-norm statistics, exported by PyTorch: condnet's
# probabilities within 1e-4 of PyTorch's and the same class on every input,
# and its export read by OpenCV and PyTorch alike. Old model files
# (tests/regress/model-*) still read. Needs Python with onnx, cv2, numpy,
# torch and torchvision (Debian python3-onnx, python3-opencv, python3-torch,
# python3-torchvision, which ./install-deps installs): skipped (exit 77)
# without them.
. "$(dirname "$0")/lib.sh"
C=$CONDNET
RUN=$(cd "${top_builddir:-.}" && pwd)/tests/onnx_run
SRC=$(cd "${top_srcdir:-.}" && pwd)
cd "$TMP" || exit 1

PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import onnx, cv2, numpy, torch, torchvision' >/dev/null 2>&1; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	echo "no Python with onnx, cv2, numpy, torch and torchvision (Debian python3-onnx" \
		"python3-opencv python3-torch python3-torchvision): skipped"
	exit 77
fi
[ -x "$RUN" ] || { echo "tests/onnx_run is not built"; exit 1; }

## every operator against NumPy, through ONNX and through a model file
mkdir g
check "make_graphs.py writes the graphs (onnx.checker accepts them)" "$PY" "$SRC/tests/onnx/make_graphs.py" g
cases=$(cat "$TMP/check")
for n in $cases; do
	"$RUN" "g/$n.onnx" "g/$n.x.npy" "g/$n.onnx.npy" >"$TMP/run" 2>&1 &&
		"$C" import --onnx "g/$n.onnx" --save "g/$n.model" >>"$TMP/run" 2>&1 &&
		"$RUN" "g/$n.model" "g/$n.x.npy" "g/$n.model.npy" >>"$TMP/run" 2>&1 &&
		"$C" export --load "g/$n.model" --onnx "g/$n.out.onnx" >>"$TMP/run" 2>&1 ||
		{ fail "$n: import, run or export"; sed 's/^/  | /' "$TMP/run"; }
done
cat >rebuild.py <<'EOF'
"""A PyTorch network rebuilt from an ONNX file node by node (torch.nn.functional)."""
import numpy as np, onnx, torch
import torch.nn.functional as F
from onnx import numpy_helper

def run(path, x):
    m = onnx.load(path)
    v = {i.name: torch.tensor(numpy_helper.to_array(i).copy()) for i in m.graph.initializer}
    v[m.graph.input[0].name] = torch.tensor(x)
    for n in m.graph.node:
        a = {t.name: onnx.helper.get_attribute_value(t) for t in n.attribute}
        i = [v[k] if k else None for k in n.input]
        op = n.op_type
        if op == 'Conv':
            p = a.get('pads', [0, 0, 0, 0])
            y = F.conv2d(F.pad(i[0], (p[1], p[3], p[0], p[2])), i[1], i[2], a['strides'],
                         0, a['dilations'], a['group'])
        elif op in ('MaxPool', 'AveragePool'):
            p, k, s = a.get('pads', [0, 0, 0, 0]), a['kernel_shape'], a['strides']
            # the padding asymmetric: padded by hand (-inf or 0), then a pool without
            val = -np.inf if op == 'MaxPool' else 0.0
            z = F.pad(i[0], (p[1], p[3], p[0], p[2]), value=val)
            if op == 'MaxPool':
                y = F.max_pool2d(z, k, s, ceil_mode=bool(a['ceil_mode']))
            else:
                y = F.avg_pool2d(z, k, s, ceil_mode=bool(a['ceil_mode']),
                                 count_include_pad=True)
                if not a.get('count_include_pad', 0):
                    ones = F.pad(torch.ones_like(i[0][:1, :1]), (p[1], p[3], p[0], p[2]))
                    y = y / F.avg_pool2d(ones, k, s, ceil_mode=bool(a['ceil_mode']),
                                         count_include_pad=True)
        elif op == 'Gemm':
            y = F.linear(i[0], i[1], i[2])
        elif op == 'BatchNormalization':
            y = F.batch_norm(i[0], i[3], i[4], i[1], i[2], eps=a['epsilon'])
        elif op == 'GlobalAveragePool':
            y = i[0].mean((2, 3), keepdim=True)
        elif op == 'Flatten':
            y = i[0].flatten(1)
        elif op == 'Reshape':
            y = i[0].reshape([i[0].shape[0]] + [int(d) for d in i[1][1:]])
        elif op == 'Clip':
            y = i[0].clamp(a['min'], a['max'])
        elif op == 'LeakyRelu':
            y = F.leaky_relu(i[0], a['alpha'])
        elif op == 'Concat':
            y = torch.cat(i, a['axis'])
        elif op == 'Softmax':
            y = torch.softmax(i[0], a['axis'])
        else:
            y = {'Relu': torch.relu, 'Sigmoid': torch.sigmoid, 'Tanh': torch.tanh,
                 'Erf': torch.erf, 'Add': torch.add, 'Mul': torch.mul}[op](*i)
        v[n.output[0]] = y
    return v[m.graph.output[0].name].numpy()
EOF
check "condnet computes NumPy's outputs, as ONNX and as a model file; its exports pass onnx.checker and OpenCV and PyTorch compute its probabilities" \
	"$PY" - "$RUN" $cases <<'EOF'
import subprocess, sys
import cv2, numpy as np, onnx
sys.path.insert(0, '.')
import rebuild
run, cases = sys.argv[1], sys.argv[2:]
bad = []
for n in cases:
    want = np.load(f'g/{n}.y.npy')
    z = want - want.max(1, keepdims=True)
    prob = want if 'softmax' in n else np.exp(z) / np.exp(z).sum(1, keepdims=True)
    # the ONNX file's own outputs (logits but for a final Softmax); a model
    # file answers probabilities
    for kind, ref in (('onnx', want), ('model', prob)):
        got = np.load(f'g/{n}.{kind}.npy')
        d = np.abs(got - ref).max() / max(1.0, np.abs(ref).max())
        if not d <= 1e-5:
            bad.append(f'{n} ({kind}): differs from NumPy by {d:.3g}')
    m = onnx.load(f'g/{n}.out.onnx')
    onnx.checker.check_model(m, full_check=True)
    x = np.load(f'g/{n}.x.npy')
    shape = [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim][1:]
    xs = x.reshape(len(x), *shape)
    mine = np.load(f'g/{n}.model.npy')
    d = np.abs(rebuild.run(f'g/{n}.out.onnx', xs) - mine).max()
    if not d <= 1e-5:
        bad.append(f'{n}: PyTorch differs from condnet by {d:.3g}')
    if 'count_pad' not in n:
        net = cv2.dnn.readNetFromONNX(f'g/{n}.out.onnx')
        net.setInput(xs)
        d = np.abs(net.forward() - mine).max()
        if not d <= 1e-5:
            bad.append(f'{n}: OpenCV differs from condnet by {d:.3g}')
print(f'{len(cases)} graphs: {len(bad)} differ')
assert not bad, '\n'.join(bad)
EOF
cat "$TMP/check"

## torchvision's ResNet-18 and MobileNetV2 against PyTorch
check "resnet18 and mobilenet_v2 (random weights, 3x32x32): condnet answers as PyTorch does, and its export as well in OpenCV and PyTorch" \
	"$PY" - "$C" <<'EOF'
import subprocess, sys
import cv2, numpy as np, torch, torchvision
sys.path.insert(0, '.')
import rebuild
C = sys.argv[1]
torch.manual_seed(53)
for name in ('resnet18', 'mobilenet_v2'):
    m = getattr(torchvision.models, name)(weights=None).eval()
    for mod in m.modules():  # statistics of a trained network, not the identity
        if isinstance(mod, torch.nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.5, 0.5)
            mod.running_var.uniform_(0.5, 2.0)
            mod.weight.data.uniform_(0.5, 1.5)
            mod.bias.data.uniform_(-0.2, 0.2)
    x = torch.randn(6, 3, 32, 32)
    torch.onnx.export(m, x[:2], f'{name}.onnx', opset_version=13, input_names=['x'],
                      output_names=['y'], dynamic_axes={'x': {0: 'N'}, 'y': {0: 'N'}})
    with torch.no_grad():
        want = torch.softmax(m(x), 1).numpy()
    np.savetxt(f'{name}.csv', x.reshape(6, -1).numpy(), delimiter=',', fmt='%.9g')
    out = subprocess.run([C, 'predict', '--onnx', f'{name}.onnx', '--input', f'{name}.csv',
                          '--npy-out', name, '--quiet'], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    got = np.load(f'{name}/probabilities.npy')
    cls = np.load(f'{name}/classes.npy')
    d = np.abs(got - want).max()
    print(f'{name}: probabilities within {d:.3g} of PyTorch\'s, classes {cls.tolist()}')
    assert d <= 1e-4 and (cls == want.argmax(1)).all(), (d, cls, want.argmax(1))
    for cmd in (['import', '--onnx', f'{name}.onnx', '--save', f'{name}.model'],
                ['export', '--load', f'{name}.model', '--onnx', f'{name}.out.onnx']):
        r = subprocess.run([C] + cmd, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    back = rebuild.run(f'{name}.out.onnx', x.numpy())
    net = cv2.dnn.readNetFromONNX(f'{name}.out.onnx')
    net.setInput(x.numpy())
    cv = net.forward()
    d1, d2 = np.abs(back - got).max(), np.abs(cv - got).max()
    print(f'{name}: its export in PyTorch within {d1:.3g}, in OpenCV within {d2:.3g}')
    assert d1 <= 1e-5 and d2 <= 1e-5 and (cv.argmax(1) == cls).all()
EOF
cat "$TMP/check"

## the graph networks as files, and condnet's own tables of them
expect_ok "cond reads a graph network" "$C" cond --load resnet18.model --tau 25 --json r.json
expect_grep "... a row for each Conv and Gemm node, the first ResNet's 7x7 of stride 2" \
	"^1 +conv 64@7×7/2 pad 3 → 64×16×16 '/conv1/Conv' +1 +64 " "$TMP/out"
expect_grep "... and the last its dense layer" "^21 +dense 512→1000 '/fc/Gemm' +13 +1,000 " "$TMP/out"
check "... its JSON record: 21 layers, each with its node" "$PY" -c "
import json; r = json.load(open('r.json'))
assert r['graph'] and r['m'] == 21 and len(r['layers']) == 21, r.keys()
assert r['layers'][0]['node'] == 1 and r['layers'][20]['kind'] == 'dense', r['layers'][20]"
## channel groups: the convs that feed one stage's Adds go together (the stem
## with layer1's second convs; each later stage's projection with its second
## convs); the logits stay
expect_grep "... its channel groups: the stem with the second convs of layer1" \
	"^1 +1 3 5 +64 +64 +2 Add +2 4 6 8 *$" "$TMP/out"
check "... in its JSON record too, each layer's group beside it" "$PY" -c "
import json; r = json.load(open('r.json'))
g = [(x['layers'], x['units'], x['free'], x['adds']) for x in r['groups']]
assert g[0] == ([1, 3, 5], 64, 64, 2) and g[4] == ([7, 8, 10], 128, 128, 2), g
assert g[7] == ([12, 13, 15], 256, 256, 2) and g[10] == ([17, 18, 20], 512, 512, 2), g
assert len(g) == 13 and r['groups'][12]['fixed'] == 'the logits' and g[12][2] == 0, r['groups'][12]
assert [x['group'] for x in r['layers']][:6] == [1, 2, 1, 3, 1, 4], r['layers'][:6]"
expect_ok "cond reads MobileNetV2" "$C" cond --onnx mobilenet_v2.onnx --no-squeeze --json mb.json
check "... its groups: each expansion with its depthwise conv, the blocks' projections across their Adds" "$PY" -c "
import json; r = json.load(open('mb.json'))
g = [(x['layers'], x['units'], x['depthwise'], x['adds']) for x in r['groups']]
assert g[0] == ([1, 2], 32, 1, 0) and g[3] == ([6, 9], 24, 0, 1), g
assert g[10] == ([21, 24, 27, 30], 64, 0, 3) and g[19] == ([42, 45, 48], 160, 0, 2), g
assert all(x[2] == 1 for x in g if len(x[0]) == 2 and x[3] == 0), g"
expect_exit "a chain's command refuses a graph network, naming those that take one" 1 \
	"^condnet export: export --npy \(a matrix a layer\) reads a network layer by layer, and this one is a graph \(3x32x32 graph: .*\): its answers, its training, its conditioning \(cond\), Algorithms 1 to 3 by channel groups \(alg1, sweep, squeeze\) and its files are what condnet takes of a graph$" \
	"$C" export --load resnet18.model --npy r18npy
## fine-tuning: the same bits on one thread or two in the reproducible mode
"$PY" -c "
import numpy as np
r = np.random.default_rng(3)
for name, n in (('tr', 120), ('te', 40)):
    x = r.uniform(-1, 1, (n, 108))
    np.savetxt(name + '.csv', np.c_[x, (x[:, :54].sum(1) > 0).astype(int) + (x[:, 54:].sum(1) > 0)],
               delimiter=',', fmt='%.6g')"
for t in 1 2; do
	expect_ok "train --onnx fine-tunes the residual graph ($t thread(s), reproducible)" \
		"$C" train --onnx g/residual.onnx --data csv:tr.csv,te.csv --shape 3x6x6 --epochs 2 \
		--lr 0.01 --batch 16 --threads $t --reproducible --save "tuned$t.model" --quiet
done
for t in 1 2; do
	"$C" predict --load "tuned$t.model" --data csv:tr.csv,te.csv --shape 3x6x6 --npy-out "p$t" \
		--quiet >/dev/null 2>&1
done
check "... to the same weights: their answers the same bits" cmp p1/probabilities.npy p2/probabilities.npy
expect_ok "... which eval reads" "$C" eval --load tuned1.model --data csv:tr.csv,te.csv --shape 3x6x6
expect_grep "... as a graph" "tuned1\.model +model +3x6x6 graph: 4 Conv, 1 Gemm, 2 Add, 3 Relu, 1 Reshape -> 3 " "$TMP/out"
## a graph network's file with a data set: its record read for the inputs
## (these commands once refused it there, as a chain's command does)
expect_ok "train --load fine-tunes a graph network's file further" "$C" train --load tuned1.model \
	--data csv:tr.csv,te.csv --shape 3x6x6 --epochs 1 --quiet
expect_ok "cond --load reads it with the data set" "$C" cond --load tuned1.model --data csv:tr.csv,te.csv --shape 3x6x6
expect_grep "... and gives the test accuracy" "^test accuracy: [0-9.]+ %$" "$TMP/out"
## the squeeze by channel groups: a channel of the residual graph's second
## stage planted as a copy of another in both convolutions that feed its
## Add is the one removed, and with compensation the network answers as
## before, in condnet and, exported, in OpenCV
"$PY" - <<'EOF'
import onnx
from onnx import numpy_helper
m = onnx.load('g/residual.onnx')
inits = {i.name: i for i in m.graph.initializer}
for node in m.graph.node:
    if node.op_type == 'Conv' and node.name in ('conv6', 'conv7'):
        for name in node.input[1:]:
            a = numpy_helper.to_array(inits[name]).copy()
            a[3] = a[2]
            inits[name].CopyFrom(numpy_helper.from_array(a, name))
onnx.save(m, 'dup.onnx')
EOF
expect_ok "squeeze takes a graph network, group by group" "$C" squeeze --onnx dup.onnx \
	--data csv:tr.csv,te.csv --shape 3x6x6 --tau 1000 --compensate --save sq.model --json sq.json
expect_grep "... the planted copy's group: κ ∞, one channel removed from both producers" \
	"^3 +3 4 +4 +32 +inf +3 +1 *$" "$TMP/out"
expect_grep "... the group tied to the input left as it is" "^2 +2 +3 +- +- +3 +0 +the network's inputs$" "$TMP/out"
expect_grep "... the widths" "^layer widths 3-3-4-4-3 → 3-3-3-3-3$" "$TMP/out"
check "... its record" "$PY" -c "
import json; r = json.load(open('sq.json'))
assert r['graph'] and r['compensate'] and r['widths_after'] == [3, 3, 3, 3, 3], r
assert [g['removed'] for g in r['groups']] == [0, 0, 1, 0] and r['params_after'] < r['params_before'], r"
"$C" predict --onnx dup.onnx --data csv:tr.csv,te.csv --shape 3x6x6 --npy-out q0 --quiet >/dev/null 2>&1
"$C" predict --load sq.model --data csv:tr.csv,te.csv --shape 3x6x6 --npy-out q1 --quiet >/dev/null 2>&1
expect_ok "... exported" "$C" export --load sq.model --onnx sq.onnx
check "... it answers as the original to 1e-5, in condnet and in OpenCV" "$PY" -c "
import cv2, numpy as np
a, b = np.load('q0/probabilities.npy'), np.load('q1/probabilities.npy')
x = np.loadtxt('te.csv', delimiter=',')[:, :108].reshape(-1, 3, 6, 6).astype(np.float32)
n = cv2.dnn.readNetFromONNX('sq.onnx'); n.setInput(x); y = n.forward()
assert abs(a - b).max() < 1e-5 and abs(y - b).max() < 1e-5, (abs(a - b).max(), abs(y - b).max())"
expect_ok "... the same counts kept by random choice" "$C" squeeze --onnx dup.onnx \
	--data csv:tr.csv,te.csv --shape 3x6x6 --keep-counts sq.json --criterion random --seed 3
expect_grep "... says so, with its seed" "^squeezing dup\.onnx by channel groups to the counts of --keep-counts, kept by random choice \(seed 3\)$" "$TMP/out"
expect_grep "... one channel of the group removed as the record says" "^3 +3 4 +4 +32 +inf +3 +1 *$" "$TMP/out"
expect_exit "... a count for a group left as it is refused" 1 \
	"^condnet squeeze: group 4 keeps its 3 channels \(the logits\), not 2$" \
	"$C" squeeze --onnx dup.onnx --data csv:tr.csv,te.csv --shape 3x6x6 --keep-counts 3,3,3,2
expect_exit "... the options of chains alone refused, naming the way" 1 \
	"^condnet squeeze: --compare is for chains: a graph network is squeezed group by group" \
	"$C" squeeze --onnx dup.onnx --data csv:tr.csv,te.csv --shape 3x6x6 --compare
## --only-groups: the squeeze decides the groups named and leaves every
## other group's channels as they are, where the whole squeeze changes them
expect_ok "--only-groups 1: the first group alone" "$C" squeeze --onnx dup.onnx \
	--data csv:tr.csv,te.csv --shape 3x6x6 --tau 1.01 --only-groups 1 --json o1.json
expect_grep "... says so" "^squeezing dup\.onnx by channel groups at τ 1\.01, kept by the pivoted QR of each group's stack; groups 1 alone$" "$TMP/out"
expect_grep "... its layers alone narrower" "^layer widths 3-3-4-4-3 → 1-3-4-4-3$" "$TMP/out"
expect_grep "... the planted group not asked for" "^3 +3 4 +4 +- +- +4 +0 +not asked for$" "$TMP/out"
expect_ok "the whole squeeze at the same tau" "$C" squeeze --onnx dup.onnx \
	--data csv:tr.csv,te.csv --shape 3x6x6 --tau 1.01 --json o0.json
expect_ok "--only-groups 3,1: both groups" "$C" squeeze --onnx dup.onnx \
	--data csv:tr.csv,te.csv --shape 3x6x6 --tau 1.01 --only-groups 3,1 --json o31.json
check "... the records: group 1 alone changed by --only-groups 1, groups 1 and 3 by 3,1 as by all" \
	"$PY" -c "
import json
a, w, b = (json.load(open(f)) for f in ('o1.json', 'o0.json', 'o31.json'))
ra, rw, rb = ([g['removed'] for g in r['groups']] for r in (a, w, b))
assert ra[0] > 0 and ra[1:] == [0, 0, 0], ra
assert rw[2] > 0 and rb == rw and b['widths_after'] == w['widths_after'], (rw, rb)
assert a['widths_after'][1:] == a['widths_before'][1:], a"
expect_exit "... a group the network has not refused" 1 \
	"^condnet squeeze: --only-groups: group 9 is not a channel group of the network \(expected 1\.\.4" \
	"$C" squeeze --onnx dup.onnx --data csv:tr.csv,te.csv --shape 3x6x6 --only-groups 9
expect_exit "... a count for a group not asked for refused" 1 \
	"^condnet squeeze: group 3 keeps its 4 channels \(not asked for\), not 3$" \
	"$C" squeeze --onnx dup.onnx --data csv:tr.csv,te.csv --shape 3x6x6 --keep-counts 3,3,3,3 \
	--only-groups 1
"$C" train --data csv:tr.csv,te.csv --layers 5 --epochs 1 --save chain.model --quiet >/dev/null 2>&1
expect_exit "... and on a chain" 1 \
	"^condnet squeeze: --only-groups is for graph networks, whose channels go by groups: a chain's hidden layers are chosen with --only-layers$" \
	"$C" squeeze --load chain.model --data csv:tr.csv,te.csv --only-groups 1
for f in "$SRC"/tests/regress/model-v*.model; do
	expect_ok "$(basename "$f"), written by an older condnet, still reads" "$C" cond --load "$f"
done
finish
