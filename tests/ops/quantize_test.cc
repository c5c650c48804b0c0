// QUANTIZE and DEQUANTIZE: every type pair TensorFlow Lite Micro's kernels take, against
// TFLite's arithmetic written here (AffineQuantize in float, Requantize with
// QuantizeMultiplier and MultiplyByQuantizedMultiplier, Dequantize), on the host and on
// emulated cores; the pairs TFLM refuses are refused with one line.
#include <cmath>
#include <random>

#include "kernels/quant_test_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace quantize_test {

constexpr int32_t kQuantize = op_code(fb::BuiltinOperator::QUANTIZE);
constexpr int32_t kDequantize = op_code(fb::BuiltinOperator::DEQUANTIZE);

struct TypeInfo {
  fb::TensorType type;
  int32_t lo, hi;
  size_t bytes;
};

TypeInfo info(fb::TensorType type) {
  switch (type) {
    case fb::TensorType::INT8: return {type, -128, 127, 1};
    case fb::TensorType::UINT8: return {type, 0, 255, 1};
    case fb::TensorType::INT16: return {type, -32768, 32767, 2};
    case fb::TensorType::INT32: return {type, INT32_MIN, INT32_MAX, 4};
    default: return {type, 0, 0, 4};
  }
}

void store(std::vector<uint8_t>& bytes, size_t i, int64_t value, size_t width) {
  const uint64_t v = static_cast<uint64_t>(value);
  for (size_t b = 0; b < width; ++b) bytes[i * width + b] = static_cast<uint8_t>(v >> (8 * b));
}

int64_t load(const std::vector<uint8_t>& bytes, size_t i, const TypeInfo& t) {
  uint64_t v = 0;
  for (size_t b = 0; b < t.bytes; ++b) v |= static_cast<uint64_t>(bytes[i * t.bytes + b]) << (8 * b);
  if (t.lo < 0) {  // sign-extend
    const int bits = static_cast<int>(t.bytes * 8);
    return static_cast<int64_t>(v << (64 - bits)) >> (64 - bits);
  }
  return static_cast<int64_t>(v);
}

const std::vector<int32_t> kShape = {1, 3, 5, 4};
constexpr size_t kCount = 60;

// One QUANTIZE from an integer type to another: x [shape] -> y.
ModelSpec requantize_model(TypeInfo from, float in_scale, int64_t in_zp, TypeInfo to, float out_scale,
                           int64_t out_zp) {
  return single_op_model({quantized("x", kShape, from.type, in_scale, in_zp),
                          quantized("y", kShape, to.type, out_scale, out_zp)},
                         kQuantize, {0}, {1});
}

struct Requantize {
  fb::TensorType from;
  float in_scale;
  int64_t in_zp;
  fb::TensorType to;
  float out_scale;
  int64_t out_zp;
};

std::string type_name(fb::TensorType t) { return fb::EnumNameTensorType(t); }

OP_TEST(Quantize, IntegerToIntegerAsTfliteRequantize) {
  const Requantize cases[] = {
      // uint8 camera input to an int8 network: one scale, zero points 128 apart (TFLM's
      // xor shortcut), and a real rescale.
      {fb::TensorType::UINT8, 0.0078125f, 128, fb::TensorType::INT8, 0.0078125f, 0},
      {fb::TensorType::UINT8, 1.0f / 255, 0, fb::TensorType::INT8, 0.0123f, -7},
      // int8 output handed back as uint8.
      {fb::TensorType::INT8, 0.02f, -128, fb::TensorType::UINT8, 0.02f, 0},
      {fb::TensorType::INT8, 0.05f, 3, fb::TensorType::UINT8, 0.031f, 120},
      {fb::TensorType::INT8, 0.05f, 3, fb::TensorType::INT8, 0.11f, -20},
      {fb::TensorType::INT8, 0.05f, 3, fb::TensorType::INT16, 0.0007f, 0},
      {fb::TensorType::INT8, 0.5f, -1, fb::TensorType::INT32, 0.001f, 0},
      {fb::TensorType::INT16, 0.0004f, 0, fb::TensorType::INT8, 0.07f, 5},
      {fb::TensorType::INT16, 0.0004f, 0, fb::TensorType::INT16, 0.0009f, 0},
      {fb::TensorType::INT16, 0.0004f, 0, fb::TensorType::INT32, 0.00001f, 0},
      {fb::TensorType::INT32, 0.0001f, 0, fb::TensorType::INT8, 0.08f, -3},
      {fb::TensorType::INT32, 0.0001f, 0, fb::TensorType::INT16, 0.002f, 0},
  };
  std::mt19937 rng(114);
  for (const Requantize& c : cases) {
    const TypeInfo from = info(c.from), to = info(c.to);
    const std::string name = "quantize_" + type_name(c.from) + "_" + type_name(c.to);
    SCOPED_TRACE(name);
    int32_t multiplier = 0, shift = 0;
    ref_quantize_multiplier(static_cast<double>(c.in_scale) / static_cast<double>(c.out_scale), &multiplier,
                            &shift);
    std::vector<OpSample> samples(2);
    for (OpSample& s : samples) {
      std::vector<uint8_t> x(kCount * from.bytes), y(kCount * to.bytes);
      // int32 inputs span what an accumulator holds, not the whole type.
      const int64_t lo = c.from == fb::TensorType::INT32 ? -200000 : from.lo;
      const int64_t hi = c.from == fb::TensorType::INT32 ? 200000 : from.hi;
      for (size_t i = 0; i < kCount; ++i) {
        int64_t v = std::uniform_int_distribution<int64_t>(lo, hi)(rng);
        if (i == 0) v = lo;  // the ends of the range
        if (i == 1) v = hi;
        store(x, i, v, from.bytes);
        const int32_t centred = static_cast<int32_t>(v - c.in_zp);
        const int64_t out = static_cast<int64_t>(ref_mbqm(centred, multiplier, shift)) + c.out_zp;
        store(y, i, ref_clamp(out, to.lo, to.hi), to.bytes);
      }
      s.inputs = {x};
      s.expected = {y};
    }
    expect_op_outputs(name, requantize_model(from, c.in_scale, c.in_zp, to, c.out_scale, c.out_zp), samples);
  }
}

