// quantize_graph(): float Mote graph + calibrated ranges -> int8 Mote graph (TFLite scheme).
//
// Every tensor of the float graph has a "home" form in the new graph: int8 when an integer
// kernel produces it (or it is an int8 model input), float32 when a float op produces it.
// A consumer needing the other form gets a quantize or dequantize node, inserted once,
// right before the first consumer. Each node is first tried in int8: its candidate is
// lowered for the host exactly as the program will be, and if lowering refuses it (no
// integer kernel, a scale outside the kernel's range, ...) the node stays float32 and the
// refusal becomes the report's reason.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "lower/lower.h"
#include "ptq/lstm_cell.h"
#include "ptq/ptq.h"
#include "ptq/weight_scale.h"

namespace mote::ptq {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Values of a constant as float: float32 as stored, integer types through their
// quantization (TFLite "hybrid" weights) or as plain numbers.
std::vector<float> real_values(const ir::Tensor& t) {
  const auto n = static_cast<size_t>(t.elements());
  std::vector<float> v(n);
  const ir::QuantParams& q = t.quant;
  auto dequant = [&](size_t k, double raw) {
    if (q.empty()) return static_cast<float>(raw);
    size_t c = 0;
    if (q.scales.size() > 1 && q.axis >= 0) {
      int64_t inner = 1;
      for (size_t d = static_cast<size_t>(q.axis) + 1; d < t.shape.size(); ++d) inner *= t.shape[d];
      c = (k / static_cast<size_t>(inner)) % q.scales.size();
    }
    return static_cast<float>(q.scales[c] * (raw - q.zero_points[c < q.zero_points.size() ? c : 0]));
  };
  for (size_t k = 0; k < n; ++k) {
    switch (t.dtype) {
      case DType::kFloat32: v[k] = t.as<float>()[k]; break;
      case DType::kInt8: v[k] = dequant(k, t.as<int8_t>()[k]); break;
      case DType::kInt16: v[k] = dequant(k, t.as<int16_t>()[k]); break;
      case DType::kInt32: v[k] = dequant(k, t.as<int32_t>()[k]); break;
      default: throw CompileError("constant '" + t.name + "' has dtype " + ir::dtype_name(t.dtype) +
                                  ", which --quantize cannot read");
    }
  }
  return v;
}

ir::QuantParams per_tensor(float scale, int32_t zero_point) {
  ir::QuantParams q;
  q.scales = {scale};
  q.zero_points = {zero_point};
  return q;
}

bool same_quant(const ir::QuantParams& a, const ir::QuantParams& b) {
  return a.scales == b.scales && a.zero_points == b.zero_points && a.axis == b.axis;
}

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> out(v.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), v.data(), out.size());
  return out;
}

// Normalised fused activation of a quantized node: TFLite's int8 kernels only know none,
// ReLU, ReLU6 and ReLU_N1_TO_1; any other clamp holding 0 becomes ReLU or none plus a
// clipped output range, which saturation then enforces.
struct Activation {
  bool ok = true;
  double lo = -kInf, hi = kInf;            // the node's real bounds
  double attr_lo = -kInf, attr_hi = kInf;  // what the quantized node carries
};

Activation normalise_activation(const ir::Node& node) {
  Activation a;
  a.lo = node.get_float("act_min", -kInf);
  a.hi = node.get_float("act_max", kInf);
  const bool standard = (a.lo == -kInf && a.hi == kInf) || (a.lo == 0 && a.hi == kInf) ||
                        (a.lo == 0 && a.hi == 6) || (a.lo == -1 && a.hi == 1);
  if (standard) {
    a.attr_lo = a.lo;
    a.attr_hi = a.hi;
  } else if (a.lo == 0) {
    a.attr_lo = 0;
  } else if (!(a.lo <= 0 && a.hi >= 0)) {
    a.ok = false;
  }
  return a;
}

void set_activation(ir::Node& node, const Activation& a) {
  node.attrs.erase("act_min");
  node.attrs.erase("act_max");
  if (a.attr_lo != -kInf) node.attrs["act_min"] = a.attr_lo;
  if (a.attr_hi != kInf) node.attrs["act_max"] = a.attr_hi;
}

// Per output channel (slice `c` of `channels`, runs of `inner` values), the weight grid
// step of ptq/weight_scale.h.
std::vector<double> channel_steps(const std::vector<float>& v, int64_t channels, int64_t inner, bool search) {
  std::vector<std::vector<double>> rows(static_cast<size_t>(channels));
  for (size_t k = 0; k < v.size(); ++k) rows[static_cast<size_t>((static_cast<int64_t>(k) / inner) % channels)].push_back(v[k]);
  std::vector<double> steps(rows.size());
  for (size_t c = 0; c < rows.size(); ++c) steps[c] = search ? best_weight_scale(rows[c]) : clipped_weight_scale(rows[c]);
  return steps;
}

// The weights of a conv2d, depthwise_conv2d or fully_connected node and their channel axis.
bool weighted_node(const ir::Graph& graph, const ir::Node& node, int* weights, int* axis) {
  if (!is_weighted_layer(node.op)) return false;
  if (node.inputs.size() < 2 || node.inputs[1] == ir::kNoTensor || !graph.tensors[node.inputs[1]].is_constant) return false;
  *weights = node.inputs[1];
  *axis = node.op == ir::Op::kDepthwiseConv2d ? 3 : 0;
  return true;
}

class Quantizer {
 public:
  Quantizer(const ir::Graph& graph, const Calibration& cal, const Options& options,
            const std::vector<bool>& prefer_int16, Report* report, int probe_node)
      : g_(graph), cal_(cal), options_(options), prefer_int16_(prefer_int16), report_(report),
        probe_node_(probe_node),
        as_float_(graph.tensors.size(), -1), as_int8_(graph.tensors.size(), -1),
        as_int16_(graph.tensors.size(), -1) {}

