// SVDF: float32 and int8 (int16 or int8 weights_time and activation state), the dtypes
// TensorFlow Lite Micro's kernel takes, over batch 1 and 2, rank 1 and 2, memory sizes 1
// to 10, with and without bias and with the fused activations. The activation state is a
// variable tensor: one Mote run equals TFLite Micro's first Invoke() after
// AllocateTensors (the state reset to zeros; the zero point for int8). The oracle is
// TFLite Micro's Eval{Float,Integer}SvdfReference arithmetic written here: shift the
// state left, write x . weights_feature into each filter's newest column, dot each
// filter's memory with weights_time, sum rank filters per unit with the bias.
#include <cmath>
#include <random>

#include "kernels/quant_test_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace svdf_test {

constexpr int32_t kSvdf = op_code(fb::BuiltinOperator::SVDF);

struct Dims {
  int32_t batches, inputs, units, rank, memory;
  int32_t filters() const { return units * rank; }
};

OptionsFn svdf_options(int32_t rank, fb::ActivationFunctionType act) {
  return [rank, act](flatbuffers::FlatBufferBuilder& b) { return fb::CreateSVDFOptions(b, rank, act).Union(); };
}

// The model: x (graph input), weights_feature, weights_time, bias (-1: none), state (a
// variable), y. The state is not a graph input.
ModelSpec svdf_model(const Dims& d, TensorSpec x, TensorSpec wf, TensorSpec wt, TensorSpec bias, TensorSpec state,
                     TensorSpec y, bool with_bias, fb::ActivationFunctionType act) {
  state.is_variable = true;
  ModelSpec m = single_op_model({std::move(x), std::move(wf), std::move(wt), std::move(bias), std::move(state),
                                 std::move(y)},
                                kSvdf, {0, 1, 2, with_bias ? 3 : -1, 4}, {5}, fb::BuiltinOptions::SVDFOptions,
                                svdf_options(d.rank, act));
  m.inputs = {0};
  return m;
}

float activate(float v, fb::ActivationFunctionType act) {
  switch (act) {
    case fb::ActivationFunctionType::RELU: return std::max(0.0f, v);
    case fb::ActivationFunctionType::RELU6: return std::min(std::max(0.0f, v), 6.0f);
    case fb::ActivationFunctionType::RELU_N1_TO_1: return std::min(std::max(-1.0f, v), 1.0f);
    default: return v;
  }
}

// TFLite Micro's float SVDF on `state` (updated as its variable tensor is; zeros before
// the first Invoke).
std::vector<float> ref_svdf_f32(const Dims& d, const std::vector<float>& x, const std::vector<float>& wf,
                                const std::vector<float>& wt, const std::vector<float>* bias,
                                fb::ActivationFunctionType act, std::vector<float>& state) {
  const int32_t F = d.filters(), M = d.memory;
  for (size_t i = 0; i + 1 < state.size(); ++i) state[i] = state[i + 1];
  for (int32_t b = 0; b < d.batches; ++b)
    for (int32_t f = 0; f < F; ++f) {
      float dot = 0.0f;
      for (int32_t i = 0; i < d.inputs; ++i) dot += wf[f * d.inputs + i] * x[b * d.inputs + i];
      state[(b * F + f) * M + M - 1] = dot;
    }
  std::vector<float> y(static_cast<size_t>(d.batches * d.units));
  for (int32_t b = 0; b < d.batches; ++b) {
    std::vector<float> t(static_cast<size_t>(F));
    for (int32_t f = 0; f < F; ++f) {
      t[f] = 0.0f;
      for (int32_t m = 0; m < M; ++m) t[f] += wt[f * M + m] * state[(b * F + f) * M + m];
    }
    for (int32_t u = 0; u < d.units; ++u) {
      float acc = bias ? (*bias)[u] : 0.0f;
      for (int32_t r = 0; r < d.rank; ++r) acc += t[u * d.rank + r];
      y[b * d.units + u] = activate(acc, act);
    }
  }
  return y;
}

std::vector<float> random_floats(size_t n, uint32_t seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::vector<float> v(n);
  for (float& e : v) e = std::uniform_real_distribution<float>(lo, hi)(rng);
  return v;
}

