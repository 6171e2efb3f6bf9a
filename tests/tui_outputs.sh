#!/bin/sh
# tui_outputs.sh - the screen's outputs never hold it, and it ends when told
# to, in tmux on the synthetic set:
#  - a FIFO given at the save or the export prompt is refused at once (the
#    worker used to block in open: Esc did nothing, quit waited for ever and
#    SIGTERM, SIGINT and SIGHUP were absorbed); q still quits, and a FIFO in
#    the place of a plot image keeps gnuplot from running;
#  - a gnuplot that hangs (a stand-in ignoring SIGTERM) is ended by Esc, and
#    by SIGTERM to the screen, which exits 143;
#  - a save into a missing directory under a long path shows its reason on
#    the status line, and the whole message is in the L log;
#  - the screen's start says what is wrong: too few file descriptors, a
#    session log directory that cannot be made (and what to do), and
#    --log /dev/null keeps no log.
. "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null 2>&1 || { echo "tmux is missing: skipped"; exit 77; }
C=$CONDNET
export LC_ALL=C.UTF-8
SOCK="$TMP/tmux.sock"
T="tmux -S $SOCK"
# the screens started: ended at the end, even one stuck (a regression)
trap '$T kill-server 2>/dev/null; [ -s "$TMP/pids" ] && kill -9 $(cat "$TMP/pids") 2>/dev/null; rm -rf "$TMP"' EXIT
mkdir -p "$TMP/data" "$TMP/state" "$TMP/bin"
# a session open to the end: without it the server exits whenever a case's
# session is killed, and the next case's new-session can reach the server
# while it exits ("server exited unexpectedly")
$T new-session -d -s keep "sleep 600"

# run_script FILE PRELUDE ARGS...: a script that runs the screen with ARGS
# after the shell lines PRELUDE, then prints its exit status and waits.
run_script() {
	f=$1; pre=$2; shift 2
	cat >"$f" <<EOF
#!/bin/sh
export CONDNET_DATA='$TMP/data' OPENBLAS_NUM_THREADS=1 TERM=xterm-256color LC_ALL=C.UTF-8
export XDG_STATE_HOME='$TMP/state' PATH='$TMP/bin':\$PATH
$pre
'$C' $*
echo "EXIT=\$?"
sleep 600
EOF
	chmod +x "$f"
}
PANE=
screen() { $T capture-pane -p -t $PANE; }
keys() { $T send-keys -t $PANE "$@"; }
# wait_for PATTERN [SECONDS]: polls the screen until a line matches.
wait_for() {
	i=0; lim=$(( ${2:-10} * 20 ))
	while [ $i -lt $lim ]; do
		screen >"$TMP/screen" 2>/dev/null
		grep -Eq -- "$1" "$TMP/screen" && return 0
		sleep 0.05; i=$((i + 1))
	done
	return 1
}
see() {
	if wait_for "$2" "${3:-10}"; then pass "$1"; else
		fail "$1: '$2' not on the screen"; sed 's/^/  | /' "$TMP/screen"; fi
}
# the screen's process under the pane's shell (noted for the end)
screen_pid() {
	p=$(pgrep -x -P "$($T display -p -t $PANE '#{pane_pid}')" condnet)
	echo "$p" >>"$TMP/pids"
	echo "$p"
}

## FIFOs at the prompts: refused at once, the screen answers and quits
mkfifo "$TMP/fifo.model" "$TMP/fifo.csv"
run_script "$TMP/run.sh" "" --layers 8 --log "'$TMP/s.log'"
$T new-session -d -s out -x 400 -y 30 "$TMP/run.sh"
PANE=out
see "the screen opens" '^ +i +n_i'
screen_pid >/dev/null
keys w C-u "$TMP/fifo.model" Enter
see "a FIFO at the save prompt is refused" \
	"save refused: $TMP/fifo\.model: a FIFO, expected a regular file \(the screen writes only files\)"
keys e C-u "$TMP/fifo.csv" Enter
see "a FIFO at the export prompt is refused" \
	"export refused: $TMP/fifo\.csv: a FIFO, expected a regular file \(the screen writes only files\)"
keys +
see "the screen still answers keys" '^τ 31\.25 '
# a FIFO where gnuplot would draw an image: gnuplot is not run (it would wait)
mkfifo "$TMP/img-spectra.png"
keys e C-u "$TMP/img.csv" Enter
see "a FIFO in the place of a plot's image keeps gnuplot from running" \
	"gnuplot not run: img-spectra\.png is not a regular file"
