// reduce_prod_f32: products over every axis mask of a [2, 3, 4] input against a product
// written here (in input order, from 1), and check() against corrupt masks and shapes.
#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "reduce/reduce.h"

namespace mote {
namespace reduce_prod_test {

using testing::TestOp;

TEST(ReduceProdF32, EveryAxisMask) {
  const std::vector<uint32_t> dims = {2, 3, 4};
  std::vector<float> x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.5f + 0.125f * static_cast<float>((i * 7) % 11) - (i % 5 == 0 ? 1.5f : 0.0f);
  for (uint32_t mask = 0; mask < 8; ++mask) {
    std::vector<uint32_t> kept;
    for (uint32_t i = 0; i < 3; ++i) kept.push_back(mask >> i & 1u ? 1u : dims[i]);
    std::vector<float> expected(testing::product(kept), 1.0f);
    for (size_t i = 0; i < x.size(); ++i) {  // input order, as the kernel folds
      const auto pos = testing::unflatten(i, dims);
      size_t o = 0;
      for (uint32_t d = 0; d < 3; ++d) o = o * kept[d] + (mask >> d & 1u ? 0 : pos[d]);
      expected[o] *= x[i];
    }
    TestOp op;
    const uint32_t in = op.add_input(DType::kFloat32, dims);
    const uint32_t out = op.add_output(DType::kFloat32, kept);
    op.set_params(ReduceParams{mask});
    op.set_data(in, x);
    ASSERT_EQ(op.check(kReduceProdF32Entry), Status::kOk) << mask;
    op.run(kReduceProdF32Entry);
    EXPECT_EQ(op.data<float>(out), expected) << "mask " << mask;
  }
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

}  // namespace reduce_prod_test
}  // namespace mote
