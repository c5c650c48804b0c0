// PACK (values_count inputs stacked along a new axis): every axis of inputs of ranks 1 to
// 4, negative axes, one input, every dtype TensorFlow Lite Micro takes (int8, int16,
// int32, float32), inputs quantized unlike the output (TFLM copies the bytes unchanged),
// outputs checked against the stack the test builds itself; the refusals (values_count
// that disagrees with the inputs, axis out of range, inputs of different shapes) as one
// line each.
#include <random>

#include "ops/data_movement_util.h"

namespace mote::testing {
namespace pack_test {

constexpr int32_t kPack = op_code(fb::BuiltinOperator::PACK);

struct Case {
  std::vector<int32_t> shape;  // of each input
  int32_t count;
  int32_t axis;  // as the file holds it (may be negative)
};

size_t axis_of(const Case& c) {
  return static_cast<size_t>(c.axis < 0 ? c.axis + static_cast<int32_t>(c.shape.size()) + 1 : c.axis);
}

std::vector<int32_t> packed_shape(const Case& c) {
  std::vector<int32_t> shape = c.shape;
  shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(axis_of(c)), c.count);
  return shape;
}

// The inputs x0.. (tensors 0..count-1), y (count).
ModelSpec pack_model(const MovedType& t, const Case& c) {
  std::vector<TensorSpec> tensors;
  std::vector<int32_t> inputs;
  for (int32_t k = 0; k < c.count; ++k) {
    inputs.push_back(k);
    tensors.push_back(moved_tensor("x" + std::to_string(k), c.shape, t));
  }
  tensors.push_back(moved_tensor("y", packed_shape(c), t));
  const int32_t count = c.count, axis = c.axis;
  return single_op_model(tensors, kPack, inputs, {c.count}, fb::BuiltinOptions::PackOptions,
                         [count, axis](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreatePackOptions(b, count, axis).Union();
                         });
}

// Output element (.., i at the axis, ..) is input i's element at the other indices.
std::vector<std::vector<uint8_t>> pack_sample_from(const MovedType& t, const Case& c,
                                                   const std::vector<std::vector<uint8_t>>& inputs) {
  std::vector<uint8_t> all;
  for (const std::vector<uint8_t>& x : inputs) all.insert(all.end(), x.begin(), x.end());
  const size_t axis = axis_of(c);
  const std::vector<int64_t> strides = strides_of(c.shape);
  const int64_t input_elements = elements_of(c.shape);
  return {pick_elements(all, t.bytes, packed_shape(c), [&](const std::vector<int64_t>& index) {
    int64_t from = index[axis] * input_elements;
    for (size_t a = 0, d = 0; a < index.size(); ++a)
      if (a != axis) from += index[a] * strides[d++];
    return from;
  })};
}

OpSample pack_sample(const MovedType& t, const Case& c, std::mt19937& rng) {
  OpSample sample;
  for (int32_t k = 0; k < c.count; ++k) sample.inputs.push_back(random_elements(t, elements_of(c.shape), rng));
  sample.expected = pack_sample_from(t, c, sample.inputs);
  return sample;
}

OP_TEST(Pack, EveryAxisInEveryDtype) {
  const Case cases[] = {
      {{2, 3}, 3, 0}, {{2, 3}, 3, 1}, {{2, 3}, 2, 2},  {{2, 3}, 4, -1},       {{2, 3}, 2, -3},
      {{5}, 2, 0},    {{5}, 3, 1},    {{4, 3, 2}, 1, 1}, {{2, 4, 4, 3}, 3, 3}, {{2, 2, 3, 2}, 2, 4},
  };
  std::mt19937 rng(83);
  expect_cases_across_types(
      "pack", std::size(cases), [&](size_t n, const MovedType& t) { return pack_model(t, cases[n]); },
      [&](size_t n, const MovedType& t) { return pack_sample(t, cases[n], rng); });
}

OP_TEST(Pack, QuantizedBytesCopiedWhateverTheInputsQuantization) {
  const Case c = {{3, 4}, 2, 1};
  const MovedType& t = moved_types()[0];
  ModelSpec spec = pack_model(t, c);
  spec.tensors[1] = quantized("x1", c.shape, t.type, 0.25f, 7);
  std::mt19937 rng(84);
  expect_op_outputs("pack_requantless", spec, {pack_sample(t, c, rng)});
}

// One tensor packed twice, beside another: x0, x1, x0.
OP_TEST(Pack, SameInputTwice) {
  const Case c = {{2, 3}, 3, 1};
  const MovedType& t = moved_types()[2];
  ModelSpec spec = pack_model(t, c);
  spec.ops[0].inputs = {0, 1, 0};
  spec.inputs = {0, 1};
  std::mt19937 rng(85);
  OpSample sample = pack_sample(t, c, rng);
  sample.inputs[2] = sample.inputs[0];
  sample.expected = pack_sample_from(t, c, sample.inputs);
  sample.inputs.pop_back();
  expect_op_outputs("pack_same_twice", spec, {sample});
}

OP_TEST(Pack, RefusalsAreOneLine) {
  const MovedType& t = moved_types()[0];
  const Case c = {{2, 3}, 3, 1};
  ModelSpec wrong_count = pack_model(t, c);
  wrong_count.ops[0].options = [](flatbuffers::FlatBufferBuilder& b) { return fb::CreatePackOptions(b, 2, 1).Union(); };
  EXPECT_EQ(op_error("pack_count", wrong_count),
            "pack_count.tflite: operator 0 (PACK): values_count 2 not supported (the operator has 3 inputs)");
  for (const int32_t axis : {3, -4}) {
    ModelSpec wrong_axis = pack_model(t, c);
    wrong_axis.ops[0].options = [axis](flatbuffers::FlatBufferBuilder& b) {
      return fb::CreatePackOptions(b, 3, axis).Union();
    };
    EXPECT_EQ(op_error("pack_axis", wrong_axis),
              "pack_axis.tflite: operator 0 (PACK): axis " + std::to_string(axis) + " not supported (input rank 2)");
  }
  ModelSpec mixed = pack_model(t, c);
  mixed.tensors[2].shape = {3, 2};
  EXPECT_EQ(op_error("pack_mixed", mixed),
            "pack_mixed.tflite: operator 0 (PACK): input 2 'x2' of shape [3,2] (int8) differs from the output's "
            "[2,3] (int8) values");
  ModelSpec wrong_output = pack_model(t, c);
  wrong_output.tensors[3].shape = {3, 2, 3};
  EXPECT_EQ(op_error("pack_output", wrong_output),
            "pack_output.tflite: operator 0 (PACK): output 'y' has shape [3,2,3], expected [2,3,3]");
}

}  // namespace pack_test
}  // namespace mote::testing
