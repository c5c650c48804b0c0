#include "elementwise/elementwise.h"

#include <gtest/gtest.h>
#include <math.h>

#include <functional>
#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace elementwise_test {

using testing::TestOp;

constexpr BinaryParams kNoAct{-INFINITY, INFINITY};

struct BinaryKernel {
  const char* name;
  const KernelEntry* entry;
  std::function<double(double, double)> op;
};

const std::vector<BinaryKernel>& binary_kernels() {
  static const std::vector<BinaryKernel> kernels = {
      {"add", &kAddF32Entry, [](double a, double b) { return a + b; }},
      {"sub", &kSubF32Entry, [](double a, double b) { return a - b; }},
      {"mul", &kMulF32Entry, [](double a, double b) { return a * b; }},
      {"div", &kDivF32Entry, [](double a, double b) { return a / b; }},
  };
  return kernels;
}

// numpy broadcasting from its definition: each output index maps to an input index by
// dropping the leading axes the input lacks and using 0 where the input's dim is 1.
size_t broadcast_index(const std::vector<size_t>& out_idx, const std::vector<uint32_t>& dims) {
  const auto strides = testing::strides_of(dims);
  const size_t lead = out_idx.size() - dims.size();
  size_t flat = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != 1) flat += out_idx[lead + i] * strides[i];
  }
  return flat;
}

void run_against_reference(const std::vector<uint32_t>& a_dims,
                           const std::vector<uint32_t>& b_dims,
                           const std::vector<uint32_t>& out_dims, BinaryParams params,
                           uint32_t seed) {
  const auto a = testing::random_floats(testing::product(a_dims), seed);
  // b away from zero so div stays well conditioned.
  auto b = testing::random_floats(testing::product(b_dims), seed + 1, 0.5f, 2.0f);
  for (size_t i = 0; i < b.size(); i += 2) b[i] = -b[i];
  for (const BinaryKernel& k : binary_kernels()) {
    SCOPED_TRACE(k.name);
    TestOp op;
    const uint32_t ta = op.add_input(DType::kFloat32, a_dims);
    const uint32_t tb = op.add_input(DType::kFloat32, b_dims);
    const uint32_t tout = op.add_output(DType::kFloat32, out_dims);
    op.set_params(params);
    op.set_data(ta, a);
    op.set_data(tb, b);
    ASSERT_EQ(op.check(*k.entry), Status::kOk);
    op.run(*k.entry);
    std::vector<double> expected(testing::product(out_dims));
    for (size_t flat = 0; flat < expected.size(); ++flat) {
      const auto idx = testing::unflatten(flat, out_dims);
      expected[flat] = testing::clamp_ref(
          k.op(a[broadcast_index(idx, a_dims)], b[broadcast_index(idx, b_dims)]),
          params.act_min, params.act_max);
    }
    testing::expect_all_near(op.data<float>(tout), expected);
  }
}

TEST(BinaryF32, HandComputed) {
  const std::vector<std::vector<float>> expected = {
      {11, 22, 13, 24}, {-9, -18, -7, -16}, {10, 40, 30, 80}, {0.1f, 0.1f, 0.3f, 0.2f}};
  for (size_t i = 0; i < binary_kernels().size(); ++i) {
    const BinaryKernel& k = binary_kernels()[i];
    SCOPED_TRACE(k.name);
    TestOp op;
    const uint32_t a = op.add_input(DType::kFloat32, {2, 2});
    const uint32_t b = op.add_input(DType::kFloat32, {2});  // broadcast along rows
    const uint32_t out = op.add_output(DType::kFloat32, {2, 2});
    op.set_params(kNoAct);
    op.set_data(a, std::vector<float>{1, 2, 3, 4});
    op.set_data(b, std::vector<float>{10, 20});
    ASSERT_EQ(op.check(*k.entry), Status::kOk);
    op.run(*k.entry);
    const std::vector<float> got = op.data<float>(out);
    for (size_t j = 0; j < 4; ++j) EXPECT_FLOAT_EQ(got[j], expected[i][j]) << j;
  }
}

TEST(BinaryF32, FusedActivationClamps) {
  TestOp op;
  const uint32_t a = op.add_input(DType::kFloat32, {4});
  const uint32_t b = op.add_input(DType::kFloat32, {});
  const uint32_t out = op.add_output(DType::kFloat32, {4});
  op.set_params(BinaryParams{0.0f, 6.0f});
  op.set_data(a, std::vector<float>{-3, 1, 5, 9});
  op.set_data(b, std::vector<float>{1});
  ASSERT_EQ(op.check(kAddF32Entry), Status::kOk);
  op.run(kAddF32Entry);
  EXPECT_EQ(op.data<float>(out), (std::vector<float>{0, 2, 6, 6}));
}

