// The cores Mote compiles for, in one table: the --target names, the instruction-set
// features kernel variants use, and the QEMU machine that emulates each core for
// `mote run --device qemu-<core>`. Lowering, the variant rule, the CLI's help texts,
// `mote size` and the QEMU device runner (cli/device_runner.cc) all read it.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace mote {

enum class Target : uint8_t {
  kHost,
  kCortexM0Plus,
  kCortexM3,
  kCortexM4,
  kCortexM7,
  kCortexM33,
  kCortexM55,
};

// Instruction-set features of a core that kernel variants use.
struct TargetIsa {
  bool dsp = false;  // Armv7E-M / Armv8-M DSP extension (SMLAD, SXTB16, ...)
  bool mve = false;  // Armv8.1-M Helium (M-profile Vector Extension, integer)
  bool v6m = false;  // Armv6-M (Cortex-M0+): Thumb-1 only, no SIMD, no 64-bit multiply
  bool fpu = false;  // single-precision floating-point unit (hard float: VFMA.F32, 32 s-registers)
};

struct TargetInfo {
  Target target;
  const char* name;          // --target value: "host", "cortex-m4", ...
  TargetIsa isa;
  const char* qemu_machine;  // qemu-system-arm -M for `--device qemu-<name>`; nullptr: host
};

// Every target, in Target order (host first).
std::span<const TargetInfo> targets();
const TargetInfo& target_info(Target target);

// Throws CompileError "unknown target 'x' (expected one of: host, cortex-m0plus, ...)".
Target parse_target(const std::string& name);

// "host, cortex-m0plus, ..., cortex-m55" (cores_only: without "host"; prefix: put before
// each name, e.g. "qemu-"), for help texts and messages.
std::string target_list(bool cores_only, const std::string& prefix = "");

}  // namespace mote
