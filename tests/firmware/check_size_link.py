#!/usr/bin/python3
"""`mote size` against a linked firmware (issue 20): the flash `mote size` predicts for
the runtime and a program's kernels (shared code counted once) is within 3% of what the
kernel-link firmware around the same program actually links for Mote.

Mote's share of the firmware, from its GNU ld map (-Wl,-Map): every read-only input
section (.text, .rodata, .ARM.exidx/extab) kept from libmote_runtime.a or
libmote_kernels.a, plus those of the C and compiler library members Mote's code calls
(the map's cross reference table, -Wl,--cref, followed transitively from the Mote
members), whether or not the firmware calls them too. The firmware's own code (startup,
console, main, the generated kernel table) and the program bytes are not Mote's code.

With --max-firmware-bytes, also the firmware's whole read-only size (the done-means of
issue 20 for kws: runtime + kernels + libc, the program not included) against a limit.

  check_size_link.py --mote MOTE --model M --target T --map FIRMWARE.elf.map [compile args]
                     [--max-firmware-bytes N]
Prints both figures; exits 1 with one line per failed check.
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

TOLERANCE = 0.03
MOTE_ARCHIVES = ("libmote_runtime.a", "libmote_kernels.a")
READ_ONLY = re.compile(r"^\.(text|rodata|ARM\.exidx|ARM\.extab|init|fini|eh_frame)$")


def member_name(path):
    """'libc_nano.a(libc_a-memcpy.o)' from '/usr/lib/.../libc_nano.a(libc_a-memcpy.o)'."""
    return Path(path.strip()).name


def mote_members(text):
    """Archive members linked for Mote: the Mote archives' members, and every library
    member that defines a symbol one of those references (transitively), from the map's
    cross reference table (-Wl,--cref): a symbol line names the defining file, the lines
    under it the files that reference it."""
    if "\nCross Reference Table" not in text:
        raise SystemExit("FAIL: the map has no cross reference table (link with -Wl,--cref)")
    table = text.split("\nCross Reference Table", 1)[1].splitlines()[3:]
    users = {}  # defining member -> members referencing one of its symbols
    definer = None
    for line in table:
        if not line.strip():
            continue
        if not line.startswith(" "):
            definer = member_name(line.split()[-1])
            users.setdefault(definer, set())
        elif definer is not None:
            users[definer].add(member_name(line))
    mote = {m for m in users if m.split("(", 1)[0] in MOTE_ARCHIVES}
    for line in text.split("\nDiscarded input sections", 1)[0].splitlines():
        if line and not line.startswith(" ") and line.split("(", 1)[0].endswith(MOTE_ARCHIVES):
            mote.add(member_name(line))
    grown = True
    while grown:
        grown = False
        for member, referrers in users.items():
            if member not in mote and referrers & mote and "(" in member:
                mote.add(member)
                grown = True
    return mote


def section_bytes(text, members):
    """(Mote's bytes, all bytes) of the read-only input sections in the memory map."""
    memory = text.split("Linker script and memory map", 1)[1]
    keep = False
    pending = None
    mote_total = all_total = 0
    for line in memory.splitlines():
        if re.match(r"^\.[^ ]+", line):
            keep = bool(READ_ONLY.match(line.split()[0]))
            pending = None
            continue
        if not keep:
            continue
        m = re.match(r"^ (\.[^ ]+) +0x[0-9a-f]+ +0x([0-9a-f]+) (.+)$", line)
        if m:
            size, obj = int(m.group(2), 16), m.group(3)
        elif re.match(r"^ (\.[^ ]+)$", line):
            pending = line.strip()
            continue
        else:
            m = re.match(r"^ +0x[0-9a-f]+ +0x([0-9a-f]+) (.+)$", line)
            if not (pending and m):
                continue
            size, obj = int(m.group(1), 16), m.group(2)
        pending = None
        all_total += size
        if member_name(obj) in members:
            mote_total += size
    return mote_total, all_total


def main():
    p = argparse.ArgumentParser()
    for name in ("mote", "model", "target", "map"):
        p.add_argument("--" + name, required=True)
    p.add_argument("--compile-arg", action="append", default=[])
    p.add_argument("--max-firmware-bytes", type=int, default=0,
                   help="fail when the firmware's read-only sections exceed this (0: no limit)")
    a = p.parse_args()
    text = Path(a.map).read_text()
    members = mote_members(text)
    linked, firmware = section_bytes(text, members)
    with tempfile.TemporaryDirectory() as tmp:
        program = str(Path(tmp) / "m.mote")
        subprocess.run([a.mote, "compile", a.model, "--target", a.target, "-o", program, *a.compile_arg],
                       check=True, capture_output=True)
        size = json.loads(subprocess.run([a.mote, "size", program, "--target", a.target, "--json"],
                                         check=True, capture_output=True, text=True).stdout)
    predicted = size["code_text_bytes"]
    separate = size["runtime_text_bytes"] + size["kernels_text_bytes"]
    print(f"{a.target}: firmware read-only sections {firmware} B, of which Mote's {linked} B "
          f"({len(members)} archive members); mote size: {predicted} B with shared code once "
          f"({size['shared_text_bytes']} B shared), {separate} B counting each kernel alone")
    failures = []
    if not members or linked <= 0:
        failures.append(f"{a.map}: no Mote archive member in the link map")
    elif abs(predicted - linked) > TOLERANCE * linked:
        failures.append(f"mote size predicts {predicted} B of Mote code, the firmware links {linked} B "
                        f"({100.0 * (predicted - linked) / linked:+.1f}%, allowed +-{100 * TOLERANCE:.0f}%)")
    if a.max_firmware_bytes and firmware > a.max_firmware_bytes:
        failures.append(f"the firmware's read-only sections are {firmware} B, over the limit of "
                        f"{a.max_firmware_bytes} B by {firmware - a.max_firmware_bytes} B")
    if size["flash_bytes"] != predicted + size["program_bytes"]:
        failures.append("flash_bytes is not code_text_bytes + program_bytes")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
