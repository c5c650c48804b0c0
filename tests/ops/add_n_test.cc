// ADD_N: 2, 3 and 6 inputs, float32 (summed from 0 in input order) and int8 (TFLite's
// integer AddN: ADD's multipliers for equal input scales, left shift 20, the accumulator
// starting from the scaled input offset; several scales, zero points, saturation),
// against the arithmetic written here; what TFLite Micro refuses (int16, inputs quantized
// differently) is refused with one line, as are mismatched shapes.
#include <random>

#include "kernels/quant_test_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace add_n_test {

constexpr int32_t kAddN = op_code(fb::BuiltinOperator::ADD_N);

const std::vector<int32_t> kShape = {2, 3, 4};

ModelSpec add_n_model(std::vector<TensorSpec> inputs, TensorSpec y) {
  std::vector<int32_t> in;
  for (size_t k = 0; k < inputs.size(); ++k) in.push_back(static_cast<int32_t>(k));
  const int32_t out = static_cast<int32_t>(inputs.size());
  inputs.push_back(std::move(y));
  return single_op_model(std::move(inputs), kAddN, in, {out}, fb::BuiltinOptions::AddNOptions,
                         [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateAddNOptions(b).Union(); });
}

std::string input_name(size_t k) { return "x" + std::to_string(k); }

OP_TEST(AddN, Float32InInputOrder) {
  std::mt19937 rng(101);
  for (size_t n : {2u, 3u, 6u}) {
    std::vector<TensorSpec> inputs;
    std::vector<std::vector<uint8_t>> data;
    std::vector<float> sum(24, 0.0f);
    for (size_t k = 0; k < n; ++k) {
      std::vector<float> x(24);
      for (float& v : x) v = std::uniform_real_distribution<float>(-50.0f, 50.0f)(rng) * (rng() % 5 == 0 ? 1e5f : 1.0f);
      if (k == 0) x[3] = -0.0f;  // -0 + ... : the sum starts from +0
      for (size_t i = 0; i < 24; ++i) sum[i] += x[i];
      inputs.emplace_back(input_name(k), kShape);
      data.push_back(bytes_of(x));
    }
    expect_op_outputs("add_n_f32_" + std::to_string(n), add_n_model(inputs, TensorSpec("y", kShape)),
                      {{data, {bytes_of(sum)}}});
  }
}

OP_TEST(AddN, Int8AsTfliteAddN) {
  struct Case {
    float in_scale, out_scale;
    int32_t in_zp, out_zp;
  };
  const Case cases[] = {{0.05f, 0.1f, 3, -7}, {0.02f, 0.01f, -128, 0} /* saturates */, {0.1f, 0.3f, 127, 127},
                        {0.0078125f, 0.0625f, 0, -128}};
  std::mt19937 rng(102);
  for (const Case& c : cases) {
    int32_t in_m = 0, in_s = 0, out_m = 0, out_s = 0;
    const double twice = 2 * static_cast<double>(c.in_scale);
    ref_quantize_multiplier(static_cast<double>(c.in_scale) / twice, &in_m, &in_s);
    ref_quantize_multiplier(twice / ((1 << 20) * static_cast<double>(c.out_scale)), &out_m, &out_s);
    auto scaled = [&](int32_t v) { return ref_mbqm((v - c.in_zp) * (1 << 20), in_m, in_s); };
    for (size_t n : {2u, 3u, 6u}) {
      std::vector<TensorSpec> inputs;
      std::vector<std::vector<uint8_t>> data;
      std::vector<int32_t> acc(24, scaled(0));
      for (size_t k = 0; k < n; ++k) {
        std::vector<int8_t> x(24);
        for (int8_t& v : x) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
        x[0] = -128, x[1] = 127;
        for (size_t i = 0; i < 24; ++i) acc[i] += scaled(x[i]);
        inputs.push_back(quantized(input_name(k), kShape, fb::TensorType::INT8, c.in_scale, c.in_zp));
        data.push_back(bytes_of(x));
      }
      std::vector<int8_t> y(24);
      for (size_t i = 0; i < 24; ++i)
        y[i] = static_cast<int8_t>(ref_clamp(int64_t{ref_mbqm(acc[i], out_m, out_s)} + c.out_zp, -128, 127));
      expect_op_outputs("add_n_s8_" + std::to_string(n) + "_" + std::to_string(c.in_zp),
                        add_n_model(inputs, quantized("y", kShape, fb::TensorType::INT8, c.out_scale, c.out_zp)),
                        {{data, {bytes_of(y)}}});
    }
  }
}

OP_TEST(AddN, WhatTfliteMicroRefusesIsOneLine) {
  EXPECT_EQ(op_error("add_n_s16", add_n_model({quantized("a", kShape, fb::TensorType::INT16, 0.1f, 0),
                                                quantized("b", kShape, fb::TensorType::INT16, 0.1f, 0)},
                                               quantized("y", kShape, fb::TensorType::INT16, 0.1f, 0))),
            "node 'y' (add_n): input 'a' has dtype int16, expected float32 or int8 (TensorFlow Lite Micro's add_n)");
  EXPECT_EQ(op_error("add_n_quant", add_n_model({quantized("a", kShape, fb::TensorType::INT8, 0.1f, 0),
                                                  quantized("b", kShape, fb::TensorType::INT8, 0.1f, 1)},
                                                 quantized("y", kShape, fb::TensorType::INT8, 0.1f, 0))),
            "node 'y' (add_n): input 'b' is not quantized like input 0 (TensorFlow Lite Micro requires it)");
  EXPECT_EQ(op_error("add_n_shape", add_n_model({TensorSpec("a", kShape), TensorSpec("b", {2, 3, 1})},
                                                 TensorSpec("y", kShape))),
            "add_n_shape.tflite: operator 0 (ADD_N): input 'b' has shape [2,3,1], expected [2,3,4]");
  EXPECT_EQ(op_error("add_n_one", add_n_model({TensorSpec("a", kShape)}, TensorSpec("y", kShape))),
            "add_n_one.tflite: operator 0 (ADD_N): has 1 input, expected at least 2");
  EXPECT_EQ(op_error("add_n_type", add_n_model({TensorSpec("a", kShape), TensorSpec("b", kShape, fb::TensorType::INT32)},
                                                TensorSpec("y", kShape))),
            "add_n_type.tflite: operator 0 (ADD_N): input 'b' has type int32, expected the input's float32");
}

}  // namespace add_n_test
}  // namespace mote::testing
