// gru_f32: a hand-computed sequence in both reset placements against ONNX's equations in
// double, time major equal to batch major on transposed data, and check() against
// corrupted descriptors and parameters.
#include <gtest/gtest.h>
#include <math.h>

#include <vector>

#include "gru/gru.h"
#include "kernel_test_util.h"

namespace mote {
namespace gru_f32_test {

using testing::TestOp;

struct Op {
  TestOp op;
  uint32_t x = 0, w = 0, r = 0, bias = 0, h0 = 0, y = 0, h = 0;
};

void build(Op* o, uint32_t batches, uint32_t steps, uint32_t inputs, uint32_t units, bool time_major) {
  const std::vector<uint32_t> x_dims = time_major ? std::vector<uint32_t>{steps, batches, inputs}
                                                  : std::vector<uint32_t>{batches, steps, inputs};
  o->x = o->op.add_input(DType::kFloat32, x_dims);
  o->w = o->op.add_input(DType::kFloat32, {3 * units, inputs});
  o->r = o->op.add_input(DType::kFloat32, {3 * units, units});
  o->bias = o->op.add_input(DType::kFloat32, {6 * units});
  o->h0 = o->op.add_input(DType::kFloat32, {batches, units});
  o->y = o->op.add_output(DType::kFloat32, {x_dims[0], x_dims[1], units});
  o->h = o->op.add_output(DType::kFloat32, {batches, units});
  o->op.add_scratch(static_cast<uint32_t>(gru_f32_scratch_bytes(units)));
}

double sig(double v) { return 1.0 / (1.0 + exp(-v)); }

// ONNX GRU, one batch row, batch major x [T, I]: the hidden state after each step.
std::vector<double> reference(const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& r,
                              const std::vector<float>& b, std::vector<double> h, int steps, int inputs, int units,
                              bool lbr) {
  std::vector<double> y;
  for (int t = 0; t < steps; ++t) {
    auto fc = [&](const std::vector<float>& m, int gate, int n, const double* v, int width) {
      double s = 0;
      for (int k = 0; k < width; ++k) s += m[(gate * units + n) * width + k] * v[k];
      return s;
    };
    std::vector<double> xt(x.begin() + t * inputs, x.begin() + (t + 1) * inputs);
    std::vector<double> z(units), rg(units), rh(units), next(units);
    for (int n = 0; n < units; ++n) {
      z[n] = sig(fc(w, 0, n, xt.data(), inputs) + b[n] + fc(r, 0, n, h.data(), units) + b[3 * units + n]);
      rg[n] = sig(fc(w, 1, n, xt.data(), inputs) + b[units + n] + fc(r, 1, n, h.data(), units) + b[4 * units + n]);
      rh[n] = rg[n] * h[n];
    }
    for (int n = 0; n < units; ++n) {
      const double in = fc(w, 2, n, xt.data(), inputs) + b[2 * units + n];
      const double rec = lbr ? rg[n] * (fc(r, 2, n, h.data(), units) + b[5 * units + n])
                             : fc(r, 2, n, rh.data(), units) + b[5 * units + n];
      next[n] = (1 - z[n]) * tanh(in + rec) + z[n] * h[n];
    }
    h = next;
    y.insert(y.end(), h.begin(), h.end());
  }
  return y;
}

TEST(GruF32, MatchesOnnxEquationsInBothResetPlacements) {
  const int steps = 4, inputs = 3, units = 5;
  const std::vector<float> x = testing::random_floats(steps * inputs, 1, -1.5f, 1.5f);
  const std::vector<float> w = testing::random_floats(3 * units * inputs, 2, -0.8f, 0.8f);
  const std::vector<float> r = testing::random_floats(3 * units * units, 3, -0.8f, 0.8f);
  const std::vector<float> b = testing::random_floats(6 * units, 4, -0.5f, 0.5f);
  const std::vector<float> h0 = testing::random_floats(units, 5, -0.5f, 0.5f);
  for (uint32_t lbr : {0u, 1u}) {
    Op o;
    build(&o, 1, steps, inputs, units, false);
    o.op.set_data(o.x, x);
    o.op.set_data(o.w, w);
    o.op.set_data(o.r, r);
    o.op.set_data(o.bias, b);
    o.op.set_data(o.h0, h0);
    o.op.set_params(GruF32Params{lbr, 0});
    ASSERT_EQ(o.op.check(kGruF32Entry), Status::kOk);
    o.op.run(kGruF32Entry);
    const std::vector<double> want =
        reference(x, w, r, b, std::vector<double>(h0.begin(), h0.end()), steps, inputs, units, lbr != 0);
    const std::vector<float> y = o.op.data<float>(o.y);
    ASSERT_EQ(y.size(), want.size());
    for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], want[i], 1e-5) << "lbr " << lbr << " element " << i;
    const std::vector<float> last = o.op.data<float>(o.h);
    for (int n = 0; n < units; ++n) EXPECT_EQ(last[n], y[(steps - 1) * units + n]) << n;
  }
}

