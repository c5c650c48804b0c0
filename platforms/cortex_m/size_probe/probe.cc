// One size probe: a link root that references exactly one thing, so that the linker
// (--gc-sections) keeps exactly what that thing costs in flash. Compiled once per probe:
//   -DMOTE_PROBE_ENTRY=k<name>Entry      one kernel (its KernelEntry, check, run, helpers,
//                                        and whatever libc/libm/libgcc code they call)
//   neither                              the baseline every other probe is measured
//                                        against; linked with -Wl,--undefined=<f> for
//                                        every C API function f it measures the runtime
//                                        core (loader, verifier, executor, C API, status
//                                        strings)
#include "mote/kernel.h"

#if defined(MOTE_PROBE_ENTRY)
namespace mote {
extern const KernelEntry MOTE_PROBE_ENTRY;
}
extern "C" const void* mote_size_probe_root() { return &mote::MOTE_PROBE_ENTRY; }

#else
extern "C" const void* mote_size_probe_root() { return nullptr; }
#endif
