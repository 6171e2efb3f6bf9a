#!/bin/sh
# tui_graph.sh - the screen on a graph network, driven through tmux on a
# residual network the test writes as ONNX (a stem and seven residual
# blocks of two convolutions each, one a stride-2 projection shortcut, then
# a Gemm: 17 Conv and Gemm layers) and imports into a model file, with a
# data set of its inputs' shape, at 80×24 and at 200×60:
#  - the header says what the network is (a graph of 17 Conv/Gemm layers and
#    its parameters); the layer table lists every Conv and Gemm with its
#    shape, its node's name and `condnet cond`'s n_i, κ and p on the same
#    file, scrolling with ↓ to the last layer; Enter shows that layer's
#    spectrum in view 5;
#  - view 8 draws the graph a node a row, an Add naming both inputs and an
#    arc from the shortcut's source, scrolling to the last node;
#  - s, r, b and z are refused in one status line saying they are not
#    available for graph networks, and the views of the algorithms say so;
#    t trains it; q quits with exit status 0;
#  - --onnx opens the ONNX file itself as a load the session log records
#    (onnx=1), and condnet replay runs that log to the network saved.
# Needs Python with onnx and numpy (Debian python3-onnx): skipped (exit 77)
# without them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
C=$CONDNET
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
expect_ok "import reads it as a graph" "$C" import --onnx res.onnx --save res.model
expect_ok "cond reads the model file" "$C" cond --load res.model --json c.json
# 2x6x6 images of three classes (the class lifts one third of the values)
awk 'BEGIN { s = 11; for (r = 0; r < 300; r++) { c = r % 3; line = "";
	for (j = 0; j < 72; j++) { s = (s * 1103515245 + 12345) % 2147483648;
		v = s / 2147483648 - 0.5; if (int(j / 24) == c) v += 0.6; line = line sprintf("%.4f,", v) }
	print line c } }' >img.csv
DATA="--data csv:$TMP/img.csv --shape 2x6x6"
# cond's table as "i n kappa p" lines (κ with 4 digits, as the screen)
"$PY" -c "
import json
d = json.load(open('c.json'))
for i, l in enumerate(d['layers']):
    print(i + 1, l['n'], '%.4g' % l['kappa'], l['p'])" >want
check "cond counts 17 layers" [ "$(wc -l <want)" -eq 17 ]

# rows_seen: the layer table's rows on the screen so far, added to seen
rows_seen() { screen | sed -n 's/^[!r ][!r ] *\([0-9][0-9]*\)[c*] *\([0-9][0-9]*\)  *\([0-9.e+∞-]*\)  *\([0-9][0-9]*\) .*/\1 \2 \3 \4/p' >>seen; }
REFUSED='is not available for graph networks yet'
for size in 80x24 200x60; do
	screen_run "g$size" "$size" tui --load "'$TMP/res.model'" $DATA --log "'$TMP/s$size.log'"
	see "$size: the header says what the network is" \
		'net graph: 17 Conv/Gemm layers, [0-9,]+ params'
	see "$size: the table names a Conv's shape, channel group and node" \
		'^ +1c +4 +[0-9.]+ +[0-9]+ +[0-9]+ +[0-9]+ +Conv 4×2×3×3 G1 stem( |$)'
	check "$size: the block's second conv in the stem's group (their outputs meet in an Add)" \
		grep -Eq 'Conv 4×4×3×3 G1 b0_conv2( |$)' "$TMP/screen"
	see "$size: and the stride-2 projection's" 'Conv 6×4×1×1 /2 G[0-9]+ b4_proj'
	: >seen
	rows_seen
	for i in $(seq 1 17); do keys Down; done
	see "$size: scrolling reaches the last layer, the Gemm" '^ +17\* +3 +[0-9.]+ .*Gemm 54→3 G[0-9]+ fc( |$)'
	rows_seen
	sort -n -u seen >got
	check "$size: every layer's n_i, κ and p are cond's" cmp want got ||
		diff want got | sed 's/^/  | /'
	keys Enter
	see "$size: Enter shows the last layer's spectrum" '^Layer 17 of 17.*Gemm 54→3'
	keys 8
	see "$size: view 8 draws the graph a node a row" \
		'^ .* 1 stem +Conv 3×3 +4×6×6 +[0-9.]+ +← input'
	see "$size: an Add names both its inputs" '← b0_conv2 \+ stem_relu|← #5 \+ #2'
	see "$size: and an arc comes from the shortcut's source" '╰─+► +[0-9]+ b0_add'
	keys End
	see "$size: view 8 scrolls to the last node" '^ .* fc +Gemm +3 +[0-9.]+ +← '
	for k in s r b z; do
		keys 1 "$k"
		see "$size: $k is refused" "$REFUSED"
		keys Escape
	done
	keys d
	keys 8 d
	see "$size: the diagram's edits are refused" "editing by hand $REFUSED"
	keys 2
	see "$size: the Algorithm-1 view says it has no graph" "^Algorithm 1 \(s, r\) $REFUSED"
	keys t
	see "$size: t asks for the epochs" 'train epochs'
	keys C-u 2 Enter
	see "$size: t trains the graph network" 'trained 2 epochs: test accuracy' 60
	keys q
	see "$size: q asks first: the training is not saved" 'unsaved changes: w saves and quits'
	keys y
	see "$size: y quits with status 0" '^EXIT=0$'
	check "$size: no algorithm was logged" [ "$(grep -c '^alg\|^sweep\|^squeeze' "$TMP/s$size.log")" -eq 0 ]
	$T kill-session -t "g$size"
done

## --onnx: the load the log records, and its replay
screen_run onnx 80x24 tui --onnx "'$TMP/res.onnx'" $DATA --log "'$TMP/o.log'"
see "--onnx opens the ONNX file's graph" 'net graph: 17 Conv/Gemm layers'
keys t
see "t asks for the epochs" 'train epochs'
keys C-u 1 Enter
see "it trains" 'trained 1 epoch' 60
keys w
see "w asks for a file" 'save to'
keys C-u "$TMP/o.model" Enter
see "the network is saved" "saved $TMP/o.model"
keys q
see "q quits with status 0" '^EXIT=0$'
check "the log records the load as ONNX" grep -q "^load path=$TMP/res.onnx onnx=1 crc=" o.log
"$C" replay o.log >replay.out 2>&1
check "condnet replay runs the log" grep -q '^widths 2x6x6 graph: 16 Conv, 1 Gemm, 7 Add' replay.out ||
	sed 's/^/  | /' replay.out
# the model saved, loaded by a log of its own: the same parameters
{ grep '^data \|^opts ' o.log; echo "load path=$TMP/o.model"; } >saved.log
"$C" replay saved.log >saved.out 2>&1
crc=$(sed -n 's/^crc32 //p' replay.out)
check "to the network the screen saved (CRC-32 $crc)" [ -n "$crc" ] &&
	grep -q "^crc32 $crc\$" saved.out
finish
