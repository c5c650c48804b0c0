// SOFTMAX in every form TensorFlow Lite Micro runs: float32 (exp((x - max) * beta) / sum
// in double, within float rounding), int8 -> int8, int8 -> int16 and int16 -> int16 bit for
// bit against TFLM's arithmetic transcribed in tests/kernels (gemmlowp_ref.h: Softmax<int8_t,
// int8_t / int16_t>; softmax_s16_ref.h: the tables its Prepare builds in float, LUTLookup,
// SoftmaxInt16), with the parameters TFLM derives (PreprocessSoftmaxScaling; QuantizeMultiplier
// of scale * beta / (10 / 65535)) computed here in double. Ranks 1 to 4, several betas and
// scales; refusals are one line.
#include <algorithm>
#include <cmath>
#include <random>

#include "kernels/gemmlowp_ref.h"
#include "kernels/softmax_s16_ref.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace softmax_test {

using fb::TensorType;

constexpr int32_t kSoftmax = op_code(fb::BuiltinOperator::SOFTMAX);

ModelSpec softmax_model(TensorSpec x, TensorSpec y, float beta) {
  return single_op_model({std::move(x), std::move(y)}, kSoftmax, {0}, {1}, fb::BuiltinOptions::SoftmaxOptions,
                         [beta](flatbuffers::FlatBufferBuilder& b) { return fb::CreateSoftmaxOptions(b, beta).Union(); });
}

