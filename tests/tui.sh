#!/bin/sh
# tui.sh - the interactive screen of the real binary, driven through tmux on
# the synthetic set:
#  - the layer table agrees with `condnet cond`, tau changes p_i, Algorithm 1
#    steps grow the history and are narrated, the explain panel and the key
#    pages open, a squeeze refuses one layer and applies another, a applies
#    every remaining proposal at once, undo
#    restores, the sweep's plot fits its axis to the data and its pick is
#    adopted and undone, export writes the tables, the plots' data and a
#    gnuplot script, export and save refuse -, /dev/stdout and the terminal,
#    w asks before overwriting, a caption reaches the log,
#    quitting with unsaved work saves on the way out, and the log replays to
#    the very network that was saved;
#  - a second screen shows kappa changing while an Algorithm-1 step trains,
#    refuses operations while busy, defers tau, pauses, stops on Esc within a
#    second and ends on Ctrl-C;
#  - at 80x24 with --tau 30 --eta 2 the header holds both and a status never
#    overwrites it, and the Algorithm-1 history scrolls back to iteration 0;
#  - SIGTERM, SIGHUP, SIGINT and SIGQUIT end the screen within a second while
#    a 6x400 network trains, and restore the terminal;
#  - both synthetic lessons play to the end (on keys and with --delay) with
#    the network `condnet replay` gives, and step back;
#  - the manual holds the explain panel's definitions and the options
#    `condnet tui --help` lists, which are those the screen honours;
#  - the session log directory keeps the newest 50 logs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
C=$CONDNET
SRC=$(cd "$(dirname "$0")/.." && pwd)
MAN="$SRC/man/condnet.1"
LAYERS=24,16
SEED=7
LOG="$TMP/session.log"
MODEL="$TMP/m.model"
screen_script "$TMP/run.sh" --layers $LAYERS --seed $SEED --log "'$LOG'"
PANE=tui

# the layer table as "i n kappa p" lines (kappa inf for ∞)
table() { screen | sed -n 's/^[!r ][!r ] *\([0-9][0-9]*\)\*\{0,1\} *\([0-9][0-9]*\)  *\([0-9.e+∞-]*\)\( b=0\)\{0,1\}  *\([0-9][0-9]*\) .*/\1 \2 \3 \5/p' | sed 's/∞/inf/'; }
# the widths in the header, runs (32×4) unfolded
header_widths() {
	screen | sed -n '2s/.*  net \([0-9×-]*\)  .*/\1/p' |
		awk -F- '{ s = ""; for (i = 1; i <= NF; i++) { n = split($i, r, "×"); k = n > 1 ? r[2] : 1
			for (j = 0; j < k; j++) s = s (s == "" ? "" : "-") r[1] } print s }'
}

$T new-session -d -s tui -x 100 -y 30 "$TMP/run.sh"
see "the screen opens on the synthetic set" 'data: the built-in synthetic set'
see "the layer table is drawn" '^ +i +n_i'

## n_i and kappa agree with `condnet cond` for the same seed and layers
table >"$TMP/shown"
CONDNET_DATA="$TMP/data" "$C" cond --layers $LAYERS --seed $SEED --epochs 0 --json "$TMP/c.json" >/dev/null 2>&1
sed -n 's/^[[:space:]]*"n":[[:space:]]*\[\(.*\)\],*$/\1/p' "$TMP/c.json" | head -1 | tr -d ' ' | tr ',' '\n' | sed 1d >"$TMP/n"
grep -E '^[[:space:]]*"kappa":[[:space:]]*[^[[:space:]]' "$TMP/c.json" | sed 's/.*: *//; s/,$//' |
	awk '{ if ($1 == "null") print "inf"; else printf "%.4g\n", $1 }' >"$TMP/k"
paste -d' ' "$TMP/n" "$TMP/k" >"$TMP/want"
awk '{ print $2, $3 }' "$TMP/shown" >"$TMP/got"
check "n_i and kappa on screen equal condnet cond --json" cmp -s "$TMP/want" "$TMP/got"
[ -s "$TMP/got" ] || fail "no layer rows read from the screen"
diff "$TMP/want" "$TMP/got" | sed 's/^/  | /'
## a fresh network: layer 1 has more neurons than inputs, so kappa is infinite, and says why
see "kappa = inf on a fresh network says why (zero bias row)" '^!r +1 +24 +∞ b=0 '
see "a rank below the width is flagged r" '^[!r ]r +1 '

## tau down: p_i grows
p_before=$(awk '{ s += $4 } END { print s }' "$TMP/shown")
keys - - - - - - - - -
see "tau lowered nine times to 25/1.25^9" '^τ 3\.355[0-9]*  η '
p_after=$(table | awk '{ s += $4 } END { print s }')
check "sum of p_i grows as tau falls ($p_before -> $p_after)" [ "$p_after" -gt "$p_before" ]

## Algorithm 1, two iterations: the history grows, and each is narrated
keys s
see "an Algorithm-1 step shows iteration 0" 'it 0'
see "a narration line says what iteration 0 did" '^▸ Algorithm 1, iteration 0: the initial network 10-24-16-3 trained'
keys s
see "a second step adds iteration 1" 'it 0 +it 1'
see "the second step is reported" 'Algorithm 1, iteration 1:'
see "and narrated in the paper's terms" '^▸ Algorithm 1, iteration 1: layer [12]: κ [0-9.]+ > τ = 3.3[0-9]* with [0-9]+ σ below σ₁/τ'
w_alg1=$(header_widths)

