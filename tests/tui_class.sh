#!/bin/sh
# tui_class.sh - the screen in front of a class, driven through tmux on the
# synthetic set:
#  - presentation mode (P, --present) gives the view the whole height at
#    80x24 and 200x60, and P or Esc leaves it; a tall screen fills the layer
#    view with the selected layer's spectrum and kappa's history;
#  - lessons present themselves: each action shows its view, a squeeze's
#    proposal shows view 4 with the lesson's compensation and no y/n keys,
#    two quick left arrows go back two screens (every caption and ←:
#    tui_lessons.sh);
#  - keys do nothing but q while the terminal is too small;
#  - no stale figure: each of the ten seen in front of a class;
#  - charts: the threshold line hides no point, a squeeze's removed neurons
#    beyond the rank are drawn, more than nine layers get a highlighted
#    layer, the sweep frames the data near its least criterion and breaks
#    its axis for the far ones.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
C=$CONDNET
SRC=$(cd "$(dirname "$0")/.." && pwd)

# idle: the header's state is idle, or a lesson's place (nothing runs).
idle() { wait_for ' (idle|lesson: action [0-9]+ of [0-9]+(, its proposal)?|waiting: y / n for layer [0-9]+)$' "${1:-30}"; }
no() { # no NAME PATTERN: the settled screen does not show PATTERN
	settle
	if grep -Eq -- "$2" "$TMP/screen"; then fail "$1: '$2' on the screen"
		sed 's/^/  | /' "$TMP/screen"; else pass "$1"; fi
}
rows_used() { grep -c '[^ ]' "$TMP/screen"; }

## presentation mode at 80x24: --present gives the view the whole height
screen_run p1 80x24 --layers 24,16 --seed 7 --present --log "'$TMP/p1.log'"
see "--present opens with one title row" '^ 1 Layers  τ 25  η 10  net 10-24-16-3'
settle
check "no tabs, no key row, no status rows" sh -c "! grep -Eq '\\[1 Layers\\]|\\?:help|^test acc|queued' '$TMP/screen'"
check "the view reaches the last row" [ -n "$(tail -1 "$TMP/screen" | tr -d ' ')" ]
keys 6
see "view 6 in presentation mode" '^ 6 History '
keys T 3
see "the τ prompt shows on the bottom row" '^τ = 3_' 5
keys Enter r
idle 60
keys 6
settle
plot=$(grep -c '[┤│]' "$TMP/screen")
check "the κ chart takes the height: $plot of 24 rows" [ "$plot" -ge 15 ]
keys P
see "P leaves presentation mode" '^ 1 Layers +2 Algorithm 1 +3 Sweep .*\[6 History\]'
settle
plot2=$(grep -c '[┤│]' "$TMP/screen")
check "the chart is 3 rows shorter outside it or more ($plot2, $plot rows)" [ "$plot2" -le $((plot - 3)) ]
keys P
see "P enters it again" '^ 6 History '
keys Escape
see "Esc leaves it" '\[6 History\]'

## the history's τ line is the τ each iteration ran with (3), not today's (100)
keys T C-u 100 Enter 6
see "τ is 100 now" '^τ 100  '
settle
check "the line labelled τ lies between 1 and 10, where 3 is" awk '
	/^ +10┤/ && !t10 { t10 = NR } /^ +τ┤/ && !tt { tt = NR } /^ +1┤/ && !t1 { t1 = NR }
	END { exit !(t10 && tt && t1 && t10 < tt && tt < t1) }' "$TMP/screen"
## x axes label their iterations
check "the iterations are numbered under the chart" grep -Eq '^ +it +0 +1 +2 ' "$TMP/screen"

## keys do nothing but q while the terminal is too small
$T resize-window -t p1 -x 60 -y 15
see "60x15 asks to enlarge, q the one key" 'enlarge the terminal'
keys s u r t
sleep 0.5
$T resize-window -t p1 -x 80 -y 24
see "80x24 again" '^τ 100  '
settle
check "s, u, r and t did nothing meanwhile" grep -q ' idle$' "$TMP/screen"
check "nothing was logged meanwhile" [ "$(grep -c '^alg1\|^undo\|^train' "$TMP/p1.log")" -eq 1 ]
$T resize-window -t p1 -x 60 -y 15
see "60x15 again" '^ *q quits *$'
keys q
see "q with unsaved work asks on the small screen itself" 'unsaved work .*: y quits anyway'
keys n
see "another key takes the question back" '^ *q quits *$'
keys q y
see "q y quits" '^EXIT=0' 5
$T kill-session -t p1

