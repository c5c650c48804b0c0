// rnn_f32: a sequence against ONNX's RNN equation in double (tanh and relu), time major
// equal to batch major on transposed data, and check() against corrupted descriptors and
// parameters.
#include <gtest/gtest.h>
#include <math.h>

#include <vector>

#include "kernel_test_util.h"
#include "rnn/rnn.h"

namespace mote {
namespace rnn_f32_test {

using testing::TestOp;

struct Op {
  TestOp op;
  uint32_t x = 0, w = 0, r = 0, bias = 0, h0 = 0, y = 0, h = 0;
};

void build(Op* o, uint32_t batches, uint32_t steps, uint32_t inputs, uint32_t units, bool time_major) {
  const std::vector<uint32_t> x_dims = time_major ? std::vector<uint32_t>{steps, batches, inputs}
                                                  : std::vector<uint32_t>{batches, steps, inputs};
  o->x = o->op.add_input(DType::kFloat32, x_dims);
  o->w = o->op.add_input(DType::kFloat32, {units, inputs});
  o->r = o->op.add_input(DType::kFloat32, {units, units});
  o->bias = o->op.add_input(DType::kFloat32, {2 * units});
  o->h0 = o->op.add_input(DType::kFloat32, {batches, units});
  o->y = o->op.add_output(DType::kFloat32, {x_dims[0], x_dims[1], units});
  o->h = o->op.add_output(DType::kFloat32, {batches, units});
}

// Fills o with the shared random data (x batch major or time major).
void fill(Op* o, uint32_t batches, uint32_t steps, uint32_t inputs, uint32_t units, bool time_major) {
  const std::vector<float> xb = testing::random_floats(batches * steps * inputs, 1, -1.5f, 1.5f);
  std::vector<float> x(xb.size());
  for (uint32_t b = 0; b < batches; ++b)
    for (uint32_t t = 0; t < steps; ++t)
      for (uint32_t i = 0; i < inputs; ++i)
        x[time_major ? (t * batches + b) * inputs + i : (b * steps + t) * inputs + i] = xb[(b * steps + t) * inputs + i];
  o->op.set_data(o->x, x);
  o->op.set_data(o->w, testing::random_floats(units * inputs, 2, -0.8f, 0.8f));
  o->op.set_data(o->r, testing::random_floats(units * units, 3, -0.8f, 0.8f));
  o->op.set_data(o->bias, testing::random_floats(2 * units, 4, -0.5f, 0.5f));
  o->op.set_data(o->h0, testing::random_floats(batches * units, 5, -0.5f, 0.5f));
}

TEST(RnnF32, MatchesOnnxEquationTanhAndRelu) {
  const uint32_t steps = 4, inputs = 3, units = 5;
  for (uint32_t act : {uint32_t{kRnnTanh}, uint32_t{kRnnRelu}}) {
    Op o;
    build(&o, 1, steps, inputs, units, false);
    fill(&o, 1, steps, inputs, units, false);
    o.op.set_params(RnnF32Params{act, 0});
    ASSERT_EQ(o.op.check(kRnnF32Entry), Status::kOk);
    o.op.run(kRnnF32Entry);
    const std::vector<float> x = o.op.data<float>(o.x), w = o.op.data<float>(o.w), r = o.op.data<float>(o.r),
                             b = o.op.data<float>(o.bias), h0 = o.op.data<float>(o.h0), y = o.op.data<float>(o.y);
    std::vector<double> h(h0.begin(), h0.end());
    for (uint32_t t = 0; t < steps; ++t) {
      std::vector<double> next(units);
      for (uint32_t n = 0; n < units; ++n) {
        double v = b[n] + b[units + n];
        for (uint32_t k = 0; k < inputs; ++k) v += double{w[n * inputs + k]} * x[t * inputs + k];
        for (uint32_t k = 0; k < units; ++k) v += double{r[n * units + k]} * h[k];
        next[n] = act == kRnnRelu ? (v > 0 ? v : 0) : tanh(v);
        EXPECT_NEAR(y[t * units + n], next[n], 1e-5) << "activation " << act << " step " << t << " unit " << n;
      }
      h = next;
    }
    const std::vector<float> last = o.op.data<float>(o.h);
    for (uint32_t n = 0; n < units; ++n) EXPECT_EQ(last[n], y[(steps - 1) * units + n]);
  }
}

TEST(RnnF32, TimeMajorEqualsBatchMajor) {
  const uint32_t batches = 2, steps = 3, inputs = 2, units = 3;
  Op major[2];
  for (int tm = 0; tm < 2; ++tm) {
    build(&major[tm], batches, steps, inputs, units, tm == 1);
    fill(&major[tm], batches, steps, inputs, units, tm == 1);
    major[tm].op.set_params(RnnF32Params{kRnnTanh, static_cast<uint32_t>(tm)});
    ASSERT_EQ(major[tm].op.check(kRnnF32Entry), Status::kOk);
    major[tm].op.run(kRnnF32Entry);
  }
  const std::vector<float> yb = major[0].op.data<float>(major[0].y), yt = major[1].op.data<float>(major[1].y);
  for (uint32_t b = 0; b < batches; ++b)
    for (uint32_t t = 0; t < steps; ++t)
      for (uint32_t n = 0; n < units; ++n) EXPECT_EQ(yb[(b * steps + t) * units + n], yt[(t * batches + b) * units + n]);
  EXPECT_EQ(major[0].op.data<float>(major[0].h), major[1].op.data<float>(major[1].h));
}

TEST(RnnF32, CheckRefusesCorruptDescriptorsAndParameters) {
  struct Corruption {
    const char* what;
    void (*apply)(Op*);
  };
  const Corruption corruptions[] = {
      {"activation 2", [](Op* o) { o->op.set_params(RnnF32Params{2, 1}); }},
      {"time_major 2", [](Op* o) { o->op.set_params(RnnF32Params{0, 2}); }},
      {"w rows", [](Op* o) { o->op.set_dims(o->w, {5, 3}); }},
      {"bias size", [](Op* o) { o->op.set_dims(o->bias, {4}); }},
      {"h0 elements", [](Op* o) { o->op.set_dims(o->h0, {1, 5}); }},
      {"r dtype", [](Op* o) { o->op.desc(o->r).dtype = static_cast<uint8_t>(DType::kInt8); }},
  };
  Op ok;
  build(&ok, 1, 2, 3, 4, true);
  ok.op.set_params(RnnF32Params{kRnnRelu, 1});
  EXPECT_EQ(ok.op.check(kRnnF32Entry), Status::kOk);
  for (const Corruption& c : corruptions) {
    Op o;
    build(&o, 1, 2, 3, 4, true);
    o.op.set_params(RnnF32Params{kRnnTanh, 1});
    c.apply(&o);
    EXPECT_EQ(o.op.check(kRnnF32Entry), Status::kBadParams) << c.what;
  }
}

}  // namespace rnn_f32_test
}  // namespace mote
