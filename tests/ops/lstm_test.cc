// UNIDIRECTIONAL_SEQUENCE_LSTM, float32 and 16x8 (int16 activations, int8 weights, int64
// biases, int16 cell state; the int8 form is covered by the shared MNIST LSTM model and
// tests/kernels/lstm_s8_test.cc): batch major and time major, several batches,
// time steps, input and state sizes, cell_clip off and active, proj_clip and asymmetric_quantize_inputs (not used without projection
// and for float), 20-input files (written before the layer-norm inputs existed), gate
// pre-activations beyond TFLite's sigmoid cutoffs; and the refusals of what TensorFlow Lite
// Micro refuses (peephole, projection, layer norm, CIFG, other activations, hybrid
// weights). The hidden and cell state are variable tensors that persist between runs as
// in TFLite Micro's reference kernel: zeros at the first Invoke(), then what the run
// before left (the carried cases run three sequences through one loaded program).
//
// The float oracle is TFLite Micro's float LSTM step (lstm_eval.h) in double: per gate
// FC(x) + bias + FC(h), sigmoid as TFLite's reference Logistic (1 above 16.619047, e^x below
// -9), c = f * c + i * z clipped to +-cell_clip when cell_clip > 0, h = tanh(c) * o.
// Tolerance 3e-5 absolute + 1e-5 relative: the float32 kernel rounds each of the
// I + H + 1 products and sums of a gate (here at most 17 terms of magnitude below 8, so
// under 17 * 8 * 2^-24 = 8e-6 per gate) and libm's expf / tanhf add a few ulps; gate
// outputs in (0, 1) and |tanh| < 1 keep those errors from growing over the steps.
// The 16x8 oracle is TFLite Micro's integer arithmetic written here (its
// PrepareGateParametersInteger and CreateLstmCellStateInfo, then the int64 FullyConnected,
// int16 Logistic / Tanh (kernels/sigmoid_lut_ref.h), MulElementwise and saturating adds of
// LstmStep); the outputs compare bit for bit.
#include <cmath>
#include <random>

#include "kernels/quant_test_util.h"
#include "kernels/sigmoid_lut_ref.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace lstm_test {

using A = fb::ActivationFunctionType;
constexpr int32_t kLstm = op_code(fb::BuiltinOperator::UNIDIRECTIONAL_SEQUENCE_LSTM);
const FloatTolerance kTolerance{3e-5, 1e-5};

const char* const kNames[8] = {"wx_i", "wx_f", "wx_c", "wx_o", "wh_i", "wh_f", "wh_c", "wh_o"};
const char* const kBiasNames[4] = {"b_i", "b_f", "b_c", "b_o"};

struct Case {
  int32_t batches, steps, inputs, units;
  bool time_major = false;
  A activation = A::TANH;  // the cell gate's; of the schema's values TFLite Micro applies only TANH
  float cell_clip = 0.0f;
  float weight_range = 1.0f;  // weights and biases uniform in +-weight_range
  float proj_clip = 0.0f;
  bool asymmetric_quantize_inputs = false;
  int32_t input_count = 24;  // 20: a file without the layer-norm inputs
};

std::vector<float> random_floats(size_t n, std::mt19937& rng, float range) {
  std::vector<float> v(n);
  for (float& e : v) e = std::uniform_real_distribution<float>(-range, range)(rng);
  return v;
}

struct Tensors {
  std::vector<float> x;
  std::vector<float> w[8];  // input weights of the gates input, forget, cell, output; then the recurrent ones
  std::vector<float> bias[4];
};

Tensors random_tensors(const Case& c, uint32_t seed) {
  std::mt19937 rng(seed);
  Tensors t;
  t.x = random_floats(static_cast<size_t>(c.batches * c.steps * c.inputs), rng, 2.0f);
  for (int g = 0; g < 4; ++g) t.w[g] = random_floats(static_cast<size_t>(c.units * c.inputs), rng, c.weight_range);
  for (int g = 0; g < 4; ++g) t.w[4 + g] = random_floats(static_cast<size_t>(c.units * c.units), rng, c.weight_range);
  for (int g = 0; g < 4; ++g) t.bias[g] = random_floats(static_cast<size_t>(c.units), rng, c.weight_range);
  return t;
}

