// GATHER (inputs: input, indices; options axis, batch_dims): every axis, negative axis and
// batch_dims, batch_dims up to the axis, scalar and multi-dim indices, indices constant or
// computed at run time (TensorFlow Lite Micro takes both), a constant table gathered by
// run-time indices (an embedding), every dtype (int8, int16, int32, float32), outputs
// checked against the elements the test picks itself; the refusals (axis or batch_dims
// out of range, int64 indices, a constant index outside the axis, batch dims that differ)
// as one line each.
#include <random>

#include "ops/data_movement_util.h"

namespace mote::testing {
namespace gather_test {

constexpr int32_t kGather = op_code(fb::BuiltinOperator::GATHER);

struct Case {
  std::vector<int32_t> shape;
  std::vector<int32_t> index_shape;
  int32_t axis;        // as the file holds it (may be negative)
  int32_t batch_dims;  // likewise
  bool constant_indices;
};

size_t axis_of(const Case& c) {
  return static_cast<size_t>(c.axis < 0 ? c.axis + static_cast<int32_t>(c.shape.size()) : c.axis);
}
size_t batch_dims_of(const Case& c) {
  return static_cast<size_t>(c.batch_dims < 0 ? c.batch_dims + static_cast<int32_t>(c.index_shape.size())
                                              : c.batch_dims);
}

std::vector<int32_t> gathered_shape(const Case& c) {
  const size_t axis = axis_of(c), batch_dims = batch_dims_of(c);
  std::vector<int32_t> out(c.shape.begin(), c.shape.begin() + static_cast<std::ptrdiff_t>(axis));
  out.insert(out.end(), c.index_shape.begin() + static_cast<std::ptrdiff_t>(batch_dims), c.index_shape.end());
  out.insert(out.end(), c.shape.begin() + static_cast<std::ptrdiff_t>(axis) + 1, c.shape.end());
  return out;
}

// Indices in [0, dim of axis), from the case's seed.
std::vector<int32_t> random_indices(const Case& c, std::mt19937& rng) {
  std::vector<int32_t> indices(static_cast<size_t>(elements_of(c.index_shape)));
  for (int32_t& i : indices) i = std::uniform_int_distribution<int32_t>(0, c.shape[axis_of(c)] - 1)(rng);
  return indices;
}

// x (tensor 0), indices (1: constant holding `indices`, or a graph input), y (2).
ModelSpec gather_model(const MovedType& t, const Case& c, const std::vector<int32_t>& indices) {
  TensorSpec index_tensor("indices", c.index_shape, fb::TensorType::INT32);
  if (c.constant_indices) index_tensor.data = bytes_of(indices);
  const int32_t axis = c.axis, batch_dims = c.batch_dims;
  return single_op_model({moved_tensor("x", c.shape, t), index_tensor, moved_tensor("y", gathered_shape(c), t)},
                         kGather, {0, 1}, {2}, fb::BuiltinOptions::GatherOptions,
                         [axis, batch_dims](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreateGatherOptions(b, axis, batch_dims).Union();
                         });
}

// Output (p, c, q) -- p the input's dims before the axis (the first batch_dims of them
// also the indices' batch coordinates), c the indices' own dims, q the dims after the
// axis -- is x[p, indices[p[0:batch_dims], c], q].
std::vector<uint8_t> gathered(const MovedType& t, const Case& c, const std::vector<uint8_t>& x,
                              const std::vector<int32_t>& indices) {
  const size_t axis = axis_of(c), batch_dims = batch_dims_of(c);
  const size_t coord_rank = c.index_shape.size() - batch_dims;
  const std::vector<int64_t> x_strides = strides_of(c.shape), index_strides = strides_of(c.index_shape);
  return pick_elements(x, t.bytes, gathered_shape(c), [&](const std::vector<int64_t>& o) {
    int64_t at = 0;
    for (size_t i = 0; i < batch_dims; ++i) at += o[i] * index_strides[i];
    for (size_t i = 0; i < coord_rank; ++i) at += o[axis + i] * index_strides[batch_dims + i];
    int64_t from = indices[static_cast<size_t>(at)] * x_strides[axis];
    for (size_t i = 0; i < axis; ++i) from += o[i] * x_strides[i];
    for (size_t i = axis + 1; i < c.shape.size(); ++i) from += o[i - 1 + coord_rank] * x_strides[i];
    return from;
  });
}

OP_TEST(Gather, EveryAxisAndBatchDimsInEveryDtype) {
  const Case cases[] = {
      {{5, 3}, {4}, 0, 0, false},
      {{2, 5, 3}, {2, 2}, 1, 0, true},
      {{2, 3, 6}, {3}, -1, 0, false},
      {{4, 3, 2}, {}, 0, 0, true},
      {{2, 4, 3}, {2, 3}, 1, 1, false},
      {{2, 3, 4, 2}, {2, 3, 2}, 2, 2, false},
      {{2, 3, 4, 2}, {2, 3, 2}, -2, -1, true},
      {{3, 7}, {2, 2, 2}, 1, 0, false},
  };
  std::mt19937 rng(36);
  std::vector<std::vector<int32_t>> constants;  // the indices of each case's model
  for (const Case& c : cases) constants.push_back(random_indices(c, rng));
  expect_cases_across_types(
      "gather", std::size(cases), [&](size_t n, const MovedType& t) { return gather_model(t, cases[n], constants[n]); },
      [&](size_t n, const MovedType& t) {
        const Case& c = cases[n];
        const std::vector<int32_t> indices = c.constant_indices ? constants[n] : random_indices(c, rng);
        return indexed_sample(t, c.shape, indices, c.constant_indices,
                              [&](const std::vector<uint8_t>& x) { return gathered(t, c, x, indices); }, rng);
      });
}

// A constant float32 table of 10 rows gathered by 6 run-time indices (an embedding).
OP_TEST(Gather, ConstantTableRunTimeIndices) {
  const Case c = {{10, 4}, {1, 6}, 0, 0, false};
  const MovedType& t = moved_types()[3];
  std::mt19937 rng(37);
  const std::vector<uint8_t> table = random_elements(t, 40, rng);
  ModelSpec spec = gather_model(t, c, {});
  spec.tensors[0].data = table;
  spec.inputs = {1};
  std::vector<OpSample> samples;
  for (const std::vector<int32_t>& indices : {std::vector<int32_t>{0, 9, 3, 3, 5, 1}, random_indices(c, rng)})
    samples.push_back({{bytes_of(indices)}, {gathered(t, c, table, indices)}});
  expect_op_outputs("gather_embedding", spec, samples);
}

OP_TEST(Gather, RefusalsAreOneLine) {
  const MovedType& t = moved_types()[0];
  const Case c = {{2, 4, 3}, {2, 3}, 1, 1, true};
  const std::vector<int32_t> indices = {0, 1, 2, 3, 0, 1};
  auto with_options = [&](int32_t axis, int32_t batch_dims) {
    ModelSpec spec = gather_model(t, c, indices);
    spec.ops[0].options = [axis, batch_dims](flatbuffers::FlatBufferBuilder& b) {
      return fb::CreateGatherOptions(b, axis, batch_dims).Union();
    };
    return spec;
  };
  EXPECT_EQ(op_error("gather_axis", with_options(3, 0)),
            "gather_axis.tflite: operator 0 (GATHER): axis 3 not supported (input rank 3)");
  EXPECT_EQ(op_error("gather_batch_dims", with_options(1, 2)),
            "gather_batch_dims.tflite: operator 0 (GATHER): batch_dims 2 not supported (indices rank 2, axis 1)");
  EXPECT_EQ(op_error("gather_negative_batch_dims", with_options(1, -3)),
            "gather_negative_batch_dims.tflite: operator 0 (GATHER): batch_dims -3 not supported (indices rank 2, "
            "axis 1)");
  ModelSpec outside = gather_model(t, c, {0, 1, 4, 3, 0, 1});
  EXPECT_EQ(op_error("gather_outside", outside),
            "gather_outside.tflite: operator 0 (GATHER): indices 'indices' hold 4, outside [0, 4) of input axis 1");
  ModelSpec int64_indices = gather_model(t, c, indices);
  int64_indices.tensors[1] = TensorSpec("indices", {2, 3}, fb::TensorType::INT64,
                                        bytes_of(std::vector<int64_t>{0, 1, 2, 3, 0, 1}));
  EXPECT_EQ(op_error("gather_int64", int64_indices),
            "gather_int64.tflite: operator 0 (GATHER): indices 'indices' has type int64, expected int32");
  ModelSpec batch_mismatch = gather_model(t, c, indices);
  batch_mismatch.tensors[1] = int32_constant("indices", {3, 2}, indices);
  batch_mismatch.tensors[2].shape = {2, 2, 3};
  EXPECT_EQ(op_error("gather_batch", batch_mismatch),
            "gather_batch.tflite: operator 0 (GATHER): indices 'indices' of shape [3,2] and input 'x' of shape "
            "[2,4,3] differ in their 1 batch dims");
  ModelSpec wrong_output = gather_model(t, c, indices);
  wrong_output.tensors[2].shape = {2, 3, 4};
  EXPECT_EQ(op_error("gather_output", wrong_output),
            "gather_output.tflite: operator 0 (GATHER): output 'y' has shape [2,3,4], expected [2,3,3]");
}

}  // namespace gather_test
}  // namespace mote::testing
