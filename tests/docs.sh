#!/bin/sh
# docs.sh - the documentation tells the truth, and stays so:
#  - every option a command's --help lists is taken by that command and
#    documented for it in man/condnet.1, and the reverse; the options no
#    --help lists are unknown options; the SYNOPSIS holds the forms of the
#    commands' --help; README.md and the man page's EXAMPLES name only
#    options their commands list (tests/docs_options.py, which reads all of
#    it from the program and the documents);
#  - the examples of README.md and of the man page's EXAMPLES run as written
#    in a scratch directory, in order: those that need no fetched data set
#    for real, the others with --dry-run (their options and outputs checked);
#  - README's screen sample is the screen (tests/readme_sample.sh makes it;
#    the duration of the training aside);
#  - what the documents say of the screen's data set, of --keep-counts that
#    names no file, of squeeze's timing threads and of a continued training's
#    --epochs holds.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
MAN="$SRC/man/condnet.1"
README="$SRC/README.md"
C=$CONDNET
cd "$TMP" || exit 1
command -v python3 >/dev/null 2>&1 || { echo "python3 is missing: skipped"; exit 77; }
# the reproducible mode (paper, replay and lessons by default) needs AVX2 and FMA
case " $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null) " in
*" avx2 "*" fma "* | *" fma "*" avx2 "*) ;;
*) echo "this CPU has no AVX2 and FMA: the reproducible mode refuses it; skipped"; exit 77 ;;
esac

# count OUT: adds the ok and FAIL lines of OUT to the tally, printing them
count() {
	cat "$1"
	NPASS=$((NPASS + $(grep -c '^ok - ' "$1")))
	NFAIL=$((NFAIL + $(grep -c '^FAIL - ' "$1")))
}

## options: --help, the man page, README and the EXAMPLES agree with the program
python3 "$SRC/tests/docs_options.py" "$C" "$MAN" "$README" "$TMP/opts" "$SRC/data/fetch" \
	>"$TMP/opts.out" 2>&1
st=$?
count "$TMP/opts.out"
[ $st -eq 0 ] || grep -q '^FAIL - ' "$TMP/opts.out" || fail "docs_options.py ended with status $st"

## the examples, as written, in order, in one scratch directory
mkdir -p "$TMP/ex" "$TMP/real" "$TMP/dry" "$TMP/ex/data"
ln -s "$C" "$TMP/real/condnet"
cat >"$TMP/dry/condnet" <<EOF
#!/bin/sh
# condnet with --dry-run after the command's name
case \${1:-} in
-* | '') exec '$C' --dry-run "\$@" ;;
*) c=\$1; shift; exec '$C' "\$c" --dry-run "\$@" ;;
esac
EOF
chmod +x "$TMP/dry/condnet"
for tool in parallel sbatch; do
	for d in real dry; do
		printf '#!/bin/sh\necho "%s is not run by the examples test" >&2\nexit 1\n' "$tool" \
			>"$TMP/$d/$tool"
		chmod +x "$TMP/$d/$tool"
	done
done
# the blocks: README's ```sh blocks, then the .EX blocks of the man page's EXAMPLES
awk -v dir="$TMP/blocks" 'BEGIN { system("mkdir -p " dir) }
	/^```sh$/ { n++; f = sprintf("%s/%02d-README.md-%d", dir, n, NR + 1); next }
	/^```/ { f = ""; next }
	f { print > f }' "$README"
sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$MAN" |
	awk -v dir="$TMP/blocks" '
	/^\.EX$/ { n++; f = sprintf("%s/%02d-EXAMPLES-%d", dir, 50 + n, n); next }
	/^\.EE$/ { f = ""; next }
	f { gsub(/\\-/, "-"); gsub(/\\e/, "\\"); print > f }'
# what the user brings to the examples: MNIST's test images, which README's
# images.csv is cut from (100 blank images behind the idx header: the
# command that cuts them runs for real, the condnet commands with --dry-run),
# and the Keras weights of "condnet import --npy weights/"
mkdir -p "$TMP/ex/data/mnist"
{ printf '\0\0\10\3\0\0\47\20\0\0\0\34\0\0\0\34'; head -c 78400 /dev/zero; } \
	>"$TMP/ex/data/mnist/t10k-images-idx3-ubyte"
(cd "$TMP/ex" && CONDNET_DATA="$TMP/ex/data" "$C" train --layers 8,8 --act relu --epochs 1 \
	--save keras-like.model --quiet >/dev/null && "$C" export --load keras-like.model \
	--npy weights >/dev/null) || fail "the Keras-like weights of the examples are made"
