// RELU, RELU6, RELU_N1_TO_1 and RELU_0_TO_1: float32, int8 and int16 for all four (RELU and
// RELU6 as TensorFlow Lite Micro's kernels take them; TFLM has no RELU_N1_TO_1 or
// RELU_0_TO_1: TFLite's own kernels are the reference, and their int16 form is TFLite's
// int16 RELU arithmetic with their bounds). The oracle is
// TFLite's arithmetic written here: float min/max; for the quantized ops ReluX (the
// input requantized with QuantizeMultiplier / MultiplyByQuantizedMultiplier, the bounds
// quantized in the output's scale with roundf) and TFLM's RELU6, which clamps the input's
// values in the input's quantization and ignores the output's.
#include <cmath>
#include <limits>
#include <random>

#include "kernels/quant_test_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace relu_test {

const std::vector<int32_t> kShape = {2, 5, 7};
constexpr size_t kCount = 70;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Relu {
  fb::BuiltinOperator op;
  double lo, hi;
};
const Relu kRelu{fb::BuiltinOperator::RELU, 0, kInf};
const Relu kRelu6{fb::BuiltinOperator::RELU6, 0, 6};
const Relu kReluN1To1{fb::BuiltinOperator::RELU_N1_TO_1, -1, 1};
const Relu kRelu0To1{fb::BuiltinOperator::RELU_0_TO_1, 0, 1};

std::string op_name(const Relu& r) { return fb::EnumNameBuiltinOperator(r.op); }

ModelSpec model(const Relu& r, TensorSpec x, TensorSpec y) {
  return single_op_model({std::move(x), std::move(y)}, op_code(r.op), {0}, {1});
}

OP_TEST(Relu, Float32AllFour) {
  std::mt19937 rng(19);
  for (const Relu& r : {kRelu, kRelu6, kReluN1To1, kRelu0To1}) {
    SCOPED_TRACE(op_name(r));
    std::vector<float> x(kCount), y(kCount);
    for (size_t i = 0; i < kCount; ++i) {
      x[i] = std::uniform_real_distribution<float>(-9.0f, 9.0f)(rng);
      if (i < 6) x[i] = std::vector<float>{-1.0f, 0.0f, 1.0f, 6.0f, -1e30f, 1e30f}[i];
      y[i] = static_cast<float>(std::min(r.hi, std::max(r.lo, static_cast<double>(x[i]))));
    }
    expect_op_outputs("relu_f32_" + op_name(r), model(r, TensorSpec("x", kShape), TensorSpec("y", kShape)),
                      {{{bytes_of(x)}, {bytes_of(y)}}});
  }
}

// TFLite's quantized bound: zero_point + (int32)roundf(bound / scale), clamped to [lo, hi].
int64_t quantized_bound(double bound, float scale, int64_t zp, int64_t lo, int64_t hi) {
  if (std::isinf(bound)) return bound < 0 ? lo : hi;
  const float q = std::round(static_cast<float>(bound) / scale);
  return ref_clamp(zp + static_cast<int64_t>(q), lo, hi);
}

struct QuantCase {
  Relu relu;
  fb::TensorType type;
  float in_scale;
  int64_t in_zp;
  float out_scale;
  int64_t out_zp;
};

template <typename T>
void expect_quantized(const QuantCase& c, uint32_t seed) {
  const int64_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  const bool same_quant = c.in_scale == c.out_scale && c.in_zp == c.out_zp;
  const bool tflm_relu6 = c.relu.op == fb::BuiltinOperator::RELU6 && !same_quant;
  const bool float_ratio = c.relu.op == fb::BuiltinOperator::RELU_N1_TO_1 || c.relu.op == fb::BuiltinOperator::RELU_0_TO_1;
  int32_t m = 0, s = 0;
  if (float_ratio) ref_quantize_multiplier(static_cast<double>(c.in_scale / c.out_scale), &m, &s);
  else ref_quantize_multiplier(static_cast<double>(c.in_scale) / static_cast<double>(c.out_scale), &m, &s);
  std::vector<T> x = random_ints<T>(kCount, seed, lo, hi), y(kCount);
  x[0] = static_cast<T>(lo);
  x[1] = static_cast<T>(hi);
  x[2] = static_cast<T>(c.in_zp);
  for (size_t i = 0; i < kCount; ++i) {
    if (tflm_relu6) {  // TFLM Relu6Quantized: the input's values between zero and six
      const int64_t zero = c.in_zp, six = quantized_bound(6.0, c.in_scale, c.in_zp, lo, hi);
      y[i] = static_cast<T>(ref_clamp(x[i], zero, six));
    } else {
      const int64_t v = c.out_zp + ref_mbqm(static_cast<int32_t>(x[i] - c.in_zp), m, s);
      y[i] = static_cast<T>(ref_clamp(v, quantized_bound(c.relu.lo, c.out_scale, c.out_zp, lo, hi),
                                      quantized_bound(c.relu.hi, c.out_scale, c.out_zp, lo, hi)));
    }
  }
  const std::string name = "relu_" + op_name(c.relu) + "_" + fb::EnumNameTensorType(c.type) + "_" +
                           std::to_string(seed);
  SCOPED_TRACE(name);
  expect_op_outputs(name,
                    model(c.relu, quantized("x", kShape, c.type, c.in_scale, c.in_zp),
                          quantized("y", kShape, c.type, c.out_scale, c.out_zp)),
                    {{{bytes_of(x)}, {bytes_of(y)}}});
}

