#include "depthwise_conv2d/depthwise_conv2d.h"

#include <gtest/gtest.h>
#include <math.h>

#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace depthwise_conv2d_test {

using testing::TestOp;

struct DwCase {
  uint32_t n, h, w, c, kh, kw;
  DepthwiseConv2dParams params;
  bool bias;
};

DepthwiseConv2dParams make_params(int32_t sh, int32_t sw, int32_t dh, int32_t dw, int32_t pt,
                                  int32_t pl, int32_t pb, int32_t pr, int32_t multiplier,
                                  float lo = -INFINITY, float hi = INFINITY) {
  return DepthwiseConv2dParams{sh, sw, dh, dw, pt, pl, pb, pr, multiplier, lo, hi};
}

uint32_t out_size(uint32_t in, uint32_t k, int32_t stride, int32_t dilation, int32_t pad0,
                  int32_t pad1) {
  return (in + pad0 + pad1 - dilation * (k - 1) - 1) / stride + 1;
}

struct DwOp {
  TestOp op;
  uint32_t in, filter, bias, out;
  uint32_t oh, ow;
};

void build(const DwCase& cs, DwOp* d) {
  const DepthwiseConv2dParams& p = cs.params;
  d->oh = out_size(cs.h, cs.kh, p.window.stride_h, p.window.dilation_h, p.window.pad_top, p.window.pad_bottom);
  d->ow = out_size(cs.w, cs.kw, p.window.stride_w, p.window.dilation_w, p.window.pad_left, p.window.pad_right);
  const uint32_t oc = cs.c * p.depth_multiplier;
  d->in = d->op.add_input(DType::kFloat32, {cs.n, cs.h, cs.w, cs.c});
  d->filter = d->op.add_input(DType::kFloat32, {1, cs.kh, cs.kw, oc});
  d->bias = cs.bias ? d->op.add_input(DType::kFloat32, {oc}) : kNoTensor;
  d->out = d->op.add_output(DType::kFloat32, {cs.n, d->oh, d->ow, oc});
  d->op.set_params(p);
}

// From the definition: output channel c*M + m = sum over taps of input channel c times
// filter[ky, kx, c*M + m].
std::vector<double> reference(const DwCase& cs, uint32_t oh, uint32_t ow,
                              const std::vector<float>& in, const std::vector<float>& filter,
                              const std::vector<float>& bias) {
  const DepthwiseConv2dParams& p = cs.params;
  const uint32_t mult = p.depth_multiplier;
  const uint32_t oc_count = cs.c * mult;
  std::vector<double> out;
  for (uint32_t b = 0; b < cs.n; ++b)
    for (uint32_t y = 0; y < oh; ++y)
      for (uint32_t x = 0; x < ow; ++x)
        for (uint32_t c = 0; c < cs.c; ++c)
          for (uint32_t m = 0; m < mult; ++m) {
            const uint32_t oc = c * mult + m;
            double acc = cs.bias ? bias[oc] : 0.0;
            for (uint32_t ky = 0; ky < cs.kh; ++ky)
              for (uint32_t kx = 0; kx < cs.kw; ++kx) {
                const int64_t iy = int64_t{y} * p.window.stride_h - p.window.pad_top + int64_t{ky} * p.window.dilation_h;
                const int64_t ix = int64_t{x} * p.window.stride_w - p.window.pad_left + int64_t{kx} * p.window.dilation_w;
                if (iy < 0 || iy >= cs.h || ix < 0 || ix >= cs.w) continue;
                acc += double{in[((b * cs.h + iy) * cs.w + ix) * cs.c + c]} *
                       filter[(ky * cs.kw + kx) * oc_count + oc];
              }
            out.push_back(testing::clamp_ref(acc, p.act_min, p.act_max));
          }
  return out;
}

void run_against_reference(const DwCase& cs, uint32_t seed) {
  DwOp d;
  build(cs, &d);
  const uint32_t oc = cs.c * cs.params.depth_multiplier;
  const auto in = testing::random_floats(cs.n * cs.h * cs.w * cs.c, seed);
  const auto filter = testing::random_floats(cs.kh * cs.kw * oc, seed + 1);
  const auto bias = testing::random_floats(oc, seed + 2);
  d.op.set_data(d.in, in);
  d.op.set_data(d.filter, filter);
  if (cs.bias) d.op.set_data(d.bias, bias);
  ASSERT_EQ(d.op.check(kDepthwiseConv2dF32Entry), Status::kOk);
  d.op.run(kDepthwiseConv2dF32Entry);
  testing::expect_all_near(d.op.data<float>(d.out), reference(cs, d.oh, d.ow, in, filter, bias));
}

