// int8 LSTM (TFLite UNIDIRECTIONAL_SEQUENCE_LSTM, 8x8->16) against an independent model
// of TFLite Micro's integer evaluation: written the way TFLite Micro runs a step (gate by
// gate over whole rows, hidden and cell state as separate buffers, the hidden state copied
// to the output), with the 128-bit requantization model of quant_test_util.h. The int16
// sigmoid/tanh are checked separately against the real functions, and the whole op against
// a double-precision LSTM on the dequantized values.
#include <gtest/gtest.h>
#include <math.h>

#include <cmath>
#include <vector>

#include "kernel_test_util.h"
#include "lstm/lstm.h"
#include "quant/quant_math.h"
#include "quant/sigmoid_lut_s16.h"
#include "quant_test_util.h"

namespace mote {
namespace lstm_s8_test {

using testing::TestOp;

constexpr float kGateScale = 1.0f / 4096;
constexpr float kGateOutScale = 1.0f / 32768;

// ---------------------------------------------------------------------------------------
// int16 activations

TEST(LstmActivations, SigmoidFollowsTheRealFunction) {
  // Input Q3.12, output Q0.15 (TFLite's int16 logistic: 1.0 saturates to 32767).
  int32_t previous = -1;
  for (int32_t x = -32768; x <= 32767; ++x) {
    const int32_t y = lut_sigmoid_s16(static_cast<int16_t>(x), 3, 0);
    const double expected = 32768.0 / (1.0 + exp(-x / 4096.0));
    ASSERT_NEAR(y, expected, 3.0) << x;
    ASSERT_GE(y, previous) << x;  // monotonic
    previous = y;
  }
  EXPECT_EQ(lut_sigmoid_s16(0, 3, 0), 16384);
  // The int16 range is +-8 in Q3.12: 32768 * sigmoid(+-8) = 32757.0, 11.0.
  EXPECT_EQ(lut_sigmoid_s16(32767, 3, 0), 32757);
  EXPECT_EQ(lut_sigmoid_s16(-32768, 3, 0), 11);
}

TEST(LstmActivations, TanhFollowsTheRealFunctionForEveryInputScaling) {
  // (multiplier, shift) as the compiler derives them for gate pre-activations (Q3.12)
  // and for cell states of scale 2^-11 (s = 1), 2^-12 (s = 0) and 2^-14 (s = -2).
  struct Scaling { int32_t multiplier, shift; double input_scale; };
  const Scaling scalings[] = {{3, 0, 1.0 / 4096}, {6, 0, 1.0 / 2048}, {3, 2, 1.0 / 16384}};
  for (const Scaling& s : scalings) {
    int32_t previous = -32768;
    for (int32_t x = -32768; x <= 32767; ++x) {
      const int32_t y = lut_tanh_s16(static_cast<int16_t>(x), s.multiplier, s.shift);
      ASSERT_NEAR(y, 32768.0 * tanh(x * s.input_scale), 6.0) << x << " m=" << s.multiplier;
      ASSERT_GE(y, previous) << x;
      previous = y;
    }
    EXPECT_EQ(lut_tanh_s16(0, s.multiplier, s.shift), 0);
  }
}

// ---------------------------------------------------------------------------------------
// The op

struct Quant {
  float x_scale; int32_t x_zp;
  float h_scale; int32_t h_zp;
  float c_scale;
  float w_scale[8];  // input->gate 0..3, hidden->gate 0..3
  int32_t w_zp[8];
  float cell_clip;
};

struct Case {
  uint32_t batches, steps, inputs, units;
  bool time_major;
  Quant q;
  uint32_t seed;
};

struct Data {
  std::vector<int8_t> x, wx[4], wh[4], h0, y;
  std::vector<int32_t> bias[4];
  std::vector<int16_t> c0;
};

int32_t checked_log2(float v) {
  return static_cast<int32_t>(roundf(logf(v) * (1.0f / logf(2.0f))));
}

// The params exactly as compiler/lower/lstm.cc derives them (kernels/lstm/lstm.h).
LstmIntegerParams make_params(const Case& cs) {
  const Quant& q = cs.q;
  LstmIntegerParams p{};
  for (int g = 0; g < 4; ++g) {
    fully_connected_multiplier(q.x_scale, q.w_scale[g], kGateScale, &p.gate[g].input_multiplier,
                               &p.gate[g].input_shift);
    fully_connected_multiplier(q.h_scale, q.w_scale[4 + g], kGateScale,
                               &p.gate[g].recurrent_multiplier, &p.gate[g].recurrent_shift);
    p.gate[g].input_weight_zero_point = q.w_zp[g];
    p.gate[g].recurrent_weight_zero_point = q.w_zp[4 + g];
  }
  mul_multiplier(kGateOutScale, q.c_scale, q.c_scale, &p.forget_cell.multiplier, &p.forget_cell.shift);
  mul_multiplier(kGateOutScale, kGateOutScale, q.c_scale, &p.input_cell.multiplier, &p.input_cell.shift);
  mul_multiplier(kGateOutScale, kGateOutScale, q.h_scale, &p.hidden.multiplier, &p.hidden.shift);
  p.input_zero_point = q.x_zp;
  p.hidden_zero_point = q.h_zp;
  const int32_t s = 12 + checked_log2(q.c_scale);
  p.cell_tanh_multiplier = s >= 0 ? 3 << s : 3;
  p.cell_tanh_shift = s >= 0 ? 0 : -s;
  p.cell_clip_enabled = q.cell_clip > 0;
  p.cell_clip = q.cell_clip > 0 ? static_cast<int16_t>(fmin(fmax(double(q.cell_clip) / q.c_scale, -32768), 32767)) : 0;
  p.time_major = cs.time_major;
  return p;
}

Data make_data(const Case& cs) {
  const uint32_t b = cs.batches, t = cs.steps, i = cs.inputs, h = cs.units;
  Data d;
  d.x = testing::random_full_range<int8_t>(size_t{b} * t * i, cs.seed);
  for (int g = 0; g < 4; ++g) {
    d.wx[g] = testing::random_full_range<int8_t>(size_t{h} * i, cs.seed + 10 + g);
    d.wh[g] = testing::random_full_range<int8_t>(size_t{h} * h, cs.seed + 20 + g);
    // Biases of a few real units at the gate scale.
    const double bias_scale = double(cs.q.x_scale) * cs.q.w_scale[g];
    const int64_t range = static_cast<int64_t>(1.5 / bias_scale);
    d.bias[g] = testing::random_ints<int32_t>(h, cs.seed + 30 + g, -range, range);
  }
  d.h0 = testing::random_ints<int8_t>(size_t{b} * h, cs.seed + 40, -100, 100);
  d.c0 = testing::random_ints<int16_t>(size_t{b} * h, cs.seed + 41, -8000, 8000);
  return d;
}

// TFLite Micro's EvalLstm, transcribed from its description: per step, four gates as
// whole rows (FC of x and FC of h into int16, saturating add, activation), then the cell
// row, then the hidden row, copied to the output. The hidden and cell state after the
// sequence (TFLite Micro's variable tensors) go to *final_hidden and *final_cell.
std::vector<int8_t> reference(const Case& cs, const LstmIntegerParams& p, const Data& d,
                              std::vector<int8_t>* final_hidden = nullptr, std::vector<int16_t>* final_cell = nullptr) {
  using testing::ref_clamp;
  using testing::ref_mbqm;
  using testing::wrap32;
  const int32_t B = cs.batches, T = cs.steps, I = cs.inputs, H = cs.units;
  std::vector<int8_t> hidden(d.h0);
  std::vector<int16_t> cell(d.c0);
  std::vector<int8_t> y(size_t(B) * T * H);
  // time-major: all batches together per step; batch-major: batch by batch.
  auto step = [&](int32_t b, int32_t t) {
    const int32_t row = cs.time_major ? t * B + b : b * T + t;
    std::vector<int32_t> gate[4];
    for (int g = 0; g < 4; ++g) {
      const LstmGateParams& gp = p.gate[g];
      gate[g].resize(H);
      for (int32_t n = 0; n < H; ++n) {
        testing::i128 ax = d.bias[g][n];
        for (int32_t k = 0; k < I; ++k)
          ax += (d.wx[g][n * I + k] - gp.input_weight_zero_point) * (d.x[row * I + k] - p.input_zero_point);
        testing::i128 ah = 0;
        for (int32_t k = 0; k < H; ++k)
          ah += (d.wh[g][n * H + k] - gp.recurrent_weight_zero_point) * (hidden[b * H + k] - p.hidden_zero_point);
        const int32_t fx = ref_clamp(ref_mbqm(wrap32(ax), gp.input_multiplier, gp.input_shift), -32768, 32767);
        const int32_t fh = ref_clamp(ref_mbqm(wrap32(ah), gp.recurrent_multiplier, gp.recurrent_shift), -32768, 32767);
        const int16_t pre = static_cast<int16_t>(ref_clamp(int64_t{fx} + fh, -32768, 32767));
        gate[g][n] = g == kLstmCellGate ? lut_tanh_s16(pre, 3, 0) : lut_sigmoid_s16(pre, 3, 0);
      }
    }
    for (int32_t n = 0; n < H; ++n) {
      int16_t& c = cell[b * H + n];
      const int32_t fc = ref_clamp(ref_mbqm(gate[kLstmForgetGate][n] * c, p.forget_cell.multiplier, p.forget_cell.shift), -32768, 32767);
      const int32_t ig = ref_clamp(ref_mbqm(gate[kLstmInputGate][n] * gate[kLstmCellGate][n], p.input_cell.multiplier, p.input_cell.shift), -32768, 32767);
      int32_t v = ref_clamp(int64_t{fc} + ig, -32768, 32767);
      if (p.cell_clip_enabled) v = ref_clamp(v, -p.cell_clip, p.cell_clip);
      c = static_cast<int16_t>(v);
    }
    for (int32_t n = 0; n < H; ++n) {
      const int32_t squashed = lut_tanh_s16(cell[b * H + n], p.cell_tanh_multiplier, p.cell_tanh_shift);
      const int64_t v = int64_t{p.hidden_zero_point} +
                        ref_mbqm(squashed * gate[kLstmOutputGate][n], p.hidden.multiplier, p.hidden.shift);
      hidden[b * H + n] = static_cast<int8_t>(ref_clamp(v, -128, 127));
    }
    for (int32_t n = 0; n < H; ++n) y[row * H + n] = hidden[b * H + n];
  };
  if (cs.time_major) {
    for (int32_t t = 0; t < T; ++t)
      for (int32_t b = 0; b < B; ++b) step(b, t);
  } else {
    for (int32_t b = 0; b < B; ++b)
      for (int32_t t = 0; t < T; ++t) step(b, t);
  }
  if (final_hidden != nullptr) *final_hidden = hidden;
  if (final_cell != nullptr) *final_cell = cell;
  return y;
}

// A double-precision LSTM on the dequantized inputs (no integer rounding anywhere).
std::vector<double> float_lstm(const Case& cs, const Data& d) {
  const Quant& q = cs.q;
  const int32_t B = cs.batches, T = cs.steps, I = cs.inputs, H = cs.units;
  std::vector<double> y(size_t(B) * T * H);
  for (int32_t b = 0; b < B; ++b) {
    std::vector<double> h(H), c(H);
    for (int32_t n = 0; n < H; ++n) {
      h[n] = q.h_scale * (d.h0[b * H + n] - q.h_zp);
      c[n] = q.c_scale * d.c0[b * H + n];
    }
    for (int32_t t = 0; t < T; ++t) {
      const int32_t row = cs.time_major ? t * B + b : b * T + t;
      std::vector<double> gate[4];
      for (int g = 0; g < 4; ++g) {
        gate[g].resize(H);
        for (int32_t n = 0; n < H; ++n) {
          double a = double(q.x_scale) * q.w_scale[g] * d.bias[g][n];
          for (int32_t k = 0; k < I; ++k)
            a += q.w_scale[g] * (d.wx[g][n * I + k] - q.w_zp[g]) * q.x_scale * (d.x[row * I + k] - q.x_zp);
          for (int32_t k = 0; k < H; ++k) a += q.w_scale[4 + g] * (d.wh[g][n * H + k] - q.w_zp[4 + g]) * h[k];
          gate[g][n] = g == kLstmCellGate ? tanh(a) : 1.0 / (1.0 + exp(-a));
        }
      }
      for (int32_t n = 0; n < H; ++n) {
        c[n] = gate[kLstmForgetGate][n] * c[n] + gate[kLstmInputGate][n] * gate[kLstmCellGate][n];
        if (q.cell_clip > 0) c[n] = fmin(fmax(c[n], -q.cell_clip), q.cell_clip);
        h[n] = gate[kLstmOutputGate][n] * tanh(c[n]);
        y[row * H + n] = h[n] / q.h_scale + q.h_zp;
      }
    }
  }
  return y;
}

struct Op {
  TestOp op;
  uint32_t x, wx[4], wh[4], bias[4], h0, c0, y, h_next, c_next;
};

// The op with TFLite's 24 inputs; `toggled` flips whether one input position is present
// (an optional one given, a required one left out) for the rejection tests.
void build(const Case& cs, const LstmIntegerParams& p, Op* o, int toggled = -1) {
  const uint32_t b = cs.batches, t = cs.steps, i = cs.inputs, h = cs.units;
  const std::vector<uint32_t> seq = cs.time_major ? std::vector<uint32_t>{t, b} : std::vector<uint32_t>{b, t};
  for (int k = 0; k < 24; ++k) {
    const bool required = k <= 8 || (k >= 12 && k <= 15) || k == 18 || k == 19;
    if (required == (k == toggled)) {
      o->op.add_missing_input();
      continue;
    }
    uint32_t id;
    if (k == 0) id = o->x = o->op.add_input(DType::kInt8, {seq[0], seq[1], i});
    else if (k <= 4) id = o->wx[k - 1] = o->op.add_input(DType::kInt8, {h, i});
    else if (k <= 8) id = o->wh[k - 5] = o->op.add_input(DType::kInt8, {h, h});
    else if (k >= 12 && k <= 15) id = o->bias[k - 12] = o->op.add_input(DType::kInt32, {h});
    else if (k == 18) id = o->h0 = o->op.add_input(DType::kInt8, {b, h});
    else if (k == 19) id = o->c0 = o->op.add_input(DType::kInt16, {b, h});
    else id = o->op.add_input(DType::kInt16, {h});  // peephole, projection, layer norm
    (void)id;
  }
  o->y = o->op.add_output(DType::kInt8, {seq[0], seq[1], h});
  o->h_next = o->op.add_output(DType::kInt8, {b, h});
  o->c_next = o->op.add_output(DType::kInt16, {b, h});
  o->op.set_params(p);
  o->op.add_scratch(static_cast<uint32_t>(lstm_s8_scratch_bytes(i, h)));
}

void set_data(Op* o, const Data& d) {
  o->op.set_data(o->x, d.x);
  for (int g = 0; g < 4; ++g) {
    o->op.set_data(o->wx[g], d.wx[g]);
    o->op.set_data(o->wh[g], d.wh[g]);
    o->op.set_data(o->bias[g], d.bias[g]);
  }
  o->op.set_data(o->h0, d.h0);
  o->op.set_data(o->c0, d.c0);
}

void run_case(const Case& cs) {
  SCOPED_TRACE(::testing::Message() << "B=" << cs.batches << " T=" << cs.steps << " I=" << cs.inputs
                                    << " H=" << cs.units << " time_major=" << cs.time_major);
  const LstmIntegerParams p = make_params(cs);
  const Data d = make_data(cs);
  Op o;
  build(cs, p, &o);
  set_data(&o, d);
  ASSERT_EQ(o.op.check(kLstmS8Entry), Status::kOk);
  o.op.run(kLstmS8Entry);
  const std::vector<int8_t> y = o.op.data<int8_t>(o.y);
  std::vector<int8_t> final_hidden;
  std::vector<int16_t> final_cell;
  const std::vector<int8_t> expected = reference(cs, p, d, &final_hidden, &final_cell);
  ASSERT_EQ(y.size(), expected.size());
  int unsaturated = 0;
  for (size_t k = 0; k < y.size(); ++k) {
    ASSERT_EQ(y[k], expected[k]) << "element " << k;
    unsaturated += y[k] != -128 && y[k] != 127;
  }
  EXPECT_GT(unsaturated, static_cast<int>(y.size() / 2));
  // The state after the sequence, as TFLite Micro's variable tensors hold it.
  EXPECT_EQ(o.op.data<int8_t>(o.h_next), final_hidden);
  EXPECT_EQ(o.op.data<int16_t>(o.c_next), final_cell);
  // The integer LSTM stays close to the real one (errors compound over the steps).
  const std::vector<double> real = float_lstm(cs, d);
  ASSERT_EQ(real.size(), y.size());
  for (size_t k = 0; k < y.size(); ++k) {
    // A NaN in the float reference fails (fmax/fmin would silently drop it).
    const double err = fabs(y[k] - fmin(fmax(real[k], -128.0), 127.0));
    EXPECT_TRUE(err <= 4.0 && !std::isnan(real[k])) << "element " << k << ": " << int{y[k]} << " vs " << real[k];
  }
}

Quant quant(float h_scale, int32_t h_zp, float c_scale, float cell_clip, int32_t w_zp = 0) {
  Quant q{};
  q.x_scale = 1.0f / 255;
  q.x_zp = -128;
  q.h_scale = h_scale;
  q.h_zp = h_zp;
  q.c_scale = c_scale;
  const float w[8] = {0.004f, 0.0035f, 0.005f, 0.003f, 0.006f, 0.0045f, 0.007f, 0.004f};
  for (int k = 0; k < 8; ++k) {
    q.w_scale[k] = w[k];
    q.w_zp[k] = k % 2 ? w_zp : 0;
  }
  q.cell_clip = cell_clip;
  return q;
}

TEST(LstmS8, MatchesTfliteMicroModelBatchMajor) {
  // The MNIST model's layout: B = 1, 28 steps of 28 inputs, 20 units, cell scale 2^-12.
  run_case({1, 28, 28, 20, false, quant(1.0f / 128, 0, 1.0f / 4096, 10.0f), 1});
  // Odd sizes, several batches, another hidden zero point.
  run_case({3, 7, 5, 9, false, quant(0.0071f, -17, 1.0f / 4096, 0.0f), 2});
}

TEST(LstmS8, MatchesTfliteMicroModelTimeMajor) {
  run_case({2, 6, 11, 3, true, quant(1.0f / 128, 5, 1.0f / 4096, 10.0f), 3});
  run_case({1, 5, 1, 1, true, quant(1.0f / 100, 0, 1.0f / 4096, 0.0f), 4});
}

TEST(LstmS8, CellScalesAndClipping) {
  // tanh of the cell with a left-scaled input (2^-11) and a right-shifted one (2^-14);
  // a cell clip of 1.5 that binds often.
  run_case({2, 9, 6, 13, false, quant(1.0f / 128, 3, 1.0f / 2048, 0.0f), 5});
  run_case({1, 12, 8, 7, false, quant(1.0f / 128, 0, 1.0f / 16384, 1.5f), 6});
}

TEST(LstmS8, WeightZeroPoints) {
  // TFLite expects symmetric weights but applies the zero points it is given.
  run_case({2, 4, 5, 6, false, quant(1.0f / 128, -3, 1.0f / 4096, 0.0f, 7), 7});
}

TEST(LstmS8, TimeMajorEqualsBatchMajorOnTransposedData) {
  Case bm{3, 4, 5, 6, false, quant(1.0f / 128, 0, 1.0f / 4096, 0.0f), 8};
  Case tm = bm;
  tm.time_major = true;
  Data d = make_data(bm);
  Data dt = d;
  for (uint32_t b = 0; b < 3; ++b)
    for (uint32_t t = 0; t < 4; ++t)
      for (uint32_t i = 0; i < 5; ++i) dt.x[(t * 3 + b) * 5 + i] = d.x[(b * 4 + t) * 5 + i];
  Op a, c;
  build(bm, make_params(bm), &a);
  build(tm, make_params(tm), &c);
  set_data(&a, d);
  set_data(&c, dt);
  ASSERT_EQ(a.op.check(kLstmS8Entry), Status::kOk);
  ASSERT_EQ(c.op.check(kLstmS8Entry), Status::kOk);
  a.op.run(kLstmS8Entry);
  c.op.run(kLstmS8Entry);
  const auto ya = a.op.data<int8_t>(a.y), yc = c.op.data<int8_t>(c.y);
  for (uint32_t b = 0; b < 3; ++b)
    for (uint32_t t = 0; t < 4; ++t)
      for (uint32_t n = 0; n < 6; ++n) ASSERT_EQ(ya[(b * 4 + t) * 6 + n], yc[(t * 3 + b) * 6 + n]);
}

TEST(LstmS8Check, Rejections) {
  const Case cs{2, 3, 4, 5, false, quant(1.0f / 128, 0, 1.0f / 4096, 10.0f), 9};
  const LstmIntegerParams good = make_params(cs);
  auto fresh = [&](Op* o) { build(cs, good, o); };
  {
    Op o;
    fresh(&o);
    ASSERT_EQ(o.op.check(kLstmS8Entry), Status::kOk);
    auto& p = o.op.params<LstmIntegerParams>();
    p.gate[2].recurrent_shift = 31;
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
    p = good;
    p.hidden_zero_point = 128;
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
    p = good;
    p.cell_tanh_multiplier = 0;
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
    p = good;
    p.cell_tanh_multiplier = (3 << 12) + 1;
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
    p = good;
    p.cell_tanh_shift = 32;
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
    p = good;
    p.cell_clip = -1;
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
    p = good;
    p.time_major = 2;
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
    p = good;
    // time_major reads the input as [T, B, I] = [2, 3, 4]: the 2 x 5 states no longer fit B = 3.
    p.time_major = 1;
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
    p = good;
    o.op.set_params_bytes(sizeof(LstmIntegerParams) - 4);
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
  }
  {
    Op o;
    fresh(&o);
    o.op.desc(o.wh[1]).dims[1] = 4;  // recurrent weights must be [H, H]
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
  }
  {
    Op o;
    fresh(&o);
    o.op.desc(o.wx[3]).dims[1] = 5;  // input weights must be [H, I]
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
  }
  {
    Op o;
    fresh(&o);
    o.op.desc(o.bias[0]).dtype = static_cast<uint8_t>(DType::kInt64);
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
  }
  {
    Op o;
    fresh(&o);
    o.op.set_dims(o.c0, {2, 4});  // cell state must hold B * H elements
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
  }
  {
    Op o;
    fresh(&o);
    o.op.desc(o.y).dims[2] = 6;  // output units must match the weights
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
  }
  {
    Op o;
    fresh(&o);
    o.op.add_scratch(static_cast<uint32_t>(lstm_s8_scratch_bytes(4, 5)) - 2);  // too little scratch
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
  }
  {
    Op o;
    fresh(&o);
    o.op.desc(o.c_next).dtype = static_cast<uint8_t>(DType::kInt8);  // the new cell state is int16
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
  }
  // Peephole, projection and layer-norm inputs are refused, and so is a missing input
  // gate (CIFG) or a missing state.
  for (int k : {9, 11, 16, 17, 20, 23, 1, 5, 12, 18, 19}) {
    Op o;
    build(cs, good, &o, k);
    EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams) << "input " << k;
  }
}

}  // namespace lstm_s8_test
}  // namespace mote
