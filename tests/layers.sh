#!/bin/sh
# layers.sh - every file of src/ includes only from its own folder and the
# folders before it in the order src/README.md states (its line "Order:"),
# the generated ONNX bindings (onnx/) only from model/, and main.c from any.
# The two front ends, cli/ and tui/, are siblings: neither includes the
# other (what both need is in setup/, below them).
# Also: no production folder includes the test framework (check.h), and
# JSON records are built only under report/ (nothing else creates, adds to
# or prints a cJSON object; reading one is free).
# It looks at the sources only: the files the build generates (the build's
# BUILT_SOURCES, which `make check` passes as GENERATED_SOURCES: the ONNX
# bindings in src/onnx/ of an in-tree build) are no part of the layout.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/.." && pwd)/src
# generated FILE: FILE (a path under $SRC) is one the build generated
generated() {
	for g in ${GENERATED_SOURCES:-}; do
		[ "$1" = "$SRC/${g#src/}" ] && return 0
	done
	return 1
}
# sources DIR: the .c and .h files of DIR that are not generated
sources() {
	for f in "${1%/}"/*.[ch]; do
		[ -f "$f" ] && ! generated "$f" && echo "$f"
	done
}
order=$(sed -n 's/^Order: *//p' "$SRC/README.md" | tr -d '`' | sed 's/ *→ */ /g')
check "src/README.md states the order of the folders" [ -n "$order" ]
rank() {
	i=0
	for f in $order; do
		[ "$f" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo -1
}
# every folder of src/ that holds a source is in the order
for d in "$SRC"/*/; do
	[ -n "$(sources "$d")" ] || continue
	d=$(basename "$d")
	check "src/$d/ has a place in the order" [ "$(rank "$d")" -ge 0 ]
done
# and every folder the order names is there
for d in $order; do
	check "src/$d/, which the order names, is there" [ -d "$SRC/$d" ]
done
bad=0
files=$(for d in "$SRC"/*/; do sources "$d"; done)
while IFS= read -r f; do
	from=$(basename "$(dirname "$f")")
	rf=$(rank "$from")
	# shellcheck disable=SC2013
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)\/.*/\1/p' "$f"); do
		if [ "$inc" = onnx ]; then
			[ "$from" = model ] && continue
			echo "${f#"$SRC"/}: includes the ONNX bindings (onnx/), which only model/ may"
			bad=$((bad + 1)); continue
		fi
		ri=$(rank "$inc")
		if [ "$ri" -lt 0 ] || [ "$ri" -gt "$rf" ]; then
			echo "${f#"$SRC"/}: includes from $inc/, which comes after $from/ in the order"
			bad=$((bad + 1))
		fi
	done
	if grep -Eq '^[[:space:]]*#[[:space:]]*include[[:space:]]*<check\.h>' "$f"; then
		echo "${f#"$SRC"/}: includes the test framework"
		bad=$((bad + 1))
	fi
done <<EOF
$files
EOF
check "no file of src/ includes from a later folder ($bad found)" [ "$bad" -eq 0 ]
sib=$(grep -lE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"cli/' "$SRC"/tui/*.[ch] |
	sed "s|^$SRC/||" | tr '\n' ' ')
check "the screen (tui/) includes nothing of the batch commands (cli/) (${sib:-none})" [ -z "$sib" ]
built=$(grep -lE 'cJSON_(Create|Add|Print|Detach|Insert|Replace|Duplicate)' "$SRC"/*/*.[ch] |
	grep -v "^$SRC/report/" | sed "s|^$SRC/||" | tr '\n' ' ')
check "JSON records are built only under report/ (outside it: ${built:-none})" [ -z "$built" ]
finish
