// UNIDIRECTIONAL_SEQUENCE_LSTM, float32 (the int8 form is covered by the shared MNIST LSTM
// model and tests/kernels/lstm_s8_test.cc): batch major and time major, several batches,
// time steps, input and state sizes, cell_clip off and active, proj_clip and asymmetric_quantize_inputs (not used without projection
// and for float), 20-input files (written before the layer-norm inputs existed), gate
// pre-activations beyond TFLite's sigmoid cutoffs; and the refusals of what TensorFlow Lite
// Micro refuses (peephole, projection, layer norm, CIFG, other activations, hybrid
// weights). The hidden and cell state are variable tensors, zeros at TFLite Micro's first
// Invoke(), as here.
//
// The oracle is TFLite Micro's float LSTM step (lstm_eval.h) in double: per gate
// FC(x) + bias + FC(h), sigmoid as TFLite's reference Logistic (1 above 16.619047, e^x below
// -9), c = f * c + i * z clipped to +-cell_clip when cell_clip > 0, h = tanh(c) * o.
// Tolerance 3e-5 absolute + 1e-5 relative: the float32 kernel rounds each of the
// I + H + 1 products and sums of a gate (here at most 17 terms of magnitude below 8, so
// under 17 * 8 * 2^-24 = 8e-6 per gate) and libm's expf / tanhf add a few ulps; gate
// outputs in (0, 1) and |tanh| < 1 keep those errors from growing over the steps.
#include <cmath>
#include <random>

#include "ops/op_test.h"

namespace mote::testing {
namespace lstm_test {

using A = fb::ActivationFunctionType;
constexpr int32_t kLstm = op_code(fb::BuiltinOperator::UNIDIRECTIONAL_SEQUENCE_LSTM);
const FloatTolerance kTolerance{3e-5, 1e-5};

struct Case {
  int32_t batches, steps, inputs, units;
  bool time_major = false;
  A activation = A::TANH;  // the cell gate's; TFLite Micro's Eval takes only TANH from a file
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

// TFLite Micro's float LSTM, first Invoke (h and c start at zero).
std::vector<float> ref_lstm_f32(const Case& c, const Tensors& t) {
  const int32_t B = c.batches, T = c.steps, I = c.inputs, H = c.units;
  std::vector<float> y(static_cast<size_t>(B * T * H));
  for (int32_t b = 0; b < B; ++b) {
    std::vector<double> h(static_cast<size_t>(H), 0.0), cell(static_cast<size_t>(H), 0.0);
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

// Tensors 0 x, 1..8 weights, 9..12 biases, 13 h0 and 14 c0 (variables), 15 y; `extra`
// tensors (16...) may be wired into the optional inputs by `wire`.
ModelSpec lstm_model(const Case& c, const Tensors& t, std::vector<TensorSpec> extra = {},
                     const std::function<void(std::vector<int32_t>&)>& wire = nullptr,
                     fb::TensorType weight_type = fb::TensorType::FLOAT32, bool diagonal = false) {
  const std::vector<int32_t> x_shape = c.time_major ? std::vector<int32_t>{c.steps, c.batches, c.inputs}
                                                    : std::vector<int32_t>{c.batches, c.steps, c.inputs};
  const std::vector<int32_t> y_shape = {x_shape[0], x_shape[1], c.units};
  std::vector<TensorSpec> tensors = {TensorSpec("x", x_shape)};
  static const char* const kNames[8] = {"wx_i", "wx_f", "wx_c", "wx_o", "wh_i", "wh_f", "wh_c", "wh_o"};
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
  static const char* const kBiasNames[4] = {"b_i", "b_f", "b_c", "b_o"};
  for (int g = 0; g < 4; ++g) tensors.push_back(TensorSpec(kBiasNames[g], {c.units}, fb::TensorType::FLOAT32, bytes_of(t.bias[g])));
  TensorSpec h0("h0", {c.batches, c.units});
  TensorSpec c0("c0", {c.batches, c.units});
  h0.is_variable = c0.is_variable = true;
  tensors.push_back(h0);
  tensors.push_back(c0);
  tensors.push_back(TensorSpec("y", y_shape));
  for (TensorSpec& e : extra) tensors.push_back(std::move(e));
  std::vector<int32_t> inputs = {0, 1, 2, 3, 4, 5, 6, 7, 8, -1, -1, -1, 9, 10, 11, 12, -1, -1, 13, 14, -1, -1, -1, -1};
  inputs.resize(static_cast<size_t>(c.input_count));
  if (wire) wire(inputs);
  ModelSpec m = single_op_model(std::move(tensors), kLstm, inputs, {15}, fb::BuiltinOptions::UnidirectionalSequenceLSTMOptions,
                                lstm_options(c, diagonal));
  m.inputs = {0};
  return m;
}

void expect_lstm(const std::string& name, const Case& c, uint32_t seed) {
  SCOPED_TRACE(name);
  std::vector<OpSample> samples;
  const Tensors t = random_tensors(c, seed);
  // Two samples: the weights stay, the input sequence changes.
  for (uint32_t k = 0; k < 2; ++k) {
    Tensors s = t;
    s.x = random_tensors(c, seed + 100 + k).x;
    const std::vector<float> y = ref_lstm_f32(c, s);
    for (float v : y) ASSERT_TRUE(std::isfinite(v));
    samples.push_back({{bytes_of(s.x)}, {bytes_of(y)}});
  }
  expect_op_outputs(name, lstm_model(c, t), samples, kTolerance);
}

TEST(LstmF32, BatchMajorBatchesAndSteps) {
  expect_lstm("lstm_f32_b1", {1, 3, 4, 5}, 1);
  expect_lstm("lstm_f32_b2", {2, 4, 3, 6}, 2);
  expect_lstm("lstm_f32_b3_long", {3, 9, 2, 3}, 3);
  expect_lstm("lstm_f32_one_unit", {2, 2, 5, 1}, 4);
}

TEST(LstmF32, TimeMajor) {
  Case c{3, 5, 2, 4};
  c.time_major = true;
  expect_lstm("lstm_f32_time_major", c, 5);
  c = {1, 4, 6, 2};
  c.time_major = true;
  expect_lstm("lstm_f32_time_major_b1", c, 6);
}

TEST(LstmF32, CellClipAndSaturatedGates) {
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

TEST(LstmF32, UnusedOptions) {
  Case u{1, 3, 2, 3};
  u.proj_clip = 2.0f;  // no projection layer: not used
  u.asymmetric_quantize_inputs = true;  // float: not used
  u.cell_clip = -1.0f;  // not positive: no clipping
  expect_lstm("lstm_f32_unused_options", u, 11);
}

TEST(LstmF32, TwentyInputFile) {
  Case c{2, 3, 3, 2};
  c.input_count = 20;
  expect_lstm("lstm_f32_20_inputs", c, 12);
}

TEST(LstmF32, RefusalsAreOneLine) {
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
  EXPECT_EQ(op_error("lstm_diagonal", lstm_model(c, t, {}, nullptr, fb::TensorType::FLOAT32, true)),
            "lstm_diagonal.tflite: operator 0 (UNIDIRECTIONAL_SEQUENCE_LSTM): diagonal_recurrent_tensors true not "
            "supported");
}

}  // namespace lstm_test
}  // namespace mote::testing
