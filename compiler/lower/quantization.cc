#include "lower/quantization.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace mote::lower {

bool is_integer(DType dtype) {
  return dtype == DType::kInt8 || dtype == DType::kInt16 || dtype == DType::kInt32;
}

int32_t type_min(DType dtype) {
  switch (dtype) {
    case DType::kInt8: return -128;
    case DType::kInt16: return -32768;
    default: return std::numeric_limits<int32_t>::min();
  }
}

int32_t type_max(DType dtype) {
  switch (dtype) {
    case DType::kInt8: return 127;
    case DType::kInt16: return 32767;
    default: return std::numeric_limits<int32_t>::max();
  }
}

std::string float_string(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

TensorQuant per_tensor(const NodeLowering& l, const ir::Tensor& t, const char* role) {
  const ir::QuantParams& q = t.quant;
  if (q.scales.empty()) l.fail(l.label(t, role) + " (" + dtype_name(t.dtype) + ") has no quantization parameters");
  if (q.scales.size() != 1 || q.zero_points.size() != 1) {
    l.fail(l.label(t, role) + " has " + std::to_string(q.scales.size()) +
           " quantization scales, expected one (per-tensor)");
  }
  const float scale = q.scales[0];
  if (!(scale > 0.0f) || !std::isfinite(scale)) {
    l.fail(l.label(t, role) + " has quantization scale " + float_string(scale) +
           ", expected a positive finite value");
  }
  const int32_t zp = q.zero_points[0];
  if (zp < type_min(t.dtype) || zp > type_max(t.dtype)) {
    l.fail(l.label(t, role) + " has zero point " + std::to_string(zp) + ", outside " + dtype_name(t.dtype));
  }
  return {scale, zp};
}

bool same_quant(const ir::Tensor& a, const ir::Tensor& b) {
  return a.quant.scales == b.quant.scales && a.quant.zero_points == b.quant.zero_points;
}

std::vector<float> channel_scales(const NodeLowering& l, const ir::Tensor& filter, int32_t axis,
                                  int64_t channels) {
  const ir::QuantParams& q = filter.quant;
  if (q.scales.empty()) l.fail(l.label(filter, "filter") + " has no quantization parameters");
  std::vector<float> scales;
  if (q.scales.size() == 1) {
    scales.assign(static_cast<size_t>(channels), q.scales[0]);
  } else if (static_cast<int64_t>(q.scales.size()) == channels && q.axis == axis) {
    scales = q.scales;
  } else {
    l.fail(l.label(filter, "filter") + " has " + std::to_string(q.scales.size()) +
           " quantization scales on axis " + std::to_string(q.axis) + ", expected 1 or " +
           std::to_string(channels) + " on axis " + std::to_string(axis));
  }
  for (float s : scales) {
    if (!(s > 0.0f) || !std::isfinite(s)) {
      l.fail(l.label(filter, "filter") + " has quantization scale " + float_string(s) +
             ", expected positive finite scales");
    }
  }
  return scales;
}

void channel_multipliers(const NodeLowering& l, float input_scale, const std::vector<float>& filter_scales,
                         float output_scale, int32_t max_shift, std::vector<int32_t>* multipliers,
                         std::vector<int32_t>* shifts) {
  for (size_t c = 0; c < filter_scales.size(); ++c) {
    int32_t m = 0, s = 0;
    conv_channel_multiplier(input_scale, filter_scales[c], output_scale, &m, &s);
    // A scale ratio of 2^32 or more: TensorFlow Lite Micro shifts the accumulator left by
    // the shift before its multiply (x * (1 << shift)), which on an Arm core (LSL by 32 or
    // more) is 0 for every accumulator, so the channel outputs its zero point. Converters
    // write such scales for layers whose outputs are all one value (a padding constant of
    // -inf folded into the range).
    if (s >= 32) m = 0, s = 0;
    expect_shift(l, s, kMinShift, max_shift, "channel " + std::to_string(c) + " requantization");
    multipliers->push_back(m);
    shifts->push_back(s);
  }
}

void act_range(const NodeLowering& l, const TensorQuant& out, DType dtype, int32_t* act_min,
               int32_t* act_max) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double lo = l.node().get_float("act_min", -kInf);
  const double hi = l.node().get_float("act_max", kInf);
  FusedActivation activation;
  if (lo == -kInf && hi == kInf) {
    activation = FusedActivation::kNone;
  } else if (lo == 0.0 && hi == kInf) {
    activation = FusedActivation::kRelu;
  } else if (lo == 0.0 && hi == 6.0) {
    activation = FusedActivation::kRelu6;
  } else if (lo == -1.0 && hi == 1.0) {
    activation = FusedActivation::kReluN1To1;
  } else {
    l.fail("fused activation range [" + float_string(lo) + ", " + float_string(hi) +
           "] on a quantized op is not one of TFLite's (none, [0,inf) ReLU, [0,6] ReLU6, [-1,1])");
  }
  if (!activation_range_quantized(activation, out.scale, out.zero_point, type_min(dtype),
                                  type_max(dtype), act_min, act_max) ||
      *act_min > *act_max) {
    l.fail("fused activation range [" + float_string(lo) + ", " + float_string(hi) +
           "] does not quantize at output scale " + float_string(out.scale) + ", zero point " +
           std::to_string(out.zero_point));
  }
}

