#!/usr/bin/env bash
# Runs every libFuzzer target (fuzz/: clang, ASan + UBSan) for N seconds (default 60),
# after preparing their seed corpora from ../shared/models, tests/compiler/testdata and
# tests/models/pytorch (fuzz_npu_payload: the payloads of the Vela files in
# ../shared/models/ethos-u, make_npu_payload_seeds).
# The targets come from the sanitizer build, build-asan/ (tools/sanitize.sh build; run
# here first if the targets are missing). Exits non-zero if the seed generator fails or
# any target finds a crash, a leak, a timeout or a sanitizer report; the reproducer is
# left in build-asan/fuzz-artifacts/.
#   bash tools/fuzz.sh          # 60 s per target
#   bash tools/fuzz.sh 600      # a long session
# Corpora grow across runs in build-asan/fuzz-corpus/<target>/ (seeds are re-copied each
# time). The targets run side by side, one per core.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shared=${MOTE_SHARED_DIR:-../shared}
models=$shared/models
build=${MOTE_ASAN_BUILD_DIR:-build-asan}

if [ ! -x "$build/bin/fuzz_program" ] || [ ! -x "$build/bin/make_program_seeds" ] ||
   [ ! -x "$build/bin/fuzz_npu_payload" ] || [ ! -x "$build/bin/make_npu_payload_seeds" ]; then
  bash tools/sanitize.sh build
fi

corpus=$build/fuzz-corpus
artifacts=$build/fuzz-artifacts
mkdir -p "$corpus"/{program,npy,onnx,tflite,npu_payload} "$artifacts"

