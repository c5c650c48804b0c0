#!/usr/bin/python3
"""Checks the sources manifest of `mote compile --emit-c` from a CMake project outside the
tree: for the checkout's files (no --emit-sources) and for the copies in DIR/mote
(--emit-sources), a project that does only
    include(<DIR>/lenet5_28_sources.cmake)
    add_executable(app main.c ${LENET5_28_SOURCES})
    target_include_directories(app PRIVATE ${LENET5_28_INCLUDE_DIRS})
builds on the host and its run of generated_model_test.c matches the golden output.

  check_sources_cmake.py --mote MOTE --model lenet5_28.onnx --input IN.npy --golden OUT.npy
                         --main generated_model_test.c --work DIR
Exits 0 when both builds run and match; otherwise prints the failure and exits 1.
"""
import argparse
import shutil
import subprocess
import sys
from pathlib import Path

PROJECT = """cmake_minimum_required(VERSION 3.20)
project(app C CXX)
set(CMAKE_CXX_STANDARD 17)
include({gen}/lenet5_28_sources.cmake)
add_executable(app {main} ${{LENET5_28_SOURCES}})
target_include_directories(app PRIVATE ${{LENET5_28_INCLUDE_DIRS}})
target_link_libraries(app PRIVATE m)
"""


def main():
    p = argparse.ArgumentParser()
    for name in ("mote", "model", "input", "golden", "main", "work"):
        p.add_argument("--" + name, required=True)
    a = p.parse_args()
    work = Path(a.work)
    shutil.rmtree(work, ignore_errors=True)
    for variant, extra in (("checkout", []), ("copied", ["--emit-sources"])):
        project = work / variant
        gen = project / "gen"
        project.mkdir(parents=True)
        steps = [
            [a.mote, "compile", a.model, "--target", "host", "--emit-c", str(gen), *extra],
            ["cmake", "-S", str(project), "-B", str(project / "build"), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release"],
            ["cmake", "--build", str(project / "build"), "-j2"],
            [str(project / "build" / "app"), a.input, a.golden],
        ]
        (project / "CMakeLists.txt").write_text(PROJECT.format(gen=gen.as_posix(), main=Path(a.main).as_posix()))
        for step in steps:
            result = subprocess.run(step, capture_output=True, text=True)
            if result.returncode != 0:
                print(f"FAIL ({variant}): {' '.join(step)}\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
                return 1
        sources = (gen / "lenet5_28_sources.txt").read_text().split()
        print(f"OK ({variant}): {len(sources)} sources; {result.stdout.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
