#!/bin/sh
# stops.sh - a single stop signal ends every batch command, and what was
# computed is not lost:
#  - an output that is a FIFO no process reads (predict --out, eval --json,
#    cond --json, train --save): one SIGTERM ends the wait, exit 130;
#  - a gnuplot that hangs and ignores SIGTERM under squeeze --plot: one
#    SIGTERM (or SIGINT) ends both, exit 130, the --json record written; a
#    gnuplot that fails: exit 1 and the record written all the same;
#  - work stuck where it asks no stop (reading a standard input that never
#    comes): the stop ends the process by its signal;
#  - under an address-space limit squeeze never hangs in OpenBLAS's buffers;
#  - SIGKILL during export --npy over an older set leaves the older set or
#    the new one, never one the manifest refuses.
# A command that does not end after one signal fails the check once 30 s
# have passed (a hang, not slowness: the time is not asserted).
. "$(dirname "$0")/lib.sh"
C=$CONDNET
cd "$TMP" || exit 1

"$C" train --data moons --layers 6 --epochs 2 --save m.model --quiet >/dev/null ||
	{ echo "cannot train the test's model"; exit 1; }
printf '0.1,0.2\n0.3,0.4\n' >in.csv
printf '0.1,0.2,0\n0.3,0.4,1\n0.5,0.1,0\n0.2,0.9,1\n0.7,0.3,0\n0.9,0.8,1\n' >lab.csv

