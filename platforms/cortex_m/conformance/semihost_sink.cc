// Conformance text output on a Cortex-M core: the semihosting console (QEMU's stderr).
#include "semihost.h"
#include "sink.h"

namespace mote::conformance {

void conformance_sink(const char* text) { semihost::write0(text); }

}  // namespace mote::conformance
