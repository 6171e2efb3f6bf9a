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

# env_block THREADS: the CPU, OpenBLAS's build and core, threads, load.
env_block() {
	[ -x "$BENCH_TMP/blas_info" ] || build blas_info bench/blas_info.c
	echo "== machine"
	echo "cpu:      $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
		"$(nproc) online, flags$(grep -o -w -E 'avx2|fma|avx512f' /proc/cpuinfo | sort -u | tr '\n' ' ' | sed 's/^/ /')"
	"$BENCH_TMP/blas_info"
	echo "threads:  $1 (condnet's own, OpenBLAS on one in each; OPENBLAS_NUM_THREADS for the peers)"
	echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) at $(date '+%F %T')"
}

# load_now: the 1-minute load average.
load_now() { cut -d' ' -f1 /proc/loadavg; }
