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
# crashed FILE: stderr shows a sanitizer report or a fatal signal.
crashed() { grep -Eq 'Sanitizer|runtime error:|Segmentation|Aborted|core dumped' "$1"; }
# refuse NAME STATUS PATTERN CMD...: the command exits with STATUS (1 or 2),
# its stderr matches PATTERN and shows no crash.
refuse() {
	name=$1; want=$2; pat=$3; shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"; got=$?
	if crashed "$TMP/err" || [ "$got" -ge 128 ]; then
		fail "$name: crashed (exit $got): $*"; sed 's/^/  | /' "$TMP/err" | head -30
	elif [ "$got" -ne "$want" ]; then
		fail "$name: exit $got, expected $want: $*"; sed 's/^/  | /' "$TMP/err"
	elif grep -Eq -- "$pat" "$TMP/err"; then
		pass "$name"
	else
		fail "$name: stderr does not match '$pat'"; sed 's/^/  | /' "$TMP/err"
	fi
}
# poke FILE OFFSET HEXBYTES: overwrites bytes of FILE in place.
poke() { python3 -c "
import sys
p, off, b = sys.argv[1], int(sys.argv[2]), bytes.fromhex(sys.argv[3])
with open(p, 'r+b') as f:
    f.seek(off); f.write(b)" "$@"; }
# check NAME CMD...: the command (a test such as `[ … ]` or a python3 check) succeeds.
check() {
	name=$1; shift
	if "$@" >"$TMP/check" 2>&1; then pass "$name"; else
		fail "$name: $*"; sed 's/^/  | /' "$TMP/check" | head -20; fi
}
# profile_model FILE: a 10-6-4-3 model (tanh) whose stacked matrices have
# the pivoted-QR profiles of tests/test_alg3_counts.c: Ŵ⁽¹⁾ the three pairs
# (|r_jj|/|r_11| = 1, 3/4, 5/8, 1/4, 7/32, 3/16 on neurons 4 1 5 0 3 2; κ of
# the leading 3..6 pivots 1.6, 7.635, 8.308, 9.540), Ŵ⁽²⁾ scales 1, 1/2, 1/4,
# 1/8 on the rows of layer 1's neurons 1, 4, 5 and the bias (κ 8). Written as
# .npy files and imported, so it needs python3 and the binary's import.
profile_model() {
	python3 - "$TMP/profile-npy" <<'PY' || return 1
import os, struct, sys
d = sys.argv[1]
os.makedirs(d, exist_ok=True)
def npy(name, shape, vals):
    h = "{'descr': '<f4', 'fortran_order': False, 'shape': %r, }" % (tuple(shape),)
    h += ' ' * (63 - (10 + len(h)) % 64) + '\n'
    with open(os.path.join(d, name), 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode())
        f.write(struct.pack('<%df' % len(vals), *vals))
# pivots in order: (|r_jj|, partner pivot or None, alpha, neuron, sign)
pairs = [(1, None, 0, 4, 1), (0.75, None, 0, 1, -1), (0.625, None, 0, 5, 1),
         (0.25, 0, 0.9375, 0, 1), (0.21875, 1, 0.625, 3, -1), (0.1875, 2, 0.5, 2, 1)]
W1 = [0.0] * 60
for j, (r, part, alpha, neuron, sign) in enumerate(pairs):
    W1[j * 6 + neuron] = sign * r
    if part is not None:
        W1[part * 6 + neuron] = sign * alpha
scales = [(1, 1, 2, 1), (0.5, 6, 0, -1), (0.25, 4, 3, 1), (0.125, 5, 1, 1)]
W2, b2 = [0.0] * 24, [0.0] * 4
for r, row, neuron, sign in scales:
    if row < 6:
        W2[row * 4 + neuron] = sign * r
    else:
        b2[neuron] = sign * r
npy('W1.npy', (10, 6), W1); npy('b1.npy', (6,), [0.0] * 6)
npy('W2.npy', (6, 4), W2); npy('b2.npy', (4,), b2)
npy('W3.npy', (4, 3), [float(i % 3 - 1) for i in range(12)]); npy('b3.npy', (3,), [0.0] * 3)
PY
	"$CONDNET" import --npy "$TMP/profile-npy" --act tanh --save "$1" >/dev/null
}
# comm_of CORE CMD...: starts CMD in the background (a long training), waits
# until it runs re-executed with OPENBLAS_CORETYPE=CORE in its environment
# (which it then leaves in $TMP/environ, a variable a line) and prints the
# name the kernel gives the process (what ps, pgrep, pidof and killall see);
# the process is stopped afterwards. Prints "none" when the process is gone
# too soon.
comm_of() {
	want=$1; shift
	"$@" >/dev/null 2>&1 &
	p=$!
	: >"$TMP/environ"
	i=0
	while [ $i -lt 200 ] && kill -0 $p 2>/dev/null; do
		if tr '\0' '\n' </proc/$p/environ >"$TMP/environ" 2>/dev/null &&
			grep -qx "OPENBLAS_CORETYPE=$want" "$TMP/environ"; then
			break
		fi
		sleep 0.05; i=$((i + 1))
	done
	# a process re-executed through /proc/self/exe is named exe until it
	# renames itself, early in main: give it that moment, not more
	i=0
	while [ $i -lt 100 ] && [ "$(ps -o comm= -p $p 2>/dev/null)" = exe ]; do
		sleep 0.05; i=$((i + 1))
	done
	c=$(ps -o comm= -p $p 2>/dev/null)
	kill $p 2>/dev/null; wait $p 2>/dev/null
	echo "${c:-none}"
}
# sign_rows ROWS FEATURES SEED: ROWS lines of a CSV of FEATURES values
# uniform in ±0.5 drawn from SEED, labelled 1 where the first two sum above
# 0, else 0: a data set of two classes any small network learns.
sign_rows() {
	awk -v n="$1" -v d="$2" -v s="$3" 'BEGIN { for (r = 0; r < n; r++) { line = ""; t = 0;
		for (j = 0; j < d; j++) { s = (s * 1103515245 + 12345) % 2147483648; v = s / 2147483648 - 0.5;
			if (j < 2) t += v; line = line sprintf("%.6f,", v) }
		print line (t > 0) } }'
}
# bar_images ROWS SEED: ROWS lines of a CSV of 8×8 images of a bar,
# horizontal (label 0) or vertical (1), at a place drawn from SEED, in
# uniform noise: what the tests of convolution layers learn (--shape 8x8).
bar_images() {
	awk -v n="$1" -v s="$2" 'BEGIN { for (r = 0; r < n; r++) { c = r % 2;
		s = (s * 1103515245 + 12345) % 2147483648; at = int(s / 2147483648 * 8); line = "";
		for (j = 0; j < 64; j++) { s = (s * 1103515245 + 12345) % 2147483648;
			v = (s / 2147483648 - 0.5) * 0.8;
			if ((c && j % 8 == at) || (!c && int(j / 8) == at)) v += 1;
			line = line sprintf("%.4f,", v) }
		print line c } }'
}
