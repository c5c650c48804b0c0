#include "conv2d/conv2d.h"

#include <gtest/gtest.h>
#include <math.h>

#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace conv2d_test {

using testing::TestOp;

struct ConvCase {
  uint32_t n, h, w, c, o, kh, kw;
  Conv2dParams params;
  bool bias;
};

uint32_t out_size(uint32_t in, uint32_t k, int32_t stride, int32_t dilation, int32_t pad0,
                  int32_t pad1) {
  return (in + pad0 + pad1 - dilation * (k - 1) - 1) / stride + 1;
}

Conv2dParams make_params(int32_t sh, int32_t sw, int32_t dh, int32_t dw, int32_t pt, int32_t pl,
                         int32_t pb, int32_t pr, int32_t groups, float lo = -INFINITY,
                         float hi = INFINITY) {
  return Conv2dParams{sh, sw, dh, dw, pt, pl, pb, pr, groups, lo, hi};
}

// ONNX Conv from its definition, in NHWC / OHWI indexing, in double.
std::vector<double> conv_reference(const ConvCase& cs, uint32_t oh, uint32_t ow,
                                   const std::vector<float>& in, const std::vector<float>& filter,
                                   const std::vector<float>& bias) {
  const Conv2dParams& p = cs.params;
  const uint32_t cpg = cs.c / p.groups;
  const uint32_t opg = cs.o / p.groups;
  std::vector<double> out;
  for (uint32_t b = 0; b < cs.n; ++b)
    for (uint32_t y = 0; y < oh; ++y)
      for (uint32_t x = 0; x < ow; ++x)
        for (uint32_t o = 0; o < cs.o; ++o) {
          double acc = cs.bias ? bias[o] : 0.0;
          const uint32_t g = o / opg;
          for (uint32_t ky = 0; ky < cs.kh; ++ky)
            for (uint32_t kx = 0; kx < cs.kw; ++kx)
              for (uint32_t ic = 0; ic < cpg; ++ic) {
                const int64_t iy = int64_t{y} * p.window.stride_h - p.window.pad_top + int64_t{ky} * p.window.dilation_h;
                const int64_t ix = int64_t{x} * p.window.stride_w - p.window.pad_left + int64_t{kx} * p.window.dilation_w;
                if (iy < 0 || iy >= cs.h || ix < 0 || ix >= cs.w) continue;
                const double v = in[((b * cs.h + iy) * cs.w + ix) * cs.c + g * cpg + ic];
                const double w = filter[((o * cs.kh + ky) * cs.kw + kx) * cpg + ic];
                acc += v * w;
              }
          out.push_back(testing::clamp_ref(acc, p.act_min, p.act_max));
        }
  return out;
}

struct ConvOp {
  TestOp op;
  uint32_t in, filter, bias, out;
};

void build(const ConvCase& cs, ConvOp* c) {
  const Conv2dParams& p = cs.params;
  const uint32_t oh = out_size(cs.h, cs.kh, p.window.stride_h, p.window.dilation_h, p.window.pad_top, p.window.pad_bottom);
  const uint32_t ow = out_size(cs.w, cs.kw, p.window.stride_w, p.window.dilation_w, p.window.pad_left, p.window.pad_right);
  c->in = c->op.add_input(DType::kFloat32, {cs.n, cs.h, cs.w, cs.c});
  c->filter = c->op.add_input(DType::kFloat32, {cs.o, cs.kh, cs.kw, cs.c / p.groups});
  c->bias = cs.bias ? c->op.add_input(DType::kFloat32, {cs.o}) : kNoTensor;
  c->out = c->op.add_output(DType::kFloat32, {cs.n, oh, ow, cs.o});
  c->op.set_params(p);
}

void run_against_reference(const ConvCase& cs, uint32_t seed) {
  ConvOp c;
  build(cs, &c);
  const Conv2dParams& p = cs.params;
  const uint32_t oh = out_size(cs.h, cs.kh, p.window.stride_h, p.window.dilation_h, p.window.pad_top, p.window.pad_bottom);
  const uint32_t ow = out_size(cs.w, cs.kw, p.window.stride_w, p.window.dilation_w, p.window.pad_left, p.window.pad_right);
  const auto in = testing::random_floats(cs.n * cs.h * cs.w * cs.c, seed);
  const auto filter = testing::random_floats(cs.o * cs.kh * cs.kw * (cs.c / p.groups), seed + 1);
  const auto bias = testing::random_floats(cs.o, seed + 2);
  c.op.set_data(c.in, in);
  c.op.set_data(c.filter, filter);
  if (cs.bias) c.op.set_data(c.bias, bias);
  ASSERT_EQ(c.op.check(kConv2dF32Entry), Status::kOk);
  c.op.run(kConv2dF32Entry);
  testing::expect_all_near(c.op.data<float>(c.out), conv_reference(cs, oh, ow, in, filter, bias));
}

