// Quantized clamp (int8, int16) against the model of TFLite's ReluX: requantize with the
// 32-bit MultiplyByQuantizedMultiplier, add the output zero point, clamp.
#include <gtest/gtest.h>

#include <vector>

#include "activation/activation.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"

namespace mote {
namespace clamp_quant_test {

using testing::TestOp;

template <typename T>
void run_case(const KernelEntry& entry, const ClampQuantParams& p, uint32_t seed) {
  constexpr DType kDType = sizeof(T) == 1 ? DType::kInt8 : DType::kInt16;
  auto x = testing::random_full_range<T>(2000, seed);
  x[0] = std::numeric_limits<T>::min();
  x[1] = std::numeric_limits<T>::max();
  TestOp op;
  const uint32_t in = op.add_input(kDType, {2, 1000});
  const uint32_t out = op.add_output(kDType, {2, 1000});
  op.set_params(p);
  op.set_data(in, x);
  ASSERT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  const auto y = op.data<T>(out);
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t r = int64_t{p.output_zero_point} + testing::ref_mbqm(x[i] - p.input_zero_point, p.multiplier, p.shift);
    ASSERT_EQ(y[i], testing::ref_clamp(r, p.act_min, p.act_max)) << i;
  }
}

ClampQuantParams params_for(float in_scale, int32_t in_zp, float out_scale, int32_t out_zp, int32_t lo,
                            int32_t hi) {
  ClampQuantParams p{in_zp, out_zp, 0, 0, lo, hi};
  requantize_multiplier(in_scale, out_scale, &p.multiplier, &p.shift);
  return p;
}

TEST(ClampS8, MatchesModel) {
  run_case<int8_t>(kClampS8Entry, params_for(0.05f, -20, 0.05f, -20, -20, 127), 1);  // ReLU, same scale
  run_case<int8_t>(kClampS8Entry, params_for(0.05f, 3, 0.02f, -128, -128, 127), 2);  // rescale up
  run_case<int8_t>(kClampS8Entry, params_for(0.01f, 0, 0.3f, 10, 10, 30), 3);        // rescale down
  run_case<int8_t>(kClampS8Entry, params_for(0.5f, 0, 0.001f, 0, -100, 100), 4);     // shift > 0
  ClampQuantParams identity{7, 7, 0, 0, 7, 67};
  quantize_multiplier(1.0, &identity.multiplier, &identity.shift);
  run_case<int8_t>(kClampS8Entry, identity, 5);
}

TEST(ClampS16, MatchesModel) {
  run_case<int16_t>(kClampS16Entry, params_for(0.001f, 0, 0.001f, 0, 0, 32767), 6);
  run_case<int16_t>(kClampS16Entry, params_for(0.001f, 0, 0.0007f, 0, 0, 8571), 7);
  run_case<int16_t>(kClampS16Entry, params_for(0.0003f, 0, 0.01f, 0, -100, 100), 8);
}

TEST(ClampQuantCheck, Rejections) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {4});
  op.add_output(DType::kInt8, {4});
  op.set_params(params_for(0.05f, 0, 0.05f, 0, 0, 127));
  ASSERT_EQ(op.check(kClampS8Entry), Status::kOk);
  EXPECT_EQ(op.check(kClampS16Entry), Status::kBadParams);
  auto& p = op.params<ClampQuantParams>();
  p.act_min = 100;
  p.act_max = 99;
  EXPECT_EQ(op.check(kClampS8Entry), Status::kBadParams);
  p.act_min = -129;
  p.act_max = 127;
  EXPECT_EQ(op.check(kClampS8Entry), Status::kBadParams);
  p.act_min = 0;
  p.shift = 31;
  EXPECT_EQ(op.check(kClampS8Entry), Status::kBadParams);
  p.shift = 1;
  p.multiplier = -1;
  EXPECT_EQ(op.check(kClampS8Entry), Status::kBadParams);
  p.multiplier = 1 << 30;
  p.input_zero_point = 200;
  EXPECT_EQ(op.check(kClampS8Entry), Status::kBadParams);
  p.input_zero_point = 0;
  ASSERT_EQ(op.check(kClampS8Entry), Status::kOk);
  op.desc(in).dims[0] = 5;
  EXPECT_EQ(op.check(kClampS8Entry), Status::kBadParams);
}

}  // namespace clamp_quant_test
}  // namespace mote
