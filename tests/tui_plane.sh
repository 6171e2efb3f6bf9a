#!/bin/sh
# tui_plane.sh - the Plane view (7) of the real screen, driven through tmux
# on the spiral at 80x24 and 200x60:
#  - view 7 draws the decision regions in half blocks, redrawn live while
#    the network trains; once trained, every class's shades are there
#    (read with capture-pane -e) and the training points on top;
#  - the neuron maps of the selected layer carry keep and drop marks that
#    change with tau, a dropped neuron's map stands beside its
#    combination's, and its combination is written out with its residual
#    where the refit works (in activations) and in Ŵ, under what the fits
#    say together; the classes' colours and markers have a key;
#  - the session log of the plane session replays to the network saved;
#  - z shows the squeeze's proposal as four panels (now, QR's choice
#    removed, the same compensated, as many at random) with the accuracies
#    the squeeze view's what-if line gives, y decides it from view 7, and
#    the export writes the regions, points, maps and panels with a gnuplot
#    script (drawn where gnuplot is installed);
#  - the plane lesson opens view 7 itself, shows the squeeze's four panels
#    with their accuracies, then the layer as it was with its dropped
#    neurons and what the refit leaves, and ends on the network condnet
#    replay gives;
#  - in 8 colours the regions take the terminal's basic colours, without
#    colour letters; a data set not in the plane is told why.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
C=$CONDNET

# run_script FILE TERM ARGS...: a script that runs the screen with ARGS on
# TERM, then prints its exit status and waits (so that the pane stays).
run_script() {
	rf=$1 SCREEN_TERM=$2; shift 2
	screen_script "$rf" "$@"
	SCREEN_TERM=
}
# regions FILE POINTS [FAMILIES]: reads a capture-pane -e and checks the
# regions block (half blocks from column 7 under the title): at least 5 rows
# of 20 columns of them, the points POINTS (the glyphs of every class)
# inside, and the colours of each family given (the class shades,
# comma-separated colour numbers, families split by /) among its pixels;
# prints what it found. With POINTS -, it prints the block's pixels.
regions() {
	python3 - "$1" "$2" "${3:-}" <<'EOF'
import re, sys
rows = []
for line in open(sys.argv[1], encoding='utf-8', errors='replace').read().split('\n'):
    cells, fg, bg, i = [], None, None, 0
    while i < len(line):
        m = re.match(r'\x1b\[([0-9;]*)m', line[i:])
        if m:
            ps = [int(p) if p else 0 for p in m.group(1).split(';')]
            j = 0
            while j < len(ps):
                p = ps[j]
                if p == 0: fg = bg = None
                elif p in (38, 48) and j + 2 < len(ps) and ps[j + 1] == 5:
                    if p == 38: fg = ps[j + 2]
                    else: bg = ps[j + 2]
                    j += 2
                elif 30 <= p <= 37: fg = p - 30
                elif 40 <= p <= 47: bg = p - 40
                elif p == 39: fg = None
                elif p == 49: bg = None
                j += 1
            i += len(m.group(0))
            continue
        cells.append((line[i], fg, bg))
        i += 1
    rows.append(cells)
block, colours, glyphs = [], set(), set()
for cells in rows:
    run = 0
    while 7 + run < len(cells) and cells[7 + run][0] in '▀ox+':
        run += 1
    if run >= 20:
        block.append(cells[7:7 + run])
for cells in block:
    for ch, fg, bg in cells:
        if ch == '▀':
            colours.update(c for c in (fg, bg) if c is not None)
        else:
            glyphs.add(ch)
            colours.add(bg)
if sys.argv[2] == '-':  # the block's pixels, to compare two captures
    for cells in block:
        print(' '.join('%s/%s' % (fg, bg) for ch, fg, bg in cells if ch == '▀'))
    sys.exit(0)
print('rows', len(block), 'columns', max((len(b) for b in block), default=0),
      'points', ''.join(sorted(glyphs)), 'colours', sorted(c for c in colours if c is not None))
ok = len(block) >= 5 and set(sys.argv[2]) <= glyphs
for fam in filter(None, sys.argv[3].split('/')):
    want = {int(c) for c in fam.split(',')}
    if not want & colours:
        print('no colour of', sorted(want))
        ok = False
sys.exit(0 if ok else 1)
EOF
}
# The shades of the three classes, unsure to sure (view_plane.c).
SHADES='224,217,210,203/189,153,111,69/194,157,114,77'

