// Conformance of depthwise_conv2d_s8__mve (depth multiplier 1, any window) against
// depthwise_conv2d_s8 on the random cases of depthwise_conv2d_s8_dsp_cases.h, any window
// and 3x3 only.
#include "conformance.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d_s8_dsp_cases.h"

namespace mote::conformance {
namespace {

void variant(const DepthwiseConv2dS8Params& p, const int32_t* multipliers, const int32_t* shifts,
             const DepthwiseConv2dShape& s, const int8_t* input, const int8_t* filter,
             const int32_t* bias, int8_t* output, void* scratch) {
  depthwise_conv2d_s8__mve(p, multipliers, shifts, s, input, filter, bias, output,
                           static_cast<uint8_t*>(scratch));
}

}  // namespace

int run_depthwise_conv2d_s8__mve(Rng& rng, int cases) {
  // Any window, then 3x3 windows only (the variant's 3x3 path when the channel count is a
  // multiple of 4, the stride_w 1 or 2 and the dilation 1).
  return run_depthwise_cases("depthwise_conv2d_s8__mve", variant,
                             depthwise_conv2d_s8__mve_scratch_bytes, false, rng, cases) +
         run_depthwise_cases("depthwise_conv2d_s8__mve 3x3", variant,
                             depthwise_conv2d_s8__mve_scratch_bytes, true, rng, cases);
}

}  // namespace mote::conformance
