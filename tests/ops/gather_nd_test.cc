// GATHER_ND (inputs: input, indices [.., n]): rows of 1 to 3 coordinates picking elements
// or slices, indices constant or computed at run time, every dtype (int8, int16, int32,
// float32), outputs checked against the elements the test picks itself; the refusals
// (rows longer than the input's rank, int64 indices, a constant row outside the input)
// as one line each.
#include <random>

#include "ops/data_movement_util.h"

namespace mote::testing {
namespace gather_nd_test {

constexpr int32_t kGatherNd = op_code(fb::BuiltinOperator::GATHER_ND);

struct Case {
  std::vector<int32_t> shape;
  std::vector<int32_t> index_shape;  // the last dim: coordinates per row
  bool constant_indices;
};

std::vector<int32_t> gathered_shape(const Case& c) {
  const int32_t depth = c.index_shape.back();
  std::vector<int32_t> out(c.index_shape.begin(), c.index_shape.end() - 1);
  out.insert(out.end(), c.shape.begin() + depth, c.shape.end());
  return out;
}

// Rows of coordinates inside the input.
std::vector<int32_t> random_rows(const Case& c, std::mt19937& rng) {
  const size_t depth = static_cast<size_t>(c.index_shape.back());
  std::vector<int32_t> rows(static_cast<size_t>(elements_of(c.index_shape)));
  for (size_t k = 0; k < rows.size(); ++k)
    rows[k] = std::uniform_int_distribution<int32_t>(0, c.shape[k % depth] - 1)(rng);
  return rows;
}

// x (tensor 0), indices (1: constant holding `rows`, or a graph input), y (2).
ModelSpec gather_nd_model(const MovedType& t, const Case& c, const std::vector<int32_t>& rows) {
  TensorSpec index_tensor("indices", c.index_shape, fb::TensorType::INT32);
  if (c.constant_indices) index_tensor.data = bytes_of(rows);
  return single_op_model({moved_tensor("x", c.shape, t), index_tensor, moved_tensor("y", gathered_shape(c), t)},
                         kGatherNd, {0, 1}, {2});
}

// Output (r, i): x at row r's coordinates, then i.
std::vector<uint8_t> gathered(const MovedType& t, const Case& c, const std::vector<uint8_t>& x,
                              const std::vector<int32_t>& rows) {
  const size_t depth = static_cast<size_t>(c.index_shape.back());
  const size_t row_rank = c.index_shape.size() - 1;
  const std::vector<int64_t> strides = strides_of(c.shape);
  const std::vector<int64_t> row_strides = strides_of(std::vector<int32_t>(c.index_shape.begin(), c.index_shape.end() - 1));
  return pick_elements(x, t.bytes, gathered_shape(c), [&](const std::vector<int64_t>& o) {
    int64_t row = 0;
    for (size_t i = 0; i < row_rank; ++i) row += o[i] * row_strides[i];
    int64_t from = 0;
    for (size_t j = 0; j < depth; ++j) from += rows[static_cast<size_t>(row) * depth + j] * strides[j];
    for (size_t i = depth; i < c.shape.size(); ++i) from += o[row_rank + i - depth] * strides[i];
    return from;
  });
}

OP_TEST(GatherNd, ElementsAndSlicesInEveryDtype) {
  const Case cases[] = {
      {{4, 3}, {5, 2}, false},      {{4, 3}, {3, 1}, true},         {{2, 3, 4}, {2, 2, 2}, false},
      {{2, 3, 4}, {6, 3}, true},    {{5, 2, 3}, {1}, false},        {{3, 4, 2, 2}, {2, 3, 2}, false},
  };
  std::mt19937 rng(107);
  std::vector<std::vector<int32_t>> constants;  // the indices of each case's model
  for (const Case& c : cases) constants.push_back(random_rows(c, rng));
  expect_cases_across_types(
      "gather_nd", std::size(cases), [&](size_t n, const MovedType& t) { return gather_nd_model(t, cases[n], constants[n]); },
      [&](size_t n, const MovedType& t) {
        const Case& c = cases[n];
        const std::vector<int32_t> indices = c.constant_indices ? constants[n] : random_rows(c, rng);
        return indexed_sample(t, c.shape, indices, c.constant_indices,
                              [&](const std::vector<uint8_t>& x) { return gathered(t, c, x, indices); }, rng);
      });
}

OP_TEST(GatherNd, RefusalsAreOneLine) {
  const MovedType& t = moved_types()[0];
  const Case c = {{4, 3}, {2, 2}, true};
  ModelSpec long_rows = gather_nd_model(t, c, {0, 1, 2, 0});
  long_rows.tensors[1] = int32_constant("indices", {1, 3}, {0, 1, 2});
  long_rows.tensors[2].shape = {1};
  EXPECT_EQ(op_error("gather_nd_depth", long_rows),
            "gather_nd_depth.tflite: operator 0 (GATHER_ND): indices 'indices' of shape [1,3] must end in a dim of "
            "at most 5 and the input's rank 2");
  EXPECT_EQ(op_error("gather_nd_outside", gather_nd_model(t, c, {0, 1, 2, 3})),
            "gather_nd_outside.tflite: operator 0 (GATHER_ND): indices 'indices' hold 3, outside [0, 3) of input "
            "axis 1");
  ModelSpec int64_rows = gather_nd_model(t, c, {0, 1, 2, 0});
  int64_rows.tensors[1] = TensorSpec("indices", {2, 2}, fb::TensorType::INT64, bytes_of(std::vector<int64_t>{0, 1, 2, 0}));
  EXPECT_EQ(op_error("gather_nd_int64", int64_rows),
            "gather_nd_int64.tflite: operator 0 (GATHER_ND): indices 'indices' has type int64, expected int32");
  ModelSpec wrong_output = gather_nd_model(t, c, {0, 1, 2, 0});
  wrong_output.tensors[2].shape = {2, 3};
  EXPECT_EQ(op_error("gather_nd_output", wrong_output),
            "gather_nd_output.tflite: operator 0 (GATHER_ND): output 'y' has shape [2,3], expected [2]");
}

}  // namespace gather_nd_test
}  // namespace mote::testing