  ir::Graph run() {
    q_.name = g_.name;
    for (int id : g_.inputs) {
      const ir::Tensor& t = g_.tensors[id];
      if (options_.int8_io && t.dtype == DType::kFloat32 && cal_.chosen[id]) {
        ir::Tensor qt = quant_tensor(t.name, t.shape, DType::kInt8, range_params(DType::kInt8, *cal_.chosen[id]));
        as_int8_[id] = add_activation(std::move(qt), id);
        q_.inputs.push_back(as_int8_[id]);
      } else {
        as_float_[id] = q_.add_tensor(t);
        q_.inputs.push_back(as_float_[id]);
      }
    }
    for (const ir::Node& node : g_.nodes) {
      bool int16 = !node.outputs.empty() && prefer_int16_.size() == g_.tensors.size() &&
                   prefer_int16_[node.outputs[0]];
      // An op that keeps its input's scale keeps its precision too (no requantization).
      const bool keeps_input_scale = ir::op_traits(node.op).quant_output == ir::QuantOutput::kInputScale;
      if (keeps_input_scale && !node.inputs.empty() && is_activation(node.inputs[0]) &&
          quantized_home(node.inputs[0]) >= 0)
        int16 = as_int16_[node.inputs[0]] >= 0 && as_int8_[node.inputs[0]] < 0;
      std::string reason;
      bool done = int16 && try_quantized(node, DType::kInt16, &reason);
      if (!done) {
        std::string reason8;
        done = try_quantized(node, DType::kInt8, &reason8);
        if (!done) reason = reason8;
      }
      if (!done) {
        keep_float(node);
        report_->float_nodes.push_back(node.name + " (" + ir::op_name(node.op) + "): " + reason);
      }
    }
    for (int id : g_.outputs) {
      int rep = -1;
      if (options_.int8_io) rep = rep_of(id, DType::kInt8);
      if (rep < 0) rep = rep_of(id, DType::kFloat32);
      // The model's output keeps its name; the internal form it came from is renamed.
      // (Its report line follows the rename: the report is matched by name below.)
      if (q_.tensors[rep].name != g_.tensors[id].name) {
        for (ir::Tensor& t : q_.tensors) {
          if (t.name != g_.tensors[id].name) continue;
          const std::string renamed = t.name + "/" + ir::dtype_name(t.dtype);
          for (TensorReport& r : report_->tensors)
            if (r.name == t.name && r.dtype == t.dtype) r.name = renamed;
          t.name = renamed;
        }
        q_.tensors[rep].name = g_.tensors[id].name;
      }
      q_.outputs.push_back(rep);
    }
    if (probe_input_ >= 0) {
      ir::Tensor f;
      f.name = q_.tensors[probe_input_].name + "/probe";
      f.dtype = DType::kFloat32;
      f.shape = q_.tensors[probe_input_].shape;
      const int id = q_.add_tensor(std::move(f));
      add_conversion(q_.tensors[id].name + "/dequantize", ir::Op::kDequantize, probe_input_, id);
      q_.outputs.push_back(id);
    }
    q_.remove_dead();
    // Report only the quantized activations that survived remove_dead, in execution order.
    std::vector<TensorReport> kept;
    for (const TensorReport& r : report_->tensors) {
      for (const ir::Tensor& t : q_.tensors) {
        if (t.name == r.name && !t.is_constant && (t.dtype == DType::kInt8 || t.dtype == DType::kInt16)) {
          kept.push_back(r);
          break;
        }
      }
    }
    report_->tensors = std::move(kept);
    return std::move(q_);
  }

 private:
  // ---- tensors --------------------------------------------------------------------

  // int8: asymmetric over the range (TFLite); int16: symmetric, zero point 0 (TFLite 16x8).
  static ir::QuantParams range_params(DType dtype, Range range) {
    if (dtype == DType::kInt16) {
      const double m = std::max(std::fabs(static_cast<double>(range.min)), std::fabs(static_cast<double>(range.max)));
      return per_tensor(m > 0 ? static_cast<float>(m / 32767.0) : 1.0f, 0);
    }
    float scale;
    int32_t zp;
    choose_int8_params(range, &scale, &zp);
    return per_tensor(scale, zp);
  }

  static ir::Tensor quant_tensor(const std::string& name, const ir::Shape& shape, DType dtype, ir::QuantParams quant) {
    ir::Tensor t;
    t.name = name;
    t.dtype = dtype;
    t.shape = shape;
    t.quant = std::move(quant);
    return t;
  }

  // Adds a quantized activation and its report line (`source`: the float tensor it stands for).
  int add_activation(ir::Tensor t, int source) {
    TensorReport r;
    r.name = t.name;
    r.dtype = t.dtype;
    r.scale = t.quant.scales[0];
    r.zero_point = t.quant.zero_points[0];
    if (source >= 0 && cal_.observed[source]) r.observed = *cal_.observed[source];
    const float qmin = t.dtype == DType::kInt16 ? -32768.0f : -128.0f;
    const float qmax = t.dtype == DType::kInt16 ? 32767.0f : 127.0f;
    r.chosen = Range{r.scale * (qmin - static_cast<float>(r.zero_point)), r.scale * (qmax - static_cast<float>(r.zero_point))};
    report_->tensors.push_back(r);
    return q_.add_tensor(std::move(t));
  }

  std::vector<int>& reps(DType dtype) {
    if (dtype == DType::kInt8) return as_int8_;
    if (dtype == DType::kInt16) return as_int16_;
    return as_float_;
  }

  // The quantized form the tensor was produced in (int16 first), or -1.
  int quantized_home(int id) const { return as_int16_[id] >= 0 ? as_int16_[id] : as_int8_[id]; }

  void add_conversion(const std::string& name, ir::Op op, int in, int out) {
    ir::Node node;
    node.name = name;
    node.op = op;
    node.inputs = {in};
    node.outputs = {out};
    q_.nodes.push_back(std::move(node));
  }

  // The form of source tensor `id` in `dtype` (float32, int8, int16), converting once from
  // the form it exists in: a copy for a constant, dequantize, quantize or requantize for an
  // activation. -1 when there is none: a quantized form of a constant or of a tensor
  // without a calibrated range.
  int rep_of(int id, DType dtype) {
    std::vector<int>& cache = reps(dtype);
    if (cache[id] >= 0) return cache[id];
    const ir::Tensor& t = g_.tensors[id];
    if (dtype == DType::kFloat32) {
      const int home = quantized_home(id);
      if (t.is_constant || home < 0) {
        cache[id] = q_.add_tensor(t);
        return cache[id];
      }
      ir::Tensor f;
      f.name = t.name + "/dequantized";
      f.dtype = DType::kFloat32;
      f.shape = t.shape;
      cache[id] = q_.add_tensor(std::move(f));
      add_conversion(t.name + "/dequantize", ir::Op::kDequantize, home, cache[id]);
      return cache[id];
    }
    if (t.is_constant || t.dtype != DType::kFloat32 || !cal_.chosen[id]) return -1;
    const int home = quantized_home(id);
    const int in = home >= 0 ? home : rep_of(id, DType::kFloat32);
    const std::string suffix = std::string("/") + ir::dtype_name(dtype);
    cache[id] = add_activation(quant_tensor(t.name + suffix, t.shape, dtype, range_params(dtype, *cal_.chosen[id])), id);
    add_conversion(t.name + (home >= 0 ? "/requantize" : "/quantize") + suffix, ir::Op::kQuantize, in, cache[id]);
    return cache[id];
  }

  // Form of `id` in `dtype` with exactly `quant` (a requantize node when its own differs).
  int rep_as(int id, DType dtype, const ir::QuantParams& quant) {
    const int rep = rep_of(id, dtype);
    if (rep < 0 || same_quant(q_.tensors[rep].quant, quant)) return rep;
    const ir::Tensor src = q_.tensors[rep];
    const int out = add_activation(quant_tensor(src.name + "/requantized", src.shape, dtype, quant), id);
    add_conversion(src.name + "/requantize", ir::Op::kQuantize, rep, out);
    return out;
  }

