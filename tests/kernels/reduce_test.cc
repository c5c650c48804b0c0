// reduce_prod_f32 and sum_s32: products and integer sums over every axis mask of a
// [2, 3, 4] input against a fold written here (in input order, from 1 or 0), sum_s32's
// wrap, and check() against corrupt masks, shapes and dtypes.
#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "reduce/reduce.h"

namespace mote {
namespace reduce_test {

using testing::TestOp;

// Runs `entry` on x [2, 3, 4] for every axis mask and compares with `step` folded over
// each output's inputs in input order from `start`.
template <typename T, typename Step>
void expect_every_axis_mask(const KernelEntry& entry, DType dtype, const std::vector<T>& x, T start, Step step) {
  const std::vector<uint32_t> dims = {2, 3, 4};
  for (uint32_t mask = 0; mask < 8; ++mask) {
    std::vector<uint32_t> kept;
    for (uint32_t i = 0; i < 3; ++i) kept.push_back(mask >> i & 1u ? 1u : dims[i]);
    std::vector<T> expected(testing::product(kept), start);
    for (size_t i = 0; i < x.size(); ++i) {  // input order, as the kernel folds
      const auto pos = testing::unflatten(i, dims);
      size_t o = 0;
      for (uint32_t d = 0; d < 3; ++d) o = o * kept[d] + (mask >> d & 1u ? 0 : pos[d]);
      expected[o] = step(expected[o], x[i]);
    }
    TestOp op;
    const uint32_t in = op.add_input(dtype, dims);
    const uint32_t out = op.add_output(dtype, kept);
    op.set_params(ReduceParams{mask});
    op.set_data(in, x);
    ASSERT_EQ(op.check(entry), Status::kOk) << mask;
    op.run(entry);
    EXPECT_EQ(op.data<T>(out), expected) << "mask " << mask;
  }
}

TEST(ReduceProdF32, EveryAxisMask) {
  std::vector<float> x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.5f + 0.125f * static_cast<float>((i * 7) % 11) - (i % 5 == 0 ? 1.5f : 0.0f);
  expect_every_axis_mask<float>(kReduceProdF32Entry, DType::kFloat32, x, 1.0f, [](float acc, float v) { return acc * v; });
}

TEST(SumS32, EveryAxisMask) {
  std::vector<int32_t> x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>((i * 7) % 11) - 5;
  expect_every_axis_mask<int32_t>(kSumS32Entry, DType::kInt32, x, 0, [](int32_t acc, int32_t v) { return acc + v; });
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

TEST(ReduceProdF32, CheckRefusesCorruptMasksAndShapes) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {2, 3});
  const uint32_t out = op.add_output(DType::kFloat32, {2});
  op.set_params(ReduceParams{2});
  ASSERT_EQ(op.check(kReduceProdF32Entry), Status::kOk);
  op.params<ReduceParams>() = ReduceParams{4};  // axis 2 of a rank-2 input
  EXPECT_EQ(op.check(kReduceProdF32Entry), Status::kBadParams);
  op.params<ReduceParams>() = ReduceParams{2};
  op.set_dims(out, {3});
  EXPECT_EQ(op.check(kReduceProdF32Entry), Status::kBadParams);
  op.set_dims(out, {2});
  op.desc(in).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(op.check(kReduceProdF32Entry), Status::kBadParams);
}

}  // namespace reduce_test
}  // namespace mote
