// Conformance of conv2d_s8_1x1__dsp (1x1 kernel, no padding, any stride, groups 1)
// against conv2d_s8 on the pointwise cases of conv2d_s8_dsp_cases.h.
#include "conformance.h"
#include "conv2d/conv2d.h"
#include "conv2d_s8_dsp_cases.h"

namespace mote::conformance {

namespace {

uint32_t scratch_bytes_1x1(int32_t /*kernel_h*/, int32_t /*kernel_w*/, int32_t in_c) {
  return conv2d_s8_1x1__dsp_scratch_bytes(in_c);
}

}  // namespace

int run_conv2d_s8_1x1__dsp(Rng& rng, int cases) {
  return run_conv2d_s8_dsp_cases(rng, cases, "conv2d_s8_1x1__dsp", 1, conv2d_s8_1x1__dsp,
                                 scratch_bytes_1x1);
}

}  // namespace mote::conformance
