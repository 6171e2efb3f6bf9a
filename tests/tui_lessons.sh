#!/bin/sh
# tui_lessons.sh - the shipped lessons (MNIST's aside: it needs the data
# set and minutes) played in front of a class, at 80x24 and 200x60, plain
# and in presentation mode, screen by screen in the order → shows them
# (tests/lesson_screens.py reads them from the lesson file):
#  - each screen shows its caption whole (one that presentation mode folds,
#    whole after c);
#  - every number with a decimal point that its claims (#=) state is on the
#    screen outside the caption: the class can read it there, and so is
#    what its "#shows:" lines name (a chart's line τ, the marks !, ≈, ×);
#  - what a class reads is whole and true (tests/screen_check.py): no text
#    in the view cut, every chart's marks on rows whose range holds their
#    values (against the tables beside them);
#  - in presentation mode at least 80 % of the rows hold something;
#  - ← goes back through the very screens → showed (at 80x24 plain and
#    200x60 in presentation mode), the seconds a training took aside;
# the network lesson at full speed (its own, slower, is tests/tui_learn.sh's);
# the synthetic lessons played on keys to the end with the network `condnet
# replay` gives, stepped back, re-executed on the Haswell kernels, and played
# by themselves with --delay. The four lessons are small (the synthetic set
# and the spiral): their 128 screens take a few minutes. LESSONS="a b" plays
# only those; KEEP_SCREENS=DIR keeps every screen there, named
# LESSON-SIZE-MODE-KEY.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
SRC=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
C=$CONDNET

# the lesson's place in the header: "3" after three actions, "4p" with the
# fourth's proposal; empty while a step runs
place() {
	head -1 "$1" | sed -n 's/.*lesson: action \([0-9]*\) of [0-9]*\(, its proposal\)\{0,1\}$/\1\2/p' |
		sed 's/, its proposal/p/'
}
# the caption's rows (from row 4, plain, or 2, presentation mode, to a
# blank row or the narration's ↳) joined, and the screen without them
caption_of() {
	awk -v top="$2" 'NR < top { next } /^ *$/ || /^↳/ { exit }
		{ sub(/^▸ /, ""); sub(/^  /, ""); sub(/ +$/, ""); s = s (s == "" ? "" : " ") $0 }
		END { print s }' "$1"
}
without_caption() {
	awk -v top="$2" 'NR >= top && !done { if (/^ *$/ || /^↳/) done = 1; else next } { print }' "$1"
}
# step: → (or ←), then the settled screen of the next place, in $TMP/screen
step() {
	settled
	cp "$TMP/screen" "$TMP/before"
	keys "$1"
	si2=0
	while [ $si2 -lt 900 ]; do
		sleep 0.2
		settled
		if ! cmp -s "$TMP/screen" "$TMP/before" && [ -n "$(place "$TMP/screen")" ]; then
			return 0
		fi
		si2=$((si2 + 1))
	done
	return 1
}
masked() { sed -E 's/in [0-9.e+-]+ s( \([0-9.e+-]+ s\/epoch\))?/in T s/' "$1"; }
# settled: three captures 0.15 s apart agree (a large screen in colour,
# drawn whole even on a loaded machine), the last in $TMP/screen
settled() {
	sj=0 same=0
	screen >"$TMP/screen.a" 2>/dev/null
	while [ $sj -lt 100 ] && [ $same -lt 2 ]; do
		sleep 0.15
		screen >"$TMP/screen" 2>/dev/null
		if cmp -s "$TMP/screen" "$TMP/screen.a"; then same=$((same + 1)); else same=0; fi
		cp "$TMP/screen" "$TMP/screen.a"
		sj=$((sj + 1))
	done
}

PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
for lesson in ${LESSONS:-algorithm1 squeeze plane network}; do
	$PY "$SRC/tests/lesson_screens.py" "$SRC/data/lessons/$lesson.lesson" >"$TMP/$lesson.screens"
	nscreens=$(wc -l <"$TMP/$lesson.screens")
	for cfg in 80x24:plain 80x24:present 200x60:plain 200x60:present; do
		size=${cfg%%:*} mode=${cfg#*:} rows=${size#*x}
		top=4; [ "$mode" = present ] && top=2
		name="$lesson $size $mode"
		screen_run "l-$lesson-$size-$mode" "$size" --play "$lesson" \
			$([ "$mode" = present ] && echo --present) $([ "$lesson" = network ] && echo --speed full)
		wait_for 'lesson: action 0 of' 30 || { fail "$name: the lesson opens"; continue; }
		settled
		i=0 bad=0
		while IFS='	' read -r key want decimals shows; do
			i=$((i + 1))
			got=$(place "$TMP/screen")
			if [ "$got" != "$key" ]; then
				fail "$name: screen $i is $key, the header says '$got'"
				sed 's/^/  | /' "$TMP/screen"; bad=1; break
			fi
			masked "$TMP/screen" >"$TMP/f-$i"
			[ -n "${KEEP_SCREENS:-}" ] && cp "$TMP/screen" "$KEEP_SCREENS/$lesson-$size-$mode-$key"
			## what a class reads: nothing cut, every mark on a row that holds its value
			if ! $PY "$SRC/tests/screen_check.py" "$TMP/screen" "$mode" >"$TMP/check"; then
				fail "$name: screen $key:"
				sed 's/^/  | /' "$TMP/check" "$TMP/screen"; bad=1
			fi
			## the numbers the claims state, outside the caption
			without_caption "$TMP/screen" $top >"$TMP/rest"
			for v in $decimals; do
				[ "$v" = - ] && continue
				grep -qF -- "$v" "$TMP/rest" && continue
				fail "$name: screen $key: $v, which its caption claims, is not on it outside the caption"
				sed 's/^/  | /' "$TMP/screen"; bad=1
			done
			## what the caption names on the view
			echo "$shows" | tr ';' '\n' | while read -r v; do
				[ "$v" = - ] || grep -qF -- "$v" "$TMP/rest" ||
					echo "$v"
			done >"$TMP/missing"
			if [ -s "$TMP/missing" ]; then
				fail "$name: screen $key: $(tr '\n' ' ' <"$TMP/missing")named by its caption, is not on it outside the caption"
				sed 's/^/  | /' "$TMP/screen"; bad=1
			fi
			## presentation mode: the rows used
			if [ "$mode" = present ]; then
				used=$(grep -c '[^ ]' "$TMP/screen")
				[ $((used * 5)) -ge $((rows * 4)) ] || {
					fail "$name: screen $key uses $used of $rows rows"
					sed 's/^/  | /' "$TMP/screen"; bad=1; }
			fi
			## the caption whole (unfolded by c where presentation mode folds it)
			if grep -q 'c: the whole caption$' "$TMP/screen"; then
				keys c
				wait_for '^▸' 5 && settled
			fi
			shown=$(caption_of "$TMP/screen" $top)
			if [ "$shown" != "$want" ]; then
				fail "$name: screen $key's caption is not whole"
				echo "  | want: $want"; echo "  | got:  $shown"; bad=1
			fi
			if grep -q 'c: the whole caption$' "$TMP/f-$i"; then
				keys c
				settled
			fi
			[ $i -lt "$nscreens" ] || break
			step Right || { fail "$name: → after screen $key"; bad=1; break; }
		done <"$TMP/$lesson.screens"
		[ $bad -eq 0 ] && pass "$name: its $nscreens screens, each with its caption and numbers"
		## ← through the same screens
		if [ $bad -eq 0 ] && { [ "$cfg" = 80x24:plain ] || [ "$cfg" = 200x60:present ]; }; then
			k=$nscreens
			while [ $k -gt 1 ]; do
				k=$((k - 1))
				step Left || { fail "$name: ← to screen $k"; bad=1; break; }
				masked "$TMP/screen" >"$TMP/b-$k"
				if ! cmp -s "$TMP/f-$k" "$TMP/b-$k"; then
					fail "$name: ← shows screen $k otherwise than → did"
					diff "$TMP/f-$k" "$TMP/b-$k" | sed 's/^/  | /' | head -30; bad=1; break
				fi
			done
			[ $bad -eq 0 ] && pass "$name: ← shows each of its screens as → did"
		fi
		keys q
		$T kill-session -t "$PANE"
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


finish
