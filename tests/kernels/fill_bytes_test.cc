// fill_bytes: every output byte becomes params.value, whatever the output held; check()
// refuses inputs, wrong parameter bytes and values that are not a byte.
#include "fill_bytes/fill_bytes.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace fill_bytes_test {

using testing::TestOp;

TEST(FillBytes, WritesTheValueIntoEveryByte) {
  for (const int32_t value : {0, 1, 0x80, 0xFD, 0xFF}) {
    TestOp op;
    const uint32_t out = op.add_output(DType::kInt16, {3, 5});
    op.set_data(out, std::vector<int16_t>(15, 0x1234));
    op.set_params(FillBytesParams{value});
    ASSERT_EQ(op.check(kFillBytesEntry), Status::kOk) << value;
    op.run(kFillBytesEntry);
    const int16_t both = static_cast<int16_t>(static_cast<uint16_t>(value * 0x101));
    EXPECT_EQ(op.data<int16_t>(out), std::vector<int16_t>(15, both)) << value;
  }
  TestOp int8;
  const uint32_t y = int8.add_output(DType::kInt8, {7});
  int8.set_params(FillBytesParams{0xFD});  // the zero point -3
  ASSERT_EQ(int8.check(kFillBytesEntry), Status::kOk);
  int8.run(kFillBytesEntry);
  EXPECT_EQ(int8.data<int8_t>(y), std::vector<int8_t>(7, -3));
}

TEST(FillBytes, CheckRefusesWhatIsNotAFill) {
  for (const int32_t value : {-1, 256, INT32_MIN}) {
    TestOp op;
    op.add_output(DType::kInt8, {4});
    op.set_params(FillBytesParams{value});
    EXPECT_EQ(op.check(kFillBytesEntry), Status::kBadParams) << value;
  }
  TestOp with_input;
  with_input.add_input(DType::kInt8, {4});
  with_input.add_output(DType::kInt8, {4});
  with_input.set_params(FillBytesParams{0});
  EXPECT_EQ(with_input.check(kFillBytesEntry), Status::kBadOp);
  TestOp no_params;
  no_params.add_output(DType::kInt8, {4});
  EXPECT_EQ(no_params.check(kFillBytesEntry), Status::kBadParams);
}

}  // namespace fill_bytes_test
}  // namespace mote
