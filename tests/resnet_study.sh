#!/bin/sh
# resnet_study.sh - docs/results-resnet.md is what `bench/resnet-study
# summary` makes of the committed records in docs/resnet-study/, to the byte:
# every table and every number of its prose comes from them. A record changed
# changes the document (the summary reads them, it holds no figure of its own).
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

OUT="$SRC/docs/resnet-study" "$SRC/bench/resnet-study" summary >made.md 2>err.txt
st=$?
check "the summary runs on the committed records (status $st)" [ $st -eq 0 ]
if cmp -s made.md "$SRC/docs/results-resnet.md"; then
	pass "docs/results-resnet.md is the summary of docs/resnet-study"
else
	fail "docs/results-resnet.md differs from the summary of docs/resnet-study (bench/resnet-study summary >docs/results-resnet.md)"
	diff "$SRC/docs/results-resnet.md" made.md | head -40 | sed 's/^/  | /'
fi
check "... which has the comparisons' tables" grep -q '^| τ | compensated | removed |' made.md

# the same records with one accuracy changed: the document changes with them
cp -r "$SRC/docs/resnet-study" rec
f=$(ls rec/*-all-t*-norm.json | head -1)
check "a record of the norm rule's squeeze to change ($f)" [ -f "$f" ]
"$PY" - "$f" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
d['test_accuracy_after'] = 12.34
json.dump(d, open(sys.argv[1], 'w'))
PYEOF
OUT=rec "$SRC/bench/resnet-study" summary >changed.md 2>>err.txt
check "a record changed changes the document" sh -c '! cmp -s made.md changed.md'
[ -s err.txt ] && sed 's/^/  stderr: /' err.txt
finish