## 200x60: the layer view fills the screen; --present keeps every chart
screen_run p2 200x60 --layers 24,16 --seed 7 --eta 10 --log "'$TMP/p2.log'"
see "200x60 opens" '^ +i +n_i'
keys s
idle 60
keys 1
see "the layer view shows the selected layer's spectrum below the table" '^layer 1: σ_j/σ₁ \(log\)'
see "beside κ's history" 'κ\(Ŵ⁽ⁱ⁾\) per Algorithm-1 iteration'
settle
check "the screen is used: $(rows_used) of 60 rows" [ "$(rows_used)" -ge 40 ]
keys P 6
see "presentation mode at 200x60 shows the iterations' charts" 'κ\(Ŵ⁽ⁱ⁾\) per Algorithm-1 iteration'
settle
check "with κ against epochs" grep -q 'κ(Ŵ⁽ⁱ⁾) against epochs' "$TMP/screen"
check "the validation curve, with nothing to show, gives its rows to them" \
	sh -c "! grep -q 'No t training yet' '$TMP/screen'"
check "and the view fills the screen: $(rows_used) of 60 rows" [ "$(rows_used)" -ge 48 ]
## a training after Algorithm 1: the layer view charts the network shown,
## κ against that training's epochs, not Algorithm 1's iterations
keys Escape t C-u 2 Enter
idle 60
keys 1
see "after a training the layer view charts κ against its epochs" 'κ\(Ŵ⁽ⁱ⁾\) against epochs: training'
check "not Algorithm 1's iterations" sh -c "! grep -q 'per Algorithm-1 iteration' '$TMP/screen'"
keys q y
see "the second screen quits" '^EXIT=0' 5
$T kill-session -t p2

## the threshold line hides no point; the removed neurons beyond the rank
## are drawn (a fresh 4x32 network at τ 10: layer 1 keeps 10 of 32)
screen_run p3 200x60 --tau 10 --log "'$TMP/p3.log'"
see "a fresh 4x32 network" '^τ 10  η 10  net 10-32×4-3'
keys 5
see "the spectrum view" '^Layer 1 of 5'
settle
# GLYPHS of the left chart (1) or the right one (2): the plot rows between
# their axes
left() { sed -n 's/^[^┤│]*[┤│]\([^┤│]*\)[┤│].*/\1/p' "$TMP/screen"; }
right() { sed -n 's/^[^┤│]*[┤│][^┤│]*[┤│]//p' "$TMP/screen"; }
count() { grep -o "$1" | wc -l; }
nsv=$(sed -n 's/.*: [0-9]* neurons, Ŵ⁽ⁱ⁾ \([0-9]*\)×\([0-9]*\),.*/\1 \2/p' "$TMP/screen" | awk '{ print $1 < $2 ? $1 : $2 }')
got=$(left | count '[•×]')
check "every σ_j of layer 1 is drawn over the 1/τ line: $got of $nsv" [ "$got" -eq "$nsv" ]
keys z
see "a squeeze proposes layer 1" 'Layer 1: 32 neurons, decision κ'
see "remove 22 of them" 'the κ loop keeps 10: remove 22'
see "the what-if is measured" 'keeping 10 chosen by QR' 30
settle
got=$(right | count '×')
check "its profile draws the 22 removed neurons (×): $got" [ "$got" -eq 22 ]
got=$(right | count '•')
check "and the 10 kept (•): $got" [ "$got" -eq 10 ]
check "the title says where those beyond the rank are" grep -q '21 beyond the rank 11, at the bottom' "$TMP/screen"
check "the 1/τ label sits in the margin" grep -Eq '^ *1/τ┤' "$TMP/screen"

