// LOGISTIC and TANH on int16 (the float32 and int8 forms are in unary_test.cc): every int16
// input value, for the canonical power-of-two input scales TFLite takes as they are (2^-12;
// 2^-11 too for tanh), scales within CheckedLog2's tolerance of them, and scales that take
// TFLite Micro's input_multiplier / input_left_shift path (2^-11 for logistic, 2^-10,
// 2^-15, 0.001, 1/3000, 1e-5, 1e-9, 2.5). The oracle is TFLite's arithmetic written in
// kernels/sigmoid_lut_ref.h (TFLM's Prepare, then reference_integer_ops::Logistic / Tanh);
// outputs compare bit for bit.
#include <cmath>
#include <string>

#include "kernels/sigmoid_lut_ref.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace logistic_tanh_test {

constexpr int32_t kLogistic = op_code(fb::BuiltinOperator::LOGISTIC);
constexpr int32_t kTanh = op_code(fb::BuiltinOperator::TANH);
const std::vector<int32_t> kShape = {128, 256};  // 32768 elements: half the int16 range per sample
constexpr float kOutScale = 1.0f / 32768.0f;

ModelSpec model(int32_t code, float in_scale, int64_t in_zp, float out_scale, int64_t out_zp) {
  return single_op_model({quantized("x", kShape, fb::TensorType::INT16, in_scale, in_zp),
                          quantized("y", kShape, fb::TensorType::INT16, out_scale, out_zp)},
                         code, {0}, {1});
}

// Every int16 value in two samples (negative half, then non-negative half), with TFLite's
// outputs for input scale `in_scale`.
void expect_every_input(bool sigmoid, float in_scale, float out_scale = kOutScale) {
  int32_t multiplier = 0, shift = 0;
  ref_int16_activation_params(in_scale, sigmoid, &multiplier, &shift);
  std::vector<OpSample> samples;
  for (int32_t half = 0; half < 2; ++half) {
    std::vector<int16_t> x(32768), y(32768);
    for (int32_t i = 0; i < 32768; ++i) {
      x[i] = static_cast<int16_t>(half == 0 ? i - 32768 : i);
      y[i] = sigmoid ? ref_logistic_s16(multiplier, shift, x[i]) : ref_tanh_s16(multiplier, shift, x[i]);
    }
    samples.push_back({{bytes_of(x)}, {bytes_of(y)}});
  }
  char scale[32];
  std::snprintf(scale, sizeof scale, "%.9g", static_cast<double>(in_scale));
  const std::string name = std::string(sigmoid ? "logistic" : "tanh") + "_s16_" + scale;
  SCOPED_TRACE(name + " multiplier " + std::to_string(multiplier) + " shift " + std::to_string(shift));
  expect_op_outputs(name, model(sigmoid ? kLogistic : kTanh, in_scale, 0, out_scale, 0), samples);
}

const float kNearCanonical = std::ldexp(1.0f, -12) * 1.0004f;  // log2 within 1e-3 of -12

OP_TEST(LogisticS16, EveryInputAtCanonicalAndOtherScales) {
  for (float scale : {std::ldexp(1.0f, -12), kNearCanonical, std::ldexp(1.0f, -11), std::ldexp(1.0f, -10),
                      std::ldexp(1.0f, -15), 0.001f, 1.0f / 3000.0f, 1e-5f, 1e-9f, 2.5f}) {
    expect_every_input(true, scale);
  }
}

OP_TEST(TanhS16, EveryInputAtCanonicalAndOtherScales) {
  for (float scale : {std::ldexp(1.0f, -12), std::ldexp(1.0f, -11), kNearCanonical, std::ldexp(1.0f, -10),
                      std::ldexp(1.0f, -15), 0.001f, 1.0f / 3000.0f, 1e-5f, 1e-9f, 2.5f}) {
    expect_every_input(false, scale);
  }
}

OP_TEST(LogisticTanhS16, OutputScaleWithinCheckedLog2Tolerance) {
  expect_every_input(true, std::ldexp(1.0f, -12), kOutScale * 1.0005f);
  expect_every_input(false, 0.001f, kOutScale * 0.9996f);
}

OP_TEST(LogisticTanhS16, RefusalsAreOneLine) {
  EXPECT_EQ(op_error("logistic_s16_zp", model(kLogistic, 0.001f, 3, kOutScale, 0)),
            "node 'y' (sigmoid): input 'x' has zero point 3, expected 0 (int16 activations are symmetric in TFLite)");
  EXPECT_EQ(op_error("tanh_s16_out_zp", model(kTanh, 0.001f, 0, kOutScale, -1)),
            "node 'y' (tanh): output 'y' has zero point -1, expected 0 (int16 activations are symmetric in TFLite)");
  EXPECT_EQ(op_error("logistic_s16_out_scale", model(kLogistic, 0.001f, 0, 1.0f / 16384.0f, 0)),
            "node 'y' (sigmoid): output 'y' has scale 6.10351562e-05; TFLite's int16 sigmoid requires 2^-15");
  EXPECT_EQ(op_error("tanh_s16_out_scale", model(kTanh, 0.001f, 0, kOutScale * 1.01f, 0)),
            "node 'y' (tanh): output 'y' has scale 3.08227536e-05; TFLite's int16 tanh requires 2^-15");
  EXPECT_EQ(op_error("tanh_s16_in_scale", model(kTanh, 4.0f, 0, kOutScale, 0)),
            "node 'y' (tanh): input 'x' has scale 4, outside what TFLite's int16 tanh supports (its table "
            "multiplier 49152 is not in [1, 32767])");
  EXPECT_EQ(op_error("logistic_s16_tiny_scale", model(kLogistic, 1e-15f, 0, kOutScale, 0)),
            "node 'y' (sigmoid): input 'x' has scale 1e-15, outside what TFLite's int16 sigmoid supports "
            "(its table multiplier 0.0263882792 is not in [1, 32767])");
}

}  // namespace logistic_tanh_test
}  // namespace mote::testing
