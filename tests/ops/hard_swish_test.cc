// HARD_SWISH: float32 and int8, the dtypes TensorFlow Lite Micro's kernel takes, against
// TFLite's arithmetic written here: x * relu6(x + 3) / 6 in double for float32; for int8
// the multipliers derived as TFLite Micro's HardSwishPrepare does (float scale ratios,
// QuantizeMultiplier, DownScaleInt32ToInt16Multiplier) and the 16-bit fixed-point steps
// of reference_ops::HardSwish (kernels/hard_swish_ref.h), for every int8 input, with
// scales that make the reluish exponent positive, zero and negative. What TFLM refuses
// is refused with one line.
#include <cmath>
#include <random>

#include "kernels/hard_swish_ref.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace hard_swish_test {

constexpr int32_t kHardSwish = op_code(fb::BuiltinOperator::HARD_SWISH);
const std::vector<int32_t> kShape = {1, 4, 4, 16};  // 256 elements: every int8 value once

ModelSpec int8_model(float in_scale, int64_t in_zp, float out_scale, int64_t out_zp) {
  return single_op_model({quantized("x", kShape, fb::TensorType::INT8, in_scale, in_zp),
                          quantized("y", kShape, fb::TensorType::INT8, out_scale, out_zp)},
                         kHardSwish, {0}, {1});
}

// TFLite Micro's HardSwishPrepare, in its float and double steps.
RefHardSwishParams tflite_params(float in_scale, int32_t in_zp, float out_scale, int32_t out_zp) {
  RefHardSwishParams p{in_zp, out_zp, 0, 0, 0, 0};
  const float hires_scale = (1.0f / 128.0f) * in_scale;
  int32_t m = 0;
  ref_quantize_multiplier(static_cast<double>(hires_scale / out_scale), &m, &p.output_exponent);
  p.output_multiplier = ref_downscale16(m);
  ref_quantize_multiplier(static_cast<double>(hires_scale / (3.0f / 32768.0f)), &m, &p.reluish_exponent);
  p.reluish_multiplier = ref_downscale16(m);
  return p;
}

OP_TEST(HardSwish, Int8EveryInputAsTflite) {
  struct Case {
    float in_scale;
    int32_t in_zp;
    float out_scale;
    int32_t out_zp;
    int32_t reluish_exponent;  // what the scales give, so the cases stay what they claim
  };
  const Case cases[] = {
      {0.02f, -10, 0.015f, -100, 1},
      {0.3f, 3, 0.25f, -3, 5},
      {0.05f, -128, 0.03f, -128, 3},
      {0.008f, 0, 0.006f, -128, 0},
      {0.001f, 5, 0.0008f, -120, -3},
      {0.000005f, -128, 0.000004f, 127, -11},
      {0.5f, 0, 0.005f, 0, 6},            // output multiplier in [0.5, 1): no output shift
      {0.01f, 17, 6.0f, -1, 0},           // output exponent -16 (gemmlowp's int16 mask)
  };
  std::mt19937 rng(117);
  for (const Case& c : cases) {
    const RefHardSwishParams p = tflite_params(c.in_scale, c.in_zp, c.out_scale, c.out_zp);
    const std::string name = "hard_swish_s8_" + std::to_string(c.in_scale) + "_" + std::to_string(c.out_scale);
    SCOPED_TRACE(name);
    ASSERT_EQ(p.reluish_exponent, c.reluish_exponent);
    std::vector<int8_t> x(256), y(256);
    for (int i = 0; i < 256; ++i) x[i] = static_cast<int8_t>(i - 128);
    std::shuffle(x.begin(), x.end(), rng);
    for (int i = 0; i < 256; ++i) y[i] = ref_hard_swish_s8(x[i], p);
    expect_op_outputs(name, int8_model(c.in_scale, c.in_zp, c.out_scale, c.out_zp), {{{bytes_of(x)}, {bytes_of(y)}}});
  }
}

OP_TEST(HardSwish, Float32AsTflite) {
  std::vector<float> x = {-1e30f, -7.0f, -6.0f, -3.0f, -2.9999998f, -1.5f, -0.0f, 0.0f,
                          0.5f,   2.9999998f, 3.0f, 3.0000002f, 6.0f, 100.0f, 1e30f, -0.25f};
  std::mt19937 rng(3);
  while (x.size() < 256) x.push_back(std::uniform_real_distribution<float>(-8.0f, 8.0f)(rng));
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    y[i] = static_cast<float>(v * std::min(6.0, std::max(0.0, v + 3.0)) / 6.0);
  }
  const ModelSpec spec = single_op_model({TensorSpec("x", kShape), TensorSpec("y", kShape)}, kHardSwish, {0}, {1});
  expect_op_outputs("hard_swish_f32", spec, {{{bytes_of(x)}, {bytes_of(y)}}}, FloatTolerance{1e-7, 1e-6});
}

OP_TEST(HardSwish, WhatTfliteMicroRefusesIsOneLine) {
  // input scale / 128 / output scale = 1.5625: TFLite requires an output exponent <= 0.
  EXPECT_EQ(op_error("hs_scale", int8_model(1.0f, 0, 0.005f, 0)),
            "node 'y' (hard_swish): input scale 1 / 128 over output scale 0.00499999989 is 1 or more; "
            "TFLite's int8 hard_swish requires less");
  EXPECT_EQ(op_error("hs_s16", single_op_model({quantized("x", kShape, fb::TensorType::INT16, 0.001f, 0),
                                                quantized("y", kShape, fb::TensorType::INT16, 0.001f, 0)},
                                               kHardSwish, {0}, {1})),
            "node 'y' (hard_swish): int16 hard_swish is not supported (TFLite Micro has int8 only)");
  EXPECT_EQ(op_error("hs_mixed", single_op_model({TensorSpec("x", kShape),
                                                  quantized("y", kShape, fb::TensorType::INT8, 0.1f, 0)},
                                                 kHardSwish, {0}, {1})),
            "hs_mixed.tflite: operator 0 (HARD_SWISH): output 'y' has type int8, expected float32 (the input's)");
  EXPECT_EQ(op_error("hs_shape", single_op_model({TensorSpec("x", kShape), TensorSpec("y", {1, 256})},
                                                 kHardSwish, {0}, {1})),
            "hs_shape.tflite: operator 0 (HARD_SWISH): output 'y' has shape [1,256], expected [1,4,4,16]");
  EXPECT_EQ(op_error("hs_inputs", single_op_model({TensorSpec("x", kShape), TensorSpec("x2", kShape),
                                                   TensorSpec("y", kShape)},
                                                  kHardSwish, {0, 1}, {2})),
            "hs_inputs.tflite: operator 0 (HARD_SWISH): has 2 inputs, expected 1");
}

}  // namespace hard_swish_test
}  // namespace mote::testing