OP_TEST(Relu, Int8AllFourAsTflite) {
  const QuantCase cases[] = {
      {kRelu, fb::TensorType::INT8, 0.05f, -20, 0.05f, -20},      // same quantization
      {kRelu, fb::TensorType::INT8, 0.05f, 3, 0.021f, -128},      // requantized
      {kRelu, fb::TensorType::INT8, 0.01f, 0, 0.3f, 100},         // output zero point high
      {kRelu6, fb::TensorType::INT8, 0.05f, -10, 0.05f, -10},     // six = -10 + 120 = 110
      {kRelu6, fb::TensorType::INT8, 0.1f, 5, 0.1f, 5},           // six beyond int8: 127
      {kRelu6, fb::TensorType::INT8, 0.05f, -10, 0.03f, -128},    // TFLM ignores the output's
      {kReluN1To1, fb::TensorType::INT8, 0.02f, 1, 0.0079f, 0},
      {kReluN1To1, fb::TensorType::INT8, 0.013f, -7, 0.013f, -7},
      {kRelu0To1, fb::TensorType::INT8, 0.017f, 9, 0.0041f, -128},
      {kRelu0To1, fb::TensorType::INT8, 0.004f, -128, 0.004f, -128},
  };
  uint32_t seed = 100;
  for (const QuantCase& c : cases) expect_quantized<int8_t>(c, seed++);
}

OP_TEST(Relu, Int16AsTfliteMicro) {
  const QuantCase cases[] = {
      {kReluN1To1, fb::TensorType::INT16, 0.0001f, 0, 0.00004f, 0},
      {kRelu0To1, fb::TensorType::INT16, 0.00005f, 0, 0.00005f, 0},
      {kRelu, fb::TensorType::INT16, 0.001f, 0, 0.001f, 0},
      {kRelu, fb::TensorType::INT16, 0.001f, 0, 0.00037f, 0},
      {kRelu6, fb::TensorType::INT16, 0.0003f, 0, 0.0003f, 0},   // six = 20000
      {kRelu6, fb::TensorType::INT16, 0.0003f, 0, 0.0002f, 0},   // TFLM ignores the output's
      {kRelu6, fb::TensorType::INT16, 0.0003f, -700, 0.0002f, 9},  // ... and takes any zero point
  };
  uint32_t seed = 200;
  for (const QuantCase& c : cases) expect_quantized<int16_t>(c, seed++);
}

OP_TEST(Relu, RefusalsAreOneLine) {
  EXPECT_EQ(op_error("relu_s16_zp", model(kRelu, quantized("x", kShape, fb::TensorType::INT16, 0.001f, 3),
                                          quantized("y", kShape, fb::TensorType::INT16, 0.001f, 0))),
            "node 'y' (clamp): input 'x' has zero point 3, expected 0 (int16 activations are symmetric in TFLite)");
  EXPECT_EQ(op_error("relu_mixed", model(kRelu6, TensorSpec("x", kShape),
                                         quantized("y", kShape, fb::TensorType::INT8, 0.1f, 0))),
            "relu_mixed.tflite: operator 0 (RELU6): output 'y' has type int8, expected float32 (the input's)");
  EXPECT_EQ(op_error("relu_u8", model(kRelu, quantized("x", kShape, fb::TensorType::UINT8, 0.1f, 128),
                                      quantized("y", kShape, fb::TensorType::UINT8, 0.1f, 128))),
            "node 'y' (clamp): input 'x' has dtype uint8, expected int8 or int16 (float activations with int8 "
            "weights are not supported)");
}

}  // namespace relu_test
}  // namespace mote::testing
