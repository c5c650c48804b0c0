// calibrate() and measure_accuracy(): both run whole programs on the host through the
// runtime and the same kernels the target runs, so the ranges are those of the float
// program users would otherwise deploy and the accuracy is that of the int8 program they get.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "all_kernels.h"
#include "common/error.h"
#include "ir/graph.h"
#include "link/link.h"
#include "host/loaded_program.h"
#include "ptq/lstm_cell.h"
#include "ptq/ptq.h"

namespace mote::ptq {
namespace {

using ir::shape_string;

constexpr int kHistogramBins = 2048;

// One run of a loaded program on inputs given as pointers to exactly the input tensors'
// bytes.
void run_once(LoadedProgram& program, const std::vector<const uint8_t*>& inputs) {
  const Interpreter& interp = program.interpreter();
  for (uint32_t i = 0; i < interp.input_count(); ++i)
    program.set_input(i, std::span<const uint8_t>(inputs[i], interp.input_desc(i)->bytes));
  program.run();
}

std::string describe_input(const ir::Graph& graph, size_t i) {
  const ir::Tensor& t = graph.tensors[graph.inputs[i]];
  return "input " + std::to_string(i) + " '" + t.name + "' " + shape_string(t.shape);
}

// Every check of the calibration files; returns N.
size_t check_inputs(const ir::Graph& graph, const std::vector<CalibrationInput>& inputs) {
  if (inputs.size() != graph.inputs.size()) {
    throw CompileError("--calibration: the model has " + std::to_string(graph.inputs.size()) +
                       " input(s), got " + std::to_string(inputs.size()) +
                       " calibration file(s) (one per input, in input order)");
  }
  size_t samples = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const CalibrationInput& in = inputs[i];
    const ir::Tensor& t = graph.tensors[graph.inputs[i]];
    // int32/int64 inputs are indices (token ids): samples of their own dtype, not quantized.
    const bool indices = t.dtype == DType::kInt32 || t.dtype == DType::kInt64;
    if (t.dtype != DType::kFloat32 && !indices) {
      throw CompileError(in.path + ": model " + describe_input(graph, i) + " is " + ir::dtype_name(t.dtype) +
                         "; --quantize needs float32 model inputs");
    }
    if (in.dtype != t.dtype) {
      throw CompileError(in.path + ": calibration data has dtype " + ir::dtype_name(in.dtype) + ", expected " +
                         ir::dtype_name(t.dtype) + " (samples of " + describe_input(graph, i) + ")");
    }
    ir::Shape expected = t.shape;
    expected.insert(expected.begin(), 0);
    bool shape_ok = in.shape.size() == expected.size();
    for (size_t d = 1; shape_ok && d < expected.size(); ++d) shape_ok = in.shape[d] == expected[d];
    // Samples stacked along a batch axis of 1 ([N, 3, 96, 96] for an input [1, 3, 96, 96]),
    // as a PyTorch DataLoader batch comes: the same bytes as [N, 1, 3, 96, 96].
    bool stacked = !t.shape.empty() && t.shape[0] == 1 && in.shape.size() == t.shape.size();
    for (size_t d = 1; stacked && d < t.shape.size(); ++d) stacked = in.shape[d] == t.shape[d];
    if (!shape_ok && !stacked) {
      std::string want = shape_string(expected);
      want.replace(1, 1, "N");
      std::string batch;
      if (!t.shape.empty() && t.shape[0] == 1) {
        batch = shape_string(t.shape);
        batch.replace(1, 1, "N");
        batch = " or " + batch;
      }
      throw CompileError(in.path + ": calibration data has shape " + shape_string(in.shape) + ", expected " +
                         want + batch + " (N samples of " + describe_input(graph, i) + ")");
    }
    const auto n = static_cast<size_t>(in.shape[0]);
    if (n == 0) throw CompileError(in.path + ": calibration data is empty (0 samples of " + describe_input(graph, i) + ")");
    if (in.data.size() != n * static_cast<size_t>(t.bytes())) {
      throw CompileError(in.path + ": calibration data holds " + std::to_string(in.data.size()) +
                         " bytes, expected " + std::to_string(n * static_cast<size_t>(t.bytes())));
    }
    if (i == 0) {
      samples = n;
    } else if (n != samples) {
      throw CompileError(in.path + ": calibration data has " + std::to_string(n) + " samples, but " +
                         inputs[0].path + " has " + std::to_string(samples) +
                         "; every input needs the same number");
    }
    if (indices) continue;
    const auto* values = reinterpret_cast<const float*>(in.data.data());
    const auto per_sample = static_cast<size_t>(t.elements());
    for (size_t k = 0; k < n * per_sample; ++k) {
      if (!std::isfinite(values[k])) {
        throw CompileError(in.path + ": calibration data has " + (std::isnan(values[k]) ? "NaN" : "infinity") +
                           " at sample " + std::to_string(k / per_sample) + ", element " +
                           std::to_string(k % per_sample));
      }
    }
  }
  return samples;
}

std::vector<const uint8_t*> sample_pointers(const ir::Graph& graph, const std::vector<CalibrationInput>& inputs,
                                            size_t sample) {
  std::vector<const uint8_t*> pointers;
  for (size_t i = 0; i < inputs.size(); ++i)
    pointers.push_back(inputs[i].data.data() + sample * static_cast<size_t>(graph.tensors[graph.inputs[i]].bytes()));
  return pointers;
}

struct Histogram {
  float lo = 0, hi = 0;
  std::vector<uint64_t> counts;
  uint64_t total = 0;

