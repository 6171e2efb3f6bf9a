#!/bin/sh
# tui_graph.sh - the screen on a graph network, driven through tmux on the
# residual network of graph_res.sh (17 Conv and Gemm layers) imported into
# a model file, with a data set of its inputs' shape, at 80×24 and at
# 200×60:
#  - the header says what the network is (a graph of 17 Conv/Gemm layers and
#    its parameters); the layer table lists every Conv and Gemm with its
#    shape, its node's name and `condnet cond`'s n_i, κ and p on the same
#    file, scrolling with ↓ to the last layer; Enter shows that layer's
#    spectrum in view 5;
#  - view 8 draws the graph a node a row, an Add naming both inputs and an
#    arc from the shortcut's source, scrolling to the last node;
#  - s, r and b are refused in one status line saying they are not
#    available for graph networks, and the views of Algorithms 1 and 2 say
#    so (z, the squeeze by channel groups, is tui_graph_squeeze.sh's);
#    t trains it; q quits with exit status 0;
#  - --onnx opens the ONNX file itself as a load the session log records
#    (onnx=1), and condnet replay runs that log to the network saved.
# Needs Python with onnx and numpy (Debian python3-onnx): skipped (exit 77)
# without them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
C=$CONDNET
. "$(dirname "$0")/graph_res.sh"
expect_ok "cond reads the model file" "$C" cond --load res.model --json c.json
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
	for k in s r b; do
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