// `frames` runs of one loaded program (frames > 1: expect_op_sequence), each input
// frame random, the oracle's state carried from run to run.
void expect_float(const Dims& d, bool with_bias, fb::ActivationFunctionType act, uint32_t seed, int frames = 1) {
  const int32_t F = d.filters();
  const std::vector<float> wf = random_floats(static_cast<size_t>(F * d.inputs), seed + 1, -1.0f, 1.0f);
  const std::vector<float> wt = random_floats(static_cast<size_t>(F * d.memory), seed + 2, -1.0f, 1.0f);
  const std::vector<float> bias = random_floats(static_cast<size_t>(d.units), seed + 3, -1.0f, 1.0f);
  std::vector<float> state(static_cast<size_t>(d.batches * F * d.memory), 0.0f);
  std::vector<OpSample> samples;
  for (int frame = 0; frame < frames; ++frame) {
    const std::vector<float> x =
        random_floats(static_cast<size_t>(d.batches * d.inputs), seed + 100 * static_cast<uint32_t>(frame), -2.0f, 2.0f);
    const std::vector<float> y = ref_svdf_f32(d, x, wf, wt, with_bias ? &bias : nullptr, act, state);
    samples.push_back({{bytes_of(x)}, {bytes_of(y)}});
  }
  const ModelSpec spec = svdf_model(
      d, TensorSpec("x", {d.batches, d.inputs}), TensorSpec("wf", {F, d.inputs}, fb::TensorType::FLOAT32, bytes_of(wf)),
      TensorSpec("wt", {F, d.memory}, fb::TensorType::FLOAT32, bytes_of(wt)),
      TensorSpec("bias", {d.units}, fb::TensorType::FLOAT32, bytes_of(bias)),
      TensorSpec("state", {d.batches, d.memory * F}), TensorSpec("y", {d.batches, d.units}), with_bias, act);
  const std::string name = "svdf_f32_" + std::to_string(seed);
  SCOPED_TRACE(name);
  if (frames == 1) {
    expect_op_outputs(name, spec, samples, {1e-5, 1e-5});
  } else {
    expect_op_sequence(name, spec, samples, {1e-5, 1e-5});
  }
}

OP_TEST(Svdf, Float32BatchesRanksMemoryBiasActivations) {
  using A = fb::ActivationFunctionType;
  expect_float({1, 5, 4, 1, 3}, true, A::NONE, 10);
  expect_float({2, 5, 4, 2, 3}, true, A::NONE, 11);
  expect_float({2, 7, 3, 2, 10}, false, A::NONE, 12);
  expect_float({1, 3, 6, 1, 1}, false, A::RELU, 13);
  expect_float({2, 8, 5, 2, 4}, true, A::RELU, 14);
  expect_float({2, 4, 3, 1, 2}, true, A::RELU6, 15);
  expect_float({1, 4, 3, 2, 2}, true, A::RELU_N1_TO_1, 16);
}

struct QuantCase {
  Dims d;
  fb::TensorType state_type;  // INT16 or INT8: weights_time and the state
  float x_scale;
  int64_t x_zp;
  float wf_scale, wt_scale, state_scale;
  int64_t state_zp;
  float y_scale;
  int64_t y_zp;
  fb::ActivationFunctionType act;  // TFLite Micro's integer SVDF ignores it
};

// The state before TFLite Micro's first Invoke, as ResetTensorData fills it: the zero
// point for int8, zeros for int16.
template <typename T>
std::vector<T> reset_state_s8(const QuantCase& c) {
  const T init = sizeof(T) == 1 ? static_cast<T>(c.state_zp) : T{0};
  return std::vector<T>(static_cast<size_t>(c.d.batches * c.d.filters() * c.d.memory), init);
}

