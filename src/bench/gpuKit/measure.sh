#!/usr/bin/env bash
# Issue 46's measurement on one GPU, in one go and within a time limit: for paper@512, tiny and small, the
# app's replayed WebGPU step in f16 (where the GPU has shader-f16) and in float32, against PyTorch eager
# float32, AMP and AMP + CUDA graphs (python/eorm/bench_modes.py) on the same GPU and data: training tokens/s,
# peak GPU memory, the f16 run's validation after epoch 1 against the float32 run's, then one table with
# the targets and their verdicts. The numerics (fixtures, the f16 kernels and steps) are checked first.
# Needs the GPU kit (npm run gpu-kit) and, for PyTorch, a python3 whose torch sees the GPU.
#   bash src/bench/gpuKit/measure.sh                    (8 minutes at most)
#   bash src/bench/gpuKit/measure.sh --timeout 300 --seconds 5 --slice 200 --presets paper@512,tiny
# Each preset is one run of run.sh (its report in bench/results/issue46-PRESET.json), started only while
# at least 90 s are left; a preset cut short by the limit is named, and the table shows what finished.
set -euo pipefail
cd "$(dirname "$0")/../../.."
timeout_s=480 seconds=8 slice=200 presets=paper@512,tiny,small
while [ $# -gt 0 ]; do
  case $1 in
    --timeout) timeout_s=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --slice) slice=$2; shift 2 ;;
    --presets) presets=$2; shift 2 ;;
    *) echo "measure.sh: unknown option $1 (--timeout S, --seconds S, --slice N, --presets a,b)" >&2; exit 2 ;;
  esac
done
deadline=$(( $(date +%s) + timeout_s ))
mkdir -p bench/results
reports=() parity=() cut=()
for preset in ${presets//,/ }; do
  left=$(( deadline - $(date +%s) - 15 )) # 15 s kept for the table
  if [ "$left" -lt 90 ]; then cut+=("$preset (not started: ${left}s left)"); continue; fi
  out=bench/results/issue46-${preset//@/-}.json
  rm -f "$out"
  echo "measure: $preset, at most ${left}s"
  # The numerics once, with the first preset: the fixtures on float32, the f16 kernels and steps against float32.
  if timeout --signal=INT --kill-after=10 "$left" bash src/bench/gpuKit/run.sh --presets "$preset" --precision both --replay on \
    --seconds "$seconds" --slice "$slice" --checkpoint-every 0 --out "$out" "${parity[@]}"; then :; else
    rc=$?
    # 1: the figures are there but a numeric check failed (printed above); else the run did not finish.
    if [ $rc -ne 1 ]; then cut+=("$preset (exit $rc$( [ $rc -eq 124 ] && echo ', the time limit'))"); fi
  fi
  [ -f "$out" ] && reports+=("$out")
  parity=(--no-parity)
done
if [ ${#reports[@]} -gt 0 ]; then
  node_bin=${TMPDIR:-/tmp}/eorm-gpukit/bin/node
  "$node_bin" .gpukit/bench/gpu.bench.mjs --table "$(IFS=,; echo "${reports[*]}")"
fi
for c in "${cut[@]}"; do echo "measure: cut short: $c"; done
[ ${#reports[@]} -gt 0 ]
