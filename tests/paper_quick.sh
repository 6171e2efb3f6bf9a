#!/bin/sh
# paper_quick.sh - `condnet paper mnist|adult --quick` runs every stage on
# small data sets this test writes (MNIST-format idx files of random images,
# Adult-format rows), writes the report, and reuses stages on a second run.
# It checks that the pipeline runs and reports, not the accuracies.
. "$(dirname "$0")/lib.sh"

command -v perl >/dev/null || { echo "perl is needed to write the test data"; exit 77; }

. "$(dirname "$0")/paper_data.sh"
paper_data "$CONDNET_DATA"

for which in mnist adult; do
	out="$TMP/$which"
	expect_ok "paper $which --quick runs" "$CONDNET" paper "$which" --quick --quiet --out "$out" --threads 1
	report="$out/results-$which.md"
	if [ -f "$report" ]; then pass "paper $which writes the report"; else fail "no $report"; continue; fi
	case $which in
	mnist) stages="alg1 alg2 final verify squeeze add20 over eta tau"
	       tables="Table 1 |Table 2 |Table 3 |Table 6 |Table 7 |Table 8 |Table 9 |Table 14 |Table 15 |Table 16 |Table 17 " ;;
	adult) stages="alg1 alg2 final verify squeeze over"
	       tables="Table 4 |Figure 4 |Table 5 |Table 10 |Table 11 |Table 12 |Table 13 " ;;
	esac
	for st in $stages; do
		if [ -s "$out/$st.json" ]; then pass "$which stage $st recorded"; else fail "$which stage $st has no $out/$st.json"; fi
	done
	old=$IFS; IFS='|'
	for t in $tables; do expect_grep "$which report has $t" "^## $t" "$report"; done
	IFS=$old
	expect_grep "$which report marks the quick run" "quick smoke run" "$report"
	# A second run reuses every stage instead of recomputing it.
	expect_ok "paper $which resumes" "$CONDNET" paper "$which" --quick --out "$out" --threads 1
	n=$(grep -c "reusing" "$TMP/err")
	set -- $stages
	if [ "$n" -eq $# ]; then pass "$which: all $# stages reused"; else fail "$which: $n of $# stages reused"; sed 's/^/  | /' "$TMP/err"; fi
done

# The paper's models record how their inputs were made: eval makes them so.
expect_ok "eval a paper model on its data set" "$CONDNET" eval --load "$TMP/mnist/final.model" --data mnist --quiet
expect_grep "the paper's model records its Haar coefficients" \
	'^inputs of #1: [0-9]+ Haar coefficients of 28×28 images$' "$TMP/out"

# A report made from stage results alone reads no data set.
expect_ok "the report is made again without the data sets" env CONDNET_DATA="$TMP/none" \
	"$CONDNET" paper adult --quick --quiet --threads 2 --out "$TMP/adult" --report "$TMP/again.md"
check "and it is the same report" cmp "$TMP/adult/results-adult.md" "$TMP/again.md"
expect_grep "the report gives the threads the stages ran with" "^Machine: .*, 1 threads\.$" "$TMP/again.md"

# Inside the long "over" stage, rows already done are kept: a run that finds
# them (here: all of them) trains nothing and writes the same rows.
out="$TMP/mnist"
if [ -f "$out/over.json" ]; then
	grep -v '"seconds' "$out/over.json" >"$TMP/over.before"
	mv "$out/over.json" "$out/over.partial.json"
	cp "$out/over.partial.json" "$out/over.partial.json.kept"
	expect_ok "paper mnist resumes inside a stage" "$CONDNET" paper mnist --quick --out "$out" --threads 1 --stages over
	expect_grep "the over stage resumed" "over: resuming from" "$TMP/err"
	if grep -q "tau 500" "$TMP/err"; then fail "a finished row was recomputed"; else pass "finished rows are not recomputed"; fi
	grep -v '"seconds' "$out/over.json" >"$TMP/over.after"
	if cmp -s "$TMP/over.before" "$TMP/over.after"; then pass "the resumed stage has the same rows"; else fail "the resumed over.json differs"; fi
	if [ -e "$out/over.partial.json" ]; then fail "the partial file was left behind"; else pass "the partial file is removed when the stage ends"; fi
	num() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds'])" "$1"; }
	check "the resumed stage's time includes the earlier run's ($(num "$out/over.partial.json.kept") s)" \
		python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) >= float(sys.argv[1]) > 0 else 1)" \
		"$(num "$out/over.partial.json.kept")" "$(num "$out/over.json")"
	# Without its saved network the stage trains the same one again; rows of
	# a run that kept no time are said to be missing from the stage's time.
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
del d['seconds']
json.dump(d, open(sys.argv[2], 'w'))" "$out/over.json" "$out/over.partial.json"
	rm -f "$out/over.json" "$out/over-base.model"
	expect_ok "paper mnist resumes without the saved network" "$CONDNET" paper mnist --quick --out "$out" --threads 1 --stages over
	expect_grep "the missing network is trained again" "over-base.model is missing; training it again" "$TMP/err"
	grep -v '"seconds' "$out/over.json" >"$TMP/over.after"
	if cmp -s "$TMP/over.before" "$TMP/over.after"; then pass "and the rows are the same"; else fail "the rows differ after retraining the network"; fi
	nrows=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['rows']))" "$out/over.json")
	expect_grep "the report says which rows are not timed" \
		"^\| over \| Table 9 \| [0-9.]+ \(without $nrows rows of an earlier run that kept no time\) \|$" "$out/results-mnist.md"