double ref_sigmoid(double v) {
  if (v > 16.619047164916992188) return 1.0;
  if (v < -9.0) return std::exp(v);
  return 1.0 / (1.0 + std::exp(-v));
}

// The hidden and cell state the reference kernel keeps in its variable tensors, B x H
// each: zeros at the first Invoke(), then what the Invoke() before left.
template <typename T>
struct State {
  std::vector<T> h, c;
  State(int32_t batches, int32_t units)
      : h(static_cast<size_t>(batches * units), T{0}), c(static_cast<size_t>(batches * units), T{0}) {}
};

// TFLite Micro's float LSTM (reference kernel) from `state`, which it updates.
std::vector<float> ref_lstm_f32(const Case& c, const Tensors& t, State<double>& state) {
  const int32_t B = c.batches, T = c.steps, I = c.inputs, H = c.units;
  std::vector<float> y(static_cast<size_t>(B * T * H));
  for (int32_t b = 0; b < B; ++b) {
    std::vector<double> h(state.h.begin() + b * H, state.h.begin() + (b + 1) * H);
    std::vector<double> cell(state.c.begin() + b * H, state.c.begin() + (b + 1) * H);
    for (int32_t s = 0; s < T; ++s) {
      const int32_t row = c.time_major ? s * B + b : b * T + s;
      const float* x = t.x.data() + row * I;
      std::vector<double> gate[4];
      for (int g = 0; g < 4; ++g) {
        gate[g].resize(static_cast<size_t>(H));
        for (int32_t n = 0; n < H; ++n) {
          double fc_x = 0.0, fc_h = 0.0;
          for (int32_t k = 0; k < I; ++k) fc_x += static_cast<double>(t.w[g][n * I + k]) * x[k];
          for (int32_t k = 0; k < H; ++k) fc_h += static_cast<double>(t.w[4 + g][n * H + k]) * h[k];
          const double pre = fc_x + t.bias[g][n] + fc_h;
          gate[g][n] = g == 2 ? std::tanh(pre) : ref_sigmoid(pre);
        }
      }
      for (int32_t n = 0; n < H; ++n) {
        double v = gate[1][n] * cell[n] + gate[0][n] * gate[2][n];
        if (c.cell_clip > 0.0f) v = std::min(std::max(v, -static_cast<double>(c.cell_clip)), static_cast<double>(c.cell_clip));
        cell[n] = v;
        h[n] = std::tanh(v) * gate[3][n];
        y[static_cast<size_t>(row * H + n)] = static_cast<float>(h[n]);
      }
    }
    // The kernel keeps float32 state: the next Invoke() starts from these values rounded.
    for (int32_t n = 0; n < H; ++n) {
      state.h[b * H + n] = static_cast<float>(h[n]);
      state.c[b * H + n] = static_cast<float>(cell[n]);
    }
  }
  return y;
}

OptionsFn lstm_options(const Case& c, bool diagonal = false) {
  return [c, diagonal](flatbuffers::FlatBufferBuilder& b) {
    return fb::CreateUnidirectionalSequenceLSTMOptions(b, c.activation, c.cell_clip, c.proj_clip, c.time_major,
                                                       c.asymmetric_quantize_inputs, diagonal)
        .Union();
  };
}

// The op's inputs over tensors 0 x, 1..8 weights, 9..12 biases, 13 h0, 14 c0 (TFLite's
// 24 positions, or the first 20).
std::vector<int32_t> lstm_inputs(int32_t count) {
  std::vector<int32_t> inputs = {0, 1, 2, 3, 4, 5, 6, 7, 8, -1, -1, -1, 9, 10, 11, 12, -1, -1, 13, 14, -1, -1, -1, -1};
  inputs.resize(static_cast<size_t>(count));
  return inputs;
}

std::vector<int32_t> sequence_shape(int32_t batches, int32_t steps, int32_t width, bool time_major) {
  return time_major ? std::vector<int32_t>{steps, batches, width} : std::vector<int32_t>{batches, steps, width};
}

