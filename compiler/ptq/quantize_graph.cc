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
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/error.h"
#include "lower/lower.h"
#include "lower/node_lowering.h"
#include "ptq/ptq.h"

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
      default: throw CompileError("constant '" + t.name + "' has dtype " + lower::dtype_string(t.dtype) +
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

class Quantizer {
 public:
  Quantizer(const ir::Graph& graph, const Calibration& cal, const Options& options, Report* report)
      : g_(graph), cal_(cal), options_(options), report_(report),
        as_float_(graph.tensors.size(), -1), as_int8_(graph.tensors.size(), -1) {}

  ir::Graph run() {
    q_.name = g_.name;
    for (int id : g_.inputs) {
      const ir::Tensor& t = g_.tensors[id];
      if (options_.int8_io && t.dtype == DType::kFloat32 && cal_.chosen[id]) {
        ir::Tensor qt = int8_tensor(t.name, t.shape, range_params(id, *cal_.chosen[id]));
        as_int8_[id] = add_activation(std::move(qt), id);
        q_.inputs.push_back(as_int8_[id]);
      } else {
        as_float_[id] = q_.add_tensor(t);
        q_.inputs.push_back(as_float_[id]);
      }
    }
    for (const ir::Node& node : g_.nodes) {
      std::string reason;
      if (!try_int8(node, &reason)) {
        keep_float(node);
        report_->float_nodes.push_back(node.name + " (" + node.op + "): " + reason);
      }
    }
    for (int id : g_.outputs) {
      int rep = -1;
      if (options_.int8_io) rep = int8_rep(id);
      if (rep < 0) rep = float_rep(id);
      // The model's output keeps its name; the internal form it came from is renamed.
      if (q_.tensors[rep].name != g_.tensors[id].name) {
        for (ir::Tensor& t : q_.tensors)
          if (t.name == g_.tensors[id].name) t.name += q_.tensors[rep].dtype == DType::kFloat32 ? "/int8" : "/float";
        q_.tensors[rep].name = g_.tensors[id].name;
      }
      q_.outputs.push_back(rep);
    }
    q_.remove_dead();
    // Report only the int8 activations that survived remove_dead, in execution order.
    std::vector<TensorReport> kept;
    for (const TensorReport& r : report_->tensors) {
      for (const ir::Tensor& t : q_.tensors) {
        if (t.name == r.name && !t.is_constant && t.dtype == DType::kInt8) {
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

  ir::QuantParams range_params(int id, Range range) {
    float scale;
    int32_t zp;
    choose_int8_params(range, &scale, &zp);
    (void)id;
    return per_tensor(scale, zp);
  }

  static ir::Tensor int8_tensor(const std::string& name, const ir::Shape& shape, ir::QuantParams quant) {
    ir::Tensor t;
    t.name = name;
    t.dtype = DType::kInt8;
    t.shape = shape;
    t.quant = std::move(quant);
    return t;
  }

  // Adds an int8 activation and its report line (`source`: the float tensor it stands for).
  int add_activation(ir::Tensor t, int source) {
    TensorReport r;
    r.name = t.name;
    r.dtype = t.dtype;
    r.scale = t.quant.scales[0];
    r.zero_point = t.quant.zero_points[0];
    if (source >= 0 && cal_.observed[source]) r.observed = *cal_.observed[source];
    r.chosen = Range{r.scale * static_cast<float>(-128 - r.zero_point), r.scale * static_cast<float>(127 - r.zero_point)};
    report_->tensors.push_back(r);
    return q_.add_tensor(std::move(t));
  }

  // The float32 form of source tensor `id` (a copy for constants, a dequantize node for an
  // int8 home).
  int float_rep(int id) {
    if (as_float_[id] >= 0) return as_float_[id];
    const ir::Tensor& t = g_.tensors[id];
    if (t.is_constant || as_int8_[id] < 0) {
      as_float_[id] = q_.add_tensor(t);
      return as_float_[id];
    }
    ir::Tensor f;
    f.name = t.name + "/dequantized";
    f.dtype = DType::kFloat32;
    f.shape = t.shape;
    const int out = q_.add_tensor(std::move(f));
    ir::Node node;
    node.name = t.name + "/dequantize";
    node.op = "dequantize";
    node.inputs = {as_int8_[id]};
    node.outputs = {out};
    q_.nodes.push_back(std::move(node));
    as_float_[id] = out;
    return out;
  }

  // The int8 form of float activation `id`, or -1 when it has none (no calibrated range:
  // a constant or a non-float tensor).
  int int8_rep(int id) {
    if (as_int8_[id] >= 0) return as_int8_[id];
    const ir::Tensor& t = g_.tensors[id];
    if (t.is_constant || t.dtype != DType::kFloat32 || !cal_.chosen[id]) return -1;
    const int in = float_rep(id);
    const int out = add_activation(int8_tensor(t.name + "/quantized", t.shape, range_params(id, *cal_.chosen[id])), id);
    ir::Node node;
    node.name = t.name + "/quantize";
    node.op = "quantize";
    node.inputs = {in};
    node.outputs = {out};
    q_.nodes.push_back(std::move(node));
    as_int8_[id] = out;
    return out;
  }

  // int8 form of `id` with exactly `quant` (a requantize node when its own differs).
  int int8_rep_as(int id, const ir::QuantParams& quant) {
    const int rep = int8_rep(id);
    if (rep < 0 || same_quant(q_.tensors[rep].quant, quant)) return rep;
    const ir::Tensor src = q_.tensors[rep];
    const int out = add_activation(int8_tensor(src.name + "/requantized", src.shape, quant), id);
    ir::Node node;
    node.name = src.name + "/requantize";
    node.op = "quantize";
    node.inputs = {rep};
    node.outputs = {out};
    q_.nodes.push_back(std::move(node));
    return out;
  }

  // A constant quantized per tensor, asymmetric, over its own range (or with `quant`).
  int int8_constant(const ir::Tensor& t, const ir::QuantParams* quant = nullptr) {
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
      float scale;
      int32_t zp;
      choose_int8_params(r, &scale, &zp);
      qp = per_tensor(scale, zp);
    }
    std::vector<int8_t> data(v.size());
    for (size_t k = 0; k < v.size(); ++k)
      data[k] = static_cast<int8_t>(std::clamp(std::round(static_cast<double>(v[k]) / qp.scales[0]) + qp.zero_points[0], -128.0, 127.0));
    ir::Tensor c = int8_tensor(t.name + "/int8", t.shape, qp);
    c.is_constant = true;
    c.data = bytes_of(data);
    return q_.add_tensor(std::move(c));
  }

  // Weights: int8 symmetric per slice along `axis` (values in [-127, 127], zero point 0),
  // then the int32 bias with scale input_scale * weight_scale[c]. A weight scale is raised
  // where needed so the bias fits int32 and the requantization multiplier stays inside the
  // kernels' shift range; an all-zero channel gets the scale its bias needs.
  void quantize_weights(const ir::Tensor& w, int axis, const ir::Tensor* bias, float in_scale, float out_scale,
                        int* weights_id, int* bias_id) {
    const std::vector<float> v = real_values(w);
    const int64_t channels = w.shape[static_cast<size_t>(axis)];
    int64_t inner = 1;
    for (size_t d = static_cast<size_t>(axis) + 1; d < w.shape.size(); ++d) inner *= w.shape[d];
    std::vector<float> b;
    if (bias != nullptr) b = real_values(*bias);
    std::vector<float> scales(static_cast<size_t>(channels), 0.0f);
    for (size_t k = 0; k < v.size(); ++k) {
      const auto c = static_cast<size_t>((static_cast<int64_t>(k) / inner) % channels);
      scales[c] = std::max(scales[c], std::fabs(v[k]));
    }
    const double min_scale = static_cast<double>(out_scale) / in_scale * std::ldexp(1.0, -28);
    for (size_t c = 0; c < scales.size(); ++c) {
      double s = scales[c] / 127.0;
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
    ir::Tensor qw = int8_tensor(w.name + "/int8", w.shape, ir::QuantParams{});
    qw.quant.scales = scales;
    qw.quant.zero_points.assign(scales.size(), 0);
    qw.quant.axis = axis;
    qw.is_constant = true;
    qw.data = bytes_of(data);
    *weights_id = q_.add_tensor(std::move(qw));
    *bias_id = ir::kNoTensor;
    if (bias == nullptr) return;
    std::vector<int32_t> qb(b.size());
    ir::QuantParams bq;
    bq.axis = 0;
    for (size_t c = 0; c < b.size(); ++c) {
      const double s = static_cast<double>(in_scale) * scales[c];
      qb[c] = static_cast<int32_t>(std::clamp(std::round(b[c] / s), -2147483648.0, 2147483647.0));
      bq.scales.push_back(static_cast<float>(s));
      bq.zero_points.push_back(0);
    }
    ir::Tensor t;
    t.name = bias->name + "/int32";
    t.dtype = DType::kInt32;
    t.shape = bias->shape;
    t.quant = std::move(bq);
    t.is_constant = true;
    t.data = bytes_of(qb);
    *bias_id = q_.add_tensor(std::move(t));
  }

  // ---- nodes ----------------------------------------------------------------------

  bool is_activation(int id) const { return id != ir::kNoTensor && !g_.tensors[id].is_constant; }

  // Output quantization from the calibrated range of source tensor `id`, clipped to the
  // activation bounds.
  bool output_params(int id, const Activation& act, ir::QuantParams* quant, std::string* reason) {
    if (g_.tensors[id].dtype != DType::kFloat32 || !cal_.chosen[id]) {
      *reason = "output '" + g_.tensors[id].name + "' has no calibrated range";
      return false;
    }
    Range r = *cal_.chosen[id];
    r.min = static_cast<float>(std::max<double>(r.min, act.lo));
    r.max = static_cast<float>(std::min<double>(r.max, act.hi));
    if (r.min > r.max) r.min = r.max;
    *quant = range_params(id, r);
    return true;
  }

  bool try_int8(const ir::Node& node, std::string* reason) {
    static const char* const kPassThrough[] = {"reshape", "copy", "transpose", "max_pool2d", "avg_pool2d",
                                               "pad", "strided_slice"};
    static const char* const kOwnRange[] = {"conv2d", "depthwise_conv2d", "fully_connected", "add", "sub",
                                            "mul", "mean", "leaky_relu", "concat", "clamp"};
    const std::string& op = node.op;
    const bool pass_through = std::find(std::begin(kPassThrough), std::end(kPassThrough), op) != std::end(kPassThrough);
    const bool own_range = std::find(std::begin(kOwnRange), std::end(kOwnRange), op) != std::end(kOwnRange);
    const bool fixed = op == "softmax" || op == "sigmoid" || op == "tanh";
    if (!pass_through && !own_range && !fixed) {
      *reason = "no int8 kernel for " + op;
      return false;
    }
    if (node.outputs.size() != 1 || node.inputs.empty() || !is_activation(node.inputs[0])) {
      *reason = "not a single-output op on an activation";
      return false;
    }
    const int out_id = node.outputs[0];
    const ir::Tensor& out = g_.tensors[out_id];
    ir::Node qn = node;
    Activation act = normalise_activation(node);
    if (!act.ok) {
      *reason = "fused activation range excludes 0";
      return false;
    }

    // Output quantization.
    ir::QuantParams out_quant;
    if (op == "softmax" || op == "sigmoid") {
      out_quant = per_tensor(1.0f / 256.0f, -128);
    } else if (op == "tanh") {
      out_quant = per_tensor(1.0f / 128.0f, 0);
    } else if (op == "clamp") {
      Activation bounds;
      bounds.lo = node.get_float("min", -kInf);
      bounds.hi = node.get_float("max", kInf);
      if (!(bounds.lo <= 0 && bounds.hi >= 0)) {
        *reason = "clamp range excludes 0";
        return false;
      }
      if (!output_params(out_id, bounds, &out_quant, reason)) return false;
    } else if (own_range) {
      if (!output_params(out_id, act, &out_quant, reason)) return false;
    }

    // Inputs.
    const int in0 = pass_through || op == "concat" ? -1 : int8_rep(node.inputs[0]);
    if (op == "concat") {
      for (size_t i = 0; i < node.inputs.size(); ++i) {
        const int id = node.inputs[i];
        qn.inputs[i] = g_.tensors[id].is_constant ? int8_constant(g_.tensors[id], &out_quant) : int8_rep_as(id, out_quant);
        if (qn.inputs[i] < 0) {
          *reason = "input '" + g_.tensors[id].name + "' has no calibrated range";
          return false;
        }
      }
    } else if (pass_through) {
      qn.inputs[0] = int8_rep(node.inputs[0]);
      if (qn.inputs[0] < 0) {
        *reason = "input '" + g_.tensors[node.inputs[0]].name + "' has no calibrated range";
        return false;
      }
      out_quant = q_.tensors[qn.inputs[0]].quant;
      const bool standard = act.attr_lo == act.lo && act.attr_hi == act.hi;
      if (!standard) {
        *reason = "a fused activation other than ReLU, ReLU6 or [-1,1] on an op that keeps its input's scale";
        return false;
      }
      // Other inputs of pass-through ops (none today) would be shape data: keep as is.
    } else {
      if (in0 < 0) {
        *reason = "input '" + g_.tensors[node.inputs[0]].name + "' has no calibrated range";
        return false;
      }
      qn.inputs[0] = in0;
      const float in_scale = q_.tensors[in0].quant.scales[0];
      if (op == "conv2d" || op == "depthwise_conv2d" || op == "fully_connected") {
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
        quantize_weights(g_.tensors[w], op == "depthwise_conv2d" ? 3 : 0, b == ir::kNoTensor ? nullptr : &g_.tensors[b],
                         in_scale, out_quant.scales[0], &qw, &qb);
        qn.inputs[1] = qw;
        if (node.inputs.size() > 2) qn.inputs[2] = qb;
      } else {
        for (size_t i = 1; i < node.inputs.size(); ++i) {
          const int id = node.inputs[i];
          if (id == ir::kNoTensor) continue;
          qn.inputs[i] = g_.tensors[id].is_constant ? int8_constant(g_.tensors[id]) : int8_rep(id);
          if (qn.inputs[i] < 0) {
            *reason = "input '" + g_.tensors[id].name + "' has no calibrated range";
            return false;
          }
        }
      }
    }
    if (op == "clamp") {  // saturation of a requantization does the clamping
      qn.op = "quantize";
      qn.attrs.clear();
    } else {
      set_activation(qn, act);
    }

    ir::Tensor qt = int8_tensor(out.name, out.shape, out_quant);
    const size_t tensors_before = q_.tensors.size();
    const size_t report_before = report_->tensors.size();
    qn.outputs = {add_activation(std::move(qt), out_id)};
    q_.nodes.push_back(qn);
    try {
      (void)lower::lower_node(q_, q_.nodes.back(), lower::Target::kHost);
    } catch (const CompileError& e) {
      q_.nodes.pop_back();
      q_.tensors.resize(tensors_before);  // the output tensor is the last one added
      report_->tensors.resize(report_before);
      std::string what = e.what();
      const size_t colon = what.find("): ");
      *reason = colon == std::string::npos ? what : what.substr(colon + 3);
      return false;
    }
    as_int8_[out_id] = qn.outputs[0];
    return true;
  }

  void keep_float(const ir::Node& node) {
    ir::Node fn = node;
    for (size_t i = 0; i < node.inputs.size(); ++i)
      if (node.inputs[i] != ir::kNoTensor) fn.inputs[i] = float_rep(node.inputs[i]);
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
  Report* report_;
  ir::Graph q_;
  std::vector<int> as_float_;
  std::vector<int> as_int8_;
};

}  // namespace

ir::Graph quantize_graph(const ir::Graph& graph, const Calibration& calibration, const Options& options,
                         Report* report) {
  report->method = options.method;
  report->samples = calibration.samples;
  report->int8_io = options.int8_io;
  return Quantizer(graph, calibration, options, report).run();
}

}  // namespace mote::ptq
