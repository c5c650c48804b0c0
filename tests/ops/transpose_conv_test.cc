// TRANSPOSE_CONV: float32, int8 (per-channel int8 filter, int32 bias) and 16x8 (int16
// activations, int8 filter, int64 or int16 bias), the dtypes TensorFlow Lite Micro runs, over
// strides, SAME/VALID padding, kernel sizes, channel counts, output sizes the padding rule
// does not give (trailing rows no input reaches), with and without bias, per-tensor and
// per-channel filter scales and every fused activation (TFLite Micro applies it for every
// dtype). The oracle is TFLite's reference written here: the scatter of each input pixel
// into an output-sized accumulator (double for float32, TFLite's integers otherwise),
// padding by ComputePaddingHeightWidth with the output as the inverted conv's input, the
// per-channel QuantizeMultiplier of input_scale * filter_scale / output_scale (double),
// MultiplyByQuantizedMultiplier and CalculateActivationRangeQuantized's range.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include "kernels/quant_test_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace transpose_conv_test {

constexpr int32_t kTransposeConv = op_code(fb::BuiltinOperator::TRANSPOSE_CONV);
using Act = fb::ActivationFunctionType;

struct Case {
  std::string name;
  std::vector<int32_t> in;  // [N, H, W, C]
  int32_t out_c, kh, kw, stride_h, stride_w;
  fb::Padding padding;
  bool bias;
  Act act;
  std::vector<int32_t> out_hw = {};  // the output's H, W; empty: what the padding gives
  bool per_channel = true;           // quantized: one filter scale per output channel
};

const Case kCases[] = {
    {"s2_k3_same", {1, 3, 4, 3}, 4, 3, 3, 2, 2, fb::Padding::SAME, true, Act::NONE},
    {"s2_k2_valid", {1, 4, 3, 2}, 3, 2, 2, 2, 2, fb::Padding::VALID, true, Act::RELU},
    {"s1_k3_same_nobias", {2, 3, 3, 5}, 2, 3, 3, 1, 1, fb::Padding::SAME, false, Act::NONE},
    {"s3x2_k4x3_valid", {1, 2, 3, 4}, 5, 4, 3, 3, 2, fb::Padding::VALID, true, Act::RELU6},
    {"s2_k5_same_relu_n1", {1, 2, 2, 1}, 3, 5, 5, 2, 2, fb::Padding::SAME, true, Act::RELU_N1_TO_1},
    {"s1x3_k1x4_same", {1, 1, 5, 6}, 2, 1, 4, 1, 3, fb::Padding::SAME, true, Act::NONE},
    {"s2_k1_valid_taller", {1, 3, 3, 2}, 2, 1, 1, 2, 2, fb::Padding::VALID, true, Act::NONE, {7, 6}},
    {"s2_k3_same_odd", {1, 3, 3, 3}, 2, 3, 3, 2, 2, fb::Padding::SAME, false, Act::RELU, {5, 5}, false},
    {"s4_k2_valid_gaps", {1, 2, 2, 3}, 2, 2, 2, 4, 4, fb::Padding::VALID, true, Act::NONE, {6, 6}},
};

int32_t output_size(const Case& c, int axis) {
  if (!c.out_hw.empty()) return c.out_hw[static_cast<size_t>(axis)];
  const int32_t in = c.in[static_cast<size_t>(1 + axis)];
  const int32_t stride = axis == 0 ? c.stride_h : c.stride_w, k = axis == 0 ? c.kh : c.kw;
  return c.padding == fb::Padding::SAME ? in * stride : (in - 1) * stride + k;
}

// TFLite's ComputePaddingHeightWidth along one axis, with the transposed conv's output as
// the inverted conv's input (dilation 1): the leading pad.
int32_t leading_pad(const Case& c, int axis) {
  const int32_t size = output_size(c, axis);
  const int32_t stride = axis == 0 ? c.stride_h : c.stride_w, k = axis == 0 ? c.kh : c.kw;
  const int32_t conv_out = c.padding == fb::Padding::SAME ? (size + stride - 1) / stride : (size - k + stride) / stride;
  const int32_t total = (conv_out - 1) * stride + k - size;
  return total > 0 ? total / 2 : 0;
}

std::vector<int32_t> out_shape(const Case& c) { return {c.in[0], output_size(c, 0), output_size(c, 1), c.out_c}; }

