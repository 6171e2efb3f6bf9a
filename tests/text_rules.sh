#!/bin/sh
# text_rules.sh - the rules of text in and out, one each:
#  - a message quoting a file (a CSV field, a log line, a lesson line) shows
#    its control bytes written out (\x1b, \x07, …): none reaches the
#    terminal raw;
#  - every list option refuses an empty element (--tau 30,,10, --stages,
#    --data csv:A,,B, --keep-counts, --beta, --layers), exit 2;
#  - every file condnet writes uses the C locale's numbers whatever LC_ALL
#    says (a locale of decimal commas made here with localedef), and a log
#    of the screen replays under any locale (the screen's part is
#    tests/tui_outputs.sh's).
. "$(dirname "$0")/lib.sh"
C=$CONDNET
cd "$TMP" || exit 1

# raw FILE: FILE holds no control byte but the line feed.
raw() { ! LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$1"; }

## control bytes quoted from files
printf '1,2,0\n1,\033]0;pwned\007x,1\n' >esc.csv
expect_exit "a CSV field with ESC and BEL" 1 "^condnet train: esc\.csv:2: column 2: '\\\\x1b\]0;pwned\\\\x07x' is not a number$" \
	"$C" train --data csv:esc.csv --quiet
check "the message holds no control byte" raw "$TMP/err"
printf 'data spec=synthetic features=200 label_col=-1 seed=1 limit=0 val_frac=0.1 val_per_class=0\nfrob\033[31mnicate\n' >esc.log
expect_exit "a log line with an escape sequence" 1 "^condnet replay: esc\.log:2: unknown action 'frob\\\\x1b\[31mnicate'" \
	"$C" replay esc.log
check "the message holds no control byte" raw "$TMP/err"
printf 'data spec=synthetic features=200 label_col=-1 seed=1 limit=0 val_frac=0.1 val_per_class=0\n\302\233frob\n' >c1.log
expect_exit "a log line with a C1 control (U+009B) and bytes not UTF-8" 1 "unknown action '\\\\xc2\\\\x9bfrob'" \
	"$C" replay c1.log
printf 'data spec=synthetic features=200 label_col=-1 seed=1 limit=0 val_frac=0.1 val_per_class=0\n\377\376β\n' >bad.log
expect_exit "bytes that are not UTF-8 are written out, UTF-8 stays" 1 "unknown action '\\\\xff\\\\xfeβ'" \
	"$C" replay bad.log

## lists refuse an empty element
"$C" train --data moons --layers 4 --epochs 1 --save m.model --quiet >/dev/null
for a in "squeeze --load m.model --data moons --compare --tau 30,,10|--tau: '30,,10' has an empty element \(the 2nd\)" \
	"squeeze --load m.model --data moons --compare --tau ,30|--tau: ',30' has an empty element \(the 1st\)" \
	"squeeze --load m.model --data moons --compare --tau 30,|--tau: '30,' has an empty element \(the 2nd\)" \
	"paper adult --stages alg1,,alg2|--stages: 'alg1,,alg2' has an empty element \(the 2nd\)" \
	"train --data csv:a.csv,,b.csv|--data: 'csv:a\.csv,,b\.csv' has an empty element \(the 2nd\)" \
	"squeeze --load m.model --data moons --keep-counts 3,,3|--keep-counts: layers \"3,,3\": expected a width at column 3" \
	"sweep --data moons --beta 1,,2|--beta: betas \"1,,2\": at offset 2: expected a number" \
	"train --data moons --layers 8,,8|--layers: layers \"8,,8\": expected a width at column 3"; do
	cmd=${a%%|*} p=${a#*|}
	# shellcheck disable=SC2086
	expect_exit "${cmd#* } refused" 2 "$p" "$C" $cmd --dry-run
done

## numbers in the C locale whatever LC_ALL says
mkdir -p "$TMP/loc"
if command -v localedef >/dev/null && [ -d /usr/share/i18n/locales ] &&
	localedef -i de_DE -f UTF-8 "$TMP/loc/de_DE.UTF-8" >/dev/null 2>&1; then
	de() { LOCPATH="$TMP/loc" LC_ALL=de_DE.UTF-8 "$@"; }
	check "the locale made here writes decimal commas" \
		sh -c "LOCPATH='$TMP/loc' LC_ALL=de_DE.UTF-8 env printf '%.1f' 12.5 | grep -q '12,5'"
	expect_ok "train under a locale of decimal commas" de "$C" train --data moons --layers 4 --epochs 2 \
		--lr 0.01 --save de.model --json de.json --csv de.csv --quiet
	check "its JSON parses" python3 -c "import json; json.load(open('de.json'))"
	check "its CSV has decimal points" sh -c "grep -q '[0-9]\.[0-9]' de.csv && ! grep -q '[0-9],[0-9][0-9]*\$' de.csv"
	expect_ok "eval under it" de "$C" eval --load de.model --data moons --json ev.json --csv ev.csv --quiet
	check "eval's JSON parses" python3 -c "import json; json.load(open('ev.json'))"
	expect_ok "predict under it" de "$C" predict --load de.model --data moons --out pr.csv --quiet
	check "predict's answers have decimal points" sh -c "sed -n 2p pr.csv | grep -Eq '^[0-9]+,0\.[0-9]+,'"
	printf 'data spec=moons features=200 label_col=-1 seed=1 limit=0 val_frac=0.1 val_per_class=0\nnet layers=4 act=erf act_a=1 seed=1\ntau 12.5\n' >c.log
	expect_ok "a log replays under it" de "$C" replay c.log
else
	echo "no de_DE locale can be made here (localedef, /usr/share/i18n): the locale checks are skipped"
fi
finish
