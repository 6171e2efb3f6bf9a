#!/bin/sh
# kernels.sh - the kernels condnet runs outside the reproducible mode, on any
# CPU: an LD_PRELOAD library (tests/corename_shim.so) makes condnet meet an
# OpenBLAS that took the CPU for its SSE3 Prescott kernels, as OpenBLAS
# 0.3.21 does on CPUs newer than its tables. condnet then runs itself again
# on the best kernels the CPU's features allow, worked out here from the
# flags the kernel shows in /proc/cpuinfo, and says so in --version, every
# JSON record and the screen's header, under its own process name; a mark
# of that choice in the environment that is not the process's own is not
# taken for it, and a re-execution that fails says why. The user's
# OPENBLAS_CORETYPE is respected; the reproducible mode keeps Haswell.
. "$(dirname "$0")/lib.sh"
TESTS=$(cd "$(dirname "$0")" && pwd)
C=$CONDNET
build=$(cd "${top_builddir:-$(dirname "$C")}" && pwd)
SHIM=$build/tests/corename_shim.so
[ -f "$SHIM" ] || { echo "no $SHIM (make check builds it): skipped"; exit 77; }
cd "$TMP" || exit 1
unset OPENBLAS_CORETYPE CONDNET_KERNELS CORENAME_SHIM
# a sanitizer's runtime wants to be the first library loaded
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# The kernels the CPU allows, from the kernel's flags (it shows no AVX-512
# flag when the OS does not save those registers); "" without AVX.
flags=" $(sed -n 's/^flags[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1) "
has() { case "$flags" in *" $1 "*) return 0 ;; esac; return 1; }
vendor=$(sed -n 's/^vendor_id[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
if has avx512f && has avx512cd && has avx512bw && has avx512dq && has avx512vl; then
	if has avx512_bf16; then best=Cooperlake; else best=SkylakeX; fi
elif has avx2 && has fma; then
	case $vendor in AuthenticAMD | HygonGenuine) best=Zen ;; *) best=Haswell ;; esac
elif has avx; then
	best=Sandybridge
else
	best=""
fi
echo "# this CPU ($vendor) allows ${best:-no better than SSE} kernels"
shim() { env LD_PRELOAD="$SHIM" "$@"; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"; }
T="--data gauss --points 300 --layers 8 --epochs 1 --quiet"

## OpenBLAS took the CPU for Prescott: condnet runs again on the best kernels
expect_ok "--version with OpenBLAS saying Prescott" shim "$C" --version
if [ -n "$best" ]; then
	expect_grep "--version names the kernels chosen and why" \
		"^kernels: $best, chosen from the CPU's features; OpenBLAS [0-9.]+ took this CPU for Prescott$" "$TMP/out"
	expect_ok "a training with OpenBLAS saying Prescott" shim "$C" train $T --json t.json --save t.model
	check "its JSON record names the kernels chosen and why" json t.json \
		"d['kernels'] == '$best' and d['kernels_why'].startswith('chosen from the CPU') and d['kernels_why'].endswith('took this CPU for Prescott')"
	check "the model file records them" grep -aq "$best" t.model
	L="--data gauss --points 3000 --layers 64,64 --epochs 1000 --quiet"
	name=$(comm_of "$best" env LD_PRELOAD="$SHIM" "$C" train $L)
	check "the process running on them keeps its name ($name)" [ "$name" = condnet ]
	check "its environment marks the choice as condnet's, and its own" \
		grep -Eqx "CONDNET_KERNELS=$best:Prescott:[0-9]+:[0-9]+" "$TMP/environ"
	cp "$C" "$TMP/cn-copy"
	name=$(comm_of "$best" env LD_PRELOAD="$SHIM" "$TMP/cn-copy" train $L)
	check "a copy under another name keeps that name ($name)" [ "$name" = cn-copy ]
	# a mark in the environment that is not this process's own choice is no
	# record of it: copied from the process that chose, inherited, forged,
	# empty; the kernels are then OPENBLAS_CORETYPE's
	mark=$(tr '\0' '\n' <"$TMP/environ" | sed -n 's/^CONDNET_KERNELS=//p')
	for m in "$mark" "$best:Prescott" "Sandybridge:Prescott" "" ":" "$best:Prescott:1:1"; do
		expect_ok "a process given CONDNET_KERNELS='$m'" \
			env OPENBLAS_CORETYPE="$best" CONDNET_KERNELS="$m" "$C" --version
		expect_grep "does not take it for condnet's choice ('$m')" \
			"^kernels: $best, set by OPENBLAS_CORETYPE$" "$TMP/out"
		expect_ok "nor its JSON record ('$m')" env OPENBLAS_CORETYPE="$best" CONDNET_KERNELS="$m" \
			"$C" train $T --json m.json
		check "whose kernels_why is OPENBLAS_CORETYPE's ('$m')" json m.json \
			"d['kernels'] == '$best' and d['kernels_why'] == 'set by OPENBLAS_CORETYPE'"
	done
	expect_ok "a forged mark of kernels condnet would not choose" \
		env OPENBLAS_CORETYPE=Sandybridge CONDNET_KERNELS="Sandybridge:Prescott" "$C" --version
	expect_grep "is not taken either" "^kernels: Sandybridge, set by OPENBLAS_CORETYPE$" "$TMP/out"
	# an environment so near the system's limit that running itself again
	# fails: the run goes on with OpenBLAS's kernels and says why, errno kept
	python3 - "$C" "$SHIM" >e2big.out 2>e2big.err <<'EOF'
import os, subprocess, sys
exe, shim = sys.argv[1], sys.argv[2]
base = {k: v for k, v in os.environ.items() if k not in ('OPENBLAS_CORETYPE', 'CONDNET_KERNELS')}
base['LD_PRELOAD'] = shim
def env_of(n):
    e, k = dict(base), 0
    while n > 0:
        e['PAD%d' % k] = 'x' * min(n, 100000)
        n -= 100000
        k += 1
    return e
def starts(n):
    try:
        subprocess.run([exe, '--version'], env=env_of(n), capture_output=True)
        return True
    except OSError:
        return False
# the most the environment holds with condnet still started (to 4 bytes)
lo, hi = 0, 1 << 24
while hi - lo > 4:
    mid = (lo + hi) // 2
    lo, hi = (mid, hi) if starts(mid) else (lo, mid)
r = subprocess.run([exe, '--version'], env=env_of(lo), capture_output=True, text=True)
sys.stdout.write(r.stdout)
sys.stderr.write(r.stderr)
sys.exit(r.returncode)
EOF
	st=$?
	check "condnet in an environment near the limit runs on (status $st)" [ "$st" -eq 0 ]
	expect_grep "says running itself again failed, and why" \
		"^condnet: kept OpenBLAS's Prescott kernels, not $best: cannot re-execute .* with OPENBLAS_CORETYPE=$best: Argument list too long$" e2big.err
	expect_grep "and its --version says which kernels run" \
		"^kernels: Prescott, condnet chose $best but could not run itself again with them$" e2big.out
	# OpenBLAS said Zen where AVX-512 is there (the rule of newer OpenBLAS releases)
	expect_ok "--version with OpenBLAS saying Zen" env CORENAME_SHIM=Zen LD_PRELOAD="$SHIM" "$C" --version
	case $best in
	Cooperlake | SkylakeX) expect_grep "AVX-512 kernels are chosen over Zen" \
		"^kernels: $best, chosen from the CPU's features; OpenBLAS [0-9.]+ took this CPU for Zen$" "$TMP/out" ;;
	*) expect_grep "Zen stands where there is no AVX-512" "^kernels: Zen$" "$TMP/out" ;;
	esac
