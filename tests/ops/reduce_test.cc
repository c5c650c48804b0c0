// SUM, REDUCE_MAX and REDUCE_MIN (and MEAN's axis handling, shared): every axis set of a
// 4-D input with and without keep_dims, negative and repeated axes, float32, int8 and
// int16 sums (TFLite's QuantizedMeanOrSum with compute_sum: int32 sum, input-to-output
// scale ratio by MultiplyByQuantizedMultiplier), float32 and int8 max/min (start at the
// lowest/highest finite value, a NaN never wins), against the arithmetic written here; the
// dtypes and quantizations TFLM refuses are refused with one line.
#include <cfloat>
#include <cmath>
#include <limits>
#include <random>

#include "kernels/quant_test_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace reduce_test {

constexpr int32_t kSum = op_code(fb::BuiltinOperator::SUM);
constexpr int32_t kReduceMax = op_code(fb::BuiltinOperator::REDUCE_MAX);
constexpr int32_t kReduceMin = op_code(fb::BuiltinOperator::REDUCE_MIN);

const std::vector<int32_t> kShape = {2, 3, 4, 5};

// The output shape of reducing `axes` (any sign, repeats) of kShape.
std::vector<int32_t> reduced_shape(const std::vector<int32_t>& axes, bool keep_dims) {
  std::vector<bool> reduced(kShape.size(), false);
  for (int32_t a : axes) reduced[static_cast<size_t>(a < 0 ? a + 4 : a)] = true;
  std::vector<int32_t> out;
  for (size_t i = 0; i < kShape.size(); ++i)
    if (!reduced[i]) out.push_back(kShape[i]);
    else if (keep_dims) out.push_back(1);
  return out;
}

// For each output element (kept multi-index in row-major order), the flat input indices it
// reduces, in increasing order.
std::vector<std::vector<size_t>> groups(const std::vector<int32_t>& axes) {
  std::vector<bool> reduced(4, false);
  for (int32_t a : axes) reduced[static_cast<size_t>(a < 0 ? a + 4 : a)] = true;
  size_t outputs = 1;
  for (size_t i = 0; i < 4; ++i)
    if (!reduced[i]) outputs *= static_cast<size_t>(kShape[i]);
  std::vector<std::vector<size_t>> g(outputs);
  for (int n = 0; n < kShape[0]; ++n)
    for (int h = 0; h < kShape[1]; ++h)
      for (int w = 0; w < kShape[2]; ++w)
        for (int c = 0; c < kShape[3]; ++c) {
          const int idx[4] = {n, h, w, c};
          size_t out = 0;
          for (size_t i = 0; i < 4; ++i)
            if (!reduced[i]) out = out * static_cast<size_t>(kShape[i]) + static_cast<size_t>(idx[i]);
          g[out].push_back(((static_cast<size_t>(n) * 3 + h) * 4 + w) * 5 + c);
        }
  return g;
}

ModelSpec reduce_model(int32_t code, const std::vector<int32_t>& axes, bool keep_dims, TensorSpec x, TensorSpec y) {
  return single_op_model({std::move(x), TensorSpec("axes", {static_cast<int32_t>(axes.size())}, fb::TensorType::INT32,
                                                   bytes_of(axes)),
                          std::move(y)},
                         code, {0, 1}, {2}, fb::BuiltinOptions::ReducerOptions,
                         [keep_dims](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreateReducerOptions(b, keep_dims).Union();
                         });
}

const std::vector<std::vector<int32_t>> kAxes = {{0}, {1}, {3}, {1, 2}, {-1, -3}, {0, 1, 2, 3}, {2, 2, -2}, {0, 3}};

std::string case_name(const std::string& op, const std::string& dtype, size_t k, bool keep) {
  return op + "_" + dtype + "_axes" + std::to_string(k) + (keep ? "_keep" : "");
}

