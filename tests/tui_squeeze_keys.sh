#!/bin/sh
# tui_squeeze_keys.sh - a decision pressed while the squeeze preview runs
# (the what-if accuracies of the proposal shown): y, n or a is queued and
# applied to that proposal when the preview ends, never lost and never
# applied to another; pressed before any proposal is shown it is refused,
# and the screen says so. What is checked does not depend on how fast the
# machine is: each key is pressed once the screen shows what it answers,
# and whichever way it was taken, the pass ends as the keys ask.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
C=$CONDNET
# undo_all: u until nothing is left to undo
undo_all() {
	for _ in 1 2 3 4 5 6; do
		wait_for 'queued 0   undo 0 ' 1 && return 0
		keys u
	done
	see "every change undone" 'queued 0   undo 0 '
}

## a wide network, whose preview takes a while: a pressed as soon as the
## proposal shows is queued behind it (or, were the preview done, applied)
screen_run wide 100x30 --data synthetic --layers 1500,1000 --seed 3 --tau 2 --log /dev/null
see "the screen opens on a wide network" '^ +i +n_i' 60
keys z
see "z shows layer 1's proposal of the wide network" 'Layer 1: [0-9]+ neurons, decision κ' 120
keys a
wait_for 'a queued: it applies, with every later one, layer 1.s proposal when its preview ends' 5 &&
	echo "# the a was queued behind the preview"
see "a ends the pass" 'Done: [0-9]+ neuron' 300
settle
check "both layers' decisions are applied" sh -c "grep -Eq 'layer 1: 1500 → [0-9]+' '$TMP/screen' && grep -Eq 'layer 2: 1000 → [0-9]+' '$TMP/screen'"
keys q
see "q asks about the unsaved work" 'unsaved changes'
keys y
see "the wide screen quits" 'EXIT=0' 30

screen_run sq 100x30 --data synthetic --layers 48,40,32 --seed 3 --tau 2 --log "'$TMP/sq.log'"
see "the screen opens" '^ +i +n_i'
keys t 5 Enter
see "trained" 'trained 5 epochs' 60

## a pressed as soon as the proposal shows: the whole pass is applied
keys z
see "z shows layer 1's proposal" 'Layer 1: [0-9]+ neurons, decision κ' 30
keys a
see "a ends the pass, whether the preview had ended or not" 'Done: [0-9]+ neuron' 60
settle
check "every layer's decision is applied (none refused)" sh -c "! grep -q 'refused' '$TMP/screen'"
undo_all

## y for layer 1 during its preview, then n for layer 2 during its own
keys z
see "z shows layer 1's proposal again" 'Layer 1: [0-9]+ neurons, decision κ' 30
keys y
see "y applies layer 1's proposal (queued or at once) and the pass goes on to layer 2" 'Layer 2: [0-9]+ neurons' 60
keys n
see "n refuses layer 2's proposal and the pass goes on" 'Layer 3: [0-9]+ neurons|Done: ' 60
keys Escape
see "Esc ends the pass" 'Done: [0-9]+ neuron|squeeze stopped' 30
settle
check "the decisions are those pressed: layer 1 applied" grep -Eq 'layer 1: [0-9]+ → [0-9]+' "$TMP/screen"
check "layer 2 refused" grep -q 'layer 2: refused' "$TMP/screen"
grep -E '^squeeze layer=' "$TMP/sq.log" >"$TMP/decisions"
check "the log holds layer 1 applied, then layer 2 refused" \
	sh -c "sed -n '1,\$p' '$TMP/decisions' | tail -2 | tr '\n' ' ' | grep -Eq '^squeeze layer=1 apply.*squeeze layer=2 refuse'"

## a pressed together with z: applied once the proposal shows, or refused before it
undo_all
# (the screen still shows the last pass's "Done:" until z is taken, so the
# end of this pass is told by its decisions reaching the log)
decided() { grep -c '^squeeze layer=' "$TMP/sq.log"; }
# pass_ended N SECONDS: the log holds more than N decisions and the screen
# says the pass is done, waiting for no answer
pass_ended() {
	pi=0
	while [ $pi -lt $(($2 * 20)) ]; do
		if [ "$(decided)" -gt "$1" ]; then
			wait_for 'Done: [0-9]+ neuron' 1 && ! grep -q 'waiting: y / n' "$TMP/screen" && return 0
		fi
		sleep 0.05; pi=$((pi + 1))
	done
	return 1
}
before=$(decided)
keys z a
if pass_ended "$before" 30; then
	pass "z a: the a came once the proposal showed, and ended the pass"
else
	# the a came before the proposal: refused ("no squeeze proposal waits"
	# or "busy", a status the proposal's own replaces at once), never kept
	# for a later proposal and never applied to another
	settle
	check "z a: an a that came before the proposal decided nothing, and the proposal waits" \
		sh -c "grep -q 'waiting: y / n for layer 1' '$TMP/screen' && [ \$(grep -c '^squeeze layer=' '$TMP/sq.log') -eq $before ]"
	keys a
	if pass_ended "$before" 60; then pass "a then ends the pass"; else
		fail "a then ends the pass"
		sed 's/^/  | /' "$TMP/screen"
	fi
fi
keys q
see "q asks about the unsaved work" 'unsaved changes'
keys y
see "the screen quits" 'EXIT=0' 10
finish