size_t count(const std::vector<int32_t>& shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

const std::vector<std::vector<int32_t>> kShapes = {{7}, {3, 16}, {2, 2, 33}, {1, 2, 3, 10}};

OP_TEST(Softmax, Int16AsTfliteMicro) {
  std::mt19937 rng(163);
  for (float scale : {1.0f / 32768, 0.0002f, 0.003f, 0.05f}) {
    for (float beta : {1.0f, 0.5f, 2.0f}) {
      int32_t multiplier = 0, shift = 0;
      ref_quantize_multiplier(static_cast<double>(scale) * static_cast<double>(beta) / (10.0 / 65535.0), &multiplier,
                              &shift);
      for (const std::vector<int32_t>& shape : kShapes) {
        std::vector<int16_t> x(count(shape));
        for (int16_t& v : x) v = static_cast<int16_t>(std::uniform_int_distribution<int>(-32768, 32767)(rng));
        if (x.size() > 4) x[0] = 32767, x[1] = -32768, x[2] = x[3];  // the extremes and a tie
        const size_t depth = static_cast<size_t>(shape.back());
        std::vector<int16_t> y;
        for (size_t r = 0; r < x.size(); r += depth) {
          const std::vector<int16_t> row(x.begin() + static_cast<long>(r), x.begin() + static_cast<long>(r + depth));
          for (int16_t v : ref_softmax_s16(row, multiplier, shift)) y.push_back(v);
        }
        const std::string name = "softmax_s16_" + std::to_string(scale) + "_" + std::to_string(beta) + "_r" +
                                 std::to_string(shape.size());
        SCOPED_TRACE(name);
        expect_op_outputs(name,
                          softmax_model(quantized("x", shape, TensorType::INT16, scale, 0),
                                        quantized("y", shape, TensorType::INT16, 1.0f / 32768, 0), beta),
                          {{{bytes_of(x)}, {bytes_of(y)}}});
      }
    }
  }
}

// TFLite's PreprocessSoftmaxScaling with 5 integer bits, and CalculateInputRadius.
void int8_params(float beta, float scale, int32_t* multiplier, int32_t* shift, int32_t* diff_min) {
  const double real = std::min(static_cast<double>(beta) * static_cast<double>(scale) * (1 << 26),
                               static_cast<double>((int64_t{1} << 31) - 1));
  ref_quantize_multiplier(real, multiplier, shift);
  const double radius = ((1 << 5) - 1) * std::ldexp(1.0, 31 - 5) / std::ldexp(1.0, *shift);
  *diff_min = -static_cast<int32_t>(std::floor(radius));
}

OP_TEST(Softmax, Float32AsTflite) {
  std::mt19937 rng(165);
  for (float beta : {1.0f, 0.3f, 4.0f}) {
    for (const std::vector<int32_t>& shape : kShapes) {
      std::vector<float> x(count(shape));
      for (float& v : x) v = std::uniform_real_distribution<float>(-8.0f, 8.0f)(rng);
      if (x.size() > 4) x[0] = -1e30f, x[1] = 1e4f, x[2] = x[3];
      const size_t depth = static_cast<size_t>(shape.back());
      std::vector<float> y(x.size());
      for (size_t r = 0; r < x.size(); r += depth) {
        const float max = *std::max_element(x.begin() + static_cast<long>(r), x.begin() + static_cast<long>(r + depth));
        double sum = 0;
        for (size_t c = r; c < r + depth; ++c) sum += std::exp((static_cast<double>(x[c]) - max) * beta);
        for (size_t c = r; c < r + depth; ++c) y[c] = static_cast<float>(std::exp((static_cast<double>(x[c]) - max) * beta) / sum);
      }
      const std::string name = "softmax_f32_" + std::to_string(beta) + "_r" + std::to_string(shape.size());
      SCOPED_TRACE(name);
      expect_op_outputs(name, softmax_model(TensorSpec("x", shape), TensorSpec("y", shape), beta),
                        {{{bytes_of(x)}, {bytes_of(y)}}}, FloatTolerance{1e-7, 1e-5});
    }
  }
}

// int8 input, OutT output (int8: scale 1/256, zero point -128; int16: 1/65536, -32768).
template <typename OutT>
void expect_int8_input(const char* prefix, TensorType out_type, float out_scale, int32_t out_zp, uint32_t seed) {
  std::mt19937 rng(seed);
  for (float scale : {0.0039215f, 0.05f, 0.2f, 3.0f}) {
    for (float beta : {1.0f, 0.7f}) {
      int32_t multiplier = 0, shift = 0, diff_min = 0;
      int8_params(beta, scale, &multiplier, &shift, &diff_min);
      for (const std::vector<int32_t>& shape : kShapes) {
        std::vector<int8_t> x(count(shape));
        for (int8_t& v : x) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
        if (x.size() > 4) x[0] = 127, x[1] = -128, x[2] = x[3];
        const size_t depth = static_cast<size_t>(shape.back());
        std::vector<OutT> y;
        for (size_t r = 0; r < x.size(); r += depth) {
          const std::vector<int8_t> row(x.begin() + static_cast<long>(r), x.begin() + static_cast<long>(r + depth));
          for (OutT v : gemmlowp_ref::softmax_s8_to<OutT>(row, multiplier, shift, diff_min)) y.push_back(v);
        }
        const std::string name = std::string(prefix) + std::to_string(scale) + "_" + std::to_string(beta) + "_r" +
                                 std::to_string(shape.size());
        SCOPED_TRACE(name);
        expect_op_outputs(name,
                          softmax_model(quantized("x", shape, TensorType::INT8, scale, -3),
                                        quantized("y", shape, out_type, out_scale, out_zp), beta),
                          {{{bytes_of(x)}, {bytes_of(y)}}});
      }
    }
  }
}

OP_TEST(Softmax, Int8AsTfliteMicro) {
  expect_int8_input<int8_t>("softmax_s8_", TensorType::INT8, 1.0f / 256, -128, 166);
}

OP_TEST(Softmax, Int8ToInt16AsTfliteMicro) {
  expect_int8_input<int16_t>("softmax_s8_s16_", TensorType::INT16, 1.0f / 65536, -32768, 164);
}

OP_TEST(Softmax, Int16RefusalsAreOneLine) {
  const std::vector<int32_t> s = {2, 8};
  EXPECT_EQ(op_error("softmax_s16_in_zp", softmax_model(quantized("x", s, TensorType::INT16, 0.001f, 5),
                                                        quantized("y", s, TensorType::INT16, 1.0f / 32768, 0), 1.0f)),
            "node 'y' (softmax): input 'x' has zero point 5; TFLite's int16 softmax requires 0");
  EXPECT_EQ(op_error("softmax_s16_out_q", softmax_model(quantized("x", s, TensorType::INT16, 0.001f, 0),
                                                        quantized("y", s, TensorType::INT16, 1.0f / 256, 0), 1.0f)),
            "node 'y' (softmax): output 'y' has scale 0.00390625, zero point 0; TFLite requires scale 3.05175781e-05, "
            "zero point 0");
  EXPECT_EQ(op_error("softmax_s8_s16_out_q",
                     softmax_model(quantized("x", s, TensorType::INT8, 0.1f, 0),
                                   quantized("y", s, TensorType::INT16, 1.0f / 32768, 0), 1.0f)),
            "node 'y' (softmax): output 'y' has scale 3.05175781e-05, zero point 0; TFLite requires scale 1.52587891e-05, "
            "zero point -32768");
  EXPECT_EQ(op_error("softmax_s16_s8", softmax_model(quantized("x", s, TensorType::INT16, 0.001f, 0),
                                                     quantized("y", s, TensorType::INT8, 1.0f / 256, -128), 1.0f)),
            "node 'y' (softmax): output 'y' has dtype int8, expected int16");
  EXPECT_EQ(op_error("softmax_s16_long", softmax_model(quantized("x", {1, 70000}, TensorType::INT16, 0.001f, 0),
                                                       quantized("y", {1, 70000}, TensorType::INT16, 1.0f / 32768, 0),
                                                       1.0f)),
            "node 'y' (softmax): rows of 70000 elements overflow TFLite's int16 softmax sum (at most 65536)");
}

}  // namespace softmax_test
}  // namespace mote::testing