for b in "$TMP"/blocks/*; do
	name=$(basename "$b" | sed 's/^[0-9]*-//; s/-\([0-9]*\)$/ block \1/; s/README.md block/README.md line/')
	if ! grep -Eq '(^|[^a-z])condnet( |$)' "$b" || grep -Eq '(^|[ ./])(configure|make)( |$)' "$b"; then
		echo "# $name: no condnet example (a build step): not run"
		continue
	fi
	if grep -Eq '(^|[^a-z-])(mnist|fashion|adult)([^a-z]|$)' "$b"; then mode=dry; else mode=real; fi
	ln -sf "$TMP/$mode/condnet" "$TMP/ex/condnet"
	if (cd "$TMP/ex" && PATH="$TMP/$mode:$PATH" CONDNET_DATA="$TMP/ex/data" sh -e "$b") \
		>"$TMP/ex.out" 2>&1; then
		pass "$name runs as written ($([ $mode = dry ] && echo 'with --dry-run: it needs a fetched data set' || echo 'for real'))"
	else
		fail "$name fails as written ($mode)"
		sed 's/^/  | /' "$b" "$TMP/ex.out" | head -40
	fi
done

## README's screen sample is what the screen shows (tests/readme_sample.sh)
# the duration of the training differs from run to run
mask() { sed 's/^\(last training: .* epochs in \)[0-9.]* s ([0-9.]* s\/epoch)/\1… s (… s\/epoch)/'; }
if command -v tmux >/dev/null 2>&1; then
	if CONDNET="$C" sh "$SRC/tests/readme_sample.sh" >"$TMP/sample" 2>"$TMP/sample.err"; then
		awk '$0 == "<!-- screen sample: tests/readme_sample.sh -->" { s = 1; next }
			s == 1 && /^```/ { s = 2; next } s == 2 && /^```/ { exit } s == 2' "$README" |
			mask >"$TMP/readme.sample"
		mask <"$TMP/sample" >"$TMP/screen.sample"
		if cmp -s "$TMP/readme.sample" "$TMP/screen.sample"; then
			pass "README's screen sample is the 80x24 screen"
		else
			fail "README's screen sample is not the screen: refresh it with tests/readme_sample.sh --update README.md"
			diff "$TMP/readme.sample" "$TMP/screen.sample" | sed 's/^/  | /'
		fi
	else
		fail "tests/readme_sample.sh shows the screen"
		sed 's/^/  | /' "$TMP/sample.err"
	fi
else
	echo "# tmux is missing: README's screen sample not compared"
fi

## README gives the command line its screen sample is taken with
cmdline=$(sh "$SRC/tests/readme_sample.sh" --command)
check "README gives the screen sample's command line (./$cmdline)" \
	grep -qF "\`./$cmdline\`" "$README"

## the screen's data set: MNIST when fetched, as its --help and the man page say
"$C" tui --help >"$TMP/tui.help"
check "tui --help gives the screen's default data set (mnist when fetched)" \
	grep -Eq -- '^ {23}\(default mnist when fetched, else synthetic\)$' "$TMP/tui.help"
tr '\n' ' ' <"$MAN" >"$TMP/man.flat"
check "the man page's --data says the screen opens MNIST when fetched" \
	grep -q 'for the screen, which opens MNIST when it is fetched' "$TMP/man.flat"

## a --keep-counts that names no file and is no list of widths: "no such file"
export CONDNET_DATA="$TMP/data"
expect_ok "a small model to squeeze" "$C" train --layers 3x16 --epochs 2 --save m.model --quiet
expect_exit "--keep-counts naming no file says so" 1 \
	"^condnet squeeze: --keep-counts sq.json: no such file \(and not a list of widths" \
	"$C" squeeze --load m.model --criterion norm --keep-counts sq.json
expect_ok "--keep-counts with a list of widths" "$C" squeeze --load m.model --criterion norm \
	--keep-counts 3x8 --no-timing --json kc.json --quiet
check "which the squeeze keeps" python3 -c "
import json; d = json.load(open('kc.json')); assert d['keep_counts'] == [8, 8, 8], d['keep_counts']"
expect_ok "a squeeze's record written for --keep-counts" "$C" squeeze --load m.model --tau 5 \
	--no-timing --json sq.json --quiet
expect_ok "--keep-counts with that record" "$C" squeeze --load m.model --criterion norm \
	--keep-counts sq.json --no-timing --quiet

## squeeze times the forward pass on the OpenBLAS threads of --threads
for how in "--threads 2" "OPENBLAS_NUM_THREADS=2"; do
	case $how in
	--*) set -- "$C" squeeze --load m.model --tau 5 --threads 2 --json t.json --quiet ;;
	*) set -- env OPENBLAS_NUM_THREADS=2 "$C" squeeze --load m.model --tau 5 --json t.json --quiet ;;
	esac
	expect_ok "squeeze with $how" "$@"
	expect_grep "squeeze with $how times on 2 OpenBLAS threads" \
		'^what the network costs \(forward time: median of 7 repeats, 2 OpenBLAS threads\):' "$TMP/out"
	check "and records them ($how)" python3 -c "
import json; d = json.load(open('t.json'))
assert d['cost_before']['threads'] == 2 and d['cost_after']['threads'] == 2, d['cost_before']"
done
expect_ok "squeeze with one thread" "$C" squeeze --load m.model --tau 5 --threads 1 --quiet
expect_grep "times on 1 OpenBLAS thread" 'median of 7 repeats, 1 OpenBLAS thread\):' "$TMP/out"

## a continued training counts --epochs from where it stopped
expect_ok "1.5 epochs of a cosine:3 run, saved" "$C" train --layers 3x16 --epochs 1.5 \
	--schedule cosine:3 --save part.model --quiet
expect_ok "continued for the 1.5 epochs left" "$C" train --load part.model --epochs 1.5 \
	--save rest.model --quiet
expect_grep "the continued run's lines go on from epoch 1.5 to 3" '^epoch +3\.00 ' "$TMP/out"
expect_ok "the same run uninterrupted" "$C" train --layers 3x16 --epochs 3 --schedule cosine:3 \
	--save whole.model --quiet
check "the continued run ends bit for bit where the uninterrupted one does" cmp rest.model whole.model
expect_ok "continued with --epochs 3" "$C" train --load part.model --epochs 3 --quiet
expect_grep "trains on to epoch 4.5, three epochs from where it stopped" '^epoch +4\.50 ' "$TMP/out"
check "and no further" sh -c "! grep -Eq '^epoch +(4\.[6-9]|[5-9]\.)' '$TMP/out'"

finish