size_t count_of(const std::vector<int32_t>& shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

// TFLite's scatter: acc[out element] += term(input index, filter index) for every input
// pixel, channel and tap landing inside the output.
template <typename Acc, typename Term>
std::vector<Acc> scatter(const Case& c, Term term) {
  const std::vector<int32_t> os = out_shape(c);
  std::vector<Acc> acc(count_of(os), Acc{0});
  const int32_t pad_h = leading_pad(c, 0), pad_w = leading_pad(c, 1);
  const int32_t ic_n = c.in[3];
  for (int32_t b = 0; b < c.in[0]; ++b)
    for (int32_t iy = 0; iy < c.in[1]; ++iy)
      for (int32_t ix = 0; ix < c.in[2]; ++ix)
        for (int32_t ic = 0; ic < ic_n; ++ic)
          for (int32_t ky = 0; ky < c.kh; ++ky)
            for (int32_t kx = 0; kx < c.kw; ++kx)
              for (int32_t oc = 0; oc < c.out_c; ++oc) {
                const int32_t oy = iy * c.stride_h - pad_h + ky, ox = ix * c.stride_w - pad_w + kx;
                if (oy < 0 || oy >= os[1] || ox < 0 || ox >= os[2]) continue;
                const size_t in_i = ((static_cast<size_t>(b) * c.in[1] + iy) * c.in[2] + ix) * ic_n + ic;
                const size_t f_i = ((static_cast<size_t>(oc) * c.kh + ky) * c.kw + kx) * ic_n + ic;
                const size_t o_i = ((static_cast<size_t>(b) * os[1] + oy) * os[2] + ox) * c.out_c + oc;
                acc[o_i] += term(in_i, f_i);
              }
  return acc;
}

// The model: TFLite's inputs output_shape (constant), filter, input, bias (optional).
ModelSpec model(const Case& c, TensorSpec filter, TensorSpec x, std::optional<TensorSpec> bias, TensorSpec y) {
  std::vector<TensorSpec> tensors = {
      TensorSpec("output_shape", {4}, fb::TensorType::INT32, bytes_of(out_shape(c))), std::move(filter),
      std::move(x), std::move(y)};
  std::vector<int32_t> inputs = {0, 1, 2};
  if (bias) {
    tensors.push_back(std::move(*bias));
    inputs.push_back(4);
  }
  const fb::Padding padding = c.padding;
  const int32_t sh = c.stride_h, sw = c.stride_w;
  const Act act = c.act;
  return single_op_model(std::move(tensors), kTransposeConv, inputs, {3}, fb::BuiltinOptions::TransposeConvOptions,
                         [=](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreateTransposeConvOptions(b, padding, sw, sh, act).Union();
                         });
}

std::vector<int32_t> filter_shape(const Case& c) { return {c.out_c, c.kh, c.kw, c.in[3]}; }

OP_TEST(TransposeConv, Float32AsTfliteReference) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    std::vector<float> x(count_of(c.in)), w(count_of(filter_shape(c))), bias(static_cast<size_t>(c.out_c));
    for (float& v : x) v = dist(rng);
    for (float& v : w) v = dist(rng);
    for (float& v : bias) v = dist(rng);
    std::vector<double> acc =
        scatter<double>(c, [&](size_t i, size_t f) { return static_cast<double>(x[i]) * static_cast<double>(w[f]); });
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    if (c.act == Act::RELU) lo = 0;
    if (c.act == Act::RELU6) lo = 0, hi = 6;
    if (c.act == Act::RELU_N1_TO_1) lo = -1, hi = 1;
    std::vector<float> y(acc.size());
    for (size_t i = 0; i < acc.size(); ++i) {
      const double v = acc[i] + (c.bias ? static_cast<double>(bias[i % static_cast<size_t>(c.out_c)]) : 0.0);
      y[i] = static_cast<float>(std::min(std::max(v, lo), hi));
    }
    std::optional<TensorSpec> b;
    if (c.bias) b = TensorSpec("bias", {c.out_c}, fb::TensorType::FLOAT32, bytes_of(bias));
    const ModelSpec spec = model(c, TensorSpec("filter", filter_shape(c), fb::TensorType::FLOAT32, bytes_of(w)),
                                 TensorSpec("x", c.in), b, TensorSpec("y", out_shape(c)));
    // At most 60 products of magnitude <= 1 summed in float: a few float ulps of the sum.
    expect_op_outputs("transpose_conv_f32_" + c.name, spec, {{{bytes_of(x)}, {bytes_of(y)}}}, {1e-5, 1e-5});
  }
}

