#include "batch_matmul/batch_matmul.h"

#include <gtest/gtest.h>
#include <math.h>

#include <vector>

#include "kernel_test_util.h"
#include "quant_test_util.h"

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

constexpr BatchMatMulParams kNoAct{-INFINITY, INFINITY, 0, 0};

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
  run_against_reference({9, 13}, {13, 6}, {9, 6}, {-0.5f, 0.5f, 0, 0}, 320);
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

TEST_F(BatchMatMulCheck, AdjFlags) {
  mm_.op.params<BatchMatMulParams>().adj_a = 2;
  EXPECT_EQ(check(), Status::kBadParams);
  mm_.op.params<BatchMatMulParams>().adj_a = 1;  // A [2,1,3,4] read as [.., 4, 3]: K 3 vs B's 4
  EXPECT_EQ(check(), Status::kBadParams);
  mm_.op.params<BatchMatMulParams>().adj_a = 0;
  mm_.op.params<BatchMatMulParams>().adj_b = 1;  // B [5,4,2] read as [5,2,4]
  EXPECT_EQ(check(), Status::kBadParams);
  mm_.op.set_dims(mm_.b, {5, 2, 4});
  EXPECT_EQ(check(), Status::kOk);
}

// ---- adj_a / adj_b ---------------------------------------------------------------------

// The last two dims of a row-major tensor swapped (the data and the dims).
template <typename T>
std::vector<T> transpose_last(const std::vector<T>& v, std::vector<uint32_t>* dims) {
  const size_t rank = dims->size(), rows = (*dims)[rank - 2], cols = (*dims)[rank - 1];
  std::vector<T> out(v.size());
  for (size_t m = 0; m < v.size() / (rows * cols); ++m)
    for (size_t r = 0; r < rows; ++r)
      for (size_t c = 0; c < cols; ++c) out[m * rows * cols + c * rows + r] = v[m * rows * cols + r * cols + c];
  std::swap((*dims)[rank - 2], (*dims)[rank - 1]);
  return out;
}

// Runs `entry` on A, B as given (params with adj 0) and on their transposed copies read
// with adj_a / adj_b: the outputs are equal bit for bit (the same products summed in
// the same order).
template <typename T, typename P>
void expect_adj_matches_plain(const KernelEntry& entry, DType dtype, P params, const std::vector<uint32_t>& a_dims,
                              const std::vector<uint32_t>& b_dims, const std::vector<uint32_t>& out_dims,
                              const std::vector<T>& a, const std::vector<T>& b) {
  auto run = [&](const std::vector<uint32_t>& ad, const std::vector<uint32_t>& bd, const std::vector<T>& av,
                 const std::vector<T>& bv, P p) {
    TestOp op;
    const uint32_t ta = op.add_input(dtype, ad), tb = op.add_input(dtype, bd), ty = op.add_output(dtype, out_dims);
    op.set_params(p);
    op.set_data(ta, av);
    op.set_data(tb, bv);
    EXPECT_EQ(op.check(entry), Status::kOk);
    op.run(entry);
    return op.template data<T>(ty);
  };
  const std::vector<T> plain = run(a_dims, b_dims, a, b, params);
  for (int flags = 1; flags < 4; ++flags) {
    std::vector<uint32_t> ad = a_dims, bd = b_dims;
    const std::vector<T> av = (flags & 1) ? transpose_last(a, &ad) : a;
    const std::vector<T> bv = (flags & 2) ? transpose_last(b, &bd) : b;
    P p = params;
    p.adj_a = flags & 1;
    p.adj_b = (flags >> 1) & 1;
    EXPECT_EQ(run(ad, bd, av, bv, p), plain) << "adj flags " << flags;
  }
}

TEST(BatchMatMulF32, AdjFlagsReadTransposedOperands) {
  const std::vector<uint32_t> a_dims = {2, 1, 3, 4}, b_dims = {5, 4, 2}, out_dims = {2, 5, 3, 2};
  expect_adj_matches_plain<float>(kBatchMatMulF32Entry, DType::kFloat32, kNoAct, a_dims, b_dims, out_dims,
                                  testing::random_floats(testing::product(a_dims), 400),
                                  testing::random_floats(testing::product(b_dims), 401));
}

// ---- int8 / int16 ----------------------------------------------------------------------

// TFLite's integer BatchMatMul for A [B, M, K], B [B, K, N] (no broadcast): the zero
// points subtracted, the sum in Acc, then the requantization `requant`.
template <typename T, typename Acc, typename Requant>
std::vector<T> quant_reference(const BatchMatMulQuantParams& p, uint32_t batches, uint32_t m, uint32_t k, uint32_t n,
                               const std::vector<T>& a, const std::vector<T>& b, Requant requant) {
  std::vector<T> out;
  for (uint32_t batch = 0; batch < batches; ++batch)
    for (uint32_t i = 0; i < m; ++i)
      for (uint32_t j = 0; j < n; ++j) {
        Acc acc = 0;
        for (uint32_t x = 0; x < k; ++x)
          acc += (Acc{a[(batch * m + i) * k + x]} - p.a_zero_point) * (Acc{b[(batch * k + x) * n + j]} - p.b_zero_point);
        out.push_back(static_cast<T>(testing::ref_clamp(int64_t{requant(acc)} + p.output_zero_point, p.act_min, p.act_max)));
      }
  return out;
}

