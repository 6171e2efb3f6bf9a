#!/bin/sh
# tui_graph_squeeze.sh - z on a graph network: the screen's squeeze goes
# channel group by channel group, driven through tmux on the residual
# network of graph_res.sh at τ 1.2, at 80×24 and at 200×60:
#  - the first group proposed is the first whose stack's κ is over τ in
#    `condnet squeeze --json` at the same τ, with its channels, κ, the
#    count kept and its producer layers (numbers and names) as squeeze and
#    the ONNX file say; its what-if accuracies, without and with
#    compensation, are those of `condnet squeeze --keep-counts` of that
#    group alone, without and with --compensate;
#  - y applies it (at 200×60 with compensation, c) and the next group is
#    proposed, its numbers squeeze's (the first group's removal does not
#    reach its stack); n refuses it, Esc ends the pass and Done says what
#    was removed;
#  - the model saved has the widths expected (cond --json), the session log
#    holds the two decisions, and condnet replay of it writes the same
#    model file (cmp); u undoes the group's squeeze: the model saved then
#    has the widths of the start again, and its log replays to it too;
#  - a applies the proposal and every later one, down to the last group;
#  - every line of the proposal is whole on the screen (no ellipsis), and
#    so is the status line at the pass's end.
# Needs Python with onnx and numpy: skipped (exit 77) without them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
C=$CONDNET
. "$(dirname "$0")/graph_res.sh"
TAU=1.2
expect_ok "squeeze --json at τ $TAU" "$C" squeeze --load res.model $DATA --tau $TAU --json sq.json
# the groups z proposes, in order: "group units kappa kept keep-counts
# producers", the counts keeping every other group whole
"$PY" -c "
import json, onnx
d = json.load(open('sq.json'))
names = [n.name for n in onnx.load('res.onnx').graph.node if n.op_type in ('Conv', 'Gemm')]
for g in d['groups']:
    if g['kappa'] is not None and g['kappa'] > $TAU:
        counts = ','.join(str(h['kept'] if h is g else h['units']) for h in d['groups'])
        prod = ', '.join('%d %s' % (l, names[l - 1]) for l in g['layers'])
        print(g['group'], g['units'], '%.4g' % g['kappa'], g['kept'], counts, prod)" >want
check "squeeze proposes at least three groups at τ $TAU" [ "$(wc -l <want)" -ge 3 ]
read -r G1 U1 K1 N1 CNT1 P1 <<EOF
$(sed -n 1p want)
EOF
read -r G2 U2 K2 N2 CNT2 P2 <<EOF
$(sed -n 2p want)
EOF
GL=$(sed -n '$s/ .*//p' want)
check "the first group proposed removes channels" [ "$N1" -lt "$U1" ]
# the test accuracy after a squeeze of the first group alone ("48.33")
acc_after() { "$C" squeeze --load res.model $DATA --keep-counts "$CNT1" "$@" |
	sed -n 's/^test accuracy .* → \([0-9.]*\) %$/\1/p'; }