TEST(BinaryF32, MatchesReferenceSameShape) {
  run_against_reference({3, 5, 7}, {3, 5, 7}, {3, 5, 7}, kNoAct, 400);
}

TEST(BinaryF32, MatchesReferenceBothSidesBroadcast) {
  run_against_reference({2, 1, 3}, {4, 1}, {2, 4, 3}, kNoAct, 410);
  run_against_reference({4, 1}, {2, 1, 3}, {2, 4, 3}, kNoAct, 415);
}

TEST(BinaryF32, MatchesReferenceScalars) {
  run_against_reference({}, {3, 2}, {3, 2}, kNoAct, 420);
  run_against_reference({5, 1, 3}, {}, {5, 1, 3}, kNoAct, 425);
  run_against_reference({}, {}, {}, kNoAct, 428);
}

TEST(BinaryF32, MatchesReferenceRank6Clamped) {
  run_against_reference({2, 1, 3, 1, 2, 4}, {1, 3, 1, 3, 2, 1}, {2, 3, 3, 3, 2, 4},
                        {-0.75f, 1.5f}, 430);
}

TEST(BinaryF32, MatchesReferenceChannelBias) {
  // The common NHWC case: per-channel vector broadcast over an image.
  run_against_reference({2, 3, 4, 5}, {5}, {2, 3, 4, 5}, kNoAct, 440);
}

TEST(BinaryF32, RunsInPlace) {
  TestOp op;
  const uint32_t a = op.add_input(DType::kFloat32, {2, 3});
  const uint32_t b = op.add_input(DType::kFloat32, {3});
  op.add_output_tensor(a);
  op.set_params(kNoAct);
  op.set_data(a, std::vector<float>{1, 2, 3, 4, 5, 6});
  op.set_data(b, std::vector<float>{2, 2, 0.5f});
  ASSERT_EQ(op.check(kMulF32Entry), Status::kOk);
  op.run(kMulF32Entry);
  EXPECT_EQ(op.data<float>(a), (std::vector<float>{2, 4, 1.5f, 8, 10, 3}));
}

TEST(BinaryF32, SameShapeAddInPlaceIsExact) {
  // Seven values: one step of four sums and three single ones, the output over a.
  TestOp op;
  const uint32_t a = op.add_input(DType::kFloat32, {7});
  const uint32_t b = op.add_input(DType::kFloat32, {7});
  op.add_output_tensor(a);
  op.set_params(kNoAct);
  const std::vector<float> x{1.5f, -2.25f, 3e-8f, 1e30f, -0.0f, 7.0f, 0.1f};
  const std::vector<float> y{0.25f, 2.25f, 1.0f, -1e30f, 0.0f, -8.5f, 0.2f};
  op.set_data(a, x);
  op.set_data(b, y);
  ASSERT_EQ(op.check(kAddF32Entry), Status::kOk);
  op.run(kAddF32Entry);
  const std::vector<float> sum = op.data<float>(a);
  ASSERT_EQ(sum.size(), 7u);
  for (size_t i = 0; i < 7; ++i) EXPECT_EQ(sum[i], x[i] + y[i]) << i;
}

TensorDesc desc(const std::vector<uint32_t>& dims) {
  TensorDesc d{};
  d.dtype = static_cast<uint8_t>(DType::kFloat32);
  d.rank = static_cast<uint8_t>(dims.size());
  for (uint32_t i = 0; i < kMaxRank; ++i) d.dims[i] = i < dims.size() ? dims[i] : 1;
  return d;
}

void expect_shape(const BroadcastShape& shape, const int32_t (&dims)[kMaxRank], const int32_t (&a_strides)[kMaxRank],
                  const int32_t (&b_strides)[kMaxRank]) {
  for (uint32_t i = 0; i < kMaxRank; ++i) {
    EXPECT_EQ(shape.out_dims[i], dims[i]) << i;
    EXPECT_EQ(shape.a_strides[i], a_strides[i]) << i;
    EXPECT_EQ(shape.b_strides[i], b_strides[i]) << i;
  }
}

TEST(MakeBroadcastShape, RightAlignedWithZeroStrides) {
  BroadcastShape shape;
  ASSERT_TRUE(make_broadcast_shape(desc({2, 1, 3}), desc({4, 1}), desc({2, 4, 3}), &shape));
  const int32_t dims[kMaxRank] = {1, 1, 1, 2, 4, 3};
  const int32_t a_strides[kMaxRank] = {0, 0, 0, 3, 0, 1};
  const int32_t b_strides[kMaxRank] = {0, 0, 0, 0, 1, 0};
  expect_shape(shape, dims, a_strides, b_strides);
}

