// PReLU: float32 against x >= 0 ? x : x * alpha; int8 and int16 (int8 alpha) against the
// model of TFLite's BroadcastPrelu4DSlow (identity and alpha requantization, 32-bit
// MultiplyByQuantizedMultiplier), with alpha broadcast per channel and elementwise.
#include "prelu/prelu.h"

#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"

namespace mote {
namespace prelu_test {

using testing::TestOp;

TEST(PreluF32, ChannelAlphaBroadcast) {
  const std::vector<float> x = {-2.0f, -0.5f, 0.0f, 1.5f, -4.0f, 3.0f, -1.0f, -0.0f};
  const std::vector<float> alpha = {0.25f, -1.0f};
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {1, 2, 2, 2});
  const uint32_t a = op.add_input(DType::kFloat32, {2});
  const uint32_t out = op.add_output(DType::kFloat32, {1, 2, 2, 2});
  op.set_data(in, x);
  op.set_data(a, alpha);
  ASSERT_EQ(op.check(kPreluF32Entry), Status::kOk);
  op.run(kPreluF32Entry);
  EXPECT_EQ(op.data<float>(out), (std::vector<float>{-0.5f, 0.5f, 0.0f, 1.5f, -1.0f, 3.0f, -0.25f, -0.0f}));
}

template <typename T>
void run_case(const KernelEntry& entry, float in_scale, int32_t in_zp, float alpha_scale, int32_t alpha_zp,
              float out_scale, int32_t out_zp, const std::vector<uint32_t>& alpha_dims, uint32_t seed) {
  constexpr DType kDType = sizeof(T) == 1 ? DType::kInt8 : DType::kInt16;
  const std::vector<uint32_t> dims = {2, 3, 4, 5};
  const auto x = testing::random_full_range<T>(120, seed);
  uint32_t alpha_count = 1;
  for (uint32_t d : alpha_dims) alpha_count *= d;
  const auto alpha = testing::random_full_range<int8_t>(alpha_count, seed + 1);
  PreluQuantParams p{in_zp, alpha_zp, out_zp, 0, 0, 0, 0};
  prelu_multipliers(in_scale, alpha_scale, out_scale, &p.identity_multiplier, &p.identity_shift,
                    &p.alpha_multiplier, &p.alpha_shift);
  TestOp op;
  const uint32_t in = op.add_input(kDType, dims);
  const uint32_t a = op.add_input(DType::kInt8, alpha_dims);
  const uint32_t out = op.add_output(kDType, dims);
  op.set_params(p);
  op.set_data(in, x);
  op.set_data(a, alpha);
  ASSERT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  const auto y = op.data<T>(out);
  for (size_t i = 0; i < x.size(); ++i) {
    // alpha_dims is [5] (per channel) or the full shape.
    const int32_t alpha_value = alpha[alpha_count == 5 ? i % 5 : i] - alpha_zp;
    const int32_t v = x[i] - in_zp;
    const int64_t r = v >= 0 ? testing::ref_mbqm(v, p.identity_multiplier, p.identity_shift)
                             : testing::ref_mbqm(v * alpha_value, p.alpha_multiplier, p.alpha_shift);
    ASSERT_EQ(y[i], testing::ref_clamp(r + out_zp, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()))
        << i;
  }
}

TEST(PreluS8, MatchesModel) {
  run_case<int8_t>(kPreluS8Entry, 0.05f, -3, 0.002f, 10, 0.04f, 5, {5}, 1);
  run_case<int8_t>(kPreluS8Entry, 0.1f, 100, 0.01f, -128, 0.02f, -128, {2, 3, 4, 5}, 2);
  run_case<int8_t>(kPreluS8Entry, 0.5f, 0, 0.05f, 0, 0.003f, 0, {5}, 3);  // identity shift > 0
}

TEST(PreluS16, MatchesModel) {
  run_case<int16_t>(kPreluS16Entry, 0.001f, 0, 0.004f, 3, 0.0009f, 0, {5}, 4);
  run_case<int16_t>(kPreluS16Entry, 0.0002f, -100, 0.01f, 0, 0.0005f, 30, {2, 3, 4, 5}, 5);
}

TEST(PreluCheck, Rejections) {
  TestOp op;
  op.add_input(DType::kInt16, {1, 2, 2, 3});
  const uint32_t a = op.add_input(DType::kInt8, {3});
  const uint32_t out = op.add_output(DType::kInt16, {1, 2, 2, 3});
  PreluQuantParams p{0, 0, 0, 1 << 30, 0, 1 << 30, -3};
  op.set_params(p);
  ASSERT_EQ(op.check(kPreluS16Entry), Status::kOk);
  EXPECT_EQ(op.check(kPreluS8Entry), Status::kBadParams);
  op.desc(a).dims[0] = 4;  // does not broadcast
  EXPECT_EQ(op.check(kPreluS16Entry), Status::kBadParams);
  op.desc(a).dims[0] = 3;
  op.desc(a).dtype = static_cast<uint8_t>(DType::kInt16);  // TFLM's int16 PReLU takes int8 alpha
  EXPECT_EQ(op.check(kPreluS16Entry), Status::kBadParams);
  op.desc(a).dtype = static_cast<uint8_t>(DType::kInt8);
  op.params<PreluQuantParams>().alpha_zero_point = 128;
  EXPECT_EQ(op.check(kPreluS16Entry), Status::kBadParams);
  op.params<PreluQuantParams>().alpha_zero_point = 0;
  op.params<PreluQuantParams>().alpha_shift = 31;
  EXPECT_EQ(op.check(kPreluS16Entry), Status::kBadParams);
  op.params<PreluQuantParams>().alpha_shift = 0;
  ASSERT_EQ(op.check(kPreluS16Entry), Status::kOk);
  op.desc(out).dims[3] = 4;
  EXPECT_EQ(op.check(kPreluS16Entry), Status::kBadParams);

  TestOp deep;  // rank 5: TFLite's kernel is 4-D
  deep.add_input(DType::kFloat32, {1, 1, 2, 2, 3});
  deep.add_input(DType::kFloat32, {3});
  deep.add_output(DType::kFloat32, {1, 1, 2, 2, 3});
  EXPECT_EQ(deep.check(kPreluF32Entry), Status::kBadParams);
}

}  // namespace prelu_test
}  // namespace mote
