// int32 add, sub and mul: the exact result (int64) reduced modulo 2^32, clamped to the
// params' range; broadcasting, in place; check() refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "elementwise/elementwise.h"
#include "kernel_test_util.h"

namespace mote {
namespace binary_s32_test {

using testing::TestOp;

int32_t wrap(int64_t v) {
  const uint32_t low = static_cast<uint32_t>(static_cast<uint64_t>(v));
  return low >= 0x80000000u ? static_cast<int32_t>(int64_t{low} - (int64_t{1} << 32)) : static_cast<int32_t>(low);
}

struct Case {
  const KernelEntry* entry;
  int64_t (*exact)(int32_t, int32_t);
};
const Case kCases[] = {{&kAddS32Entry, [](int32_t a, int32_t b) { return int64_t{a} + b; }},
                       {&kSubS32Entry, [](int32_t a, int32_t b) { return int64_t{a} - b; }},
                       {&kMulS32Entry, [](int32_t a, int32_t b) { return int64_t{a} * b; }}};

TEST(BinaryS32, WrapsBroadcastsAndClamps) {
  std::mt19937 rng(7);
  std::vector<int32_t> a = {INT32_MAX, INT32_MIN, INT32_MAX, 46341, -1, 0};
  while (a.size() < 4 * 6) a.push_back(std::uniform_int_distribution<int32_t>(INT32_MIN, INT32_MAX)(rng));
  const std::vector<int32_t> b = {1, -1, INT32_MIN, 46341, 0, 5};
  for (const Case& c : kCases) {
    for (const BinaryS32Params p : {BinaryS32Params{INT32_MIN, INT32_MAX}, BinaryS32Params{-1000, 6}}) {
      TestOp op;
      const uint32_t ta = op.add_input(DType::kInt32, {4, 6});
      const uint32_t tb = op.add_input(DType::kInt32, {6});
      const uint32_t ty = op.add_output(DType::kInt32, {4, 6});
      op.set_params(p);
      op.set_data(ta, a);
      op.set_data(tb, b);
      ASSERT_EQ(op.check(*c.entry), Status::kOk);
      op.run(*c.entry);
      const std::vector<int32_t> y = op.data<int32_t>(ty);
      for (size_t i = 0; i < y.size(); ++i) {
        const int32_t expected = std::min(std::max(wrap(c.exact(a[i], b[i % 6])), p.act_min), p.act_max);
        EXPECT_EQ(y[i], expected) << i;
      }
    }
  }
}

TEST(BinaryS32, RunsInPlace) {
  TestOp op;
  const uint32_t a = op.add_input(DType::kInt32, {2, 3});
  const uint32_t b = op.add_input(DType::kInt32, {1});
  op.add_output_tensor(a);
  op.set_params(BinaryS32Params{INT32_MIN, INT32_MAX});
  op.set_data(a, std::vector<int32_t>{1, 2, 3, INT32_MAX, -5, 0});
  op.set_data(b, std::vector<int32_t>{2});
  ASSERT_EQ(op.check(kMulS32Entry), Status::kOk);
  op.run(kMulS32Entry);
  EXPECT_EQ(op.data<int32_t>(a), (std::vector<int32_t>{2, 4, 6, -2, -10, 0}));
}

TEST(BinaryS32, CheckRefusesMalformedPrograms) {
  TestOp op;
  op.add_input(DType::kInt32, {4});
  const uint32_t b = op.add_input(DType::kInt32, {4});
  const uint32_t y = op.add_output(DType::kInt32, {4});
  op.set_params(BinaryS32Params{1, 0});
  EXPECT_EQ(op.check(kAddS32Entry), Status::kBadParams);
  op.params<BinaryS32Params>() = BinaryS32Params{0, 0};
  ASSERT_EQ(op.check(kSubS32Entry), Status::kOk);
  op.set_dims(b, {3});
  EXPECT_EQ(op.check(kSubS32Entry), Status::kBadParams);
  op.set_dims(b, {4});
  op.desc(y).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(op.check(kMulS32Entry), Status::kBadParams);
  op.desc(y).dtype = static_cast<uint8_t>(DType::kInt32);
  op.set_params_bytes(4);
  EXPECT_EQ(op.check(kMulS32Entry), Status::kBadParams);
}

}  // namespace binary_s32_test
}  // namespace mote