// A float TRANSPOSE_CONV read only by a RELU6: the compiler folds the clamp into the
// op's fused activation (passes/fuse_activations); the result is the clamp's.
OP_TEST(TransposeConv, Float32FollowedByRelu6) {
  const Case c = {"s2_k3_same_relu6_op", {1, 3, 3, 2}, 3, 3, 3, 2, 2, fb::Padding::SAME, true, Act::RELU};
  std::mt19937 rng(71);
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
  std::vector<float> x(count_of(c.in)), w(count_of(filter_shape(c))), bias(static_cast<size_t>(c.out_c));
  for (float& v : x) v = dist(rng);
  for (float& v : w) v = dist(rng);
  for (float& v : bias) v = dist(rng);
  const std::vector<double> acc =
      scatter<double>(c, [&](size_t i, size_t f) { return static_cast<double>(x[i]) * static_cast<double>(w[f]); });
  std::vector<float> y(acc.size());
  int clamped_high = 0;
  for (size_t i = 0; i < acc.size(); ++i) {
    const double v = acc[i] + bias[i % static_cast<size_t>(c.out_c)];
    clamped_high += v > 6.0;
    y[i] = static_cast<float>(std::min(std::max(v, 0.0), 6.0));  // RELU, then RELU6
  }
  ASSERT_GT(clamped_high, 0);
  ModelSpec spec = model(c, TensorSpec("filter", filter_shape(c), fb::TensorType::FLOAT32, bytes_of(w)),
                         TensorSpec("x", c.in),
                         TensorSpec("bias", {c.out_c}, fb::TensorType::FLOAT32, bytes_of(bias)),
                         TensorSpec("t", out_shape(c)));
  spec.tensors.push_back(TensorSpec("y", out_shape(c)));
  OpSpec relu6;
  relu6.code = op_code(fb::BuiltinOperator::RELU6);
  relu6.inputs = {3};
  relu6.outputs = {5};
  spec.ops.push_back(relu6);
  spec.outputs = {5};
  expect_op_outputs("transpose_conv_f32_then_relu6", spec, {{{bytes_of(x)}, {bytes_of(y)}}}, {1e-5, 1e-5});
}

// CalculateActivationRangeQuantized: the fused activation's bounds quantized with the
// output's scale and zero point (round half away from zero, in float), within [lo, hi].
void quantized_act_range(Act act, float scale, int32_t zero_point, int32_t lo, int32_t hi, int32_t* act_min,
                         int32_t* act_max) {
  const auto q = [&](float f) { return zero_point + static_cast<int32_t>(std::round(f / scale)); };
  *act_min = lo;
  *act_max = hi;
  if (act == Act::RELU || act == Act::RELU6) *act_min = std::max(lo, q(0.0f));
  if (act == Act::RELU6) *act_max = std::min(hi, q(6.0f));
  if (act == Act::RELU_N1_TO_1) {
    *act_min = std::max(lo, q(-1.0f));
    *act_max = std::min(hi, q(1.0f));
  }
}

