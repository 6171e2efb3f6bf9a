#!/bin/sh
# clash.sh - an output never takes the place of an input or of another
# output: every command compares the files it writes with the files it
# reads and with each other, by device and inode with links followed, before
# anything runs; the refused command exits 1 and leaves every file as it was.
# Also: --dry-run makes the temporary file a write would make, so an output
# the real run cannot write is refused by the dry run too.
. "$(dirname "$0")/lib.sh"
C=$CONDNET
cd "$TMP" || exit 1

"$C" train --data moons --layers 6 --epochs 2 --standardize --save m.model --quiet >/dev/null ||
	{ echo "cannot train the test's model"; exit 1; }
cp m.model keep.model
printf '0.1,0.2\n0.3,0.4\n' >in.csv
cp in.csv keep.csv
printf '0.1,0.2,0\n0.3,0.4,1\n0.5,0.1,0\n0.2,0.9,1\n0.7,0.3,0\n0.9,0.8,1\n' >lab.csv
ln -s m.model link.model
mkdir -p npyd
"$C" export --load m.model --npy set >/dev/null 2>&1 || { echo "cannot export the test's set"; exit 1; }
cp -r set keepset
pat=": an output never takes the place of an input; name another file$"

# clash NAME PATTERN CMD...: exit 1, the message, and m.model, in.csv and
# the exported set unchanged.
clash() {
	name=$1 p=$2; shift 2
	refused=0
	"$@" >"$TMP/out" 2>"$TMP/err"
	st=$?
	if [ "$st" -eq 1 ] && grep -Eq -- "$p" "$TMP/err"; then refused=1; fi
	if [ "$refused" = 1 ] && cmp -s m.model keep.model && cmp -s in.csv keep.csv &&
		diff -r set keepset >/dev/null; then
		pass "$name"
	else
		fail "$name (exit $st): $*"; sed 's/^/  | /' "$TMP/err"
		cp keep.model m.model; cp keep.csv in.csv; rm -rf set; cp -r keepset set
	fi
}

clash "predict --out the model it loads" "^condnet predict: --out m\.model: is the file --load reads \(m\.model\)$pat" \
	"$C" predict --load m.model --input in.csv --out m.model
clash "predict --out its own input" "^condnet predict: --out in\.csv: is the file --input reads \(in\.csv\)$pat" \
	"$C" predict --load m.model --input in.csv --out in.csv
clash "eval --json the model it loads" "^condnet eval: --json m\.model: is the file --load reads" \
	"$C" eval --load m.model --data csv:lab.csv --json m.model --quiet
clash "eval --csv the model it loads" "^condnet eval: --csv m\.model: is the file --load reads" \
	"$C" eval --load m.model --data csv:lab.csv --csv m.model --quiet
clash "train --json the model it loads" "^condnet train: --json m\.model: is the file --load reads" \
	"$C" train --data moons --standardize --load m.model --epochs 1 --json m.model --quiet
clash "cond --json the model it loads" "^condnet cond: --json m\.model: is the file --load reads" \
	"$C" cond --load m.model --json m.model --quiet
clash "squeeze --json the model it loads" "^condnet squeeze: --json m\.model: is the file --load reads" \
	"$C" squeeze --load m.model --data moons --standardize --json m.model --quiet
clash "export --onnx the model it loads" "^condnet export: --onnx m\.model: is the file --load reads" \
	"$C" export --load m.model --onnx m.model
clash "an output through a link to the loaded model" \
	"^condnet predict: --out link\.model: is the file --load reads \(m\.model\), through a link$pat" \
	"$C" predict --load m.model --input in.csv --out link.model
clash "eval --json the CSV data it reads" "^condnet eval: --json lab\.csv: is the file --data reads" \
	"$C" eval --load m.model --data csv:lab.csv --json lab.csv --quiet
clash "import --save into the set it reads" \
	"^condnet import: --save set/W1\.npy: is a file of the directory --npy reads \(set\)$pat" \
	"$C" import --npy set --save set/W1.npy
clash "export --npy over the model file it loads" \
	"^condnet export: --npy set: would write over --load set/W9\.npy, which the command reads: an output never takes the place of an input; name another directory$" \
	sh -c "cp m.model set/W9.npy && '$C' export --load set/W9.npy --npy set; st=\$?; rm -f set/W9.npy; exit \$st"
printf 'data spec=moons features=200 label_col=-1 seed=1 limit=0 val_frac=0.1 val_per_class=0\nnet layers=4 act=erf act_a=1 seed=1\n' >s.log
cp s.log keep.log
expect_exit "replay --save the log it replays" 1 "^condnet replay: --save s\.log: is the file replay reads \(s\.log\)$pat" \
	"$C" replay s.log --save s.log
check "and the log is unchanged" cmp s.log keep.log
expect_exit "sweep --json a trial file it gathers" 1 "^condnet sweep: --json t0\.json: is the file --gather reads" \
	sh -c "echo '{}' >t0.json && exec '$C' sweep --data moons --gather t0.json --json t0.json"

# two outputs of one file
expect_exit "train --save and --json one new file" 1 \
	"^condnet train: --save x: is the file --json writes \(x\): two outputs never share a file; name another file$" \
	"$C" train --data moons --epochs 1 --save x --json x --quiet
check "and nothing was trained or written" [ ! -e x ]
expect_exit "predict --out a file --npy-out writes" 1 \
	"^condnet predict: --out npyd/classes\.npy: is a file --npy-out writes \(npyd\): two outputs never share a file" \
	"$C" predict --load m.model --input in.csv --npy-out npyd --out npyd/classes.npy
check "and npyd holds nothing" [ -z "$(ls -A npyd)" ]

# what is not a clash
expect_ok "--save over the model --load read (training it further in place)" \
	"$C" train --data moons --standardize --load m.model --epochs 1 --save m.model --quiet
cp m.model keep.model
expect_ok "--json and --csv both /dev/null" "$C" train --data moons --epochs 1 --json /dev/null --csv /dev/null --quiet
expect_ok "predict --out another file beside --npy-out's" \
	"$C" predict --load m.model --input in.csv --npy-out npyd --out npyd/answers.csv --quiet

# the screen's session log is an output too
expect_exit "tui --log the model it loads" 1 "^condnet: --log m\.model: is the file --load reads" \
	"$C" tui --load m.model --log m.model
check "and the model is unchanged" cmp m.model keep.model

# --dry-run: the temporary file the write would make is made and removed
expect_exit "--dry-run refuses an output the run cannot write (/proc/version)" 1 \
	"^condnet train: /proc/version: cannot create a file beside it: " \
	"$C" train --save /proc/version --dry-run
expect_ok "--dry-run passes an output it can write" "$C" train --save ok.model --dry-run
check "and leaves no file" [ -z "$(ls -A . | grep -e '^ok\.model')" ]
finish
