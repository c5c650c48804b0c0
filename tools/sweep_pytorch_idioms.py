#!/usr/bin/python3
"""Sweeps the PyTorch idioms small-model authors write through Mote (issue 18).

Each idiom is a tiny nn.Module. For every opset in --opsets (default 11, 13, 17) the
script exports it with torch.onnx.export into a temporary directory, compiles it with
build/bin/mote, runs it on the host and compares with PyTorch (max abs error <= 1e-4 x
max(1, max |golden|) per output), then compiles it with --quantize int8 (calibration:
16 seeded samples) and states the SQNR of the first float output. It prints one table
row per idiom and opset: export / compile / match / int8 SQNR, or the first line of
the error. Needs torch (Debian's python3-torch); CI does not run it.

usage: /usr/bin/python3 tools/sweep_pytorch_idioms.py [--mote build/bin/mote]
           [--opsets 11,13,17] [--no-int8] [NAME_SUBSTRING ...]
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

ROOT = pathlib.Path(__file__).resolve().parent.parent


class Lambda(nn.Module):
    """An idiom written as a function of the inputs (no parameters)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *xs):
        return self.fn(*xs)


class WithParams(nn.Module):
    """An idiom around sub-modules: fn(modules, *inputs)."""

    def __init__(self, fn, **modules):
        super().__init__()
        self.m = nn.ModuleDict(modules)
        self.fn = fn

    def forward(self, *xs):
        return self.fn(self.m, *xs)


def causal_tcn():
    conv = nn.Conv1d(4, 6, 3, dilation=2)
    return WithParams(lambda m, x: m["conv"](F.pad(x, (4, 0))), conv=conv)


def embedding_positions():
    emb = nn.Embedding(20, 8)
    pos = nn.Embedding(16, 8)

    def fn(m, ids):
        positions = torch.arange(ids.shape[1]).unsqueeze(0)
        return m["emb"](ids) + m["pos"](positions)
    return WithParams(fn, emb=emb, pos=pos)


def gru_cell():
    cell = nn.GRUCell(6, 5)
    return WithParams(lambda m, x, h: m["cell"](x, h), cell=cell)


def lstm_cell():
    cell = nn.LSTMCell(6, 5)

    def fn(m, x, h, c):
        h2, c2 = m["cell"](x, (h, c))
        return h2, c2
    return WithParams(fn, cell=cell)


def sizes_reshape(x):
    b, c, h, w = x.size()
    return x.reshape(b, c * h, w).permute(0, 2, 1).reshape(b, -1)


