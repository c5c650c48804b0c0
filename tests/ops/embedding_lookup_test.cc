// EMBEDDING_LOOKUP as TensorFlow Lite Micro takes it: float32 rows, int8 rows (values and
// quantization unchanged) and int8 rows read as float32 ("hybrid": value * scale, zero
// point 0), value ranks 2-4, lookups computed (graph input, repeats, every row) or
// constant, against row copies and float(v) * scale written here; what TFLite Micro
// refuses (int16 values, a zero point in the hybrid lookup, an int64 lookup) and constant
// lookups outside the rows are refused with one line.
#include <random>

#include "ops/op_test.h"

namespace mote::testing {
namespace embedding_lookup_test {

constexpr int32_t kLookup = op_code(fb::BuiltinOperator::EMBEDDING_LOOKUP);

// A tensor without data (lookup or value) is a graph input.
ModelSpec lookup_model(TensorSpec lookup, TensorSpec value, TensorSpec y) {
  return single_op_model({std::move(lookup), std::move(value), std::move(y)}, kLookup, {0, 1}, {2});
}

// The rows of `value` (row_bytes each) the lookup names.
std::vector<uint8_t> pick_rows(const std::vector<uint8_t>& value, size_t row_bytes,
                               const std::vector<int32_t>& lookup) {
  std::vector<uint8_t> out;
  for (int32_t i : lookup) {
    const auto row = value.begin() + static_cast<long>(static_cast<size_t>(i) * row_bytes);
    out.insert(out.end(), row, row + static_cast<long>(row_bytes));
  }
  return out;
}

const std::vector<int32_t> kLookupIds = {3, 0, 3, 4, 1, 2, 0};

OP_TEST(EmbeddingLookup, Float32RowsComputedAndConstantLookups) {
  std::mt19937 rng(151);
  for (const std::vector<int32_t>& shape : std::vector<std::vector<int32_t>>{{5, 3}, {5, 2, 4}, {5, 1, 2, 3}}) {
    size_t count = 1;
    for (int32_t d : shape) count *= static_cast<size_t>(d);
    std::vector<float> table(count);
    for (float& v : table) v = std::uniform_real_distribution<float>(-7.0f, 7.0f)(rng);
    const size_t row_bytes = count / 5 * sizeof(float);
    std::vector<int32_t> out = shape;
    out[0] = static_cast<int32_t>(kLookupIds.size());
    const std::vector<uint8_t> expected = pick_rows(bytes_of(table), row_bytes, kLookupIds);
    const std::string rank = std::to_string(shape.size());
    expect_op_outputs("lookup_f32_rank" + rank,
                      lookup_model(TensorSpec("ids", {7}, fb::TensorType::INT32),
                                   TensorSpec("table", shape, fb::TensorType::FLOAT32, bytes_of(table)),
                                   TensorSpec("y", out)),
                      {{{bytes_of(kLookupIds)}, {expected}}});
    expect_op_outputs("lookup_f32_const_rank" + rank,
                      lookup_model(TensorSpec("ids", {7}, fb::TensorType::INT32, bytes_of(kLookupIds)),
                                   TensorSpec("table", shape), TensorSpec("y", out)),
                      {{{bytes_of(table)}, {expected}}});
  }
}

OP_TEST(EmbeddingLookup, Int8RowsAndHybridFloatRows) {
  std::mt19937 rng(152);
  const std::vector<int32_t> shape = {5, 2, 3};
  std::vector<int8_t> table(30);
  for (int8_t& v : table) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
  table[0] = -128, table[29] = 127;
  const std::vector<int32_t> out = {7, 2, 3};
  expect_op_outputs("lookup_s8",
                    lookup_model(TensorSpec("ids", {7}, fb::TensorType::INT32),
                                 quantized("table", shape, fb::TensorType::INT8, 0.05f, -3, bytes_of(table)),
                                 quantized("y", out, fb::TensorType::INT8, 0.05f, -3)),
                    {{{bytes_of(kLookupIds)}, {pick_rows(bytes_of(table), 6, kLookupIds)}}});
  for (float scale : {0.05f, 0.0123f, 3.7f}) {
    std::vector<float> expected;
    for (int32_t i : kLookupIds)
      for (size_t c = 0; c < 6; ++c)
        expected.push_back(static_cast<float>(table[static_cast<size_t>(i) * 6 + c]) * scale);
    expect_op_outputs("lookup_hybrid_" + std::to_string(scale),
                      lookup_model(TensorSpec("ids", {7}, fb::TensorType::INT32),
                                   quantized("table", shape, fb::TensorType::INT8, scale, 0, bytes_of(table)),
                                   TensorSpec("y", out)),
                      {{{bytes_of(kLookupIds)}, {bytes_of(expected)}}});
  }
}

OP_TEST(EmbeddingLookup, WhatTfliteMicroRefusesIsOneLine) {
  const std::vector<int32_t> shape = {5, 3}, out = {2, 3};
  EXPECT_EQ(op_error("lookup_s16", lookup_model(TensorSpec("ids", {2}, fb::TensorType::INT32),
                                                quantized("table", shape, fb::TensorType::INT16, 0.1f, 0),
                                                quantized("y", out, fb::TensorType::INT16, 0.1f, 0))),
            "lookup_s16.tflite: operator 0 (EMBEDDING_LOOKUP): value 'table' has type int16, expected float32 or int8 "
            "(TensorFlow Lite Micro's)");
  EXPECT_EQ(op_error("lookup_zp", lookup_model(TensorSpec("ids", {2}, fb::TensorType::INT32),
                                               quantized("table", shape, fb::TensorType::INT8, 0.1f, 4),
                                               TensorSpec("y", out))),
            "lookup_zp.tflite: operator 0 (EMBEDDING_LOOKUP): value 'table' must have one scale and zero point 0 "
            "(TensorFlow Lite Micro's int8 -> float32 lookup)");
  EXPECT_EQ(op_error("lookup_i64", lookup_model(TensorSpec("ids", {2}, fb::TensorType::INT64),
                                                TensorSpec("table", shape), TensorSpec("y", out))),
            "lookup_i64.tflite: operator 0 (EMBEDDING_LOOKUP): indices 'ids' has type int64, expected int32");
  EXPECT_EQ(op_error("lookup_range", lookup_model(TensorSpec("ids", {2}, fb::TensorType::INT32,
                                                             bytes_of(std::vector<int32_t>{1, 5})),
                                                  TensorSpec("table", shape), TensorSpec("y", out))),
            "lookup_range.tflite: operator 0 (EMBEDDING_LOOKUP): lookup 'ids' holds 5, outside the value's 5 rows");
  EXPECT_EQ(op_error("lookup_requant", lookup_model(TensorSpec("ids", {2}, fb::TensorType::INT32),
                                                    quantized("table", shape, fb::TensorType::INT8, 0.1f, 0),
                                                    quantized("y", out, fb::TensorType::INT8, 0.2f, 0))),
            "lookup_requant.tflite: operator 0 (EMBEDDING_LOOKUP): output 'y' is not quantized like the value "
            "(EMBEDDING_LOOKUP copies rows)");
}

}  // namespace embedding_lookup_test
}  // namespace mote::testing
