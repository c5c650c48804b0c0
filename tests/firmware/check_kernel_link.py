#!/usr/bin/python3
"""Checks a kernel-link firmware (tests/firmware/kernel_link, built around one model's
`mote compile --emit-c` sources): under QEMU it loads and runs the model and prints
outputs bit-identical to `mote run` on the host, using no more stack in mote_load and
mote_run (painted) than `mote size`'s static bound, nor under a third of it; and the ELF
links exactly the kernels `mote inspect` lists for the program (arm-none-eabi-nm), no
table of all kernels and no heap.

  check_kernel_link.py --elf E --machine M --mote MOTE --model MODEL --input IN.npy
                       --target T --registry kernels/kernel_registry.inc
Exits 0 when every check holds; otherwise prints one line per failed check and exits 1.
"""
import argparse
import ast
import json
import re
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from linked_kernels import kernel_link_failures


def read_npy(path):
    """(descr, payload bytes) of a C-order .npy file (format 1.x/2.x)."""
    data = Path(path).read_bytes()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(f"{path}: not a .npy file")
    if data[6] == 1:
        header_len, start = struct.unpack_from("<H", data, 8)[0], 10
    else:
        header_len, start = struct.unpack_from("<I", data, 8)[0], 12
    header = ast.literal_eval(data[start:start + header_len].decode("latin1"))
    return header["descr"], data[start + header_len:]


def main():
    p = argparse.ArgumentParser()
    for name in ("elf", "machine", "mote", "model", "input", "target", "registry"):
        p.add_argument("--" + name, required=True)
    p.add_argument("--compile-arg", action="append", default=[],
                   help="extra `mote compile` argument, as the firmware's sources were generated")
    p.add_argument("--link-only", action="store_true",
                   help="only check the linked kernels (a firmware too big for the QEMU machine, or a "
                        "float model)")
    a = p.parse_args()
    failures = []

    if a.link_only:
        with tempfile.TemporaryDirectory() as tmp:
            program = Path(tmp) / "model.mote"
            subprocess.run([a.mote, "compile", a.model, "-o", str(program), "--target", a.target, *a.compile_arg],
                           check=True, capture_output=True)
            used = json.loads(subprocess.run([a.mote, "inspect", str(program), "--json"], check=True,
                                             capture_output=True, text=True).stdout)["kernels"]
        failures = kernel_link_failures(a.elf, a.registry, used)
        for f in failures:
            print("FAIL: " + f)
        if not failures:
            print(f"OK: {Path(a.elf).name}: kernels linked: {sorted(used)}")
        return 1 if failures else 0

    run = subprocess.run(
        ["qemu-system-arm", "-M", a.machine, "-display", "none", "-monitor", "none", "-serial", "null",
         "-chardev", "stdio,id=shc", "-semihosting-config", "enable=on,target=native,chardev=shc",
         "-kernel", a.elf],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    text = run.stdout
    if run.returncode != 0 or not re.search(r"^ok$", text, re.M):
        print(text)
        print(f"FAIL: {a.elf} exited {run.returncode} under QEMU {a.machine}: {run.stderr.strip()}")
        return 1

    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "model.mote"
        subprocess.run([a.mote, "compile", a.model, "-o", str(program), "--target", a.target, *a.compile_arg],
                       check=True, capture_output=True)
        subprocess.run([a.mote, "run", str(program), "--input", a.input, "--output-dir", tmp],
                       check=True, capture_output=True)
        inspect = json.loads(subprocess.run([a.mote, "inspect", str(program), "--json"], check=True,
                                            capture_output=True, text=True).stdout)
        host = [read_npy(Path(tmp) / f"out{j}.npy") for j in range(len(inspect["outputs"]))]
        size = json.loads(subprocess.run([a.mote, "size", str(program), "--target", a.target, "--json"],
                                         check=True, capture_output=True, text=True).stdout)

    # Stack: what mote_load and mote_run used (painted, the firmware's "stack" line) within
    # mote size's static bound for the program, and the bound not loose (at most 3x).
    painted = re.search(r"^stack (\d+) (\d+)$", text, re.M)
    bound = size.get("stack_bytes")
    if not painted or not isinstance(bound, int):
        failures.append(f"no painted stack line ({bool(painted)}) or no static bound ({size.get('stack_unknown')})")
    else:
        deepest = max(int(painted.group(1)), int(painted.group(2)))
        print(f"stack: load {painted.group(1)} B, run {painted.group(2)} B painted; mote size's static bound {bound} B")
        if not 0 < deepest <= bound or bound > 3 * deepest:
            failures.append(f"stack: {deepest} B used (painted), mote size's static bound {bound} B "
                            f"(must hold it, and be at most 3x)")

    # Outputs: bit-identical to the host run (the same reference-exact int8 kernels).
    for j, (descr, payload) in enumerate(host):
        if descr in ("|i1", "|u1"):
            expected = list(struct.unpack(f"{len(payload)}{'b' if descr == '|i1' else 'B'}", payload))
            pattern = rf"^out{j}\[(\d+)\] = (-?\d+)$"
        else:
            expected = list(payload)
            pattern = rf"^out{j}\.byte\[(\d+)\] = (\d+)$"
        values = {int(i): int(v) for i, v in re.findall(pattern, text, re.M)}
        firmware = [values.get(i) for i in range(len(expected))]
        if len(values) != len(expected) or firmware != expected:
            failures.append(f"output {j} ({descr}): firmware {firmware} differs from the host {expected}")

    used = inspect["kernels"]
    # A quantized program: int8 kernels, or TFLite 16x8 ones (int16 activations, int8 weights).
    if not any(re.search(r"_s(8|16)(_|$)", k) for k in used):
        failures.append(f"the program uses no int8 or int16 kernel ({used}): not the quantized model this test expects")
    failures += kernel_link_failures(a.elf, a.registry, used)

    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print(f"OK: {Path(a.elf).name}: outputs bit-identical to the host, kernels linked: {sorted(used)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
