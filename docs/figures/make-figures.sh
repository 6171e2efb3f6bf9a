#!/bin/sh
# make-figures.sh - the figures of this folder: the screen's export (e) of a
# session on the synthetic set, driven through tmux with the keys a person
# would press:
#   condnet tui --data synthetic --eta 10 --log figures.log
#   r                      Algorithm 1 until every kappa <= tau (7 iterations)
#   b 0.2:1.4:0.2, q 3     the beta sweep
#   S, Enter, Enter, 3     early stopping with patience 3
#   t 30                   a training with the validation curve
#   T 10, z, 4, c, a       squeeze at tau = 10, every layer, compensated
#   e synthetic.md         the export: tables, data, gnuplot script, PNG, PDF
# Run from this folder: sh make-figures.sh [CONDNET] (default ../../build/condnet).
set -eu
C=$(cd "$(dirname "${1:-../../build/condnet}")" && pwd)/$(basename "${1:-../../build/condnet}")
HERE=$(pwd)
SOCK=$(mktemp -u /tmp/condnet-figures-XXXXXX)
T="tmux -S $SOCK"
trap "$T kill-server 2>/dev/null || true" EXIT
export OPENBLAS_NUM_THREADS=1 LC_ALL=C.UTF-8 TERM=xterm-256color
$T new-session -d -s f -x 120 -y 40 "'$C' tui --data synthetic --eta 10 --log '$HERE/figures.log'; sleep 60"
wait_for() { # PATTERN: the screen shows it (at most 5 minutes)
	i=0
	while [ $i -lt 3000 ]; do
		$T capture-pane -p -t f | grep -Eq -- "$1" && return 0
		sleep 0.1; i=$((i + 1))
	done
	echo "make-figures.sh: '$1' never showed" >&2; exit 1
}
idle() { sleep 0.5; wait_for ' idle$'; }
wait_for '^ +i +n_i'
$T send-keys -t f r; wait_for 'Algorithm 1, iterations 0-[0-9]+: (done|stuck)'; idle
$T send-keys -t f b C-u 0.2:1.4:0.2 Enter C-u 3 Enter; wait_for 'finished, pick'; idle
$T send-keys -t f S Enter Enter C-u 3 Enter t C-u 30 Enter; wait_for '^▸ trained [0-9]+ of 30'; idle
$T send-keys -t f T C-u 10 Enter z; wait_for 'keeping [0-9]+ chosen by QR'
$T send-keys -t f 4 c a; wait_for '^Done: [0-9]+ neuron'; idle
$T send-keys -t f e C-u "$HERE/synthetic.md" Enter; wait_for 'exported the tables'
rm -f "$HERE"/synthetic-*.pdf
$T send-keys -t f q y
