// add_s16__dsp, add_s16__mve and add_s16__v6m against the reference add_s16, bit for bit: through the
// kernels' check() and run() on same-shape tensors (and what the variants' check()
// refuses), and every int16 input value under the parameters the compiler derives for
// TFLite 16x8 ADD, where add_s16__dsp takes its two-per-word loop and add_s16__v6m its
// 32-bit-multiply loop.
#include <gtest/gtest.h>

#include <vector>

#include "elementwise/binary_quant.h"
#include "elementwise/elementwise.h"
#include "kernel_test_util.h"

namespace mote {
namespace add_s16_variants_test {

using AddS16Ref = binary_quant::AddSub<kAddSubLeftShiftS16, +1>;

using Result = testing::BinaryResult<int16_t>;

Result run_add(const KernelEntry& entry, const QuantAddSubParams& p, const std::vector<uint32_t>& a_dims,
               const std::vector<uint32_t>& b_dims, const std::vector<uint32_t>& out_dims,
               const std::vector<int16_t>& a, const std::vector<int16_t>& b) {
  return testing::run_binary(entry, DType::kInt16, p, a_dims, b_dims, out_dims, a, b);
}

// Parameters of the form the compiler derives, from SeaNet add1's scales (0.000958,
// 0.000594 -> 0.000969; within rounding of the float32 arithmetic), and variations: the inputs swapped, equal scales, a ReLU range, an output scale near the
// inputs' (small output shift) with an output zero point.
std::vector<QuantAddSubParams> compiled_params() {
  const QuantAddSubParams seanet{0, 0, 0, 1 << 30, 0, 1331324671, -1, 2123152171, -14, -32768, 32767};
  std::vector<QuantAddSubParams> all = {seanet};
  QuantAddSubParams swapped = seanet;
  swapped.input1_multiplier = seanet.input2_multiplier;
  swapped.input1_shift = seanet.input2_shift;
  swapped.input2_multiplier = seanet.input1_multiplier;
  swapped.input2_shift = seanet.input1_shift;
  all.push_back(swapped);
  QuantAddSubParams equal = seanet;
  equal.input2_multiplier = 1 << 30;
  equal.input2_shift = 0;
  all.push_back(equal);
  QuantAddSubParams relu = seanet;
  relu.act_min = 0;
  all.push_back(relu);
  QuantAddSubParams fine = seanet;
  fine.output_shift = -2;
  fine.output_zero_point = -1234;
  fine.act_min = -30000;
  fine.act_max = 29000;
  all.push_back(fine);
  return all;
}

TEST(AddS16Variants, EveryInputValueUnderCompiledParams) {
  // a takes every int16 value; b walks them in another order.
  std::vector<int16_t> a(65536), b(65536), expected(65536), dsp_out(65536), mve_out(65536),
      v6m_out(65536);
  for (int32_t i = 0; i < 65536; ++i) {
    a[i] = static_cast<int16_t>(i - 32768);
    b[i] = static_cast<int16_t>(static_cast<int32_t>((static_cast<uint32_t>(i) * 40503u) & 0xFFFFu) - 32768);
  }
  for (const QuantAddSubParams& p : compiled_params()) {
    for (int32_t i = 0; i < 65536; ++i) expected[i] = static_cast<int16_t>(AddS16Ref::apply(p, a[i], b[i]));
    add_s16__dsp(p, a.data(), b.data(), dsp_out.data(), 65536);
    add_s16__mve(p, a.data(), b.data(), mve_out.data(), 65536);
    add_s16__v6m(p, a.data(), b.data(), v6m_out.data(), 65536);
    EXPECT_EQ(dsp_out, expected);
    EXPECT_EQ(mve_out, expected);
    EXPECT_EQ(v6m_out, expected);
    // Odd lengths end on add_s16__dsp's single-element tail.
    std::vector<int16_t> tail(65535);
    add_s16__dsp(p, a.data() + 1, b.data() + 1, tail.data(), 65535);
    EXPECT_TRUE(std::equal(tail.begin(), tail.end(), expected.begin() + 1));
  }
}

TEST(AddS16Variants, EntriesMatchReferenceAndRefuseBroadcast) {
  const QuantAddSubParams p = compiled_params()[0];
  std::vector<int16_t> six = {-32768, -5, 0, 7, 20000, 32767}, three = {1, -2, 3};
  for (const KernelEntry* entry : {&kAddS16DspEntry, &kAddS16MveEntry, &kAddS16V6mEntry}) {
    const Result ref = run_add(kAddS16Entry, p, {2, 3}, {2, 3}, {2, 3}, six, six);
    const Result variant = run_add(*entry, p, {2, 3}, {2, 3}, {2, 3}, six, six);
    ASSERT_EQ(variant.check, Status::kOk);
    EXPECT_EQ(variant.out, ref.out);
    // Broadcasting: the reference takes it, the variants do not.
    EXPECT_EQ(run_add(kAddS16Entry, p, {2, 3}, {1, 3}, {2, 3}, six, three).check, Status::kOk);
    EXPECT_EQ(run_add(*entry, p, {2, 3}, {1, 3}, {2, 3}, six, three).check, Status::kBadParams);
    // What the reference refuses.
    QuantAddSubParams bad = p;
    bad.input1_shift = 1;
    EXPECT_EQ(run_add(*entry, bad, {2, 3}, {2, 3}, {2, 3}, six, six).check, Status::kBadParams);
    bad = p;
    bad.act_min = -32769;
    EXPECT_EQ(run_add(*entry, bad, {2, 3}, {2, 3}, {2, 3}, six, six).check, Status::kBadParams);
  }
  // A lower-rank input of the same elements: add_s16__dsp and add_s16__v6m want the
  // output's shape itself, add_s16__mve only its element count.
  EXPECT_EQ(run_add(kAddS16Entry, p, {1, 2, 3}, {2, 3}, {1, 2, 3}, six, six).check, Status::kOk);
  EXPECT_EQ(run_add(kAddS16DspEntry, p, {1, 2, 3}, {2, 3}, {1, 2, 3}, six, six).check, Status::kBadParams);
  EXPECT_EQ(run_add(kAddS16V6mEntry, p, {1, 2, 3}, {2, 3}, {1, 2, 3}, six, six).check, Status::kBadParams);
  const Result mve = run_add(kAddS16MveEntry, p, {1, 2, 3}, {2, 3}, {1, 2, 3}, six, six);
  ASSERT_EQ(mve.check, Status::kOk);
  EXPECT_EQ(mve.out, run_add(kAddS16Entry, p, {1, 2, 3}, {2, 3}, {1, 2, 3}, six, six).out);
}

}  // namespace add_s16_variants_test
}  // namespace mote
