// The conformance suite's text output, one definition per platform (see conformance.cc).
#pragma once

namespace mote::conformance {

// Writes a NUL-terminated string as is (no newline added).
void conformance_sink(const char* text);

}  // namespace mote::conformance
