"""Which Mote kernels a firmware ELF links, read with arm-none-eabi-nm (shared by the
firmware checks in this folder)."""
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from kernel_registry import read_registry  # noqa: E402


def elf_symbols(elf):
    """Demangled names of every symbol in `elf`."""
    nm = subprocess.run(["arm-none-eabi-nm", "-C", str(elf)], check=True, capture_output=True,
                        text=True).stdout
    return {line.split(maxsplit=2)[2] for line in nm.splitlines() if len(line.split(maxsplit=2)) == 3}


def kernel_link_failures(elf, registry, used):
    """One message per difference between the kernels linked into `elf` and `used` (the
    program's kernels, as `mote inspect --json` lists them), with every kernel read from
    `registry` (kernels/kernel_registry.inc): each used kernel's KernelEntry is present,
    no other kernel's entry or code is, and neither the table of all kernels nor the heap
    is linked."""
    symbols = elf_symbols(elf)
    kernels = read_registry(registry)
    used = set(used)
    # An optimized variant runs its reference kernel's function for the shapes it leaves
    # to it and checks with the reference's check(): those may be linked, the reference's
    # KernelEntry and run() may not.
    fallbacks = {k.reference for k in kernels if k.is_variant and k.name in used}
    failures = [f"program kernel {k} is not in {registry}" for k in sorted(used - {k.name for k in kernels})]
    for kernel in kernels:
        symbol = f"mote::{kernel.entry_symbol}"
        name = kernel.name
        if (symbol in symbols) != (name in used):
            failures.append(f"{symbol} {'linked' if symbol in symbols else 'missing'}; program "
                            f"{'uses' if name in used else 'does not use'} {name}")
        code = rf"\b{name}_run\b" if name in fallbacks else rf"\b{name}_(run|check)\b|\bmote::{name}\("
        if name not in used and any(re.search(code, s) for s in symbols):
            failures.append(f"code of unused kernel {name} is linked")
    for forbidden in ("mote::all_kernels()", "malloc", "_malloc_r", "_sbrk", "free"):
        if forbidden in symbols:
            failures.append(f"{forbidden} is linked")
    return failures
