#!/bin/sh
# tui_speed.sh - the speed of the screen's trainings is held to one range,
# from one epoch a day to 100000 epochs a second (or full), however it
# comes: --speed, a lesson's "#speed:" line (with --play, and a lesson that
# refuses to load names its line), the speed keys; at the slowest speed the
# screen waits between epochs without spending a core (its CPU time over
# two seconds of waiting, not the wall clock), and Esc still stops the
# training at once.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
C=$CONDNET
cd "$TMP" || exit 1

## --speed
for s in 1e-30 0.00001 0 -1 1e6 inf nan fast "1 2"; do
	expect_exit "--speed '$s' is refused" 2 \
		"^condnet tui: --speed: '$s' is not a speed: expected epochs a second, from one a day \(1/86400\) to 100000, or full$" \
		"$C" tui --data spiral --speed "$s" --dry-run
done
expect_ok "--speed of one epoch a day is the slowest taken" "$C" tui --data spiral --speed 0.0000116 --dry-run
expect_ok "--speed full" "$C" tui --data spiral --speed full --dry-run

## a lesson's #speed: line
cat >ok.lesson <<'L'
data spec=spiral features=0 label_col=-1 seed=1 limit=0 val_frac=0 val_per_class=0
net layers=4 act=erf act_a=1 seed=1
#speed: 0.0000116
train 300
L
for s in 1e-30 0 1e9 nan; do
	sed "s/^#speed: .*/#speed: $s/" ok.lesson >bad.lesson
	expect_exit "a lesson's '#speed: $s' is refused" 1 \
		"^condnet tui: .*bad\.lesson:3: #speed: '$s' is not a speed: expected epochs a second, from one a day \(1/86400\) to 100000, or full$" \
		"$C" tui --play bad.lesson
done

# cpu PID: the process's CPU time so far, in clock ticks (utime + stime)
cpu() { sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
HZ=$(getconf CLK_TCK 2>/dev/null || echo 100)

## the slowest speed, from the lesson: the wait of a day spends no core
screen_run lesson 100x30 --play "'$TMP/ok.lesson'"
see "the lesson opens" 'lesson ok\.lesson'
keys Right
see "its training waits after its first epoch" 'epoch 1\.00 \[' 30
keys 7
see "at the lesson's speed, one epoch a day" 'at epoch 1 of 300, live: 1\.16e-05 epochs/s' 30
pid=$(screen_pid note)
sleep 0.5
a=$(cpu "$pid"); sleep 2; b=$(cpu "$pid")
check "waiting for the next epoch spends no core ($((b - a)) ticks of $((2 * HZ)) in 2 s)" \
	[ $((b - a)) -lt $((HZ / 2)) ]
keys '{'
sleep 0.5
see "{ keeps the slowest speed" 'at epoch 1 of 300, live: 1\.16e-05 epochs/s'
keys Escape
see "Esc stops the training during the wait" 'stopped|cancelled' 10
keys q
see "and the screen quits" 'EXIT=0' 10

## the speed keys, from the slowest to full speed and back, stay in range
screen_run keys 100x30 --data spiral --layers 8 --speed 0.0000116 --log /dev/null
see "the screen opens at the slowest speed" 'Decision regions of 2-8-3'
keys '}'
see "} goes to one epoch a second" 'training speed: 1 epoch/s'
i=0
while [ $i -lt 12 ]; do keys '}'; i=$((i + 1)); done
see "} ends at full speed" 'training speed: full speed'
i=0
while [ $i -lt 12 ]; do keys '{'; i=$((i + 1)); done
see "{ ends at one epoch a second" 'training speed: 1 epoch/s, the slowest'
keys q
see "the screen quits" 'EXIT=0' 10
finish
