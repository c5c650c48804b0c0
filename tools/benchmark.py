#!/usr/bin/env python3
"""Mote benchmark: executed instructions per model and core, next to TFLM + CMSIS-NN.

Not a test: it prints figures. Instruction counts come from QEMU (-icount shift=0 with
SysTick), deterministic for a given build; host times are not reported.

    python3 tools/benchmark.py [--build build] [--devices qemu-cortex-m4,qemu-cortex-m55]
                               [--models vww_96_int8,ad01_int8]

Models: every int8 model in ../shared/models: the .tflite models with a row in
../shared/models/BASELINES.md (inputs and golden outputs from tflm-golden/), the real-world
files with tflm-golden/ data (realworld/ and the plain networks of ethos-u/; TFLM's arena for
realworld/ is its host build's, from realworld/README.md, marked 'h'; networks whose arena
exceeds the 2 MB the QEMU boards give run nowhere but are listed), and each ONNX model with
calibration samples quantized (`<model> int8`: --quantize int8) and as it is (`<model> f32`,
the float kernels; outputs compared with PyTorch's within 1e-5 + 1e-4 |golden|). Each model is
compiled once per device with that device's --target (so the core's kernel variants are
chosen) and run on sample s0 under QEMU (default devices: qemu-cortex-m4, -m33, -m55,
-m0plus).

Printed per model (and per device: code and stack, see the legend printed under the
table): arena bytes and the schedule's lower bound (ratio), TFLM's CMSIS-NN
arena, weights bytes and the model's MACs (from `mote compile --json` of the cortex-m4
build), and 'patch+': the share of MACs a patched program runs again in the tiles'
overlaps (--patching auto, the default; --patching off compares without); then per
device the executed instructions per inference, instructions per MAC, the ratio to the
TFLM + CMSIS-NN Cortex-M4 instruction count of BASELINES.md (xCMSIS), and for cortex-m55
also the ratio to our own cortex-m4 build (xM4). A '!' after an instruction count marks an
output that differs from the golden output (tflm-golden .out0.npy, or the ONNX sample's);
'?' means no golden output to compare with. Per-op figures: --ops.

--update-table instead measures the runs of tests/models/instruction_counts.txt (the
table the QEMU model tests check every count against, within 1%) and rewrites their counts:
each (model, core) row compiled exactly as those tests compile it (a .tflite model with
--output-tensor <softmax input> where tflm-golden/ has .presoftmax.npy files; `<model>_int8`
with --quantize int8 --calibration <model>.calib.npy) and run on sample s0. With --models it
also adds rows for those models on --devices (default: all six cores). A commit that lowers
a count updates the table; one that raises it by more than 1% fails ctest -L qemu.
"""
import argparse
import json
import math
import os
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DEVICES = "qemu-cortex-m4,qemu-cortex-m33,qemu-cortex-m55,qemu-cortex-m0plus"
TABLE = os.path.join(ROOT, "tests", "models", "instruction_counts.txt")
TABLE_CORES = ["cortex-m0plus", "cortex-m3", "cortex-m4", "cortex-m7", "cortex-m33", "cortex-m55"]
# The largest arena the QEMU runner firmware gives a program; larger ones run on the host only.
QEMU_ARENA_LIMIT = 2 * 1024 * 1024