  // A constant quantized per tensor over its own range (or with `quant`).
  int quantized_constant(const ir::Tensor& t, DType dtype, const ir::QuantParams* quant = nullptr) {
    const std::vector<float> v = real_values(t);
    ir::QuantParams qp;
    if (quant != nullptr) {
      qp = *quant;
    } else {
      Range r{0, 0};
      for (float x : v) {
        r.min = std::min(r.min, x);
        r.max = std::max(r.max, x);
      }
      qp = range_params(dtype, r);
    }
    const double qmin = dtype == DType::kInt16 ? -32768.0 : -128.0;
    const double qmax = dtype == DType::kInt16 ? 32767.0 : 127.0;
    std::vector<int16_t> wide(v.size());
    for (size_t k = 0; k < v.size(); ++k)
      wide[k] = static_cast<int16_t>(std::clamp(std::round(static_cast<double>(v[k]) / qp.scales[0]) + qp.zero_points[0], qmin, qmax));
    ir::Tensor c = quant_tensor(t.name + "/" + ir::dtype_name(dtype), t.shape, dtype, qp);
    c.is_constant = true;
    if (dtype == DType::kInt16) {
      c.data = bytes_of(wide);
    } else {
      std::vector<int8_t> narrow(wide.begin(), wide.end());
      c.data = bytes_of(narrow);
    }
    return q_.add_tensor(std::move(c));
  }

