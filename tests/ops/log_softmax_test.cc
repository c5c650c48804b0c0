// LOG_SOFTMAX: float32 and int8, the dtypes TensorFlow Lite Micro's kernel takes, along the
// last axis. The oracle is TFLite's arithmetic written here: log-softmax in double for
// float32; for int8 the parameters of PreprocessLogSoftmaxScalingExp (beta 1, 5 integer
// bits) derived here and the fixed-point rows of LogSoftmaxQuantized
// (kernels/gemmlowp_ref.h). TFLite's fixed output quantization (16/256, 127) is required.
#include <cmath>
#include <random>

#include "kernels/gemmlowp_ref.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace log_softmax_test {

constexpr int32_t kLogSoftmax = op_code(fb::BuiltinOperator::LOG_SOFTMAX);

OP_TEST(LogSoftmax, Float32AsTflite) {
  for (const std::vector<int32_t>& shape : {std::vector<int32_t>{2, 3, 10}, std::vector<int32_t>{37}}) {
    const size_t depth = static_cast<size_t>(shape.back());
    size_t count = 1;
    for (int32_t d : shape) count *= static_cast<size_t>(d);
    std::mt19937 rng(static_cast<uint32_t>(count));
    std::vector<float> x(count), y(count);
    for (float& v : x) v = std::uniform_real_distribution<float>(-12.0f, 12.0f)(rng);
    for (size_t r = 0; r < count / depth; ++r) {
      double max = -1e300, sum = 0;
      for (size_t c = 0; c < depth; ++c) max = std::max(max, static_cast<double>(x[r * depth + c]));
      for (size_t c = 0; c < depth; ++c) sum += std::exp(x[r * depth + c] - max);
      for (size_t c = 0; c < depth; ++c) y[r * depth + c] = static_cast<float>(x[r * depth + c] - max - std::log(sum));
    }
    const ModelSpec spec = single_op_model({TensorSpec("x", shape), TensorSpec("y", shape)}, kLogSoftmax, {0}, {1});
    expect_op_outputs("log_softmax_f32_" + std::to_string(count), spec, {{{bytes_of(x)}, {bytes_of(y)}}},
                      FloatTolerance{1e-5, 1e-6});
  }
}

struct Int8Params {
  int32_t multiplier, left_shift, reverse_divisor, reverse_right_shift, diff_min;
};

// TFLite Micro's CalculateOpData: PreprocessSoftmaxScaling (beta 1), the reverse divisor,
// CalculateInputRadius.
Int8Params tflite_params(float input_scale) {
  Int8Params p{};
  const double real = std::min(static_cast<double>(input_scale) * static_cast<double>(1 << 26), 2147483647.0);
  ref_quantize_multiplier(real, &p.multiplier, &p.left_shift);
  const double reverse = static_cast<double>(1 << (31 - p.left_shift)) / static_cast<double>(p.multiplier);
  int32_t reverse_left_shift = 0;
  ref_quantize_multiplier(reverse, &p.reverse_divisor, &reverse_left_shift);
  p.reverse_right_shift = -reverse_left_shift;
  p.diff_min = -static_cast<int32_t>(std::floor(31.0 * static_cast<double>(int64_t{1} << 26) /
                                                static_cast<double>(int64_t{1} << p.left_shift)));
  return p;
}

OP_TEST(LogSoftmax, Int8AsTfliteMicro) {
  struct Case {
    float scale;
    int64_t zp;
    std::vector<int32_t> shape;
  };
  const Case cases[] = {{0.1f, -5, {2, 3, 10}}, {0.02f, 0, {4, 64}}, {1.0f, 100, {3, 7}}, {0.0625f, 127, {1, 1001}}};
  uint32_t seed = 70;
  for (const Case& c : cases) {
    const Int8Params p = tflite_params(c.scale);
    const size_t depth = static_cast<size_t>(c.shape.back());
    size_t count = 1;
    for (int32_t d : c.shape) count *= static_cast<size_t>(d);
    std::vector<int8_t> x = random_ints<int8_t>(count, seed++, -128, 127), y;
    x[1] = x[0];  // a tie for the maximum
    for (size_t r = 0; r < count / depth; ++r) {
      const std::vector<int8_t> row(x.begin() + static_cast<std::ptrdiff_t>(r * depth),
                                    x.begin() + static_cast<std::ptrdiff_t>((r + 1) * depth));
      const std::vector<int8_t> out = gemmlowp_ref::log_softmax_s8(row, p.multiplier, p.left_shift, p.reverse_divisor,
                                                                   p.reverse_right_shift, p.diff_min);
      y.insert(y.end(), out.begin(), out.end());
    }
    const std::string name = "log_softmax_s8_" + std::to_string(c.scale);
    SCOPED_TRACE(name);
    const ModelSpec spec = single_op_model({quantized("x", c.shape, fb::TensorType::INT8, c.scale, c.zp),
                                            quantized("y", c.shape, fb::TensorType::INT8, 16.0f / 256.0f, 127)},
                                           kLogSoftmax, {0}, {1});
    expect_op_outputs(name, spec, {{{bytes_of(x)}, {bytes_of(y)}}});
  }
}

OP_TEST(LogSoftmax, RefusalsAreOneLine) {
  const std::vector<int32_t> shape = {2, 8};
  EXPECT_EQ(op_error("ls_out_quant", single_op_model({quantized("x", shape, fb::TensorType::INT8, 0.1f, 0),
                                                      quantized("y", shape, fb::TensorType::INT8, 0.0625f, 0)},
                                                     kLogSoftmax, {0}, {1})),
            "node 'y' (log_softmax): output 'y' has scale 0.0625, zero point 0; TFLite requires scale 0.0625, zero "
            "point 127");
  EXPECT_EQ(op_error("ls_s16", single_op_model({quantized("x", shape, fb::TensorType::INT16, 0.001f, 0),
                                                quantized("y", shape, fb::TensorType::INT16, 0.0625f, 0)},
                                               kLogSoftmax, {0}, {1})),
            "node 'y' (log_softmax): int16 log_softmax is not supported (TFLite Micro has int8 only)");
  EXPECT_EQ(op_error("ls_scalar", single_op_model({TensorSpec("x", {}), TensorSpec("y", {})}, kLogSoftmax, {0}, {1})),
            "ls_scalar.tflite: operator 0 (LOG_SOFTMAX): input 'x' is a scalar, expected rank >= 1");
}

}  // namespace log_softmax_test
}  // namespace mote::testing
