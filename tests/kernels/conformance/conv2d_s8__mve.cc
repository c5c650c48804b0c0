// Conformance of conv2d_s8__mve (any kernel, stride, dilation, padding; groups 1) against
// conv2d_s8 on the cases of conv2d_s8_mve_cases.h (one in five pointwise).
#include "conformance.h"
#include "conv2d/conv2d.h"
#include "conv2d_s8_mve_cases.h"

namespace mote::conformance {
namespace {

uint32_t scratch_bytes(const Conv2dShape& s) {
  return conv2d_s8__mve_scratch_bytes(s.out_c, s.kernel_h, s.kernel_w, s.in_c);
}

}  // namespace

int run_conv2d_s8__mve(Rng& rng, int cases) {
  return run_conv2d_s8_mve_cases(rng, cases, "conv2d_s8__mve", false, conv2d_s8__mve,
                                 scratch_bytes);
}

}  // namespace mote::conformance
