#!/bin/sh
# faults.sh - faults and interruptions: a training that diverges, saves
# under a file size limit, on a full disk or into a directory that cannot
# take them (the previous model kept whole), what sits at an output path,
# commands failing before their work, signals (a save is never cut),
# damaged session logs and one table of limits for logs, models and the
# command line, binary outputs kept off standard output, write errors,
# plans, gathered trials, the screen without a terminal, a low address-space
# limit, and a long decomposition that answers a stop. Bad input files are
# tests/reliability.sh's.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
C=$CONDNET
cd "$TMP" || exit 1

expect_ok "train a small model" "$C" train --layers 3x8 --epochs 1 --limit 20 --save m.model --quiet

## training that diverges: named epoch, --save not written
python3 -c "
for i in range(60): print('%g,%g,%d' % (3e38 * ((i % 7) / 3.5 - 1), 3e38 * ((i % 5) / 2.5 - 1), i % 2))" >huge.csv
refuse "divergence names the epoch" 1 "^condnet train: training diverged at epoch 1, batch 1 \(loss -?nan\); weights kept from before that batch$" \
	"$C" train --data csv:huge.csv --layers 4 --lr 10 --epochs 5 --act relu --save div.model --quiet
check "a diverged run writes no model" [ ! -e div.model ]
cp m.model keep.model
refuse "divergence over an existing model" 1 "training diverged at epoch 1" \
	"$C" train --data csv:huge.csv --layers 4 --lr 10 --epochs 5 --act relu --save keep.model --quiet
check "a diverged run leaves the previous model intact" cmp m.model keep.model
# a gradient whose square passes the float range: finite weights, Adam's second
# moment infinite (the save used to be refused as a model that would not load)
python3 -c "
import random
random.seed(1)
for i in range(60): print(','.join('%r' % random.uniform(-3e38, 3e38) for _ in range(4)) + ',%d' % (i % 2))" >huge2.csv
refuse "divergence seen in Adam's moments" 1 \
	"^condnet train: training diverged at epoch 1: Adam's moments are not finite after batch 1 \(a gradient past the float range\)$" \
	"$C" train --data csv:huge2.csv --act relu --lr 10 --epochs 2 --save div2.model --quiet
check "a run diverged in Adam's moments writes no model" [ ! -e div2.model ]

## saving: file size limit, full disk, unwritable directory
cp m.model keep.model
# (an inner shell, so that its report of the signal goes to err)
sh -c 'ulimit -f 2; "$0" train --layers 3x64 --epochs 1 --limit 20 --save keep.model --quiet' "$C" >out 2>err; st=$?
check "save beyond ulimit -f is an error, not a fatal SIGXFSZ (got $st)" [ "$st" -ge 1 -a "$st" -lt 128 ]
check "save beyond ulimit -f leaves the previous model intact" cmp m.model keep.model
check "save beyond ulimit -f leaves no temporary file" [ -z "$(ls | grep '^keep\.model\.tmp')" ]
rm -f keep.model.tmp.*
(trap '' XFSZ; ulimit -f 2; exec "$C" train --layers 3x64 --epochs 1 --limit 20 --save keep.model --quiet) >out 2>err; st=$?
check "save beyond ulimit -f (SIGXFSZ ignored) exits 1 (got $st)" [ "$st" -eq 1 ]
expect_grep "save beyond ulimit -f names the file and the cause" "^condnet train: keep\.model: writing keep\.model\.tmp\.[A-Za-z0-9]+ failed: File too large$" err
check "save beyond ulimit -f leaves the previous model intact" cmp m.model keep.model
check "no temporary file is left beside the model" [ -z "$(ls | grep '^keep\.model\.tmp')" ]
mkdir full
if mount -t tmpfs -o size=16k tmpfs full 2>/dev/null; then
	cp m.model full/keep.model
	dd if=/dev/zero of=full/fill bs=1k count=64 2>/dev/null
	refuse "save on a full disk" 1 "^condnet train: full/keep\.model: writing full/keep\.model\.tmp\.[A-Za-z0-9]+ failed: No space left on device$" \
		"$C" train --layers 3x64 --epochs 1 --limit 20 --save full/keep.model --quiet
	check "save on a full disk leaves the previous model intact" cmp m.model full/keep.model
	check "save on a full disk leaves no temporary file" [ "$(ls full)" = "$(printf 'fill\nkeep.model')" ]
	umount full
else
	echo "skip - save on a full disk (cannot mount a tmpfs)"
fi
mkdir ro
if [ "$(id -u)" -ne 0 ]; then
	chmod 555 ro; rocause="Permission denied"
elif mount -t tmpfs -o ro,size=16k tmpfs ro 2>/dev/null; then
	rocause="Read-only file system"
else
	rocause=""
fi
if [ -n "$rocause" ]; then
	refuse "save into an unwritable directory (checked before training)" 1 "^condnet train: ro/x\.model: cannot create a file beside it: $rocause$" \
		"$C" train --layers 4 --epochs 1 --limit 20 --save ro/x.model --quiet
	refuse "cond --save into an unwritable directory (checked before the work)" 1 "^condnet cond: ro/x\.model: cannot create a file beside it: $rocause$" \
		"$C" cond --load m.model --save ro/x.model
	if [ "$rocause" = "Permission denied" ]; then chmod 755 ro; else umount ro; fi
else
	echo "skip - save into an unwritable directory (running as root without mount)"
fi
refuse "save into a missing directory" 1 "^condnet train: nodir/x\.model: the directory nodir does not exist$" \
	"$C" train --layers 4 --epochs 1 --limit 20 --save nodir/x.model --quiet
