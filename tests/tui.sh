#!/bin/sh
# tui.sh - the interactive screen of the real binary, driven through tmux:
# the layer table agrees with `condnet cond`, tau changes p_i, Algorithm 1
# steps grow the history, a squeeze refuses one layer and applies another,
# undo restores, the sweep's pick is adopted and undone, save and open work,
# the screen fits 80x24 and asks for more below it, and the session log
# replays to the very network that was saved. A second screen shows kappa
# changing while an Algorithm-1 step trains, refuses operations while busy,
# defers tau to the next operation, pauses, and ends on Ctrl-C.
. "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null 2>&1 || { echo "tmux is missing: skipped"; exit 77; }
C=$CONDNET
# the screen's symbols need a UTF-8 locale (without one it draws ASCII)
export LC_ALL=C.UTF-8
SOCK="$TMP/tmux.sock"
T="tmux -S $SOCK"
trap '$T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
mkdir -p "$TMP/data"
LAYERS=24,16
SEED=7
LOG="$TMP/session.log"
MODEL="$TMP/m.model"

cat >"$TMP/run.sh" <<EOF
#!/bin/sh
export CONDNET_DATA='$TMP/data' OPENBLAS_NUM_THREADS=1 TERM=xterm-256color LC_ALL=C.UTF-8
unset NO_COLOR
'$C' --layers $LAYERS --seed $SEED --log '$LOG'
echo "EXIT=\$?"
sleep 600
EOF
chmod +x "$TMP/run.sh"

screen() { $T capture-pane -p -t tui; }
keys() { $T send-keys -t tui "$@"; }
# wait_for PATTERN [SECONDS]: polls the screen until a line matches.
wait_for() {
	i=0; lim=$(( ${2:-10} * 20 ))
	while [ $i -lt $lim ]; do
		screen >"$TMP/screen" 2>/dev/null
		grep -Eq -- "$1" "$TMP/screen" && return 0
		sleep 0.05; i=$((i + 1))
	done
	return 1
}
# see NAME PATTERN [SECONDS]: the screen shows PATTERN in time.
see() {
	if wait_for "$2" "${3:-10}"; then pass "$1"; else
		fail "$1: '$2' not on the screen"; sed 's/^/  | /' "$TMP/screen"; fi
}
# the layer table as "i n kappa p" lines
table() { screen | sed -n 's/^[! ] *\([0-9][0-9]*\)\*\{0,1\} *\([0-9][0-9]*\) *\([0-9.e+inf-]*\) *\([0-9][0-9]*\) .*/\1 \2 \3 \4/p'; }
header_widths() { screen | sed -n 's/^net \([0-9-]*\) .*/\1/p'; }

$T new-session -d -s tui -x 100 -y 30 "$TMP/run.sh"
see "the screen opens on the synthetic set" 'data: the built-in synthetic set'
see "the layer table is drawn" '^ +i +n_i'

## n_i and kappa agree with `condnet cond` for the same seed and layers
table >"$TMP/shown"
CONDNET_DATA="$TMP/data" "$C" cond --layers $LAYERS --seed $SEED --epochs 0 --json "$TMP/c.json" >/dev/null 2>&1
sed -n 's/^[[:space:]]*"n":[[:space:]]*\[\(.*\)\],*$/\1/p' "$TMP/c.json" | head -1 | tr -d ' ' | tr ',' '\n' | sed 1d >"$TMP/n"
grep -E '^[[:space:]]*"kappa":' "$TMP/c.json" | sed 's/.*: *//; s/,$//' |
	awk '{ if ($1 == "null") print "inf"; else printf "%.4g\n", $1 }' >"$TMP/k"
paste -d' ' "$TMP/n" "$TMP/k" >"$TMP/want"
awk '{ print $2, $3 }' "$TMP/shown" >"$TMP/got"
check "n_i and kappa on screen equal condnet cond --json" cmp -s "$TMP/want" "$TMP/got"
[ -s "$TMP/got" ] || fail "no layer rows read from the screen"
diff "$TMP/want" "$TMP/got" | sed 's/^/  | /'

## tau down: p_i grows
p_before=$(awk '{ s += $4 } END { print s }' "$TMP/shown")
keys - - - - - - - - -
see "tau lowered nine times to 25/1.25^9" 'τ 3\.355[0-9]* '
p_after=$(table | awk '{ s += $4 } END { print s }')
check "sum of p_i grows as tau falls ($p_before -> $p_after)" [ "$p_after" -gt "$p_before" ]

## Algorithm 1, two iterations: the history grows
keys s
see "an Algorithm-1 step shows iteration 0" 'it 0'
keys s
see "a second step adds iteration 1" 'it 0 +it 1'
see "the second step is reported" 'Algorithm 1, iteration 1:'
w_alg1=$(header_widths)