## the explain panel and the key pages
keys x
see "x opens the explain panel" 'What the numbers mean \(page 2 of 2'
see "which defines kappa of the stacked matrix" '^  κ\(Ŵ⁽ⁱ⁾\)$'
keys Escape
keys '?'
see "? opens the keys" 'Keys \(page 1 of 2'
keys Right
see "its second page explains" 'What the numbers mean'
keys Escape
keys L
see "L opens the narration log" 'Narration: what every action did'
see "which holds both iterations" '^▸ Algorithm 1, iteration 1:'
keys Escape
see "Escape closes it" 'it 0 +it 1'

## squeeze at a low tau: refuse the first layer, apply the second
keys T
see "T asks for tau" 'τ = '
keys 2 Enter
see "tau typed as 2" '^τ 2  '
keys z
see "squeeze proposes layer 1" 'Layer 1: [0-9]+ neurons, decision κ'
see "the proposal numbers neurons from 1" 'pivoted-QR order \(neurons from 1\): [1-9]'
see "the preview sets QR beside the norm rule and random orders" \
	'keeping [0-9]+ chosen by QR [0-9.]+%, by norm [0-9.]+%, at random [0-9.]+%±[0-9.]+ \([0-9]+ draws\)'
see "and compensated" '  and compensated: by QR [0-9.]+%, by norm [0-9.]+%, at random [0-9.]+%±'
see "the what-if line gives the share of the test set answered as now" \
	'^what-if: now [0-9.]+%, after [0-9.]+% \([0-9.]+% as now\), compensated [0-9.]+% \([0-9.]+%\)$'
keys n
see "squeeze proposes layer 2 after a refusal" 'Layer 2: [0-9]+ neurons'
keep=$(sed -n 's/.*loop keeps \([0-9][0-9]*\):.*/\1/p' "$TMP/screen")
keys y
see "the squeeze pass ends" 'Done: [0-9]+ neuron'
see "the refusal is listed" 'layer 1: refused'
see "the decision is narrated with its kappa and accuracy" '^▸ (squeeze finished|Algorithm 3, layer 2: κ)'
n1=$(echo "$w_alg1" | cut -d- -f2)
want="$(echo "$w_alg1" | cut -d- -f1)-$n1-$keep-$(echo "$w_alg1" | cut -d- -f4)"
see "widths after the squeeze: $want" "  net $want  "

## undo restores the widths of before the squeeze
keys u
see "undo restores $w_alg1" "  net $w_alg1  "

## a applies the proposal shown and every later one at once
keys z
see "squeeze proposes layer 1 again" 'Layer 1: [0-9]+ neurons, decision κ'
keys a
see "a ends the pass" 'Done: [0-9]+ neuron'
see "a applied layer 1" '^  layer 1: [0-9]+ → [0-9]+ neurons'
see "and layer 2" '^  layer 2: [0-9]+ → [0-9]+ neurons'
check "each decision is a line of the log" \
	[ "$(grep -c '^squeeze layer=[12] apply comp=0$' "$LOG")" -eq 3 ]
keys u
see "undo takes back layer 2's decision" '^▸ undo: back to '
keys u
see "and layer 1's: $w_alg1 again" "  net $w_alg1  "

## a small beta sweep fills the table and marks a pick; export writes CSV
keys b C-u 1.2:1.6:0.2 Enter
see "b asks for q after the beta list" 'trainings per β, q \[5\]'
keys C-u 1 Enter
see "the sweep finishes" 'Algorithm 2, q = 1, .*finished'
see "the pick is marked in the table" ' +1 <$'
## the y axis spans the data's range, not 0-100
sed -n 's/^ *\(-\{0,1\}[0-9][0-9.]*\)%┤.*/\1/p' "$TMP/screen" >"$TMP/yaxis"
grep -E ' 1( <)?$' "$TMP/screen" | sed 's/ <$//' |
	awk '{ print $(NF - 3); print $(NF - 2); print $(NF - 1) }' >"$TMP/yvals"
ytop=$(sort -g "$TMP/yaxis" | tail -1); ybot=$(sort -g "$TMP/yaxis" | head -1)
vmax=$(sort -g "$TMP/yvals" | tail -1); vmin=$(sort -g "$TMP/yvals" | head -1)
check "the beta plot's y axis ($ybot..$ytop %) spans the data ($vmin..$vmax %), not 0-100" \
	awk -v t="$ytop" -v b="$ybot" -v x="$vmax" -v n="$vmin" 'BEGIN {
		exit !(t != "" && x != "" && t >= x - 1e-9 && t <= x + 0.5 * (x - n) + 1 && t < 100 &&
		       b <= n + 1e-9 && b >= n - 0.5 * (x - n) - 1) }'
labels=$(grep -A1 '└' "$TMP/screen" | tail -1 | tr -s ' ' | sed 's/^ //; s/ $//')
betas=$(grep -E ' 1( <)?$' "$TMP/screen" | sed 's/ <$//' |
	awk '{ printf "%s%g", (NR > 1 ? " " : ""), $(NF - 4) }')
check "every beta is labelled under the plot ($betas)" [ "$labels" = "$betas" ]

## A adopts the pick: a fresh network of round(beta * n_i), and u undoes it
beta=$(grep ' <$' "$TMP/screen" | awk '{ printf "%g", $(NF - 5) }')
want=$(echo "$w_alg1" | awk -F- -v b="$beta" '{ printf "%s", $1
	for (i = 2; i < NF; i++) printf "-%d", int(b * $i + 0.5 + 1e-9); printf "-%s\n", $NF }')