# Seeds: small files only (a multi-megabyte input mostly fuzzes a checksum or a protobuf
# length field, and slows every execution).
copy_small() {  # dest max_bytes files...
  local dest=$1 max=$2; shift 2
  for f in "$@"; do
    [ -f "$f" ] && [ "$(stat -c %s "$f")" -le "$max" ] && cp -f "$f" "$dest/" || true
  done
}
shopt -s nullglob globstar
onnx_models=("$models"/onnx/*.onnx tests/compiler/testdata/onnx/*.onnx tests/models/pytorch/*.onnx)
# Every .tflite under models/ (tflite/, the real-world files, the Vela-compiled ones).
tflite_models=("$models"/**/*.tflite)
copy_small "$corpus/npy" 65536 "$models"/**/*.npy tests/compiler/testdata/**/*.npy tests/models/pytorch/*.npy
copy_small "$corpus/onnx" 300000 "${onnx_models[@]}"
copy_small "$corpus/tflite" 120000 "${tflite_models[@]}"
# The one-operator models of the per-op tests (tests/ops/: every operator, dtype and
# option the importer takes), written by op_tests into the corpus as it builds them.
if ! MOTE_OP_MODEL_DIR="$corpus/tflite" "$build/bin/op_tests" >"$build/op_test_seeds.log" 2>&1; then
  echo "fuzz: op_tests failed while writing seeds (log: $build/op_test_seeds.log)"
  exit 1
fi
# Reproducers of fixed crashes (fuzz/crashes/, by extension) stay in the corpora, so
# every run replays them first.
copy_small "$corpus/onnx" 300000 fuzz/crashes/*.onnx
copy_small "$corpus/tflite" 120000 fuzz/crashes/*.tflite
copy_small "$corpus/npy" 65536 fuzz/crashes/*.npy
copy_small "$corpus/program" 400000 fuzz/crashes/*.mote
copy_small "$corpus/npu_payload" 200000 fuzz/crashes/*.npu
# Programs compiled from every model under 400 kB that the compiler accepts (not
# mobilenet: its 5 MB program would mostly fuzz the CRC).
# The per-op models of IF and WHILE add programs with jump and branch ops (a loop on the
# data may never end on the harness's inputs: fuzz_program runs with a loop limit).
small_models=()
for f in "${onnx_models[@]}" "${tflite_models[@]}" "$corpus"/tflite/op_if_*.tflite "$corpus"/tflite/op_while_*.tflite; do
  [ "$(stat -c %s "$f")" -le 400000 ] && small_models+=("$f")
done
# A model the compiler refuses is skipped (a "  skip" line); the tool failing is an error.
seeds_log=$build/make_program_seeds.log
if ! "$build/bin/make_program_seeds" "$corpus/program" 400000 "${small_models[@]}" >"$seeds_log" 2>&1; then
  echo "fuzz: make_program_seeds failed (log: $seeds_log):"
  tail -n 20 "$seeds_log" | sed 's/^/  /'
  exit 1
fi
grep -v "^  skip" "$seeds_log" || true
# Each NPU op's payload of the Vela files under 200 kB (kws, espcn), over its real
# regions with its constants (a seed holds its op's whole constant buffer: the larger
# files' seeds would be 0.3-1.3 MB).
vela_models=()
for f in "$models"/ethos-u/*_vela*.tflite; do
  [ "$(stat -c %s "$f")" -le 200000 ] && vela_models+=("$f")
done
npu_seeds_log=$build/make_npu_payload_seeds.log
if ! "$build/bin/make_npu_payload_seeds" "$corpus/npu_payload" 200000 "${vela_models[@]}" >"$npu_seeds_log" 2>&1; then
  echo "fuzz: make_npu_payload_seeds failed (log: $npu_seeds_log):"
  tail -n 20 "$npu_seeds_log" | sed 's/^/  /'
  exit 1
fi
grep -v "^  skip" "$npu_seeds_log" || true

targets=(program npy onnx tflite npu_payload)
# MOTE_FUZZ_SKIP="onnx ..." leaves targets out (CI skips one with a known, reported crash);
# MOTE_FUZZ_SEED fixes libFuzzer's seed so a short CI run is repeatable.
for skip in ${MOTE_FUZZ_SKIP:-}; do
  targets=("${targets[@]/$skip}")
done
seed_flag=()
[ -n "${MOTE_FUZZ_SEED:-}" ] && seed_flag=(-seed="$MOTE_FUZZ_SEED")
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One libFuzzer run per target, as many at a time as there are cores (each gets the
# full N seconds of one core); each writes its log and exit status.
# fuzz_npu_payload mutates the first 8 KiB of each seed (the payload and the start of
# the constants): whole kws seeds (156 KB) ran 12 inputs a second, 8 KiB ones 150-200.
fuzz_one() {  # target
  local t=$1 status=0 extra=()
  [ "$t" = npu_payload ] && extra=(-max_len=8192)
  "$build/bin/fuzz_$t" "$corpus/$t" -max_total_time="$seconds" "${seed_flag[@]}" "${extra[@]}" -rss_limit_mb=2048 \
    -malloc_limit_mb=1024 -timeout=30 -print_final_stats=1 \
    -artifact_prefix="$artifacts/fuzz_$t-" >"$build/fuzz_$t.log" 2>&1 || status=$?
  echo "$status" >"$build/fuzz_$t.status"
}
jobs=$(nproc)
running=0
run=()
for t in "${targets[@]}"; do
  [ -n "$t" ] || continue
  if ((running == jobs)); then
    wait -n
    running=$((running - 1))
  fi
  echo "fuzz_$t: ${seconds}s, $(ls "$corpus/$t" | wc -l) corpus files"
  rm -f "$build/fuzz_$t.status"
  fuzz_one "$t" &
  running=$((running + 1))
  run+=("$t")
done
wait
failed=()
for t in "${run[@]}"; do
  log=$build/fuzz_$t.log
  echo "fuzz_$t:"
  if [ "$(cat "$build/fuzz_$t.status" 2>/dev/null)" = 0 ]; then
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
echo "fuzz: no crash in ${run[*]} (${seconds}s each)"
