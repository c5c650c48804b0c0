// The broadcasting binary operators beside ADD/SUB/MUL/DIV: MAXIMUM, MINIMUM,
// SQUARED_DIFFERENCE, FLOOR_DIV, FLOOR_MOD, EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER,
// GREATER_EQUAL, LOGICAL_AND, LOGICAL_OR and SELECT_V2, in every dtype TensorFlow Lite
// (Micro) takes, with broadcast shapes, against TFLite's semantics written here (the
// integer arithmetic with ref_mbqm and ref_quantize_multiplier), on the host and on
// emulated cores. Every output here is exact: float results are single IEEE operations
// (or a double floor rounded once), so the tolerance is 0.
#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "kernels/quant_test_util.h"
#include "ops/broadcast_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace binary_math_test {

using fb::BuiltinOperator;
using fb::TensorType;
using Shape = std::vector<int32_t>;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct TypeInfo {
  TensorType type;
  int64_t lo, hi;
  size_t bytes;
};
TypeInfo info(TensorType t) {
  switch (t) {
    case TensorType::INT8: return {t, -128, 127, 1};
    case TensorType::INT16: return {t, -32768, 32767, 2};
    case TensorType::INT32: return {t, INT32_MIN, INT32_MAX, 4};
    case TensorType::INT64: return {t, INT64_MIN, INT64_MAX, 8};
    case TensorType::BOOL: return {t, 0, 1, 1};
    default: return {t, 0, 0, 4};
  }
}

std::vector<uint8_t> encode_ints(const std::vector<int64_t>& v, size_t bytes) {
  std::vector<uint8_t> out(v.size() * bytes);
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t b = 0; b < bytes; ++b) out[i * bytes + b] = static_cast<uint8_t>(static_cast<uint64_t>(v[i]) >> (8 * b));
  return out;
}

// Random integers of the type with its extremes first.
std::vector<int64_t> random_ints(const TypeInfo& t, size_t count, std::mt19937& rng) {
  std::vector<int64_t> v(count);
  for (int64_t& x : v) x = std::uniform_int_distribution<int64_t>(t.lo, t.hi)(rng);
  if (count > 2) {
    v[0] = t.lo;
    v[1] = t.hi;
  }
  return v;
}

std::vector<float> random_floats(size_t count, std::mt19937& rng, std::vector<float> edges) {
  std::vector<float> v(count);
  for (float& x : v) x = std::uniform_real_distribution<float>(-8.0f, 8.0f)(rng);
  for (size_t i = 0; i < edges.size() && i < count; ++i) v[i] = edges[i];
  return v;
}

// a [sa] op b [sb] -> y [sy]; tensors from the given specs.
ModelSpec binary_model(BuiltinOperator op, TensorSpec a, TensorSpec b, TensorSpec y) {
  return single_op_model({std::move(a), std::move(b), std::move(y)}, op_code(op), {0, 1}, {2});
}

TensorSpec spec(const char* name, const Shape& shape, TensorType type, float scale = 0, int64_t zp = 0) {
  if (scale == 0) return TensorSpec(name, shape, type);
  return quantized(name, shape, type, scale, zp);
}

// The broadcast cases every binary op runs: one shape, a row against a matrix, and two
// inputs that both broadcast (rank 4 against rank 3 -> rank 4).
struct Shapes {
  Shape a, b, y;
};
const std::vector<Shapes> kShapes = {{{2, 3, 4}, {2, 3, 4}, {2, 3, 4}},
                                     {{2, 3, 4}, {4}, {2, 3, 4}},
                                     {{2, 1, 3, 1}, {4, 1, 5}, {2, 4, 3, 5}}};

