#!/bin/sh
# answers.sh - what a network answers is a number or no answer, and goes
# with its preprocessing:
#  - finite inputs that overflow a network (±3e38 through --standardize)
#    answer no class: predict refuses to write such a row as a class, eval
#    counts it wrong, in no class, and says the loss is not finite;
#  - export --onnx and --npy of a model with recorded preprocessing (means
#    and scales) carry the record and say so; the import answers as the
#    model does, to the bit;
#  - eval of a model on other data than it learned on says so when the
#    record of its means and scales shows it.
. "$(dirname "$0")/lib.sh"
C=$CONDNET
cd "$TMP" || exit 1

"$C" train --data moons --layers 8 --epochs 20 --standardize --save st.model --quiet >/dev/null ||
	{ echo "cannot train the test's model"; exit 1; }

## inputs the network overflows on
printf '3e38,-3e38\n0.1,0.2\n-3e38,3e38\n' >huge.csv
expect_exit "predict: a row the network answers no class for" 1 \
	"^condnet predict: huge\.csv: row 1 and others: the network's outputs are not finite \(the inputs are too large for it\), so it answers no class \(2 rows in all\); nothing written$" \
	"$C" predict --load st.model --input huge.csv --out ans.csv
check "and no answers were written" [ ! -e ans.csv ]
printf '3e38,-3e38,0\n0.1,0.2,1\n-3e38,3e38,1\n0.5,0.5,0\n0.2,0.1,1\n' >huge_l.csv
expect_ok "eval on rows the network overflows on" "$C" eval --load st.model --data csv:huge_l.csv,huge_l.csv \
	--json ev.json
expect_grep "eval says how many rows answer no class" \
	"^#1 answers no class for 2 of the rows: an output is not finite" "$TMP/out"
expect_grep "and that the loss is not finite" "st\.model +model +2-8-2 +[0-9.]+ +not finite" "$TMP/out"
check "the record: 2 rows without an answer, no class counting them, the loss null" python3 -c "
import json; m = json.load(open('ev.json'))['models'][0]
assert m['no_answer'] == 2 and m['loss'] is None, m
assert sum(c['answered'] for c in m['per_class']) == 3, m['per_class']
assert sum(sum(r) for r in m['confusion']) == 3, m['confusion']
assert m['correct'] <= 3"

## the preprocessing goes with an export
expect_ok "export --onnx of a model that standardizes" "$C" export --load st.model --onnx st.onnx
expect_grep "says where the record of the preprocessing is" \
	"^condnet export: note: st\.model reads 2 features as given, standardized on its training set: the ONNX graph takes its inputs made so .*condnet\.prep" "$TMP/err"
expect_ok "export --npy of it" "$C" export --load st.model --npy stn
expect_grep "says so too" "^condnet export: note: st\.model reads .*prep_mean\.npy, prep_scale\.npy" "$TMP/err"
check "the set holds the means and scales for NumPy" [ -s stn/prep_mean.npy -a -s stn/prep_scale.npy ]
expect_ok "import --onnx" "$C" import --onnx st.onnx --save so.model
expect_ok "import --npy" "$C" import --npy stn --save sn.model
"$C" predict --load st.model --data moons --out a.csv --quiet
for f in so.model sn.model; do
	"$C" predict --load $f --data moons --out b.csv --quiet
	check "$f answers as the model did, to the bit" cmp a.csv b.csv
done
"$C" predict --onnx st.onnx --data moons --out b.csv --quiet
check "predict --onnx reads the record too" cmp a.csv b.csv

## a model evaluated on other data than it learned on, when its record tells
"$C" train --data xor --layers 8 --epochs 5 --standardize --save x.model --quiet >/dev/null
expect_ok "eval of a model of xor on moons" "$C" eval --load x.model --data moons --quiet
expect_grep "says it was likely trained on other data" \
	"^condnet: note: x\.model records the means and scales of its training data; this training split, made with them, has feature [12] of mean .* x\.model was likely trained on other data$" "$TMP/err"
expect_ok "eval of it on xor" "$C" eval --load x.model --data xor --quiet
check "says nothing of the kind" sh -c "! grep -q 'other data' '$TMP/err'"
finish
