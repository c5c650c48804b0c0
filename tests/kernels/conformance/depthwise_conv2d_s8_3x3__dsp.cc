// Conformance of depthwise_conv2d_s8_3x3__dsp against depthwise_conv2d_s8: 3x3 filters,
// strides 1-3, any padding (depthwise_conv2d_s8_dsp_cases.h). The variant's table (its
// params after the reference's, computed by the compiler) is made here for each case.
#include "depthwise_conv2d_s8_dsp_cases.h"

namespace mote::conformance {

namespace {

void with_table(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                const int32_t* shifts, const DepthwiseConv2dShape& shape, const int8_t* input,
                const int8_t* filter, const int32_t* bias, int8_t* output, void* scratch) {
  void* table = arena().alloc(depthwise_conv2d_s8_3x3__dsp_table_bytes(shape.in_c), 4);
  if (table == nullptr) {
    skip_case("depthwise_conv2d_s8_3x3__dsp", -1, "arena too small for the table");
    return;
  }
  depthwise_conv2d_s8_3x3__dsp_make_table(params, multipliers, shifts, bias, filter, shape.in_c,
                                          table);
  depthwise_conv2d_s8_3x3__dsp(params, multipliers, shifts, shape, input, filter, bias, table,
                               output, scratch);
}

}  // namespace

int run_depthwise_conv2d_s8_3x3__dsp(Rng& rng, int cases) {
  return run_depthwise_cases("depthwise_conv2d_s8_3x3__dsp", with_table,
                             depthwise_conv2d_s8_3x3__dsp_scratch_bytes, true, rng, cases);
}

}  // namespace mote::conformance