TEST(Conv2dF32, HandComputed) {
  // 3x3 image 1..9, 2x2 filter picking the top-left and bottom-right taps, bias 0.5.
  ConvCase cs{1, 3, 3, 1, 1, 2, 2, make_params(1, 1, 1, 1, 0, 0, 0, 0, 1), true};
  ConvOp c;
  build(cs, &c);
  c.op.set_data(c.in, std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  c.op.set_data(c.filter, std::vector<float>{1, 0, 0, 1});
  c.op.set_data(c.bias, std::vector<float>{0.5f});
  ASSERT_EQ(c.op.check(kConv2dF32Entry), Status::kOk);
  c.op.run(kConv2dF32Entry);
  EXPECT_EQ(c.op.data<float>(c.out), (std::vector<float>{6.5f, 8.5f, 12.5f, 14.5f}));
}

TEST(Conv2dF32, HandComputedPaddingAndRelu6) {
  // 2x2 image, 3x3 all-ones filter, pad 1 all around: each output is the sum of the image
  // pixels in its 3x3 neighbourhood (= all four, 10), then clamped to [0, 6]; second
  // channel of the filter is -1 so the ReLU floors it at 0.
  ConvCase cs{1, 2, 2, 1, 2, 3, 3, make_params(1, 1, 1, 1, 1, 1, 1, 1, 1, 0.0f, 6.0f), false};
  ConvOp c;
  build(cs, &c);
  c.op.set_data(c.in, std::vector<float>{1, 2, 3, 4});
  std::vector<float> filter(18, 1.0f);
  for (int i = 9; i < 18; ++i) filter[i] = -1.0f;
  c.op.set_data(c.filter, filter);
  ASSERT_EQ(c.op.check(kConv2dF32Entry), Status::kOk);
  c.op.run(kConv2dF32Entry);
  EXPECT_EQ(c.op.data<float>(c.out), (std::vector<float>{6, 0, 6, 0, 6, 0, 6, 0}));
}

TEST(Conv2dF32, MatchesReferenceStrideDilationAsymmetricPads) {
  run_against_reference({2, 7, 9, 3, 4, 3, 2, make_params(2, 1, 1, 2, 1, 0, 2, 1, 1), true}, 10);
}

TEST(Conv2dF32, MatchesReferenceGroups) {
  run_against_reference({2, 6, 5, 4, 6, 3, 3, make_params(1, 2, 2, 1, 2, 1, 0, 2, 2), true}, 20);
}

TEST(Conv2dF32, MatchesReferenceDepthwiseAsGroups) {
  run_against_reference({1, 5, 5, 3, 6, 3, 3, make_params(1, 1, 1, 1, 1, 1, 1, 1, 3), false}, 30);
}

TEST(Conv2dF32, MatchesReferencePointwiseNoBiasClamped) {
  run_against_reference(
      {2, 4, 3, 8, 5, 1, 1, make_params(1, 1, 1, 1, 0, 0, 0, 0, 1, -0.25f, 0.5f), false}, 40);
}

TEST(Conv2dF32, MatchesReferenceNonSquareKernelLargeStride) {
  run_against_reference({1, 11, 8, 2, 3, 5, 2, make_params(3, 2, 1, 3, 2, 0, 1, 3, 1), true}, 50);
}

class Conv2dCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    build({2, 7, 9, 4, 6, 3, 2, make_params(2, 1, 1, 2, 1, 0, 2, 1, 2), true}, &c_);
    ASSERT_EQ(c_.op.check(kConv2dF32Entry), Status::kOk);
  }
  Status check() { return c_.op.check(kConv2dF32Entry); }
  Conv2dParams& params() { return c_.op.params<Conv2dParams>(); }
  ConvOp c_;
};

