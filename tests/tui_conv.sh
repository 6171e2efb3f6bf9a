#!/bin/sh
# tui_conv.sh - the screen on a network with convolution layers, driven
# through tmux on 8×8 images the test makes (a CSV with --shape), at 80×24
# and at 200×60: the header names the layers; the layer table shows each
# convolution's channels (marked c) and the κ of its Ŵ, as `condnet cond`
# gives it; the spectrum view shows a convolution's values and pivoted-QR
# profile; after training, a squeeze proposes a convolution layer's channels
# with its spectra, the Plane view shows the channels' maps on an example
# image, kept and dropped, each dropped one beside the combination that
# replaces it, and y approves it (compensated at 200×60); Algorithm 1 steps on the network,
# removing channels, and u undoes a step; and the session log replays to the
# network saved.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
C=$CONDNET
cd "$TMP" || exit 1

bar_images 400 7 >img.csv
ARGS="--data csv:$TMP/img.csv --shape 8x8 --layers conv:6:3:same,pool:2,conv:5:2,6 --act relu --seed 3"
"$C" cond $ARGS --epochs 0 --no-squeeze --json c.json >/dev/null 2>&1
# kappa L: cond's κ of layer L as the screen shows it (4 digits)
kappa() { python3 -c "import json, sys; print('%.4g' % json.load(open('c.json'))['kappa'][int(sys.argv[1]) - 1])" "$1"; }

for size in 80x24 200x60; do
	screen_run "conv$size" "$size" tui $ARGS --tau 2 --log "'$TMP/s$size.log'"
	see "$size: the header names the layers" '  net 1x8x8-6@3x3pad1-pool-5@2x2-6-2  '
	k1=$(kappa 1) k2=$(kappa 2) k3=$(kappa 3)
	see "$size: layer 1, a convolution of 6 channels, with cond's κ ($k1)" "^[!r]* +1c +6 +$k1 +[0-9]+ +[0-9]+ +[0-9]+ "
	see "$size: layer 2, a convolution of 5 channels ($k2)" "^[!r]* +2c +5 +$k2 "
	see "$size: the dense layer's κ is cond's ($k3)" "^[!r]* +3 +6 +$k3 "
	keys 5
	see "$size: the spectrum view of a convolution" \
		'^Layer 1 of 4 \(↑↓\): conv 6@3×3 pad 1, pool → 6×4×4: 6 channels, Ŵ⁽ⁱ⁾ 10×6, κ [0-9.]'
	see "$size: with its pivoted-QR profile" '\|r_jj\|/\|r_11\|, pivot order: rank \(QR\) [0-9]'
	keys 1 t
	see "$size: t asks for the epochs" 'train epochs'
	keys 5 Enter
	see "$size: training runs" 'trained 5 epochs: test accuracy' 30
	keys z 4
	see "$size: the squeeze proposes layer 1's channels" \
		'^Layer 1: 6 channels, decision κ\(Ŵ⁽ⁱ⁾\) [0-9.]+ > τ 2' 30
	see "$size: in pivoted-QR order" '^pivoted-QR order \(channels from 1\): [1-6]( [1-6]){5}'
	see "$size: with the layer's spectra" '\|r_jj\|/\|r_11\|.* 6 channels'
	see "$size: and its what-if accuracies" '^keeping [1-5] chosen by QR [0-9.]+%, by norm' 60
	keys 7
	see "$size: the Plane view asks about layer 1's channels" \
		'^Squeeze, layer 1: remove [1-5] of 6 channels\? y apply'
	see "$size: a kept channel's map" 'c[1-6] keep'
	see "$size: a dropped channel's map beside its combination's" 'c[1-6] drop +≈ comb\.'
	see "$size: the combinations as text" '^c[1-6] ≈ −?[0-9.]+·c[1-6]'
	comp=
	if [ "$size" = 200x60 ]; then
		keys c
		see "$size: c turns compensation on" '^Squeeze, layer 1: .* c compensation on'
		comp=', compensated'
	fi
	keys y 4
	see "$size: y approves the squeeze of layer 1" "^  layer 1: 6 → [1-5] channels, κ .*[0-9]$comp\$" 30
	keys Escape
	see "$size: the pass ends" 'squeeze (stopped|finished): [0-9]+ channel\(s\) and neuron\(s\) removed' 30
	keys 2 s
	see "$size: Algorithm 1's first iteration trains the network" \
		'Algorithm 1, iterations 0-0' 60
	net0=$(sed -n 's/.*  net \([^ ]*\)  .*/\1/p' "$TMP/screen" | head -1)
	keys s
	see "$size: its next iteration removes channels" '^ +1 +[0-9]+! +[0-9]+' 60
	see "$size: Algorithm 1 says it took channels" 'Algorithm 1, iterations 0-1'
	net1=$(sed -n 's/.*  net \([^ ]*\)  .*/\1/p' "$TMP/screen" | head -1)
	check "$size: the iteration made another network ($net1)" [ "$net1" != "$net0" ]
	keys u
	see "$size: u undoes the iteration: the network before it ($net0)" "  net $net0  " 30
	keys w
	see "$size: w asks where to save" 'save to \['
	keys C-u "$TMP/t$size.model" Enter
	see "$size: the model is saved" 'saved .*t'"$size"'\.model'
	keys q
	see "$size: the screen ends" '^EXIT=0$'
	expect_ok "$size: the session log replays" "$C" replay --save "r$size.model" "s$size.log"
	check "$size: to the very network that was saved" cmp -s "t$size.model" "r$size.model"
done
expect_grep "the log holds the images" '^data spec=csv:.* shape=1x8x8$' s80x24.log
expect_grep "and the layers as --layers names them" '^net layers=conv:6:3:same,pool:2,conv:5:2,6 act=relu ' \
	s80x24.log
expect_grep "and the squeeze of a convolution layer" '^squeeze layer=1 ' s80x24.log
finish
