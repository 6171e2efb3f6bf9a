#!/bin/sh
# graph_family.sh - residual networks made fresh from --layers
# (engine/graph_family.h), on data the test makes:
#  - train --layers resnet:4,8 on 8×8 images of bars learns them, saves a
#    graph network that cond reads layer by layer (7 Conv and Gemm layers,
#    their node names, the channel groups across the residual Adds), and the
#    same seed in the reproducible mode saves the same bytes;
#  - residual:8x2 on the spiral: squeeze takes it by its groups;
#  - the screen opens one (--layers residual:…) on its layer table, its
#    header's second line whole at 80 columns (the seed left off, not the
#    mode cut), and the session log it writes replays to the network it saved;
#  - bad specifications and ResNets on data without images are refused with
#    the column and the reason; alg1 and sweep run on one, sweep reads a
#    graph network's model file with its data set.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
C=$CONDNET
cd "$TMP" || exit 1

bar_images 400 11 | awk 'NR <= 300 { print > "tr.csv"; next } { print > "te.csv" }'
D="--data csv:tr.csv,te.csv --shape 8x8"
# shellcheck disable=SC2086
expect_ok "train a resnet:4,8" "$C" train $D --layers resnet:4,8 --act relu --epochs 8 \
	--lr 0.01 --reproducible --seed 3 --save r.model --json r.json
cp "$TMP/out" train.out
expect_grep "train names the graph" '1x8x8 graph: 6 Conv, 1 Gemm, 2 Add' train.out
check "it learns the bars (test accuracy above 90 %)" python3 -c "
import json; d = json.load(open('r.json')); a = d['test_accuracy']
assert a > 90, a"
# shellcheck disable=SC2086
expect_ok "the same again" "$C" train $D --layers resnet:4,8 --act relu --epochs 8 \
	--lr 0.01 --reproducible --seed 3 --save r2.model
check "the same seed saves the same bytes" cmp r.model r2.model
# shellcheck disable=SC2086
expect_ok "cond reads it" "$C" cond --load r.model $D --json c.json
cp "$TMP/out" cond.out
expect_grep "cond names the projection" "conv 8@1×1/2 .* 's2b1\.proj'" cond.out
check "7 layers, and the stem with s1b1.conv2 one group of 4 channels" python3 -c "
import json; d = json.load(open('c.json'))
assert len(d['layers']) == 7, len(d['layers'])
g = d['groups'][0]; assert g['layers'] == [1, 3] and g['units'] == 4, g"

expect_ok "train a residual:8x2 on the spiral" "$C" train --data spiral --layers residual:8x2 \
	--epochs 30 --lr 0.01 --save m.model --quiet
expect_ok "squeeze takes it by its groups" "$C" squeeze --load m.model --data spiral --tau 2 \
	--compensate --save s.model
expect_grep "squeeze's groups" '^1 +1 3 5 ' "$TMP/out"

# the screen on a fresh residual network, and its log replayed
screen_run fam 80x24 tui --data spiral --layers residual:8x2 --log "'$TMP/s.log'"
see "the screen opens on the layer table" 's1b2\.fc2' 20
see "the header names a graph" 'net graph: 6 Conv/Gemm layers'
check "the header's second line leaves items off whole at 80 columns, the mode kept" \
	grep -Eq '^τ 25  η [0-9]+  net graph: 6 Conv/Gemm layers, [0-9,]+ params  Σ n_i [0-9]+  reproducible *$' "$TMP/screen"
keys t
see "t asks for the epochs" 'train epochs'
keys C-u 2 Enter
see "it trains" 'trained 2 epochs' 60
keys w
see "w asks for a file" 'save to'
keys C-u "$TMP/saved.model" Enter
see "the network is saved" "saved $TMP/saved.model"
keys q
see "q quits with status 0" '^EXIT=0$'
expect_grep "the log makes the network from its specification" '^net layers=residual:8x2 ' s.log
"$C" replay s.log >replay.out 2>&1
{ grep '^data \|^opts ' s.log; echo "load path=$TMP/saved.model"; } >saved.log
"$C" replay saved.log >saved.out 2>&1
crc=$(sed -n 's/^crc32 //p' replay.out)
check "the log replays to the network the screen saved (CRC-32 $crc)" [ -n "$crc" ] &&
	grep -q "^crc32 $crc\$" saved.out

refuse "a ResNet needs images" 1 'a ResNet reads images, and the data are 2 features' \
	"$C" train --data spiral --layers resnet:4 --epochs 1
refuse "a bad specification names its column" 2 'layers "resnet:4,x": expected a width at column 10' \
	"$C" train --data spiral --layers resnet:4,x
refuse "blocks out of range" 2 'a count of blocks at column 12 is out of range \(1\.\.64\)' \
	"$C" train --data spiral --layers residual:4x65
expect_ok "alg1 runs on a fresh residual network" "$C" alg1 --data spiral --layers residual:8x2 \
	--tau 5 --eta 2 --max-iter 2 --json a1.json
check "its iterations are of the graph's channel groups" python3 -c "
import json; d = json.load(open('a1.json')); it = d['iterations']
assert len(it) >= 1 and len(it[0]['groups']) == 4, it[0]"
refuse "sweep holds two β of one residual network apart" 1 \
	'β = 0\.5 and β = 0\.51 give the same channel groups 4x4x4x3' \
	"$C" sweep --data spiral --layers residual:8x2 --beta 0.5,0.51 --q 1 --eta 1
expect_ok "sweep reads a graph network's model file with its data" "$C" sweep --data spiral \
	--load m.model --beta 0.5,1 --q 1 --eta 1 --max-extend 0 --quiet
finish
