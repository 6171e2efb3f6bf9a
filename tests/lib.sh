# lib.sh - helpers for the shell tests of the real binary. Source it.
# Each test runs in its own temporary directory and reports failures with
# the command and what it printed.
set -u
: "${CONDNET:=$(cd "$(dirname "$0")/.." && pwd)/condnet}"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/condnet-sh-XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export CONDNET_DATA="$TMP/data"
export OPENBLAS_NUM_THREADS=1
NFAIL=0
NPASS=0

pass() { NPASS=$((NPASS + 1)); echo "ok - $1"; }
fail() { NFAIL=$((NFAIL + 1)); echo "FAIL - $1"; }

# expect_ok NAME CMD...: the command exits 0.
expect_ok() {
	name=$1; shift
	if "$@" >"$TMP/out" 2>"$TMP/err"; then pass "$name"; else
		fail "$name (exit $?): $*"; sed 's/^/  | /' "$TMP/out" "$TMP/err"; fi
}
# expect_fail NAME PATTERN CMD...: the command exits non-zero and its stderr matches PATTERN.
expect_fail() {
	name=$1; pat=$2; shift 2
	if "$@" >"$TMP/out" 2>"$TMP/err"; then fail "$name: succeeded: $*"; return; fi
	if grep -Eq -- "$pat" "$TMP/err"; then pass "$name"; else
		fail "$name: stderr does not match '$pat'"; sed 's/^/  | /' "$TMP/err"; fi
}
# expect_grep NAME PATTERN FILE: FILE has a line matching PATTERN.
expect_grep() {
	if grep -Eq -- "$2" "$3"; then pass "$1"; else
		fail "$1: '$2' not in $3"; sed 's/^/  | /' "$3" | head -40; fi
}
finish() {
	echo "$NPASS passed, $NFAIL failed"
	[ "$NFAIL" -eq 0 ]
}
# expect_exit NAME STATUS PATTERN CMD...: the command exits with STATUS and its stderr matches PATTERN.
expect_exit() {
	name=$1; want=$2; pat=$3; shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"; got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$name: exit $got, expected $want: $*"; sed 's/^/  | /' "$TMP/err"; return; fi
	if grep -Eq -- "$pat" "$TMP/err"; then pass "$name"; else
		fail "$name: stderr does not match '$pat'"; sed 's/^/  | /' "$TMP/err"; fi
}
# check NAME CMD...: the command (a test such as `[ … ]` or a python3 check) succeeds.
check() {
	name=$1; shift
	if "$@" >"$TMP/check" 2>&1; then pass "$name"; else
		fail "$name: $*"; sed 's/^/  | /' "$TMP/check" | head -20; fi
}
