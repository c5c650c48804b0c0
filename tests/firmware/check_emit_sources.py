#!/usr/bin/python3
"""Checks the folder `mote compile --emit-c DIR --emit-sources` writes: built with plain
arm-none-eabi-gcc/g++ commands (Mote's sources with the one include directory DIR/mote,
-ffunction-sections and --gc-sections; the generated kernel table as C) around
emit_sources/main.c into an ELF, it runs under QEMU with outputs bit-identical to
`mote run` on the host; arm-none-eabi-nm finds exactly the program's kernels in it
(linked_kernels.py), and every kernels .cc file the folder holds puts code or data in
the ELF (so the folder holds no source the model does not use).

  check_emit_sources.py --mote MOTE --model MODEL --input IN.npy --target CORE
                        --machine QEMU_MACHINE --platform-dir platforms/cortex_m
                        --registry kernels/kernel_registry.inc --work DIR [--compile-arg A]...
Exits 0 when every check holds; otherwise prints one line per failed check and exits 1.
"""
import argparse
import json
import re
import shutil
import struct
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from check_kernel_link import read_npy
from linked_kernels import kernel_link_failures

CPU_FLAGS = {
    "cortex-m0plus": ["-mcpu=cortex-m0plus", "-mfloat-abi=soft"],
    "cortex-m3": ["-mcpu=cortex-m3", "-mfloat-abi=soft"],
    "cortex-m4": ["-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16", "-mfloat-abi=hard"],
    "cortex-m7": ["-mcpu=cortex-m7", "-mfpu=fpv5-d16", "-mfloat-abi=hard"],
    "cortex-m33": ["-mcpu=cortex-m33", "-mfpu=fpv5-sp-d16", "-mfloat-abi=hard"],
    "cortex-m55": ["-mcpu=cortex-m55", "-mfloat-abi=hard"],
}


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, command))} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def global_symbols(path):
    """Names (mangled) of the code and data an object or ELF defines globally."""
    out = run(["arm-none-eabi-nm", "--defined-only", str(path)])
    return {line.split()[2] for line in out.splitlines() if len(line.split()) == 3 and line.split()[1] in "TRDBW"}


