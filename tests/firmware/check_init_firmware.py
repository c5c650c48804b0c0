#!/usr/bin/python3
"""Writes a project with `mote init-firmware`, builds it with its own CMakeLists.txt
(nothing of Mote's build: the toolchain file the project carries) and checks it (issue 21):

  with --model  `cmake --build <build> --target run` runs it under QEMU (the machine
                init-firmware picked must be --machine): every output bit-identical to
                `mote run` on the host (floats to 1e-7), "ok" at the end, the per-op tick
                table present; the ELF links exactly the model's kernels
                (arm-none-eabi-nm, linked_kernels.py), the arena and the stack lie in
                sections without contents (NOBITS: no zeros in flash), the vector table
                sits at the flash origin and the stack ends at the top of RAM.
  without       the bring-up project (start-up code, console, tick counter) prints "ok".
  --no-run      the memory map has no QEMU machine: init-firmware must say so, and the
                project still builds with .text at the flash origin.
  --prefix DIR  --mote-from package: find_package(Mote) on an installed package.

  check_init_firmware.py --mote MOTE --target T --flash O:S --ram O:S --work DIR
      [--model M --input IN.npy --registry kernels/kernel_registry.inc] [--machine M | --no-run]
      [--prefix DIR] [--generator G] [--launcher ccache]
Prints one line per failed check and exits 1, or "OK: ..." and 0.
"""
import argparse
import json
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from check_kernel_link import read_npy
from linked_kernels import kernel_link_failures

FORMATS = {"|i1": "b", "|u1": "B", "|b1": "B", "<i2": "h", "<i4": "i", "<i8": "q", "<f4": "f"}


def run(cmd, **kw):
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if done.returncode != 0:
        print(done.stdout[-4000:], done.stderr[-4000:])
        raise RuntimeError(f"{' '.join(str(c) for c in cmd)} exited {done.returncode}")
    return done.stdout + done.stderr


def size_of(text):
    number, unit = re.fullmatch(r"(\d+)(K|KiB|M|MiB)?", text).groups()
    return int(number) * {None: 1, "K": 1024, "KiB": 1024, "M": 1 << 20, "MiB": 1 << 20}[unit]


def region(text):
    origin, size = text.split(":")
    return int(origin, 0), size_of(size)


def output_failures(text, host):
    """The firmware's "out<j>[<i>] = <v>" lines against the host's outputs."""
    failures = []
    for j, (descr, payload) in enumerate(host):
        fmt = FORMATS.get(descr)
        if fmt is None:
            failures.append(f"output {j}: dtype {descr} not handled by this test")
            continue
        expected = list(struct.unpack(f"<{len(payload) // struct.calcsize(fmt)}{fmt}", payload))
        printed = {int(i): v for i, v in re.findall(rf"^out{j}\[(\d+)\] = (\S+)$", text, re.M)}
        if len(printed) != len(expected):
            failures.append(f"output {j}: {len(printed)} values printed, the host has {len(expected)}")
            continue
        for i, want in enumerate(expected):
            got = printed.get(i)
            same = got is not None and (abs(float(got) - want) <= 1e-7 * abs(want) if fmt == "f"
                                        else int(got) == want)
            if not same:
                failures.append(f"output {j}[{i}]: firmware {got}, host {want}")
                break
    return failures


def layout_failures(elf, flash, ram):
    """Vectors at the flash origin, stack top at the end of RAM, arena and stack NOBITS."""
    failures = []
    sections = {m.group(1): (m.group(2), int(m.group(3), 16))
                for m in re.finditer(r"\]\s+(\S+)\s+(\S+)\s+([0-9a-f]{8})", run(["arm-none-eabi-readelf", "-S", "-W", elf]))}
    symbols = {m.group(2): int(m.group(1), 16)
               for m in re.finditer(r"^([0-9a-f]{8}) \w+ (\S+)$", run(["arm-none-eabi-nm", elf]), re.M)}
    if sections.get(".text", ("", -1))[1] != flash[0]:
        failures.append(f".text (the vector table first) at {sections.get('.text')}, not the flash origin {flash[0]:#x}")
    if symbols.get("__stack_top") != ram[0] + ram[1]:
        failures.append(f"__stack_top {symbols.get('__stack_top')} is not the end of RAM {ram[0] + ram[1]:#x}")
    for name in (".mote_arena", ".stack"):
        if name in sections and sections[name][0] != "NOBITS":
            failures.append(f"{name} is {sections[name][0]}: its bytes would be in the image")
    if ".stack" not in sections:
        failures.append("no .stack section")
    return failures, sections


