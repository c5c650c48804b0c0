// DIV: float32, int32 and int8 (every dtype TensorFlow Lite Micro's div takes), with
// numpy broadcasting and every fused activation, against TFLite's semantics written here:
// IEEE float division then TFLite's clamp to the activation's bounds (the float's lowest
// and max for NONE, so x / 0 gives +-FLT_MAX and a NaN stays NaN); C++'s truncating int32
// quotient (a zero divisor and INT32_MIN / -1, undefined in TFLite, as the Cortex-M's
// SDIV: 0 and INT32_MIN); the int8 reciprocal arithmetic of reference_ops::Div
// (tests/kernels/div_ref.h). On the host and on emulated cores; refusals are one line.
#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "kernels/div_ref.h"
#include "kernels/quant_test_util.h"
#include "ops/broadcast_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace div_test {

using fb::ActivationFunctionType;
using fb::TensorType;
using Shape = std::vector<int32_t>;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kFloatMax = std::numeric_limits<float>::max();

struct Shapes {
  Shape a, b, y;
};
// One shape; a row against a matrix; a scalar divisor; both inputs broadcasting; rank 5
// and rank 6 broadcasts.
const std::vector<Shapes> kShapes = {{{2, 3, 4}, {2, 3, 4}, {2, 3, 4}},
                                     {{2, 3, 4}, {4}, {2, 3, 4}},
                                     {{3, 5}, {1}, {3, 5}},
                                     {{2, 1, 3, 1}, {4, 1, 5}, {2, 4, 3, 5}},
                                     {{2, 1, 2, 1, 3}, {1, 3, 1, 2, 1}, {2, 3, 2, 2, 3}},
                                     {{1, 2, 1, 2, 1, 2}, {2, 1, 2, 1, 2, 1}, {2, 2, 2, 2, 2, 2}}};

const std::vector<ActivationFunctionType> kActivations = {ActivationFunctionType::NONE, ActivationFunctionType::RELU,
                                                          ActivationFunctionType::RELU6,
                                                          ActivationFunctionType::RELU_N1_TO_1};

ModelSpec div_model(TensorSpec a, TensorSpec b, TensorSpec y, ActivationFunctionType act) {
  return single_op_model({std::move(a), std::move(b), std::move(y)}, op_code(fb::BuiltinOperator::DIV), {0, 1}, {2},
                         fb::BuiltinOptions::DivOptions,
                         [act](flatbuffers::FlatBufferBuilder& b) { return fb::CreateDivOptions(b, act).Union(); });
}

// TFLite's CalculateActivationRange<T> bounds (float: lowest/max for NONE and RELU's top).
template <typename T>
void activation_bounds(ActivationFunctionType act, T* lo, T* hi) {
  *lo = std::numeric_limits<T>::lowest();
  *hi = std::numeric_limits<T>::max();
  if (act == ActivationFunctionType::RELU) *lo = 0;
  if (act == ActivationFunctionType::RELU6) *lo = 0, *hi = 6;
  if (act == ActivationFunctionType::RELU_N1_TO_1) *lo = -1, *hi = 1;
}

// TFLite's ActivationFunctionWithMinMax: min(max(x, lo), hi) (a NaN passes).
template <typename T>
T clamp_tflite(T x, T lo, T hi) {
  return std::min(std::max(x, lo), hi);
}