else
	expect_grep "without AVX OpenBLAS's choice stands, and condnet says why" \
		"^kernels: Prescott, OpenBLAS's choice, kept: the CPU reports no AVX" "$TMP/out"
fi
expect_grep "--version describes the CPU" '^cpu: [A-Za-z]+ family [0-9]+ model [0-9]+,' "$TMP/out"

## the user's OPENBLAS_CORETYPE is respected
expect_ok "--version with OPENBLAS_CORETYPE=Prescott" shim env OPENBLAS_CORETYPE=Prescott "$C" --version
expect_grep "it names them as the user's" '^kernels: Prescott, set by OPENBLAS_CORETYPE$' "$TMP/out"
expect_ok "a training with OPENBLAS_CORETYPE=Prescott" \
	shim env OPENBLAS_CORETYPE=Prescott "$C" train $T --json u.json
check "its record says the kernels were the user's" json u.json \
	"d['kernels'] == 'Prescott' and d['kernels_why'] == 'set by OPENBLAS_CORETYPE'"
expect_ok "OPENBLAS_CORETYPE naming kernels OpenBLAS does not have" \
	env OPENBLAS_CORETYPE=NoSuchCore "$C" --version
expect_grep "says which OpenBLAS runs instead" '^kernels: [A-Za-z0-9_]+, OPENBLAS_CORETYPE=NoSuchCore, which OpenBLAS runs as ' "$TMP/out"

## the reproducible mode keeps its Haswell kernels whatever OpenBLAS says
if has avx2 && has fma; then
	expect_ok "a training in the reproducible mode, OpenBLAS saying Prescott" \
		shim "$C" train $T --reproducible --json r.json
	check "it runs on the mode's kernels" json r.json \
		"d['kernels'] == 'Haswell' and d['kernels_why'] == \"the reproducible mode's\""
fi

## the screen's header names the kernels and why (the screen tests' tmux
## driver, tests/tmux.sh)
if command -v tmux >/dev/null 2>&1 && [ -n "$best" ]; then
	. "$TESTS/tmux.sh"
	SCREEN_PRELUDE="export LD_PRELOAD='$SHIM' ASAN_OPTIONS='$ASAN_OPTIONS'
unset OPENBLAS_CORETYPE"
	screen_run k 160x30 --layers 8 --seed 1
	wait_for 'kernels ' 20
	sed -n 2p "$TMP/screen" >header
	expect_grep "the header names the kernels chosen and why" \
		"  kernels $best \\(chosen; OpenBLAS took Prescott\\) *\$" header
	keys q
fi
finish
