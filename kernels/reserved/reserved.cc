// PLACEHOLDER (branch i20-s16-v6m only): ids 192-193 belong to another branch's kernels;
// these entries only keep the registry's ids consecutive so this branch builds on its
// own. Drop this file and the two registry lines when merging.
#include "mote/kernel.h"

namespace mote {
namespace {
Status reserved_check(const OpContext&) { return Status::kBadParams; }
void reserved_run(const OpContext&) {}
}  // namespace
extern const KernelEntry kReserved192Entry, kReserved193Entry;
const KernelEntry kReserved192Entry = {reserved_check, reserved_run};
const KernelEntry kReserved193Entry = {reserved_check, reserved_run};
}  // namespace mote
