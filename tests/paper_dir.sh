#!/bin/sh
# paper_dir.sh - a paper stage directory (--out) holds the results of one
# setting: a run under other settings, on other data, or at the same time as
# another run is refused, naming the difference or the other process; no
# output takes the place of a stage's file; numbers read back from a stage
# file are range-checked before they are converted.
. "$(dirname "$0")/lib.sh"
command -v perl >/dev/null || { echo "perl is needed to write the test data"; exit 77; }
command -v python3 >/dev/null || { echo "python3 is needed"; exit 77; }
. "$(dirname "$0")/paper_data.sh"
paper_data "$CONDNET_DATA"
C=$CONDNET
cd "$TMP" || exit 1

# sums DIR: the checksums of the stage files, to show they are untouched.
sums() { (cd "$1" && cat *.json *.model | cksum); }

P="$C paper adult --quiet --threads 1"
expect_ok "a quick run makes the stage directory" $P --quick --out q
check "every stage file records its settings" python3 -c "
import glob, json, sys
for f in glob.glob('q/*.json'):
    d = json.load(open(f))
    s = d['settings']
    assert s == {'experiment': 'adult', 'seed': '1', 'scale': 'raw', 'size': 'quick',
                 'training': 'as written', 'act_scale': '1', 'mode': 'reproducible'}, (f, s)
    assert d['data'].startswith('train 300 rows of 105 features, 2 classes, CRC-32 '), d['data']"
before=$(sums q)
cp q/results-adult.md report.before

## 1. Results of other settings are refused, naming the setting
refuse "another --seed (and --center) is refused, naming the seed" 1 \
	"^condnet paper: q/alg1\.json: made with --seed 1, but this run has --seed 7: the results of other settings are not mixed" \
	$P --quick --seed 7 --center --out q
refuse "--center alone is refused, naming it" 1 \
	"q/alg1\.json: made with raw features \(no --center nor --standardize\), but this run has --center" \
	$P --quick --center --out q
refuse "a full run on a --quick directory is refused" 1 \
	"q/alg1\.json: made with --quick, but this run has the full run \(no --quick\)" $P --out q
refuse "--converge on an as-written directory is refused" 1 \
	"made with training as written \(no --converge\), but this run has --converge" $P --quick --converge --out q
refuse "--act-scale 0.1 on erf(x) results is refused" 1 \
	"made with --act-scale 1, but this run has --act-scale 0\.1" $P --quick --act-scale 0.1 --out q
refuse "--no-reproducible on results of the reproducible mode is refused" 1 \
	"made with the reproducible mode, but this run has --no-reproducible" $P --quick --no-reproducible --out q
refuse "paper mnist on Adult's directory is refused" 1 \
	"q/alg1\.json: made with condnet paper adult, but this run has condnet paper mnist" \
	$C paper mnist --quick --quiet --threads 1 --out q
refuse "--plan on a directory of other settings is refused" 1 "q/alg1\.json: made with --seed 1" \
	$P --quick --seed 2 --out q --plan plan.txt
check "no stage file was touched by the refused runs" [ "$(sums q)" = "$before" ]
check "nor the report" cmp q/results-adult.md report.before
check "no plan was written" [ ! -e plan.txt ]
expect_ok "the same settings still reuse every stage" $P --quick --out q --report again.md
check "and write the same report" cmp q/results-adult.md again.md

## The data a stage computed on: a run that reads other data is refused
cp -r "$CONDNET_DATA" otherdata
sed -i '5s/^[0-9]*/77/' otherdata/adult/adult.data
cp -r q q2
rm q2/final.json
refuse "a stage computed on other data is refused once the data are read" 1 \
	"^condnet paper: q2/alg1\.json: computed on other data \(train 300 rows of 105 features, 2 classes, CRC-32 [0-9a-f]{8}; test 100 rows, CRC-32 [0-9a-f]{8}\) than this run reads \(train 300 rows .* CRC-32 [0-9a-f]{8}; test" \
	$P --quick --out q2 --data-dir otherdata
check "and the missing stage is not written" [ ! -e q2/final.json ]

## A stage's model is used only with its result (whose settings are checked)
cp -r q q3
rm q3/final.json q3/squeeze.json
refuse "squeeze does not take final.model without final's result" 1 \
	"^condnet paper: stage squeeze: needs the result of stage 'final' \(run it first: --stages final\)$" \
	$P --quick --out q3 --stages squeeze
check "and writes no squeeze result" [ ! -e q3/squeeze.json ]

## Stage files of an older condnet (no settings) are used, with a warning
cp -r q old
python3 -c "
import glob, json
for f in glob.glob('old/*.json'):
    d = json.load(open(f)); del d['settings']; json.dump(d, open(f, 'w'))"
expect_ok "stage files without settings are still used" $P --quick --out old --report old.md
expect_grep "with a warning naming them" \
	"^condnet paper: old/alg1\.json, old/alg2\.json, .*: no record of the settings they were made with \(an older condnet's\): used as they are" "$TMP/err"

## 2. No output takes the place of a stage's file
refuse "--report naming a stage result is refused" 1 \
	"^condnet paper: --report q/over\.json: names the result of stage over in the stage directory q: the stages' files are never written over" \
	$P --quick --out q --report q/over.json
refuse "--report naming the trained model is refused" 1 \
	"--report q/final\.model: names a model the stages write in the stage directory q" \
	$P --quick --out q --report q/final.model
refuse "--report naming a partial result by another spelling is refused" 1 \
	"--report \./q//over\.partial\.json: names the partial result of stage over" \
	$P --quick --out q --report ./q//over.partial.json
ln -s q/alg2.json alink
refuse "--report through a link to a stage result is refused" 1 \
	"--report alink: is q/alg2\.json \(the result of stage alg2\)" $P --quick --out q --report alink
