#!/usr/bin/env bash
# Builds every host target with AddressSanitizer + UndefinedBehaviorSanitizer into
# build-asan/ and runs the host tests (ctest labels unit and models). Any sanitizer
# report fails the test that triggered it (-fno-sanitize-recover=all, halt_on_error).
# The QEMU tests and firmware are left out: the firmware is not sanitized and the host
# side of those tests is already covered by the unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${MOTE_ASAN_BUILD_DIR:-build-asan}
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOTE_BUILD_FIRMWARE=OFF \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$build" -j"$(nproc)"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$build"
ctest -L "unit|models" --output-on-failure -j"$(nproc)" --timeout 1800
