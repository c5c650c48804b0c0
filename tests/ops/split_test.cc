// SPLIT (inputs: axis, input; num_splits equal parts): every axis of ranks 1 to 5,
// negative axes, one part, every dtype TensorFlow Lite Micro takes (int8, int16, int32,
// float32), outputs checked against slices of the input the test cuts itself; the
// refusals (axis out of range or not constant, parts that do not divide the axis,
// num_splits that disagrees with the outputs) as one line each.
#include <random>

#include "ops/data_movement_util.h"

namespace mote::testing {
namespace split_test {

constexpr int32_t kSplit = op_code(fb::BuiltinOperator::SPLIT);

struct Case {
  std::vector<int32_t> shape;
  int32_t axis;  // as the file holds it (may be negative)
  int32_t parts;
};

// axis (tensor 0, a constant [1] or a scalar), x (1), the parts (2..).
ModelSpec split_model(const MovedType& t, const Case& c, bool scalar_axis = false) {
  const int32_t rank = static_cast<int32_t>(c.shape.size());
  const int32_t axis = c.axis < 0 ? c.axis + rank : c.axis;
  std::vector<TensorSpec> tensors = {int32_constant("axis", scalar_axis ? std::vector<int32_t>{} : std::vector<int32_t>{1},
                                                    {c.axis}),
                                     moved_tensor("x", c.shape, t)};
  std::vector<int32_t> outputs;
  for (int32_t k = 0; k < c.parts; ++k) {
    std::vector<int32_t> shape = c.shape;
    shape[static_cast<size_t>(axis)] /= c.parts;
    outputs.push_back(static_cast<int32_t>(tensors.size()));
    tensors.push_back(moved_tensor("y" + std::to_string(k), shape, t));
  }
  const int32_t parts = c.parts;
  return single_op_model(tensors, kSplit, {0, 1}, outputs, fb::BuiltinOptions::SplitOptions,
                         [parts](flatbuffers::FlatBufferBuilder& b) { return fb::CreateSplitOptions(b, parts).Union(); });
}

// The parts of x, cut here: part k holds indices [k * size, (k + 1) * size) of the axis.
OpSample split_sample(const MovedType& t, const Case& c, std::mt19937& rng) {
  const size_t axis = static_cast<size_t>(c.axis < 0 ? c.axis + static_cast<int32_t>(c.shape.size()) : c.axis);
  const std::vector<uint8_t> x = random_elements(t, elements_of(c.shape), rng);
  OpSample sample;
  sample.inputs = {x};
  std::vector<int32_t> sizes = c.shape;
  sizes[axis] /= c.parts;
  for (int32_t k = 0; k < c.parts; ++k) {
    std::vector<int64_t> begin(c.shape.size(), 0);
    begin[axis] = int64_t{k} * sizes[axis];
    sample.expected.push_back(slice_elements(x, t.bytes, c.shape, begin, sizes));
  }
  return sample;
}

OP_TEST(Split, EveryAxisAndRankInEveryDtype) {
  const Case cases[] = {
      {{2, 3, 4, 6}, 3, 3},  {{2, 3, 4, 6}, 0, 2}, {{2, 3, 4, 6}, 1, 3},    {{2, 3, 4, 6}, 2, 2},
      {{2, 3, 4, 6}, -1, 2}, {{2, 3, 4, 6}, -4, 2}, {{12}, 0, 4},           {{4, 6}, 1, 1},
      {{5, 8, 3}, -2, 4},    {{2, 1, 3, 2, 4}, 4, 2}, {{1, 8, 8, 24}, 3, 8},
  };
  std::mt19937 rng(49);
  expect_cases_across_types(
      "split", std::size(cases), [&](size_t n, const MovedType& t) { return split_model(t, cases[n]); },
      [&](size_t n, const MovedType& t) { return split_sample(t, cases[n], rng); });
}

OP_TEST(Split, ScalarAndInt64AxisTensors) {
  const Case c = {{3, 4, 6}, -1, 3};
  std::mt19937 rng(50);
  const MovedType& t = moved_types()[0];
  expect_op_outputs("split_scalar_axis", split_model(t, c, true), {split_sample(t, c, rng)});
  ModelSpec int64_axis = split_model(t, c);
  int64_axis.tensors[0] = TensorSpec("axis", {}, fb::TensorType::INT64, bytes_of(std::vector<int64_t>{-1}));
  expect_op_outputs("split_int64_axis", int64_axis, {split_sample(t, c, rng)});
}

OP_TEST(Split, RefusalsAreOneLine) {
  const MovedType& t = moved_types()[0];
  for (const int32_t axis : {4, -5}) {
    ModelSpec wrong_axis = split_model(t, {{2, 3, 4, 6}, 3, 2});
    wrong_axis.tensors[0] = int32_constant("axis", {1}, {axis});
    EXPECT_EQ(op_error("split_axis", wrong_axis), "split_axis.tflite: operator 0 (SPLIT): axis " + std::to_string(axis) +
                                                      " out of range for input of shape [2,3,4,6]");
  }

  ModelSpec runtime_axis = split_model(t, {{2, 3, 4, 6}, 3, 2});
  runtime_axis.tensors[0].data.clear();
  runtime_axis.inputs = {0, 1};
  EXPECT_EQ(op_error("split_runtime_axis", runtime_axis),
            "split_runtime_axis.tflite: operator 0 (SPLIT): axis 'axis' is not constant, not supported");

  ModelSpec float_axis = split_model(t, {{2, 3, 4, 6}, 3, 2});
  float_axis.tensors[0] = TensorSpec("axis", {1}, fb::TensorType::FLOAT32, bytes_of(std::vector<float>{3}));
  EXPECT_EQ(op_error("split_float_axis", float_axis),
            "split_float_axis.tflite: operator 0 (SPLIT): axis 'axis' has type float32, expected int32 or int64");

  ModelSpec two_axes = split_model(t, {{2, 3, 4, 6}, 3, 2});
  two_axes.tensors[0] = int32_constant("axis", {2}, {3, 3});
  EXPECT_EQ(op_error("split_two_axes", two_axes),
            "split_two_axes.tflite: operator 0 (SPLIT): axis 'axis' has shape [2], expected one value");

  // 6 channels into 4 parts: the model's outputs take 1 each, which TFLite refuses too.
  EXPECT_EQ(op_error("split_uneven", split_model(t, {{2, 3, 4, 6}, 3, 4})),
            "split_uneven.tflite: operator 0 (SPLIT): input 'x' of shape [2,3,4,6] does not split into 4 equal "
            "parts along axis 3");

  ModelSpec wrong_count = split_model(t, {{2, 3, 4, 6}, 3, 2});
  wrong_count.ops[0].options = [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateSplitOptions(b, 3).Union(); };
  EXPECT_EQ(op_error("split_num_splits", wrong_count),
            "split_num_splits.tflite: operator 0 (SPLIT): num_splits 3 not supported (the operator has 2 outputs)");

  ModelSpec wrong_shape = split_model(t, {{2, 3, 4, 6}, 3, 2});
  wrong_shape.tensors[3].shape = {2, 3, 4, 2};
  EXPECT_EQ(op_error("split_output_shape", wrong_shape),
            "split_output_shape.tflite: operator 0 (SPLIT): output 1 'y1' has shape [2,3,4,2], expected [2,3,4,3]");

  ModelSpec wrong_type = split_model(t, {{2, 3, 4, 6}, 3, 2});
  wrong_type.tensors[2] = moved_tensor("y0", {2, 3, 4, 3}, moved_types()[1]);
  EXPECT_EQ(op_error("split_output_type", wrong_type),
            "split_output_type.tflite: operator 0 (SPLIT): output 0 'y0' has type int16, expected the input's int8");
}

}  // namespace split_test
}  // namespace mote::testing