# name -> (module factory, input shapes, per-input int ranges or None)
IDIOMS = {
    "topk_values": (lambda: Lambda(lambda x: torch.topk(x, 3, dim=-1).values), [[2, 10]], None),
    "topk_indices": (lambda: Lambda(lambda x: torch.topk(x, 3, dim=1)[1]), [[2, 10]], None),
    "topk_smallest": (lambda: Lambda(lambda x: torch.topk(x, 2, dim=1, largest=False)[0]), [[3, 7]], None),
    "cumsum": (lambda: Lambda(lambda x: torch.cumsum(x, dim=1)), [[2, 6, 3]], None),
    "cumsum_conv_channels": (lambda: nn.Sequential(nn.Conv2d(2, 3, 1), Lambda(lambda x: torch.cumsum(x, dim=1))),
                             [[1, 2, 4, 5]], None),
    "einsum_bmm": (lambda: Lambda(lambda a, b: torch.einsum("bij,bjk->bik", a, b)), [[2, 3, 4], [2, 4, 5]], None),
    "einsum_outer": (lambda: Lambda(lambda a, b: torch.einsum("i,j->ij", a, b)), [[4], [5]], None),
    "einsum_attn": (lambda: Lambda(lambda q, k: torch.einsum("bhqd,bhkd->bhqk", q, k)),
                    [[1, 2, 4, 8], [1, 2, 5, 8]], None),
    "einsum_attn_out": (lambda: Lambda(lambda p, v: torch.einsum("bhqk,bhkd->bhqd", p, v)),
                        [[1, 2, 4, 5], [1, 2, 5, 3]], None),
    "einsum_ellipsis_implicit": (lambda: Lambda(lambda a, b: torch.einsum("...ij,jk", a, b)),
                                 [[2, 3, 4], [4, 5]], None),
    "einsum_dot_rowwise": (lambda: Lambda(lambda a, b: torch.einsum("bi,bi->b", a, b)), [[3, 4], [3, 4]], None),
    "einsum_transpose_sum": (lambda: Lambda(lambda a: torch.einsum("ijk->ki", a)), [[2, 3, 4]], None),
    "einsum_linear": (lambda: WithParams(lambda m, x: torch.einsum("btc,oc->bto", x, m["lin"].weight),
                                         lin=nn.Linear(6, 4)), [[1, 5, 6]], None),
    "arange_shape": (lambda: Lambda(lambda x: x + torch.arange(x.shape[-1], dtype=torch.float32)), [[2, 5]], None),
    "zeros_like_shape": (lambda: Lambda(lambda x: x + torch.zeros(x.shape[0], 1)), [[3, 4]], None),
    "tril_mask": (lambda: Lambda(lambda x: torch.tril(x)), [[1, 5, 5]], None),
    "triu_mask_k1": (lambda: Lambda(lambda x: torch.triu(x, diagonal=1)), [[1, 4, 6]], None),
    "causal_masked_fill": (lambda: Lambda(lambda x: x.masked_fill(
        torch.triu(torch.ones(x.shape[-1], x.shape[-1]), 1) > 0, float("-inf")).softmax(-1)), [[1, 5, 5]], None),
    "masked_fill_computed": (lambda: Lambda(lambda x: x.masked_fill(x < 0, 0.5)), [[2, 6]], None),
    "where_scalars": (lambda: Lambda(lambda x: torch.where(x > 0, x, torch.tensor(0.1))), [[2, 6]], None),
    "repeat_interleave": (lambda: Lambda(lambda x: torch.repeat_interleave(x, 2, dim=1)), [[1, 3, 4]], None),
    "roll": (lambda: Lambda(lambda x: torch.roll(x, 2, dims=1)), [[1, 6, 3]], None),
    "flip": (lambda: Lambda(lambda x: torch.flip(x, dims=[2])), [[1, 3, 5]], None),
    "narrow": (lambda: Lambda(lambda x: x.narrow(1, 1, 3)), [[2, 6, 3]], None),
    "unbind_stack": (lambda: Lambda(lambda x: torch.stack(list(torch.unbind(x, 1))[::-1], 2)), [[2, 3, 4]], None),
    "chunk": (lambda: Lambda(lambda x: torch.chunk(x, 3, dim=1)[2] * 2), [[1, 6, 4]], None),
    "expand_as": (lambda: Lambda(lambda x, y: x.expand_as(y) + y), [[1, 1, 4], [2, 3, 4]], None),
    "normalize": (lambda: Lambda(lambda x: F.normalize(x, dim=1)), [[2, 8]], None),
    "cosine_similarity": (lambda: Lambda(lambda a, b: F.cosine_similarity(a, b, dim=1)), [[2, 8], [2, 8]], None),
    "bmm": (lambda: Lambda(lambda a, b: torch.bmm(a, b)), [[2, 3, 4], [2, 4, 5]], None),
    "baddbmm": (lambda: Lambda(lambda c, a, b: torch.baddbmm(c, a, b, beta=0.5, alpha=2.0)),
                [[2, 3, 5], [2, 3, 4], [2, 4, 5]], None),
    "causal_tcn": (causal_tcn, [[1, 4, 12]], None),
    "pixel_unshuffle": (lambda: nn.PixelUnshuffle(2), [[1, 2, 4, 6]], None),
    "instance_norm1d": (lambda: nn.InstanceNorm1d(4, affine=True), [[1, 4, 10]], None),
    "glu": (lambda: nn.GLU(dim=1), [[2, 8]], None),
    "mish": (lambda: nn.Mish(), [[2, 8]], None),
    "silu": (lambda: nn.SiLU(), [[2, 8]], None),
    "hardtanh": (lambda: nn.Hardtanh(-0.5, 0.7), [[2, 8]], None),
    "relu6": (lambda: nn.ReLU6(), [[2, 8]], None),
    "threshold": (lambda: nn.Threshold(0.1, 20.0), [[2, 8]], None),
    "softsign": (lambda: nn.Softsign(), [[2, 8]], None),
    "tanhshrink": (lambda: nn.Tanhshrink(), [[2, 8]], None),
    "logsigmoid": (lambda: nn.LogSigmoid(), [[2, 8]], None),
    "softmin": (lambda: nn.Softmin(dim=1), [[2, 8]], None),
    "lppool2d": (lambda: nn.LPPool2d(2, 2), [[1, 2, 6, 6]], None),
    "lppool1d": (lambda: nn.LPPool1d(2, 3, stride=2), [[1, 2, 9]], None),
    "maxpool_ceil": (lambda: nn.MaxPool2d(3, 2, ceil_mode=True), [[1, 2, 8, 8]], None),
    "maxpool_dilation": (lambda: nn.MaxPool2d(2, 1, dilation=2), [[1, 2, 7, 7]], None),
    "avgpool_ceil": (lambda: nn.AvgPool2d(3, 2, ceil_mode=True), [[1, 2, 8, 8]], None),
    "avgpool_pad_exclude": (lambda: nn.AvgPool2d(3, 2, padding=1, count_include_pad=False), [[1, 2, 7, 7]], None),
    "avgpool_pad_include": (lambda: nn.AvgPool2d(3, 2, padding=1, count_include_pad=True), [[1, 2, 7, 7]], None),
    "avgpool1d": (lambda: nn.AvgPool1d(3, 2, padding=1), [[1, 3, 10]], None),
    "adaptive_avg_2x2": (lambda: nn.AdaptiveAvgPool2d((2, 2)), [[1, 3, 8, 8]], None),
    "adaptive_avg_3x3_uneven": (lambda: nn.AdaptiveAvgPool2d(3), [[1, 3, 8, 8]], None),
    "adaptive_max_2x2": (lambda: nn.AdaptiveMaxPool2d(2), [[1, 3, 8, 8]], None),
    "adaptive_avg1d_4": (lambda: nn.AdaptiveAvgPool1d(4), [[1, 3, 16]], None),
    "interp_scale_1_5": (lambda: Lambda(lambda x: F.interpolate(x, scale_factor=1.5, mode="nearest")),
                         [[1, 2, 4, 4]], None),
    "interp_bilinear_recompute": (lambda: Lambda(lambda x: F.interpolate(
        x, scale_factor=1.7, mode="bilinear", align_corners=False, recompute_scale_factor=True)), [[1, 2, 5, 5]], None),
    "interp_size": (lambda: Lambda(lambda x: F.interpolate(x, size=(7, 5), mode="bilinear")), [[1, 2, 4, 4]], None),
    "upsample_sequential": (lambda: nn.Sequential(nn.Conv2d(2, 3, 1), nn.Upsample(scale_factor=2), nn.ReLU()),
                            [[1, 2, 4, 4]], None),
    "clamp_tensor_bounds": (lambda: Lambda(lambda x, lo: torch.clamp(x, min=lo, max=lo + 1.0)),
                            [[2, 6], [2, 6]], None),
    "clamp_scalar": (lambda: Lambda(lambda x: torch.clamp(x, -0.3, 0.4)), [[2, 6]], None),
    "mean_multi_keepdim": (lambda: Lambda(lambda x: x.mean(dim=(1, 3), keepdim=True)), [[1, 3, 4, 5]], None),
    "std": (lambda: Lambda(lambda x: x.std(dim=1)), [[2, 8]], None),
    "var_unbiased_false": (lambda: Lambda(lambda x: x.var(dim=-1, unbiased=False, keepdim=True)), [[2, 3, 8]], None),
    "norm_l1": (lambda: Lambda(lambda x: x.norm(p=1, dim=1)), [[2, 8]], None),
    "norm_l2": (lambda: Lambda(lambda x: torch.linalg.norm(x, dim=-1)), [[2, 8]], None),
    "argmin": (lambda: Lambda(lambda x: torch.argmin(x, dim=1)), [[2, 8]], None),
    "max_dim": (lambda: Lambda(lambda x: torch.max(x, dim=1)), [[2, 8]], None),
    "min_dim_keepdim": (lambda: Lambda(lambda x: torch.min(x, dim=-1, keepdim=True)[0]), [[2, 3, 8]], None),
    "sort": (lambda: Lambda(lambda x: torch.sort(x, dim=1, descending=True)), [[2, 6]], None),
    "sign": (lambda: Lambda(lambda x: torch.sign(x)), [[2, 8]], None),
    "round_floor_ceil": (lambda: Lambda(lambda x: torch.round(x * 3) + torch.floor(x) + torch.ceil(x)), [[2, 8]], None),
    "remainder": (lambda: Lambda(lambda x: torch.remainder(x, 0.7)), [[2, 8]], None),
    "fmod": (lambda: Lambda(lambda x: torch.fmod(x, 0.7)), [[2, 8]], None),
    "size_reshape": (lambda: Lambda(sizes_reshape), [[1, 2, 3, 4]], None),
    "view_minus1": (lambda: Lambda(lambda x: x.view(x.size(0), -1)), [[2, 3, 4]], None),
    "flatten_start2": (lambda: nn.Flatten(start_dim=2), [[1, 3, 4, 5]], None),
    "unflatten": (lambda: nn.Unflatten(1, (2, 6)), [[2, 12]], None),
    "squeeze_unsqueeze": (lambda: Lambda(lambda x: x.squeeze(1).unsqueeze(-1) * 2), [[2, 1, 5]], None),
    "dropout_identity": (lambda: nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.3), nn.Identity()), [[2, 4]], None),
    "embedding_positions": (embedding_positions, [[1, 6]], [(0, 20)]),
    "gru_cell": (gru_cell, [[2, 6], [2, 5]], None),
    "lstm_cell": (lstm_cell, [[2, 6], [2, 5], [2, 5]], None),
    "gelu_mul_gate": (lambda: Lambda(lambda x: F.gelu(x[:, :4]) * x[:, 4:]), [[2, 8]], None),
    "hardsigmoid": (lambda: nn.Hardsigmoid(), [[2, 8]], None),
    "softplus_beta": (lambda: nn.Softplus(beta=2.0, threshold=5.0), [[2, 8]], None),
    "pow_scalar": (lambda: Lambda(lambda x: x.abs() ** 1.5 + x ** 2), [[2, 8]], None),
    "rsqrt_reciprocal": (lambda: Lambda(lambda x: torch.rsqrt(x.abs() + 1) + torch.reciprocal(x.abs() + 1)),
                         [[2, 8]], None),
    "matmul_broadcast": (lambda: Lambda(lambda a, b: a @ b), [[2, 3, 4], [4, 5]], None),
    "transpose_contiguous": (lambda: Lambda(lambda x: x.transpose(1, 2).contiguous().view(1, -1)),
                             [[1, 3, 4]], None),
    "index_last": (lambda: Lambda(lambda x: x[:, -1] + x[..., 0:1].sum()), [[2, 5, 3]], None),
    "cat_neg_dim": (lambda: Lambda(lambda a, b: torch.cat([a, b], dim=-1)), [[2, 3], [2, 4]], None),
    "amax_amin": (lambda: Lambda(lambda x: x.amax(dim=(1, 2)) - x.amin(dim=1).sum(-1)), [[2, 3, 4]], None),
    "prod": (lambda: Lambda(lambda x: torch.prod(x, dim=1)), [[2, 4]], None),
    "logsumexp": (lambda: Lambda(lambda x: torch.logsumexp(x, dim=1)), [[2, 8]], None),
    "repeat_interleave_computed": (lambda: WithParams(lambda m, x: torch.repeat_interleave(m["conv"](x), 2, dim=2),
                                                      conv=nn.Conv1d(3, 4, 1)), [[1, 3, 5]], None),
    "prod_dim_computed": (lambda: Lambda(lambda x: torch.prod(x + 1.0, dim=1)), [[2, 4]], None),
    "pixel_shuffle": (lambda: nn.PixelShuffle(2), [[1, 8, 3, 3]], None),
    "softmax2d": (lambda: nn.Softmax2d(), [[1, 3, 4, 4]], None),
    "layer_norm_fn": (lambda: Lambda(lambda x: F.layer_norm(x, (6,))), [[2, 3, 6]], None),
    "clamp_min_maximum": (lambda: Lambda(lambda a, b: torch.maximum(a.clamp_min(0.1), b) - torch.minimum(a, b)),
                          [[2, 5], [2, 5]], None),
    "argmax_keepdim": (lambda: Lambda(lambda x: torch.argmax(x, dim=-1, keepdim=True)), [[2, 3, 5]], None),
    "cdist": (lambda: Lambda(lambda a, b: torch.cdist(a, b)), [[1, 4, 3], [1, 5, 3]], None),
    "masked_mean": (lambda: Lambda(lambda x, m: (x * (m > 0)).sum(1) / (m > 0).sum(1).clamp_min(1)),
                    [[2, 6], [2, 6]], None),
    "outer_broadcast_mul": (lambda: Lambda(lambda a, b: a.unsqueeze(-1) * b.unsqueeze(-2)), [[2, 3], [2, 4]], None),
    "exp_log_clamp": (lambda: Lambda(lambda x: torch.log(torch.exp(x).clamp(max=5.0) + 1e-3)), [[2, 8]], None),
    "softmax_neg_dim_3d": (lambda: Lambda(lambda x: F.softmax(x, dim=1)), [[1, 4, 5]], None),
}

