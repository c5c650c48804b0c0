"""Reads kernels/kernel_registry.inc, the one list of Mote's kernels (its header explains
the columns), for the Python tools and tests: tools/check_kernel_mentions.py and the
firmware link checks in tests/firmware."""
import re
from pathlib import Path

# MOTE_KERNEL(enumerator, id, name, "source", reference, isa, macs, placement)
LINE = re.compile(r'^MOTE_KERNEL\(([A-Za-z0-9]+), *([0-9]+), *([a-z0-9_]+), *"([^"]+)", *'
                  r'([A-Za-z0-9]+), *(portable|dsp|mve|v6m|fpu), *([a-z0-9_]+), *(.+)\)$')


class Kernel:
    def __init__(self, enumerator, kernel_id, name, source, reference, isa, placement):
        self.enumerator = enumerator          # KernelId::k<enumerator>
        self.id = kernel_id                   # the number programs store
        self.name = name                      # <op>_<dtype>[_<specialization>][__<isa>]
        self.source = source                  # "<op>/<file>.cc" under kernels/
        self.reference_enumerator = reference  # the reference kernel's enumerator
        self.reference = None                 # the reference kernel's name
        self.isa = isa                        # portable, dsp, mve, v6m or fpu
        self.placement = placement            # the placement column, as written

    @property
    def entry_symbol(self):
        return f"k{self.enumerator}Entry"

    @property
    def is_variant(self):
        return self.reference_enumerator != self.enumerator

    @property
    def folder(self):
        return self.source.split("/")[0]


def read_registry(path):
    """The kernels of the registry at `path`, in id order. Raises ValueError on a line it
    cannot read or a reference that names no kernel."""
    kernels = []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.startswith("MOTE_KERNEL("):
            continue
        match = LINE.match(line)
        if not match:
            raise ValueError(f"{path}:{number}: cannot read the registry line: {line}")
        enumerator, kernel_id, name, source, reference, isa, _macs, placement = match.groups()
        kernels.append(Kernel(enumerator, int(kernel_id), name, source, reference, isa, placement.strip()))
    by_enumerator = {k.enumerator: k for k in kernels}
    for k in kernels:
        if k.reference_enumerator not in by_enumerator:
            raise ValueError(f"{path}: {k.name}: reference {k.reference_enumerator} is not a kernel")
        k.reference = by_enumerator[k.reference_enumerator].name
    return kernels