## stale figure 8: a squeeze decision waits, the header does not say idle
check "the header says a decision waits" grep -Eq 'waiting: y / n for layer 1$' "$TMP/screen"
## stale figure 6: an old message does not come back after Esc at a prompt
keys Escape
see "Esc ends the pass" 'squeeze stopped'
keys w
see "w asks" 'save to'
keys Escape
no "after Esc at the save prompt the old message is gone" '^squeeze stopped'
## stale figure 2: Algorithm 1's message goes when a squeeze changes the network
keys s
see "a step" '^Algorithm 1, iteration 0: ' 60
idle 60
keys z
see "a proposal" 'Layer [0-9]+: [0-9]+ neurons, decision' 30
idle 30
keys y
idle 30
no "after the squeeze no 'Algorithm 1, iteration' status is left" '^Algorithm 1, iteration 0: '
## stale figure 1: a finished sweep's pick is not shown while a new one runs
keys Escape
see "the pass ends" ' idle$' 30
keys b C-u 1.2:1.4:0.2 Enter C-u 1 Enter
see "a sweep finishes" 'β sweep finished: pick β = ' 60
idle 30
keys E C-u 100000 Enter b C-u 1.2:1.4:0.2 Enter C-u 1 Enter
see "a second sweep runs" 'trial 1 of 2' 10
no "while it runs, no pick is shown" 'pick beta =|finished, pick'
keys Escape
see "Esc stops it" 'cancelled: β sweep' 10
idle 30
## stale figure 7: ] then [ leave nothing queued
keys t C-u 100000 Enter
see "a long training runs" 'training 100000 epochs'
keys ']' '['
no "] then [ leave nothing queued" 'queued [1-9]|η 100000→'
check "the header shows η with nothing pending" grep -q '^τ 10  η 100000  ' "$TMP/screen"
keys Escape
see "the training is cancelled" 'cancelled: training'
keys q y
see "the third screen quits" '^EXIT=0' 5
$T kill-session -t p3

## stale figure 9: a τ change made during a step leaves the step's narration
## (the step paused as it is queued, so that τ changes while it runs)
screen_run p4 100x30 --layers 24,16 --eta 300 --log "'$TMP/p4.log'"
see "opens" '^ +i +n_i'
keys s ' ' -
see "the step is paused" 'paused' 10
see "τ waits for the step" 'τ 25→20' 5
keys ' '
see "the step ends and τ applies" '^τ 20  ' 120
settle
check "the narration row is the step's, not τ's" grep -q '^▸ Algorithm 1' "$TMP/screen"
keys L
see "the log has τ's narration too" '^▸ τ = 20: p_i now counts'
keys Escape q y
$T kill-session -t p4

## stale figure 5: the header's seed is the one asked for with --load
"$C" train --layers 8 --epochs 1 --seed 1 --save "$TMP/syn.model" --quiet >/dev/null 2>&1
screen_run p5 100x30 --load "'$TMP/syn.model'" --seed 7 --log "'$TMP/p5.log'"
see "--load with --seed 7: the header says seed 7" '  seed 7  '
expect_grep "and the log carries it" "^load path=.* seed=7$" "$TMP/p5.log"
keys q
$T kill-session -t p5

## lessons (every caption, its numbers and ← at both sizes: tui_lessons.sh)
# next: the right arrow, then wait until the screen has changed and is idle
# again (every step shows something new: its view, its result, a proposal)
next() {
	settle
	cp "$TMP/screen" "$TMP/before"
	keys Right
	ni=0
	while [ $ni -lt 600 ]; do
		sleep 0.2
		settle
		if ! cmp -s "$TMP/screen" "$TMP/before" &&
			head -1 "$TMP/screen" | grep -Eq 'lesson: action [0-9]+ of [0-9]+(, its proposal)?$'; then
			return 0
		fi
		ni=$((ni + 1))
	done
	return 1
}
## the squeeze lesson at its end: two quick left arrows go back two
## screens, the last squeeze's result and then its proposal
screen_run l-sq2 80x24 --play squeeze --delay 0.05 --present
see "the squeeze lesson plays to its end" 'lesson: action 6 of 6, playing$' 60
keys ' '
see "and pauses" 'lesson: action 6 of 6, paused$' 10
keys Left Left
see "two quick left arrows go back two screens" 'lesson: action 5 of 6, its proposal' 60
keys q
$T kill-session -t l-sq2

