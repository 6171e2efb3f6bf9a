# tmux.sh - the driver of the screen tests: condnet on a terminal of tmux,
# its screen read with capture-pane and keys typed with send-keys. Source it
# after lib.sh (it uses $TMP, $CONDNET, pass and fail); a test is skipped
# (exit 77) where tmux is missing.
#
# It starts a tmux server of the test's own (its socket in $TMP, no user
# configuration) holding one session open to the end, ends that server, the
# screens in it and those noted by screen_pid when the test exits, and makes
# $TMP/data and $TMP/state (the data sets and the session logs the screens
# see). A screen runs from a script (screen_script, screen_run); PANE names
# the session the functions below read and type into.
command -v tmux >/dev/null 2>&1 || { echo "tmux is missing: skipped"; exit 77; }
# the screen's symbols need a UTF-8 locale (without one it draws ASCII)
export LC_ALL=C.UTF-8
SOCK="$TMP/tmux.sock"
T="tmux -S $SOCK"
# the server, and with it every screen, ended at the end; a screen noted by
# screen_pid note too, even one stuck (a regression)
trap '$T kill-server 2>/dev/null; [ -s "$TMP/pids" ] && kill -9 $(cat "$TMP/pids") 2>/dev/null; rm -rf "$TMP"' EXIT
# a session open to the end: without it the server exits whenever a case's
# session is killed, and the next case's new-session can reach the server
# while it exits ("server exited unexpectedly")
$T -f /dev/null new-session -d -s keep "sleep 3600"
mkdir -p "$TMP/data" "$TMP/state"
PANE=

# screen_script FILE ARGS...: a script that runs condnet with ARGS (words of
# a shell line: a path with spaces quoted as "'$path'") on a colour terminal
# (SCREEN_TERM, default xterm-256color) with the data and state of $TMP and
# one thread, after the shell lines SCREEN_PRELUDE, then prints its exit
# status and waits, so that the pane stays.
screen_script() {
	sf=$1; shift
	cat >"$sf" <<EOF
#!/bin/sh
export CONDNET_DATA='$TMP/data' OPENBLAS_NUM_THREADS=1 TERM=${SCREEN_TERM:-xterm-256color} LC_ALL=C.UTF-8
export XDG_STATE_HOME='$TMP/state'
unset NO_COLOR
${SCREEN_PRELUDE:-}
'$CONDNET' $*
echo "EXIT=\$?"
sleep 600
EOF
	chmod +x "$sf"
}
# screen_run NAME COLSxROWS ARGS...: condnet ARGS (screen_script
# $TMP/NAME.sh) in a new session NAME of that size, which becomes PANE.
screen_run() {
	sn=$1 ssize=$2; shift 2
	screen_script "$TMP/$sn.sh" "$@"
	$T new-session -d -s "$sn" -x "${ssize%x*}" -y "${ssize#*x}" "$TMP/$sn.sh"
	PANE=$sn
}
screen() { $T capture-pane -p -t "$PANE"; }
keys() { $T send-keys -t "$PANE" "$@"; }
# wait_for PATTERN [SECONDS]: polls the screen until a line matches (the
# last capture in $TMP/screen); 1 when none did in time (default 10 s).
wait_for() {
	wi=0; wlim=$(( ${2:-10} * 20 ))
	while [ $wi -lt $wlim ]; do
		screen >"$TMP/screen" 2>/dev/null
		grep -Eq -- "$1" "$TMP/screen" && return 0
		sleep 0.05; wi=$((wi + 1))
	done
	return 1
}
# see NAME PATTERN [SECONDS]: the screen shows PATTERN in time (a pass),
# else a failure with the screen last seen.
see() {
	if wait_for "$2" "${3:-10}"; then pass "$1"; return 0; fi
	fail "$1: '$2' not on the screen"; sed 's/^/  | /' "$TMP/screen"; return 1
}
# settle: waits until two captures 0.1 s apart agree (a screen drawn whole,
# not caught halfway under load), leaving the last in $TMP/screen.
settle() {
	si=0
	screen >"$TMP/screen.a" 2>/dev/null
	while [ $si -lt 50 ]; do
		sleep 0.1
		screen >"$TMP/screen" 2>/dev/null
		cmp -s "$TMP/screen" "$TMP/screen.a" && return 0
		cp "$TMP/screen" "$TMP/screen.a"
		si=$((si + 1))
	done
}
# screen_pid [note]: the condnet process under PANE's shell; with note, it
# is also noted to be ended at the end (a screen that may be stuck).
screen_pid() {
	sp=$(pgrep -x -P "$($T display -p -t "$PANE" '#{pane_pid}')" condnet)
	[ "${1:-}" = note ] && echo "$sp" >>"$TMP/pids"
	echo "$sp"
}
# table: the layer table on the screen as "i n kappa p" lines (kappa inf for ∞).
table() { screen | sed -n 's/^[!r ][!r ] *\([0-9][0-9]*\)\*\{0,1\} *\([0-9][0-9]*\)  *\([0-9.e+∞-]*\)\( b=0\)\{0,1\}  *\([0-9][0-9]*\) .*/\1 \2 \3 \5/p' | sed 's/∞/inf/'; }
