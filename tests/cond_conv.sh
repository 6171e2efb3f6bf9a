#!/bin/sh
# cond_conv.sh - the conditioning and the algorithms on convolution layers,
# on 8×8 images of a bar the test makes. cond's κ and singular values of
# every layer, a convolution's Ŵ = [W as (C_in·K·K) × C_out; bᵀ], are
# NumPy's SVD of the stacked matrices built from the .npy export to 1e-10
# relative, on random (fresh) and trained layers, on GSL's path and on
# LAPACK's. squeeze removes channels (the kernels and biases, the next
# convolution's input slices or the flatten's rows) and the saved network
# loads and answers; a channel that is an exact multiple of another is
# removed and compensation gives back the network's answers (through the
# next convolution and through the flatten), which without it change;
# --compare, Algorithm 1 to its end and Algorithm 2's sweep run on such a
# network; a wide convolution's κ and p under both readings (--wide) and its
# squeeze alone (--only-layers). Needs python3 with numpy.
. "$(dirname "$0")/lib.sh"
C=$CONDNET
cd "$TMP" || exit 1
PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import numpy' >/dev/null 2>&1; then PY=$p; break; fi
done
[ -n "$PY" ] || { echo "no Python with numpy (Debian python3-numpy): skipped"; exit 77; }

bar_images 800 7 | awk 'NR <= 600 { print > "tr.csv"; next } { print > "te.csv" }'
cut -d, -f1-64 te.csv >te-x.csv
D="--data csv:tr.csv,te.csv --shape 8x8"
L="conv:6:3:same,pool:2,conv:5:3:same,8"

# numpy_cond JSON NPY: cond's κ and values of every layer against NumPy's
# SVD of the stacked matrices of the torch-layout .npy export NPY.
numpy_cond() {
	"$PY" - "$1" "$2" <<'EOF'
import json, sys
import numpy as np
rec = json.load(open(sys.argv[1]))
d = sys.argv[2]
worst = 0.0
for i, lay in enumerate(rec['layers'], 1):
    W = np.load(f'{d}/W{i}.npy').astype(np.float64)
    b = np.load(f'{d}/b{i}.npy').astype(np.float64)
    # torch's (C_out, C_in, K, K) or (out, in): a column per output
    A = np.vstack([W.reshape(W.shape[0], -1).T, b[None, :]])
    s = np.linalg.svd(A, compute_uv=False)
    assert lay['rows'] == A.shape[0] and lay['cols'] == A.shape[1], (i, lay['rows'], A.shape)
    assert len(lay['sv']) == len(s), (i, len(lay['sv']), len(s))
    k = s[0] / s[-1]
    rk = abs(lay['kappa'] - k) / k
    rs = np.max(np.abs(np.array(lay['sv']) - s)) / s[0]
    assert rec['kappa'][i - 1] == lay['kappa']
    worst = max(worst, rk, rs)
    assert rk <= 1e-10 and rs <= 1e-10, (i, lay['kappa'], k, rk, rs)
print(f'largest relative difference {worst:.3g}')
EOF
}

## κ against NumPy: a fresh network and a trained one, on both paths
expect_ok "cond of a fresh network of convolutions" "$C" cond $D --layers "$L" --act relu \
	--seed 3 --json fresh.json --save fresh.model --no-squeeze --quiet
expect_grep "cond: layer 1 is a convolution with its κ" \
	'^1 +conv 6@3×3 pad 1, pool → 6×4×4 +6 +[0-9.]+ +0 +6 +6$' "$TMP/out"
expect_ok "export the fresh network" "$C" export --load fresh.model --npy fresh --layout torch
check "the fresh layers' κ and values are NumPy's to 1e-10" numpy_cond fresh.json fresh
expect_ok "train it" "$C" train $D --layers "$L" --act relu --epochs 10 --lr 0.01 --batch 20 \
	--seed 3 --save c.model --quiet
expect_ok "export the trained network" "$C" export --load c.model --npy c --layout torch
for path in gsl lapack; do
	expect_ok "cond on $path's path" "$C" cond --load c.model --cond-path $path --json c-$path.json
	check "the trained layers' κ and values are NumPy's on $path's path" numpy_cond c-$path.json c
done
expect_grep "cond shows Algorithm 3's table of channels and neurons" \
	"^Algorithm 3 at τ = 25 \(condnet squeeze\), each layer decided after the earlier layers' removals: [0-9]+ channels and neurons removed$" \
	"$TMP/out"

