#!/bin/bash
# The slices of docs/slurm/mark.sh joined into one class view, once every
# task has ended (docs/mark.md, "As a Slurm array job"):
#
#   sbatch --dependency=afterany:JOB docs/slurm/merge.sh slices marks
#   # or, on any machine that sees the folders: bash docs/slurm/merge.sh slices marks
#
# It fails (exit 2) naming each submission without a row and its slice (a
# task killed halfway, one the harness could not mark): re-run that slice
# (mark.sh says how), then merge again.
#SBATCH --job-name=mark-merge
#SBATCH --output=logs/merge-%j.log
set -euo pipefail
slices=${1:-slices}
out=${2:-marks}
exec "${BOXES_HARNESS:-boxes-harness}" mark merge "$slices"/* --out "$out"
