# graph_res.sh - what the screen tests of a graph network share: a
# residual network of 2x6x6 inputs and 3 classes written as ONNX (a stem
# and seven residual blocks of two convolutions each, one a stride-2
# projection shortcut, then a Gemm: 17 Conv and Gemm layers), imported into
# a model file, and a data set of its inputs' shape. Source it after lib.sh;
# it sets PY (a Python with onnx and numpy, else the test is skipped: exit
# 77) and DATA (the data options), and leaves the test in $TMP, where it
# writes res.onnx, res.model and img.csv.
cd "$TMP" || exit 1
PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import onnx, numpy' >/dev/null 2>&1; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	echo "no Python with onnx and numpy (Debian python3-onnx python3-numpy): skipped"
	exit 77
fi

cat >make_res.py <<'EOF'
"""A residual network of 2x6x6 inputs and 3 classes as ONNX."""
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

rng = np.random.default_rng(53)
nodes, inits = [], []

def init(name, shape):
    inits.append(numpy_helper.from_array(rng.uniform(-0.4, 0.4, shape).astype(np.float32), name))
    return name

def node(op, name, ins, **attrs):
    nodes.append(helper.make_node(op, ins, [name], name=name, **attrs))
    return name

def conv(name, x, co, ci, k, stride=1):
    return node('Conv', name, [x, init(name + '.W', (co, ci, k, k)), init(name + '.b', (co,))],
                kernel_shape=[k, k], strides=[stride, stride], pads=[k // 2] * 4)

t = node('Relu', 'stem_relu', [conv('stem', 'x', 4, 2, 3)])
c = 4
for b in range(7):
    down = b == 4
    co = 6 if down else c
    a = node('Relu', f'b{b}_relu1', [conv(f'b{b}_conv1', t, co, c, 3, 2 if down else 1)])
    y = conv(f'b{b}_conv2', a, co, co, 3)
    s = conv(f'b{b}_proj', t, co, c, 1, 2) if down else t
    t = node('Relu', f'b{b}_out', [node('Add', f'b{b}_add', [y, s])])
    c = co
f = node('Flatten', 'flatten', [t], axis=1)
node('Gemm', 'fc', [f, init('fc.W', (3, c * 9)), init('fc.b', (3,))], transB=1)
g = helper.make_graph(nodes, 'res', [helper.make_tensor_value_info('x', TensorProto.FLOAT,
                                                                    [1, 2, 6, 6])],
                      [helper.make_tensor_value_info('fc', TensorProto.FLOAT, [1, 3])], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid('', 13)])
onnx.checker.check_model(m)
onnx.save(m, sys.argv[1])
EOF
check "the generator writes a residual network" "$PY" make_res.py res.onnx
expect_ok "import reads it as a graph" "$CONDNET" import --onnx res.onnx --save res.model
# 2x6x6 images of three classes (the class lifts one third of the values)
awk 'BEGIN { s = 11; for (r = 0; r < 300; r++) { c = r % 3; line = "";
	for (j = 0; j < 72; j++) { s = (s * 1103515245 + 12345) % 2147483648;
		v = s / 2147483648 - 0.5; if (int(j / 24) == c) v += 0.6; line = line sprintf("%.4f,", v) }
	print line c } }' >img.csv
DATA="--data csv:$TMP/img.csv --shape 2x6x6"