check "the pick ($beta) changes the widths ($w_alg1 -> $want)" [ "$want" != "$w_alg1" ]
see "the sweep view offers A" "A adopts the pick: a fresh network $want"
keys A
see "A reports the adoption" "adopted the sweep's pick \(β $beta\): $want with fresh weights"
see "the header shows the pick's widths $want" "  net $want  "
keys u
see "u restores $w_alg1" "  net $w_alg1  "
keys e C-u "$TMP/tables.csv" Enter
see "export reports CSV and the plots" "exported the tables to $TMP/tables.csv \(CSV\) and [0-9]+ plots"
expect_grep "the export holds the layer table" '^layer,n,kappa,p,rank_svd,rank_qr$' "$TMP/tables.csv"
expect_grep "and the sweep" '^beta,err_tr,err_v,score,trials,pick$' "$TMP/tables.csv"
expect_grep "the sweep plot's data has every beta" '^1\.4 [0-9.]+ ' "$TMP/tables-sweep.dat"
expect_grep "the Algorithm-1 plot's data has iteration 0" '^0 ' "$TMP/tables-alg1.dat"
expect_grep "the spectra hold every layer" '^# layer 3: ' "$TMP/tables-spectra.dat"
expect_grep "the gnuplot script draws the sweep as PNG" "set output 'tables-sweep.png'" "$TMP/tables.gp"
expect_grep "and as PDF" "set output 'tables-sweep.pdf'" "$TMP/tables.gp"
expect_grep "through gnuplot's cairo terminals" "^set terminal pngcairo size 1600,900 " "$TMP/tables.gp"
## the colours: a layer's the same on every chart, none yellow on white
expect_grep "the script sets the layers' colours" "^set linetype 4 lc rgb '#8c4bb0'$" "$TMP/tables.gp"
check "no colour of it is gnuplot's yellow" sh -c "! grep -qi \"f0e442\\|'yellow'\" '$TMP/tables.gp'"
expect_grep "each layer's line takes its linetype" "lt i title sprintf\\('layer %d', i\\)" "$TMP/tables.gp"
if command -v gnuplot >/dev/null 2>&1; then
	check "gnuplot drew the sweep" [ -s "$TMP/tables-sweep.png" ]
else
	echo "gnuplot is not installed: the images are not checked"
fi

## a quote in the export's name is doubled in the gnuplot script (it used
## to end gnuplot's string there, and the script failed)
keys e C-u "$TMP/q'x.csv" Enter
see "export to a name with a quote" "exported the tables to $TMP/q'x\.csv"
expect_grep "the script doubles the quote" "^set output 'q''x-spectra\.png'$" "$TMP/q'x.gp"
if command -v gnuplot >/dev/null 2>&1; then
	check "gnuplot drew the spectra of q'x" [ -s "$TMP/q'x-spectra.png" ]
fi

## export and save refuse the screen itself: "-", /dev/stdout, the terminal
keys e C-u - Enter
see "export to - is refused" '-: standard output is the screen: name a file'
keys e C-u /dev/stdout Enter
see "export to /dev/stdout is refused" '/dev/stdout: the screen.s own terminal: name a file'
tty=$($T display -p -t $PANE '#{pane_tty}')
keys e C-u "$tty" Enter
see "export to the pane's terminal is refused" "$tty: the screen.s own terminal: name a file"
keys w C-u - Enter
see "save to - is refused" '-: standard output is the screen: name a file'
keys w C-u /dev/fd/1 Enter
see "save to /dev/fd/1 is refused" '/dev/fd/1: the screen.s own terminal: name a file'

## save and open; w over an existing file asks first
keys w
see "w proposes the data set's name" 'save to \[synthetic.model\]'
keys C-u "$MODEL" Enter
see "save reports the path" "saved $MODEL"
cp "$MODEL" "$TMP/m.before"
keys s
see "another step changes the network" 'Algorithm 1, iteration 2:'
keys w
see "w proposes the last file" "save to \[$MODEL\]"
keys Enter
see "w over an existing file asks" "$MODEL exists: overwrite it\? \(y/n\)"
keys n
see "no keeps the file" "not saved: $MODEL is kept as it was"
check "the file is unchanged" cmp -s "$MODEL" "$TMP/m.before"
keys u
see "undo the step" "  net $w_alg1  "
keys w Enter
see "asked again" "exists: overwrite it"
keys y
see "yes overwrites" "saved $MODEL"
keys o
see "o asks for a path" 'open \['
keys Enter
see "open reports the shape" "opened $MODEL: $w_alg1"

## a failed open keeps the session and says why
keys o C-u "$TMP/missing.model" Enter
see "a failed open shows the reason" "load failed: .*missing.model"
see "and keeps the network" "  net $w_alg1  "

## a caption for lessons goes to the log
keys N
see "N asks for a caption" 'caption for the lesson'
keys "κ settles in an epoch" Enter
see "the caption is recorded" "caption recorded in $LOG"

## sizes: 80x24 renders, 60x15 asks for more, 100x30 again
keys 1
$T resize-window -t tui -x 80 -y 24
see "80x24 shows the footer" 'q:quit'
see "80x24 shows the table" '^ +i +n_i'
$T resize-window -t tui -x 60 -y 15
see "60x15 asks to enlarge" 'enlarge the terminal \(need 80×24, have 60×15\)'
check "the enlarge message and what q does are all there is" [ "$(screen | grep -c '[^ ]')" -eq 2 ]
check "q is the key that acts" grep -q '^ *q quits *$' "$TMP/screen"
$T resize-window -t tui -x 100 -y 30
see "100x30 restores the screen" '^ +i +n_i'

