#include "softmax/softmax.h"

#include <gtest/gtest.h>
#include <math.h>

#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace softmax_test {

using testing::TestOp;

struct SoftmaxOp {
  TestOp op;
  uint32_t in, out;
};

void build(const std::vector<uint32_t>& dims, float beta, SoftmaxOp* s) {
  s->in = s->op.add_input(DType::kFloat32, dims);
  s->out = s->op.add_output(DType::kFloat32, dims);
  s->op.set_params(SoftmaxParams{beta});
}

// In long double, straight from the definition (no max subtraction needed at this
// precision for the magnitudes used).
std::vector<double> reference(const std::vector<float>& x, size_t depth, double beta) {
  std::vector<double> out(x.size());
  for (size_t row = 0; row < x.size() / depth; ++row) {
    long double sum = 0;
    for (size_t i = 0; i < depth; ++i) sum += expl(beta * x[row * depth + i]);
    for (size_t i = 0; i < depth; ++i) {
      out[row * depth + i] = static_cast<double>(expl(beta * x[row * depth + i]) / sum);
    }
  }
  return out;
}

std::vector<float> run(const std::vector<uint32_t>& dims, float beta, const std::vector<float>& x) {
  SoftmaxOp s;
  build(dims, beta, &s);
  s.op.set_data(s.in, x);
  EXPECT_EQ(s.op.check(kSoftmaxF32Entry), Status::kOk);
  s.op.run(kSoftmaxF32Entry);
  return s.op.data<float>(s.out);
}

TEST(SoftmaxF32, HandComputed) {
  const auto y = run({2, 3}, 1.0f, {1, 2, 3, 0, 0, 0});
  testing::expect_all_near(y, {0.09003057317, 0.24472847105, 0.66524095579, 1.0 / 3, 1.0 / 3,
                               1.0 / 3},
                           1e-6);
}

TEST(SoftmaxF32, LargeValuesAreStable) {
  // exp(1000) overflows float; the result must equal softmax(0, 1, 2).
  const auto y = run({1, 3}, 1.0f, {1000, 1001, 1002});
  testing::expect_all_near(y, {0.09003057317, 0.24472847105, 0.66524095579}, 1e-6);
  const auto z = run({1, 3}, 1.0f, {-1000, -1001, -1e30f});
  testing::expect_all_near(z, {0.73105857863, 0.26894142137, 0.0}, 1e-6);
}

TEST(SoftmaxF32, NegativeBetaIsStable) {
  const auto y = run({3}, -2.0f, {-500, -499, 10});
  // softmax(1000, 998, -20)
  testing::expect_all_near(y, {0.88079707798, 0.11920292202, 0.0}, 1e-6);
}

TEST(SoftmaxF32, MatchesReferenceRank3Beta) {
  const auto x = testing::random_floats(2 * 3 * 17, 600, -5.0f, 5.0f);
  testing::expect_all_near(run({2, 3, 17}, 0.7f, x), reference(x, 17, double{0.7f}));
}

TEST(SoftmaxF32, MatchesReferenceDepth1AndRank1) {
  const auto x = testing::random_floats(5, 610);
  testing::expect_all_near(run({5, 1}, 1.0f, x), std::vector<double>(5, 1.0));
  testing::expect_all_near(run({5}, 1.0f, x), reference(x, 5, 1.0));
}

TEST(SoftmaxF32, RunsInPlace) {
  TestOp op;
  const uint32_t x = op.add_input(DType::kFloat32, {2, 2});
  op.add_output_tensor(x);
  op.set_params(SoftmaxParams{1.0f});
  op.set_data(x, std::vector<float>{0, 0, 5, 5});
  ASSERT_EQ(op.check(kSoftmaxF32Entry), Status::kOk);
  op.run(kSoftmaxF32Entry);
  EXPECT_EQ(op.data<float>(x), (std::vector<float>{0.5f, 0.5f, 0.5f, 0.5f}));
}

TEST(SoftmaxCheck, ShapesDtypesParams) {
  SoftmaxOp s;
  build({2, 3}, 1.0f, &s);
  ASSERT_EQ(s.op.check(kSoftmaxF32Entry), Status::kOk);
  s.op.set_dims(s.out, {3, 2});
  EXPECT_EQ(s.op.check(kSoftmaxF32Entry), Status::kBadParams);
  s.op.set_dims(s.out, {2, 3});
  s.op.desc(s.out).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(s.op.check(kSoftmaxF32Entry), Status::kBadParams);
  s.op.desc(s.out).dtype = static_cast<uint8_t>(DType::kFloat32);
  for (float beta : {INFINITY, -INFINITY, NAN}) {
    s.op.params<SoftmaxParams>().beta = beta;
    EXPECT_EQ(s.op.check(kSoftmaxF32Entry), Status::kBadParams) << beta;
  }
  s.op.params<SoftmaxParams>().beta = 1.0f;
  s.op.set_params_bytes(0);
  EXPECT_EQ(s.op.check(kSoftmaxF32Entry), Status::kBadParams);

  SoftmaxOp scalar;
  build({}, 1.0f, &scalar);
  EXPECT_EQ(scalar.op.check(kSoftmaxF32Entry), Status::kBadParams);

  TestOp two_inputs;
  two_inputs.add_input(DType::kFloat32, {3});
  two_inputs.add_input(DType::kFloat32, {3});
  two_inputs.add_output(DType::kFloat32, {3});
  two_inputs.set_params(SoftmaxParams{1.0f});
  EXPECT_EQ(two_inputs.check(kSoftmaxF32Entry), Status::kBadOp);
}

}  // namespace softmax_test
}  // namespace mote
