// Conformance of conv2d_s8__dsp (any kernel, stride, dilation, padding; groups 1) against
// conv2d_s8; the cases are those of conv2d_s8_dsp_cases.h, three in four with a general
// window, one in four pointwise, plus as many small-window cases (1-4 input channels,
// kernels up to 5x5 and 10x4, conv2d_s8_small_window_cases.h; the compiler gives those to
// the small-window variant, but this one runs them too), half as many ReLU-like ones at
// the extremes of that variant's shifted requantization, and as many for the
// widened-weights channel loop.
#include "conformance.h"
#include "conv2d/conv2d.h"
#include "conv2d_s8_dsp_cases.h"
#include "conv2d_s8_small_window_cases.h"

namespace mote::conformance {
int run_conv2d_s8__dsp(Rng& rng, int cases) {
  return run_conv2d_s8_dsp_cases(rng, cases, "conv2d_s8__dsp", 4, conv2d_s8__dsp,
                                 conv2d_s8__dsp_scratch_bytes) +
         run_small_window_cases(rng, cases, "conv2d_s8__dsp", conv2d_s8__dsp,
                                [](int32_t kernel_h, int32_t kernel_w, int32_t in_c) {
                                  return conv2d_s8__dsp_scratch_bytes(kernel_h, kernel_w, in_c, 0);
                                }) +
         run_small_window_shifted_cases(rng, cases / 2, "conv2d_s8__dsp", conv2d_s8__dsp,
                                        [](int32_t kernel_h, int32_t kernel_w, int32_t in_c) {
                                          return conv2d_s8__dsp_scratch_bytes(kernel_h, kernel_w, in_c, 0);
                                        },
                                        nullptr) +
         run_conv2d_s8_wide_cases(rng, cases, "conv2d_s8__dsp", conv2d_s8__dsp,
                                  conv2d_s8__dsp_scratch_bytes);
}

}  // namespace mote::conformance
