#!/bin/sh
# cli.sh - the batch commands of the real binary on the synthetic data set and
# small CSV files: help and manual agree, training reaches a stated accuracy,
# models round-trip, bad input fails with the right message and status, and
# the algorithms' records say what they should.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
MAN="$SRC/man/condnet.1"
C=$CONDNET
cd "$TMP" || exit 1

# json FILE EXPR: evaluates the Python expression EXPR with d = the parsed FILE.
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"; }

## help, version and the manual page
expect_ok "condnet --help" "$C" --help
expect_grep "--help lists the commands" '^  squeeze ' "$TMP/out"
expect_grep "--help lists eval" '^  eval  ' "$TMP/out"
expect_grep "--help lists predict" '^  predict  ' "$TMP/out"
ver=$(sed -n 's/^\.TH CONDNET 1 "[^"]*" "\(condnet [^"]*\)".*/\1/p' "$MAN")
expect_ok "condnet --version" "$C" --version
check "--version agrees with the manual page ($ver)" [ "$(head -1 "$TMP/out")" = "$ver" ]
expect_grep "--version names the kernels OpenBLAS runs" '^kernels: [A-Za-z0-9_]+' "$TMP/out"
for cmd in train alg1 sweep squeeze cond eval predict import export; do
	if "$C" $cmd --help >"$TMP/help" 2>&1; then
		missing=""
		for o in $(grep -Eo -- '--[a-z][a-z-]*' "$TMP/help" | sort -u); do
			esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
			grep -q -- "$esc" "$MAN" || missing="$missing $o"
		done
		check "$cmd --help: every option is in the manual page" [ -z "$missing" ]
		[ -n "$missing" ] && echo "  | not in $MAN:$missing"
	else
		fail "$cmd --help exits 0"
	fi
done
if command -v man >/dev/null 2>&1; then
	man -l "$MAN" 2>/dev/null | head -5 >"$TMP/man.txt"
	expect_grep "the manual page renders" '^NAME' "$TMP/man.txt"
fi
expect_exit "unknown command" 2 "unknown command 'frobnicate'" "$C" frobnicate

## training reaches a stated accuracy; the saved model gives it back
expect_ok "train on synthetic" "$C" train --layers 3x32 --epochs 6 --save m.model --json train.json --csv train.csv --quiet
cp "$TMP/out" train.out
expect_grep "train prints a line per epoch" '^epoch +6\.00 +loss [0-9.]+ +train +[0-9.]+ % +test +[0-9.]+ %' train.out
acc=$(sed -n 's/^test accuracy: \([0-9.]*\) %$/\1/p' train.out)
check "train reaches 85 % test accuracy (got ${acc:-none})" python3 -c "import sys; sys.exit(0 if float('${acc:-0}') >= 85 else 1)"
check "train --json records the test accuracy" json train.json "abs(d['test_accuracy'] - ${acc:-0}) < 0.005 and len(d['history']) == 6"
check "train --csv holds the epoch lines printed" python3 -c "
import csv, re
rows = list(csv.reader(open('train.csv')))
assert rows[0] == ['epoch', 'loss', 'train_acc', 'test_acc', 'seconds', 'lr', 'val_loss', 'val_acc'], rows[0]
lines = [l.split() for l in open('train.out') if l.startswith('epoch ')]
assert len(rows) == 7 and len(lines) == 6, (len(rows), len(lines))
for r, l in zip(rows[1:], lines):
    assert abs(float(r[0]) - float(l[1])) < 0.005 and abs(float(r[1]) - float(l[3])) < 5e-5, (r, l)
    assert abs(float(r[2]) - float(l[5])) < 0.005 and abs(float(r[3]) - float(l[8])) < 0.005, (r, l)
    assert float(r[4]) >= 0 and float(r[5]) == 0.001 and r[6] == r[7] == '', r
"
expect_ok "cond --load with the data" "$C" cond --load m.model --data synthetic
expect_grep "the loaded model has the same test accuracy" "^test accuracy: ${acc:-none} %$" "$TMP/out"

