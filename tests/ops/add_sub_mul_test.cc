// ADD, SUB and MUL in every dtype TensorFlow Lite Micro runs, against TFLite's arithmetic
// written here. float32: IEEE arithmetic and TFLite's clamp (to +-FLT_MAX for NONE and
// RELU's top: an overflow or an infinite input gives +-FLT_MAX). int8 and int16: TFLite's
// rescaling (below). int32 as TFLM computes it: the exact result modulo 2^32 (two's
// complement, what TFLM's int32 expression gives on a Cortex-M where it overflows), then
// TFLM's clamp: SUB and MUL to the fused activation's int32 range (CalculateActivationRange),
// ADD never (TFLM passes the whole int32 range whatever the activation); quantized int32
// tensors as TFLM: ADD refuses quantized inputs, SUB quantized inputs and output, MUL reads
// them raw. numpy broadcasting up to rank 6, every fused activation, on the host and on
// emulated cores; refusals are one line.
#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "kernels/quant_test_util.h"
#include "ops/broadcast_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace add_sub_mul_test {

using fb::ActivationFunctionType;
using fb::TensorType;
using Shape = std::vector<int32_t>;

struct Shapes {
  Shape a, b, y;
};
const std::vector<Shapes> kShapes = {{{2, 3, 4}, {2, 3, 4}, {2, 3, 4}},
                                     {{2, 3, 4}, {4}, {2, 3, 4}},
                                     {{1}, {3, 5}, {3, 5}},
                                     {{2, 1, 3, 1}, {4, 1, 5}, {2, 4, 3, 5}},
                                     {{1, 2, 1, 2, 1, 2}, {2, 1, 2, 1, 2, 1}, {2, 2, 2, 2, 2, 2}}};

const std::vector<ActivationFunctionType> kActivations = {ActivationFunctionType::NONE, ActivationFunctionType::RELU,
                                                          ActivationFunctionType::RELU6,
                                                          ActivationFunctionType::RELU_N1_TO_1};

enum class Kind { kAdd, kSub, kMul };
const char* kind_name(Kind k) { return k == Kind::kAdd ? "add" : k == Kind::kSub ? "sub" : "mul"; }

ModelSpec binary_model(Kind kind, TensorSpec a, TensorSpec b, TensorSpec y, ActivationFunctionType act) {
  std::vector<TensorSpec> t = {std::move(a), std::move(b), std::move(y)};
  switch (kind) {
    case Kind::kAdd:
      return single_op_model(std::move(t), op_code(fb::BuiltinOperator::ADD), {0, 1}, {2},
                             fb::BuiltinOptions::AddOptions,
                             [act](flatbuffers::FlatBufferBuilder& b) { return fb::CreateAddOptions(b, act).Union(); });
    case Kind::kSub:
      return single_op_model(std::move(t), op_code(fb::BuiltinOperator::SUB), {0, 1}, {2},
                             fb::BuiltinOptions::SubOptions,
                             [act](flatbuffers::FlatBufferBuilder& b) { return fb::CreateSubOptions(b, act).Union(); });
    case Kind::kMul:
      break;
  }
  return single_op_model(std::move(t), op_code(fb::BuiltinOperator::MUL), {0, 1}, {2}, fb::BuiltinOptions::MulOptions,
                         [act](flatbuffers::FlatBufferBuilder& b) { return fb::CreateMulOptions(b, act).Union(); });
}

// The exact result in int64 (a product of two int32 fits), reduced modulo 2^32.
int32_t tflm_int32(Kind kind, int32_t a, int32_t b) {
  const int64_t exact = kind == Kind::kAdd   ? int64_t{a} + b
                        : kind == Kind::kSub ? int64_t{a} - b
                                             : int64_t{a} * b;
  const uint64_t low = static_cast<uint64_t>(exact) & 0xFFFFFFFFu;
  return low >= 0x80000000u ? static_cast<int32_t>(static_cast<int64_t>(low) - (int64_t{1} << 32))
                            : static_cast<int32_t>(low);
}

