#!/bin/sh
# sweep_graph.sh - condnet sweep on a graph network (tests/onnx/residual.onnx:
# dense 4→3, a residual block of 3, dense 3→2): the residual group's units
# scaled by each β, the logits' kept; q trials a β, the table and the pick
# of the least 2 err_v − err_tr; the range extended past a winning edge;
# the pick trained fully, saved, and read by eval with the pick's units;
# --jobs 2 prints and records what --jobs 1 does; the JSON record names the
# pick's units; the modes of separate processes refused.
. "$(dirname "$0")/lib.sh"
C=$CONDNET
SRC=$(cd "${top_srcdir:-.}" && pwd)
cd "$TMP" || exit 1

## 300 rows of 4 features, 2 classes (the sign of the first two's sum)
sign_rows 300 4 5 >d.csv
head -240 d.csv >tr.csv
tail -60 d.csv >te.csv
R="$SRC/tests/onnx/residual.onnx"
D="--data csv:tr.csv,te.csv --q 2 --eta 2 --batch 20 --threads 2"

expect_ok "sweep takes a graph network" "$C" sweep --onnx "$R" $D --beta 1,2 --max-extend 1 \
	--final-epochs 2 --json s.json --save s.model --quiet
cp "$TMP/out" s.out
expect_grep "... says what it scales" "^csv:tr\.csv,te\.csv: Algorithm 2 on 4 graph: 3 Gemm, 1 Add, 1 Relu -> 2, 216 training and 24 validation rows, q 2, eta 2$" s.out
expect_grep "... a line a trial" "^beta 2\.00  trial 2/2  err_tr" s.out
expect_grep "... the table of the β" "^2\.0 +[0-9.]+ +[0-9.]+ +-?[0-9.]+ +2/2" s.out
expect_grep "... the pick, by its groups' units (the logits' 2 kept)" "^pick: beta [0-9.]+, channel groups' units [0-9]+,2, 2\*err_v - err_tr = " s.out
check "... the pick is the least score of the table" awk '
	/^β/ { t = 1; next } t && NF >= 5 && $1 ~ /^[0-9.]+$/ { if (best == "" || $4 < best) { best = $4; b = $1 } }
	/^pick: beta/ { p = $3 + 0 } END { exit (p == b + 0) ? 0 : 1 }' s.out
check "... its units are β times the residual group's 3" sh -c '
	b=$(sed -n "s/^pick: beta \([0-9.]*\),.*/\1/p" s.out); u=$(sed -n "s/.*units \([0-9]*\),2,.*/\1/p" s.out)
	awk -v b="$b" -v u="$u" "BEGIN { x = int(b * 3 + 0.5); exit (x == u) ? 0 : 1 }"'
expect_grep "... the pick trained fully" "^final: 2 epochs on 240 rows, train accuracy [0-9.]+ %, test accuracy: [0-9.]+ %$" s.out
expect_grep "... its record: the graph's pick by units" '"pick_units":' s.json
expect_grep "... and says it is a graph's" '"graph":[[:space:]]*true' s.json
expect_ok "... the saved pick, eval reads" "$C" eval --load s.model --data csv:tr.csv,te.csv
expect_grep "... a graph still" "graph: 3 Gemm, 1 Add, 1 Relu -> 2" "$TMP/out"

## a winning edge: the range goes on past it
expect_ok "sweep of one β" "$C" sweep --onnx "$R" $D --beta 1 --max-extend 1 --quiet --json one.json
check "... one β added (0.2 further)" sh -c 'grep -c "\"beta\":" one.json | grep -qx 2'

## side by side
for j in 1 2; do
	expect_ok "sweep --jobs $j on the graph" "$C" sweep --onnx "$R" $D --beta 0.7,1.5 --no-extend \
		--jobs $j --json j$j.json
	grep -v -e ' s$' -e 'seconds' "$TMP/out" >j$j.txt
done
check "... --jobs 2 prints the trials, table and pick of --jobs 1" cmp j1.txt j2.txt
check "... and records the same" cmp j1.json j2.json

## one process only
expect_exit "--trial is a chain's" 1 "^condnet sweep: --trial is for chains: a graph network's sweep runs in one process \(--jobs runs its trials side by side\)$" \
	"$C" sweep --onnx "$R" $D --beta 1 --trial 0 --out t.json
expect_exit "β of the same units refused" 1 "^condnet sweep: β = 1 and β = 1\.1 give the same channel groups 3x2: a step that adds no unit, expected β further apart$" \
	"$C" sweep --onnx "$R" $D --beta 1,1.1
finish
