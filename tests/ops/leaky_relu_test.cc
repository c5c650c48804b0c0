// LEAKY_RELU float32, int8 and int16 (every dtype TensorFlow Lite Micro's kernel takes),
// TFLite's arithmetic written here: reference_ops::LeakyRelu, x > 0 ? x : x * alpha in
// float (signed zeros, infinities, NaN), and QuantizeLeakyRelu with the multipliers TFLM's
// Prepare derives (float input_scale * alpha / output_scale and input_scale / output_scale,
// widened to double, QuantizeMultiplier; a negative alpha negates the scaled value), for
// alphas below 0, between 0 and 1, 0 and above 1, alpha as the file stores it (a float).
#include <cmath>
#include <limits>
#include <random>

#include "kernels/quant_test_util.h"
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

OP_TEST(LeakyRelu, Float32AsTfliteForEveryAlpha) {
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

OP_TEST(LeakyRelu, Float32NanStaysNan) {
  const std::vector<float> x = {std::numeric_limits<float>::quiet_NaN(), -1.0f, 4.0f, -0.5f};
  const std::vector<float> y = {std::numeric_limits<float>::quiet_NaN(), -0.25f, 4.0f, -0.125f};
  expect_op_outputs("leaky_relu_f32_nan", leaky_model(TensorSpec("x", {4}), TensorSpec("y", {4}), 0.25f),
                    {{{bytes_of(x)}, {bytes_of(y)}}});
}

template <typename T>
std::vector<T> tflm_leaky_relu(const std::vector<T>& x, float in_scale, int32_t in_zp, float alpha, float out_scale,
                               int32_t out_zp) {
  int32_t alpha_m = 0, alpha_s = 0, identity_m = 0, identity_s = 0;
  ref_quantize_multiplier(static_cast<double>(in_scale * alpha / out_scale), &alpha_m, &alpha_s);
  ref_quantize_multiplier(static_cast<double>(in_scale / out_scale), &identity_m, &identity_s);
  std::vector<T> y;
  for (T v : x) {
    const int32_t d = v - in_zp;
    int64_t r = out_zp;
    if (d >= 0) {
      r += ref_mbqm(d, identity_m, identity_s);
    } else {
      const int32_t scaled = ref_mbqm(d, alpha_m < 0 ? -alpha_m : alpha_m, alpha_s);
      r += alpha_m < 0 ? -int64_t{scaled} : int64_t{scaled};
    }
    y.push_back(static_cast<T>(ref_clamp(r, std::numeric_limits<T>::min(), std::numeric_limits<T>::max())));
  }
  return y;
}

OP_TEST(LeakyRelu, Int8EveryInputAsTfliteMicro) {
  struct Case {
    float in_scale;
    int32_t in_zp;
    float alpha;
    float out_scale;
    int32_t out_zp;
  };
  const Case cases[] = {{0.05f, -10, 0.2f, 0.03f, 20}, {0.1f, 127, 0.01f, 0.004f, -128}, {0.02f, 0, -0.5f, 0.02f, 3},
                        {0.03f, -128, 1.5f, 0.05f, -1}, {0.01f, 5, 0.0f, 0.01f, 5}};
  std::vector<int8_t> x;
  for (int v = -128; v <= 127; ++v) x.push_back(static_cast<int8_t>(v));
  for (const Case& c : cases) {
    const std::string name = "leaky_relu_s8_" + std::to_string(c.alpha) + "_" + std::to_string(c.in_zp);
    SCOPED_TRACE(name);
    const std::vector<int8_t> y = tflm_leaky_relu(x, c.in_scale, c.in_zp, c.alpha, c.out_scale, c.out_zp);
    expect_op_outputs(name,
                      leaky_model(quantized("x", {16, 16}, fb::TensorType::INT8, c.in_scale, c.in_zp),
                                  quantized("y", {16, 16}, fb::TensorType::INT8, c.out_scale, c.out_zp), c.alpha),
                      {{{bytes_of(x)}, {bytes_of(y)}}});
  }
}

OP_TEST(LeakyRelu, Int16AsTfliteMicro) {
  std::mt19937 rng(171);
  std::vector<int16_t> x = {-32768, -32767, -1, 0, 1, 32767};
  while (x.size() < 128) x.push_back(static_cast<int16_t>(std::uniform_int_distribution<int>(-32768, 32767)(rng)));
  for (float alpha : {0.2f, -0.3f, 2.0f}) {
    for (float out_scale : {0.001f, 0.0007f}) {
      const std::string name = "leaky_relu_s16_" + std::to_string(alpha) + "_" + std::to_string(out_scale);
      SCOPED_TRACE(name);
      const std::vector<int16_t> y = tflm_leaky_relu(x, 0.001f, 0, alpha, out_scale, 0);
      expect_op_outputs(name,
                        leaky_model(quantized("x", kShape, fb::TensorType::INT16, 0.001f, 0),
                                    quantized("y", kShape, fb::TensorType::INT16, out_scale, 0), alpha),
                        {{{bytes_of(x)}, {bytes_of(y)}}});
    }
  }
}

OP_TEST(LeakyRelu, RefusalsAreOneLine) {
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
