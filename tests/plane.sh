#!/bin/sh
# plane.sh - the data sets in the plane from the command line: every name
# trains, --points and --noise draw the set they say (the same points again
# from the same seed), out of range or for another data set they are
# refused naming the limit with status 2, an unknown name lists the plane
# sets, --help and the manual name them, a session log of a plane data set
# records its points and noise and replays to the same network, and the
# plane lesson replays to the same network on other kernels.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
MAN="$SRC/man/condnet.1"
C=$CONDNET
cd "$TMP" || exit 1

## every plane data set trains, with 2 features and its classes
for set in spiral:3 circles:2 xor:2 gauss:3 moons:2; do
	ds=${set%%:*} nk=${set#*:}
	expect_ok "--data $ds trains" "$C" train --data $ds --epochs 2
	expect_grep "$ds: 300 training rows" "^$ds: 2-32-32-$nk network, [0-9]+ parameters, 300 training rows" "$TMP/out"
done

## --points and --noise: the points drawn, the same again from the same seed
expect_ok "--points 60 --noise 0.2" "$C" train --data moons --points 60 --noise 0.2 --epochs 1
expect_grep "60 points" '^moons: 2-32-32-2 network, [0-9]+ parameters, 60 training rows' "$TMP/out"
"$C" train --data spiral --points 12 --noise 0 --seed 5 --epochs 1 --save "$TMP/b.model" --quiet
"$C" train --data spiral --points 12 --noise 0 --seed 5 --epochs 1 --save "$TMP/c.model" --quiet
check "the same seed, points and noise train the same network" cmp -s "$TMP/b.model" "$TMP/c.model"
"$C" train --data spiral --points 12 --noise 0.3 --seed 5 --epochs 1 --save "$TMP/d.model" --quiet
check "other noise, other points: another network" sh -c "! cmp -s '$TMP/b.model' '$TMP/d.model'"

## refused, naming the limit, with status 2
expect_exit "--points below the limit" 2 "--points: '5' is out of range \(6\.\.1000000\)" \
	"$C" train --data spiral --points 5
expect_exit "--points above the limit" 2 "--points: '2000000' is out of range \(6\.\.1000000\)" \
	"$C" train --data circles --points 2000000
expect_exit "--noise above the limit" 2 "--noise: '1\.5' must be at most 1" \
	"$C" train --data xor --noise 1.5
expect_exit "--noise below the limit" 2 "--noise: '-0\.1' must be at least 0" \
	"$C" train --data xor --noise -0.1
expect_exit "--points with the synthetic set" 2 \
	"--points and --noise go with a plane data set \(--data spiral, circles, xor, gauss, moons\)" \
	"$C" train --points 100
expect_exit "--noise with the screen's MNIST" 2 "condnet tui: --points and --noise go with a plane data set" \
	"$C" tui --data mnist --noise 0.1
expect_exit "an unknown data set lists the plane sets" 2 \
	"unknown data set 'ring' \(expected mnist, fashion, adult, synthetic, spiral, circles, xor, gauss, moons or csv" \
	"$C" train --data ring

## --help and the manual name them
for cmd in train tui; do
	"$C" $cmd --help >"$TMP/help"
	check "$cmd --help names the plane sets" grep -q 'spiral, circles, xor, gauss, moons' "$TMP/help"
	check "$cmd --help has --points" grep -q -- '^  --points N ' "$TMP/help"
	check "$cmd --help has --noise" grep -q -- '^  --noise S ' "$TMP/help"
done
check "the manual describes --points" grep -q '^\.BI \\-\\-points " N"' "$MAN"
check "the manual describes --noise" grep -q '^\.BI \\-\\-noise " S"' "$MAN"
check "the manual describes the spiral" grep -q '^(three arms turning out of the centre, 3 classes),' "$MAN"

## a session log records a plane set's points and noise; replay rebuilds them
cat >"$TMP/s.log" <<'EOF'
data spec=gauss features=0 label_col=-1 seed=3 limit=0 val_frac=0.10000000000000001 val_per_class=0 points=90 noise=0.125
opts batch=30 lr=0.01 threads=1
net layers=8 act=tanh act_a=1 seed=2
train 3
save path=x.model
EOF
crc() { "$C" replay "$1" | sed -n 's/^crc32 //p'; }
c1=$(crc "$TMP/s.log"); c2=$(crc "$TMP/s.log")
check "a plane log replays to the same network ($c1)" [ -n "$c1" ] && [ "$c1" = "$c2" ]
sed 's/ noise=0.125//' "$TMP/s.log" >"$TMP/s2.log"
sed 's/ noise=0.125/ noise=0.05/' "$TMP/s.log" >"$TMP/s4.log"
c3=$(crc "$TMP/s2.log"); c4=$(crc "$TMP/s4.log")
check "the recorded noise is the one drawn ($c1, not $c3)" [ -n "$c3" ] && [ "$c1" != "$c3" ]
check "a log without noise= draws the set's own, 0.05 ($c3)" [ "$c3" = "$c4" ]
sed 's/ points=90/ points=91/' "$TMP/s.log" >"$TMP/s5.log"
check "the recorded points are the ones drawn" [ "$(crc "$TMP/s5.log")" != "$c1" ]
## the plane lesson replays to the same network on other kernels too: the
## reproducible mode (replay's default) runs OpenBLAS's Haswell kernels
LESSON="$SRC/data/lessons/plane.lesson"
l1=$(crc "$LESSON")
l2=$(OPENBLAS_CORETYPE=Sandybridge "$C" replay "$LESSON" | sed -n 's/^crc32 //p')
check "the plane lesson replays to the same network under OPENBLAS_CORETYPE=Sandybridge ($l1)" \
	[ -n "$l1" ] && [ "$l1" = "$l2" ]
sed 's/ points=90/ points=4/' "$TMP/s.log" >"$TMP/s3.log"
expect_exit "a log's points out of range" 1 "s3.log:1: points: '4' is out of range \(6\.\.1000000\)" \
	"$C" replay "$TMP/s3.log"
finish
