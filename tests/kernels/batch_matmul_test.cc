#include "batch_matmul/batch_matmul.h"

#include <gtest/gtest.h>
#include <math.h>

#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace batch_matmul_test {

using testing::TestOp;

struct MatMulOp {
  TestOp op;
  uint32_t a, b, out;
};

void build(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
           const std::vector<uint32_t>& out, BatchMatMulParams params, MatMulOp* m) {
  m->a = m->op.add_input(DType::kFloat32, a);
  m->b = m->op.add_input(DType::kFloat32, b);
  m->out = m->op.add_output(DType::kFloat32, out);
  m->op.set_params(params);
}

// numpy.matmul from its definition: for each output index, the batch coordinates are
// mapped into A and B right-aligned, with coordinate 0 where the operand's dim is 1.
std::vector<double> reference(const std::vector<uint32_t>& a_dims,
                              const std::vector<uint32_t>& b_dims,
                              const std::vector<uint32_t>& out_dims, const std::vector<float>& a,
                              const std::vector<float>& b, BatchMatMulParams p) {
  const size_t rank = out_dims.size();
  const size_t n = out_dims[rank - 1], k = a_dims.back();
  const auto a_strides = testing::strides_of(a_dims);
  const auto b_strides = testing::strides_of(b_dims);
  std::vector<double> out(testing::product(out_dims));
  for (size_t flat = 0; flat < out.size(); ++flat) {
    const auto idx = testing::unflatten(flat, out_dims);
    size_t a_base = 0, b_base = 0;
    // Output batch axis i is axis i - (rank - operand rank) of an operand, if that exists.
    for (size_t i = 0; i + 2 < rank; ++i) {
      if (i + a_dims.size() >= rank) {
        const size_t ai = i + a_dims.size() - rank;
        if (a_dims[ai] != 1) a_base += idx[i] * a_strides[ai];
      }
      if (i + b_dims.size() >= rank) {
        const size_t bi = i + b_dims.size() - rank;
        if (b_dims[bi] != 1) b_base += idx[i] * b_strides[bi];
      }
    }
    double acc = 0.0;
    for (size_t j = 0; j < k; ++j) {
      acc += double{a[a_base + idx[rank - 2] * k + j]} * b[b_base + j * n + idx[rank - 1]];
    }
    out[flat] = testing::clamp_ref(acc, p.act_min, p.act_max);
  }
  return out;
}

void run_against_reference(const std::vector<uint32_t>& a_dims,
                           const std::vector<uint32_t>& b_dims,
                           const std::vector<uint32_t>& out_dims, BatchMatMulParams p,
                           uint32_t seed) {
  MatMulOp mm;
  build(a_dims, b_dims, out_dims, p, &mm);
  const auto a = testing::random_floats(testing::product(a_dims), seed);
  const auto b = testing::random_floats(testing::product(b_dims), seed + 1);
  mm.op.set_data(mm.a, a);
  mm.op.set_data(mm.b, b);
  ASSERT_EQ(mm.op.check(kBatchMatMulF32Entry), Status::kOk);
  mm.op.run(kBatchMatMulF32Entry);
  testing::expect_all_near(mm.op.data<float>(mm.out),
                           reference(a_dims, b_dims, out_dims, a, b, p));
}

constexpr BatchMatMulParams kNoAct{-INFINITY, INFINITY};

TEST(BatchMatMulF32, HandComputed) {
  // Two batches of [1 2; 3 4] times a shared B = [5 6; 7 8] and, in batch 1, the identity.
  MatMulOp mm;
  build({2, 2, 2}, {2, 2, 2}, {2, 2, 2}, kNoAct, &mm);
  mm.op.set_data(mm.a, std::vector<float>{1, 2, 3, 4, 1, 2, 3, 4});
  mm.op.set_data(mm.b, std::vector<float>{5, 6, 7, 8, 1, 0, 0, 1});
  ASSERT_EQ(mm.op.check(kBatchMatMulF32Entry), Status::kOk);
  mm.op.run(kBatchMatMulF32Entry);
  EXPECT_EQ(mm.op.data<float>(mm.out), (std::vector<float>{19, 22, 43, 50, 1, 2, 3, 4}));
}

TEST(BatchMatMulF32, MatchesReferenceBroadcastBothSides) {
  run_against_reference({2, 1, 3, 4}, {5, 4, 2}, {2, 5, 3, 2}, kNoAct, 300);
}

TEST(BatchMatMulF32, MatchesReferenceRank2TimesBatched) {
  run_against_reference({3, 7}, {2, 7, 5}, {2, 3, 5}, kNoAct, 310);
}

TEST(BatchMatMulF32, MatchesReferencePlainMatrixClamped) {
  run_against_reference({9, 13}, {13, 6}, {9, 6}, {-0.5f, 0.5f}, 320);
}

TEST(BatchMatMulF32, MatchesReferenceRank6) {
  run_against_reference({2, 1, 3, 1, 4, 3}, {1, 2, 1, 2, 3, 5}, {2, 2, 3, 2, 4, 5}, kNoAct, 330);
}

class BatchMatMulCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    build({2, 1, 3, 4}, {5, 4, 2}, {2, 5, 3, 2}, kNoAct, &mm_);
    ASSERT_EQ(check(), Status::kOk);
  }
  Status check() { return mm_.op.check(kBatchMatMulF32Entry); }
  MatMulOp mm_;
};

TEST_F(BatchMatMulCheck, InnerDimsMustAgree) {
  mm_.op.set_dims(mm_.b, {5, 3, 2});
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(BatchMatMulCheck, OutputMatrixDims) {
  mm_.op.set_dims(mm_.out, {2, 5, 3, 3});
  EXPECT_EQ(check(), Status::kBadParams);
  mm_.op.set_dims(mm_.out, {2, 5, 4, 2});
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(BatchMatMulCheck, BatchDimsMustBroadcast) {
  mm_.op.set_dims(mm_.out, {2, 4, 3, 2});
  EXPECT_EQ(check(), Status::kBadParams);
  mm_.op.set_dims(mm_.out, {2, 5, 3, 2});
  mm_.op.set_dims(mm_.a, {2, 3, 3, 4});  // 3 vs 5
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(BatchMatMulCheck, Ranks) {
  mm_.op.set_dims(mm_.out, {10, 3, 2});
  EXPECT_EQ(check(), Status::kBadParams);
  mm_.op.set_dims(mm_.out, {2, 5, 3, 2});
  mm_.op.set_dims(mm_.b, {4});
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(BatchMatMulCheck, DtypeParamsIo) {
  mm_.op.desc(mm_.a).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(check(), Status::kBadParams);
  mm_.op.desc(mm_.a).dtype = static_cast<uint8_t>(DType::kFloat32);
  mm_.op.params<BatchMatMulParams>().act_min = 2.0f;
  mm_.op.params<BatchMatMulParams>().act_max = 1.0f;
  EXPECT_EQ(check(), Status::kBadParams);
  mm_.op.params<BatchMatMulParams>().act_min = 0.0f;
  mm_.op.set_params_bytes(4);
  EXPECT_EQ(check(), Status::kBadParams);

  TestOp op;
  op.add_input(DType::kFloat32, {2, 2});
  op.add_missing_input();
  op.add_output(DType::kFloat32, {2, 2});
  op.set_params(kNoAct);
  EXPECT_EQ(op.check(kBatchMatMulF32Entry), Status::kBadOp);
}

}  // namespace batch_matmul_test
}  // namespace mote
