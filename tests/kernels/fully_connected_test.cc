#include "fully_connected/fully_connected.h"

#include <gtest/gtest.h>
#include <math.h>

#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace fully_connected_test {

using testing::TestOp;

struct FcOp {
  TestOp op;
  uint32_t in, weights, bias, out;
};

void build(const std::vector<uint32_t>& in_dims, uint32_t n, const std::vector<uint32_t>& out_dims,
           bool bias, FullyConnectedParams params, FcOp* f) {
  f->in = f->op.add_input(DType::kFloat32, in_dims);
  f->weights = f->op.add_input(DType::kFloat32, {n, in_dims.back()});
  f->bias = bias ? f->op.add_input(DType::kFloat32, {n}) : kNoTensor;
  f->out = f->op.add_output(DType::kFloat32, out_dims);
  f->op.set_params(params);
}

std::vector<double> reference(size_t batches, size_t k, size_t n, const std::vector<float>& in,
                              const std::vector<float>& w, const std::vector<float>* bias,
                              FullyConnectedParams p) {
  std::vector<double> out;
  for (size_t b = 0; b < batches; ++b)
    for (size_t j = 0; j < n; ++j) {
      double acc = bias ? (*bias)[j] : 0.0;
      for (size_t i = 0; i < k; ++i) acc += double{in[b * k + i]} * w[j * k + i];
      out.push_back(testing::clamp_ref(acc, p.act_min, p.act_max));
    }
  return out;
}

TEST(FullyConnectedF32, HandComputed) {
  FcOp f;
  build({1, 3}, 2, {1, 2}, true, {-INFINITY, INFINITY}, &f);
  f.op.set_data(f.in, std::vector<float>{1, 2, 3});
  f.op.set_data(f.weights, std::vector<float>{1, 0, -1, 0.5f, 0.5f, 0.5f});
  f.op.set_data(f.bias, std::vector<float>{10, -1});
  ASSERT_EQ(f.op.check(kFullyConnectedF32Entry), Status::kOk);
  f.op.run(kFullyConnectedF32Entry);
  EXPECT_EQ(f.op.data<float>(f.out), (std::vector<float>{8, 2}));
}

TEST(FullyConnectedF32, MatchesReferenceRank3InputBias) {
  // [2, 3, 5] is 6 rows of K = 5.
  FcOp f;
  const FullyConnectedParams p{-INFINITY, INFINITY};
  build({2, 3, 5}, 7, {6, 7}, true, p, &f);
  const auto in = testing::random_floats(30, 200);
  const auto w = testing::random_floats(35, 201);
  const auto bias = testing::random_floats(7, 202);
  f.op.set_data(f.in, in);
  f.op.set_data(f.weights, w);
  f.op.set_data(f.bias, bias);
  ASSERT_EQ(f.op.check(kFullyConnectedF32Entry), Status::kOk);
  f.op.run(kFullyConnectedF32Entry);
  testing::expect_all_near(f.op.data<float>(f.out), reference(6, 5, 7, in, w, &bias, p));
}

TEST(FullyConnectedF32, MatchesReferenceNoBiasClampedOutputShape) {
  FcOp f;
  const FullyConnectedParams p{-0.5f, 0.75f};
  build({3, 33}, 4, {3, 1, 4}, false, p, &f);  // any output shape with last dim N
  const auto in = testing::random_floats(99, 210);
  const auto w = testing::random_floats(132, 211);
  f.op.set_data(f.in, in);
  f.op.set_data(f.weights, w);
  ASSERT_EQ(f.op.check(kFullyConnectedF32Entry), Status::kOk);
  f.op.run(kFullyConnectedF32Entry);
  testing::expect_all_near(f.op.data<float>(f.out), reference(3, 33, 4, in, w, nullptr, p));
}

class FullyConnectedCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    build({2, 3, 5}, 7, {6, 7}, true, {-INFINITY, INFINITY}, &f_);
    ASSERT_EQ(check(), Status::kOk);
  }
  Status check() { return f_.op.check(kFullyConnectedF32Entry); }
  FcOp f_;
};

TEST_F(FullyConnectedCheck, InputFeaturesMustMatchWeights) {
  f_.op.set_dims(f_.weights, {7, 4});
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(FullyConnectedCheck, OutputShape) {
  f_.op.set_dims(f_.out, {6, 6});
  EXPECT_EQ(check(), Status::kBadParams);
  f_.op.set_dims(f_.out, {7, 6});  // right count, wrong last dim
  EXPECT_EQ(check(), Status::kBadParams);
  f_.op.set_dims(f_.out, {5, 7});
  EXPECT_EQ(check(), Status::kBadParams);
  f_.op.set_dims(f_.out, {2, 3, 7});
  EXPECT_EQ(check(), Status::kOk);
}

TEST_F(FullyConnectedCheck, WeightsRankAndBias) {
  f_.op.set_dims(f_.weights, {7, 5, 1});
  EXPECT_EQ(check(), Status::kBadParams);
  f_.op.set_dims(f_.weights, {7, 5});
  f_.op.set_dims(f_.bias, {6});
  EXPECT_EQ(check(), Status::kBadParams);
  f_.op.set_dims(f_.bias, {1, 7});
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(FullyConnectedCheck, DtypeParamsAndIo) {
  f_.op.desc(f_.weights).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(check(), Status::kBadParams);
  f_.op.desc(f_.weights).dtype = static_cast<uint8_t>(DType::kFloat32);
  f_.op.params<FullyConnectedParams>().act_min = NAN;
  EXPECT_EQ(check(), Status::kBadParams);
  f_.op.params<FullyConnectedParams>().act_min = 0.0f;
  f_.op.set_params_bytes(0);
  EXPECT_EQ(check(), Status::kBadParams);

  TestOp op;
  op.add_input(DType::kFloat32, {1, 3});
  op.add_output(DType::kFloat32, {1, 3});
  op.set_params(FullyConnectedParams{-INFINITY, INFINITY});
  EXPECT_EQ(op.check(kFullyConnectedF32Entry), Status::kBadOp);
}

}  // namespace fully_connected_test
}  // namespace mote
