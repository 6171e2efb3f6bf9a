#!/bin/sh
# tui_files.sh - the screen's export (e) and save (w) never write over a
# file the session reads or writes, nor the export's files over one another,
# in tmux on the spiral with a model loaded and a CSV data set:
#  - the export named like the model loaded, the session log being written,
#    the lesson played, a data file read, a model saved before, or reaching
#    one of them through a link from one of its own files (x-layers.dat), is
#    refused with one line naming the clash, and the file is byte for byte
#    as it was (the log goes on and replays);
#  - the export named so that its tables are one of its own scripts (x.gp,
#    y-network.gp) is refused the same way, and writes nothing;
#  - an export over existing plain files asks first: n keeps them, y writes;
#  - w over the session log, a data file or a file an export wrote is
#    refused, says why and asks again; w over the model loaded asks before
#    it overwrites, as before.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tmux.sh"
C=$CONDNET
cd "$TMP" || exit 1
# sum FILE: its checksum, to see that it was not written
sum() { cksum <"$1"; }

# a model of the spiral, and the spiral's points as a CSV data set
"$C" train --data spiral --layers 8 --epochs 2 --save m.model --quiet >/dev/null 2>&1
python3 - <<'PY'
import math
rows = []
for i in range(240):
    k, t = i % 3, (i // 3) / 80.0
    r = 0.2 + t
    rows.append('%.4f,%.4f,%d' % (r * math.cos(2 * math.pi * (t + k / 3.0)), r * math.sin(2 * math.pi * (t + k / 3.0)), k))
open('tr.csv', 'w').write('\n'.join(rows[:180]) + '\n')
open('te.csv', 'w').write('\n'.join(rows[180:]) + '\n')
PY
[ -s m.model ] && [ -s tr.csv ] || { fail "the model and the data set are made"; finish; }
M0=$(sum m.model) TR0=$(sum tr.csv) TE0=$(sum te.csv)

screen_run f 120x30 --data spiral --load "'$TMP/m.model'" --log "'$TMP/s.log'"
see "the screen opens on the model loaded" 'Decision regions of 2-8-3'
# export NAME: e, the name, Enter
export_as() { keys e; keys C-u "$1" Enter; }
# refused WHAT PATTERN: the status line says the export was refused
refused() { see "$1" "export refused: $2"; }

## the model loaded, the session log
export_as m.model
refused "an export over the model loaded is refused" 'm\.model: is a model the session loaded \(.*m\.model\), which the screen never'
check "the model is as it was" [ "$(sum m.model)" = "$M0" ]
export_as s.log
refused "an export over the session log is refused" 's\.log: is the session log \(.*s\.log\), which the screen never'
check "the log is still the log" grep -q '^load path=' s.log

## through a link from one of the export's own files
ln -s m.model lnk-layers.dat
ln -s s.log lnk2-network.gp
export_as lnk.md
refused "an export whose data file is a link to the model is refused" \
	'lnk-layers\.dat: is a model the session loaded \(.*m\.model\), through a link'
export_as lnk2.md
refused "an export whose script is a link to the log is refused" \
	'lnk2-network\.gp: is the session log \(.*s\.log\), through a link'
check "no tables were written for either" [ ! -e lnk.md ] && [ ! -e lnk2.md ]
check "the model is as it was" [ "$(sum m.model)" = "$M0" ]

## the export's files over one another
export_as x.gp
refused "tables named like the export's script are refused" 'x\.gp: is also a gnuplot script \(x\.gp\): two outputs never share a file'
export_as y-network.gp
refused "tables named like the network diagram's script are refused" \
	'y-network\.gp: is also a gnuplot script \(y-network\.gp\): two outputs never share a file'
check "neither wrote a file" sh -c '! ls x* y* 2>/dev/null | grep -q .'

## existing plain files: asked first
echo mine >mine-spectra.dat
export_as mine.md
see "an export over an existing file asks first" 'export: mine-spectra\.dat exists: overwrite it\? \(y/n\)'
keys n
see "n keeps it" 'not exported: the files of mine\.md are kept as they were'
check "the file is as it was and nothing was written" sh -c '[ "$(cat mine-spectra.dat)" = mine ] && [ ! -e mine.md ]'
export_as mine.md
see "asked again" 'overwrite it\? \(y/n\)'
keys y
# (the status line's account, at the start of its row: the narration row
# above it still holds the earlier export's until this one ends)
see "y exports" '^exported the tables to mine\.md' 30
check "over the file" sh -c '[ "$(cat mine-spectra.dat)" != mine ] && [ -s mine.md ]'
export_as mine.md
see "an export over an earlier export asks too" 'export: mine\.md and [0-9]+ more of its files exist: overwrite them\? \(y/n\)'
keys y
see "and y writes it again" '^exported the tables to mine\.md' 30

## w: the log, an export's file and the model loaded
keys w C-u s.log Enter
see "w over the session log is refused, saying why" 'not saved: s\.log: is the session log'
see "and asks again" 'save to \(another file\)'
keys C-u mine-layers.dat Enter
see "w over a file an export wrote is refused" 'not saved: mine-layers\.dat: is a file an export of the session wrote'
see "and asks again" 'save to \(another file\)'
keys C-u saved.model Enter
see "another name saves" 'saved .*saved\.model' 20
check "the log is still the log" sh -c "grep -q '^save path=' s.log"
export_as saved.model
refused "an export over the model saved is refused" 'saved\.model: is a model the session saved'
keys w C-u m.model Enter
see "w over the model loaded asks, as before" 'm\.model exists: overwrite it\? \(y/n\)'
keys n
see "n keeps it" 'not saved: .*m\.model is kept as it was'
check "the model is as it was" [ "$(sum m.model)" = "$M0" ]
keys q
see "the screen quits (nothing unsaved)" 'EXIT=0' 10
expect_ok "the log replays" "$C" replay s.log

## a CSV data set: the export and the save over its files
screen_run c 120x30 --data "csv:'$TMP/tr.csv,$TMP/te.csv'" --layers 8 --log "'$TMP/c.log'"
see "the screen opens on the CSV data set" '^ +i +n_i|Decision regions'
export_as te.csv
refused "an export over a data file read is refused" 'te\.csv: is the data set read \(.*te\.csv\), which the screen never'
keys w C-u tr.csv Enter
see "w over a data file read is refused" 'not saved: tr\.csv: is the data set read'
keys Escape
check "the data files are as they were" [ "$(sum tr.csv)" = "$TR0" ] && [ "$(sum te.csv)" = "$TE0" ]
keys q
see "the screen quits" 'EXIT=0' 10

## a lesson played: the export over the lesson file
cat >l.lesson <<'L'
data spec=spiral features=0 label_col=-1 seed=1 limit=0 val_frac=0 val_per_class=0
net layers=4 act=erf act_a=1 seed=1
train 3
L
L0=$(sum l.lesson)
screen_run l 120x30 --play "'$TMP/l.lesson'"
see "the lesson opens" 'lesson l\.lesson'
export_as l.lesson
refused "an export over the lesson played is refused" 'l\.lesson: is the lesson played \(.*l\.lesson\), which the screen never'
check "the lesson is as it was" [ "$(sum l.lesson)" = "$L0" ]
keys q
see "the screen quits" 'EXIT=0|quit' 10
finish
