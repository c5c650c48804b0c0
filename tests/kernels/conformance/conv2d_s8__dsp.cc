// Conformance of conv2d_s8__dsp (any kernel, stride, dilation, padding; groups 1) against
// conv2d_s8; the cases are those of conv2d_s8_dsp_cases.h, three in four with a general
// window, one in four pointwise.
#include "conformance.h"
#include "conv2d/conv2d.h"
#include "conv2d_s8_dsp_cases.h"

namespace mote::conformance {

int run_conv2d_s8__dsp(Rng& rng, int cases) {
  return run_conv2d_s8_dsp_cases(rng, cases, "conv2d_s8__dsp", 4, conv2d_s8__dsp,
                                 conv2d_s8__dsp_scratch_bytes);
}

}  // namespace mote::conformance
