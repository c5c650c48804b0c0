#!/usr/bin/python3
"""Builds tests/install/consumer, a firmware project outside Mote's tree, the two ways a
user takes Mote into CMake, and checks the firmware it links (issue 21):

  package       Mote configured alone for cortex-m4 with no build type, built, and
                `cmake --install`ed into a prefix; the consumer calls find_package(Mote)
                on it. Checked: the prefix holds MoteConfig.cmake, mote.pc, the runtime
                headers and libraries, and nothing of the host tools; the libraries
                compiled at -Os.
  subdirectory  the consumer calls add_subdirectory(<mote> mote). Checked: no host
                dependency (ONNX, protobuf, flatbuffers, GoogleTest, CLI11, nlohmann_json)
                is looked for, the consumer's build type stays empty (not forced to
                Release), and the libraries compile at -Os.
package also builds and runs the project `mote init-firmware --mote-from package` writes
(tests/firmware/check_init_firmware.py) against the same prefix.
Both: the firmware runs the model under QEMU with outputs bit-identical to the host and
links exactly the model's kernels (tests/firmware/check_kernel_link.py: arm-none-eabi-nm),
and the arena (.bss.mote_arena) takes no flash with the board's linker script.

  check_consumer.py --mode package|subdirectory --source MOTE_DIR --mote MOTE --model M
                    --input IN.npy --work DIR [--generator G] [--launcher ccache]
Prints one line per failed check and exits 1, or "OK: ..." and 0.
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

CORE = "cortex-m4"
MACHINE = "mps2-an386"
HOST_PACKAGES = ("ONNX", "Protobuf", "FlatBuffers", "GTest", "CLI11", "nlohmann_json")


def run(cmd, **kw):
    """Runs cmd; on failure prints its output and raises."""
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if done.returncode != 0:
        print(done.stdout[-4000:], done.stderr[-4000:])
        raise RuntimeError(f"{' '.join(str(c) for c in cmd)} exited {done.returncode}")
    return done.stdout


def configure(source, build, args, a):
    cmd = ["cmake", "-S", source, "-B", build, "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
           f"-DCMAKE_TOOLCHAIN_FILE={a.source}/cmake/toolchains/arm-none-eabi.cmake", f"-DMOTE_CPU={CORE}", *args]
    if a.generator:
        cmd += ["-G", a.generator]
    if a.launcher:
        cmd += [f"-DCMAKE_C_COMPILER_LAUNCHER={a.launcher}", f"-DCMAKE_CXX_COMPILER_LAUNCHER={a.launcher}"]
    return run(cmd)


def library_flags_failures(build):
    """The runtime and a kernel compiled at -Os (no build type given)."""
    commands = json.loads((Path(build) / "compile_commands.json").read_text())
    failures = []
    for source in ("runtime/src/interpreter.cc", "kernels/conv2d/conv2d_s8.cc"):
        found = [c["command"] for c in commands if c["file"].endswith(source)]
        if not found:
            failures.append(f"{source} was not compiled in {build}")
        elif not re.search(r"(^|\s)-Os(\s|$)", found[0]) or re.search(r"\s-O[0123](\s|$)", found[0]):
            failures.append(f"{source} compiled without -Os (or with another -O): {found[0]}")
    return failures


def arena_failures(files):
    """The arena lies in a section without contents (NOBITS), in the object that defines it
    and in the linked firmware, so no linker script can put its zeros in flash (a section
    named .mote_arena is PROGBITS in the object: its placement decides)."""
    failures = []
    for f in files:
        nobits = set(re.findall(r"\]\s+(\S+)\s+NOBITS", run(["arm-none-eabi-readelf", "-S", "-W", f])))
        match = re.search(r"^[0-9a-f]+ l\s+O (\S+)\s+[0-9a-f]+ arena$", run(["arm-none-eabi-objdump", "-t", f]), re.M)
        if not match:
            failures.append(f"{f}: no `arena` object in the symbol table")
        elif match.group(1) not in nobits:
            failures.append(f"{f}: the arena is in {match.group(1)}, a section with contents (it could take flash)")
    return failures


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mode", choices=("package", "subdirectory"), required=True)
    for name in ("source", "mote", "model", "input", "work"):
        p.add_argument("--" + name, required=True)
    p.add_argument("--generator", default="")
    p.add_argument("--launcher", default="")
    a = p.parse_args()
    work = Path(a.work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    failures = []

    model_id = Path(a.model).stem
    gen = work / "generated"
    run([a.mote, "compile", a.model, "--target", CORE, "--emit-c", gen])
    run(["cmake", f"-DNPY={a.input}", f"-DOUT={gen}/sample_input.c", "-P",
         f"{a.source}/examples/cmake/npy_to_c.cmake"])
    consumer_args = [f"-DMOTE_CONSUMER_MODE={a.mode}", f"-DMOTE_SOURCE_DIR={a.source}",
                     f"-DMOTE_MODEL_ID={model_id}", f"-DMOTE_GENERATED_DIR={gen}",
                     f"-DMOTE_SAMPLE_INPUT_C={gen}/sample_input.c"]

    if a.mode == "package":
        mote_build, prefix = work / "mote-build", work / "prefix"
        configure(a.source, mote_build, [], a)
        run(["cmake", "--build", mote_build, "-j2"])
        run(["cmake", "--install", mote_build, "--prefix", prefix])
        failures += library_flags_failures(mote_build)
        for path in ("lib/cmake/Mote/MoteConfig.cmake", "lib/pkgconfig/mote.pc", "include/mote/mote.h",
                     "include/mote/cortex_m/instruction_counter.h", "lib/libmote_runtime.a",
                     "lib/libmote_kernels.a", "lib/libmote_cortex_m.a"):
            if not (prefix / path).is_file():
                failures.append(f"the installed package has no {path}")
        stray = [str(f.relative_to(prefix)) for f in prefix.rglob("*") if f.is_file() and re.search(r"^mote$|gtest|onnx|protobuf", f.name)]
        if stray:
            failures.append(f"the package installs host things: {stray}")
        pc = subprocess.run(["pkg-config", "--libs", "--cflags", "mote"], capture_output=True, text=True,
                            env={"PKG_CONFIG_PATH": str(prefix / "lib/pkgconfig"), "PATH": "/usr/bin:/bin"})
        if pc.returncode != 0 or f"-L{prefix}/lib" not in pc.stdout.replace("/lib/pkgconfig/../..", ""):
            failures.append(f"pkg-config --libs --cflags mote: {pc.stdout.strip()} {pc.stderr.strip()}")
        consumer_args.append(f"-DCMAKE_PREFIX_PATH={prefix}")

    build = work / "consumer-build"
    configure(f"{a.source}/tests/install/consumer", build, consumer_args, a)
    run(["cmake", "--build", build, "-j2"])
    cache = (build / "CMakeCache.txt").read_text()
    if a.mode == "subdirectory":
        failures += library_flags_failures(build)
        for package in HOST_PACKAGES:
            if re.search(rf"^{package}_DIR:", cache, re.M):
                failures.append(f"add_subdirectory looked for the host package {package}")
        if not re.search(r"^CMAKE_BUILD_TYPE:STRING=$", cache, re.M):
            failures.append("add_subdirectory changed the consumer's empty CMAKE_BUILD_TYPE")
    elf = build / "consumer.elf"
    objects = [o for name in ("main.c.obj", "main.c.o") for o in build.glob(f"CMakeFiles/consumer.dir/{name}")]
    failures += arena_failures([elf, *objects]) if objects else [f"no main.c object in {build}"]
    check = subprocess.run(
        ["/usr/bin/python3", f"{a.source}/tests/firmware/check_kernel_link.py", "--elf", elf, "--machine", MACHINE,
         "--mote", a.mote, "--model", a.model, "--input", a.input, "--target", CORE,
         "--registry", f"{a.source}/kernels/kernel_registry.inc"], capture_output=True, text=True)
    print(check.stdout.strip())
    if check.returncode != 0:
        failures.append(f"the {a.mode} consumer's firmware failed check_kernel_link.py (above)")

    if a.mode == "package":
        # The project `mote init-firmware --mote-from package` writes, on the same package.
        check = subprocess.run(
            ["/usr/bin/python3", f"{a.source}/tests/firmware/check_init_firmware.py", "--mote", a.mote,
             "--target", CORE, "--flash", "0x00000000:1MiB", "--ram", "0x20000000:256KiB", "--machine", MACHINE,
             "--model", a.model, "--input", a.input, "--registry", f"{a.source}/kernels/kernel_registry.inc",
             "--prefix", prefix, "--work", work / "init-firmware", "--generator", a.generator,
             "--launcher", a.launcher], capture_output=True, text=True)
        print(check.stdout.strip())
        if check.returncode != 0:
            failures.append(f"the init-firmware project on the installed package failed (above): {check.stderr[-2000:]}")

    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print(f"OK: {a.mode}: the consumer firmware links the model's kernels only, runs bit-identical to the host")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
