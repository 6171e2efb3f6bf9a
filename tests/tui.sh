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
#  - the manual holds the explain panel's definitions and the options
#    `condnet tui --help` lists, which are those the screen honours.
# The screen busy and ending, its logs and its settings are tests/tui_busy.sh's.
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
check "the explain panel has 27 definitions" [ "$(wc -l <"$TMP/defs")" -eq 27 ]
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

finish
