#!/bin/sh
# conv.sh - networks with convolution layers from the command line, on 8×8
# images of a bar (horizontal or vertical, anywhere, in noise) the test
# makes: training learns them; eval's accuracy is train's, predict's classes
# give it; cond shows every convolution layer with its channels, kernel and
# maps and the κ of its Ŵ (tests/cond_conv.sh checks the numbers); the model
# file is version 5 (a dense one stays version 4, a later version is
# refused); ONNX and .npy round trips answer as the model; and every bad
# input (a kernel larger than the map, a pool on a 1×1 map, a
# convolution on data without images, a --shape that does not fit the rows
# or, for any command, the model, a --layers syntax error) is refused with
# one line.
. "$(dirname "$0")/lib.sh"
C=$CONDNET
cd "$TMP" || exit 1

# json FILE EXPR: evaluates the Python expression EXPR with d = the parsed FILE.
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"; }
# u32 FILE OFFSET: the little-endian u32 at OFFSET of FILE.
u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }

## the images: 600 for training, 200 for testing
bar_images 800 5 | awk 'NR <= 600 { print > "tr.csv"; next } { print > "te.csv" }'
cut -d, -f1-64 te.csv >te-x.csv
cut -d, -f65 te.csv >te-y.txt
D="--data csv:tr.csv,te.csv --shape 8x8"
L="conv:4:3,pool:2,conv:6:3:same,8"

## training and the reports
expect_ok "train conv:4:3,pool:2,conv:6:3:same,8 on 1x8x8 images" "$C" train $D --layers "$L" \
	--act relu --epochs 8 --lr 0.01 --batch 20 --save c.model --json t.json --quiet
cp "$TMP/out" train.out
expect_grep "train names the layers" '^csv:tr\.csv,te\.csv: 1x8x8-4@3x3-pool-6@3x3pad1-8-2 network, ' train.out
test_acc=$(sed -n 's/^test accuracy: \([0-9.]*\) %$/\1/p' train.out)
check "it learns the bars (test accuracy $test_acc % > 95 %)" awk "BEGIN { exit !($test_acc > 95) }"
check "train's record names the shape" json t.json "d['shape'] == '1x8x8-4@3x3-pool-6@3x3pad1-8-2'"
expect_ok "eval the model" "$C" eval --load c.model --data csv:tr.csv,te.csv --quiet
expect_grep "eval's test accuracy is train's" "^1  +c\.model  +model  +1x8x8-4@3x3-pool-6@3x3pad1-8-2  +$test_acc  " "$TMP/out"
expect_ok "predict the test rows" "$C" predict --load c.model --input te-x.csv --out p.csv --quiet
right=$(sed 1d p.csv | cut -d, -f1 | paste -d' ' - te-y.txt | awk '$1 == $2' | wc -l)
check "predict's classes give eval's accuracy" awk "BEGIN { exit !(sprintf(\"%.2f\", $right / 2) == \"$test_acc\") }"
expect_ok "cond of the model" "$C" cond --load c.model --json c.json
cp "$TMP/out" cond.out
expect_grep "cond: layer 1 is a convolution of 4 channels with its κ" \
	'^1 +conv 4@3×3, pool → 4×3×3 +4 +[0-9.]+ +[0-9]+ +[0-9]+ +[0-9]+$' cond.out
expect_grep "cond: layer 2, padded" '^2 +conv 6@3×3 pad 1 → 6×3×3 +6 +[0-9.]+ ' cond.out
expect_grep "cond: the dense layers have their κ" '^3 +dense +8 +[0-9.]+ +[0-9]+ +[0-9]+ +[0-9]+$' cond.out
expect_grep "cond shows what Algorithm 3 would do" \
	"^Algorithm 3 at τ = 25 \(condnet squeeze\), each layer decided after the earlier layers' removals: [0-9]+ channels and neurons removed$" \
	cond.out
check "cond's record: every layer's κ and p, the convolutions' channels, kernels and maps" json c.json \
	"all(k > 0 for k in d['kappa']) and d['n'] == [64, 4, 6, 8, 2] and
	 [l['kind'] for l in d['layers']] == ['conv', 'conv', 'dense', 'dense'] and
	 d['layers'][0]['maps'] == [4, 3, 3] and d['layers'][1]['padding'] == 1 and
	 d['layers'][0]['rows'] == 10 and d['layers'][1]['cols'] == 6 and
	 len(d['layers'][1]['sv']) == 6 and 'kappa_note' not in d['layers'][1]"
