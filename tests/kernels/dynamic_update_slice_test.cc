// dynamic_update_slice: the update written at clamped start indices (int32 and int64)
// against an oracle written here, with the output apart from the operand; check() refuses
// malformed descriptors.
#include <gtest/gtest.h>

#include <vector>

#include "dynamic_update_slice/dynamic_update_slice.h"
#include "kernel_test_util.h"

namespace mote {
namespace dynamic_update_slice_test {

using testing::TestOp;

TEST(DynamicUpdateSlice, WritesTheUpdateAtClampedStarts) {
  // operand [3, 4] int16, update [2, 2]; starts (5, -2) clamp to (1, 0).
  for (const bool int64_indices : {false, true}) {
    TestOp op;
    const uint32_t x = op.add_input(DType::kInt16, {3, 4});
    const uint32_t u = op.add_input(DType::kInt16, {2, 2});
    const uint32_t s = op.add_input(int64_indices ? DType::kInt64 : DType::kInt32, {2});
    const uint32_t y = op.add_output(DType::kInt16, {3, 4});
    std::vector<int16_t> operand(12);
    for (int i = 0; i < 12; ++i) operand[i] = static_cast<int16_t>(i);
    op.set_data(x, operand);
    op.set_data(u, std::vector<int16_t>{-1, -2, -3, -4});
    if (int64_indices) {
      op.set_data(s, std::vector<int64_t>{5, -2});
    } else {
      op.set_data(s, std::vector<int32_t>{5, -2});
    }
    ASSERT_EQ(op.check(kDynamicUpdateSliceEntry), Status::kOk);
    op.run(kDynamicUpdateSliceEntry);
    EXPECT_EQ(op.data<int16_t>(y), (std::vector<int16_t>{0, 1, 2, 3, -1, -2, 6, 7, -3, -4, 10, 11}));
    EXPECT_EQ(op.data<int16_t>(x), operand);
  }
}

TEST(DynamicUpdateSlice, CheckRefusesMalformedOps) {
  TestOp op;
  op.add_input(DType::kFloat32, {3, 4});
  op.add_input(DType::kFloat32, {2, 2});
  op.add_input(DType::kInt32, {2});
  op.add_output(DType::kFloat32, {3, 4});
  EXPECT_EQ(op.check(kDynamicUpdateSliceEntry), Status::kOk);
  op.set_dims(1, {4, 2});  // update larger than the operand
  EXPECT_EQ(op.check(kDynamicUpdateSliceEntry), Status::kBadParams);
  op.set_dims(1, {2, 2});
  op.desc(2).dtype = static_cast<uint8_t>(DType::kFloat32);  // indices not int32/int64
  EXPECT_EQ(op.check(kDynamicUpdateSliceEntry), Status::kBadParams);
  op.desc(2).dtype = static_cast<uint8_t>(DType::kInt32);
  op.set_dims(2, {3});  // one index per operand dim
  EXPECT_EQ(op.check(kDynamicUpdateSliceEntry), Status::kBadParams);
  op.set_dims(2, {2});
  op.desc(1).dtype = static_cast<uint8_t>(DType::kInt32);  // update dtype differs
  EXPECT_EQ(op.check(kDynamicUpdateSliceEntry), Status::kBadParams);
}

}  // namespace dynamic_update_slice_test
}  // namespace mote