## squeeze at a low tau: refuse the first layer, apply the second
keys T
see "T asks for tau" 'tau = '
keys 2 Enter
see "tau typed as 2" 'τ 2 '
keys z
see "squeeze proposes layer 1" 'Layer 1: [0-9]+ neurons'
keys n
see "squeeze proposes layer 2 after a refusal" 'Layer 2: [0-9]+ neurons'
keep=$(sed -n 's/.*loop keeps \([0-9][0-9]*\):.*/\1/p' "$TMP/screen")
keys y
see "the squeeze pass ends" 'Done: [0-9]+ neuron'
see "the refusal is listed" 'layer 1: refused'
n1=$(echo "$w_alg1" | cut -d- -f2)
want="$(echo "$w_alg1" | cut -d- -f1)-$n1-$keep-$(echo "$w_alg1" | cut -d- -f4)"
see "widths after the squeeze: $want" "^net $want "

## undo restores the widths of before the squeeze
keys u
see "undo restores $w_alg1" "^net $w_alg1 "

## a small beta sweep fills the table and marks a pick; export writes CSV
keys b C-u 1:1.4:0.2 Enter
see "b asks for q after the beta list" 'trainings per beta, q \[2\]'
keys 1 Enter
see "the sweep finishes" 'Algorithm 2, q = 1, finished'
see "the pick is marked in the table" '^ .* +1 <$'

## A adopts the pick: a fresh network of round(beta * n_i), and u undoes it
beta=$(grep ' <$' "$TMP/screen" | awk '{ printf "%g", $(NF - 5) }')
want=$(echo "$w_alg1" | awk -F- -v b="$beta" '{ printf "%s", $1
	for (i = 2; i < NF; i++) printf "-%d", int(b * $i + 0.5 + 1e-9); printf "-%s\n", $NF }')
check "the pick ($beta) changes the widths ($w_alg1 -> $want)" [ "$want" != "$w_alg1" ]
see "the sweep view offers A" "A adopts the pick: a fresh network $want"
keys A
see "A reports the adoption" "adopted the sweep's pick \(beta $beta\): $want with fresh weights"
see "the header shows the pick's widths $want" "^net $want "
keys u
see "u restores $w_alg1" "^net $w_alg1 "
keys e C-u "$TMP/tables.csv" Enter
see "export reports CSV" "exported the tables to $TMP/tables.csv \(CSV\)"
expect_grep "the export holds the layer table" '^layer,n,kappa,p,rank_svd,rank_qr$' "$TMP/tables.csv"
expect_grep "and the sweep" '^beta,err_tr,err_v,score,trials,pick$' "$TMP/tables.csv"

## save and open
keys w
see "w asks for a path" 'save to'
keys C-u "$MODEL" Enter
see "save reports the path" "saved $MODEL"
keys o
see "o asks for a path" 'open \['
keys Enter
see "open reports the shape" "opened $MODEL: $w_alg1"

## a failed open keeps the session and says why
keys o C-u "$TMP/missing.model" Enter
see "a failed open shows the reason" "load failed: .*missing.model"
see "and keeps the network" "^net $w_alg1 "

## sizes: 80x24 renders, 60x15 asks for more, 100x30 again
keys 1
$T resize-window -t tui -x 80 -y 24
see "80x24 shows the footer" 'q:quit'
see "80x24 shows the table" '^ +i +n_i'
$T resize-window -t tui -x 60 -y 15
see "60x15 asks to enlarge" 'enlarge the terminal \(need 80×24, have 60×15\)'
check "the enlarge message is all there is" [ "$(screen | grep -c '[^ ]')" -eq 1 ]
$T resize-window -t tui -x 100 -y 30
see "100x30 restores the screen" '^ +i +n_i'

## quit: confirm if asked
keys q
if wait_for 'quit anyway' 1; then keys y; fi
see "q quits with status 0" '^EXIT=0' 5
see "the log path is printed" "session log: $LOG"

## the log replays to the saved network
expect_grep "the log records the squeeze decisions" '^squeeze layer=1 refuse' "$LOG"
expect_grep "the log records the load with its CRC" '^load path=.* crc=[0-9a-f]{8}$' "$LOG"
check "the log records the adoption as a net line after a note" \
	grep -A1 '^# adopt the beta sweep.s pick, beta = ' "$LOG" | grep -q '^net layers='
n=$(grep -n '^save ' "$LOG" | head -1 | cut -d: -f1)
head -n "$n" "$LOG" >"$TMP/upto-save.log"
expect_ok "replay up to the save" env CONDNET_DATA="$TMP/data" "$C" replay "$TMP/upto-save.log" --save "$TMP/r.model"
cp "$TMP/out" "$TMP/replay.out"
check "replayed widths equal the saved model's" \
	grep -q "^widths $("$C" cond --load "$MODEL" | sed -n '1s/.*: //p')\$" "$TMP/replay.out"
check "the replayed network is bit-identical to the saved one" cmp "$TMP/r.model" "$MODEL"
crc=$(sed -n 's/.* crc=//p' "$LOG" | head -1)
check "replayed CRC-32 equals the one logged at load ($crc)" grep -q "^crc32 $crc\$" "$TMP/replay.out"
expect_ok "the whole log replays" env CONDNET_DATA="$TMP/data" "$C" replay "$LOG"
check "and ends with the same CRC-32" grep -q "^crc32 $crc\$" "$TMP/out"
## replay --help and the manual name the same options
sed -n '/^\.SS "condnet replay"/,/^\.SS "condnet paper"/p' \
	"$(dirname "$0")/../man/condnet.1" >"$TMP/man-replay"
