// Fuzz target: hostile Ethos-U driver payloads and region tables -> the functional NPU
// model (platforms/ethos_u/ethos_u_model.h), one ethos_u_model_invoke per input.
//
// The property under test is the model's contract: whatever the payload (truncated,
// a wrong FourCC, unknown opcodes, addresses and lengths past the regions, huge feature
// maps, loops, strides and weight streams) and however small the regions and the
// workspace, invoke reads and writes only the payload, the regions and the workspace it
// is given, and returns 0 or one of its error codes with one line of text. The input
// format is fuzz/npu_payload_input.h; the seeds are the Vela files' payloads over their
// real region sizes with their real constant data (make_npu_payload_seeds).
//
// Not a property: speed. An operation costs what its registers declare, as on the NPU,
// and strides that make elements share bytes keep a huge feature map inside a small
// region (one 1.2 KB input found: a POOL over a 32x104x32769 OFM with stride C 1, 17 s
// under ASan). Such inputs show up as slow units, or as timeouts past -timeout.
#include <cstddef>
#include <cstdint>

#include "npu_payload_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mote::fuzz::run_npu_payload_input(data, size);
  return 0;
}
