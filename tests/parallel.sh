#!/bin/sh
# parallel.sh - plans run by GNU parallel: Algorithm 2's trials
# (`condnet sweep --plan`), each a separate process, gathered, give the
# in-process sweep's table, CSV and JSON byte for byte, through the β that
# Algorithm 2 adds at an edge; the paper's stages (`condnet paper --plan`),
# wave by wave, give the stage results of one process. Skipped (77) without
# GNU parallel (Debian: parallel).
. "$(dirname "$0")/lib.sh"
command -v parallel >/dev/null 2>&1 || { echo "GNU parallel is not installed"; exit 77; }
command -v perl >/dev/null 2>&1 || { echo "perl is needed to write the test data"; exit 77; }
SRC=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
C=$CONDNET
cd "$TMP" || exit 1
mkdir elsewhere

# lines FILE: the number of lines of FILE.
lines() { wc -l <"$1" | tr -d ' '; }

## Algorithm 2: a base model and a trial directory whose names need quoting
expect_ok "a base network" "$C" train --layers 2x8 --epochs 1 --save "base m'odel.model" --quiet
set -- --load "base m'odel.model" --seed 3 --batch 40 --lr 0.002 --val-frac 0.2 --q 2 --eta 0.5 \
	--beta 1,1.5 --max-extend 1 --quiet
expect_ok "sweep in one process" "$C" sweep "$@" --json inproc.json --csv inproc.csv
sed -n '/^β/,/^pick/p' "$TMP/out" >inproc.txt
check "the in-process sweep added a beta at an edge" [ "$(grep -c '2/2' inproc.txt)" -eq 3 ]

expect_ok "sweep --plan" "$C" sweep "$@" --plan plan.txt --out "tri'als dir"
cp "$TMP/out" plan.out
check "the plan has a line per trial (2 beta x q 2)" [ "$(lines plan.txt)" -eq 4 ]
check "every line runs one trial with absolute paths" awk -v d="$TMP" '
	!/ sweep .* --beta (1|1\.5) --trial [01] --out / { bad = 1 }
	index($0, "--load \x27" d "/base m\x27\\\x27\x27odel.model\x27") == 0 { bad = 1 }
	index($0, "--out \x27" d "/tri\x27\\\x27\x27als dir/beta-") == 0 { bad = 1 }
	END { exit bad }' plan.txt
check "no output option reaches a trial" \
	sh -c '! grep -Eq -- "--(json|csv|plan|max-extend)" plan.txt'
gather=$(sed -n '/^then gather/{n;s/^  //;p;}' plan.out)
check "the plan prints the gather command" [ -n "$gather" ]

(cd elsewhere && parallel -j 2 <../plan.txt >../run1.out 2>&1)
check "parallel runs the plan from another directory" [ $? -eq 0 ]
check "every trial wrote its file" [ "$(ls "tri'als dir" | wc -l)" -eq 4 ]
expect_ok "the printed gather command" sh -c "$gather --json gather.json --csv gather.csv"
cp "$TMP/out" gather1.out
expect_grep "the gather says Algorithm 2 goes on" \
	'^the pick is at the (smallest|largest) beta: Algorithm 2 goes on with beta (0\.5|2) ' gather1.out
check "and plans the added beta's q trials" [ "$(lines plan.txt)" -eq 2 ]
check "the outputs wait for the end of the sweep" [ ! -e gather.json ]
parallel -j 2 <plan.txt >run2.out 2>&1
check "parallel runs the added beta's trials" [ $? -eq 0 ]
expect_ok "gather again" sh -c "$gather --json gather.json --csv gather.csv"
sed -n '/^β/,/^pick/p' "$TMP/out" >gather.txt
expect_grep "the gather says the sweep is complete" \
	'^plan\.txt: no trials left, the sweep is complete$' "$TMP/out"
check "and empties the plan" [ ! -s plan.txt ]
check "the gathered table and pick equal the in-process ones" cmp inproc.txt gather.txt
check "the gathered CSV equals the in-process one" cmp inproc.csv gather.csv
check "the gathered JSON equals the in-process one" cmp inproc.json gather.json
expect_ok "examples/sweep-parallel.sh" env CONDNET="$C" sh "$SRC/examples/sweep-parallel.sh" \
	-j 2 -d "ex trials" -- "$@" --json ex.json
check "gives the in-process JSON" cmp inproc.json ex.json
expect_exit "--plan with --trial" 2 '^condnet sweep: --plan does not go with --trial$' \
	"$C" sweep --beta 1 --trial 0 --out x.json --plan p.txt

## the paper's stages, wave by wave, give the results of one process
. "$SRC/tests/paper_data.sh"
paper_data "$CONDNET_DATA"
# same WHICH DIR1 DIR2: every stage result of DIR1 equals DIR2's, but for the times.
same() {
	python3 -c "
import glob, json, os, sys
def strip(x):
    if isinstance(x, dict): return {k: strip(v) for k, v in x.items() if k != 'seconds'}
    if isinstance(x, list): return [strip(v) for v in x]
    return x
a = sorted(os.path.basename(f) for f in glob.glob(sys.argv[1] + '/*.json'))
b = sorted(os.path.basename(f) for f in glob.glob(sys.argv[2] + '/*.json'))
assert a == b and len(a) >= 6, (a, b)
load = lambda d, f: strip(json.load(open(d + '/' + f)))
for f in a:
    assert load(sys.argv[1], f) == load(sys.argv[2], f), f
" "$1" "$2"
}
for which in adult mnist; do
	case $which in
	adult) waves="alg1 over|alg2|final verify|squeeze|" ;;
	mnist) waves="alg1 eta tau over|alg2|final verify|squeeze|add20|" ;;
	esac
	expect_ok "paper $which in one process" \
		"$C" paper $which --quick --quiet --threads 1 --out "one-$which"
	got=
	i=0
	while "$C" paper $which --quick --quiet --threads 1 --out "many $which" --plan p.txt \
		>plan.out 2>&1; do
		[ -s p.txt ] || break
		wave=$(sed -n 's/^p\.txt: stages to run now ([0-9]*): \(.*\); waiting.*/\1/p' plan.out)
		got="$got$wave|"
		(cd elsewhere && parallel -j 2 <../p.txt >/dev/null 2>&1) ||
			{ fail "paper $which: a stage failed"; break; }
		i=$((i + 1))
		[ $i -lt 10 ] || { fail "paper $which: the plans do not end"; break; }
	done
	check "paper $which: the plan runs the stages in waves ($got)" [ "$got" = "$waves" ]
	check "paper $which: the stage results equal one process's" same "one-$which" "many $which"
done
expect_ok "examples/paper-plan.sh" env CONDNET="$C" sh "$SRC/examples/paper-plan.sh" -j 2 -- \
	adult --quick --quiet --threads 1 --out ex-adult
check "gives the stage results of one process" same one-adult ex-adult
check "and writes the report" [ -s ex-adult/results-adult.md ]
expect_grep "the last plan says every result is there" \
	"^every stage's result is in many mnist" plan.out
check "planned stages write no report" [ ! -e "many mnist/results-mnist.md" ]
finish
