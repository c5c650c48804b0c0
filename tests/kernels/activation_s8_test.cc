// int8 sigmoid (TFLite LOGISTIC) and tanh, exhaustively over every int8 input for many
// input quantizations, against the independent gemmlowp transcription and the real
// functions.
#include <gtest/gtest.h>
#include <math.h>

#include <vector>

#include "activation/activation.h"
#include "gemmlowp_ref.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"

namespace mote {
namespace activation_s8_test {

using testing::TestOp;

std::vector<int8_t> all_int8() {
  std::vector<int8_t> v;
  for (int i = -128; i <= 127; ++i) v.push_back(static_cast<int8_t>(i));
  return v;
}

std::vector<int8_t> run(const KernelEntry& entry, const SigmoidTanhS8Params& p,
                        const std::vector<int8_t>& x) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {static_cast<uint32_t>(x.size())});
  const uint32_t out = op.add_output(DType::kInt8, {static_cast<uint32_t>(x.size())});
  op.set_params(p);
  op.set_data(in, x);
  EXPECT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  return op.data<int8_t>(out);
}

SigmoidTanhS8Params params_for(float scale, int32_t zero_point) {
  SigmoidTanhS8Params p{};
  p.input_zero_point = zero_point;
  EXPECT_TRUE(sigmoid_tanh_s8_params(scale, &p.input_multiplier, &p.input_left_shift,
                                     &p.input_range_radius));
  return p;
}

struct Quant {
  float scale;
  int32_t zero_point;
};
const Quant kQuants[] = {{0.0625f, 0},   {0.1f, -128}, {0.1f, 127},   {0.02352941f, 5},
                         {0.5f, -20},    {0.003f, 0},  {0.0784f, -60}, {1.0f / 128, 0},
                         {0.25f, 100},   {2.0f, 0}};

TEST(SigmoidS8, ExhaustiveAgainstTranscriptionAndRealFunction) {
  const auto x = all_int8();
  for (const Quant& q : kQuants) {
    const SigmoidTanhS8Params p = params_for(q.scale, q.zero_point);
    const auto got = run(kSigmoidS8Entry, p, x);
    for (size_t i = 0; i < x.size(); ++i) {
      const int8_t expected = testing::gemmlowp_ref::sigmoid_s8(
          x[i], p.input_zero_point, p.input_range_radius, p.input_multiplier, p.input_left_shift);
      ASSERT_EQ(got[i], expected) << "scale " << q.scale << " zp " << q.zero_point << " x " << int{x[i]};
      const double real = 1 / (1 + exp(-q.scale * (x[i] - q.zero_point)));
      EXPECT_NEAR(got[i], std::min(127.0, real * 256 - 128), 1.0);
    }
  }
}

TEST(TanhS8, ExhaustiveAgainstTranscriptionAndRealFunction) {
  const auto x = all_int8();
  for (const Quant& q : kQuants) {
    const SigmoidTanhS8Params p = params_for(q.scale, q.zero_point);
    const auto got = run(kTanhS8Entry, p, x);
    for (size_t i = 0; i < x.size(); ++i) {
      const int8_t expected = testing::gemmlowp_ref::tanh_s8(
          x[i], p.input_zero_point, p.input_range_radius, p.input_multiplier, p.input_left_shift);
      ASSERT_EQ(got[i], expected) << "scale " << q.scale << " zp " << q.zero_point << " x " << int{x[i]};
      const double real = tanh(q.scale * (x[i] - q.zero_point));
      EXPECT_NEAR(got[i], std::max(-128.0, std::min(127.0, real * 128)), 1.0);
    }
  }
}

TEST(SigmoidTanhS8, HandComputed) {
  // Input 0 maps to exactly one half / zero; saturated ends beyond the radius.
  const SigmoidTanhS8Params p = params_for(0.0625f, 0);  // radius 120: |x| >= 120 saturates
  EXPECT_EQ(run(kSigmoidS8Entry, p, {0, 120, -120, 127, -128}),
            (std::vector<int8_t>{0, 127, -128, 127, -128}));
  EXPECT_EQ(run(kTanhS8Entry, p, {0, 120, -120}), (std::vector<int8_t>{0, 127, -128}));
}

TEST(SigmoidTanhS8, InPlace) {
  TestOp op;
  const uint32_t t = op.add_input(DType::kInt8, {256});
  op.add_output_tensor(t);
  const SigmoidTanhS8Params p = params_for(0.1f, 3);
  op.set_params(p);
  const auto x = all_int8();
  op.set_data(t, x);
  ASSERT_EQ(op.check(kTanhS8Entry), Status::kOk);
  op.run(kTanhS8Entry);
  EXPECT_EQ(op.data<int8_t>(t), run(kTanhS8Entry, p, x));
}

TEST(SigmoidTanhS8Check, Rejections) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {4});
  const uint32_t out = op.add_output(DType::kInt8, {4});
  op.set_params(params_for(0.1f, 0));
  ASSERT_EQ(op.check(kSigmoidS8Entry), Status::kOk);
  auto& p = op.params<SigmoidTanhS8Params>();
  p.input_left_shift = 31;
  EXPECT_EQ(op.check(kSigmoidS8Entry), Status::kBadParams);
  p.input_left_shift = 20;
  p.input_range_radius = -1;
  EXPECT_EQ(op.check(kTanhS8Entry), Status::kBadParams);
  p.input_range_radius = 100;
  p.input_zero_point = -129;
  EXPECT_EQ(op.check(kTanhS8Entry), Status::kBadParams);
  p.input_zero_point = 0;
  op.desc(out).dims[0] = 5;
  EXPECT_EQ(op.check(kSigmoidS8Entry), Status::kBadParams);
  op.desc(out).dims[0] = 4;
  op.desc(in).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(op.check(kSigmoidS8Entry), Status::kBadParams);
}

}  // namespace activation_s8_test
}  // namespace mote
