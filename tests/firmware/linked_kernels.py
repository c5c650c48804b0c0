"""Which Mote kernels a firmware ELF links, read with arm-none-eabi-nm (shared by the
firmware checks in this folder)."""
import re
import subprocess
from pathlib import Path


def elf_symbols(elf):
    """Demangled names of every symbol in `elf`."""
    nm = subprocess.run(["arm-none-eabi-nm", "-C", str(elf)], check=True, capture_output=True,
                        text=True).stdout
    return {line.split(maxsplit=2)[2] for line in nm.splitlines() if len(line.split(maxsplit=2)) == 3}


def kernel_entry_symbol(kernel):
    """As compiler/emit/c_emitter.cc kernel_entry_symbol() spells it."""
    spelling = {"matmul": "MatMul"}
    return "mote::k" + "".join(spelling.get(part, part[:1].upper() + part[1:])
                               for part in kernel.split("_")) + "Entry"


def kernel_link_failures(elf, kernel_names_cc, used):
    """One message per difference between the kernels linked into `elf` and `used` (the
    program's kernels, as `mote inspect --json` lists them): each used kernel's
    KernelEntry is present, no other kernel's entry or code is, and neither the table of
    all kernels nor the heap is linked."""
    symbols = elf_symbols(elf)
    all_kernels = re.findall(r'return "([a-z0-9_]+)";', Path(kernel_names_cc).read_text())
    used = set(used)
    # An optimized variant (conv2d_s8_1x1__dsp) runs its reference kernel's function
    # (conv2d_s8) for the shapes it leaves to it and checks with the reference's check():
    # those may be linked, the reference's KernelEntry and run() may not.
    fallbacks = {re.sub(r"_(1x1|3x3)$", "", k.split("__")[0]) for k in used if "__" in k}
    failures = [f"program kernel {k} is not in kernels/kernel_names.cc" for k in sorted(used - set(all_kernels))]
    for kernel in all_kernels:
        symbol = kernel_entry_symbol(kernel)
        if (symbol in symbols) != (kernel in used):
            failures.append(f"{symbol} {'linked' if symbol in symbols else 'missing'}; program "
                            f"{'uses' if kernel in used else 'does not use'} {kernel}")
        code = rf"\b{kernel}_run\b" if kernel in fallbacks else rf"\b{kernel}_(run|check)\b|\bmote::{kernel}\("
        if kernel not in used and any(re.search(code, s) for s in symbols):
            failures.append(f"code of unused kernel {kernel} is linked")
    for forbidden in ("mote::all_kernels()", "malloc", "_malloc_r", "_sbrk", "free"):
        if forbidden in symbols:
            failures.append(f"{forbidden} is linked")
    return failures
