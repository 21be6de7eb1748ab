#!/usr/bin/env bash
# The one command a machine with a GPU runs (it needs only CMake, a compiler and the
# CUDA toolkit): a Qt-free build with the CUDA backend, the engine and kernel suites
# (the CUDA ones included), then clusterdesk-worker --selftest and --bench. One
# PASS/FAIL/SKIP line per check, with the reason, then a summary; exit status 1 if any
# check failed. Without a GPU the GPU checks are SKIPPED, saying why, and the rest must
# pass (CI runs it that way after scripts/test.sh).
#   gpu-check.sh [BUILD_DIR]     default: build-gpu-check/ in the repository
# GPU_ONLY=1 leaves out the host suites (CI runs them; a lent GPU's minutes are few).
# Header-only dependencies missing from the system are taken from .carried-headers/
# (scripts/carry-headers.sh fills it on a machine that has them).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build-gpu-check}"
log="$build/gpu-check-logs"
mkdir -p "$log"
failed=0 passed=0 skipped=0

report() {  # report PASS|FAIL|SKIP NAME REASON
  printf '%-4s  %-22s %s\n' "$1" "$2" "$3"
  case "$1" in
    PASS) passed=$((passed + 1)) ;;
    FAIL) failed=$((failed + 1)) ;;
    SKIP) skipped=$((skipped + 1)) ;;
  esac
}

summary() {
  echo "gpu-check: $passed passed, $failed failed, $skipped skipped (logs: $log)"
  exit $((failed > 0))
}

# What the machine says about its GPUs, before anything is built.
if ! command -v nvidia-smi >/dev/null; then
  gpu_reason="no CUDA device: nvidia-smi is not installed (no NVIDIA driver)"
elif gpus="$(nvidia-smi -L 2>&1)" && grep -q '^GPU ' <<<"$gpus"; then
  gpu_reason=""
  echo "gpu-check: $(grep -c '^GPU ' <<<"$gpus") GPU(s): $(head -n1 <<<"$gpus")"
else
  gpu_reason="no CUDA device: nvidia-smi -L said: $(head -n1 <<<"${gpus:-nothing}")"
fi
[[ -z "$gpu_reason" ]] || echo "gpu-check: $gpu_reason"

# NCCL: a machine whose only libnccl.so.2 is PyTorch's (pip's nvidia-nccl) gets it on
# the loader's path, so the selftest's NCCL checks run rather than skip.
if ! ldconfig -p 2>/dev/null | grep -q 'libnccl\.so\.2'; then
  nccl_dir="$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null)"
  if [[ -f "$nccl_dir/lib/libnccl.so.2" ]]; then
    export LD_LIBRARY_PATH="$nccl_dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "gpu-check: NCCL from $nccl_dir/lib"
  fi
fi

cmake_args=(-S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLUSTERDESK_WITH_QT=OFF
            -DCLUSTERDESK_WITH_CUDA=ON -DCLUSTERDESK_TEST_HOOKS=ON)
if [[ -d "$root/.carried-headers" ]]; then
  cmake_args+=(-DCLUSTERDESK_CARRIED_HEADERS="$root/.carried-headers")
fi
if cmake "${cmake_args[@]}" >"$log/configure.txt" 2>&1; then
  report PASS configure "$(grep -o 'ClusterDesk .*' "$log/configure.txt" | tail -n1)"
else
  report FAIL configure "$(grep -m1 -A3 'CMake Error' "$log/configure.txt" | tr -s ' \n' ' ')(see $log/configure.txt)"
  summary
fi

# Everything a Qt-free configuration holds: kernels, the CUDA plug-in, engine, worker,
# clusterdesk-cli (when the run store is built) and the doctest suites.
if cmake --build "$build" --parallel "$(nproc)" >"$log/build.txt" 2>&1; then
  report PASS build "$(ls "$build/bin" | tr '\n' ' ')"
else
  report FAIL build "$(grep -m1 -E 'error|Error' "$log/build.txt") (see $log/build.txt)"
  summary
fi
if [[ -f "$build/bin/libclusterdesk_cuda.so" ]]; then
  report PASS cuda-plugin "bin/libclusterdesk_cuda.so built"
else
  why="not built: nvcc not found at /usr/local/cuda/bin/nvcc nor on PATH (see $log/configure.txt)"
  if [[ -z "$gpu_reason" ]]; then report FAIL cuda-plugin "$why"; else report SKIP cuda-plugin "$gpu_reason; $why"; fi
fi

# CTest's verdict per suite; the doctest suites print "SKIPPED: reason" for what they skip.
run_ctest() {  # run_ctest NAME CTEST_ARGS...
  local name="$1"
  shift
  # -V: every suite's output goes to the log, so the skip reasons can be listed below.
  if (cd "$build" && ctest -V --timeout 600 "$@") >"$log/$name.txt" 2>&1; then
    report PASS "$name" "$(grep -E '^[0-9]+% tests passed' "$log/$name.txt")"
  else
    report FAIL "$name" "$(grep -E '^[0-9]+% tests passed|\(Failed\)|\(Timeout\)|\*\*\*' "$log/$name.txt" | tr '\n' ' ')(see $log/$name.txt)"
  fi
  local skips
  skips="$(grep -h -o 'SKIPPED: .*' "$log/$name.txt" | sort | uniq -c | head -n 8)"
  [[ -z "$skips" ]] || sed 's/^/        skipped inside: /' <<<"$skips"
}
# worker_selftest is left to the selftest check below, which runs it on every core.
if [[ "${GPU_ONLY:-0}" == 1 ]]; then
  report SKIP ctest-host "GPU_ONLY=1: the host suites run in CI"
else
  run_ctest ctest-host -LE 'gpu|bench' -E '^worker_selftest$'
fi
if [[ -z "$gpu_reason" ]]; then
  run_ctest ctest-gpu -L gpu
else
  report SKIP ctest-gpu "$gpu_reason"
fi

# The worker's selftest checks the host backend everywhere and every kernel on each
# CUDA device against it; without a GPU it prints SKIP for CUDA and still must pass.
worker="$build/bin/clusterdesk-worker"
if OMP_NUM_THREADS="$(nproc)" timeout 300 "$worker" --selftest >"$log/selftest.txt" 2>&1; then
  if [[ -n "$gpu_reason" ]]; then
    report PASS selftest-host "$(grep -c '^PASS' "$log/selftest.txt") checks passed on the host"
    report SKIP selftest-cuda "$gpu_reason ($(grep -m1 '^SKIP' "$log/selftest.txt"))"
  else
    report PASS selftest "$(grep -c '^PASS' "$log/selftest.txt") checks passed, host and CUDA"
  fi
else
  report FAIL selftest "$(grep -m3 -E '^FAIL|error' "$log/selftest.txt" | tr '\n' ' ')(see $log/selftest.txt)"
fi

# The benchmark times every kernel; on a machine without a GPU there is nothing to
# compare the host with, and on CI's two cores it would only take time.
if [[ -n "$gpu_reason" ]]; then
  report SKIP bench "$gpu_reason"
elif timeout 300 "$worker" --bench >"$log/bench.txt" 2>&1 && grep -q '^cuda:0 ' "$log/bench.txt"; then
  report PASS bench "$(grep -m1 '^cuda:0 *assign.exact' "$log/bench.txt" | tr -s ' ')"
  cat "$log/bench.txt"
else
  report FAIL bench "no cuda:0 timings (see $log/bench.txt)"
fi
summary
