#!/usr/bin/env bash
# Sets everything up (tools/setup.sh) and runs every test: ctest in build/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
cd "${MOTE_BUILD_DIR:-build}"
ctest --output-on-failure -j"$(nproc)" --timeout 900
