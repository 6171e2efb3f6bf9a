#!/bin/sh
# onnx_tally.sh - every model of ONNX's conformance test data through
# `condnet import --onnx`: each must be imported or refused with a message
# (status 1), never crash or hang (20 s each). An imported model must also
# reproduce the stored outputs of its test data sets (tests/onnx_run --check,
# 1e-5). Prints the tally: imported (reproduced or not), refused by reason
# (the operator of the node named, else the kind of problem), failed.
#
#   tests/onnx_tally.sh [DATA_DIR]     (run from the build directory)
#
# DATA_DIR defaults to Debian libonnx-testdata's /usr/share/libonnx-testdata/data.
# Exit status 0 when nothing failed and every imported model reproduced.
set -u
data=${1:-/usr/share/libonnx-testdata/data}
build=${top_builddir:-.}
condnet=${CONDNET:-$build/condnet}
run=$build/tests/onnx_run
[ -d "$data" ] || { echo "onnx_tally: no ONNX test data at $data (Debian: libonnx-testdata)" >&2; exit 77; }
[ -x "$condnet" ] && [ -x "$run" ] || { echo "onnx_tally: build condnet and tests/onnx_run first (make check)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/onnx-tally-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/reasons"
: >"$tmp/failed"
: >"$tmp/differs"
total=0 imported=0 reproduced=0 refused=0 failed=0
for model in $(find "$data" -name model.onnx | sort); do
	total=$((total + 1))
	dir=$(dirname "$model")
	name=${dir#"$data"/}
	timeout 20 "$condnet" import --onnx "$model" --save "$tmp/m.model" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ $st -eq 0 ]; then
		imported=$((imported + 1))
		if timeout 60 "$run" --check "$model" "$dir" >"$tmp/check" 2>&1; then
			reproduced=$((reproduced + 1))
		else
			echo "$name: $(head -3 "$tmp/check" | tr '\n' ' ')" >>"$tmp/differs"
		fi
	elif [ $st -eq 1 ] && [ -s "$tmp/err" ] && ! grep -Eq 'Sanitizer|runtime error' "$tmp/err"; then
		refused=$((refused + 1))
		msg=$(head -1 "$tmp/err")
		# the operator of the node the message names, and the message without
		# the file, the node, names and numbers
		op=$(echo "$msg" | sed -n "s/^[^:]*: [^:]*: node [0-9]* \('[^']*' \)\{0,1\}(\([^)]*\)).*/\2/p")
		why=$(echo "$msg" | sed "s/^[^:]*: [^:]*: node [0-9]* \('[^']*' \)\{0,1\}([^)]*): //" |
			sed "s/ (condnet reads Gemm.*)\$//; s/'[^']*'/'…'/g; s/[0-9][0-9]*/N/g" | cut -c1-100)
		printf '%s\t%s\n' "$why" "${op:-?}" >>"$tmp/reasons"
	else
		failed=$((failed + 1))
		echo "$name: exit $st: $(head -2 "$tmp/err" | tr '\n' ' ')" >>"$tmp/failed"
	fi
done
echo "ONNX test data: $data"
echo "models: $total"
echo "imported: $imported ($reproduced reproduce their test data to 1e-5)"
[ -s "$tmp/differs" ] && sed 's/^/  differs: /' "$tmp/differs"
echo "refused: $refused, by reason:"
# one line a reason with its count, and below it the operators of the nodes
# named with their counts, most frequent first
tab=$(printf '\t')
sort "$tmp/reasons" | uniq -c | sort -rn | awk -F'\t' '{
	n = $1 + 0; why = $1; sub(/^ *[0-9]+ /, "", why)
	total[why] += n; ops[why] = ops[why] (ops[why] == "" ? "" : ", ") $2 " " n
} END { for (w in total) printf "%d\t%s\t%s\n", total[w], w, ops[w] }' |
	sort -t"$tab" -k1,1rn | awk -F'\t' '{ printf "%6d  %s\n        (%s)\n", $1, $2, $3 }'
echo "failed (crash, hang or no message): $failed"
[ -s "$tmp/failed" ] && sed 's/^/  /' "$tmp/failed"
[ $failed -eq 0 ] && [ $imported -eq $reproduced ]
