#!/usr/bin/env bash
# Installs ClusterDesk's build and test dependencies from Debian 12's packages.
# Idempotent: packages already present are left alone and apt is not touched.
#   install-deps.sh [--no-gui]   --no-gui skips Qt and QCustomPlot (engine-only build)
set -euo pipefail

packages=(
  build-essential cmake ninja-build git  # git: the commit recorded with every run (cmake/Version.cmake)
  libsqlite3-dev sqlite3 zlib1g-dev libopenblas-dev nlohmann-json3-dev libssl-dev
  libhdf5-dev                      # the hdf5 data source (optional: skipped when missing)
  libfast-float-dev                # CSV numbers (optional: std::from_chars otherwise)
  doctest-dev                      # the engine and kernel test suites
  libopenmpi-dev openmpi-bin
  python3 python3-numpy python3-sklearn
  stress-ng                        # scripts/test-under-load.sh
  poppler-utils                    # the report tests read the PDF back (pdftotext, pdftoppm)
  openssl                          # test_feed makes a TLS certificate for wss://
  clang libclang-rt-14-dev libomp-14-dev  # scripts/fuzz.sh (libFuzzer)
)
if [[ "${1:-}" != "--no-gui" ]]; then
  packages+=(qt6-base-dev libqcustomplot-dev libqcustomplot2.1-qt6 qt6-svg-dev
             qt6-websockets-dev  # live feeds (app/feed, app/live)
             fonts-wqy-microhei  # Chinese, Japanese and Korean names in the window and PDF reports
             libgl-dev)  # libgl-dev: Qt6Gui's CMake package looks for OpenGL
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
