// EXPAND_DIMS (inputs: input, axis): a dim of 1 inserted at every position of ranks 1 to
// 4, negative axes, int32 and int64 axis tensors, every dtype TensorFlow Lite Micro takes
// (int8, int16, int32, float32): the output holds the input's elements unchanged; the
// refusals (axis out of range, not constant or not one value, an output of another
// shape) as one line each.
#include <random>

#include "ops/data_movement_util.h"

namespace mote::testing {
namespace expand_dims_test {

constexpr int32_t kExpandDims = op_code(fb::BuiltinOperator::EXPAND_DIMS);

struct Case {
  std::vector<int32_t> shape;
  int32_t axis;
  std::vector<int32_t> out;
};

// x (tensor 0), axis (1), y (2).
ModelSpec expand_dims_model(const MovedType& t, const Case& c) {
  return single_op_model({moved_tensor("x", c.shape, t), int32_constant("axis", {1}, {c.axis}),
                          moved_tensor("y", c.out, t)},
                         kExpandDims, {0, 1}, {2});
}

OP_TEST(ExpandDims, EveryPositionInEveryDtype) {
  const Case cases[] = {
      {{2, 3}, 0, {1, 2, 3}},         {{2, 3}, 1, {2, 1, 3}},   {{2, 3}, 2, {2, 3, 1}},
      {{2, 3}, -1, {2, 3, 1}},        {{2, 3}, -3, {1, 2, 3}},  {{5}, 0, {1, 5}},
      {{1, 4, 4, 3}, 4, {1, 4, 4, 3, 1}}, {{4, 4, 3}, -4, {1, 4, 4, 3}},
  };
  std::mt19937 rng(70);
  // The output holds the input's bytes.
  expect_cases_across_types(
      "expand_dims", std::size(cases), [&](size_t n, const MovedType& t) { return expand_dims_model(t, cases[n]); },
      [&](size_t n, const MovedType& t) {
        const std::vector<uint8_t> x = random_elements(t, elements_of(cases[n].shape), rng);
        return OpSample{{x}, {x}};
      });
}

OP_TEST(ExpandDims, Int64AxisTensor) {
  const Case c = {{3, 4}, 1, {3, 1, 4}};
  ModelSpec spec = expand_dims_model(moved_types()[0], c);
  spec.tensors[1] = TensorSpec("axis", {}, fb::TensorType::INT64, bytes_of(std::vector<int64_t>{1}));
  std::mt19937 rng(71);
  const std::vector<uint8_t> x = random_elements(moved_types()[0], 12, rng);
  expect_op_outputs("expand_dims_int64", spec, {{{x}, {x}}});
}

OP_TEST(ExpandDims, RefusalsAreOneLine) {
  const MovedType& t = moved_types()[0];
  EXPECT_EQ(op_error("expand_dims_axis", expand_dims_model(t, {{2, 3}, 3, {2, 3, 1}})),
            "expand_dims_axis.tflite: operator 0 (EXPAND_DIMS): axis 3 out of range for input of shape [2,3]");
  EXPECT_EQ(op_error("expand_dims_negative", expand_dims_model(t, {{2, 3}, -4, {1, 2, 3}})),
            "expand_dims_negative.tflite: operator 0 (EXPAND_DIMS): axis -4 out of range for input of shape [2,3]");
  EXPECT_EQ(op_error("expand_dims_output", expand_dims_model(t, {{2, 3}, 1, {2, 3, 1}})),
            "expand_dims_output.tflite: operator 0 (EXPAND_DIMS): output 'y' has shape [2,3,1], expected [2,1,3]");
  ModelSpec runtime_axis = expand_dims_model(t, {{2, 3}, 1, {2, 1, 3}});
  runtime_axis.tensors[1].data.clear();
  runtime_axis.inputs = {0, 1};
  EXPECT_EQ(op_error("expand_dims_runtime", runtime_axis),
            "expand_dims_runtime.tflite: operator 0 (EXPAND_DIMS): axis 'axis' is not constant, not supported");
  ModelSpec two_axes = expand_dims_model(t, {{2, 3}, 1, {2, 1, 3}});
  two_axes.tensors[1] = int32_constant("axis", {2}, {1, 1});
  EXPECT_EQ(op_error("expand_dims_two", two_axes),
            "expand_dims_two.tflite: operator 0 (EXPAND_DIMS): axis 'axis' has shape [2], expected one value");
}

}  // namespace expand_dims_test
}  // namespace mote::testing
