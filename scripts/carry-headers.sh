#!/usr/bin/env bash
# Copies the header-only dependencies (nlohmann-json, doctest, and NCCL's header) from
# this machine into .carried-headers/ (git-ignored), for a machine that has none: the
# device tool carries the folder along, and scripts/gpu-check.sh (or
# -DCLUSTERDESK_CARRIED_HEADERS=<folder>) builds with it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/.carried-headers"
for header in nlohmann/json.hpp doctest/doctest.h; do
  if [[ ! -f "/usr/include/$header" ]]; then
    echo "carry-headers: /usr/include/$header is missing (scripts/install-deps.sh installs it)" >&2
    exit 1
  fi
done
rm -rf "$out"
mkdir -p "$out"
cp -r /usr/include/nlohmann /usr/include/doctest "$out/"
# nccl.h from the CUDA toolkit, for a machine whose toolkit has none (the plug-in needs
# only its types: NCCL's functions are looked up by name in whichever libnccl.so.2 is there).
if [[ -f /usr/local/cuda/include/nccl.h ]]; then
  mkdir -p "$out/nccl"
  cp /usr/local/cuda/include/nccl.h "$out/nccl/"
fi
echo "$out"