OP_TEST(Reduce, Float32SumMaxMinInInputOrder) {
  std::mt19937 rng(74);
  std::vector<float> x(120);
  for (float& v : x) v = std::uniform_real_distribution<float>(-100.0f, 100.0f)(rng) * (rng() % 7 == 0 ? 1e4f : 1.0f);
  // Infinities and NaNs where TFLite's comparisons decide: a NaN never replaces, -inf is
  // below the -FLT_MAX start.
  x[0] = -INFINITY;
  x[7] = std::numeric_limits<float>::quiet_NaN();
  x[64] = INFINITY;
  for (size_t k = 0; k < kAxes.size(); ++k) {
    for (bool keep : {false, true}) {
      const auto g = groups(kAxes[k]);
      std::vector<float> sum(g.size()), max(g.size()), min(g.size());
      for (size_t o = 0; o < g.size(); ++o) {
        float s = 0.0f, hi = -FLT_MAX, lo = FLT_MAX;
        for (size_t i : g[o]) {
          s = x[i] + s;
          if (x[i] > hi) hi = x[i];
          if (x[i] < lo) lo = x[i];
        }
        sum[o] = s, max[o] = hi, min[o] = lo;
      }
      const std::vector<int32_t> out = reduced_shape(kAxes[k], keep);
      struct { int32_t code; const char* name; const std::vector<float>* expected; } ops[] = {
          {kSum, "sum", &sum}, {kReduceMax, "reduce_max", &max}, {kReduceMin, "reduce_min", &min}};
      for (const auto& op : ops) {
        // Sums with NaN are NaN: checked without the NaN element (the harness fails on NaN).
        std::vector<float> input = x;
        std::vector<float> expected = *op.expected;
        if (op.code == kSum) {
          input[7] = 1.5f;
          input[0] = -3.0f;
          input[64] = 2.0f;
          for (size_t o = 0; o < g.size(); ++o) {
            float s = 0.0f;
            for (size_t i : g[o]) s = input[i] + s;
            expected[o] = s;
          }
        }
        expect_op_outputs(case_name(op.name, "f32", k, keep),
                          reduce_model(op.code, kAxes[k], keep, TensorSpec("x", kShape), TensorSpec("y", out)),
                          {{{bytes_of(input)}, {bytes_of(expected)}}});
      }
    }
  }
}

OP_TEST(Reduce, Int8AndInt16SumsAsTfliteQuantizedSum) {
  struct Case {
    fb::TensorType type;
    int32_t lo, hi;
    float in_scale, out_scale;
    int64_t in_zp, out_zp;
  };
  const Case cases[] = {{fb::TensorType::INT8, -128, 127, 0.05f, 0.4f, 3, -7},
                        {fb::TensorType::INT8, -128, 127, 0.02f, 0.01f, -128, 0},  // saturates
                        {fb::TensorType::INT16, -32768, 32767, 0.001f, 0.02f, 0, 0}};
  std::mt19937 rng(75);
  for (const Case& c : cases) {
    int32_t multiplier = 0, shift = 0;
    ref_quantize_multiplier(static_cast<double>(c.in_scale) / static_cast<double>(c.out_scale), &multiplier, &shift);
    const size_t bytes = c.type == fb::TensorType::INT8 ? 1 : 2;
    std::vector<int64_t> x(120);
    for (int64_t& v : x) v = std::uniform_int_distribution<int64_t>(c.lo, c.hi)(rng);
    std::vector<uint8_t> input(120 * bytes);
    for (size_t i = 0; i < x.size(); ++i)
      for (size_t b = 0; b < bytes; ++b) input[i * bytes + b] = static_cast<uint8_t>(static_cast<uint64_t>(x[i]) >> (8 * b));
    for (size_t k = 0; k < kAxes.size(); ++k) {
      const auto g = groups(kAxes[k]);
      std::vector<uint8_t> expected(g.size() * bytes);
      for (size_t o = 0; o < g.size(); ++o) {
        int64_t s = 0;
        for (size_t i : g[o]) s += x[i];
        const int32_t centred = static_cast<int32_t>(s - c.in_zp * static_cast<int64_t>(g[o].size()));
        const int32_t q = ref_clamp(int64_t{ref_mbqm(centred, multiplier, shift)} + c.out_zp, c.lo, c.hi);
        for (size_t b = 0; b < bytes; ++b) expected[o * bytes + b] = static_cast<uint8_t>(static_cast<uint32_t>(q) >> (8 * b));
      }
      const bool keep = k % 2 == 1;
      expect_op_outputs(case_name("sum", fb::EnumNameTensorType(c.type), k, keep) + "_" + std::to_string(c.in_zp),
                        reduce_model(kSum, kAxes[k], keep, quantized("x", kShape, c.type, c.in_scale, c.in_zp),
                                     quantized("y", reduced_shape(kAxes[k], keep), c.type, c.out_scale, c.out_zp)),
                        {{{input}, {expected}}});
    }
  }
}