def read_npy(path):
    """(dtype descr, shape, raw data bytes) of a .npy file (format 1.x/2.x, no numpy needed)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(f"{path}: not a .npy file")
    if data[6] == 1:
        length, start = int.from_bytes(data[8:10], "little"), 10
    else:
        length, start = int.from_bytes(data[8:12], "little"), 12
    header = data[start:start + length].decode("latin1")
    descr = re.search(r"'descr':\s*'([^']*)'", header).group(1)
    shape = tuple(int(x) for x in re.search(r"'shape':\s*\(([^)]*)\)", header).group(1).replace(" ", "").split(",") if x)
    if "'fortran_order': True" in header:
        raise ValueError(f"{path}: Fortran order")
    return descr.lstrip("<|="), shape, data[start + length:]


def tflite_softmax_input(path):
    """Name of the tensor feeding the last SOFTMAX of a .tflite file's main graph, or None.

    A minimal FlatBuffers walk of the TFLite schema (compiler/import/tflite/tflite_schema.fbs):
    Model.operator_codes (field 1), Model.subgraphs (2); SubGraph.tensors (0), .operators (3);
    Operator.opcode_index (0), .inputs (1); OperatorCode.deprecated_builtin_code (0),
    .builtin_code (3); Tensor.name (3)."""
    with open(path, "rb") as f:
        buf = f.read()
    u32 = lambda at: int.from_bytes(buf[at:at + 4], "little")
    s32 = lambda at: int.from_bytes(buf[at:at + 4], "little", signed=True)

    def field(table, index):
        """Absolute position of a table's field, or None when absent."""
        vtable = table - s32(table)
        vt_size = int.from_bytes(buf[vtable:vtable + 2], "little")
        if 4 + 2 * index + 2 > vt_size:
            return None
        offset = int.from_bytes(buf[vtable + 4 + 2 * index:vtable + 6 + 2 * index], "little")
        return table + offset if offset else None

    def deref(at):
        return at + u32(at)

    def vector(table, index):
        at = field(table, index)
        if at is None:
            return []
        start = deref(at)
        return [start + 4 + 4 * i for i in range(u32(start))]

    model = deref(0)
    codes = []
    for entry in vector(model, 1):
        code = deref(entry)
        deprecated, builtin = field(code, 0), field(code, 3)
        codes.append(max(buf[deprecated] if deprecated else 0, s32(builtin) if builtin else 0))
    graph = deref(vector(model, 2)[0])
    tensors = [deref(t) for t in vector(graph, 0)]
    name = None
    for entry in vector(graph, 3):
        op = deref(entry)
        opcode = field(op, 0)
        inputs = vector(op, 1)
        if codes[u32(opcode) if opcode else 0] == 25 and inputs:  # SOFTMAX
            string = deref(field(tensors[s32(inputs[0])], 3))
            name = buf[string + 4:string + 4 + u32(string)].decode()
    return name


def table_runs(shared):
    """(table model name) -> (model path, input files, extra compile args), as the QEMU model
    tests compile and run them: every .tflite model with tflm-golden/ data, and each ONNX
    model with a <model>.calib.npy as `<model>_int8`."""
    runs = {}
    golden_dir = os.path.join(shared, "models", "tflm-golden")
    for dirpath, _, files in sorted(os.walk(os.path.join(shared, "models"))):
        for name in sorted(files):
            stem = name[:-len(".tflite")]
            if not name.endswith(".tflite") or not os.path.exists(os.path.join(golden_dir, f"{stem}.s0.out0.npy")):
                continue
            path = os.path.join(dirpath, name)
            extra = []
            if os.path.exists(os.path.join(golden_dir, f"{stem}.s0.presoftmax.npy")):
                extra = ["--output-tensor", tflite_softmax_input(path)]
            runs[stem] = (path, numbered(golden_dir, stem, "in"), extra)
    onnx_dir = os.path.join(shared, "models", "onnx")
    for name in sorted(os.listdir(onnx_dir)) if os.path.isdir(onnx_dir) else []:
        stem = name[:-len(".onnx")]
        calib = os.path.join(onnx_dir, f"{stem}.calib.npy")
        if name.endswith(".onnx") and os.path.exists(calib):
            runs[f"{stem}_int8"] = (os.path.join(onnx_dir, name), numbered(onnx_dir, stem, "in"),
                                    ["--quantize", "int8", "--calibration", calib])
    return runs


def read_table(path):
    """[(model, core, instructions)] and the comment lines before the first row."""
    rows, header = [], []
    for line in open(path) if os.path.exists(path) else []:
        if line.startswith("#") or not line.strip():
            if not rows:
                header.append(line.rstrip("\n"))
            continue
        model, core, count = line.split()
        rows.append((model, core, int(count)))
    return rows, header


