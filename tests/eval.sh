#!/bin/sh
# eval.sh - `condnet eval` and `condnet predict` on small data the test
# makes: eval's accuracy is what train and squeeze report for the same model
# and split; its confusion matrix sums to the split; a network agrees with
# itself, and a compensated squeeze of a network with planted duplicate
# neurons with the network, on 100 % of the rows; squeeze reports the
# agreement eval finds; predict's classes give eval's accuracy, from a file,
# from standard input and from a data set alike, with the inputs made as the
# model records (standardized features, MNIST's Haar coefficients of pixel
# rows, whichever --inputs chose them, or its pixels, Adult's encoding of
# records), and so do squeeze, cond, train and alg1 given a model and the
# data set alone; a Python reading of the exported ONNX
# model gives predict's classes; every bad input is refused with its line
# and column, nothing half-written.
. "$(dirname "$0")/lib.sh"
C=$CONDNET
cd "$TMP" || exit 1

# json FILE EXPR: evaluates the Python expression EXPR with d = the parsed FILE.
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"; }
# acc FILE [N]: the accuracy eval printed for network #N (default 1).
acc() { sed -En "s/^${2:-1}  +[^ ]+  +(model|onnx|npy)  +[0-9-]+  +([0-9.]+)  .*/\2/p" "$1"; }
# classes FILE: the classes of predict's CSV, one a line.
classes() { sed 1d "$1" | cut -d, -f1; }

## a data set: 3 classes in 6 features, a training and a test file
awk 'BEGIN { s = 11; for (r = 0; r < 900; r++) { c = r % 3; line = "";
	for (j = 0; j < 6; j++) { s = (s * 1103515245 + 12345) % 2147483648;
		v = (s / 2147483648 - 0.5) * 2 + (j == c ? 1.5 : 0) + (j == c + 3 ? -1 : 0);
		line = line sprintf("%.5f,", 10 + 4 * v) }
	print line c > (r < 600 ? "tr.csv" : "te.csv") } }'
cut -d, -f1-6 te.csv >te-x.csv
cut -d, -f7 te.csv >te-y.txt
D="--data csv:tr.csv,te.csv"

## eval's accuracy is what train reports for the same model and split
expect_ok "train a standardized network" "$C" train $D --standardize --layers 2x16 --epochs 6 --save c.model --quiet
cp "$TMP/out" train.out
test_acc=$(sed -n 's/^test accuracy: \([0-9.]*\) %$/\1/p' train.out)
train_acc=$(sed -n 's/^train accuracy: \([0-9.]*\) %$/\1/p' train.out)
expect_ok "eval the model on the test split" "$C" eval --load c.model $D --json e.json --quiet
cp "$TMP/out" eval.out
check "eval's test accuracy is train's ($test_acc %)" [ "$(acc eval.out)" = "$test_acc" ]
expect_grep "eval names the split and its rows" '^csv:tr\.csv,te\.csv, test split: 300 rows, 3 classes$' eval.out
expect_grep "the model's inputs are made as it records" '^inputs of #1: 6 features as given, standardized on its training set$' eval.out
check "the confusion matrix sums to the split's 300 rows" json e.json \
	"d['rows'] == 300 and sum(map(sum, d['models'][0]['confusion'])) == 300 and sum(c['rows'] for c in d['models'][0]['per_class']) == 300"
check "per class: correct is the diagonal, precision and recall its shares" json e.json "all(
	c['correct'] == d['models'][0]['confusion'][c['class']][c['class']] and
	abs(c['precision'] - 100 * c['correct'] / c['answered']) < 1e-9 and
	abs(c['recall'] - 100 * c['correct'] / c['rows']) < 1e-9 for c in d['models'][0]['per_class'])"
expect_ok "eval on the training split" "$C" eval --load c.model $D --split train --json etr.json --quiet
check "eval's train accuracy is train's ($train_acc %)" [ "$(acc "$TMP/out")" = "$train_acc" ]
expect_ok "eval on both splits" "$C" eval --load c.model $D --split all --json eall.json --quiet
check "the confusion matrix of all sums to 900 rows, train's and test's" json eall.json \
	"d['rows'] == 900 and sum(map(sum, d['models'][0]['confusion'])) == 900 and
	 d['models'][0]['correct'] == $(python3 -c "import json; print(sum(json.load(open(f))['models'][0]['correct'] for f in ('e.json', 'etr.json')))")"