refuse "cond --save into a missing directory" 1 "^condnet cond: nodir/x\.model: the directory nodir does not exist$" \
	"$C" cond --load m.model --save nodir/x.model

## what sits at an output path: links are written through, devices and FIFOs
## straight, "-" is standard output for text; a directory is refused; files
## get 0666 less the umask; nothing is left behind
T="$C train --layers 4 --epochs 1 --limit 20 --seed 3 --quiet"
$T --save ref.model >/dev/null
mkdir -p real/deep
cp m.model real/deep/t.model; chmod 600 real/deep/t.model
ln -s deep/t.model real/l2; ln -s real/l2 l1
expect_ok "--save through a chain of two links" $T --save l1
check "--save through links: the links stay links" [ -L l1 -a -L real/l2 ]
check "--save through links: the target holds the new model" cmp ref.model real/deep/t.model
check "--save through links: the target keeps its mode 600" [ "$(stat -c %a real/deep/t.model)" = 600 ]
ln -s real/made.json dang
expect_ok "--json through a dangling link" $T --json dang
check "--json through a dangling link: the target is created" [ -L dang -a -f real/made.json ]
ln -s nowhere/x.model dang2
refuse "--save through a link into a missing directory" 1 "^condnet train: dang2 -> nowhere/x\\.model: the directory nowhere does not exist$" $T --save dang2
mkdir outdir
refuse "--save to a directory" 1 "^condnet train: outdir: is a directory, expected a file name$" $T --save outdir
refuse "--csv to a directory" 1 "^condnet train: outdir: is a directory, expected a file name$" $T --csv outdir
refuse "--save - (a model is binary)" 1 "^condnet train: -: standard output takes only text \\(JSON, CSV\\); this file is binary: name a file$" $T --save -
check "--save - is refused before training" [ ! -s "$TMP/out" ]
start=$(date +%s)
refuse "train --save into a missing directory fails at once" 1 "^condnet train: /no/such/dir/x\\.model: the directory /no/such/dir does not exist$" \
	"$C" train --epochs 30 --save /no/such/dir/x.model
check "train --save into a missing directory: no epoch was run" [ ! -s "$TMP/out" -a $(($(date +%s) - start)) -lt 5 ]
$T --json - >dash.out 2>dash.err; st=$?
check "--json - writes the record alone to standard output (exit $st)" python3 -c "
import json
r = json.load(open('dash.out'))
assert r['command'] == 'train', r"
check "--json -: the text report goes to standard error" sh -c "head -1 dash.err | grep -q '^synthetic: '"
$T --csv - 2>/dev/null | cat >csvpipe.out
expect_grep "--csv - into a pipe" "^epoch,loss,train_acc,test_acc," csvpipe.out
check "--csv - into a pipe: the table alone" sh -c "! grep -q 'accuracy' csvpipe.out"
refuse "--json - and --csv - together" 1 "^condnet train: --json and --csv both name standard output: give one of them a file$" \
	$T --json - --csv -
expect_ok "--json and --csv both /dev/null while standard output is /dev/null" \
	sh -c "$T --json /dev/null --csv /dev/null >/dev/null"
"$C" sweep --layers 2x8 --beta 1 --q 1 --eta 0.2 --no-extend --quiet --csv - >sweep-csv.out 2>sweep-csv.err
"$C" sweep --layers 4 --beta 1,2 --q 2 --plan - >plan-out.txt 2>plan-err.txt
check "sweep --plan -: the trials alone on standard output, the text on standard error" sh -c \
	'[ $(wc -l <plan-out.txt) -eq 4 ] && [ $(grep -c -- "--trial" plan-out.txt) -eq 4 ] && grep -q "parallel -j 2)" plan-err.txt'
check "sweep --csv -: the table alone on standard output, the report on standard error" python3 -c "
o = open('sweep-csv.out').read(); e = open('sweep-csv.err').read()
assert o.startswith('beta,') and 'pick' not in o.splitlines()[-1][:5] and 'pick: beta' in e, (o, e)"
# /dev/fd/1 is the link chain /dev/stdout -> /proc/self/fd/1 less one link;
# /dev/stdout itself only when not root: a fault run as root would replace it
out1=/dev/fd/1
[ "$(id -u)" -ne 0 ] && out1=/dev/stdout
$T --json $out1 2>devstdout.err | cat >devstdout.out
check "--json $out1 into a pipe: the record alone" python3 -c "
import json
assert json.load(open('devstdout.out'))['command'] == 'train'
assert 'train accuracy' in open('devstdout.err').read()"
$T --json $out1 >redirected.out 2>redirected.err
check "--json $out1 redirected to a file: the record in the file, the report on standard error" python3 -c "
import json
assert json.load(open('redirected.out'))['command'] == 'train'
assert open('redirected.err').read().startswith('synthetic: ')"
mkfifo outfifo
timeout 30 cat outfifo >fromfifo & reader=$!
expect_ok "--csv to a FIFO" timeout 20 $T --csv outfifo
wait $reader
check "--csv to a FIFO: the reader got the table, the FIFO stays" sh -c "[ -p outfifo ] && grep -q '^epoch,loss' fromfifo"
# (a node of its own: a regression run as root must not replace /dev/null)
if [ "$(id -u)" -eq 0 ] && mknod nulldev c 1 3 2>/dev/null; then
	expect_ok "--json to a character device (own null node)" $T --json nulldev --csv nulldev
	check "--json to a character device: it stays a device" [ -c nulldev ]
	ln -s nulldev tonull
	expect_ok "--save through a link to a character device" $T --save tonull
	check "--save through a link to a device: link and device stay" [ -L tonull -a -c nulldev ]
else
	echo "skip - --json to a character device (needs root for mknod)"