// Runs op over every kShapes case for integer type t: y[i] = f(a[ia], b[ib]) from the
// raw values (quantized tensors carry `scale`/`zp`, the same for a, b and y).
void expect_integer_op(const std::string& name, BuiltinOperator op, const TypeInfo& t, TensorType out_type,
                       const std::function<int64_t(int64_t, int64_t)>& f, float scale = 0, int64_t zp = 0,
                       std::vector<std::pair<int64_t, int64_t>> edges = {}) {
  std::mt19937 rng(static_cast<uint32_t>(name.size() * 31 + static_cast<int>(t.type)));
  const TypeInfo out = info(out_type);
  for (const Shapes& s : kShapes) {
    std::vector<int64_t> a = random_ints(t, elements(s.a), rng), b = random_ints(t, elements(s.b), rng);
    for (size_t i = 0; i < edges.size() && i < a.size() && i < b.size() && s.a == s.b; ++i) {
      a[i + 2] = edges[i].first;
      b[i + 2] = edges[i].second;
    }
    const auto ia = broadcast_index(s.a, s.y), ib = broadcast_index(s.b, s.y);
    std::vector<int64_t> y(elements(s.y));
    for (size_t i = 0; i < y.size(); ++i) y[i] = f(a[ia[i]], b[ib[i]]);
    const float out_scale = out_type == TensorType::BOOL ? 0 : scale;
    const ModelSpec m = binary_model(op, spec("a", s.a, t.type, scale, zp), spec("b", s.b, t.type, scale, zp),
                                     spec("y", s.y, out_type, out_scale, zp));
    expect_op_outputs(name, m, {{{encode_ints(a, t.bytes), encode_ints(b, t.bytes)}, {encode_ints(y, out.bytes)}}});
  }
}

// The same for float32 inputs; the output is float32 or bool.
void expect_float_op(const std::string& name, BuiltinOperator op, TensorType out_type,
                     const std::function<double(float, float)>& f, std::vector<std::pair<float, float>> edges) {
  std::mt19937 rng(static_cast<uint32_t>(name.size() * 7));
  for (const Shapes& s : kShapes) {
    std::vector<float> a = random_floats(elements(s.a), rng, {}), b = random_floats(elements(s.b), rng, {});
    if (s.a == s.b) {
      for (size_t i = 0; i < edges.size() && i < a.size(); ++i) {
        a[i] = edges[i].first;
        b[i] = edges[i].second;
      }
    }
    const auto ia = broadcast_index(s.a, s.y), ib = broadcast_index(s.b, s.y);
    std::vector<uint8_t> y;
    if (out_type == TensorType::BOOL) {
      for (size_t i = 0; i < elements(s.y); ++i) y.push_back(static_cast<uint8_t>(f(a[ia[i]], b[ib[i]])));
    } else {
      std::vector<float> yf(elements(s.y));
      for (size_t i = 0; i < yf.size(); ++i) yf[i] = static_cast<float>(f(a[ia[i]], b[ib[i]]));
      y = bytes_of(yf);
    }
    const ModelSpec m = binary_model(op, spec("a", s.a, TensorType::FLOAT32), spec("b", s.b, TensorType::FLOAT32),
                                     spec("y", s.y, out_type));
    expect_op_outputs(name, m, {{{bytes_of(a), bytes_of(b)}, {y}}});
  }
}

int64_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

// ---- MAXIMUM, MINIMUM -------------------------------------------------------------------

