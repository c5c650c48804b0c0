// GATHER_ND: the kernel against direct indexing (element and slice rows, 1 to 3
// coordinates, several dtypes), zero bytes for rows outside the input, and check()
// against corrupted descriptors.
#include "gather_nd/gather_nd.h"

#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace gather_nd_test {

using testing::TestOp;

// Runs the kernel and compares every output element with the input element its row
// names; a row with a coordinate outside its dim must give 0.
template <typename T>
void run_case(DType dtype, const std::vector<uint32_t>& in_dims, const std::vector<uint32_t>& index_dims,
              const std::vector<int32_t>& indices, uint32_t seed) {
  const uint32_t depth = index_dims.back();
  std::vector<uint32_t> out_dims(index_dims.begin(), index_dims.end() - 1);
  out_dims.insert(out_dims.end(), in_dims.begin() + depth, in_dims.end());
  TestOp op;
  const uint32_t in = op.add_input(dtype, in_dims);
  const uint32_t idx = op.add_input(DType::kInt32, index_dims);
  const uint32_t out = op.add_output(dtype, out_dims);
  const auto x = testing::random_ints<T>(testing::product(in_dims), seed, -1000, 1000);
  op.set_data(in, x);
  op.set_data(idx, indices);
  ASSERT_EQ(op.check(kGatherNdEntry), Status::kOk);
  op.run(kGatherNdEntry);
  const auto y = op.data<T>(out);
  ASSERT_EQ(y.size(), testing::product(out_dims));
  const auto in_strides = testing::strides_of(in_dims);
  const size_t row_rank = index_dims.size() - 1;
  for (size_t k = 0; k < y.size(); ++k) {
    const auto o = testing::unflatten(k, out_dims);
    size_t row = 0;
    for (size_t i = 0; i < row_rank; ++i) row = row * index_dims[i] + o[i];
    size_t from = 0;
    bool inside = true;
    for (size_t j = 0; j < depth; ++j) {
      const int32_t c = indices[row * depth + j];
      inside = inside && c >= 0 && c < static_cast<int32_t>(in_dims[j]);
      if (inside) from += static_cast<size_t>(c) * in_strides[j];
    }
    for (size_t i = depth; i < in_dims.size(); ++i) from += o[row_rank + i - depth] * in_strides[i];
    ASSERT_EQ(y[k], inside ? x[from] : T{0}) << k;
  }
}

TEST(GatherNd, MatchesIndexing) {
  run_case<int8_t>(DType::kInt8, {4, 3}, {2, 2}, {3, 1, 0, 2}, 1);                 // elements
  run_case<int8_t>(DType::kInt8, {4, 3}, {3, 1}, {2, 0, 3}, 2);                    // rows
  run_case<float>(DType::kFloat32, {2, 3, 4}, {2, 2, 2}, {1, 2, 0, 0, 1, 1, 0, 2}, 3);
  run_case<int16_t>(DType::kInt16, {2, 3, 4}, {2, 3}, {1, 2, 3, 0, 1, 0}, 4);
  run_case<int32_t>(DType::kInt32, {3, 2}, {1}, {2}, 5);                           // one row, no batch
  run_case<int8_t>(DType::kInt8, {3, 2}, {2, 0}, {}, 6);                           // no coordinates: all of x
}

TEST(GatherNd, RowsOutsideTheInputGiveZeroBytes) {
  run_case<int8_t>(DType::kInt8, {4, 3}, {3, 2}, {4, 0, 1, -1, 2, 2}, 7);
  run_case<float>(DType::kFloat32, {2, 3, 4}, {2, 1}, {2, 1}, 8);
}

class GatherNdCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    in_ = op_.add_input(DType::kInt8, {2, 3, 4});
    idx_ = op_.add_input(DType::kInt32, {5, 2});
    out_ = op_.add_output(DType::kInt8, {5, 4});
    ASSERT_EQ(check(), Status::kOk);
  }
  Status check() { return op_.check(kGatherNdEntry); }
  TestOp op_;
  uint32_t in_, idx_, out_;
};

TEST_F(GatherNdCheck, ShapesMustAgree) {
  op_.set_dims(out_, {5, 3});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(out_, {5, 4, 1});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(idx_, {5, 4});  // more coordinates than the input has dims
  op_.set_dims(out_, {5});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(idx_, {});
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(GatherNdCheck, DtypesAndParams) {
  op_.desc(idx_).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(check(), Status::kBadParams);
  op_.desc(idx_).dtype = static_cast<uint8_t>(DType::kInt32);
  op_.desc(out_).dtype = static_cast<uint8_t>(DType::kFloat32);
  EXPECT_EQ(check(), Status::kBadParams);
  op_.desc(out_).dtype = static_cast<uint8_t>(DType::kInt8);
  op_.set_params_bytes(4);
  EXPECT_EQ(check(), Status::kBadParams);
}

}  // namespace gather_nd_test
}  // namespace mote
