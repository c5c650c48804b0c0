#!/usr/bin/env python3
"""Mote benchmark: memory, size and executed instructions per model, next to baselines.

Not a test: it prints figures. Instruction counts come from QEMU (-icount shift=0 with
SysTick), which are deterministic for a given build; host times are not reported here.

    python3 tools/benchmark.py [--build build] [--devices qemu-cortex-m4,qemu-cortex-m0plus]

For every ONNX model in ../shared/models/onnx: arena bytes and the schedule's lower bound
(ratio), weights bytes, MACs, and on each device the instructions per inference and per
MAC. Each ONNX model with calibration samples is measured a second time quantized
(`<model> int8`: --quantize int8). For .tflite models with a TensorFlow Lite Micro baseline in ../shared/models/BASELINES.md
the baseline arena and instruction counts are printed beside ours once Mote accepts them.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def mote(build, *args):
    result = subprocess.run([os.path.join(build, "bin", "mote"), *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(result.stderr.strip())
    return result.stdout


def baselines(shared):
    """model -> {arena_ref, arena_cmsis, instr_ref, instr_cmsis, macs} from BASELINES.md."""
    table = {}
    path = os.path.join(shared, "models", "BASELINES.md")
    if not os.path.exists(path):
        return table
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 7 or not re.match(r"^[A-Za-z_0-9]+$", cells[0]):
            continue
        num = lambda s: int(s.replace(",", "")) if re.match(r"^[\d,]+$", s) else None
        table[cells[0]] = {"macs": num(cells[1]), "arena_ref": num(cells[2]), "arena_cmsis": num(cells[3]),
                           "instr_ref": num(cells[4]), "instr_cmsis": num(cells[5])}
    return table


def models(shared):
    onnx_dir = os.path.join(shared, "models", "onnx")
    found = []
    for name in sorted(os.listdir(onnx_dir)):
        if name.endswith(".onnx"):
            stem = name[:-5]
            inputs = []
            while os.path.exists(os.path.join(onnx_dir, f"{stem}.s0.in{len(inputs)}.npy")):
                inputs.append(os.path.join(onnx_dir, f"{stem}.s0.in{len(inputs)}.npy"))
            found.append((stem, os.path.join(onnx_dir, name), inputs, []))
            # The same model through post-training quantization, when it has samples.
            calib = [os.path.join(onnx_dir, f"{stem}.calib.npy")]
            if not os.path.exists(calib[0]):
                calib = []
                while os.path.exists(os.path.join(onnx_dir, f"{stem}.calib.in{len(calib)}.npy")):
                    calib.append(os.path.join(onnx_dir, f"{stem}.calib.in{len(calib)}.npy"))
            if calib:
                args = ["--quantize", "int8"]
                for c in calib:
                    args += ["--calibration", c]
                found.append((stem + " int8", os.path.join(onnx_dir, name), inputs, args))
    tflite_dir = os.path.join(shared, "models", "tflite")
    for dirpath, _, files in os.walk(tflite_dir):
        for name in sorted(files):
            if name.endswith(".tflite"):
                stem = name[:-7]
                inputs = []
                while os.path.exists(os.path.join(dirpath, f"{stem}.s0.in{len(inputs)}.npy")):
                    inputs.append(os.path.join(dirpath, f"{stem}.s0.in{len(inputs)}.npy"))
                found.append((stem, os.path.join(dirpath, name), inputs, []))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--shared", default=os.environ.get("MOTE_SHARED_DIR", os.path.join(ROOT, "..", "shared")))
    parser.add_argument("--devices", default="qemu-cortex-m4,qemu-cortex-m0plus,qemu-cortex-m55")
    parser.add_argument("--target", default="cortex-m4")
    args = parser.parse_args()
    devices = [d for d in args.devices.split(",") if d]
    base = baselines(args.shared)

    header = f"{'model':28s} {'arena':>10s} {'lower bnd':>10s} {'ratio':>6s} {'TFLM arena':>10s} {'weights':>10s} {'MACs':>12s}"
    for d in devices:
        header += f" {d.replace('qemu-cortex-', '') + ' instr':>14s} {'/MAC':>6s}"
    header += f" {'TFLM+CMSIS instr':>16s}"
    print(header)
    with tempfile.TemporaryDirectory() as work:
        for stem, path, inputs, compile_args in models(args.shared):
            program = os.path.join(work, stem.replace(" ", "_") + ".mote")
            try:
                mote(args.build, "compile", path, "-o", program, "--target", args.target, *compile_args)
                info = json.loads(mote(args.build, "inspect", program, "--json"))
            except RuntimeError as error:
                print(f"{stem:28s} not compiled: {error}")
                continue
            b = base.get(stem, {})
            ratio = info["arena_bytes"] / max(1, info["arena_lower_bound_bytes"])
            line = (f"{stem:28s} {info['arena_bytes']:>10,d} {info['arena_lower_bound_bytes']:>10,d} {ratio:>6.2f} "
                    f"{(format(b['arena_cmsis'], ',d') if b.get('arena_cmsis') else '-'):>10s} "
                    f"{info['weights_bytes']:>10,d} {info['macs']:>12,d}")
            for d in devices:
                if not inputs:
                    line += f" {'no input':>14s} {'':>6s}"
                    continue
                try:
                    cmd = ["run", program, "--output-dir", os.path.join(work, stem.replace(" ", "_") + d), "--device", d,
                           "--json"]
                    for i in inputs:
                        cmd += ["--input", i]
                    run = json.loads(mote(args.build, *cmd))
                    per_mac = run["instructions"] / info["macs"] if info["macs"] else 0
                    line += f" {run['instructions']:>14,d} {per_mac:>6.2f}"
                except RuntimeError as error:
                    line += f" {'failed':>14s} {'':>6s}"
                    print(f"  {stem} on {d}: {error}", file=sys.stderr)
            line += f" {(format(b['instr_cmsis'], ',d') if b.get('instr_cmsis') else '-'):>16s}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
