#!/usr/bin/env bash
# Installs what Mote needs from Debian's packages (only what is missing) and builds it
# into build/ (Release). Safe to run repeatedly.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake
  libonnx-dev libprotobuf-dev protobuf-compiler libflatbuffers-dev flatbuffers-compiler
  libcli11-dev nlohmann-json3-dev libeigen3-dev libgtest-dev libgmock-dev libbenchmark-dev
  gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib
  qemu-system-arm
  python3 python3-numpy python3-onnx
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build_dir=${MOTE_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
