#!/usr/bin/python3
"""`mote size`'s static stack bound against a stack-painted QEMU run (issue 20).

For each core: compile the model, read `mote size --json`'s stack_bytes (the static
-fcallgraph-info/-fstack-usage call-graph bound of mote_load and mote_run with the
program's kernels, platforms/cortex_m/size_probe/stack_bound.py) and run it under QEMU
(`mote run --json`: memory.stack_used_bytes, the runner paints the free stack before the
run and finds the lowest word it lost). The run must stay within the bound plus what an
interrupt may add (the SysTick counter's exception frame, with FP context, and its
handler), and the bound must not be loose (at most 3x the painted figure).

  check_stack.py --mote MOTE --model M --input IN.npy --cores cortex-m0plus,cortex-m4,...
"""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

INTERRUPT_BYTES = 128  # 26-word FP exception frame + alignment + the SysTick handler's frame
LOOSENESS = 3


def main():
    p = argparse.ArgumentParser()
    for name in ("mote", "model", "input", "cores"):
        p.add_argument("--" + name, required=True)
    a = p.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for core in a.cores.split(","):
            program = str(Path(tmp) / f"{core}.mote")
            subprocess.run([a.mote, "compile", a.model, "--target", core, "-o", program], check=True,
                           capture_output=True)
            size = json.loads(subprocess.run([a.mote, "size", program, "--target", core, "--json"], check=True,
                                             capture_output=True, text=True).stdout)
            run = json.loads(subprocess.run([a.mote, "run", program, "--input", a.input, "--output-dir",
                                             str(Path(tmp) / core), "--device", f"qemu-{core}", "--json"],
                                            check=True, capture_output=True, text=True).stdout)
            bound, used = size.get("stack_bytes"), run["memory"]["stack_used_bytes"]
            print(f"{core:14} static bound {bound} B, painted run {used} B")
            if not isinstance(bound, int):
                failures.append(f"{core}: no static stack bound: {size.get('stack_unknown')}")
            elif not 0 < used <= bound + INTERRUPT_BYTES:
                failures.append(f"{core}: the run used {used} B of stack, the static bound is {bound} B "
                                f"(+{INTERRUPT_BYTES} B for an interrupt)")
            elif bound > LOOSENESS * used:
                failures.append(f"{core}: the static bound {bound} B is more than {LOOSENESS}x the {used} B used")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