TEST_F(Conv2dCheck, OutputSizeMustMatchFormula) {
  TensorDesc& out = c_.op.desc(c_.out);
  ++out.dims[1];
  EXPECT_EQ(check(), Status::kBadParams);
  --out.dims[1];
  --out.dims[2];
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(Conv2dCheck, OutputBatchAndChannels) {
  c_.op.desc(c_.out).dims[0] = 1;
  EXPECT_EQ(check(), Status::kBadParams);
  c_.op.desc(c_.out).dims[0] = 2;
  c_.op.desc(c_.out).dims[3] = 5;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(Conv2dCheck, FilterChannelsMustBeInputChannelsPerGroup) {
  c_.op.desc(c_.filter).dims[3] = 4;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(Conv2dCheck, GroupsMustDivideChannels) {
  params().groups = 4;  // divides C = 4 but not O = 6
  EXPECT_EQ(check(), Status::kBadParams);
  params().groups = 3;  // divides O but not C
  EXPECT_EQ(check(), Status::kBadParams);
  params().groups = 0;
  EXPECT_EQ(check(), Status::kBadParams);
  params().groups = -2;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(Conv2dCheck, StridesDilationsPads) {
  params().window.stride_h = 0;
  EXPECT_EQ(check(), Status::kBadParams);
  params().window.stride_h = 2;
  params().window.dilation_w = 0;
  EXPECT_EQ(check(), Status::kBadParams);
  params().window.dilation_w = 2;
  params().window.pad_left = -1;
  EXPECT_EQ(check(), Status::kBadParams);
  params().window.pad_left = 0;
  params().window.pad_bottom = INT32_MAX;
  EXPECT_EQ(check(), Status::kBadParams);
  params().window.pad_bottom = 2;
  EXPECT_EQ(check(), Status::kOk);
}

TEST_F(Conv2dCheck, KernelLargerThanPaddedInput) {
  // Kernel height 3 with dilation 5 spans 11 rows; the padded input has 10.
  params().window.dilation_h = 5;
  c_.op.desc(c_.out).dims[1] = 1;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(Conv2dCheck, Bias) {
  c_.op.desc(c_.bias).dims[0] = 5;
  EXPECT_EQ(check(), Status::kBadParams);
  c_.op.desc(c_.bias).dims[0] = 6;
  c_.op.desc(c_.bias).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(Conv2dCheck, DtypesAndRanks) {
  c_.op.desc(c_.in).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(check(), Status::kBadParams);
  c_.op.desc(c_.in).dtype = static_cast<uint8_t>(DType::kFloat32);
  c_.op.desc(c_.filter).rank = 3;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(Conv2dCheck, ActivationRange) {
  params().act_min = 1.0f;
  params().act_max = 0.0f;
  EXPECT_EQ(check(), Status::kBadParams);
  params().act_min = NAN;
  params().act_max = 6.0f;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(Conv2dCheck, ParamsBytes) {
  c_.op.set_params_bytes(sizeof(Conv2dParams) - 4);
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST(Conv2dF32Check, IoCounts) {
  ConvOp c;
  c.in = c.op.add_input(DType::kFloat32, {1, 3, 3, 1});
  c.out = c.op.add_output(DType::kFloat32, {1, 3, 3, 1});
  c.op.set_params(make_params(1, 1, 1, 1, 0, 0, 0, 0, 1));
  EXPECT_EQ(c.op.check(kConv2dF32Entry), Status::kBadOp);  // no filter
}

TEST(Conv2dF32Check, FilterIsRequiredAndAtMostThreeInputs) {
  ConvOp c;
  c.in = c.op.add_input(DType::kFloat32, {1, 3, 3, 1});
  c.op.add_missing_input();
  c.op.add_missing_input();
  c.out = c.op.add_output(DType::kFloat32, {1, 3, 3, 1});
  c.op.set_params(make_params(1, 1, 1, 1, 0, 0, 0, 0, 1));
  EXPECT_EQ(c.op.check(kConv2dF32Entry), Status::kBadOp);

  ConvOp d;
  build({1, 3, 3, 1, 1, 1, 1, make_params(1, 1, 1, 1, 0, 0, 0, 0, 1), true}, &d);
  d.op.add_input(DType::kFloat32, {1});
  EXPECT_EQ(d.op.check(kConv2dF32Entry), Status::kBadOp);
}

TEST(Conv2dF32Check, ExplicitlyAbsentBiasIsAccepted) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {1, 4, 4, 2});
  op.add_input(DType::kFloat32, {3, 3, 3, 2});
  op.add_missing_input();
  op.add_output(DType::kFloat32, {1, 2, 2, 3});
  op.set_params(make_params(1, 1, 1, 1, 0, 0, 0, 0, 1));
  EXPECT_EQ(op.check(kConv2dF32Entry), Status::kOk);
  op.set_data(in, testing::random_floats(32, 1));
  op.run(kConv2dF32Entry);  // reads no bias
}

}  // namespace conv2d_test
}  // namespace mote
