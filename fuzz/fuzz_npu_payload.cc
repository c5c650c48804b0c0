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
#include <cstddef>
#include <cstdint>

#include "npu_payload_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mote::fuzz::run_npu_payload_input(data, size);
  return 0;
}