fi
python3 - "$C" >pty.out 2>&1 <<'PY'
import os, subprocess, sys
m, s = os.openpty()
run = lambda *o: subprocess.run([sys.argv[1], 'train', '--layers', '4', '--epochs', '1', '--limit', '20',
                                 '--quiet', *o], capture_output=True, text=True)
r = run('--save', os.ttyname(s))
print(r.returncode, r.stderr.strip().replace(os.ttyname(s), 'PTY'))
r = run('--csv', os.ttyname(s))
print(r.returncode, os.read(m, 4096).decode().splitlines()[0])
PY
expect_grep "--save to a terminal is refused" "^1 condnet train: PTY: a terminal; binary data is not written to one$" pty.out
expect_grep "--csv to a terminal is written" "^0 epoch,loss,train_acc,test_acc," pty.out
rm -f umask.csv
(umask 027; exec $T --csv umask.csv) >/dev/null 2>&1
check "a new --csv file gets 0666 less the umask 027 (got $(stat -c %a umask.csv))" [ "$(stat -c %a umask.csv)" = 640 ]
chmod 604 umask.csv
$T --csv umask.csv >/dev/null 2>&1
check "a replaced --csv file keeps its mode 604 (got $(stat -c %a umask.csv))" [ "$(stat -c %a umask.csv)" = 604 ]
check "no temporary file is left by any write above" [ -z "$(find . -name '*.tmp.*')" ]

## failing before the work: every command checks each output path before it
## reads data or trains (the data named here does not exist: its error would
## come first otherwise)
nd=/no/such/dir
out1() { name=$1 cmd=$2 path=$3; shift 3
	refuse "$name" 1 "^condnet $cmd: $path: the directory ${path%/*} does not exist$" "$C" "$cmd" "$@"; }
out1 "alg1 --save checked first" alg1 $nd/a.model --data csv:nodata.csv --save $nd/a.model
out1 "alg1 --json checked first" alg1 $nd/a.json --data csv:nodata.csv --json $nd/a.json
out1 "alg1 --csv checked first" alg1 $nd/a.csv --data csv:nodata.csv --csv $nd/a.csv
out1 "sweep --save checked first" sweep $nd/s.model --data csv:nodata.csv --final-epochs 1 --save $nd/s.model
out1 "sweep --trial --out checked first" sweep $nd/t.json --data csv:nodata.csv --beta 1 --trial 0 --out $nd/t.json
out1 "sweep --plan checked first" sweep $nd/plan.txt --data csv:nodata.csv --plan $nd/plan.txt
refuse "sweep --plan --out DIR checked first" 1 "^condnet sweep: $nd/trials: the directory $nd does not exist$" \
	"$C" sweep --data csv:nodata.csv --plan plan.txt --out $nd/trials
out1 "squeeze --save checked first" squeeze $nd/q.model --load nomodel.model --save $nd/q.model
out1 "squeeze --plot checked first" squeeze $nd/p.dat --load nomodel.model --compare --plot $nd/p
out1 "cond --json checked first" cond $nd/c.json --load nomodel.model --json $nd/c.json
out1 "import --save checked first" import $nd/i.model --npy nonpy.d --save $nd/i.model
out1 "export --onnx checked first" export $nd/e.onnx --load nomodel.model --onnx $nd/e.onnx
refuse "export --npy DIR checked first" 1 "^condnet export: $nd/npy: the directory $nd does not exist$" \
	"$C" export --load nomodel.model --npy $nd/npy
refuse "export --data --npy DIR checked first" 1 "^condnet export: $nd/npy: the directory $nd does not exist$" \
	"$C" export --data csv:nodata.csv --npy $nd/npy
refuse "paper --out DIR checked first" 1 "^condnet paper: $nd/p: the directory $nd does not exist$" \
	"$C" paper mnist --quick --data-dir nodata --out $nd/p
out1 "paper --report checked first" paper $nd/r.md mnist --quick --data-dir nodata --out pq --report $nd/r.md
check "paper --report refused: the --out directory was not made" [ ! -e pq ]
out1 "paper --plan checked first" paper $nd/plan mnist --quick --data-dir nodata --plan $nd/plan
out1 "replay --save checked first" replay $nd/r.model nolog.log --save $nd/r.model
touch afile
refuse "export --npy onto a file" 1 "^condnet export: afile: exists and is not a directory$" "$C" export --load nomodel.model --npy afile
refuse "a directory as --json" 1 "^condnet alg1: outdir: is a directory, expected a file name$" "$C" alg1 --data csv:nodata.csv --json outdir
expect_fail "paper --report inside the --out directory it makes passes the check" "nodata" \
	"$C" paper mnist --quick --data-dir nodata --out pq2 --report pq2/r.md
rmdir pq2 2>/dev/null