// A quantized case: T the activations (int8 or int16), an int8 filter, BiasT the bias
// (int32 for int8; int64 or int16 for 16x8); the oracle accumulates in int64 (exact) and checks int8 sums fit int32.
template <typename T, typename BiasT>
void expect_quantized(const Case& c, uint32_t seed) {
  constexpr bool kInt8 = sizeof(T) == 1;
  const fb::TensorType type = kInt8 ? fb::TensorType::INT8 : fb::TensorType::INT16;
  const int32_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  const int32_t in_zp = kInt8 ? static_cast<int32_t>(seed % 41) - 20 : 0;
  const int32_t out_zp = kInt8 ? 7 - static_cast<int32_t>(seed % 23) : 0;
  const float in_scale = kInt8 ? 0.05f : 0.0005f;
  std::vector<T> x = random_ints<T>(count_of(c.in), seed, lo, hi);
  x[0] = static_cast<T>(lo);
  x[1] = static_cast<T>(hi);
  const std::vector<int8_t> w = random_ints<int8_t>(count_of(filter_shape(c)), seed + 1, -127, 127);
  std::vector<float> filter_scales(c.per_channel ? static_cast<size_t>(c.out_c) : 1);
  for (size_t k = 0; k < filter_scales.size(); ++k) filter_scales[k] = 0.002f * static_cast<float>(k + 1);
  const std::vector<BiasT> bias = random_ints<BiasT>(static_cast<size_t>(c.out_c), seed + 2, -3000, 3000);

  // TFLite's integer accumulation (no int32 overflow at these sizes: checked below).
  const std::vector<int64_t> acc = scatter<int64_t>(c, [&](size_t i, size_t f) {
    return static_cast<int64_t>(static_cast<int32_t>(x[i]) - in_zp) * w[f];
  });
  const auto channel_scale = [&](size_t oc) { return filter_scales[c.per_channel ? oc : 0]; };
  // An output scale that maps the largest result to about 1.2x the type's range: some
  // saturation, mostly in range.
  double largest = 0;
  for (size_t i = 0; i < acc.size(); ++i) {
    const size_t oc = i % static_cast<size_t>(c.out_c);
    const double real = static_cast<double>(acc[i] + (c.bias ? bias[oc] : 0)) * in_scale * channel_scale(oc);
    largest = std::max(largest, std::fabs(real));
  }
  const float out_scale = static_cast<float>(std::max(largest, 1e-3) / (hi * 1.2));

  std::vector<int32_t> multipliers(static_cast<size_t>(c.out_c)), shifts(multipliers.size());
  for (size_t oc = 0; oc < multipliers.size(); ++oc) {
    ref_quantize_multiplier(static_cast<double>(in_scale) * static_cast<double>(channel_scale(oc)) /
                                static_cast<double>(out_scale),
                            &multipliers[oc], &shifts[oc]);
  }
  int32_t act_min = 0, act_max = 0;
  quantized_act_range(c.act, out_scale, out_zp, lo, hi, &act_min, &act_max);
  std::vector<T> y(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    const size_t oc = i % static_cast<size_t>(c.out_c);
    const int64_t sum = acc[i] + (c.bias ? static_cast<int64_t>(bias[oc]) : 0);
    int64_t scaled = 0;
    if (kInt8) {
      ASSERT_EQ(sum, static_cast<int32_t>(sum));
      scaled = ref_mbqm(static_cast<int32_t>(sum), multipliers[oc], shifts[oc]);
    } else {
      scaled = ref_mbqm64(sum, multipliers[oc], shifts[oc]);
    }
    y[i] = static_cast<T>(ref_clamp(scaled + out_zp, act_min, act_max));
  }

  TensorSpec filter("filter", filter_shape(c), fb::TensorType::INT8, bytes_of(w));
  filter.scales = filter_scales;
  filter.zero_points.assign(filter_scales.size(), 0);
  std::optional<TensorSpec> b;
  if (c.bias) {
    const fb::TensorType bias_type = sizeof(BiasT) == 2   ? fb::TensorType::INT16
                                     : sizeof(BiasT) == 4 ? fb::TensorType::INT32
                                                          : fb::TensorType::INT64;
    b = TensorSpec("bias", {c.out_c}, bias_type, bytes_of(bias));
    for (size_t oc = 0; oc < static_cast<size_t>(c.out_c); ++oc) b->scales.push_back(in_scale * channel_scale(oc));
    b->zero_points.assign(b->scales.size(), 0);
  }
  const ModelSpec spec = model(c, filter, quantized("x", c.in, type, in_scale, in_zp), b,
                               quantized("y", out_shape(c), type, out_scale, out_zp));
  expect_op_outputs(std::string("transpose_conv_") + (kInt8 ? "s8_" : "s16_") + c.name, spec,
                    {{{bytes_of(x)}, {bytes_of(y)}}});
}

template <typename T, typename BiasT>
void expect_every_case(uint32_t seed) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    expect_quantized<T, BiasT>(c, seed);
    seed += 3;
  }
}

OP_TEST(TransposeConv, Int8AsTfliteMicro) { expect_every_case<int8_t, int32_t>(100); }

OP_TEST(TransposeConv, Int16x8AsTfliteMicro) { expect_every_case<int16_t, int64_t>(200); }

// TensorFlow Lite Micro widens a 16x8 model's int16 bias to int64 (the compiler does it once).
OP_TEST(TransposeConv, Int16x8WithInt16BiasAsTfliteMicro) { expect_every_case<int16_t, int16_t>(300); }

