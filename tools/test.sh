#!/usr/bin/env bash
# Sets everything up (tools/setup.sh) and runs every test: ctest in build/, then the host
# tests again under ASan + UBSan (tools/sanitize.sh, build-asan/) and a brief fuzz run of
# every fuzz target (tools/fuzz.sh 20: 20 s each, build-fuzz/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
(cd "${MOTE_BUILD_DIR:-build}" && ctest --output-on-failure -j"$(nproc)" --timeout 900)
bash tools/sanitize.sh
MOTE_FUZZ_SEED=1 bash tools/fuzz.sh 20
