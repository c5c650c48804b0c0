// DYNAMIC_UPDATE_SLICE (operand, update, start indices): ranks 1 to 4, start indices
// int32 and int64, computed (graph input) and constant, in range, negative and past the
// end (TFLite clamps them to [0, d - u]), an update as large as the operand, in int8,
// int16, int32 and float32; the oracle writes the update itself. Refusals as one line.
#include "ops/data_movement_util.h"

namespace mote::testing {
namespace dynamic_update_slice_test {

constexpr int32_t kDynamicUpdateSlice = op_code(fb::BuiltinOperator::DYNAMIC_UPDATE_SLICE);

struct Case {
  std::vector<int32_t> shape, update_shape;
  std::vector<int64_t> start;  // as given (before clamping)
  bool int64_indices;
  bool constant_indices;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> list = {
      {{8}, {3}, {2}, false, false},
      {{4, 5}, {2, 3}, {1, 2}, true, false},
      {{4, 5}, {2, 3}, {-3, 9}, false, true},   // clamped to [0, 2]
      {{2, 3, 4}, {1, 3, 2}, {1, 0, 1}, true, true},
      {{2, 3, 4, 2}, {2, 1, 2, 2}, {0, 7, -1, 0}, false, false},
      {{3, 4}, {3, 4}, {1, 1}, false, false},   // the whole operand
  };
  return list;
}

std::vector<uint8_t> index_bytes(const Case& c) {
  if (c.int64_indices) return bytes_of(c.start);
  return bytes_of(std::vector<int32_t>(c.start.begin(), c.start.end()));
}

ModelSpec dus_model(const MovedType& t, const Case& c) {
  TensorSpec indices("start", {static_cast<int32_t>(c.shape.size())},
                     c.int64_indices ? fb::TensorType::INT64 : fb::TensorType::INT32,
                     c.constant_indices ? index_bytes(c) : std::vector<uint8_t>{});
  return single_op_model({moved_tensor("x", c.shape, t), moved_tensor("update", c.update_shape, t), indices,
                          moved_tensor("y", c.shape, t)},
                         kDynamicUpdateSlice, {0, 1, 2}, {3});
}

OP_TEST(DynamicUpdateSlice, RanksIndicesAndDtypes) {
  std::mt19937 rng(23);
  expect_cases_across_types(
      "dynamic_update_slice", cases().size(), [](size_t n, const MovedType& t) { return dus_model(t, cases()[n]); },
      [&](size_t n, const MovedType& t) {
        const Case& c = cases()[n];
        const std::vector<uint8_t> x = random_elements(t, elements_of(c.shape), rng);
        const std::vector<uint8_t> u = random_elements(t, elements_of(c.update_shape), rng);
        std::vector<int64_t> start(c.start.size());
        for (size_t k = 0; k < start.size(); ++k)
          start[k] = std::min<int64_t>(std::max<int64_t>(0, c.start[k]), c.shape[k] - c.update_shape[k]);
        const std::vector<int64_t> strides = strides_of(c.shape);
        std::vector<uint8_t> y = x;
        const std::vector<int64_t> ustrides = strides_of(c.update_shape);
        for (int64_t i = 0; i < elements_of(c.update_shape); ++i) {
          int64_t at = 0, rest = i;
          for (size_t k = 0; k < start.size(); ++k) {
            at += (start[k] + rest / ustrides[k]) * strides[k];
            rest %= ustrides[k];
          }
          std::memcpy(&y[static_cast<size_t>(at) * t.bytes], &u[static_cast<size_t>(i) * t.bytes], t.bytes);
        }
        OpSample s{{x, u}, {y}};
        if (!c.constant_indices) s.inputs.push_back(index_bytes(c));
        return s;
      });
}

OP_TEST(DynamicUpdateSlice, RefusalsAreOneLine) {
  const MovedType f32{fb::TensorType::FLOAT32, 4};
  EXPECT_EQ(op_error("dus_large", dus_model(f32, {{4, 5}, {5, 1}, {0, 0}, false, true})),
            "dus_large.tflite: operator 0 (DYNAMIC_UPDATE_SLICE): update 'update' of shape [5,1] is larger than the "
            "operand [4,5]");
  EXPECT_EQ(op_error("dus_rank", dus_model(f32, {{4, 5}, {5}, {0, 0}, false, true})),
            "dus_rank.tflite: operator 0 (DYNAMIC_UPDATE_SLICE): update 'update' has shape [5], expected rank 2");
  ModelSpec mixed = dus_model(f32, {{4, 5}, {2, 2}, {0, 0}, false, true});
  mixed.tensors[1] = TensorSpec("update", {2, 2}, fb::TensorType::INT32);
  EXPECT_EQ(op_error("dus_mixed", mixed),
            "dus_mixed.tflite: operator 0 (DYNAMIC_UPDATE_SLICE): update 'update' has type int32, expected the "
            "input's float32");
}

}  // namespace dynamic_update_slice_test
}  // namespace mote::testing