## bad input: the message names the problem; usage errors exit 2
expect_exit "--layers 0x5" 2 '^condnet train: --layers: .*0x5' "$C" train --layers 0x5
expect_exit "--layers -3" 2 '^condnet train: --layers: .*-3' "$C" train --layers -3
expect_exit "--batch 0" 2 "^condnet train: --batch: '0' is not a positive integer$" "$C" train --batch 0
expect_exit "--batch abc" 2 "^condnet train: --batch: 'abc' is not a positive integer$" "$C" train --batch abc
expect_exit "--threads 65" 2 "^condnet train: --threads: '65' is out of range \(1\.\.64\)$" "$C" train --threads 65
expect_exit "--lr 1e" 2 "^condnet train: --lr: '1e' is not a number$" "$C" train --lr 1e
expect_exit "--tau 1" 2 "^condnet alg1: --tau: '1' must be greater than 1$" "$C" alg1 --tau 1
expect_exit "--eta 0" 2 "^condnet alg1: --eta: '0' is not a positive number$" "$C" alg1 --eta 0
expect_exit "squeeze --tau 0.5" 2 "^condnet squeeze: --tau: '0.5' must be greater than 1$" "$C" squeeze --load m.model --tau 0.5
expect_exit "unknown option" 2 "^condnet cond: unknown option '--bogus'$" "$C" cond --bogus
expect_exit "option without its value" 2 "^condnet train: --epochs needs a value$" "$C" train --epochs
expect_exit "unknown data set" 2 "unknown data set 'nope'" "$C" train --data nope
expect_exit "--inputs of an unknown kind" 2 "^condnet train: --inputs: unknown inputs 'bogus' \(expected qr, variance, coarse, all or pixels\)$" "$C" train --inputs bogus
expect_exit "--inputs all with --features" 2 "^condnet train: --features counts the coefficients of --inputs qr, variance and coarse; --inputs all takes all 1,024$" "$C" train --data mnist --features 300 --inputs all
expect_exit "--features with --inputs pixels (export)" 2 "^condnet export: --features counts the coefficients .*; --inputs pixels takes every pixel$" "$C" export --inputs pixels --features 10 --data mnist --npy x
expect_exit "--inputs on a set other than MNIST" 1 "^condnet train: synthetic: the inputs 'variance' are a choice of mnist and fashion only$" "$C" train --data synthetic --inputs variance
expect_ok "--inputs qr, the default, on any set" "$C" train --inputs qr --epochs 1 --quiet
expect_exit "missing data set" 1 "^condnet train: .*data/fetch mnist" "$C" train --data mnist
expect_exit "missing model file" 1 "^condnet cond: missing\.model: " "$C" cond --load missing.model
cp m.model bad.model
printf 'XXXXXXXX' | dd of=bad.model bs=1 seek=300 conv=notrunc 2>/dev/null
expect_exit "corrupted model file" 1 "^condnet cond: bad\.model: .*(checksum|damaged)" "$C" cond --load bad.model
printf '0.5,1.5,0\n1.0,2.0,1\n3.0,1\n2.5,0.5,1\n' >ragged.csv
expect_exit "CSV with a ragged row" 1 "^condnet train: ragged\.csv:3: .*expected 3" "$C" train --data csv:ragged.csv
printf '0.5,1.5,0\n1.0,2.0,1\n3.0,1.0,0\n2.5,0.5,1\n' >two.csv
expect_exit "model and data disagree" 1 "^condnet train: m\.model: model has 10 inputs, data set has 2 features$" "$C" train --load m.model --data csv:two.csv
expect_exit "squeeze without a network" 2 "^condnet squeeze: one network is required: --load MODEL or --onnx FILE$" "$C" squeeze
expect_exit "--trial without --out" 2 "^condnet sweep: --trial needs a single --beta B and --out FILE$" "$C" sweep --beta 1 --trial 0

## cond --json: valid JSON with one entry per layer
expect_ok "cond --json" "$C" cond --load m.model --json cond.json
check "cond --json has m = 4 layers numbered 1..4" json cond.json \
	"[l['layer'] for l in d['layers']] == [1, 2, 3, 4] and all(l['n'] > 0 and l['kappa'] >= 1 for l in d['layers'])"
