// Weight rounding that compensates its own error (GPTQ, Frantar et al. 2022: "Accurate
// Post-Training Quantization for Generative Pre-trained Transformers", after Optimal Brain
// Quantization). Rounding weight i of a row to the grid leaves an error that the weights
// not yet rounded absorb, in proportion to how their inputs correlate with input i, so the
// layer's output error over the calibration inputs, not each weight's, is minimised.
//
// The statistic is H = E[x x^T] over the layer's float inputs (the im2col patches of a
// convolution), gathered during calibration by accumulate_input_hessians().
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"

namespace mote::ptq {

// Input second moments of one weighted node: conv2d (one matrix per group, K = KH*KW*C/g),
// depthwise_conv2d (one KHxKW matrix per input channel), fully_connected (one KxK).
struct InputHessians {
  int64_t k = 0;                          // matrix size
  std::vector<std::vector<double>> sums;  // row-major k*k each, sums of x x^T
  uint64_t count = 0;                     // input vectors summed (per matrix)
};

// True for the nodes accumulate_input_hessians handles.
bool has_input_hessians(const ir::Node& node);

// Adds the input vectors one run of `node` reads from `input` (its float input 0, NHWC).
void accumulate_input_hessians(const ir::Graph& graph, const ir::Node& node, const float* input,
                               InputHessians* hessians);

// Rounds `rows` (each of length h.k, real weights) to integers in [-127, 127] on each
// row's grid `scales[r]`, the rounding error of each weight compensated by the later
// ones through matrix `matrix_of_row[r]` of `h`. Returns row-major integers.
std::vector<int8_t> gptq_round(const InputHessians& h, const std::vector<std::vector<double>>& rows,
                               const std::vector<double>& scales, const std::vector<size_t>& matrix_of_row);

}  // namespace mote::ptq