def update_table(args):
    """Measures every (model, core) of the table (and --models on --devices) and rewrites it."""
    rows, header = read_table(TABLE)
    wanted = [(model, core) for model, core, _ in rows]
    if args.models:
        cores = [d[len("qemu-"):] for d in args.devices.split(",") if d] if args.devices_given else TABLE_CORES
        wanted += [(m, c) for m in args.models.split(",") if m for c in cores if (m, c) not in wanted]
    old = {(model, core): count for model, core, count in rows}
    runs = table_runs(args.shared)
    unknown = sorted({m for m, _ in wanted} - set(runs))
    if unknown:
        sys.exit("benchmark.py: no tflm-golden .tflite or calibrated ONNX model named " + ", ".join(unknown))
    measured = []
    with tempfile.TemporaryDirectory() as work:
        for model, core in wanted:
            path, inputs, extra = runs[model]
            program = os.path.join(work, f"{model}.{core}.mote")
            mote(args.build, "compile", path, "-o", program, "--target", core, *extra)
            cmd = ["run", program, "--output-dir", os.path.join(work, "out"), "--device", f"qemu-{core}", "--json"]
            for i in inputs:
                cmd += ["--input", i]
            count = json.loads(mote(args.build, *cmd))["instructions"]
            before = old.get((model, core))
            change = f"{100.0 * (count - before) / before:+.2f}%" if before else "new"
            print(f"{model:28s} {core:14s} {count:>12,d}  {change}", flush=True)
            measured.append((model, core, count))
    if not header:
        header = ["# model                      core           instructions (sample s0; see tools/benchmark.py)"]
    with open(TABLE, "w") as f:
        for line in header:
            f.write(line + "\n")
        for model, core, count in measured:
            f.write(f"{model:28s} {core:14s} {count}\n")
    print(f"wrote {len(measured)} rows to {os.path.relpath(TABLE, ROOT)}")