OP_TEST(Quantize, FloatToInt8AndInt16AsTfliteAffineQuantize) {
  struct Case {
    fb::TensorType to;
    float scale;
    int64_t zp;
  };
  const Case cases[] = {{fb::TensorType::INT8, 0.05f, -3}, {fb::TensorType::INT16, 0.0003f, 0}};
  std::mt19937 rng(6);
  for (const Case& c : cases) {
    const TypeInfo to = info(c.to);
    const std::string name = "quantize_FLOAT32_" + type_name(c.to);
    SCOPED_TRACE(name);
    std::vector<float> x(kCount);
    std::vector<uint8_t> y(kCount * to.bytes);
    for (size_t i = 0; i < kCount; ++i) {
      x[i] = std::uniform_real_distribution<float>(-12.0f, 12.0f)(rng);
      if (i < 4) x[i] = c.scale * (static_cast<float>(i) - 1.5f);  // exact ties: round half away from zero
      const float q = std::round(x[i] / c.scale);
      store(y, i, ref_clamp(static_cast<int64_t>(q) + c.zp, to.lo, to.hi), to.bytes);
    }
    const ModelSpec spec = single_op_model({TensorSpec("x", kShape), quantized("y", kShape, c.to, c.scale, c.zp)},
                                           kQuantize, {0}, {1});
    expect_op_outputs(name, spec, {{{bytes_of(x)}, {y}}});
  }
}

OP_TEST(Dequantize, Int8Int16AndUint8ToFloat) {
  struct Case {
    fb::TensorType from;
    float scale;
    int64_t zp;
  };
  const Case cases[] = {{fb::TensorType::INT8, 0.05f, -3},
                        {fb::TensorType::INT16, 0.0003f, 0},
                        {fb::TensorType::UINT8, 0.02f, 131}};
  std::mt19937 rng(7);
  for (const Case& c : cases) {
    const TypeInfo from = info(c.from);
    const std::string name = "dequantize_" + type_name(c.from);
    SCOPED_TRACE(name);
    std::vector<uint8_t> x(kCount * from.bytes);
    std::vector<float> y(kCount);
    for (size_t i = 0; i < kCount; ++i) {
      const int64_t v = std::uniform_int_distribution<int64_t>(from.lo, from.hi)(rng);
      store(x, i, v, from.bytes);
      // TFLite: scale * (q - zero_point) in double, rounded to float.
      y[i] = static_cast<float>(static_cast<double>(c.scale) * static_cast<double>(v - c.zp));
    }
    const ModelSpec spec = single_op_model({quantized("x", kShape, c.from, c.scale, c.zp), TensorSpec("y", kShape)},
                                           kDequantize, {0}, {1});
    expect_op_outputs(name, spec, {{{x}, {bytes_of(y)}}});
  }
}

OP_TEST(Quantize, PairsTfliteMicroRefusesAreOneLine) {
  EXPECT_EQ(op_error("u8_s16", requantize_model(info(fb::TensorType::UINT8), 0.1f, 128,
                                                info(fb::TensorType::INT16), 0.001f, 0)),
            "node 'y' (quantize): requantize from uint8 to int16 is not supported");
  EXPECT_EQ(op_error("f32_u8", single_op_model({TensorSpec("x", kShape),
                                                quantized("y", kShape, fb::TensorType::UINT8, 0.1f, 128)},
                                               kQuantize, {0}, {1})),
            "node 'y' (quantize): output 'y' has dtype uint8, expected int8 or int16");
}

}  // namespace quantize_test
}  // namespace mote::testing
