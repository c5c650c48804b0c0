// The unary elementwise operators: ABS, NEG, SIN, COS, LOG, SQRT, RSQRT, SQUARE, EXP,
// FLOOR, CEIL, ROUND (float32), ABS int8/int16 and RSQRT int8 (TFLite's integer
// arithmetic written here), LOGICAL_NOT (bool), on the host and on emulated cores.
//
// Float oracles are double precision rounded to float. ABS, NEG, SQUARE, SQRT, RSQRT,
// FLOOR, CEIL and ROUND are exact IEEE operations there too, so they compare exactly
// (tolerance 0). SIN, COS, LOG and EXP call the C library's sinf/cosf/logf/expf as TFLite
// Micro does, and the host's glibc and the Cortex-M build's newlib may each be off the
// correctly rounded result by an ulp or so: they compare within 4 ulps (relative 4.8e-7)
// and, for results that underflow into denormals, 1e-38 absolute.
#include <cmath>
#include <limits>
#include <random>

#include "kernels/gemmlowp_ref.h"
#include "kernels/quant_test_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace unary_test {

using fb::BuiltinOperator;

const std::vector<int32_t> kShape = {2, 3, 7};
constexpr size_t kCount = 42;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr FloatTolerance kLibmTolerance{1e-38, 4.8e-7};

struct FloatCase {
  BuiltinOperator op;
  double (*oracle)(float);
  float lo, hi;               // the random inputs' range
  std::vector<float> edges;   // then these
  FloatTolerance tolerance;
};

double round_half_even(float x) { return std::nearbyint(static_cast<double>(x)); }  // default mode: to even

std::vector<FloatCase> float_cases() {
  return {
      {BuiltinOperator::ABS, [](float x) { return std::fabs(static_cast<double>(x)); }, -100, 100,
       {-0.0f, -kInf, kInf, kNaN, -std::numeric_limits<float>::max(), -1e-45f}, {}},
      {BuiltinOperator::NEG, [](float x) { return -static_cast<double>(x); }, -100, 100,
       {0.0f, -kInf, kInf, kNaN, std::numeric_limits<float>::lowest()}, {}},
      {BuiltinOperator::SIN, [](float x) { return std::sin(static_cast<double>(x)); }, -10, 10,
       {0.0f, 3.14159274f, 1000.5f, -1e6f, kInf, kNaN}, kLibmTolerance},
      {BuiltinOperator::COS, [](float x) { return std::cos(static_cast<double>(x)); }, -10, 10,
       {0.0f, 1.57079637f, 1000.5f, -1e6f, -kInf, kNaN}, kLibmTolerance},
      {BuiltinOperator::LOG, [](float x) { return std::log(static_cast<double>(x)); }, 1e-3f, 1000,
       {0.0f, -1.0f, 1.0f, kInf, 1e-40f, std::numeric_limits<float>::max()}, kLibmTolerance},
      {BuiltinOperator::SQRT, [](float x) { return std::sqrt(static_cast<double>(x)); }, 0, 1000,
       {-1.0f, 0.0f, -0.0f, kInf, 2.0f, 1e-45f}, {}},
      {BuiltinOperator::RSQRT,
       [](float x) { return static_cast<double>(1.0f / static_cast<float>(std::sqrt(static_cast<double>(x)))); },
       1e-3f, 1000, {0.0f, -0.0f, -1.0f, kInf, 4.0f, 3.0f}, {}},
      {BuiltinOperator::SQUARE, [](float x) { return static_cast<double>(x) * x; }, -100, 100,
       {1e20f, -1e20f, -3.0f, kNaN, -kInf, 1e-30f}, {}},
      {BuiltinOperator::EXP, [](float x) { return std::exp(static_cast<double>(x)); }, -20, 20,
       {89.0f, -104.0f, -kInf, kInf, 0.0f, -88.0f}, kLibmTolerance},
      {BuiltinOperator::FLOOR, [](float x) { return std::floor(static_cast<double>(x)); }, -100, 100,
       {-0.5f, 2.5f, -2.0f, 1e30f, -kInf, kNaN}, {}},
      {BuiltinOperator::CEIL, [](float x) { return std::ceil(static_cast<double>(x)); }, -100, 100,
       {-0.5f, 2.5f, -2.0f, -1e30f, kInf, kNaN}, {}},
      // Half to even: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -2.5 -> -2, 8388607.5 -> 8388608.
      {BuiltinOperator::ROUND, round_half_even, -100, 100,
       {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 8388607.5f, -8388606.5f, 1e30f, kNaN, -kInf, 0.49999997f}, {}},
  };
}