fi

# The other settings: trained to convergence, and erf(0.1·x), each in its own
# directory and report by default.
(cd "$TMP" && "$CONDNET" paper adult --quick --converge --act-scale 0.1 --quiet --threads 1 \
	>"$TMP/out" 2>"$TMP/err")
check "paper adult --quick --converge --act-scale 0.1 runs" [ $? -eq 0 ]
out="$TMP/paper-adult-converge-a0.1-quick"
report="$out/results-adult.md"
expect_grep "the setting has its own directory and report" "^# Adult Income: condnet beside the paper, trained to convergence, erf\(0\.1·x\)$" "$report"
expect_grep "the report names the setting's command" "condnet paper adult --quick --converge --act-scale 0\.1 --seed 1" "$report"
expect_grep "the report says how it trains" "^\*\*Setting: trained to convergence\.\*\* .*cosine:4" "$report"
expect_grep "the squeeze tables give the epochs of each retraining" "^\| 35 \| .* \| [0-9]+ \([0-9]+\) \|$" "$report"
check "full trainings record the epoch kept and its validation accuracy" python3 -c "
import json, sys
d = sys.argv[1]
f = json.load(open(d + '/final.json'))
assert 1 <= f['best_epoch'] <= f['epochs'] <= 4 and 0 <= f['val_acc'] <= 100, f
rows = json.load(open(d + '/over.json'))['rows']
assert all(1 <= r['best_epoch'] <= r['epochs'] for r in rows), rows" "$out"

# A stop once a stage is done ends the run with status 130, as the other
# batch commands' (it used to be 1); the stages written are whole.
out="$TMP/adult-stop"
"$CONDNET" paper adult --out "$out" --threads 1 --quiet --report "$out/r.md" >"$TMP/stop.out" \
	2>"$TMP/stop.err" &
pid=$!
i=0
while [ $i -lt 1200 ] && [ ! -s "$out/alg1.json" ] && kill -0 $pid 2>/dev/null; do
	sleep 0.05; i=$((i + 1))
done
kill -TERM $pid 2>/dev/null || fail "paper ended before the signal"
wait $pid; st=$?
check "SIGTERM stops paper with status 130 (got $st)" [ "$st" -eq 130 ]
expect_grep "and it says the stage was interrupted" "^condnet paper: stage [a-z0-9]+: .*(interrupted|stopped)" "$TMP/stop.err"
check "the stage files are whole, no temporary file is left" python3 -c "
import glob, json, sys
files = glob.glob(sys.argv[1] + '/*.json')
assert files and not glob.glob(sys.argv[1] + '/*.tmp.*'), files
for f in files: json.load(open(f))" "$out"

expect_fail "paper rejects an unknown experiment" "mnist or adult" "$CONDNET" paper cifar
expect_fail "paper rejects an unknown stage" "unknown stage 'nope'" "$CONDNET" paper adult --quick --stages nope --out "$TMP/x"
finish
