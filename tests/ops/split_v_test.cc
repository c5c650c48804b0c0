// SPLIT_V (inputs: input, size_splits, axis): uneven parts along every axis, one -1 in
// size_splits standing for the rest, int32 and int64 size_splits, size_splits computed at
// run time (TensorFlow Lite Micro takes the sizes from the output shapes then), every
// dtype TFLM takes (int8, int16, int32, float32), outputs checked against slices of the
// input the test cuts itself; the refusals (sizes that do not sum to the axis, two -1,
// axis out of range or not constant) as one line each.
#include <numeric>
#include <random>

#include "ops/data_movement_util.h"

namespace mote::testing {
namespace split_v_test {

constexpr int32_t kSplitV = op_code(fb::BuiltinOperator::SPLIT_V);

struct Case {
  std::vector<int32_t> shape;
  int32_t axis;                      // as the file holds it (may be negative)
  std::vector<int32_t> size_splits;  // as the file holds them (one may be -1)
};

size_t axis_of(const Case& c) {
  return static_cast<size_t>(c.axis < 0 ? c.axis + static_cast<int32_t>(c.shape.size()) : c.axis);
}

// The part sizes the test expects: size_splits with a -1 replaced by what the others leave.
std::vector<int32_t> part_sizes(const Case& c) {
  std::vector<int32_t> sizes = c.size_splits;
  int32_t known = 0;
  for (int32_t s : sizes) known += s == -1 ? 0 : s;
  for (int32_t& s : sizes)
    if (s == -1) s = c.shape[axis_of(c)] - known;
  return sizes;
}

// x (tensor 0), size_splits (1, constant int32), axis (2, constant [1]), the parts (3..).
ModelSpec split_v_model(const MovedType& t, const Case& c) {
  std::vector<TensorSpec> tensors = {moved_tensor("x", c.shape, t),
                                     int32_constant("size_splits", {static_cast<int32_t>(c.size_splits.size())},
                                                    c.size_splits),
                                     int32_constant("axis", {1}, {c.axis})};
  std::vector<int32_t> outputs;
  const std::vector<int32_t> sizes = part_sizes(c);
  for (size_t k = 0; k < sizes.size(); ++k) {
    std::vector<int32_t> shape = c.shape;
    shape[axis_of(c)] = sizes[k];
    outputs.push_back(static_cast<int32_t>(tensors.size()));
    tensors.push_back(moved_tensor("y" + std::to_string(k), shape, t));
  }
  const int32_t parts = static_cast<int32_t>(sizes.size());
  return single_op_model(tensors, kSplitV, {0, 1, 2}, outputs, fb::BuiltinOptions::SplitVOptions,
                         [parts](flatbuffers::FlatBufferBuilder& b) { return fb::CreateSplitVOptions(b, parts).Union(); });
}

// The parts of x, cut here one after another along the axis.
OpSample split_v_sample(const MovedType& t, const Case& c, std::mt19937& rng) {
  const size_t axis = axis_of(c);
  const std::vector<uint8_t> x = random_elements(t, elements_of(c.shape), rng);
  OpSample sample;
  sample.inputs = {x};
  std::vector<int64_t> begin(c.shape.size(), 0);
  for (int32_t size : part_sizes(c)) {
    std::vector<int32_t> sizes = c.shape;
    sizes[axis] = size;
    sample.expected.push_back(slice_elements(x, t.bytes, c.shape, begin, sizes));
    begin[axis] += size;
  }
  return sample;
}

OP_TEST(SplitV, UnevenPartsAlongEveryAxisInEveryDtype) {
  const Case cases[] = {
      {{2, 3, 4, 7}, 3, {1, 4, 2}},
      {{3, 3, 4, 6}, 0, {2, 1}},
      {{2, 5, 4, 6}, 1, {1, 1, 3}},
      {{2, 3, 7, 6}, 2, {3, -1}},
      {{2, 3, 4, 7}, -1, {-1, 2, 2}},
      {{2, 3, 4, 6}, -3, {2, 1}},
      {{10}, 0, {1, 2, 3, 4}},
      {{4, 6}, 1, {6}},
      {{5, 8, 3}, -2, {5, -1, 1}},
      {{2, 1, 3, 2, 5}, 4, {2, 3}},
      // Zero-DCE's split of its 24 curve channels into eight 3-channel maps.
      {{1, 8, 8, 24}, 3, {3, 3, 3, 3, 3, 3, 3, 3}},
  };
  std::mt19937 rng(102);
  expect_cases_across_types(
      "split_v", std::size(cases), [&](size_t n, const MovedType& t) { return split_v_model(t, cases[n]); },
      [&](size_t n, const MovedType& t) { return split_v_sample(t, cases[n], rng); });
}

OP_TEST(SplitV, Int64SizeSplitsAndSizesKnownOnlyAtRunTime) {
  const Case c = {{2, 3, 4, 7}, 3, {2, -1, 1}};
  const MovedType& t = moved_types()[1];
  std::mt19937 rng(103);

  ModelSpec int64_sizes = split_v_model(t, c);
  int64_sizes.tensors[1] = TensorSpec("size_splits", {3}, fb::TensorType::INT64, bytes_of(std::vector<int64_t>{2, -1, 1}));
  expect_op_outputs("split_v_int64_sizes", int64_sizes, {split_v_sample(t, c, rng)});

  // size_splits a graph input: TFLite Micro never reads it, the output shapes decide.
  ModelSpec runtime_sizes = split_v_model(t, c);
  runtime_sizes.tensors[1].data.clear();
  runtime_sizes.inputs = {0, 1};
  OpSample sample = split_v_sample(t, c, rng);
  sample.inputs.push_back(bytes_of(std::vector<int32_t>{2, 4, 1}));
  expect_op_outputs("split_v_runtime_sizes", runtime_sizes, {sample});
}

OP_TEST(SplitV, RefusalsAreOneLine) {
  const MovedType& t = moved_types()[0];
  const Case c = {{2, 3, 4, 7}, 3, {1, 4, 2}};
  ModelSpec wrong_axis = split_v_model(t, c);
  wrong_axis.tensors[2] = int32_constant("axis", {1}, {4});
  EXPECT_EQ(op_error("split_v_axis", wrong_axis),
            "split_v_axis.tflite: operator 0 (SPLIT_V): axis 4 out of range for input of shape [2,3,4,7]");

  ModelSpec runtime_axis = split_v_model(t, c);
  runtime_axis.tensors[2].data.clear();
  runtime_axis.inputs = {0, 2};
  EXPECT_EQ(op_error("split_v_runtime_axis", runtime_axis),
            "split_v_runtime_axis.tflite: operator 0 (SPLIT_V): axis 'axis' is not constant, not supported");

  ModelSpec short_sum = split_v_model(t, c);
  short_sum.tensors[1] = int32_constant("size_splits", {3}, {1, 4, 1});
  EXPECT_EQ(op_error("split_v_sum", short_sum),
            "split_v_sum.tflite: operator 0 (SPLIT_V): size_splits [1,4,1] do not sum to 7, the input's dim along "
            "axis 3");

  ModelSpec long_rest = split_v_model(t, c);
  long_rest.tensors[1] = int32_constant("size_splits", {3}, {5, -1, 4});
  EXPECT_EQ(op_error("split_v_rest", long_rest),
            "split_v_rest.tflite: operator 0 (SPLIT_V): size_splits [5,-1,4] do not sum to 7, the input's dim along "
            "axis 3");

  ModelSpec two_rests = split_v_model(t, c);
  two_rests.tensors[1] = int32_constant("size_splits", {3}, {-1, 5, -1});
  EXPECT_EQ(op_error("split_v_two_rests", two_rests),
            "split_v_two_rests.tflite: operator 0 (SPLIT_V): size_splits [-1,5,-1] not supported (a negative size "
            "other than one -1)");

  ModelSpec wrong_count = split_v_model(t, c);
  wrong_count.tensors[1] = int32_constant("size_splits", {2}, {3, 4});
  EXPECT_EQ(op_error("split_v_count", wrong_count),
            "split_v_count.tflite: operator 0 (SPLIT_V): size_splits 'size_splits' has shape [2], expected [3] (one "
            "size per output)");

  // The sizes agree with the axis but not with the outputs the file declares.
  ModelSpec disagree = split_v_model(t, c);
  disagree.tensors[1] = int32_constant("size_splits", {3}, {2, 3, 2});
  EXPECT_EQ(op_error("split_v_outputs", disagree),
            "split_v_outputs.tflite: operator 0 (SPLIT_V): output 0 'y0' has shape [2,3,4,1], expected [2,3,4,2]");

  ModelSpec runtime_sizes = split_v_model(t, c);
  runtime_sizes.tensors[1].data.clear();
  runtime_sizes.inputs = {0, 1};
  runtime_sizes.tensors[4].shape = {2, 3, 4, 3};
  EXPECT_EQ(op_error("split_v_runtime_sum", runtime_sizes),
            "split_v_runtime_sum.tflite: operator 0 (SPLIT_V): the outputs' sizes [1,3,2] along axis 3 do not sum to "
            "the input's 7");

  ModelSpec wrong_num = split_v_model(t, c);
  wrong_num.ops[0].options = [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateSplitVOptions(b, 2).Union(); };
  EXPECT_EQ(op_error("split_v_num_splits", wrong_num),
            "split_v_num_splits.tflite: operator 0 (SPLIT_V): num_splits 2 not supported (the operator has 3 outputs)");
}

}  // namespace split_v_test
}  // namespace mote::testing
