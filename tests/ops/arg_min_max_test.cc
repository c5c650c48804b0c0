// ARG_MAX and ARG_MIN: every axis of a 4-D input (negative ones too), float32 (ties,
// infinities, NaNs: TFLite Micro's strict comparison, a NaN never replaces and one at
// index 0 stays) and int8 (raw values, ties), int32 output, with and without options,
// against a scan written here; what TFLite Micro refuses (int16 and int32 input, int64 output,
// an int64 axis) is refused with one line.
#include <cfloat>
#include <cmath>
#include <limits>
#include <random>

#include "ops/op_test.h"

namespace mote::testing {
namespace arg_min_max_test {

constexpr int32_t kArgMax = op_code(fb::BuiltinOperator::ARG_MAX);
constexpr int32_t kArgMin = op_code(fb::BuiltinOperator::ARG_MIN);

const std::vector<int32_t> kShape = {2, 3, 4, 5};

std::vector<int32_t> without_axis(const std::vector<int32_t>& shape, int32_t axis) {
  std::vector<int32_t> out = shape;
  out.erase(out.begin() + (axis < 0 ? axis + static_cast<int32_t>(shape.size()) : axis));
  return out;
}

// The first index along `axis` that no later value beats (strictly greater for max,
// smaller for min), for every position of the other dims in row-major order.
template <typename T>
std::vector<int32_t> scan(const std::vector<T>& x, const std::vector<int32_t>& shape, int32_t axis, bool max) {
  const size_t a = static_cast<size_t>(axis < 0 ? axis + static_cast<int32_t>(shape.size()) : axis);
  size_t outer = 1, inner = 1;
  for (size_t i = 0; i < a; ++i) outer *= static_cast<size_t>(shape[i]);
  for (size_t i = a + 1; i < shape.size(); ++i) inner *= static_cast<size_t>(shape[i]);
  const size_t n = static_cast<size_t>(shape[a]);
  std::vector<int32_t> y;
  for (size_t o = 0; o < outer; ++o)
    for (size_t j = 0; j < inner; ++j) {
      size_t best = 0;
      for (size_t i = 1; i < n; ++i) {
        const T v = x[(o * n + i) * inner + j], current = x[(o * n + best) * inner + j];
        if (max ? v > current : v < current) best = i;
      }
      y.push_back(static_cast<int32_t>(best));
    }
  return y;
}

// with_options: ArgMaxOptions / ArgMinOptions carrying output_type; else none.
ModelSpec arg_model(int32_t code, TensorSpec x, std::vector<int32_t> axis, TensorSpec y, bool with_options = true,
                    fb::TensorType output_type = fb::TensorType::INT32,
                    fb::TensorType axis_type = fb::TensorType::INT32) {
  std::vector<uint8_t> axis_bytes = axis_type == fb::TensorType::INT64
                                        ? bytes_of(std::vector<int64_t>(axis.begin(), axis.end()))
                                        : bytes_of(axis);
  TensorSpec axis_spec("axis", {static_cast<int32_t>(axis.size())}, axis_type, axis_bytes);
  std::vector<TensorSpec> tensors = {std::move(x), std::move(axis_spec), std::move(y)};
  if (!with_options) return single_op_model(std::move(tensors), code, {0, 1}, {2});
  if (code == kArgMax)
    return single_op_model(std::move(tensors), code, {0, 1}, {2}, fb::BuiltinOptions::ArgMaxOptions,
                           [output_type](flatbuffers::FlatBufferBuilder& b) {
                             return fb::CreateArgMaxOptions(b, output_type).Union();
                           });
  return single_op_model(std::move(tensors), code, {0, 1}, {2}, fb::BuiltinOptions::ArgMinOptions,
                         [output_type](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreateArgMinOptions(b, output_type).Union();
                         });
}

TensorSpec index_output(const std::vector<int32_t>& shape) { return TensorSpec("y", shape, fb::TensorType::INT32); }

const int32_t kAxes[] = {0, 1, 2, 3, -1, -4};

OP_TEST(ArgMinMax, Float32EveryAxisTiesInfinitiesAndNans) {
  std::mt19937 rng(91);
  std::vector<float> x(120);
  // A few distinct values: ties on every axis, which the first index wins.
  for (float& v : x) v = static_cast<float>(std::uniform_int_distribution<int>(-3, 3)(rng)) * 0.75f;
  x[3] = INFINITY;
  x[44] = -INFINITY;
  x[0] = std::numeric_limits<float>::quiet_NaN();   // at index 0 of its rows: stays
  x[61] = std::numeric_limits<float>::quiet_NaN();  // elsewhere: never replaces
  x[119] = -FLT_MAX;
  for (int32_t axis : kAxes) {
    const std::vector<int32_t> out = without_axis(kShape, axis);
    for (int32_t code : {kArgMax, kArgMin}) {
      const bool max = code == kArgMax;
      expect_op_outputs(std::string(max ? "arg_max" : "arg_min") + "_f32_axis" + std::to_string(axis),
                        arg_model(code, TensorSpec("x", kShape), {axis}, index_output(out), axis != 2),
                        {{{bytes_of(x)}, {bytes_of(scan(x, kShape, axis, max))}}});
    }
  }
}

OP_TEST(ArgMinMax, Int8EveryAxisRawValues) {
  std::mt19937 rng(92);
  std::vector<int8_t> wide(120), ties(120);
  for (int8_t& v : wide) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
  for (int8_t& v : ties) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, -126)(rng));
  ties[7] = 127;
  for (int32_t axis : kAxes) {
    const std::vector<int32_t> out = without_axis(kShape, axis);
    for (int32_t code : {kArgMax, kArgMin}) {
      const bool max = code == kArgMax;
      const std::string name = std::string(max ? "arg_max" : "arg_min") + "_s8_axis" + std::to_string(axis);
      // A negative scale would reverse the order, which TFLite never writes: the values
      // are compared raw, whatever the (positive) scale and zero point.
      expect_op_outputs(name, arg_model(code, quantized("x", kShape, fb::TensorType::INT8, 0.37f, -9), {axis},
                                        index_output(out)),
                        {{{bytes_of(wide)}, {bytes_of(scan(wide, kShape, axis, max))}},
                         {{bytes_of(ties)}, {bytes_of(scan(ties, kShape, axis, max))}}});
    }
  }
}