OPSETS = (11, 13, 17)


def sample_inputs(shapes, ranges, seed, count=None):
    generator = torch.Generator().manual_seed(seed)
    lead = [] if count is None else [count]
    ranges = ranges or [None] * len(shapes)
    return [torch.randn(lead + list(s), generator=generator) if r is None else
            torch.randint(r[0], r[1], lead + list(s), generator=generator, dtype=torch.int64)
            for s, r in zip(shapes, ranges)]


def to_numpy(x):
    return x.numpy() if x.dtype == torch.int64 else x.numpy().astype(np.float32)


def first_line(text):
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line[:160]
    return "(no message)"


def run_program(mote, program, input_paths, out_dir):
    out_dir.mkdir(exist_ok=True)
    args = [mote, "run", str(program), "--output-dir", str(out_dir)]
    for p in input_paths:
        args += ["--input", str(p)]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("run: " + first_line(r.stderr or r.stdout))
    return [np.load(p) for p in sorted(out_dir.glob("out*.npy"), key=lambda p: int(p.stem[3:]))]


def compile_model(mote, model, program, extra=()):
    r = subprocess.run([mote, "compile", str(model), "-o", str(program), *extra], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(first_line(r.stderr or r.stdout))


def sweep_one(mote, name, spec, opset, tmp, int8):
    factory, shapes, ranges = spec
    torch.manual_seed(0)
    module = factory().eval()
    inputs = sample_inputs(shapes, ranges, 1)
    onnx_path = tmp / f"{name}.{opset}.onnx"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(module, tuple(inputs), str(onnx_path), opset_version=opset, do_constant_folding=True,
                              input_names=[f"in{i}" for i in range(len(inputs))])
    except Exception as e:  # noqa: BLE001 - the exporter raises many kinds
        return "export", first_line(str(e)), ""
    with torch.no_grad():
        golden = module(*inputs)
    golden = [golden] if isinstance(golden, torch.Tensor) else list(golden)
    input_paths = []
    for i, x in enumerate(inputs):
        input_paths.append(tmp / f"{name}.{opset}.in{i}.npy")
        np.save(input_paths[-1], to_numpy(x))
    program = tmp / f"{name}.{opset}.mote"
    try:
        compile_model(mote, onnx_path, program)
        outs = run_program(mote, program, input_paths, tmp / f"{name}.{opset}.out")
    except RuntimeError as e:
        return "compile", str(e), ""
    if len(outs) != len(golden):
        return "mismatch", f"{len(outs)} outputs, PyTorch has {len(golden)}", ""
    worst = 0.0
    for out, g in zip(outs, golden):
        g = g.numpy().astype(np.float64)
        out = out.astype(np.float64)
        if out.shape != g.shape:
            return "mismatch", f"shape {list(out.shape)}, PyTorch {list(g.shape)}", ""
        finite = np.isfinite(g)
        if not np.array_equal(finite, np.isfinite(out)) or not np.array_equal(g[~finite], out[~finite]):
            return "mismatch", "non-finite values differ", ""
        err = float(np.max(np.abs(out[finite] - g[finite]), initial=0.0))
        tol = 1e-4 * max(1.0, float(np.max(np.abs(g[finite]), initial=0.0)))
        if not err <= tol:
            return "mismatch", f"max abs err {err:.3g} > {tol:.3g}", ""
        worst = max(worst, err)
    sqnr = int8_sqnr(mote, name, spec, opset, tmp, onnx_path, input_paths, golden) if int8 else ""
    return "ok", f"max err {worst:.2g}", sqnr


def int8_sqnr(mote, name, spec, opset, tmp, onnx_path, input_paths, golden):
    _, shapes, ranges = spec
    calib = []
    for i, x in enumerate(sample_inputs(shapes, ranges, 500, 16)):
        calib.append(tmp / f"{name}.{opset}.calib{i}.npy")
        np.save(calib[-1], to_numpy(x))
    program = tmp / f"{name}.{opset}.int8.mote"
    extra = ["--quantize", "int8"]
    for c in calib:
        extra += ["--calibration", str(c)]
    try:
        compile_model(mote, onnx_path, program, extra)
        outs = run_program(mote, program, input_paths, tmp / f"{name}.{opset}.int8out")
    except RuntimeError as e:
        return "int8: " + str(e)
    g = golden[0].numpy().astype(np.float64)
    if golden[0].dtype == torch.int64:
        return "int8 indices " + ("equal" if np.array_equal(outs[0].astype(np.int64), g) else "differ")
    noise = float(np.sum((outs[0].astype(np.float64) - g) ** 2))
    signal = float(np.sum(g ** 2))
    if noise == 0:
        return "int8 exact"
    return f"int8 {10 * np.log10(signal / noise):.1f} dB"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mote", default=str(ROOT / "build" / "bin" / "mote"))
    parser.add_argument("--opsets", default=",".join(map(str, OPSETS)))
    parser.add_argument("--no-int8", action="store_true")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    opsets = [int(o) for o in args.opsets.split(",")]
    names = [n for n in IDIOMS if not args.names or any(s in n for s in args.names)]
    if not names:
        sys.exit("no idiom matches " + " ".join(args.names))
    counts = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            for opset in opsets:
                status, detail, sqnr = sweep_one(args.mote, name, IDIOMS[name], opset, pathlib.Path(tmp),
                                                 not args.no_int8)
                counts[status] = counts.get(status, 0) + 1
                print(f"| {name:26} | {opset:2} | {status:8} | {detail} | {sqnr} |", flush=True)
    print("totals: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