## quit with unsaved work: save and quit
keys s
see "a step leaves unsaved work" '\[unsaved\]'
keys q
see "q offers to save first" 'unsaved changes: w saves and quits, y quits without saving'
keys w
see "w asks where" 'save to \['
keys C-u "$TMP/final.model" Enter
see "the screen saves, then quits with status 0" '^EXIT=0' 10
check "the network was saved on the way out" [ -s "$TMP/final.model" ]
see "the log path is printed" "session log: $LOG"

## the log replays to the saved network
expect_grep "the log records the squeeze decisions" '^squeeze layer=1 refuse' "$LOG"
expect_grep "the log records the load with its CRC" '^load path=.* crc=[0-9a-f]{8}$' "$LOG"
expect_grep "the log records the caption" '^#: κ settles in an epoch$' "$LOG"
check "the log records the adoption as a net line after a note" \
	grep -A1 '^# adopt the beta sweep.s pick, beta = ' "$LOG" | grep -q '^net layers='
n=$(grep -n '^save ' "$LOG" | head -1 | cut -d: -f1)
head -n "$n" "$LOG" >"$TMP/upto-save.log"
expect_ok "replay up to the save" env CONDNET_DATA="$TMP/data" "$C" replay "$TMP/upto-save.log" --save "$TMP/r.model"
cp "$TMP/out" "$TMP/replay.out"
check "replayed widths equal the saved model's" \
	grep -q "^widths $("$C" cond --load "$TMP/m.before" | sed -n '1s/.*: //p')\$" "$TMP/replay.out"
