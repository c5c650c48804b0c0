#include "pool2d/pool2d.h"

#include <gtest/gtest.h>
#include <math.h>

#include <algorithm>
#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace pool2d_test {

using testing::TestOp;

Pool2dParams make_params(int32_t kh, int32_t kw, int32_t sh, int32_t sw, int32_t dh, int32_t dw,
                         int32_t pt, int32_t pl, int32_t pb, int32_t pr,
                         int32_t count_include_pad = 0, float lo = -INFINITY,
                         float hi = INFINITY) {
  return Pool2dParams{kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, count_include_pad, lo, hi};
}

uint32_t out_size(uint32_t in, int32_t k, int32_t s, int32_t d, int32_t p0, int32_t p1,
                  bool ceil_mode) {
  const int32_t span = static_cast<int32_t>(in) + p0 + p1 - d * (k - 1) - 1;
  return static_cast<uint32_t>((ceil_mode ? (span + s - 1) / s : span / s) + 1);
}

struct PoolCase {
  uint32_t n, h, w, c;
  Pool2dParams params;
  bool ceil_mode;
};

struct PoolOp {
  TestOp op;
  uint32_t in, out;
  uint32_t oh, ow;
};

void build(const PoolCase& cs, PoolOp* p) {
  const Pool2dParams& q = cs.params;
  p->oh = out_size(cs.h, q.kernel_h, q.window.stride_h, q.window.dilation_h, q.window.pad_top, q.window.pad_bottom,
                   cs.ceil_mode);
  p->ow = out_size(cs.w, q.kernel_w, q.window.stride_w, q.window.dilation_w, q.window.pad_left, q.window.pad_right,
                   cs.ceil_mode);
  p->in = p->op.add_input(DType::kFloat32, {cs.n, cs.h, cs.w, cs.c});
  p->out = p->op.add_output(DType::kFloat32, {cs.n, p->oh, p->ow, cs.c});
  p->op.set_params(q);
}

// By explicit window enumeration (ONNX AveragePool/MaxPool semantics; L2: TFLite's
// L2Pool, the root of the mean square over the cells inside the image).
std::vector<double> reference(const PoolCase& cs, uint32_t oh, uint32_t ow, bool is_max,
                              const std::vector<float>& in, bool is_l2 = false) {
  const Pool2dParams& q = cs.params;
  const int64_t h = cs.h, w = cs.w;
  std::vector<double> out;
  for (uint32_t b = 0; b < cs.n; ++b)
    for (uint32_t oy = 0; oy < oh; ++oy)
      for (uint32_t ox = 0; ox < ow; ++ox)
        for (uint32_t c = 0; c < cs.c; ++c) {
          double sum = 0.0, max = -INFINITY, squares = 0.0;
          int valid = 0, in_padded_region = 0;
          for (int32_t ky = 0; ky < q.kernel_h; ++ky)
            for (int32_t kx = 0; kx < q.kernel_w; ++kx) {
              const int64_t y = int64_t{oy} * q.window.stride_h - q.window.pad_top + ky * q.window.dilation_h;
              const int64_t x = int64_t{ox} * q.window.stride_w - q.window.pad_left + kx * q.window.dilation_w;
              if (y >= -q.window.pad_top && y < h + q.window.pad_bottom && x >= -q.window.pad_left &&
                  x < w + q.window.pad_right) {
                ++in_padded_region;
              }
              if (y < 0 || y >= h || x < 0 || x >= w) continue;
              const double v = in[((b * h + y) * w + x) * cs.c + c];
              sum += v;
              squares += v * v;
              max = std::max(max, v);
              ++valid;
            }
          const int count = q.count_include_pad ? in_padded_region : valid;
          double v = is_max ? max : (count > 0 ? sum / count : 0.0);
          if (is_l2) v = valid > 0 ? std::sqrt(squares / valid) : 0.0;
          out.push_back(testing::clamp_ref(v, q.act_min, q.act_max));
        }
  return out;
}

