// Post-training static quantization of a float Mote graph (ONNX models) to TFLite's int8
// scheme, so the integer kernels and their bit-exact tests serve both front ends.
//
//   calibrate():      runs the float graph on the host over the calibration samples (the
//                     real float kernels, through the runtime) and records the range of
//                     every activation; min/max, percentile or MSE-optimal clipping.
//   quantize_graph(): rewrites the graph: weights int8 symmetric per output channel,
//                     biases int32 (scale = input scale * weight scale), activations int8
//                     asymmetric per tensor from the ranges, fused activations folded into
//                     the output ranges. softmax/sigmoid/tanh outputs take TFLite's fixed
//                     quantization; pass-through ops (reshape, transpose, pooling, pad,
//                     slice) keep their input's. A node no integer kernel accepts stays
//                     float32 between dequantize/quantize nodes and is named in the report.
//                     Model inputs and outputs stay float32 unless int8_io is set.
//   measure_accuracy(): runs the quantized program over the same samples and compares
//                     each output with the float one (SQNR, top-1 agreement).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "ptq/gptq.h"
#include "report.h"

namespace mote::ptq {

// "minmax", "percentile", "mse"; throws CompileError for anything else.
RangeMethod parse_range_method(const std::string& name);
const char* range_method_name(RangeMethod method);

// One model input's calibration samples: shape [N, *input shape], or for an input whose
// first axis is 1, [N, *rest] (samples stacked along the batch axis: the same bytes);
// float32 (int32 or int64 for an index input: token ids, which stay unquantized).
struct CalibrationInput {
  std::string path;  // for messages
  DType dtype = DType::kFloat32;
  ir::Shape shape;
  std::vector<uint8_t> data;
};

// Where int8 activations are not accurate enough (the int8 program's SQNR against the
// float model on the calibration samples is below min_sqnr_db), kAuto moves activations
// to int16 (TFLite 16x8: int16 activations, int8 weights, int64 biases) from the end of the
// network backwards, as far as the arena stays within Options::arena_budget_bytes, or
// without a budget, that of the all-int8 program (the peak sits in the wide early layers;
// the later ones are small). The arenas are those of the finished programs (op order and
// patching included). kOff: int8 only. kAll: int16 activations wherever an int16 kernel
// exists, whatever the arena.
enum class Int16Policy { kOff, kAuto, kAll };

struct Options {
  RangeMethod method = RangeMethod::kMinMax;
  double percentile = 99.99;
  Int16Policy int16 = Int16Policy::kAuto;
  // Error-compensating weight rounding (ptq/gptq.h) instead of round-to-nearest. It
  // lowers each layer's output error when its inputs are correlated (trained models on
  // real data); on iid inputs it equals nearest rounding. MobileNetV2 0.05 with int16
  // activations, on 32 unseen samples: +0.2 dB on top of weight_step_search.
  bool gptq = true;
  // Sequential compensation (ptq/gptq.h): each weighted layer, in execution order, is fitted
  // and GPTQ-rounded on the inputs of the network whose earlier layers are already
  // quantized, towards the float layer's outputs, its bias absorbing the mean error. Costs
  // one partially quantized run over the calibration samples per weighted layer (MobileNetV2
  // 0.05: ~100 s). Takes precedence over `gptq`. Off by default: on MobileNetV2 0.05 it
  // raised the SQNR on the calibration samples by 4 dB but by 0.1 dB on 32 unseen ones
  // (it fits the calibration samples' own errors).
  bool sequential = false;
  // The weight grid step of each output channel from the fine search of ptq/weight_scale.h
  // (best_weight_scale) instead of max|w| clipped on a 2% grid (clipped_weight_scale).
  // MobileNetV2 0.05 on 32 unseen samples: +1.3 dB overall SQNR with int16 activations
  // throughout, +0.6 dB with the int16 policy inside the all-int8 arena (single samples
  // move by several dB either way). Costs ~3 s of compile time on that model (the
  // 1280x1000 classifier).
  bool weight_step_search = true;
  double min_sqnr_db = 30.0;
  // The arena Int16Policy::kAuto may grow to (0: the all-int8 program's arena).
  uint32_t arena_budget_bytes = 0;
  bool int8_io = false;  // keep model inputs/outputs int8 (no quantize/dequantize inside)
  // Called after each sample run: phase ("calibrating", "measuring"), done, total.
  std::function<void(const char* phase, size_t done, size_t total)> progress;
};

// What calibrate() observed, indexed by the graph's tensor ids.
struct Calibration {
  size_t samples = 0;
  std::vector<std::optional<Range>> observed;  // float activations and graph inputs
  std::vector<std::optional<Range>> chosen;    // after the range method (clipping)
  // Float activations that reached +-infinity on some sample (scores plus an additive -inf
  // attention mask): they get no range, so their producer and their readers stay float.
  std::vector<bool> infinite;
  // Mean of each slice along the last axis (the channel in NHWC, the feature of a
  // fully_connected input) over all samples and positions; empty where not observed.
  // Used for bias correction: the mean shift weight rounding causes is subtracted.
  std::vector<std::vector<double>> channel_mean;
  // Input statistics of each weighted node (index into graph.nodes) for GPTQ rounding.
  std::vector<InputHessians> hessians;
  // Sequential compensation statistics of each weighted node (index into graph.nodes),
  // filled by compensate_sequentially(); a node with none is quantized without.
  std::vector<LayerMoments> moments;
  // Per weight tensor id, its channels' grid steps (ptq/weight_scale.h) when already
  // searched (with_weight_steps, once for all the quantize_graph calls of the int16
  // policy); empty: the quantizer searches.
  std::vector<std::vector<double>> weight_steps;
  // Per node (index into graph.nodes), an lstm's cell state range over every step of every
  // sample (ptq/lstm_cell.h: the cell inside the sequence is no graph tensor); unset for
  // other nodes. Always min/max: TFLite's quantizer takes the cell's calibrated range.
  std::vector<std::optional<Range>> lstm_cell;
  // Float outputs per sample, graph output order, for the accuracy report.
  std::vector<std::vector<std::vector<float>>> float_outputs;
};

// Checks the samples (one file per graph input, of the input's dtype: float32, or int32 or
// int64 indices; shape [N, *input shape], the same N everywhere, every float finite) and runs the graph over them. Throws
// CompileError naming the file and what is wrong.
Calibration calibrate(const ir::Graph& graph, const std::vector<CalibrationInput>& inputs,
                      const Options& options);

// The quantized graph: int8 activations, int16 where prefer_int16[tensor id of `graph`]
// is set and an int16 kernel exists. `report` receives tensors and float_nodes.
// probe_node >= 0: the graph gets one more output after the model's, that node's input 0
// as the quantized program reads it, dequantized (none when the node stays float).
ir::Graph quantize_graph(const ir::Graph& graph, const Calibration& calibration,
                         const Options& options, const std::vector<bool>& prefer_int16, Report* report,
                         int probe_node = -1);

// Fills calibration->moments for every weighted node, in execution order: node k's come
// from the program quantized with prefer_int16 whose nodes before k already use theirs,
// run over the calibration samples next to the float graph.
void compensate_sequentially(const ir::Graph& graph, const std::vector<CalibrationInput>& inputs,
                             const Options& options, const std::vector<bool>& prefer_int16,
                             Calibration* calibration);

// The int16 policy's mechanisms (the search that uses them: compiler/search/search.h).
//
// `calibration` with every weighted node's weight grid steps searched once
// (Calibration::weight_steps), for the many quantize_graph calls of one policy search.
Calibration with_weight_steps(const ir::Graph& graph, const Calibration& calibration, const Options& options);

// The activations the policy may widen to int16, in execution order: every node output
// with a calibrated range. The policy's candidates make the last k of them int16.
std::vector<int> int16_candidates(const ir::Graph& graph, const Calibration& calibration);

// The worst output SQNR measure_accuracy put in `report` (+inf for none).
double worst_sqnr(const Report& report);

// Parses "off" / "auto" / "all"; throws CompileError otherwise.
Int16Policy parse_int16_policy(const std::string& name);

// Runs `quantized` over the calibration samples; fills report->outputs.
void measure_accuracy(const ir::Graph& quantized, const std::vector<CalibrationInput>& inputs,
                      const Calibration& calibration, const Options& options, Report* report);

// Whether graph output `tensor` holds class scores, the only outputs top-1 agreement
// means anything for (measure_accuracy counts it for no other): a [rows, K] tensor with
// K >= 2 and one row per sample (rows is the leading dim of a model input), not the
// shape of a model input (an autoencoder's reconstruction), made by a classifier's last
// op: softmax, log_softmax, or logits from fully_connected or batch_matmul, looking
// through reshapes and (de)quantizations. A segmentation map (rank 4, or flattened to a
// row per pixel), a feature vector (a pooled or averaged backbone output) and an
// embedding (l2-normalized) are none. A bare fully-connected embedding looks like logits
// and is counted: nothing in the graph tells them apart.
bool class_scores(const ir::Graph& graph, int tensor);

// TFLite's choice of int8 parameters for a real range: the range is widened to hold 0,
// scale = (max - min) / 255, zero point = round(-128 - min / scale) clamped to int8.
// A range of width 0 gets scale 1.
void choose_int8_params(Range range, float* scale, int32_t* zero_point);

}  // namespace mote::ptq