// TFLM's bounds: CalculateActivationRange<int32_t> for SUB and MUL, the whole range for ADD.
void tflm_bounds(Kind kind, ActivationFunctionType act, int32_t* lo, int32_t* hi) {
  *lo = std::numeric_limits<int32_t>::min();
  *hi = std::numeric_limits<int32_t>::max();
  if (kind == Kind::kAdd) return;
  if (act == ActivationFunctionType::RELU) *lo = 0;
  if (act == ActivationFunctionType::RELU6) *lo = 0, *hi = 6;
  if (act == ActivationFunctionType::RELU_N1_TO_1) *lo = -1, *hi = 1;
}

void expect_every_case(Kind kind, const std::function<int32_t()>& gen,
                       const std::vector<std::pair<int32_t, int32_t>>& edges) {
  for (ActivationFunctionType act : kActivations) {
    int32_t lo, hi;
    tflm_bounds(kind, act, &lo, &hi);
    for (const Shapes& s : kShapes) {
      std::vector<int32_t> a(elements(s.a)), b(elements(s.b));
      for (int32_t& x : a) x = gen();
      for (int32_t& x : b) x = gen();
      if (s.a == s.b) {
        for (size_t i = 0; i < edges.size(); ++i) a[i] = edges[i].first, b[i] = edges[i].second;
      }
      const auto ia = broadcast_index(s.a, s.y), ib = broadcast_index(s.b, s.y);
      std::vector<int32_t> y(elements(s.y));
      for (size_t i = 0; i < y.size(); ++i) y[i] = std::min(std::max(tflm_int32(kind, a[ia[i]], b[ib[i]]), lo), hi);
      const std::string name = std::string(kind_name(kind)) + "_s32_" + fb::EnumNameActivationFunctionType(act) +
                               "_r" + std::to_string(s.y.size()) + "_" + std::to_string(elements(s.a)) + "x" +
                               std::to_string(elements(s.b));
      expect_op_outputs(name,
                        binary_model(kind, TensorSpec("a", s.a, TensorType::INT32),
                                     TensorSpec("b", s.b, TensorType::INT32), TensorSpec("y", s.y, TensorType::INT32),
                                     act),
                        {{{bytes_of(a), bytes_of(b)}, {bytes_of(y)}}});
    }
  }
}

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
// Wrap-around both ways, the activation bounds' neighbours, zero.
const std::vector<std::pair<int32_t, int32_t>> kEdges = {
    {kMax, 1},  {kMin, -1},   {kMax, kMax}, {kMin, kMin}, {kMin, kMax}, {65536, 65536}, {-65536, 65537},
    {46341, 46341}, {0, -7}, {6, 1}, {-1, 0}, {7, -1}, {1, 0}, {-3, -2}, {3, 2}, {kMax, -1}, {kMin, 1}, {0, 0}};

OP_TEST(AddSubMul, Int32AddWrapsAndIgnoresTheActivation) {
  std::mt19937 rng(160);
  const std::function<int32_t()> gen = [&] { return std::uniform_int_distribution<int32_t>(kMin, kMax)(rng); };
  expect_every_case(Kind::kAdd, gen, kEdges);
}

OP_TEST(AddSubMul, Int32SubWrapsAndClampsToTheActivation) {
  std::mt19937 rng(161);
  const std::function<int32_t()> gen = [&] { return std::uniform_int_distribution<int32_t>(-20, 20)(rng); };
  expect_every_case(Kind::kSub, gen, kEdges);
}

OP_TEST(AddSubMul, Int32MulWrapsAndClampsToTheActivation) {
  std::mt19937 rng(162);
  const std::function<int32_t()> gen = [&] { return std::uniform_int_distribution<int32_t>(-100000, 100000)(rng); };
  expect_every_case(Kind::kMul, gen, kEdges);
}