ModelSpec unary_model(BuiltinOperator op, TensorSpec x, TensorSpec y) {
  return single_op_model({std::move(x), std::move(y)}, op_code(op), {0}, {1});
}

OP_TEST(UnaryFloat, EveryFunctionAsTfliteMicroInFloat) {
  std::mt19937 rng(17);
  for (const FloatCase& c : float_cases()) {
    const std::string name = std::string("unary_") + fb::EnumNameBuiltinOperator(c.op);
    SCOPED_TRACE(name);
    std::vector<float> x(kCount);
    for (float& v : x) v = std::uniform_real_distribution<float>(c.lo, c.hi)(rng);
    for (size_t i = 0; i < c.edges.size(); ++i) x[i] = c.edges[i];
    std::vector<float> y(kCount);
    for (size_t i = 0; i < kCount; ++i) y[i] = static_cast<float>(c.oracle(x[i]));
    expect_op_outputs(name, unary_model(c.op, TensorSpec("x", kShape), TensorSpec("y", kShape)),
                      {{{bytes_of(x)}, {bytes_of(y)}}}, c.tolerance);
  }
}

// ---- ABS int8 / int16: TFLite's AbsEvalQuantized --------------------------------------

struct AbsCase {
  fb::TensorType type;
  float in_scale;
  int64_t in_zp;
  float out_scale;
  int64_t out_zp;
};

OP_TEST(Abs, Int8AndInt16AsTfliteAbsEvalQuantized) {
  const AbsCase cases[] = {
      {fb::TensorType::INT8, 0.05f, -3, 0.05f, 10},      // one scale: no rescaling, zero points apart
      {fb::TensorType::INT8, 0.05f, -128, 0.05f, -128},  // |x + 128| - 128 saturates at 127
      {fb::TensorType::INT8, 0.05f, 7, 0.03f, -100},     // rescaled
      {fb::TensorType::INT8, 0.02f, 0, 0.1f, -128},
      {fb::TensorType::INT16, 0.001f, 0, 0.001f, 0},     // |-32768| saturates at 32767
      {fb::TensorType::INT16, 0.001f, 0, 0.0007f, 0},
  };
  std::mt19937 rng(3);
  for (const AbsCase& c : cases) {
    const bool s8 = c.type == fb::TensorType::INT8;
    const int32_t lo = s8 ? -128 : -32768, hi = s8 ? 127 : 32767;
    const std::string name = std::string("abs_") + fb::EnumNameTensorType(c.type);
    SCOPED_TRACE(name + " " + std::to_string(c.in_scale) + " -> " + std::to_string(c.out_scale));
    int32_t multiplier = 0, shift = 0;
    ref_quantize_multiplier(static_cast<double>(c.in_scale / c.out_scale), &multiplier, &shift);
    std::vector<int32_t> x(kCount);
    for (int32_t& v : x) v = std::uniform_int_distribution<int32_t>(lo, hi)(rng);
    x[0] = lo;
    x[1] = hi;
    x[2] = static_cast<int32_t>(c.in_zp);
    std::vector<int32_t> y(kCount);
    for (size_t i = 0; i < kCount; ++i) {
      const int32_t v = std::abs(x[i] - static_cast<int32_t>(c.in_zp));
      const int32_t scaled = c.in_scale == c.out_scale ? v : ref_mbqm(v, multiplier, shift);
      y[i] = ref_clamp(static_cast<int64_t>(scaled) + c.out_zp, lo, hi);
    }
    const auto encode = [&](const std::vector<int32_t>& v) {
      if (s8) return bytes_of(std::vector<int8_t>(v.begin(), v.end()));
      return bytes_of(std::vector<int16_t>(v.begin(), v.end()));
    };
    const ModelSpec spec = unary_model(BuiltinOperator::ABS, quantized("x", kShape, c.type, c.in_scale, c.in_zp),
                                       quantized("y", kShape, c.type, c.out_scale, c.out_zp));
    expect_op_outputs(name, spec, {{{encode(x)}, {encode(y)}}});
  }
}

