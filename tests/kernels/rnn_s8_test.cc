// Integer RNN (rnn_s8, and rnn_s16 for 16x8) against an independent integer model of
// rnn.h's formulas written the other way round (per step the whole pre-activation row,
// then the activation row; sums in 128 bits, the requantization model of
// quant_test_util.h), for tanh and relu, time major or not, one and three batches; the
// whole op also against a double-precision RNN on the dequantized values; check()
// against corrupted parameters and descriptors.
#include <gtest/gtest.h>
#include <math.h>

#include <cmath>
#include <vector>

#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant/sigmoid_lut_s16.h"
#include "quant_test_util.h"
#include "recurrent_integer_test_util.h"
#include "rnn/rnn.h"

namespace mote {
namespace rnn_s8_test {

using testing::i128;
using Data = testing::RecurrentData;
using Op = testing::RecurrentOp;
using testing::widened;

struct Case {
  uint32_t batches, steps, inputs, units;
  bool time_major;
  RnnActivation activation;
  bool int16;  // rnn_s16: int16 activations (zero point 0), int64 biases
  float x_scale; int32_t x_zp;
  float h_scale; int32_t h_zp;
  float wx_scale, wh_scale;
  uint32_t seed;
};

RnnIntegerParams make_params(const Case& cs) {
  RnnIntegerParams p{};
  const float pre = cs.activation == kRnnRelu ? cs.h_scale : 1.0f / 4096;
  fully_connected_multiplier(cs.x_scale, cs.wx_scale, pre, &p.input_multiplier, &p.input_shift);
  fully_connected_multiplier(cs.h_scale, cs.wh_scale, pre, &p.recurrent_multiplier, &p.recurrent_shift);
  if (cs.activation == kRnnTanh) requantize_multiplier(1.0f / 32768, cs.h_scale, &p.output_multiplier, &p.output_shift);
  p.input_zero_point = cs.x_zp;
  p.hidden_zero_point = cs.h_zp;
  p.activation = cs.activation;
  p.time_major = cs.time_major;
  return p;
}

Data make_data(const Case& cs) {
  const uint32_t b = cs.batches, t = cs.steps, i = cs.inputs, h = cs.units;
  Data d;
  d.x = widened(testing::random_ints<int32_t>(size_t{b} * t * i, cs.seed, cs.int16 ? -20000 : -128, cs.int16 ? 20000 : 127));
  d.w = widened(testing::random_ints<int32_t>(size_t{h} * i, cs.seed + 1, -127, 127));
  d.r = widened(testing::random_ints<int32_t>(size_t{h} * h, cs.seed + 2, -127, 127));
  const int64_t wb = static_cast<int64_t>(0.5 / (double(cs.x_scale) * cs.wx_scale));
  const int64_t rb = static_cast<int64_t>(0.5 / (double(cs.h_scale) * cs.wh_scale));
  d.bias = testing::random_ints<int64_t>(h, cs.seed + 3, -wb, wb);
  const std::vector<int64_t> r = testing::random_ints<int64_t>(h, cs.seed + 4, -rb, rb);
  d.bias.insert(d.bias.end(), r.begin(), r.end());
  // h0 in the activation's range: relu's is >= 0 (its zero point and above).
  const int64_t h_lo = cs.activation == kRnnRelu ? cs.h_zp : (cs.int16 ? -25000 : -100);
  d.h0 = widened(testing::random_ints<int32_t>(size_t{b} * h, cs.seed + 5, h_lo, cs.int16 ? 25000 : 100));
  return d;
}

std::vector<int64_t> reference(const Case& cs, const RnnIntegerParams& p, const Data& d, std::vector<int64_t>* last) {
  using testing::ref_clamp;
  const int32_t B = cs.batches, T = cs.steps, I = cs.inputs, H = cs.units;
  const int64_t lo = cs.int16 ? -32768 : -128, hi = cs.int16 ? 32767 : 127;
  auto rq = [&](i128 acc, int32_t m, int32_t s) -> int64_t {
    return cs.int16 ? testing::ref_mbqm64(static_cast<int64_t>(acc), m, s) : testing::ref_mbqm(testing::wrap32(acc), m, s);
  };
  std::vector<int64_t> y(size_t(B) * T * H);
  for (int32_t b = 0; b < B; ++b) {
    std::vector<int64_t> h(d.h0.begin() + b * H, d.h0.begin() + (b + 1) * H);
    for (int32_t t = 0; t < T; ++t) {
      const int32_t at = cs.time_major ? t * B + b : b * T + t;
      std::vector<int64_t> fx(H), fh(H);
      for (int32_t n = 0; n < H; ++n) {
        i128 ax = d.bias[n], ah = d.bias[H + n];
        for (int32_t k = 0; k < I; ++k) ax += i128(d.w[n * I + k]) * (d.x[at * I + k] - cs.x_zp);
        for (int32_t k = 0; k < H; ++k) ah += i128(d.r[n * H + k]) * (h[k] - cs.h_zp);
        fx[n] = rq(ax, p.input_multiplier, p.input_shift);
        fh[n] = rq(ah, p.recurrent_multiplier, p.recurrent_shift);
      }
      for (int32_t n = 0; n < H; ++n) {
        int64_t v;
        if (cs.activation == kRnnRelu) {
          v = std::max<int64_t>(cs.h_zp + fx[n] + fh[n], cs.h_zp);
        } else {
          const int64_t pre = ref_clamp(ref_clamp(fx[n], -32768, 32767) + ref_clamp(fh[n], -32768, 32767), -32768, 32767);
          v = cs.h_zp + testing::ref_mbqm(lut_tanh_s16(static_cast<int16_t>(pre), 3, 0), p.output_multiplier, p.output_shift);
        }
        h[n] = ref_clamp(v, lo, hi);
        y[at * H + n] = h[n];
      }
    }
    for (int32_t n = 0; n < H; ++n) (*last)[b * H + n] = h[n];
  }
  return y;
}

// ONNX's RNN in double on the dequantized tensors, in units of h's scale (plus h_zp).
std::vector<double> float_rnn(const Case& cs, const Data& d) {
  const int32_t B = cs.batches, T = cs.steps, I = cs.inputs, H = cs.units;
  std::vector<double> y(size_t(B) * T * H);
  for (int32_t b = 0; b < B; ++b) {
    std::vector<double> h(H);
    for (int32_t n = 0; n < H; ++n) h[n] = cs.h_scale * double(d.h0[b * H + n] - cs.h_zp);
    for (int32_t t = 0; t < T; ++t) {
      const int32_t at = cs.time_major ? t * B + b : b * T + t;
      std::vector<double> next(H);
      for (int32_t n = 0; n < H; ++n) {
        double a = double(cs.x_scale) * cs.wx_scale * double(d.bias[n]) + double(cs.h_scale) * cs.wh_scale * double(d.bias[H + n]);
        for (int32_t k = 0; k < I; ++k) a += cs.wx_scale * double(d.w[n * I + k]) * cs.x_scale * double(d.x[at * I + k] - cs.x_zp);
        for (int32_t k = 0; k < H; ++k) a += cs.wh_scale * double(d.r[n * H + k]) * h[k];
        next[n] = cs.activation == kRnnRelu ? fmax(a, 0.0) : tanh(a);
        y[at * H + n] = next[n] / cs.h_scale + cs.h_zp;
      }
      h = next;
    }
  }
  return y;
}

void build(const Case& cs, const RnnIntegerParams& p, Op* o) {
  testing::build_recurrent(o, 1, cs.batches, cs.steps, cs.inputs, cs.units, cs.time_major, cs.int16);
  o->op.set_params(p);
  if (!cs.int16) o->op.add_scratch(static_cast<uint32_t>(rnn_s8_scratch_bytes(cs.inputs, cs.units)));
}

void set_data(const Case& cs, Op* o, const Data& d) { testing::set_recurrent_data(o, d, cs.int16); }

const KernelEntry& entry(const Case& cs) { return cs.int16 ? kRnnS16Entry : kRnnS8Entry; }

void run_case(const Case& cs, double tolerance) {
  SCOPED_TRACE(::testing::Message() << "B=" << cs.batches << " T=" << cs.steps << " I=" << cs.inputs << " H=" << cs.units
                                    << " time_major=" << cs.time_major << " relu=" << (cs.activation == kRnnRelu)
                                    << " int16=" << cs.int16);
  const RnnIntegerParams p = make_params(cs);
  const Data d = make_data(cs);
  Op o;
  build(cs, p, &o);
  set_data(cs, &o, d);
  ASSERT_EQ(o.op.check(entry(cs)), Status::kOk);
  o.op.run(entry(cs));
  const std::vector<int64_t> y = testing::recurrent_output(&o, o.y, cs.int16);
  const std::vector<int64_t> last = testing::recurrent_output(&o, o.h, cs.int16);
  std::vector<int64_t> expected_last(d.h0.size());
  ASSERT_EQ(y, reference(cs, p, d, &expected_last));
  EXPECT_EQ(last, expected_last);
  const int64_t lo = cs.int16 ? -32768 : -128, hi = cs.int16 ? 32767 : 127;
  size_t inside = 0;
  for (int64_t v : y) inside += v != hi && v != lo && v != cs.h_zp;
  EXPECT_GT(inside, y.size() / 4);  // relu: about half the values are 0
  const double worst = testing::worst_error(y, float_rnn(cs, d), cs.int16);
  EXPECT_LE(worst, tolerance) << "largest error against the real RNN, in steps of h's scale";
}

Case rnn_case(uint32_t b, uint32_t t, uint32_t i, uint32_t h, bool time_major, RnnActivation act, bool int16,
              uint32_t seed) {
  Case cs{b, t, i, h, time_major, act, int16, 0, 0, 0, 0, 0, 0, seed};
  cs.x_scale = int16 ? 1.0f / 32767 : 1.0f / 127.5f;
  cs.x_zp = int16 ? 0 : -1;
  // tanh: h in [-1, 1]; relu: h in [0, 4), zero point at the bottom for int8.
  const float range = act == kRnnRelu ? 4.0f : 1.0f;
  cs.h_scale = int16 ? range / 32767 : (act == kRnnRelu ? range / 255 : range / 127);
  cs.h_zp = int16 ? 0 : (act == kRnnRelu ? -128 : 2);
  cs.wx_scale = 0.005f * (16.0f / (i + 8));
  cs.wh_scale = (act == kRnnRelu ? 0.0015f : 0.004f) * (16.0f / (h + 8));
  return cs;
}

// Tolerances against the double RNN, in steps of h's scale (measured worst: 1.17 for
// int8, 12.8 for int16 tanh, 1.17 for int16 relu): int8 1.5 steps; int16 16 steps (h's
// step 2^-15 for tanh: 4.9e-4 real, the LUT tanh's error; 2^-13 for relu).
constexpr double kInt8Tolerance = 1.5;
constexpr double kInt16Tolerance = 16.0;

TEST(RnnS8, MatchesModelAndRealRnn) {
  for (RnnActivation act : {kRnnTanh, kRnnRelu}) {
    for (bool tm : {false, true}) {
      run_case(rnn_case(1, 12, 10, 16, tm, act, false, 1 + act), kInt8Tolerance);
      run_case(rnn_case(3, 7, 5, 9, tm, act, false, 11 + act), kInt8Tolerance);
    }
  }
}

TEST(RnnS16, MatchesModelAndRealRnn) {
  for (RnnActivation act : {kRnnTanh, kRnnRelu}) {
    for (bool tm : {false, true}) {
      run_case(rnn_case(1, 12, 10, 16, tm, act, true, 21 + act), kInt16Tolerance);
      run_case(rnn_case(3, 7, 5, 9, tm, act, true, 31 + act), kInt16Tolerance);
    }
  }
}

TEST(RnnIntegerCheck, Rejections) {
  for (bool int16 : {false, true}) {
    SCOPED_TRACE(int16 ? "rnn_s16" : "rnn_s8");
    const Case cs = rnn_case(2, 3, 4, 5, false, kRnnTanh, int16, 51);
    const RnnIntegerParams good = make_params(cs);
    const KernelEntry& e = entry(cs);
    {
      Op o;
      build(cs, good, &o);
      ASSERT_EQ(o.op.check(e), Status::kOk);
      auto& p = o.op.params<RnnIntegerParams>();
      p.input_shift = int16 ? 15 : 31;
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
      p = good;
      p.recurrent_shift = -32;
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
      p = good;
      p.output_shift = 31;
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
      p = good;
      p.hidden_zero_point = int16 ? -1 : 128;
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
      p = good;
      p.activation = 2;
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
      p = good;
      p.time_major = 2;
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
      p = good;
      o.op.set_params_bytes(sizeof(RnnIntegerParams) - 4);
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
    }
    {
      Op o;
      build(cs, good, &o);
      o.op.desc(o.bias).dims[0] = 5;  // bias must be [2H]
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
    }
    {
      Op o;
      build(cs, good, &o);
      o.op.desc(o.x).dtype = static_cast<uint8_t>(int16 ? DType::kInt8 : DType::kInt16);
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
    }
    {
      Op o;
      build(cs, good, &o);
      o.op.desc(o.w).dtype = static_cast<uint8_t>(DType::kInt16);  // weights are int8
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
    }
    {
      Op o;
      build(cs, good, &o);
      o.op.set_dims(o.h0, {3, 5});  // h0 holds B * H elements
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
    }
    if (!int16) {
      Op o;
      build(cs, good, &o);
      o.op.add_scratch(static_cast<uint32_t>(rnn_s8_scratch_bytes(4, 5)) - 2);
      EXPECT_EQ(o.op.check(e), Status::kBadParams);
    }
  }
}

}  // namespace rnn_s8_test
}  // namespace mote