// Tensors 0 x, 1..8 weights, 9..12 biases, 13 h0 and 14 c0 (variables), 15 y; `extra`
// tensors (16...) may be wired into the optional inputs by `wire`.
ModelSpec lstm_model(const Case& c, const Tensors& t, std::vector<TensorSpec> extra = {},
                     const std::function<void(std::vector<int32_t>&)>& wire = nullptr,
                     fb::TensorType weight_type = fb::TensorType::FLOAT32, bool diagonal = false) {
  const std::vector<int32_t> x_shape = sequence_shape(c.batches, c.steps, c.inputs, c.time_major);
  const std::vector<int32_t> y_shape = sequence_shape(c.batches, c.steps, c.units, c.time_major);
  std::vector<TensorSpec> tensors = {TensorSpec("x", x_shape)};
  for (int k = 0; k < 8; ++k) {
    const std::vector<int32_t> shape = {c.units, k < 4 ? c.inputs : c.units};
    if (weight_type == fb::TensorType::INT8) {
      std::vector<int8_t> q(t.w[k].size());
      for (size_t i = 0; i < q.size(); ++i) q[i] = static_cast<int8_t>(std::lround(t.w[k][i] * 100.0f));
      tensors.push_back(quantized(kNames[k], shape, fb::TensorType::INT8, 0.01f, 0, bytes_of(q)));
    } else {
      tensors.push_back(TensorSpec(kNames[k], shape, fb::TensorType::FLOAT32, bytes_of(t.w[k])));
    }
  }
  for (int g = 0; g < 4; ++g) tensors.push_back(TensorSpec(kBiasNames[g], {c.units}, fb::TensorType::FLOAT32, bytes_of(t.bias[g])));
  TensorSpec h0("h0", {c.batches, c.units});
  TensorSpec c0("c0", {c.batches, c.units});
  h0.is_variable = c0.is_variable = true;
  tensors.push_back(h0);
  tensors.push_back(c0);
  tensors.push_back(TensorSpec("y", y_shape));
  for (TensorSpec& e : extra) tensors.push_back(std::move(e));
  std::vector<int32_t> inputs = lstm_inputs(c.input_count);
  if (wire) wire(inputs);
  ModelSpec m = single_op_model(std::move(tensors), kLstm, inputs, {15}, fb::BuiltinOptions::UnidirectionalSequenceLSTMOptions,
                                lstm_options(c, diagonal));
  m.inputs = {0};
  return m;
}

// Samples of new input sequences (the weights stay). With `carried` they run in order in
// one loaded program (expect_op_sequence) and the oracle keeps its state from one to the
// next; else each starts from the reset state.
void expect_lstm(const std::string& name, const Case& c, uint32_t seed, bool carried = false) {
  SCOPED_TRACE(name);
  std::vector<OpSample> samples;
  const Tensors t = random_tensors(c, seed);
  State<double> state(c.batches, c.units);
  for (uint32_t k = 0; k < (carried ? 3u : 2u); ++k) {
    Tensors s = t;
    s.x = random_tensors(c, seed + 100 + k).x;
    if (!carried) state = State<double>(c.batches, c.units);
    const std::vector<float> y = ref_lstm_f32(c, s, state);
    for (float v : y) ASSERT_TRUE(std::isfinite(v));
    samples.push_back({{bytes_of(s.x)}, {bytes_of(y)}});
  }
  if (carried) {
    expect_op_sequence(name, lstm_model(c, t), samples, kTolerance);
  } else {
    expect_op_outputs(name, lstm_model(c, t), samples, kTolerance);
  }
}

OP_TEST(LstmF32, BatchMajorBatchesAndSteps) {
  expect_lstm("lstm_f32_b1", {1, 3, 4, 5}, 1);
  expect_lstm("lstm_f32_b2", {2, 4, 3, 6}, 2);
  expect_lstm("lstm_f32_b3_long", {3, 9, 2, 3}, 3);
  expect_lstm("lstm_f32_one_unit", {2, 2, 5, 1}, 4);
}

