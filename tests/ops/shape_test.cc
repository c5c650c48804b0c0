// SHAPE (option out_type): the input's static shape as int32 or int64, which Mote folds
// into a constant (copied to the graph output); inputs of rank 1 to 4 and of several
// dtypes; out_type that disagrees with the output, or a float output, refused as one line.
#include "ops/op_test.h"

namespace mote::testing {
namespace shape_test {

constexpr int32_t kShape = op_code(fb::BuiltinOperator::SHAPE);

ModelSpec shape_model(TensorSpec x, fb::TensorType out_type, fb::TensorType y_type, int32_t rank) {
  return single_op_model({std::move(x), TensorSpec("y", {rank}, y_type)}, kShape, {0}, {1},
                         fb::BuiltinOptions::ShapeOptions, [out_type](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreateShapeOptions(b, out_type).Union();
                         });
}

OP_TEST(Shape, Int32AndInt64OfEveryRank) {
  const std::vector<std::vector<int32_t>> shapes = {{7}, {2, 3}, {1, 4, 5}, {2, 3, 4, 5}};
  for (const auto& s : shapes) {
    const int32_t rank = static_cast<int32_t>(s.size());
    size_t n = 1;
    for (int32_t d : s) n *= static_cast<size_t>(d);
    const std::vector<int64_t> s64(s.begin(), s.end());
    const std::string tag = std::to_string(rank);
    expect_op_outputs("shape_i32_" + tag, shape_model(TensorSpec("x", s), fb::TensorType::INT32, fb::TensorType::INT32, rank),
                      {{{bytes_of(std::vector<float>(n, 1.5f))}, {bytes_of(s)}}});
    expect_op_outputs("shape_i64_" + tag,
                      shape_model(quantized("x", s, fb::TensorType::INT8, 0.1f, 3), fb::TensorType::INT64,
                                  fb::TensorType::INT64, rank),
                      {{{bytes_of(std::vector<int8_t>(n, 2))}, {bytes_of(s64)}}});
  }
}

OP_TEST(Shape, RefusalsAreOneLine) {
  EXPECT_EQ(op_error("shape_mismatch", shape_model(TensorSpec("x", {2, 3}), fb::TensorType::INT64, fb::TensorType::INT32, 2)),
            "shape_mismatch.tflite: operator 0 (SHAPE): out_type INT64 does not match output 'y' of type int32");
  EXPECT_EQ(op_error("shape_float", shape_model(TensorSpec("x", {2, 3}), fb::TensorType::INT32, fb::TensorType::FLOAT32, 2)),
            "shape_float.tflite: operator 0 (SHAPE): output 'y' has type float32, expected int32 or int64");
  EXPECT_EQ(op_error("shape_len", shape_model(TensorSpec("x", {2, 3}), fb::TensorType::INT32, fb::TensorType::INT32, 3)),
            "shape_len.tflite: operator 0 (SHAPE): output 'y' has shape [3], expected [2]");
}

}  // namespace shape_test
}  // namespace mote::testing