for o in $("$C" replay --help | grep -o -- '--[a-z]*' | sort -u); do
	check "the manual documents replay $o" \
		grep -q -- "^\.[A-Z]* .*$(echo "$o" | sed 's/-/\\\\-/g')" "$TMP/man-replay"
done
# the synopsis, spaces and roff macros aside
"$C" replay --help | sed -n 's/^Usage: //p' | tr -d ' ' >"$TMP/syn-help"
sed -n '/^\.B condnet replay$/,/^\.PP$/p' "$TMP/man-replay" | sed '$d; s/^\.[A-Z]* //; s/\\-/-/g' |
	tr -d ' \n' >"$TMP/syn-man"
echo >>"$TMP/syn-man"
check "the manual's replay synopsis is --help's ($(cat "$TMP/syn-help"))" cmp -s "$TMP/syn-help" "$TMP/syn-man"
printf 'tau 25\nfrobnicate\n' >>"$TMP/upto-save.log"
expect_exit "a corrupt line fails with LOG:LINE" 1 "upto-save.log:$((n + 2)): unknown action 'frobnicate'" \
	env CONDNET_DATA="$TMP/data" "$C" replay "$TMP/upto-save.log"

## NO_COLOR: no colours; Ctrl-C restores the terminal and ends the program
# (the wrapper shell ignores SIGINT so that it can report the exit status)
sed -e 's/^unset NO_COLOR$/export NO_COLOR=1; trap "" INT/' -e "s|$LOG|$TMP/s2.log|" \
	"$TMP/run.sh" >"$TMP/run2.sh"
chmod +x "$TMP/run2.sh"
$T new-session -d -s tui2 -x 100 -y 30 "$TMP/run2.sh"
screen() { $T capture-pane -p -t tui2; }
see "a second screen opens" '^ +i +n_i'
$T capture-pane -e -p -t tui2 >"$TMP/esc"
check "NO_COLOR: no colour escapes" [ "$(grep -c "$(printf '\033')\\[3[0-7]m" "$TMP/esc")" -eq 0 ]

## space while idle pauses nothing
$T send-keys -t tui2 ' '
see "space while idle pauses nothing" 'nothing to pause: space pauses a running operation'

## kappa is live while an Algorithm-1 step trains
kappas() { sed -n 's/^[! ] *[0-9][0-9]*\*\{0,1\} *[0-9][0-9]* *\([0-9.e+inf-]*\) .*/\1/p' "$1" | tr '\n' ' '; }
$T send-keys -t tui2 E 100000 Enter
see "eta typed as 100000" 'η 100000 '
$T send-keys -t tui2 s 1
see "the layer table is live during the step" 'log scale .* live$'
k1=$(kappas "$TMP/screen")
i=0; moved=0
while [ $i -lt 400 ]; do
	screen >"$TMP/screen"
	k=$(kappas "$TMP/screen")
	if grep -q 'live$' "$TMP/screen" && [ -n "$k" ] && [ "$k" != "$k1" ]; then moved=1; break; fi
	sleep 0.05; i=$((i + 1))
done
check "kappa changes on screen while the step trains ($k1-> $k)" [ "$moved" -eq 1 ]

## while it runs: operations are refused, tau waits, space pauses
$T send-keys -t tui2 u
see "u while busy is refused" 'busy: Algorithm 1 \(one iteration\) — press Esc to stop, space to pause'
$T send-keys -t tui2 -
see "tau while busy waits for the next operation" 'τ = 20 applies to the next operation'
see "the header shows the pending tau" 'τ 25→20 '
$T send-keys -t tui2 ' '
see "space pauses the step" 'paused: space resumes, Esc stops'
$T send-keys -t tui2 ' '
see "space resumes it" '^resumed'
$T send-keys -t tui2 Escape
see "Esc cancels the step" 'cancelled: Algorithm 1 \(one iteration\)'
see "then tau 20 applies" '^net .* τ 20  '
check "the refused undo was not queued" [ "$(grep -c '^undo' "$TMP/s2.log")" -eq 0 ]
check "the deferred tau is logged" grep -q '^tau 20$' "$TMP/s2.log"
check "the cancelled step is not" [ "$(grep -c '^alg1' "$TMP/s2.log")" -eq 0 ]

$T send-keys -t tui2 t 100000 Enter
see "a long training runs" 'training 100000 epochs'
$T send-keys -t tui2 C-c
see "Ctrl-C ends the program (128 + SIGINT)" '^EXIT=130' 5
check "Ctrl-C left the alternate screen" [ "$(screen | grep -c 'n_i')" -eq 0 ]
check "the cancelled training is not in the log" [ "$(grep -c '^train' "$TMP/s2.log")" -eq 0 ]
finish
