// int16 sigmoid and tanh kernels (TFLite LOGISTIC / TANH on int16), exhaustively over every
// int16 input for the effective multipliers and shifts TFLite Micro's Prepare produces,
// against the transcription of TFLite's reference (sigmoid_lut_ref.h) and, loosely, the
// real functions; TFLite's table itself against 65536 * sigmoid(i / 24).
#include <gtest/gtest.h>
#include <math.h>

#include <vector>

#include "activation/activation.h"
#include "kernel_test_util.h"
#include "sigmoid_lut_ref.h"

namespace mote {
namespace activation_s16_test {

using testing::TestOp;

std::vector<int16_t> all_int16() {
  std::vector<int16_t> v;
  for (int32_t i = -32768; i <= 32767; ++i) v.push_back(static_cast<int16_t>(i));
  return v;
}

std::vector<int16_t> run(const KernelEntry& entry, const SigmoidTanhS16Params& p, const std::vector<int16_t>& x) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {static_cast<uint32_t>(x.size())});
  const uint32_t out = op.add_output(DType::kInt16, {static_cast<uint32_t>(x.size())});
  op.set_params(p);
  op.set_data(in, x);
  EXPECT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  return op.data<int16_t>(out);
}

// The kernel's parameters for an input scale: TFLite Micro's, with the power-of-two case
// in its effective form (3 << shift, 0).
SigmoidTanhS16Params params_for(float scale, bool sigmoid) {
  int32_t m = 0, s = 0;
  testing::ref_int16_activation_params(scale, sigmoid, &m, &s);
  return m == 0 ? SigmoidTanhS16Params{3 << s, 0} : SigmoidTanhS16Params{m, s};
}

const float kScales[] = {1.0f / 4096, 1.0f / 2048, 1.0f / 1024, 1.0f / 32768, 0.001f, 1.0f / 3000, 1e-5f, 1e-9f, 2.5f};

TEST(RefSigmoidTable, IsWithinOneOfTheRoundedFunction) {
  for (int i = 0; i < 256; ++i) {
    const double exact = 65536.0 / (1.0 + exp(-i / 24.0));
    const double rounded = std::fmin(std::round(exact), 65535.0);
    EXPECT_GE(testing::kRefSigmoidTable[i], rounded) << i;
    EXPECT_LE(testing::kRefSigmoidTable[i], rounded + 1) << i;
  }
}

TEST(SigmoidS16, ExhaustiveAgainstTfliteAndRealFunction) {
  const auto x = all_int16();
  for (float scale : kScales) {
    int32_t m = 0, s = 0;
    testing::ref_int16_activation_params(scale, true, &m, &s);
    const std::vector<int16_t> y = run(kSigmoidS16Entry, params_for(scale, true), x);
    for (size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(y[i], testing::ref_logistic_s16(m, s, x[i])) << "scale " << scale << " x " << x[i];
      // Within 2^-13 of the real function where the input is inside the table's +-10.7.
      const double real = x[i] * static_cast<double>(scale);
      if (fabs(real) < 10.0) ASSERT_NEAR(y[i] / 32768.0, 1.0 / (1.0 + exp(-real)), 1.0 / 8192) << x[i];
    }
  }
}

TEST(TanhS16, ExhaustiveAgainstTfliteAndRealFunction) {
  const auto x = all_int16();
  for (float scale : kScales) {
    int32_t m = 0, s = 0;
    testing::ref_int16_activation_params(scale, false, &m, &s);
    const std::vector<int16_t> y = run(kTanhS16Entry, params_for(scale, false), x);
    for (size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(y[i], testing::ref_tanh_s16(m, s, x[i])) << "scale " << scale << " x " << x[i];
      const double real = x[i] * static_cast<double>(scale);
      if (fabs(real) < 5.0) ASSERT_NEAR(y[i] / 32768.0, tanh(real), 1.0 / 4096) << x[i];
    }
  }
}

TEST(SigmoidTanhS16, HandComputed) {
  const SigmoidTanhS16Params canonical{3, 0};  // input scale 2^-12
  EXPECT_EQ(run(kSigmoidS16Entry, canonical, {0, 32767, -32768}), (std::vector<int16_t>{16384, 32757, 11}));
  EXPECT_EQ(run(kTanhS16Entry, canonical, {0, 32767, -32768}), (std::vector<int16_t>{0, 32767, -32767}));
}

TEST(SigmoidTanhS16, InPlace) {
  TestOp op;
  const uint32_t t = op.add_input(DType::kInt16, {65536});
  op.add_output_tensor(t);
  const SigmoidTanhS16Params p = params_for(0.001f, false);
  op.set_params(p);
  const auto x = all_int16();
  op.set_data(t, x);
  ASSERT_EQ(op.check(kTanhS16Entry), Status::kOk);
  op.run(kTanhS16Entry);
  EXPECT_EQ(op.data<int16_t>(t), run(kTanhS16Entry, p, x));
}

TEST(SigmoidTanhS16Check, Rejections) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {4});
  const uint32_t out = op.add_output(DType::kInt16, {4});
  op.set_params(SigmoidTanhS16Params{24576, 3});
  ASSERT_EQ(op.check(kSigmoidS16Entry), Status::kOk);
  auto& p = op.params<SigmoidTanhS16Params>();
  p.input_multiplier = 0;
  EXPECT_EQ(op.check(kSigmoidS16Entry), Status::kBadParams);
  p.input_multiplier = 32768;
  EXPECT_EQ(op.check(kTanhS16Entry), Status::kBadParams);
  p.input_multiplier = 32767;
  p.input_left_shift = 32;
  EXPECT_EQ(op.check(kTanhS16Entry), Status::kBadParams);
  p.input_left_shift = -1;
  EXPECT_EQ(op.check(kSigmoidS16Entry), Status::kBadParams);
  p.input_left_shift = 31;
  ASSERT_EQ(op.check(kSigmoidS16Entry), Status::kOk);
  op.desc(out).dims[0] = 5;
  EXPECT_EQ(op.check(kSigmoidS16Entry), Status::kBadParams);
  op.desc(out).dims[0] = 4;
  op.desc(in).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(op.check(kTanhS16Entry), Status::kBadParams);
}

}  // namespace activation_s16_test
}  // namespace mote