OP_TEST(MaximumMinimum, EveryDtypeAsTfliteMicro) {
  const std::vector<std::pair<float, float>> edges = {{kNaN, 1.0f}, {1.0f, kNaN}, {-kInf, 3.0f}, {-0.0f, 0.0f}};
  // TFLM: a > b ? a : b and a < b ? a : b, NaN included (max(NaN, 1) = 1, max(1, NaN) = NaN).
  expect_float_op("maximum_f32", BuiltinOperator::MAXIMUM, TensorType::FLOAT32,
                  [](float a, float b) { return a > b ? a : b; }, edges);
  expect_float_op("minimum_f32", BuiltinOperator::MINIMUM, TensorType::FLOAT32,
                  [](float a, float b) { return a < b ? a : b; }, edges);
  for (TensorType type : {TensorType::INT8, TensorType::INT16, TensorType::INT32, TensorType::INT64}) {
    const TypeInfo t = info(type);
    const bool quantized_type = type == TensorType::INT8 || type == TensorType::INT16;
    const float scale = quantized_type ? 0.05f : 0;
    const int64_t zp = type == TensorType::INT8 ? -3 : 0;
    const std::string suffix = fb::EnumNameTensorType(type);
    expect_integer_op("maximum_" + suffix, BuiltinOperator::MAXIMUM, t, type,
                      [](int64_t a, int64_t b) { return std::max(a, b); }, scale, zp);
    expect_integer_op("minimum_" + suffix, BuiltinOperator::MINIMUM, t, type,
                      [](int64_t a, int64_t b) { return std::min(a, b); }, scale, zp);
  }
}

// ---- SQUARED_DIFFERENCE -----------------------------------------------------------------

OP_TEST(SquaredDifference, Float32AndInt32) {
  expect_float_op("squared_difference_f32", BuiltinOperator::SQUARED_DIFFERENCE, TensorType::FLOAT32,
                  [](float a, float b) { return static_cast<double>((a - b) * (a - b)); },
                  {{1e20f, -1e20f}, {kInf, 1.0f}, {kNaN, 0.0f}, {3.0f, 3.0f}});
  // int32 wraps, as TFLite's int32 arithmetic does on the device.
  expect_integer_op("squared_difference_i32", BuiltinOperator::SQUARED_DIFFERENCE, info(TensorType::INT32),
                    TensorType::INT32, [](int64_t a, int64_t b) {
                      const int64_t d = wrap32(a - b);
                      return wrap32(d * d);
                    }, 0, 0, {{46341, 0}, {-7, 5}, {INT32_MIN, 1}});
}

OP_TEST(SquaredDifference, Int8AndInt16AsTfliteMicroPrepareQuantized) {
  struct Case {
    TensorType type;
    float a_scale, b_scale, out_scale;
    int64_t a_zp, b_zp, out_zp;
  };
  const Case cases[] = {{TensorType::INT8, 0.05f, 0.03f, 0.2f, -3, 10, -128},
                        {TensorType::INT8, 0.02f, 0.02f, 0.01f, 0, 0, -100},
                        {TensorType::INT16, 0.001f, 0.002f, 0.05f, 0, 0, 0}};
  std::mt19937 rng(11);
  for (const Case& c : cases) {
    const TypeInfo t = info(c.type);
    const int left_shift = c.type == TensorType::INT8 ? 7 : 0;
    const double twice_max = 2.0 * static_cast<double>(std::max(c.a_scale, c.b_scale));
    int32_t m1, s1, m2, s2, mo, so;
    ref_quantize_multiplier(static_cast<double>(c.a_scale) / twice_max, &m1, &s1);
    ref_quantize_multiplier(static_cast<double>(c.b_scale) / twice_max, &m2, &s2);
    ref_quantize_multiplier(twice_max * twice_max / (static_cast<double>(1 << (2 * left_shift)) * c.out_scale), &mo, &so);
    const std::string name = std::string("squared_difference_") + fb::EnumNameTensorType(c.type);
    SCOPED_TRACE(name);
    for (const Shapes& s : kShapes) {
      const std::vector<int64_t> a = random_ints(t, elements(s.a), rng), b = random_ints(t, elements(s.b), rng);
      const auto ia = broadcast_index(s.a, s.y), ib = broadcast_index(s.b, s.y);
      std::vector<int64_t> y(elements(s.y));
      for (size_t i = 0; i < y.size(); ++i) {
        const int32_t a1 = ref_mbqm(static_cast<int32_t>((a[ia[i]] - c.a_zp) << left_shift), m1, s1);
        const int32_t b1 = ref_mbqm(static_cast<int32_t>((b[ib[i]] - c.b_zp) << left_shift), m2, s2);
        const int64_t d = static_cast<int64_t>(a1) - b1;
        y[i] = ref_clamp(static_cast<int64_t>(ref_mbqm(static_cast<int32_t>(wrap32(d * d)), mo, so)) + c.out_zp,
                         t.lo, t.hi);
      }
      const ModelSpec m = binary_model(BuiltinOperator::SQUARED_DIFFERENCE, spec("a", s.a, c.type, c.a_scale, c.a_zp),
                                       spec("b", s.b, c.type, c.b_scale, c.b_zp),
                                       spec("y", s.y, c.type, c.out_scale, c.out_zp));
      expect_op_outputs(name, m, {{{encode_ints(a, t.bytes), encode_ints(b, t.bytes)}, {encode_ints(y, t.bytes)}}});
    }
  }
}

