#!/bin/sh
# cond_scale.sh - the conditioning of large layers through the real binary:
#  - --cond-path gsl and lapack print the same tables for a 300-wide model
#    (κ to the digits shown, p, the ranks, the squeeze's counts), and a bad
#    path is a usage error;
#  - on a terminal `condnet cond` on a 1600-wide layer draws its progress,
#    and SIGINT stops it: status 130, nothing written, where it stopped
#    said; so do squeeze and alg1 on a 1201×1200 layer, interrupted, not
#    failed;
#  - the screen opened on a 1600-wide network draws at once and shows how
#    far κ is before its layer table, and Esc stops a squeeze proposal.
. "$(dirname "$0")/lib.sh"
C=$CONDNET
TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
cd "$TMP" || exit 1

## the two paths give the same tables
expect_ok "a 300-wide model trained one epoch" \
	"$C" cond --layers 300,280 --epochs 1 --no-squeeze --save m.model --quiet
for p in gsl lapack auto; do
	expect_ok "cond --cond-path $p" "$C" cond --load m.model --cond-path $p --markdown
	cp "$TMP/out" "cond-$p.txt"
done
check "gsl and lapack print the same tables" cmp cond-gsl.txt cond-lapack.txt
diff cond-gsl.txt cond-lapack.txt | sed 's/^/  | /'
check "auto is lapack's for a layer of 300" cmp cond-auto.txt cond-lapack.txt
expect_grep "the squeeze table is there" '^\| layer \| n before \| after ' cond-gsl.txt
expect_exit "a bad path is a usage error" 2 \
	"^condnet cond: --cond-path: unknown decomposition path 'fast' \(expected auto, gsl or lapack\)$" \
	"$C" cond --load m.model --cond-path fast
expect_exit "paper takes no path" 2 "unknown option '--cond-path'" \
	"$C" paper adult --cond-path gsl --out x

command -v tmux >/dev/null 2>&1 || { echo "tmux is missing: the terminal checks skipped"; finish; exit $?; }
. "$TESTS_DIR/tmux.sh"
# the commands run in $TMP, where their files are
SCREEN_PRELUDE="cd '$TMP'"

## condnet cond on a terminal: the progress line, then SIGINT
screen_run cond 120x20 cond --layers 1600,1600 --cond-path lapack --json big.json
see "cond draws its progress on a 1600-wide layer" \
	'^\[[#-]{20}\] (κ and pivoted QR of 3 layers|layer 2: .*)  [0-9]+ %  [0-9.]+ s' 60
pid=$(screen_pid)
check "cond runs as a process named condnet" [ -n "$pid" ]
kill -INT $pid
see "SIGINT stops it" 'condnet cond: interrupted; nothing written' 30
see "saying where" \
	'^condnet cond: (layer [123]: Ŵ: stopped during the decomposition of a [0-9]+×[0-9]+ matrix|stopped before layer [123])$' 5
see "with status 130" '^EXIT=130' 5
check "and no JSON written" [ ! -e big.json ]

## squeeze and alg1 on a 1201×1200 layer: SIGINT during its conditioning is
## an interruption, not a failure
python3 -c "
import random
random.seed(3)
with open('big.csv', 'w') as f:
    for i in range(60):
        f.write(','.join('%.3f' % random.gauss(0, 1) for _ in range(1200)) + ',%d\\n' % (i % 3))
"
expect_ok "a 1200-1200-3 model" "$C" train --data csv:big.csv --layers 1200 --epochs 0.05 \
	--save big.model --quiet
# interrupt NAME PATTERN MESSAGE STATUS: waits for PATTERN in the pane, sends
# SIGINT to its condnet, then waits for MESSAGE and the exit status.
interrupt() {
	see "$1 draws its progress" "$2" 60
	pid=$(screen_pid)
	[ -n "$pid" ] && kill -INT $pid
	see "$1: SIGINT stops it" "$3" 30
	see "$1: with status $4" "^EXIT=$4" 5
}
screen_run sq 120x20 squeeze --load big.model --data csv:big.csv --cond-path lapack --save sq.model
interrupt squeeze '^\[[#-]{20}\] layer 1: ' 'condnet squeeze: interrupted; nothing saved' 130
see "squeeze: saying where" '^condnet squeeze: layer 1: .*stopped' 5
check "squeeze saved nothing" [ ! -e sq.model ]
screen_run a1 120x20 alg1 --data csv:big.csv --layers 1200 --eta 0.05 --cond-path lapack --save a1.model
interrupt alg1 '^\[[#-]{20}\] κ of 2 layers' '^status: interrupted' 130
check "alg1 saved nothing" [ ! -e a1.model ]

## the screen on a 1600-wide network: drawn at once, κ's progress, then the
## table; Esc stops the squeeze's proposal for the 1601×1600 layer 2 (layer
## 1, 11×1600, is proposed first, at once, and refused)
screen_run tui 100x30 tui --layers 1600,1600 --cond-path lapack --log "'$TMP/big.log'"
see "the screen draws while it measures κ, and shows how far it is" \
	'[0-9]+%  κ and pivoted QR of 3 layers' 30
check "... before the layer table" sh -c "! grep -Eq '^ +i +n_i' '$TMP/screen'"
see "then the layer table" '^ +i +n_i' 120
see "and goes idle" ' idle *$' 60
keys z
see "the squeeze proposes layer 1" 'Layer 1: [0-9]+ neurons' 60
see "and measures its what-if accuracies" 'keeping [0-9]+ chosen by QR' 60
see "then waits for the decision" ' waiting: y / n for layer 1 *$' 60
keys n
see "layer 2's proposal shows its progress" '[0-9]+%  layer 2: (κ|pivoted QR|the κ loop)' 60
keys Escape
see "Esc stops it" 'squeeze stopped' 30
see "the screen is idle again" ' idle *$' 30
keys q
see "and quits" '^EXIT=0' 10
finish
