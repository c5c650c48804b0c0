#!/usr/bin/python3
"""Exports the PyTorch test models (tests/models/pytorch/) with Debian's python3-torch.

Each model kind is a builder in tools/pytorch_models/<family>.py, listed in that file's
MODELS dict: name -> function returning a Model (the torch module in eval mode, its
input shapes, the opset, input and output names). For every model this writes, into
tests/models/pytorch/:
  <name>.onnx                 torch.onnx.export at the model's opset (constants folded)
  <name>.s<k>.in<i>.npy       golden sample k (k = 0, 1), input i: seeded normal float32
                              values, or int64 in the model's input range (token ids)
  <name>.s<k>.out<j>.npy      PyTorch's float32 outputs for it (the goldens)
  <name>.calib.in<i>.npy      16 calibration samples of input i stacked ([16, ...shape])
The tests (tests/models/pytorch_model_test.cc) compile and run the models listed in
tests/models/pytorch/models.txt against these files; CI does not need torch. Re-running
the script rewrites the files byte for byte the same for the same torch version.

usage: /usr/bin/python3 tools/export_pytorch_models.py [NAME ...]   (default: every model)
"""
import importlib
import pathlib
import sys

import numpy as np
import torch

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "models" / "pytorch"
GOLDEN_SAMPLES = 2
CALIBRATION_SAMPLES = 16


def all_models():
    sys.path.insert(0, str(ROOT / "tools"))
    models = {}
    for path in sorted((ROOT / "tools" / "pytorch_models").glob("*.py")):
        if path.stem.startswith("_"):
            continue
        module = importlib.import_module("pytorch_models." + path.stem)
        for name, build in module.MODELS.items():
            if name in models:
                sys.exit(f"{path}: model '{name}' is defined twice")
            models[name] = build
    return models


def samples(model, seed, count=None):
    """Seeded inputs, one array per input ([count, ...] when count): standard-normal
    float32, or uniform int64 in [low, high) where the model gives an input range."""
    generator = torch.Generator().manual_seed(seed)
    lead = [] if count is None else [count]
    ranges = model.input_ranges or [None] * len(model.input_shapes)
    return [torch.randn(lead + list(shape), generator=generator) if r is None else
            torch.randint(r[0], r[1], lead + list(shape), generator=generator, dtype=torch.int64)
            for shape, r in zip(model.input_shapes, ranges)]


def npy_array(x):
    """int64 inputs as they are, everything else as float32."""
    return x.numpy() if x.dtype == torch.int64 else x.numpy().astype(np.float32)


def export(name, build):
    torch.manual_seed(0)
    model = build()
    module = model.module.eval()
    example = tuple(samples(model, 1000))
    path = OUT / f"{name}.onnx"
    with torch.set_grad_enabled(model.export_with_grad):
        try:
            torch.onnx.export(module, example, str(path), opset_version=model.opset, input_names=model.input_names,
                              output_names=model.output_names, do_constant_folding=True,
                              dynamic_axes=model.dynamic_axes)
            if model.exporter_check_fails:
                sys.exit(f"{name}: the exporter's check was expected to fail and passed")
        except torch.onnx.errors.CheckerError:
            if not model.exporter_check_fails:
                raise
    with torch.no_grad():
        for k in range(GOLDEN_SAMPLES):
            inputs = samples(model, k)
            outputs = module(*inputs)
            if isinstance(outputs, torch.Tensor):
                outputs = (outputs,)
            for i, x in enumerate(inputs):
                np.save(OUT / f"{name}.s{k}.in{i}.npy", npy_array(x))
            for j, y in enumerate(outputs):
                np.save(OUT / f"{name}.s{k}.out{j}.npy", y.numpy().astype(np.float32))
        for i, x in enumerate(samples(model, 500, CALIBRATION_SAMPLES)):
            np.save(OUT / f"{name}.calib.in{i}.npy", npy_array(x))
    print(f"{name}: opset {model.opset}, {path.stat().st_size} bytes")


def main():
    models = all_models()
    names = sys.argv[1:] or sorted(models)
    for name in names:
        if name not in models:
            sys.exit(f"no model '{name}' (known: {', '.join(sorted(models))})")
        export(name, models[name])


if __name__ == "__main__":
    main()