for size in 80x24 200x60; do
	w=${size%x*} h=${size#*x}
	LOG="$TMP/plane-$size.log"
	run_script "$TMP/run-$size.sh" xterm-256color --data spiral --layers 2x32 --lr 0.01 --log "'$LOG'"
	PANE=plane-$size
	$T new-session -d -s $PANE -x "$w" -y "$h" "$TMP/run-$size.sh"
	see "$size: the screen opens on the spiral" 'spiral: train 300, test 300, 2 features, 3 classes'
	keys 7
	see "$size: view 7 draws the regions" '^Decision regions of 2-32-32-3: test accuracy'
	see "$size: with the ranges of x and y" '^ +-1\.2[0-9] +x +1\.[0-9]{2}( |$)'

	## redrawn while the network trains: the regions change under a long training
	keys t
	see "$size: t asks for the epochs" 'train epochs'
	keys C-u 100000 Enter
	see "$size: the regions are live while it trains" '^Decision regions of 2-32-32-3 at epoch [0-9.]+ of 100000, live: '
	$T capture-pane -e -p -t $PANE >"$TMP/live"
	regions "$TMP/live" - >"$TMP/live1"
	i=0 moved=0
	while [ $i -lt 100 ] && [ $moved -eq 0 ]; do
		sleep 0.1
		$T capture-pane -e -p -t $PANE >"$TMP/live"
		regions "$TMP/live" - >"$TMP/live2"
		screen >"$TMP/live2p"
		grep -q ' live: ' "$TMP/live2p" && [ "$(wc -l <"$TMP/live2")" -ge 5 ] &&
			! cmp -s "$TMP/live1" "$TMP/live2" && moved=1
		i=$((i + 1))
	done
	check "$size: the regions change while it trains" [ "$moved" -eq 1 ]
	keys Escape
	see "$size: Esc stops the training" 'cancelled: training 100000 epochs'

	## trained: every class's shades, and the points on top
	keys t C-u 150 Enter
	see "$size: 150 epochs train it" 'trained 150 epochs: test accuracy (9[0-9]|100)\.[0-9]+%' 30
	settle
	$T capture-pane -e -p -t $PANE >"$TMP/esc"
	check "$size: the regions hold every class's shades and the points o x +" regions "$TMP/esc" 'ox+' "$SHADES"
	sed 's/^/  | /' "$TMP/check"

	## the maps: keep marks at a high tau, drop marks at a low one
	keys T C-u 1000 Enter
	see "$size: layer 1's maps, all kept at tau 1000" 'Layer 1 \(↑↓\).*τ 1000 keeps 32 of 32'
	settle
	check "$size: marked keep" grep -Eq 'n[0-9]+ keep' "$TMP/screen"
	check "$size: none dropped" sh -c "! grep -q ' drop' '$TMP/screen'"
	keys Down
	see "$size: Down shows layer 2" 'Layer 2 \(↑↓\).*τ 1000 keeps 32 of 32'
	keys T C-u 3 Enter
	see "$size: at tau 3 the squeeze drops some" 'Layer 2 \(↑↓\).*τ 3 keeps [0-9] of 32'
	kept=$(sed -n 's/.*τ 3 keeps \([0-9]*\) of 32.*/\1/p' "$TMP/screen")
	see "$size: a dropped neuron's combination of kept ones, with its residual and Ŵ's" \
		'n[0-9]+ ≈ −?[0-9]+\.[0-9]{2}·n[0-9]+ .*\(residual [0-9]+\.[0-9] %; Ŵ [0-9]+\.[0-9] %\)'
	see "$size: what the fits say together, and what the refit leaves" \
		'residual [0-9.]+–[0-9.]+ % \(median [0-9.]+ %\)|layer 3.s refit leaves [0-9.]+ %'
	# new marks show the maps from the last two kept on: Home, then past them
	keys Home
	i=0
	while [ $i -lt "${kept:-0}" ]; do keys Right; i=$((i + 1)); done
	see "$size: scrolled past the $kept kept, the first map shown is the first dropped" \
		"neurons $((kept + 1))-[0-9]+ of 32"
	see "$size: marked drop beside its combination's map" 'n[0-9]+ drop +≈ comb\.'
	$T capture-pane -e -p -t $PANE >"$TMP/esc"
	check "$size: a dropped map and its combination's are drawn in colour" \
		sh -c "grep 'drop' '$TMP/esc' >/dev/null && grep -c '48;5;' '$TMP/esc' | grep -qv '^0$'"

	## the squeeze seen as regions: z opens view 7 on the proposal's four panels
	keys T C-u 10 Enter
	see "$size: tau 10" '^τ 10  '
	keys 1 z
	see "$size: z shows the squeeze's proposal in view 7" \
		'^Squeeze, layer [12]: remove [0-9]+ of 32\? y apply, n refuse'
	see "$size: as four panels" '^now +QR removes [0-9]+ +QR, compensated +[0-9]+ at random'
	see "$size: each with its accuracy" '^[0-9.]+% +[0-9.]+% +[0-9.]+% +[0-9.]+%'
	see "$size: the random draws' mean and sd under them, plain and compensated" \
		'[0-9]+ (removed )?at random, 5 draws: .*mean [0-9.]+±[0-9.]+ %, compensated [0-9.]+±[0-9.]+ %'
	see "$size: the classes' key: their colours and markers" '^class o 1 x 2 \+ 3'
	sed -n 's/^\([0-9.]*\)% *\([0-9.]*\)% *\([0-9.]*\)% *\([0-9.]*\)%.*/\1 \2 \3/p' "$TMP/screen" >"$TMP/panels"
	$T capture-pane -e -p -t $PANE >"$TMP/esc"
	check "$size: the panels are regions in colour" sh -c "[ \$(grep -c '▀' '$TMP/esc') -ge 8 ]"
	keys 4
	see "$size: the squeeze view's what-if line" '^what-if.*: now [0-9.]+%, after [0-9.]+%.*compensat'
	sed -n 's/^what-if.*: now \([0-9.]*\)%, after \([0-9.]*\)%.*compensat[a-z ]*\([0-9.]*\)%.*/\1 \2 \3/p' \
		"$TMP/screen" >"$TMP/whatif"
	check "$size: the panels' accuracies are the what-if's ($(cat "$TMP/panels"))" cmp -s "$TMP/panels" "$TMP/whatif"
	keys 7
	## the export writes the plane's data and script (and draws them)
	keys e C-u "$TMP/ex-$size.md" Enter
	see "$size: the export is done" "exported the tables to " 30
	for f in regions.dat points.dat maps.dat panels.dat plane.gp; do
		check "$size: the export wrote -$f" [ -s "$TMP/ex-$size-$f" ]
	done
	expect_grep "$size: the maps' file names a dropped neuron's combination" \
		'^# block [0-9]+: layer [12] neuron n[0-9]+ drop: n[0-9]+ ~ -?[0-9.]+\*n[0-9]+' "$TMP/ex-$size-maps.dat"
	expect_grep "$size: the script draws the panels" "set output 'ex-$size-panels.png'" "$TMP/ex-$size-plane.gp"
	expect_grep "$size: a key of the classes' colours and markers" "title 'class 3'" "$TMP/ex-$size-plane.gp"
	# the training was without a validation split: the curve has no such key
	expect_grep "$size: the last training's curve is drawn" "set output 'ex-$size-curve.png'" "$TMP/ex-$size.gp"
	check "$size: with no validation entry, having no such data" \
		sh -c "! grep -q \"title 'validation'\" '$TMP/ex-$size.gp'"
	expect_grep "$size: the maps' colour scale over them" '^set colorbox horizontal user' "$TMP/ex-$size-plane.gp"
	expect_grep "$size: the maps' file gives the fits where the refit works" \
		'^# layer [12]: the fits. residuals [0-9.]+ to [0-9.]+ %' "$TMP/ex-$size-maps.dat"
	if command -v gnuplot >/dev/null 2>&1; then
		for f in regions.png panels.png maps-1.png regions.pdf; do
			check "$size: gnuplot drew -$f" [ -s "$TMP/ex-$size-$f" ]
		done
	fi
	## y applies each proposal from view 7; once the pass ends, the view
	## stays on the layer squeezed last, its maps as they were before, from
	## their start (the last two kept, then the dropped)
	last=$(sed -n 's/^Squeeze, layer \([0-9]*\): remove.*/\1/p' "$TMP/screen" | head -1)
	keys y
	n=0
	while [ $n -lt 10 ]; do
		wait_for 'squeeze finished|^Squeeze, layer [0-9]+: remove' 30
		settle
		grep -q 'squeeze finished' "$TMP/screen" && break
		now=$(sed -n 's/^Squeeze, layer \([0-9]*\): remove.*/\1/p' "$TMP/screen" | head -1)
		if [ -n "$now" ] && [ "$now" != "$last" ]; then last=$now; keys y; fi
		n=$((n + 1))
	done
	see "$size: y applies the proposals from view 7 to the pass's end" 'squeeze finished' 30
	settle
	check "$size: the view stays on layer $last, the one squeezed last, as it was before" \
		grep -Eq "Layer $last \(↑↓\) before the squeeze" "$TMP/screen"
	check "$size: its maps from their start, the dropped in sight" grep -q ' drop ' "$TMP/screen"

	## the log replays to the network saved
	keys w C-u "$TMP/plane-$size.model" Enter
	see "$size: the network is saved" "saved $TMP/plane-$size.model"
	keys q
	see "$size: the screen quits" '^EXIT=0' 5
	expect_grep "$size: the log records the spiral's points and noise" \
		'^data spec=spiral .* points=300 noise=0\.05000000000000000' "$LOG"
	expect_ok "$size: the log replays" env CONDNET_DATA="$TMP/data" "$C" replay "$LOG" --save "$TMP/replayed-$size.model"
	check "$size: to the network the screen saved" cmp "$TMP/replayed-$size.model" "$TMP/plane-$size.model"
	$T kill-session -t $PANE
done

## the plane lesson, at 80x24 and 200x60: it opens view 7 itself, shows the
## squeeze's proposal as regions, then what the squeeze dropped, and ends on
## the network condnet replay gives (its captions: tui_lessons.sh)
SRC=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
expect_ok "condnet replay plane" env CONDNET_DATA="$TMP/data" "$C" replay "$SRC/data/lessons/plane.lesson"
crc=$(sed -n 's/^crc32 //p' "$TMP/out")
for size in 80x24 200x60; do
	w=${size%x*} h=${size#*x}
	run_script "$TMP/play-$size.sh" xterm-256color --play plane
	PANE=lesson-$size
	$T new-session -d -s $PANE -x "$w" -y "$h" "$TMP/play-$size.sh"
	see "$size: the plane lesson opens in view 7" '^Decision regions of 2-64-64-3: test accuracy'
	check "$size: in the reproducible mode" grep -Eq '  reproducible( |$)' "$TMP/screen"
	# whole, its note whole or shortened, and a gap before what stands beside
	# it (the view's text once wrote over the note: "(pale: the network unsn7 ≈")
	check "$size: the classes' key under the regions, whole, apart from what is beside it" \
		grep -Eq '^ +class o 1 x 2 \+ 3( \(pale: (unsure|the network unsure)\))?( {2,}|$)' "$TMP/screen"
	i=0
	while [ $i -lt 20 ] && ! grep -q 'lesson: action 6 of 6, its proposal$' "$TMP/screen"; do
		keys Right
		wait_for 'lesson: action [0-9]+ of 6(, its proposal)?$' 60
		settle
		i=$((i + 1))
	done
	see "$size: the lesson shows the squeeze's proposal as regions" \
		'^now +QR removes 54 +QR, (compensated|refitted) +54 at random'
	see "$size: with their accuracies" '^99\.33% +43\.00% +99\.00% +63\.67%'
	check "$size: its title says what the lesson will do, not y and n" \
		grep -q "^Layer 2's squeeze: remove 54 of 64; the lesson applies it with compensation" "$TMP/screen"
	keys Right
	see "$size: the lesson ends" 'end of the lesson: .*CRC-32 [0-9a-f]{8}' 30
	check "$size: on the maps of layer 2 before the squeeze, its 54 dropped marked" \
		grep -Eq 'Layer 2 \(↑↓\) before the squeeze(: 54 of 64 dropped|, which dropped 54 of 64)' "$TMP/screen"
	check "$size: with what the refit leaves of what they sent" \
		grep -q "layer 3's refit leaves 19.3 %" "$TMP/screen"
	check "$size: on the network condnet replay gives (CRC-32 $crc)" grep -q "CRC-32 $crc " "$TMP/screen"
	keys q
	see "$size: q leaves the lesson" '^EXIT=0' 5
done
printf 'data spec=spiral features=0 label_col=-1 seed=1 limit=0 val_frac=0.1 val_per_class=0\nnet layers=4 act=erf act_a=1 seed=1\n#view: 8\ntrain 1\n' >"$TMP/bad.lesson"
expect_exit "a lesson's #view names a view, by its name" 1 "bad.lesson:3: #view: '8' is not a view \\(layers, algorithm1, sweep, squeeze, spectrum, history, plane, network\\)" \
	"$C" tui --play "$TMP/bad.lesson"

## 8 colours: the regions in the basic colours
run_script "$TMP/run8.sh" xterm --data circles --layers 2x16 --lr 0.01 --log "'$TMP/p8.log'"
PANE=p8
$T new-session -d -s $PANE -x 100 -y 30 "$TMP/run8.sh"
see "8 colours: the screen opens on the circles" 'circles: train 300, test 300'
keys 7 t C-u 100 Enter
see "8 colours: trained" 'trained 100 epochs'
settle
$T capture-pane -e -p -t $PANE >"$TMP/esc8"
check "8 colours: both classes in the basic colours (red 1, blue 4)" regions "$TMP/esc8" ox '1/4'
sed 's/^/  | /' "$TMP/check"
keys q y
## no colour: letters, a blank where the network is unsure
run_script "$TMP/runa.sh" xterm-256color --data circles --layers 2x16 --lr 0.01 --ascii --log "'$TMP/pa.log'"
PANE=pa
$T new-session -d -s $PANE -x 100 -y 30 "$TMP/runa.sh"
see "ASCII: the screen opens" 'circles: train 300, test 300'
keys 7 t C-u 100 Enter
see "ASCII: trained" 'trained 100 epochs'
see "ASCII: the regions in letters, the points O and X" '^ +[0-9.-]+ [.:OX ]{20,}'
settle
grep -E '^ {7}[.:OX ]{20,}' "$TMP/screen" | cut -c8-50 >"$TMP/letters"
if grep -q '\.' "$TMP/letters" && grep -q '::::' "$TMP/letters"; then
	pass "ASCII: both classes' letters, . and :"
else
	fail "ASCII: both classes' letters, . and :"
	sed 's/^/  | /' "$TMP/screen"
fi
keys q y

## a data set not in the plane: the view says why
run_script "$TMP/runs.sh" xterm-256color --data synthetic --log "'$TMP/ps.log'"
PANE=ps
$T new-session -d -s $PANE -x 80 -y 24 "$TMP/runs.sh"
see "synthetic: the screen opens" '^ +i +n_i'
keys 7
see "view 7 says the synthetic set is not in the plane, and why" \
	'not these: synthetic has 10 features: the plane has 2'
see "and which are" '--data spiral, circles, xor, gauss or moons'
keys q
finish