  // GPTQ rounding of the weights (ptq/gptq.h): one row per output channel in the order
  // its inputs appear in the Hessian (conv2d [O,KH,KW,C/g] and fully_connected [N,K]
  // rows are contiguous; a depthwise [1,KH,KW,C*M] row strides by C*M).
  static void gptq_weights(const ir::Tensor& w, int axis, const std::vector<float>& v,
                           const std::vector<float>& scales, const InputHessians& h, std::vector<int8_t>* data) {
    const int64_t channels = w.shape[static_cast<size_t>(axis)];
    const int64_t k = h.k;
    if (k <= 0 || channels * k != static_cast<int64_t>(v.size())) return;
    const auto matrices = static_cast<int64_t>(h.sums.size());
    std::vector<std::vector<double>> rows(static_cast<size_t>(channels), std::vector<double>(static_cast<size_t>(k)));
    std::vector<double> row_scales(static_cast<size_t>(channels));
    std::vector<size_t> matrix(static_cast<size_t>(channels));
    auto flat = [&](int64_t c, int64_t i) { return axis == 0 ? c * k + i : i * channels + c; };
    for (int64_t c = 0; c < channels; ++c) {
      for (int64_t i = 0; i < k; ++i) rows[static_cast<size_t>(c)][static_cast<size_t>(i)] = v[static_cast<size_t>(flat(c, i))];
      row_scales[static_cast<size_t>(c)] = scales[static_cast<size_t>(c)];
      // conv2d groups split the output channels evenly; depthwise channel c reads input c / M.
      matrix[static_cast<size_t>(c)] = static_cast<size_t>(c / (channels / matrices));
    }
    const std::vector<int8_t> q = gptq_round(h, rows, row_scales, matrix);
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t i = 0; i < k; ++i) (*data)[static_cast<size_t>(flat(c, i))] = q[static_cast<size_t>(c * k + i)];
  }

  // Weights: int8 symmetric per slice along `axis` (values in [-127, 127], zero point 0),
  // then the bias with scale input_scale * weight_scale[c]: int32 for int8 activations,
  // int64 for int16 (TFLite 16x8). A weight scale is raised where needed so the bias fits
  // and the requantization multiplier stays inside the kernels' shift range; an all-zero
  // channel gets the scale its bias needs.
  void quantize_weights(const ir::Tensor& w, int axis, const ir::Tensor* bias, DType activations, float in_scale,
                        float out_scale, const std::vector<double>& input_mean, int groups,
                        const InputHessians* hessians, const LayerMoments* moments,
                        const std::vector<double>* cached_steps, int* weights_id, int* bias_id) {
    std::vector<float> v = real_values(w);
    const int64_t channels = w.shape[static_cast<size_t>(axis)];
    int64_t inner = 1;
    for (size_t d = static_cast<size_t>(axis) + 1; d < w.shape.size(); ++d) inner *= w.shape[d];
    std::vector<float> b;
    if (bias != nullptr) b = real_values(*bias);
    // Sequential compensation: rows [weights..., bias] in the moments' patch order.
    std::vector<std::vector<double>> rows;
    std::vector<size_t> matrix_of_row;
    const bool sequential = moments != nullptr && moments->count > 0 && moments->k > 0 &&
                            channels * moments->k == static_cast<int64_t>(v.size());
    auto flat = [&](int64_t c, int64_t i) { return static_cast<size_t>(axis == 0 ? c * moments->k + i : i * channels + c); };
    if (sequential) {
      const int64_t k = moments->k;
      const auto matrices = static_cast<int64_t>(moments->qq.size());
      rows.assign(static_cast<size_t>(channels), std::vector<double>(static_cast<size_t>(k + 1), 0.0));
      for (int64_t c = 0; c < channels; ++c) {
        std::vector<double>& row = rows[static_cast<size_t>(c)];
        for (int64_t i = 0; i < k; ++i) row[static_cast<size_t>(i)] = v[flat(c, i)];
        row[static_cast<size_t>(k)] = b.empty() ? 0.0 : b[static_cast<size_t>(c)];
        // conv2d groups split the output channels evenly; depthwise channel c reads input c / M.
        matrix_of_row.push_back(static_cast<size_t>(c / (channels / matrices)));
      }
      fit_to_quantized_inputs(*moments, matrix_of_row, &rows);
      if (b.empty()) b.assign(static_cast<size_t>(channels), 0.0f);
      for (int64_t c = 0; c < channels; ++c) {
        for (int64_t i = 0; i < k; ++i) v[flat(c, i)] = static_cast<float>(rows[static_cast<size_t>(c)][static_cast<size_t>(i)]);
        b[static_cast<size_t>(c)] = static_cast<float>(rows[static_cast<size_t>(c)][static_cast<size_t>(k)]);
      }
    }
    std::vector<float> scales(static_cast<size_t>(channels), 0.0f);
    // Per channel, the grid step with the smallest squared rounding + clipping error
    // (ptq/weight_scale.h): the clipped max|w| / 127, or the fine search.
    const std::vector<double> steps = sequential || cached_steps == nullptr || cached_steps->size() != scales.size()
                                          ? channel_steps(v, channels, inner, options_.weight_step_search)
                                          : *cached_steps;
    const double min_scale = static_cast<double>(out_scale) / in_scale * std::ldexp(1.0, -28);
    for (size_t c = 0; c < scales.size(); ++c) {
      double s = steps[c];
      if (!b.empty()) s = std::max(s, std::fabs(b[c]) / (static_cast<double>(in_scale) * 2147483000.0));
      s = std::max(s, min_scale);
      if (!(s > 0)) s = 1.0;
      scales[c] = static_cast<float>(s);
    }
    std::vector<int8_t> data(v.size());
    for (size_t k = 0; k < v.size(); ++k) {
      const auto c = static_cast<size_t>((static_cast<int64_t>(k) / inner) % channels);
      data[k] = static_cast<int8_t>(std::clamp(std::round(v[k] / scales[c]), -127.0f, 127.0f));
    }
    if (sequential) {
      const std::vector<double> row_scales(scales.begin(), scales.end());
      const std::vector<int8_t> q = round_on_quantized_inputs(*moments, matrix_of_row, row_scales, &rows);
      const int64_t k = moments->k;
      for (int64_t c = 0; c < channels; ++c)
        for (int64_t i = 0; i < k; ++i) data[flat(c, i)] = q[static_cast<size_t>(c * k + i)];
      if (b.empty()) b.assign(static_cast<size_t>(channels), 0.0f);
      for (int64_t c = 0; c < channels; ++c) b[static_cast<size_t>(c)] = static_cast<float>(rows[static_cast<size_t>(c)][static_cast<size_t>(k)]);
    } else if (hessians != nullptr && hessians->count > 0) {
      gptq_weights(w, axis, v, scales, *hessians, &data);
    }
    ir::Tensor qw = quant_tensor(w.name + "/int8", w.shape, DType::kInt8, ir::QuantParams{});
    qw.quant.scales = scales;
    qw.quant.zero_points.assign(scales.size(), 0);
    qw.quant.axis = axis;
    qw.is_constant = true;
    qw.data = bytes_of(data);
    // Bias correction: rounding the weights shifts each output's mean by
    // sum_k (wq - w)[c,k] * E[x_k]; the bias takes it back (padding is not modelled).
    std::vector<double> shift(static_cast<size_t>(channels), 0.0);
    bool shifted = false;
    if (!input_mean.empty() && !sequential) {
      const auto in_channels = static_cast<int64_t>(input_mean.size());
      for (size_t k = 0; k < v.size(); ++k) {
        const auto c = static_cast<int64_t>((static_cast<int64_t>(k) / inner) % channels);
        int64_t x = 0;  // the input channel weight k reads
        if (axis == 0) {  // conv2d [O,KH,KW,C/groups], fully_connected [N,K]
          const int64_t per_group = w.shape.back();
          x = (c / (channels / groups)) * per_group + static_cast<int64_t>(k) % per_group;
        } else {  // depthwise_conv2d [1,KH,KW,C*M]
          x = c / (channels / in_channels);
        }
        if (x < 0 || x >= in_channels) continue;
        const double err = static_cast<double>(data[k]) * scales[static_cast<size_t>(c)] - v[k];
        shift[static_cast<size_t>(c)] += err * input_mean[static_cast<size_t>(x)];
      }
      for (double d : shift) shifted = shifted || d != 0.0;
    }
    if (shifted) {
      if (b.empty()) b.assign(static_cast<size_t>(channels), 0.0f);
      for (size_t c = 0; c < b.size(); ++c) b[c] = static_cast<float>(b[c] - shift[c]);
    }
    *weights_id = q_.add_tensor(std::move(qw));
    *bias_id = ir::kNoTensor;
    if (b.empty()) return;
    std::vector<int64_t> qb(b.size());
    ir::QuantParams bq;
    bq.axis = 0;
    for (size_t c = 0; c < b.size(); ++c) {
      const double s = static_cast<double>(in_scale) * scales[c];
      qb[c] = static_cast<int64_t>(std::clamp(std::round(b[c] / s), -2147483648.0, 2147483647.0));
      bq.scales.push_back(static_cast<float>(s));
      bq.zero_points.push_back(0);
    }
    ir::Tensor t;
    t.shape = {channels};
    t.quant = std::move(bq);
    t.is_constant = true;
    if (activations == DType::kInt16) {
      t.name = (bias ? bias->name : w.name + "/bias") + "/int64";
      t.dtype = DType::kInt64;
      t.data = bytes_of(qb);
    } else {
      t.name = (bias ? bias->name : w.name + "/bias") + "/int32";
      t.dtype = DType::kInt32;
      std::vector<int32_t> narrow(qb.begin(), qb.end());
      t.data = bytes_of(narrow);
    }
    *bias_id = q_.add_tensor(std::move(t));
  }

  // ---- nodes ----------------------------------------------------------------------

  bool is_activation(int id) const { return id != ir::kNoTensor && !g_.tensors[id].is_constant; }

  // Output quantization from the calibrated range of source tensor `id`, clipped to the
  // activation bounds.
  bool output_params(int id, DType dtype, const Activation& act, ir::QuantParams* quant, std::string* reason) {
    if (g_.tensors[id].dtype != DType::kFloat32 || !cal_.chosen[id]) {
      *reason = "output '" + g_.tensors[id].name + (infinite(id) ? kInfiniteValues : "' has no calibrated range");
      return false;
    }
    Range r = *cal_.chosen[id];
    r.min = static_cast<float>(std::max<double>(r.min, act.lo));
    r.max = static_cast<float>(std::min<double>(r.max, act.hi));
    if (r.min > r.max) r.min = r.max;
    *quant = range_params(dtype, r);
    return true;
  }

  bool infinite(int id) const { return static_cast<size_t>(id) < cal_.infinite.size() && cal_.infinite[id]; }
  std::string missing_range(int id) const {
    const ir::Tensor& t = g_.tensors[id];
    if (t.dtype != DType::kFloat32)
      return "input '" + t.name + "' holds " + ir::dtype_name(t.dtype) + " data (not quantized)";
    return "input '" + t.name + (infinite(id) ? kInfiniteValues : "' has no calibrated range");
  }
  static constexpr const char* kInfiniteValues = "' holds infinities (an additive -inf mask): no int8 range";

  // A weighted layer's (or transpose_conv's) weights and bias quantized into qn's inputs
  // 1 and 2 for input scale `in_scale` and output scale `out_scale`.
  bool quantize_layer_weights(const ir::Node& node, DType dtype, float in_scale, float out_scale, ir::Node* qn,
                              std::string* reason) {
    const ir::Op op = node.op;
    const bool transpose_conv = op == ir::Op::kTransposeConv;
    const int w = node.inputs.size() > 1 ? node.inputs[1] : ir::kNoTensor;
    if (w == ir::kNoTensor || !g_.tensors[w].is_constant) {
      *reason = "weights are not constant";
      return false;
    }
    const int b = node.inputs.size() > 2 ? node.inputs[2] : ir::kNoTensor;
    if (b != ir::kNoTensor && !g_.tensors[b].is_constant) {
      *reason = "bias is not constant";
      return false;
    }
    int qw, qb;
    static const std::vector<double> kNoMean;
    const std::vector<double>& mean = transpose_conv ? kNoMean : cal_.channel_mean[node.inputs[0]];
    const int groups = op == ir::Op::kConv2d ? static_cast<int>(node.get_int("group", 1)) : 1;
    const size_t index = static_cast<size_t>(&node - g_.nodes.data());
    const InputHessians* h = !transpose_conv && index < cal_.hessians.size() ? &cal_.hessians[index] : nullptr;
    const LayerMoments* m = !transpose_conv && index < cal_.moments.size() ? &cal_.moments[index] : nullptr;
    const std::vector<double>* steps = static_cast<size_t>(w) < cal_.weight_steps.size() ? &cal_.weight_steps[w] : nullptr;
    quantize_weights(g_.tensors[w], op == ir::Op::kDepthwiseConv2d ? 3 : 0, b == ir::kNoTensor ? nullptr : &g_.tensors[b],
                     dtype, in_scale, out_scale, mean, groups, options_.gptq ? h : nullptr, m, steps,
                     &qw, &qb);
    qn->inputs[1] = qw;
    if (qb != ir::kNoTensor) {
      if (qn->inputs.size() < 3) qn->inputs.resize(3, ir::kNoTensor);
      qn->inputs[2] = qb;
    }
    return true;
  }

  // An op with an index output (arg_max, arg_min) on its int8 input, as TFLite's int8
  // ARG_MAX runs: any scale keeps the order. The index output is not quantized: it is the
  // tensor's own (as_float_) form.
  bool try_quantized_index(const ir::Node& node, DType dtype, std::string* reason) {
    if (dtype != DType::kInt8) {
      *reason = std::string("int16 ") + ir::op_name(node.op) + " has no kernel";
      return false;
    }
    if (node.outputs.size() != 1 || node.inputs.size() != 1 || !is_activation(node.inputs[0])) {
      *reason = "not a single-output op on an activation";
      return false;
    }
    const int in = rep_of(node.inputs[0], dtype);
    if (in < 0) {
      *reason = missing_range(node.inputs[0]);
      return false;
    }
    ir::Node qn = node;
    qn.inputs[0] = in;
    qn.outputs = {q_.add_tensor(g_.tensors[node.outputs[0]])};
    q_.nodes.push_back(qn);
    try {
      (void)lower::lower_node(q_, q_.nodes.back(), Target::kHost);
    } catch (const CompileError& e) {
      q_.nodes.pop_back();
      q_.tensors.pop_back();
      *reason = e.what();
      return false;
    }
    as_float_[node.outputs[0]] = qn.outputs[0];
    return true;
  }

  // The real range of `id`: its calibrated one, or a constant's values; nullopt otherwise.
  std::optional<Range> value_range(int id) const {
    const ir::Tensor& t = g_.tensors[id];
    if (!t.is_constant) return t.dtype == DType::kFloat32 ? cal_.chosen[id] : std::nullopt;
    Range r{0, 0};
    for (float v : real_values(t)) r = Range{std::min(r.min, v), std::max(r.max, v)};
    return r;
  }

  // A state input of lstm (h0, c0), gru or rnn (h0) in `dtype` with exactly `quant`: a
  // constant quantized so, an activation converted from the form it exists in by one node.
  int lstm_state_input(int id, DType dtype, const ir::QuantParams& quant) {
    const ir::Tensor& t = g_.tensors[id];
    if (t.is_constant) return quantized_constant(t, dtype, &quant);
    if (reps(dtype)[id] >= 0 && same_quant(q_.tensors[reps(dtype)[id]].quant, quant)) return reps(dtype)[id];
    const int home = quantized_home(id);
    const int in = home >= 0 ? home : rep_of(id, DType::kFloat32);
    const std::string name = t.name + "/" + ir::dtype_name(dtype) + "_state";
    const int out = add_activation(quant_tensor(name, t.shape, dtype, quant), id);
    add_conversion(name + "/quantize", ir::Op::kQuantize, in, out);
    return out;
  }

  // Gate weights (lstm inputs 1..8) int8 symmetric per tensor, scale max|w| / 127, as
  // TFLite's quantizer writes an LSTM's (SymmetricQuantizeTensor); its scale in *scale.
  int lstm_weights(const ir::Tensor& w, float* scale) {
    const std::vector<float> v = real_values(w);
    float m = 0;
    for (float x : v) m = std::max(m, std::fabs(x));
    *scale = m > 0 ? m / 127.0f : 1.0f;
    ir::Tensor t = quant_tensor(w.name + "/int8", w.shape, DType::kInt8, per_tensor(*scale, 0));
    t.is_constant = true;
    std::vector<int8_t> q(v.size());
    for (size_t k = 0; k < v.size(); ++k)
      q[k] = static_cast<int8_t>(std::clamp(std::round(static_cast<double>(v[k]) / *scale), -127.0, 127.0));
    t.data = bytes_of(q);
    return q_.add_tensor(std::move(t));
  }

  // A gate bias (lstm inputs 12..15) at scale input scale x input weights' scale: int32
  // (int8 activations) or int64 (16x8).
  int lstm_bias(const ir::Tensor& b, DType dtype, double scale) {
    const std::vector<float> v = real_values(b);
    const bool wide = dtype == DType::kInt16;
    const double limit = wide ? 4611686018427387904.0 : 2147483647.0;  // 2^62 or 2^31 - 1
    std::vector<int64_t> q(v.size());
    for (size_t k = 0; k < v.size(); ++k) q[k] = static_cast<int64_t>(std::clamp(std::round(v[k] / scale), -limit, limit));
    ir::Tensor t = quant_tensor(b.name + (wide ? "/int64" : "/int32"), b.shape, wide ? DType::kInt64 : DType::kInt32,
                                per_tensor(static_cast<float>(scale), 0));
    t.is_constant = true;
    t.data = wide ? bytes_of(q) : bytes_of(std::vector<int32_t>(q.begin(), q.end()));
    return q_.add_tensor(std::move(t));
  }

  // Weights of `gates` gates stacked by rows (gru, rnn: [gates * units, K]), int8
  // symmetric with one scale per gate, max |w| / 127 over its rows (lstm_weights' rule):
  // quantized per row on axis 0 with each gate's rows sharing the scale. The gate scales
  // in *scales.
  int gate_weights(const ir::Tensor& w, int gates, std::vector<float>* scales) {
    const std::vector<float> v = real_values(w);
    const size_t per_gate = v.size() / static_cast<size_t>(gates);
    const auto rows = static_cast<size_t>(w.shape[0]);
    ir::QuantParams q;
    q.axis = 0;
    std::vector<int8_t> data(v.size());
    for (size_t g = 0; g < static_cast<size_t>(gates); ++g) {
      float m = 0;
      for (size_t k = g * per_gate; k < (g + 1) * per_gate; ++k) m = std::max(m, std::fabs(v[k]));
      const float scale = m > 0 ? m / 127.0f : 1.0f;
      scales->push_back(scale);
      for (size_t k = g * per_gate; k < (g + 1) * per_gate; ++k)
        data[k] = static_cast<int8_t>(std::clamp(std::round(static_cast<double>(v[k]) / scale), -127.0, 127.0));
      q.scales.insert(q.scales.end(), rows / static_cast<size_t>(gates), scale);
    }
    q.zero_points.assign(q.scales.size(), 0);
    ir::Tensor t = quant_tensor(w.name + "/int8", w.shape, DType::kInt8, std::move(q));
    t.is_constant = true;
    t.data = bytes_of(data);
    return q_.add_tensor(std::move(t));
  }

  // `values` (a bias of `like`'s shape) quantized each at its own scale: int32 for int8
  // activations, int64 for int16 (16x8), clamped to the type; quantized per element on
  // axis 0.
  int scaled_bias(const ir::Tensor& like, const std::vector<double>& values, const std::vector<double>& scales,
                  DType dtype) {
    const bool wide = dtype == DType::kInt16;
    const double limit = wide ? 4611686018427387904.0 : 2147483647.0;  // 2^62 or 2^31 - 1
    std::vector<int64_t> q(values.size());
    ir::QuantParams qp;
    qp.axis = 0;
    for (size_t k = 0; k < values.size(); ++k) {
      q[k] = static_cast<int64_t>(std::clamp(std::round(values[k] / scales[k]), -limit, limit));
      qp.scales.push_back(static_cast<float>(scales[k]));
    }
    qp.zero_points.assign(qp.scales.size(), 0);
    ir::Tensor t = quant_tensor(like.name + (wide ? "/int64" : "/int32"), like.shape,
                                wide ? DType::kInt64 : DType::kInt32, std::move(qp));
    t.is_constant = true;
    t.data = wide ? bytes_of(q) : bytes_of(std::vector<int32_t>(q.begin(), q.end()));
    return q_.add_tensor(std::move(t));
  }

  // lstm as TFLite's post-training quantizer writes UNIDIRECTIONAL_SEQUENCE_LSTM
  // (operator_property.cc, quantize_model.cc), for TFLite Micro's 8x8->16 (int8 `dtype`) or
  // 16x8 (int16) kernel: x over its own range; y, h0 and the new hidden state share one
  // quantization (restrict_scale {18, 0}: h is y's last row and feeds back), over y's range
  // widened by h0's (TFLite gives h0 y's: widening keeps a given initial state from
  // saturating); gate weights int8 symmetric per tensor; biases at x's scale times the
  // gate's input weights' scale; c0 and the new cell state int16, zero point 0, the power of
  // two of lstm_cell_scale() over the cell's range at every step of every calibration sample
  // (Calibration::lstm_cell); a cell beyond that scale's +-1024 keeps the node float rather
  // than saturate. The gate pre-activation (2^-12) and output (2^-15) scales are
  // the kernel's own. A multiplier out of the kernel's range fails its lowering: the node
  // then stays float with that reason.
  bool try_quantized_lstm(const ir::Node& node, DType dtype, std::string* reason) {
    const size_t index = static_cast<size_t>(&node - g_.nodes.data());
    if (index >= cal_.lstm_cell.size() || !cal_.lstm_cell[index]) {
      *reason = "the cell state's range was not observed (weights or initial state not float32)";
      return false;
    }
    if (node.inputs.size() != 24 || node.outputs.size() != 3 || !is_activation(node.inputs[0]) ||
        node.inputs[18] == ir::kNoTensor || node.inputs[19] == ir::kNoTensor) {
      *reason = "not an lstm on an activation with both initial states";
      return false;
    }
    const Range cell = *cal_.lstm_cell[index];
    const double cell_magnitude = std::max(std::fabs(static_cast<double>(cell.min)), std::fabs(static_cast<double>(cell.max)));
    if (cell_magnitude > 1024.0) {
      char text[64];
      std::snprintf(text, sizeof text, "%g", cell_magnitude);
      *reason = std::string("the cell state reaches ") + text +
                " in calibration, beyond the +-1024 of TFLite's widest int16 cell scale (2^-5)";
      return false;
    }
    const int x = node.inputs[0], y = node.outputs[0];
    std::optional<Range> hidden = cal_.chosen[y];
    const std::optional<Range> h0 = value_range(node.inputs[18]);
    if (!hidden || !h0) {
      *reason = !hidden ? "output '" + g_.tensors[y].name + "' has no calibrated range" : missing_range(node.inputs[18]);
      return false;
    }
    hidden = Range{std::min(hidden->min, h0->min), std::max(hidden->max, h0->max)};
    const ir::QuantParams h_q = range_params(dtype, *hidden);
    const ir::QuantParams c_q = per_tensor(lstm_cell_scale(cell), 0);
    ir::Node qn = node;
    qn.inputs[0] = rep_of(x, dtype);
    if (qn.inputs[0] < 0) {
      *reason = missing_range(x);
      return false;
    }
    const float x_scale = q_.tensors[qn.inputs[0]].quant.scales[0];
    for (int g = 0; g < 4; ++g) {
      for (int i : {1 + g, 5 + g, 12 + g}) {
        if (node.inputs[i] == ir::kNoTensor || !g_.tensors[node.inputs[i]].is_constant) {
          *reason = "input " + std::to_string(i) + " (a gate's weights or bias) is not constant";
          return false;
        }
      }
      float wx_scale, wh_scale;
      qn.inputs[1 + g] = lstm_weights(g_.tensors[node.inputs[1 + g]], &wx_scale);
      qn.inputs[5 + g] = lstm_weights(g_.tensors[node.inputs[5 + g]], &wh_scale);
      qn.inputs[12 + g] = lstm_bias(g_.tensors[node.inputs[12 + g]], dtype, static_cast<double>(x_scale) * wx_scale);
    }
    qn.inputs[18] = lstm_state_input(node.inputs[18], dtype, h_q);
    qn.inputs[19] = lstm_state_input(node.inputs[19], DType::kInt16, c_q);

    const size_t tensors_before = q_.tensors.size();
    const size_t report_before = report_->tensors.size();
    const int outputs[3] = {add_activation(quant_tensor(g_.tensors[y].name, g_.tensors[y].shape, dtype, h_q), y),
                            add_activation(quant_tensor(g_.tensors[node.outputs[1]].name, g_.tensors[node.outputs[1]].shape,
                                                        dtype, h_q), node.outputs[1]),
                            add_activation(quant_tensor(g_.tensors[node.outputs[2]].name, g_.tensors[node.outputs[2]].shape,
                                                        DType::kInt16, c_q), node.outputs[2])};
    report_->tensors.back().observed = cell;  // the cell at every step, not only the last
    qn.outputs = {outputs[0], outputs[1], outputs[2]};
    q_.nodes.push_back(qn);
    if (!pushed_node_lowers(tensors_before, report_before, reason)) return false;
    reps(dtype)[y] = outputs[0];
    reps(dtype)[node.outputs[1]] = outputs[1];
    as_int16_[node.outputs[2]] = outputs[2];
    return true;
  }

  // gru and rnn for their integer kernels (kernels/gru/gru.h, kernels/rnn/rnn.h: int8
  // `dtype`, or 16x8 with int16), designed after TFLite's integer LSTM
  // (try_quantized_lstm): x over its own range; h0, y and the final hidden state one
  // quantization over the union of their ranges (h feeds back as the next step's h0); w
  // and r int8 symmetric with one scale per gate (max |w| / 127 over the gate's rows); the
  // biases at x's scale times the gate's input weights' scale, each gate's recurrent bias
  // folded into its input bias (one rounding less) except the hidden gate's with
  // linear_before_reset 1, which r multiplies and which stays at h's scale times the
  // recurrent weights'. The gate pre-activation (2^-12) and output (2^-15) scales are the
  // kernels' own. A multiplier out of the kernel's range fails its lowering: the node then
  // stays float with that reason.
  bool try_quantized_recurrent(const ir::Node& node, DType dtype, std::string* reason) {
    const int gates = node.op == ir::Op::kGru ? 3 : 1;
    if (node.inputs.size() != 5 || node.outputs.size() != 2 || !is_activation(node.inputs[0]) ||
        node.inputs[4] == ir::kNoTensor) {
      *reason = std::string("not a ") + ir::op_name(node.op) + " on an activation with its initial state";
      return false;
    }
    for (int i : {1, 2, 3}) {
      if (node.inputs[i] == ir::kNoTensor || !g_.tensors[node.inputs[i]].is_constant) {
        *reason = "input " + std::to_string(i) + " (weights or bias) is not constant";
        return false;
      }
    }
    const int x = node.inputs[0], y = node.outputs[0], h_last = node.outputs[1];
    std::optional<Range> hidden = cal_.chosen[y];
    const std::optional<Range> h0 = value_range(node.inputs[4]);
    if (!hidden || !h0) {
      *reason = !hidden ? "output '" + g_.tensors[y].name + "' has no calibrated range" : missing_range(node.inputs[4]);
      return false;
    }
    for (const std::optional<Range>& r : {h0, h_last != ir::kNoTensor ? cal_.chosen[h_last] : std::nullopt})
      if (r) hidden = Range{std::min(hidden->min, r->min), std::max(hidden->max, r->max)};
    const ir::QuantParams h_q = range_params(dtype, *hidden);
    ir::Node qn = node;
    qn.inputs[0] = rep_of(x, dtype);
    if (qn.inputs[0] < 0) {
      *reason = missing_range(x);
      return false;
    }
    const double x_scale = q_.tensors[qn.inputs[0]].quant.scales[0];
    std::vector<float> wx_scales, wh_scales;
    qn.inputs[1] = gate_weights(g_.tensors[node.inputs[1]], gates, &wx_scales);
    qn.inputs[2] = gate_weights(g_.tensors[node.inputs[2]], gates, &wh_scales);
    // Per bias element: its gate's input (Wb) or recurrent (Rb) bias scale; the folded
    // recurrent biases are added to Wb and left 0.
    const ir::Tensor& b = g_.tensors[node.inputs[3]];
    const std::vector<float> real = real_values(b);
    const auto units = static_cast<size_t>(real.size() / (2 * static_cast<size_t>(gates)));
    const bool keep_hidden_rb = node.op == ir::Op::kGru && node.get_int("linear_before_reset", 0) != 0;
    std::vector<double> values(real.begin(), real.end()), scales(real.size());
    for (int g = 0; g < gates; ++g) {
      const bool fold = !(keep_hidden_rb && g == 2);
      for (size_t n = 0; n < units; ++n) {
        const size_t wb = static_cast<size_t>(g) * units + n, rb = (static_cast<size_t>(gates + g)) * units + n;
        scales[wb] = x_scale * wx_scales[static_cast<size_t>(g)];
        scales[rb] = static_cast<double>(h_q.scales[0]) * wh_scales[static_cast<size_t>(g)];
        if (fold) {
          values[wb] += values[rb];
          values[rb] = 0;
        }
      }
    }
    qn.inputs[3] = scaled_bias(b, values, scales, dtype);
    qn.inputs[4] = lstm_state_input(node.inputs[4], dtype, h_q);

    const size_t tensors_before = q_.tensors.size();
    const size_t report_before = report_->tensors.size();
    qn.outputs[0] = add_activation(quant_tensor(g_.tensors[y].name, g_.tensors[y].shape, dtype, h_q), y);
    if (h_last != ir::kNoTensor)
      qn.outputs[1] = add_activation(quant_tensor(g_.tensors[h_last].name, g_.tensors[h_last].shape, dtype, h_q), h_last);
    q_.nodes.push_back(qn);
    if (!pushed_node_lowers(tensors_before, report_before, reason)) return false;
    reps(dtype)[y] = qn.outputs[0];
    if (h_last != ir::kNoTensor) reps(dtype)[h_last] = qn.outputs[1];
    return true;
  }

  // Lowers the node just added (q_.nodes.back()) for the host as the program will lower
  // it. On a refusal the node goes, with the tensors and report lines added since
  // tensors_before and report_before, and *reason is the lowering's message (without the
  // node's name).
  bool pushed_node_lowers(size_t tensors_before, size_t report_before, std::string* reason) {
    try {
      (void)lower::lower_node(q_, q_.nodes.back(), Target::kHost);
    } catch (const CompileError& e) {
      q_.nodes.pop_back();
      q_.tensors.resize(tensors_before);
      report_->tensors.resize(report_before);
      const std::string what = e.what();
      const size_t colon = what.find("): ");
      *reason = colon == std::string::npos ? what : what.substr(colon + 3);
      return false;
    }
    return true;
  }

  // TFLite's fixed int8 output quantization of a fixed_scale op.
  static ir::QuantParams fixed_output_quant(ir::Op op) {
    if (op == ir::Op::kTanh) return per_tensor(1.0f / 128.0f, 0);
    if (op == ir::Op::kLogSoftmax) return per_tensor(16.0f / 256.0f, 127);
    return per_tensor(1.0f / 256.0f, -128);  // softmax, sigmoid
  }

  // The node in `dtype` (int8 or int16 activations); false with the reason when no integer
  // kernel takes it that way.
  bool try_quantized(const ir::Node& node, DType dtype, std::string* reason) {
    const ir::Op op = node.op;
    const ir::QuantOutput scale = ir::op_traits(op).quant_output;
    const bool pass_through = scale == ir::QuantOutput::kInputScale;
    const bool fixed = scale == ir::QuantOutput::kFixedScale;
    if (scale == ir::QuantOutput::kIndexOutput) return try_quantized_index(node, dtype, reason);
    if (op == ir::Op::kLstm) return try_quantized_lstm(node, dtype, reason);
    if (op == ir::Op::kGru || op == ir::Op::kRnn) return try_quantized_recurrent(node, dtype, reason);
    if (scale == ir::QuantOutput::kStaysFloat) {
      *reason = std::string("no integer kernel for ") + ir::op_name(op);
      return false;
    }
    // A pass-through op may read a constant input 0 (gather: an embedding table at
    // computed indices); that constant is quantized over its own range.
    const bool constant_data = pass_through && !node.inputs.empty() && node.inputs[0] != ir::kNoTensor &&
                               g_.tensors[node.inputs[0]].is_constant;
    if (node.outputs.size() != 1 || node.inputs.empty() || !(is_activation(node.inputs[0]) || constant_data)) {
      *reason = "not a single-output op on an activation";
      return false;
    }
    const int out_id = node.outputs[0];
    const ir::Tensor& out = g_.tensors[out_id];
    ir::Node qn = node;
    const Activation act = normalise_activation(node);
    if (!act.ok) {
      *reason = "fused activation range excludes 0";
      return false;
    }

    // Output quantization.
    ir::QuantParams out_quant;
    if (fixed && dtype == DType::kInt16) {
      *reason = std::string("int16 ") + ir::op_name(op) + " has no kernel";
      return false;
    }
    if (fixed) {
      out_quant = fixed_output_quant(op);
    } else if (op == ir::Op::kClamp) {
      Activation bounds;
      bounds.lo = node.get_float("min", -kInf);
      bounds.hi = node.get_float("max", kInf);
      if (!(bounds.lo <= 0 && bounds.hi >= 0)) {
        *reason = "clamp range excludes 0";
        return false;
      }
      if (!output_params(out_id, dtype, bounds, &out_quant, reason)) return false;
    } else if (scale == ir::QuantOutput::kOwnRange) {
      if (!output_params(out_id, dtype, act, &out_quant, reason)) return false;
    }

    // Inputs. concat, maximum and minimum move stored values: every input takes the
    // output's quantization (for maximum/minimum exact: clamping is monotonic).
    if (op == ir::Op::kConcat || op == ir::Op::kMaximum || op == ir::Op::kMinimum) {
      for (size_t i = 0; i < node.inputs.size(); ++i) {
        const int id = node.inputs[i];
        qn.inputs[i] = g_.tensors[id].is_constant ? quantized_constant(g_.tensors[id], dtype, &out_quant)
                                                  : rep_as(id, dtype, out_quant);
        if (qn.inputs[i] < 0) {
          *reason = missing_range(id);
          return false;
        }
      }
    } else if (pass_through) {
      qn.inputs[0] = constant_data ? quantized_constant(g_.tensors[node.inputs[0]], dtype) : rep_of(node.inputs[0], dtype);
      if (qn.inputs[0] < 0) {
        *reason = missing_range(node.inputs[0]);
        return false;
      }
      // Other inputs (gather's int32 indices) are not quantized: their own tensors.
      for (size_t i = 1; i < node.inputs.size(); ++i) {
        if (node.inputs[i] == ir::kNoTensor) continue;
        if (g_.tensors[node.inputs[i]].dtype == DType::kFloat32) {
          *reason = "float input '" + g_.tensors[node.inputs[i]].name + "' besides the data";
          return false;
        }
        qn.inputs[i] = rep_of(node.inputs[i], DType::kFloat32);
      }
      out_quant = q_.tensors[qn.inputs[0]].quant;
      if (act.attr_lo != act.lo || act.attr_hi != act.hi) {
        *reason = "a fused activation other than ReLU, ReLU6 or [-1,1] on an op that keeps its input's scale";
        return false;
      }
    } else {
      const int in0 = rep_of(node.inputs[0], dtype);
      if (in0 < 0) {
        *reason = missing_range(node.inputs[0]);
        return false;
      }
      qn.inputs[0] = in0;
      const float in_scale = q_.tensors[in0].quant.scales[0];
      // transpose_conv's filter [O,KH,KW,C/group] is per-channel int8 on O too (TFLite's
      // scheme), without GPTQ, sequential fitting or bias correction: its outputs sum a
      // varying number of taps, which those layer models do not describe.
      const bool transpose_conv = op == ir::Op::kTransposeConv;
      if (is_weighted_layer(op) || transpose_conv) {
        if (!quantize_layer_weights(node, dtype, in_scale, out_quant.scales[0], &qn, reason)) return false;
      } else {
        for (size_t i = 1; i < node.inputs.size(); ++i) {
          const int id = node.inputs[i];
          if (id == ir::kNoTensor) continue;
          qn.inputs[i] = g_.tensors[id].is_constant ? quantized_constant(g_.tensors[id], dtype) : rep_of(id, dtype);
          if (qn.inputs[i] < 0) {
            *reason = missing_range(id);
            return false;
          }
        }
      }
    }
    if (op == ir::Op::kClamp) {  // saturation of a requantization does the clamping
      qn.op = ir::Op::kQuantize;
      qn.attrs.clear();
    } else {
      set_activation(qn, act);
    }

    const size_t tensors_before = q_.tensors.size();
    const size_t report_before = report_->tensors.size();
    qn.outputs = {add_activation(quant_tensor(out.name, out.shape, dtype, out_quant), out_id)};
    q_.nodes.push_back(qn);
    if (!pushed_node_lowers(tensors_before, report_before, reason)) return false;
    reps(dtype)[out_id] = qn.outputs[0];
    if (static_cast<int>(&node - g_.nodes.data()) == probe_node_ && !pass_through && !fixed) probe_input_ = qn.inputs[0];
    return true;
  }

  void keep_float(const ir::Node& node) {
    ir::Node fn = node;
    for (size_t i = 0; i < node.inputs.size(); ++i)
      if (node.inputs[i] != ir::kNoTensor) fn.inputs[i] = rep_of(node.inputs[i], DType::kFloat32);
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      const int id = node.outputs[i];
      as_float_[id] = q_.add_tensor(g_.tensors[id]);
      fn.outputs[i] = as_float_[id];
    }
    q_.nodes.push_back(std::move(fn));
  }

  const ir::Graph& g_;
  const Calibration& cal_;
  const Options& options_;
  const std::vector<bool>& prefer_int16_;
  Report* report_;
  int probe_node_;
  int probe_input_ = -1;  // the probed node's quantized input 0
  ir::Graph q_;
  std::vector<int> as_float_;
  std::vector<int> as_int8_;
  std::vector<int> as_int16_;
};

}  // namespace

