#!/usr/bin/env bash
# Copies the header-only dependencies (nlohmann-json, doctest) from this machine's
# /usr/include into .carried-headers/ (git-ignored), for a machine that has none: the
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
echo "$out"
