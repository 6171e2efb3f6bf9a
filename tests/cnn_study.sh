#!/bin/sh
# cnn_study.sh - docs/results-cnn.md is what `bench/cnn-study summary` makes
# of the committed records in docs/cnn-study/, to the byte: every table and
# every number of its prose comes from them. A record changed changes the
# document (the summary reads them, it holds no figure of its own), and the
# LeNet-5 accuracy README.md and docs/performance.md give is the summary's
# mean over its seeds.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
PY=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import json, statistics' 2>/dev/null; then
		PY=$p
		break
	fi
done
[ -n "$PY" ] || { echo "no python3: skipped"; exit 77; }
cd "$TMP" || exit 1

OUT="$SRC/docs/cnn-study" "$SRC/bench/cnn-study" summary >made.md 2>err.txt
st=$?
check "the summary runs on the committed records (status $st)" [ $st -eq 0 ]
if cmp -s made.md "$SRC/docs/results-cnn.md"; then
	pass "docs/results-cnn.md is the summary of docs/cnn-study"
else
	fail "docs/results-cnn.md differs from the summary of docs/cnn-study (bench/cnn-study summary >docs/results-cnn.md)"
	diff "$SRC/docs/results-cnn.md" made.md | head -40 | sed 's/^/  | /'
fi

# the same records with one accuracy changed: the document changes with them
cp -r "$SRC/docs/cnn-study" rec
f=$(ls rec/mnist-s*-compare-l2.json | head -1)
"$PY" - "$f" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d['comparisons'] if c['removed'] > 0][-1]
c['accuracy']['squeezed']['norm'] = 12.34
json.dump(d, open(sys.argv[1], 'w'))
EOF
OUT=rec "$SRC/bench/cnn-study" summary >changed.md 2>>err.txt
check "a record changed changes the document" sh -c '! cmp -s made.md changed.md'

# LeNet-5's ten epochs, as README.md and docs/performance.md give them
lenet=$(sed -n 's/.*ten epochs on MNIST.* test accuracy \([0-9.]* ± [0-9.]*\) % (mean ± sd.*/\1/p' made.md)
secs=$(sed -n 's/.*ten epochs on MNIST.* each in \([0-9–]*\) s of wall time.*/\1/p' made.md)
check "the summary gives LeNet-5's accuracy over its seeds, and the time of each" \
	sh -c '[ -n "$1" ] && [ -n "$2" ]' - "$lenet" "$secs"
check "README.md gives them ($lenet %, $secs s)" sh -c \
	'tr "\n" " " <"$1" | grep -q "$2 % .*$3 s"' - "$SRC/README.md" "$lenet" "$secs"
check "docs/performance.md gives the accuracy ($lenet %)" grep -q "$lenet %" "$SRC/docs/performance.md"
[ -s err.txt ] && sed 's/^/  stderr: /' err.txt
finish