// TFLite Micro's EvalIntegerSvdfReference<T> on `state` (updated as its variable tensor).
template <typename T>
std::vector<int8_t> ref_svdf_s8(const QuantCase& c, const std::vector<int8_t>& x, const std::vector<int8_t>& wf,
                                const std::vector<T>& wt, const std::vector<int32_t>& bias, std::vector<T>& state) {
  const Dims& d = c.d;
  const int32_t F = d.filters(), M = d.memory;
  int32_t m1 = 0, s1 = 0, m2 = 0, s2 = 0;
  ref_quantize_multiplier(static_cast<double>(c.x_scale * c.wf_scale / c.state_scale), &m1, &s1);
  ref_quantize_multiplier(static_cast<double>(c.state_scale * c.wt_scale / c.y_scale), &m2, &s2);
  const int32_t zs = static_cast<int32_t>(c.state_zp);
  for (size_t i = 0; i + 1 < state.size(); ++i) state[i] = state[i + 1];
  for (int32_t b = 0; b < d.batches; ++b)
    for (int32_t f = 0; f < F; ++f) {
      int32_t dot = 0;
      for (int32_t i = 0; i < d.inputs; ++i)
        dot += wf[f * d.inputs + i] * (x[b * d.inputs + i] - static_cast<int32_t>(c.x_zp));
      dot = ref_clamp(ref_mbqm(dot, m1, s1), std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
      state[(b * F + f) * M + M - 1] = static_cast<T>(zs + dot);
    }
  std::vector<int8_t> y(static_cast<size_t>(d.batches * d.units));
  for (int32_t b = 0; b < d.batches; ++b)
    for (int32_t u = 0; u < d.units; ++u) {
      int64_t acc = bias[u];
      for (int32_t r = 0; r < d.rank; ++r) {
        const int32_t f = u * d.rank + r;
        for (int32_t m = 0; m < M; ++m) acc += int64_t{wt[f * M + m]} * (state[(b * F + f) * M + m] - zs);
      }
      y[b * d.units + u] = static_cast<int8_t>(
          ref_clamp(int64_t{ref_mbqm(static_cast<int32_t>(acc), m2, s2)} + c.y_zp, -128, 127));
    }
  return y;
}

// `frames` runs of one loaded program (frames > 1: expect_op_sequence), as expect_float.
template <typename T>
void expect_quantized(const QuantCase& c, uint32_t seed, int frames = 1) {
  const Dims& d = c.d;
  const int32_t F = d.filters();
  const int64_t wt_lim = sizeof(T) == 1 ? 127 : 2000;
  const std::vector<int8_t> wf = random_ints<int8_t>(static_cast<size_t>(F * d.inputs), seed + 1, -128, 127);
  const std::vector<T> wt = random_ints<T>(static_cast<size_t>(F * d.memory), seed + 2, -wt_lim, wt_lim);
  const std::vector<int32_t> bias = random_ints<int32_t>(static_cast<size_t>(d.units), seed + 3, -20000, 20000);
  std::vector<T> state = reset_state_s8<T>(c);
  std::vector<OpSample> samples;
  for (int frame = 0; frame < frames; ++frame) {
    std::vector<int8_t> x =
        random_ints<int8_t>(static_cast<size_t>(d.batches * d.inputs), seed + 100 * static_cast<uint32_t>(frame), -128, 127);
    x[0] = -128;
    if (x.size() > 1) x[1] = 127;
    const std::vector<int8_t> y = ref_svdf_s8<T>(c, x, wf, wt, bias, state);
    samples.push_back({{bytes_of(x)}, {bytes_of(y)}});
  }
  const ModelSpec spec = svdf_model(
      d, quantized("x", {d.batches, d.inputs}, fb::TensorType::INT8, c.x_scale, c.x_zp),
      quantized("wf", {F, d.inputs}, fb::TensorType::INT8, c.wf_scale, 0, bytes_of(wf)),
      quantized("wt", {F, d.memory}, c.state_type, c.wt_scale, 0, bytes_of(wt)),
      quantized("bias", {d.units}, fb::TensorType::INT32, c.state_scale * c.wt_scale, 0, bytes_of(bias)),
      quantized("state", {d.batches, d.memory * F}, c.state_type, c.state_scale, c.state_zp),
      quantized("y", {d.batches, d.units}, fb::TensorType::INT8, c.y_scale, c.y_zp), true, c.act);
  const std::string name = "svdf_s8_" + std::to_string(seed);
  SCOPED_TRACE(name);
  if (frames == 1) {
    expect_op_outputs(name, spec, samples);
  } else {
    expect_op_sequence(name, spec, samples);
  }
}

OP_TEST(Svdf, Int8WithInt16StateAsTfliteMicro) {
  using A = fb::ActivationFunctionType;
  const fb::TensorType s16 = fb::TensorType::INT16;
  const QuantCase cases[] = {
      {{1, 8, 4, 1, 3}, s16, 0.02f, 3, 0.01f, 0.001f, 0.0005f, 0, 0.5f, -2, A::NONE},
      {{2, 8, 4, 2, 10}, s16, 0.02f, -128, 0.01f, 0.001f, 0.0005f, 0, 0.5f, 7, A::NONE},
      {{2, 5, 3, 2, 1}, s16, 0.05f, 0, 0.02f, 0.002f, 0.004f, 0, 0.05f, 0, A::RELU},
      {{1, 16, 2, 1, 4}, s16, 0.1f, -7, 0.02f, 0.0005f, 0.0001f, 0, 0.02f, 127, A::NONE},  // state saturates
  };
  uint32_t seed = 30;
  for (const QuantCase& c : cases) expect_quantized<int16_t>(c, seed++);
}

OP_TEST(Svdf, Int8WithInt8StateAsTfliteMicro) {
  using A = fb::ActivationFunctionType;
  const fb::TensorType s8 = fb::TensorType::INT8;
  const QuantCase cases[] = {
      {{1, 6, 4, 1, 3}, s8, 0.02f, 3, 0.01f, 0.01f, 0.05f, -5, 0.1f, 4, A::NONE},
      {{2, 6, 3, 2, 5}, s8, 0.03f, -20, 0.01f, 0.02f, 0.1f, 12, 0.05f, -128, A::RELU},
      {{2, 4, 2, 1, 1}, s8, 0.05f, 0, 0.02f, 0.01f, 0.02f, 0, 0.2f, 0, A::NONE},
  };
  uint32_t seed = 40;
  for (const QuantCase& c : cases) expect_quantized<int8_t>(c, seed++);
}

// Three frames through one loaded program: each run's output follows from the state the
// runs before left (memory 3 and 4: the first frame's column is still read on the third).
OP_TEST(Svdf, StateCarriesOverThreeRuns) {
  using A = fb::ActivationFunctionType;
  expect_float({2, 5, 4, 2, 3}, true, A::NONE, 60, 3);
  expect_float({1, 4, 3, 1, 4}, false, A::RELU, 61, 3);
  const fb::TensorType s16 = fb::TensorType::INT16, s8 = fb::TensorType::INT8;
  expect_quantized<int16_t>({{2, 8, 4, 2, 3}, s16, 0.02f, -128, 0.01f, 0.001f, 0.0005f, 0, 0.5f, 7, A::NONE}, 62, 3);
  expect_quantized<int8_t>({{2, 6, 3, 2, 4}, s8, 0.03f, -20, 0.01f, 0.02f, 0.1f, 12, 0.05f, -128, A::NONE}, 63, 3);
  expect_quantized<int8_t>({{1, 6, 4, 1, 3}, s8, 0.02f, 3, 0.01f, 0.01f, 0.05f, -5, 0.1f, 4, A::NONE}, 64, 3);
  // An int16 state with a nonzero zero point starts at 0 (TFLite Micro's ResetTensorData
  // fills only int8 variables with their zero point), then carries over.
  expect_quantized<int16_t>({{1, 8, 4, 2, 3}, s16, 0.02f, 3, 0.01f, 0.001f, 0.0005f, 300, 0.5f, -2, A::NONE}, 65, 3);
}

// Keyword-spotting sizes (40 features; 128 filters as 64 units of rank 2 with memory 32,
// 96 filters of rank 1 with memory 17), the shapes the DSP and Helium variants are
// measured on: full vector steps and their tails, over three runs.
OP_TEST(Svdf, KeywordSpottingSizesAsTfliteMicro) {
  using A = fb::ActivationFunctionType;
  const fb::TensorType s16 = fb::TensorType::INT16, s8 = fb::TensorType::INT8;
  expect_quantized<int16_t>({{1, 40, 64, 2, 32}, s16, 0.02f, -9, 0.01f, 0.001f, 0.0005f, 0, 0.5f, 3, A::NONE}, 70, 3);
  expect_quantized<int8_t>({{1, 40, 96, 1, 17}, s8, 0.02f, 5, 0.01f, 0.01f, 0.05f, -3, 0.1f, 2, A::NONE}, 71, 3);
}

OP_TEST(Svdf, RefusalsAreOneLine) {
  using A = fb::ActivationFunctionType;
  const Dims d{1, 4, 3, 2, 2};
  const std::vector<float> wf(24, 0.5f), wt(12, 0.25f), bias(3, 0.0f);
  auto float_model = [&](int32_t rank, A act, bool variable) {
    ModelSpec m = svdf_model(
        {d.batches, d.inputs, d.units, rank, d.memory}, TensorSpec("x", {1, 4}),
        TensorSpec("wf", {6, 4}, fb::TensorType::FLOAT32, bytes_of(std::vector<float>(wf.begin(), wf.begin() + 24))),
        TensorSpec("wt", {6, 2}, fb::TensorType::FLOAT32, bytes_of(wt)),
        TensorSpec("bias", {3}, fb::TensorType::FLOAT32, bytes_of(bias)), TensorSpec("state", {1, 12}),
        TensorSpec("y", {1, 3}), true, act);
    if (!variable) m.tensors[4].is_variable = false, m.inputs = {0, 4};
    return m;
  };
  EXPECT_EQ(op_error("svdf_rank", float_model(4, A::NONE, true)),
            "svdf_rank.tflite: operator 0 (SVDF): rank 4 does not divide the 6 filters of weights_feature [6,4]");
  EXPECT_EQ(op_error("svdf_tanh", float_model(2, A::TANH, true)),
            "svdf_tanh.tflite: operator 0 (SVDF): fused activation TANH not supported");
  EXPECT_EQ(op_error("svdf_state", float_model(2, A::NONE, false)),
            "svdf_state.tflite: operator 0 (SVDF): activation state (input 4) 'state' is not a variable tensor");
  ModelSpec input_state = float_model(2, A::NONE, true);
  input_state.inputs = {0, 4};  // a variable tensor, but fed by the caller
  EXPECT_EQ(op_error("svdf_input_state", input_state),
            "svdf_input_state.tflite: operator 0 (SVDF): activation state (input 4) 'state' is a graph input, not a "
            "variable tensor kept between runs");

  const std::vector<int8_t> q(24, 1);
  auto int8_model = [&](float bias_scale, bool with_bias, fb::TensorType wt_type, fb::TensorType state_type) {
    return svdf_model(d, quantized("x", {1, 4}, fb::TensorType::INT8, 0.02f, 0),
                      quantized("wf", {6, 4}, fb::TensorType::INT8, 0.01f, 0, bytes_of(q)),
                      quantized("wt", {6, 2}, wt_type, 0.001f, 0,
                                bytes_of(std::vector<int8_t>(q.begin(), q.begin() + (wt_type == fb::TensorType::INT8 ? 12 : 24)))),
                      quantized("bias", {3}, fb::TensorType::INT32, bias_scale, 0, bytes_of(std::vector<int32_t>(3, 0))),
                      quantized("state", {1, 12}, state_type, 0.0005f, 0),
                      quantized("y", {1, 3}, fb::TensorType::INT8, 0.5f, 0), with_bias, A::NONE);
  };
  const fb::TensorType s16 = fb::TensorType::INT16, s8 = fb::TensorType::INT8;
  EXPECT_EQ(op_error("svdf_s8_ok", int8_model(0.0005f * 0.001f, true, s16, s16)), "");
  EXPECT_EQ(op_error("svdf_s8_nobias", int8_model(0.0005f * 0.001f, false, s16, s16)),
            "node 'y' (svdf): the int8 SVDF needs a bias (TFLite Micro's Prepare reads its scale)");
  EXPECT_EQ(op_error("svdf_s8_bias_scale", int8_model(0.01f, true, s16, s16)),
            "node 'y' (svdf): bias 'bias' has scale 0.00999999978, expected activation state scale * weights_time "
            "scale = 5.00000056e-07");
  EXPECT_EQ(op_error("svdf_s8_mixed_state", int8_model(0.0005f * 0.001f, true, s16, s8)),
            "node 'y' (svdf): activation state 'state' has dtype int8, expected int16");
}

}  // namespace svdf_test
}  // namespace mote::testing
