#!/bin/sh
# repro.sh - the reproducible mode: the same small training in the mode on
# 1, 2 and 3 threads, and with OPENBLAS_CORETYPE=Sandybridge in the
# environment (condnet re-executes itself on the Haswell kernels), gives the
# same weights and JSON bit for bit; outside the mode, Haswell and
# Sandybridge kernels may differ (printed, not asserted); so does a network
# of convolutions. Records name the
# kernels, and a replay under others says so. Skipped (77) on a CPU without
# AVX2 and FMA.
. "$(dirname "$0")/lib.sh"
C=$CONDNET
cd "$TMP" || exit 1
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
case " $flags " in
*" avx2 "*" fma "* | *" fma "*" avx2 "*) ;;
*) echo "this CPU has no AVX2 and FMA: the reproducible mode refuses it"; exit 77 ;;
esac
unset OPENBLAS_CORETYPE

## a small data set: 600 rows of 12 features, 3 classes
awk 'BEGIN { s = 7; for (r = 0; r < 600; r++) { line = "";
	for (j = 0; j < 12; j++) { s = (s * 1103515245 + 12345) % 2147483648;
		line = line sprintf("%.6f,", s / 2147483648 - 0.5 + (r % 3) * 0.1 * (j % 4)) }
	print line (r % 3) } }' >d.csv
# 256-wide layers: 6·50·(12·256 + 256·256 + 256·3) flops a batch, two parts' worth
T="--data csv:d.csv --layers 256,256 --batch 50 --epochs 2 --quiet"

# params FILE: the model file without its record of the training, the
# preprocessing of its 12 inputs (32 + 20·12 bytes) and the checksum
params() { head -c -324 "$1"; }
# same A B: the parameters and the JSON of runs A and B agree (but for the
# seconds and why the kernels are the ones they are: the mode's, the
# environment's)
same() {
	params "$1.model" >"$TMP/pa" && params "$2.model" >"$TMP/pb" && cmp -s "$TMP/pa" "$TMP/pb" &&
		grep -v -e seconds -e kernels_why "$1.json" >"$TMP/ja" &&
		grep -v -e seconds -e kernels_why "$2.json" >"$TMP/jb" && cmp -s "$TMP/ja" "$TMP/jb"
}
differ() { ! same "$1" "$2"; }
run() { r=$1; shift; "$C" train $T --save "$r.model" --json "$r.json" "$@"; }

## the mode: the same bits on 1, 2 and 3 threads and whatever kernels the environment asks for
expect_ok "mode, 1 thread" run m1 --reproducible --threads 1
expect_ok "mode, 2 threads" run m2 --reproducible --threads 2
expect_ok "mode, 3 threads" run m3 --reproducible --threads 3
expect_ok "mode, OPENBLAS_CORETYPE=Sandybridge" env OPENBLAS_CORETYPE=Sandybridge "$C" train $T \
	--save ms.model --json ms.json --reproducible --threads 2
check "the mode on 1 and 2 threads: the same weights and JSON" same m1 m2
check "the mode on 2 and 3 threads: the same weights and JSON" same m2 m3
check "the mode re-executes on the Haswell kernels: the same as without the variable" same m2 ms
check "the model file records the mode and the Haswell kernels" grep -aq Haswell ms.model
expect_ok "mode, 2 threads, one epoch less" run e1 --reproducible --threads 2 --epochs 1
check "the weights are the training's (one epoch less gives others)" differ m2 e1

## a network of convolutions: the same bits in the mode, on any threads and kernels
awk 'BEGIN { s = 9; for (r = 0; r < 300; r++) { line = "";
	for (j = 0; j < 64; j++) { s = (s * 1103515245 + 12345) % 2147483648;
		line = line sprintf("%.5f,", s / 2147483648 - 0.5 + (r % 2) * ((j % 8 == r % 7) ? 0.8 : 0)) }
	print line (r % 2) } }' >img.csv
# 6·50·(64·9·16 + 36·144·16 + …) flops a batch: two parts' worth
CT="--data csv:img.csv --shape 8x8 --layers conv:16:3:same,conv:16:3,pool:2,16 --epochs 2 --quiet"
# the model file without its record, the preprocessing of 64 inputs and the checksum
cparams() { head -c -$((48 + 32 + 20 * 64 + 4)) "$1"; }
for t in 1 2 3; do
	expect_ok "convolutions in the mode, $t threads" "$C" train $CT --save c$t.model --reproducible \
		--threads $t
done
expect_ok "convolutions in the mode, OPENBLAS_CORETYPE=Sandybridge" env OPENBLAS_CORETYPE=Sandybridge \
	"$C" train $CT --save cs.model --reproducible --threads 2
cparams c1.model >c1.p; cparams c2.model >c2.p; cparams c3.model >c3.p; cparams cs.model >cs.p
check "convolutions in the mode on 1, 2 and 3 threads: the same weights" sh -c \
	'cmp -s c1.p c2.p && cmp -s c2.p c3.p'
