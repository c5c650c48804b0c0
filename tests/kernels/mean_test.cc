#include "mean/mean.h"

#include <gtest/gtest.h>
#include <math.h>

#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace mean_test {

using testing::TestOp;

struct MeanOp {
  TestOp op;
  uint32_t in, out;
};

void build(const std::vector<uint32_t>& in_dims, const std::vector<uint32_t>& out_dims,
           uint32_t axes_mask, MeanOp* m) {
  m->in = m->op.add_input(DType::kFloat32, in_dims);
  m->out = m->op.add_output(DType::kFloat32, out_dims);
  m->op.set_params(MeanParams{axes_mask});
}

// numpy.mean(x, axis=axes) by enumeration: for each output element (kept coordinates in
// order), average every input element whose kept coordinates match.
std::vector<double> reference(const std::vector<uint32_t>& dims, uint32_t mask,
                              const std::vector<float>& x) {
  std::vector<uint32_t> kept_dims;
  for (size_t i = 0; i < dims.size(); ++i)
    if (!(mask >> i & 1)) kept_dims.push_back(dims[i]);
  std::vector<double> sum(testing::product(kept_dims), 0.0);
  std::vector<size_t> count(sum.size(), 0);
  for (size_t flat = 0; flat < x.size(); ++flat) {
    const auto idx = testing::unflatten(flat, dims);
    size_t out = 0;
    for (size_t i = 0; i < dims.size(); ++i)
      if (!(mask >> i & 1)) out = out * dims[i] + idx[i];
    sum[out] += x[flat];
    ++count[out];
  }
  for (size_t i = 0; i < sum.size(); ++i) sum[i] /= static_cast<double>(count[i]);
  return sum;
}

void run_against_reference(const std::vector<uint32_t>& in_dims,
                           const std::vector<uint32_t>& out_dims, uint32_t mask, uint32_t seed) {
  MeanOp m;
  build(in_dims, out_dims, mask, &m);
  const auto x = testing::random_floats(testing::product(in_dims), seed);
  m.op.set_data(m.in, x);
  ASSERT_EQ(m.op.check(kMeanF32Entry), Status::kOk);
  m.op.run(kMeanF32Entry);
  testing::expect_all_near(m.op.data<float>(m.out), reference(in_dims, mask, x));
}

TEST(MeanF32, HandComputed) {
  MeanOp m;
  build({2, 3}, {2}, 0b10, &m);
  m.op.set_data(m.in, std::vector<float>{1, 2, 3, 4, 5, 9});
  ASSERT_EQ(m.op.check(kMeanF32Entry), Status::kOk);
  m.op.run(kMeanF32Entry);
  EXPECT_EQ(m.op.data<float>(m.out), (std::vector<float>{2, 6}));

  MeanOp cols;
  build({2, 3}, {1, 3}, 0b01, &cols);
  cols.op.set_data(cols.in, std::vector<float>{1, 2, 3, 4, 5, 9});
  ASSERT_EQ(cols.op.check(kMeanF32Entry), Status::kOk);
  cols.op.run(kMeanF32Entry);
  EXPECT_EQ(cols.op.data<float>(cols.out), (std::vector<float>{2.5f, 3.5f, 6}));
}

TEST(MeanF32, MatchesReferenceGlobalAveragePoolNhwc) {
  run_against_reference({2, 7, 5, 6}, {2, 1, 1, 6}, 0b0110, 800);
  run_against_reference({2, 7, 5, 6}, {2, 6}, 0b0110, 801);
}

TEST(MeanF32, MatchesReferenceOuterAndInnerAxes) {
  run_against_reference({3, 4, 5, 2}, {4, 5}, 0b1001, 810);
}

TEST(MeanF32, MatchesReferenceAllAxesToScalar) {
  run_against_reference({3, 5, 7}, {}, 0b111, 820);
}

TEST(MeanF32, MatchesReferenceRank6AndNoAxes) {
  run_against_reference({2, 3, 1, 4, 2, 3}, {3, 1, 2}, 0b101001, 830);
  run_against_reference({4, 3}, {4, 3}, 0, 840);
  run_against_reference({}, {}, 0, 850);
}

class MeanCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    build({2, 7, 5, 6}, {2, 1, 1, 6}, 0b0110, &m_);
    ASSERT_EQ(check(), Status::kOk);
  }
  Status check() { return m_.op.check(kMeanF32Entry); }
  MeanOp m_;
};

TEST_F(MeanCheck, OutputElementCountMustMatchKeptDims) {
  m_.op.set_dims(m_.out, {2, 1, 1, 5});
  EXPECT_EQ(check(), Status::kBadParams);
  m_.op.set_dims(m_.out, {12});
  EXPECT_EQ(check(), Status::kOk);  // the data layout is the same; only the count matters
  m_.op.params<MeanParams>().axes_mask = 0b0010;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(MeanCheck, AxesBeyondRank) {
  m_.op.params<MeanParams>().axes_mask = 0b10110;
  EXPECT_EQ(check(), Status::kBadParams);
  m_.op.params<MeanParams>().axes_mask = 0x80000006u;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(MeanCheck, DtypeParamsIo) {
  m_.op.desc(m_.out).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(check(), Status::kBadParams);
  m_.op.desc(m_.out).dtype = static_cast<uint8_t>(DType::kFloat32);
  m_.op.set_params_bytes(8);
  EXPECT_EQ(check(), Status::kBadParams);

  TestOp op;
  op.add_input(DType::kFloat32, {4});
  op.add_output(DType::kFloat32, {});
  op.add_output(DType::kFloat32, {});
  op.set_params(MeanParams{1});
  EXPECT_EQ(op.check(kMeanF32Entry), Status::kBadOp);
}

}  // namespace mean_test
}  // namespace mote
