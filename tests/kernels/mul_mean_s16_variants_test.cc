// mul_s16__dsp / __mve / __v6m and mean_s16__dsp / __mve / __v6m against their references
// mul_s16 and mean_s16, bit for bit through check() and run(): every pair of int16
// values (a takes every value, b another order) under the multipliers the compiler
// derives for TFLite 16x8 MUL and under edge ones; broadcasting MULs; the global average
// pool (mean over H, W of NHWC) and innermost-axis means, and the axis sets the MEAN
// variants refuse (check() agreeing with mean_s16_single_runs).
#include <gtest/gtest.h>

#include <vector>

#include "elementwise/elementwise.h"
#include "kernel_test_util.h"
#include "mean/mean.h"

namespace mote {
namespace mul_mean_s16_variants_test {

const KernelEntry* const kMulVariants[] = {&kMulS16DspEntry, &kMulS16MveEntry, &kMulS16V6mEntry};
const KernelEntry* const kMeanVariants[] = {&kMeanS16DspEntry, &kMeanS16MveEntry, &kMeanS16V6mEntry};

using Result = testing::BinaryResult<int16_t>;

Result run_mul(const KernelEntry& entry, const QuantMulParams& p, const std::vector<uint32_t>& a_dims,
               const std::vector<uint32_t>& b_dims, const std::vector<uint32_t>& out_dims,
               const std::vector<int16_t>& a, const std::vector<int16_t>& b) {
  return testing::run_binary(entry, DType::kInt16, p, a_dims, b_dims, out_dims, a, b);
}

// SeaNet-like scales (0.000134 * 0.000128 / 0.000283 = 2^-14 * 0.99...) and edges: shift
// -1 and 0, an odd multiplier below 2^16 at shift 0 (the DSP variant's saturated
// -32768 * -32768 product must fall back), a left shift, a negative multiplier, a ReLU.
std::vector<QuantMulParams> mul_params() {
  const QuantMulParams compiled{0, 0, 0, 2081112383, -14, -32768, 32767};
  std::vector<QuantMulParams> all = {compiled};
  QuantMulParams p = compiled;
  p.output_shift = -1;
  all.push_back(p);
  p.output_shift = 0;
  all.push_back(p);
  p.output_multiplier = 40001;
  all.push_back(p);
  p = compiled;
  p.output_multiplier = (1 << 30) | 0x8000;
  p.output_shift = -1;
  all.push_back(p);
  p.output_shift = 3;
  all.push_back(p);
  p = compiled;
  p.output_multiplier = -1234567;
  p.output_shift = -2;
  all.push_back(p);
  p = compiled;
  p.act_min = 0;
  p.act_max = 20000;
  all.push_back(p);
  return all;
}

TEST(MulS16Variants, EveryInputPairMatchesTheReference) {
  std::vector<int16_t> a(65536), b(65536);
  for (int32_t i = 0; i < 65536; ++i) {
    a[i] = static_cast<int16_t>(i - 32768);
    b[i] = static_cast<int16_t>(static_cast<int32_t>((static_cast<uint32_t>(i) * 40503u) & 0xFFFFu) - 32768);
  }
  b[0] = -32768;  // with a[0] = -32768: the largest product
  for (const QuantMulParams& p : mul_params()) {
    const Result ref = run_mul(kMulS16Entry, p, {65536}, {65536}, {65536}, a, b);
    ASSERT_EQ(ref.check, Status::kOk);
    for (const KernelEntry* entry : kMulVariants) {
      const Result variant = run_mul(*entry, p, {65536}, {65536}, {65536}, a, b);
      ASSERT_EQ(variant.check, Status::kOk);
      EXPECT_EQ(variant.out, ref.out) << p.output_multiplier << " " << p.output_shift;
    }
  }
}

TEST(MulS16Variants, BroadcastsAsTheReference) {
  const QuantMulParams p = mul_params()[0];
  const std::vector<int16_t> x = {-32768, -5, 0, 7, 20000, 32767, 1, -2, 3, 30000, -30000, 9};
  const std::vector<int16_t> row = {-32768, 3, 32767};
  const std::vector<int16_t> col = {-7, 32767, -32768, 100};
  const std::vector<int16_t> one = {-32768};
  struct Case {
    std::vector<uint32_t> a_dims, b_dims, out_dims;
    std::vector<int16_t> a, b;
  };
  const Case cases[] = {
      {{4, 3}, {3}, {4, 3}, x, row},       {{3}, {4, 3}, {4, 3}, row, x},
      {{4, 3}, {4, 1}, {4, 3}, x, col},    {{4, 1}, {1, 3}, {4, 3}, col, row},
      {{4, 3}, {1}, {4, 3}, x, one},       {{1}, {4, 3}, {4, 3}, one, x},
      {{2, 2, 3}, {2, 1, 1}, {2, 2, 3}, x, {5, -32768}},
  };
  for (const Case& c : cases) {
    const Result ref = run_mul(kMulS16Entry, p, c.a_dims, c.b_dims, c.out_dims, c.a, c.b);
    ASSERT_EQ(ref.check, Status::kOk);
    for (const KernelEntry* entry : kMulVariants) {
      const Result variant = run_mul(*entry, p, c.a_dims, c.b_dims, c.out_dims, c.a, c.b);
      ASSERT_EQ(variant.check, Status::kOk);
      EXPECT_EQ(variant.out, ref.out);
    }
  }
  // What the reference refuses: a zero point, a shift past 30, a range past int16.
  for (const KernelEntry* entry : kMulVariants) {
    QuantMulParams bad = p;
    bad.input1_zero_point = 1;
    EXPECT_EQ(run_mul(*entry, bad, {4, 3}, {3}, {4, 3}, x, row).check, Status::kBadParams);
    bad = p;
    bad.output_shift = 31;
    EXPECT_EQ(run_mul(*entry, bad, {4, 3}, {3}, {4, 3}, x, row).check, Status::kBadParams);
    bad = p;
    bad.act_max = 32768;
    EXPECT_EQ(run_mul(*entry, bad, {4, 3}, {3}, {4, 3}, x, row).check, Status::kBadParams);
  }
}

struct MeanResult {
  Status check;
  std::vector<int16_t> out;
};

MeanResult run_mean(const KernelEntry& entry, const MeanS16Params& p, const std::vector<uint32_t>& dims,
                    const std::vector<int16_t>& x) {
  uint32_t kept = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if ((p.axes_mask >> i & 1u) == 0) kept *= dims[i];
  }
  testing::TestOp op;
  const uint32_t tx = op.add_input(DType::kInt16, dims);
  const uint32_t ty = op.add_output(DType::kInt16, {kept});
  op.set_params(p);
  op.set_data(tx, x);
  MeanResult r;
  r.check = op.check(entry);
  if (r.check == Status::kOk) {
    op.run(entry);
    r.out = op.data<int16_t>(ty);
  }
  return r;
}

TEST(MeanS16Variants, SingleRunMeansMatchTheReference) {
  // Global average pools of [1,3,3,1280] and [1,7,7,64] (mean_multiplier's form), the
  // innermost axis, the innermost two, everything; zero points and full-scale inputs.
  struct Case {
    std::vector<uint32_t> dims;
    uint32_t mask;
  };
  const Case cases[] = {{{1, 3, 3, 1280}, 0x6}, {{1, 7, 7, 64}, 0x6}, {{1, 5, 5, 13}, 0x6},
                        {{1, 4, 4, 3}, 0x6},    {{1, 4, 49}, 0x4},     {{3, 5, 7}, 0x6},
                        {{2, 3, 5}, 0x7},       {{7}, 0x1}};
  for (const Case& c : cases) {
    const size_t n = testing::product(c.dims);
    std::vector<int16_t> x(n);
    for (size_t i = 0; i < n; ++i) x[i] = static_cast<int16_t>((i * 7919u) % 65536u - 32768);
    for (size_t i = 0; i < n; i += 5) x[i] = -32768;
    for (const MeanS16Params& p : {MeanS16Params{c.mask, 0, 0, 1908874354, -3},
                                   MeanS16Params{c.mask, -32768, 1234, 1431655765, -1},
                                   MeanS16Params{c.mask, 77, -5, (1 << 30) | 0x8000, -1},
                                   MeanS16Params{c.mask, 0, 0, INT32_MIN, 2},
                                   MeanS16Params{c.mask, 0, 0, 1 << 30, 0}}) {
      const MeanResult ref = run_mean(kMeanS16Entry, p, c.dims, x);
      ASSERT_EQ(ref.check, Status::kOk);
      for (const KernelEntry* entry : kMeanVariants) {
        const MeanResult variant = run_mean(*entry, p, c.dims, x);
        ASSERT_EQ(variant.check, Status::kOk) << c.mask;
        EXPECT_EQ(variant.out, ref.out) << c.mask << " " << p.multiplier;
      }
    }
  }
}

TEST(MeanS16Variants, RefuseWhatIsNotOneRunPerOutput) {
  // [2,3,4,5] over N and W (axes 0, 2): kept H, C and reduced N, W each interleave.
  const std::vector<uint32_t> dims = {2, 3, 4, 5};
  const std::vector<int16_t> x(120, 3);
  const MeanS16Params p{0x5, 0, 0, 1 << 30, -2};
  EXPECT_EQ(run_mean(kMeanS16Entry, p, dims, x).check, Status::kOk);
  TensorDesc desc{};
  desc.rank = 4;
  for (uint32_t& d : desc.dims) d = 1;
  for (size_t i = 0; i < dims.size(); ++i) desc.dims[i] = dims[i];
  EXPECT_FALSE(mean_s16_single_runs(desc, p.axes_mask));
  // A batch of two global average pools: the outputs are two runs (batch, channels).
  EXPECT_FALSE(mean_s16_single_runs(desc, 0x6));
  desc.dims[0] = 1;
  EXPECT_TRUE(mean_s16_single_runs(desc, 0x6));
  for (const KernelEntry* entry : kMeanVariants) {
    EXPECT_EQ(run_mean(*entry, p, dims, x).check, Status::kBadParams);
    // Nothing reduced: no run to sum.
    EXPECT_EQ(run_mean(*entry, MeanS16Params{0, 0, 0, 1 << 30, -1}, dims, x).check, Status::kBadParams);
  }
}

}  // namespace mul_mean_s16_variants_test
}  // namespace mote