  void add(const float* v, size_t n) {
    const double width = static_cast<double>(hi) - lo;
    for (size_t k = 0; k < n; ++k) {
      int bin = width > 0 ? static_cast<int>((v[k] - static_cast<double>(lo)) / width * kHistogramBins) : 0;
      bin = std::clamp(bin, 0, kHistogramBins - 1);
      ++counts[bin];
    }
    total += n;
  }
  double bin_lo(int b) const { return lo + (static_cast<double>(hi) - lo) * b / kHistogramBins; }
  double center(int b) const { return lo + (static_cast<double>(hi) - lo) * (b + 0.5) / kHistogramBins; }
};

Range percentile_range(const Histogram& h, double percentile) {
  const double tail = (100.0 - percentile) / 100.0 * static_cast<double>(h.total);
  Range r{h.lo, h.hi};
  uint64_t below = 0;
  for (int b = 0; b < kHistogramBins; ++b) {
    if (static_cast<double>(below + h.counts[b]) > tail) {
      r.min = static_cast<float>(h.bin_lo(b));
      break;
    }
    below += h.counts[b];
  }
  uint64_t above = 0;
  for (int b = kHistogramBins - 1; b >= 0; --b) {
    if (static_cast<double>(above + h.counts[b]) > tail) {
      r.max = static_cast<float>(h.bin_lo(b + 1));
      break;
    }
    above += h.counts[b];
  }
  if (r.min > r.max) r = Range{h.lo, h.hi};
  return r;
}

// Expected squared error of quantizing the histogram's values with the int8 parameters
// of `range` (rounding inside, clipping outside).
double quantization_error(const Histogram& h, Range range) {
  float scale;
  int32_t zp;
  choose_int8_params(range, &scale, &zp);
  double error = 0;
  for (int b = 0; b < kHistogramBins; ++b) {
    if (h.counts[b] == 0) continue;
    const double x = h.center(b);
    const double q = std::clamp(std::round(x / scale) + zp, -128.0, 127.0);
    const double d = x - (q - zp) * scale;
    error += static_cast<double>(h.counts[b]) * d * d;
  }
  return error;
}

Range mse_range(const Histogram& h) {
  Range best{h.lo, h.hi};
  double best_error = quantization_error(h, best);
  // Shrink both ends together, then each end alone from the best common shrink.
  auto consider = [&](Range r) {
    const double e = quantization_error(h, r);
    if (e < best_error) {
      best_error = e;
      best = r;
    }
  };
  for (int k = 99; k >= 20; --k) consider(Range{h.lo * k / 100.0f, h.hi * k / 100.0f});
  const Range common = best;
  for (int k = 99; k >= 20; --k) consider(Range{common.min, common.max * k / 100.0f});
  const Range upper = best;
  for (int k = 99; k >= 20; --k) consider(Range{upper.min * k / 100.0f, upper.max});
  return best;
}

// Widens cell[k] for every lstm node k over one run (ptq/lstm_cell.h); `values` gives a
// float tensor's values in that run (nullptr when unknown: that node's cell stays unset).
template <typename Values>
void observe_lstm_cells(const ir::Graph& graph, const Values& values, std::vector<std::optional<Range>>* cell) {
  for (size_t k = 0; k < graph.nodes.size(); ++k) {
    const ir::Node& node = graph.nodes[k];
    if (node.op != ir::Op::kLstm || node.inputs.size() != 24) continue;
    (void)observe_lstm_cell(graph, node, values(node.inputs[0]), values(node.inputs[18]), values(node.inputs[19]),
                            &(*cell)[k]);
  }
}

}  // namespace

