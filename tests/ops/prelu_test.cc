// PRELU: float32, int8, and int16 input with int8 alpha, the dtypes TensorFlow Lite
// Micro's kernel takes, with alpha broadcast per channel, along some axes and
// elementwise (a graph input). The oracle is TFLite's arithmetic written here: x >= 0 ? x
// : x * alpha for float32; for the quantized ones the two multipliers of
// CalculatePreluParams (in double) and BroadcastPrelu4DSlow's requantization.
#include <cmath>
#include <random>

#include "kernels/quant_test_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace prelu_test {

constexpr int32_t kPrelu = op_code(fb::BuiltinOperator::PRELU);

// Index into alpha (shape `a`, right-aligned against `out`) of output element i.
size_t broadcast_index(const std::vector<int32_t>& out, const std::vector<int32_t>& a, size_t i) {
  size_t index = 0, stride = 1;
  for (size_t k = 0; k < out.size(); ++k) {
    const size_t axis = out.size() - 1 - k;
    const size_t coord = i % static_cast<size_t>(out[axis]);
    i /= static_cast<size_t>(out[axis]);
    if (k < a.size()) {
      const int32_t dim = a[a.size() - 1 - k];
      if (dim != 1) index += coord * stride;
      stride *= static_cast<size_t>(dim);
    }
  }
  return index;
}

