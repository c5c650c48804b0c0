#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang, ASan + UBSan) into build-fuzz/, prepares
# their seed corpora from ../shared/models and tests/compiler/testdata, and runs each
# target for N seconds (default 60). Exits non-zero if any target finds a crash, a leak,
# a timeout or a sanitizer report; the reproducer is left in build-fuzz/artifacts/.
#   bash tools/fuzz.sh          # 60 s per target
#   bash tools/fuzz.sh 600      # a long session
# Corpora grow across runs in build-fuzz/corpus/<target>/ (seeds are re-copied each time).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shared=${MOTE_SHARED_DIR:-../shared}
models=$shared/models
build=${MOTE_FUZZ_BUILD_DIR:-build-fuzz}

# clang with libFuzzer and the sanitizer runtimes (Debian 12: clang 14).
missing=()
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "fuzz: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S fuzz -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" -j"$(nproc)" >/dev/null

corpus=$build/corpus
artifacts=$build/artifacts
mkdir -p "$corpus"/{program,npy,onnx,tflite} "$artifacts"

# Seeds: small files only (a multi-megabyte input mostly fuzzes a checksum or a protobuf
# length field, and slows every execution).
copy_small() {  # dest max_bytes files...
  local dest=$1 max=$2; shift 2
  for f in "$@"; do
    [ -f "$f" ] && [ "$(stat -c %s "$f")" -le "$max" ] && cp -f "$f" "$dest/" || true
  done
}
shopt -s nullglob globstar
onnx_models=("$models"/onnx/*.onnx tests/compiler/testdata/onnx/*.onnx)
tflite_models=("$models"/tflite/**/*.tflite)
copy_small "$corpus/npy" 65536 "$models"/**/*.npy tests/compiler/testdata/**/*.npy
copy_small "$corpus/onnx" 300000 "${onnx_models[@]}"
copy_small "$corpus/tflite" 120000 "${tflite_models[@]}"
# Reproducers of fixed crashes (fuzz/crashes/, by extension) stay in the corpora, so
# every run replays them first.
copy_small "$corpus/onnx" 300000 fuzz/crashes/*.onnx
copy_small "$corpus/tflite" 120000 fuzz/crashes/*.tflite
copy_small "$corpus/npy" 65536 fuzz/crashes/*.npy
copy_small "$corpus/program" 400000 fuzz/crashes/*.mote
# Programs compiled from every model under 400 kB that the compiler accepts (not
# mobilenet: its 5 MB program would mostly fuzz the CRC).
small_models=()
for f in "${onnx_models[@]}" "${tflite_models[@]}"; do
  [ "$(stat -c %s "$f")" -le 400000 ] && small_models+=("$f")
done
"$build/bin/make_program_seeds" "$corpus/program" 400000 "${small_models[@]}" | grep -v "^  skip" || true

targets=(program npy onnx)
[ -x "$build/bin/fuzz_tflite" ] && targets+=(tflite)
# MOTE_FUZZ_SKIP="onnx ..." leaves targets out (CI skips one with a known, reported crash);
# MOTE_FUZZ_SEED fixes libFuzzer's seed so a short CI run is repeatable.
for skip in ${MOTE_FUZZ_SKIP:-}; do
  targets=("${targets[@]/$skip}")
done
seed_flag=()
[ -n "${MOTE_FUZZ_SEED:-}" ] && seed_flag=(-seed="$MOTE_FUZZ_SEED")
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
for t in "${targets[@]}"; do
  [ -n "$t" ] || continue
  echo "fuzz_$t: ${seconds}s, $(ls "$corpus/$t" | wc -l) corpus files"
  log=$build/fuzz_$t.log
  if "$build/bin/fuzz_$t" "$corpus/$t" -max_total_time="$seconds" "${seed_flag[@]}" -rss_limit_mb=2048 \
       -malloc_limit_mb=1024 -timeout=30 -print_final_stats=1 \
       -artifact_prefix="$artifacts/fuzz_$t-" >"$log" 2>&1; then
    grep -E "^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb)" "$log" | sed 's/^/  /'
  else
    failed+=("fuzz_$t")
    echo "  FAILED (log: $log):"
    grep -E "ERROR|runtime error|SUMMARY|Test unit written|deadly signal" "$log" | head -20 | sed 's/^/  /'
  fi
done
if ((${#failed[@]})); then
  echo "fuzz: crashes in ${failed[*]}; reproduce with $build/bin/<target> <artifact>"
  exit 1
fi
echo "fuzz: no crash in ${targets[*]} (${seconds}s each)"