OP_TEST(ArgMinMax, OneDimensionalInputGivesAScalar) {
  const std::vector<float> x = {-1.0f, 4.0f, 4.0f, -9.0f, -9.0f, 2.0f};
  expect_op_outputs("arg_max_rank1", arg_model(kArgMax, TensorSpec("x", {6}), {0}, index_output({})),
                    {{{bytes_of(x)}, {bytes_of(std::vector<int32_t>{1})}}});
  expect_op_outputs("arg_min_rank1", arg_model(kArgMin, TensorSpec("x", {6}), {-1}, index_output({})),
                    {{{bytes_of(x)}, {bytes_of(std::vector<int32_t>{3})}}});
}

OP_TEST(ArgMinMax, WhatTfliteMicroRefusesIsOneLine) {
  const std::vector<int32_t> out = without_axis(kShape, 1);
  EXPECT_EQ(op_error("arg_s16", arg_model(kArgMax, quantized("x", kShape, fb::TensorType::INT16, 0.1f, 0), {1},
                                          index_output(out))),
            "node 'y' (arg_max): input 'x' has dtype int16, expected float32 or int8 (TensorFlow Lite Micro's "
            "arg_max/arg_min)");
  // TFLM's arg_max/arg_min take float32 and int8 only (arg_min_max.cc); int32 input is refused.
  EXPECT_EQ(op_error("arg_s32", arg_model(kArgMin, TensorSpec("x", kShape, fb::TensorType::INT32), {1},
                                          index_output(out))),
            "node 'y' (arg_min): input 'x' has dtype int32, expected float32 or int8 (TensorFlow Lite Micro's "
            "arg_max/arg_min)");
  EXPECT_EQ(op_error("arg_out64", arg_model(kArgMin, TensorSpec("x", kShape), {1},
                                            TensorSpec("y", out, fb::TensorType::INT64), true,
                                            fb::TensorType::INT64)),
            "arg_out64.tflite: operator 0 (ARG_MIN): output 'y' has type int64, expected int32 (TensorFlow Lite "
            "Micro's only output type)");
  EXPECT_EQ(op_error("arg_type", arg_model(kArgMax, TensorSpec("x", kShape), {1}, index_output(out), true,
                                           fb::TensorType::INT64)),
            "arg_type.tflite: operator 0 (ARG_MAX): output_type INT64 not supported (the output 'y' is int32)");
  EXPECT_EQ(op_error("arg_axis64", arg_model(kArgMax, TensorSpec("x", kShape), {1}, index_output(out), true,
                                             fb::TensorType::INT32, fb::TensorType::INT64)),
            "arg_axis64.tflite: operator 0 (ARG_MAX): axis 'axis' has type int64, expected int32 (TensorFlow Lite "
            "Micro's)");
  EXPECT_EQ(op_error("arg_axis_range", arg_model(kArgMin, TensorSpec("x", kShape), {4}, index_output(out))),
            "arg_axis_range.tflite: operator 0 (ARG_MIN): axis 4 out of range for input of shape [2,3,4,5]");
  EXPECT_EQ(op_error("arg_axes", arg_model(kArgMin, TensorSpec("x", kShape), {1, 2}, index_output(out))),
            "arg_axes.tflite: operator 0 (ARG_MIN): axis 'axis' has 2 values, expected 1");
  EXPECT_EQ(op_error("arg_shape", arg_model(kArgMax, TensorSpec("x", kShape), {2}, index_output(out))),
            "arg_shape.tflite: operator 0 (ARG_MAX): output 'y' has shape [2,4,5], expected [2,3,5]");
}

}  // namespace arg_min_max_test
}  // namespace mote::testing
