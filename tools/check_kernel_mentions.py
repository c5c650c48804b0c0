#!/usr/bin/env python3
"""Checks that Mote's kernels are listed in one place (ctest kernel_mentions).

Outside tests/ and a kernel's own folder kernels/<op>/, a kernel may be named (its name,
or its enumerator k<Enumerator> / k<Enumerator>Entry) only by
  - the registry, kernels/kernel_registry.inc, and
  - the rule that chooses it: compiler/lower/variants.cc for a variant; for a reference
    kernel, the lowering that picks it for its op and dtype: one file of compiler/lower/
    (its op family's, e.g. conv.cc), never variants.cc.
Everything else that needs to know a kernel (ids, names, tables, entry symbols, source
lists, which reference a variant replaces and on which instruction set, placement in the
arena, MAC counts, conformance suites, link checks) reads the registry.

Scans the source, CMake, Python and shell files of the tree (not documentation). Names
without a dtype or ISA suffix (copy, pad, transpose, ...) are also Mote op names (and
their enumerators ir::Op enumerators), so for those kernels only the qualified enumerator
KernelId::k<Enumerator> and the entry k<Enumerator>Entry are looked for.

usage: check_kernel_mentions.py [SOURCE_DIR]     (default: this checkout)
Prints one line per mention out of place and exits 1 if there is any.
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernel_registry import read_registry  # noqa: E402

REGISTRY = "kernels/kernel_registry.inc"
VARIANT_RULE = "compiler/lower/variants.cc"
LOWERING = "compiler/lower/"  # a reference kernel's lowering: one file of this folder
SCANNED_SUFFIXES = {".cc", ".h", ".c", ".inc", ".cmake", ".py", ".sh", ".in"}
SKIPPED_DIRS = {"tests", ".git", ".ci"}
WORD = re.compile(r"(?:KernelId::)?[A-Za-z_][A-Za-z0-9_]*")
DISTINCT_NAME = re.compile(r"__|_(f32|s8|s16|s32)(_|$)")


def scanned_files(root):
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        top = rel.parts[0]
        if top in SKIPPED_DIRS or top.startswith("build") or not path.is_file():
            continue
        if path.suffix in SCANNED_SUFFIXES or path.name == "CMakeLists.txt":
            yield rel


def kernel_of_word(word, names, enumerators):
    """The kernel a word names, or None: its enumerator (kX, KernelId::kX, kXEntry), its
    name, or for a variant also one of its functions (<name>_make_params, ...)."""
    qualified = word.startswith("KernelId::")
    word = word[len("KernelId::"):] if qualified else word
    if re.match(r"k[A-Z]", word):
        entry = word.endswith("Entry")
        stem = word[1:-len("Entry")] if entry else word[1:]
        kernel = enumerators.get(stem)
        if kernel is not None and (qualified or entry or DISTINCT_NAME.search(kernel.name)):
            return kernel
    if word in names:
        return names[word]
    best = None
    for name, kernel in names.items():
        if kernel.is_variant and word.startswith(name + "_") and (best is None or len(name) > len(best.name)):
            best = kernel
    return best


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1])
    kernels = read_registry(root / REGISTRY)
    enumerators = {k.enumerator: k for k in kernels}
    names = {k.name: k for k in kernels if DISTINCT_NAME.search(k.name)}
    failures = []
    lowering_files = {}  # reference kernel name -> the compiler/lower/ files naming it
    for rel in scanned_files(root):
        rel_text = rel.as_posix()
        if rel_text == REGISTRY:
            continue
        for number, line in enumerate((root / rel).read_text(errors="replace").splitlines(), 1):
            for word in set(WORD.findall(line)):
                kernel = kernel_of_word(word, names, enumerators)
                if kernel is None or rel_text.startswith(f"kernels/{kernel.folder}/"):
                    continue
                if not kernel.is_variant and rel_text.startswith(LOWERING) and rel_text != VARIANT_RULE:
                    lowering_files.setdefault(kernel.name, set()).add(rel_text)
                    continue
                allowed = {VARIANT_RULE} if kernel.is_variant else {f"one file of {LOWERING}"}
                if rel_text not in allowed:
                    failures.append(f"{rel_text}:{number}: names kernel {kernel.name} ({word}); only "
                                    f"{REGISTRY}, kernels/{kernel.folder}/, tests/ and "
                                    f"{' '.join(sorted(allowed))} may")
    for name, files in sorted(lowering_files.items()):
        if len(files) > 1:
            failures.append(f"reference kernel {name} is named by {len(files)} lowering files "
                            f"({' '.join(sorted(files))}); one op family's file picks it")
    for failure in failures:
        print(failure)
    if failures:
        print(f"{len(failures)} mention(s) of kernels outside the registry and their rules")
        return 1
    print(f"{len(kernels)} kernels: each named only by the registry, its folder, tests and its selection rule")
    return 0


if __name__ == "__main__":
    sys.exit(main())
