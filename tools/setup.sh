#!/usr/bin/env bash
# Installs what Mote needs from Debian's packages (only what is missing) and builds it
# into build/ (Release, with the QEMU firmwares). Safe to run repeatedly.
#   bash tools/setup.sh            the packages, then the build
#   bash tools/setup.sh packages   only the packages
#   bash tools/setup.sh build      only the build
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}

packages=(
  build-essential cmake pkg-config
  libonnx-dev libprotobuf-dev protobuf-compiler libflatbuffers-dev flatbuffers-compiler
  libcli11-dev nlohmann-json3-dev libeigen3-dev libgtest-dev libgmock-dev libbenchmark-dev
  gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib
  qemu-system-arm
  python3 python3-numpy python3-onnx
  # the sanitizer build and the fuzz targets (tools/sanitize.sh, tools/fuzz.sh)
  clang libclang-rt-14-dev
)
if [ "$what" = all ] || [ "$what" = packages ]; then
  bash tools/install_packages.sh "${packages[@]}"
fi

if [ "$what" = all ] || [ "$what" = build ]; then
  build_dir=${MOTE_BUILD_DIR:-build}
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build_dir" -j"$(nproc)"
fi
