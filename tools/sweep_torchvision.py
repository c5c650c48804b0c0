#!/usr/bin/python3
"""Sweeps torchvision's classification models through Mote as users export them (issue 18).

For each model and opset: torch.onnx.export (eval mode, random weights, constants folded),
`mote compile` on the host, `mote run` on a random input compared with PyTorch (pass:
max abs error <= 1e-4 x max(1, max |golden|)), then `mote compile --quantize int8` with 16
calibration samples and the SQNR its report states. Prints one table row per model and
opset: model, opset, compiles?, max err, int8 SQNR, compile seconds, arena bytes.

Needs torchvision (python3-torchvision); CI does not run it. The exports go to a scratch
directory (default /tmp/mote_sweep), never into the repository.

usage: /usr/bin/python3 tools/sweep_torchvision.py [--mote build/bin/mote] [--work DIR]
           [--no-int8] [--timeout SECONDS] [NAME[@OPSET] ...]   (default: every model)
"""
import argparse
import json
import pathlib
import subprocess
import sys
import time

import numpy as np
import torch

ROOT = pathlib.Path(__file__).resolve().parent.parent
CALIBRATION_SAMPLES = 16


def tiny_vit():
    from torchvision.models.vision_transformer import VisionTransformer
    return VisionTransformer(image_size=64, patch_size=16, num_layers=2, num_heads=2, hidden_dim=32,
                             mlp_dim=64, num_classes=10)


def tv(name, **kwargs):
    def build():
        import torchvision
        return getattr(torchvision.models, name)(**kwargs)
    return build


# name -> (builder, input height/width, opsets)
MODELS = {
    "mobilenet_v2": (tv("mobilenet_v2"), 96, [13, 17, 11]),
    "mobilenet_v2_w0.35": (tv("mobilenet_v2", width_mult=0.35), 96, [13]),
    "mobilenet_v2_w0.5": (tv("mobilenet_v2", width_mult=0.5), 128, [17]),
    "mobilenet_v3_small": (tv("mobilenet_v3_small"), 96, [13, 17]),
    "mobilenet_v3_large": (tv("mobilenet_v3_large"), 96, [13]),
    "shufflenet_v2_x0_5": (tv("shufflenet_v2_x0_5"), 96, [13, 17, 11]),
    "shufflenet_v2_x1_0": (tv("shufflenet_v2_x1_0"), 96, [13]),
    "squeezenet1_0": (tv("squeezenet1_0"), 96, [13]),
    "squeezenet1_1": (tv("squeezenet1_1"), 96, [13, 11]),
    "mnasnet0_5": (tv("mnasnet0_5"), 96, [13]),
    "efficientnet_b0": (tv("efficientnet_b0"), 96, [13, 17]),
    "regnet_x_400mf": (tv("regnet_x_400mf"), 96, [13]),
    "regnet_y_400mf": (tv("regnet_y_400mf"), 96, [13]),
    "resnet18": (tv("resnet18"), 96, [13, 11]),
    "googlenet": (tv("googlenet", aux_logits=False, init_weights=True), 96, [13]),
    "densenet121": (tv("densenet121"), 96, [13]),
    "convnext_tiny": (tv("convnext_tiny"), 64, [13, 17]),
    "vit_tiny": (tiny_vit, 64, [17, 13]),
    "vit_b_16": (tv("vit_b_16"), 224, [17]),
    "swin_t": (tv("swin_t"), 224, [17]),
    "alexnet": (tv("alexnet"), 224, [13]),
    "vgg11": (tv("vgg11"), 224, [13]),
}
BIG = {"vit_b_16", "swin_t", "alexnet", "vgg11"}   # compiled on the host only, no int8 by default


def spread(module):
    """Random weights whose signal survives every layer (torchvision's initialisation leaves
    several of these nets' outputs input-independent at 1e-12 scale): He-scaled conv and
    linear weights, small biases, batch norms with non-trivial statistics."""
    generator = torch.Generator().manual_seed(5)
    for m in module.modules():
        if isinstance(m, (torch.nn.Conv2d, torch.nn.Linear)):
            fan_in = m.weight[0].numel()
            m.weight.data.copy_(torch.randn(m.weight.shape, generator=generator) * (2.0 / fan_in) ** 0.5)
            if m.bias is not None:
                m.bias.data.copy_(torch.randn(m.bias.shape, generator=generator) * 0.1)
        elif isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.copy_(torch.randn(m.num_features, generator=generator) * 0.1)
            m.running_var.copy_(torch.rand(m.num_features, generator=generator) + 0.5)
            m.weight.data.copy_(torch.rand(m.num_features, generator=generator) + 0.5)
            m.bias.data.copy_(torch.randn(m.num_features, generator=generator) * 0.1)
    return module


def one_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1][:160] if lines else ""