def main():
    p = argparse.ArgumentParser()
    for name in ("mote", "target", "flash", "ram", "work"):
        p.add_argument("--" + name, required=True)
    for name in ("model", "input", "registry", "machine", "prefix", "generator", "launcher"):
        p.add_argument("--" + name, default="")
    p.add_argument("--no-run", action="store_true")
    a = p.parse_args()
    work = Path(a.work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    project = work / "app"
    failures = []

    init = [a.mote, "init-firmware", "-o", project, "--target", a.target, "--flash", a.flash, "--ram", a.ram]
    if a.model:
        init += ["--model", a.model, "--input", a.input]
    if a.prefix:
        init += ["--mote-from", "package"]
    said = run(init)
    wanted = "no run target" if a.no_run else f"qemu-system-arm -M {a.machine}"
    if wanted not in said:
        failures.append(f"init-firmware did not say '{wanted}': {said.strip().splitlines()[-1]}")

    build = project / "build"
    configure = ["cmake", "-S", project, "-B", build]
    if a.generator:
        configure += ["-G", a.generator]
    if a.launcher:
        configure += [f"-DCMAKE_C_COMPILER_LAUNCHER={a.launcher}", f"-DCMAKE_CXX_COMPILER_LAUNCHER={a.launcher}"]
    if a.prefix:
        configure.append(f"-DCMAKE_PREFIX_PATH={a.prefix}")
    run(configure)
    built = run(["cmake", "--build", build])
    if not re.search(r"FLASH:\s+\d+ B", built):
        failures.append("the build printed no memory use (--print-memory-usage)")
    elf = build / "app.elf"
    layout, sections = layout_failures(elf, region(a.flash), region(a.ram))
    failures += layout
    if a.model and ".mote_arena" not in sections:
        failures.append("no .mote_arena section")

    if not a.no_run:
        ran = subprocess.run(["cmake", "--build", build, "--target", "run"], capture_output=True, text=True,
                             stdin=subprocess.DEVNULL, timeout=600)
        text = ran.stdout + ran.stderr
        if ran.returncode != 0 or not re.search(r"^ok$", text, re.M):
            print(text[-3000:])
            failures.append(f"the run target exited {ran.returncode} without a last line 'ok'")
        elif a.model:
            with tempfile.TemporaryDirectory() as tmp:
                program = Path(tmp) / "model.mote"
                run([a.mote, "compile", a.model, "-o", program, "--target", a.target])
                run([a.mote, "run", program, "--input", a.input, "--output-dir", tmp])
                inspect = json.loads(run([a.mote, "inspect", program, "--json"]))
                host = [read_npy(Path(tmp) / f"out{j}.npy") for j in range(len(inspect["outputs"]))]
            failures += output_failures(text, host)
            if not re.search(r"^total ticks in ops \d+ \(\d+ instr\)$", text, re.M):
                failures.append("no 'total ticks in ops N (M instr)' line")
            failures += kernel_link_failures(elf, a.registry, inspect["kernels"])

    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print(f"OK: init-firmware {a.target} flash {a.flash} RAM {a.ram}"
              f"{' with ' + Path(a.model).name if a.model else ' (bring-up)'}"
              f"{' from the installed package' if a.prefix else ''}: built"
              f"{'' if a.no_run else ', ran under QEMU' + (' bit-identical to the host' if a.model else '')}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