void run_against_reference(const PoolCase& cs, uint32_t seed) {
  const auto in = testing::random_floats(cs.n * cs.h * cs.w * cs.c, seed, -3.0f, 3.0f);
  for (int kind = 0; kind < 3; ++kind) {
    const bool is_max = kind == 1, is_l2 = kind == 2;
    SCOPED_TRACE(is_max ? "max" : (is_l2 ? "l2" : "avg"));
    PoolOp p;
    build(cs, &p);
    p.op.set_data(p.in, in);
    const KernelEntry& k = is_max ? kMaxPool2dF32Entry : (is_l2 ? kL2Pool2dF32Entry : kAvgPool2dF32Entry);
    ASSERT_EQ(p.op.check(k), Status::kOk);
    p.op.run(k);
    testing::expect_all_near(p.op.data<float>(p.out), reference(cs, p.oh, p.ow, is_max, in, is_l2));
  }
}

TEST(Pool2dF32, HandComputedMax2x2Stride2) {
  PoolOp p;
  build({1, 4, 4, 1, make_params(2, 2, 2, 2, 1, 1, 0, 0, 0, 0), false}, &p);
  std::vector<float> in(16);
  for (int i = 0; i < 16; ++i) in[i] = static_cast<float>(i + 1);
  p.op.set_data(p.in, in);
  ASSERT_EQ(p.op.check(kMaxPool2dF32Entry), Status::kOk);
  p.op.run(kMaxPool2dF32Entry);
  EXPECT_EQ(p.op.data<float>(p.out), (std::vector<float>{6, 8, 14, 16}));
}

TEST(Pool2dF32, HandComputedAverageCountIncludePad) {
  // 2x2 image [1 2; 3 4], 3x3 window, pad 1: every window holds the 4 pixels (sum 10)
  // and 5 padding positions.
  for (int32_t include : {0, 1}) {
    PoolOp p;
    build({1, 2, 2, 1, make_params(3, 3, 1, 1, 1, 1, 1, 1, 1, 1, include), false}, &p);
    p.op.set_data(p.in, std::vector<float>{1, 2, 3, 4});
    ASSERT_EQ(p.op.check(kAvgPool2dF32Entry), Status::kOk);
    p.op.run(kAvgPool2dF32Entry);
    const float expected = include ? 10.0f / 9.0f : 2.5f;
    for (float v : p.op.data<float>(p.out)) EXPECT_FLOAT_EQ(v, expected);
  }
}

TEST(Pool2dF32, HandComputedCeilMode) {
  // Row [1 2 3], window 2 stride 2, ceil mode: windows {1,2} and {3}; the ceil-mode
  // column beyond the right edge is never counted, even with count_include_pad.
  for (int32_t include : {0, 1}) {
    PoolOp p;
    build({1, 1, 3, 1, make_params(1, 2, 1, 2, 1, 1, 0, 0, 0, 0, include), true}, &p);
    ASSERT_EQ(p.ow, 2u);
    p.op.set_data(p.in, std::vector<float>{1, 2, 3});
    ASSERT_EQ(p.op.check(kAvgPool2dF32Entry), Status::kOk);
    p.op.run(kAvgPool2dF32Entry);
    EXPECT_EQ(p.op.data<float>(p.out), (std::vector<float>{1.5f, 3.0f}));
    ASSERT_EQ(p.op.check(kMaxPool2dF32Entry), Status::kOk);
    p.op.run(kMaxPool2dF32Entry);
    EXPECT_EQ(p.op.data<float>(p.out), (std::vector<float>{2.0f, 3.0f}));
  }
}

TEST(Pool2dF32, MatchesReferenceCeilModeAsymmetricPads) {
  for (int32_t include : {0, 1}) {
    SCOPED_TRACE(include);
    run_against_reference({2, 7, 6, 3, make_params(3, 2, 2, 2, 1, 1, 1, 0, 2, 1, include), true},
                          700);
  }
}

TEST(Pool2dF32, MatchesReferenceDilationFloorMode) {
  for (int32_t include : {0, 1}) {
    SCOPED_TRACE(include);
    run_against_reference({2, 9, 8, 4, make_params(3, 2, 1, 2, 2, 3, 2, 1, 1, 2, include), false},
                          710);
  }
}