## interruptions: SIGINT, SIGTERM, SIGHUP and SIGQUIT stop a run (exit 130);
## other signals end it; a save is never cut (tests/test_signals: every signal
## during saves)
# interrupt SIG CMD...: starts CMD, waits for its first epoch line, sends SIG; sets st.
interrupt() {
	sig=$1; shift
	: >int.out; : >int.err
	"$@" >int.out 2>int.err &
	pid=$!
	i=0
	while [ $i -lt 300 ] && ! grep -q 'epoch' int.out int.err; do sleep 0.1; i=$((i + 1)); done
	sleep 0.3
	kill -"$sig" $pid 2>/dev/null || fail "SIG$sig: process $pid had ended before the signal: $*"
	wait $pid; st=$?
}
cp m.model keep.model
interrupt INT "$C" train --layers 4x128 --epochs 100000 --save keep.model
check "SIGINT stops training with status 130 (got $st)" [ "$st" -eq 130 ]
expect_grep "SIGINT: the model is not saved" "^not saving keep\.model: training was interrupted \(--save-partial saves anyway\)$" int.out
check "SIGINT leaves the previous model intact" cmp m.model keep.model
check "SIGINT shows no crash" sh -c "! grep -Eq 'Sanitizer|runtime error:|Segmentation' int.err"
interrupt INT "$C" train --layers 4x128 --epochs 100000 --save keep.model --save-partial --quiet
check "SIGINT with --save-partial: status 130 (got $st)" [ "$st" -eq 130 ]
expect_grep "SIGINT with --save-partial: saved" "^saved keep\.model \(partially trained\)$" int.out
expect_ok "SIGINT with --save-partial: the model loads" "$C" cond --load keep.model
expect_grep "SIGINT with --save-partial: the model has the new shape" "^keep\.model: 10-128-128-128-128-3$" "$TMP/out"
cp m.model keep.model
interrupt TERM "$C" alg1 --layers 3x256 --tau 1.5 --eta 100000 --save keep.model
check "SIGTERM stops alg1 with status 130 (got $st)" [ "$st" -eq 130 ]
expect_grep "SIGTERM during alg1: the model is not saved" "^not saving keep\.model: the run was interrupted$" int.out
check "SIGTERM during alg1 leaves the previous model intact" cmp m.model keep.model
interrupt HUP "$C" train --layers 4x128 --epochs 100000 --save keep.model
check "SIGHUP stops training with status 130 (got $st)" [ "$st" -eq 130 ]
expect_grep "SIGHUP: named in the report" "^interrupted by SIGHUP after " int.out
check "SIGHUP leaves the previous model intact" cmp m.model keep.model
interrupt QUIT "$C" alg1 --layers 3x256 --tau 1.5 --eta 100000 --save keep.model
check "SIGQUIT stops alg1 with status 130 (got $st)" [ "$st" -eq 130 ]
expect_grep "SIGQUIT during alg1: the model is not saved" "^not saving keep\.model: the run was interrupted$" int.out
rm -f swint.json swint.csv
interrupt HUP "$C" sweep --layers 2x64 --beta 1,2 --q 2 --eta 100000 --json swint.json --csv swint.csv
check "SIGHUP stops sweep with status 130 (got $st)" [ "$st" -eq 130 ]
expect_grep "SIGHUP during sweep: the table of the trials done" "^condnet sweep: interrupted; the table holds the trials done$" int.err
check "SIGHUP during sweep: the JSON record is written, marked interrupted" python3 -c "
import json
assert json.load(open('swint.json'))['interrupted'] is True"
expect_grep "SIGHUP during sweep: the CSV table is written" "^beta,err_tr,err_v,score,trials,pick$" swint.csv
interrupt USR1 "$C" train --layers 4x128 --epochs 100000 --save keep.model 2>/dev/null
check "SIGUSR1 ends training by its default action (got $st)" [ "$st" -eq 138 ]
check "SIGUSR1 leaves the previous model intact" cmp m.model keep.model
# nohup's SIGHUP stays ignored; SIGTERM still stops
: >int.out
nohup "$C" train --layers 4x128 --epochs 100000 >int.out 2>int.err &
pid=$!
i=0; while [ $i -lt 300 ] && ! grep -q 'epoch' int.out; do sleep 0.1; i=$((i + 1)); done
kill -HUP $pid; sleep 0.5
check "under nohup SIGHUP is ignored" kill -0 $pid
kill -TERM $pid; wait $pid; st=$?
check "under nohup SIGTERM still stops (got $st)" [ "$st" -eq 130 ]
check "no temporary file is left by any interruption" [ -z "$(find . -name '*.tmp.*')" ]

## session logs
rp() { refuse "$1" 1 "^condnet replay: $2" "$C" replay "$3"; }
D='data spec=synthetic features=0 label_col=-1 seed=1 limit=10 val_frac=0.1 val_per_class=0'
N='net layers=4 act=erf act_a=1 seed=1'
printf '%s\n%s\nfrobnicate x=1\n' "$D" "$N" >s1.log
rp "log with an unknown action" "s1\.log:3: unknown action 'frobnicate' \(expected data, opts, net" s1.log
printf '%s\ntau 0.5\n' "$D" >s2.log
rp "log with tau < 1" "s2\.log:2: tau: '0\.5' must be greater than 1$" s2.log
printf '%s\ntau 1\n' "$D" >s2b.log
rp "log with tau = 1" "s2b\.log:2: tau: '1' must be greater than 1$" s2b.log
printf '%s\neta 0\n' "$D" >s2c.log
rp "log with eta = 0" "s2c\.log:2: eta: '0' is not a positive number$" s2c.log
printf '%s\nnet layers=3,0 act=erf act_a=1 seed=1\n' "$D" >s2d.log
rp "log with a zero width" "s2d\.log:2: net: layers \"3,0\": width at column 3 must be positive, not 0$" s2d.log
printf '%s\n%s\nsweep betas=1,-2 q=1\n' "$D" "$N" >s2e.log
rp "log with a negative beta" "s2e\.log:3: sweep: betas \"1,-2\": β = -2, every β must be > 0$" s2e.log
printf '%s\n%s\nsweep betas=1 q=0\n' "$D" "$N" >s2f.log
rp "log with q = 0" "s2f\.log:3: q: '0' is not a positive integer$" s2f.log
printf '%s\n' "$N" >s3.log
rp "log without data first" "s3\.log:1: net: no data set yet \(the first action must be 'data'\)$" s3.log
printf 'data spec=synthetic features=0 label_col=-1 seed=1 limit=10 val_frac=0.1\n' >s4.log
rp "log with a missing field" "s4\.log:1: data: missing val_per_class$" s4.log
printf '%s\n%s\nsqueeze layer=7 apply\n' "$D" "$N" >s5.log
rp "log squeezing a layer that does not exist" "s5\.log:3: squeeze: layer 7 is not a hidden layer \(1\.\.1\)$" s5.log
printf '%s\nload path=m.model crc=deadbeef\n' "$D" >s6.log
rp "log loading a model that changed" "s6\.log:2: m\.model: the parameters' CRC-32 is [0-9a-f]{8}, the session loaded deadbeef \(the file has changed\)$" s6.log
printf '%s\n%s\nundo\nundo\n' "$D" "$N" >s7.log
rp "log undoing too far" "s7\.log:3: undo: nothing to undo$" s7.log
printf '%s\n%s\nsave path=%%zz\n' "$D" "$N" >s8.log
rp "log with a bad escape" "s8\.log:3: save: bad escape at '%zz' \(expected %XX\)$" s8.log
python3 -c "print('data spec=' + 'a' * 5000)" >s9.log
rp "log with a 5000-character line" "s9\.log:1: line longer than 4094 bytes$" s9.log
: >s10.log
rp "empty log" "s10\.log: the log builds no network$" s10.log
rp "replay /dev/zero" "/dev/zero: not a regular file$" /dev/zero
mkfifo fifo
mkdir -p csvdir
refuse "replay a FIFO (not opened)" 1 "^condnet replay: fifo: not a regular file$" timeout 10 "$C" replay fifo
refuse "tui --log FIFO: refused at once, not waiting for a reader" 1 "^condnet: fifo: the session log is a FIFO, expected a regular file$" \
	timeout 10 "$C" tui --log fifo
