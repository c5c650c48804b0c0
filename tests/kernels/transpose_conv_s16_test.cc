// 16x8 transposed convolution against a model of TFLite's scatter formulation (the
// kernel gathers; both must agree exactly).
#include "transpose_conv/transpose_conv.h"

#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace transpose_conv_s16_test {

using testing::Multiplier;
using testing::TestOp;

struct Case {
  uint32_t n, h, w, c, o, kh, kw, out_h, out_w;
  int32_t stride_h, stride_w, pad_top, pad_left;
  bool bias;
  int32_t act_min = -32768, act_max = 32767;
};

void run_case(const Case& cs, uint32_t seed, int32_t shift_lo, int32_t shift_hi) {
  const auto m = testing::random_multipliers(cs.o, seed, shift_lo, shift_hi);
  TestOp op;
  const uint32_t in_t = op.add_input(DType::kInt16, {cs.n, cs.h, cs.w, cs.c});
  const uint32_t filter_t = op.add_input(DType::kInt8, {cs.o, cs.kh, cs.kw, cs.c});
  const uint32_t bias_t = cs.bias ? op.add_input(DType::kInt64, {cs.o}) : kNoTensor;
  const uint32_t out_t = op.add_output(DType::kInt16, {cs.n, cs.out_h, cs.out_w, cs.o});
  op.set_raw_params(testing::params_bytes(
      TransposeConvS16Params{cs.stride_h, cs.stride_w, cs.pad_top, cs.pad_left, cs.act_min, cs.act_max},
      m));
  const auto in = testing::random_full_range<int16_t>(testing::product({cs.n, cs.h, cs.w, cs.c}), seed + 1);
  const auto filter = testing::random_full_range<int8_t>(testing::product({cs.o, cs.kh, cs.kw, cs.c}), seed + 2);
  const auto bias = testing::random_ints<int64_t>(cs.o, seed + 3, -(int64_t{1} << 33), int64_t{1} << 33);
  op.set_data(in_t, in);
  op.set_data(filter_t, filter);
  if (cs.bias) op.set_data(bias_t, bias);
  ASSERT_EQ(op.check(kTransposeConvS16Entry), Status::kOk);
  op.run(kTransposeConvS16Entry);

  // TFLite: scatter every input pixel into an int64 scratch output, then requantize.
  std::vector<int64_t> scratch(testing::product({cs.n, cs.out_h, cs.out_w, cs.o}), 0);
  for (uint32_t b = 0; b < cs.n; ++b)
    for (uint32_t iy = 0; iy < cs.h; ++iy)
      for (uint32_t ix = 0; ix < cs.w; ++ix)
        for (uint32_t ic = 0; ic < cs.c; ++ic)
          for (uint32_t ky = 0; ky < cs.kh; ++ky)
            for (uint32_t kx = 0; kx < cs.kw; ++kx)
              for (uint32_t oc = 0; oc < cs.o; ++oc) {
                const int64_t oy = int64_t{iy} * cs.stride_h - cs.pad_top + ky;
                const int64_t ox = int64_t{ix} * cs.stride_w - cs.pad_left + kx;
                if (oy < 0 || oy >= cs.out_h || ox < 0 || ox >= cs.out_w) continue;
                scratch[((b * cs.out_h + oy) * cs.out_w + ox) * cs.o + oc] +=
                    int64_t{in[((b * cs.h + iy) * cs.w + ix) * cs.c + ic]} *
                    filter[((oc * cs.kh + ky) * cs.kw + kx) * cs.c + ic];
              }
  const auto out = op.data<int16_t>(out_t);
  ASSERT_EQ(out.size(), scratch.size());
  int unsaturated = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    const uint32_t oc = i % cs.o;
    const int32_t v = testing::ref_mbqm64(scratch[i] + (cs.bias ? bias[oc] : 0), m[oc].multiplier,
                                          m[oc].shift);
    const int32_t expected = testing::ref_clamp(v, cs.act_min, cs.act_max);
    ASSERT_EQ(out[i], expected) << i;
    unsaturated += expected != cs.act_min && expected != cs.act_max;
  }
  EXPECT_GT(unsaturated, 0);
}

