#!/bin/sh
# onnx_cv2.sh - `condnet export --onnx` checked by ONNX's own checker and run
# by an independent runtime: for networks of each activation, trained and
# squeezed by condnet, the exported model passes onnx.checker.check_model
# (full check), states opset 13, IR version 7, its input and output names and
# condnet's metadata, and OpenCV's cv2.dnn.readNetFromONNX computes condnet's
# probabilities (tests/onnx_run: net_forward) to 1e-5; importing it back gives
# the same network. Needs Python with onnx, cv2 and numpy (Debian
# python3-onnx, python3-opencv): skipped (exit 77) without them.
. "$(dirname "$0")/lib.sh"
C=$CONDNET
RUN=$(cd "${top_builddir:-.}" && pwd)/tests/onnx_run
cd "$TMP" || exit 1

PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import onnx, cv2, numpy' >/dev/null 2>&1; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	echo "no Python with onnx, cv2 and numpy (Debian python3-onnx python3-opencv): skipped"
	exit 77
fi
[ -x "$RUN" ] || { echo "tests/onnx_run is not built"; exit 1; }

# onnx_ok NAME MODEL TAU: exports MODEL, checks the file and runs it in OpenCV.
onnx_ok() {
	# (lib.sh's helpers use $tag: these are tag, model, tau)
	tag=$1 model=$2 tau=$3
	expect_ok "$tag: export --onnx" "$C" export --load "$model" --onnx "$tag.onnx" --tau "$tau"
	expect_grep "$tag: export names the opset, input and output" \
		"\(ONNX opset 13, input 'input', output 'probabilities'\)$" "$TMP/out"
	widths=$("$C" cond --load "$model" --data synthetic --limit 20 --quiet 2>/dev/null |
		head -1 | sed 's/.*: //')
	check "$tag: onnx.checker, opset, names, metadata and OpenCV's outputs" \
		"$PY" - "$tag.onnx" "$RUN" "$model" "$tau" "$widths" <<'EOF'
import subprocess, sys
import cv2, numpy as np, onnx
path, run, model, tau, model_widths = sys.argv[1:6]
m = onnx.load(path)
onnx.checker.check_model(m, full_check=True)
assert m.ir_version == 7, m.ir_version
assert [(o.domain, o.version) for o in m.opset_import] == [('', 13)], m.opset_import
assert [i.name for i in m.graph.input] == ['input'], m.graph.input
assert [o.name for o in m.graph.output] == ['probabilities'], m.graph.output
meta = {p.key: p.value for p in m.metadata_props}
dims = [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim]
inits = {i.name: i for i in m.graph.initializer}
widths = [dims[1]] + [inits[f'W{k}'].dims[0] for k in range(1, len(inits) // 2 + 1)]
assert meta['condnet.widths'] == '-'.join(map(str, widths)) == model_widths, (meta, widths)
assert float(meta['condnet.tau']) == float(tau), meta
assert meta['condnet.activation'] in ('erf', 'tanh', 'relu', 'sigmoid'), meta
assert 'condnet.version' in meta and 'condnet.erf_scale' in meta, meta
x = np.random.default_rng(7).standard_normal((64, dims[1])).astype(np.float32) * 2
np.save('x.npy', x)
subprocess.check_call([run, model, 'x.npy', 'condnet.npy'])
want = np.load('condnet.npy')
net = cv2.dnn.readNetFromONNX(path)
net.setInput(x)
got = net.forward()
d = np.abs(got - want).max()
print(f'{path}: {meta["condnet.widths"]}, {meta["condnet.activation"]}, '
      f'OpenCV differs from condnet by {d:.3g}')
assert got.shape == want.shape and d <= 1e-5, d
EOF
	cat "$TMP/check"
	expect_ok "$tag: import --onnx of the export" "$C" import --onnx "$tag.onnx" --save "$tag.back"
	"$RUN" "$model" x.npy a.npy && "$RUN" "$tag.back" x.npy b.npy
	check "$tag: the imported export computes the same probabilities" cmp a.npy b.npy
}

for act in erf tanh relu sigmoid; do
	expect_ok "train a 3x12 $act network" "$C" train --data synthetic --limit 60 --layers 3x12 \
		--act "$act" --act-scale 1.5 --epochs 2 --save "$act.model" --quiet
	onnx_ok "$act" "$act.model" 25
done
expect_ok "squeeze the erf network (tau 3)" "$C" squeeze --load erf.model --data synthetic \
	--limit 60 --tau 3 --save squeezed.model --quiet
onnx_ok squeezed squeezed.model 3
finish
