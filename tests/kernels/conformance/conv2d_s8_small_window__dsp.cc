// Conformance of conv2d_s8_small_window__dsp (windows of at most 24 SMLAD steps; groups 1;
// any stride, dilation, padding) against conv2d_s8: the small-window cases of
// conv2d_s8_small_window_cases.h (few input channels, 10x4x1 as kws' first layer, mostly
// the common quantization of the asm channel-pair blocks, biases at the edge of their
// |acc| < 2^30), twice as many as conv2d_s8__dsp runs; with every pair's record kept
// (pair_records 1) in three of four cases that allow it (one-word window rows, even
// out_c above 16).
#include "conformance.h"
#include "conv2d/conv2d.h"
#include "conv2d_s8_dsp_cases.h"
#include "conv2d_s8_small_window_cases.h"

namespace mote::conformance {

int run_conv2d_s8_small_window__dsp(Rng& rng, int cases) {
  return run_small_window_cases(rng, 2 * cases, "conv2d_s8_small_window__dsp", conv2d_s8_small_window__dsp,
                                conv2d_s8_small_window__dsp_scratch_bytes,
                                conv2d_s8_small_window__dsp_records_bytes) +
         run_small_window_shifted_cases(rng, cases, "conv2d_s8_small_window__dsp", conv2d_s8_small_window__dsp,
                                        conv2d_s8_small_window__dsp_scratch_bytes,
                                        conv2d_s8_small_window__dsp_shifted_exponent,
                                        conv2d_s8_small_window__dsp_records_bytes);
}

}  // namespace mote::conformance
