#!/bin/sh
# tui_learn.sh - watching a network learn and seeing it whole, on the real
# screen through tmux, on the spiral with a 2-8-8-3 network:
#  - at the slowest speed (one epoch a second) the Plane view draws the
#    regions of every epoch of a 300-epoch training, epoch after epoch, a
#    step of one epoch pauses after it, and the training ends at full speed
#    on the weights a training at full speed gives, bit for bit;
#  - the network diagram (view 8) shows every neuron of the 2-8-8-3 network
#    with its map, at 80x24 without one label cut or run into another and
#    over the whole screen at 200x60, and marks the neurons a squeeze
#    proposal drops, the combination of a dropped one written out;
#  - neurons and layers added and removed by hand, and the inputs of the
#    plane switched on, each undone, and the session's log replayed to the
#    network saved;
#  - the export draws the diagram for slides with the keys of its colours;
#  - the network lesson plays at its own speed (or --speed's), shows the
#    diagram, a neuron removed by hand beside Algorithm 3's choice and then
#    Algorithm 3's squeeze, and ends on the network condnet replay gives.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
C=$CONDNET
NET="--data spiral --layers 8,8 --lr 0.01"

## the slowest speed: every epoch drawn, a step of one, the same weights
screen_run slow 80x24 $NET --speed 1 --log "'$TMP/slow.log'"
see "the spiral opens on the Plane view" '^Decision regions of 2-8-8-3: test accuracy'
keys t
see "t proposes the 300 epochs that learn the spiral" 'train epochs \[300\]'
keys Enter
e=1
while [ $e -le 10 ]; do
	wait_for "^Decision regions of 2-8-8-3 at epoch $e of 300, live: 1 epoch/s" 15 || break
	[ $e -eq 1 ] && $T capture-pane -e -p -t $PANE | sed -n '5,18p' >"$TMP/epoch1"
	e=$((e + 1))
done
check "the regions and maps are drawn for each of epochs 1 to 10, one after another" [ $e -eq 11 ]
$T capture-pane -e -p -t $PANE | sed -n '5,18p' >"$TMP/epoch10"
check "the regions of epoch 10 are not those of epoch 1" sh -c "! cmp -s '$TMP/epoch1' '$TMP/epoch10'"
keys .
see "a step of one epoch pauses after it" 'paused$'
settle
at=$(sed -n 's/^Decision regions of 2-8-8-3 at epoch \([0-9]*\) of 300.*/\1/p' "$TMP/screen")
sleep 2.5
screen >"$TMP/later"
check "paused, the epoch stays ($at)" grep -q "at epoch $at of 300" "$TMP/later"
keys .
see "another step: one epoch more" "at epoch $((at + 1)) of 300"
keys ' '
see "space goes on" "at epoch $((at + 3)) of 300"
keys 6
see "the History view at 80x24 opens on the training's curves" '^training accuracy per epoch'
see "with its loss per epoch" '^training loss per epoch: [0-9.]+→[0-9.]+'
l1=$(grep '^training loss per epoch' "$TMP/screen")
n=0
while [ $n -lt 75 ] && [ "$(screen | grep '^training loss per epoch')" = "$l1" ]; do
	sleep 0.2; n=$((n + 1))
done
check "the curves grow while it trains (the last loss moves on)" [ $n -lt 75 ]
i=0
while [ $i -lt 10 ]; do keys '}'; i=$((i + 1)); done
# the status says so, or (its line already taken by the end of the
# training, under load) the 280-odd epochs left, four minutes and more at
# one a second, ended within the 20 s waited
see "} up to full speed" 'training speed: full speed|trained 300 epochs' 20
see "the training ends" '^last training: 300\.00 epochs in' 60
keys w C-u "$TMP/slow.model" Enter
see "saved" "saved $TMP/slow.model"