// Three input sequences through one loaded program, the state carried from run to run.
OP_TEST(LstmF32, StateCarriesOverThreeRuns) {
  expect_lstm("lstm_f32_carried", {2, 3, 4, 5}, 30, true);
  Case c{3, 2, 3, 4};
  c.time_major = true;
  c.cell_clip = 0.6f;
  expect_lstm("lstm_f32_carried_time_major", c, 31, true);
}

OP_TEST(LstmF32, TimeMajor) {
  Case c{3, 5, 2, 4};
  c.time_major = true;
  expect_lstm("lstm_f32_time_major", c, 5);
  c = {1, 4, 6, 2};
  c.time_major = true;
  expect_lstm("lstm_f32_time_major_b1", c, 6);
}

OP_TEST(LstmF32, CellClipAndSaturatedGates) {
  Case c{2, 6, 3, 4};
  c.cell_clip = 0.3f;  // well inside the cell values these weights reach
  c.weight_range = 3.0f;
  expect_lstm("lstm_f32_cell_clip", c, 7);
  c.time_major = true;
  c.cell_clip = 1.5f;
  expect_lstm("lstm_f32_cell_clip_time_major", c, 8);
  Case big{2, 3, 4, 3};
  big.weight_range = 6.0f;  // pre-activations past +16.6 and below -9: TFLite's cutoffs
  expect_lstm("lstm_f32_saturated", big, 9);
}

OP_TEST(LstmF32, UnusedOptions) {
  Case u{1, 3, 2, 3};
  u.proj_clip = 2.0f;  // no projection layer: not used
  u.asymmetric_quantize_inputs = true;  // float: not used
  u.cell_clip = -1.0f;  // not positive: no clipping
  expect_lstm("lstm_f32_unused_options", u, 11);
}

OP_TEST(LstmF32, TwentyInputFile) {
  Case c{2, 3, 3, 2};
  c.input_count = 20;
  expect_lstm("lstm_f32_20_inputs", c, 12);
}

OP_TEST(LstmF32, RefusalsAreOneLine) {
  const Case c{1, 2, 3, 2};
  const Tensors t = random_tensors(c, 20);
  const std::vector<float> two = {0.5f, -0.5f};
  const std::vector<float> square = {0.1f, 0.2f, 0.3f, 0.4f};
  auto vec = [&](const char* name) { return TensorSpec(name, {2}, fb::TensorType::FLOAT32, bytes_of(two)); };
  EXPECT_EQ(op_error("lstm_peephole", lstm_model(c, t, {vec("peep")}, [](std::vector<int32_t>& in) { in[10] = 16; })),
            "node 'y' (lstm): uses peephole connections (inputs 9..11, cell-to-gate weights), which TFLite Micro's "
            "LSTM does not support");
  EXPECT_EQ(op_error("lstm_projection",
                     lstm_model(c, t, {TensorSpec("proj", {2, 2}, fb::TensorType::FLOAT32, bytes_of(square))},
                                [](std::vector<int32_t>& in) { in[16] = 16; })),
            "node 'y' (lstm): uses a projection layer (inputs 16..17), which TFLite Micro's LSTM does not support");
  EXPECT_EQ(op_error("lstm_layer_norm", lstm_model(c, t, {vec("ln")}, [](std::vector<int32_t>& in) { in[21] = 16; })),
            "node 'y' (lstm): uses layer normalization (inputs 20..23), which TFLite Micro's LSTM does not support");
  EXPECT_EQ(op_error("lstm_cifg", lstm_model(c, t, {}, [](std::vector<int32_t>& in) { in[1] = in[5] = in[12] = -1; })),
            "node 'y' (lstm): input 1 is missing: coupled input and forget gates (CIFG) are not supported by "
            "TFLite Micro's LSTM");
  Case relu = c;
  relu.activation = A::RELU;
  EXPECT_EQ(op_error("lstm_relu", lstm_model(relu, t)),
            "node 'y' (lstm): cell gate activation 'relu' is not supported (TFLite Micro's LSTM: tanh)");
  Case none = c;
  none.activation = A::NONE;
  EXPECT_EQ(op_error("lstm_none", lstm_model(none, t)),
            "node 'y' (lstm): cell gate activation 'none' is not supported (TFLite Micro's LSTM: tanh)");
  EXPECT_EQ(op_error("lstm_hybrid", lstm_model(c, t, {}, nullptr, fb::TensorType::INT8)),
            "node 'y' (lstm): input gate input weights 'wx_i' has dtype int8, expected float32");
  // The state must be a variable tensor (kept between runs), not a graph input or a
  // constant.
  ModelSpec input_state = lstm_model(c, t);
  input_state.tensors[13].is_variable = false;
  input_state.inputs = {0, 13};
  EXPECT_EQ(op_error("lstm_input_state", input_state),
            "lstm_input_state.tflite: operator 0 (UNIDIRECTIONAL_SEQUENCE_LSTM): hidden state (input 18) 'h0' is a "
            "graph input, not a variable tensor kept between runs");
  ModelSpec constant_state = lstm_model(c, t);
  constant_state.tensors[14] = TensorSpec("c0", {c.batches, c.units}, fb::TensorType::FLOAT32, bytes_of(two));
  EXPECT_EQ(op_error("lstm_constant_state", constant_state),
            "lstm_constant_state.tflite: operator 0 (UNIDIRECTIONAL_SEQUENCE_LSTM): cell state (input 19) 'c0' is not "
            "a variable tensor kept between runs");
  EXPECT_EQ(op_error("lstm_diagonal", lstm_model(c, t, {}, nullptr, fb::TensorType::FLOAT32, true)),
            "lstm_diagonal.tflite: operator 0 (UNIDIRECTIONAL_SEQUENCE_LSTM): diagonal_recurrent_tensors true not "
            "supported");
}

