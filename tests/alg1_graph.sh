#!/bin/sh
# alg1_graph.sh - condnet alg1 on a graph network (tests/onnx/residual.onnx:
# dense 4→3, a residual block of 3, dense 3→2): its channel groups shown,
# each iteration's groups with the κ and p of their stacks, the residual
# group shrunk by p while κ > τ, the logits' group never; the record of
# every iteration; the network it ends with saved, which eval reads; in the
# reproducible mode two runs give the same record but for their seconds;
# --warm keeps the trained units; a chain's options refused.
. "$(dirname "$0")/lib.sh"
C=$CONDNET
SRC=$(cd "${top_srcdir:-.}" && pwd)
cd "$TMP" || exit 1

## 300 rows of 4 features, 2 classes (the sign of the first two's sum)
sign_rows 300 4 5 >d.csv
head -240 d.csv >tr.csv
tail -60 d.csv >te.csv
R="$SRC/tests/onnx/residual.onnx"
D="--data csv:tr.csv,te.csv --eta 3 --batch 20 --threads 1 --quiet"

expect_ok "alg1 takes a graph network" "$C" alg1 --onnx "$R" $D --tau 1.2 --json a.json --save a.model
cp "$TMP/out" a.out
expect_grep "... says it runs by channel groups" \
	"^csv:tr\.csv,te\.csv: Algorithm 1 by channel groups from 4 graph: 3 Gemm, 1 Add, 1 Relu -> 2, tau 1\.2, eta 3$" a.out
expect_grep "... shows the groups: the residual one of 3 channels" "^1 +1 2 +3 +3 +1 Add +3 *$" a.out
expect_grep "... and the logits" "^2 +3 +2 +0 .*the logits$" a.out
expect_grep "... iteration 0's groups, with their stacks' rows" "^1 +3 +3 +9 +[0-9.]+ +[0-9]+$" a.out
expect_grep "... how it ended" "^status: (done|max-iter)" a.out
# each iteration's units: the residual group's before less its p (at most
# all but one) while κ > 1.2; read from the printed tables
check "... the residual group loses p channels an iteration while κ > τ" awk '
	/^iteration [0-9]+:/ { it = $2 + 0 }
	/^1 / && it != "" && NF == 6 { u[it] = $2; k[it] = $5; p[it] = $6; n = it }
	END { if (n < 1) exit 1
		for (i = 1; i <= n; i++) { cut = p[i-1] < u[i-1] - 1 ? p[i-1] : u[i-1] - 1
			if (k[i-1] <= 1.2) cut = 0
			if (u[i] != u[i-1] - cut) exit 1 }
		exit u[n] < u[0] ? 0 : 1 }' a.out
check "... the logits keep their 2 channels in every iteration" awk '
	/^iteration [0-9]+:/ { it = 1 }
	it && /^2 / && NF == 6 { n++; if ($2 != 2 || $3 != 0) bad = 1 }
	END { exit n >= 2 && !bad ? 0 : 1 }' a.out
expect_grep "... its record says it is a graph's, by groups" '"graph":[[:space:]]*true' a.json
expect_grep "... each group's p" '"p":[[:space:]]*[0-9]+' a.json
check "... a record for every iteration printed" \
	[ "$(grep -c '"iter":' a.json)" -eq "$(grep -c '^iteration ' a.out)" ]
expect_ok "... the network it ends with, saved, eval reads" "$C" eval --load a.model --data csv:tr.csv,te.csv
expect_grep "... a graph of the widths it ends with" "graph: 3 Gemm, 1 Add, 1 Relu -> 2" "$TMP/out"

## reproducible: the same record twice, but for the seconds each training took
for i in 1 2; do
	expect_ok "alg1 on the graph, reproducible ($i)" "$C" alg1 --onnx "$R" $D --tau 1.2 --warm \
		--reproducible --json "r$i.json"
done
check "... the two records are the same bytes but for their seconds" \
	sh -c 'grep -v "\"seconds\":" r1.json >r1.t && grep -v "\"seconds\":" r2.json >r2.t && cmp r1.t r2.t'
check "... and hold the seconds they leave out" [ "$(grep -c '"seconds":' r1.json)" -ge 1 ]
expect_grep "... warm" '"warm":[[:space:]]*true' r1.json
expect_ok "... another seed" "$C" alg1 --onnx "$R" $D --tau 1.2 --warm --seed 9 --reproducible --json r3.json
check "... gives another record" sh -c 'grep -v "\"seconds\":" r3.json | grep -v "\"seed\":" >r3.t && ! cmp -s r1.t r3.t'

## a chain's options
expect_exit "--round is a chain's" 1 "^condnet alg1: Algorithm 1: round = 2: a graph network's groups lose p units each, unrounded$" \
	"$C" alg1 --onnx "$R" $D --round 2
expect_exit "--csv is a chain's history" 2 "^condnet alg1: --csv is a chain's history; a graph network's run is recorded by --json$" \
	"$C" alg1 --onnx "$R" $D --csv h.csv
finish