// A constant operand, broadcast along the rows (the importer keeps it in the program).
OP_TEST(AddSubMul, Int32ConstantOperand) {
  const std::vector<std::vector<int32_t>> inputs = {{1, -2, kMax, kMin, 40000, -40000}, {5, -7, 3, 100000, -100000, 2}};
  const std::vector<int32_t> c = {70000, kMin, -1};
  for (Kind kind : {Kind::kAdd, Kind::kSub, Kind::kMul}) {
    for (ActivationFunctionType act : kActivations) {
      int32_t lo, hi;
      tflm_bounds(kind, act, &lo, &hi);
      std::vector<OpSample> samples;
      for (const std::vector<int32_t>& a : inputs) {
        std::vector<int32_t> y;
        for (size_t i = 0; i < a.size(); ++i) y.push_back(std::min(std::max(tflm_int32(kind, a[i], c[i % 3]), lo), hi));
        samples.push_back({{bytes_of(a)}, {bytes_of(y)}});
      }
      expect_op_outputs(std::string(kind_name(kind)) + "_s32_const_" + fb::EnumNameActivationFunctionType(act),
                        binary_model(kind, TensorSpec("a", {2, 3}, TensorType::INT32),
                                     TensorSpec("c", {3}, TensorType::INT32, bytes_of(c)),
                                     TensorSpec("y", {2, 3}, TensorType::INT32), act),
                        samples);
    }
  }
}

// TFLM's MUL reads int32 tensors raw whatever their quantization (ADD and SUB refuse it).
OP_TEST(AddSubMul, Int32MulIgnoresQuantization) {
  const std::vector<int32_t> a = {3, -4, 100000, kMin};
  const std::vector<int32_t> b = {7, 7, -30000, -1};
  std::vector<int32_t> y;
  for (size_t i = 0; i < a.size(); ++i) y.push_back(std::min(std::max(tflm_int32(Kind::kMul, a[i], b[i]), 0), 6));
  expect_op_outputs("mul_s32_quantized",
                    binary_model(Kind::kMul, quantized("a", {4}, TensorType::INT32, 0.5f, 3),
                                 quantized("b", {4}, TensorType::INT32, 0.25f, 0),
                                 quantized("y", {4}, TensorType::INT32, 2.0f, -1), ActivationFunctionType::RELU6),
                    {{{bytes_of(a), bytes_of(b)}, {bytes_of(y)}}});
}

OP_TEST(AddSubMul, Int32RefusalsAreOneLine) {
  const Shape s = {4};
  EXPECT_EQ(op_error("add_s32_quant", binary_model(Kind::kAdd, quantized("a", s, TensorType::INT32, 0.5f, 0),
                                                   TensorSpec("b", s, TensorType::INT32),
                                                   TensorSpec("y", s, TensorType::INT32), ActivationFunctionType::NONE)),
            "node 'y' (add): input 'a' is a quantized int32 tensor; TensorFlow Lite Micro adds int32 only without "
            "quantization");
  EXPECT_EQ(op_error("sub_s32_quant_out", binary_model(Kind::kSub, TensorSpec("a", s, TensorType::INT32),
                                                       TensorSpec("b", s, TensorType::INT32),
                                                       quantized("y", s, TensorType::INT32, 0.5f, 0),
                                                       ActivationFunctionType::NONE)),
            "node 'y' (sub): output 'y' is a quantized int32 tensor; TensorFlow Lite Micro subtracts int32 only "
            "without quantization");
  EXPECT_EQ(op_error("sub_s32_mixed", binary_model(Kind::kSub, TensorSpec("a", s, TensorType::INT32),
                                                   TensorSpec("b", s, TensorType::INT32), TensorSpec("y", s),
                                                   ActivationFunctionType::NONE)),
            "node 'y' (sub): output 'y' has dtype float32, expected int32");
}

// ---- float32, int8, int16 -----------------------------------------------------------

// TFLite's CalculateActivationRange<float> bounds (lowest / max for NONE).
void float_bounds(ActivationFunctionType act, float* lo, float* hi) {
  *lo = std::numeric_limits<float>::lowest();
  *hi = std::numeric_limits<float>::max();
  if (act == ActivationFunctionType::RELU) *lo = 0;
  if (act == ActivationFunctionType::RELU6) *lo = 0, *hi = 6;
  if (act == ActivationFunctionType::RELU_N1_TO_1) *lo = -1, *hi = 1;
}

