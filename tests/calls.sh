#!/bin/sh
# calls.sh - inside every folder of src/, the calls between its files form a
# DAG: no file calls (or reads a variable of) a file that calls it back,
# directly or round a longer circle. Read from the compiled library of each
# folder (nm: which object defines a symbol, which one uses it), for the
# objects of the folder's own sources only (a generated one, onnx/, is not
# looked at: only the folders of src/README.md's order). A circle is
# reported with the functions each file takes from the next.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/.." && pwd)/src
BUILD=${top_builddir:-.}
command -v nm >/dev/null 2>&1 || { echo "SKIP - no nm"; exit 77; }
# the folders of the order src/README.md states (not a generated one: onnx/)
order=$(sed -n 's/^Order: *//p' "$SRC/README.md" | tr -d '`' | sed 's/ *→ */ /g')
check "src/README.md states the order of the folders" [ -n "$order" ]
checked=0 edges=0
for f in $order; do
	d="$SRC/$f/"
	lib="$BUILD/src/$f/lib$f.a"
	[ -f "$lib" ] || { fail "src/$f/: no library lib$f.a in the build tree"; continue; }
	nm -A "$lib" >"$TMP/nm" 2>"$TMP/nmerr" || { fail "nm $lib"; sed 's/^/  | /' "$TMP/nmerr"; continue; }
	(cd "$d" && ls -- *.c) >"$TMP/sources"
	awk -v F="$f" -v LIBPRE="lib${f}_a-" -v EDGES="$TMP/edges" '
	FNR == NR { src[$1] = 1; next }
	{
		# "lib.a:member.o:[address]" type symbol
		n = split($1, p, ":"); m = p[2]
		if (index(m, LIBPRE) != 1)
			next
		m = substr(m, length(LIBPRE) + 1); sub(/\.o$/, ".c", m)
		if (!(m in src))
			next
		t = $2; s = $3
		if (t == "U")
			use[m, s] = 1
		else if (t ~ /^[TDBRGSCVW]$/)
			def[s] = m
		files[m] = 1
	}
	END {
		for (k in use) {
			split(k, q, SUBSEP)
			a = q[1]; s = q[2]
			if (!(s in def) || def[s] == a)
				continue
			b = def[s]
			if (!((a, b) in edge)) {
				nedges++
				edge[a, b] = s
				nout[a]++
				out[a, nout[a]] = b
			} else
				edge[a, b] = edge[a, b] ", " s
		}
		# Tarjan: the strongly connected components of the calls
		idx = 0; ncirc = 0
		for (v in files)
			if (!(v in index_of))
				visit(v)
		for (c = 1; c <= ncomp; c++) {
			if (csize[c] < 2)
				continue
			ncirc++
			printf "src/%s: a circle of %d files:", F, csize[c]
			for (i = 1; i <= csize[c]; i++)
				printf " %s", cmem[c, i]
			printf "\n"
			for (i = 1; i <= csize[c]; i++) {
				a = cmem[c, i]
				for (j = 1; j <= nout[a]; j++) {
					b = out[a, j]
					if (comp[b] == c)
						printf "  %s calls %s: %s\n", a, b, sortlist(edge[a, b])
				}
			}
		}
		printf "%d\n", nedges > EDGES
		exit ncirc > 0
	}
	function visit(v,   j, w) {
		index_of[v] = low[v] = ++idx
		stack[++sp] = v; onstack[v] = 1
		for (j = 1; j <= nout[v]; j++) {
			w = out[v, j]
			if (!(w in index_of)) {
				visit(w)
				if (low[w] < low[v])
					low[v] = low[w]
			} else if (onstack[w] && index_of[w] < low[v])
				low[v] = index_of[w]
		}
		if (low[v] == index_of[v]) {
			ncomp++
			do {
				w = stack[sp--]; onstack[w] = 0
				comp[w] = ncomp
				cmem[ncomp, ++csize[ncomp]] = w
			} while (w != v)
		}
	}
	function sortlist(l,   n, a, i, j, t, r) {
		n = split(l, a, ", ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		r = a[1]
		for (i = 2; i <= n; i++)
			r = r ", " a[i]
		return r
	}' "$TMP/sources" "$TMP/nm" >"$TMP/circles"
	rc=$?
	checked=$((checked + 1))
	edges=$((edges + $(cat "$TMP/edges" 2>/dev/null || echo 0)))
	if [ "$rc" -eq 0 ]; then
		pass "src/$f/: the calls between its files form a DAG"
	else
		fail "src/$f/: its files call each other in circles"
		sed 's/^/  | /' "$TMP/circles"
	fi
done
check "every folder of the order was looked at ($checked)" [ "$checked" -ge 10 ]
# the files of a folder do call each other: nm was read
check "calls between the files of a folder were found ($edges)" [ "$edges" -gt 50 ]
finish
