#!/usr/bin/env bash
# Fuzzes every input parser for a fixed time under AddressSanitizer and
# UndefinedBehaviorSanitizer (libFuzzer, clang from Debian), in build-fuzz/: the CTest
# label `fuzz` (tests/fuzz/CMakeLists.txt). A finding is written to
# build-fuzz/tests/fuzz/findings/; keep it in tests/fuzz/regressions/TARGET/ once fixed.
#   fuzz.sh [SECONDS PER TARGET]   (default 30)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh" --no-gui
seconds="${1:-30}"
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer"  # UBSan recoverable: see sanitize.sh
# Qt-free, CPU-only: the parsers are all in the engine.
cmake -S "$root" -B "$root/build-fuzz" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DCLUSTERDESK_WITH_QT=OFF -DCLUSTERDESK_WITH_CUDA=OFF -DCLUSTERDESK_WITH_MPI=OFF \
  -DCLUSTERDESK_FUZZ=ON -DCLUSTERDESK_FUZZ_SECONDS="$seconds" >/dev/null
cmake --build "$root/build-fuzz" --parallel "$(nproc)" --target fuzzers
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$root/tests/sanitizers/ubsan.supp"
cd "$root/build-fuzz"
ctest --output-on-failure -L fuzz
