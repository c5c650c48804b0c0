// SQUEEZE: every dim of size 1 removed (no squeeze_dims) or the ones squeeze_dims lists
// (negative ones too), every dtype TensorFlow Lite Micro takes (int8, int16, int32,
// float32): the output holds the input's elements unchanged; the refusals (a listed dim
// that is not 1 or out of range, an output of another shape) as one line each.
#include <random>

#include "ops/data_movement_util.h"

namespace mote::testing {
namespace squeeze_test {

constexpr int32_t kSqueeze = op_code(fb::BuiltinOperator::SQUEEZE);

struct Case {
  std::vector<int32_t> shape;
  std::vector<int32_t> squeeze_dims;
  std::vector<int32_t> out;
};

// x (tensor 0), y (1); the options table only when squeeze_dims is not empty.
ModelSpec squeeze_model(const MovedType& t, const Case& c) {
  if (c.squeeze_dims.empty())
    return single_op_model({moved_tensor("x", c.shape, t), moved_tensor("y", c.out, t)}, kSqueeze, {0}, {1});
  const std::vector<int32_t> dims = c.squeeze_dims;
  return single_op_model({moved_tensor("x", c.shape, t), moved_tensor("y", c.out, t)}, kSqueeze, {0}, {1},
                         fb::BuiltinOptions::SqueezeOptions, [dims](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreateSqueezeOptions(b, b.CreateVector(dims)).Union();
                         });
}

OP_TEST(Squeeze, AllOrListedDimsInEveryDtype) {
  const Case cases[] = {
      {{1, 3, 1, 4}, {}, {3, 4}},      {{1, 3, 1, 4}, {0}, {3, 1, 4}}, {{1, 3, 1, 4}, {-2}, {1, 3, 4}},
      {{2, 1}, {1}, {2}},              {{1, 1, 1, 8}, {0, 2}, {1, 8}}, {{1, 1}, {}, {}},
      {{1, 1, 1, 10}, {1, 2}, {1, 10}},
  };
  std::mt19937 rng(43);
  // The output holds the input's bytes.
  expect_cases_across_types(
      "squeeze", std::size(cases), [&](size_t n, const MovedType& t) { return squeeze_model(t, cases[n]); },
      [&](size_t n, const MovedType& t) {
        const std::vector<uint8_t> x = random_elements(t, elements_of(cases[n].shape), rng);
        return OpSample{{x}, {x}};
      });
}

OP_TEST(Squeeze, RefusalsAreOneLine) {
  const MovedType& t = moved_types()[0];
  EXPECT_EQ(op_error("squeeze_not_one", squeeze_model(t, {{1, 3, 1, 4}, {1}, {1, 1, 4}})),
            "squeeze_not_one.tflite: operator 0 (SQUEEZE): squeeze_dims [1] not supported (input 'x' has shape "
            "[1,3,1,4])");
  EXPECT_EQ(op_error("squeeze_range", squeeze_model(t, {{1, 3, 1, 4}, {-5}, {3, 1, 4}})),
            "squeeze_range.tflite: operator 0 (SQUEEZE): squeeze_dims [-5] not supported (input 'x' has shape "
            "[1,3,1,4])");
  EXPECT_EQ(op_error("squeeze_output", squeeze_model(t, {{1, 3, 1, 4}, {}, {3, 1, 4}})),
            "squeeze_output.tflite: operator 0 (SQUEEZE): output 'y' has shape [3,1,4], expected [3,4]");
}

}  // namespace squeeze_test
}  // namespace mote::testing