# waits PID UNTIL: waits (30 s at most) until the shell test UNTIL succeeds
# with $pid set; 1 when it never did or the process ended first.
waits() {
	pid=$1; shift
	i=0
	while [ $i -lt 600 ]; do
		kill -0 "$pid" 2>/dev/null || return 1
		eval "$*" && return 0
		sleep 0.05; i=$((i + 1))
	done
	return 1
}
# in_wait PID NAME: some thread of PID sleeps in NAME (its wchan); where
# the kernel does not say (wchan 0), once 2 s have passed (i counts 0.05 s).
in_wait() {
	w=$(cat /proc/"$1"/task/*/wchan 2>/dev/null)
	echo "$w" | grep -q "$2" && return 0
	echo "$w" | grep -q '[a-z]' || [ "$i" -lt 40 ] || return 0
	return 1
}
# ends PID: the process ended within 30 s (its status in $st), else it is
# killed and 1.
ends() {
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
	if kill -0 "$1" 2>/dev/null; then kill -9 "$1"; wait "$1" 2>/dev/null; st=none; return 1; fi
	wait "$1"; st=$?
	return 0
}
# stopped NAME SIG PATTERN STATUS: after one SIG to $pid, it ends with
# STATUS and stderr ($TMP/err) matches PATTERN.
stopped() {
	kill -"$2" "$pid"
	if ! ends "$pid"; then fail "$1: still running 30 s after one SIG$2"; return; fi
	if [ "$st" = "$4" ] && grep -Eq -- "$3" "$TMP/err"; then pass "$1"; else
		fail "$1: exit $st (expected $4)"; sed 's/^/  | /' "$TMP/err"; fi
}

## a FIFO that no process reads
mkfifo fifo
for cmd in "predict --load m.model --input in.csv --out fifo" \
	"eval --load m.model --data csv:lab.csv --json fifo --quiet" \
	"cond --load m.model --json fifo --quiet" \
	"train --data moons --layers 4 --epochs 1 --save fifo --quiet"; do
	# shellcheck disable=SC2086
	"$C" $cmd >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	if waits $pid 'in_wait $pid nanosleep'; then
		stopped "${cmd%% *} waiting for a FIFO's reader: one SIGTERM ends it" TERM \
			"fifo: a FIFO that no process reads: stopped waiting for a reader$" 130
	else
		fail "${cmd%% *} never waited for the FIFO"; kill -9 $pid 2>/dev/null; wait $pid
	fi
done
check "the FIFO stays a FIFO" [ -p fifo ]
# with a reader the FIFO gets the answers
(cat fifo >answers.txt &)
expect_ok "predict --out a FIFO with a reader" "$C" predict --load m.model --input in.csv --out fifo --quiet
i=0; while [ ! -s answers.txt ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
expect_grep "the reader got the answers" "^class,p0,p1$" answers.txt

## gnuplot that hangs, ignoring SIGTERM and SIGINT, and gnuplot that fails
mkdir -p hang fails
cat >hang/gnuplot <<EOF
#!/bin/sh
trap '' TERM INT
echo \$\$ >"$TMP/gp.pid"
while :; do sleep 1; done
EOF
printf '#!/bin/sh\necho "gnuplot: cannot draw" >&2\nexit 3\n' >fails/gnuplot
chmod +x hang/gnuplot fails/gnuplot
for sig in TERM INT; do
	rm -f gp.pid cmp.json
	PATH="$TMP/hang:$PATH" "$C" squeeze --load m.model --data moons --compare --tau 3,5 --draws 2 \
		--no-timing --plot p --json cmp.json --quiet >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	if waits $pid '[ -s gp.pid ]'; then
		gp=$(cat gp.pid)
		stopped "squeeze --plot with a gnuplot that hangs: one SIG$sig ends it" $sig \
			"gnuplot p\.gp was stopped: no p\.png$" 130
		check "SIG$sig: the record was written before gnuplot ran" \
			python3 -c "import json; json.load(open('cmp.json'))"
		check "SIG$sig: and that gnuplot is gone" sh -c "! kill -0 $gp 2>/dev/null"
		kill -9 "$gp" 2>/dev/null
	else
		fail "squeeze --plot never ran the gnuplot that hangs"; sed 's/^/  | /' "$TMP/err"
		kill -9 $pid 2>/dev/null; wait $pid
		[ -s gp.pid ] && kill -9 "$(cat gp.pid)" 2>/dev/null
	fi
done
rm -f cmp.json
expect_exit "squeeze --plot with a gnuplot that fails" 1 \
	"^condnet squeeze: gnuplot p\.gp failed \(status 3\): no p\.png$" \
	env PATH="$TMP/fails:$PATH" "$C" squeeze --load m.model --data moons --compare --tau 3,5 \
	--draws 2 --no-timing --plot p --json cmp.json --quiet
check "and the record was written all the same" python3 -c "import json; json.load(open('cmp.json'))"

## work stuck where it asks no stop: a standard input that never comes
# (a FIFO this shell holds open for writing and never writes to)
mkfifo sin
exec 8<>sin
"$C" predict --load m.model --input - <sin >"$TMP/out" 2>"$TMP/err" &
pid=$!
if waits "$pid" 'in_wait $pid pipe_read'; then
	stopped "a stop the work does not take (a standard input that never comes) ends it" TERM \
		"^condnet: SIGTERM was not taken within a second \(the work is stuck where it cannot stop\): ending$" 143
else
	fail "predict never waited on its standard input"; kill -9 "$pid" 2>/dev/null
fi

## an address-space limit: squeeze never hangs in OpenBLAS's buffers
## (AddressSanitizer maps terabytes of shadow: no limit applies to a sanitizer build)
if nm "$C" 2>/dev/null | grep -q __asan_init || ldd "$C" 2>/dev/null | grep -q libasan; then
	echo "# sanitizer build: the address-space limit is not tried"
else
	"$C" train --data synthetic --layers 3x32 --epochs 1 --save s.model --quiet >/dev/null
	hung=0 bad=0
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		(ulimit -v 500000 && exec env -u OPENBLAS_NUM_THREADS "$C" squeeze --load s.model --threads 2 --quiet) \
			>/dev/null 2>"$TMP/err" &
		pid=$!
		if ! ends $pid; then hung=$((hung + 1)); elif [ "$st" != 0 ]; then bad=$((bad + 1)); fi
	done
	check "squeeze under ulimit -v 500000: 12 runs, none hung ($hung), none failed ($bad)" \
		[ "$hung" = 0 -a "$bad" = 0 ]
fi

## SIGKILL during export --npy over an older set
"$C" train --data synthetic --layers 4x300 --epochs 1 --seed 1 --save A.model --quiet >/dev/null
"$C" train --data synthetic --layers 4x300 --epochs 1 --seed 2 --save B.model --quiet >/dev/null
"$C" export --load A.model --npy A >/dev/null && "$C" export --load B.model --npy B >/dev/null
mixed=0 refused=0 olds=0 news=0
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
	rm -rf E && cp -r A E && echo notes >E/README
	"$C" export --load B.model --npy E >/dev/null 2>&1 &
	pid=$!
	sleep "0.0$((i * 6 % 10))$((i % 10))"
	kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
	if ! "$C" import --npy E --save E.model >/dev/null 2>"$TMP/err"; then
		refused=$((refused + 1)); sed 's/^/  | /' "$TMP/err"
	elif diff -q -x README -x 'condnet-manifest.txt' E A >/dev/null; then olds=$((olds + 1))
	elif diff -q -x README -x 'condnet-manifest.txt' E B >/dev/null; then news=$((news + 1))
	else mixed=$((mixed + 1)); fi
	[ -f E/README ] || mixed=$((mixed + 1))
done
check "SIGKILL during export --npy: the older set ($olds) or the new one ($news), never refused ($refused) nor mixed ($mixed)" \
	[ "$refused" = 0 -a "$mixed" = 0 ]
expect_ok "an export after those" "$C" export --load A.model --npy E
check "removes what SIGKILL left written aside" sh -c "[ -z \"\$(ls -a | grep '^E\.tmp\.')\" ] && [ -z \"\$(ls -a E | grep '\.npy-set\.tmp\.')\" ]"
finish
