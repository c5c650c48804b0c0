#include "activation/activation.h"

#include <gtest/gtest.h>
#include <math.h>

#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace activation_test {

using testing::TestOp;

struct UnaryOp {
  TestOp op;
  uint32_t in, out;
};

void build(const std::vector<uint32_t>& dims, UnaryOp* u) {
  u->in = u->op.add_input(DType::kFloat32, dims);
  u->out = u->op.add_output(DType::kFloat32, dims);
}

std::vector<float> run_unary(const KernelEntry& kernel, const std::vector<float>& x) {
  UnaryOp u;
  build({static_cast<uint32_t>(x.size())}, &u);
  u.op.set_data(u.in, x);
  EXPECT_EQ(u.op.check(kernel), Status::kOk);
  u.op.run(kernel);
  return u.op.data<float>(u.out);
}

TEST(ClampF32, HandComputedRelu6) {
  UnaryOp u;
  build({2, 3}, &u);
  u.op.set_params(ClampParams{0.0f, 6.0f});
  u.op.set_data(u.in, std::vector<float>{-1, 0, 2.5f, 6, 7, -INFINITY});
  ASSERT_EQ(u.op.check(kClampF32Entry), Status::kOk);
  u.op.run(kClampF32Entry);
  EXPECT_EQ(u.op.data<float>(u.out), (std::vector<float>{0, 0, 2.5f, 6, 6, 0}));
}

TEST(ClampF32, MatchesReferenceRank4InPlace) {
  UnaryOp u;
  u.in = u.op.add_input(DType::kFloat32, {2, 3, 4, 5});
  u.op.add_output_tensor(u.in);
  u.op.set_params(ClampParams{-0.3f, 0.6f});
  const auto x = testing::random_floats(120, 500);
  u.op.set_data(u.in, x);
  ASSERT_EQ(u.op.check(kClampF32Entry), Status::kOk);
  u.op.run(kClampF32Entry);
  std::vector<double> expected;
  for (float v : x) expected.push_back(std::min(std::max(double{v}, double{-0.3f}), double{0.6f}));
  testing::expect_all_near(u.op.data<float>(u.in), expected, 0.0);
}

TEST(SigmoidF32, HandComputed) {
  const auto y = run_unary(kSigmoidF32Entry, {0.0f, 1.0f, -2.0f});
  EXPECT_FLOAT_EQ(y[0], 0.5f);
  EXPECT_NEAR(y[1], 0.7310585786, 1e-7);
  EXPECT_NEAR(y[2], 0.1192029220, 1e-7);
}

TEST(SigmoidF32, SaturatesWithoutOverflowForLargeMagnitudes) {
  const auto y = run_unary(kSigmoidF32Entry, {100.0f, -100.0f, 1e30f, -1e30f, INFINITY, -INFINITY,
                                              -88.0f, 89.0f, -89.0f});
  EXPECT_EQ(y[0], 1.0f);
  EXPECT_GE(y[1], 0.0f);  // e^-100 is a float subnormal: tiny, never NaN or negative
  EXPECT_LT(y[1], 1e-40f);
  EXPECT_EQ(y[2], 1.0f);
  EXPECT_EQ(y[3], 0.0f);
  EXPECT_EQ(y[4], 1.0f);
  EXPECT_EQ(y[5], 0.0f);
  for (float v : y) EXPECT_FALSE(isnan(v));
  EXPECT_NEAR(y[6], exp(-88.0), 1e-40);
  EXPECT_EQ(y[7], 1.0f);
  EXPECT_GE(y[8], 0.0f);
}

TEST(SigmoidF32, MatchesReference) {
  const auto x = testing::random_floats(257, 510, -12.0f, 12.0f);
  const auto y = run_unary(kSigmoidF32Entry, x);
  std::vector<double> expected;
  for (float v : x) expected.push_back(1.0 / (1.0 + exp(-double{v})));
  testing::expect_all_near(y, expected, 1e-6);
}

TEST(TanhF32, HandComputedAndSaturation) {
  const auto y = run_unary(kTanhF32Entry, {0.0f, 0.5f, -1.0f, 50.0f, -50.0f});
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_NEAR(y[1], 0.4621171573, 1e-7);
  EXPECT_NEAR(y[2], -0.7615941560, 1e-7);
  EXPECT_EQ(y[3], 1.0f);
  EXPECT_EQ(y[4], -1.0f);
}

TEST(TanhF32, MatchesReference) {
  const auto x = testing::random_floats(255, 520, -6.0f, 6.0f);
  const auto y = run_unary(kTanhF32Entry, x);
  std::vector<double> expected;
  for (float v : x) expected.push_back(tanh(double{v}));
  testing::expect_all_near(y, expected, 1e-6);
}

TEST(UnaryF32, ScalarTensor) {
  UnaryOp u;
  build({}, &u);
  u.op.set_data(u.in, std::vector<float>{0.0f});
  ASSERT_EQ(u.op.check(kSigmoidF32Entry), Status::kOk);
  u.op.run(kSigmoidF32Entry);
  EXPECT_EQ(u.op.data<float>(u.out), std::vector<float>{0.5f});
}

TEST(ActivationCheck, ShapesAndDtypes) {
  for (const KernelEntry* k : {&kClampF32Entry, &kSigmoidF32Entry, &kTanhF32Entry}) {
    UnaryOp u;
    build({2, 3}, &u);
    if (k == &kClampF32Entry) u.op.set_params(ClampParams{0.0f, 1.0f});
    ASSERT_EQ(u.op.check(*k), Status::kOk);
    u.op.set_dims(u.out, {3, 2});
    EXPECT_EQ(u.op.check(*k), Status::kBadParams);
    u.op.set_dims(u.out, {2, 3, 1});
    EXPECT_EQ(u.op.check(*k), Status::kBadParams);
    u.op.set_dims(u.out, {2, 3});
    u.op.desc(u.in).dtype = static_cast<uint8_t>(DType::kInt8);
    EXPECT_EQ(u.op.check(*k), Status::kBadParams);
  }
}

TEST(ActivationCheck, Params) {
  UnaryOp clamp;
  build({4}, &clamp);
  clamp.op.set_params(ClampParams{1.0f, 0.0f});
  EXPECT_EQ(clamp.op.check(kClampF32Entry), Status::kBadParams);
  clamp.op.params<ClampParams>() = ClampParams{NAN, 1.0f};
  EXPECT_EQ(clamp.op.check(kClampF32Entry), Status::kBadParams);
  clamp.op.params<ClampParams>() = ClampParams{0.0f, INFINITY};
  EXPECT_EQ(clamp.op.check(kClampF32Entry), Status::kOk);
  clamp.op.set_params_bytes(4);
  EXPECT_EQ(clamp.op.check(kClampF32Entry), Status::kBadParams);

  UnaryOp sigmoid;
  build({4}, &sigmoid);
  sigmoid.op.set_params_bytes(4);
  EXPECT_EQ(sigmoid.op.check(kSigmoidF32Entry), Status::kBadParams);
  EXPECT_EQ(sigmoid.op.check(kTanhF32Entry), Status::kBadParams);
}

TEST(ActivationCheck, IoCounts) {
  TestOp op;
  const uint32_t x = op.add_input(DType::kFloat32, {4});
  op.add_input(DType::kFloat32, {4});
  op.add_output_tensor(x);
  EXPECT_EQ(op.check(kTanhF32Entry), Status::kBadOp);

  TestOp no_output;
  no_output.add_input(DType::kFloat32, {4});
  EXPECT_EQ(no_output.check(kSigmoidF32Entry), Status::kBadOp);
}

}  // namespace activation_test
}  // namespace mote
