#!/bin/sh
# reliability.sh - bad input, faults and interruptions: every damaged data
# file, model, .npy file, ONNX model, option value and session log is refused with a
# message naming the problem and status 1 or 2 (never a crash); a failed or
# interrupted save leaves the previous model intact; the files kept in
# tests/regress/ (inputs the fuzz targets found) are read without a crash.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
C=$CONDNET
cd "$TMP" || exit 1

# crashed FILE: stderr shows a sanitizer report or a fatal signal.
crashed() { grep -Eq 'Sanitizer|runtime error:|Segmentation|Aborted|core dumped' "$1"; }

# refuse NAME STATUS PATTERN CMD...: the command exits with STATUS (1 or 2),
# its stderr matches PATTERN and shows no crash.
refuse() {
	name=$1; want=$2; pat=$3; shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"; got=$?
	if crashed "$TMP/err" || [ "$got" -ge 128 ]; then
		fail "$name: crashed (exit $got): $*"; sed 's/^/  | /' "$TMP/err" | head -30
	elif [ "$got" -ne "$want" ]; then
		fail "$name: exit $got, expected $want: $*"; sed 's/^/  | /' "$TMP/err"
	elif grep -Eq -- "$pat" "$TMP/err"; then
		pass "$name"
	else
		fail "$name: stderr does not match '$pat'"; sed 's/^/  | /' "$TMP/err"
	fi
}