RangeMethod parse_range_method(const std::string& name) {
  if (name == "minmax") return RangeMethod::kMinMax;
  if (name == "percentile") return RangeMethod::kPercentile;
  if (name == "mse") return RangeMethod::kMse;
  throw CompileError("--calibration-method '" + name + "': expected minmax, percentile or mse");
}

const char* range_method_name(RangeMethod method) {
  switch (method) {
    case RangeMethod::kMinMax: return "minmax";
    case RangeMethod::kPercentile: return "percentile";
    case RangeMethod::kMse: return "mse";
  }
  return "?";
}

void choose_int8_params(Range range, float* scale, int32_t* zero_point) {
  const double lo = std::min(0.0, static_cast<double>(range.min));
  const double hi = std::max(0.0, static_cast<double>(range.max));
  if (!(hi - lo > 0)) {
    *scale = 1.0f;
    *zero_point = -128;
    if (lo < 0 || hi > 0) *zero_point = 0;
    return;
  }
  *scale = static_cast<float>((hi - lo) / 255.0);
  const double zp = std::round(-128.0 - lo / static_cast<double>(*scale));
  *zero_point = static_cast<int32_t>(std::clamp(zp, -128.0, 127.0));
}

Calibration calibrate(const ir::Graph& graph, const std::vector<CalibrationInput>& inputs,
                      const Options& options) {
  const size_t samples = check_inputs(graph, inputs);
  for (const ir::Tensor& t : graph.tensors) {
    if (!t.is_constant && (t.dtype == DType::kInt8 || t.dtype == DType::kInt16)) {
      throw CompileError("--quantize int8: the model is already quantized (tensor '" + t.name + "' is " +
                         ir::dtype_name(t.dtype) + ")");
    }
  }

  // A program returning every float activation after the model's own outputs.
  ir::Graph probe = graph;
  std::set<int> listed(graph.outputs.begin(), graph.outputs.end());
  for (const ir::Node& node : graph.nodes) {
    for (int id : node.outputs) {
      if (graph.tensors[id].dtype == DType::kFloat32 && listed.insert(id).second) probe.outputs.push_back(id);
    }
  }
  LoadedProgram program(link::link_program(probe, Target::kHost).program, "calibration");

  Calibration cal;
  cal.samples = samples;
  cal.observed.resize(graph.tensors.size());
  cal.infinite.assign(graph.tensors.size(), false);
  cal.chosen.resize(graph.tensors.size());
  const bool histograms = options.method != RangeMethod::kMinMax;
  const size_t total_runs = samples * (histograms ? 2 : 1);
  size_t runs = 0;

  cal.channel_mean.resize(graph.tensors.size());
  std::vector<uint64_t> mean_count(graph.tensors.size(), 0);
  auto observe = [&](int id, const float* v, size_t n, size_t sample) {
    const ir::Shape& shape = graph.tensors[id].shape;
    const size_t channels = shape.empty() || shape.back() <= 0 ? 1 : static_cast<size_t>(shape.back());
    std::vector<double>& mean = cal.channel_mean[id];
    if (mean.empty()) mean.assign(channels, 0.0);
    for (size_t k = 0; k < n; ++k) mean[k % channels] += v[k];
    mean_count[id] += n / channels;
    float lo = std::numeric_limits<float>::infinity();
    float hi = -lo;
    for (size_t k = 0; k < n; ++k) {
      if (std::isnan(v[k])) {
        throw CompileError("calibration: tensor '" + graph.tensors[id].name + "' is not finite (NaN) on sample " +
                           std::to_string(sample) + "; the float model overflows on this data");
      }
      if (std::isinf(v[k])) cal.infinite[id] = true;  // the inputs are checked finite
      lo = std::min(lo, v[k]);
      hi = std::max(hi, v[k]);
    }
    if (n == 0 || cal.infinite[id]) return;
    std::optional<Range>& r = cal.observed[id];
    if (!r) r = Range{lo, hi};
    r->min = std::min(r->min, lo);
    r->max = std::max(r->max, hi);
  };

  // Where each tensor's values are after a run: graph input i or probe output j.
  std::vector<int> input_index(graph.tensors.size(), -1), output_index(graph.tensors.size(), -1);
  for (size_t i = 0; i < graph.inputs.size(); ++i) input_index[graph.inputs[i]] = static_cast<int>(i);
  for (size_t j = 0; j < probe.outputs.size(); ++j) output_index[probe.outputs[j]] = static_cast<int>(j);
  cal.hessians.resize(graph.nodes.size());
  cal.lstm_cell.resize(graph.nodes.size());
  // A float tensor's values in the current run: graph input, probe output or constant.
  const std::vector<const uint8_t*>* current = nullptr;
  auto float_values = [&](int id) -> const float* {
    if (id == ir::kNoTensor || graph.tensors[id].dtype != DType::kFloat32) return nullptr;
    if (output_index[id] >= 0) return program.float_output(static_cast<uint32_t>(output_index[id]));
    if (input_index[id] >= 0) return reinterpret_cast<const float*>((*current)[static_cast<size_t>(input_index[id])]);
    return graph.tensors[id].is_constant ? graph.tensors[id].as<float>() : nullptr;
  };

  for (size_t s = 0; s < samples; ++s) {
    const std::vector<const uint8_t*> in = sample_pointers(graph, inputs, s);
    for (size_t i = 0; i < graph.inputs.size(); ++i) {
      const int id = graph.inputs[i];
      observe(id, reinterpret_cast<const float*>(in[i]), static_cast<size_t>(graph.tensors[id].elements()), s);
    }
    run_once(program, in);
    current = &in;
    observe_lstm_cells(graph, float_values, &cal.lstm_cell);
    if (options.gptq) {
      for (size_t k = 0; k < graph.nodes.size(); ++k) {
        const ir::Node& node = graph.nodes[k];
        if (!is_weighted_layer(node.op) || node.inputs.size() < 2 || node.inputs[1] == ir::kNoTensor ||
            !graph.tensors[node.inputs[1]].is_constant || graph.tensors[node.inputs[0]].dtype != DType::kFloat32)
          continue;
        const int id = node.inputs[0];
        const float* values = nullptr;
        if (output_index[id] >= 0) values = program.float_output(static_cast<uint32_t>(output_index[id]));
        else if (input_index[id] >= 0) values = reinterpret_cast<const float*>(in[input_index[id]]);
        if (values != nullptr) accumulate_input_hessians(graph, node, values, &cal.hessians[k]);
      }
    }
    std::vector<std::vector<float>> outputs;
    for (size_t j = 0; j < probe.outputs.size(); ++j) {
      const int id = probe.outputs[j];
      const auto n = static_cast<size_t>(graph.tensors[id].elements());
      const float* v = program.float_output(static_cast<uint32_t>(j));
      if (j < graph.outputs.size()) outputs.emplace_back(v, v + n);
      if (graph.tensors[id].dtype == DType::kFloat32) observe(id, v, n, s);
    }
    cal.float_outputs.push_back(std::move(outputs));
    if (options.progress) options.progress("calibrating", ++runs, total_runs);
  }
  for (size_t id = 0; id < graph.tensors.size(); ++id) {
    for (double& m : cal.channel_mean[id]) m = mean_count[id] ? m / static_cast<double>(mean_count[id]) : 0.0;
    if (cal.infinite[id]) {  // finite on some samples, infinite on others: no range at all
      cal.observed[id].reset();
      cal.channel_mean[id].clear();
    }
  }

  if (!histograms) {
    cal.chosen = cal.observed;
    return cal;
  }

  std::vector<Histogram> hist(graph.tensors.size());
  for (size_t id = 0; id < graph.tensors.size(); ++id) {
    if (!cal.observed[id]) continue;
    hist[id].lo = cal.observed[id]->min;
    hist[id].hi = cal.observed[id]->max;
    hist[id].counts.assign(kHistogramBins, 0);
  }
  for (size_t s = 0; s < samples; ++s) {
    const std::vector<const uint8_t*> in = sample_pointers(graph, inputs, s);
    for (size_t i = 0; i < graph.inputs.size(); ++i) {
      const int id = graph.inputs[i];
      hist[id].add(reinterpret_cast<const float*>(in[i]), static_cast<size_t>(graph.tensors[id].elements()));
    }
    run_once(program, in);
    for (size_t j = 0; j < probe.outputs.size(); ++j) {
      const int id = probe.outputs[j];
      if (!cal.observed[id] || graph.tensors[id].dtype != DType::kFloat32) continue;
      hist[id].add(program.float_output(static_cast<uint32_t>(j)), static_cast<size_t>(graph.tensors[id].elements()));
    }
    if (options.progress) options.progress("calibrating", ++runs, total_runs);
  }
  for (size_t id = 0; id < graph.tensors.size(); ++id) {
    if (!cal.observed[id]) continue;
    cal.chosen[id] = options.method == RangeMethod::kPercentile ? percentile_range(hist[id], options.percentile)
                                                                : mse_range(hist[id]);
  }
  return cal;
}