check "the replayed network is bit-identical to the saved one" cmp "$TMP/r.model" "$TMP/m.before"
expect_ok "the whole log replays" env CONDNET_DATA="$TMP/data" "$C" replay "$LOG" --save "$TMP/r2.model"
check "to the network saved on the way out" cmp "$TMP/r2.model" "$TMP/final.model"
## replay --help and the manual name the same options (tests/docs.sh holds
## every command so)
sed -n '/^\.SS "condnet replay"/,/^\.SS "condnet paper"/p' "$MAN" >"$TMP/man-replay"
# and the options every command takes (--dry-run, --help)
sed -n '/^\.SS "Every command"/,/^\.SS Data/p' "$MAN" >>"$TMP/man-replay"
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
PANE=tui2
see "a second screen opens" '^ +i +n_i'
$T capture-pane -e -p -t tui2 >"$TMP/esc"
check "NO_COLOR: no colour escapes" [ "$(grep -c "$(printf '\033')\\[3[0-7]m" "$TMP/esc")" -eq 0 ]

## space while idle pauses nothing
keys ' '
see "space while idle pauses nothing" 'nothing to pause: space pauses a running operation'

## kappa is live while an Algorithm-1 step trains
kappas() { sed -n 's/^[!r ][!r ] *[0-9][0-9]*\*\{0,1\} *[0-9][0-9]* *\([0-9.e+∞-]*\) .*/\1/p' "$1" | tr '\n' ' '; }
keys E 100000 Enter
see "eta typed as 100000" '^τ 25  η 100000  '
keys s 1
see "the layer table is live during the step" ' live$'
k1=$(kappas "$TMP/screen")
i=0; moved=0
while [ $i -lt 400 ]; do
	screen >"$TMP/screen"
	k=$(kappas "$TMP/screen")
	if grep -q ' live$' "$TMP/screen" && [ -n "$k" ] && [ "$k" != "$k1" ]; then moved=1; break; fi
	sleep 0.05; i=$((i + 1))
done
check "kappa changes on screen while the step trains ($k1-> $k)" [ "$moved" -eq 1 ]

## while it runs: operations are refused, tau waits, space pauses
keys u
see "u while busy is refused" 'busy: Algorithm 1 \(one iteration\) — press Esc to stop, space to pause'
keys -
see "tau while busy waits for the next operation" 'τ = 20 applies to the next operation'
see "the header shows the pending tau" '^τ 25→20  '
keys ' '
see "space pauses the step" 'paused: space resumes, Esc stops'
keys ' '
see "space resumes it" '^resumed'
keys Escape
see "Esc cancels the step" 'cancelled: Algorithm 1 \(one iteration\)'
see "then tau 20 applies" '^τ 20  '
see "the cancelled training leaves no progress bar" 'cancelled at epoch [0-9.]+: Algorithm 1'
check "the refused undo was not queued" [ "$(grep -c '^undo' "$TMP/s2.log")" -eq 0 ]
check "the deferred tau is logged" grep -q '^tau 20$' "$TMP/s2.log"
check "the cancelled step is not" [ "$(grep -c '^alg1' "$TMP/s2.log")" -eq 0 ]

## Esc stops a long training within a second
keys t 100000 Enter
see "a long training runs" 'training 100000 epochs'
sleep 0.5
t0=$(date +%s%N)
keys Escape
wait_for 'cancelled: training 100000 epochs' 5
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "Esc stopped the training in $ms ms (at most 1000)" [ "$ms" -le 1000 ]

keys t 100000 Enter
see "another long training runs" 'training 100000 epochs'
keys C-c
see "Ctrl-C ends the program (128 + SIGINT)" '^EXIT=130' 5
check "Ctrl-C left the alternate screen" [ "$(screen | grep -c 'n_i')" -eq 0 ]
check "the cancelled training is not in the log" [ "$(grep -c '^train' "$TMP/s2.log")" -eq 0 ]

## 80x24 with --tau 30 --eta 2: the header holds both; statuses stay below it
screen_script "$TMP/run3.sh" --tau 30 --eta 2 --log "'$TMP/s3.log'"
$T new-session -d -s tui3 -x 80 -y 24 "$TMP/run3.sh"
PANE=tui3
see "--tau 30 --eta 2 open with those values, first in the header, --log in the reproducible mode" \
	'^τ 30  η 2  net 10-32×4-3  Σ n_i 131  params 3,619  seed 1  reproducible *$'
see "the first row ends in the state, whole" ' idle$'
keys u
see "a failed undo says why" 'undo failed: undo: nothing to undo'
check "the status left the header alone" grep -Eq '^τ 30  η 2  net .* seed 1  reproducible *$' "$TMP/screen"
check "and the tabs" grep -q '^\[1 Layers\]' "$TMP/screen"
## the Algorithm-1 history scrolls back to iteration 0
keys T 3 Enter
see "tau typed as 3" '^τ 3  '
keys r
see "Algorithm 1 runs to its end" 'Algorithm 1, iterations 0-[0-9]+: (done|stuck)' 30
see "the history shows the newest iterations" '◀ it [0-9]+-[0-9]+ of 0-[0-9]+'
check "iteration 0 is out of sight" sh -c "! grep -q ' it 0 ' '$TMP/screen'"
keys Home
see "Home scrolls the history to iteration 0" '^layer +it 0 +it 1 '
keys End Left
see "Left steps back one iteration" '◀ it [0-9]+-[0-9]+ of 0-[0-9]+ ▶'
keys 6
see "the history charts show kappa per iteration" 'κ(\(Ŵ⁽ⁱ⁾\))? per (Algorithm-1 )?iteration'
keys '>'
see "and kappa against epochs, with what trained" 'κ(\(Ŵ⁽ⁱ⁾\))? against epochs: Algorithm 1, iteration'
keys q y
see "the third screen quits" '^EXIT=0' 5

## SIGTERM, SIGHUP, SIGINT and SIGQUIT, sent to the screen's process while a
## network of 6x400 trains, end it within a second with 128 + the signal,
## the terminal restored: no alternate screen, the cursor shown, the keypad
## and cursor keys back in their normal mode
screen_script "$TMP/run-sig.sh" --layers 6x400 --log "'$TMP/sig.log'"
# the same with OPENBLAS_CORETYPE=Sandybridge: the reproducible mode (on with
# --log) then re-executes condnet on the Haswell kernels, whatever this CPU is
sed "s|^export CONDNET_DATA|export OPENBLAS_CORETYPE=Sandybridge CONDNET_DATA|" "$TMP/run-sig.sh" \
	>"$TMP/run-sig-sb.sh" && chmod +x "$TMP/run-sig-sb.sh"
for run in plain sb; do
for sig in TERM HUP INT QUIT; do
	script=$TMP/run-sig.sh; [ $run = sb ] && script=$TMP/run-sig-sb.sh
	$T new-session -d -s "sig-$sig-$run" -x 100 -y 30 "$script"
	PANE=sig-$sig-$run
	see "SIG$sig: the screen opens on a 6x400 network" '^ +i +n_i' 20
	keys t 100000 Enter
	see "SIG$sig: a long training runs" 'training 100000 epochs'
	sleep 0.5
	flags=$($T display -p -t $PANE '#{alternate_on} #{cursor_flag} #{keypad_flag} #{keypad_cursor_flag}')
	check "SIG$sig: the screen holds the terminal (alternate screen, no cursor): $flags" [ "$flags" = "1 0 1 1" ]
	pid=$(screen_pid)
	if [ -z "$pid" ]; then
		fail "SIG$sig ($run): no process named condnet under the pane's shell"
		ps -o pid=,ppid=,comm=,args= --ppid "$($T display -p -t $PANE '#{pane_pid}')" | sed 's/^/  | /'
		$T kill-session -t $PANE; continue
	fi
	pass "SIG$sig ($run): the screen's process is $pid, named $(ps -o comm= -p $pid)"
	[ $run = sb ] && check "SIG$sig ($run): it runs re-executed on the Haswell kernels" \
		sh -c "tr '\\0' '\\n' </proc/$pid/environ | grep -qx OPENBLAS_CORETYPE=Haswell"
	t0=$(date +%s%N)
	kill -$sig $pid
	i=0; while [ $i -lt 500 ] && kill -0 $pid 2>/dev/null; do sleep 0.01; i=$((i + 1)); done
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	check "SIG$sig ended the screen in $ms ms (at most 1000)" [ "$ms" -le 1000 ]
	case $sig in HUP) n=1 ;; INT) n=2 ;; QUIT) n=3 ;; TERM) n=15 ;; esac
	see "SIG$sig: exit status 128 + $n" "^EXIT=$((128 + n))" 5
	flags=$($T display -p -t $PANE '#{alternate_on} #{cursor_flag} #{keypad_flag} #{keypad_cursor_flag}')
	check "SIG$sig: the terminal is restored: $flags" [ "$flags" = "0 1 0 0" ]
	check "SIG$sig: the process is gone" sh -c "! kill -0 $pid 2>/dev/null"
	$T kill-session -t $PANE
done
done