ir::Graph quantize_graph(const ir::Graph& graph, const Calibration& calibration, const Options& options,
                         const std::vector<bool>& prefer_int16, Report* report, int probe_node) {
  report->method = options.method;
  report->samples = calibration.samples;
  report->int8_io = options.int8_io;
  report->tensors.clear();
  report->float_nodes.clear();
  return Quantizer(graph, calibration, options, prefer_int16, report, probe_node).run();
}

Int16Policy parse_int16_policy(const std::string& name) {
  if (name == "auto") return Int16Policy::kAuto;
  if (name == "off") return Int16Policy::kOff;
  if (name == "all") return Int16Policy::kAll;
  throw CompileError("--int16 '" + name + "': expected auto, off or all");
}

double worst_sqnr(const Report& report) {
  double worst = std::numeric_limits<double>::infinity();
  for (const OutputAccuracy& o : report.outputs) worst = std::min(worst, o.sqnr_db);
  return worst;
}

Calibration with_weight_steps(const ir::Graph& graph, const Calibration& calibration, const Options& options) {
  Calibration result = calibration;
  result.weight_steps.assign(graph.tensors.size(), {});
  for (const ir::Node& node : graph.nodes) {
    int w, axis;
    if (!weighted_node(graph, node, &w, &axis) || !result.weight_steps[w].empty()) continue;
    const ir::Tensor& t = graph.tensors[w];
    if (t.dtype != DType::kFloat32 || static_cast<size_t>(axis) >= t.shape.size()) continue;
    int64_t inner = 1;
    for (size_t d = static_cast<size_t>(axis) + 1; d < t.shape.size(); ++d) inner *= t.shape[d];
    result.weight_steps[w] =
        channel_steps(real_values(t), t.shape[static_cast<size_t>(axis)], inner, options.weight_step_search);
  }
  return result;
}

std::vector<int> int16_candidates(const ir::Graph& graph, const Calibration& calibration) {
  std::vector<int> order;
  for (const ir::Node& node : graph.nodes)
    for (int id : node.outputs)
      if (calibration.chosen[id]) order.push_back(id);
  return order;
}

}  // namespace mote::ptq
