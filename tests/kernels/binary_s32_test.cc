// add_s32, sub_s32, mul_s32: TFLite's int32 reference arithmetic (wrapping two's
// complement, then the clamp), broadcast, written over an input, against an oracle
// computed here in 64 bits and reduced modulo 2^32; check() refuses corrupt params and
// descriptors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "elementwise/elementwise.h"
#include "kernel_test_util.h"

namespace mote {
namespace binary_s32_test {

using testing::TestOp;

struct Case {
  const KernelEntry* entry;
  int64_t (*oracle)(int64_t, int64_t);
};

const Case kCases[] = {
    {&kAddS32Entry, [](int64_t a, int64_t b) { return a + b; }},
    {&kSubS32Entry, [](int64_t a, int64_t b) { return a - b; }},
    {&kMulS32Entry, [](int64_t a, int64_t b) { return a * b; }},  // |a * b| < 2^62
};

// The low 32 bits of v, signed (v's two's-complement wrap).
int32_t wrap32(int64_t v) {
  const uint64_t low = static_cast<uint64_t>(v) & 0xFFFFFFFFu;
  return low >= 0x80000000u ? static_cast<int32_t>(static_cast<int64_t>(low) - (int64_t{1} << 32))
                            : static_cast<int32_t>(low);
}

TEST(BinaryS32, WrapsBroadcastsAndClamps) {
  std::mt19937 rng(17);
  std::uniform_int_distribution<int32_t> any(INT32_MIN, INT32_MAX);
  const std::vector<int32_t> edges = {INT32_MIN, INT32_MIN + 1, -65536, -1, 0, 1, 65536, INT32_MAX - 1, INT32_MAX};
  for (const Case& c : kCases) {
    for (const auto& [lo, hi] : {std::pair<int32_t, int32_t>{INT32_MIN, INT32_MAX}, {0, 6}, {-1, 1}, {-100, 0}}) {
      TestOp op;
      const uint32_t a = op.add_input(DType::kInt32, {2, 3, 9});
      const uint32_t b = op.add_input(DType::kInt32, {3, 1});
      const uint32_t y = op.add_output(DType::kInt32, {2, 3, 9});
      op.set_params(BinaryS32Params{lo, hi});
      std::vector<int32_t> va(54), vb(3);
      for (size_t i = 0; i < va.size(); ++i) va[i] = i < edges.size() * 2 ? edges[i % edges.size()] : any(rng);
      vb = {edges[0], -1, any(rng)};
      op.set_data(a, va);
      op.set_data(b, vb);
      ASSERT_EQ(op.check(*c.entry), Status::kOk);
      op.run(*c.entry);
      const std::vector<int32_t> out = op.data<int32_t>(y);
      for (size_t i = 0; i < va.size(); ++i) {
        const int32_t expected = std::clamp(wrap32(c.oracle(va[i], vb[(i / 9) % 3])), lo, hi);
        ASSERT_EQ(out[i], expected) << "element " << i << ": " << va[i] << ", " << vb[(i / 9) % 3];
      }
    }
  }
}

TEST(BinaryS32, WritesOverAnInputOfTheOutputShape) {
  for (const Case& c : kCases) {
    TestOp op;
    const uint32_t a = op.add_input(DType::kInt32, {5});
    const uint32_t b = op.add_input(DType::kInt32, {1});
    op.add_output_tensor(a);
    op.set_params(BinaryS32Params{INT32_MIN, INT32_MAX});
    const std::vector<int32_t> va = {7, -3, 0, INT32_MAX, INT32_MIN};
    op.set_data(a, va);
    op.set_data(b, std::vector<int32_t>{3});
    ASSERT_EQ(op.check(*c.entry), Status::kOk);
    op.run(*c.entry);
    const std::vector<int32_t> out = op.data<int32_t>(a);
    for (size_t i = 0; i < va.size(); ++i) EXPECT_EQ(out[i], wrap32(c.oracle(va[i], 3))) << i;
  }
}

TEST(BinaryS32, CheckRefusesCorruptParamsAndDescriptors) {
  for (const Case& c : kCases) {
    TestOp op;
    op.add_input(DType::kInt32, {4});
    const uint32_t b = op.add_input(DType::kInt32, {4});
    const uint32_t y = op.add_output(DType::kInt32, {4});
    op.set_params(BinaryS32Params{1, 0});
    EXPECT_EQ(op.check(*c.entry), Status::kBadParams);
    op.params<BinaryS32Params>().act_min = 0;
    ASSERT_EQ(op.check(*c.entry), Status::kOk);
    op.set_dims(b, {3});
    EXPECT_EQ(op.check(*c.entry), Status::kBadParams);
    op.set_dims(b, {4});
    op.desc(y).dtype = static_cast<uint8_t>(DType::kInt8);
    EXPECT_EQ(op.check(*c.entry), Status::kBadParams);
    op.desc(y).dtype = static_cast<uint8_t>(DType::kInt32);
    op.desc(b).dtype = static_cast<uint8_t>(DType::kFloat32);
    EXPECT_EQ(op.check(*c.entry), Status::kBadParams);
    op.desc(b).dtype = static_cast<uint8_t>(DType::kInt32);
    op.set_params_bytes(sizeof(BinaryS32Params) - 4);
    EXPECT_EQ(op.check(*c.entry), Status::kBadParams);
  }
}

}  // namespace binary_s32_test
}  // namespace mote