void compensate_sequentially(const ir::Graph& graph, const std::vector<CalibrationInput>& inputs,
                             const Options& options, const std::vector<bool>& prefer_int16,
                             Calibration* calibration) {
  calibration->moments.assign(graph.nodes.size(), LayerMoments{});
  // The weighted nodes, and a float program returning each one's input.
  std::vector<size_t> weighted;
  ir::Graph probe = graph;
  std::vector<int> input_index(graph.tensors.size(), -1), output_index(graph.tensors.size(), -1);
  for (size_t i = 0; i < graph.inputs.size(); ++i) input_index[graph.inputs[i]] = static_cast<int>(i);
  for (size_t j = 0; j < graph.outputs.size(); ++j) output_index[graph.outputs[j]] = static_cast<int>(j);
  for (size_t k = 0; k < graph.nodes.size(); ++k) {
    const ir::Node& node = graph.nodes[k];
    if (!is_weighted_layer(node.op) || node.inputs.size() < 2 || node.inputs[1] == ir::kNoTensor ||
        !graph.tensors[node.inputs[1]].is_constant || graph.tensors[node.inputs[0]].dtype != DType::kFloat32)
      continue;
    weighted.push_back(k);
    const int id = node.inputs[0];
    if (input_index[id] < 0 && output_index[id] < 0) {
      output_index[id] = static_cast<int>(probe.outputs.size());
      probe.outputs.push_back(id);
    }
  }
  if (weighted.empty()) return;
  LoadedProgram float_program(link::link_program(probe, Target::kHost).program, "sequential compensation (float)");
  // The quantized programs take float inputs whatever the I/O option; the layers inside
  // are the same.
  Options probing = options;
  probing.int8_io = false;
  for (size_t w = 0; w < weighted.size(); ++w) {
    const size_t k = weighted[w];
    const ir::Node& node = graph.nodes[k];
    Report scratch;
    const ir::Graph quantized =
        quantize_graph(graph, *calibration, probing, prefer_int16, &scratch, static_cast<int>(k));
    if (quantized.outputs.size() > graph.outputs.size()) {  // else the node stays float
      LoadedProgram program(link::link_program(quantized, Target::kHost).program, "sequential compensation");
      const auto probed = static_cast<uint32_t>(graph.outputs.size());
      const int id = node.inputs[0];
      for (size_t s = 0; s < calibration->samples; ++s) {
        const std::vector<const uint8_t*> in = sample_pointers(graph, inputs, s);
        const float* xf = nullptr;
        if (input_index[id] >= 0) {
          xf = reinterpret_cast<const float*>(in[static_cast<size_t>(input_index[id])]);
        } else {
          run_once(float_program, in);
          xf = float_program.float_output(static_cast<uint32_t>(output_index[id]));
        }
        run_once(program, in);
        accumulate_layer_moments(graph, node, xf, program.float_output(probed), &calibration->moments[k]);
      }
    }
    if (options.progress) options.progress("compensating", w + 1, weighted.size());
  }
}