A1=$(acc_after)
AC1=$(acc_after --compensate)
check "squeeze --keep-counts measures the group alone ($A1 %, compensated $AC1 %)" [ -n "$A1" ] && [ -n "$AC1" ]
# the widths of the start, and those with the first group squeezed
"$C" cond --load res.model --json c0.json >/dev/null
widths() { "$PY" -c "import json; print(' '.join(str(l['n']) for l in json.load(open('$1'))['layers']))"; }
W0=$(widths c0.json)
W1=$("$PY" -c "
import json
d = json.load(open('sq.json'))
w = [l['n'] for l in json.load(open('c0.json'))['layers']]
for l in d['groups'][$G1 - 1]['layers']:
    w[l - 1] = $N1
print(' '.join(map(str, w)))")
# whole: no line of the squeeze view ends in an ellipsis
whole() { ! sed -n '4,/^decisions/p' "$TMP/screen" | grep -q '…'; }

for size in 80x24 200x60; do
	screen_run "z$size" "$size" tui --load "'$TMP/res.model'" $DATA --tau $TAU --log "'$TMP/z$size.log'"
	see "$size: the screen opens the graph network" 'net graph: 17 Conv/Gemm layers'
	keys 4
	see "$size: view 4 says how a graph network is squeezed" '^z: for each channel group with κ'
	keys z
	see "$size: z proposes group $G1 with squeeze's channels and κ" \
		"^Group $G1: $U1 channels, κ of its stack $K1 > τ $TAU\$" 30
	check "$size: and squeeze's count kept" grep -q "^QR of the stack keeps $N1 .*: $U1 → $N1, from each layer" "$TMP/screen"
	check "$size: its producer layers, numbers and names" grep -q "^produced by layers $P1\$" "$TMP/screen"
	see "$size: the what-if is squeeze's of the group alone" \
		"^what-if on the test set: now [0-9.]+%, after $A1%, compensated $AC1%\$" 60
	settle
	check "$size: the proposal's lines are whole" whole || sed 's/^/  | /' "$TMP/screen"
	check "$size: the status line says which keys decide" grep -q "^group $G1: y applies, n refuses, a applies all, c compensation (off), Esc ends\$" "$TMP/screen"
	# at 200×60 the group is applied with compensation
	COMP=0
	if [ "$size" = 200x60 ]; then
		COMP=1
		keys c
		see "$size: c turns compensation on" 'c compensation: on'
	fi
	keys y
	see "$size: y applies it and group $G2 is proposed, with squeeze's numbers" \
		"^Group $G2: $U2 channels, κ of its stack $K2 > τ $TAU\$" 60
	check "$size: group $G2's count kept is squeeze's" grep -q "^QR of the stack keeps $N2 .*: $U2 → $N2," "$TMP/screen"
	check "$size: the decision is listed" grep -Eq "group $G1: $U1 → $N1 channels, κ $K1(, compensated)?\$" "$TMP/screen"
	keys n
	see "$size: n refuses it and the pass goes on" "group $G2: refused \\(κ $K2, $U2 channels kept\\)" 60
	keys Escape
	see "$size: Esc ends the pass, Done says what was removed" "^Done: $((U1 - N1)) channel\\(s\\) removed; test accuracy" 30
	settle
	check "$size: the Done screen is whole" whole || sed 's/^/  | /' "$TMP/screen"
	check "$size: and so is the status line" grep -q "^squeeze stopped: $((U1 - N1)) channel(s) removed, test acc [0-9.]*% → [0-9.]*%; t retrains\$" "$TMP/screen"
	keys w
	see "$size: w asks for a file" 'save to'
	keys C-u "$TMP/z$size.model" Enter
	see "$size: the squeezed network is saved" "saved $TMP/z$size.model"
	"$C" cond --load "z$size.model" --json "c$size.json" >/dev/null
	check "$size: its widths are those of group $G1 squeezed" [ "$(widths "c$size.json")" = "$W1" ]
	check "$size: the log holds the two decisions" sh -c \
		"grep '^squeeze ' '$TMP/z$size.log' | tr '\n' ' ' | grep -q '^squeeze group=$G1 apply comp=$COMP squeeze group=$G2 refuse comp=$COMP \$'"
	expect_ok "$size: condnet replay runs the log" "$C" replay "z$size.log" --save "r$size.model"
	check "$size: to the same model file" cmp "z$size.model" "r$size.model"
	keys u
	see "$size: u undoes the group's squeeze" 'undo 0 '
	keys w
	see "$size: w asks for a file again" 'save to'
	keys C-u "$TMP/u$size.model" Enter
	see "$size: the network is saved again" "saved $TMP/u$size.model"
	"$C" cond --load "u$size.model" --json "u$size.json" >/dev/null
	check "$size: with the widths of the start" [ "$(widths "u$size.json")" = "$W0" ]
	expect_ok "$size: the log with its undo replays" "$C" replay "z$size.log" --save "ru$size.model"
	check "$size: to the model saved after the undo" cmp "u$size.model" "ru$size.model"
	# a: the proposal and every later one applied, each listed
	keys z
	see "$size: z proposes group $G1 again" "^Group $G1: $U1 channels" 30
	keys a
	see "$size: a applies it and the rest: the pass is done" '^Done: [0-9]+ channel\(s\) removed' 60
	check "$size: down to the last group proposed" grep -Eq "^  group $GL: [0-9]+ → [0-9]+ channels" "$TMP/screen"
	keys q
	see "$size: q asks about the unsaved squeeze" 'unsaved changes'
	keys y
	see "$size: y quits with status 0" '^EXIT=0$' 10
	$T kill-session -t "z$size"
done
finish
