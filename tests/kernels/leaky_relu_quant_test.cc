// Quantized leaky ReLU (int8, int16) against the model of TFLite's QuantizeLeakyRelu.
#include "leaky_relu/leaky_relu.h"

#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"

namespace mote {
namespace leaky_relu_quant_test {

using testing::TestOp;

LeakyReluQuantParams params_for(float in_scale, int32_t in_zp, float alpha, float out_scale,
                                int32_t out_zp) {
  LeakyReluQuantParams p{in_zp, out_zp, 0, 0, 0, 0};
  leaky_relu_multipliers(in_scale, alpha, out_scale, &p.alpha_multiplier, &p.alpha_shift,
                         &p.identity_multiplier, &p.identity_shift);
  return p;
}

template <typename T>
void run_case(const KernelEntry& entry, const LeakyReluQuantParams& p, uint32_t seed) {
  constexpr DType kDType = sizeof(T) == 1 ? DType::kInt8 : DType::kInt16;
  const auto x = testing::random_full_range<T>(3000, seed);
  TestOp op;
  const uint32_t in = op.add_input(kDType, {3, 1000});
  const uint32_t out = op.add_output(kDType, {3, 1000});
  op.set_params(p);
  op.set_data(in, x);
  ASSERT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  const auto y = op.data<T>(out);
  for (size_t i = 0; i < x.size(); ++i) {
    const int32_t v = x[i] - p.input_zero_point;
    int64_t r;
    if (v >= 0) {
      r = testing::ref_mbqm(v, p.identity_multiplier, p.identity_shift);
    } else {
      const int32_t magnitude = p.alpha_multiplier < 0 ? -p.alpha_multiplier : p.alpha_multiplier;
      r = testing::ref_mbqm(v, magnitude, p.alpha_shift);
      if (p.alpha_multiplier < 0) r = -r;
    }
    ASSERT_EQ(y[i], testing::ref_clamp(r + p.output_zero_point, std::numeric_limits<T>::min(),
                                       std::numeric_limits<T>::max()))
        << i;
  }
}

TEST(LeakyReluS16, MatchesModelSeanetScales) {
  // leaky_relu0: same scale in and out; leaky_relu1: 0.005836875 -> 0.004642291.
  run_case<int16_t>(kLeakyReluS16Entry, params_for(0.001748823f, 0, 0.2f, 0.001748823f, 0), 1);
  run_case<int16_t>(kLeakyReluS16Entry, params_for(0.005836875f, 0, 0.3f, 0.004642291f, 0), 2);
  run_case<int16_t>(kLeakyReluS16Entry, params_for(0.001f, -300, -0.5f, 0.002f, 1000), 3);
}

TEST(LeakyReluS8, MatchesModel) {
  run_case<int8_t>(kLeakyReluS8Entry, params_for(0.05f, -128, 0.1f, 0.04f, -100), 4);
  run_case<int8_t>(kLeakyReluS8Entry, params_for(0.05f, 127, 1.5f, 0.02f, 0), 5);
  run_case<int8_t>(kLeakyReluS8Entry, params_for(0.05f, 0, -0.2f, 0.05f, 3), 6);  // negative alpha
}

TEST(LeakyReluS8, HandComputed) {
  // Equal scales, alpha 0.25 = (2^30, shift -1), zero points 0: 8 -> 8, -8 -> -2,
  // -6 -> -3 / 2 = -1.5 -> -2 (the rounding shift goes half away from zero),
  // -5 -> round(-2.5) = -2 (doubling high multiply: ties up) -> -2 / 2 = -1.
  const LeakyReluQuantParams p = params_for(0.5f, 0, 0.25f, 0.5f, 0);
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {4});
  const uint32_t out = op.add_output(DType::kInt8, {4});
  op.set_params(p);
  op.set_data(in, std::vector<int8_t>{8, -8, -6, -5});
  ASSERT_EQ(op.check(kLeakyReluS8Entry), Status::kOk);
  op.run(kLeakyReluS8Entry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{8, -2, -2, -1}));
}

TEST(LeakyReluCheck, Rejections) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {4});
  op.add_output(DType::kInt16, {4});
  op.set_params(params_for(0.001f, 0, 0.2f, 0.001f, 0));
  ASSERT_EQ(op.check(kLeakyReluS16Entry), Status::kOk);
  EXPECT_EQ(op.check(kLeakyReluS8Entry), Status::kBadParams);
  auto& p = op.params<LeakyReluQuantParams>();
  p.alpha_multiplier = INT32_MIN;
  EXPECT_EQ(op.check(kLeakyReluS16Entry), Status::kBadParams);
  p.alpha_multiplier = 1 << 30;
  p.identity_shift = 31;
  EXPECT_EQ(op.check(kLeakyReluS16Entry), Status::kBadParams);
  p.identity_shift = 0;
  p.output_zero_point = 40000;
  EXPECT_EQ(op.check(kLeakyReluS16Entry), Status::kBadParams);
  p.output_zero_point = 0;
  op.desc(in).dims[0] = 5;
  EXPECT_EQ(op.check(kLeakyReluS16Entry), Status::kBadParams);
}

}  // namespace leaky_relu_quant_test
}  // namespace mote