check "the tables were exported" [ -s "$TMP/img.csv" ]
keys q
see "q quits" '^EXIT=0' 5
$T kill-session -t out

## a gnuplot that hangs (and ignores SIGTERM) is ended by Esc and by a signal
cat >"$TMP/bin/gnuplot" <<EOF
#!/bin/sh
trap '' TERM
echo \$\$ >>'$TMP/gnuplot.pids'
while :; do sleep 1; done
EOF
chmod +x "$TMP/bin/gnuplot"
$T new-session -d -s hang -x 200 -y 30 "$TMP/run.sh"
PANE=hang
see "the screen opens (gnuplot hangs here)" '^ +i +n_i'
screen_pid >/dev/null
keys e C-u "$TMP/h1.csv" Enter
i=0; while [ ! -s "$TMP/gnuplot.pids" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
check "gnuplot runs for the export" [ -s "$TMP/gnuplot.pids" ]
keys Escape
see "Esc ends the gnuplot that hangs" "exported the tables to $TMP/h1\.csv .*gnuplot stopped before it drew them"
g1=$(head -1 "$TMP/gnuplot.pids")
check "that gnuplot is gone" sh -c "! kill -0 $g1 2>/dev/null"
keys e C-u "$TMP/h2.csv" Enter
i=0; while [ "$(wc -l <"$TMP/gnuplot.pids")" -lt 2 ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
pid=$(screen_pid)
kill -TERM "$pid"
see "SIGTERM ends the screen while gnuplot hangs" '^EXIT=143' 10
g2=$(sed -n 2p "$TMP/gnuplot.pids")
check "and its gnuplot" sh -c "! kill -0 $g2 2>/dev/null"
$T kill-session -t hang
rm "$TMP/bin/gnuplot"

## a failed save under a long path: the reason shows, the L log has it whole
long="$TMP/$(printf 'a%.0s' $(seq 1 60))/$(printf 'b%.0s' $(seq 1 60))/missing/net.model"
run_script "$TMP/run80.sh" "" --layers 8 --log "'$TMP/s80.log'"
$T new-session -d -s narrow -x 80 -y 24 "$TMP/run80.sh"
PANE=narrow
see "an 80-column screen opens" '^ +i +n_i'
keys w C-u "$long" Enter
see "a save into a missing directory says why on the status line" 'does not exist$'
see "... with the path shortened from the left" '…'
keys L
see "the L log holds the failed save" 'save refused: '
keys Escape q
see "q quits" '^EXIT=0' 5
$T kill-session -t narrow

## the start: too few descriptors; the log's directory; --log /dev/null
run_script "$TMP/run-fd.sh" "ulimit -n 4" --layers 8 --log "'$TMP/fd.log'"
$T new-session -d -s fd -x 200 -y 30 "$TMP/run-fd.sh"
PANE=fd
see "too few file descriptors is said (not \"Error opening terminal\")" \
	'condnet: too few file descriptors for the screen: the limit \(ulimit -n 4\) leaves [0-9]+ free, and the screen needs 2'
see "... and the screen exits 1" '^EXIT=1' 5
$T kill-session -t fd
: >"$TMP/notadir"
run_script "$TMP/run-home.sh" "export HOME='$TMP/notadir'; unset XDG_STATE_HOME" --layers 8
$T new-session -d -s home -x 400 -y 30 "$TMP/run-home.sh"
PANE=home
see "a session log directory that cannot be made is named, with what to do" \
	"condnet: the session log's directory $TMP/notadir/\.local/state/condnet/ cannot be made \(give --log FILE for another place, or --log /dev/null to keep no log\): $TMP/notadir/\.local: cannot create the directory: Not a directory"
see "... and the screen exits 1" '^EXIT=1' 5
$T kill-session -t home
run_script "$TMP/run-null.sh" "export HOME='$TMP/notadir'; unset XDG_STATE_HOME" --layers 8 --log /dev/null
$T new-session -d -s null -x 200 -y 30 "$TMP/run-null.sh"
PANE=null
see "--log /dev/null: the screen opens without a log" '^ +i +n_i'
keys q
see "... and quits" '^EXIT=0' 5
check "... naming no log" sh -c "! grep -q 'session log:' '$TMP/screen'"
$T kill-session -t null
finish
