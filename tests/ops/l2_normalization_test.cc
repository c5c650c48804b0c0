// L2_NORMALIZATION: float32 (x / max(sqrt(sum x^2), 1e-6) along the last axis, ranks 1-4,
// a zero vector) and int8 (TFLite's integer L2Normalization: the inverse square root of the
// integer sum of squares, TFLite's GetInvSqrtQuantizedMultiplierExp written in
// tests/kernels/quant_test_util.h, output in steps of 1/128; several zero points, a zero
// vector, |d| = 1), against the arithmetic written here; what TFLite refuses (int16, an
// output quantization other than 1/128 and 0, a fused activation, rank 5) with one line.
#include <cmath>
#include <random>

#include "kernels/quant_test_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace l2_normalization_test {

constexpr int32_t kL2Norm = op_code(fb::BuiltinOperator::L2_NORMALIZATION);

ModelSpec l2_model(TensorSpec x, TensorSpec y, fb::ActivationFunctionType act = fb::ActivationFunctionType::NONE) {
  return single_op_model({std::move(x), std::move(y)}, kL2Norm, {0}, {1}, fb::BuiltinOptions::L2NormOptions,
                         [act](flatbuffers::FlatBufferBuilder& b) { return fb::CreateL2NormOptions(b, act).Union(); });
}

OP_TEST(L2Normalization, Float32AlongTheLastAxis) {
  std::mt19937 rng(121);
  for (const std::vector<int32_t>& shape : std::vector<std::vector<int32_t>>{{7}, {3, 5}, {2, 2, 4}, {1, 2, 3, 8}}) {
    const size_t depth = static_cast<size_t>(shape.back());
    size_t count = 1;
    for (int32_t d : shape) count *= static_cast<size_t>(d);
    std::vector<float> x(count);
    for (float& v : x) v = std::uniform_real_distribution<float>(-20.0f, 20.0f)(rng);
    if (count > depth)
      for (size_t c = 0; c < depth; ++c) x[c] = 0.0f;  // norm 0: divided by epsilon, 0 out
    std::vector<float> y(count);
    for (size_t v = 0; v < count / depth; ++v) {
      double sq = 0;
      for (size_t c = 0; c < depth; ++c) sq += double{x[v * depth + c]} * x[v * depth + c];
      const double norm = std::max(std::sqrt(sq), 1e-6);
      for (size_t c = 0; c < depth; ++c) y[v * depth + c] = static_cast<float>(x[v * depth + c] / norm);
    }
    // The kernel sums squares in float: a few float ulps from the double norm.
    expect_op_outputs("l2_norm_f32_rank" + std::to_string(shape.size()),
                      l2_model(TensorSpec("x", shape), TensorSpec("y", shape)), {{{bytes_of(x)}, {bytes_of(y)}}},
                      FloatTolerance{1e-7, 1e-6});
  }
}

OP_TEST(L2Normalization, Int8AsTfliteL2Normalization) {
  const std::vector<int32_t> shape = {2, 3, 10};
  std::mt19937 rng(122);
  for (int32_t zp : {0, -128, 127, 9}) {
    std::vector<int8_t> x(60);
    for (int8_t& v : x) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
    for (size_t c = 0; c < 10; ++c) x[c] = static_cast<int8_t>(zp);  // a zero vector
    for (size_t c = 10; c < 20; ++c) x[c] = static_cast<int8_t>(zp);
    x[13] = static_cast<int8_t>(zp == 127 ? 126 : zp + 1);  // sum of squares 1
    std::vector<int8_t> y(60);
    for (size_t v = 0; v < 6; ++v) ref_l2_normalize_s8(&x[v * 10], 10, zp, &y[v * 10]);
    expect_op_outputs("l2_norm_s8_" + std::to_string(zp),
                      l2_model(quantized("x", shape, fb::TensorType::INT8, 0.3f, zp),
                               quantized("y", shape, fb::TensorType::INT8, 1.0f / 128.0f, 0)),
                      {{{bytes_of(x)}, {bytes_of(y)}}});
  }
}

OP_TEST(L2Normalization, WhatTfliteRefusesIsOneLine) {
  const std::vector<int32_t> shape = {2, 8};
  EXPECT_EQ(op_error("l2_s16", l2_model(quantized("x", shape, fb::TensorType::INT16, 0.1f, 0),
                                        quantized("y", shape, fb::TensorType::INT16, 1.0f / 128.0f, 0))),
            "node 'y' (l2_normalization): input 'x' has dtype int16, expected float32 or int8 (TensorFlow Lite "
            "Micro's l2_normalization)");
  EXPECT_EQ(op_error("l2_out", l2_model(quantized("x", shape, fb::TensorType::INT8, 0.1f, 0),
                                        quantized("y", shape, fb::TensorType::INT8, 0.01f, 0))),
            "node 'y' (l2_normalization): output 'y' has scale 0.00999999978, zero point 0; TFLite requires scale "
            "0.0078125, zero point 0");
  EXPECT_EQ(op_error("l2_act", l2_model(TensorSpec("x", shape), TensorSpec("y", shape),
                                        fb::ActivationFunctionType::RELU)),
            "l2_act.tflite: operator 0 (L2_NORMALIZATION): fused activation RELU not supported");
  EXPECT_EQ(op_error("l2_rank5", l2_model(TensorSpec("x", {1, 1, 1, 2, 8}), TensorSpec("y", {1, 1, 1, 2, 8}))),
            "l2_rank5.tflite: operator 0 (L2_NORMALIZATION): input 'x' has rank 5, expected 1 to 4 (TensorFlow Lite "
            "Micro's)");
}

}  // namespace l2_normalization_test
}  // namespace mote::testing