// Every activation and kShapes case for T (float or int32): inputs from the generators,
// `edges` at the front of the one-shape case, y = clamp(quotient(a, b)) with TFLite's
// activation bounds.
template <typename T, typename Gen, typename Quotient>
void expect_every_case(const char* prefix, TensorType type, Gen gen_a, Gen gen_b,
                       const std::vector<std::pair<T, T>>& edges, Quotient quotient) {
  for (ActivationFunctionType act : kActivations) {
    T lo, hi;
    activation_bounds(act, &lo, &hi);
    for (const Shapes& s : kShapes) {
      std::vector<T> a(elements(s.a)), b(elements(s.b));
      for (T& x : a) x = gen_a();
      for (T& x : b) x = gen_b();
      if (s.a == s.b) {
        for (size_t i = 0; i < edges.size(); ++i) a[i] = edges[i].first, b[i] = edges[i].second;
      }
      const auto ia = broadcast_index(s.a, s.y), ib = broadcast_index(s.b, s.y);
      std::vector<T> y(elements(s.y));
      for (size_t i = 0; i < y.size(); ++i) y[i] = clamp_tflite(quotient(a[ia[i]], b[ib[i]]), lo, hi);
      const std::string name = std::string(prefix) + fb::EnumNameActivationFunctionType(act) + "_r" +
                               std::to_string(s.y.size()) + "_" + std::to_string(elements(s.b));
      expect_op_outputs(name, div_model(TensorSpec("a", s.a, type), TensorSpec("b", s.b, type), TensorSpec("y", s.y, type), act),
                        {{{bytes_of(a), bytes_of(b)}, {bytes_of(y)}}});
    }
  }
}

// ---- float32 -----------------------------------------------------------------------

OP_TEST(Div, Float32EveryActivationAndBroadcast) {
  std::mt19937 rng(17);
  const std::vector<std::pair<float, float>> edges = {
      {1.0f, 0.0f},  {-1.0f, 0.0f},     {0.0f, 0.0f},  {kInf, kInf}, {kNaN, 2.0f},    {1e30f, 1e-30f},
      {-1e30f, 1e-30f}, {3.0f, -0.0f}, {-0.0f, 5.0f}, {7.0f, kInf}, {1.0f, 3.0f},   {-6.5f, 0.5f}};
  const std::function<float()> gen_a = [&] { return std::uniform_real_distribution<float>(-10.0f, 10.0f)(rng); };
  const std::function<float()> gen_b = [&] { return std::uniform_real_distribution<float>(-4.0f, 4.0f)(rng); };
  expect_every_case<float>("div_f32_", TensorType::FLOAT32, gen_a, gen_b, edges, [](float a, float b) { return a / b; });
}

OP_TEST(Div, Float32DivisionByZeroGivesTheFloatMax) {
  // TFLite clamps to [lowest, max] even without an activation: no infinity comes out.
  const std::vector<float> a = {1.0f, -1.0f, 0.0f, 1e38f}, b = {0.0f, 0.0f, 0.0f, 1e-3f};
  const std::vector<float> y = {kFloatMax, -kFloatMax, kNaN, kFloatMax};
  expect_op_outputs("div_f32_zero",
                    div_model(TensorSpec("a", {4}), TensorSpec("b", {4}), TensorSpec("y", {4}),
                              ActivationFunctionType::NONE),
                    {{{bytes_of(a), bytes_of(b)}, {bytes_of(y)}}});
}

// ---- int32 -------------------------------------------------------------------------

int32_t tflite_div_s32(int32_t a, int32_t b) {
  if (b == 0) return 0;                            // undefined in TFLite: SDIV's 0
  if (a == INT32_MIN && b == -1) return INT32_MIN;  // undefined in TFLite: SDIV wraps
  return a / b;                                     // truncates toward zero
}

OP_TEST(Div, Int32TruncatesTowardZeroEveryActivation) {
  std::mt19937 rng(32);
  const std::vector<std::pair<int32_t, int32_t>> edges = {
      {-7, 2},         {7, -2},  {-7, -2}, {7, 2},      {5, 0},          {-5, 0},
      {INT32_MIN, -1}, {INT32_MIN, 1}, {INT32_MAX, -1}, {INT32_MIN, INT32_MIN}, {1, INT32_MAX}, {0, -3}};
  const std::function<int32_t()> gen_a = [&] { return std::uniform_int_distribution<int32_t>(-1000, 1000)(rng); };
  const std::function<int32_t()> gen_b = [&] { return std::uniform_int_distribution<int32_t>(-9, 9)(rng); };
  expect_every_case<int32_t>("div_s32_", TensorType::INT32, gen_a, gen_b, edges, tflite_div_s32);
}

// ---- int8 --------------------------------------------------------------------------

using Quant8 = BinaryQuantCase;

