// BROADCAST_TO (input, constant shape int32 or int64): numpy broadcasting to ranks up to
// 5 for every dtype (the elements move unchanged), a computed input (reshape + gather) and
// a constant one (folded); the oracle picks each output element's source itself.
// Refusals (a shape it does not broadcast to, rank above 5, a computed shape) as one line.
#include "ops/op_test.h"

namespace mote::testing {
namespace broadcast_to_test {

constexpr int32_t kBroadcastTo = op_code(fb::BuiltinOperator::BROADCAST_TO);

// The element of x (shape `in`, right-aligned) that output element i of shape `out` copies.
size_t source_of(const std::vector<int32_t>& in, const std::vector<int32_t>& out, size_t i) {
  size_t index = 0, stride = 1;
  for (size_t k = 0; k < out.size(); ++k) {
    const size_t axis = out.size() - 1 - k;
    const size_t coord = i % static_cast<size_t>(out[axis]);
    i /= static_cast<size_t>(out[axis]);
    if (k < in.size()) {
      const int32_t dim = in[in.size() - 1 - k];
      if (dim != 1) index += coord * stride;
      stride *= static_cast<size_t>(dim);
    }
  }
  return index;
}

size_t count_of(const std::vector<int32_t>& s) {
  size_t n = 1;
  for (int32_t d : s) n *= static_cast<size_t>(d);
  return n;
}

template <typename T>
void expect_case(const std::string& name, fb::TensorType type, const std::vector<int32_t>& in,
                 const std::vector<int32_t>& out, bool int64_shape, bool constant_x) {
  std::vector<T> x(count_of(in)), y(count_of(out));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<T>(static_cast<int>(i * 7 % 23) - 11);
  for (size_t i = 0; i < y.size(); ++i) y[i] = x[source_of(in, out, i)];
  TensorSpec xs = type == fb::TensorType::INT8 || type == fb::TensorType::INT16
                      ? quantized("x", in, type, 0.25f, type == fb::TensorType::INT8 ? -3 : 0)
                      : TensorSpec("x", in, type);
  TensorSpec ys = xs;
  ys.name = "y";
  ys.shape = out;
  if (constant_x) xs.data = bytes_of(x);
  const std::vector<int64_t> out64(out.begin(), out.end());
  TensorSpec shape("shape", {static_cast<int32_t>(out.size())}, int64_shape ? fb::TensorType::INT64 : fb::TensorType::INT32,
                   int64_shape ? bytes_of(out64) : bytes_of(out));
  ModelSpec spec = single_op_model({xs, shape, ys}, kBroadcastTo, {0, 1}, {2});
  if (constant_x) {
    spec.tensors.push_back(TensorSpec("unused", {1}));  // a graph input for the runner
    spec.inputs = {3};
  }
  std::vector<std::vector<uint8_t>> inputs = {constant_x ? bytes_of(std::vector<float>{0.0f}) : bytes_of(x)};
  SCOPED_TRACE(name);
  expect_op_outputs(name, spec, {{inputs, {bytes_of(y)}}});
}

OP_TEST(BroadcastTo, EveryDtypeAndRankUpToFive) {
  expect_case<float>("broadcast_to_f32", fb::TensorType::FLOAT32, {3, 1}, {2, 3, 4}, false, false);
  expect_case<int8_t>("broadcast_to_s8", fb::TensorType::INT8, {1, 4}, {3, 4}, true, false);
  expect_case<int16_t>("broadcast_to_s16", fb::TensorType::INT16, {2, 1, 3}, {2, 2, 5, 3}, false, false);
  expect_case<int32_t>("broadcast_to_i32", fb::TensorType::INT32, {1}, {2, 1, 2, 3, 2}, false, false);
  expect_case<int64_t>("broadcast_to_i64", fb::TensorType::INT64, {5}, {2, 5}, true, false);
  expect_case<float>("broadcast_to_same", fb::TensorType::FLOAT32, {2, 3}, {2, 3}, false, false);
  expect_case<float>("broadcast_to_const", fb::TensorType::FLOAT32, {1, 3}, {4, 3}, false, true);
}

OP_TEST(BroadcastTo, RefusalsAreOneLine) {
  auto model = [](std::vector<int32_t> in, std::vector<int32_t> out, bool constant_shape) {
    TensorSpec shape("shape", {static_cast<int32_t>(out.size())}, fb::TensorType::INT32,
                     constant_shape ? bytes_of(out) : std::vector<uint8_t>{});
    return single_op_model({TensorSpec("x", in), shape, TensorSpec("y", out)}, kBroadcastTo, {0, 1}, {2});
  };
  EXPECT_EQ(op_error("broadcast_to_bad", model({3, 2}, {3, 4}, true)),
            "broadcast_to_bad.tflite: operator 0 (BROADCAST_TO): input 'x' of shape [3,2] does not broadcast to [3,4]");
  EXPECT_EQ(op_error("broadcast_to_rank6", model({1}, {1, 1, 1, 1, 1, 2}, true)),
            "broadcast_to_rank6.tflite: operator 0 (BROADCAST_TO): input [1] to shape [1,1,1,1,1,2]: expected input "
            "rank <= shape rank <= 5");
  EXPECT_EQ(op_error("broadcast_to_fewer", model({2, 3}, {3}, true)),
            "broadcast_to_fewer.tflite: operator 0 (BROADCAST_TO): input [2,3] to shape [3]: expected input rank <= "
            "shape rank <= 5");
  EXPECT_EQ(op_error("broadcast_to_dynamic", model({3}, {2, 3}, false)),
            "broadcast_to_dynamic.tflite: operator 0 (BROADCAST_TO): shape 'shape' is not constant, not supported");
}

}  // namespace broadcast_to_test
}  // namespace mote::testing