TEST(TransposeConvS16, HandComputed) {
  // 1x2 input [1, 2], 1x3 all-ones filter, stride 2, pad 1, output width 4:
  // input 0 scatters to x = -1, 0, 1; input 1 to x = 1, 2, 3 -> [1, 3, 2, 2]; times 2
  // (multiplier 2^30, shift 2).
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {1, 1, 2, 1});
  const uint32_t filter = op.add_input(DType::kInt8, {1, 1, 3, 1});
  const uint32_t out = op.add_output(DType::kInt16, {1, 1, 4, 1});
  op.set_raw_params(testing::params_bytes(TransposeConvS16Params{1, 2, 0, 1, -32768, 32767},
                                          {{1 << 30, 2}}));
  op.set_data(in, std::vector<int16_t>{1, 2});
  op.set_data(filter, std::vector<int8_t>{1, 1, 1});
  ASSERT_EQ(op.check(kTransposeConvS16Entry), Status::kOk);
  op.run(kTransposeConvS16Entry);
  EXPECT_EQ(op.data<int16_t>(out), (std::vector<int16_t>{2, 6, 4, 4}));
}

TEST(TransposeConvS16, MatchesScatterModel) {
  // SeaNet transpose_conv0 / 1 geometry: 1x5 -> 3x12 (kernel 3x4, strides 1x2).
  run_case({1, 1, 5, 64, 64, 3, 4, 3, 12, 1, 2, 0, 0, true}, 1, -31, -24);
  run_case({1, 1, 10, 16, 8, 3, 4, 3, 22, 1, 2, 0, 1, true}, 2, -31, -22);
  run_case({2, 3, 4, 3, 5, 3, 3, 6, 8, 2, 2, 1, 1, false}, 3, -18, -12);
  run_case({1, 4, 3, 2, 3, 2, 5, 9, 7, 3, 2, 1, 2, true, -1000, 500}, 4, -31, -25);
  run_case({1, 2, 2, 1, 1, 4, 4, 5, 5, 3, 3, 2, 2, false}, 5, -10, -6);  // stride < kernel gaps
}

TEST(TransposeConvS16Check, Rejections) {
  TestOp op;
  op.add_input(DType::kInt16, {1, 2, 2, 3});
  const uint32_t filter = op.add_input(DType::kInt8, {4, 3, 3, 3});
  const uint32_t bias = op.add_input(DType::kInt64, {4});
  const uint32_t out = op.add_output(DType::kInt16, {1, 4, 4, 4});
  op.set_raw_params(testing::params_bytes(TransposeConvS16Params{2, 2, 1, 1, -32768, 32767},
                                          testing::random_multipliers(4, 1, -20, -10)));
  ASSERT_EQ(op.check(kTransposeConvS16Entry), Status::kOk);
  auto& p = op.params<TransposeConvS16Params>();
  p.stride_w = 0;
  EXPECT_EQ(op.check(kTransposeConvS16Entry), Status::kBadParams);
  p.stride_w = 2;
  p.pad_top = -(1 << 30);
  EXPECT_EQ(op.check(kTransposeConvS16Entry), Status::kBadParams);
  p.pad_top = INT32_MAX - 2;
  EXPECT_EQ(op.check(kTransposeConvS16Entry), Status::kBadParams);
  p.pad_top = 1;
  testing::params_array_of<TransposeConvS16Params>(op, 1, 4)[1] = 15;
  EXPECT_EQ(op.check(kTransposeConvS16Entry), Status::kBadParams);
  testing::params_array_of<TransposeConvS16Params>(op, 1, 4)[1] = -10;
  op.desc(filter).dims[3] = 2;  // filter input channels != input channels
  EXPECT_EQ(op.check(kTransposeConvS16Entry), Status::kBadParams);
  op.desc(filter).dims[3] = 3;
  op.desc(out).dims[3] = 5;
  EXPECT_EQ(op.check(kTransposeConvS16Entry), Status::kBadParams);
  op.desc(out).dims[3] = 4;
  op.desc(bias).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(op.check(kTransposeConvS16Entry), Status::kBadParams);
}

}  // namespace transpose_conv_s16_test
}  // namespace mote