OP_TEST(AddSubMul, Float32EveryActivationAndBroadcast) {
  std::mt19937 rng(165);
  for (Kind kind : {Kind::kAdd, Kind::kSub, Kind::kMul}) {
    for (ActivationFunctionType act : kActivations) {
      float lo, hi;
      float_bounds(act, &lo, &hi);
      for (const Shapes& s : kShapes) {
        std::vector<float> a(elements(s.a)), b(elements(s.b));
        for (float& x : a) x = std::uniform_real_distribution<float>(-8.0f, 8.0f)(rng);
        for (float& x : b) x = std::uniform_real_distribution<float>(-8.0f, 8.0f)(rng);
        // An overflow and an infinite input: TFLite's clamp gives +-FLT_MAX (its bounds for
        // NONE are the float's lowest and max).
        if (s.a == s.b) {
          a[0] = 3e38f, b[0] = 3e38f, a[1] = std::numeric_limits<float>::infinity(), a[2] = -0.0f;
          a[3] = -3e-38f, b[3] = 1e-3f;
        }
        const auto ia = broadcast_index(s.a, s.y), ib = broadcast_index(s.b, s.y);
        std::vector<float> y(elements(s.y));
        for (size_t i = 0; i < y.size(); ++i) {
          const float x = a[ia[i]], z = b[ib[i]];
          const float r = kind == Kind::kAdd ? x + z : kind == Kind::kSub ? x - z : x * z;
          y[i] = std::min(std::max(r, lo), hi);
        }
        const std::string name = std::string(kind_name(kind)) + "_f32_" + fb::EnumNameActivationFunctionType(act) +
                                 "_r" + std::to_string(s.y.size()) + "_" + std::to_string(elements(s.b));
        expect_op_outputs(name, binary_model(kind, TensorSpec("a", s.a), TensorSpec("b", s.b), TensorSpec("y", s.y), act),
                          {{{bytes_of(a), bytes_of(b)}, {bytes_of(y)}}});
      }
    }
  }
}

using QuantCase = BinaryQuantCase;

// TFLite's CalculateActivationRangeQuantized: the bounds quantized in float, within T.
template <typename T>
void quantized_bounds(ActivationFunctionType act, float scale, int32_t zp, int32_t* lo, int32_t* hi) {
  const auto q = [&](float f) { return zp + static_cast<int32_t>(std::round(f / scale)); };
  *lo = std::numeric_limits<T>::min();
  *hi = std::numeric_limits<T>::max();
  if (act == ActivationFunctionType::RELU) *lo = std::max(*lo, q(0.0f));
  if (act == ActivationFunctionType::RELU6) *lo = std::max(*lo, q(0.0f)), *hi = std::min(*hi, q(6.0f));
  if (act == ActivationFunctionType::RELU_N1_TO_1) *lo = std::max(*lo, q(-1.0f)), *hi = std::min(*hi, q(1.0f));
}

// One output element of TFLite's quantized ADD / SUB (AddElementwise with the
// multipliers add_common.cc derives in double; TFLite's sub.cc derives SUB's alike) or MUL
// (MulElementwise, QuantizeMultiplier of s_a * s_b / s_y in double), before the clamp.
template <typename T>
struct QuantOracle {
  QuantOracle(Kind kind_, const QuantCase& c_) : kind(kind_), c(c_) {
    if (kind == Kind::kMul) {
      ref_quantize_multiplier(double{c.a_scale} * double{c.b_scale} / double{c.y_scale}, &m_out, &s_out);
      return;
    }
    const double twice_max = 2 * static_cast<double>(std::max(c.a_scale, c.b_scale));
    ref_quantize_multiplier(double{c.a_scale} / twice_max, &m_a, &s_a);
    ref_quantize_multiplier(double{c.b_scale} / twice_max, &m_b, &s_b);
    ref_quantize_multiplier(twice_max / ((1 << left_shift) * double{c.y_scale}), &m_out, &s_out);
  }
  int64_t operator()(T a, T b) const {
    const int32_t da = a - c.a_zp, db = b - c.b_zp;
    if (kind == Kind::kMul) return int64_t{ref_mbqm(da * db, m_out, s_out)} + c.y_zp;
    const int32_t sa = ref_mbqm(da * (1 << left_shift), m_a, s_a), sb = ref_mbqm(db * (1 << left_shift), m_b, s_b);
    return int64_t{ref_mbqm(kind == Kind::kAdd ? sa + sb : sa - sb, m_out, s_out)} + c.y_zp;
  }
  static constexpr int left_shift = sizeof(T) == 1 ? 20 : 15;
  Kind kind;
  QuantCase c;
  int32_t m_a = 0, s_a = 0, m_b = 0, s_b = 0, m_out = 0, s_out = 0;
};