TEST(BatchMatMulS8, MatchesReferenceEveryAdj) {
  const BatchMatMulQuantParams p{0, 0, -5, 3, 10, 1288490189, -8, -100, 120};
  const std::vector<int8_t> a = testing::random_ints<int8_t>(2 * 3 * 7, 410, -128, 127);
  const std::vector<int8_t> b = testing::random_ints<int8_t>(2 * 7 * 4, 411, -128, 127);
  TestOp op;
  const uint32_t ta = op.add_input(DType::kInt8, {2, 3, 7}), tb = op.add_input(DType::kInt8, {2, 7, 4});
  const uint32_t ty = op.add_output(DType::kInt8, {2, 3, 4});
  op.set_params(p);
  op.set_data(ta, a);
  op.set_data(tb, b);
  ASSERT_EQ(op.check(kBatchMatMulS8Entry), Status::kOk);
  op.run(kBatchMatMulS8Entry);
  EXPECT_EQ(op.data<int8_t>(ty), (quant_reference<int8_t, int32_t>(p, 2, 3, 7, 4, a, b, [&](int32_t acc) {
              return testing::ref_mbqm(acc, p.output_multiplier, p.output_shift);
            })));
  expect_adj_matches_plain<int8_t>(kBatchMatMulS8Entry, DType::kInt8, p, {2, 3, 7}, {2, 7, 4}, {2, 3, 4}, a, b);
}

TEST(BatchMatMulS16, MatchesReferenceEveryAdj) {
  const BatchMatMulQuantParams p{0, 0, 0, 0, 0, 1288490189, -12, -32768, 32767};
  const std::vector<int16_t> a = testing::random_ints<int16_t>(3 * 5 * 6, 420, -32768, 32767);
  const std::vector<int16_t> b = testing::random_ints<int16_t>(6 * 2, 421, -32768, 32767);
  TestOp op;
  const uint32_t ta = op.add_input(DType::kInt16, {3, 5, 6}), tb = op.add_input(DType::kInt16, {6, 2});
  const uint32_t ty = op.add_output(DType::kInt16, {3, 5, 2});
  op.set_params(p);
  op.set_data(ta, a);
  op.set_data(tb, b);
  ASSERT_EQ(op.check(kBatchMatMulS16Entry), Status::kOk);
  op.run(kBatchMatMulS16Entry);
  std::vector<int16_t> b3;  // B repeated per batch for the reference
  for (int i = 0; i < 3; ++i) b3.insert(b3.end(), b.begin(), b.end());
  EXPECT_EQ(op.data<int16_t>(ty), (quant_reference<int16_t, int64_t>(p, 3, 5, 6, 2, a, b3, [&](int64_t acc) {
              return testing::ref_mbqm64(acc, p.output_multiplier, p.output_shift);
            })));
  expect_adj_matches_plain<int16_t>(kBatchMatMulS16Entry, DType::kInt16, p, {3, 5, 6}, {6, 2}, {3, 5, 2}, a, b);
}

TEST(BatchMatMulQuant, CheckRefusesCorruptParams) {
  TestOp op;
  op.add_input(DType::kInt16, {2, 3});
  op.add_input(DType::kInt16, {3, 2});
  op.add_output(DType::kInt16, {2, 2});
  op.set_params(BatchMatMulQuantParams{0, 0, 0, 0, 0, 1 << 30, 0, -32768, 32767});
  ASSERT_EQ(op.check(kBatchMatMulS16Entry), Status::kOk);
  op.params<BatchMatMulQuantParams>().a_zero_point = 1;  // int16 zero points are 0
  EXPECT_EQ(op.check(kBatchMatMulS16Entry), Status::kBadParams);
  op.params<BatchMatMulQuantParams>().a_zero_point = 0;
  op.params<BatchMatMulQuantParams>().output_shift = kMaxShift64 + 1;
  EXPECT_EQ(op.check(kBatchMatMulS16Entry), Status::kBadParams);
  op.params<BatchMatMulQuantParams>().output_shift = 0;
  op.params<BatchMatMulQuantParams>().act_max = 40000;
  EXPECT_EQ(op.check(kBatchMatMulS16Entry), Status::kBadParams);
  op.params<BatchMatMulQuantParams>().act_max = 32767;
  op.params<BatchMatMulQuantParams>().adj_b = 3;
  EXPECT_EQ(op.check(kBatchMatMulS16Entry), Status::kBadParams);
  op.params<BatchMatMulQuantParams>().adj_b = 0;
  EXPECT_EQ(op.check(kBatchMatMulS8Entry), Status::kBadParams);  // int16 tensors
}

}  // namespace batch_matmul_test
}  // namespace mote
