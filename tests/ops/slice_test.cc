// SLICE (inputs: input, begin, size): boxes of ranks 1 to 5 at every offset, size -1 (to
// the end of the axis), int32 and int64 begin/size, every dtype TensorFlow Lite Micro
// takes (int8, int16, int32, float32), outputs checked against the box the test cuts
// itself; the refusals (a box leaving the input, begin/size not constant, of two types
// or of the wrong length) as one line each.
#include <random>

#include "ops/data_movement_util.h"

namespace mote::testing {
namespace slice_test {

constexpr int32_t kSlice = op_code(fb::BuiltinOperator::SLICE);

struct Case {
  std::vector<int32_t> shape;
  std::vector<int32_t> begin;
  std::vector<int32_t> size;  // as the file holds it (-1: to the end)
};

std::vector<int32_t> resolved_size(const Case& c) {
  std::vector<int32_t> size = c.size;
  for (size_t i = 0; i < size.size(); ++i)
    if (size[i] == -1) size[i] = c.shape[i] - c.begin[i];
  return size;
}

// x (tensor 0), begin (1), size (2), y (3).
ModelSpec slice_model(const MovedType& t, const Case& c) {
  const int32_t rank = static_cast<int32_t>(c.shape.size());
  return single_op_model({moved_tensor("x", c.shape, t), int32_constant("begin", {rank}, c.begin),
                          int32_constant("size", {rank}, c.size), moved_tensor("y", resolved_size(c), t)},
                         kSlice, {0, 1, 2}, {3});
}

OpSample slice_sample(const MovedType& t, const Case& c, std::mt19937& rng) {
  const std::vector<uint8_t> x = random_elements(t, elements_of(c.shape), rng);
  const std::vector<int64_t> begin(c.begin.begin(), c.begin.end());
  return {{x}, {slice_elements(x, t.bytes, c.shape, begin, resolved_size(c))}};
}

OP_TEST(Slice, BoxesOfEveryRankInEveryDtype) {
  const Case cases[] = {
      {{2, 3, 4, 6}, {1, 0, 1, 2}, {1, 3, 2, 3}},
      {{2, 3, 4, 6}, {0, 1, 0, 0}, {-1, -1, 4, 5}},
      {{2, 3, 4, 6}, {0, 0, 0, 5}, {2, 3, 4, 1}},
      {{10}, {3}, {-1}},
      {{10}, {0}, {10}},
      {{4, 7}, {3, 2}, {1, 4}},
      {{3, 4, 5}, {1, 1, 1}, {2, -1, 3}},
      {{2, 3, 2, 4, 5}, {1, 0, 1, 2, 1}, {1, 2, -1, 2, 3}},
      {{1, 8, 8, 16}, {0, 2, 0, 4}, {1, 4, 8, 8}},
  };
  std::mt19937 rng(65);
  expect_cases_across_types(
      "slice", std::size(cases), [&](size_t n, const MovedType& t) { return slice_model(t, cases[n]); },
      [&](size_t n, const MovedType& t) { return slice_sample(t, cases[n], rng); });
}

OP_TEST(Slice, Int64BeginAndSize) {
  const Case c = {{3, 4, 5}, {2, 0, 1}, {1, -1, 3}};
  const MovedType& t = moved_types()[3];
  ModelSpec spec = slice_model(t, c);
  spec.tensors[1] = TensorSpec("begin", {3}, fb::TensorType::INT64, bytes_of(std::vector<int64_t>{2, 0, 1}));
  spec.tensors[2] = TensorSpec("size", {3}, fb::TensorType::INT64, bytes_of(std::vector<int64_t>{1, -1, 3}));
  std::mt19937 rng(66);
  expect_op_outputs("slice_int64", spec, {slice_sample(t, c, rng)});
}

OP_TEST(Slice, RefusalsAreOneLine) {
  const MovedType& t = moved_types()[0];
  const Case c = {{2, 3, 4, 6}, {1, 0, 1, 2}, {1, 3, 2, 3}};
  ModelSpec past_end = slice_model(t, c);
  past_end.tensors[2] = int32_constant("size", {4}, {1, 3, 4, 3});
  EXPECT_EQ(op_error("slice_past_end", past_end),
            "slice_past_end.tflite: operator 0 (SLICE): begin [1,0,1,2] and size [1,3,4,3] leave the input of shape "
            "[2,3,4,6] on axis 2");
  ModelSpec negative_begin = slice_model(t, c);
  negative_begin.tensors[1] = int32_constant("begin", {4}, {1, 0, -1, 2});
  EXPECT_EQ(op_error("slice_negative", negative_begin),
            "slice_negative.tflite: operator 0 (SLICE): begin [1,0,-1,2] and size [1,3,2,3] leave the input of shape "
            "[2,3,4,6] on axis 2");
  ModelSpec short_begin = slice_model(t, c);
  short_begin.tensors[1] = int32_constant("begin", {3}, {1, 0, 1});
  EXPECT_EQ(op_error("slice_short", short_begin),
            "slice_short.tflite: operator 0 (SLICE): begin and size must hold 4 values each (input [2,3,4,6]), got 3 "
            "and 4");
  ModelSpec mixed = slice_model(t, c);
  mixed.tensors[2] = TensorSpec("size", {4}, fb::TensorType::INT64, bytes_of(std::vector<int64_t>{1, 3, 2, 3}));
  EXPECT_EQ(op_error("slice_mixed", mixed),
            "slice_mixed.tflite: operator 0 (SLICE): begin 'begin' (int32) and size 'size' (int64) differ in type");
  ModelSpec runtime_begin = slice_model(t, c);
  runtime_begin.tensors[1].data.clear();
  runtime_begin.inputs = {0, 1};
  EXPECT_EQ(op_error("slice_runtime", runtime_begin),
            "slice_runtime.tflite: operator 0 (SLICE): begin 'begin' is not constant, not supported");
  ModelSpec wrong_output = slice_model(t, c);
  wrong_output.tensors[3].shape = {1, 3, 2, 2};
  EXPECT_EQ(op_error("slice_output", wrong_output),
            "slice_output.tflite: operator 0 (SLICE): output 'y' has shape [1,3,2,2], expected [1,3,2,3]");
}

}  // namespace slice_test
}  // namespace mote::testing