// TFLite's CalculateActivationRangeQuantized for int8: the bounds quantized in float.
void quantized_bounds(ActivationFunctionType act, float scale, int32_t zp, int32_t* lo, int32_t* hi) {
  const auto q = [&](float f) { return zp + static_cast<int32_t>(std::round(f / scale)); };
  *lo = -128;
  *hi = 127;
  if (act == ActivationFunctionType::RELU) *lo = std::max(*lo, q(0.0f));
  if (act == ActivationFunctionType::RELU6) *lo = std::max(*lo, q(0.0f)), *hi = std::min(*hi, q(6.0f));
  if (act == ActivationFunctionType::RELU_N1_TO_1) *lo = std::max(*lo, q(-1.0f)), *hi = std::min(*hi, q(1.0f));
}

DivS8Ref div_s8_ref(const Quant8& q, ActivationFunctionType act) {
  DivS8Ref p{q.a_zp, q.b_zp, q.y_zp, 0, 0, 0, 0};
  // TFLM's CalculateOpDataDiv: the ratio in float, then QuantizeMultiplier in double.
  ref_quantize_multiplier(static_cast<double>(q.a_scale / (q.b_scale * q.y_scale)), &p.multiplier, &p.shift);
  quantized_bounds(act, q.y_scale, q.y_zp, &p.act_min, &p.act_max);
  return p;
}

OP_TEST(Div, Int8EveryActivationScaleAndBroadcast) {
  // Scales giving output shifts from negative to large positive ones, zero points across
  // the range; the second keeps 0 / d at the zero point, the others hit TFLite's +1.
  const std::vector<Quant8> quants = {{0.05f, -3, 0.05f, 10, 0.1f, 2},
                                      {0.02f, 0, 0.5f, -128, 0.02f, -5},
                                      {0.1f, 127, 0.01f, 0, 0.5f, -128},
                                      {0.003f, -60, 0.25f, 33, 0.0005f, 0},
                                      {1.0f, 5, 1.0f, -7, 0.0625f, 100}};
  std::mt19937 rng(8);
  int case_index = 0;
  for (const Quant8& q : quants) {
    for (ActivationFunctionType act : kActivations) {
      const DivS8Ref p = div_s8_ref(q, act);
      for (const Shapes& s : kShapes) {
        std::vector<int8_t> a(elements(s.a)), b(elements(s.b));
        for (int8_t& x : a) x = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
        for (int8_t& x : b) x = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
        if (s.a == s.b) {
          // Extremes, a zero dividend, the tiniest divisors either side of the zero point
          // and the zero divisor itself (undefined in TFLite; what TFLM does on a Cortex-M).
          const int8_t bzp = static_cast<int8_t>(q.b_zp);
          const std::vector<std::pair<int, int>> edges = {
              {-128, 127}, {127, -128}, {-128, -128}, {127, 127}, {q.a_zp, 100}, {q.a_zp, -100},
              {127, std::min(127, bzp + 1)}, {-128, std::max(-128, bzp - 1)}, {5, bzp}, {-5, bzp}, {q.a_zp, bzp}};
          for (size_t i = 0; i < edges.size(); ++i) {
            a[i] = static_cast<int8_t>(edges[i].first);
            b[i] = static_cast<int8_t>(edges[i].second);
          }
        }
        const auto ia = broadcast_index(s.a, s.y), ib = broadcast_index(s.b, s.y);
        std::vector<int8_t> y(elements(s.y));
        for (size_t i = 0; i < y.size(); ++i) y[i] = ref_div_s8(p, a[ia[i]], b[ib[i]]);
        const std::string name = "div_s8_" + std::to_string(case_index++);
        expect_op_outputs(name,
                          div_model(quantized("a", s.a, TensorType::INT8, q.a_scale, q.a_zp),
                                    quantized("b", s.b, TensorType::INT8, q.b_scale, q.b_zp),
                                    quantized("y", s.y, TensorType::INT8, q.y_scale, q.y_zp), act),
                          {{{bytes_of(a), bytes_of(b)}, {bytes_of(y)}}});
      }
    }
  }
}

