#include "transpose/transpose.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace transpose_test {

using testing::TestOp;

TransposeParams make_params(const std::vector<uint32_t>& perm) {
  TransposeParams p{};
  for (size_t i = 0; i < perm.size(); ++i) p.perm[i] = perm[i];
  return p;
}

std::vector<uint32_t> permuted(const std::vector<uint32_t>& dims,
                               const std::vector<uint32_t>& perm) {
  std::vector<uint32_t> out;
  for (uint32_t axis : perm) out.push_back(dims[axis]);
  return out;
}

// numpy.transpose by definition: out[i0..ir] = in[j] with j[perm[k]] = i[k].
template <typename T>
std::vector<T> reference(const std::vector<uint32_t>& dims, const std::vector<uint32_t>& perm,
                         const std::vector<T>& in) {
  const auto out_dims = permuted(dims, perm);
  const auto in_strides = testing::strides_of(dims);
  std::vector<T> out(in.size());
  for (size_t flat = 0; flat < out.size(); ++flat) {
    const auto idx = testing::unflatten(flat, out_dims);
    size_t src = 0;
    for (size_t k = 0; k < perm.size(); ++k) src += idx[k] * in_strides[perm[k]];
    out[flat] = in[src];
  }
  return out;
}

template <typename T>
void run_against_reference(DType dtype, const std::vector<uint32_t>& dims,
                           const std::vector<uint32_t>& perm) {
  TestOp op;
  const uint32_t in = op.add_input(dtype, dims);
  const uint32_t out = op.add_output(dtype, permuted(dims, perm));
  op.set_params(make_params(perm));
  std::vector<T> values(testing::product(dims));
  std::iota(values.begin(), values.end(), T{1});  // distinct values expose any misplacement
  op.set_data(in, values);
  ASSERT_EQ(op.check(kTransposeEntry), Status::kOk);
  op.run(kTransposeEntry);
  EXPECT_EQ(op.data<T>(out), reference(dims, perm, values));
}

TEST(Transpose, HandComputed) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {2, 3});
  const uint32_t out = op.add_output(DType::kFloat32, {3, 2});
  op.set_params(make_params({1, 0}));
  op.set_data(in, std::vector<float>{1, 2, 3, 4, 5, 6});
  ASSERT_EQ(op.check(kTransposeEntry), Status::kOk);
  op.run(kTransposeEntry);
  EXPECT_EQ(op.data<float>(out), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(Transpose, MatchesReferenceFloatNhwcToNchw) {
  run_against_reference<float>(DType::kFloat32, {2, 5, 3, 4}, {0, 3, 1, 2});
  run_against_reference<float>(DType::kFloat32, {2, 4, 5, 3}, {0, 2, 3, 1});
}

TEST(Transpose, MatchesReferenceAllElementSizes) {
  run_against_reference<int8_t>(DType::kInt8, {3, 4, 5}, {2, 0, 1});
  run_against_reference<uint8_t>(DType::kUInt8, {7, 3}, {1, 0});
  run_against_reference<int16_t>(DType::kInt16, {2, 3, 4, 5}, {3, 2, 1, 0});
  run_against_reference<int32_t>(DType::kInt32, {4, 1, 3}, {1, 2, 0});
  run_against_reference<int64_t>(DType::kInt64, {3, 2, 5}, {2, 1, 0});
}

TEST(Transpose, MatchesReferenceRank6) {
  run_against_reference<int8_t>(DType::kInt8, {2, 3, 1, 4, 2, 3}, {5, 3, 0, 2, 4, 1});
  run_against_reference<float>(DType::kFloat32, {2, 3, 2, 1, 2, 3}, {1, 0, 3, 2, 5, 4});
}

// The walk drops size-1 axes, merges axes the input steps over as one and puts the longer
// of the last two output axes inside: an image's NCHW -> NHWC ([H*W, 3] written column by
// column), the reverse (rows shorter than columns), size-1 axes anywhere, several planes,
// and a permutation that leaves the last axes merged into one row.
TEST(Transpose, MatchesReferenceAcrossWalkOrders) {
  run_against_reference<int16_t>(DType::kInt16, {1, 3, 9, 7}, {0, 2, 3, 1});
  run_against_reference<int16_t>(DType::kInt16, {1, 9, 7, 3}, {0, 3, 1, 2});
  run_against_reference<float>(DType::kFloat32, {2, 1, 3, 1, 5}, {4, 1, 0, 3, 2});
  run_against_reference<int8_t>(DType::kInt8, {4, 2, 3, 5}, {1, 0, 2, 3});
  run_against_reference<int8_t>(DType::kInt8, {3, 1, 17}, {2, 1, 0});
  run_against_reference<int32_t>(DType::kInt32, {2, 17, 2}, {0, 2, 1});
  run_against_reference<int16_t>(DType::kInt16, {8, 40}, {1, 0});  // rows of 8: along rows
  run_against_reference<int16_t>(DType::kInt16, {7, 40}, {1, 0});  // rows of 7: by columns
  run_against_reference<uint8_t>(DType::kUInt8, {6, 5}, {1, 0});   // short rows, few of them
}

TEST(Transpose, IdentityAndScalar) {
  run_against_reference<float>(DType::kFloat32, {3, 4}, {0, 1});
  run_against_reference<float>(DType::kFloat32, {}, {});
}

class TransposeCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    in_ = op_.add_input(DType::kInt8, {2, 3, 4});
    out_ = op_.add_output(DType::kInt8, {4, 2, 3});
    op_.set_params(make_params({2, 0, 1}));
    ASSERT_EQ(check(), Status::kOk);
  }
  Status check() { return op_.check(kTransposeEntry); }
  TestOp op_;
  uint32_t in_, out_;
};

TEST_F(TransposeCheck, PermMustBeAPermutation) {
  op_.params<TransposeParams>() = make_params({2, 0, 0});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.params<TransposeParams>() = make_params({2, 0, 3});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.params<TransposeParams>() = make_params({2, 0, 0xFFFFFFFFu});
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(TransposeCheck, OutputDimsMustBePermutedInput) {
  op_.set_dims(out_, {4, 3, 2});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(out_, {4, 2, 3, 1});
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(TransposeCheck, DtypesMustMatch) {
  op_.desc(out_).dtype = static_cast<uint8_t>(DType::kUInt8);
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(TransposeCheck, ParamsAndIo) {
  op_.set_params_bytes(12);
  EXPECT_EQ(check(), Status::kBadParams);

  TestOp op;
  op.add_missing_input();
  op.add_output(DType::kInt8, {2});
  op.set_params(make_params({0}));
  EXPECT_EQ(op.check(kTransposeEntry), Status::kBadOp);
}

}  // namespace transpose_test
}  // namespace mote