OP_TEST(TransposeConv, RefusesWhatTfliteMicroRefuses) {
  const Case c = kCases[0];
  const std::vector<int8_t> w(count_of(filter_shape(c)), 1);
  const TensorSpec filter = quantized("filter", filter_shape(c), fb::TensorType::INT8, 0.01f, 0, bytes_of(w));
  // float32 activations with an int8 filter ("hybrid").
  EXPECT_EQ(op_error("tconv_hybrid", model(c, filter, TensorSpec("x", c.in), std::nullopt,
                                           TensorSpec("y", out_shape(c)))),
            "tconv_hybrid.tflite: operator 0 (TRANSPOSE_CONV): input 'x' and filter 'filter' have types float32 and "
            "int8 (hybrid transpose_conv: TensorFlow Lite Micro does not run it)");
  // An int8 model's bias must be int32.
  const TensorSpec bias16 =
      quantized("bias", {c.out_c}, fb::TensorType::INT16, 0.0005f, 0, bytes_of(std::vector<int16_t>(4, 1)));
  EXPECT_EQ(op_error("tconv_s8_bias16",
                     model(c, filter, quantized("x", c.in, fb::TensorType::INT8, 0.05f, 0), bias16,
                           quantized("y", out_shape(c), fb::TensorType::INT8, 0.1f, 0))),
            "node 'y' (transpose_conv): bias 'bias' has dtype int16, expected int32");
  // uint8 (TensorFlow Lite Micro's kernel has no uint8 case).
  const TensorSpec filter_u8 = quantized("filter", filter_shape(c), fb::TensorType::UINT8, 0.01f, 128,
                                         bytes_of(std::vector<uint8_t>(w.size(), 1)));
  EXPECT_EQ(op_error("tconv_u8", model(c, filter_u8, quantized("x", c.in, fb::TensorType::UINT8, 0.05f, 128),
                                       std::nullopt, quantized("y", out_shape(c), fb::TensorType::UINT8, 0.1f, 128))),
            "node 'y' (transpose_conv): input 'x' has dtype uint8, expected int8 or int16 (float activations with "
            "int8 weights are not supported)");
  // int16 activations need an int8 filter (16x8).
  const TensorSpec filter16 = quantized("filter", filter_shape(c), fb::TensorType::INT16, 0.01f, 0,
                                        bytes_of(std::vector<int16_t>(w.size(), 1)));
  EXPECT_EQ(op_error("tconv_s16_filter16",
                     model(c, filter16, quantized("x", c.in, fb::TensorType::INT16, 0.05f, 0), std::nullopt,
                           quantized("y", out_shape(c), fb::TensorType::INT16, 0.1f, 0))),
            "node 'y' (transpose_conv): filter 'filter' has dtype int16, expected int8");
  // A 16x8 model's int16 bias is widened once at compile time: it must be a constant.
  EXPECT_EQ(op_error("tconv_s16_bias16_input",
                     model(c, filter, quantized("x", c.in, fb::TensorType::INT16, 0.05f, 0),
                           quantized("bias", {c.out_c}, fb::TensorType::INT16, 0.0005f, 0),
                           quantized("y", out_shape(c), fb::TensorType::INT16, 0.1f, 0))),
            "tconv_s16_bias16_input.tflite: operator 0 (TRANSPOSE_CONV): int16 bias 'bias' must be a constant");
  // An int8 input with a float32 output.
  EXPECT_EQ(op_error("tconv_s8_to_f32", model(c, filter, quantized("x", c.in, fb::TensorType::INT8, 0.05f, 0),
                                              std::nullopt, TensorSpec("y", out_shape(c)))),
            "node 'y' (transpose_conv): output 'y' has dtype float32, expected int8");
  // Other fused activations.
  Case tanh = c;
  tanh.act = Act::TANH;
  EXPECT_EQ(op_error("tconv_tanh", model(tanh, TensorSpec("filter", filter_shape(c), fb::TensorType::FLOAT32,
                                                          bytes_of(std::vector<float>(w.size(), 0.5f))),
                                         TensorSpec("x", c.in), std::nullopt, TensorSpec("y", out_shape(c)))),
            "tconv_tanh.tflite: operator 0 (TRANSPOSE_CONV): fused activation TANH not supported");
}

}  // namespace transpose_conv_test
}  // namespace mote::testing