expect_exit "a --center against the record is refused" 1 \
	"^condnet eval: c\.model records inputs standardized on its training set: drop --center" \
	"$C" eval --load c.model $D --center
expect_ok "another command without --standardize makes the inputs as the model records" \
	"$C" squeeze --load c.model $D --tau 2 --no-timing --quiet
check "... its accuracy before squeezing is eval's ($test_acc %)" \
	grep -q "^test accuracy before squeezing: $test_acc %$" "$TMP/out"
expect_exit "and refuses a --center against the record as eval does" 1 \
	"^condnet squeeze: c\.model records inputs standardized on its training set: drop --center" \
	"$C" squeeze --load c.model $D --center

## squeeze reports the accuracy and the agreement eval finds
expect_ok "train on the synthetic set" "$C" train --layers 3x24 --epochs 4 --save m.model --quiet
expect_ok "squeeze it" "$C" squeeze --load m.model --tau 3 --no-timing --save s.model --json sq.json --quiet
cp "$TMP/out" sq.out
sq_acc=$(sed -n 's/^test accuracy after squeezing: \([0-9.]*\) %$/\1/p' sq.out)
sq_agree=$(sed -n 's/^the squeezed network answers as the original on \([0-9.]*\) % of the test set: .*/\1/p' sq.out)
expect_ok "eval the network and its squeeze" "$C" eval --load m.model --load s.model --json ms.json --quiet
cp "$TMP/out" ms.out
check "eval's accuracy of the squeeze is squeeze's ($sq_acc %)" [ "$(acc ms.out 2)" = "$sq_acc" ]
expect_grep "eval's agreement is squeeze's (${sq_agree:-none} %)" \
	"^#1 and #2 answer the same class on ${sq_agree:-none} % of the rows \([0-9]+ of 600 differ\)$" ms.out
check "and so are the rows that differ per class" python3 -c "
import json
a, b = json.load(open('ms.json'))['agreement'][0], json.load(open('sq.json'))['agreement_squeezed']
assert a['differ_per_class'] == b['differ_per_class'] and a['same'] == b['same'], (a, b)
assert sum(a['differ_per_class']) == 600 - a['same'] and a['same'] < 600, a"
"$C" predict --load m.model --data synthetic --quiet >pm.csv && "$C" predict --load s.model --data synthetic --quiet >psq.csv
same=$(paste -d, pm.csv psq.csv | sed 1d | awk -F, '$1 == $5 { n++ } END { print n + 0 }')
check "the rows answered alike are those predict's classes share ($same)" json ms.json "d['agreement'][0]['same'] == $same"
expect_ok "squeeze and retrain" "$C" squeeze --load m.model --tau 3 --no-timing --retrain 1 --save r.model --quiet
rt_agree=$(sed -n 's/^retrained, it answers as the original on \([0-9.]*\) % of the test set: .*/\1/p' "$TMP/out")
expect_ok "eval the network and its retrained squeeze" "$C" eval --load m.model --load r.model --quiet
expect_grep "squeeze's agreement after retraining is eval's (${rt_agree:-none} %)" \
	"^#1 and #2 answer the same class on ${rt_agree:-none} % of the rows" "$TMP/out"

## a network agrees with itself on every row
expect_ok "eval a model beside itself" "$C" eval --load m.model --load m.model --json self.json --quiet
expect_grep "it agrees with itself on 100 %" '^#1 and #2 answer the same class on 100\.00 % of the rows \(0 of 600 differ\)$' "$TMP/out"
check "no row differs in any class" json self.json "d['agreement'][0]['differ_per_class'] == [0, 0, 0]"