// ---- FLOOR_DIV, FLOOR_MOD ---------------------------------------------------------------

OP_TEST(FloorDivMod, Float32AsTflite) {
  // floor(double(a) / double(b)) as float; fmodf adjusted to the divisor's sign. A zero
  // divisor gives TFLite's IEEE results (TFLM's FLOOR_DIV stops with "Division by 0").
  expect_float_op("floor_div_f32", BuiltinOperator::FLOOR_DIV, TensorType::FLOAT32,
                  [](float a, float b) { return std::floor(static_cast<double>(a) / static_cast<double>(b)); },
                  {{7.0f, -2.0f}, {-7.0f, 2.0f}, {1.0f, 0.0f}, {-1.0f, 0.0f}, {0.0f, 0.0f}, {kInf, 2.0f}});
  expect_float_op("floor_mod_f32", BuiltinOperator::FLOOR_MOD, TensorType::FLOAT32,
                  [](float a, float b) {
                    const float r = std::fmod(a, b);
                    return static_cast<double>((r != 0 && ((b < 0) != (r < 0))) ? r + b : r);
                  },
                  {{7.0f, -2.0f}, {-7.0f, 2.0f}, {-7.5f, -2.0f}, {1.0f, 0.0f}, {kInf, 2.0f}, {5.0f, kInf}});
}

OP_TEST(FloorDivMod, Int32AsTfliteWithZeroDivisorsDefined) {
  // Exact floor division and modulo; a zero divisor gives 0 (TFLite stops with an error)
  // and INT32_MIN / -1 gives INT32_MAX (TFLite's conversion of 2^31 saturates on Arm).
  const auto floor_div = [](int64_t a, int64_t b) -> int64_t {
    if (b == 0) return 0;
    const int64_t q = static_cast<int64_t>(std::floor(static_cast<double>(a) / static_cast<double>(b)));
    return std::min<int64_t>(q, INT32_MAX);
  };
  const auto floor_mod = [](int64_t a, int64_t b) -> int64_t {
    if (b == 0) return 0;
    const int64_t r = a % b;
    return (r != 0 && ((b < 0) != (r < 0))) ? r + b : r;
  };
  const std::vector<std::pair<int64_t, int64_t>> edges = {
      {7, -2}, {-7, 2}, {-7, -2}, {5, 0}, {INT32_MIN, -1}, {INT32_MIN, 1}, {INT32_MAX, -1}, {-6, 3}};
  expect_integer_op("floor_div_i32", BuiltinOperator::FLOOR_DIV, info(TensorType::INT32), TensorType::INT32, floor_div,
                    0, 0, edges);
  expect_integer_op("floor_mod_i32", BuiltinOperator::FLOOR_MOD, info(TensorType::INT32), TensorType::INT32, floor_mod,
                    0, 0, edges);
}

// ---- comparisons ------------------------------------------------------------------------

