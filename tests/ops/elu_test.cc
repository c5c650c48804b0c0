// ELU: float32 and int8, the dtypes TensorFlow Lite Micro's kernel takes. The oracle is
// TFLite's arithmetic written here: expm1 in double for float32; for int8 TFLM's lookup
// table, built as its Prepare builds it (float dequantize, expf, roundf, clamp), for every
// int8 input.
#include <cmath>
#include <random>

#include "kernels/quant_test_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace elu_test {

constexpr int32_t kElu = op_code(fb::BuiltinOperator::ELU);
const std::vector<int32_t> kShape = {1, 8, 32};  // 256 elements

OP_TEST(Elu, Float32AsTflite) {
  std::vector<float> x = {-100.0f, -20.0f, -1.0f, -1e-6f, -0.0f, 0.0f, 1e-6f, 3.0f, 1e30f};
  std::mt19937 rng(111);
  while (x.size() < 256) x.push_back(std::uniform_real_distribution<float>(-6.0f, 4.0f)(rng));
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = static_cast<float>(x[i] < 0 ? std::expm1(static_cast<double>(x[i])) : x[i]);
  const ModelSpec spec = single_op_model({TensorSpec("x", kShape), TensorSpec("y", kShape)}, kElu, {0}, {1});
  expect_op_outputs("elu_f32", spec, {{{bytes_of(x)}, {bytes_of(y)}}}, FloatTolerance{1e-12, 2e-7});
}

OP_TEST(Elu, Int8EveryInputAsTfliteMicro) {
  struct Case {
    float in_scale;
    int64_t in_zp;
    float out_scale;
    int64_t out_zp;
  };
  const Case cases[] = {{0.05f, -10, 0.03f, 20}, {0.1f, 127, 0.004f, -128}, {0.002f, 0, 0.002f, 0},
                        {0.03f, -128, 0.0078125f, -1}};
  std::mt19937 rng(3);
  for (const Case& c : cases) {
    std::vector<int8_t> x(256), y(256);
    for (int i = 0; i < 256; ++i) x[i] = static_cast<int8_t>(i - 128);
    std::shuffle(x.begin(), x.end(), rng);
    const float inverse_scale = 1 / c.out_scale;
    for (int i = 0; i < 256; ++i) {
      const float dequantized = c.in_scale * static_cast<float>(x[i] - c.in_zp);
      const float transformed = dequantized < 0.0f ? std::exp(dequantized) - 1.0f : dequantized;
      const float rescaled = std::round(transformed * inverse_scale);
      y[i] = static_cast<int8_t>(ref_clamp(static_cast<int64_t>(rescaled + static_cast<float>(c.out_zp)), -128, 127));
    }
    const std::string name = "elu_s8_" + std::to_string(c.in_scale) + "_" + std::to_string(c.out_scale);
    SCOPED_TRACE(name);
    const ModelSpec spec = single_op_model({quantized("x", kShape, fb::TensorType::INT8, c.in_scale, c.in_zp),
                                            quantized("y", kShape, fb::TensorType::INT8, c.out_scale, c.out_zp)},
                                           kElu, {0}, {1});
    expect_op_outputs(name, spec, {{{bytes_of(x)}, {bytes_of(y)}}});
  }
}

OP_TEST(Elu, RefusalsAreOneLine) {
  EXPECT_EQ(op_error("elu_s16", single_op_model({quantized("x", kShape, fb::TensorType::INT16, 0.001f, 0),
                                                 quantized("y", kShape, fb::TensorType::INT16, 0.001f, 0)},
                                                kElu, {0}, {1})),
            "node 'y' (elu): int16 elu is not supported (TFLite Micro has int8 only)");
  EXPECT_EQ(op_error("elu_mixed", single_op_model({quantized("x", kShape, fb::TensorType::INT8, 0.1f, 0),
                                                   TensorSpec("y", kShape)},
                                                  kElu, {0}, {1})),
            "elu_mixed.tflite: operator 0 (ELU): output 'y' has type float32, expected int8 (the input's)");
}

}  // namespace elu_test
}  // namespace mote::testing