refuse "tui --log a directory" 1 "^condnet: csvdir: the session log is a directory, expected a regular file$" \
	timeout 10 "$C" tui --log csvdir
head -c 3000 /dev/urandom >s11.log
refuse "log of random bytes" 1 "^condnet replay: s11\.log:[0-9]+: " "$C" replay s11.log
printf '%s\n%s\0 act=relu\n' "$D" "$N" >s11b.log
rp "log with a NUL byte (the rest of the line is not dropped)" "s11b\.log:2: NUL byte at character 36, expected text$" s11b.log

## one table of limits: a session log, a model file and the command line
## refuse the same values (engine/limits.c)
printf '%s\nopts batch=50 lr=1e300\n' "$D" >s12.log
rp "log with lr = 1e300" "s12\.log:2: lr: '1e300' must be at most 10$" s12.log
printf '%s\nnet layers=4 act=erf act_a=1e300 seed=1\n' "$D" >s13.log
rp "log with act_a = 1e300" "s13\.log:2: act_a: '1e300' must be at most 1e\+06$" s13.log
printf '%s\nopts batch=2000000 lr=0.001\n' "$D" >s14.log
rp "log with batch = 2000000" "s14\.log:2: batch: '2000000' is out of range \(1\.\.1000000\)$" s14.log
printf '%s\nopts batch=50 lr=1e-320\n' "$D" >s15.log
rp "log with a subnormal lr" "s15\.log:2: lr: '1e-320' is too small \(the least is 1\.17549e-38\)$" s15.log
printf '%s\n%s\nsweep betas=1e20 q=1\n' "$D" "$N" >s16.log
rp "log with beta = 1e20" "s16\.log:3: sweep: betas \"1e20\": β: 1e\+20 must be at most 1e\+06$" s16.log
refuse "--lr 1e-320 is too small, not 'not a number'" 2 "^condnet train: --lr: '1e-320' is too small \(the least is 1\.17549e-38\)$" \
	"$C" train --lr 1e-320
refuse "--lr 1e300" 2 "^condnet train: --lr: '1e300' must be at most 10$" "$C" train --lr 1e300
refuse "--act-scale 1e-39 is too small" 2 "^condnet train: --act-scale: '1e-39' is too small" "$C" train --act-scale 1e-39
refuse "sweep --beta 1e20" 2 "^condnet sweep: --beta: betas \"1e20\": β: 1e\+20 must be at most 1e\+06$" "$C" sweep --beta 1e20
refuse "sweep --beta 1:2:1e-300 (no 300-digit count)" 2 "^condnet sweep: --beta: betas \"1:2:1e-300\": step 1e-300 is finer than β's grid of 1e-09$" \
	"$C" sweep --beta 1:2:1e-300
refuse "sweep --beta 1:2:1e-5" 2 "^condnet sweep: --beta: betas \"1:2:1e-5\": step 1e-05 from 1 to 2 makes more than 64 values$" \
	"$C" sweep --beta 1:2:1e-5
start=$(date +%s)
refuse "sweep --beta 1000: past the parameter limit, refused before any trial" 1 \
	"^condnet sweep: β = 1000: even with one input and two classes, its network has [0-9]+ parameters, more than condnet trains \(1073741824\)$" \
	"$C" sweep --beta 1,1000 --q 1
check "sweep --beta 1000: refused at once, nothing trained" [ ! -s "$TMP/out" -a $(($(date +%s) - start)) -lt 5 ]
refuse "sweep --beta 1000 refused before the data are read" 1 "^condnet sweep: β = 1000: even with one input" \
	sh -c 'printf "1,2,0\n1,2\n" >short.csv && "$1" sweep --data csv:short.csv --layers 2x600 --beta 1,1000 --q 1' sh "$C"
refuse "sweep --plan with beta 1000 refused too" 1 "^condnet sweep: β = 1000: even with one input" \
	"$C" sweep --beta 1000 --plan plan.txt