// ---------------------------------------------------------------------------------------
// 16x8

struct QuantCase {
  int32_t batches, steps, inputs, units;
  bool time_major = false;
  float x_scale = 1.0f / 8192, h_scale = 1.0f / 32768, c_scale = 1.0f / 2048;
  int32_t x_zp = 0, h_zp = 0;
  float w_scale[8] = {0.02f, 0.015f, 0.03f, 0.01f, 0.025f, 0.02f, 0.012f, 0.03f};
  int32_t w_zp = 0;  // of every weight tensor
  float cell_clip = 0.0f;
  uint32_t seed = 1;
};

struct QuantTensors {
  std::vector<int8_t> w[8];
  std::vector<int64_t> bias[4];
};

QuantTensors random_quant_tensors(const QuantCase& c) {
  std::mt19937 rng(c.seed);
  QuantTensors t;
  for (int k = 0; k < 8; ++k) {
    t.w[k].resize(static_cast<size_t>(c.units * (k < 4 ? c.inputs : c.units)));
    for (int8_t& v : t.w[k]) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
  }
  // Biases of real magnitude up to about 1.5: bias scale x_scale * w_scale.
  for (int g = 0; g < 4; ++g) {
    const double limit = 1.5 / (static_cast<double>(c.x_scale) * c.w_scale[g]);
    t.bias[g].resize(static_cast<size_t>(c.units));
    for (int64_t& v : t.bias[g]) v = std::llround(std::uniform_real_distribution<double>(-limit, limit)(rng));
  }
  return t;
}

int32_t clamp16(int64_t v) { return ref_clamp(v, -32768, 32767); }