// Each comparison on doubles (float inputs) and on int64 (integer inputs, exact).
enum class Relation { kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual };
template <typename T>
bool holds(Relation r, T a, T b) {
  switch (r) {
    case Relation::kEqual: return a == b;
    case Relation::kNotEqual: return a != b;
    case Relation::kLess: return a < b;
    case Relation::kLessEqual: return a <= b;
    case Relation::kGreater: return a > b;
    case Relation::kGreaterEqual: return a >= b;
  }
  return false;
}
struct Comparison {
  BuiltinOperator op;
  Relation relation;
  bool f(double a, double b) const { return holds(relation, a, b); }
  bool fi(int64_t a, int64_t b) const { return holds(relation, a, b); }
};
const std::vector<Comparison> kComparisons = {
    {BuiltinOperator::EQUAL, Relation::kEqual},     {BuiltinOperator::NOT_EQUAL, Relation::kNotEqual},
    {BuiltinOperator::LESS, Relation::kLess},       {BuiltinOperator::LESS_EQUAL, Relation::kLessEqual},
    {BuiltinOperator::GREATER, Relation::kGreater}, {BuiltinOperator::GREATER_EQUAL, Relation::kGreaterEqual},
};

OP_TEST(Comparison, Float32Int16Int32Int64OnTheStoredValues) {
  for (const Comparison& c : kComparisons) {
    const std::string op = fb::EnumNameBuiltinOperator(c.op);
    SCOPED_TRACE(op);
    expect_float_op(op + "_f32", c.op, TensorType::BOOL, [&](float a, float b) { return c.f(a, b) ? 1.0 : 0.0; },
                    {{kNaN, kNaN}, {kNaN, 1.0f}, {2.0f, 2.0f}, {-0.0f, 0.0f}, {-kInf, kInf}});
    // int16: TFLite compares unscaled (both inputs share a scale in converted models).
    expect_integer_op(op + "_i16", c.op, info(TensorType::INT16), TensorType::BOOL,
                      [&](int64_t a, int64_t b) -> int64_t { return c.fi(a, b); }, 0.01f, 0, {{5, 5}, {-1, 0}});
    expect_integer_op(op + "_i32", c.op, info(TensorType::INT32), TensorType::BOOL,
                      [&](int64_t a, int64_t b) -> int64_t { return c.fi(a, b); }, 0, 0,
                      {{INT32_MIN, INT32_MIN}, {INT32_MIN, INT32_MAX}, {-1, 0}});
    expect_integer_op(op + "_i64", c.op, info(TensorType::INT64), TensorType::BOOL,
                      [&](int64_t a, int64_t b) -> int64_t { return c.fi(a, b); },
                      0, 0, {{INT64_MIN, INT64_MIN + 1}, {INT64_MAX - 1, INT64_MAX}, {5, 5}});
  }
}

OP_TEST(Comparison, Int8RescaledAsTfliteComparisonWithScaling) {
  // Different scales and zero points: each input becomes multiply_by_quantized_multiplier(
  // (q - zp) * 256, quantize_multiplier(scale)) before the comparison.
  const float a_scale = 0.05f, b_scale = 0.0375f;
  const int64_t a_zp = -3, b_zp = 12;
  int32_t m1, s1, m2, s2;
  ref_quantize_multiplier(a_scale, &m1, &s1);
  ref_quantize_multiplier(b_scale, &m2, &s2);
  std::mt19937 rng(21);
  for (const Comparison& c : kComparisons) {
    const std::string op = fb::EnumNameBuiltinOperator(c.op);
    SCOPED_TRACE(op);
    for (const Shapes& s : kShapes) {
      std::vector<int64_t> a = random_ints(info(TensorType::INT8), elements(s.a), rng);
      std::vector<int64_t> b = random_ints(info(TensorType::INT8), elements(s.b), rng);
      if (s.a == s.b) {  // equal real values: 3 * 0.05 = 4 * 0.0375
        a[2] = a_zp + 3;
        b[2] = b_zp + 4;
      }
      const auto ia = broadcast_index(s.a, s.y), ib = broadcast_index(s.b, s.y);
      std::vector<int64_t> y(elements(s.y));
      for (size_t i = 0; i < y.size(); ++i) {
        const int32_t a1 = ref_mbqm(static_cast<int32_t>((a[ia[i]] - a_zp) * 256), m1, s1);
        const int32_t b1 = ref_mbqm(static_cast<int32_t>((b[ib[i]] - b_zp) * 256), m2, s2);
        y[i] = c.fi(a1, b1);
      }
      const ModelSpec m = binary_model(c.op, spec("a", s.a, TensorType::INT8, a_scale, a_zp),
                                       spec("b", s.b, TensorType::INT8, b_scale, b_zp), spec("y", s.y, TensorType::BOOL));
      expect_op_outputs(op + "_i8", m, {{{encode_ints(a, 1), encode_ints(b, 1)}, {encode_ints(y, 1)}}});
    }
  }
}

