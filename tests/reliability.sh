#!/bin/sh
# reliability.sh - bad input: every damaged data file (idx, CSV, Adult, the
# feature cache), model, .npy file and set, ONNX model and option value is
# refused with a message naming the problem and status 1 or 2 (never a
# crash), one set of rules for every loader; a network of 1500 layers goes
# out and back; the files kept in tests/regress/ (inputs the fuzz targets
# found) are read without a crash. Faults and interruptions are
# tests/faults.sh's.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
C=$CONDNET
cd "$TMP" || exit 1

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
cp m.model future.model; poke future.model 8 07
refuse "model from a future format version" 1 "^condnet cond: future\.model: format version 7 is newer than this condnet reads \(6\)$" \
	"$C" cond --load future.model
refuse "model from a FIFO (not opened)" 1 "^condnet cond: fifo: not a regular file$" timeout 10 "$C" cond --load fifo
refuse "model inputs do not match the data (cond)" 1 "^condnet cond: m\.model: model has 10 inputs, data set has 2 features$" \
	"$C" cond --load m.model --data csv:ok.csv
expect_ok "train a model on a 2-feature CSV" "$C" train --data csv:ok.csv --layers 4 --epochs 1 --save two.model --quiet
refuse "model inputs do not match the data (squeeze)" 1 "^condnet squeeze: two\.model: model has 2 inputs, data set has 10 features$" \
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
ox "ONNX dropout in training mode" ".*dropout_train\.onnx: node 3 '/1/Dropout' \(Dropout\): dropout in training mode \(export the model in evaluation mode\)$" "$O/dropout_train.onnx"
check "no model written by a failed ONNX import" [ ! -e onnx.model ]
# not chains, but graphs: two activations, a skip connection
expect_ok "ONNX two hidden activations: a graph network" "$C" import --onnx "$O/bad_two_acts.onnx" --save acts.model
expect_grep "... as import says" "^imported 4 graph: 3 Gemm, 1 Relu, 1 Tanh -> 2 " "$TMP/out"
expect_ok "ONNX skip connection: a graph network" "$C" import --onnx "$O/residual.onnx" --save skip.model
expect_grep "... as import says" "^imported 4 graph: 3 Gemm, 1 Add, 1 Relu -> 2 " "$TMP/out"

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