OP_TEST(Abs, Int16WithoutQuantizationIsPlainAbs) {
  // TFLM's ABS takes int16 without quantization: std::abs cast back to int16, so
  // |-32768| is -32768. Such a tensor is accepted only where ABS (or CAST) alone uses it.
  std::vector<int16_t> x(kCount), y(kCount);
  std::mt19937 rng(8);
  for (size_t i = 0; i < kCount; ++i) {
    x[i] = static_cast<int16_t>(std::uniform_int_distribution<int32_t>(-32768, 32767)(rng));
    if (i == 0) x[i] = -32768;
    if (i == 1) x[i] = 32767;
    y[i] = static_cast<int16_t>(static_cast<uint16_t>(std::abs(static_cast<int32_t>(x[i]))));
  }
  const ModelSpec spec = unary_model(BuiltinOperator::ABS, TensorSpec("x", kShape, fb::TensorType::INT16),
                                     TensorSpec("y", kShape, fb::TensorType::INT16));
  expect_op_outputs("abs_INT16_unquantized", spec, {{{bytes_of(x)}, {bytes_of(y)}}});
  const ModelSpec s8 = unary_model(BuiltinOperator::ABS, TensorSpec("x", kShape, fb::TensorType::INT8),
                                   TensorSpec("y", kShape, fb::TensorType::INT8));
  EXPECT_EQ(op_error("abs_s8_unquantized", s8), "abs_s8_unquantized.tflite: tensor 'x' (int8) has no quantization parameters");
}

// ---- RSQRT int8: TFLite's RsqrtEvalQuantized ------------------------------------------

// GetInvSqrtQuantizedMultiplierExp(input, kReverseShift), written with gemmlowp_ref's
// typed fixed point: the input brought into [2^27, 2^29) by factors of 4, five
// Newton-Raphson steps in Q3 from 1, times sqrt(2)/2.
void ref_inv_sqrt(int32_t input, int32_t* multiplier, int32_t* shift) {
  using gemmlowp_ref::Fx;
  if (input <= 1) {
    *multiplier = INT32_MAX;
    *shift = 0;
    return;
  }
  int32_t right_shift = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++right_shift;
  }
  while (input < (1 << 27)) {
    input *= 4;
    --right_shift;
  }
  const Fx<3> in{input >> 1};
  const Fx<3> half_input{gemmlowp_ref::multiply_by_pot(in.raw, -1)};
  const Fx<3> three_halves = Fx<3>::from_double(1.5);
  Fx<3> x = Fx<3>::one();
  for (int i = 0; i < 5; ++i) {
    const Fx<3> x3 = gemmlowp_ref::rescale<3>(x * x * x);
    x = gemmlowp_ref::rescale<3>(three_halves * x - half_input * x3);
  }
  const Fx<3> result = x * Fx<0>::from_double(std::sqrt(2.0) / 2.0);
  int32_t raw = result.raw;
  if (right_shift < 0) {
    raw = wrap32(static_cast<i128>(raw) << -right_shift);
    right_shift = 0;
  }
  *multiplier = raw;
  *shift = -right_shift;
}

OP_TEST(Rsqrt, Int8AsTfliteRsqrtEvalQuantized) {
  struct Case {
    float in_scale;
    int64_t in_zp;
    float out_scale;
    int64_t out_zp;
  };
  // The second case has inputs below the zero point: TFLite stops with an error there;
  // Mote gives 127, as for the zero point itself (kernels/unary/unary.h).
  const Case cases[] = {{0.05f, -128, 0.02f, -100}, {0.01f, 0, 0.05f, -128}, {0.5f, -20, 0.004f, -128}};
  std::mt19937 rng(5);
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.in_scale) + " -> " + std::to_string(c.out_scale));
    int32_t multiplier = 0, shift = 0;
    ref_quantize_multiplier(1.0 / static_cast<double>(std::sqrt(c.in_scale) * c.out_scale), &multiplier, &shift);
    std::vector<int8_t> x(kCount), y(kCount);
    for (int8_t& v : x) v = static_cast<int8_t>(std::uniform_int_distribution<int32_t>(-128, 127)(rng));
    x[0] = -128;
    x[1] = 127;
    x[2] = static_cast<int8_t>(c.in_zp);
    x[3] = static_cast<int8_t>(c.in_zp + 1);
    x[4] = static_cast<int8_t>(c.in_zp + 2);
    for (size_t i = 0; i < kCount; ++i) {
      const int32_t v = x[i] - static_cast<int32_t>(c.in_zp);
      if (v <= 0) {
        y[i] = 127;
        continue;
      }
      int32_t inv_multiplier = 0, inv_shift = 0;
      ref_inv_sqrt(v, &inv_multiplier, &inv_shift);
      const int32_t data = ref_mbqm(1, inv_multiplier, inv_shift + 20);
      y[i] = static_cast<int8_t>(ref_clamp(static_cast<int64_t>(ref_mbqm(data, multiplier, shift - 20)) + c.out_zp, -128, 127));
    }
    const ModelSpec spec =
        unary_model(BuiltinOperator::RSQRT, quantized("x", kShape, fb::TensorType::INT8, c.in_scale, c.in_zp),
                    quantized("y", kShape, fb::TensorType::INT8, c.out_scale, c.out_zp));
    expect_op_outputs("rsqrt_INT8", spec, {{{bytes_of(x)}, {bytes_of(y)}}});
  }
}