refuse "--plan naming a stage's model is refused" 1 "--plan q/alg1\.model: names a model the stages write" \
	$P --quick --out q --plan q/alg1.model
refuse "--report naming the lock is refused" 1 "--report q/\.lock: names the directory's lock" \
	$P --quick --out q --report q/.lock
check "every stage file is as it was" [ "$(sums q)" = "$before" ]

## Numbers read back are range-checked before they are converted
cp -r q wide
python3 -c "
import json
d = json.load(open('wide/alg1.json')); d['history'][-1]['n'][1] = 1e12
json.dump(d, open('wide/alg1.json', 'w'))
d = json.load(open('wide/final.json')); d['threads'] = 1e12; d['parts'] = 1e12
json.dump(d, open('wide/final.json', 'w'))"
rm wide/alg2.json
refuse "a width of 1e12 in a stage file is refused, naming the file" 1 \
	"^condnet paper: stage alg2: wide/alg1\.json: the last iteration's \"n\" is not a list of at most 66 widths from 1 to 10000000$" \
	$P --quick --out wide --stages alg2
expect_ok "a thread count of 1e12 is no record: the report is written" \
	$P --quick --out wide --stages final --report wide.md
check "and it shows no converted 1e12" sh -c "! grep -e '-2147483648' wide.md"
check "with the threads of the other stages" grep -q '^Machine: .*, 1 threads\.$' wide.md

## Two runs on one directory: one setting, each stage computed once
# A process holding the directory for another setting (the lock as a run takes it).
python3 - lockdir <<'EOF' &
import fcntl, os, sys, time
d = sys.argv[1]
os.makedirs(d, exist_ok=True)
fd = os.open(d + '/.lock', os.O_RDWR | os.O_CREAT, 0o666)
os.write(fd, b'condnet paper adult --quick --seed 3\n')
fcntl.lockf(fd, fcntl.LOCK_SH, 1, 1)
open(d + '/held', 'w').close()
time.sleep(120)
EOF
holder=$!
i=0; while [ ! -e lockdir/held ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
refuse "a run of other settings on a directory in use is refused, naming the first" 1 \
	"^condnet paper: lockdir is in use by process $holder, a run of other settings \(condnet paper adult --quick --seed 3\): runs of other settings do not share a stage directory" \
	$P --quick --seed 4 --out lockdir
check "and it wrote no stage file" [ -z "$(ls lockdir | grep json)" ]
kill $holder; wait $holder 2>/dev/null

# A real run, held still while it holds the directory: a second run of the
# same setting that would compute the same stages is refused, naming it.
# holds_stages PID FILE: /proc/locks shows PID's lock of the stages' bytes
# (from 2, alg1's) of FILE and no lock of its first byte, which a run holds
# only while it joins.
holds_stages() {
	ino=$(stat -c %i "$2" 2>/dev/null) || return 1
	locks=$(grep " $1 [0-9a-f:]*:$ino " /proc/locks)
	echo "$locks" | grep -Eq "WRITE .* 2 [0-9]+$" && ! echo "$locks" | grep -Eq " 0 [0-9]+$"
}
$P --out held >run1.out 2>run1.err &
first=$!
i=0
while ! holds_stages $first held/.lock && [ $i -lt 1200 ] && kill -0 $first 2>/dev/null; do
	sleep 0.02; i=$((i + 1))
done
kill -STOP $first
refuse "a second run computing the same stages is refused, naming the first" 1 \
	"^condnet paper: held: stage [a-z0-9]+ is being computed by process $first \(condnet paper adult --seed 1\): wait for it to end, or run other stages" \
	$P --out held
if [ -e held/alg1.json ]; then
	refuse "a run of another seed is refused too" 1 "held/alg1\.json: made with --seed 1" $P --seed 9 --out held
else
	refuse "a run of another seed is refused too" 1 "held is in use by process $first, a run of other settings \(condnet paper adult --seed 1\)" \
		$P --seed 9 --out held
fi
kill -KILL $first; kill -CONT $first 2>/dev/null; wait $first 2>/dev/null
expect_ok "once it is gone its locks are gone with it" $P --out held --stages alg1

# The report: --out decides where it goes (docs/ is the default only
# without it), and a report never replaces one that holds more stages.
mkdir -p proj/docs
printf '# Adult Income: condnet beside the paper\n\n| stage | what | seconds |\n|---|---|---:|\n| alg1 | Table 4 | 14.9 |\n| alg2 | Figure 4 | 18.5 |\n| final | full training of the pick | 1.0 |\n| verify | Table 5 | 14.4 |\n| squeeze | Tables 10 and 11 | 1.2 |\n| over | Tables 12 and 13 | 40.6 |\n\n## Table 4\n' \
	>proj/docs/results-adult.md
cp proj/docs/results-adult.md six.md
expect_ok "paper --stages alg1 --out DIR in a directory with docs/" sh -c "cd proj && exec $P --stages alg1 --out ../elsewhere"
check "writes its report into DIR" [ -s elsewhere/results-adult.md ]
check "and leaves docs/'s report as it was" cmp proj/docs/results-adult.md six.md
refuse "without --out, a report of one stage does not replace docs/'s of six" 1 \
	"^condnet paper: docs/results-adult\.md: holds a report of 6 stages, and this run's has 1: not replaced, it would lose stages alg2 final verify squeeze over \(the stage results are in paper-adult; give --report FILE to write this report elsewhere\)$" \
	sh -c "cd proj && exec $P --stages alg1"
check "docs/'s report is as it was" cmp proj/docs/results-adult.md six.md
check "and the stage computed is kept" [ -s proj/paper-adult/alg1.json ]
finish
