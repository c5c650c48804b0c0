// REVERSE_V2 (input, constant int32 axes): one axis, several contiguous axes (given
// unsorted), negative axes and every axis of ranks 1 to 5, in int8, int16, int32 and
// float32; the oracle picks each output element's source itself. Refusals (axes not
// contiguous, out of range, int64 axes) as one line.
#include "ops/data_movement_util.h"

namespace mote::testing {
namespace reverse_v2_test {

constexpr int32_t kReverseV2 = op_code(fb::BuiltinOperator::REVERSE_V2);

struct Case {
  std::vector<int32_t> shape;
  std::vector<int32_t> axes;  // as the file holds them
};

const std::vector<Case>& cases() {
  static const std::vector<Case> list = {
      {{7}, {0}},
      {{3, 4}, {1}},
      {{3, 4}, {-2}},
      {{2, 3, 4}, {2, 1}},
      {{2, 3, 4, 5}, {0, 1, 2, 3}},
      {{2, 1, 3, 2, 2}, {-1, -2}},
  };
  return list;
}

ModelSpec reverse_model(const MovedType& t, const Case& c) {
  return single_op_model({moved_tensor("x", c.shape, t),
                          TensorSpec("axis", {static_cast<int32_t>(c.axes.size())}, fb::TensorType::INT32,
                                     bytes_of(c.axes)),
                          moved_tensor("y", c.shape, t)},
                         kReverseV2, {0, 1}, {2});
}

OP_TEST(ReverseV2, AxesRanksAndDtypes) {
  std::mt19937 rng(17);
  expect_cases_across_types(
      "reverse_v2", cases().size(), [](size_t n, const MovedType& t) { return reverse_model(t, cases()[n]); },
      [&](size_t n, const MovedType& t) {
        const Case& c = cases()[n];
        const int32_t rank = static_cast<int32_t>(c.shape.size());
        std::vector<bool> reversed(c.shape.size(), false);
        for (int32_t a : c.axes) reversed[static_cast<size_t>(a < 0 ? a + rank : a)] = true;
        const std::vector<int64_t> strides = strides_of(c.shape);
        const std::vector<uint8_t> x = random_elements(t, elements_of(c.shape), rng);
        const std::vector<uint8_t> y = pick_elements(x, t.bytes, c.shape, [&](const std::vector<int64_t>& index) {
          int64_t from = 0;
          for (size_t k = 0; k < index.size(); ++k)
            from += (reversed[k] ? c.shape[k] - 1 - index[k] : index[k]) * strides[k];
          return from;
        });
        return OpSample{{x}, {y}};
      });
}

OP_TEST(ReverseV2, RefusalsAreOneLine) {
  const MovedType f32{fb::TensorType::FLOAT32, 4};
  EXPECT_EQ(op_error("reverse_v2_gap", reverse_model(f32, {{2, 3, 4}, {0, 2}})),
            "reverse_v2_gap.tflite: operator 0 (REVERSE_V2): axes [0,2] are not one contiguous run (TFLite Micro "
            "reverses only those)");
  EXPECT_EQ(op_error("reverse_v2_range", reverse_model(f32, {{2, 3}, {2}})),
            "reverse_v2_range.tflite: operator 0 (REVERSE_V2): axis 2 out of range for rank 2");
  ModelSpec i64 = reverse_model(f32, {{2, 3}, {0}});
  i64.tensors[1] = TensorSpec("axis", {1}, fb::TensorType::INT64, bytes_of(std::vector<int64_t>{0}));
  EXPECT_EQ(op_error("reverse_v2_i64", i64),
            "reverse_v2_i64.tflite: operator 0 (REVERSE_V2): axis 'axis' has type int64, expected int32");
}

}  // namespace reverse_v2_test
}  // namespace mote::testing
