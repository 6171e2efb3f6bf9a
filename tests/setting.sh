#!/bin/sh
# setting.sh - a setting added to the settings table alone: the test build
# tests/condnet_zeta is condnet with one more row in session_setting.c (ζ,
# a number no engine code uses, keys < > and Z), and nothing else. Its
# screen shows ζ in the header, the footer and the keys panel, Z asks for it
# at its prompt, > and < scale it and the queue says a change that waits;
# its log records "zeta 5", which the test build replays (and condnet, whose
# table has no ζ, refuses by name); the settings table's checks hold it to
# its bounds there too.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
Z=${top_builddir:-$(dirname "$0")/..}/tests/condnet_zeta
[ -x "$Z" ] || { echo "tests/condnet_zeta is not built: skipped"; exit 77; }
Z=$(cd "$(dirname "$Z")" && pwd)/condnet_zeta
C=$CONDNET
LOG="$TMP/zeta.log"

## the screen: ζ beside τ and η, asked for at its prompt
CONDNET=$Z screen_run zeta 200x40 --data synthetic --layers 8 --log "'$LOG'"
see "the screen opens" '^ +i +n_i'
see "the header shows ζ at its default" '^τ 25  η 10  ζ 3  net '
see "the footer names its keys" '<>:ζ'
keys '?'
see "the keys panel has its line" '> / < +ζ up / down \(×2, /2\); Z types it'
keys Escape
keys Z
see "Z asks for it at its prompt" 'ζ = _'
keys 5 Enter
see "the answer applies" '^τ 25  η 10  ζ 5  net '
keys '>'
see "> doubles it" '^τ 25  η 10  ζ 10  net '
keys '<'
see "< halves it" '^τ 25  η 10  ζ 5  net '
keys Z 0 Enter
see "its bounds hold at the prompt" 'ζ: .0. is not a positive number'
keys q
sleep 0.3
keys y
see "the screen quits" '^EXIT=0'
$T kill-session -t zeta

## the log and its replay
expect_grep "the log records it by its name" '^zeta 10$' "$LOG"
expect_grep "and its last value" '^zeta 5$' "$LOG"
expect_ok "the test build replays the log" "$Z" replay "$LOG"
expect_exit "condnet, whose table has no ζ, refuses it by name" 1 \
	"zeta\.log:[0-9]+: unknown action 'zeta' \(expected data, opts, net, load, tau, eta, sched, train," \
	"$C" replay "$LOG"
grep -v '^zeta' "$LOG" >"$TMP/bad.log"
printf 'zeta 0\n' >>"$TMP/bad.log"
expect_exit "a value out of its bounds is refused in a log" 1 "bad\.log:[0-9]+: zeta: '0' is not a positive number" \
	"$Z" replay "$TMP/bad.log"
finish