TEST(Pool2dF32, MatchesReferenceDilationCeilModeClamped) {
  run_against_reference(
      {1, 10, 7, 2, make_params(2, 3, 3, 2, 2, 1, 0, 1, 1, 0, 1, -1.0f, 1.0f), true}, 720);
}

TEST(Pool2dF32, MatchesReferenceGlobalWindow) {
  run_against_reference({2, 5, 4, 6, make_params(5, 4, 1, 1, 1, 1, 0, 0, 0, 0), false}, 730);
}

class Pool2dCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    build({2, 7, 6, 3, make_params(3, 2, 2, 2, 1, 1, 1, 0, 2, 1, 1), true}, &p_);
    ASSERT_EQ(check(), Status::kOk);
  }
  Status check() { return p_.op.check(kAvgPool2dF32Entry); }
  Pool2dParams& params() { return p_.op.params<Pool2dParams>(); }
  PoolOp p_;
};

TEST_F(Pool2dCheck, OutputIsFloorOrCeilForm) {
  // H: padded 10, kernel 3, stride 2: floor 4, ceil 5.
  ASSERT_EQ(p_.oh, 5u);
  p_.op.desc(p_.out).dims[1] = 4;
  EXPECT_EQ(check(), Status::kOk);
  EXPECT_EQ(p_.op.check(kMaxPool2dF32Entry), Status::kOk);
  p_.op.desc(p_.out).dims[1] = 6;
  EXPECT_EQ(check(), Status::kBadParams);
  EXPECT_EQ(p_.op.check(kMaxPool2dF32Entry), Status::kBadParams);
  p_.op.desc(p_.out).dims[1] = 3;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(Pool2dCheck, BatchAndChannels) {
  p_.op.desc(p_.out).dims[3] = 4;
  EXPECT_EQ(check(), Status::kBadParams);
  p_.op.desc(p_.out).dims[3] = 3;
  p_.op.desc(p_.out).dims[0] = 1;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(Pool2dCheck, WindowParams) {
  params().kernel_w = 0;
  EXPECT_EQ(check(), Status::kBadParams);
  params().kernel_w = 2;
  params().window.stride_h = 0;
  EXPECT_EQ(check(), Status::kBadParams);
  params().window.stride_h = 2;
  params().window.dilation_w = 0;
  EXPECT_EQ(check(), Status::kBadParams);
  params().window.dilation_w = 1;
  params().window.pad_top = -1;
  EXPECT_EQ(check(), Status::kBadParams);
  params().window.pad_top = 1;
  params().kernel_h = 11;  // larger than the padded input
  EXPECT_EQ(check(), Status::kBadParams);
  params().kernel_h = 3;
  EXPECT_EQ(check(), Status::kOk);
}

TEST_F(Pool2dCheck, CountIncludePadIsBoolean) {
  params().count_include_pad = 2;
  EXPECT_EQ(check(), Status::kBadParams);
  params().count_include_pad = -1;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(Pool2dCheck, RankDtypeParamsIo) {
  p_.op.set_dims(p_.in, {2, 7, 18});
  EXPECT_EQ(check(), Status::kBadParams);
  p_.op.set_dims(p_.in, {2, 7, 6, 3});
  p_.op.desc(p_.in).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(check(), Status::kBadParams);
  p_.op.desc(p_.in).dtype = static_cast<uint8_t>(DType::kFloat32);
  params().act_min = INFINITY;
  params().act_max = 0.0f;
  EXPECT_EQ(check(), Status::kBadParams);
  params().act_min = -INFINITY;
  p_.op.set_params_bytes(sizeof(Pool2dParams) - 4);
  EXPECT_EQ(check(), Status::kBadParams);

  TestOp op;
  op.add_input(DType::kFloat32, {1, 2, 2, 1});
  op.add_input(DType::kFloat32, {1, 2, 2, 1});
  op.add_output(DType::kFloat32, {1, 1, 1, 1});
  op.set_params(make_params(2, 2, 1, 1, 1, 1, 0, 0, 0, 0));
  EXPECT_EQ(op.check(kMaxPool2dF32Entry), Status::kBadOp);
}

}  // namespace pool2d_test
}  // namespace mote