OP_TEST(Rsqrt, InverseSquareRootMultiplierMatchesTheRealValue) {
  // The oracle's fixed point against plain arithmetic: multiplier * 2^(shift - 31) is
  // 1 / sqrt(v) within 3e-6 relative (five Newton steps in Q3), for every value an int8
  // input can take.
  for (int32_t v = 2; v <= 255; ++v) {
    int32_t m = 0, s = 0;
    ref_inv_sqrt(v, &m, &s);
    const double value = m * std::ldexp(1.0, s - 31);
    EXPECT_NEAR(value, 1.0 / std::sqrt(static_cast<double>(v)), 3e-6 / std::sqrt(static_cast<double>(v))) << v;
  }
}

// ---- LOGICAL_NOT ------------------------------------------------------------------------

OP_TEST(LogicalNot, Bool) {
  std::vector<uint8_t> x(kCount), y(kCount);
  std::mt19937 rng(9);
  for (size_t i = 0; i < kCount; ++i) {
    x[i] = static_cast<uint8_t>(rng() & 1);
    y[i] = x[i] ? 0 : 1;
  }
  const ModelSpec spec = unary_model(BuiltinOperator::LOGICAL_NOT, TensorSpec("x", kShape, fb::TensorType::BOOL),
                                     TensorSpec("y", kShape, fb::TensorType::BOOL));
  expect_op_outputs("logical_not", spec, {{{x}, {y}}});
}

// ---- refusals -------------------------------------------------------------------------

OP_TEST(Unary, DtypesTfliteMicroRefusesAreOneLine) {
  const auto s8 = [](const char* name, float scale, int64_t zp) {
    return quantized(name, kShape, fb::TensorType::INT8, scale, zp);
  };
  const auto s16 = [](const char* name, float scale, int64_t zp) {
    return quantized(name, kShape, fb::TensorType::INT16, scale, zp);
  };
  EXPECT_EQ(op_error("sin_s8", unary_model(BuiltinOperator::SIN, s8("x", 0.1f, 0), s8("y", 0.1f, 0))),
            "node 'y' (unary): sin of int8 is not supported (TensorFlow Lite Micro takes float32 only)");
  EXPECT_EQ(op_error("rsqrt_s16", unary_model(BuiltinOperator::RSQRT, s16("x", 0.1f, 0), s16("y", 0.1f, 0))),
            "node 'y' (unary): rsqrt of int16 is not supported (TensorFlow Lite Micro takes float32 and int8)");
  EXPECT_EQ(op_error("abs_s16_zp", unary_model(BuiltinOperator::ABS, s16("x", 0.1f, 3), s16("y", 0.1f, 0))),
            "node 'y' (unary): input 'x' has zero point 3, expected 0 (int16 activations are symmetric in TFLite)");
  EXPECT_EQ(op_error("not_f32", unary_model(BuiltinOperator::LOGICAL_NOT, TensorSpec("x", kShape),
                                            TensorSpec("y", kShape))),
            "node 'y' (unary): logical_not of float32 is not supported (expected bool)");
  EXPECT_EQ(op_error("abs_types", unary_model(BuiltinOperator::ABS, TensorSpec("x", kShape),
                                              TensorSpec("y", kShape, fb::TensorType::INT32))),
            "abs_types.tflite: operator 0 (ABS): output 'y' has type int32, expected the input's float32");
  EXPECT_EQ(op_error("exp_shape", unary_model(BuiltinOperator::EXP, TensorSpec("x", kShape), TensorSpec("y", {42}))),
            "exp_shape.tflite: operator 0 (EXP): output 'y' has shape [42], expected [2,3,7]");
}

}  // namespace unary_test
}  // namespace mote::testing
