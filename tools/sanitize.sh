#!/usr/bin/env bash
# All host tests under AddressSanitizer + UndefinedBehaviorSanitizer: builds every host
# target with clang (line tables only) into build-asan/, together with the libFuzzer
# targets of fuzz/ (tools/fuzz.sh runs them from this build), and runs the tests labelled
# unit and models. Any sanitizer report fails the test that triggered it
# (-fno-sanitize-recover=all, halt_on_error). The QEMU tests and firmware are left out:
# the firmware is not sanitized and the host side of those tests is covered by the unit
# tests.
# The libraries (runtime, kernels, compiler, CLI) build at -O2, the test files at -O1
# (tests/CMakeLists.txt): the tests spend their time in the mote processes they start,
# and at -O1 Eigen's and the STL's accessors stay calls, which made the quantizing
# compiles 1.5x slower (MobileNetV2 0.05 --quantize int8: 52 s at -O1, 35 s at -O2, 9 s
# in the Release build).
# The program-identity tests (SharedModels/ProgramIdentity.*) run in the Release build
# only: under the sanitizers they would repeat the compiles that
# SharedModels/ArenaAtLowerBound (every model on every target), the patching and the
# quantization tests already run here (310 CPU-s), and the bytes they check are the
# Release compiler's. So do the golden runs of networks over a billion MACs
# (TflmGoldenHuge/*: dncnn_color_blind_quant's 11 G MACs take minutes under ASan;
# EthosUModelAtu.ZeroDce*: zero_dce's 19 G MACs on the NPU model and the CPU kernels); the
# sanitized build compiles them in ArenaAtLowerBound and runs every smaller network.
# Also left to the Release build, as sweeps that repeat compiler paths the sanitized tests
# already take (seconds under ASan on a 2-core machine, of ~3,000 for unit + models):
#   PatchingModels/PatchedTflmModels.*  389 s: the --optimize memory patch search on vww and
#       ResNet-8 (Patching.* and PatchingModels.QuantizedMobileNet* patch under ASan);
#   OnnxModels/EmitTflite.*             140 s: quantize, write and reimport every ONNX model
#       (tflite_writer_tests and EmitTflite{Errors,FromTflite} run here);
#   Baselines/TfliteArena.*              92 s: the TFLM models TflmGolden compiles and runs.
# SharedModels/ArenaAtLowerBound compiles each model three times instead of eight here
# (MOTE_SANITIZED_BUILD, tests/models/model_test.cc).
#   bash tools/sanitize.sh          build, then test
#   bash tools/sanitize.sh build    only the build
#   bash tools/sanitize.sh test     only the tests
# MOTE_ASAN_BUILD_DIR picks another build folder; MOTE_FUZZ_COVERAGE sets the fuzzers'
# coverage instrumentation (-fsanitize-coverage=, see the root CMakeLists.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
build=${MOTE_ASAN_BUILD_DIR:-build-asan}

if [ "$what" = all ] || [ "$what" = build ]; then
  bash tools/install_packages.sh clang libclang-rt-14-dev
  cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
    -DMOTE_BUILD_FIRMWARE=OFF -DMOTE_BUILD_FUZZERS=ON \
    ${MOTE_FUZZ_COVERAGE:+-DMOTE_FUZZ_COVERAGE=$MOTE_FUZZ_COVERAGE} >/dev/null
  cmake --build "$build" -j"$(nproc)"
fi

if [ "$what" = all ] || [ "$what" = test ]; then
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  cd "$build"
  release_only="^SharedModels/ProgramIdentity\\.|^TflmGoldenHuge/|^EthosUModelAtu\\.ZeroDce"
  release_only+="|^PatchingModels/PatchedTflmModels\\.|^OnnxModels/EmitTflite\\.|^Baselines/TfliteArena\\."
  # The float MobileNetV2's quantization and planning (10-20 s each in release, 45-55 s
  # under ASan): the same quantizer and planner code runs here on the smaller models
  # (Exports/Pytorch.QuantizesWithTheSqnrItStates, CompileQuantized, ArenaAtLowerBound).
  release_only+="|^PatchingModels\\.QuantizedMobileNetHalvesItsArena|^QuantizedMobileNet\\.FitsAnRp2040ClassArena"
  release_only+="|^OnnxModels/QuantizedGolden\\..*mobilenet_v2|^SharedModels/ArenaAtLowerBound\\..*mobilenet_v2"
  # Scripts over the sources or the install, not over a sanitized binary.
  release_only+="|^kernel_mentions$|^compiler_rules$|^install_host_tool$"
  ctest -L "unit|models" -E "$release_only" --output-on-failure -j"$(nproc)"
fi