## lessons: played on keys to the end, the network of condnet replay
play_lesson() {
	name=$1; shift
	NPLAY=$((${NPLAY:-0} + 1))
	screen_script "$TMP/play-$NPLAY.sh" --play "$name" "$@"
	$T new-session -d -s "play-$NPLAY" -x 100 -y 30 "$TMP/play-$NPLAY.sh"
	PANE=play-$NPLAY
}
for lesson in algorithm1:Algorithm.1.finds squeeze:Squeezing.a.trained; do
	first=${lesson#*:}; lesson=${lesson%%:*}
	expect_ok "condnet replay $lesson" env CONDNET_DATA="$TMP/data" "$C" replay "$SRC/data/lessons/$lesson.lesson"
	crc=$(sed -n 's/^crc32 //p' "$TMP/out")
	play_lesson $lesson
	see "the $lesson lesson opens with its caption" "^▸ $first"
	i=0
	while [ $i -lt 200 ] && ! grep -q 'end of the lesson' "$TMP/screen"; do
		keys Right; wait_for 'lesson: action|end of the lesson' 10; sleep 0.3; i=$((i + 1))
		wait_for ' (idle|lesson: action [0-9]+ of [0-9]+(, its proposal)?)$' 20
	done
	see "the $lesson lesson plays to its end" 'end of the lesson: .*CRC-32 [0-9a-f]{8}' 20
	check "with the network condnet replay gives (CRC-32 $crc)" grep -q "CRC-32 $crc " "$TMP/screen"
	keys Left
	see "left steps the $lesson lesson back" '^lesson: action [0-9]+ of [0-9]+, next .*: right arrow plays it' 20
	keys Right
	see "and right plays the last action again" "end of the lesson: .*CRC-32 $crc " 20
	keys q
	see "q leaves the lesson" '^EXIT=0' 5
done
## a lesson plays in the reproducible mode: re-executed on the Haswell kernels
## (forced here by OPENBLAS_CORETYPE=Sandybridge), its process is still named condnet
play_lesson algorithm1
sed -i "s|^export CONDNET_DATA|export OPENBLAS_CORETYPE=Sandybridge CONDNET_DATA|" "$TMP/play-$NPLAY.sh"
$T kill-session -t $PANE
$T new-session -d -s "play-$NPLAY" -x 100 -y 30 "$TMP/play-$NPLAY.sh"
see "the re-executed lesson opens" '^▸ Algorithm.1.finds' 20
ppid=$($T display -p -t $PANE '#{pane_pid}')
pid=$(pgrep -P "$ppid" || true)
check "the lesson's process ($pid) runs on the Haswell kernels it re-executed with" \
	sh -c "[ -n '$pid' ] && tr '\\0' '\\n' </proc/$pid/environ | grep -qx OPENBLAS_CORETYPE=Haswell"
comm=$(ps -o comm= -p "${pid:-0}" 2>/dev/null)
check "ps -o comm= of the re-executed condnet tui --play prints condnet ($comm)" [ "$comm" = condnet ]
keys q
see "q leaves the re-executed lesson" '^EXIT=0' 5
## with --delay the lesson plays by itself; space pauses it
play_lesson squeeze --delay 0.05
see "--delay plays the lesson to its end" "end of the lesson: .*CRC-32 $crc " 30
keys q
play_lesson algorithm1 --delay 0.3
keys ' '
see "space pauses a lesson played with --delay" 'the lesson is paused: space plays on'
sleep 1
screen >"$TMP/screen"
check "a paused lesson stays where it is" grep -Eq 'lesson: action [01] of 6, paused$' "$TMP/screen"
keys q
expect_exit "--play takes no network options" 2 '--play takes the lesson' "$C" tui --play algorithm1 --tau 3
expect_exit "an unknown lesson names where it looked" 1 "no lesson 'nosuch'" "$C" tui --play nosuch

## the learning-rate schedule and early stopping, set from the screen at 80x24
screen_script "$TMP/run6.sh" --layers $LAYERS --seed $SEED --limit 40 --lr 0.01 --schedule step:5:0.5 \
	--log "'$TMP/s6.log'"
$T new-session -d -s tui6 -x 80 -y 24 "$TMP/run6.sh"
PANE=tui6
see "--schedule opens with that schedule in the settings" '^test acc [0-9.]+%   lr 0\.01 step:5:0\.5   queued'
expect_grep "and logs it" '^sched step:5:0\.5$' "$TMP/s6.log"
keys S
see "S asks for the schedule, proposing the one in effect" '^schedule \(.*\) \[step:5:0\.5\]: _'
keys C-u cosine:x Enter
see "a wrong spec is refused with the parser's message" "schedule 'cosine:x': .*'x' is not a number"
## the rate is shown live while a training runs
keys S C-u constant Enter Enter Enter
see "constant replaces it" 'lr 0\.01 constant   queued'
keys t 100000 Enter
see "the progress line shows the learning rate live" 'train acc [0-9.]+%  lr 0\.01$'
keys Escape
see "Esc stops that training" 'cancelled: training 100000 epochs'
keys S C-u cosine:30 Enter
see "S asks for the warm-up next" 'warm-up epochs \(0: none\) \[0\]: _'
keys C-u 1 Enter
see "and the patience" 'early-stop patience in epochs \(0: none\) \[0\]: _'
keys C-u 3 Enter
see "the settings show schedule, warm-up and patience" 'lr 0\.01 cosine:30 warm 1 stop 3   queued'
expect_grep "the schedule is a logged action" '^sched cosine:30 warmup=1$' "$TMP/s6.log"
keys t C-u 200 Enter
see "the narration says how many epochs ran and which was kept" \
	'^▸ trained [0-9]+ of 200 epochs, kept epoch [0-9]+ \(validation [0-9.]+ %\)'
ran=$(sed -n 's/^▸ trained \([0-9]*\) of 200.*/\1/p' "$TMP/screen")
kept=$(sed -n 's/^▸ trained .* kept epoch \([0-9]*\) .*/\1/p' "$TMP/screen")
check "early stopping ran $ran epochs, 3 after the kept one ($kept)" [ "$ran" -eq $((kept + 3)) ]
keys 6 '>' '>'
see "the history view draws the validation curve" \
	"^• validation · training accuracy: $ran of 200 epochs, early stop, kept $kept \([0-9.]+%\)"
check "its y axis is in percent" grep -Eq '^ +[0-9.]+%┤' "$TMP/screen"
check "the kept epoch is starred in the plot" grep -Eq '^ +([0-9.]+%┤|│).*\*' "$TMP/screen"
check "and labelled under it" grep -Eq "^ .*kept $kept( |\$)" "$TMP/screen"
check "at 80x24 the chart's title is whole" sh -c "! grep -q '^• .*…' '$TMP/screen'"
expect_grep "the training is logged with its patience" '^train 200 patience=3$' "$TMP/s6.log"
keys w C-u "$TMP/s6.model" Enter
see "the network is saved" "saved $TMP/s6.model"
keys q
see "the screen quits" '^EXIT=0' 5
expect_ok "the log replays" env CONDNET_DATA="$TMP/data" "$C" replay "$TMP/s6.log" --save "$TMP/r6.model"
check "to the network the screen saved, kept epoch and all" cmp "$TMP/r6.model" "$TMP/s6.model"

## the squeeze preview on a model with a known pivoted-QR profile (profile_model
## in lib.sh): how many neurons the threshold keeps and how many the κ loop
## leaves, layer by layer, at τ = 6 and at τ = 5
profile_model "$TMP/prof.model" || fail "the profile model is written and imported"
screen_script "$TMP/run7.sh" --load "'$TMP/prof.model'" --data synthetic --tau 6 --log "'$TMP/s7.log'"
$T new-session -d -s tui7 -x 100 -y 30 "$TMP/run7.sh"
PANE=tui7
see "the profile model opens at τ 6" '^τ 6  .* net 10-6-4-3  '
see "layer 1: 3 σ below σ₁/6, rank 3, QR rank 6" '^!r +1 +6 +9\.54 +3 +3 +6 '
see "layer 2: 1 σ below σ₁/6, rank 3, QR rank 3" '^!r +2 +4 +8 +1 +3 +3 '
keys z
see "layer 1 is proposed on its κ 9.54" 'Layer 1: 6 neurons, decision κ\(Ŵ⁽ⁱ⁾\) 9\.54 > τ 6 '
see "QR keeps all 6 of layer 1, the κ loop 3" \
	'^QR keeps 6 \(\|r_jj\| ≥ \|r_11\|/τ\), the κ loop keeps 3: remove 3, κ after 1\.6$'
see "the pivots are those of the profile, numbered from 1" 'pivoted-QR order \(neurons from 1\): 5 2 6 1 4 3$'
keys n
see "layer 2 is proposed on its κ 8" 'Layer 2: 4 neurons, decision κ\(Ŵ⁽ⁱ⁾\) 8 > τ 6 '
see "QR keeps 3 of layer 2, the κ loop too" \
	'^QR keeps 3 \(\|r_jj\| ≥ \|r_11\|/τ\), the κ loop keeps 3: remove 1, κ after 4$'
keys y
see "the pass ends with one neuron removed" 'Done: 1 neuron\(s\) removed'
see "the widths are 10-6-3-3" '  net 10-6-3-3  '
keys T C-u 5 Enter
see "tau typed as 5" '^τ 5  '
keys z
see "at τ 5 QR keeps 5 of layer 1, the κ loop 3" \
	'^QR keeps 5 \(\|r_jj\| ≥ \|r_11\|/τ\), the κ loop keeps 3: remove 3, κ after 1\.6$'
keys Escape
see "Esc stops the pass" 'squeeze stopped: 0 neuron'
keys q
see "q asks about the unsaved squeeze" 'unsaved changes: w saves and quits, y quits without saving'
keys y
see "the profile screen quits" '^EXIT=0' 5

## the manual holds the explain panel's definitions (in the screen's ASCII spelling)
screen_script "$TMP/run4.sh" --ascii --log "'$TMP/s4.log'"
$T new-session -d -s tui4 -x 240 -y 100 "$TMP/run4.sh"
PANE=tui4
see "an ASCII screen opens" '^ +i +n_i'
keys x
see "its explain panel opens" 'What the numbers mean'
settle
awk 'NR > 4 && /^  [^ ]/ { if (t != "") print d; t = $0; d = ""; next }
	NR > 4 && /^    [^ ]/ { sub(/^    /, ""); d = d (d == "" ? "" : " ") $0; next }
	NR > 4 && t != "" && !/^    / { print d; t = ""; d = "" }' "$TMP/screen" | sed '/^$/d' >"$TMP/defs"
sed -n '/^Terms on the screen/,/^\.B Lessons\./p' "$MAN" | grep -v '^\.' |
	sed 's/\\-/-/g; s/\\&//g; s/\\e/\\/g' | tr '\n' ' ' | tr -s ' ' >"$TMP/man-terms"
check "the explain panel has 28 definitions" [ "$(wc -l <"$TMP/defs")" -eq 28 ]
i=0
while IFS= read -r def; do
	i=$((i + 1))
	check "the manual holds definition $i ($(echo "$def" | cut -c1-40)...)" grep -qF -- "$def" "$TMP/man-terms"
done <"$TMP/defs"
keys Escape q

## --help lists the options the screen honours, the manual documents them
"$C" tui --help >"$TMP/help"
for o in --save --json --csv --quiet; do
	check "tui --help does not list $o" sh -c "! grep -q -- '$o ' '$TMP/help'"
	expect_exit "the screen refuses $o" 2 "unknown option '$o'" "$C" tui $o x
done
sed -n '/^\.SS "condnet tui"/,/^\.SS "condnet replay"/p' "$MAN" >"$TMP/man-tui"
sed -n '/^\.SH "COMMON OPTIONS"/,/^\.SH FILES/p' "$MAN" >>"$TMP/man-tui"
for o in $(grep -o -- '^ *--[a-z-]*' "$TMP/help" | sort -u); do
	check "the manual documents tui $o" \
		grep -q -- "^\.[A-Z]* .*$(echo "$o" | sed 's/-/\\\\-/g')\( \|$\)" "$TMP/man-tui"
done
for o in --tau --eta --beta --q --play --delay --present --schedule --warmup --early-stop; do
	check "tui --help lists $o" grep -q -- "^  $o " "$TMP/help"
done
expect_exit "--features on a data set without features is refused" 2 \
	'--features: synthetic has no Haar-wavelet features' "$C" tui --data synthetic --features 50
check "--help names the manual of the build tree" sh -c "'$C' --help | grep -q \"'man .*man/condnet.1'\""

## a session log is one screen's: a second screen given the same --log
## refuses it, naming the process that holds it (their lines used to
## interleave, and the log replayed to a network neither screen had)
screen_script "$TMP/run-lock.sh" --layers 8 --log "'$TMP/lock.log'"
$T new-session -d -s lock1 -x 240 -y 30 "$TMP/run-lock.sh"
PANE=lock1
see "a screen holds its log" '^ +i +n_i'
holder=$(screen_pid)
$T new-session -d -s lock2 -x 240 -y 30 "$TMP/run-lock.sh"
PANE=lock2
see "a second screen on that log refuses it, naming the first ($holder)" \
	"lock\.log: the session log is in use by process $holder \(another screen writes it\): give another --log"
see "... and ends with status 1" '^EXIT=1' 5
$T kill-session -t lock2
PANE=lock1
keys q
see "the first screen quits" '^EXIT=0' 5
check "the log holds the lines of one screen" [ "$(grep -c '^data ' "$TMP/lock.log")" -eq 1 ]
$T kill-session -t lock1

## a log line that cannot be written (the file size limit standing in for a
## full disk) is said on the screen, and the screen exits 1 (it used to lose
## every line silently and exit 0); the log keeps whole lines
python3 -c "open('$TMP/full.log', 'w').write('# filler line\n' * 70)"
screen_script "$TMP/run-full.sh" --layers 8 --log "'$TMP/full.log'"
sed -i "s|^'$C'|ulimit -f 1; '$C'|" "$TMP/run-full.sh"
$T new-session -d -s full -x 240 -y 30 "$TMP/run-full.sh"
PANE=full
see "the screen says the log cannot be written" \
	"the session log $TMP/full\.log cannot be written \(File too large\): it ends before this action"
keys q
see "the screen exits 1" '^EXIT=1' 5
see "and says why" "condnet: the session log $TMP/full\.log could not be written \(File too large\)"
check "the log ends with a whole line" sh -c "tail -c 1 '$TMP/full.log' | od -An -c | grep -q '\\n'"
$T kill-session -t full

## the end of the terminal's input quits: a terminal closed while SIGHUP is
## ignored (the screen used to spin at 100 % CPU for ever)
cat >"$TMP/run-eof.sh" <<EOF
#!/bin/sh
export CONDNET_DATA='$TMP/data' OPENBLAS_NUM_THREADS=1 TERM=xterm-256color LC_ALL=C.UTF-8
trap '' HUP
exec '$C' --layers 8 --log '$TMP/eof.log'
EOF
chmod +x "$TMP/run-eof.sh"
$T new-session -d -s eof -x 100 -y 30 "$TMP/run-eof.sh"
PANE=eof
see "a screen with SIGHUP ignored opens" '^ +i +n_i'
pid=$($T display -p -t eof '#{pane_pid}')
$T kill-session -t eof
i=0; while [ $i -lt 100 ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
check "the screen ends when its terminal goes (in $((i / 10)) s)" sh -c "! kill -0 $pid 2>/dev/null"
kill -9 "$pid" 2>/dev/null

## the default log directory keeps the newest 50 logs
mkdir -p "$TMP/state/condnet"
for k in $(seq 10 69); do : >"$TMP/state/condnet/session-20000101-0000$k.log"; done
screen_script "$TMP/run5.sh" --layers 8
$T new-session -d -s tui5 -x 100 -y 30 "$TMP/run5.sh"
PANE=tui5
see "a screen without --log opens" '^ +i +n_i'
keys q
see "and logs to the default directory" "^session log: $TMP/state/condnet/session-[0-9]{8}-[0-9]{6}\.log" 5
check "the log directory keeps 50 logs" [ "$(ls "$TMP/state/condnet" | grep -c '^session-.*\.log$')" -eq 50 ]
check "the oldest went" [ ! -e "$TMP/state/condnet/session-20000101-000010.log" ]
check "the newest old one stayed" [ -e "$TMP/state/condnet/session-20000101-000069.log" ]
finish