OP_TEST(Div, Int8ConstantDivisor) {
  // A quantized DIV by a constant (as converters write x / 255.0): the general kernel.
  const Quant8 q{0.5f, -128, 0.0039215689f, -128, 0.0019607844f, -128};
  const DivS8Ref p = div_s8_ref(q, ActivationFunctionType::NONE);
  std::vector<int8_t> a(256), b = {127}, y(256);
  for (int i = 0; i < 256; ++i) a[static_cast<size_t>(i)] = static_cast<int8_t>(i - 128);
  for (size_t i = 0; i < a.size(); ++i) y[i] = ref_div_s8(p, a[i], b[0]);
  TensorSpec divisor = quantized("b", {1}, TensorType::INT8, q.b_scale, q.b_zp, bytes_of(b));
  expect_op_outputs("div_s8_const",
                    div_model(quantized("a", {1, 16, 16}, TensorType::INT8, q.a_scale, q.a_zp), divisor,
                              quantized("y", {1, 16, 16}, TensorType::INT8, q.y_scale, q.y_zp),
                              ActivationFunctionType::NONE),
                    {{{bytes_of(a)}, {bytes_of(y)}}});
}

// ---- refusals ----------------------------------------------------------------------

OP_TEST(Div, RefusesWhatTfliteMicroDoesNotRun) {
  const Shape s = {2, 3};
  const auto s16 = [&](const char* n) { return quantized(n, s, TensorType::INT16, 0.01f, 0); };
  const auto s8 = [&](const char* n) { return quantized(n, s, TensorType::INT8, 0.1f, 0); };
  const auto none = ActivationFunctionType::NONE;
  EXPECT_EQ(op_error("div_s16", div_model(s16("a"), s16("b"), s16("y"), none)),
            "node 'y' (div): input 'a' has dtype int16, expected float32, int32 or int8 (TensorFlow Lite Micro's "
            "div)");
  EXPECT_EQ(op_error("div_u8", div_model(quantized("a", s, TensorType::UINT8, 0.1f, 128),
                                        quantized("b", s, TensorType::UINT8, 0.1f, 128),
                                        quantized("y", s, TensorType::UINT8, 0.1f, 128), none)),
            "node 'y' (div): input 'a' has dtype uint8, expected float32, int32 or int8 (TensorFlow Lite Micro's "
            "div)");
  EXPECT_EQ(op_error("div_mixed", div_model(s8("a"), TensorSpec("b", s), s8("y"), none)),
            "node 'y' (div): b 'b' has dtype float32, expected int8");
  EXPECT_EQ(op_error("div_s32_quantized",
                     div_model(quantized("a", s, TensorType::INT32, 0.5f, 0), TensorSpec("b", s, TensorType::INT32),
                               TensorSpec("y", s, TensorType::INT32), none)),
            "node 'y' (div): input 'a' is a quantized int32 tensor; TensorFlow Lite Micro divides int32 only "
            "without quantization");
  EXPECT_EQ(op_error("div_tanh", div_model(TensorSpec("a", s), TensorSpec("b", s), TensorSpec("y", s),
                                           ActivationFunctionType::TANH)),
            "div_tanh.tflite: operator 0 (DIV): fused activation TANH not supported");
  EXPECT_EQ(op_error("div_rank7", div_model(TensorSpec("a", {1, 2, 1, 2, 1, 2, 1}), TensorSpec("b", {2}),
                                            TensorSpec("y", {1, 2, 1, 2, 1, 2, 2}), none)),
            "div_rank7.tflite: operator 0 (DIV): output of rank 7 not supported (at most 6)");
  EXPECT_EQ(op_error("div_shapes", div_model(TensorSpec("a", s), TensorSpec("b", {4}), TensorSpec("y", s), none)),
            "div_shapes.tflite: operator 0 (DIV): inputs of shapes [2,3] and [4] do not broadcast");
  // Scales whose ratio needs a shift outside what the reciprocal arithmetic can apply.
  EXPECT_EQ(op_error("div_scales", div_model(quantized("a", s, TensorType::INT8, 1000.0f, 0), s8("b"),
                                             quantized("y", s, TensorType::INT8, 1e-6f, 0), none)),
            "node 'y' (div): division shift 34 is outside the kernel's range [-25, 22] (scales too far apart)");
}

}  // namespace div_test
}  // namespace mote::testing