## squeeze removes channels; the network saved loads and answers
expect_ok "squeeze at tau 2 with compensation, retrained" "$C" squeeze --load c.model $D --tau 2 \
	--compensate --retrain 1 --save sq.model --json sq.json
cp "$TMP/out" sq.out
expect_grep "the squeeze says what it removed" \
	'^removed [0-9]+ channels and neurons: [0-9]+ by the \|r_jj\| threshold, [0-9]+ by the κ loop$' sq.out
expect_grep "accuracy before" '^test accuracy before squeezing: [0-9.]+ %$' sq.out
expect_grep "after" '^test accuracy after squeezing: [0-9.]+ %$' sq.out
expect_grep "and retrained" '^test accuracy after retraining 1 epochs: [0-9.]+ %$' sq.out
check "channels went from the convolutions" "$PY" -c "
import json; d = json.load(open('sq.json'))
l = d['layers']
assert l[0]['n_after'] < l[0]['n_before'] == 6 or l[1]['n_after'] < l[1]['n_before'] == 5, l
"
expect_ok "the squeezed model loads" "$C" eval --load sq.model --data csv:tr.csv,te.csv --quiet
shape=$(sed -n 's/^result: //p' sq.out)
expect_grep "eval names the squeezed shape" " $shape " "$TMP/out"
expect_ok "cond of the squeezed model" "$C" cond --load sq.model --no-squeeze
expect_ok "the squeezed model exports to ONNX" "$C" export --load sq.model --onnx sq.onnx
expect_ok "and back" "$C" import --onnx sq.onnx --save sqo.model
"$C" predict --load sq.model --input te-x.csv --out a.csv --quiet
"$C" predict --load sqo.model --input te-x.csv --out b.csv --quiet
check "the ONNX round trip of the squeezed model answers as it" cmp a.csv b.csv

## compensation on an exact dependence: channel 4 of layer 1 twice channel
## 1 (its kernel and bias; relu and the max pool keep the factor), channel 3
## of layer 2 three times channel 0
"$PY" - c dup <<'EOF'
import os, shutil, sys
import numpy as np
src, dst = sys.argv[1:3]
shutil.copytree(src, dst)
for layer, (r, k, f) in ((1, (4, 1, 2.0)), (2, (3, 0, 3.0))):
    W = np.load(f'{dst}/W{layer}.npy'); b = np.load(f'{dst}/b{layer}.npy')
    W[r] = f * W[k]; b[r] = f * b[k]
    np.save(f'{dst}/W{layer}.npy', W); np.save(f'{dst}/b{layer}.npy', b)
# the manifest's sizes and CRC-32s of the files changed
import zlib
man = []
for line in open(f'{dst}/condnet-manifest.txt'):
    f = line.split()
    if f[0] == 'file':
        data = open(f'{dst}/{f[1]}', 'rb').read()
        line = f'file {f[1]} {f[2]} {len(data)} {zlib.crc32(data):08x}\n'
    man.append(line)
open(f'{dst}/condnet-manifest.txt', 'w').writelines(man)
EOF
expect_ok "import the network with the dependent channels" "$C" import --npy dup --layout torch \
	--act relu --save dup.model
for comp in comp plain; do
	flag=; [ $comp = comp ] && flag=--compensate
	expect_ok "squeeze at tau 1e6 ($comp)" "$C" squeeze --load dup.model $D --tau 1e6 $flag \
		--save dup-$comp.model --json dup-$comp.json --quiet
	"$C" predict --load dup-$comp.model --input te-x.csv --out dup-$comp.csv --quiet