check "cond --json holds the network's κ as every record does" json cond.json \
	"d['kappa'] == [l['kappa'] for l in d['layers']] and d['p'] == [l['p'] for l in d['layers']] and len(d['n']) == 5"
expect_grep "cond prints the table" '^Layer +n_i +κ\(Ŵ\) +p \(τ=25\)' "$TMP/out"

## Algorithm 1 ends with every κ ≤ τ
expect_ok "alg1 on synthetic" "$C" alg1 --layers 3x32 --tau 12 --quiet --json alg1.json --csv alg1.csv --save alg1.model
cp "$TMP/out" alg1.out
check "alg1 --json: status done, every final κ <= τ" json alg1.json \
	"d['status'] == 'done' and all(k <= 12 for k in d['final_kappa']) and len(d['history']) >= 2"
expect_grep "alg1 prints the Table 1 layout" '^Layer +initial n_i +initial κ\(Ŵ\) +final n_i +final κ\(Ŵ\)$' alg1.out
expect_grep "alg1 prints the Table 16 rows" '^Σ\(n_i\) ' alg1.out
expect_grep "alg1 --csv has a header row" '^row,0,1' alg1.csv
expect_grep "alg1 gives the test accuracy of every iteration" \
	'^iter +0  Σn +[0-9]+  max κ +[0-9.]+  test acc +[0-9.]+ %  widths 10-32-32-32-3 ' alg1.out
check "on every iteration's line" sh -c "[ \$(grep -c '^iter ' alg1.out) -eq \$(grep -c '^iter .* test acc ' alg1.out) ]"
acc=$(sed -n 's/^the network it ends with: [0-9-]*, test accuracy \([0-9.]*\) % (600 test rows)$/\1/p' alg1.out)
check "alg1 ends with the test accuracy of the network it ends with ($acc)" [ -n "$acc" ]
"$C" eval --load alg1.model >alg1-eval.out 2>&1
check "which is what eval measures of the saved network" \
	grep -Eq "^1 +alg1\.model +model +[0-9-]+ +$acc " alg1-eval.out
check "and what its last iteration's line says" sh -c "grep '^iter ' alg1.out | tail -1 | grep -q ' test acc  *$acc %'"
expect_grep "alg1's history table has the test accuracy of every iteration" \
	"^test acc % +([0-9.]+ +)*$acc\$" alg1.out
expect_grep "and so has its --csv" '^test_acc_percent,[0-9.]+' alg1.csv

## Algorithm 2: separate trials gathered give the in-process table and pick
expect_ok "sweep in one process" "$C" sweep --layers 2x8 --beta 1,1.5 --q 2 --eta 0.5 --no-extend --quiet --json sweep.json
sed -n '/^β/,/^pick/p' "$TMP/out" >inproc.txt
for b in 1 1.5; do for t in 0 1; do
	"$C" sweep --layers 2x8 --beta $b --trial $t --eta 0.5 --out "trial-$b-$t.json" --quiet >/dev/null 2>&1 ||
		fail "sweep --beta $b --trial $t"
done; done
# (the gather names the trials' settings: they are checked against its own)
expect_ok "sweep --gather" "$C" sweep --layers 2x8 --q 2 --eta 0.5 --no-extend --gather trial-*.json
sed -n '/^β/,/^pick/p' "$TMP/out" >gather.txt
check "gathered table and pick equal the in-process ones" cmp inproc.txt gather.txt
check "the pick is marked" grep -q ' pick$' gather.txt
check "sweep --json names the pick" json sweep.json "d['pick'] in (1, 1.5) and len(d['betas']) == 2 and d['pick_n'] == d['betas'][[b['beta'] for b in d['betas']].index(d['pick'])]['n'] and 0 <= d['betas'][0]['err_v'] <= 100"
rm trial-1.5-1.json
expect_exit "sweep --gather names a missing trial" 1 '^condnet sweep: beta 1\.5, trial 1 is missing' \
	"$C" sweep --layers 2x8 --q 2 --eta 0.5 --no-extend --gather trial-*.json
