# shellcheck shell=bash
# bench/lib.sh - shared by the bench scripts: the top of the source tree and
# of the built tree, the compiler flags of its configuration, Debian packages
# installed on demand, and one block describing the machine and its load.
# Sourced, not run.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
# The built tree: the directory the bench is started from when condnet was
# built there out of the source tree (cd build && ../bench/NAME), else TOP.
if [ -f Makefile ] && [ -f src/base/libbase.a ]; then BUILD=$(pwd); else BUILD=$TOP; fi
cd "$TOP"
if [ ! -f "$BUILD/Makefile" ] || [ ! -f "$BUILD/src/base/libbase.a" ]; then
	echo "bench: build condnet first (./configure && make), and start the bench where it was built" >&2
	exit 1
fi

# need PACKAGE...: installs the Debian packages that are missing.
need() {
	for p in "$@"; do
		dpkg -s "$p" >/dev/null 2>&1 && continue
		echo "bench: installing $p" >&2
		apt-get install -y -qq "$p" >/dev/null
	done
}

# The condnet the built tree holds (for the benches that source this).
# shellcheck disable=SC2034
CONDNET_BIN=$BUILD/condnet

# mkvar NAME: a variable of the configured Makefile (GSL_LIBS, OPENBLAS_LIBS…).
mkvar() { sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$BUILD/Makefile" | sed -n "s/^$1 = //p" | tr -s ' \t' ' '; }

# The layers' libraries of the built tree, in link order (CONDNET_LIBS).
condnet_libs() { for lib in $(mkvar CONDNET_LIBS); do echo "$BUILD/$lib"; done; }

BENCH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/condnet-bench.XXXXXX")
trap 'rm -rf "$BENCH_TMP"' EXIT

# build NAME SOURCE...: links SOURCE with the engine library into $BENCH_TMP/NAME.
build() {
	local name=$1; shift
	# shellcheck disable=SC2046
	gcc -std=gnu11 -O2 -pthread -Isrc -I"$BUILD" $(mkvar OPENBLAS_CFLAGS) "$@" $(condnet_libs) \
		$(mkvar GSL_LIBS) $(mkvar OPENBLAS_LIBS) $(mkvar CJSON_LIBS) $(mkvar ZLIB_LIBS) -lm \
		-o "$BENCH_TMP/$name"
}

# The kernels. condnet runs the ones `condnet --version` names (its choice
# where OpenBLAS took the CPU for older ones, the user's OPENBLAS_CORETYPE, or
# OpenBLAS's own): CK. The bench programs link the engine without condnet's
# start, so they are given the same (as_condnet). The peers (numpy, PyTorch)
# run with those and with their default, the kernels OpenBLAS picks for them
# in this environment (as_default; PEER_DEFAULT names them); peer_sets lists
# "condnet", then "default" when the two differ. BENCH_FALLBACK=CORE emulates
# an OpenBLAS that takes this CPU for CORE, as OpenBLAS 0.3.21 takes Intel's
# family 6 model 207 for Prescott: condnet is told so (tests/corename_shim.c,
# preloaded) and chooses, and the peers' default is CORE.
if [ -n "${BENCH_FALLBACK:-}" ]; then
	unset OPENBLAS_CORETYPE
	gcc -O2 -shared -fPIC tests/corename_shim.c -o "$BENCH_TMP/corename_shim.so" -ldl
	export LD_PRELOAD=$BENCH_TMP/corename_shim.so CORENAME_SHIM=$BENCH_FALLBACK
fi
CK_LINE=$("$CONDNET_BIN" --version | sed -n 's/^kernels: //p')
CK=${CK_LINE%%[ ,]*}
[ -n "$CK" ] || { echo "bench: $CONDNET_BIN --version names no kernels" >&2; exit 1; }
as_condnet() { env OPENBLAS_CORETYPE="$CK" "$@"; }
as_default() { env ${BENCH_FALLBACK:+OPENBLAS_CORETYPE=$BENCH_FALLBACK} "$@"; }
build blas_info bench/blas_info.c
PEER_DEFAULT=$(as_default "$BENCH_TMP/blas_info" | sed -n 's/^core: *\([A-Za-z0-9_]*\).*/\1/p')
peer_sets() {
	echo condnet
	[ "$(echo "$PEER_DEFAULT" | tr '[:upper:]' '[:lower:]')" = "$(echo "$CK" | tr '[:upper:]' '[:lower:]')" ] || echo default
}
# as_set SET CMD...: CMD with the kernels of SET (condnet or default).
as_set() { if [ "$1" = default ]; then shift; as_default "$@"; else shift; as_condnet "$@"; fi; }
# set_kernels SET: the name of SET's kernels.
set_kernels() { if [ "$1" = default ]; then echo "$PEER_DEFAULT"; else echo "$CK"; fi; }
# peer_kernels MODULE...: one line per peer module, with the kernels of every set.
peer_kernels() {
	for set in $(peer_sets); do
		as_set "$set" /usr/bin/python3 "$TOP/bench/peer_kernels.py" "$@" | sed "s/^/peers ($set): /"
	done
}

# env_block THREADS: the CPU, OpenBLAS's build and core, the kernels of
# condnet and the peers, threads, load.
env_block() {
	echo "== machine"
	echo "cpu:      $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
		"$(nproc) online, $("$CONDNET_BIN" --version | sed -n 's/^cpu: //p')"
	as_condnet "$BENCH_TMP/blas_info"
	echo "kernels:  condnet: $CK_LINE (condnet --version); the bench programs: $CK"
	echo "          the peers' default: $PEER_DEFAULT${BENCH_FALLBACK:+ (emulated: OPENBLAS_CORETYPE=$BENCH_FALLBACK; condnet is told OpenBLAS took this CPU for $BENCH_FALLBACK)}"
	echo "threads:  $1 (condnet's own, OpenBLAS on one in each; OPENBLAS_NUM_THREADS for the peers)"
	echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) at $(date '+%F %T')"
}

# load_now: the 1-minute load average.
load_now() { cut -d' ' -f1 /proc/loadavg; }
