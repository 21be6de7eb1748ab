#!/usr/bin/env bash
# The GPU measurements kept in docs/gpu.md, after scripts/gpu-check.sh has built
# BUILD_DIR: the driver, assignment throughput at n = 10M, d = 128 for k = 64, 1024
# and 8192 against the datasheet peaks (clusterdesk-worker --bench), then a Lloyd
# iteration against PyTorch k-means and FAISS's published shape
# (tests/bench/gpu_lloyd_torch.py, with the machine's python3 that holds PyTorch).
# Each part's output also goes to OUT_DIR.
#   gpu-measure.sh BUILD_DIR OUT_DIR
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:?usage: gpu-measure.sh BUILD_DIR OUT_DIR}"
out="${2:?usage: gpu-measure.sh BUILD_DIR OUT_DIR}"
worker="$build/bin/clusterdesk-worker"
mkdir -p "$out"
status=0

{ date -u '+%Y-%m-%d %H:%M UTC'; git -C "$root" rev-parse HEAD 2>/dev/null || echo "commit: unknown";
  nvidia-smi --query-gpu=name,driver_version,memory.total,power.limit,clocks.max.sm --format=csv; } 2>&1 | tee "$out/machine.txt"

for k in 64 1024 8192; do
  # Two timed repeats: at k = 8192 one exact assignment is 31 TFLOP.
  timeout 240 "$worker" --bench --backend cuda:0 --rows 10000000 --cols 128 --k "$k" --repeats 2 2>&1 |
    tee "$out/bench-k$k.txt" || status=1
done

PYTHONUNBUFFERED=1 timeout 600 python3 "$root/tests/bench/gpu_lloyd_torch.py" --bin "$build/bin" 2>&1 |
  tee "$out/lloyd-vs-torch.txt" || status=1
exit $status