TEST(MakeBroadcastShape, MergesDimsBothInputsWalkAlike) {
  BroadcastShape shape;
  // Same shape: one row of every element.
  ASSERT_TRUE(make_broadcast_shape(desc({2, 3, 4}), desc({2, 3, 4}), desc({2, 3, 4}), &shape));
  EXPECT_EQ(shape.out_dims[kMaxRank - 1], 24);
  EXPECT_EQ(shape.a_strides[kMaxRank - 1], 1);
  EXPECT_EQ(shape.b_strides[kMaxRank - 1], 1);
  for (uint32_t i = 0; i + 1 < kMaxRank; ++i) EXPECT_EQ(shape.out_dims[i], 1) << i;
  // A row vector over a [2, 3, 4] tensor: the two outer dims merge (b broadcasts along
  // both), the innermost stays; a dim of 1 in the middle is dropped.
  ASSERT_TRUE(make_broadcast_shape(desc({2, 3, 1, 4}), desc({4}), desc({2, 3, 1, 4}), &shape));
  const int32_t dims[kMaxRank] = {1, 1, 1, 1, 6, 4};
  const int32_t a_strides[kMaxRank] = {0, 0, 0, 0, 4, 1};
  const int32_t b_strides[kMaxRank] = {0, 0, 0, 0, 0, 1};
  expect_shape(shape, dims, a_strides, b_strides);
  // A scalar with a scalar: one element.
  ASSERT_TRUE(make_broadcast_shape(desc({1}), desc({1, 1}), desc({1, 1}), &shape));
  for (uint32_t i = 0; i < kMaxRank; ++i) EXPECT_EQ(shape.out_dims[i], 1) << i;
}

TEST(MakeBroadcastShape, RefusesIncompatibleShapes) {
  BroadcastShape shape;
  EXPECT_FALSE(make_broadcast_shape(desc({2, 3}), desc({4}), desc({2, 4}), &shape));
  EXPECT_FALSE(make_broadcast_shape(desc({2, 3}), desc({3}), desc({2, 4}), &shape));
  EXPECT_FALSE(make_broadcast_shape(desc({2, 3}), desc({3}), desc({1, 2, 3}), &shape));
  EXPECT_FALSE(make_broadcast_shape(desc({2, 3}), desc({3}), desc({3}), &shape));
  EXPECT_FALSE(make_broadcast_shape(desc({1}), desc({1}), desc({2}), &shape));
  EXPECT_FALSE(make_broadcast_shape(desc({0}), desc({3}), desc({3}), &shape));
  EXPECT_TRUE(make_broadcast_shape(desc({0}), desc({1}), desc({0}), &shape));
}

TEST(MakeBroadcastShape, RefusesShapesWhoseIndexMathOverflows) {
  BroadcastShape shape;
  // Zero elements, but a dim product past int32.
  EXPECT_FALSE(make_broadcast_shape(desc({0, 65536, 65536}), desc({1}), desc({0, 65536, 65536}),
                                    &shape));
}

class BinaryCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    a_ = op_.add_input(DType::kFloat32, {2, 1, 3});
    b_ = op_.add_input(DType::kFloat32, {4, 1});
    out_ = op_.add_output(DType::kFloat32, {2, 4, 3});
    op_.set_params(kNoAct);
    for (const BinaryKernel& k : binary_kernels()) {
      ASSERT_EQ(op_.check(*k.entry), Status::kOk) << k.name;
    }
  }
  Status check() { return op_.check(kAddF32Entry); }
  TestOp op_;
  uint32_t a_, b_, out_;
};

TEST_F(BinaryCheck, ShapesMustBroadcastToOutput) {
  op_.set_dims(b_, {5, 1});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(b_, {4, 1});
  op_.set_dims(out_, {2, 4, 1});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(out_, {1, 2, 4, 3});
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(BinaryCheck, Dtypes) {
  op_.desc(b_).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(check(), Status::kBadParams);
  op_.desc(b_).dtype = static_cast<uint8_t>(DType::kFloat32);
  op_.desc(out_).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(BinaryCheck, ParamsAndIo) {
  op_.params<BinaryParams>().act_max = NAN;
  EXPECT_EQ(check(), Status::kBadParams);
  op_.params<BinaryParams>().act_max = INFINITY;
  op_.set_params_bytes(0);
  EXPECT_EQ(check(), Status::kBadParams);

  TestOp op;
  op.add_input(DType::kFloat32, {3});
  op.add_output(DType::kFloat32, {3});
  op.set_params(kNoAct);
  EXPECT_EQ(op.check(kSubF32Entry), Status::kBadOp);
  op.add_missing_input();
  EXPECT_EQ(op.check(kSubF32Entry), Status::kBadOp);
}

}  // namespace elementwise_test
}  // namespace mote