## a compensated squeeze of planted duplicate neurons answers as the network
# 10-8-7-3, tanh: hidden layer 2 holds copies of its neurons 1 and 3 (the same
# incoming weights and bias) with the outgoing weights split 0.3/0.7 and 0.5/0.5
python3 - <<'EOF'
import os, random, struct
random.seed(5)
def npy(path, rows, cols, v):
    shape = f"({rows}, {cols})" if cols else f"({rows},)"
    h = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % shape
    h += " " * (63 - (10 + len(h)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode())
        f.write(struct.pack("<%df" % len(v), *v))
g = lambda n: [random.gauss(0, 0.6) for _ in range(n)]
W1, b1, W2b, b2b, W3b, b3 = g(80), g(8), g(40), g(5), g(15), g(3)
src, share = [0, 1, 2, 3, 4, 1, 3], [1, 0.3, 1, 0.5, 1, 0.7, 0.5]
W2 = [W2b[i * 5 + src[j]] for i in range(8) for j in range(7)]
b2 = [b2b[src[j]] for j in range(7)]
W3 = [share[j] * W3b[src[j] * 3 + k] for j in range(7) for k in range(3)]
os.makedirs("planted", exist_ok=True)
for name, r, c, v in (("W1", 10, 8, W1), ("b1", 8, 0, b1), ("W2", 8, 7, W2), ("b2", 7, 0, b2),
                      ("W3", 7, 3, W3), ("b3", 3, 0, b3)):
    npy(f"planted/{name}.npy", r, c, v)
EOF
expect_ok "import the planted network" "$C" import --npy planted --act tanh --save dup.model
expect_ok "squeeze it with compensation" "$C" squeeze --load dup.model --tau 1000 --compensate --no-timing --save dsq.model --quiet
expect_grep "the two copies go" '^result: 10-8-5-3$' "$TMP/out"
expect_grep "squeeze says it answers as before on 100 %" \
	'^the squeezed network answers as the original on 100\.00 % of the test set: 0 of its 600 rows differ$' "$TMP/out"
expect_ok "eval the planted network and its squeeze" "$C" eval --load dup.model --load dsq.model --quiet
expect_grep "eval finds them alike on 100 %" '^#1 and #2 answer the same class on 100\.00 % of the rows \(0 of 600 differ\)$' "$TMP/out"

## predict's classes give eval's accuracy, whatever the inputs come from
expect_ok "predict from a file of features" "$C" predict --load c.model --input te-x.csv --out p.csv
expect_grep "predict says where the answers went" '^300 answers of c\.model to p\.csv$' "$TMP/out"
check "a header, then a line per input" sh -c "[ \"\$(head -1 p.csv)\" = class,p0,p1,p2 ] && [ \$(wc -l <p.csv) -eq 301 ]"
check "each line's class is its largest probability, and they sum to 1" python3 -c "
rows = [l.split(',') for l in open('p.csv').read().split()[1:]]
for r in rows:
    p = [float(x) for x in r[1:]]
    assert int(r[0]) == p.index(max(p)) and abs(sum(p) - 1) < 1e-5, r"
pacc=$(classes p.csv | paste -d' ' - te-y.txt | awk '$1 == $2 { n++ } END { printf "%.2f", 100 * n / NR }')
check "predict's classes give eval's accuracy ($pacc %, eval $test_acc %)" [ "$pacc" = "$test_acc" ]
expect_ok "predict the test split of the data set" "$C" predict --load c.model $D --out pd.csv --quiet
check "the same answers, to the bit" cmp p.csv pd.csv
"$C" predict --load c.model --data - <te-x.csv >ps.csv 2>"$TMP/err"
check "from standard input the same answers" cmp p.csv ps.csv
check "with the closing line on standard error" grep -q '^300 answers of c\.model to standard output$' "$TMP/err"
expect_ok "predict into .npy arrays" "$C" predict --load c.model --input te-x.csv --npy-out arrays --quiet
check "classes.npy and probabilities.npy hold the CSV's answers" python3 -c "
import struct
def npy(p):
    b = open(p, 'rb').read(); n = struct.unpack('<H', b[8:10])[0]; h = b[10:10 + n].decode()
    return h, b[10 + n:]
h, b = npy('arrays/classes.npy'); assert \"'<i4'\" in h and '(300,)' in h, h
c = struct.unpack('<300i', b)
h, b = npy('arrays/probabilities.npy'); assert \"'<f4'\" in h and '(300, 3)' in h, h
p = struct.unpack('<900f', b)
rows = [l.split(',') for l in open('p.csv').read().split()[1:]]
assert [int(r[0]) for r in rows] == list(c)
assert all(abs(float(r[k + 1]) - p[3 * i + k]) < 1e-8 for i, r in enumerate(rows) for k in range(3))"

## a Python reading of the exported ONNX model gives predict's classes
PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import onnx, numpy' >/dev/null 2>&1; then PY=$p; break; fi
done
expect_ok "train a network on features as given" "$C" train $D --layers 12,8 --act tanh --epochs 4 --save raw.model --quiet
expect_ok "predict with it" "$C" predict --load raw.model --input te-x.csv --out praw.csv --quiet
expect_ok "export it as ONNX" "$C" export --load raw.model --onnx raw.onnx
if [ -n "$PY" ]; then
	check "the ONNX graph, run by numpy, answers predict's classes" "$PY" - <<'EOF'
import math
import numpy as np, onnx
from onnx import numpy_helper
m = onnx.load("raw.onnx")
onnx.checker.check_model(m)
vals = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
vals["input"] = np.loadtxt("te-x.csv", delimiter=",", dtype=np.float32)
erf = np.vectorize(math.erf)
for n in m.graph.node:
    a = [vals[i] for i in n.input]
    if n.op_type == "Gemm":
        tb = {x.name: x.i for x in n.attribute}.get("transB", 0)
        y = a[0] @ (a[1].T if tb else a[1]) + a[2]
    elif n.op_type == "Mul": y = a[0] * a[1]
    elif n.op_type == "Erf": y = erf(a[0]).astype(np.float32)
    elif n.op_type == "Tanh": y = np.tanh(a[0])
    elif n.op_type == "Relu": y = np.maximum(a[0], 0)
    elif n.op_type == "Sigmoid": y = 1 / (1 + np.exp(-a[0]))
    elif n.op_type == "Softmax":
        z = np.exp(a[0] - a[0].max(axis=1, keepdims=True)); y = z / z.sum(axis=1, keepdims=True)
    else: raise SystemExit(f"unexpected node {n.op_type}")
    vals[n.output[0]] = y
got = vals[m.graph.output[0].name]
want = np.loadtxt("praw.csv", delimiter=",", skiprows=1)
assert got.shape == (300, 3), got.shape
assert (got.argmax(axis=1) == want[:, 0]).all(), "classes differ"
d = np.abs(got - want[:, 1:]).max()
print(f"the ONNX graph's probabilities differ from predict's by {d:.3g}")
assert d < 1e-5, d
EOF
else
	echo "# no Python with onnx and numpy (python3-onnx): the ONNX reading is not checked"
fi

## MNIST: predict reads pixel rows and makes the model's Haar coefficients
# a small idx set: 28x28 images, a bright bar whose place is the class
mkdir -p data/mnist
python3 - <<'EOF'
import random, struct
random.seed(3)
def images(n):
    ys, px = [], []
    for i in range(n):
        c = i % 10; ys.append(c)
        img = [random.randrange(0, 40) for _ in range(784)]
        for r in range(4 + 2 * c, 7 + 2 * c):
            for k in range(6, 22): img[r * 28 + k] = random.randrange(180, 256)
        px.append(img)
    return ys, px
for name, n in (("train", 400), ("t10k", 120)):
    ys, px = images(n)
    with open(f"data/mnist/{name}-images-idx3-ubyte", "wb") as f:
        f.write(struct.pack(">IIII", 0x803, n, 28, 28) + bytes(v for img in px for v in img))
    with open(f"data/mnist/{name}-labels-idx1-ubyte", "wb") as f:
        f.write(struct.pack(">II", 0x801, n) + bytes(ys))
    if name == "t10k":
        with open("px.csv", "w") as f:
            f.write("\n".join(",".join(map(str, img)) for img in px) + "\n")
EOF
expect_ok "train on it, standardized" "$C" train --data mnist --features 24 --layers 16 --epochs 8 --standardize --save mn.model --quiet
mn_acc=$(sed -n 's/^test accuracy: \([0-9.]*\) %$/\1/p' "$TMP/out")
expect_ok "eval it without --features and --standardize" "$C" eval --load mn.model --data mnist --quiet
check "eval's accuracy is train's ($mn_acc %)" [ "$(acc "$TMP/out")" = "$mn_acc" ]
expect_grep "the inputs are the recorded Haar coefficients" '^inputs of #1: 24 Haar coefficients of 28×28 images, standardized on its training set$' "$TMP/out"
expect_ok "predict from pixel rows" "$C" predict --load mn.model --input px.csv --out pmn.csv --quiet
expect_ok "predict the test split" "$C" predict --load mn.model --data mnist --out pmnd.csv --quiet
check "pixel rows get the test split's answers, to the bit" cmp pmn.csv pmnd.csv
sed '2s/^[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9]*,/1,2,3,4,300,/' px.csv >px-bad.csv
expect_exit "a pixel value beyond 255" 1 "^condnet predict: px-bad\.csv:2: column 5: a pixel value is 300, expected 0\.\.255$" \
	"$C" predict --load mn.model --input px-bad.csv
cut -d, -f1-783 px.csv >px-short.csv
expect_exit "a row of 783 pixels" 1 "^condnet predict: px-short\.csv:1: 783 columns, but mn\.model reads 28×28 images: 784 pixel values a row$" \
	"$C" predict --load mn.model --input px-short.csv
expect_exit "--features other than the record's" 1 "^condnet eval: mn\.model has 24 inputs, but mnist-haar20 train" \
	"$C" eval --load mn.model --data mnist --features 20

## MNIST: a model trained on other --inputs records them; eval and predict make them
expect_ok "train on the 24 coefficients of largest variance" "$C" train --data mnist --inputs variance --features 24 --layers 16 --epochs 8 --save mv.model --quiet
mv_acc=$(sed -n 's/^test accuracy: \([0-9.]*\) %$/\1/p' "$TMP/out")
expect_ok "eval it without --inputs and --features" "$C" eval --load mv.model --data mnist --quiet
check "eval's accuracy is train's ($mv_acc %)" [ "$(acc "$TMP/out")" = "$mv_acc" ]
expect_grep "the inputs are the recorded coefficients" '^inputs of #1: 24 Haar coefficients of 28×28 images$' "$TMP/out"
expect_ok "predict from pixel rows" "$C" predict --load mv.model --input px.csv --out pmv.csv --quiet
expect_ok "predict the test split" "$C" predict --load mv.model --data mnist --out pmvd.csv --quiet
check "pixel rows get the test split's answers, to the bit" cmp pmv.csv pmvd.csv
expect_exit "the paper's choice asked for instead" 1 \
	"^condnet eval: mv\.model reads Haar coefficient [0-9]+ as feature [0-9]+, but mnist-haar24 train chose coefficient [0-9]+ there$" \
	"$C" eval --load mv.model --data mnist --inputs qr --features 24
expect_ok "train on the pixels, centred" "$C" train --data mnist --inputs pixels --center --layers 16 --epochs 4 --save mp.model --quiet
mp_acc=$(sed -n 's/^test accuracy: \([0-9.]*\) %$/\1/p' "$TMP/out")
expect_ok "eval it without --inputs and --center" "$C" eval --load mp.model --data mnist --quiet
check "eval's accuracy is train's ($mp_acc %)" [ "$(acc "$TMP/out")" = "$mp_acc" ]
expect_grep "the inputs are the recorded pixels" '^inputs of #1: 784 pixels of 28×28 images, scaled to \[0, 1\], centred on its training set$' "$TMP/out"
expect_ok "predict from pixel rows" "$C" predict --load mp.model --input px.csv --out pmp.csv --quiet
expect_ok "predict the test split" "$C" predict --load mp.model --data mnist --out pmpd.csv --quiet
check "pixel rows get the test split's answers, to the bit" cmp pmp.csv pmpd.csv
expect_exit "Haar coefficients asked for instead" 1 "^condnet eval: mp\.model has 784 inputs, but mnist-haar200 train has 200 features$" \
	"$C" eval --load mp.model --data mnist --inputs qr
expect_exit "the pixel model on 784 Haar coefficients" 1 "^condnet predict: mp\.model reads pixels of 28×28 images, but mnist-haar784 train gives Haar coefficients of 28×28 images$" \
	"$C" predict --load mp.model --data mnist --features 784

## every command that loads a model reads its inputs as it records them
expect_ok "squeeze the pixel model given --data mnist alone" "$C" squeeze --load mp.model --data mnist --tau 2 --no-timing --quiet
check "squeeze's accuracy before is eval's ($mp_acc %)" grep -q "^test accuracy before squeezing: $mp_acc %$" "$TMP/out"
expect_ok "its layers alone: --only-layers 1" "$C" squeeze --load mp.model --data mnist --tau 2 --only-layers 1 --no-timing --json sq1.json --quiet
check "... the record says so" json sq1.json "d['only_layers'] == [1]"
expect_ok "cond on the coefficients of largest variance, given --data mnist alone" "$C" cond --load mv.model --data mnist --no-squeeze
check "cond's accuracy is eval's ($mv_acc %)" grep -q "^test accuracy: $mv_acc %$" "$TMP/out"
expect_ok "train the standardized model further without --features and --standardize" "$C" train --load mn.model --data mnist --epochs 1 --save mn2.model --quiet
expect_ok "Algorithm 1 from the pixel model" "$C" alg1 --load mp.model --data mnist --tau 50 --max-iter 1 --quiet
expect_exit "squeeze told other inputs" 1 "^condnet squeeze: mp\.model has 784 inputs, but mnist-haar200 train has 200 features$" \
	"$C" squeeze --load mp.model --data mnist --inputs qr --no-timing
expect_exit "squeeze given a scale step the record does not have" 1 \
	"^condnet squeeze: mn\.model records inputs standardized on its training set: drop --center \(its inputs are made as it records\)$" \
	"$C" squeeze --load mn.model --data mnist --center --no-timing

## Adult: predict reads records without their income and encodes them
mkdir -p data/adult
python3 - <<'EOF'
import random
random.seed(8)
work = ["Private", "Self-emp-not-inc", "State-gov", "?"]
edu = ["Bachelors", "HS-grad", "Masters", "11th"]
mar = ["Married-civ-spouse", "Never-married", "Divorced"]
occ = ["Tech-support", "Sales", "Exec-managerial", "Craft-repair"]
rel = ["Husband", "Not-in-family", "Own-child", "Wife"]
def rec():
    age, rich = random.randrange(18, 80), random.random() < 0.4
    f = [age, random.choice(work), random.randrange(20000, 400000), random.choice(edu),
         random.randrange(5, 16) + (4 if rich else 0), random.choice(mar), random.choice(occ),
         random.choice(rel), random.choice(["White", "Black"]), random.choice(["Male", "Female"]),
         5000 if rich and random.random() < 0.5 else 0, 0, 40 + (15 if rich else 0),
         random.choice(["United-States", "Mexico", "?"])]
    return ", ".join(map(str, f)), ">50K" if rich else "<=50K"
for name, n, dot in (("adult.data", 300, ""), ("adult.test", 100, ".")):
    rows = [rec() for _ in range(n)]
    with open(f"data/adult/{name}", "w") as f:
        if dot: f.write("|1x3 Cross validator\n")
        f.write("".join(f"{r}, {y}{dot}\n" for r, y in rows))
    if dot:
        with open("records.csv", "w") as f: f.write("".join(f"{r}\n" for r, y in rows))
EOF
expect_ok "train on Adult, centred" "$C" train --data adult --layers 12 --epochs 4 --center --save ad.model --quiet
expect_ok "predict from records" "$C" predict --load ad.model --input records.csv --out pad.csv --quiet
expect_ok "predict the test split" "$C" predict --load ad.model --data adult --out padd.csv --quiet
check "records get the test split's answers" cmp pad.csv padd.csv
sed '3s/Private/Privat/; 3s/State-gov/Privat/; 3s/Self-emp-not-inc/Privat/; 3s/, ?,/, Privat,/' records.csv >rec-bad.csv
expect_exit "an unknown category" 1 "^condnet predict: rec-bad\.csv:3: field 2 \(workclass\): unknown category 'Privat'$" \
	"$C" predict --load ad.model --input rec-bad.csv

## bad input: each refused with its message, exit 1 (2 for usage), nothing written
printf 'old\n' >keep.csv
printf '1,2,3,4\n' >w.csv
expect_exit "inputs of another width" 1 "^condnet predict: w\.csv:1: 4 columns, but c\.model takes 6 inputs$" \
	"$C" predict --load c.model --input w.csv --out keep.csv --npy-out none
check "the previous output is intact, no array written" sh -c "[ \"\$(cat keep.csv)\" = old ] && [ ! -e none ]"
awk -F, '{ print $1 "," $2 "," $3 "," $4 "," $7 }' te.csv >w4.csv
expect_exit "a data set of another width" 1 "^condnet eval: c\.model has 6 inputs, but w4\.csv has 4 features$" \
	"$C" eval --load c.model --data csv:w4.csv,w4.csv
{ head -4 te.csv; echo '1,2,3,4,5,6,5'; } >big.csv
expect_exit "a class beyond the outputs" 1 "^condnet eval: big\.csv:5: column 7: class 5 is beyond the network's 3 outputs \(classes 0\.\.2\)$" \
	"$C" eval --load c.model --data csv:tr.csv,big.csv
: >empty.csv
expect_exit "an empty file" 1 "^condnet predict: empty\.csv: empty file, expected rows of comma-separated numbers$" \
	"$C" predict --load c.model --input empty.csv
{ head -2 te-x.csv; echo '1,2,NaN,4,5,6'; } >nan.csv
expect_exit "NaN in a feature" 1 "^condnet predict: nan\.csv:3: column 3: 'NaN' is NaN, expected a finite number$" \
	"$C" predict --load c.model --input nan.csv
expect_exit "text in a feature" 1 "^condnet predict: standard input:2: column 2: 'abc' is not a number$" \
	sh -c "printf '1,2,3,4,5,6\n1,abc,3,4,5,6\n' | '$C' predict --load c.model --data -"
expect_exit "eval without a network" 2 "^condnet eval: a network is required" "$C" eval
expect_exit "predict without inputs" 2 "^condnet predict: the inputs are required" "$C" predict --load c.model
expect_exit "predict with two networks" 2 "^condnet predict: one network is required" \
	"$C" predict --load c.model --load m.model --input te-x.csv
expect_exit "an unknown split" 2 "^condnet eval: --split: unknown split 'dev' \(expected test, train or all\)$" \
	"$C" eval --load c.model --split dev
expect_exit "networks of other outputs side by side" 1 "^condnet eval: c\.model has 3 outputs, mn\.model has 10" \
	"$C" eval --load c.model --load mn.model

## the other formats, and the progress line on a terminal
expect_ok "eval --markdown" "$C" eval --load m.model --load s.model --markdown --quiet
expect_grep "tables as Markdown" '^\| # +\| +model \| +kind \|' "$TMP/out"
"$C" eval --load raw.model --onnx raw.onnx $D --json - >stdout.json 2>stderr.txt
check "--json - puts the record alone on standard output" json stdout.json \
	"d['command'] == 'eval' and [m['kind'] for m in d['models']] == ['model', 'onnx']"
check "and the tables on standard error" grep -q '^#1 and #2 answer the same class' stderr.txt
expect_ok "eval --csv" "$C" eval --load c.model $D --csv - --quiet
check "the CSV's header and a row per class" sh -c "head -1 '$TMP/out' | grep -qx 'model,class,rows,answered,correct,precision,recall' && [ \$(wc -l <'$TMP/out') -eq 4 ]"
if command -v script >/dev/null 2>&1; then
	script -qec "'$C' eval --load c.model $D" /dev/null >tty.txt 2>&1
	check "on a terminal a progress line counts the rows" grep -q '\[####################\] #1 c\.model  300/300 rows' tty.txt
	script -qec "'$C' eval --load c.model $D --quiet" /dev/null >tty.txt 2>&1
	check "--quiet draws none" sh -c "! grep -q '/300 rows' tty.txt"
fi
"$C" eval --load c.model $D >out.txt 2>err.txt
check "away from a terminal there is none" sh -c "[ ! -s err.txt ]"
finish
