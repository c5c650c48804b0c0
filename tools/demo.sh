#!/usr/bin/env bash
# The main job on a bundled model: sets everything up, compiles MobileNetV2 (width 0.05,
# 1x3x96x96, float32) from ../shared/models, runs it on the host and on an emulated
# Cortex-M4 (QEMU mps2-an386), and prints outputs, memory and the per-op tables.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
mote=${MOTE_BUILD_DIR:-build}/bin/mote
models=${MOTE_SHARED_DIR:-../shared}/models/onnx
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== mote compile"
"$mote" compile "$models/mobilenet_v2_w005_96.onnx" -o "$work/mobilenet.mote" --target cortex-m4
echo
echo "== mote run (host)"
"$mote" run "$work/mobilenet.mote" --input "$models/mobilenet_v2_w005_96.s0.in0.npy" \
  --output-dir "$work/host"
echo
echo "== mote run --device qemu-cortex-m4"
"$mote" run "$work/mobilenet.mote" --input "$models/mobilenet_v2_w005_96.s0.in0.npy" \
  --output-dir "$work/m4" --device qemu-cortex-m4
echo
echo "== outputs against the PyTorch golden output"
/usr/bin/python3 - "$models/mobilenet_v2_w005_96.s0.out0.npy" "$work/host/out0.npy" "$work/m4/out0.npy" <<'PY'
import sys, numpy as np
golden = np.load(sys.argv[1])
for name, path in (("host", sys.argv[2]), ("qemu-cortex-m4", sys.argv[3])):
    out = np.load(path)
    err = np.max(np.abs(out - golden))
    print(f"{name:15s} argmax {int(out.argmax())} (golden {int(golden.argmax())}), max abs error {err:.2e}")
PY