OP_TEST(Reduce, Int8MaxMinCompareRawValues) {
  std::mt19937 rng(76);
  std::vector<int8_t> x(120);
  for (int8_t& v : x) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
  for (size_t k = 0; k < kAxes.size(); ++k) {
    const auto g = groups(kAxes[k]);
    std::vector<int8_t> max(g.size(), -128), min(g.size(), 127);
    for (size_t o = 0; o < g.size(); ++o)
      for (size_t i : g[o]) max[o] = std::max(max[o], x[i]), min[o] = std::min(min[o], x[i]);
    const bool keep = k % 2 == 0;
    const std::vector<int32_t> out = reduced_shape(kAxes[k], keep);
    for (const auto& [code, name, expected] : {std::make_tuple(kReduceMax, "reduce_max", &max),
                                               std::make_tuple(kReduceMin, "reduce_min", &min)}) {
      expect_op_outputs(case_name(name, "s8", k, keep),
                        reduce_model(code, kAxes[k], keep, quantized("x", kShape, fb::TensorType::INT8, 0.1f, -4),
                                     quantized("y", out, fb::TensorType::INT8, 0.1f, -4)),
                        {{{bytes_of(x)}, {bytes_of(*expected)}}});
    }
  }
}

OP_TEST(Reduce, WhatTfliteMicroRefusesIsOneLine) {
  const std::vector<int32_t> out = reduced_shape({1}, false);
  EXPECT_EQ(op_error("max_s16", reduce_model(kReduceMax, {1}, false,
                                             quantized("x", kShape, fb::TensorType::INT16, 0.1f, 0),
                                             quantized("y", out, fb::TensorType::INT16, 0.1f, 0))),
            "node 'y' (reduce_max): input 'x' has dtype int16, expected float32 or int8 (TensorFlow Lite Micro's "
            "reduce_max/reduce_min)");
  EXPECT_EQ(op_error("min_requant", reduce_model(kReduceMin, {1}, false,
                                                 quantized("x", kShape, fb::TensorType::INT8, 0.1f, 0),
                                                 quantized("y", out, fb::TensorType::INT8, 0.2f, 0))),
            "node 'y' (reduce_min): output 'y' is not quantized like the input (TensorFlow Lite Micro requires it)");
  EXPECT_EQ(op_error("sum_axis", reduce_model(kSum, {4}, false, TensorSpec("x", kShape), TensorSpec("y", kShape))),
            "sum_axis.tflite: operator 0 (SUM): axis 4 out of range for input of shape [2,3,4,5]");
  EXPECT_EQ(op_error("sum_shape", reduce_model(kSum, {1}, true, TensorSpec("x", kShape), TensorSpec("y", out))),
            "sum_shape.tflite: operator 0 (SUM): output 'y' has shape [2,4,5], expected [2,1,4,5]");
}

}  // namespace reduce_test
}  // namespace mote::testing