TEST(DepthwiseConv2dF32, HandComputedMultiplier2) {
  // 1x2x2x1 image [1 2; 3 4], 2x2 kernel, multiplier 2: channel 0 sums all (=10) with
  // weights 1, channel 1 takes the diagonal difference 1*1 - 1*4 = -3; bias {1, 0}.
  DwOp d;
  build({1, 2, 2, 1, 2, 2, make_params(1, 1, 1, 1, 0, 0, 0, 0, 2), true}, &d);
  d.op.set_data(d.in, std::vector<float>{1, 2, 3, 4});
  d.op.set_data(d.filter, std::vector<float>{1, 1, 1, 0, 1, 0, 1, -1});
  d.op.set_data(d.bias, std::vector<float>{1, 0});
  ASSERT_EQ(d.op.check(kDepthwiseConv2dF32Entry), Status::kOk);
  d.op.run(kDepthwiseConv2dF32Entry);
  EXPECT_EQ(d.op.data<float>(d.out), (std::vector<float>{11, -3}));
}

TEST(DepthwiseConv2dF32, MatchesReferenceMultiplier2StrideDilationPads) {
  run_against_reference({2, 7, 6, 3, 3, 3, make_params(2, 1, 1, 2, 1, 2, 0, 1, 2), true}, 100);
}

TEST(DepthwiseConv2dF32, MatchesReferenceMultiplier1NoBiasRelu) {
  run_against_reference(
      {1, 9, 5, 5, 3, 2, make_params(1, 2, 2, 1, 1, 0, 2, 1, 1, 0.0f, INFINITY), false}, 110);
}

TEST(DepthwiseConv2dF32, MatchesReferenceMultiplier3NonSquare) {
  run_against_reference({2, 5, 8, 2, 1, 4, make_params(3, 3, 1, 1, 0, 1, 0, 2, 3), true}, 120);
}

class DepthwiseCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    build({2, 7, 6, 3, 3, 3, make_params(2, 1, 1, 2, 1, 2, 0, 1, 2), true}, &d_);
    ASSERT_EQ(check(), Status::kOk);
  }
  Status check() { return d_.op.check(kDepthwiseConv2dF32Entry); }
  DepthwiseConv2dParams& params() { return d_.op.params<DepthwiseConv2dParams>(); }
  DwOp d_;
};

TEST_F(DepthwiseCheck, OutputSize) {
  ++d_.op.desc(d_.out).dims[2];
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(DepthwiseCheck, MultiplierMustMatchChannels) {
  params().depth_multiplier = 3;
  EXPECT_EQ(check(), Status::kBadParams);
  params().depth_multiplier = 0;
  EXPECT_EQ(check(), Status::kBadParams);
  params().depth_multiplier = -2;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(DepthwiseCheck, FilterShape) {
  d_.op.desc(d_.filter).dims[0] = 2;
  EXPECT_EQ(check(), Status::kBadParams);
  d_.op.desc(d_.filter).dims[0] = 1;
  d_.op.desc(d_.filter).dims[3] = 3;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(DepthwiseCheck, OutputChannelsAndBatch) {
  d_.op.desc(d_.out).dims[3] = 3;
  EXPECT_EQ(check(), Status::kBadParams);
  d_.op.desc(d_.out).dims[3] = 6;
  d_.op.desc(d_.out).dims[0] = 1;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(DepthwiseCheck, WindowParams) {
  params().window.stride_w = 0;
  EXPECT_EQ(check(), Status::kBadParams);
  params().window.stride_w = 1;
  params().window.dilation_h = -1;
  EXPECT_EQ(check(), Status::kBadParams);
  params().window.dilation_h = 1;
  params().window.pad_right = -1;
  EXPECT_EQ(check(), Status::kBadParams);
  params().window.pad_right = 1;
  EXPECT_EQ(check(), Status::kOk);
}

TEST_F(DepthwiseCheck, BiasDtypeAndParams) {
  d_.op.desc(d_.bias).dims[0] = 3;
  EXPECT_EQ(check(), Status::kBadParams);
  d_.op.desc(d_.bias).dims[0] = 6;
  d_.op.desc(d_.out).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(check(), Status::kBadParams);
  d_.op.desc(d_.out).dtype = static_cast<uint8_t>(DType::kFloat32);
  params().act_min = 1.0f;
  params().act_max = -1.0f;
  EXPECT_EQ(check(), Status::kBadParams);
  params().act_max = INFINITY;
  d_.op.set_params_bytes(sizeof(DepthwiseConv2dParams) + 4);
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST(DepthwiseConv2dF32Check, IoCounts) {
  TestOp op;
  op.add_input(DType::kFloat32, {1, 3, 3, 1});
  op.add_output(DType::kFloat32, {1, 3, 3, 1});
  op.set_params(make_params(1, 1, 1, 1, 0, 0, 0, 0, 1));
  EXPECT_EQ(op.check(kDepthwiseConv2dF32Entry), Status::kBadOp);
}

}  // namespace depthwise_conv2d_test
}  // namespace mote
