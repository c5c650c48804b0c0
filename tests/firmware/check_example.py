#!/usr/bin/python3
"""Checks one example firmware (examples/): it runs under QEMU, prints the model's
outputs (matching the host run of the same model, and PyTorch's golden output), a per-op
report with a line per op and the memory report; and the ELF links exactly the kernels
the program uses (arm-none-eabi-nm), no kernel table of all kernels and no heap.

  check_example.py --elf E --machine M --mote MOTE --model M.onnx --input IN.npy
                   --golden OUT.npy --target T --registry kernels/kernel_registry.inc
Exits 0 when every check holds; otherwise prints one line per failed check and exits 1.
"""
import argparse
import ast
import json
import math
import re
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from linked_kernels import kernel_link_failures


def read_npy_f32(path):
    """The values of a little-endian float32 .npy file (format 1.x/2.x), flattened."""
    data = Path(path).read_bytes()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(f"{path}: not a .npy file")
    if data[6] == 1:
        header_len, start = struct.unpack_from("<H", data, 8)[0], 10
    else:
        header_len, start = struct.unpack_from("<I", data, 8)[0], 12
    header = ast.literal_eval(data[start:start + header_len].decode("latin1"))
    if header["descr"] != "<f4" or header["fortran_order"]:
        raise ValueError(f"{path}: expected C-order float32, got {header}")
    payload = data[start + header_len:]
    return list(struct.unpack(f"<{len(payload) // 4}f", payload))


def allclose(a, b, rtol, atol):
    return len(a) == len(b) and all(abs(x - y) <= atol + rtol * abs(y) for x, y in zip(a, b))


def main():
    p = argparse.ArgumentParser()
    for name in ("elf", "machine", "mote", "model", "input", "golden", "target", "registry"):
        p.add_argument("--" + name, required=True)
    a = p.parse_args()
    failures = []

    run = subprocess.run(
        ["qemu-system-arm", "-M", a.machine, "-display", "none", "-monitor", "none", "-serial", "null",
         "-icount", "shift=0", "-chardev", "stdio,id=shc",
         "-semihosting-config", "enable=on,target=native,chardev=shc", "-kernel", a.elf],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    text = run.stdout
    print(text)
    if run.returncode != 0:
        print(f"FAIL: {a.elf} exited {run.returncode} under QEMU {a.machine}: {run.stderr.strip()}")
        return 1

    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "model.mote"
        subprocess.run([a.mote, "compile", a.model, "-o", str(program), "--target", a.target],
                       check=True, capture_output=True)
        subprocess.run([a.mote, "run", str(program), "--input", a.input, "--output-dir", tmp],
                       check=True, capture_output=True)
        host = read_npy_f32(Path(tmp) / "out0.npy")
        inspect = json.loads(subprocess.run([a.mote, "inspect", str(program), "--json"], check=True,
                                            capture_output=True, text=True).stdout)

    # Outputs: every element printed, close to the host's float32 result and to PyTorch.
    values = {int(i): float(v) for i, v in re.findall(r"^out0\[(\d+)\] = (\S+)$", text, re.M)}
    firmware = [values.get(i, math.nan) for i in range(len(host))]
    if len(values) != len(host):
        failures.append(f"firmware printed {len(values)} output values, the model has {len(host)}")
    elif not allclose(firmware, host, rtol=1e-4, atol=1e-5):
        failures.append(f"firmware outputs {firmware} differ from the host run {host}")
    golden = read_npy_f32(a.golden)
    if len(values) == len(host) and not allclose(firmware, golden, rtol=1e-3, atol=1e-4):
        failures.append(f"firmware outputs {firmware} differ from the golden output {golden}")

    # Per-op report: one line per op naming the program's kernel, with a cycle count.
    rows = re.findall(r"^op (\s*\d+)\s+(\S+)\s+(\d+)\s+(\d+\.\d)%", text, re.M)
    if len(rows) != len(inspect["ops"]):
        failures.append(f"per-op report has {len(rows)} rows, the program has {len(inspect['ops'])} ops")
    for (index, kernel, cycles, _), op in zip(rows, inspect["ops"]):
        if kernel != op["kernel"] or int(cycles) <= 0:
            failures.append(f"report row op {index.strip()}: kernel {kernel}, cycles {cycles}; "
                            f"expected kernel {op['kernel']} and cycles > 0")
    # QEMU models no DWT: the board's probe of CYCCNT must fail and fall back to SysTick.
    counter = re.search(r"^cycle counter: (.*)$", text, re.M)
    if not counter or not counter.group(1).startswith("SysTick"):
        failures.append(f"cycle counter under QEMU is {counter.group(1) if counter else 'not reported'}; "
                        "expected the SysTick fallback (QEMU has no DWT cycle counter)")
    if not re.search(rf"^program {inspect['program_bytes']} bytes .* arena planned {inspect['arena_bytes']} ",
                     text, re.M):
        failures.append("memory report line missing or wrong")

    # Linked kernels: exactly the program's, found by their KernelEntry symbols.
    used = set(inspect["kernels"])
    failures += kernel_link_failures(a.elf, a.registry, used)

    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print(f"OK: {Path(a.elf).name}: outputs match, {len(rows)} ops reported, kernels linked: {sorted(used)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
