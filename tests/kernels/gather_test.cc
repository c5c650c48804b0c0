// GATHER: the kernel against direct indexing (every axis and batch_dims of small
// tensors, several dtypes), zero bytes for indices outside the axis, and check() against
// corrupted descriptors and parameters.
#include "gather/gather.h"

#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace gather_test {

using testing::TestOp;

// output dims: in[0:axis] + indices[batch_dims:] + in[axis+1:].
std::vector<uint32_t> gathered_dims(const std::vector<uint32_t>& in, const std::vector<uint32_t>& indices,
                                    uint32_t axis, uint32_t batch_dims) {
  std::vector<uint32_t> out(in.begin(), in.begin() + axis);
  out.insert(out.end(), indices.begin() + batch_dims, indices.end());
  out.insert(out.end(), in.begin() + axis + 1, in.end());
  return out;
}

// Runs the kernel and compares every output element with the input element its index
// names: output index (in[0:axis], c, in[axis+1:]) reads input (in[0:axis], indices[b, c],
// ...), b the first batch_dims coordinates. Indices may leave the axis (then 0).
template <typename T>
void run_case(DType dtype, const std::vector<uint32_t>& in_dims, const std::vector<uint32_t>& index_dims,
              const std::vector<int32_t>& indices, uint32_t axis, uint32_t batch_dims, uint32_t seed) {
  const std::vector<uint32_t> out_dims = gathered_dims(in_dims, index_dims, axis, batch_dims);
  TestOp op;
  const uint32_t in = op.add_input(dtype, in_dims);
  const uint32_t idx = op.add_input(DType::kInt32, index_dims);
  const uint32_t out = op.add_output(dtype, out_dims);
  op.set_params(GatherParams{axis, batch_dims, 0});
  const auto x = testing::random_ints<T>(testing::product(in_dims), seed, -1000, 1000);
  op.set_data(in, x);
  op.set_data(idx, indices);
  ASSERT_EQ(op.check(kGatherEntry), Status::kOk);
  op.run(kGatherEntry);
  const auto y = op.data<T>(out);
  ASSERT_EQ(y.size(), testing::product(out_dims));
  const auto in_strides = testing::strides_of(in_dims);
  const auto index_strides = testing::strides_of(index_dims);
  const size_t coord_rank = index_dims.size() - batch_dims;
  for (size_t k = 0; k < y.size(); ++k) {
    const auto o = testing::unflatten(k, out_dims);
    // The indices element: batch coordinates from the output's first dims, then its own.
    size_t index_at = 0;
    for (size_t i = 0; i < batch_dims; ++i) index_at += o[i] * index_strides[i];
    for (size_t i = 0; i < coord_rank; ++i) index_at += o[axis + i] * index_strides[batch_dims + i];
    const int32_t index = indices[index_at];
    if (index < 0 || index >= static_cast<int32_t>(in_dims[axis])) {
      ASSERT_EQ(y[k], T{0}) << k;
      continue;
    }
    size_t from = static_cast<size_t>(index) * in_strides[axis];
    for (size_t i = 0; i < axis; ++i) from += o[i] * in_strides[i];
    for (size_t i = axis + 1; i < in_dims.size(); ++i) from += o[i - 1 + coord_rank] * in_strides[i];
    ASSERT_EQ(y[k], x[from]) << k;
  }
}

TEST(Gather, MatchesIndexingOnEveryAxisAndBatchDims) {
  run_case<int8_t>(DType::kInt8, {5, 3}, {4}, {4, 0, 0, 2}, 0, 0, 1);
  run_case<int8_t>(DType::kInt8, {2, 5, 3}, {2, 2}, {1, 4, 3, 0}, 1, 0, 2);
  run_case<int16_t>(DType::kInt16, {2, 3, 6}, {3}, {5, 1, 5}, 2, 0, 3);
  run_case<float>(DType::kFloat32, {4, 3, 2}, {}, {2}, 0, 0, 4);  // scalar index: the axis disappears
  run_case<int32_t>(DType::kInt32, {2, 4, 3}, {2, 3}, {3, 0, 1, 2, 2, 0}, 1, 1, 5);
  run_case<int8_t>(DType::kInt8, {2, 3, 4, 2}, {2, 3, 2}, {0, 1, 3, 3, 2, 0, 1, 1, 0, 2, 3, 0}, 2, 2, 6);
  run_case<int64_t>(DType::kInt64, {3, 2}, {3, 1}, {1, 0, 1}, 1, 1, 7);
}