TEST(GruF32, TimeMajorEqualsBatchMajor) {
  const uint32_t batches = 2, steps = 3, inputs = 2, units = 3;
  const std::vector<float> xb = testing::random_floats(batches * steps * inputs, 6, -1, 1);
  std::vector<float> xt(xb.size());
  for (uint32_t b = 0; b < batches; ++b)
    for (uint32_t t = 0; t < steps; ++t)
      for (uint32_t i = 0; i < inputs; ++i) xt[(t * batches + b) * inputs + i] = xb[(b * steps + t) * inputs + i];
  const std::vector<float> w = testing::random_floats(3 * units * inputs, 7, -1, 1);
  const std::vector<float> r = testing::random_floats(3 * units * units, 8, -1, 1);
  const std::vector<float> bias = testing::random_floats(6 * units, 9, -1, 1);
  const std::vector<float> h0 = testing::random_floats(batches * units, 10, -1, 1);
  Op major[2];
  for (int tm = 0; tm < 2; ++tm) {
    Op& o = major[tm];
    build(&o, batches, steps, inputs, units, tm == 1);
    o.op.set_data(o.x, tm ? xt : xb);
    o.op.set_data(o.w, w);
    o.op.set_data(o.r, r);
    o.op.set_data(o.bias, bias);
    o.op.set_data(o.h0, h0);
    o.op.set_params(GruF32Params{1, static_cast<uint32_t>(tm)});
    ASSERT_EQ(o.op.check(kGruF32Entry), Status::kOk);
    o.op.run(kGruF32Entry);
  }
  const std::vector<float> yb = major[0].op.data<float>(major[0].y), yt = major[1].op.data<float>(major[1].y);
  for (uint32_t b = 0; b < batches; ++b)
    for (uint32_t t = 0; t < steps; ++t)
      for (uint32_t n = 0; n < units; ++n)
        EXPECT_EQ(yb[(b * steps + t) * units + n], yt[(t * batches + b) * units + n]);
  EXPECT_EQ(major[0].op.data<float>(major[0].h), major[1].op.data<float>(major[1].h));
}

TEST(GruF32, CheckRefusesCorruptDescriptorsAndParameters) {
  auto fresh = [](Op* o) {
    build(o, 1, 2, 3, 4, true);
    o->op.set_params(GruF32Params{1, 1});
  };
  {
    Op o;
    fresh(&o);
    EXPECT_EQ(o.op.check(kGruF32Entry), Status::kOk);
  }
  {
    Op o;
    fresh(&o);
    o.op.set_params(GruF32Params{2, 1});
    EXPECT_EQ(o.op.check(kGruF32Entry), Status::kBadParams);
  }
  {
    Op o;
    fresh(&o);
    o.op.set_params(GruF32Params{0, 2});
    EXPECT_EQ(o.op.check(kGruF32Entry), Status::kBadParams);
  }
  {
    Op o;
    fresh(&o);
    o.op.set_dims(o.w, {11, 3});  // not 3 * units rows
    EXPECT_EQ(o.op.check(kGruF32Entry), Status::kBadParams);
  }
  {
    Op o;
    fresh(&o);
    o.op.set_dims(o.bias, {12});  // not 6 * units
    EXPECT_EQ(o.op.check(kGruF32Entry), Status::kBadParams);
  }
  {
    Op o;
    fresh(&o);
    o.op.set_dims(o.h0, {1, 5});  // not batches * units elements
    EXPECT_EQ(o.op.check(kGruF32Entry), Status::kBadParams);
  }
  {
    Op o;
    fresh(&o);
    o.op.desc(o.r).dtype = static_cast<uint8_t>(DType::kInt8);
    EXPECT_EQ(o.op.check(kGruF32Entry), Status::kBadParams);
  }
  {
    Op o;
    build(&o, 1, 2, 3, 4, true);
    o.op.set_params(GruF32Params{1, 1});
    o.op.add_scratch(8);  // smaller than units floats
    EXPECT_EQ(o.op.check(kGruF32Entry), Status::kBadParams);
  }
}

}  // namespace gru_f32_test
}  // namespace mote