template <typename T>
void expect_quantized(const char* dtype, TensorType type, const std::vector<QuantCase>& cases, uint32_t seed) {
  std::mt19937 rng(seed);
  const int lo_t = std::numeric_limits<T>::min(), hi_t = std::numeric_limits<T>::max();
  for (Kind kind : {Kind::kAdd, Kind::kSub, Kind::kMul}) {
    for (size_t k = 0; k < cases.size(); ++k) {
      const QuantCase& c = cases[k];
      const QuantOracle<T> oracle(kind, c);
      for (ActivationFunctionType act : kActivations) {
        int32_t lo, hi;
        quantized_bounds<T>(act, c.y_scale, c.y_zp, &lo, &hi);
        const Shapes& s = kShapes[(k + static_cast<size_t>(act)) % kShapes.size()];
        std::vector<T> a(elements(s.a)), b(elements(s.b));
        for (T& x : a) x = static_cast<T>(std::uniform_int_distribution<int>(lo_t, hi_t)(rng));
        for (T& x : b) x = static_cast<T>(std::uniform_int_distribution<int>(lo_t, hi_t)(rng));
        const auto ia = broadcast_index(s.a, s.y), ib = broadcast_index(s.b, s.y);
        std::vector<T> y(elements(s.y));
        for (size_t i = 0; i < y.size(); ++i) y[i] = static_cast<T>(ref_clamp(oracle(a[ia[i]], b[ib[i]]), lo, hi));
        const std::string name = std::string(kind_name(kind)) + "_" + dtype + "_" + std::to_string(k) + "_" +
                                 fb::EnumNameActivationFunctionType(act);
        expect_op_outputs(name,
                          binary_model(kind, quantized("a", s.a, type, c.a_scale, c.a_zp),
                                       quantized("b", s.b, type, c.b_scale, c.b_zp),
                                       quantized("y", s.y, type, c.y_scale, c.y_zp), act),
                          {{{bytes_of(a), bytes_of(b)}, {bytes_of(y)}}});
      }
    }
  }
}

OP_TEST(AddSubMul, Int8EveryActivationScaleAndBroadcast) {
  expect_quantized<int8_t>("s8", TensorType::INT8,
                           {{0.05f, -3, 0.02f, 10, 0.06f, -5},
                            {0.1f, 127, 0.1f, -128, 0.2f, 0},
                            {0.003f, 0, 0.5f, 7, 0.04f, -128},
                            {0.25f, -100, 0.0078125f, 100, 0.3f, 90}},
                           166);
}

OP_TEST(AddSubMul, Int16EveryActivationScaleAndBroadcast) {
  // TFLM's int16 MUL requires zero points 0; ADD and SUB take any (the general path).
  expect_quantized<int16_t>("s16", TensorType::INT16,
                            {{0.0005f, 0, 0.0002f, 0, 0.0007f, 0}, {0.001f, 0, 0.001f, 0, 0.003f, 0},
                             {0.00003f, 0, 0.0004f, 0, 0.0002f, 0}},
                            167);
}

}  // namespace add_sub_mul_test
}  // namespace mote::testing