done
check "only the two dependent channels went" "$PY" -c "
import json; l = json.load(open('dup-comp.json'))['layers']
assert [(x['n_before'], x['n_after']) for x in l[:2]] == [(6, 5), (5, 4)], l
"
"$C" predict --load dup.model --input te-x.csv --out dup.csv --quiet
# probs A B: the largest difference between the probabilities of two predict CSVs
probs() { "$PY" -c "
import numpy as np, sys
a, b = (np.loadtxt(f, delimiter=',', skiprows=1)[:, 1:] for f in sys.argv[1:3])
print(np.abs(a - b).max())" "$1" "$2"; }
d=$(probs dup.csv dup-comp.csv)
check "with compensation the network answers as before (largest difference $d ≤ 1e-5)" \
	awk "BEGIN { exit !($d <= 1e-5) }"
d=$(probs dup.csv dup-plain.csv)
check "without it, it does not (largest difference $d > 1e-3)" awk "BEGIN { exit !($d > 1e-3) }"

## the comparison, Algorithm 1 and Algorithm 2 on convolutions
expect_ok "squeeze --compare" "$C" squeeze --load c.model $D --tau 3 --compare --draws 3 \
	--no-timing --json cmp.json --quiet
expect_grep "the comparison measures QR, norm and random with compensation" \
	'^3 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ ± [0-9.]+ \(3\) ' "$TMP/out"
expect_ok "alg1 on a network of convolutions" "$C" alg1 $D --layers "conv:12:3:same,pool:2,conv:10:3,16" \
	--act relu --tau 4 --eta 1 --lr 0.01 --batch 20 --json a1.json --save a1.model --quiet
check "Algorithm 1 ran to its end, removing channels" "$PY" -c "
import json; d = json.load(open('a1.json'))
assert d['status'] in ('done', 'stuck'), d['status']
it = d['history']
assert len(it) > 1 and (it[-1]['n'][1] < 12 or it[-1]['n'][2] < 10), [x['n'] for x in it]
assert d['final_n'] == it[-1]['n'], d['final_n']
"
expect_ok "the network Algorithm 1 ends with loads" "$C" eval --load a1.model --data csv:tr.csv,te.csv --quiet
## a wide convolution (12 channels of 3×3 on one map: Ŵ 10×12) under the
## two readings of wide layers, and the squeeze of one layer alone
expect_ok "train a wide convolution" "$C" train $D --layers "conv:12:3,pool:2,8" --act relu \
	--epochs 4 --lr 0.01 --batch 20 --seed 2 --save w.model --quiet
expect_ok "cond under the paper's reading" "$C" cond --load w.model --tau 2 --json wp.json
expect_grep "cond names the wide layer and what each algorithm does" \
	'^  layer 1: Ŵ 10×12: 2 of its 12 channels are combinations of the others by its shape alone; ' "$TMP/out"
expect_ok "cond under --wide zero" "$C" cond --load w.model --tau 2 --wide zero --json wz.json
expect_grep "its κ is ∞ and p counts the 2 missing values" '^  layer 1: Ŵ 10×12: p = 2 missing \+ [0-9]+ below σ₁/τ$' "$TMP/out"
check "the records: finite κ and p over 10 values, then ∞ and p + 2, said so" "$PY" -c "
import json; p, z = (json.load(open(f)) for f in ('wp.json', 'wz.json'))
lp, lz = p['layers'][0], z['layers'][0]
assert lp['kappa'] is not None and lz['kappa'] is None, (lp['kappa'], lz['kappa'])
assert lz['p'] == lp['p'] + 2 and lz['sv'] == lp['sv'], (lp['p'], lz['p'])
assert 'wide' not in p and z['wide'] == 'zero'
assert p['layers'][1] == z['layers'][1]
"
for wide in paper zero; do
	expect_ok "squeeze the wide layer alone at tau 1e6 (--wide $wide)" "$C" squeeze --load w.model $D \
		--tau 1e6 --only-layers 1 --wide $wide --no-timing --json wq-$wide.json --quiet
done
check "at a tau above its kappa the paper's reading keeps it whole, zero removes the 2" "$PY" -c "
import json; p, z = (json.load(open(f'wq-{w}.json'))['layers'] for w in ('paper', 'zero'))
assert p[0]['n_after'] == 12 and z[0]['n_after'] <= 10, (p[0], z[0])
assert p[1]['n_after'] == z[1]['n_after'] == 8
"
expect_exit "--only-layers beyond the hidden layers" 1 \
	"^condnet squeeze: --only-layers: layer 3 is not a hidden layer of the model \(expected 1\.\.2\)$" \
	"$C" squeeze --load w.model $D --only-layers 1,3 --no-timing
expect_exit "--wide of another reading" 2 "^condnet cond: --wide: unknown reading of wide layers 'rows' \(expected paper or zero\)$" \
	"$C" cond --load w.model --wide rows
expect_ok "sweep on a network of convolutions" "$C" sweep $D --layers "conv:4:3,pool:2,6" --act relu \
	--beta 1,2 --q 1 --eta 0.5 --no-extend --json sw.json --quiet
check "Algorithm 2 scales channels and widths together" "$PY" -c "
import json; d = json.load(open('sw.json'))
w = [b['n'] for b in d['betas']]
assert w[0][1:3] == [4, 6] and w[1][1:3] == [8, 12], w
"
finish
