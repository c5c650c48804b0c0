// UNPACK (the input's slices along an axis, one per output, without that axis): every
// axis of ranks 1 to 4, negative axes, every dtype TensorFlow Lite Micro takes (int8,
// int16, int32, float32), outputs checked against the slices the test cuts itself; the
// refusals (num or the outputs disagreeing with the axis, axis out of range) as one line
// each.
#include <random>

#include "ops/data_movement_util.h"

namespace mote::testing {
namespace unpack_test {

constexpr int32_t kUnpack = op_code(fb::BuiltinOperator::UNPACK);

struct Case {
  std::vector<int32_t> shape;
  int32_t axis;  // as the file holds it (may be negative)
};

size_t axis_of(const Case& c) {
  return static_cast<size_t>(c.axis < 0 ? c.axis + static_cast<int32_t>(c.shape.size()) : c.axis);
}

// x (tensor 0), the slices y0.. (1..).
ModelSpec unpack_model(const MovedType& t, const Case& c) {
  std::vector<TensorSpec> tensors = {moved_tensor("x", c.shape, t)};
  std::vector<int32_t> slice_shape = c.shape;
  const int32_t num = c.shape[axis_of(c)];
  slice_shape.erase(slice_shape.begin() + static_cast<std::ptrdiff_t>(axis_of(c)));
  std::vector<int32_t> outputs;
  for (int32_t k = 0; k < num; ++k) {
    outputs.push_back(static_cast<int32_t>(tensors.size()));
    tensors.push_back(moved_tensor("y" + std::to_string(k), slice_shape, t));
  }
  const int32_t axis = c.axis;
  return single_op_model(tensors, kUnpack, {0}, outputs, fb::BuiltinOptions::UnpackOptions,
                         [num, axis](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreateUnpackOptions(b, num, axis).Union();
                         });
}

OpSample unpack_sample(const MovedType& t, const Case& c, std::mt19937& rng) {
  const size_t axis = axis_of(c);
  const std::vector<uint8_t> x = random_elements(t, elements_of(c.shape), rng);
  OpSample sample{{x}, {}};
  std::vector<int32_t> sizes = c.shape;
  sizes[axis] = 1;
  for (int32_t k = 0; k < c.shape[axis]; ++k) {
    std::vector<int64_t> begin(c.shape.size(), 0);
    begin[axis] = k;
    sample.expected.push_back(slice_elements(x, t.bytes, c.shape, begin, sizes));
  }
  return sample;
}

OP_TEST(Unpack, EveryAxisInEveryDtype) {
  const Case cases[] = {
      {{3, 2, 4}, 0}, {{3, 2, 4}, 1}, {{3, 2, 4}, 2}, {{3, 2, 4}, -1}, {{3, 2, 4}, -3},
      {{5}, 0},       {{4, 6}, 1},    {{2, 3, 4, 2}, 3}, {{1, 5, 2, 3}, 0},
  };
  std::mt19937 rng(88);
  expect_cases_across_types(
      "unpack", std::size(cases), [&](size_t n, const MovedType& t) { return unpack_model(t, cases[n]); },
      [&](size_t n, const MovedType& t) { return unpack_sample(t, cases[n], rng); });
}

OP_TEST(Unpack, RefusalsAreOneLine) {
  const MovedType& t = moved_types()[0];
  const Case c = {{3, 2, 4}, 0};
  ModelSpec wrong_num = unpack_model(t, c);
  wrong_num.ops[0].options = [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateUnpackOptions(b, 2, 0).Union(); };
  EXPECT_EQ(op_error("unpack_num", wrong_num),
            "unpack_num.tflite: operator 0 (UNPACK): num 2 not supported (the operator has 3 outputs)");
  ModelSpec wrong_axis = unpack_model(t, c);
  wrong_axis.ops[0].options = [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateUnpackOptions(b, 3, 3).Union(); };
  EXPECT_EQ(op_error("unpack_axis", wrong_axis),
            "unpack_axis.tflite: operator 0 (UNPACK): axis 3 not supported (input rank 3)");
  ModelSpec other_axis = unpack_model(t, c);
  other_axis.ops[0].options = [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateUnpackOptions(b, 3, 2).Union(); };
  EXPECT_EQ(op_error("unpack_count", other_axis),
            "unpack_count.tflite: operator 0 (UNPACK): input 'x' of shape [3,2,4] has 4 slices along axis 2, the "
            "operator 3 outputs");
  ModelSpec wrong_output = unpack_model(t, c);
  wrong_output.tensors[2].shape = {4, 2};
  EXPECT_EQ(op_error("unpack_output", wrong_output),
            "unpack_output.tflite: operator 0 (UNPACK): output 1 'y1' has shape [4,2], expected [2,4]");
}

}  // namespace unpack_test
}  // namespace mote::testing
