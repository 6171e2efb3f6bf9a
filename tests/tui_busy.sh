#!/bin/sh
# tui_busy.sh - the screen of the real binary busy and ending, driven
# through tmux on the synthetic set:
#  - with NO_COLOR no colours; kappa changes while an Algorithm-1 step
#    trains, operations are refused while busy, tau waits, space pauses, Esc
#    stops within a second and Ctrl-C ends it;
#  - at 80x24 with --tau 30 --eta 2 the header holds both and a status never
#    overwrites it, and the Algorithm-1 history scrolls back to iteration 0;
#  - SIGTERM, SIGHUP, SIGINT and SIGQUIT end the screen within a second while
#    a 6x400 network trains, and restore the terminal;
#  - the learning-rate schedule and early stopping set from the screen, the
#    rate shown live, the squeeze preview of a known pivoted-QR profile;
#  - a session log is one screen's, a line that cannot be written is said
#    and ends the screen, the end of the terminal's input quits, and the
#    session log directory keeps the newest 50 logs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
C=$CONDNET
LAYERS=24,16
SEED=7
LOG="$TMP/session.log"
screen_script "$TMP/run.sh" --layers $LAYERS --seed $SEED --log "'$LOG'"

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
see "the first screen is idle" ' idle *$' 30
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
# the line can fail while the opening's computation still runs, and q then
# asks whether to quit anyway: q once the screen is idle
see "the screen goes idle" ' idle *$' 30
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
see "and goes idle" ' idle *$' 30
keys q
see "and logs to the default directory" "^session log: $TMP/state/condnet/session-[0-9]{8}-[0-9]{6}\.log" 5
check "the log directory keeps 50 logs" [ "$(ls "$TMP/state/condnet" | grep -c '^session-.*\.log$')" -eq 50 ]
check "the oldest went" [ ! -e "$TMP/state/condnet/session-20000101-000010.log" ]
check "the newest old one stayed" [ -e "$TMP/state/condnet/session-20000101-000069.log" ]
finish
