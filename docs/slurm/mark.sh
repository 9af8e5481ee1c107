#!/bin/bash
# One slice of a class, marked as a Slurm array task (docs/mark.md, "As a
# Slurm array job"). Slice K of N is array task K-1; N is given apart
# (MARK_SLICES), never read from the array, so that one task re-run alone
# (`sbatch --array=2`) still marks slice 3 of N and not the whole class:
#
#   mkdir -p logs
#   MARK_SLICES=8 sbatch --array=0-7 docs/slurm/mark.sh nogo subs slices
#   MARK_SLICES=8 sbatch --array=2 docs/slurm/mark.sh nogo subs slices  # slice 3/8 again
#
# A task killed or requeued (`scontrol requeue JOB_TASK`) resumes: the
# submissions it finished are kept ("unchanged"), the rest marked. Its
# log, logs/mark-JOB_TASK.log, is appended to (--open-mode=append): a
# requeue keeps the failed attempt's lines, each attempt headed by its
# number. --cpus-per-task is the --jobs of each task: on a node of 2 CPUs,
# --cpus-per-task=2 runs one task at a time, each marking 2 submissions at
# once.
#SBATCH --job-name=mark
#SBATCH --cpus-per-task=2
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=logs/mark-%A_%a.log
set -euo pipefail
usage="usage: MARK_SLICES=N sbatch --array=0-(N-1) mark.sh SPEC SUBMISSIONS [SLICES]"
spec=${1:?$usage}
subs=${2:?$usage}
slices=${3:-slices}
n=${MARK_SLICES:?set MARK_SLICES to N, the number of slices: $usage}
k=$((${SLURM_ARRAY_TASK_ID:?not an array task: $usage} + 1))
if [ "$k" -gt "$n" ]; then
    echo "array task $SLURM_ARRAY_TASK_ID is past slice $n/$n: $usage" >&2
    exit 2
fi
echo "== slice $k/$n, attempt $((${SLURM_RESTART_COUNT:-0} + 1)), job" \
    "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID} on $(hostname) at $(date -u +%FT%TZ)"
exec "${BOXES_HARNESS:-boxes-harness}" mark --spec "$spec" "$subs" \
    --jobs "${SLURM_CPUS_PER_TASK:-1}" --partition "$k/$n" --out "$slices/$k"
