// FILL (constant dims int32 or int64, a scalar value): float32, int32 and int8 (the
// value's bytes, as TFLite Micro copies them), a constant value (folded) and a computed
// one (a graph input, broadcast by reshape + gather); refusals (a value that is not a
// scalar, computed dims, an unsupported type) as one line.
#include "ops/op_test.h"

namespace mote::testing {
namespace fill_test {

constexpr int32_t kFill = op_code(fb::BuiltinOperator::FILL);

template <typename T>
void expect_fill(const std::string& name, TensorSpec value, const std::vector<int32_t>& dims, T v, bool int64_dims) {
  size_t n = 1;
  for (int32_t d : dims) n *= static_cast<size_t>(d);
  const bool constant = !value.data.empty();
  TensorSpec y = value;
  y.name = "y";
  y.shape = dims;
  y.data.clear();
  const std::vector<int64_t> dims64(dims.begin(), dims.end());
  TensorSpec d("dims", {static_cast<int32_t>(dims.size())}, int64_dims ? fb::TensorType::INT64 : fb::TensorType::INT32,
               int64_dims ? bytes_of(dims64) : bytes_of(dims));
  ModelSpec spec = single_op_model({d, value, y, TensorSpec("unused", {1})}, kFill, {0, 1}, {2});
  if (constant) spec.inputs = {3};  // a graph input for the runner
  const std::vector<uint8_t> in = constant ? bytes_of(std::vector<float>{0.0f}) : bytes_of(std::vector<T>{v});
  SCOPED_TRACE(name);
  expect_op_outputs(name, spec, {{{in}, {bytes_of(std::vector<T>(n, v))}}});
}

OP_TEST(Fill, ConstantAndComputedValuesOfEveryType) {
  expect_fill<float>("fill_f32_const", TensorSpec("v", {}, fb::TensorType::FLOAT32, bytes_of(std::vector<float>{2.5f})),
                     {2, 3}, 2.5f, false);
  expect_fill<float>("fill_f32_input", TensorSpec("v", {}), {4, 1, 3}, -7.25f, true);
  expect_fill<int32_t>("fill_i32_const",
                       TensorSpec("v", {}, fb::TensorType::INT32, bytes_of(std::vector<int32_t>{-2147483647 - 1})), {5},
                       -2147483647 - 1, true);
  expect_fill<int32_t>("fill_i32_input", TensorSpec("v", {}, fb::TensorType::INT32), {2, 2, 2, 2}, 123456, false);
  expect_fill<int8_t>("fill_s8_const", quantized("v", {}, fb::TensorType::INT8, 0.5f, -3, bytes_of(std::vector<int8_t>{127})),
                      {3, 3}, int8_t{127}, false);
  expect_fill<int8_t>("fill_s8_input", quantized("v", {}, fb::TensorType::INT8, 0.5f, -3), {6}, int8_t{-128}, false);
}

OP_TEST(Fill, RefusalsAreOneLine) {
  auto model = [](TensorSpec v, bool constant_dims) {
    TensorSpec d("dims", {2}, fb::TensorType::INT32, constant_dims ? bytes_of(std::vector<int32_t>{2, 3}) : std::vector<uint8_t>{});
    TensorSpec y = v;
    y.name = "y";
    y.shape = {2, 3};
    return single_op_model({d, v, y}, kFill, {0, 1}, {2});
  };
  EXPECT_EQ(op_error("fill_vector", model(TensorSpec("v", {1}), true)),
            "fill_vector.tflite: operator 0 (FILL): value 'v' has shape [1], expected a scalar");
  EXPECT_EQ(op_error("fill_dynamic", model(TensorSpec("v", {}), false)),
            "fill_dynamic.tflite: operator 0 (FILL): dims 'dims' is not constant, not supported");
  EXPECT_EQ(op_error("fill_s16", model(quantized("v", {}, fb::TensorType::INT16, 0.5f, 0), true)),
            "fill_s16.tflite: operator 0 (FILL): value 'v' has type int16, expected float32, int32 or int8");
}

}  // namespace fill_test
}  // namespace mote::testing
