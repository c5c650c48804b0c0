// Conformance of depthwise_conv2d_s8__dsp against depthwise_conv2d_s8: filters 1x1 to 5x5,
// strides 1-3, dilations 1-2, any padding (depthwise_conv2d_s8_dsp_cases.h).
#include "depthwise_conv2d_s8_dsp_cases.h"

namespace mote::conformance {

int run_depthwise_conv2d_s8__dsp(Rng& rng, int cases) {
  return run_depthwise_cases("depthwise_conv2d_s8__dsp", depthwise_conv2d_s8__dsp,
                             depthwise_conv2d_s8__dsp_scratch_bytes, false, rng, cases);
}

}  // namespace mote::conformance
