#!/bin/sh
# sweep-slurm.sh - Algorithm 2 on a Slurm cluster: the trials of a plan
# (condnet sweep --plan) as one job array of slurm-array.sbatch, waited
# for, then gathered; when the pick is at an edge of the beta range, the
# gather plans the beta Algorithm 2 adds there, and the loop submits that
# too. The result is the table of `condnet sweep OPTIONS` in one process.
#
#   sweep-slurm.sh [-d DIR] [-s SBATCH-OPTION]... -- SWEEP-OPTIONS...
#
#   sweep-slurm.sh -s --partition=short -s --time=1:00:00 -- --data mnist \
#           --load alg1.model --beta 1.0:2.4:0.2 --q 5 --threads 1 --json sweep.json
#
# -d      directory of the trial files, on a file system the nodes share
#         (default trials); the plan is DIR.plan
# -s      an option for sbatch (repeat for more)
# CONDNET the condnet to run (default: condnet on PATH)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=trials sbatch_opts=''
while getopts d:s: opt; do
	case $opt in
	d) dir=$OPTARG ;;
	s) sbatch_opts="$sbatch_opts $OPTARG" ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
condnet=${CONDNET:-condnet}
plan=$dir.plan

"$condnet" sweep "$@" --plan "$plan" --out "$dir"
while [ -s "$plan" ]; do
	n=$(wc -l <"$plan")
	# shellcheck disable=SC2086 # one word per sbatch option
	sbatch --wait --array=0-$((n - 1)) $sbatch_opts "$here/slurm-array.sbatch" "$plan"
	"$condnet" sweep "$@" --gather --out "$dir" --plan "$plan" "$dir"/beta-*-trial-*.json
done