# poke FILE OFFSET HEXBYTES: overwrites bytes of FILE in place.
poke() { python3 -c "
import sys
p, off, b = sys.argv[1], int(sys.argv[2]), bytes.fromhex(sys.argv[3])
with open(p, 'r+b') as f:
    f.seek(off); f.write(b)" "$@"; }

## idx files (MNIST): truncated, wrong magic, oversized or zero dimensions
M="$CONDNET_DATA/mnist"
mkdir -p "$M"
python3 - "$M" <<'EOF'
import struct, sys
d = sys.argv[1]
def idx(dims, data):
    return bytes([0, 0, 8, len(dims)]) + b''.join(struct.pack('>I', x) for x in dims) + bytes(data)
img = idx([20, 28, 28], [(i * 7) % 256 for i in range(20 * 784)])
lab = idx([20], [i % 10 for i in range(20)])
for part in ('train', 't10k'):
    open(f'{d}/{part}-images-idx3-ubyte', 'wb').write(img)
    open(f'{d}/{part}-labels-idx1-ubyte', 'wb').write(lab)
open('good-images.idx', 'wb').write(img)
open('good-labels.idx', 'wb').write(lab)
EOF
TI="$M/train-images-idx3-ubyte" TL="$M/train-labels-idx1-ubyte" EI="$M/t10k-images-idx3-ubyte"
mn() { refuse "$1" 1 "$2" "$C" train --data mnist --layers 8 --features 4 --quiet; }
expect_ok "small valid MNIST files load" "$C" train --data mnist --layers 8 --features 4 --epochs 1 --quiet
head -c 1000 good-images.idx >"$TI"
mn "idx images truncated" "^condnet train: mnist: .*train-images-idx3-ubyte: truncated: header says 20×28×28 = 15680 bytes of pixels, file holds 984$"
cp good-images.idx "$TI"; poke "$TI" 2 0d
mn "idx images with a wrong type byte" "offset 0: expected idx magic 00 00 08 03 \(unsigned bytes\), found 00 00 0d 03$"
cp good-images.idx "$TI"; poke "$TI" 3 01
mn "idx images with 1 dimension" "offset 3: expected 3 dimensions \(images\), found 1$"
cp good-images.idx "$TI"; poke "$TI" 4 7fffffff
mn "idx images with an oversized count" "offset 4: dimensions 2147483647 exceed the limit of 1073741824 bytes$"
cp good-images.idx "$TI"; poke "$TI" 8 ffffffff
mn "idx images with a dimension beyond 2^31" "offset 8: dimension 2 is 4294967295, expected 1\.\.2147483647$"
cp good-images.idx "$TI"; poke "$TI" 8 00010000
mn "idx images with an oversized row count" "truncated: header says 20×65536×28 = 36700160 bytes of pixels, file holds 15680$"
cp good-images.idx "$TI"; poke "$TI" 4 00000000
mn "idx images with zero images" "offset 4: dimension 1 is 0, expected 1\.\.2147483647$"
cp good-images.idx "$TI"; printf 'xxxxx' >>"$TI"
mn "idx images with trailing bytes" "offset 15696: expected the end of the pixels \(header says 20×28×28\), found more data$"
cp good-images.idx "$TI"
python3 -c "
import gzip, random, struct
random.seed(2)
b = bytes([0, 0, 8, 3]) + struct.pack('>III', 20, 28, 28) + bytes(random.randrange(256) for _ in range(20 * 784))
z = gzip.compress(b, mtime=0)
open('$TI.gz', 'wb').write(z[:len(z) // 2])
bad = bytearray(z); bad[len(z) // 2:len(z) // 2 + 4] = b'XXXX'
open('bad.gz', 'wb').write(bad)"
rm "$TI"
mn "gzip idx images cut in half" "train-images-idx3-ubyte\.gz: truncated: header says 20×28×28 = 15680 bytes of pixels"
cp bad.gz "$TI.gz"
mn "gzip idx images with damaged data" "train-images-idx3-ubyte\.gz: .*incorrect data check$"
rm "$TI.gz"; cp good-images.idx "$TI"
poke "$TL" 9 0a
mn "idx label 10 of 10 classes" "train-labels-idx1-ubyte: offset 9: label 10, expected 0\.\.9$"
head -c 15 good-labels.idx >"$TL"
mn "idx labels truncated" "train-labels-idx1-ubyte: truncated: header says 20 = 20 bytes of labels, file holds 7$"
cp good-labels.idx "$TL"
{ cat good-images.idx; head -c 784 /dev/zero; } >"$EI"; poke "$EI" 4 00000015
mn "more test images than labels" "t10k-labels-idx1-ubyte: 20 labels for 21 images, expected equal counts$"
python3 -c "
import struct
open('$EI', 'wb').write(bytes([0, 0, 8, 3]) + struct.pack('>III', 20, 10, 10) + bytes(2000))"
mn "test images of another size" "t10k-images-idx3-ubyte: images are 10×10, expected 28×28 as in the training set$"
cp good-images.idx "$EI"

## CSV
tr1() { refuse "$1" 1 "$2" "$C" train --data "csv:$3" --quiet; }
printf 'a,b,y\n1,2,0\n3,4\n5,6,1\n' >ragged.csv
tr1 "CSV ragged row" "^condnet train: ragged\.csv:3: 2 fields, expected 3$" ragged.csv
printf '1,2,0\n3,x4,1\n' >word.csv
tr1 "CSV non-number" "^condnet train: word\.csv:2: column 2: 'x4' is not a number$" word.csv
printf '1,2,0\n3,,1\n' >hole.csv
tr1 "CSV empty field" "^condnet train: hole\.csv:2: column 2: '' is not a number$" hole.csv
: >empty.csv
tr1 "CSV empty file" "^condnet train: empty\.csv: empty file, expected rows of comma-separated numbers$" empty.csv
printf 'a,b,y\n' >header.csv
tr1 "CSV header only" "^condnet train: header\.csv: a header line and no data rows$" header.csv
printf '1,2,0\n3,4,1\n5,6,0\n7,8,1\n' >ok.csv
refuse "CSV --label-col 99" 1 "^condnet train: ok\.csv:1: label column 99 \(counting from 0\) but rows have 3 fields$" \
	"$C" train --data csv:ok.csv --label-col 99 --quiet
printf '1,2,0\n3,nan,1\n' >nan.csv
tr1 "CSV NaN" "^condnet train: nan\.csv:2: column 2: 'nan' is NaN, expected a finite number$" nan.csv
printf '1,2,0\n3,inf,1\n' >inf.csv
tr1 "CSV Inf" "^condnet train: inf\.csv:2: column 2: 'inf' is not a finite single-precision number$" inf.csv
printf '1,2,0\n3,1e39,1\n' >big.csv
tr1 "CSV value beyond float" "^condnet train: big\.csv:2: column 2: '1e39' is not a finite single-precision number$" big.csv
printf '1,2,0\n3,4,-1\n' >neg.csv
tr1 "CSV negative label" "^condnet train: neg\.csv:2: column 3: label '-1' is not a non-negative integer$" neg.csv
printf '1,2,0\n3,4,1.5\n' >frac.csv
tr1 "CSV fractional label" "^condnet train: frac\.csv:2: column 3: label '1\.5' is not a non-negative integer$" frac.csv
printf '1,2,0\n3,4,100001\n' >hugelab.csv
tr1 "CSV label above 100000" "^condnet train: hugelab\.csv:2: column 3: label '100001' is larger than 100000$" hugelab.csv
printf '1,2,3,0\n3,4,5,1\n' >three.csv
tr1 "CSV test file of another width" "^condnet train: three\.csv: 3 features, but ok\.csv has 2$" ok.csv,three.csv
python3 -c "print('1' * 100000 + ',0')" >longfield.csv
tr1 "CSV 100000-digit field" "^condnet train: longfield\.csv:1: column 1: '1+' is not a finite single-precision number$" longfield.csv
python3 -c "
rows = ''.join('%d,%d,%d\\n' % (i, 2 * i, i % 2) for i in range(10))
open('nobom.csv', 'w').write(rows)
open('bom.csv', 'wb').write(b'\\xef\\xbb\\xbf' + rows.encode())
open('nul.csv', 'wb').write(b'1,2,0\\n3,4\\x00,1\\n')"
"$C" train --data csv:nobom.csv --layers 4 --epochs 1 --quiet >nobom.out 2>&1
expect_ok "CSV with a UTF-8 byte-order mark loads" "$C" train --data csv:bom.csv --layers 4 --epochs 1 --quiet
check "CSV byte-order mark: the first row is data, not a header" \
	[ "$(sed 's/^csv:bom\.csv//' "$TMP/out")" = "$(sed 's/^csv:nobom\.csv//' nobom.out)" ]
tr1 "CSV NUL byte" "^condnet train: nul\.csv:2: NUL byte at character 4, expected text$" nul.csv
tr1 "CSV from /dev/zero" "^condnet train: /dev/zero: not a regular file$" /dev/zero
mkfifo fifo
refuse "CSV from a FIFO (not opened)" 1 "^condnet train: fifo: not a regular file$" timeout 10 "$C" train --data csv:fifo --quiet
mkdir csvdir
tr1 "CSV from a directory" "^condnet train: csvdir: not a regular file$" csvdir

## Adult
A="$CONDNET_DATA/adult"
mkdir -p "$A"
python3 - "$A" <<'EOF'
import sys
rows = ["39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K",
        "50, Self-emp-not-inc, 83311, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, White, Male, 0, 0, 13, United-States, >50K",
        "38, Private, 215646, HS-grad, 9, Divorced, Handlers-cleaners, Not-in-family, White, Male, 0, 0, 40, United-States, <=50K",
        "53, Private, 234721, 11th, 7, Married-civ-spouse, Handlers-cleaners, Husband, Black, Male, 0, 0, 40, United-States, >50K",
        "49, ?, 160187, 9th, 5, Married-spouse-absent, ?, Not-in-family, Black, Female, 0, 0, 16, Jamaica, <=50K",
        "52, Self-emp-not-inc, 209642, HS-grad, 9, Married-civ-spouse, Exec-managerial, Husband, White, Male, 0, 0, 45, ?, >50K"] * 4
open(sys.argv[1] + '/adult.data', 'w').write('\n'.join(rows) + '\n')
open(sys.argv[1] + '/adult.test', 'w').write('|1x3 Cross validator\n' + '\n'.join(r + '.' for r in rows) + '\n')
EOF
cp "$A/adult.data" good-adult.data
ad() { refuse "$1" 1 "^condnet train: .*/adult/adult\.data:$2" "$C" train --data adult --layers 4 --quiet; cp good-adult.data "$A/adult.data"; }
expect_ok "small valid Adult files load" "$C" train --data adult --layers 4 --epochs 1 --quiet
sed -i '3s/, 40, United-States, <=50K$/, United-States, <=50K/' "$A/adult.data"
ad "Adult row with a missing field" "3: 14 fields, expected 15: field 15 \(income\) is missing$"
sed -i '3s/<=50K$/<=50K, extra/' "$A/adult.data"
ad "Adult row with an extra field" "3: more than 15 fields: unexpected 'extra' after income$"
sed -i '4s/Private/Pirate/' "$A/adult.data"
ad "Adult unknown category" "4: field 2 \(workclass\): unknown category 'Pirate'$"
sed -i '4s/^53/fifty/' "$A/adult.data"
ad "Adult non-numeric age" "4: field 1 \(age\): 'fifty' is not a number$"
sed -i '4s/^53/nan/' "$A/adult.data"
ad "Adult NaN age" "4: field 1 \(age\): 'nan' is not a number$"
sed -i '4s/^53/-5/' "$A/adult.data"
ad "Adult negative age" "4: field 1 \(age\): -5 is negative, expected >= 0$"
sed -i '4s/>50K$/maybe/' "$A/adult.data"
ad "Adult unknown income" "4: field 15 \(income\): expected '>50K' or '<=50K', found 'maybe'$"
: >"$A/adult.data"
ad "Adult empty file" " no records, expected lines of 15 comma-separated fields$"
sed -i '4s/^53/1e300/' "$A/adult.data"
ad "Adult age beyond float" "4: field 1 \(age\): '1e300' is too large, expected at most 3\.40282e\+38$"

## one set of rules for every loader: encoding, NUL bytes, line ends, header
## detection, trailing data, what stands at a file's path
same_run() { # same_run NAME OUT1 OUT2: two runs printed the same, file names aside
	check "$1" [ "$(sed 's/csv:[^ ]*//; s/adult[^ ]*//' "$2")" = "$(sed 's/csv:[^ ]*//; s/adult[^ ]*//' "$3")" ]; }
python3 -c "
rows = ''.join('%d,%d,%d\\n' % (i, 2 * i, i % 2) for i in range(10))
open('cr.csv', 'w').write('x,y,label\\r' + rows.replace('\\n', '\\r'))
open('lf.csv', 'w').write('x,y,label\\n' + rows)
open('utf16.csv', 'wb').write(('x,y,label\\n' + rows).encode('utf-16'))
open('badfirst1.csv', 'w').write('1.0,,0\\n' + rows)
open('badfirst2.csv', 'w').write('1.0,2.O,1\\n' + rows)"
"$C" train --data csv:lf.csv --layers 4 --epochs 1 --quiet >lf.out 2>&1
expect_ok "CSV with CR line ends loads" "$C" train --data csv:cr.csv --layers 4 --epochs 1 --quiet
same_run "CSV with CR line ends: the same rows as with LF" "$TMP/out" lf.out
tr1 "CSV in UTF-16" "^condnet train: utf16\\.csv: starts with a UTF-16 or UTF-32 byte-order mark \\(FF FE\\), expected UTF-8 or ASCII text$" utf16.csv
tr1 "CSV first line 1.0,,0 is a bad row, not a header" "^condnet train: badfirst1\\.csv:1: column 2: '' is not a number \\(a first line with a number in it is data, not a header\\)$" badfirst1.csv
tr1 "CSV first line 1.0,2.O,1 is a bad row, not a header" "^condnet train: badfirst2\\.csv:1: column 2: '2\\.O' is not a number \\(a first line with a number in it is data, not a header\\)$" badfirst2.csv
mkdir -p ad/adult
python3 - <<'PY'
d = open('good-adult.data', 'rb').read()
lines = d.split(b'\n')
lines[2] = lines[2][:10] + b'\0' + lines[2][10:]
open('nul-adult.data', 'wb').write(b'\n'.join(lines))
open('cr-adult.data', 'wb').write(d.replace(b'\n', b'\r'))
open('bom-adult.data', 'wb').write(b'\xef\xbb\xbf' + d)
PY
cp "$A/adult.test" ad/adult/adult.test
cp nul-adult.data ad/adult/adult.data
refuse "Adult NUL byte (it used to end the line silently)" 1 "^condnet train: ad/adult/adult\\.data:3: NUL byte at character 11, expected text$" \
	"$C" train --data adult --data-dir ad --layers 4 --quiet
"$C" train --data adult --layers 4 --epochs 1 --quiet >adult-lf.out 2>&1
for v in cr bom; do
	cp $v-adult.data ad/adult/adult.data
	expect_ok "Adult with $v line ends or mark loads" "$C" train --data adult --data-dir ad --layers 4 --epochs 1 --quiet
	same_run "Adult $v: the same rows as the plain file" "$TMP/out" adult-lf.out
done
python3 -c "
import gzip
b = open('good-images.idx', 'rb').read()
z = gzip.compress(b, mtime=0)
open('trail.gz', 'wb').write(z + b'xxxxx')
open('notrailer.gz', 'wb').write(z[:-4])
open('members.gz', 'wb').write(gzip.compress(b[:5000], mtime=0) + gzip.compress(b[5000:], mtime=0))"
rm "$TI"
cp trail.gz "$TI.gz"
mn "gzip idx images with bytes after the stream" "train-images-idx3-ubyte\\.gz: offset [0-9]+: 5 bytes after the end of the gzip stream, expected the end of the file$"
cp notrailer.gz "$TI.gz"
mn "gzip idx images without the gzip trailer" "train-images-idx3-ubyte\\.gz: truncated: the gzip stream ends at offset [0-9]+ without its trailer$"
cp members.gz "$TI.gz"
expect_ok "gzip idx images of two gzip members load" "$C" train --data mnist --layers 8 --features 4 --epochs 1 --quiet
rm "$TI.gz"; cp good-images.idx "$TI"
mv "$M/t10k-labels-idx1-ubyte" t10k-labels.keep
mn "a label file missing, the others there" "mnist/t10k-labels-idx1-ubyte \\(or \\.gz\\) is missing, though other files of mnist are there: run '[^']*data/fetch mnist'$"
mkdir "$M/t10k-labels-idx1-ubyte"
mn "a label file that is a directory" "mnist/t10k-labels-idx1-ubyte: a directory, expected a regular file$"
rmdir "$M/t10k-labels-idx1-ubyte"; mv t10k-labels.keep "$M/t10k-labels-idx1-ubyte"
# the feature cache: a FIFO there is not opened (no wait), a cache holding NaN
# under a valid CRC is built again and replaced
cache="$M/mnist-haar4.cache"
rm -f "$cache"
expect_ok "MNIST features: a first run writes the cache" "$C" train --data mnist --layers 8 --features 4 --epochs 1 --quiet
cp "$cache" good.cache
rm "$cache"; mkfifo "$cache"
expect_ok "MNIST feature cache that is a FIFO: no wait" timeout 60 "$C" train --data mnist --layers 8 --features 4 --epochs 1 --quiet
check "MNIST feature cache that is a FIFO: left a FIFO" [ -p "$cache" ]
rm "$cache"
python3 -c "
import struct, zlib
b = bytearray(open('good.cache', 'rb').read())
k = struct.unpack('<I', b[12:16])[0]
b[36 + 4 * k:40 + 4 * k] = struct.pack('<f', float('nan'))
b[-4:] = struct.pack('<I', zlib.crc32(bytes(b[:-4])))
open('$cache', 'wb').write(b)"
expect_ok "MNIST feature cache with NaN under a valid CRC: the run succeeds" "$C" train --data mnist --layers 8 --features 4 --epochs 1 --quiet
check "MNIST feature cache with NaN: built again and replaced" cmp good.cache "$cache"

## model files
expect_ok "train a small model" "$C" train --layers 3x8 --epochs 1 --limit 20 --save m.model --quiet
size=$(wc -c <m.model)
head -c 300 m.model >trunc.model
refuse "model truncated" 1 "^condnet cond: trunc\.model: widths up to n\[1\] = 8 at offset 32 need more parameters than a file of 300 bytes holds$" \
	"$C" cond --load trunc.model
head -c 10 m.model >stub.model
refuse "model of 10 bytes" 1 "^condnet cond: stub\.model: 10 bytes is too short for a model file$" "$C" cond --load stub.model
cp m.model flip.model; poke flip.model 200 55
refuse "model with a flipped parameter byte" 1 "^condnet cond: flip\.model: checksum mismatch at offset $((size - 4)) \(stored [0-9a-f]{8}, computed [0-9a-f]{8}\): the file is damaged$" \
	"$C" cond --load flip.model
cp m.model flip2.model; poke flip2.model 16 ff
refuse "model with a flipped layer count" 1 "^condnet cond: flip2\.model: header size 60 at offset 12, expected 1064 for 255 layers$" \
	"$C" cond --load flip2.model
cp m.model flip3.model; poke flip3.model 20 ff
refuse "model with a flipped activation" 1 "^condnet cond: flip3\.model: unknown activation 255 at offset 20 \(expected 0\.\.3\)$" \
	"$C" cond --load flip3.model
cp m.model magic.model; poke magic.model 0 58
refuse "model with a wrong magic" 1 "^condnet cond: magic\.model: not a condnet model \(bad magic at offset 0\)$" "$C" cond --load magic.model
cp m.model future.model; poke future.model 8 06
refuse "model from a future format version" 1 "^condnet cond: future\.model: format version 6 is newer than this condnet reads \(5\)$" \
	"$C" cond --load future.model
refuse "model from a FIFO (not opened)" 1 "^condnet cond: fifo: not a regular file$" timeout 10 "$C" cond --load fifo
refuse "model inputs do not match the data (cond)" 1 "^condnet cond: m\.model has 10 inputs, but ok\.csv train has 2 features$" \
	"$C" cond --load m.model --data csv:ok.csv
expect_ok "train a model on a 2-feature CSV" "$C" train --data csv:ok.csv --layers 4 --epochs 1 --save two.model --quiet
refuse "model inputs do not match the data (squeeze)" 1 "^condnet squeeze: two\.model has 2 inputs, but synthetic train \(seed 1\) has 10 features$" \
	"$C" squeeze --load two.model --data synthetic --quiet
python3 -c "
for i in range(40): print(','.join(str((i * j) % 7) for j in range(10)) + ',' + str(i % 5))" >k5.csv
refuse "model outputs do not match the classes" 1 "^condnet squeeze: m\.model: model has 3 outputs, data set has 5 classes$" \
	"$C" squeeze --load m.model --data csv:k5.csv --quiet

## .npy import
expect_ok "export a model as .npy" "$C" export --load m.model --npy npy
# the damaged sets below stand for folders other tools write: no manifest
cp -r npy npyk; rm npyk/condnet-manifest.txt
imp() { refuse "$1" 1 "^condnet import: $2" "$C" import --npy "$3" --save imp.model; }
cp -r npyk n1; sed -i 's/<f4/<i4/' n1/W2.npy
imp ".npy of dtype int32" "n1/W2\.npy: dtype '<i4' is not float32 or float64 \('<f4' or '<f8'\)$" n1
cp -r npyk n2; sed -i 's/<f4/>f4/' n2/W2.npy
imp ".npy big-endian" "n2/W2\.npy: dtype '>f4' is not float32 or float64" n2
cp -r npyk n3; sed -i "s/'shape': (8, 8)/'shape': (8, 7)/" n3/W2.npy
imp ".npy shape smaller than the data" "n3/W2\.npy: offset 128: oversized data of 256 bytes, expected 224 for shape \(8, 7\)$" n3
cp -r npyk n4; sed -i "s/'shape': (8,)/'shape': (9,)/" n4/b2.npy
imp ".npy shape larger than the data" "n4/b2\.npy: offset 128: truncated data of 32 bytes, expected 36 for shape \(9,\)$" n4
cp -r npyk n5; sed -i "s/'shape': (8, 8)/'shape': (8, 8, 1)/" n5/W2.npy
imp ".npy of 3 dimensions" "n5/W2\.npy: shape \(8, 8, 1\) has 3 dimensions, expected 1 or 2$" n5
cp -r npyk n6; sed -i 's/NUMPY/NUMPZ/' n6/W1.npy
imp ".npy wrong magic" "n6/W1\.npy: offset 0: expected the magic .x93NUMPY of a \.npy file$" n6
cp -r npyk n7; sed -i 's/False,/True, /' n7/W1.npy
imp ".npy Fortran order" "n7/W1\.npy: fortran_order is True, expected C order \(False\)$" n7
cp -r npyk n8; head -c 100 npy/W1.npy >n8/W1.npy
imp ".npy header cut short" "n8/W1\.npy: offset 8: header of 118 bytes, but only 90 follow$" n8
cp -r npyk n9; sed -i "s/'descr'/'dtype'/" n9/W1.npy
imp ".npy unknown header key" "n9/W1\.npy: header offset 11: key 'dtype', expected 'descr', 'fortran_order' or 'shape'$" n9
cp -r npyk n10; rm n10/b2.npy
imp ".npy bias file missing" "n10/b2\.npy: cannot open: No such file or directory$" n10
cp -r npyk n11; python3 -c "
import struct
h = \"{'descr': '<f4', 'fortran_order': False, 'shape': (8, 1), }\"
h += ' ' * ((64 - (10 + len(h) + 1) % 64) % 64) + '\n'
open('n11/b1.npy', 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode() + struct.pack('<8f', *range(8)))"
imp ".npy bias of shape (8, 1)" "n11/b1\.npy: shape \(8, 1\), expected 1-D of length 8$" n11
cp -r npyk n12; python3 -c "
import struct
h = \"{'descr': '<f4', 'fortran_order': False, 'shape': (8,), }\"
h += ' ' * ((64 - (10 + len(h) + 1) % 64) % 64) + '\n'
open('n12/b1.npy', 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode() + struct.pack('<8f', 1, 2, float('nan'), 4, 5, 6, 7, 8))"
imp ".npy holding NaN" "n12/b1\.npy: entry 2 is nan, expected a finite float32$" n12
cp -r npyk n13; mv n13/W2.npy n13/W3.npy; mv n13/b2.npy n13/b3.npy
imp ".npy layers with a gap (W2.npy missing, W3.npy there)" "n13/W2\.npy: missing, but W3\.npy is there \(layers are numbered 1, 2, … without a gap\)$" n13
mkdir nonpy
imp ".npy directory without W1.npy" "nonpy: no W1\.npy \(expected W1\.npy b1\.npy W2\.npy b2\.npy" nonpy
check "no model written by a failed import" [ ! -e imp.model ]

## ONNX import: damaged bytes, lying shapes, graphs that are not a dense chain
## (the bad_*.onnx models are written by tests/onnx/make_fixtures.py)
ox() { refuse "$1" 1 "^condnet import: $2" "$C" import --onnx "$3" --save onnx.model; }
expect_ok "export a model as ONNX" "$C" export --load m.model --onnx m.onnx
osize=$(wc -c <m.onnx)
head -c $((osize / 2)) m.onnx >o-cut.onnx
ox "ONNX model cut in half" "o-cut\.onnx: offset [0-9]+: ModelProto field 7 \(graph\): length runs past the end of its message \([0-9]+ bytes left\)$" o-cut.onnx
head -c 0 m.onnx >o-empty.onnx
ox "ONNX empty file" "o-empty\.onnx: empty file, expected an ONNX ModelProto$" o-empty.onnx
printf 'this is not a protobuf\n' >o-text.onnx
ox "ONNX text file" "o-text\.onnx: offset 0: ModelProto field 14 \(metadata_props\) has wire type 4, expected 2$" o-text.onnx
printf '\070\001' >o-wire.onnx
ox "ONNX graph field of the wrong wire type" "o-wire\.onnx: offset 0: ModelProto field 7 \(graph\) has wire type 0, expected 2$" o-wire.onnx
truncate -s 3G o-big.onnx
ox "ONNX file beyond protobuf's 2 GiB" "o-big\.onnx: 3221225472 bytes, more than protobuf's limit of 2147483647$" o-big.onnx
rm -f o-big.onnx
ox "ONNX from a FIFO (not opened)" "fifo: not a regular file$" fifo
O="$SRC/tests/onnx"
ox "ONNX raw_data shorter than its dimensions" ".*bad_raw_length\.onnx: node 0 'fc1' \(Gemm\): initializer 'W1': 44 bytes of raw_data, but its dimensions need 12 values \(48 bytes\)$" "$O/bad_raw_length.onnx"
ox "ONNX negative dimension" ".*bad_negative_dim\.onnx: node 0 'fc1' \(Gemm\): initializer 'W1': dimension 0 is -4, expected >= 0$" "$O/bad_negative_dim.onnx"
ox "ONNX dimensions of 2^60 values" ".*bad_huge_dims\.onnx: node 0 'fc1' \(Gemm\): initializer 'W1': dimensions hold more than 2\^40 values$" "$O/bad_huge_dims.onnx"
ox "ONNX int64 weights" ".*bad_int64_weights\.onnx: node 0 'fc1' \(Gemm\): initializer 'W1': data type INT64 \(7\), expected FLOAT \(1\) or DOUBLE \(11\)$" "$O/bad_int64_weights.onnx"
ox "ONNX int32 input" ".*bad_int_input\.onnx: node 0 'fc1' \(Gemm\): input 'x' holds INT32 \(6\), expected FLOAT \(1\) or DOUBLE \(11\)$" "$O/bad_int_input.onnx"
ox "ONNX external data" ".*bad_external\.onnx: node 0 'fc1' \(Gemm\): initializer 'W1': data stored in an external file, which condnet does not read$" "$O/bad_external.onnx"
ox "ONNX shapes that do not chain" ".*bad_chain\.onnx: node 2 'fc2' \(MatMul\): weights of 5 inputs × 2 outputs, but its input has 3 features$" "$O/bad_chain.onnx"
ox "ONNX input declared wider than the weights" ".*bad_input_width\.onnx: node 0 'fc1' \(Gemm\): weights of 4 inputs × 3 outputs, but its input has 5 features$" "$O/bad_input_width.onnx"
ox "ONNX output declared wider than computed" ".*bad_output_width\.onnx: node 2 'fc2' \(MatMul\): output 'y' is declared with 3 features, the graph computes 2$" "$O/bad_output_width.onnx"
ox "ONNX dangling input" ".*bad_dangling\.onnx: node 0 'fc1' \(Gemm\): input 'b0' is not produced by any node, initializer or graph input$" "$O/bad_dangling.onnx"
ox "ONNX graph with a cycle" ".*bad_cycle\.onnx: node 1 'loop_add' \(Add\): input 'r' comes from the later node 2 'loop_relu' \(Relu\) \(a cycle, or nodes out of topological order\)$" "$O/bad_cycle.onnx"
ox "ONNX two hidden activations" ".*bad_two_acts\.onnx: node 3 'act2' \(Tanh\): another activation than node 1 'act1' \(Relu\): condnet's hidden layers share one$" "$O/bad_two_acts.onnx"
ox "ONNX dropout left in" ".*dropout_train\.onnx: node 3 '/1/Dropout' \(Dropout\): dropout left in the graph \(export the model in evaluation mode\)$" "$O/dropout_train.onnx"
ox "ONNX skip connection" ".*residual\.onnx: node 3 '/1/Add' \(Add\): reads '/0/Gemm_output_0', which node 1 '/1/inner/Gemm' \(Gemm\) reads too: a branch or skip connection$" "$O/residual.onnx"
check "no model written by a failed ONNX import" [ ! -e onnx.model ]

## option values
refuse "tau = 1" 2 "^condnet alg1: --tau: '1' must be greater than 1$" "$C" alg1 --tau 1
refuse "tau < 1" 2 "^condnet alg1: --tau: '0\.5' must be greater than 1$" "$C" alg1 --tau 0.5
refuse "tau NaN" 2 "^condnet alg1: --tau: 'nan' is not a number$" "$C" alg1 --tau nan
refuse "squeeze tau = 1" 2 "^condnet squeeze: --tau: '1' must be greater than 1$" "$C" squeeze --load m.model --tau 1
refuse "cond tau = 1" 2 "^condnet cond: --tau: '1' must be greater than 1$" "$C" cond --load m.model --tau 1
refuse "eta = 0" 2 "^condnet alg1: --eta: '0' is not a positive number$" "$C" alg1 --eta 0
refuse "eta < 0" 2 "^condnet sweep: --eta: '-1' is not a positive number$" "$C" sweep --eta -1
refuse "beta = 0" 2 "^condnet sweep: --beta: betas \"0\": β = 0, every β must be > 0$" "$C" sweep --beta 0
refuse "beta < 0 in a list" 2 "^condnet sweep: --beta: betas \"1,0\.5,-2\": β = -2, every β must be > 0$" "$C" sweep --beta 1,0.5,-2
refuse "beta range from 0" 2 "^condnet sweep: --beta: betas \"0:1:0\.5\": β = 0, every β must be > 0$" "$C" sweep --beta 0:1:0.5
refuse "beta range step 0" 2 "^condnet sweep: --beta: betas \"1:2:0\": step 0, expected > 0$" "$C" sweep --beta 1:2:0
refuse "empty beta list" 2 "^condnet sweep: --beta: betas \"\": empty list$" "$C" sweep --beta ""
refuse "beta list with a hole" 2 "^condnet sweep: --beta: betas \"1,,2\": at offset 2: expected a number$" "$C" sweep --beta 1,,2
refuse "q = 0" 2 "^condnet sweep: --q: '0' is not a positive integer$" "$C" sweep --q 0
refuse "widths with a 0" 2 "^condnet train: --layers: layers \"3,0,4\": width at column 3 must be positive, not 0$" "$C" train --layers 3,0,4
refuse "widths 3x0" 2 "^condnet train: --layers: layers \"3x0\": width at column 3 must be positive, not 0$" "$C" train --layers 3x0
refuse "widths with a negative entry" 2 "^condnet train: --layers: layers \"3,-4\": expected a width at column 3, found '-'$" "$C" train --layers 3,-4
refuse "widths empty" 2 "^condnet train: --layers: layers: empty specification" "$C" train --layers ""
refuse "width too large" 2 "^condnet train: --layers: layers \"99999999999\": width at column 1 is too large \(at most 10000000\)$" \
	"$C" train --layers 99999999999
refuse "network too large for memory" 1 "^condnet train: a 100000x100000 network has [0-9]+ parameters, more than condnet trains \(1073741824\)$" "$C" train --layers 100000x100000 --quiet
refuse "learning rate 1e6" 2 "^condnet train: --lr: '1e6' must be at most 10$" "$C" train --lr 1e6
refuse "CSV with an empty test file name" 2 "^condnet train: --data: 'csv:ok\.csv,' has an empty element \(the 2nd\): a comma too many\?$" \
	"$C" train --data csv:ok.csv,

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

## whole outputs or none: .npy sets appear whole, with a manifest of their
## files' sizes and CRC-32s (written last) that import --npy checks
expect_ok "a second model of the same shapes" "$C" train --layers 3x8 --epochs 1 --limit 20 --seed 9 \
	--save m9.model --quiet
expect_ok "export it as .npy" "$C" export --load m9.model --npy npy9
check "an export writes a manifest last" grep -q '^file W1\.npy 10x8 448 [0-9a-f]\{8\}$' npy9/condnet-manifest.txt
rm -rf mix cut extra; cp -r npy mix; cp npy9/W2.npy npy9/b2.npy mix/
imp ".npy set mixing two exports of the same shapes" \
	"mix/W2\.npy: [0-9]+ bytes of CRC-32 [0-9a-f]{8}, but condnet-manifest\.txt lists [0-9]+ bytes of CRC-32 [0-9a-f]{8}: the files are not of one export \(one was cut short, or two wrote at once\); export it again$" mix
# what an export of m9 over npy leaves when it stops after its first file
cp -r npy cut; cp npy9/condnet-manifest.txt npy9/W1.npy cut/
imp ".npy set of an export cut short" "cut/b1\.npy: .*the files are not of one export" cut
cp -r npy extra; cp npy9/W2.npy extra/W5.npy; cp npy9/b2.npy extra/b5.npy
imp ".npy set with a layer its manifest does not list" \
	"extra/W5\.npy: not listed in condnet-manifest\.txt \(8 files\): the files are not of one export" extra
expect_ok "a set without a manifest (another tool's folder) imports as it is" "$C" import --npy npyk --save k.model
expect_ok "an export over an older one of the same shapes" "$C" export --load m9.model --npy npy
check "leaves the new model's files" sh -c 'for f in W1 b1 W2 b2 W3 b3 W4 b4; do cmp npy/$f.npy npy9/$f.npy || exit 1; done'
expect_ok "a data set export writes a manifest too" "$C" export --data synthetic --limit 10 --npy feat10
imp "a data set's files are not a network" "feat10: condnet-manifest\.txt says the directory holds a data set" feat10
# a full disk (the file size limit) while the files are written aside: the
# older set stays whole, a new directory is not made
expect_ok "a model of larger layers" "$C" train --layers 3x64 --epochs 1 --limit 20 --save big.model --quiet
cp -r npy9 bignpy; cp -r npy9 bignpy.before
refuse "an export past the file size limit fails" 1 \
	"^condnet export: bignpy/W2\.npy: writing failed: File too large \(bignpy is left as it was\)$" \
	sh -c 'ulimit -f 8; exec "$1" export --load big.model --npy bignpy' sh "$C"
check "... and leaves the older set as it was" diff -r bignpy bignpy.before
refuse "an export into a new directory past the file size limit" 1 \
	"^condnet export: newnpy/W2\.npy: writing failed: File too large \(newnpy is not made\)$" \
	sh -c 'ulimit -f 8; exec "$1" export --load big.model --npy newnpy' sh "$C"
check "... makes no directory" [ ! -e newnpy ]
check "no set written aside is left (*.tmp.*)" [ -z "$(find . -name '*.tmp.*')" ]

## one limit of layers for writers and readers: a network of 1500 layers
## exports to ONNX and imports back (the importers stopped at 1000)
expect_ok "train a network of 1500 layers" "$C" train --layers 1500x2 --epochs 0.01 --limit 10 \
	--save deep.model --quiet
expect_ok "export it as ONNX" "$C" export --load deep.model --onnx deep.onnx
expect_ok "import it back" "$C" import --onnx deep.onnx --save deep2.model
expect_grep "... all 1501 layers" "^imported .* \(1501 layers," "$TMP/out"

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

## files kept in tests/regress: read without a crash; FILE.expect, when present,
## holds the expected stderr pattern (and the status must be 1)
for f in "$SRC"/tests/regress/*; do
	[ -f "$f" ] || continue
	case $f in *.expect) continue ;; esac
	base=$(basename "$f")
	rm -rf rg; mkdir -p rg/mnist rg/adult rg/npy
	cp good-images.idx rg/mnist/train-images-idx3-ubyte; cp good-labels.idx rg/mnist/train-labels-idx1-ubyte
	cp good-images.idx rg/mnist/t10k-images-idx3-ubyte; cp good-labels.idx rg/mnist/t10k-labels-idx1-ubyte
	case $base in
	idx_images-*) cp "$f" rg/mnist/train-images-idx3-ubyte; set -- train --data mnist --data-dir rg --features 4 --layers 4 --epochs 1 --quiet ;;
	idx_labels-*) cp "$f" rg/mnist/train-labels-idx1-ubyte; set -- train --data mnist --data-dir rg --features 4 --layers 4 --epochs 1 --quiet ;;
	csv-*) cp "$f" rg/data.csv; set -- train --data csv:rg/data.csv --layers 4 --epochs 1 --quiet ;;
	adult-*) cp "$f" rg/adult/adult.data; cp good-adult.data rg/adult/adult.test; set -- train --data adult --data-dir rg --layers 4 --epochs 1 --quiet ;;
	model-*) set -- cond --load "$f" ;;
	npy-*) cp "$f" rg/npy/W1.npy; set -- import --npy rg/npy --save rg/out.model ;;
	onnx-*) cp "$f" "rg/$base"; set -- import --onnx "rg/$base" --save rg/out.model ;;
	session-*) set -- replay "$f" ;;
	*) fail "regress/$base: unknown kind (expected idx_images-, idx_labels-, csv-, adult-, model-, npy-, onnx- or session-)"; continue ;;
	esac
	if [ -f "$f.expect" ]; then
		refuse "regress/$base" 1 "$(cat "$f.expect")" "$C" "$@"
	else
		"$C" "$@" >out 2>err; st=$?
		check "regress/$base: no crash (exit $st)" sh -c "[ $st -lt 128 ] && ! grep -Eq 'Sanitizer|runtime error:|Segmentation' err"
	fi
done

finish