OP_TEST(Comparison, BoolEqualAndNotEqual) {
  expect_integer_op("equal_bool", BuiltinOperator::EQUAL, info(TensorType::BOOL), TensorType::BOOL,
                    [](int64_t a, int64_t b) -> int64_t { return a == b; });
  expect_integer_op("not_equal_bool", BuiltinOperator::NOT_EQUAL, info(TensorType::BOOL), TensorType::BOOL,
                    [](int64_t a, int64_t b) -> int64_t { return a != b; });
}

// ---- LOGICAL_AND, LOGICAL_OR ------------------------------------------------------------

OP_TEST(Logical, AndOrWithBroadcast) {
  expect_integer_op("logical_and", BuiltinOperator::LOGICAL_AND, info(TensorType::BOOL), TensorType::BOOL,
                    [](int64_t a, int64_t b) -> int64_t { return a && b; });
  expect_integer_op("logical_or", BuiltinOperator::LOGICAL_OR, info(TensorType::BOOL), TensorType::BOOL,
                    [](int64_t a, int64_t b) -> int64_t { return a || b; });
}

// ---- SELECT_V2 --------------------------------------------------------------------------

OP_TEST(SelectV2, EveryDtypeWithThreeWayBroadcast) {
  struct Case {
    Shape c, x, y, out;
  };
  const Case shapes[] = {{{2, 3, 4}, {2, 3, 4}, {2, 3, 4}, {2, 3, 4}},
                         {{3, 1}, {2, 1, 4}, {4}, {2, 3, 4}},
                         {{1}, {2, 3}, {2, 3}, {2, 3}},
                         {{2, 1, 1, 1, 5}, {3, 1, 1}, {1, 4, 1}, {2, 1, 3, 4, 5}}};
  std::mt19937 rng(4);
  for (TensorType type : {TensorType::FLOAT32, TensorType::INT8, TensorType::INT16, TensorType::INT32, TensorType::BOOL}) {
    const TypeInfo t = info(type);
    const size_t bytes = type == TensorType::FLOAT32 ? 4 : t.bytes;
    const float scale = type == TensorType::INT8 || type == TensorType::INT16 ? 0.1f : 0;
    const std::string name = std::string("select_v2_") + fb::EnumNameTensorType(type);
    SCOPED_TRACE(name);
    for (const Case& s : shapes) {
      std::vector<int64_t> c(elements(s.c)), x, y;
      for (int64_t& v : c) v = rng() & 1;
      if (type == TensorType::FLOAT32) {  // float bit patterns, made finite below
        x = random_ints(info(TensorType::INT32), elements(s.x), rng);
        y = random_ints(info(TensorType::INT32), elements(s.y), rng);
      } else {
        x = random_ints(t, elements(s.x), rng);
        y = random_ints(t, elements(s.y), rng);
      }
      const auto ic = broadcast_index(s.c, s.out), ix = broadcast_index(s.x, s.out), iy = broadcast_index(s.y, s.out);
      std::vector<int64_t> out(elements(s.out));
      for (size_t i = 0; i < out.size(); ++i) out[i] = c[ic[i]] ? x[ix[i]] : y[iy[i]];
      if (type == TensorType::FLOAT32) {  // each pattern mapped to a distinct float in [1, 2)
        for (auto* v : {&x, &y, &out})
          for (int64_t& e : *v) e = static_cast<int32_t>(0x3F800000 + (e & 0x007FFFFF));
      }
      const ModelSpec m = single_op_model({spec("c", s.c, TensorType::BOOL), spec("x", s.x, type, scale, 0),
                                           spec("y", s.y, type, scale, 0), spec("out", s.out, type, scale, 0)},
                                          op_code(BuiltinOperator::SELECT_V2), {0, 1, 2}, {3});
      expect_op_outputs(name, m,
                        {{{encode_ints(c, 1), encode_ints(x, bytes), encode_ints(y, bytes)}, {encode_ints(out, bytes)}}});
    }
  }
}

