// PLACEHOLDER (branch i20-f32-fpu only): ids 192-196 belong to other issue-20 branches;
// these entries only keep the registry's ids consecutive so this branch builds on its
// own. Drop this file and the five registry lines when merging.
#include "mote/kernel.h"

namespace mote {
namespace {
Status reserved_check(const OpContext&) { return Status::kBadParams; }
void reserved_run(const OpContext&) {}
}  // namespace
extern const KernelEntry kReserved192Entry, kReserved193Entry, kReserved194Entry, kReserved195Entry,
    kReserved196Entry;
const KernelEntry kReserved192Entry = {reserved_check, reserved_run};
const KernelEntry kReserved193Entry = {reserved_check, reserved_run};
const KernelEntry kReserved194Entry = {reserved_check, reserved_run};
const KernelEntry kReserved195Entry = {reserved_check, reserved_run};
const KernelEntry kReserved196Entry = {reserved_check, reserved_run};
}  // namespace mote