// TFLite Micro's 16x8 LSTM (reference kernel) from `state`, which it updates (zeros at
// the first Invoke(): ResetVariableTensors fills an int16 variable with 0 whatever its
// zero point).
std::vector<int16_t> ref_lstm_16x8(const QuantCase& c, const QuantTensors& t, const std::vector<int16_t>& x,
                                   State<int16_t>& state) {
  const int32_t B = c.batches, T = c.steps, I = c.inputs, H = c.units;
  // PrepareGateParametersInteger: FC outputs at 2^-12, gate outputs at 2^-15.
  int32_t fc_m[8], fc_s[8];
  for (int k = 0; k < 8; ++k) {
    const float in_scale = k < 4 ? c.x_scale : c.h_scale;
    ref_quantize_multiplier(static_cast<double>(in_scale * c.w_scale[k]) / static_cast<double>(1.0f / 4096), &fc_m[k],
                            &fc_s[k]);
  }
  const double q15 = static_cast<double>(1.0f / 32768);
  int32_t fc_mul_m, fc_mul_s, in_mul_m, in_mul_s, h_mul_m, h_mul_s;
  ref_quantize_multiplier(q15 * c.c_scale / c.c_scale, &fc_mul_m, &fc_mul_s);
  ref_quantize_multiplier(q15 * q15 / c.c_scale, &in_mul_m, &in_mul_s);
  ref_quantize_multiplier(q15 * q15 / c.h_scale, &h_mul_m, &h_mul_s);
  // CreateLstmCellStateInfo and lstm_internal::Tanh's input scaling.
  int power = 0;
  ref_checked_log2(c.c_scale, &power);
  const int16_t clip = static_cast<int16_t>(
      std::min(std::max(static_cast<double>(c.cell_clip) / static_cast<double>(c.c_scale), -32768.0), 32767.0));
  int32_t tanh_shift = (15 + power) - 3, tanh_multiplier = 0;
  if (tanh_shift < 0) {
    tanh_shift = -tanh_shift;
    tanh_multiplier = 3;
  }
  std::vector<int16_t> y(static_cast<size_t>(B * T * H));
  for (int32_t b = 0; b < B; ++b) {
    std::vector<int16_t> h(state.h.begin() + b * H, state.h.begin() + (b + 1) * H);
    std::vector<int16_t> cell(state.c.begin() + b * H, state.c.begin() + (b + 1) * H);
    for (int32_t s = 0; s < T; ++s) {
      const int32_t row = c.time_major ? s * B + b : b * T + s;
      int32_t gate[4][64];
      for (int g = 0; g < 4; ++g) {
        for (int32_t n = 0; n < H; ++n) {
          int64_t acc_x = 0, acc_h = 0;
          for (int32_t k = 0; k < I; ++k) acc_x += (t.w[g][n * I + k] - c.w_zp) * (x[row * I + k] - c.x_zp);
          for (int32_t k = 0; k < H; ++k) acc_h += (t.w[4 + g][n * H + k] - c.w_zp) * (h[k] - c.h_zp);
          const int32_t fc_x = clamp16(ref_mbqm64(acc_x + t.bias[g][n], fc_m[g], fc_s[g]));
          const int32_t fc_h = clamp16(ref_mbqm64(acc_h, fc_m[4 + g], fc_s[4 + g]));
          const auto pre = static_cast<int16_t>(clamp16(fc_x + fc_h));
          gate[g][n] = g == 2 ? ref_tanh_s16(0, 0, pre) : ref_logistic_s16(0, 0, pre);
        }
      }
      for (int32_t n = 0; n < H; ++n) {
        const int32_t kept = clamp16(ref_mbqm(gate[1][n] * cell[n], fc_mul_m, fc_mul_s));
        const int32_t added = clamp16(ref_mbqm(gate[0][n] * gate[2][n], in_mul_m, in_mul_s));
        int32_t v = clamp16(kept + added);
        if (c.cell_clip > 0.0f) v = std::max<int32_t>(std::min<int32_t>(clip, v), -clip);
        cell[n] = static_cast<int16_t>(v);
      }
      for (int32_t n = 0; n < H; ++n) {
        const int32_t squashed = ref_tanh_s16(tanh_multiplier, tanh_shift, cell[n]);
        h[n] = static_cast<int16_t>(clamp16(c.h_zp + static_cast<int64_t>(ref_mbqm(squashed * gate[3][n], h_mul_m, h_mul_s))));
        y[static_cast<size_t>(row * H + n)] = h[n];
      }
    }
    std::copy(h.begin(), h.end(), state.h.begin() + b * H);
    std::copy(cell.begin(), cell.end(), state.c.begin() + b * H);
  }
  return y;
}