// ---- constant operands ------------------------------------------------------------------

OP_TEST(BinaryMath, ConstantScalarOperandsAsConvertersWriteThem) {
  // MAXIMUM(x, 0) (a ReLU written out), GREATER(x, 0.5) on int8, SELECT_V2(c, x, 0): the
  // constant is a rank-0 tensor in the file, broadcast to x's shape.
  const Shape s = {2, 3, 4};
  std::mt19937 rng(77);
  const std::vector<float> x = random_floats(elements(s), rng, {-0.0f, kNaN});
  std::vector<float> relu(x.size());
  for (size_t i = 0; i < x.size(); ++i) relu[i] = x[i] > 0.0f ? x[i] : 0.0f;
  const ModelSpec maximum = binary_model(BuiltinOperator::MAXIMUM, spec("x", s, TensorType::FLOAT32),
                                         TensorSpec("zero", {}, TensorType::FLOAT32, bytes_of(std::vector<float>{0.0f})),
                                         spec("y", s, TensorType::FLOAT32));
  expect_op_outputs("maximum_const", maximum, {{{bytes_of(x)}, {bytes_of(relu)}}});

  // int8 x (scale 0.05, zp -3) > 0.5 stored as int8 10 with scale 0.05, zp 0.
  const std::vector<int64_t> q = random_ints(info(TensorType::INT8), elements(s), rng);
  int32_t m, sh;
  ref_quantize_multiplier(0.05, &m, &sh);
  const int32_t half = ref_mbqm(10 * 256, m, sh);
  std::vector<int64_t> greater(q.size());
  for (size_t i = 0; i < q.size(); ++i) greater[i] = ref_mbqm(static_cast<int32_t>((q[i] + 3) * 256), m, sh) > half;
  const ModelSpec compare = binary_model(
      BuiltinOperator::GREATER, spec("x", s, TensorType::INT8, 0.05f, -3),
      quantized("half", {}, TensorType::INT8, 0.05f, 0, encode_ints({10}, 1)), spec("y", s, TensorType::BOOL));
  expect_op_outputs("greater_const", compare, {{{encode_ints(q, 1)}, {encode_ints(greater, 1)}}});

  std::vector<int64_t> c(elements(s)), selected(elements(s));
  for (size_t i = 0; i < c.size(); ++i) {
    c[i] = rng() & 1;
    selected[i] = c[i] ? q[i] : 7;
  }
  const ModelSpec select = single_op_model(
      {spec("c", s, TensorType::BOOL), spec("x", s, TensorType::INT8, 0.05f, -3),
       quantized("seven", {}, TensorType::INT8, 0.05f, -3, encode_ints({7}, 1)), spec("out", s, TensorType::INT8, 0.05f, -3)},
      op_code(BuiltinOperator::SELECT_V2), {0, 1, 2}, {3});
  expect_op_outputs("select_const", select, {{{encode_ints(c, 1), encode_ints(q, 1)}, {encode_ints(selected, 1)}}});
}

