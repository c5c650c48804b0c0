#include "ptq/lstm_cell.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace mote::ptq {
namespace {

// A float32 constant's values, or nullptr.
const float* constant_floats(const ir::Graph& graph, int id) {
  if (id == ir::kNoTensor) return nullptr;
  const ir::Tensor& t = graph.tensors[id];
  if (!t.is_constant || t.dtype != DType::kFloat32) return nullptr;
  return t.as<float>();
}

float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

// sum_k w[k] * v[k] in index order, as the float LSTM kernel sums.
float row_dot(const float* w, const float* v, int64_t n) {
  float total = 0.0f;
  for (int64_t k = 0; k < n; ++k) total += v[k] * w[k];
  return total;
}

}  // namespace

bool observe_lstm_cell(const ir::Graph& graph, const ir::Node& node, const float* x, const float* h0,
                       const float* c0, std::optional<Range>* range) {
  if (node.op != ir::Op::kLstm || node.inputs.size() != 24 || x == nullptr || h0 == nullptr || c0 == nullptr)
    return false;
  const ir::Shape& xs = graph.tensors[node.inputs[0]].shape;
  const ir::Tensor& h0_tensor = graph.tensors[node.inputs[18]];
  if (xs.size() != 3 || h0_tensor.shape.empty()) return false;
  const bool time_major = node.get_int("time_major", 0) != 0;
  const int64_t batches = time_major ? xs[1] : xs[0];
  const int64_t steps = time_major ? xs[0] : xs[1];
  const int64_t inputs = xs[2];
  const int64_t units = h0_tensor.shape.back();
  if (h0_tensor.elements() != batches * units || graph.tensors[node.inputs[19]].elements() != batches * units)
    return false;
  // Gates in TFLite's order: input, forget, cell, output.
  const float* wx[4];
  const float* wh[4];
  const float* bias[4];
  for (int g = 0; g < 4; ++g) {
    wx[g] = constant_floats(graph, node.inputs[1 + g]);
    wh[g] = constant_floats(graph, node.inputs[5 + g]);
    bias[g] = constant_floats(graph, node.inputs[12 + g]);
    if (wx[g] == nullptr || wh[g] == nullptr || bias[g] == nullptr) return false;
    if (graph.tensors[node.inputs[1 + g]].elements() != units * inputs ||
        graph.tensors[node.inputs[5 + g]].elements() != units * units ||
        graph.tensors[node.inputs[12 + g]].elements() != units)
      return false;
  }
  const double clip = node.get_float("cell_clip", 0.0);

  float lo = std::numeric_limits<float>::infinity();
  float hi = -lo;
  std::vector<float> h(static_cast<size_t>(units)), c(static_cast<size_t>(units)), next_h(h.size());
  for (int64_t b = 0; b < batches; ++b) {
    std::copy(h0 + b * units, h0 + (b + 1) * units, h.begin());
    std::copy(c0 + b * units, c0 + (b + 1) * units, c.begin());
    for (float v : c) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    for (int64_t t = 0; t < steps; ++t) {
      const float* x_row = x + (time_major ? t * batches + b : b * steps + t) * inputs;
      for (int64_t n = 0; n < units; ++n) {
        float pre[4];
        for (int g = 0; g < 4; ++g)
          pre[g] = row_dot(wx[g] + n * inputs, x_row, inputs) + bias[g][n] + row_dot(wh[g] + n * units, h.data(), units);
        float cell = sigmoid(pre[1]) * c[n] + sigmoid(pre[0]) * std::tanh(pre[2]);
        if (clip > 0) cell = static_cast<float>(std::clamp<double>(cell, -clip, clip));
        c[n] = cell;
        next_h[n] = std::tanh(cell) * sigmoid(pre[3]);
        lo = std::min(lo, cell);
        hi = std::max(hi, cell);
      }
      h.swap(next_h);
    }
  }
  if (!(lo <= hi)) return true;  // no batch rows: nothing to widen
  if (!*range) *range = Range{lo, hi};
  (*range)->min = std::min((*range)->min, lo);
  (*range)->max = std::max((*range)->max, hi);
  return true;
}

float lstm_cell_scale(Range range) {
  const double magnitude = std::max(std::fabs(static_cast<double>(range.min)), std::fabs(static_cast<double>(range.max)));
  int power = 0;
  while (power < 10 && std::ldexp(1.0, power) < magnitude) ++power;
  return static_cast<float>(std::ldexp(1.0, power - 15));
}

}  // namespace mote::ptq
