#!/usr/bin/python3
"""Static stack bounds for `mote size`, added to sizes-<core>.json (write_sizes.cmake).

For each size probe ELF (the runtime core, each kernel) it builds the call graph of the
code the probe linked, from its disassembly (arm-none-eabi-objdump -d: `bl` and `b.w`
to a function symbol are calls, `blx <reg>` an indirect call), and gives every function
a frame: the larger of GCC's own figure (-fcallgraph-info=su, the .ci files of the -Os
libraries: the numbers -fstack-usage writes) and the sum of every push, vpush and
`sub sp, #imm` in its body (the only figure for library code: libgcc, libc; an
over-estimate when a function has several exits). A function whose frame GCC calls dynamic, or that
moves sp by a register, or recursion, makes the bound unknown (null).

Written into the JSON:
  "stack": {"runtime": {"load": [deepest, at_indirect], "run": [deepest, at_indirect]},
            "kernels": {"k<enumerator>Entry": [check, run], ...}}
where deepest is the bound of the call tree below mote_load (every C API load function)
or mote_run, and at_indirect the deepest point from which they call through a pointer:
a kernel's check (load) or run function (run), or a profiler callback. `mote size`
adds the program's largest kernel figure to at_indirect.

  stack_bound.py --sizes sizes.json --dir <probe dir> --ci-dir <dir with .ci files>
                 --objdump arm-none-eabi-objdump
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys

LOAD_ROOTS = ("mote_load", "mote_load_npu")
RUN_ROOTS = ("mote_run",)
UNKNOWN = None
# bl, b and conditional branches (b<cond>), with an optional .w/.n width.
BRANCH = re.compile(r"^b(l|eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?(\.[wn])?$")


def ci_frames(ci_dir):
    """Mangled function name -> (bytes, dynamic) from every .ci file below ci_dir."""
    frames = {}
    node = re.compile(r'node: \{ title: "([^"]+)" label: "[^"]*\\n(\d+) bytes \(([a-z, ]+)\)"')
    for root, _, files in os.walk(ci_dir):
        for name in files:
            if not name.endswith(".ci"):
                continue
            with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                for match in node.finditer(f.read()):
                    function, size, kind = match.group(1), int(match.group(2)), match.group(3)
                    dynamic = "dynamic" in kind and "bounded" not in kind
                    old = frames.get(function)
                    frames[function] = (max(size, old[0]) if old else size, dynamic or (old and old[1]))
    return frames


def registers(text):
    """Number of registers in a push/vpush list like {r4, r5, lr} or {d8-d15}."""
    count = 0
    for item in text.strip("{} ").split(","):
        item = item.strip()
        m = re.match(r"([rds])(\d+)-[rds](\d+)$", item)
        count += int(m.group(3)) - int(m.group(2)) + 1 if m else 1
    return count


def disassemble(objdump, elf):
    """{function: {"frame": bytes or None, "calls": set, "indirect": bool}}."""
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", elf], check=True, capture_output=True,
                         text=True).stdout
    functions = {}
    current = None
    for line in out.splitlines():
        head = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if head:
            current = functions.setdefault(head.group(1), {"frame": 0, "calls": set(), "indirect": False})
            continue
        if current is None or "\t" not in line:
            continue
        fields = line.split("\t")
        if len(fields) < 2:
            continue
        op = fields[1].strip()
        args = fields[2].split("@")[0].strip() if len(fields) > 2 else ""
        if op in ("push", "push.w"):
            current["frame"] += 4 * registers(args)
        elif op.startswith("vpush"):
            current["frame"] += (8 if "d" in args else 4) * registers(args)
        elif op.startswith("stmdb") and args.startswith("sp!"):
            current["frame"] += 4 * registers(args.split(",", 1)[1])
        elif op.startswith("sub") and re.match(r"sp, (sp, )?#", args):
            current["frame"] += int(re.search(r"#(\d+)", args).group(1))
        elif op.startswith(("sub", "mov", "add")) and args.startswith("sp,") and not re.match(r"sp, (sp, )?#", args):
            if not re.match(r"sp, (r7|fp)$", args):
                current["dynamic"] = True  # sp moved by a register (restoring from r7 is an epilogue)
        elif op.startswith("blx") and re.match(r"(r\d+|ip|lr|fp|sl|sb)$", args):
            current["indirect"] = True
        elif BRANCH.match(op):
            target = re.search(r"<([^>]+)>", fields[2] if len(fields) > 2 else "")
            if not target:
                continue
            name, _, offset = target.group(1).partition("+")
            if op.startswith("bl") or not offset:
                current["calls"].add(name)  # a call, or a tail call (a branch to another symbol)
    return functions


def frames_for(functions, gcc):
    """Each function's frame: the larger of GCC's figure and the disassembly's (on Armv6-M
    GCC's figure can leave out an alignment word the code pushes); unknown when GCC calls
    it dynamic or the code moves sp by a register."""
    frame = {}
    for name, f in functions.items():
        dynamic = f.get("dynamic", False)
        size = f["frame"]
        if name in gcc:
            size = max(size, gcc[name][0])
            dynamic = dynamic or gcc[name][1]
        frame[name] = UNKNOWN if dynamic else size
    return frame


def resolve_indirect(functions, targets):
    """An indirect call may reach any of targets (the probe's address-taken functions):
    add them as callees of every function that calls through a pointer. True when there
    are targets (else the pointer leads outside the probe: a driver hook, unknown)."""
    for f in functions.values():
        if f["indirect"]:
            f["calls"] |= set(targets)
    return bool(targets) or not any(f["indirect"] for f in functions.values())


def bounds(functions, frame, root):
    """(deepest, at_indirect) below root: bytes of the deepest call chain, and of the
    deepest chain ending in a function that calls through a pointer (-1: none); None
    when a frame is unknown or the graph recurses (a call through a pointer in a
    kernel may reach each address-taken function of its probe: resolve_indirect)."""
    memo = {}

    def visit(name, active):
        if name in memo:
            return memo[name]
        if name in active or name not in functions or frame.get(name) is UNKNOWN:
            return None
        active.add(name)
        deep, indirect = 0, (0 if functions[name]["indirect"] else -1)
        for callee in functions[name]["calls"]:
            if callee == name:
                continue  # a loop branch that objdump labels with the function itself
            below = visit(callee, active)
            if below is None:
                active.discard(name)
                memo[name] = None
                return None
            deep = max(deep, below[0])
            if below[1] >= 0:
                indirect = max(indirect, below[1])
        active.discard(name)
        own = frame[name]
        memo[name] = (own + deep, own + indirect if indirect >= 0 else -1)
        return memo[name]

    return visit(root, set())


def elf_sections(elf):
    """(data, [(address, file offset, size)] of the loaded PROGBITS sections) of an ELF32."""
    data = open(elf, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 1:
        raise SystemExit(f"{elf}: not an ELF32 file")
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x2E)
    sections = []
    for i in range(shnum):
        _, kind, flags, addr, offset, size = struct.unpack_from("<IIIIII", data, shoff + i * shentsize)
        if kind == 1 and flags & 2:  # SHT_PROGBITS, SHF_ALLOC
            sections.append((addr, offset, size))
    return data, sections


def address_taken(elf, by_address):
    """Functions whose address (with the Thumb bit) is stored anywhere in the loaded image:
    the possible targets of an indirect call (a literal pool, a table in .rodata)."""
    data, sections = elf_sections(elf)
    taken = set()
    for addr, offset, size in sections:
        for i in range(offset + (-addr) % 4, offset + size - 3, 4):
            word, = struct.unpack_from("<I", data, i)
            if word & 1 and (word & ~1) in by_address:
                taken.add(by_address[word & ~1])
    return taken


def entry_functions(elf, symbol_address):
    """The (check, run) function addresses stored in a KernelEntry object."""
    data, sections = elf_sections(elf)
    for addr, offset, size in sections:
        if addr <= symbol_address < addr + size:
            return struct.unpack_from("<II", data, offset + symbol_address - addr)
    raise SystemExit(f"{elf}: no section holds the kernel entry at {symbol_address:#x}")


def symbols(nm, elf):
    """address (Thumb bit cleared) -> function name, and name -> address."""
    out = subprocess.run([nm, elf], check=True, capture_output=True, text=True).stdout
    by_address, by_name = {}, {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            address = int(parts[0], 16)
            by_name[parts[2]] = address
            if parts[1] in "TtWw":
                by_address.setdefault(address & ~1, parts[2])
    return by_address, by_name


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", required=True)
    p.add_argument("--dir", required=True)
    p.add_argument("--ci-dir", required=True)
    p.add_argument("--objdump", required=True)
    a = p.parse_args()
    nm = re.sub(r"objdump$", "nm", a.objdump)
    gcc = ci_frames(a.ci_dir)
    if not gcc:
        raise SystemExit(f"{a.ci_dir}: no .ci files (compile the libraries with -fcallgraph-info=su)")
    with open(a.sizes) as f:
        sizes = json.load(f)

    runtime_elf = os.path.join(a.dir, "probe_runtime.elf")
    functions = disassemble(a.objdump, runtime_elf)
    by_address, _ = symbols(nm, runtime_elf)
    resolve_indirect(functions, address_taken(runtime_elf, by_address))  # and kernels: at_indirect
    frame = frames_for(functions, gcc)
    runtime = {}
    for phase, roots in (("load", LOAD_ROOTS), ("run", RUN_ROOTS)):
        results = [bounds(functions, frame, r) for r in roots if r in functions]
        if not results:
            raise SystemExit(f"{runtime_elf}: none of {roots} linked")
        if any(r is None for r in results):
            runtime[phase] = None
        else:
            runtime[phase] = [max(r[0] for r in results), max(r[1] for r in results)]

    kernels = {}
    for entry in sizes["kernels"]:
        elf = os.path.join(a.dir, f"probe_{entry}.elf")
        functions = disassemble(a.objdump, elf)
        frame = frames_for(functions, gcc)
        by_address, by_name = symbols(nm, elf)
        symbol = f"_ZN4mote{len(entry)}{entry}E"
        if symbol not in by_name:
            raise SystemExit(f"{elf}: no symbol {symbol}")
        roots = [by_address.get(address & ~1) for address in entry_functions(elf, by_name[symbol])]
        resolved = resolve_indirect(functions, address_taken(elf, by_address) - set(roots))
        figures = []
        for name in roots:
            result = bounds(functions, frame, name) if name and resolved else None
            figures.append(None if result is None else result[0])
        kernels[entry] = figures
    sizes["stack"] = {"runtime": runtime, "kernels": kernels}
    with open(a.sizes + ".tmp", "w") as f:
        json.dump(sizes, f, indent=1)
        f.write("\n")
    os.replace(a.sizes + ".tmp", a.sizes)
    unknown = sorted(k for k, v in kernels.items() if None in v)
    print(f"stack bounds: runtime {runtime}, {len(kernels) - len(unknown)} of {len(kernels)} kernels bounded"
          + (f"; unknown: {', '.join(unknown)}" if unknown else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
