// CUMSUM: every axis of a 3-D input (negative too) x exclusive x reverse, float32 (sum from
// 0 in walk order) and int8 (TFLite's integer CumSum: ADD's multipliers for equal input
// scales, left shift 20, the accumulator starting from the scaled input offset; several
// quantizations, saturation), against running sums written here; what TFLite Micro
// refuses (int16, an int64 axis) is refused with one line.
#include <random>

#include "kernels/quant_test_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace cumsum_test {

constexpr int32_t kCumsum = op_code(fb::BuiltinOperator::CUMSUM);

const std::vector<int32_t> kShape = {2, 3, 4};

ModelSpec cumsum_model(TensorSpec x, int32_t axis, bool exclusive, bool reverse, TensorSpec y,
                       fb::TensorType axis_type = fb::TensorType::INT32) {
  std::vector<uint8_t> axis_bytes =
      axis_type == fb::TensorType::INT64 ? bytes_of(std::vector<int64_t>{axis}) : bytes_of(std::vector<int32_t>{axis});
  return single_op_model({std::move(x), TensorSpec("axis", {1}, axis_type, axis_bytes), std::move(y)}, kCumsum,
                         {0, 1}, {2}, fb::BuiltinOptions::CumsumOptions,
                         [exclusive, reverse](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreateCumsumOptions(b, exclusive, reverse).Union();
                         });
}

// Running sums along `axis` of kShape: Acc from `start`, + term(x) in walk order; each
// element gets out(acc) after (inclusive) or before (exclusive) its own term.
template <typename T, typename Acc, typename Term, typename Out>
std::vector<T> running(const std::vector<T>& x, int32_t axis, bool exclusive, bool reverse, Acc start, Term term,
                       Out out) {
  const size_t a = static_cast<size_t>(axis < 0 ? axis + 3 : axis);
  size_t outer = 1, inner = 1;
  for (size_t i = 0; i < a; ++i) outer *= static_cast<size_t>(kShape[i]);
  for (size_t i = a + 1; i < 3; ++i) inner *= static_cast<size_t>(kShape[i]);
  const size_t depth = static_cast<size_t>(kShape[a]);
  std::vector<T> y(x.size());
  for (size_t o = 0; o < outer; ++o)
    for (size_t j = 0; j < inner; ++j) {
      Acc acc = start;
      for (size_t s = 0; s < depth; ++s) {
        const size_t at = (o * depth + (reverse ? depth - 1 - s : s)) * inner + j;
        const Acc before = acc;
        acc = acc + term(x[at]);
        y[at] = out(exclusive ? before : acc);
      }
    }
  return y;
}

std::string case_name(const std::string& dtype, int32_t axis, bool exclusive, bool reverse) {
  return "cumsum_" + dtype + "_axis" + std::to_string(axis) + (exclusive ? "_excl" : "") + (reverse ? "_rev" : "");
}

OP_TEST(Cumsum, Float32EveryAxisExclusiveReverse) {
  std::mt19937 rng(111);
  std::vector<float> x(24);
  for (float& v : x) v = std::uniform_real_distribution<float>(-10.0f, 10.0f)(rng) * (rng() % 4 == 0 ? 1e6f : 1.0f);
  for (int32_t axis : {0, 1, 2, -1})
    for (bool exclusive : {false, true})
      for (bool reverse : {false, true}) {
        const auto y = running<float>(x, axis, exclusive, reverse, 0.0f, [](float v) { return v; },
                                      [](float v) { return v; });
        expect_op_outputs(case_name("f32", axis, exclusive, reverse),
                          cumsum_model(TensorSpec("x", kShape), axis, exclusive, reverse, TensorSpec("y", kShape)),
                          {{{bytes_of(x)}, {bytes_of(y)}}});
      }
}

OP_TEST(Cumsum, Int8AsTfliteCumSum) {
  struct Case {
    float in_scale, out_scale;
    int32_t in_zp, out_zp;
  };
  const Case cases[] = {{0.05f, 0.1f, 3, -7}, {0.02f, 0.01f, -128, 0} /* saturates */, {0.1f, 0.4f, 127, 100}};
  std::mt19937 rng(112);
  std::vector<int8_t> x(24);
  for (int8_t& v : x) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
  x[0] = -128, x[5] = 127;
  for (const Case& c : cases) {
    int32_t in_m = 0, in_s = 0, out_m = 0, out_s = 0;
    const double twice = 2 * static_cast<double>(c.in_scale);
    ref_quantize_multiplier(static_cast<double>(c.in_scale) / twice, &in_m, &in_s);
    ref_quantize_multiplier(twice / ((1 << 20) * static_cast<double>(c.out_scale)), &out_m, &out_s);
    auto term = [&](int32_t v) { return ref_mbqm((v - c.in_zp) * (1 << 20), in_m, in_s); };
    auto out = [&](int32_t acc) {
      return static_cast<int8_t>(ref_clamp(int64_t{ref_mbqm(acc, out_m, out_s)} + c.out_zp, -128, 127));
    };
    for (int32_t axis : {0, 1, -1})
      for (bool exclusive : {false, true})
        for (bool reverse : {false, true}) {
          const auto y = running<int8_t>(x, axis, exclusive, reverse, term(0), term, out);
          expect_op_outputs(case_name("s8", axis, exclusive, reverse) + "_" + std::to_string(c.in_zp),
                            cumsum_model(quantized("x", kShape, fb::TensorType::INT8, c.in_scale, c.in_zp), axis,
                                         exclusive, reverse,
                                         quantized("y", kShape, fb::TensorType::INT8, c.out_scale, c.out_zp)),
                            {{{bytes_of(x)}, {bytes_of(y)}}});
        }
  }
}

OP_TEST(Cumsum, WhatTfliteMicroRefusesIsOneLine) {
  EXPECT_EQ(op_error("cumsum_s16", cumsum_model(quantized("x", kShape, fb::TensorType::INT16, 0.1f, 0), 1, false,
                                                false, quantized("y", kShape, fb::TensorType::INT16, 0.1f, 0))),
            "node 'y' (cumsum): input 'x' has dtype int16, expected float32 or int8 (TensorFlow Lite Micro's cumsum)");
  EXPECT_EQ(op_error("cumsum_axis64", cumsum_model(TensorSpec("x", kShape), 1, false, false, TensorSpec("y", kShape),
                                                   fb::TensorType::INT64)),
            "cumsum_axis64.tflite: operator 0 (CUMSUM): axis 'axis' has type int64, expected int32 (TensorFlow Lite "
            "Micro's)");
  EXPECT_EQ(op_error("cumsum_axis", cumsum_model(TensorSpec("x", kShape), -4, false, false, TensorSpec("y", kShape))),
            "cumsum_axis.tflite: operator 0 (CUMSUM): axis -4 out of range for input of shape [2,3,4]");
  EXPECT_EQ(op_error("cumsum_shape", cumsum_model(TensorSpec("x", kShape), 0, false, false, TensorSpec("y", {2, 3}))),
            "cumsum_shape.tflite: operator 0 (CUMSUM): output 'y' has shape [2,3], expected [2,3,4]");
}

}  // namespace cumsum_test
}  // namespace mote::testing