ModelSpec quant_lstm_model(const QuantCase& c, const QuantTensors& t, fb::TensorType bias_type = fb::TensorType::INT64,
                           int64_t c_zp = 0) {
  std::vector<TensorSpec> tensors = {
      quantized("x", sequence_shape(c.batches, c.steps, c.inputs, c.time_major), fb::TensorType::INT16, c.x_scale, c.x_zp)};
  for (int k = 0; k < 8; ++k) {
    tensors.push_back(quantized(kNames[k], {c.units, k < 4 ? c.inputs : c.units}, fb::TensorType::INT8, c.w_scale[k],
                                c.w_zp, bytes_of(t.w[k])));
  }
  for (int g = 0; g < 4; ++g) {
    const float bias_scale = c.x_scale * c.w_scale[g];
    if (bias_type == fb::TensorType::INT64) {
      tensors.push_back(quantized(kBiasNames[g], {c.units}, bias_type, bias_scale, 0, bytes_of(t.bias[g])));
    } else {
      std::vector<int32_t> narrow(t.bias[g].begin(), t.bias[g].end());
      tensors.push_back(quantized(kBiasNames[g], {c.units}, bias_type, bias_scale, 0, bytes_of(narrow)));
    }
  }
  TensorSpec h0 = quantized("h0", {c.batches, c.units}, fb::TensorType::INT16, c.h_scale, c.h_zp);
  TensorSpec c0 = quantized("c0", {c.batches, c.units}, fb::TensorType::INT16, c.c_scale, c_zp);
  h0.is_variable = c0.is_variable = true;
  tensors.push_back(h0);
  tensors.push_back(c0);
  tensors.push_back(
      quantized("y", sequence_shape(c.batches, c.steps, c.units, c.time_major), fb::TensorType::INT16, c.h_scale, c.h_zp));
  Case options{c.batches, c.steps, c.inputs, c.units};
  options.time_major = c.time_major;
  options.cell_clip = c.cell_clip;
  ModelSpec m = single_op_model(std::move(tensors), kLstm, lstm_inputs(24), {15},
                                fb::BuiltinOptions::UnidirectionalSequenceLSTMOptions, lstm_options(options));
  m.inputs = {0};
  return m;
}

// Three samples, each from the reset state, or with `carried` in order in one loaded
// program with the oracle's state carried (as expect_lstm).
void expect_lstm_16x8(const std::string& name, const QuantCase& c, bool carried = false) {
  SCOPED_TRACE(name);
  const QuantTensors t = random_quant_tensors(c);
  std::mt19937 rng(c.seed + 1000);
  std::vector<OpSample> samples;
  State<int16_t> state(c.batches, c.units);
  for (int k = 0; k < 3; ++k) {
    if (!carried) state = State<int16_t>(c.batches, c.units);
    std::vector<int16_t> x(static_cast<size_t>(c.batches * c.steps * c.inputs));
    // Sample 0 spans the whole int16 range; the others stay within the scale's +-2.
    const int32_t limit = k == 0 ? 32767 : static_cast<int32_t>(std::min(32767.0, 2.0 / c.x_scale));
    for (int16_t& v : x) v = static_cast<int16_t>(std::uniform_int_distribution<int32_t>(-limit - (k == 0), limit)(rng));
    samples.push_back({{bytes_of(x)}, {bytes_of(ref_lstm_16x8(c, t, x, state))}});
  }
  if (carried) {
    expect_op_sequence(name, quant_lstm_model(c, t), samples);
  } else {
    expect_op_outputs(name, quant_lstm_model(c, t), samples);
  }
}

// Three input sequences through one loaded program: each run starts from the hidden and
// cell state the run before left, as TFLite Micro's reference kernel (batch and time
// major, a clip, nonzero zero points: the int16 state still starts at 0).
OP_TEST(Lstm16x8, StateCarriesOverThreeRuns) {
  QuantCase c{2, 3, 4, 5};
  c.seed = 20;
  expect_lstm_16x8("lstm_16x8_carried", c, true);
  c.time_major = true;
  c.cell_clip = 0.5f;
  c.seed = 21;
  expect_lstm_16x8("lstm_16x8_carried_time_major", c, true);
  c = {1, 2, 3, 4};
  c.x_zp = 7;
  c.h_zp = -5;
  c.seed = 22;
  expect_lstm_16x8("lstm_16x8_carried_zero_points", c, true);
}