def mote(build, *args):
    result = subprocess.run([os.path.join(build, "bin", "mote"), *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(result.stderr.strip() or f"mote {args[0]} exited {result.returncode}")
    return result.stdout


def baselines(shared):
    """model -> {macs, arena_ref, arena_cmsis, instr_ref, instr_cmsis} from BASELINES.md."""
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
    # Per-model flash where the prose states it ("vww_96_int8: 39,914 B reference, 82,790 B
    # CMSIS-NN"): TFLM's own code with the libc it pulls in, without the model.
    text = open(path).read()
    for model, ref, cmsis in re.findall(r"([A-Za-z_0-9]+):\s+([\d,]+) B reference,\s+([\d,]+) B CMSIS-NN", text):
        table.setdefault(model, {}).update({"code_ref": int(ref.replace(",", "")),
                                            "code_cmsis": int(cmsis.replace(",", ""))})
    match = re.search(r"Peak stack\s+(.*?\(CMSIS-NN\))", text, re.S)
    table["__notes__"] = {"stack": " ".join(match.group(1).split()) if match else None}
    return table


def realworld_arenas(shared):
    """model -> TFLM's arena (host build) from the table of ../shared/models/realworld/README.md."""
    table = {}
    path = os.path.join(shared, "models", "realworld", "README.md")
    if not os.path.exists(path):
        return table
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        match = re.match(r"^`(.+)\.tflite`$", cells[0]) if cells else None
        if match and re.match(r"^[\d,]+$", cells[-1]):
            table[match.group(1)] = int(cells[-1].replace(",", ""))
    return table


def numbered(directory, stem, kind):
    """[directory/stem.s0.<kind>0.npy, ...<kind>1.npy, ...] while they exist."""
    files = []
    while os.path.exists(os.path.join(directory, f"{stem}.s0.{kind}{len(files)}.npy")):
        files.append(os.path.join(directory, f"{stem}.s0.{kind}{len(files)}.npy"))
    return files


def models(shared, base):
    """(name, model path, input files, golden output files, extra compile args) per model."""
    found = []
    golden_dir = os.path.join(shared, "models", "tflm-golden")
    tflite_dir = os.path.join(shared, "models", "tflite")
    for dirpath, _, files in sorted(os.walk(tflite_dir)):
        for name in sorted(files):
            stem = name[:-len(".tflite")]
            if not name.endswith(".tflite") or stem not in base:
                continue
            found.append((stem, os.path.join(dirpath, name), numbered(golden_dir, stem, "in"),
                          numbered(golden_dir, stem, "out"), []))
    # The real-world files (realworld/ and the plain networks of ethos-u/) with TFLM goldens.
    arenas = realworld_arenas(shared)
    for folder in ("realworld", "ethos-u"):
        directory = os.path.join(shared, "models", folder)
        for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else []:
            stem = name[:-len(".tflite")]
            if not name.endswith(".tflite") or "_vela" in stem or not numbered(golden_dir, stem, "in"):
                continue
            if stem in arenas:
                base.setdefault(stem, {})["arena_tflm_host"] = arenas[stem]
            found.append((stem, os.path.join(directory, name), numbered(golden_dir, stem, "in"),
                          numbered(golden_dir, stem, "out"), []))
    onnx_dir = os.path.join(shared, "models", "onnx")
    for name in sorted(os.listdir(onnx_dir)) if os.path.isdir(onnx_dir) else []:
        if not name.endswith(".onnx"):
            continue
        stem = name[:-5]
        calib = [os.path.join(onnx_dir, f"{stem}.calib.npy")]
        if not os.path.exists(calib[0]):
            calib = []
            while os.path.exists(os.path.join(onnx_dir, f"{stem}.calib.in{len(calib)}.npy")):
                calib.append(os.path.join(onnx_dir, f"{stem}.calib.in{len(calib)}.npy"))
        if not calib:
            continue
        args = ["--quantize", "int8"]
        for c in calib:
            args += ["--calibration", c]
        # The ONNX goldens are float outputs of the float model: not comparable bit for bit.
        found.append((stem + " int8", os.path.join(onnx_dir, name), numbered(onnx_dir, stem, "in"), [], args))
        # The float model itself (the FPU and Helium float kernels), compared with PyTorch's
        # outputs within the float model tests' tolerance (outputs_match).
        found.append((stem + " f32", os.path.join(onnx_dir, name), numbered(onnx_dir, stem, "in"),
                      numbered(onnx_dir, stem, "out"), []))
    return found


def outputs_match(out_dir, golden):
    """True / False when compared with the golden outputs, None when not comparable."""
    if not golden:
        return None
    for j, path in enumerate(golden):
        ours = os.path.join(out_dir, f"out{j}.npy")
        if not os.path.exists(ours):
            candidates = sorted(f for f in os.listdir(out_dir) if f.endswith(".npy"))
            if len(candidates) != len(golden):
                return None
            ours = os.path.join(out_dir, candidates[j])
        (dtype_a, shape_a, data_a), (dtype_b, shape_b, data_b) = read_npy(ours), read_npy(path)
        if dtype_a != dtype_b or math.prod(shape_a) != math.prod(shape_b):
            return False
        if dtype_a.lstrip("<") == "f4":
            # A float model against PyTorch: |ours - golden| <= 1e-5 + 1e-4 |golden| per
            # element (tests/models/model_test.cc), a NaN fails.
            n = len(data_a) // 4
            a, b = struct.unpack(f"<{n}f", data_a), struct.unpack(f"<{n}f", data_b)
            if not all(abs(x - y) <= 1e-5 + 1e-4 * abs(y) for x, y in zip(a, b)):
                return False
        elif data_a != data_b:
            return False
    return True


def tflm_arena(b):
    """TFLM's arena: the CMSIS-NN build's (BASELINES.md), else the host build's ('h', realworld/)."""
    if b.get("arena_cmsis"):
        return format(b["arena_cmsis"], ",d")
    if b.get("arena_tflm_host"):
        return format(b["arena_tflm_host"], ",d") + "h"
    return "-"


def short(device):
    return device.replace("qemu-cortex-", "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--shared", default=os.environ.get("MOTE_SHARED_DIR", os.path.join(ROOT, "..", "shared")))
    parser.add_argument("--devices", default=DEFAULT_DEVICES,
                        help=f"comma-separated QEMU devices (default {DEFAULT_DEVICES})")
    parser.add_argument("--models", default="", help="comma-separated model names (default: all int8 models)")
    parser.add_argument("--ops", action="store_true", help="also print every op's kernel, MACs and instructions")
    parser.add_argument("--json", help="also write every figure to this JSON file")
    parser.add_argument("--patching", default="auto", choices=["auto", "off"],
                        help="mote compile --patching (default auto; 'patch+' is the share of MACs run again)")
    parser.add_argument("--optimize", default="speed", choices=["speed", "memory", "size"],
                        help="mote compile --optimize (default speed; size: the smallest code, see 'code')")
    parser.add_argument("--update-table", action="store_true",
                        help=f"re-measure the rows of {os.path.relpath(TABLE, ROOT)} and rewrite it")
    args = parser.parse_args()
    args.devices_given = any(a == "--devices" or a.startswith("--devices=") for a in sys.argv[1:])
    devices = [d for d in args.devices.split(",") if d]
    for d in devices:
        if not d.startswith("qemu-cortex-"):
            parser.error(f"device '{d}' is not a qemu-cortex-* device")
    if args.update_table:
        update_table(args)
        return
    base = baselines(args.shared)
    wanted = {m for m in args.models.split(",") if m}
    selected = [m for m in models(args.shared, base) if not wanted or m[0] in wanted]
    if wanted - {m[0] for m in selected}:
        parser.error("unknown model(s): " + ", ".join(sorted(wanted - {m[0] for m in selected})))

    header = (f"{'model':24s} {'arena':>9s} {'lower bnd':>9s} {'ratio':>5s} {'TFLM arena':>10s} "
              f"{'weights':>9s} {'MACs':>11s} {'patch+':>6s}")
    for d in devices:
        header += f" {short(d) + ' instr':>14s} {'/MAC':>6s} {'xCMSIS':>6s}"
        if short(d) == "m55":
            header += f" {'xM4':>5s}"
        header += f" {'code':>7s} {'stack':>9s}"
    header += f" {'TFLM+CMSIS M4':>14s} {'TFLM code':>9s}"
    print(header, flush=True)
    report = []
    with tempfile.TemporaryDirectory() as work:
        for stem, path, inputs, golden, compile_args in selected:
            safe = stem.replace(" ", "_")
            b = base.get(stem, {})
            cmsis = b.get("instr_cmsis")
            entry = {"model": stem, "devices": {}}
            info = None
            runs = {}
            ops_lines = []
            for d in devices:
                target = d[len("qemu-"):]
                program = os.path.join(work, f"{safe}.{target}.mote")
                try:
                    compiled = json.loads(mote(args.build, "compile", path, "-o", program, "--target", target,
                                               "--patching", args.patching, "--optimize", args.optimize, "--json",
                                               *compile_args))
                    if info is None or target == "cortex-m4":
                        info = compiled
                except RuntimeError as error:
                    runs[d] = ("not compiled", None, str(error))
                    continue
                if not inputs:
                    runs[d] = ("no input", None, "")
                    continue
                if compiled["arena_bytes"] > QEMU_ARENA_LIMIT:
                    runs[d] = ("arena > 2 MB", None, "")
                    continue
                out_dir = os.path.join(work, f"{safe}.{target}.out")
                cmd = ["run", program, "--output-dir", out_dir, "--device", d, "--json"]
                for i in inputs:
                    cmd += ["--input", i]
                try:
                    run = json.loads(mote(args.build, *cmd))
                except RuntimeError as error:
                    runs[d] = ("failed", None, str(error))
                    continue
                try:
                    run["size"] = json.loads(mote(args.build, "size", program, "--target", target, "--json"))
                except RuntimeError as error:
                    run["size"] = {"error": str(error)}
                runs[d] = ("ok", run, outputs_match(out_dir, golden))
                if args.ops:
                    for k, op in enumerate(run.get("ops", [])):
                        per_mac = f"{op['instructions'] / op['macs']:.2f}" if op.get("macs") else "-"
                        ops_lines.append(f"    {short(d):7s} op {k:3d} {op.get('kernel', '?'):32s} "
                                         f"{op.get('macs', 0):>10,d} MACs {op.get('instructions', 0):>12,d} instr "
                                         f"{per_mac:>6s}/MAC")
            if info is None:
                print(f"{stem:24s} not compiled: {next(iter(runs.values()))[2] if runs else ''}", flush=True)
                continue
            # The model's MACs; a patched program runs some again (the tiles' overlaps).
            patching = info.get("patching", {})
            macs = patching.get("unpatched_macs", info.get("macs", 0))
            extra = patching.get("extra_macs", 0) if patching.get("applied") else 0
            lower = max(1, info["arena_lower_bound_bytes"])
            line = (f"{stem:24s} {info['arena_bytes']:>9,d} {info['arena_lower_bound_bytes']:>9,d} "
                    f"{info['arena_bytes'] / lower:>5.2f} "
                    f"{tflm_arena(b):>10s} "
                    f"{info['weights_bytes']:>9,d} {macs:>11,d}")
            line += f" {(format(100.0 * extra / macs, '.1f') + '%') if extra and macs else '-':>6s}"
            entry.update({"macs": macs, "recomputed_macs": extra, "arena_bytes": info["arena_bytes"],
                          "arena_lower_bound_bytes": info["arena_lower_bound_bytes"],
                          "weights_bytes": info["weights_bytes"], "tflm_cmsis_m4_instructions": cmsis})
            m4 = runs.get("qemu-cortex-m4")
            m4_instr = m4[1]["instructions"] if m4 and m4[0] == "ok" else None
            for d in devices:
                status, run, detail = runs.get(d, ("-", None, ""))
                if status != "ok":
                    line += f" {status:>14s} {'':>6s} {'':>6s}"
                    if short(d) == "m55":
                        line += f" {'':>5s}"
                    line += f" {'':>7s} {'':>9s}"
                    if detail and status not in ("no input", "arena > 2 MB"):
                        print(f"  {stem} on {d}: {detail}", file=sys.stderr)
                    entry["devices"][d] = {"status": status}
                    continue
                instr = run["instructions"]
                mark = {True: " ", False: "!", None: "?"}[detail]
                per_mac = f"{instr / macs:.2f}" if macs else "-"
                x_cmsis = f"{instr / cmsis:.2f}" if cmsis else "-"
                line += f" {instr:>13,d}{mark} {per_mac:>6s} {x_cmsis:>6s}"
                figures = {"status": "ok", "instructions": instr, "bit_exact": detail,
                           "instructions_per_mac": instr / macs if macs else None,
                           "ratio_to_tflm_cmsis_m4": instr / cmsis if cmsis else None}
                if short(d) == "m55":
                    line += f" {(format(instr / m4_instr, '.2f') if m4_instr else '-'):>5s}"
                    figures["ratio_to_mote_m4"] = instr / m4_instr if m4_instr else None
                # Code: runtime + the program's kernels with shared code once (mote size, -Os);
                # stack: painted in the QEMU run / mote size's static bound.
                size = run.get("size", {})
                code, bound = size.get("code_text_bytes"), size.get("stack_bytes")
                used = run.get("memory", {}).get("stack_used_bytes")
                line += f" {(format(code / 1024, '.1f') + 'K') if code else '-':>7s}"
                line += f" {(str(used) if used else '-') + '/' + (str(bound) if bound else '-'):>9s}"
                figures.update({"code_text_bytes": code, "stack_used_bytes": used, "stack_bound_bytes": bound})
                entry["devices"][d] = figures
            line += f" {(format(cmsis, ',d') if cmsis else '-'):>14s}"
            tflm_code = b.get("code_cmsis")
            line += f" {(format(tflm_code / 1024, '.1f') + 'K') if tflm_code else '-':>9s}"
            print(line, flush=True)
            for l in ops_lines:
                print(l, flush=True)
            report.append(entry)
    notes = base.get("__notes__", {})
    print("code: Mote's runtime + the program's kernels at -Os, shared code once (mote size); stack: bytes "
          "the -O2 QEMU runner's run used (painted) / mote size's static bound for the -Os build; TFLM code: its code with libc, without the "
          "model (BASELINES.md, where stated per model)"
          + (f"; TFLM peak stack {notes['stack']}" if notes.get("stack") else ""), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
