// PLACEHOLDER (branch i20-s16-mve only): ids 186-189 belong to the 16x8 DSP variants of
// branch i20-s16-dsp; these entries only keep the registry's ids consecutive so this
// branch builds on its own. Drop this file and the four registry lines when merging.
#include "mote/kernel.h"

namespace mote {
namespace {
Status reserved_check(const OpContext&) { return Status::kBadParams; }
void reserved_run(const OpContext&) {}
}  // namespace
extern const KernelEntry kReserved186Entry, kReserved187Entry, kReserved188Entry,
    kReserved189Entry;
const KernelEntry kReserved186Entry = {reserved_check, reserved_run};
const KernelEntry kReserved187Entry = {reserved_check, reserved_run};
const KernelEntry kReserved188Entry = {reserved_check, reserved_run};
const KernelEntry kReserved189Entry = {reserved_check, reserved_run};
}  // namespace mote