bool class_scores(const ir::Graph& g, int id) {
  const ir::Tensor& t = g.tensors[id];
  if (t.shape.size() != 2 || t.shape[1] < 2) return false;
  bool one_row_per_sample = false;
  for (int in : g.inputs) {
    const ir::Shape& shape = g.tensors[in].shape;
    if (shape == t.shape) return false;
    one_row_per_sample = one_row_per_sample || (!shape.empty() && shape[0] == t.shape[0]);
  }
  if (!one_row_per_sample) return false;
  for (int p = g.producer(id); p >= 0; p = g.producer(g.nodes[p].inputs[0])) {
    const ir::Op op = g.nodes[p].op;
    if (op == ir::Op::kFullyConnected || op == ir::Op::kBatchMatMul || op == ir::Op::kSoftmax ||
        op == ir::Op::kLogSoftmax)
      return true;
    if ((op != ir::Op::kReshape && op != ir::Op::kQuantize && op != ir::Op::kDequantize) ||
        g.nodes[p].inputs.empty())
      return false;
  }
  return false;
}

void measure_accuracy(const ir::Graph& quantized, const std::vector<CalibrationInput>& inputs,
                      const Calibration& calibration, const Options& options, Report* report) {
  LoadedProgram program(link::link_program(quantized, Target::kHost).program, "accuracy check");
  Interpreter& interp = program.interpreter();
  const size_t outputs = quantized.outputs.size();
  std::vector<double> signal(outputs, 0.0), noise(outputs, 0.0);
  report->outputs.assign(outputs, OutputAccuracy{});
  for (size_t j = 0; j < outputs; ++j) report->outputs[j].name = quantized.tensors[quantized.outputs[j]].name;

  std::vector<std::vector<uint8_t>> converted(quantized.inputs.size());
  for (size_t s = 0; s < calibration.samples; ++s) {
    std::vector<const uint8_t*> in;
    for (size_t i = 0; i < quantized.inputs.size(); ++i) {
      const ir::Tensor& t = quantized.tensors[quantized.inputs[i]];
      const auto n = static_cast<size_t>(t.elements());
      if (t.dtype == inputs[i].dtype) {  // float32, or indices (int32, int64) as they are
        in.push_back(inputs[i].data.data() + s * static_cast<size_t>(t.bytes()));
        continue;
      }
      const auto* x = reinterpret_cast<const float*>(inputs[i].data.data()) + s * n;
      // int8 model input: quantize as the firmware would (round half away from zero).
      converted[i].resize(n);
      const float scale = t.quant.scales[0];
      const int32_t zp = t.quant.zero_points[0];
      for (size_t k = 0; k < n; ++k) {
        const double q = std::clamp(static_cast<double>(std::round(x[k] / scale)) + zp, -128.0, 127.0);
        converted[i][k] = static_cast<uint8_t>(static_cast<int8_t>(q));
      }
      in.push_back(converted[i].data());
    }
    run_once(program, in);
    for (size_t j = 0; j < outputs; ++j) {
      const ir::Tensor& t = quantized.tensors[quantized.outputs[j]];
      const auto n = static_cast<size_t>(t.elements());
      std::vector<float> got(n);
      if (t.dtype == DType::kFloat32) {
        if (n != 0) std::memcpy(got.data(), interp.output_data(static_cast<uint32_t>(j)), n * sizeof(float));
      } else if (t.dtype == DType::kInt8) {
        const auto* q = static_cast<const int8_t*>(interp.output_data(static_cast<uint32_t>(j)));
        for (size_t k = 0; k < n; ++k) got[k] = t.quant.scales[0] * static_cast<float>(q[k] - t.quant.zero_points[0]);
      } else {
        continue;  // a non-float output (indices) is not compared
      }
      const std::vector<float>& ref = calibration.float_outputs[s][j];
      for (size_t k = 0; k < n; ++k) {
        signal[j] += static_cast<double>(ref[k]) * ref[k];
        noise[j] += (static_cast<double>(ref[k]) - got[k]) * (static_cast<double>(ref[k]) - got[k]);
      }
      const int64_t classes = t.shape.back();
      if (class_scores(quantized, quantized.outputs[j])) {
        for (size_t row = 0; row + static_cast<size_t>(classes) <= n; row += static_cast<size_t>(classes)) {
          const auto a = std::max_element(ref.begin() + row, ref.begin() + row + classes) - ref.begin();
          const auto b = std::max_element(got.begin() + row, got.begin() + row + classes) - got.begin();
          ++report->outputs[j].top1_rows;
          if (a == b) ++report->outputs[j].top1_agreements;
        }
      }
    }
    if (options.progress) options.progress("measuring", s + 1, calibration.samples);
  }
  for (size_t j = 0; j < outputs; ++j) {
    report->outputs[j].sqnr_db = noise[j] == 0 ? std::numeric_limits<double>::infinity()
                                               : 10.0 * std::log10(signal[j] / noise[j]);
  }
}

}  // namespace mote::ptq
