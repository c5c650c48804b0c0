#!/usr/bin/python3
"""`cmake --install` of the host build (issue 21): bin/mote and share/mote/{runtime,kernels}
land in the prefix, and the installed mote finds its sources there: the manifest of
`mote compile --emit-c` names <prefix>/share/mote, `--emit-sources` copies files identical
to the checkout's, and `mote init-firmware` writes its project.

  check_host_install.py --build BUILD --source MOTE_DIR --model M.onnx --work DIR
Prints one line per failed check and exits 1, or "OK: ..." and 0.
"""
import argparse
import filecmp
import re
import shutil
import subprocess
import sys
from pathlib import Path


def run(cmd):
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if done.returncode != 0:
        print(done.stdout[-3000:], done.stderr[-3000:])
        raise RuntimeError(f"{' '.join(str(c) for c in cmd)} exited {done.returncode}")
    return done.stdout


def main():
    p = argparse.ArgumentParser()
    for name in ("build", "source", "model", "work"):
        p.add_argument("--" + name, required=True)
    a = p.parse_args()
    work = Path(a.work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    prefix = work / "prefix"
    run(["cmake", "--install", a.build, "--prefix", prefix])
    failures = []
    mote = prefix / "bin/mote"
    share = prefix / "share/mote"
    for path in (mote, share / "runtime/include/mote/mote.h", share / "kernels/kernel_registry.inc",
                 share / "runtime/src/interpreter.cc"):
        if not path.is_file():
            failures.append(f"the install has no {path.relative_to(prefix)}")
    if failures:
        for f in failures:
            print("FAIL: " + f)
        return 1

    stem = Path(a.model).stem
    run([mote, "compile", a.model, "--target", "cortex-m4", "--emit-c", work / "gen"])
    manifest = (work / "gen" / f"{stem}_sources.cmake").read_text()
    root = re.search(r'_MOTE_SOURCE_DIR "([^"]+)"', manifest)
    if not root or Path(root.group(1)) != share.resolve():
        failures.append(f"the installed mote's manifest names {root.group(1) if root else 'no source dir'}, "
                        f"not {share.resolve()}")
    run([mote, "compile", a.model, "--target", "cortex-m4", "--emit-c", work / "copied", "--emit-sources"])
    listed = (work / "copied" / f"{stem}_sources.txt").read_text().split()
    copies = [Path(line) for line in listed if line.startswith("mote/")]
    if not copies:
        failures.append("--emit-sources copied no sources")
    for copy in copies:
        # The copies' layout: mote/runtime/X from runtime/src/X, mote/mote/X.h from
        # runtime/include/mote/X.h, mote/<path> from kernels/<path>.
        relative = copy.relative_to("mote")
        if relative.parts[0] == "runtime":
            original = Path(a.source) / "runtime/src" / relative.relative_to("runtime")
        elif relative.parts[0] == "mote":
            original = Path(a.source) / "runtime/include" / relative
        else:
            original = Path(a.source) / "kernels" / relative
        original = original if original.is_file() else None
        if original is None or not filecmp.cmp(work / "copied" / copy, original, shallow=False):
            failures.append(f"{copy} differs from the checkout's {original}")
            break
    run([mote, "init-firmware", "-o", work / "fw", "--target", "cortex-m4", "--flash", "0x0:1MiB",
         "--ram", "0x20000000:256KiB", "--model", a.model])
    if not (work / "fw/model/mote/mote/mote.h").is_file() or not (work / "fw/CMakeLists.txt").is_file():
        failures.append("the installed mote's init-firmware wrote no project with the copied sources")

    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print(f"OK: the installed mote ({mote}) takes its sources from {share} ({len(copies)} copied)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