def main():
    p = argparse.ArgumentParser()
    for name in ("mote", "model", "input", "target", "machine", "platform_dir", "registry", "work"):
        p.add_argument("--" + name.replace("_", "-"), dest=name, required=True)
    p.add_argument("--compile-arg", action="append", default=[])
    a = p.parse_args()
    work = Path(a.work)
    shutil.rmtree(work, ignore_errors=True)
    (work / "obj").mkdir(parents=True)
    gen = work / "gen"
    program = work / "model.mote"
    run([a.mote, "compile", a.model, "--target", a.target, "-o", program, "--emit-c", gen, "--emit-sources",
         *a.compile_arg])
    model_id = next(gen.glob("*_sources.txt")).name[:-len("_sources.txt")]
    failures = []

    # The folder: the generated files, the manifest, and Mote's sources under mote/.
    for name in (f"{model_id}.h", f"{model_id}.c", f"{model_id}_kernels.c", f"{model_id}_sources.cmake"):
        if not (gen / name).is_file():
            failures.append(f"{gen / name} missing")
    sources = (gen / f"{model_id}_sources.txt").read_text().split()
    copied = sorted(str(f.relative_to(gen)) for f in (gen / "mote").rglob("*.cc"))
    if sorted(s for s in sources if s.startswith("mote/")) != copied:
        failures.append(f"{model_id}_sources.txt lists {sources}, the folder holds {copied}")
    for forbidden in ("mote/all_kernels.cc", "mote/kernel_registry.cc"):
        if (gen / forbidden).exists():
            failures.append(f"{forbidden} copied: the table of all kernels is not a firmware's")

    descr, payload = read_npy(a.input)
    (work / "sample_input.c").write_text(
        "#include <stdint.h>\n__attribute__((aligned(16))) const uint8_t sample_input[] = {"
        + ",".join(str(b) for b in payload) + "};\nconst uint32_t sample_input_bytes = " + str(len(payload)) + "u;\n")

    # Compile: Mote's sources and the generated ones with -I DIR/mote alone.
    cpu = CPU_FLAGS[a.target] + ["-mthumb", "-Os", "-ffunction-sections", "-fdata-sections", "-Wall", "-Wextra"]
    cc = ["arm-none-eabi-gcc", "-std=c99", "-Werror", *cpu]
    cxx = ["arm-none-eabi-g++", "-std=c++17", "-fno-exceptions", "-fno-rtti", "-fno-threadsafe-statics", *cpu]
    platform = Path(a.platform_dir)
    upper = model_id.upper()
    main_defines = [f'-DMODEL_HEADER="{model_id}.h"', f"-DMODEL_PROGRAM={model_id}_program",
                    f"-DMODEL_KERNELS={model_id}_kernels", f"-DMODEL_ARENA_BYTES={upper}_ARENA_BYTES"]
    jobs = []
    for source in sources:
        compiler = cc if source.endswith(".c") else cxx
        jobs.append((compiler + ["-I", str(gen / "mote")], gen / source))
    jobs.append((cc + ["-I", str(gen), "-I", str(gen / "mote"), *main_defines],
                 Path(__file__).parent / "emit_sources" / "main.c"))
    jobs.append((cc, work / "sample_input.c"))
    for platform_source in ("startup/startup.cc", "semihost.cc"):
        jobs.append((cxx + ["-I", str(platform)], platform / platform_source))
    objects = [work / "obj" / f"{i:03d}_{source.name}.o" for i, (_, source) in enumerate(jobs)]
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda job, obj: run(job[0] + ["-c", str(job[1]), "-o", str(obj)]), jobs, objects))
    elf = work / f"emit-sources-{model_id}-{a.target}.elf"
    run(["arm-none-eabi-g++", *CPU_FLAGS[a.target], "-mthumb", "-nostartfiles", "--specs=nano.specs",
         "-Wl,--gc-sections", "-L", str(platform / "ld"), "-T", f"{a.machine}.ld", *map(str, objects), "-lm",
         "-o", str(elf)])
    text_bytes = run(["arm-none-eabi-size", str(elf)]).splitlines()[1].split()[0]

    # Under QEMU: the outputs of the host run, byte for byte.
    qemu = subprocess.run(
        ["qemu-system-arm", "-M", a.machine, "-display", "none", "-monitor", "none", "-serial", "null",
         "-chardev", "stdio,id=shc", "-semihosting-config", "enable=on,target=native,chardev=shc",
         "-kernel", str(elf)], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    if qemu.returncode != 0 or not re.search(r"^ok$", qemu.stdout, re.M):
        failures.append(f"{elf} exited {qemu.returncode} under QEMU {a.machine}: {qemu.stdout[-300:]}{qemu.stderr}")
    else:
        host = work / "host"
        run([a.mote, "run", str(program), "--input", a.input, "--output-dir", str(host)])
        for j, line in enumerate(re.findall(r"^out\d+ ([0-9a-f]*)$", qemu.stdout, re.M)):
            out_descr, expected = read_npy(host / f"out{j}.npy")
            if out_descr == "<f4":  # float variants may sum in another order: 1e-4 relative
                got = struct.unpack(f"<{len(line) // 8}f", bytes.fromhex(line))
                want = struct.unpack(f"<{len(expected) // 4}f", expected)
                if len(got) != len(want) or any(abs(g - w) > 1e-4 * max(1.0, abs(w)) for g, w in zip(got, want)):
                    failures.append(f"output {j}: firmware {got[:8]} differs from the host {want[:8]}")
            elif line != expected.hex():
                failures.append(f"output {j}: firmware {line[:64]}... differs from the host {expected.hex()[:64]}...")
        if not re.search(r"^out0 ", qemu.stdout, re.M):
            failures.append("the firmware printed no output")

    # Exactly the program's kernels, and every copied kernels file used.
    used = json.loads(run([a.mote, "inspect", str(program), "--json"]))["kernels"]
    failures += kernel_link_failures(elf, a.registry, used)
    linked = global_symbols(elf)
    for source, obj in zip([s for _, s in jobs], objects):
        if "mote/" in str(source) and "/mote/runtime/" not in str(source) and not (global_symbols(obj) & linked):
            failures.append(f"{source.relative_to(gen)} is in the folder but nothing of it is linked")

    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print(f"OK: {elf.name}: {len(sources)} sources ({len(copied)} of Mote's), {text_bytes} bytes of .text; "
              f"kernels {sorted(used)}; outputs match the host")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
