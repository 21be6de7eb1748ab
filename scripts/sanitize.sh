#!/usr/bin/env bash
# The whole test suite in an AddressSanitizer + UndefinedBehaviorSanitizer build
# (build-asan/): any memory error, leak-free exit aside, or undefined behaviour in the
# engine, the CLI, the worker, the window or the tests fails the run.
#   sanitize.sh [CTEST ARGS...]   e.g. sanitize.sh -R test_run_store
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
flags="-fsanitize=address,undefined -fno-omit-frame-pointer"
# UBSan's checks stay recoverable so that tests/sanitizers/ubsan.supp can name a false
# positive; halt_on_error below still stops at every other report.
# -O1 -g1 rather than RelWithDebInfo's -O2 -g: with both sanitizers a translation unit
# compiles in a third of the time (55 s to 20 s for engine/exec/pool_job.cpp), which keeps
# CI within its 90 minutes, and line tables are all a sanitizer's stack trace needs.
# The CUDA plug-in is left out: nvcc does not take these flags for device code, and
# no GPU runs it here (its tests report themselves skipped either way).
cmake -S "$root" -B "$root/build-asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLUSTERDESK_TEST_HOOKS=ON \
  -DCLUSTERDESK_WITH_CUDA=OFF -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$root/build-asan" --parallel "$(nproc)"
supp="$root/tests/sanitizers"
# Children (clusterdesk-cli, mpirun's ranks) inherit these. Leaks are not checked:
# OpenMPI and Qt keep process-lifetime allocations that LeakSanitizer reports at exit.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"
cd "$root/build-asan"
ctest --output-on-failure --timeout 1800 --parallel "$(nproc)" -LE 'bench|fuzz' "$@"
