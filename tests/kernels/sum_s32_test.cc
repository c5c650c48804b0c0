// sum_s32: integer sums over every axis mask of a [2, 3, 4] input against a sum written
// here (input order, from 0), the wrap modulo 2^32, and check() against other dtypes.
#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "reduce/reduce.h"

namespace mote {
namespace sum_s32_test {

using testing::TestOp;

TEST(SumS32, EveryAxisMask) {
  const std::vector<uint32_t> dims = {2, 3, 4};
  std::vector<int32_t> x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>((i * 7) % 11) - 5;
  for (uint32_t mask = 0; mask < 8; ++mask) {
    std::vector<uint32_t> kept;
    for (uint32_t i = 0; i < 3; ++i) kept.push_back(mask >> i & 1u ? 1u : dims[i]);
    std::vector<int32_t> expected(testing::product(kept), 0);
    for (size_t i = 0; i < x.size(); ++i) {
      const auto pos = testing::unflatten(i, dims);
      size_t o = 0;
      for (uint32_t d = 0; d < 3; ++d) o = o * kept[d] + (mask >> d & 1u ? 0 : pos[d]);
      expected[o] += x[i];
    }
    TestOp op;
    const uint32_t in = op.add_input(DType::kInt32, dims);
    const uint32_t out = op.add_output(DType::kInt32, kept);
    op.set_params(ReduceParams{mask});
    op.set_data(in, x);
    ASSERT_EQ(op.check(kSumS32Entry), Status::kOk) << mask;
    op.run(kSumS32Entry);
    EXPECT_EQ(op.data<int32_t>(out), expected) << "mask " << mask;
  }
}

TEST(SumS32, WrapsAndChecksDtypes) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt32, {3});
  const uint32_t out = op.add_output(DType::kInt32, {1});
  op.set_params(ReduceParams{1});
  op.set_data(in, std::vector<int32_t>{INT32_MAX, 2, -1});
  ASSERT_EQ(op.check(kSumS32Entry), Status::kOk);
  op.run(kSumS32Entry);
  EXPECT_EQ(op.data<int32_t>(out), (std::vector<int32_t>{INT32_MIN}));  // INT32_MAX + 2 - 1 wrapped
  op.desc(out).dtype = static_cast<uint8_t>(DType::kInt64);
  EXPECT_EQ(op.check(kSumS32Entry), Status::kBadParams);
  op.desc(out).dtype = static_cast<uint8_t>(DType::kInt32);
  op.desc(in).dtype = static_cast<uint8_t>(DType::kFloat32);
  EXPECT_EQ(op.check(kSumS32Entry), Status::kBadParams);
}

}  // namespace sum_s32_test
}  // namespace mote
