#include "copy/copy.h"

#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace copy_test {

using testing::TestOp;

TEST(Copy, ReshapeCopiesBytes) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {2, 3});
  const uint32_t out = op.add_output(DType::kFloat32, {3, 1, 2});
  const std::vector<float> values{1.5f, -2, 3, 4, 5, 6.25f};
  op.set_data(in, values);
  ASSERT_EQ(op.check(kCopyEntry), Status::kOk);
  op.run(kCopyEntry);
  EXPECT_EQ(op.data<float>(out), values);
}

TEST(Copy, Int8AndScalar) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {5});
  const uint32_t out = op.add_output(DType::kInt8, {1, 5});
  op.set_data(in, std::vector<int8_t>{-128, -1, 0, 1, 127});
  ASSERT_EQ(op.check(kCopyEntry), Status::kOk);
  op.run(kCopyEntry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{-128, -1, 0, 1, 127}));

  TestOp scalar;
  const uint32_t s_in = scalar.add_input(DType::kFloat32, {});
  const uint32_t s_out = scalar.add_output(DType::kFloat32, {1, 1});
  scalar.set_data(s_in, std::vector<float>{42});
  ASSERT_EQ(scalar.check(kCopyEntry), Status::kOk);
  scalar.run(kCopyEntry);
  EXPECT_EQ(scalar.data<float>(s_out), std::vector<float>{42});
}

TEST(Copy, SameBufferIsANoOp) {
  TestOp op;
  const uint32_t t = op.add_input(DType::kFloat32, {3});
  op.add_output_tensor(t);
  op.set_data(t, std::vector<float>{1, 2, 3});
  ASSERT_EQ(op.check(kCopyEntry), Status::kOk);
  op.run(kCopyEntry);
  EXPECT_EQ(op.data<float>(t), (std::vector<float>{1, 2, 3}));
}

TEST(CopyCheck, ByteSizesMustMatch) {
  TestOp op;
  op.add_input(DType::kFloat32, {2, 3});
  const uint32_t out = op.add_output(DType::kFloat32, {5});
  EXPECT_EQ(op.check(kCopyEntry), Status::kBadParams);
  op.set_dims(out, {7});
  EXPECT_EQ(op.check(kCopyEntry), Status::kBadParams);
  op.set_dims(out, {6});
  EXPECT_EQ(op.check(kCopyEntry), Status::kOk);
}

TEST(CopyCheck, NoParamsAndOneInputOneOutput) {
  TestOp op;
  op.add_input(DType::kFloat32, {4});
  op.add_output(DType::kFloat32, {4});
  op.set_params_bytes(4);
  EXPECT_EQ(op.check(kCopyEntry), Status::kBadParams);

  TestOp two;
  two.add_input(DType::kFloat32, {4});
  two.add_input(DType::kFloat32, {4});
  two.add_output(DType::kFloat32, {4});
  EXPECT_EQ(two.check(kCopyEntry), Status::kBadOp);

  TestOp none;
  none.add_output(DType::kFloat32, {4});
  EXPECT_EQ(none.check(kCopyEntry), Status::kBadOp);
}

}  // namespace copy_test
}  // namespace mote
