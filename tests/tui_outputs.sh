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
. "$(dirname "$0")/tmux.sh"
C=$CONDNET
mkdir -p "$TMP/bin"
# run NAME COLSxROWS PRELUDE ARGS...: the screen with ARGS in a new session
# NAME (screen_run), after the shell lines PRELUDE, with $TMP/bin first on
# PATH (the stand-ins).
run() {
	SCREEN_PRELUDE="PATH='$TMP/bin':\$PATH
$3"
	rn=$1 rs=$2; shift 3
	screen_run "$rn" "$rs" "$@"
	SCREEN_PRELUDE=
}

## FIFOs at the prompts: refused at once, the screen answers and quits
mkfifo "$TMP/fifo.model" "$TMP/fifo.csv"
run out 400x30 "" --layers 8 --log "'$TMP/s.log'"
see "the screen opens" '^ +i +n_i'
screen_pid note >/dev/null
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
$T new-session -d -s hang -x 200 -y 30 "$TMP/out.sh"
PANE=hang
see "the screen opens (gnuplot hangs here)" '^ +i +n_i'
screen_pid note >/dev/null
keys e C-u "$TMP/h1.csv" Enter
i=0; while [ ! -s "$TMP/gnuplot.pids" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
check "gnuplot runs for the export" [ -s "$TMP/gnuplot.pids" ]
keys Escape
see "Esc ends the gnuplot that hangs" "exported the tables to $TMP/h1\.csv .*gnuplot stopped before it drew them"
g1=$(head -1 "$TMP/gnuplot.pids")
check "that gnuplot is gone" sh -c "! kill -0 $g1 2>/dev/null"
keys e C-u "$TMP/h2.csv" Enter
i=0; while [ "$(wc -l <"$TMP/gnuplot.pids")" -lt 2 ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
pid=$(screen_pid note)
kill -TERM "$pid"
see "SIGTERM ends the screen while gnuplot hangs" '^EXIT=143' 10
g2=$(sed -n 2p "$TMP/gnuplot.pids")
check "and its gnuplot" sh -c "! kill -0 $g2 2>/dev/null"
$T kill-session -t hang
rm "$TMP/bin/gnuplot"

## a failed save under a long path: the reason shows, the L log has it whole
long="$TMP/$(printf 'a%.0s' $(seq 1 60))/$(printf 'b%.0s' $(seq 1 60))/missing/net.model"
run narrow 80x24 "" --layers 8 --log "'$TMP/s80.log'"
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
run fd 200x30 "ulimit -n 4" --layers 8 --log "'$TMP/fd.log'"
see "too few file descriptors is said (not \"Error opening terminal\")" \
	'condnet: too few file descriptors for the screen: the limit \(ulimit -n 4\) leaves [0-9]+ free, and the screen needs 2'
see "... and the screen exits 1" '^EXIT=1' 5
$T kill-session -t fd
: >"$TMP/notadir"
run home 400x30 "export HOME='$TMP/notadir'; unset XDG_STATE_HOME" --layers 8
see "a session log directory that cannot be made is named, with what to do" \
	"condnet: the session log's directory $TMP/notadir/\.local/state/condnet/ cannot be made \(give --log FILE for another place, or --log /dev/null to keep no log\): $TMP/notadir/\.local: cannot create the directory: Not a directory"
see "... and the screen exits 1" '^EXIT=1' 5
$T kill-session -t home
run null 200x30 "export HOME='$TMP/notadir'; unset XDG_STATE_HOME" --layers 8 --log /dev/null
see "--log /dev/null: the screen opens without a log" '^ +i +n_i'
keys q
see "... and quits" '^EXIT=0' 5
check "... naming no log" sh -c "! grep -q 'session log:' '$TMP/screen'"
$T kill-session -t null

## a locale of decimal commas: τ typed as 12,5 is read, and logged as 12.5
mkdir -p "$TMP/loc"
if command -v localedef >/dev/null && [ -d /usr/share/i18n/locales ] &&
	localedef -i de_DE -f UTF-8 "$TMP/loc/de_DE.UTF-8" >/dev/null 2>&1; then
	run de 200x30 "export LOCPATH='$TMP/loc' LC_ALL=de_DE.UTF-8" --layers 8 --log "'$TMP/de.log'"
	see "the screen opens under a locale of decimal commas" '^ +i +n_i'
	keys T
	see "T asks for tau" 'τ = '
	keys C-u "12,5" Enter
	see "tau typed as 12,5 is 12.5" '^τ 12\.5  '
	keys q
	see "... and quits" '^EXIT=0' 5
	expect_grep "the log holds tau 12.5 (the C locale's number)" '^tau 12\.5$' "$TMP/de.log"
	expect_ok "and replays" "$C" replay "$TMP/de.log"
	$T kill-session -t de
else
	echo "no de_DE locale can be made here (localedef, /usr/share/i18n): the locale case is skipped"
fi
finish
