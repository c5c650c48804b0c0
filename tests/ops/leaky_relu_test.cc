// LEAKY_RELU float32 (int8 and int16 are covered by the shared models and the kernel
// tests): TFLite's reference_ops::LeakyRelu written here, x > 0 ? x : x * alpha in float,
// compared bit for bit (signed zeros, infinities, NaN), for alphas below 0, between 0 and
// 1, 0 and above 1, alpha as the file stores it (a float).
#include <cmath>
#include <limits>
#include <random>

#include "ops/op_test.h"

namespace mote::testing {
namespace leaky_relu_test {

constexpr int32_t kLeakyRelu = op_code(fb::BuiltinOperator::LEAKY_RELU);
const std::vector<int32_t> kShape = {2, 4, 16};  // 128 elements

ModelSpec leaky_model(TensorSpec x, TensorSpec y, float alpha) {
  return single_op_model({std::move(x), std::move(y)}, kLeakyRelu, {0}, {1}, fb::BuiltinOptions::LeakyReluOptions,
                         [alpha](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreateLeakyReluOptions(b, alpha).Union();
                         });
}

TEST(LeakyRelu, Float32AsTfliteForEveryAlpha) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = {-inf, -3e38f, -7.5f, -1e-40f, -0.0f, 0.0f, 1e-40f, 2.0f, 3e38f, inf};
  std::mt19937 rng(170);
  while (x.size() < 128) x.push_back(std::uniform_real_distribution<float>(-10.0f, 10.0f)(rng));
  for (float alpha : {0.2f, 0.01f, 0.0f, -0.3f, 1.5f}) {
    std::vector<float> y(x.size());
    for (size_t i = 0; i < x.size(); ++i) y[i] = x[i] > 0 ? x[i] : x[i] * alpha;
    const std::string name = "leaky_relu_f32_" + std::to_string(alpha);
    SCOPED_TRACE(name);
    // Tolerance 0: every element exact (the kernel test checks the signed zeros' bits).
    expect_op_outputs(name, leaky_model(TensorSpec("x", kShape), TensorSpec("y", kShape), alpha),
                      {{{bytes_of(x)}, {bytes_of(y)}}});
  }
}

TEST(LeakyRelu, Float32NanStaysNan) {
  const std::vector<float> x = {std::numeric_limits<float>::quiet_NaN(), -1.0f, 4.0f, -0.5f};
  const std::vector<float> y = {std::numeric_limits<float>::quiet_NaN(), -0.25f, 4.0f, -0.125f};
  expect_op_outputs("leaky_relu_f32_nan", leaky_model(TensorSpec("x", {4}), TensorSpec("y", {4}), 0.25f),
                    {{{bytes_of(x)}, {bytes_of(y)}}});
}

TEST(LeakyRelu, RefusalsAreOneLine) {
  EXPECT_EQ(op_error("leaky_relu_s32", leaky_model(TensorSpec("x", kShape, fb::TensorType::INT32),
                                                  TensorSpec("y", kShape, fb::TensorType::INT32), 0.2f)),
            "node 'y' (leaky_relu): dtype int32 is not supported (expected float32)");
  EXPECT_EQ(op_error("leaky_relu_inf", leaky_model(TensorSpec("x", kShape), TensorSpec("y", kShape),
                                                  std::numeric_limits<float>::infinity())),
            "node 'y' (leaky_relu): alpha inf is not finite");
  EXPECT_EQ(op_error("leaky_relu_mixed", leaky_model(TensorSpec("x", kShape),
                                                    quantized("y", kShape, fb::TensorType::INT8, 0.1f, 0), 0.2f)),
            "node 'y' (leaky_relu): input 'x' has dtype float32, expected int8 or int16 (float activations with int8 "
            "weights are not supported)");
}

}  // namespace leaky_relu_test
}  // namespace mote::testing