// ---- refusals ---------------------------------------------------------------------------

OP_TEST(BinaryMath, WhatTfliteRefusesIsOneLine) {
  const Shape s = {2, 3};
  const auto f32 = [&](const char* n) { return spec(n, s, TensorType::FLOAT32); };
  const auto u8 = [&](const char* n) { return spec(n, s, TensorType::UINT8); };
  const auto s8 = [&](const char* n, float scale) { return spec(n, s, TensorType::INT8, scale, 0); };
  const auto b8 = [&](const char* n) { return spec(n, s, TensorType::BOOL); };
  EXPECT_EQ(op_error("max_u8", binary_model(BuiltinOperator::MAXIMUM, u8("a"), u8("b"), u8("y"))),
            "node 'y' (maximum): maximum of uint8 is not supported (TensorFlow Lite Micro takes float32, int8, "
            "int16, int32 and int64)");
  EXPECT_EQ(op_error("floor_div_s8", binary_model(BuiltinOperator::FLOOR_DIV, s8("a", 0.1f), s8("b", 0.1f), s8("y", 0.1f))),
            "node 'y' (floor_div): floor_div of int8 is not supported (TensorFlow Lite takes float32 and int32)");
  EXPECT_EQ(op_error("less_bool", binary_model(BuiltinOperator::LESS, b8("a"), b8("b"), b8("y"))),
            "node 'y' (compare): less of bool is not supported (TensorFlow Lite takes equal and not_equal)");
  EXPECT_EQ(op_error("less_scale", binary_model(BuiltinOperator::LESS, s8("a", 1.5f), s8("b", 0.1f), b8("y"))),
            "node 'y' (compare): input scale 1.5 is not below 1, as TFLite's int8 comparison requires");
  EXPECT_EQ(op_error("and_f32", binary_model(BuiltinOperator::LOGICAL_AND, f32("a"), f32("b"), b8("y"))),
            "node 'y' (logical): logical of float32 is not supported (expected bool)");
  EXPECT_EQ(op_error("equal_types", binary_model(BuiltinOperator::EQUAL, f32("a"), s8("b", 0.1f), b8("y"))),
            "equal_types.tflite: operator 0 (EQUAL): input 1 'b' has type int8, input 0 float32");
  EXPECT_EQ(op_error("equal_out", binary_model(BuiltinOperator::EQUAL, f32("a"), f32("b"), f32("y"))),
            "equal_out.tflite: operator 0 (EQUAL): output 'y' has type float32, expected bool");
  EXPECT_EQ(op_error("max_shapes", binary_model(BuiltinOperator::MAXIMUM, f32("a"), spec("b", {4}, TensorType::FLOAT32),
                                                f32("y"))),
            "max_shapes.tflite: operator 0 (MAXIMUM): inputs of shapes [2,3] and [4] do not broadcast");
  EXPECT_EQ(op_error("select_cond",
                     single_op_model({f32("c"), f32("x"), f32("y"), f32("out")}, op_code(BuiltinOperator::SELECT_V2),
                                     {0, 1, 2}, {3})),
            "select_cond.tflite: operator 0 (SELECT_V2): condition 'c' has type float32, expected bool");
  EXPECT_EQ(op_error("select_shapes",
                     single_op_model({b8("c"), f32("x"), spec("y", {4}, TensorType::FLOAT32), f32("out")},
                                     op_code(BuiltinOperator::SELECT_V2), {0, 1, 2}, {3})),
            "select_shapes.tflite: operator 0 (SELECT_V2): condition [2,3], x [2,3] and y [4] do not broadcast");
}

}  // namespace binary_math_test
}  // namespace mote::testing