expect_ok "train on from the model" "$C" train $D --load c.model --batch 20 --epochs 1 --save c2.model --quiet
expect_grep "training goes on from the saved run" '^continuing the run saved in c\.model after 8\.00 epochs' "$TMP/out"

## the model file: version 5, the block of the convolutions; a dense one stays version 4
check "the model file is version 5" [ "$(u32 c.model 8)" = 5 ]
# header: 28 + 4·(4+1) widths + 12, then the block: 4 + 32 a convolution
check "its header holds the block of 2 convolutions" [ "$(u32 c.model 12)" = $((28 + 20 + 12 + 4 + 64)) ]
check "the block: 2 layers, the first 1x8x8 to 4 channels of 3x3 pooled" \
	[ "$(od -An -tu4 -j 60 -N 36 c.model | tr -s ' \n' ' ')" = " 2 1 8 8 4 3 0 1 0 " ]
expect_ok "train a dense network" "$C" train --data csv:tr.csv,te.csv --layers 8 --epochs 1 --save d.model --quiet
check "a dense model file is version 4, which older condnets read" [ "$(u32 d.model 8)" = 4 ]
{ head -c 8 c.model; printf '\007\000\000\000'; tail -c +13 c.model; } >v7.model
expect_exit "a model of a later version is refused" 1 \
	'^condnet eval: v7\.model: format version 7 is newer than this condnet reads \(6\)$' \
	"$C" eval --load v7.model --data csv:tr.csv,te.csv
# a session's load holds the model to the data's images as the batch commands do
cat >shape.log <<EOF2
# condnet session log, version 1
data spec=csv:tr.csv,te.csv features=200 label_col=-1 seed=1 limit=0 val_frac=0.1 val_per_class=0 shape=1x4x16
opts batch=50 lr=0.001 threads=1
load path=c.model
EOF2
expect_exit "a session's load of images of another shape is refused" 1 \
	'shape\.log:4: c\.model: tr\.csv holds images of 1x4x16, but the network reads 1x8x8$' \
	"$C" replay shape.log

## ONNX and .npy round trips answer as the model
"$C" predict --load c.model --input te-x.csv --out want.csv --quiet
expect_ok "export --onnx" "$C" export --load c.model --onnx c.onnx
expect_ok "import --onnx" "$C" import --onnx c.onnx --save o.model
expect_ok "the ONNX round trip predicts" "$C" predict --load o.model --input te-x.csv --out o.csv --quiet
check "the ONNX round trip answers as the model" cmp want.csv o.csv
for lay in torch keras; do
	expect_ok "export --npy --layout $lay" "$C" export --load c.model --npy n-$lay --layout $lay
	expect_grep "the $lay manifest names the input images" '^input 1x8x8$' n-$lay/condnet-manifest.txt
	expect_grep "the $lay manifest names the layers" '^layers conv:4:3,pool:2,conv:6:3:same,8$' \
		n-$lay/condnet-manifest.txt
	expect_ok "import --npy --layout $lay" "$C" import --npy n-$lay --layout $lay --act relu --save n-$lay.model
	"$C" predict --load n-$lay.model --input te-x.csv --out n-$lay.csv --quiet
	check "the $lay .npy round trip answers as the model" cmp want.csv n-$lay.csv
done
expect_grep "torch's kernels are (out, in, K, K)" '^file W2\.npy 6x4x3x3 ' n-torch/condnet-manifest.txt
expect_grep "Keras' kernels are (K, K, in, out)" '^file W2\.npy 3x3x4x6 ' n-keras/condnet-manifest.txt
sed '/^layers /d' n-torch/condnet-manifest.txt >m && mv m n-torch/condnet-manifest.txt
expect_exit "4-D kernels without the manifest's layers are refused" 1 \
	'W1\.npy: shape \(4, 1, 3, 3\) has 4 dimensions, expected 1 or 2$' \
	"$C" import --npy n-torch --layout torch --act relu --save x.model

