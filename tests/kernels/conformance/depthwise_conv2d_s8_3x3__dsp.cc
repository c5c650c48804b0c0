// Conformance of depthwise_conv2d_s8_3x3__dsp against depthwise_conv2d_s8: 3x3 filters,
// strides 1-3, any padding (depthwise_conv2d_s8_dsp_cases.h).
#include "depthwise_conv2d_s8_dsp_cases.h"

namespace mote::conformance {

int run_depthwise_conv2d_s8_3x3__dsp(Rng& rng, int cases) {
  return run_depthwise_cases("depthwise_conv2d_s8_3x3__dsp", depthwise_conv2d_s8_3x3__dsp,
                             depthwise_conv2d_s8_3x3__dsp_scratch_bytes, true, rng, cases);
}

}  // namespace mote::conformance