OP_TEST(Lstm16x8, BatchMajorAndTimeMajor) {
  expect_lstm_16x8("lstm_16x8_b1", {1, 3, 4, 5});
  QuantCase c{2, 4, 3, 6};
  c.seed = 2;
  expect_lstm_16x8("lstm_16x8_b2", c);
  c = {3, 5, 2, 4};
  c.time_major = true;
  c.seed = 3;
  expect_lstm_16x8("lstm_16x8_time_major", c);
  c = {1, 7, 6, 3};
  c.time_major = true;
  c.seed = 4;
  expect_lstm_16x8("lstm_16x8_time_major_b1", c);
}

OP_TEST(Lstm16x8, CellScalesAndClip) {
  // The cell's tanh with a right-shifted input (2^-15: shift 3) and a left-scaled one
  // (2^-9: multiplier 24); a clip that engages.
  QuantCase c{2, 6, 3, 4};
  c.c_scale = 1.0f / 32768;
  c.seed = 5;
  expect_lstm_16x8("lstm_16x8_cell_2e-15", c);
  c.c_scale = 1.0f / 512;
  c.seed = 6;
  expect_lstm_16x8("lstm_16x8_cell_2e-9", c);
  c.c_scale = 1.0f / 2048;
  c.cell_clip = 0.25f;
  c.seed = 7;
  expect_lstm_16x8("lstm_16x8_cell_clip", c);
  c.time_major = true;
  c.cell_clip = 1.0f;
  c.c_scale = 1.0f / 4096;
  c.seed = 8;
  expect_lstm_16x8("lstm_16x8_cell_clip_time_major", c);
}

OP_TEST(Lstm16x8, ScalesAndZeroPoints) {
  QuantCase c{2, 3, 5, 4};
  c.x_scale = 0.001f;
  c.h_scale = 1.0f / 20000;
  c.seed = 9;
  expect_lstm_16x8("lstm_16x8_odd_scales", c);
  c.x_zp = 7;
  c.h_zp = -5;
  c.w_zp = 3;  // TFLite Micro applies a per-tensor weight zero point too
  c.seed = 10;
  expect_lstm_16x8("lstm_16x8_zero_points", c);
}

OP_TEST(Lstm16x8, RefusalsAreOneLine) {
  const QuantCase c{1, 2, 3, 2};
  const QuantTensors t = random_quant_tensors(c);
  EXPECT_EQ(op_error("lstm_16x8_int32_bias", quant_lstm_model(c, t, fb::TensorType::INT32)),
            "node 'y' (lstm): input gate bias 'b_i' has dtype int32, expected int64");
  EXPECT_EQ(op_error("lstm_16x8_cell_zp", quant_lstm_model(c, t, fb::TensorType::INT64, 4)),
            "node 'y' (lstm): cell state 'c0' has zero point 4, expected 0 (int16 activations are symmetric in TFLite)");
  ModelSpec per_channel = quant_lstm_model(c, t);
  per_channel.tensors[6].scales = {0.01f, 0.02f};
  per_channel.tensors[6].zero_points = {0, 0};
  EXPECT_EQ(op_error("lstm_16x8_per_channel", per_channel),
            "node 'y' (lstm): weights 'wh_f' is quantized per channel; TFLite Micro's LSTM uses per-tensor weight scales "
            "only");
  ModelSpec int8_hidden = quant_lstm_model(c, t);
  int8_hidden.tensors[13].type = fb::TensorType::INT8;
  EXPECT_EQ(op_error("lstm_16x8_int8_hidden", int8_hidden),
            "node 'y' (lstm): hidden state 'h0' has dtype int8, expected int16");
}

}  // namespace lstm_test
}  // namespace mote::testing
