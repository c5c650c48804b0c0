// lstm_f32 and lstm_s16 kernels: a hand-computed float step, time major equal to batch
// major on transposed data, and check() against corrupted descriptors and parameters. Their
// bit-exact / toleranced comparison with TFLite Micro's arithmetic over every option is
// tests/ops/lstm_test.cc.
#include <gtest/gtest.h>
#include <math.h>

#include <vector>

#include "kernel_test_util.h"
#include "lstm/lstm.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"

namespace mote {
namespace lstm_f32_s16_test {

using testing::TestOp;

struct Dtypes {
  DType act, weight, bias, cell;
};
const Dtypes kF32{DType::kFloat32, DType::kFloat32, DType::kFloat32, DType::kFloat32};
const Dtypes kS16{DType::kInt16, DType::kInt8, DType::kInt64, DType::kInt16};

// An LSTM op: x [B, T, I] ([T, B, I] when time_major), weights, biases, h0, c0, y and the
// new hidden and cell state.
struct Op {
  TestOp op;
  uint32_t x = 0, w[8] = {}, bias[4] = {}, h0 = 0, c0 = 0, y = 0, h_next = 0, c_next = 0;
};

void build(Op* o, const Dtypes& t, uint32_t batches, uint32_t steps, uint32_t inputs, uint32_t units, bool time_major) {
  const std::vector<uint32_t> x_dims = time_major ? std::vector<uint32_t>{steps, batches, inputs}
                                                  : std::vector<uint32_t>{batches, steps, inputs};
  o->x = o->op.add_input(t.act, x_dims);
  for (uint32_t k = 0; k < 8; ++k) o->w[k] = o->op.add_input(t.weight, {units, k < 4 ? inputs : units});
  for (int k = 0; k < 3; ++k) o->op.add_missing_input();
  for (uint32_t g = 0; g < 4; ++g) o->bias[g] = o->op.add_input(t.bias, {units});
  for (int k = 0; k < 2; ++k) o->op.add_missing_input();
  o->h0 = o->op.add_input(t.act, {batches, units});
  o->c0 = o->op.add_input(t.cell, {batches, units});
  for (int k = 0; k < 4; ++k) o->op.add_missing_input();
  o->y = o->op.add_output(t.act, {x_dims[0], x_dims[1], units});
  o->h_next = o->op.add_output(t.act, {batches, units});
  o->c_next = o->op.add_output(t.cell, {batches, units});
}

TEST(LstmF32, HandComputedTwoSteps) {
  // One unit, one input: every gate's pre-activation is w_x * x + b + w_h * h.
  Op o;
  build(&o, kF32, 1, 2, 1, 1, false);
  const float wx[4] = {0.5f, -0.25f, 1.0f, 0.75f}, wh[4] = {0.3f, 0.2f, -0.6f, 0.1f}, b[4] = {0.1f, 1.0f, 0.0f, -0.2f};
  for (int g = 0; g < 4; ++g) {
    o.op.set_data(o.w[g], std::vector<float>{wx[g]});
    o.op.set_data(o.w[4 + g], std::vector<float>{wh[g]});
    o.op.set_data(o.bias[g], std::vector<float>{b[g]});
  }
  const std::vector<float> x = {0.8f, -1.5f};
  o.op.set_data(o.x, x);
  o.op.set_params(LstmF32Params{0.0f, 0});
  ASSERT_EQ(o.op.check(kLstmF32Entry), Status::kOk);
  o.op.run(kLstmF32Entry);
  double h = 0, c = 0;
  const std::vector<float> y = o.op.data<float>(o.y);
  for (int t = 0; t < 2; ++t) {
    double pre[4];
    for (int g = 0; g < 4; ++g) pre[g] = wx[g] * x[t] + b[g] + wh[g] * h;
    auto sig = [](double v) { return 1.0 / (1.0 + exp(-v)); };
    c = sig(pre[1]) * c + sig(pre[0]) * tanh(pre[2]);
    h = tanh(c) * sig(pre[3]);
    EXPECT_NEAR(y[t], h, 1e-6) << t;
  }
  // The state after the sequence: the last hidden value, bit for bit y's, and the cell.
  EXPECT_EQ(o.op.data<float>(o.h_next), std::vector<float>{y[1]});
  EXPECT_NEAR(o.op.data<float>(o.c_next)[0], c, 1e-6);
}

template <typename E>
void expect_time_major_equals_batch_major(const KernelEntry& entry, const Dtypes& t, const void* params_bm,
                                          const void* params_tm, size_t params_bytes) {
  const uint32_t B = 3, T = 4, I = 5, H = 6;
  Op a, c;
  build(&a, t, B, T, I, H, false);
  build(&c, t, B, T, I, H, true);
  std::vector<uint8_t> pa(params_bytes), pc(params_bytes);
  memcpy(pa.data(), params_bm, params_bytes);
  memcpy(pc.data(), params_tm, params_bytes);
  a.op.set_raw_params(pa);
  c.op.set_raw_params(pc);
  std::vector<E> x_bm(size_t{B} * T * I), x_tm(x_bm.size());
  for (size_t i = 0; i < x_bm.size(); ++i) {
    x_bm[i] = static_cast<E>(sizeof(E) == 4 ? static_cast<float>(i % 7) * 0.3f - 0.9f : static_cast<float>((i * 2654435761u) % 60001) - 30000.0f);
  }
  for (uint32_t b = 0; b < B; ++b)
    for (uint32_t s = 0; s < T; ++s)
      for (uint32_t i = 0; i < I; ++i) x_tm[(s * B + b) * I + i] = x_bm[(b * T + s) * I + i];
  a.op.set_data(a.x, x_bm);
  c.op.set_data(c.x, x_tm);
  for (Op* o : {&a, &c}) {
    for (uint32_t k = 0; k < 8; ++k) {
      const size_t n = size_t{H} * (k < 4 ? I : H);
      if (t.weight == DType::kFloat32) {
        o->op.set_data(o->w[k], testing::random_floats(n, 100 + k, -0.8f, 0.8f));
      } else {
        o->op.set_data(o->w[k], testing::random_full_range<int8_t>(n, 100 + k));
      }
    }
    for (uint32_t g = 0; g < 4; ++g) {
      if (t.bias == DType::kFloat32) {
        o->op.set_data(o->bias[g], testing::random_floats(H, 200 + g, -0.5f, 0.5f));
      } else {
        o->op.set_data(o->bias[g], testing::random_ints<int64_t>(H, 200 + g, -400000, 400000));
      }
    }
    ASSERT_EQ(o->op.check(entry), Status::kOk);
    o->op.run(entry);
  }
  const auto ya = a.op.data<E>(a.y), yc = c.op.data<E>(c.y);
  for (uint32_t b = 0; b < B; ++b)
    for (uint32_t s = 0; s < T; ++s)
      for (uint32_t n = 0; n < H; ++n) ASSERT_EQ(ya[(b * T + s) * H + n], yc[(s * B + b) * H + n]);
  // Both layouts end in the same state; the hidden one is each batch's last output row.
  const auto ha = a.op.data<E>(a.h_next);
  EXPECT_EQ(ha, c.op.data<E>(c.h_next));
  EXPECT_EQ(a.op.data<E>(a.c_next), c.op.data<E>(c.c_next));
  for (uint32_t b = 0; b < B; ++b)
    for (uint32_t n = 0; n < H; ++n) ASSERT_EQ(ha[b * H + n], ya[(b * T + T - 1) * H + n]);
}

// 16x8 parameters of a plausible quantization (x 2^-13, weights 0.02, h 2^-15, cell 2^-11).
LstmIntegerParams s16_params(uint32_t time_major) {
  LstmIntegerParams p{};
  for (auto& g : p.gate) {
    quantize_multiplier(1.0 / 8192 * 0.02 * 4096, &g.input_multiplier, &g.input_shift);
    quantize_multiplier(1.0 / 32768 * 0.02 * 4096, &g.recurrent_multiplier, &g.recurrent_shift);
  }
  quantize_multiplier(1.0 / 32768, &p.forget_cell.multiplier, &p.forget_cell.shift);
  quantize_multiplier(1.0 / 32768 / 32768 * 2048, &p.input_cell.multiplier, &p.input_cell.shift);
  quantize_multiplier(1.0 / 32768, &p.hidden.multiplier, &p.hidden.shift);
  p.cell_tanh_multiplier = 3 << 1;  // cell scale 2^-11
  p.time_major = time_major;
  return p;
}

TEST(LstmF32, TimeMajorEqualsBatchMajorOnTransposedData) {
  const LstmF32Params bm{0.7f, 0}, tm{0.7f, 1};
  expect_time_major_equals_batch_major<float>(kLstmF32Entry, kF32, &bm, &tm, sizeof bm);
}

TEST(LstmS16, TimeMajorEqualsBatchMajorOnTransposedData) {
  const LstmIntegerParams bm = s16_params(0), tm = s16_params(1);
  expect_time_major_equals_batch_major<int16_t>(kLstmS16Entry, kS16, &bm, &tm, sizeof bm);
}

TEST(LstmF32Check, Rejections) {
  Op o;
  build(&o, kF32, 2, 3, 4, 5, false);
  o.op.set_params(LstmF32Params{0.5f, 0});
  ASSERT_EQ(o.op.check(kLstmF32Entry), Status::kOk);
  auto& p = o.op.params<LstmF32Params>();
  p.cell_clip = -1.0f;
  EXPECT_EQ(o.op.check(kLstmF32Entry), Status::kBadParams);
  p.cell_clip = NAN;
  EXPECT_EQ(o.op.check(kLstmF32Entry), Status::kBadParams);
  p.cell_clip = 0.0f;
  p.time_major = 2;
  EXPECT_EQ(o.op.check(kLstmF32Entry), Status::kBadParams);
  p.time_major = 1;  // x [2, 3, 4] read as [T, B, I]: B = 3, and the 2 x 5 states no longer fit
  EXPECT_EQ(o.op.check(kLstmF32Entry), Status::kBadParams);
  p.time_major = 0;
  o.op.set_params_bytes(sizeof(LstmF32Params) + 4);
  EXPECT_EQ(o.op.check(kLstmF32Entry), Status::kBadParams);
  o.op.set_params_bytes(sizeof(LstmF32Params));
  o.op.desc(o.bias[2]).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(o.op.check(kLstmF32Entry), Status::kBadParams);
  o.op.desc(o.bias[2]).dtype = static_cast<uint8_t>(DType::kFloat32);
  o.op.desc(o.w[6]).dims[1] = 4;
  EXPECT_EQ(o.op.check(kLstmF32Entry), Status::kBadParams);
  o.op.desc(o.w[6]).dims[1] = 5;
  o.op.desc(o.c0).dims[1] = 4;
  EXPECT_EQ(o.op.check(kLstmF32Entry), Status::kBadParams);
  o.op.desc(o.c0).dims[1] = 5;
  ASSERT_EQ(o.op.check(kLstmF32Entry), Status::kOk);
  o.op.set_dims(o.c_next, {2, 4});  // the new cell state must hold B * H elements
  EXPECT_EQ(o.op.check(kLstmF32Entry), Status::kBadParams);
  o.op.set_dims(o.c_next, {2, 5});
  o.op.desc(o.h_next).dtype = static_cast<uint8_t>(DType::kInt16);  // the new hidden state is float32
  EXPECT_EQ(o.op.check(kLstmF32Entry), Status::kBadParams);
  o.op.desc(o.h_next).dtype = static_cast<uint8_t>(DType::kFloat32);
  ASSERT_EQ(o.op.check(kLstmF32Entry), Status::kOk);
}

TEST(LstmS16Check, Rejections) {
  Op o;
  build(&o, kS16, 2, 3, 4, 5, false);
  const LstmIntegerParams good = s16_params(0);
  o.op.set_params(good);
  ASSERT_EQ(o.op.check(kLstmS16Entry), Status::kOk);
  auto& p = o.op.params<LstmIntegerParams>();
  p.gate[1].input_shift = 15;  // beyond the 64-bit multiply's 14
  EXPECT_EQ(o.op.check(kLstmS16Entry), Status::kBadParams);
  p = good;
  p.gate[1].input_shift = 14;
  EXPECT_EQ(o.op.check(kLstmS16Entry), Status::kOk);
  p = good;
  p.hidden_zero_point = 32768;
  EXPECT_EQ(o.op.check(kLstmS16Entry), Status::kBadParams);
  p = good;
  p.input_zero_point = -300;  // fine for int16 activations
  EXPECT_EQ(o.op.check(kLstmS16Entry), Status::kOk);
  p = good;
  p.gate[0].recurrent_weight_zero_point = 128;
  EXPECT_EQ(o.op.check(kLstmS16Entry), Status::kBadParams);
  p = good;
  p.cell_clip_enabled = 2;
  EXPECT_EQ(o.op.check(kLstmS16Entry), Status::kBadParams);
  p = good;
  o.op.desc(o.bias[0]).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(o.op.check(kLstmS16Entry), Status::kBadParams);
  o.op.desc(o.bias[0]).dtype = static_cast<uint8_t>(DType::kInt64);
  o.op.desc(o.h0).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(o.op.check(kLstmS16Entry), Status::kBadParams);
  o.op.desc(o.h0).dtype = static_cast<uint8_t>(DType::kInt16);
  ASSERT_EQ(o.op.check(kLstmS16Entry), Status::kOk);
  // The int8 kernel refuses the 16x8 layout and the other way round.
  EXPECT_EQ(o.op.check(kLstmS8Entry), Status::kBadParams);
}

}  // namespace lstm_f32_s16_test
}  // namespace mote