size_t count_of(const std::vector<int32_t>& shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

OP_TEST(Prelu, Float32ChannelAndElementwiseAlpha) {
  const std::vector<int32_t> shape = {1, 3, 4, 5};
  std::mt19937 rng(54);
  for (const bool constant_alpha : {true, false}) {
    const std::vector<int32_t> alpha_shape = constant_alpha ? std::vector<int32_t>{1, 1, 5} : shape;
    std::vector<float> x(count_of(shape)), alpha(count_of(alpha_shape)), y(x.size());
    for (float& v : x) v = std::uniform_real_distribution<float>(-5.0f, 5.0f)(rng);
    for (float& v : alpha) v = std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
    x[0] = 0.0f;
    for (size_t i = 0; i < x.size(); ++i) {
      const float a = alpha[broadcast_index(shape, alpha_shape, i)];
      y[i] = static_cast<float>(x[i] >= 0 ? x[i] : static_cast<double>(x[i]) * a);
    }
    TensorSpec a("alpha", alpha_shape, fb::TensorType::FLOAT32, constant_alpha ? bytes_of(alpha) : std::vector<uint8_t>{});
    const ModelSpec spec = single_op_model({TensorSpec("x", shape), a, TensorSpec("y", shape)}, kPrelu, {0, 1}, {2});
    std::vector<std::vector<uint8_t>> inputs = {bytes_of(x)};
    if (!constant_alpha) inputs.push_back(bytes_of(alpha));
    expect_op_outputs(constant_alpha ? "prelu_f32_channel" : "prelu_f32_elementwise", spec, {{inputs, {bytes_of(y)}}});
  }
}

struct QuantCase {
  fb::TensorType type;
  float in_scale;
  int64_t in_zp;
  float alpha_scale;
  int64_t alpha_zp;
  float out_scale;
  int64_t out_zp;
  std::vector<int32_t> alpha_shape;
  bool constant_alpha;
};

template <typename T>
void expect_quantized(const QuantCase& c, uint32_t seed) {
  const std::vector<int32_t> shape = {2, 3, 4, 6};
  const int64_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  int32_t m1 = 0, s1 = 0, m2 = 0, s2 = 0;
  const double in = c.in_scale, out = c.out_scale;
  ref_quantize_multiplier(in / out, &m1, &s1);
  ref_quantize_multiplier(in * static_cast<double>(c.alpha_scale) / out, &m2, &s2);
  std::vector<T> x = random_ints<T>(count_of(shape), seed, lo, hi), y(x.size());
  const std::vector<int8_t> alpha = random_ints<int8_t>(count_of(c.alpha_shape), seed + 1, -128, 127);
  x[0] = static_cast<T>(lo);
  x[1] = static_cast<T>(hi);
  x[2] = static_cast<T>(c.in_zp);
  for (size_t i = 0; i < x.size(); ++i) {
    const int32_t v = static_cast<int32_t>(x[i] - c.in_zp);
    const int32_t a = static_cast<int32_t>(alpha[broadcast_index(shape, c.alpha_shape, i)] - c.alpha_zp);
    const int64_t r = v >= 0 ? ref_mbqm(v, m1, s1) : ref_mbqm(v * a, m2, s2);
    y[i] = static_cast<T>(ref_clamp(r + c.out_zp, lo, hi));
  }
  TensorSpec a = quantized("alpha", c.alpha_shape, fb::TensorType::INT8, c.alpha_scale, c.alpha_zp,
                           c.constant_alpha ? bytes_of(alpha) : std::vector<uint8_t>{});
  const ModelSpec spec = single_op_model({quantized("x", shape, c.type, c.in_scale, c.in_zp), a,
                                          quantized("y", shape, c.type, c.out_scale, c.out_zp)},
                                         kPrelu, {0, 1}, {2});
  std::vector<std::vector<uint8_t>> inputs = {bytes_of(x)};
  if (!c.constant_alpha) inputs.push_back(bytes_of(alpha));
  const std::string name = std::string("prelu_") + fb::EnumNameTensorType(c.type) + "_" + std::to_string(seed);
  SCOPED_TRACE(name);
  expect_op_outputs(name, spec, {{inputs, {bytes_of(y)}}});
}

OP_TEST(Prelu, Int8AsTfliteMicro) {
  const QuantCase cases[] = {
      {fb::TensorType::INT8, 0.05f, -3, 0.002f, 10, 0.04f, 5, {6}, true},               // per channel
      {fb::TensorType::INT8, 0.1f, 100, 0.01f, -128, 0.02f, -128, {3, 1, 6}, true},      // two axes
      {fb::TensorType::INT8, 0.5f, 0, 0.05f, 0, 0.003f, 0, {2, 3, 4, 6}, false},         // elementwise input
      {fb::TensorType::INT8, 0.02f, -128, 0.004f, -1, 0.02f, -128, {1, 1, 1, 1}, true},  // one alpha
  };
  uint32_t seed = 10;
  for (const QuantCase& c : cases) expect_quantized<int8_t>(c, seed++);
}

OP_TEST(Prelu, Int16WithInt8AlphaAsTfliteMicro) {
  const QuantCase cases[] = {
      {fb::TensorType::INT16, 0.001f, 0, 0.004f, 3, 0.0009f, 0, {6}, true},
      {fb::TensorType::INT16, 0.0002f, 0, 0.01f, 0, 0.0005f, 0, {2, 3, 4, 6}, false},
  };
  uint32_t seed = 20;
  for (const QuantCase& c : cases) expect_quantized<int16_t>(c, seed++);
}

OP_TEST(Prelu, RefusalsAreOneLine) {
  const std::vector<int32_t> shape = {1, 2, 2, 3};
  EXPECT_EQ(op_error("prelu_bcast", single_op_model({TensorSpec("x", shape), TensorSpec("alpha", {2}),
                                                     TensorSpec("y", shape)},
                                                    kPrelu, {0, 1}, {2})),
            "prelu_bcast.tflite: operator 0 (PRELU): alpha 'alpha' of shape [2] does not broadcast against input "
            "[1,2,2,3]");
  EXPECT_EQ(op_error("prelu_rank5", single_op_model({TensorSpec("x", {1, 1, 2, 2, 3}), TensorSpec("alpha", {3}),
                                                     TensorSpec("y", {1, 1, 2, 2, 3})},
                                                    kPrelu, {0, 1}, {2})),
            "prelu_rank5.tflite: operator 0 (PRELU): 'x' has shape [1,1,2,2,3], at most rank 4 is supported");
  EXPECT_EQ(op_error("prelu_s16_alpha",
                     single_op_model({quantized("x", shape, fb::TensorType::INT16, 0.001f, 0),
                                      quantized("alpha", {3}, fb::TensorType::INT16, 0.001f, 0),
                                      quantized("y", shape, fb::TensorType::INT16, 0.001f, 0)},
                                     kPrelu, {0, 1}, {2})),
            "node 'y' (prelu): alpha 'alpha' has dtype int16, expected int8");
  EXPECT_EQ(op_error("prelu_mixed", single_op_model({TensorSpec("x", shape),
                                                     quantized("alpha", {3}, fb::TensorType::INT8, 0.01f, 0),
                                                     TensorSpec("y", shape)},
                                                    kPrelu, {0, 1}, {2})),
            "node 'y' (prelu): alpha 'alpha' has dtype int8, expected float32");
}

}  // namespace prelu_test
}  // namespace mote::testing
