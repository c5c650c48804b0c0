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

// conv2d, depthwise_conv2d and fully_connected: the layers whose constant weights (input 1)
// are quantized per output channel, and whose inputs accumulate_input_hessians and
// accumulate_layer_moments gather.
bool is_weighted_layer(ir::Op op);

// Adds the input vectors one run of `node` reads from `input` (its float input 0, NHWC).
void accumulate_input_hessians(const ir::Graph& graph, const ir::Node& node, const float* input,
                               InputHessians* hessians);

// Rounds `rows` (each of length h.k, real weights) to integers in [-127, 127] on each
// row's grid `scales[r]`, the rounding error of each weight compensated by the later
// ones through matrix `matrix_of_row[r]` of `h`. Returns row-major integers.
std::vector<int8_t> gptq_round(const InputHessians& h, const std::vector<std::vector<double>>& rows,
                               const std::vector<double>& scales, const std::vector<size_t>& matrix_of_row);

// ---- Sequential compensation --------------------------------------------------------
//
// The layers are quantized in execution order, each on the inputs the program will really
// give it: those of the network whose earlier layers are already quantized (their weight
// and activation errors included), not the float network's. The layer's target is still
// the float layer's output on the float inputs, so it absorbs the linearly predictable
// part of the error arriving from upstream instead of passing it on (as in GPFQ, Lybrand &
// Saab 2021, which also quantizes on the quantized network's inputs). The bias is the last
// coordinate of an input extended by a constant 1 and is never rounded, so it ends up
// holding every mean error: the output mean per channel matches the float network's.
//
// The statistics, per matrix as for InputHessians, over the extended vectors x = [x; 1]:
//   qq = sum xq xq^T   (xq: the input in the partially quantized network, dequantized)
//   fq = sum xf xq^T   (xf: the same patch of the float network's input)
struct LayerMoments {
  int64_t k = 0;                        // patch length; the matrices are (k+1) x (k+1)
  std::vector<std::vector<double>> qq;  // row-major
  std::vector<std::vector<double>> fq;
  uint64_t count = 0;                   // patches summed (per matrix)
};

// Adds the patches `node` reads from its float input `xf` and the same positions of the
// quantized network's input `xq` (both float, NHWC, the shape of node input 0).
void accumulate_layer_moments(const ir::Graph& graph, const ir::Node& node, const float* xf, const float* xq,
                              LayerMoments* moments);

// Below this many patches per matrix coordinate, the least-squares step would fit the
// calibration samples rather than the layer (a classifier sees one vector per sample):
// such a layer keeps its float weights and only its bias is corrected.
constexpr uint64_t kPatchesPerCoordinate = 10;

// Step 1, before the grid is chosen: the real weights (rows of length k + 1, bias last)
// that map the quantized inputs closest to the float layer's outputs,
//   w' = w + (H_qq + lambda I)^-1 (C_fq - H_qq)^T w     (ridge regression towards w,
// lambda = 1% of the mean diagonal). Rows of matrices with too few patches are unchanged.
void fit_to_quantized_inputs(const LayerMoments& m, const std::vector<size_t>& matrix_of_row,
                             std::vector<std::vector<double>>* rows);

// Step 2: rounds the first k coordinates of each row to integers in [-127, 127] on grid
// scales[r], the error compensated by the later coordinates through H_qq (GPTQ) and the
// bias (coordinate k, returned real in rows[r][k]). For matrices with too few patches:
// nearest rounding, and the bias moves by E[xf].w - E[xq].q (the mean shift). Returns
// row-major integers (rows.size() x k).
std::vector<int8_t> round_on_quantized_inputs(const LayerMoments& m, const std::vector<size_t>& matrix_of_row,
                                              const std::vector<double>& scales,
                                              std::vector<std::vector<double>>* rows);

}  // namespace mote::ptq
