// Integer GRU (gru_s8, and gru_s16 for 16x8) against an independent integer model of
// gru.h's formulas written the other way round: each step gate by gate over whole rows
// (the z row, the r row, then the candidate row and the hidden row), sums in 128 bits and
// the requantization model of quant_test_util.h. Every attribute (linear_before_reset
// 0/1, time major or not, one and three batches); the whole op also against a
// double-precision GRU on the dequantized values; check() against corrupted parameters
// and descriptors.
#include <gtest/gtest.h>
#include <math.h>

#include <cmath>
#include <vector>

#include "gru/gru.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant/sigmoid_lut_s16.h"
#include "quant_test_util.h"
#include "recurrent_integer_test_util.h"

namespace mote {
namespace gru_s8_test {

using testing::i128;
using Data = testing::RecurrentData;
using Op = testing::RecurrentOp;
using testing::widened;

constexpr float kGateScale = 1.0f / 4096;
constexpr float kGateOutScale = 1.0f / 32768;

struct Case {
  uint32_t batches, steps, inputs, units;
  bool time_major;
  uint32_t linear_before_reset;
  bool int16;  // gru_s16: int16 activations (zero point 0), int64 biases
  float x_scale; int32_t x_zp;
  float h_scale; int32_t h_zp;
  float wx_scale[3], wh_scale[3];  // per gate z, r, h
  uint32_t seed;
  const KernelEntry* variant = nullptr;  // a gru_s8 variant to run instead of gru_s8
};

GruIntegerParams make_params(const Case& cs) {
  GruIntegerParams p{};
  for (int g = 0; g < 3; ++g) {
    fully_connected_multiplier(cs.x_scale, cs.wx_scale[g], kGateScale, &p.gate[g].input_multiplier, &p.gate[g].input_shift);
    fully_connected_multiplier(cs.h_scale, cs.wh_scale[g], kGateScale, &p.gate[g].recurrent_multiplier,
                               &p.gate[g].recurrent_shift);
  }
  mul_multiplier(kGateOutScale, kGateOutScale, cs.h_scale, &p.hidden_multiplier, &p.hidden_shift);
  p.input_zero_point = cs.x_zp;
  p.hidden_zero_point = cs.h_zp;
  p.linear_before_reset = cs.linear_before_reset;
  p.time_major = cs.time_major;
  return p;
}

Data make_data(const Case& cs) {
  const uint32_t b = cs.batches, t = cs.steps, i = cs.inputs, h = cs.units;
  Data d;
  const int64_t act = cs.int16 ? 20000 : 127;  // int16 inputs of a third of the range and more
  d.x = widened(testing::random_ints<int32_t>(size_t{b} * t * i, cs.seed, cs.int16 ? -act : -128, act));
  d.w = widened(testing::random_ints<int32_t>(size_t{3} * h * i, cs.seed + 1, -127, 127));
  d.r = widened(testing::random_ints<int32_t>(size_t{3} * h * h, cs.seed + 2, -127, 127));
  // Biases of about a real unit.
  for (int part = 0; part < 2; ++part) {
    for (int g = 0; g < 3; ++g) {
      const double scale = part == 0 ? double(cs.x_scale) * cs.wx_scale[g] : double(cs.h_scale) * cs.wh_scale[g];
      const int64_t range = static_cast<int64_t>(1.0 / scale);
      const std::vector<int64_t> v = testing::random_ints<int64_t>(h, cs.seed + 10 + part * 3 + g, -range, range);
      d.bias.insert(d.bias.end(), v.begin(), v.end());
    }
  }
  d.h0 = widened(testing::random_ints<int32_t>(size_t{b} * h, cs.seed + 20, cs.int16 ? -25000 : -100, cs.int16 ? 25000 : 100));
  return d;
}

// q * v / 2^15 rounded half up, as a floor division of the exact product.
int64_t mul15(int64_t q, int64_t v) { return testing::floor_div_pow2(i128(q) * v + (1 << 14), 15); }

// The model: per step, whole rows gate by gate.
std::vector<int64_t> reference(const Case& cs, const GruIntegerParams& p, const Data& d, std::vector<int64_t>* last) {
  using testing::ref_clamp;
  const int32_t B = cs.batches, T = cs.steps, I = cs.inputs, H = cs.units;
  const int64_t lo = cs.int16 ? -32768 : -128, hi = cs.int16 ? 32767 : 127;
  auto rq = [&](i128 acc, int32_t m, int32_t s) -> int64_t {
    return cs.int16 ? testing::ref_mbqm64(static_cast<int64_t>(acc), m, s) : testing::ref_mbqm(testing::wrap32(acc), m, s);
  };
  auto part = [&](i128 acc, int32_t m, int32_t s) { return ref_clamp(rq(acc, m, s), -32768, 32767); };
  // Row g * H + n of w (or r) against v, plus the bias element.
  auto row = [&](const std::vector<int64_t>& m, int32_t cols, int32_t g, int32_t n, const std::vector<int64_t>& v,
                 int64_t bias) {
    i128 acc = bias;
    for (int32_t k = 0; k < cols; ++k) acc += i128(m[(g * H + n) * cols + k]) * v[k];
    return acc;
  };
  std::vector<int64_t> y(size_t(B) * T * H), hidden(d.h0);
  for (int32_t b = 0; b < B; ++b) {
    std::vector<int64_t> hc(H);
    for (int32_t n = 0; n < H; ++n) hc[n] = hidden[b * H + n] - cs.h_zp;
    for (int32_t t = 0; t < T; ++t) {
      const int32_t at = cs.time_major ? t * B + b : b * T + t;
      std::vector<int64_t> xc(I);
      for (int32_t k = 0; k < I; ++k) xc[k] = d.x[at * I + k] - cs.x_zp;
      std::vector<int64_t> z(H), reset(H), g(H);
      for (int32_t n = 0; n < H; ++n) {
        const GruGateParams& gp = p.gate[0];
        const int64_t pre = ref_clamp(part(row(d.w, I, 0, n, xc, d.bias[n]), gp.input_multiplier, gp.input_shift) +
                                          part(row(d.r, H, 0, n, hc, d.bias[3 * H + n]), gp.recurrent_multiplier, gp.recurrent_shift),
                                      -32768, 32767);
        z[n] = lut_sigmoid_s16(static_cast<int16_t>(pre), 3, 0);
      }
      for (int32_t n = 0; n < H; ++n) {
        const GruGateParams& gp = p.gate[1];
        const int64_t pre = ref_clamp(part(row(d.w, I, 1, n, xc, d.bias[H + n]), gp.input_multiplier, gp.input_shift) +
                                          part(row(d.r, H, 1, n, hc, d.bias[4 * H + n]), gp.recurrent_multiplier, gp.recurrent_shift),
                                      -32768, 32767);
        reset[n] = lut_sigmoid_s16(static_cast<int16_t>(pre), 3, 0);
      }
      std::vector<int64_t> reset_h(H);
      for (int32_t n = 0; n < H; ++n) reset_h[n] = mul15(reset[n], hc[n]);
      const GruGateParams& gp = p.gate[2];
      for (int32_t n = 0; n < H; ++n) {
        const int64_t fx = part(row(d.w, I, 2, n, xc, d.bias[2 * H + n]), gp.input_multiplier, gp.input_shift);
        const int64_t fh = cs.linear_before_reset
                               ? mul15(reset[n], part(row(d.r, H, 2, n, hc, d.bias[5 * H + n]), gp.recurrent_multiplier, gp.recurrent_shift))
                               : part(row(d.r, H, 2, n, reset_h, d.bias[5 * H + n]), gp.recurrent_multiplier, gp.recurrent_shift);
        g[n] = lut_tanh_s16(static_cast<int16_t>(ref_clamp(fx + fh, -32768, 32767)), 3, 0);
      }
      for (int32_t n = 0; n < H; ++n) {
        const int64_t fresh = testing::ref_mbqm(static_cast<int32_t>((32768 - z[n]) * g[n]), p.hidden_multiplier, p.hidden_shift);
        const int64_t v = ref_clamp(cs.h_zp + fresh + mul15(z[n], hc[n]), lo, hi);
        y[at * H + n] = v;
        hc[n] = v - cs.h_zp;
      }
    }
    for (int32_t n = 0; n < H; ++n) (*last)[b * H + n] = hc[n] + cs.h_zp;
  }
  return y;
}

// ONNX's GRU in double on the dequantized tensors, in units of h's scale (plus h_zp).
std::vector<double> float_gru(const Case& cs, const Data& d) {
  const int32_t B = cs.batches, T = cs.steps, I = cs.inputs, H = cs.units;
  auto sigmoid = [](double v) { return 1.0 / (1.0 + exp(-v)); };
  std::vector<double> y(size_t(B) * T * H);
  for (int32_t b = 0; b < B; ++b) {
    std::vector<double> h(H);
    for (int32_t n = 0; n < H; ++n) h[n] = cs.h_scale * double(d.h0[b * H + n] - cs.h_zp);
    for (int32_t t = 0; t < T; ++t) {
      const int32_t at = cs.time_major ? t * B + b : b * T + t;
      // gate g of unit n: (W.x + Wb, R.v + Rb) for v = h or r * h.
      auto wx = [&](int g, int32_t n) {
        double a = double(cs.x_scale) * cs.wx_scale[g] * double(d.bias[g * H + n]);
        for (int32_t k = 0; k < I; ++k) a += cs.wx_scale[g] * double(d.w[(g * H + n) * I + k]) * cs.x_scale * double(d.x[at * I + k] - cs.x_zp);
        return a;
      };
      auto rv = [&](int g, int32_t n, const std::vector<double>& v) {
        double a = double(cs.h_scale) * cs.wh_scale[g] * double(d.bias[(3 + g) * H + n]);
        for (int32_t k = 0; k < H; ++k) a += cs.wh_scale[g] * double(d.r[(g * H + n) * H + k]) * v[k];
        return a;
      };
      std::vector<double> z(H), r(H), rh(H), next(H);
      for (int32_t n = 0; n < H; ++n) {
        z[n] = sigmoid(wx(0, n) + rv(0, n, h));
        r[n] = sigmoid(wx(1, n) + rv(1, n, h));
        rh[n] = r[n] * h[n];
      }
      for (int32_t n = 0; n < H; ++n) {
        const double g = tanh(wx(2, n) + (cs.linear_before_reset ? r[n] * rv(2, n, h) : rv(2, n, rh)));
        next[n] = (1 - z[n]) * g + z[n] * h[n];
        y[at * H + n] = next[n] / cs.h_scale + cs.h_zp;
      }
      h = next;
    }
  }
  return y;
}

void build(const Case& cs, const GruIntegerParams& p, Op* o) {
  testing::build_recurrent(o, 3, cs.batches, cs.steps, cs.inputs, cs.units, cs.time_major, cs.int16);
  o->op.set_params(p);
  o->op.add_scratch(
      static_cast<uint32_t>(cs.int16 ? gru_s16_scratch_bytes(cs.units) : gru_s8_scratch_bytes(cs.inputs, cs.units)));
}

void set_data(const Case& cs, Op* o, const Data& d) { testing::set_recurrent_data(o, d, cs.int16); }

const KernelEntry& entry(const Case& cs) {
  if (cs.variant != nullptr) return *cs.variant;
  return cs.int16 ? kGruS16Entry : kGruS8Entry;
}

// Runs the kernel: y and the final hidden state.
void run(const Case& cs, Op* o, std::vector<int64_t>* y, std::vector<int64_t>* last) {
  ASSERT_EQ(o->op.check(entry(cs)), Status::kOk);
  o->op.run(entry(cs));
  *y = testing::recurrent_output(o, o->y, cs.int16);
  *last = testing::recurrent_output(o, o->h, cs.int16);
}

// Bit-exact with the model; within `tolerance` (in h's scale steps) of the real GRU.
void run_case(const Case& cs, double tolerance) {
  SCOPED_TRACE(::testing::Message() << "B=" << cs.batches << " T=" << cs.steps << " I=" << cs.inputs << " H=" << cs.units
                                    << " time_major=" << cs.time_major << " lbr=" << cs.linear_before_reset
                                    << " int16=" << cs.int16);
  const GruIntegerParams p = make_params(cs);
  const Data d = make_data(cs);
  Op o;
  build(cs, p, &o);
  set_data(cs, &o, d);
  std::vector<int64_t> y, last;
  run(cs, &o, &y, &last);
  std::vector<int64_t> expected_last(d.h0.size());
  const std::vector<int64_t> expected = reference(cs, p, d, &expected_last);
  ASSERT_EQ(y, expected);
  EXPECT_EQ(last, expected_last);
  const int64_t lo = cs.int16 ? -32768 : -128, hi = cs.int16 ? 32767 : 127;
  size_t unsaturated = 0;
  for (int64_t v : y) unsaturated += v != lo && v != hi;
  EXPECT_GT(unsaturated, y.size() * 3 / 4);
  const double worst = testing::worst_error(y, float_gru(cs, d), cs.int16);
  EXPECT_LE(worst, tolerance) << "largest error against the real GRU, in steps of h's scale";
}

Case gru_case(uint32_t b, uint32_t t, uint32_t i, uint32_t h, bool time_major, uint32_t lbr, bool int16, uint32_t seed) {
  Case cs{b, t, i, h, time_major, lbr, int16, 0, 0, 0, 0, {}, {}, seed};
  // x in [-1, 1], h in about [-1, 1]; weight scales of weights up to about 0.6.
  cs.x_scale = int16 ? 1.0f / 32767 : 1.0f / 127.5f;
  cs.x_zp = int16 ? 0 : -1;
  cs.h_scale = int16 ? 1.0f / 32767 : 1.0f / 127;
  cs.h_zp = int16 ? 0 : 3;
  const float wx[3] = {0.004f, 0.0045f, 0.005f}, wh[3] = {0.0035f, 0.003f, 0.0055f};
  for (int g = 0; g < 3; ++g) {
    cs.wx_scale[g] = wx[g] * (16.0f / (i + 8));
    cs.wh_scale[g] = wh[g] * (16.0f / (h + 8));
  }
  return cs;
}

// Tolerances against the double GRU, in steps of h's scale (measured worst: 1.56 for
// int8, 8.2 for int16): int8 2 steps (the output's rounding plus the Q3.12
// pre-activations and the table interpolation, carried through the steps); int16 (h's
// step 2^-15) 12 steps, about 3.7e-4 real: the LUT sigmoid and tanh are good to about
// 1e-4.
constexpr double kInt8Tolerance = 2.0;
constexpr double kInt16Tolerance = 12.0;

TEST(GruS8, MatchesModelAndRealGru) {
  for (uint32_t lbr : {0u, 1u}) {
    for (bool tm : {false, true}) {
      run_case(gru_case(1, 12, 10, 16, tm, lbr, false, 1 + lbr), kInt8Tolerance);
      run_case(gru_case(3, 7, 5, 9, tm, lbr, false, 11 + lbr), kInt8Tolerance);
    }
  }
}

// The DSP and Helium variants (their portable definitions on the host; odd sizes for the
// vector tails); tests/kernels/conformance checks them bit for bit against gru_s8 on each
// core.
TEST(GruS8, VariantsMatchModelAndRealGru) {
  for (const KernelEntry* variant : {&kGruS8DspEntry, &kGruS8MveEntry}) {
    for (uint32_t lbr : {0u, 1u}) {
      for (bool tm : {false, true}) {
        Case cs = gru_case(1, 6, 19, 21, tm, lbr, false, 61 + lbr);
        cs.variant = variant;
        run_case(cs, kInt8Tolerance);
        cs = gru_case(2, 3, 8, 16, tm, lbr, false, 71 + lbr);
        cs.variant = variant;
        run_case(cs, kInt8Tolerance);
      }
    }
  }
}

TEST(GruS16, MatchesModelAndRealGru) {
  for (uint32_t lbr : {0u, 1u}) {
    for (bool tm : {false, true}) {
      run_case(gru_case(1, 12, 10, 16, tm, lbr, true, 21 + lbr), kInt16Tolerance);
      run_case(gru_case(3, 7, 5, 9, tm, lbr, true, 31 + lbr), kInt16Tolerance);
    }
  }
}

TEST(GruS8, TimeMajorEqualsBatchMajorOnTransposedData) {
  const Case bm = gru_case(3, 4, 5, 6, false, 1, false, 41);
  Case tm = bm;
  tm.time_major = true;
  const Data d = make_data(bm);
  Data dt = d;
  for (uint32_t b = 0; b < 3; ++b)
    for (uint32_t t = 0; t < 4; ++t)
      for (uint32_t i = 0; i < 5; ++i) dt.x[(t * 3 + b) * 5 + i] = d.x[(b * 4 + t) * 5 + i];
  Op a, c;
  build(bm, make_params(bm), &a);
  build(tm, make_params(tm), &c);
  set_data(bm, &a, d);
  set_data(tm, &c, dt);
  std::vector<int64_t> ya, yc, la, lc;
  run(bm, &a, &ya, &la);
  run(tm, &c, &yc, &lc);
  for (uint32_t b = 0; b < 3; ++b)
    for (uint32_t t = 0; t < 4; ++t)
      for (uint32_t n = 0; n < 6; ++n) ASSERT_EQ(ya[(b * 4 + t) * 6 + n], yc[(t * 3 + b) * 6 + n]);
  EXPECT_EQ(la, lc);
}

TEST(GruIntegerCheck, Rejections) {
  for (bool int16 : {false, true}) {
    SCOPED_TRACE(int16 ? "gru_s16" : "gru_s8");
    const Case cs = gru_case(2, 3, 4, 5, false, 1, int16, 51);
    const GruIntegerParams good = make_params(cs);
    const KernelEntry& e = entry(cs);
    auto fresh = [&](Op* o) { build(cs, good, o); };
    {
      Op o;
      fresh(&o);
      ASSERT_EQ(o.op.check(e), Status::kOk);
      auto& p = o.op.params<GruIntegerParams>();
      p.gate[1].recurrent_shift = int16 ? 15 : 31;  // beyond the requantization's range
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
      p = good;
      p.gate[2].input_shift = -32;
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
      p = good;
      p.hidden_shift = 31;
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
      p = good;
      p.hidden_zero_point = int16 ? 1 : 128;  // int16: symmetric only
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
      p = good;
      p.input_zero_point = int16 ? -1 : -129;
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
      p = good;
      p.linear_before_reset = 2;
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
      p = good;
      p.time_major = 2;
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
      p = good;
      p.time_major = 1;  // x read as [T, B, I] = [2, 3, 4]: the 2 x 5 states do not fit B = 3
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
      p = good;
      o.op.set_params_bytes(sizeof(GruIntegerParams) - 4);
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
    }
    {
      Op o;
      fresh(&o);
      o.op.desc(o.w).dims[0] = 14;  // w must be [3H, I]
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
    }
    {
      Op o;
      fresh(&o);
      o.op.desc(o.r).dims[1] = 4;  // r must be [3H, H]
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
    }
    {
      Op o;
      fresh(&o);
      o.op.desc(o.bias).dtype = static_cast<uint8_t>(int16 ? DType::kInt32 : DType::kInt64);
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
    }
    {
      Op o;
      fresh(&o);
      o.op.desc(o.r).dtype = static_cast<uint8_t>(DType::kInt16);  // weights are int8
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
    }
    {
      Op o;
      fresh(&o);
      o.op.desc(o.y).dtype = static_cast<uint8_t>(int16 ? DType::kInt8 : DType::kInt16);
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
    }
    {
      Op o;
      fresh(&o);
      o.op.set_dims(o.h, {2, 4});  // the final state holds B * H elements
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
    }
    {
      Op o;
      fresh(&o);
      const uint64_t bytes = int16 ? gru_s16_scratch_bytes(5) : gru_s8_scratch_bytes(4, 5);
      o.op.add_scratch(static_cast<uint32_t>(bytes) - 2);  // too little scratch
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
    }
  }
}

}  // namespace gru_s8_test
}  // namespace mote
