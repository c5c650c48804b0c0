// add_s8__dsp against the reference add_s8, bit for bit, through both kernels' check()
// and run(): seeded random same-shape cases, the table threshold, extreme multipliers and
// shifts, in-place operation, and what the variant's check() refuses (broadcasting, a
// short or missing scratch).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "elementwise/elementwise.h"
#include "kernel_test_util.h"

namespace mote {
namespace elementwise_variants_test {

using testing::TestOp;

struct AddCase {
  std::vector<uint32_t> dims;
  QuantAddSubParams params;
  std::vector<int8_t> a, b;
};

// Runs `entry` on the case; the variant gets its scratch. Returns the output.
std::vector<int8_t> run_add(const KernelEntry& entry, const AddCase& c, bool variant,
                            bool in_place = false) {
  TestOp op;
  const uint32_t a = op.add_input(DType::kInt8, c.dims);
  const uint32_t b = op.add_input(DType::kInt8, c.dims);
  uint32_t out = a;
  if (in_place) {
    op.add_output_tensor(a);
  } else {
    out = op.add_output(DType::kInt8, c.dims);
  }
  op.set_params(c.params);
  if (variant) op.add_scratch(add_s8__dsp_scratch_bytes());
  op.set_data(a, c.a);
  op.set_data(b, c.b);
  EXPECT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  return op.data<int8_t>(out);
}

int32_t pick(std::mt19937& rng, int32_t lo, int32_t hi) {
  return std::uniform_int_distribution<int32_t>(lo, hi)(rng);
}

AddCase random_case(std::mt19937& rng) {
  AddCase c;
  const int rank = pick(rng, 1, 4);
  for (int d = 0; d < rank; ++d) c.dims.push_back(static_cast<uint32_t>(pick(rng, 1, d == 0 ? 3 : 24)));
  size_t n = 1;
  for (uint32_t d : c.dims) n *= d;
  QuantAddSubParams& p = c.params;
  p.input1_zero_point = pick(rng, -128, 127);
  p.input2_zero_point = pick(rng, -128, 127);
  p.output_zero_point = pick(rng, -128, 127);
  p.input1_multiplier = pick(rng, 1 << 30, INT32_MAX);
  p.input2_multiplier = pick(rng, 1 << 30, INT32_MAX);
  p.output_multiplier = pick(rng, 1 << 30, INT32_MAX);
  p.input1_shift = pick(rng, -4, 0);
  p.input2_shift = pick(rng, -4, 0);
  p.output_shift = pick(rng, -23, -14);
  p.act_min = pick(rng, 0, 1) ? -128 : pick(rng, -128, 127);
  p.act_max = pick(rng, 0, 1) ? 127 : pick(rng, p.act_min, 127);
  c.a.resize(n);
  c.b.resize(n);
  for (auto& v : c.a) v = static_cast<int8_t>(pick(rng, -128, 127));
  for (auto& v : c.b) v = static_cast<int8_t>(pick(rng, -128, 127));
  return c;
}

TEST(AddS8Dsp, RandomSameShapeMatchesReference) {
  std::mt19937 rng(20261129);
  for (int i = 0; i < 300; ++i) {
    const AddCase c = random_case(rng);
    ASSERT_EQ(run_add(kAddS8DspEntry, c, true), run_add(kAddS8Entry, c, false)) << "case " << i;
  }
}

TEST(AddS8Dsp, ExtremeParamsMatchReference) {
  std::mt19937 rng(7);
  const int32_t multipliers[] = {INT32_MIN, INT32_MIN + 1, -1, 0, 1, 1 << 30, INT32_MAX};
  const int32_t shifts[] = {-31, -30, -20, -1, 0};
  const uint32_t lengths[] = {1, 2, 511, 512, 513, 2000};
  int n = 0;
  for (int32_t m1 : multipliers) {
    for (int32_t mo : multipliers) {
      for (int32_t s : shifts) {
        AddCase c = random_case(rng);
        c.dims = {lengths[n++ % 6]};
        c.a.resize(c.dims[0]);
        c.b.resize(c.dims[0]);
        for (auto& v : c.a) v = static_cast<int8_t>(pick(rng, -128, 127));
        for (auto& v : c.b) v = static_cast<int8_t>(pick(rng, -128, 127));
        c.params.input1_multiplier = m1;
        // -mo, with INT32_MIN negated to itself (no signed overflow)
        c.params.input2_multiplier = mo == 0 ? INT32_MAX : static_cast<int32_t>(0u - static_cast<uint32_t>(mo));
        c.params.output_multiplier = mo;
        c.params.input1_shift = s;
        c.params.output_shift = shifts[(n + 2) % 5];
        c.params.input1_zero_point = pick(rng, 0, 1) ? -128 : 127;
        ASSERT_EQ(run_add(kAddS8DspEntry, c, true), run_add(kAddS8Entry, c, false))
            << "m1 " << m1 << " mo " << mo << " shift " << s;
      }
    }
  }
}

TEST(AddS8Dsp, InPlaceMatchesReference) {
  std::mt19937 rng(11);
  for (int i = 0; i < 20; ++i) {
    const AddCase c = random_case(rng);
    ASSERT_EQ(run_add(kAddS8DspEntry, c, true, true), run_add(kAddS8Entry, c, false)) << i;
  }
}

TEST(AddS8Dsp, CheckRefusesBroadcastAndShortScratch) {
  std::mt19937 rng(3);
  const AddCase c = random_case(rng);
  {
    TestOp op;  // broadcast: b is [1]
    op.add_input(DType::kInt8, {4, 8});
    op.add_input(DType::kInt8, {1});
    op.add_output(DType::kInt8, {4, 8});
    op.set_params(c.params);
    op.add_scratch(add_s8__dsp_scratch_bytes());
    EXPECT_EQ(op.check(kAddS8Entry), Status::kOk);
    EXPECT_NE(op.check(kAddS8DspEntry), Status::kOk);
  }
  for (uint32_t scratch : {0u, add_s8__dsp_scratch_bytes() - 4}) {
    TestOp op;
    op.add_input(DType::kInt8, {4, 8});
    op.add_input(DType::kInt8, {4, 8});
    op.add_output(DType::kInt8, {4, 8});
    op.set_params(c.params);
    if (scratch != 0) op.add_scratch(scratch);
    EXPECT_NE(op.check(kAddS8DspEntry), Status::kOk) << scratch;
  }
  {
    TestOp op;  // what the reference refuses, the variant refuses too
    op.add_input(DType::kInt8, {4, 8});
    op.add_input(DType::kInt8, {4, 8});
    op.add_output(DType::kInt8, {4, 8});
    QuantAddSubParams p = c.params;
    p.output_shift = 1;
    op.set_params(p);
    op.add_scratch(add_s8__dsp_scratch_bytes());
    EXPECT_NE(op.check(kAddS8DspEntry), Status::kOk);
  }
}

}  // namespace elementwise_variants_test
}  // namespace mote