# trials made on MNIST's inputs of another --inputs choice are not gathered
# with the paper's (a small idx set of 28x28 images under mn/mnist)
mkdir -p mn/mnist
python3 - <<'EOF'
import random, struct
random.seed(5)
for name, n in (("train", 100), ("t10k", 30)):
    ys, px = [i % 10 for i in range(n)], [random.randrange(256) for _ in range(n * 784)]
    open(f"mn/mnist/{name}-images-idx3-ubyte", "wb").write(struct.pack(">IIII", 0x803, n, 28, 28) + bytes(px))
    open(f"mn/mnist/{name}-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, n) + bytes(ys))
EOF
M="--data mnist --data-dir mn --features 8 --layers 2x8 --eta 0.5"
expect_ok "a trial on the paper's inputs" "$C" sweep $M --beta 1 --trial 0 --out in-qr.json --quiet
expect_ok "a trial on the coefficients of largest variance" "$C" sweep $M --inputs variance --beta 1 --trial 1 --out in-var.json --quiet
expect_exit "the gather refuses the mix, naming the inputs" 1 \
	"^condnet sweep: in-var\.json: made with the data set .* val-per-class=0 inputs=variance', but this gather has '.* val-per-class=0': trials of other settings are not compared$" \
	"$C" sweep $M --q 2 --no-extend --gather in-qr.json in-var.json
expect_ok "the trial again on the paper's inputs" "$C" sweep $M --beta 1 --trial 1 --out in-qr1.json --quiet
expect_ok "which the gather takes" "$C" sweep $M --q 2 --no-extend --gather in-qr.json in-qr1.json

## Algorithm 2 with trials side by side: the table and pick of one at a time
## (networks big enough for two threads to split their batches)
for j in 1 2; do
	expect_ok "sweep --jobs $j" "$C" sweep --layers 2x300 --beta 1,1.5 --q 3 --eta 0.5 --no-extend \
		--threads 2 --jobs $j --json "jobs$j.json"
	sed -n 's/ *[0-9.]* s$//; /^beta /p; /^β/,/^pick/p' "$TMP/out" >"jobs$j.txt"
done
check "sweep --jobs 2 prints the trials, table and pick of --jobs 1" cmp jobs1.txt jobs2.txt
check "sweep --jobs 2 writes the JSON of --jobs 1" cmp jobs1.json jobs2.json
check "the comparison saw six trials and the pick" \
	[ "$(grep -c '^beta ' jobs2.txt)" -eq 6 ] && grep -q ' pick$' jobs2.txt
expect_exit "--jobs 0" 2 "^condnet sweep: --jobs: '0' is not a positive integer$" "$C" sweep --jobs 0

## Algorithm 3: removed counts, with and without compensation
expect_ok "train an oversized network" "$C" train --layers 3x64 --epochs 3 --save big.model --quiet
expect_ok "squeeze" "$C" squeeze --load big.model --tau 10 --json sq.json --save sq.model --quiet
cp "$TMP/out" sq.out
expect_grep "squeeze prints the removed counts by stage" '^removed [1-9][0-9]* neurons: [0-9]+ by the \|r_jj\| threshold, [0-9]+ by the κ loop$' sq.out
expect_grep "squeeze labels the compensated squeeze as another network" '^the other network: the same squeeze with compensation removed [0-9]+ neurons: test accuracy [0-9.]+ %$' sq.out
expect_grep "squeeze shows κ at decision" '^layer +n before +after +κ as given +κ at decision +κ after +by \|r_jj\| +by κ loop$' sq.out
expect_grep "squeeze shows the costs" '^forward, batch 256 \(µs/sample\) +[0-9.]+ +[0-9.]+ +[0-9.]+$' sq.out
check "squeeze --json: the stages add up, the other network has its own count" json sq.json \
	"d['removed_threshold'] + d['removed_loop'] == d['removed'] and d['other_network']['compensate'] and d['other_network']['removed'] == d['removed_with_compensation'] and d['cost_after']['parameters'] < d['cost_before']['parameters']"
check "squeeze --json: removed > 0, the saved shape is smaller" json sq.json \
	"d['removed'] == d['removed_without_compensation'] > 0 and d['shape_after'] != d['shape_before']"
expect_ok "squeeze --compensate --retrain" "$C" squeeze --load big.model --tau 10 --compensate --retrain 1 --json sqc.json --quiet
check "squeeze --compensate keeps the compensated result" json sqc.json \
	"d['compensate'] and d['removed'] == d['removed_with_compensation'] and 'acc_retrained' in d"
check "squeeze --compensate --retrain: κ after retraining per layer" json sqc.json \
	"all('kappa_retrained' in l for l in d['layers'])"
expect_ok "cond --tau 10 --json" "$C" cond --load big.model --tau 10 --json cond10.json
expect_grep "cond says p is before any cascade" '^p: the singular values below σ₁/τ of each layer as it is, before any cascade$' "$TMP/out"
expect_grep "cond shows κ at decision beside κ as given" '^layer +n before +after +κ as given +κ at decision +κ after +by \|r_jj\| +by κ loop$' "$TMP/out"
check "cond's squeeze removes what squeeze removed" json cond10.json \
	"d['squeeze']['removed'] == json.load(open('sq.json'))['removed']"
expect_ok "squeeze --criterion norm to the counts of the first" "$C" squeeze --load big.model --criterion norm --keep-counts sq.json --json sqn.json --no-timing --quiet
check "--keep-counts: the norm squeeze keeps the same widths" json sqn.json \
	"[l['n_after'] for l in d['layers']] == [l['n_after'] for l in json.load(open('sq.json'))['layers']] and d['criterion'] == 'norm'"
expect_ok "squeeze --criterion random --keep-counts LIST" "$C" squeeze --load big.model --criterion random --keep-counts 3x20 --json sqr.json --no-timing --quiet
check "--keep-counts 3x20 keeps 20 per layer" json sqr.json "d['shape_after'] == '10-20-20-20-3'"
expect_exit "--keep-counts of the wrong length" 1 "^condnet squeeze: --keep-counts 2x20: 2 keep counts for a network of 3 hidden layers$" \
	"$C" squeeze --load big.model --keep-counts 2x20 --quiet
expect_exit "a --tau list without --compare" 2 "^condnet squeeze: a list of --tau values needs --compare$" "$C" squeeze --load big.model --tau 10,4
expect_ok "squeeze --compare" "$C" squeeze --load big.model --compare --tau 10,4 --draws 3 --json cmp.json --csv cmp.csv --plot cmp --quiet
check "--compare: each τ has every criterion with and without compensation" json cmp.json \
	"len(d['comparisons']) == 2 and all(len(c['accuracy']['squeezed']['random']['draws']) == 3 and c['accuracy']['compensated']['norm'] is not None for c in d['comparisons'])"
check "--compare writes the plot data and script" [ -s cmp.dat -a -s cmp.gp ]
expect_ok "squeeze --until-stable" "$C" squeeze --load big.model --tau 10 --retrain 1 --until-stable --json sqs.json --quiet
check "--until-stable ends stable, removing nothing in the end" json sqs.json \
	"d['stable'] and d['rounds'][0]['removed'] == 0 and d['rounds'][1]['removed'] > 0"
check "--until-stable: each round a squeeze row with its network's κ" json sqs.json \
	"all(r['tau'] == 10 and len(r['net']['kappa']) == len(r['net']['p']) == len(r['net']['n']) - 1 for r in d['rounds']) and d['rounds'][1]['epochs'] == 1 and d['rounds'][0]['acc_after'] > 0 and sum(d['rounds'][1]['removed_per_layer']) == d['rounds'][1]['removed']"

## Algorithm 3's counts on a model with a known pivoted-QR profile (profile_model
## in lib.sh): each τ's neurons removed by the |r_jj| threshold and by the κ
## loop, per layer and in all, in the JSON and the text
check "the profile model is written and imported" profile_model prof.model
# τ: layer 1 (threshold, loop) removed, layer 2 (threshold, loop) removed
for row in "6 0 3 1 0" "9 0 1 0 0" "5 1 2 1 0"; do
	set -- $row
	tau=$1 t1=$2 l1=$3 t2=$4 l2=$5
	expect_ok "squeeze the profile model at τ = $tau" "$C" squeeze --load prof.model --tau "$tau" --json "prof$tau.json" --no-timing --quiet
	check "τ = $tau: the JSON counts layer 1's removals as $t1 by |r_jj|, $l1 by the κ loop, layer 2's as $t2 and $l2" json "prof$tau.json" \
		"[(l['n_after'], l['removed_threshold'], l['removed_loop']) for l in d['layers'][:2]] == [(6 - $t1 - $l1, $t1, $l1), (4 - $t2 - $l2, $t2, $l2)] and (d['removed'], d['removed_threshold'], d['removed_loop']) == ($t1 + $l1 + $t2 + $l2, $t1 + $t2, $l1 + $l2)"
	expect_grep "τ = $tau: the text says $((t1 + t2)) by |r_jj| and $((l1 + l2)) by the κ loop" \
		"^removed $((t1 + l1 + t2 + l2)) neurons: $((t1 + t2)) by the \|r_jj\| threshold, $((l1 + l2)) by the κ loop\$" "$TMP/out"
	expect_grep "τ = $tau: the table's row of layer 1 counts $t1 by |r_jj| and $l1 by the κ loop" \
		"^1 +6 +$((6 - t1 - l1)) +[0-9.]+ +[0-9.]+ +[0-9.]+ +$t1 +$l1\$" "$TMP/out"
	expect_grep "τ = $tau: the table's row of layer 2 counts $t2 by |r_jj| and $l2 by the κ loop" \
		"^2 +4 +$((4 - t2 - l2)) +[0-9.]+ +[0-9.]+ +[0-9.]+ +$t2 +$l2\$" "$TMP/out"
done
expect_ok "cond --tau 6 on the profile model" "$C" cond --load prof.model --tau 6 --json profc.json
check "cond's squeeze counts the stages as squeeze does" json profc.json \
	"d['squeeze']['removed'] == 4 and [(l['removed_threshold'], l['removed_loop']) for l in d['squeeze']['layers'][:2]] == [(0, 3), (1, 0)]"

## schedules and early stopping
expect_ok "train 6 epochs under a cosine with warm-up" "$C" train --layers 3x32 --epochs 6 --schedule cosine:6 --warmup 1 --save full.model --quiet
expect_grep "train says how it trains" '^schedule cosine:6, warm-up 1 epoch$' "$TMP/out"
expect_grep "the rate falls to 0 at the end" '^epoch +6\.00 .* lr [0-9.e-]+ ' "$TMP/out"
expect_ok "the same, stopped after 2.5 epochs" "$C" train --layers 3x32 --epochs 2.5 --schedule cosine:6 --warmup 1 --save part.model --quiet
expect_ok "--load continues the run" "$C" train --load part.model --epochs 3.5 --save rest.model --quiet
expect_grep "--load says it continues" '^continuing the run saved in part\.model after 2\.50 epochs: schedule cosine:6, warm-up 1 epoch$' "$TMP/out"
check "a saved and continued run ends bit for bit where the uninterrupted one does" cmp full.model rest.model
expect_ok "train --early-stop" "$C" train --layers 3x32 --epochs 60 --lr 0.01 --schedule plateau:2:0.5 --early-stop 3 --json es.json --csv es.csv --quiet
cp "$TMP/out" es.out
expect_grep "early stopping says which epoch it kept" '^early stopping: (no better validation accuracy for 3 epochs after epoch [0-9]+; kept epoch [0-9]+ of [0-9]+|ran the cap of 60 epochs; kept epoch [0-9]+) \(validation [0-9.]+ %\)$' es.out
expect_grep "the epoch lines show the validation set" '^epoch +1\.00 .* val +[0-9.]+ % \(loss [0-9.]+\) \*  lr 0\.01 ' es.out
check "train --json records the early stop" json es.json \
	"d['early_stop'] == 3 and 1 <= d['best_epoch'] <= d['epochs_run'] <= 60 and d['schedule'] == 'plateau:2:0.5' and d['validation_rows'] == 120 and len(d['history']) == d['epochs_run'] and d['val_accuracy'] == max(h['val_acc'] for h in d['history'])"
check "train --csv has the validation columns" python3 -c "
import csv
rows = list(csv.reader(open('es.csv')))
assert all(r[6] and r[7] for r in rows[1:]), rows[1]"
expect_exit "--schedule with an unknown kind" 2 "^condnet train: --schedule: schedule 'linear': expected constant, step:EPOCHS\[:FACTOR\], cosine\[:EPOCHS\] or plateau:PATIENCE\[:FACTOR\]$" "$C" train --schedule linear
expect_exit "--schedule step with a factor above 1" 2 "^condnet train: --schedule: schedule 'step:2:3': factor 3: expected more than 0 and at most 1$" "$C" train --schedule step:2:3
expect_exit "--early-stop 0" 2 "^condnet train: --early-stop: '0' is not a positive integer$" "$C" train --early-stop 0
expect_exit "alg1 takes no --early-stop (it holds out no validation set)" 2 "^condnet alg1: unknown option '--early-stop'" "$C" alg1 --early-stop 2
expect_exit "alg1 with a plateau schedule" 2 "^condnet alg1: the plateau schedule needs a validation set" "$C" alg1 --schedule plateau:2
expect_exit "sweep --schedule without --final-epochs" 2 "^condnet sweep: --schedule, --warmup and --early-stop shape the final training: give --final-epochs E$" "$C" sweep --schedule step:1
expect_exit "squeeze --early-stop without --retrain" 2 "^condnet squeeze: --schedule, --warmup and --early-stop shape the retraining: give --retrain E$" "$C" squeeze --load m.model --early-stop 2
expect_ok "alg1 --schedule" "$C" alg1 --layers 3x32 --tau 12 --schedule step:0.5:0.5 --max-iter 2 --quiet
expect_grep "alg1 says how every training runs" '^every training: schedule step:0\.5:0\.5$' "$TMP/out"
expect_ok "sweep --final-epochs --early-stop" "$C" sweep --layers 2x8 --beta 1 --q 1 --eta 0.5 --no-extend --final-epochs 20 --early-stop 2 --lr 0.01 --json swes.json --quiet
expect_grep "the final training says which epoch it kept" '^final: [0-9]+ epochs on 1080 rows \(kept epoch [0-9]+: validation accuracy [0-9.]+ %\), train accuracy' "$TMP/out"
check "sweep --json records the final training's epochs" json swes.json \
	"1 <= d['final_best_epoch'] <= d['final_epochs_run'] <= 20 and d['final_early_stop'] == 2 and 'final_val_accuracy' in d"
expect_ok "squeeze --retrain --early-stop" "$C" squeeze --load big.model --tau 10 --retrain 20 --early-stop 2 --json sqes.json --quiet
expect_grep "the retraining says which epoch it kept" '^test accuracy after retraining [0-9]+ epochs, keeping epoch [0-9]+ \(validation accuracy [0-9.]+ %\): [0-9.]+ %$' "$TMP/out"
check "squeeze --json records the retraining's epochs" json sqes.json \
	"1 <= d['retrain_best_epoch'] <= d['retrain_epochs_run'] <= 20 and 'retrain_val_accuracy' in d"

## NumPy export then import gives the same κ table
for layout in keras torch; do
	expect_ok "export --layout $layout" "$C" export --load big.model --npy "npy-$layout" --layout $layout
	expect_ok "import --layout $layout" "$C" import --npy "npy-$layout" --layout $layout --save "imp-$layout.model"
	"$C" cond --load big.model --json c0.json >/dev/null 2>&1
	"$C" cond --load "imp-$layout.model" --json c1.json >/dev/null 2>&1
	check "export/import ($layout) keeps every κ" python3 -c "
import json
a = json.load(open('c0.json'))['layers']; b = json.load(open('c1.json'))['layers']
assert [(l['n'], l['kappa']) for l in a] == [(l['n'], l['kappa']) for l in b], (a, b)"
done

## export --data: another tool gets the very numbers the trainer sees; the
## same run on them, read back as CSV, ends at the same accuracy
expect_ok "export --data synthetic" "$C" export --data synthetic --npy feat
expect_grep "export --data says what it wrote" '^exported synthetic: 1200 training and 600 test rows of 10 features, 3 classes' "$TMP/out"
check "the exported .npy files read back as CSV" python3 -c "
import ast, struct
def load(p):
    b = open(p, 'rb').read()
    assert b[:8] == b'\\x93NUMPY\\x01\\x00', b[:8]
    n = b[8] | b[9] << 8
    h = ast.literal_eval(b[10:10 + n].decode())
    assert not h['fortran_order'] and h['descr'] in ('<f4', '<i4'), h
    cnt = 1
    for k in h['shape']:
        cnt *= k
    v = struct.unpack('<%d%s' % (cnt, 'f' if h['descr'] == '<f4' else 'i'), b[10 + n:])
    return h['shape'], v
for part, rows in (('train', 1200), ('test', 600)):
    (r, d), x = load('feat/x_%s.npy' % part)
    (ry,), y = load('feat/y_%s.npy' % part)
    assert (r, d, ry) == (rows, 10, rows), (r, d, ry)
    assert sorted(set(y)) == [0, 1, 2], sorted(set(y))
    with open('feat-%s.csv' % part, 'w') as f:
        for i in range(r):
            f.write(','.join(repr(v) for v in x[i * d:(i + 1) * d]) + ',%d\\n' % y[i])
"
"$C" train --layers 3x16 --epochs 2 --quiet >feat-a.out 2>&1
"$C" train --layers 3x16 --epochs 2 --quiet --data csv:feat-train.csv,feat-test.csv >feat-b.out 2>&1
a=$(grep -E '^(epoch|test accuracy|train accuracy)' feat-a.out | cut -c1-56)
b=$(grep -E '^(epoch|test accuracy|train accuracy)' feat-b.out | cut -c1-56)
check "training on the exported data gives the same losses and accuracies" \
	sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' - "$a" "$b"
[ "$a" = "$b" ] || printf '  | synthetic:\n%s\n  | exported:\n%s\n' "$a" "$b"
expect_ok "export takes the data-set options" "$C" export --data synthetic --npy feat-small --limit 20 --standardize
expect_grep "export --limit keeps 20 rows of every class" '^exported synthetic: 60 training and 60 test rows' "$TMP/out"
check "export --standardize writes standardized features" python3 -c "
import struct
b = open('feat-small/x_train.npy', 'rb').read()
x = struct.unpack('<600f', b[128:])
m = [sum(x[j::10]) / 60 for j in range(10)]
v = [sum((a - m[j]) ** 2 for a in x[j::10]) / 60 for j in range(10)]
assert all(abs(a) < 1e-5 for a in m) and all(abs(a - 1) < 1e-3 for a in v), (m, v)"
expect_exit "export needs --load or --data" 2 "one of --load MODEL or --data SPEC" "$C" export --npy feat
expect_exit "export takes only one of --load and --data" 2 "one of --load MODEL or --data SPEC" "$C" export --npy feat --load m.model --data synthetic

## SIGTERM during training: exit 130, --save left alone unless --save-partial
cp m.model keep.model
"$C" train --layers 4x128 --epochs 100000 --save keep.model --quiet >int.out 2>int.err &
pid=$!
i=0
while [ $i -lt 300 ] && ! grep -q '^epoch' int.out; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid 2>/dev/null || fail "SIGTERM: process $pid had ended before the signal"
wait $pid; st=$?
check "SIGTERM stops training with status 130 (got $st)" [ "$st" -eq 130 ]
expect_grep "the interruption is reported" '^interrupted by SIGTERM after' int.out
check "an interrupted run does not overwrite --save" cmp m.model keep.model

finish
