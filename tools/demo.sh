#!/usr/bin/env bash
# The main job on a bundled model: sets everything up, compiles MobileNetV2 (width 0.05,
# 1x3x96x96, float32) from ../shared/models, runs it on the host and on an emulated
# Cortex-M4 (QEMU mps2-an386), and prints the outputs, the memory report and one per-op
# table: kernel, time on the host, instructions executed on the emulated core.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
mote=${MOTE_BUILD_DIR:-build}/bin/mote
models=${MOTE_SHARED_DIR:-../shared}/models/onnx
model=mobilenet_v2_w005_96
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== mote compile $model.onnx --target cortex-m4"
"$mote" compile "$models/$model.onnx" -o "$work/$model.mote" --target cortex-m4
echo
echo "== mote run: host and qemu-cortex-m4"
"$mote" run "$work/$model.mote" --input "$models/$model.s0.in0.npy" --output-dir "$work/host" --json >"$work/host.json"
"$mote" run "$work/$model.mote" --input "$models/$model.s0.in0.npy" --output-dir "$work/m4" \
  --device qemu-cortex-m4 --json >"$work/m4.json"

/usr/bin/python3 - "$work" "$models/$model.s0.out0.npy" <<'PY'
import json, sys
import numpy as np
work, golden_path = sys.argv[1], sys.argv[2]
host, m4 = (json.load(open(f"{work}/{name}.json")) for name in ("host", "m4"))
golden = np.load(golden_path)
for name, report in (("host", host), ("qemu-cortex-m4", m4)):
    for out in report["outputs"]:
        y = np.load(out["path"])
        top = np.argsort(y.ravel())[::-1][:5]
        print(f"output {out['index']} on {name:15s} {out['dtype']} {out['shape']}: top-5 classes {top.tolist()}, "
              f"max |error| vs PyTorch {np.max(np.abs(y - golden)):.2e}")
print()
print(f"arena    {host['arena_bytes']:>12,d} bytes  (schedule lower bound {host['arena_lower_bound_bytes']:,d})")
print(f"weights  {host['weights_bytes']:>12,d} bytes  (program {host['program_bytes']:,d} bytes)")
print(f"MACs     {host['macs']:>12,d}")
print()
print(f"{'op':>4s}  {'name':30s} {'kernel':22s} {'host us':>9s} {'M4 instructions':>16s} {'share':>6s}")
total = m4["instructions"]
for h, d in zip(host["ops"], m4["ops"]):
    name = h["name"] if len(h["name"]) <= 30 else "..." + h["name"][-27:]
    print(f"{h['index']:>4d}  {name:30s} {h['kernel']:22s} {h['seconds'] * 1e6:>9.1f} {d['instructions']:>16,d} "
          f"{100.0 * d['instructions'] / total:>5.1f}%")
print(f"{'':4s}  {'total':30s} {'':22s} {host['seconds'] * 1e6:>9.1f} {total:>16,d}")
PY
