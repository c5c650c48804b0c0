#include "target/target.h"

#include "common/error.h"

namespace mote {
namespace {

// QEMU has no Cortex-M0+ model: M0+ builds (Armv6-M code) run on the Cortex-M3 board.
// GCC's -mcpu=cortex-m33 includes the DSP extension; the M55 has DSP and Helium. The M4,
// M7, M33 and M55 builds are hard float with a single-precision FPU (M7: double too).
constexpr TargetInfo kTargets[] = {
    {Target::kHost, "host", {}, nullptr},
    {Target::kCortexM0Plus, "cortex-m0plus", {.v6m = true}, "mps2-an385"},
    {Target::kCortexM3, "cortex-m3", {}, "mps2-an385"},
    {Target::kCortexM4, "cortex-m4", {.dsp = true, .fpu = true}, "mps2-an386"},
    {Target::kCortexM7, "cortex-m7", {.dsp = true, .fpu = true}, "mps2-an500"},
    {Target::kCortexM33, "cortex-m33", {.dsp = true, .fpu = true}, "mps2-an505"},
    {Target::kCortexM55, "cortex-m55", {.dsp = true, .mve = true, .fpu = true}, "mps3-an547"},
};

constexpr bool in_target_order() {
  for (size_t i = 0; i < std::size(kTargets); ++i)
    if (static_cast<size_t>(kTargets[i].target) != i) return false;
  return true;
}
static_assert(in_target_order(), "kTargets is indexed by Target");

}  // namespace

std::span<const TargetInfo> targets() { return kTargets; }

const TargetInfo& target_info(Target target) { return kTargets[static_cast<size_t>(target)]; }

Target parse_target(const std::string& name) {
  for (const TargetInfo& t : kTargets)
    if (name == t.name) return t.target;
  throw CompileError("unknown target '" + name + "' (expected one of: " + target_list(false) + ")");
}

std::string target_list(bool cores_only, const std::string& prefix) {
  std::string list;
  for (const TargetInfo& t : kTargets) {
    if (cores_only && t.qemu_machine == nullptr) continue;
    if (!list.empty()) list += ", ";
    list += prefix + t.name;
  }
  return list;
}

}  // namespace mote