def export(name, build, size, opset, work):
    torch.manual_seed(0)
    module = spread(build()).eval()
    shape = [1, 3, size, size]
    path = work / f"{name}.op{opset}.onnx"
    example = torch.randn(shape, generator=torch.Generator().manual_seed(1000))
    # Exported with autograd on, as a plain user script does (under no_grad PyTorch's
    # fused attention fast path, which has no ONNX export, replaces ViT's encoder layers).
    torch.onnx.export(module, (example,), str(path), opset_version=opset, input_names=["x"],
                      output_names=["y"], do_constant_folding=True)
    with torch.no_grad():
        x = torch.randn(shape, generator=torch.Generator().manual_seed(0))
        y = module(x).numpy().astype(np.float32)
        other = module(torch.randn(shape, generator=torch.Generator().manual_seed(1))).numpy()
    np.save(work / f"{name}.in.npy", x.numpy().astype(np.float32))
    calib = torch.randn([CALIBRATION_SAMPLES] + shape, generator=torch.Generator().manual_seed(2))
    np.save(work / f"{name}.calib.npy", calib.numpy().astype(np.float32))
    depends = float(np.abs(y - other).max()) > 1e-3 * max(1.0, float(np.abs(y).max()))
    return path, y, depends


def compile_model(mote, onnx, program, extra, timeout):
    start = time.time()
    try:
        done = subprocess.run([mote, "compile", str(onnx), "-o", str(program), "--json"] + extra,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timeout {timeout}s", time.time() - start
    seconds = time.time() - start
    if done.returncode != 0:
        return None, one_line(done.stderr or done.stdout), seconds
    try:
        return json.loads(done.stdout), "", seconds
    except json.JSONDecodeError:
        return {}, "", seconds


def run_model(mote, program, inputs, out_dir, timeout):
    out_dir.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([mote, "run", str(program), "--input", str(inputs), "--output-dir", str(out_dir)],
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        return None, one_line(done.stderr or done.stdout)
    return np.load(out_dir / "out0.npy"), ""


def sweep_one(args, name, opset, work):
    build, size, _ = MODELS[name]
    row = {"model": f"{name} {size}", "opset": opset, "compiles": "no", "err": "-", "sqnr": "-",
           "seconds": "-", "arena": "-", "note": ""}
    try:
        onnx, golden, depends = export(name, build, size, opset, work)
    except Exception as e:  # noqa: BLE001  (an export failure is a row of the table)
        row["note"] = "export: " + one_line(str(e))
        return row
    if not depends:
        row["note"] = "output ignores input; "
    program = work / f"{name}.op{opset}.mote"
    report, error, seconds = compile_model(args.mote, onnx, program, [], args.timeout)
    row["seconds"] = f"{seconds:.1f}"
    if report is None:
        row["note"] += error
        return row
    row["compiles"] = "yes"
    row["arena"] = str(report.get("arena_bytes", "?"))
    out, error = run_model(args.mote, program, work / f"{name}.in.npy", work / f"{name}.op{opset}.out",
                           args.timeout)
    if out is None:
        row["note"] += "run: " + error
        return row
    err = float(np.abs(out.reshape(golden.shape) - golden).max())
    bound = 1e-4 * max(1.0, float(np.abs(golden).max()))
    row["err"] = f"{err:.1e}" + ("" if err <= bound else " FAIL")
    if args.no_int8 or (name in BIG and not args.big_int8):
        return row
    q_program = work / f"{name}.op{opset}.int8.mote"
    report, error, seconds = compile_model(args.mote, onnx, q_program,
                                           ["--quantize", "int8", "--calibration", str(work / f"{name}.calib.npy")],
                                           args.timeout)
    if report is None:
        row["sqnr"] = "fail"
        row["note"] += "int8: " + error
        return row
    quantization = report.get("quantization", {})
    outputs = quantization.get("outputs", [])
    sqnr = outputs[0].get("sqnr_db") if outputs else None
    row["sqnr"] = f"{sqnr:.1f}" if isinstance(sqnr, (int, float)) else "?"
    row["note"] += (f"int8 {seconds:.0f}s, {quantization.get('int16_tensors', 0)} int16 tensors, "
                    f"{len(quantization.get('float_nodes', []))} float nodes")
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mote", default=str(ROOT / "build" / "bin" / "mote"))
    parser.add_argument("--work", default="/tmp/mote_sweep")
    parser.add_argument("--no-int8", action="store_true")
    parser.add_argument("--big-int8", action="store_true", help="also quantize the big models")
    parser.add_argument("--timeout", type=int, default=900)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    work = pathlib.Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    jobs = []
    for spec in args.names or MODELS:
        name, _, opset = spec.partition("@")
        if name not in MODELS:
            sys.exit(f"unknown model '{name}' (known: {', '.join(MODELS)})")
        jobs += [(name, int(opset))] if opset else [(name, o) for o in MODELS[name][2]]
    columns = ["model", "opset", "compiles", "err", "sqnr", "seconds", "arena", "note"]
    print("| model | opset | compiles? | max err | int8 SQNR dB | compile s | arena bytes | note |")
    print("|---|---|---|---|---|---|---|---|")
    for name, opset in jobs:
        row = sweep_one(args, name, opset, work)
        print("| " + " | ".join(str(row[c]) for c in columns) + " |", flush=True)


if __name__ == "__main__":
    main()
