#!/bin/sh
# paper-plan.sh - the paper's experiments with independent stages running at
# the same time. Each plan (condnet paper WHICH --plan) holds the stages
# whose inputs are there (mnist: alg1, eta, tau and over first; then alg2;
# then final and verify; then squeeze; then add20); they run with GNU
# parallel or as a Slurm job array of slurm-array.sbatch, and the loop plans
# again until none is left. Then the report is written from the results.
#
#   paper-plan.sh [-r parallel|slurm] [-j JOBS] [-s SBATCH-OPTION]... -- \
#           mnist|adult [PAPER-OPTIONS]...
#
#   paper-plan.sh -r slurm -s --time=12:00:00 -- mnist --out paper-mnist --threads 2
#
# -r      the runner (default parallel)
# -j      stages at a time with GNU parallel (default 2)
# -s      an option for sbatch (repeat for more)
# CONDNET the condnet to run (default: condnet on PATH)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
runner=parallel jobs=2 sbatch_opts=''
while getopts r:j:s: opt; do
	case $opt in
	r) runner=$OPTARG ;;
	j) jobs=$OPTARG ;;
	s) sbatch_opts="$sbatch_opts $OPTARG" ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
condnet=${CONDNET:-condnet}
# in the current directory, which the nodes of a cluster see
plan=condnet-paper-$$.plan
trap 'rm -f "$plan"' EXIT

while :; do
	"$condnet" paper "$@" --plan "$plan"
	[ -s "$plan" ] || break
	# shellcheck disable=SC2086 # one word per sbatch option
	case $runner in
	parallel) parallel -j "$jobs" --halt now,fail=1 <"$plan" ;;
	slurm) sbatch --wait --array=0-$(($(wc -l <"$plan") - 1)) $sbatch_opts \
		"$here/slurm-array.sbatch" "$plan" ;;
	*) echo "paper-plan.sh: -r parallel or -r slurm" >&2; exit 2 ;;
	esac
done
"$condnet" paper "$@"
