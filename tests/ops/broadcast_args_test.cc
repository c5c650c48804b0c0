// BROADCAST_ARGS (two constant int32 or int64 shapes): their numpy broadcast, folded into
// a constant; refusals (shapes that do not broadcast, a computed shape, mixed types) as one
// line.
#include "ops/op_test.h"

namespace mote::testing {
namespace broadcast_args_test {

constexpr int32_t kBroadcastArgs = op_code(fb::BuiltinOperator::BROADCAST_ARGS);

template <typename T>
ModelSpec args_model(fb::TensorType type, const std::vector<T>& a, const std::vector<T>& b, int32_t out_len,
                     bool constant_b = true) {
  ModelSpec m = single_op_model({TensorSpec("a", {static_cast<int32_t>(a.size())}, type, bytes_of(a)),
                                 TensorSpec("b", {static_cast<int32_t>(b.size())}, type,
                                            constant_b ? bytes_of(b) : std::vector<uint8_t>{}),
                                 TensorSpec("y", {out_len}, type), TensorSpec("unused", {1})},
                                kBroadcastArgs, {0, 1}, {2});
  if (constant_b) m.inputs = {3};  // a graph input for the runner
  return m;
}

OP_TEST(BroadcastArgs, Int32AndInt64) {
  const std::vector<uint8_t> unused = bytes_of(std::vector<float>{0.0f});
  expect_op_outputs("broadcast_args_i32", args_model<int32_t>(fb::TensorType::INT32, {2, 1, 3}, {4, 1}, 3),
                    {{{unused}, {bytes_of(std::vector<int32_t>{2, 4, 3})}}});
  expect_op_outputs("broadcast_args_i64", args_model<int64_t>(fb::TensorType::INT64, {5}, {1, 7, 1, 5}, 4),
                    {{{unused}, {bytes_of(std::vector<int64_t>{1, 7, 1, 5})}}});
  expect_op_outputs("broadcast_args_same", args_model<int32_t>(fb::TensorType::INT32, {3, 4}, {3, 4}, 2),
                    {{{unused}, {bytes_of(std::vector<int32_t>{3, 4})}}});
}

OP_TEST(BroadcastArgs, RefusalsAreOneLine) {
  EXPECT_EQ(op_error("broadcast_args_bad", args_model<int32_t>(fb::TensorType::INT32, {2, 3}, {4, 3}, 2)),
            "broadcast_args_bad.tflite: operator 0 (BROADCAST_ARGS): shapes [2,3] and [4,3] do not broadcast");
  EXPECT_EQ(op_error("broadcast_args_dynamic", args_model<int32_t>(fb::TensorType::INT32, {2, 3}, {2, 3}, 2, false)),
            "broadcast_args_dynamic.tflite: operator 0 (BROADCAST_ARGS): shape 1 'b' is not constant, not supported");
  EXPECT_EQ(op_error("broadcast_args_len", args_model<int32_t>(fb::TensorType::INT32, {2, 3}, {1}, 3)),
            "broadcast_args_len.tflite: operator 0 (BROADCAST_ARGS): output 'y' has shape [3], expected [2]");
}

}  // namespace broadcast_args_test
}  // namespace mote::testing
