// Conformance text output on the host: stdout.
#include <stdio.h>

#include "sink.h"

namespace mote::conformance {

void conformance_sink(const char* text) {
  fputs(text, stdout);
  fflush(stdout);
}

}  // namespace mote::conformance
