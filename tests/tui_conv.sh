#!/bin/sh
# tui_conv.sh - the screen on a network with convolution layers, driven
# through tmux on 8×8 images the test makes (a CSV with --shape): the header
# names the layers, the layer table shows each convolution's channels,
# kernel and maps and says that its κ is not computed yet (beside the dense
# layers' κ, which `condnet cond` gives too), the spectrum view says the
# same, training runs, Algorithm 1 and the squeeze refuse with the reason,
# and the session log replays to the network that was saved.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
C=$CONDNET
cd "$TMP" || exit 1

bar_images 400 7 >img.csv
ARGS="--data csv:$TMP/img.csv --shape 8x8 --layers conv:4:3,pool:2,conv:5:2,6 --act relu --seed 3"

screen_run conv 100x30 tui $ARGS --log "'$TMP/s.log'"
see "the header names the layers" '  net 1x8x8-4@3x3-pool-5@2x2-6-2  Σ n_i 17  '
see "layer 1: 4 channels of a pooled 3×3 convolution, κ not computed yet" \
	'^ +1 +4 +κ not computed yet +conv 4@3×3, pool → 4×3×3$'
see "layer 2: 5 channels of a 2×2 convolution" '^ +2 +5 +κ not computed yet +conv 5@2×2 → 5×2×2$'
kappa=$("$C" cond $ARGS --epochs 0 --no-squeeze --json c.json >/dev/null 2>&1 &&
	python3 -c "import json; print('%.4g' % json.load(open('c.json'))['kappa'][2])")
see "the dense layer's κ is cond's ($kappa)" "^ +3 +6 +$kappa +0 +6 +6 "
keys 5
see "the spectrum view says a convolution's κ is not computed yet" \
	'^Layer 1 of 4 \(↑↓\): conv 4@3×3, pool → 4×3×3: 4 channels, Ŵ⁽ⁱ⁾ 10×4, κ not computed yet'
keys 1 t
see "t asks for the epochs" 'train epochs'
keys 2 Enter
see "training runs" 'trained 2 epochs: test accuracy' 30
keys s
see "an Algorithm-1 step is refused with the reason" \
	'alg1-step failed: Algorithm 1: the network has convolution layers, whose κ is n'
keys z
see "a squeeze is refused with the reason" \
	'squeeze: Algorithm 3: the network has convolution layers, whose κ is not'
keys w
see "w asks where to save" 'save to \['
keys C-u "$TMP/t.model" Enter
see "the model is saved" 'saved .*t\.model'
keys q
see "the screen ends" '^EXIT=0$'
expect_ok "the session log replays" "$C" replay --save r.model s.log
check "to the very network that was saved" cmp -s t.model r.model
expect_grep "the log holds the images and the layers" '^data spec=csv:.* shape=1x8x8$' s.log
expect_grep "and the layers as --layers names them" '^net layers=conv:4:3,pool:2,conv:5:2,6 act=relu ' s.log
finish