TEST(Gather, IndicesOutsideTheAxisGiveZeroBytes) {
  run_case<int8_t>(DType::kInt8, {5, 3}, {4}, {-1, 5, 2, 2147483647}, 0, 0, 8);
  run_case<float>(DType::kFloat32, {2, 3, 2}, {2, 2}, {3, 0, -7, 1}, 1, 1, 9);
}

// int64 indices (ONNX's, an embedding lookup's token ids) read as they are; with
// negative_from_end an index in [-d, 0) reads index + d; anything else outside the axis
// (below -d, at or past d, beyond int32) gives zero bytes.
TEST(Gather, Int64IndicesAndNegativeFromEnd) {
  const std::vector<uint32_t> in_dims = {4, 3};
  const std::vector<int64_t> indices = {3, -1, -4, -5, 4, int64_t{1} << 32, 0};
  for (uint32_t negative_from_end : {0u, 1u}) {
    TestOp op;
    const uint32_t in = op.add_input(DType::kFloat32, in_dims);
    const uint32_t idx = op.add_input(DType::kInt64, {7});
    const uint32_t out = op.add_output(DType::kFloat32, {7, 3});
    op.set_params(GatherParams{0, 0, negative_from_end});
    std::vector<float> x(12);
    for (size_t k = 0; k < x.size(); ++k) x[k] = static_cast<float>(k + 1);
    op.set_data(in, x);
    op.set_data(idx, indices);
    ASSERT_EQ(op.check(kGatherEntry), Status::kOk);
    op.run(kGatherEntry);
    const auto y = op.data<float>(out);
    const std::vector<int64_t> rows = negative_from_end != 0 ? std::vector<int64_t>{3, 3, 0, -1, -1, -1, 0}
                                                             : std::vector<int64_t>{3, -1, -1, -1, -1, -1, 0};
    for (size_t c = 0; c < rows.size(); ++c)
      for (size_t i = 0; i < 3; ++i)
        EXPECT_EQ(y[c * 3 + i], rows[c] < 0 ? 0.0f : x[static_cast<size_t>(rows[c]) * 3 + i])
            << "index " << indices[c] << " negative_from_end " << negative_from_end;
  }
}

class GatherCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    in_ = op_.add_input(DType::kInt8, {2, 5, 3});
    idx_ = op_.add_input(DType::kInt32, {2, 4});
    out_ = op_.add_output(DType::kInt8, {2, 4, 3});
    op_.set_params(GatherParams{1, 1, 0});
    ASSERT_EQ(check(), Status::kOk);
  }
  Status check() { return op_.check(kGatherEntry); }
  TestOp op_;
  uint32_t in_, idx_, out_;
};

TEST_F(GatherCheck, AxisAndBatchDimsMustFit) {
  op_.params<GatherParams>() = GatherParams{3, 1, 0};
  EXPECT_EQ(check(), Status::kBadParams);
  op_.params<GatherParams>() = GatherParams{1, 2, 0};
  EXPECT_EQ(check(), Status::kBadParams);
  op_.params<GatherParams>() = GatherParams{0xFFFFFFFFu, 0, 0};
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(GatherCheck, ShapesMustAgree) {
  op_.set_dims(out_, {2, 4, 2});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(out_, {2, 4, 3, 1});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(out_, {2, 4, 3});
  op_.set_dims(idx_, {3, 4});  // batch dim differs from the input's
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(GatherCheck, DtypesMustMatch) {
  op_.desc(out_).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(check(), Status::kBadParams);
  op_.desc(out_).dtype = static_cast<uint8_t>(DType::kInt8);
  op_.desc(idx_).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(GatherCheck, NegativeFromEndIsZeroOrOne) {
  op_.params<GatherParams>() = GatherParams{1, 1, 1};
  EXPECT_EQ(check(), Status::kOk);
  op_.params<GatherParams>() = GatherParams{1, 1, 2};
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(GatherCheck, ParamsAndIo) {
  op_.set_params_bytes(4);
  EXPECT_EQ(check(), Status::kBadParams);
}

}  // namespace gather_test
}  // namespace mote