## bad inputs
expect_exit "a kernel larger than the map" 1 \
	'^condnet train: layers "conv:2:3,pool:2,conv:2:5" on 1×8×8 images: layer 2: a 5×5 kernel on 3×3 maps is larger than the map$' \
	"$C" train $D --layers conv:2:3,pool:2,conv:2:5 --epochs 1
expect_exit "a pool on a 1×1 map" 1 \
	'^condnet train: layers "conv:2:3,pool:2,conv:2:3,pool:2" on 1×8×8 images: layer 2: a 2×2 pool on 1×1 maps has no window$' \
	"$C" train $D --layers conv:2:3,pool:2,conv:2:3,pool:2 --epochs 1
expect_exit "a convolution on data without images" 1 \
	'^condnet train: layers "conv:2:3,8": a convolution needs images, and tr\.csv holds 64 features without an image.s shape' \
	"$C" train --data csv:tr.csv,te.csv --layers conv:2:3,8 --epochs 1
expect_exit "a convolution on the synthetic set" 1 'a convolution needs images, and synthetic train' \
	"$C" train --data synthetic --layers conv:2:3,8 --epochs 1
expect_exit "a --shape that does not fit the rows" 1 \
	'^condnet train: --shape 2x8x8: images of 128 values, but tr\.csv has 64 features$' \
	"$C" train --data csv:tr.csv,te.csv --shape 2x8x8 --layers conv:2:3,8 --epochs 1
expect_exit "a --shape of another data set" 1 '^condnet train: --shape declares the images of a CSV.s rows, not of synthetic' \
	"$C" train --data synthetic --shape 8x8 --epochs 1
expect_exit "a --shape that is no shape" 2 "^condnet train: --shape: '8x' is not a shape CxHxW or HxW" \
	"$C" train $D --shape 8x --epochs 1
expect_exit "images of another shape than the model's" 1 \
	'^condnet train: tr\.csv holds images of 4x4x4, but the network reads 1x8x8$' \
	"$C" train --data csv:tr.csv,te.csv --shape 4x4x4 --load c.model --epochs 1
# the same rule wherever a model meets images: eval and predict too
for cmd in "eval --load c.model" "eval --load c.model --split all" "predict --load c.model --out p2.csv" \
	"squeeze --load c.model" "cond --load c.model"; do
	expect_exit "$cmd --shape 4x4x4" 1 \
		'^condnet [a-z]+: (tr\.csv and )?te?r?\.csv holds images of 4x4x4, but the network reads 1x8x8$' \
		"$C" $cmd --data csv:tr.csv,te.csv --shape 4x4x4
done
expect_exit "predict --input with a --shape of the model's values in other images" 1 \
	'^condnet predict: te-x\.csv holds images of 4x4x4, but the network reads 1x8x8$' \
	"$C" predict --load c.model --input te-x.csv --shape 4x4x4 --out p2.csv
expect_exit "predict --input with a --shape of other values" 1 \
	'^condnet predict: --shape 2x8x8: images of 128 values, but te-x\.csv has 64 features$' \
	"$C" predict --load c.model --input te-x.csv --shape 2x8x8 --out p2.csv
check "and no answers were written" [ ! -e p2.csv ]
expect_ok "predict --input with the model's --shape" "$C" predict --load c.model --input te-x.csv --shape 8x8 --out p2.csv
while IFS='|' read -r spec msg; do
	expect_exit "--layers $spec" 2 "^condnet train: --layers: layers \"$spec\": $msg" \
		"$C" train $D --layers "$spec" --epochs 1
done <<'EOF'
conv:4|expected ':' and the kernel side at the end
conv:4:3:same:1|expected ',' at column 14, found ':'
conv:4:4:same|'same' at column 10 needs an odd kernel side, not 4
pool:2,8|the pool at column 1 follows no convolution
conv:4:3,pool:2,pool:2|the pool at column 17 follows no convolution
conv:4:3,pool:4|pool size 4 at column 15: condnet pools 2×2 windows \(pool:2\)
8,conv:4:3|the convolution at column 3 follows a dense layer \(convolutions come first\)
conv:4:65|kernel side at column 8 is too large \(at most 64\)
EOF
finish
