// ZEROS_LIKE: zeros of the input's shape and type for every type TFLite Micro takes
// (int64, int32, int8: 0 whatever the zero point, float32), folded into a constant; other
// types refused as one line.
#include "ops/op_test.h"

namespace mote::testing {
namespace zeros_like_test {

constexpr int32_t kZerosLike = op_code(fb::BuiltinOperator::ZEROS_LIKE);

OP_TEST(ZerosLike, EveryTypeTfliteMicroTakes) {
  const std::vector<int32_t> s = {2, 3, 2};
  const size_t n = 12;
  expect_op_outputs("zeros_like_f32", single_op_model({TensorSpec("x", s), TensorSpec("y", s)}, kZerosLike, {0}, {1}),
                    {{{bytes_of(std::vector<float>(n, -3.0f))}, {bytes_of(std::vector<float>(n, 0.0f))}}});
  expect_op_outputs("zeros_like_s8",
                    single_op_model({quantized("x", s, fb::TensorType::INT8, 0.5f, -7),
                                     quantized("y", s, fb::TensorType::INT8, 0.5f, -7)},
                                    kZerosLike, {0}, {1}),
                    {{{bytes_of(std::vector<int8_t>(n, 5))}, {bytes_of(std::vector<int8_t>(n, 0))}}});
  expect_op_outputs("zeros_like_i32",
                    single_op_model({TensorSpec("x", s, fb::TensorType::INT32), TensorSpec("y", s, fb::TensorType::INT32)},
                                    kZerosLike, {0}, {1}),
                    {{{bytes_of(std::vector<int32_t>(n, 9))}, {bytes_of(std::vector<int32_t>(n, 0))}}});
  expect_op_outputs("zeros_like_i64",
                    single_op_model({TensorSpec("x", s, fb::TensorType::INT64), TensorSpec("y", s, fb::TensorType::INT64)},
                                    kZerosLike, {0}, {1}),
                    {{{bytes_of(std::vector<int64_t>(n, -1))}, {bytes_of(std::vector<int64_t>(n, 0))}}});
}

OP_TEST(ZerosLike, RefusalsAreOneLine) {
  EXPECT_EQ(op_error("zeros_like_s16", single_op_model({quantized("x", {4}, fb::TensorType::INT16, 0.5f, 0),
                                                         quantized("y", {4}, fb::TensorType::INT16, 0.5f, 0)},
                                                        kZerosLike, {0}, {1})),
            "zeros_like_s16.tflite: operator 0 (ZEROS_LIKE): input 'x' has type int16, expected int64, int32, int8 or "
            "float32");
  EXPECT_EQ(op_error("zeros_like_shape", single_op_model({TensorSpec("x", {4}), TensorSpec("y", {2, 2})}, kZerosLike, {0}, {1})),
            "zeros_like_shape.tflite: operator 0 (ZEROS_LIKE): output 'y' has shape [2,2], expected [4]");
}

}  // namespace zeros_like_test
}  // namespace mote::testing
