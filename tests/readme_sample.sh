#!/bin/sh
# readme_sample.sh - the screen sample of README.md, taken from the screen:
# `condnet tui` at 80x24 in tmux on the synthetic set, the network
# 10-32-27-23-20-3 trained 20 epochs and squeezed at tau 10 (the first
# proposal, with its what-if lines), recorded with --log so that it computes
# in the reproducible mode (the same numbers on every x86-64 CPU with AVX2
# and FMA).
#
#   tests/readme_sample.sh                  print the screen
#   tests/readme_sample.sh --update FILE    write it into FILE's block (the
#                                           ``` block after the line
#                                           <!-- screen sample: tests/readme_sample.sh -->)
#   tests/readme_sample.sh --command        print the command line the sample
#                                           is taken with (README.md gives it,
#                                           with the keys: tests/docs.sh checks)
#
# CONDNET names the binary (default ./condnet, else condnet on PATH). After
# a change to the screen, run it with --update README.md from the build
# directory (CONDNET=$PWD/condnet ../tests/readme_sample.sh --update
# ../README.md); tests/docs.sh compares README's block with the screen, the
# duration of the training aside. Exits 77 without tmux (tests/tmux.sh).
set -u
MARK='<!-- screen sample: tests/readme_sample.sh -->'
# the command line of the sample (keys: t, 20 Enter, z), as README.md gives it
ARGS='--data synthetic --layers 32,27,23,20 --tau 10 --eta 20 --log squeeze.log'
update=
case ${1:-} in
--command) echo "condnet $ARGS"; exit 0 ;;
--update) [ $# -eq 2 ] || { echo "usage: $0 [--update FILE]" >&2; exit 2; }; update=$2 ;;
'') ;;
*) echo "usage: $0 [--update FILE | --command]" >&2; exit 2 ;;
esac
if [ -z "${CONDNET:-}" ]; then
	if [ -x ./condnet ]; then CONDNET=$(pwd)/condnet; else CONDNET=$(command -v condnet || true); fi
fi
[ -x "${CONDNET:-}" ] || { echo "readme_sample.sh: set CONDNET to the condnet binary" >&2; exit 1; }

# the screen drivers of the tests (tmux.sh), on a directory of its own
TMP=$(mktemp -d "${TMPDIR:-/tmp}/condnet-sample-XXXXXX")
. "$(dirname "$0")/tmux.sh"
# the log is named relatively, so that the status line shows the same name
# wherever this runs
SCREEN_PRELUDE="cd '$TMP' || exit 1"
screen_script "$TMP/run.sh" $ARGS
PANE=sample
# shows PATTERN [SECONDS]: the screen shows PATTERN in time, or the run
# ends with the screen last seen
shows() {
	wait_for "$1" "${2:-30}" && return 0
	echo "readme_sample.sh: the screen never showed '$1':" >&2
	sed 's/^/  | /' "$TMP/screen" >&2
	exit 1
}

$T new-session -d -s sample -x 80 -y 24 "$TMP/run.sh" \; set-option -g status off
size=$($T display -p -t sample '#{pane_width}x#{pane_height}')
[ "$size" = 80x24 ] || { echo "readme_sample.sh: the pane is $size, not 80x24" >&2; exit 1; }
shows '^\?:help '
keys t
shows '^train epochs'
keys C-u 20 Enter
shows '^trained 20 epochs: test accuracy'
keys z
shows '^  and compensated: by QR [0-9.]+%, by norm [0-9.]+%, at random [0-9.]+%±'
settle
sed 's/[[:space:]]*$//' "$TMP/screen" >"$TMP/sample"
[ "$(wc -l <"$TMP/sample")" -eq 24 ] || { echo "readme_sample.sh: not 24 lines" >&2; exit 1; }
keys Escape q y
if [ -z "$update" ]; then
	cat "$TMP/sample"
	exit 0
fi
# the block after the marker, replaced; nothing else of FILE changes
grep -qxF "$MARK" "$update" || { echo "readme_sample.sh: $update has no line '$MARK'" >&2; exit 1; }
awk -v mark="$MARK" -v sample="$TMP/sample" '
	$0 == mark { print; state = 1; next }
	state == 1 && /^```/ { print; while ((getline l < sample) > 0) print l; state = 2; next }
	state == 2 && /^```/ { print; state = 0; next }
	state == 2 { next }
	{ print }
	END { if (state != 0) exit 1 }' "$update" >"$TMP/new" ||
	{ echo "readme_sample.sh: no whole code block after the marker in $update" >&2; exit 1; }
cat "$TMP/new" >"$update"
echo "readme_sample.sh: wrote the screen into $update"
