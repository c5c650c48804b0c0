// Conformance of conv2d_s8_1x1__mve (1x1 kernel, no padding, any stride, groups 1) against
// conv2d_s8 on the pointwise cases of conv2d_s8_mve_cases.h.
#include "conformance.h"
#include "conv2d/conv2d.h"
#include "conv2d_s8_mve_cases.h"

namespace mote::conformance {
namespace {

uint32_t scratch_bytes(const Conv2dShape& s) { return conv2d_s8_1x1__mve_scratch_bytes(s.out_c); }

void call(const Conv2dS8Params& p, const int32_t* multipliers, const int32_t* shifts,
          const Conv2dShape& s, const int8_t* input, const int8_t* filter, const int32_t* bias,
          int8_t* output, uint8_t* scratch) {
  conv2d_s8_1x1__mve(p, multipliers, shifts, s, input, filter, bias, output,
                     reinterpret_cast<int32_t*>(scratch));
}

}  // namespace

int run_conv2d_s8_1x1__mve(Rng& rng, int cases) {
  return run_conv2d_s8_mve_cases(rng, cases, "conv2d_s8_1x1__mve", true, call, scratch_bytes);
}

}  // namespace mote::conformance
