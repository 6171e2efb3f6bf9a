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
deps="gsl openblas libcjson zlib libprotobuf-c"
# config.h is in the build tree (the current directory under `make fuzz`); the
# ONNX bindings are generated here from ONNX's schema ($ONNX_PROTO).
proto=${ONNX_PROTO:-/usr/include/onnx/onnx.proto}
mkdir -p "$out/gen/onnx"
protoc-c --proto_path="$(dirname "$proto")" --c_out="$out/gen/onnx" "$proto"
cppflags="-I$(pwd) -I$top -I$top/src -I$out/gen $(pkg-config --cflags $deps)"
libs="$(pkg-config --libs $deps) -lm -lpthread"
# The library's sources (every folder of src/ but the front ends cli/ and tui/):
# $FUZZ_ENGINE (make passes the library's), else every .c in those folders.
if [ -n "${FUZZ_ENGINE:-}" ]; then
	engine=$(for f in $FUZZ_ENGINE; do case $f in *.c) echo "${f#src/}" | sed 's/\.c$//' ;; esac; done)
else
	engine=$(cd "$top/src" && for f in base/*.c data/*.c engine/*.c model/*.c alg/*.c report/*.c session/*.c paper/*.c; do echo "${f%.c}"; done)
fi
mkdir -p "$out/obj"
$cc $cflags -fsanitize=fuzzer-no-link,$san $cppflags -c "$out/gen/onnx/onnx.pb-c.c" \
	-o "$out/obj/onnx.pb-c.o"
objs="$out/obj/onnx.pb-c.o"
for s in $engine; do
	o="$out/obj/$(echo "$s" | tr / _).o"
	if [ ! -e "$o" ] || [ "$top/src/$s.c" -nt "$o" ] || [ -n "$(find "$top/src" -name '*.h' -newer "$o")" ]; then
		$cc $cflags -fsanitize=fuzzer-no-link,$san $cppflags -c "$top/src/$s.c" -o "$o"
	fi
	objs="$objs $o"
done
for t in ${*:-idx_images idx_labels csv adult cache model npy session onnx}; do
	$cc $cflags -fsanitize=fuzzer,$san $cppflags "$top/fuzz/fuzz_$t.c" $objs $libs -o "$out/fuzz_$t"
	echo "built $out/fuzz_$t"
done