check "convolutions in the mode re-executed on the Haswell kernels: the same weights" cmp -s c2.p cs.p
# the record of the training: u32 mode, threads, parts, before the preprocessing and the checksum
run_rec() { tail -c $((48 + 32 + 20 * 64 + 4)) "$1" | od -An -tu4 -N 12 | tr -s ' ' ' '; }
check "the convolutions' model records the mode, 3 threads and 2 parts" [ "$(run_rec c3.model)" = " 1 3 2" ]

## outside the mode: the kernels OpenBLAS is told, the parts by --threads
expect_ok "no mode, Haswell, 2 threads" env OPENBLAS_CORETYPE=Haswell "$C" train $T \
	--save h2.model --json h2.json --threads 2
expect_ok "no mode, Sandybridge, 2 threads" env OPENBLAS_CORETYPE=Sandybridge "$C" train $T \
	--save s2.model --json s2.json --threads 2
expect_ok "no mode, Haswell, 1 thread" env OPENBLAS_CORETYPE=Haswell "$C" train $T \
	--save h1.model --json h1.json --threads 1
check "no mode on Haswell kernels with 2 threads computes the mode's bits" same m2 h2
check "a Sandybridge model records its kernels" grep -aq Sandybridge s2.model
check "the JSON record names the mode's kernels and why" \
	grep -Eqz '"kernels":[[:space:]]*"Haswell",[[:space:]]*"kernels_why":[[:space:]]*"the reproducible mode.s"' m2.json
check "and the environment's outside the mode" \
	grep -Eqz '"kernels":[[:space:]]*"Sandybridge",[[:space:]]*"kernels_why":[[:space:]]*"set by OPENBLAS_CORETYPE"' s2.json
if same h2 s2; then echo "# outside the mode, Haswell and Sandybridge kernels gave the same bits"
else echo "# outside the mode, Haswell and Sandybridge kernels gave different bits"; fi
if same h2 h1; then echo "# outside the mode, 1 and 2 threads gave the same bits"
else echo "# outside the mode, 1 and 2 threads gave different bits"; fi

## a replay under other kernels says so before it starts, and still replays
cat >s.log <<EOL
# condnet session log, version 1
data spec=csv:$TMP/d.csv features=200 label_col=-1 seed=1 limit=0 val_frac=0.1 val_per_class=0
opts batch=50 lr=0.001 threads=2
# run reproducible=off kernels=Sandybridge threads=2 parts=2
net layers=16 act=erf act_a=1 seed=1
train 1
EOL
expect_ok "a log recorded with Sandybridge kernels replays" "$C" replay s.log
expect_grep "the replay says the kernels differ" \
	'^condnet replay: .*s\.log:4: recorded with Sandybridge kernels, 2 parts; this run: Haswell, 2 parts — numbers may differ$' \
	"$TMP/err"
sed 's/Sandybridge/Haswell/' s.log >h.log
expect_ok "a log recorded with Haswell kernels replays" "$C" replay h.log
check "and says nothing about kernels" sh -c "! grep -q 'numbers may differ' '$TMP/err'"
expect_ok "without the mode, in 2 parts on Sandybridge kernels" env OPENBLAS_CORETYPE=Sandybridge \
	"$C" replay --no-reproducible s.log
check "it says nothing either" sh -c "! grep -q 'numbers may differ' '$TMP/err'"
expect_ok "--help is not re-executed or refused" env OPENBLAS_CORETYPE=Sandybridge "$C" train \
	--reproducible --help

## the re-executed process keeps condnet's name (what ps, pgrep, pidof and killall see)
L="--data csv:d.csv --layers 256,256 --epochs 1000 --quiet --reproducible"
name=$(comm_of Haswell env OPENBLAS_CORETYPE=Sandybridge "$C" train $L)
check "the process re-executed on the Haswell kernels is named condnet ($name)" [ "$name" = condnet ]
cp "$C" "$TMP/cn-copy"
name=$(comm_of Haswell env OPENBLAS_CORETYPE=Sandybridge "$TMP/cn-copy" train $L)
check "a copy under another name keeps that name ($name)" [ "$name" = cn-copy ]
# a binary deleted while it runs: started from an open descriptor of a file
# that is gone, it re-executes through /proc/self/exe and renames itself
# after its argv[0]
cp "$C" "$TMP/cn-gone"
name=$(comm_of Haswell sh -c 'exec 3<"$1"; rm -f "$1"; shift; exec env OPENBLAS_CORETYPE=Sandybridge \
	bash -c "exec -a condnet /proc/self/fd/3 \"\$@\"" bash "$@"' sh "$TMP/cn-gone" train $L)
check "a deleted binary re-executed through /proc/self/exe takes back its name ($name)" \
	[ "$name" = condnet ]
finish
