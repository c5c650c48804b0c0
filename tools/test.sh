#!/usr/bin/env bash
# Sets everything up and runs every test; this is what CI runs (.ci/run). Stages:
#   setup            the Debian packages (tools/setup.sh packages)
#   build            the Release build in build/ with the firmwares (tools/setup.sh build)
#   ctest            every test in build/ (labels unit, models, qemu, firmware)
#   sanitizer build  the host code with clang, ASan + UBSan and the fuzz targets in
#                    build-asan/ (tools/sanitize.sh build)
#   sanitizer tests  the host tests again there (ctest -L "unit|models" but the Release-only
#                    sweeps tools/sanitize.sh names; tools/sanitize.sh test)
#   fuzz             every fuzz target for 15 s (tools/fuzz.sh 15, the same build; longer
#                    runs by hand: tools/fuzz.sh 600)
# At the end, also when a stage fails, it prints the seconds each stage took (wall clock,
# and the CPU seconds of its processes) and the total.
# CI=true unless CI is set: then a test whose tool or model file is missing fails the
# configure step instead of vanishing (cmake/mote_skip.cmake).
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=${CI:-true}
jobs=$(nproc)

names=()
walls=()
cpus=()
running=""

# cpu_now: CPU seconds (user + system) of every finished child process so far, from
# `times` (run in this shell: in a subshell it would see no children).
times_file=$(mktemp)
cpu_now=0
children_cpu() {
  times >"$times_file"
  cpu_now=$(awk 'END { total = 0
    for (i = 1; i <= 2; ++i) { split($i, t, "m"); total += t[1] * 60 + t[2] }
    printf "%.1f", total }' "$times_file")
}

report() {
  local status=$?
  rm -f "$times_file"
  echo
  printf '%-18s %8s %8s\n' stage "wall s" "cpu s"
  local total=0 i
  for i in "${!names[@]}"; do
    printf '%-18s %8d %8s\n' "${names[$i]}" "${walls[$i]}" "${cpus[$i]}"
    total=$((total + walls[i]))
  done
  [ -z "$running" ] || printf '%-18s %8s\n' "$running" "FAILED"
  printf '%-18s %8d   (%d cores, load average now %s)\n' total "$total" "$jobs" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
  exit "$status"
}
trap report EXIT

# stage NAME COMMAND...: runs the command, recording its wall and CPU seconds.
stage() {
  running=$1
  shift
  echo "== $running"
  local start=$SECONDS cpu_start
  children_cpu
  cpu_start=$cpu_now
  "$@"
  children_cpu
  names+=("$running")
  walls+=($((SECONDS - start)))
  cpus+=("$(awk -v a="$cpu_now" -v b="$cpu_start" 'BEGIN { printf "%.0f", a - b }')")
  running=""
}

stage setup bash tools/setup.sh packages
stage build bash tools/setup.sh build
stage ctest bash -c "cd '${MOTE_BUILD_DIR:-build}' && ctest --output-on-failure -j$jobs"
stage "sanitizer build" bash tools/sanitize.sh build
stage "sanitizer tests" bash tools/sanitize.sh test
stage fuzz env MOTE_FUZZ_SEED=1 bash tools/fuzz.sh 15