refuse "sweep --beta whose step adds no neuron" 1 \
	"^condnet sweep: β = 0\.01 and β = 0\.02 give the same hidden layers 1x1: a step that adds no neuron, expected β further apart$" \
	"$C" sweep --layers 2x8 --beta 0.01,0.02 --q 1
expect_ok "sweep whose extension would add no neuron" "$C" sweep --layers 3x2 --beta 1 --q 1 --eta 1 \
	--max-extend 6 --quiet --csv ext.csv
check "sweep whose extension would add no neuron: it ends at the one β" \
	sh -c '[ "$(cut -d, -f1 ext.csv | tr "\n" " ")" = "beta 1 " ]'
# model files: values well-formed but out of the table, under a valid CRC
fixcrc() { python3 -c "
import struct, sys, zlib
b = bytearray(open(sys.argv[1], 'rb').read())
b[-4:] = struct.pack('<I', zlib.crc32(bytes(b[:-4])))
open(sys.argv[1], 'wb').write(b)" "$1"; }
expect_ok "train a small model with Adam state" "$C" train --layers 3x8 --epochs 1 --limit 20 --save a.model --quiet
# (10-8-8-8-3: 4 layers, the Adam step count at offset 48, the weights from 60)
cp a.model steps.model; poke steps.model 48 ffffffffffffff7f; fixcrc steps.model
refuse "model with an Adam step count of INT64_MAX (valid CRC)" 1 \
	"^condnet cond: steps\.model: Adam step count 9223372036854775807 at offset 48 is more than condnet's limit of 2\^53$" \
	"$C" cond --load steps.model
refuse "training a model with an Adam step count of INT64_MAX" 1 "^condnet train: steps\.model: Adam step count 9223372036854775807" \
	"$C" train --load steps.model --epochs 1 --limit 20 --save steps2.model --quiet
check "no model written from it" [ ! -e steps2.model ]
cp a.model scale.model; poke scale.model 24 caf24971; fixcrc scale.model
refuse "model with an activation scale of 1e30 (valid CRC)" 1 \
	"^condnet cond: scale\.model: the activation scale at offset 24: 1\.00000002e\+30 must be at most 1e\+06$" \
	"$C" cond --load scale.model
cp a.model nan.model; poke nan.model 72 0000c07f; fixcrc nan.model
refuse "model with a NaN weight (valid CRC)" 1 "^condnet cond: nan\.model: parameter 3 \(layer 1\) at offset 72 is nan, expected a finite number$" \
	"$C" cond --load nan.model

## binary outputs never go to standard output, whatever its name: the report
## would be mixed into them (as "-" is refused)
sh -c '{ "$1" export --load m.model --onnx "$2" 2>bs.err; echo $? >bs.st; } | cat >bs.out' sh "$C" "$out1"
check "export --onnx $out1 into a pipe is refused (exit $(cat bs.st))" sh -c \
	'[ "$(cat bs.st)" -eq 1 ] && [ ! -s bs.out ] && grep -q "^condnet export: .*: is standard output, which takes only text (JSON, CSV) beside the report; this file is binary: name another file$" bs.err'
refuse "export --onnx $out1 redirected to a file is refused" 1 "is standard output, which takes only text" \
	sh -c 'exec "$1" export --load m.model --onnx "$2" >bs.file' sh "$C" "$out1"
check "... the file holds nothing" [ ! -s bs.file ]
refuse "export --onnx F > F is refused" 1 "^condnet export: same\.onnx: is standard output" \
	sh -c 'exec "$1" export --load m.model --onnx same.onnx >same.onnx' sh "$C"
refuse "train --save F > F is refused before training" 1 "^condnet train: same\.model: is standard output" \
	sh -c 'exec "$1" train --layers 4 --epochs 1 --limit 20 --save same.model >same.model' sh "$C"
check "... nothing trained, nothing written" [ ! -s same.model ]
expect_ok "--save /dev/null while standard output is /dev/null is written" \
	sh -c 'exec "$1" train --layers 4 --epochs 1 --limit 20 --save /dev/null >/dev/null' sh "$C"

## a write error on standard output is an error (exit 1), as for --json -
refuse "cond > /dev/full" 1 "^condnet cond: writing standard output failed: No space left on device$" \
	sh -c 'exec "$1" cond --load m.model >/dev/full' sh "$C"
refuse "cond with standard output closed" 1 "^condnet cond: writing standard output failed: Bad file descriptor$" \
	sh -c 'exec "$1" cond --load m.model >&-' sh "$C"
refuse "train > /dev/full" 1 "^condnet train: writing standard output failed: No space left on device$" \
	sh -c 'exec "$1" train --layers 4 --epochs 1 --limit 20 >/dev/full' sh "$C"
printf '%s\n%s\n' "$D" "$N" >ok.log
refuse "replay > /dev/full" 1 "^condnet replay: writing standard output failed: No space left on device$" \
	sh -c 'exec "$1" replay ok.log >/dev/full' sh "$C"
rm -f closed.model
refuse "train --save with standard output closed" 1 "writing standard output failed: Bad file descriptor$" \
	sh -c 'exec "$1" train --layers 4 --epochs 1 --limit 20 --save closed.model >&-' sh "$C"
expect_ok "... the model is not taken for standard output: it loads" "$C" cond --load closed.model

## plans run what they say: a path whose bytes cannot stand on one line of a
## plan (a line feed, a carriage return) is refused, naming the option
nl=$(printf 'nl\ntouch X\n.csv')
printf '1,2,0\n2,3,1\n3,4,0\n4,5,1\n1,3,0\n2,4,1\n' >"$nl"
rm -rf trials p.txt X
refuse "sweep --plan with a line feed in --data" 2 \
	"^condnet sweep: --data: 'csv:.*/nl.ntouch X.n\.csv' holds a line feed \(byte [0-9]+\), and a plan holds one command a line$" \
	"$C" sweep --data "csv:$nl" --layers 2 --beta 1 --q 1 --plan p.txt
check "... no plan, no trial directory" [ ! -e p.txt -a ! -e trials ]
refuse "sweep --plan with a carriage return in --out" 2 "^condnet sweep: --out: '.*t.rx' holds a carriage return" \
	"$C" sweep --layers 2 --beta 1 --q 1 --plan p.txt --out "$(printf 't\rx')"
refuse "paper --plan with a line feed in --data-dir" 2 "^condnet paper: --data-dir: '.*a.nb' holds a line feed" \
	"$C" paper adult --quick --plan pp.txt --data-dir "$(printf 'a\nb')"
check "... no plan" [ ! -e pp.txt ]
refuse "squeeze --plot with a line feed (a line of the gnuplot script)" 2 \
	"^condnet squeeze: --plot: 'p.nsystem' holds a line feed \(byte 2\), and the gnuplot script holds one command a line$" \
	"$C" squeeze --load m.model --compare --plot "$(printf 'p\nsystem')"
check "nothing ran what a path said" [ ! -e X ]

## gathered trials belong together: every trial file records the settings
## that change its numbers, and a gather refuses others or a mix
rm -rf g; mkdir g
G="--layers 2x8 --beta 1 --q 2 --eta 0.2 --quiet"
expect_ok "trial 0" "$C" sweep $G --trial 0 --out g/t0.json
expect_ok "trial 1" "$C" sweep $G --trial 1 --out g/t1.json
expect_ok "they gather" "$C" sweep $G --no-extend --gather g/t0.json g/t1.json
refuse "a gather under another --seed" 1 \
	"^condnet sweep: g/t0\.json: made with --seed '1', but this gather has '2': trials of other settings are not compared$" \
	"$C" sweep $G --seed 2 --no-extend --gather g/t0.json g/t1.json
refuse "a gather under another --act" 1 "^condnet sweep: g/t0\.json: made with --act 'erf', but this gather has 'relu'" \
	"$C" sweep $G --act relu --no-extend --gather g/t0.json g/t1.json
expect_ok "trial 1 under another --limit" "$C" sweep $G --limit 30 --trial 1 --out g/t1.json
refuse "a mix: one trial of another --limit" 1 "^condnet sweep: g/t1\.json: made with the data set \(--data and its options\) 'synthetic .*limit=30 " \
	"$C" sweep $G --no-extend --gather g/t0.json g/t1.json
expect_ok "trial 1 again" "$C" sweep $G --trial 1 --out g/t1.json
python3 -c "
import json
d = json.load(open('g/t1.json')); del d['settings']
json.dump(d, open('g/t1.json', 'w'))"
refuse "a trial file without the record of its settings" 1 \
	"^condnet sweep: g/t1\.json: no record of the settings the trial was made under \(a file written by an older condnet\): run the trial again$" \
	"$C" sweep $G --no-extend --gather g/t0.json g/t1.json

## the screen needs a terminal: without one it refuses to start, saying which
## (it used to spin at 100 % CPU for ever), and makes no log
mkdir -p st
refuse "tui < /dev/null" 1 "^condnet tui: standard input is not a terminal: the screen needs one to draw on and read keys from \('condnet replay LOG' runs a session log without one\)$" \
	env XDG_STATE_HOME="$TMP/st" timeout 10 "$C" tui </dev/null
refuse "tui with standard input closed" 1 "^condnet tui: standard input is not a terminal" \
	sh -c 'XDG_STATE_HOME="$2" exec timeout 10 "$1" tui <&-' sh "$C" "$TMP/st"
python3 - "$C" "$TMP/st" >notty.out 2>&1 <<'PY'
import os, subprocess, sys
m, s = os.openpty()
env = dict(os.environ, XDG_STATE_HOME=sys.argv[2], TERM='xterm')
for how in ('file', 'pipe'):
    out = open('notty.file', 'w') if how == 'file' else subprocess.PIPE
    r = subprocess.run(['timeout', '10', sys.argv[1], 'tui'], stdin=s, stdout=out,
                       stderr=subprocess.PIPE, env=env, text=True)
    print(how, r.returncode, r.stderr.strip())
PY
expect_grep "tui > file: standard output is not a terminal" "^file 1 condnet tui: standard output is not a terminal" notty.out
expect_grep "tui | cat: standard output is not a terminal" "^pipe 1 condnet tui: standard output is not a terminal" notty.out
check "... and no session log was made" [ -z "$(find st -type f)" ]

## an address-space limit (ulimit -v) too low for OpenBLAS: a message saying
## how much is needed, at once (OpenBLAS retried a failed buffer for ever: the
## command spun at 100 % CPU and one SIGTERM did not end it). AddressSanitizer
## maps terabytes of shadow, so no limit applies to a sanitizer build.
if nm "$C" 2>/dev/null | grep -q __asan_init || ldd "$C" 2>/dev/null | grep -q libasan; then
	echo "# sanitizer build: the address-space limits are not tried"
else
	"$C" train --layers 30 --epochs 1 --save small.model --quiet >/dev/null 2>&1
	# limited LIMIT CMD...: CMD under ulimit -v LIMIT, stopped after 120 s if it
	# never ends (which it used to)
	limited() { lim=$1; shift; (ulimit -v "$lim"; exec timeout -s KILL 120 "$@"); }
	limited 100000 env OPENBLAS_NUM_THREADS=2 "$C" --version >out 2>err; st=$?
	check "ulimit -v 100000: condnet --version exits 1 (got $st)" [ "$st" -eq 1 ]
	expect_grep "... saying OpenBLAS cannot start and how much is needed" \
		"^condnet: the address-space limit \(ulimit -v 100000 KiB\) is too low for OpenBLAS to start: it needs a buffer of 131080 KiB for each thread that computes with it \(1 of its own here: OPENBLAS_NUM_THREADS sets them\), and condnet at least [0-9]+ KiB in all; raise the limit \(ulimit -v [0-9]+\)$" err
	for cmd in "train --layers 30 --epochs 1" "cond --load small.model" "squeeze --load small.model" \
	           "alg1 --layers 3x8 --max-iter 1" "paper adult --quick --out lim-paper"; do
		set -- $cmd
		limited 260000 "$C" "$@" --threads 2 >out 2>err; st=$?
		check "ulimit -v 260000: $1 --threads 2 exits 1 (got $st)" [ "$st" -eq 1 ]
		expect_grep "... $1 says how much the two threads need" \
			"^condnet $1: the address-space limit \(ulimit -v 260000 KiB\) leaves [0-9]+ KiB, and this run needs about [0-9]+ KiB more: 262160 KiB for OpenBLAS's buffers \(131080 KiB for each of the 2 threads computing with it at once\), [0-9]+ KiB for the threads' stacks and [0-9]+ KiB for the work; raise the limit to at least [0-9]+ KiB \(ulimit -v\), or give fewer --threads$" err
	done
	limited 260000 "$C" train --layers 30 --epochs 1 --threads 1 --quiet >out 2>err; st=$?
	check "ulimit -v 260000: a run on one thread has room, and runs (got $st)" [ "$st" -eq 0 ]
	limited 260000 "$C" cond --load small.model --threads 1 >out 2>err; st=$?
	check "ulimit -v 260000: cond on one thread runs (got $st)" [ "$st" -eq 0 ]
fi

## a long decomposition answers a stop: SIGTERM while the 2001 × 2000 Ŵ of a
## layer is decomposed (GSL's SVD and pivoted QR, seconds to minutes: GSL's
## path asked for, LAPACK's is the default there and asks the stop between its
## blocks, tests/cond_scale.sh) ends the run at once with status 130; the stop
## used to wait for the layer's end
"$C" train --layers 2000,2000 --epochs 0.002 --save wide.model --quiet >/dev/null 2>&1
"$C" squeeze --load wide.model --threads 1 --cond-path gsl >out 2>err &
pid=$!
# the decomposition runs on a thread of its own, named "decompose", while it lasts
i=0
while ! grep -qs '^decompose$' /proc/$pid/task/*/comm && kill -0 $pid 2>/dev/null && [ $i -lt 2400 ]; do
	sleep 0.05; i=$((i + 1))
done
kill -TERM $pid; wait $pid; st=$?
check "SIGTERM during a layer's decomposition ends squeeze with status 130 (got $st)" [ "$st" -eq 130 ]
expect_grep "... saying the decomposition was stopped" \
	"^condnet squeeze: layer 2: .*stopped during the decomposition of a 2001×2000 matrix$" err
check "... without a crash" sh -c "! grep -Eq 'Sanitizer|runtime error:|Segmentation' err"

## a squeeze whose comparison with the other compensation setting overflows
## (weights near the float limit: the refit leaves float's range) still
## reports the squeeze asked for, the comparison marked failed (the whole
## squeeze used to fail); asked with compensation, it fails, naming why
"$C" train --layers 8,8 --epochs 2 --save fl.model --quiet --reproducible >/dev/null 2>&1
python3 - <<'PY'
import struct, zlib
b = bytearray(open('fl.model', 'rb').read())
hb, m = struct.unpack_from('<II', b, 12)
n = struct.unpack_from('<%dI' % (m + 1), b, 28)
for L in (2, 3):  # the weights of layers 2 and 3 scaled to 3.3e38 at most
    off = hb + sum(4 * (n[i - 1] + 1) * n[i] for i in range(1, L))
    cnt = (n[L - 1] + 1) * n[L]
    v = [struct.unpack_from('<f', b, off + 4 * i)[0] for i in range(cnt)]
    s = 3.3e38 / max(abs(x) for x in v)
    for i, x in enumerate(v):
        struct.pack_into('<f', b, off + 4 * i, x * s)
struct.pack_into('<I', b, len(b) - 4, zlib.crc32(bytes(b[:-4])) & 0xffffffff)
open('near.model', 'wb').write(b)
PY
expect_ok "squeeze of weights near the float limit: the squeeze asked for is reported" \
	"$C" squeeze --load near.model --tau 10 --reproducible --json near.json --csv near.csv
expect_grep "... its comparison marked failed, saying why" \
	"^the other network: the same squeeze with compensation failed \(layer 2: compensation: the refit gave weight .* outside float range\): not compared$" out
expect_grep "... and the squeeze asked for in its table" "^kept +10 +qr +no +[1-9][0-9]* " out
check "... the JSON record says so" python3 -c "
import json
r = json.load(open('near.json'))
assert r['other_network']['failed'].startswith('layer 2: compensation:'), r['other_network']
assert r['removed'] >= 1 and 'removed_with_compensation' not in r, r"
refuse "asked with compensation, the squeeze fails, naming why" 1 \
	"^condnet squeeze: layer 2: compensation: the refit gave weight .* outside float range$" \
	"$C" squeeze --load near.model --tau 10 --reproducible --compensate
expect_ok "squeeze --compare of such weights compares what it can" \
	"$C" squeeze --load near.model --tau 10 --reproducible --compare --draws 2 --json nearc.json
expect_grep "... the compensated squeezes marked failed" \
	"^τ 10: the squeezes with compensation failed \(layer 2: compensation: .*\): they are not compared$" out

finish
