#!/bin/sh
# build.sh - builds the libFuzzer targets (with ASan and UBSan) against the
# engine sources. Usage: fuzz/build.sh [TARGET...] (default: all); the
# binaries go to $FUZZ_OUT (default fuzz/bin). `make fuzz` runs this.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${FUZZ_OUT:-$top/fuzz/bin}
cc=${FUZZ_CC:-clang}
san="address,undefined"
cflags="-std=gnu11 -g -O1 -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
deps="gsl openblas libcjson zlib"
cppflags="-I$top -I$top/src $(pkg-config --cflags $deps)"
libs="$(pkg-config --libs $deps) -lm -lpthread"
engine="err rng dataset idx csv adult haar mnist datasets blas act net adam train model_io npy
	cond alg1_proportion alg2_scale alg3_squeeze report session"
mkdir -p "$out/obj"
objs=""
for s in $engine; do
	o="$out/obj/$s.o"
	if [ ! -e "$o" ] || [ "$top/src/$s.c" -nt "$o" ] || [ -n "$(find "$top/src" -maxdepth 1 -name '*.h' -newer "$o")" ]; then
		$cc $cflags -fsanitize=fuzzer-no-link,$san $cppflags -c "$top/src/$s.c" -o "$o"
	fi
	objs="$objs $o"
done
for t in ${*:-idx_images idx_labels csv adult model npy session}; do
	$cc $cflags -fsanitize=fuzzer,$san $cppflags "$top/fuzz/fuzz_$t.c" $objs $libs -o "$out/fuzz_$t"
	echo "built $out/fuzz_$t"
done
