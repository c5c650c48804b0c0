#!/usr/bin/python3
"""`mote size PROGRAM --target T --json` for every core: the runtime core and each of
the program's kernels measured (> 0), exactly the kernels `mote inspect` lists, the
program and arena bytes as the program states them, and the runtime core within its
budget (4 KiB of .text on cortex-m4 at -Os, issue 6). Prints the table it checked.
A program compiled for cortex-m55 (--helium-model: its Helium kernels) has no size on
cortex-m4, whose firmware leaves those kernels out: one line naming the kernel, the core and
why.

  check_size.py --mote MOTE --model M.onnx --cores cortex-m0plus,cortex-m4,... --helium-model M.tflite
"""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

RUNTIME_BUDGET = {"cortex-m4": 4096}


def mote(exe, *args):
    return subprocess.run([exe, *args], check=True, capture_output=True, text=True).stdout


def optimize_size_failures(a, tmp):
    """`mote compile --optimize size` on cortex-m4 (the kws model): the code it reports is
    what `mote size` counts, below the fastest kernels' code, each choice a variant given
    up for the op's next variant or its reference, and the outputs bit-identical to the
    default build's on the host;
    a host target is refused with one line."""
    failures = []
    fast, small = str(Path(tmp) / "fast.mote"), str(Path(tmp) / "small.mote")
    mote(a.mote, "compile", a.helium_model, "-o", fast, "--target", "cortex-m4")
    report = json.loads(mote(a.mote, "compile", a.helium_model, "-o", small, "--target", "cortex-m4",
                             "--optimize", "size", "--json"))["optimize_size"]
    size = json.loads(mote(a.mote, "size", small, "--target", "cortex-m4", "--json"))
    fast_size = json.loads(mote(a.mote, "size", fast, "--target", "cortex-m4", "--json"))
    print(f"--optimize size on cortex-m4: code {report['code_bytes']} B (default {report['speed_code_bytes']} B): "
          + "; ".join(report["choices"]))
    if report["code_bytes"] != size["code_text_bytes"] or report["speed_code_bytes"] != fast_size["code_text_bytes"]:
        failures.append(f"--optimize size reports {report['code_bytes']} / {report['speed_code_bytes']} B of code, "
                        f"mote size counts {size['code_text_bytes']} / {fast_size['code_text_bytes']} B")
    if not report["choices"] or not report["code_bytes"] < report["speed_code_bytes"]:
        failures.append(f"--optimize size chose nothing smaller: {report}")
    inputs = sorted(Path(a.helium_model).parent.glob(Path(a.helium_model).stem + ".s0.in*.npy"))
    outputs = []
    for program in (fast, small):
        out_dir = Path(tmp) / (Path(program).stem + "_out")
        mote(a.mote, "run", program, "--output-dir", str(out_dir), *[x for i in inputs for x in ("--input", str(i))])
        outputs.append([f.read_bytes() for f in sorted(out_dir.glob("out*.npy"))])
    if not inputs or not outputs[0] or outputs[0] != outputs[1]:
        failures.append(f"--optimize size changed the outputs (or no sample input next to {a.helium_model})")
    bad = subprocess.run([a.mote, "compile", a.helium_model, "-o", str(Path(tmp) / "h.mote"), "--optimize", "size"],
                         capture_output=True, text=True)
    if bad.returncode == 0 or bad.stderr.count("\n") != 1 or "--target" not in bad.stderr:
        failures.append(f"--optimize size for the host should fail with one line naming --target: {bad.stderr!r}")
    return failures


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mote", required=True)
    p.add_argument("--model", required=True)
    p.add_argument("--cores", required=True)
    p.add_argument("--helium-model", required=True)
    a = p.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for core in a.cores.split(","):
            program = str(Path(tmp) / f"{core}.mote")
            mote(a.mote, "compile", a.model, "-o", program, "--target", core)
            inspect = json.loads(mote(a.mote, "inspect", program, "--json"))
            size = json.loads(mote(a.mote, "size", program, "--target", core, "--json"))
            kernels = size["kernels"]
            print(f"{core:14} runtime core {size['runtime_text_bytes']:6} B  kernels "
                  + ", ".join(f"{k} {v} B" for k, v in kernels.items())
                  + f"  program {size['program_bytes']} B  arena {size['arena_bytes']} B")
            if sorted(kernels) != sorted(inspect["kernels"]):
                failures.append(f"{core}: size lists kernels {sorted(kernels)}, inspect {inspect['kernels']}")
            if not all(isinstance(v, int) and v > 0 for v in kernels.values()):
                failures.append(f"{core}: a kernel has no positive size: {kernels}")
            runtime = size["runtime_text_bytes"]
            if not 0 < runtime <= RUNTIME_BUDGET.get(core, 8192):
                failures.append(f"{core}: runtime core {runtime} B, budget {RUNTIME_BUDGET.get(core, 8192)} B")
            if size["program_bytes"] != inspect["program_bytes"] or size["arena_bytes"] != inspect["arena_bytes"]:
                failures.append(f"{core}: program/arena bytes differ from mote inspect")
            shared = size["shared_text_bytes"]
            if not 0 <= shared < sum(kernels.values()) + runtime:
                failures.append(f"{core}: shared code {shared} B out of range")
            if size["flash_bytes"] != runtime + sum(kernels.values()) - shared + size["program_bytes"]:
                failures.append(f"{core}: flash_bytes is not runtime + kernels - shared code + program")
        # A size file whose shared-code sections are broken: one line naming the file and
        # what is wrong, not a crash (the last core's measurement, one index spoiled).
        measured = json.loads(Path(size["measured_from"]).read_text())
        if "kernel_sections" in measured:
            for kernel_entry in measured["kernel_sections"]:
                measured["kernel_sections"][kernel_entry] = [len(measured["sections"]) + 7]
            spoiled = Path(tmp) / "spoiled.json"
            spoiled.write_text(json.dumps(measured))
            bad = subprocess.run([a.mote, "size", program, "--target", core, "--sizes", str(spoiled)],
                                 capture_output=True, text=True)
            if bad.returncode == 0 or bad.stderr.count("\n") != 1 or "out of range" not in bad.stderr \
                    or str(spoiled) not in bad.stderr:
                failures.append(f"`mote size --sizes` with a section index out of range should fail with one "
                                f"line naming the file, got rc {bad.returncode}: {bad.stderr!r}")
        else:
            failures.append(f"{size['measured_from']}: no kernel_sections (shared code is not measured)")
        # Failures are one line each, naming the problem.
        bad = subprocess.run([a.mote, "size", program, "--target", "host", "--json"], capture_output=True, text=True)
        if bad.returncode == 0 or bad.stderr.count("\n") != 1:
            failures.append(f"`mote size --target host` should fail with one line, got rc {bad.returncode}: {bad.stderr!r}")
        if "cortex-m55" in a.cores.split(",") and "cortex-m4" in a.cores.split(","):
            m55 = str(Path(tmp) / "m55.mote")
            mote(a.mote, "compile", a.helium_model, "-o", m55, "--target", "cortex-m55")
            kernels = json.loads(mote(a.mote, "inspect", m55, "--json"))["kernels"]
            helium = [k for k in kernels if k.endswith("__mve")]
            other = subprocess.run([a.mote, "size", m55, "--target", "cortex-m4", "--json"],
                                   capture_output=True, text=True)
            wanted = ": a variant for an ISA extension cortex-m4 lacks, or the firmware targets need a rebuild)"
            names_one = any(f"no measurement for kernel {k} (" in other.stderr for k in helium)
            if not helium:
                failures.append(f"{a.helium_model} on cortex-m55 uses no Helium kernel: {kernels}")
            elif other.returncode == 0 or other.stderr.count("\n") != 1 or not names_one \
                    or not other.stderr.rstrip().endswith(wanted):
                failures.append(f"`mote size` of a cortex-m55 program --target cortex-m4 should fail with one line "
                                f"naming a Helium kernel and the reason, got rc {other.returncode}: {other.stderr!r}")
        if "cortex-m4" in a.cores.split(","):
            failures += optimize_size_failures(a, tmp)
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
