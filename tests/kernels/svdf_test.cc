// svdf_f32 and svdf_s8 against a model of TFLite Micro's Eval{Float,Integer}SvdfReference
// written here, from an arbitrary initial state (the state TFLite Micro would hold before
// a later Invoke()): the state shifts left as one buffer, so each filter's oldest column
// drops and the newest is x . weights_feature; output 1 holds that new state and the state
// input is never written. check() refuses malformed parameters and descriptors.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"
#include "svdf/svdf.h"

namespace mote {
namespace svdf_test {

using testing::TestOp;

struct Dims {
  uint32_t batches, inputs, units, rank, memory;
  uint32_t filters() const { return units * rank; }
};

// TFLite Micro's integer SVDF on state `state` (updated in place).
template <typename T>
std::vector<int8_t> model_s8(const Dims& d, const SvdfS8Params& p, const std::vector<int8_t>& x,
                             const std::vector<int8_t>& wf, const std::vector<T>& wt,
                             const std::vector<int32_t>& bias, std::vector<T>& state) {
  const uint32_t F = d.filters(), M = d.memory;
  for (size_t i = 0; i + 1 < state.size(); ++i) state[i] = state[i + 1];
  for (uint32_t b = 0; b < d.batches; ++b)
    for (uint32_t f = 0; f < F; ++f) {
      int32_t dot = 0;
      for (uint32_t i = 0; i < d.inputs; ++i) dot += wf[f * d.inputs + i] * (x[b * d.inputs + i] - p.input_zero_point);
      dot = testing::ref_clamp(testing::ref_mbqm(dot, p.feature_multiplier, p.feature_shift),
                               std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
      state[(b * F + f) * M + M - 1] = static_cast<T>(p.state_zero_point + dot);
    }
  std::vector<int8_t> y(d.batches * d.units);
  for (uint32_t b = 0; b < d.batches; ++b) {
    std::vector<int32_t> scratch(F);
    for (uint32_t f = 0; f < F; ++f) {
      scratch[f] = 0;
      for (uint32_t m = 0; m < M; ++m) scratch[f] += wt[f * M + m] * (state[(b * F + f) * M + m] - p.state_zero_point);
    }
    for (uint32_t u = 0; u < d.units; ++u) {
      int32_t acc = bias.empty() ? 0 : bias[u];
      for (uint32_t r = 0; r < d.rank; ++r) acc += scratch[u * d.rank + r];
      const int32_t v = testing::ref_mbqm(acc, p.output_multiplier, p.output_shift) + p.output_zero_point;
      y[b * d.units + u] = static_cast<int8_t>(testing::ref_clamp(v, -128, 127));
    }
  }
  return y;
}

template <typename T>
void expect_s8(const Dims& d, DType state_dtype, bool with_bias, uint32_t seed,
               const KernelEntry& entry = kSvdfS8Entry) {
  const uint32_t F = d.filters();
  SvdfS8Params p{};
  p.rank = static_cast<int32_t>(d.rank);
  quantize_multiplier(0.37, &p.feature_multiplier, &p.feature_shift);
  quantize_multiplier(sizeof(T) == 1 ? 0.004 : 0.0003, &p.output_multiplier, &p.output_shift);
  p.input_zero_point = -3;
  p.state_zero_point = sizeof(T) == 1 ? 6 : -40;
  p.output_zero_point = 9;
  const std::vector<int8_t> x = testing::random_ints<int8_t>(d.batches * d.inputs, seed, -128, 127);
  const std::vector<int8_t> wf = testing::random_ints<int8_t>(F * d.inputs, seed + 1, -128, 127);
  const std::vector<T> wt = testing::random_ints<T>(F * d.memory, seed + 2, -300, 300);
  const std::vector<int32_t> bias = testing::random_ints<int32_t>(d.units, seed + 3, -5000, 5000);
  const std::vector<T> state0 = testing::random_ints<T>(d.batches * F * d.memory, seed + 4, -1000, 1000);

  TestOp op;
  const uint32_t xi = op.add_input(DType::kInt8, {d.batches, d.inputs});
  const uint32_t wfi = op.add_input(DType::kInt8, {F, d.inputs});
  const uint32_t wti = op.add_input(state_dtype, {F, d.memory});
  uint32_t bi = 0;
  if (with_bias) {
    bi = op.add_input(DType::kInt32, {d.units});
  } else {
    op.add_missing_input();
  }
  const uint32_t si = op.add_input(state_dtype, {d.batches, d.memory * F});
  const uint32_t yi = op.add_output(DType::kInt8, {d.batches, d.units});
  const uint32_t ni = op.add_output(state_dtype, {d.batches, d.memory * F});
  op.set_params(p);
  op.set_data(xi, x);
  op.set_data(wfi, wf);
  op.set_data(wti, wt);
  if (with_bias) op.set_data(bi, bias);
  op.set_data(si, state0);
  ASSERT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  std::vector<T> state = state0;
  EXPECT_EQ(op.data<int8_t>(yi), model_s8<T>(d, p, x, wf, wt, with_bias ? bias : std::vector<int32_t>{}, state));
  EXPECT_EQ(op.data<T>(ni), state);
  EXPECT_EQ(op.data<T>(si), state0);  // the state input is only read
}

TEST(SvdfS8, Int16StateFromAnArbitraryInitialState) {
  expect_s8<int16_t>({1, 5, 3, 1, 4}, DType::kInt16, true, 1);
  expect_s8<int16_t>({2, 7, 2, 2, 6}, DType::kInt16, true, 2);
  expect_s8<int16_t>({2, 3, 4, 2, 1}, DType::kInt16, false, 3);
}

TEST(SvdfS8, Int8StateFromAnArbitraryInitialState) {
  expect_s8<int8_t>({1, 5, 3, 1, 4}, DType::kInt8, true, 4);
  expect_s8<int8_t>({2, 6, 3, 2, 3}, DType::kInt8, true, 5);
}

// The DSP and Helium variants (their portable definitions on the host) against the same
// model; tests/kernels/conformance checks them bit for bit against svdf_s8 on each core.
TEST(SvdfS8, VariantsFromAnArbitraryInitialState) {
  for (const KernelEntry* entry : {&kSvdfS8DspEntry, &kSvdfS8MveEntry}) {
    expect_s8<int16_t>({1, 5, 3, 1, 4}, DType::kInt16, true, 1, *entry);
    expect_s8<int16_t>({2, 37, 5, 2, 19}, DType::kInt16, true, 2, *entry);
    expect_s8<int16_t>({2, 3, 4, 2, 1}, DType::kInt16, false, 3, *entry);
    expect_s8<int8_t>({1, 40, 9, 1, 33}, DType::kInt8, true, 4, *entry);
    expect_s8<int8_t>({2, 6, 3, 2, 3}, DType::kInt8, true, 5, *entry);
  }
}

TEST(SvdfF32, FromAnArbitraryInitialState) {
  const Dims d{2, 4, 3, 2, 5};
  const uint32_t F = d.filters(), M = d.memory;
  std::mt19937 rng(7);
  auto rand = [&](size_t n) {
    std::vector<float> v(n);
    for (float& e : v) e = std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
    return v;
  };
  const std::vector<float> x = rand(d.batches * d.inputs), wf = rand(F * d.inputs), wt = rand(F * M),
                           bias = rand(d.units), state0 = rand(d.batches * F * M);
  std::vector<float> state = state0;
  for (size_t i = 0; i + 1 < state.size(); ++i) state[i] = state[i + 1];
  for (uint32_t b = 0; b < d.batches; ++b)
    for (uint32_t f = 0; f < F; ++f) {
      float dot = 0.0f;
      for (uint32_t i = 0; i < d.inputs; ++i) dot += wf[f * d.inputs + i] * x[b * d.inputs + i];
      state[(b * F + f) * M + M - 1] = dot;
    }
  std::vector<float> expected(d.batches * d.units);
  for (uint32_t b = 0; b < d.batches; ++b)
    for (uint32_t u = 0; u < d.units; ++u) {
      float acc = bias[u];
      for (uint32_t r = 0; r < d.rank; ++r) {
        float t = 0.0f;
        for (uint32_t m = 0; m < M; ++m) t += wt[(u * d.rank + r) * M + m] * state[(b * F + u * d.rank + r) * M + m];
        acc += t;
      }
      expected[b * d.units + u] = std::max(acc, 0.0f);  // RELU
    }
  TestOp op;
  const uint32_t xi = op.add_input(DType::kFloat32, {d.batches, d.inputs});
  const uint32_t wfi = op.add_input(DType::kFloat32, {F, d.inputs});
  const uint32_t wti = op.add_input(DType::kFloat32, {F, M});
  const uint32_t bi = op.add_input(DType::kFloat32, {d.units});
  const uint32_t si = op.add_input(DType::kFloat32, {d.batches, M * F});
  const uint32_t yi = op.add_output(DType::kFloat32, {d.batches, d.units});
  const uint32_t ni = op.add_output(DType::kFloat32, {d.batches, M * F});
  op.set_params(SvdfF32Params{2, 0.0f, INFINITY});
  op.set_data(xi, x);
  op.set_data(wfi, wf);
  op.set_data(wti, wt);
  op.set_data(bi, bias);
  op.set_data(si, state0);
  ASSERT_EQ(op.check(kSvdfF32Entry), Status::kOk);
  op.run(kSvdfF32Entry);
  const std::vector<float> y = op.data<float>(yi);
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i], 1e-5f) << i;
  const std::vector<float> next = op.data<float>(ni);
  for (size_t i = 0; i < next.size(); ++i) EXPECT_NEAR(next[i], state[i], 1e-5f) << i;
  EXPECT_EQ(op.data<float>(si), state0);
}

TEST(SvdfS8, CheckRefusesMalformedOps) {
  auto make = [](TestOp& op, uint32_t next_elements) {
    op.add_input(DType::kInt8, {1, 4});
    op.add_input(DType::kInt8, {6, 4});
    op.add_input(DType::kInt16, {6, 2});
    op.add_input(DType::kInt32, {3});
    op.add_input(DType::kInt16, {1, 12});
    op.add_output(DType::kInt8, {1, 3});
    op.add_output(DType::kInt16, {1, next_elements});
    SvdfS8Params p{};
    p.rank = 2;
    p.feature_multiplier = p.output_multiplier = 1 << 30;
    op.set_params(p);
  };
  {
    TestOp op;
    make(op, 12);
    EXPECT_EQ(op.check(kSvdfS8Entry), Status::kOk);
    op.params<SvdfS8Params>().rank = 4;  // does not divide 6 filters
    EXPECT_EQ(op.check(kSvdfS8Entry), Status::kBadParams);
    op.params<SvdfS8Params>().rank = 0;
    EXPECT_EQ(op.check(kSvdfS8Entry), Status::kBadParams);
    op.params<SvdfS8Params>().rank = 2;
    op.params<SvdfS8Params>().output_shift = 31;
    EXPECT_EQ(op.check(kSvdfS8Entry), Status::kBadParams);
    op.params<SvdfS8Params>().output_shift = 0;
    op.params<SvdfS8Params>().input_zero_point = 128;
    EXPECT_EQ(op.check(kSvdfS8Entry), Status::kBadParams);
    op.params<SvdfS8Params>().input_zero_point = 0;
    op.desc(4).dtype = static_cast<uint8_t>(DType::kInt8);  // state dtype != weights_time's
    EXPECT_EQ(op.check(kSvdfS8Entry), Status::kBadParams);
    op.desc(4).dtype = static_cast<uint8_t>(DType::kInt16);
    op.set_dims(5, {1, 6});  // output units != filters / rank
    EXPECT_EQ(op.check(kSvdfS8Entry), Status::kBadParams);
    op.set_dims(5, {1, 3});
    op.desc(6).dtype = static_cast<uint8_t>(DType::kInt8);  // new state dtype != the state's
    EXPECT_EQ(op.check(kSvdfS8Entry), Status::kBadParams);
    op.desc(6).dtype = static_cast<uint8_t>(DType::kInt16);
    EXPECT_EQ(op.check(kSvdfS8Entry), Status::kOk);
    op.set_params_bytes(sizeof(SvdfS8Params) - 4);
    EXPECT_EQ(op.check(kSvdfS8Entry), Status::kBadParams);
  }
  {
    TestOp op;
    make(op, 11);  // one element short of the state
    EXPECT_EQ(op.check(kSvdfS8Entry), Status::kBadParams);
  }
}

}  // namespace svdf_test
}  // namespace mote