## a lesson's squeeze: view 4, the lesson's compensation, no y/n keys
# step_until PATTERN: right arrow until the settled screen shows PATTERN
step_until() {
	ui=0
	while [ $ui -lt 30 ]; do
		settle
		grep -Eq -- "$1" "$TMP/screen" && return 0
		next || return 1
		ui=$((ui + 1))
	done
	return 1
}
screen_run l-sq 80x24 --play squeeze
see "the lesson opens" 'lesson: action 0 of 6'
if step_until '^Layer 4: 32 neurons, decision'; then pass "the third proposal shows in view 4"; else
	fail "the third proposal shows in view 4"; sed 's/^/  | /' "$TMP/screen"; fi
check "the tab is view 4" grep -q '\[4 Squeeze\]' "$TMP/screen"
check "the view says what the lesson will do, with compensation" \
	grep -q '^the lesson will apply layer 4.s proposal with compensation: right arrow' "$TMP/screen"
check "no y/n keys for it" sh -c "! grep -q 'y apply  n refuse' '$TMP/screen'"
## stale figure 3: a training's account goes when the lesson steps back before it
step_until 'lesson: action 6 of 6$'
see "the lesson retrains" 'lesson: action 6 of 6$' 60
see "the last training is shown" 'last training: 2.00 epochs'
keys Left
see "one back" 'lesson: action 5 of 6$' 60
no "the training stepped back over is not shown" 'last training: 2.00 epochs'
keys q
$T kill-session -t l-sq

## at 80x24 with a caption of six rows, Algorithm 1's table keeps a row for
## every hidden layer (the summary rows give way first); the lesson's first
## narration names its file, not the directory it is in
screen_run l-a1n 80x24 --play algorithm1
see "the algorithm1 lesson opens" 'lesson: action 0 of 6'
see "its narration names the lesson's file" '^▸ lesson algorithm1.lesson: 6 actions'
step_until 'lesson: action 3 of 6$'
settle
check "after the run every hidden layer's row is there (27, 23 and 20 at the last iteration)" \
	sh -c "grep -Eq '^ +2 .* 27 *\$' '$TMP/screen' && grep -Eq '^ +3 .* 23 *\$' '$TMP/screen' &&
		grep -Eq '^ +4 .* 20 *\$' '$TMP/screen'"
check "with the test accuracy" grep -Eq '^test acc %.* 99\.50 *$' "$TMP/screen"
keys q
$T kill-session -t l-a1n

## more than nine layers: the κ chart highlights one, named in its key
screen_run p13 80x24 --layers 12x8 --present --log "'$TMP/p13.log'"
see "a network of 13 layers" 'net 10-8×12-3'
keys s
idle 60
keys 6
see "the κ chart's key names the highlighted layer" '● layer 1 of 13 \(↑↓ another\), the others dim'
keys Down
see "Down highlights the next" '● layer 2 of 13 '
keys q y
$T kill-session -t p13

## stale figure 4: once the lesson has adopted the pick, no hint offers it;
## and at 80x24 in presentation mode the sweep shows the criterion rise
## beyond the pick, as the caption says (ASCII: one byte a column)
screen_run l-a1 80x24 --play algorithm1 --delay 0.05 --present --ascii
see "the algorithm1 lesson plays to its end" 'lesson: action 6 of 6, playing$' 120
keys 3
see "the sweep view" 'Algorithm 2, q = 5'
settle
check "says the network has the pick's widths" grep -q "the network has the pick's widths 10-26-22-18-16-3" "$TMP/screen"
check "and offers no adoption" sh -c "! grep -q 'A adopts' '$TMP/screen'"
# every point on the chart: no mark off its scale, the underfit betas above
# the broken axis (ASCII ~), the criterion beyond the pick above it
check "no point is off the chart's scale" sh -c "! grep -q 'off the scale' '$TMP/screen'"
check "the axis is broken for the underfit betas" grep -q '^ *~ ' "$TMP/screen"
# the plot's rows: the y axis in column 8, the table from column 44 on
rise=$(awk 'substr($0, 8, 1) ~ /[|+~]/ {
		p = substr($0, 9, 35); n++
		if ((c = index(p, "*")) > 0) pick = n
		for (k = length(p); k > 0; k--) if (substr(p, k, 1) == "s") break
		if (k > last) { last = k; right = n }
	} END { print pick - right }' "$TMP/screen")
check "the criterion rises $rise rows from the pick to the last beta (at least 1)" [ "${rise:-0}" -ge 1 ]
keys q
finish