screen_run fast 80x24 $NET --speed full --log "'$TMP/fast.log'"
see "full speed: the screen opens" '^Decision regions of 2-8-8-3'
keys t Enter
see "full speed: trained" 'trained 300 epochs: test accuracy' 60
keys w C-u "$TMP/fast.model" Enter
see "full speed: saved" "saved $TMP/fast.model"
check "the slow training's weights are the full speed's, bit for bit" cmp "$TMP/slow.model" "$TMP/fast.model"
$T kill-session -t slow
$T kill-session -t fast

## the network diagram, at 80x24 and 200x60
for size in 80x24 200x60; do
	w=${size%x*} h=${size#*x}
	LOG="$TMP/net-$size.log"
	screen_run net-$size $size $NET --speed full --tau 10 --log "'$LOG'"
	see "$size: opens" '^Decision regions of 2-8-8-3'
	keys t Enter
	see "$size: trained" 'trained 300 epochs: test accuracy' 60
	keys 8
	see "$size: view 8 draws the network" '^Network 2-8-8-3: '
	see "$size: a column per layer, each headed" '^ *inputs +1 κ [0-9.]+ +2 κ [0-9.]+ +classes *$'
	settle
	# every neuron once in its column: x and y, n1..n8 twice, the classes o1 x2 +3
	python3 - "$TMP/screen" <<'EOF' >"$TMP/labels"
import re, sys
rows = open(sys.argv[1], encoding='utf-8').read().split('\n')
# the rows of the neurons: under the heads, above the line about the one chosen
body = rows[5:-7]
found = {}
for r in body:
    for m in re.finditer(r'(?:(?<=\s)|^)(n[1-8]|[xy]|o1|x2|\+3)(?= [▀ ]|$)', r):
        found[m.group(1)] = found.get(m.group(1), 0) + 1
print(sorted(found.items()))
want = {('n%d' % i): 2 for i in range(1, 9)}
want.update({'x': 1, 'y': 1, 'o1': 1, 'x2': 1, '+3': 1})
sys.exit(0 if found == want else 1)
EOF
	check "$size: every neuron of 2-8-8-3 drawn once, labelled ($(cat "$TMP/labels"))" [ $? -eq 0 ]
	check "$size: no text cut mid-word in the view" sh -c "! sed -n '4,$((h - 6))p' '$TMP/screen' | grep -q '…'"
	$T capture-pane -e -p -t $PANE >"$TMP/esc"
	check "$size: the neurons are maps in colour (half blocks)" \
		sh -c "[ \$(grep -c '▀' '$TMP/esc') -ge 8 ] && grep -q '48;5;' '$TMP/esc'"
	check "$size: the weights are lines of braille dots" python3 -c "import sys
t = open(sys.argv[1], encoding='utf-8').read()
sys.exit(0 if sum(0x2801 <= ord(c) <= 0x28ff for c in t) > 40 else 1)" "$TMP/esc"
	check "$size: in the colours of their sign (orange +, blue −)" \
		sh -c "grep -q '38;5;166m[⣿⠶]' '$TMP/esc' || grep -q '38;5;166m' '$TMP/esc' && grep -q '38;5;25m' '$TMP/esc'"
	see "$size: the keys of the maps, the weights and the classes" '^maps −1 .* 1 +weight .* class o 1 +x 2 +\+ 3'
	if [ "$h" -ge 60 ]; then
		first=$(grep -n ' n1 ' "$TMP/screen" | head -1 | cut -d: -f1)
		last=$(grep -n ' n8 ' "$TMP/screen" | tail -1 | cut -d: -f1)
		check "$size: the diagram fills the screen (n1 on row $first, n8 on row $last)" \
			[ "$first" -le 12 ] && [ "$last" -ge 45 ]
	fi
	## the squeeze's proposal: its drops marked, a dropped one's combination
	keys z
	see "$size: the proposal's drops marked ×" '^Network 2-8-8-3: the squeeze proposal.s drops marked ×'
	see "$size: the first dropped one chosen, its combination written out" \
		"^layer [12]: dropped.* n[0-9]+ ≈ −?[0-9.]+·n[0-9]+ .*\\(residual [0-9.]+ %"
	check "$size: and marked ×" grep -q 'n[0-9] ▀* *×' "$TMP/screen"
	keys Escape
	see "$size: Esc ends the pass" 'squeeze (stopped|finished)'

	## by hand: a neuron removed beside Algorithm 3's choice, added, a
	## layer added and removed, the inputs; each undone
	keys Left Left Left Right Right Home Down Down d
	see "$size: n3 of layer 2 removed by hand, beside the one Algorithm 3 would remove" \
		'n3 removed by hand: [0-9.]+ → [0-9.]+ %(, the neuron Algorithm 3 removes first|; Algorithm 3.s first, n[0-9]: [0-9.]+ %)'
	see "$size: 2-8-7-3" 'net 2-8-7-3 '
	keys i
	see "$size: a neuron added" 'n8 added to layer 2 by hand'
	keys I
	see "$size: a layer added after layer 2" 'a layer added after layer 2: 2-8-8-8-3'
	keys D
	see "$size: and removed" 'layer 3 removed'
	keys f
	see "$size: f asks for the inputs" 'inputs beyond x and y .*\[none\]'
	keys C-u x2,y2 Enter
	see "$size: x² and y² switched on" 'net 4-8-8-3 '
	see "$size: the inputs column names them" '^ *x² ▀'
	keys t Enter
	see "$size: trained on them" 'trained 300 epochs: test accuracy' 60
	keys w C-u "$TMP/net-$size.model" Enter
	see "$size: saved" "saved $TMP/net-$size.model"
	keys e C-u "$TMP/ex-$size.md" Enter
	see "$size: exported" 'exported the tables to' 60
	expect_grep "$size: the diagram's script draws the keys of its colours" \
		"title 'w > 0'.*title 'w < 0'.*title 'dropped'.*title 'class 1'.*title 'class 2'.*title 'class 3'" \
		"$TMP/ex-$size-network.gp"
	check "$size: its classes are counted from 1, as on the screen" \
		sh -c "! grep -q \"title 'class 0'\" '$TMP/ex-$size-network.gp'"
	expect_grep "$size: and the maps' ramp" "set palette defined \\(-1 '#1f4fa0', 0 'white', 1 '#e07010'\\)" \
		"$TMP/ex-$size-network.gp"
	if command -v gnuplot >/dev/null 2>&1; then
		check "$size: gnuplot drew it" [ -s "$TMP/ex-$size-network.png" ]
	fi
	# five changes to undo, one at a time (an undo is refused while one runs)
	for n in 4 3 2 1 0; do
		keys u
		wait_for "   undo $n   " 30 || break
	done
	see "$size: undone back to the 2-8-8-3 on x and y" 'undo: back to 2-8-8-3 \(test accuracy' 30
	check "$size: all five undone" grep -q '   undo 0   ' "$TMP/screen"
	keys q
	see "$size: the screen asks about the unsaved change" 'unsaved changes'
	keys y
	see "$size: quits" '^EXIT=0' 10
	expect_grep "$size: the log records the edits by hand" '^neuron remove layer=2 neuron=3$' "$LOG"
	expect_grep "$size: with the seeds of the new weights" '^neuron add layer=2 seed=[0-9]+$' "$LOG"
	expect_grep "$size: and the inputs" '^inputs x2,y2 seed=[0-9]+$' "$LOG"
	# the log up to the save, replayed: the network saved
	sed '/^save /q' "$LOG" >"$TMP/upto.log"
	expect_ok "$size: the log replays" env CONDNET_DATA="$TMP/data" "$C" replay "$TMP/upto.log" \
		--save "$TMP/replayed-$size.model"
	check "$size: to the network the screen saved, bit for bit" cmp "$TMP/replayed-$size.model" \
		"$TMP/net-$size.model"
	expect_ok "$size: the whole log replays, undos and all" env CONDNET_DATA="$TMP/data" "$C" \
		replay "$LOG"
	expect_grep "$size: to the 2-8-8-3 network" '^widths +2-8-8-3$' "$TMP/out"
	## the model of the inputs x, y, x², y²: eval and predict make them
	expect_ok "$size: eval makes the spiral's points into the model's inputs" \
		env CONDNET_DATA="$TMP/data" "$C" eval --data spiral --load "$TMP/net-$size.model"
	printf '0.1,0.2\n-0.5,0.7\n' >"$TMP/points.csv"
	expect_ok "$size: predict reads points of the plane" "$C" predict --load "$TMP/net-$size.model" \
		--input "$TMP/points.csv"
	check "$size: and answers each" sh -c "[ \$(grep -c '^[0-9]' '$TMP/out') -eq 2 ]"
	$T kill-session -t $PANE
done
## the network lesson: watched at its own slow speed, the diagram, a neuron
## removed by hand beside Algorithm 3's, then Algorithm 3's squeeze; it ends
## on the network condnet replay gives
SRC=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
expect_ok "condnet replay network" env CONDNET_DATA="$TMP/data" "$C" replay "$SRC/data/lessons/network.lesson"
crc=$(sed -n 's/^crc32 //p' "$TMP/out")
for size in 80x24 200x60; do
	PANE=lesson-$size
	# at 80x24 the lesson's own speed, at 200x60 full speed (--speed overrides it)
	if [ "$size" = 80x24 ]; then
		screen_run $PANE $size --play network
	else
		screen_run $PANE $size --play network --speed full
	fi
	see "$size: the lesson opens on the plane" '^Decision regions of 2-8-8-3: test accuracy 36\.33%'
	see "$size: its first caption" '^▸ The spiral: 300 points of 3 classes, and a 2-8-8-3 network'
	keys Right
	if [ "$size" = 80x24 ]; then
		see "$size: it trains at the lesson's speed (#speed: 10)" \
			'^Decision regions of 2-8-8-3 at epoch [0-9]+ of 300, live: 10 epochs/s' 20
		i=0
		while [ $i -lt 10 ]; do keys '}'; i=$((i + 1)); done
	fi
	# a step's right arrow is refused while the step before it still runs:
	# the status line names the next action once the screen is idle
	see "$size: trained" 'lesson: action 2 of 5, next' 60
	keys Right
	see "$size: the network as a picture, layer 2's κ over τ" '^ *inputs +1 κ 5\.332 +2 κ 118\.8 +classes'
	see "$size: the neuron the class removes next is chosen" '^layer 2 n7: kept, pivot [0-9] of 8$'
	see "$size: its caption" "^▸ Layer 2's κ is 118\\.8, above τ = 25"
	see "$size: ready for action 3" 'lesson: action 3 of 5, next'
	keys Right
	see "$size: removed by hand" 'net 2-8-7-3 '
	see "$size: the narration compares it with Algorithm 3's" \
		'n7 removed by hand: 99\.67 → 86\.67 %; Algorithm 3.s first, n5: 98\.33 %'
	see "$size: ready for action 4" 'lesson: action 4 of 5, next'
	keys Right
	see "$size: undone" 'lesson: action 5 of 5, next'
	keys Right
	see "$size: the squeeze's proposal marks its drop" '^Network 2-8-8-3: the squeeze proposal.s drops marked ×'
	see "$size: and writes out its combination" '^layer 2: dropped.* n5 ≈ −?[0-9.]+·n[0-9] .*\(residual [0-9.]+ %'
	keys Right
	see "$size: the lesson ends" 'end of the lesson: .*CRC-32 [0-9a-f]{8}' 30
	check "$size: on the network condnet replay gives (CRC-32 $crc)" grep -q "CRC-32 $crc " "$TMP/screen"
	keys q
	see "$size: q leaves the lesson" '^EXIT=0' 5
	$T kill-session -t $PANE
done
finish