void expect_shift(const NodeLowering& l, int32_t shift, int32_t lo, int32_t hi, const std::string& what) {
  if (shift < lo || shift > hi) {
    l.fail(what + " shift " + std::to_string(shift) + " is outside the kernel's range [" +
           std::to_string(lo) + ", " + std::to_string(hi) + "] (scales too far apart)");
  }
}

bool checked_log2(float x, int32_t* log2) {
  const float log2x = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(log2x);
  *log2 = static_cast<int32_t>(rounded);
  return std::fabs(log2x - rounded) < 1e-3f;
}

void expect_zero_point_zero(const NodeLowering& l, const ir::Tensor& t, const char* role, int32_t zp) {
  if (zp != 0) {
    l.fail(l.label(t, role) + " has zero point " + std::to_string(zp) +
           ", expected 0 (int16 activations are symmetric in TFLite)");
  }
}

void expect_symmetric(const NodeLowering& l, const TensorQuant& in, const TensorQuant& out) {
  expect_zero_point_zero(l, l.input(0), "input", in.zero_point);
  expect_zero_point_zero(l, l.output(0), "output", out.zero_point);
}

BinaryQuant binary_quant(const NodeLowering& l, DType dtype, const char* a_role, const char* b_role) {
  const ir::Tensor& a = l.input(0);
  const ir::Tensor& b = l.input(1);
  const ir::Tensor& out = l.output(0);
  const BinaryQuant q{per_tensor(l, a, a_role), per_tensor(l, b, b_role), per_tensor(l, out, "output")};
  if (dtype == DType::kInt16) {
    expect_zero_point_zero(l, a, a_role, q.a.zero_point);
    expect_zero_point_zero(l, b, b_role, q.b.zero_point);
    expect_zero_point_zero(l, out, "output", q.out.zero_point);
  }
  return q;
}

DType activation_dtype(const NodeLowering& l) {
  const DType dtype = l.input(0).dtype;
  if (dtype != DType::kInt8 && dtype != DType::kInt16) {
    l.fail(l.label(l.input(0), "input") + " has dtype " + dtype_name(dtype) +
           ", expected int8 or int16 (float activations with int8 weights are not supported)");
  }
  l.expect_dtype(l.output(0), "output", dtype);
  return dtype;
}

int32_t accumulator_bits_16x8(const NodeLowering& l, size_t bias_index) {
  if (l.has_input(bias_index)) return l.input(bias_index).dtype == DType::kInt32 ? 32 : 64;
  const std::string type = l.node().get_string("quantized_bias_type", "int64");
  if (type == "int32") return 32;
  if (type != "int64") {
    l.fail("attribute 'quantized_bias_type' is '" + type + "', expected int32 or int64");
  }
  return 64;
}

}  // namespace mote::lower
