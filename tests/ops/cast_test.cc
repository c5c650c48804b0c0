// CAST: every type pair TensorFlow Lite Micro's cast.cc converts (float32, int8, int16,
// int32, bool to float32, int8, int16, int32) and int64 to those, against static_cast as
// an Arm core computes it, written here: integers keep their low bits, float to integer
// truncates toward zero and saturates to int32 (NaN 0) before keeping the low bits, bool
// gives 0 or 1, int64 to float32 rounds to nearest. Quantization parameters are not
// applied (TFLM casts raw values), and int8/int16 tensors only CAST uses may have none.
// On the host and on emulated cores.
#include <cmath>
#include <limits>
#include <random>

#include "ops/op_test.h"

namespace mote::testing {
namespace cast_test {

using fb::TensorType;

const std::vector<int32_t> kShape = {3, 8};
constexpr size_t kCount = 24;

size_t bytes_per(TensorType t) {
  switch (t) {
    case TensorType::INT8:
    case TensorType::BOOL: return 1;
    case TensorType::INT16: return 2;
    case TensorType::INT64: return 8;
    default: return 4;
  }
}

// Each input element as a double (exact for every type here).
std::vector<double> inputs_for(TensorType t, std::mt19937& rng) {
  std::vector<double> v(kCount);
  switch (t) {
    case TensorType::FLOAT32: {
      const double edges[] = {2.7, -2.7, 300.5, -129.9, 32768.0, -40000.25, 1e10, -1e10, 2147483520.0, -0.5,
                              std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()};
      for (size_t i = 0; i < kCount; ++i)
        v[i] = i < std::size(edges) ? edges[i] : static_cast<float>(std::uniform_real_distribution<double>(-1e5, 1e5)(rng));
      break;
    }
    case TensorType::BOOL:
      for (double& x : v) x = static_cast<double>(rng() & 1);
      break;
    case TensorType::INT64: {  // beyond int32 both ways, within 2^53 (exact as doubles)
      for (double& x : v) x = static_cast<double>(std::uniform_int_distribution<int64_t>(-(1ll << 40), 1ll << 40)(rng));
      const double edges[] = {4294967301.0, -4294967297.0, 2147483648.0, 16777217.0, -1.0, 300.0};
      for (size_t i = 0; i < std::size(edges); ++i) v[i] = edges[i];
      break;
    }
    default: {
      const int64_t lo = t == TensorType::INT8 ? -128 : t == TensorType::INT16 ? -32768 : INT32_MIN;
      const int64_t hi = t == TensorType::INT8 ? 127 : t == TensorType::INT16 ? 32767 : INT32_MAX;
      for (double& x : v) x = static_cast<double>(std::uniform_int_distribution<int64_t>(lo, hi)(rng));
      v[0] = static_cast<double>(lo);
      v[1] = static_cast<double>(hi);
      const double edges[] = {300, -129, 16777217};  // wrap in int8; not a float
      for (size_t i = 0; i < 3; ++i)
        if (edges[i] >= static_cast<double>(lo) && edges[i] <= static_cast<double>(hi)) v[2 + i] = edges[i];
    }
  }
  return v;
}

std::vector<uint8_t> encode(TensorType t, const std::vector<double>& v) {
  std::vector<uint8_t> out;
  for (double x : v) {
    uint8_t b[8];
    const size_t n = bytes_per(t);
    if (t == TensorType::FLOAT32) {
      const float f = static_cast<float>(x);
      std::memcpy(b, &f, 4);
    } else {
      const uint64_t u = static_cast<uint64_t>(static_cast<int64_t>(x));
      for (size_t k = 0; k < n; ++k) b[k] = static_cast<uint8_t>(u >> (8 * k));
    }
    out.insert(out.end(), b, b + n);
  }
  return out;
}

// static_cast<To>(x) on an Arm core, x read from a `from` tensor.
double cast_value(TensorType from, TensorType to, double x) {
  if (from == TensorType::BOOL) x = x != 0 ? 1 : 0;
  if (to == TensorType::FLOAT32) return static_cast<float>(x);
  int64_t i;
  if (from == TensorType::INT64) {
    i = static_cast<int64_t>(x);  // no saturation: the low bits below
  } else if (std::isnan(x)) {
    i = 0;
  } else {
    const double t = std::trunc(x);
    i = t >= 2147483647.0 ? INT32_MAX : t <= -2147483648.0 ? INT32_MIN : static_cast<int64_t>(t);
  }
  const int bits = static_cast<int>(8 * bytes_per(to));
  const uint64_t mask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
  uint64_t low = static_cast<uint64_t>(i) & mask;
  if (low >> (bits - 1)) low |= ~mask;  // sign-extend
  return static_cast<double>(static_cast<int64_t>(low));
}

OP_TEST(Cast, EveryPairTfliteMicroConverts) {
  const TensorType from_types[] = {TensorType::FLOAT32, TensorType::INT8, TensorType::INT16, TensorType::INT32,
                                   TensorType::INT64, TensorType::BOOL};
  const TensorType to_types[] = {TensorType::FLOAT32, TensorType::INT8, TensorType::INT16, TensorType::INT32};
  std::mt19937 rng(53);
  for (TensorType from : from_types) {
    for (TensorType to : to_types) {
      const std::string name = std::string("cast_") + fb::EnumNameTensorType(from) + "_" + fb::EnumNameTensorType(to);
      SCOPED_TRACE(name);
      const std::vector<double> x = inputs_for(from, rng);
      std::vector<double> y(kCount);
      for (size_t i = 0; i < kCount; ++i) y[i] = cast_value(from, to, x[i]);
      const ModelSpec spec = single_op_model({TensorSpec("x", kShape, from), TensorSpec("y", kShape, to)},
                                             op_code(fb::BuiltinOperator::CAST), {0}, {1});
      expect_op_outputs(name, spec, {{{encode(from, x)}, {encode(to, y)}}});
    }
  }
}

OP_TEST(Cast, QuantizationIsNotApplied) {
  // int8 with scale 0.5, zero point 3 -> float32: the stored value, as TFLM casts it.
  const std::vector<double> x = {-128, -1, 0, 3, 127};
  const ModelSpec spec = single_op_model({quantized("x", {5}, TensorType::INT8, 0.5f, 3), TensorSpec("y", {5})},
                                         op_code(fb::BuiltinOperator::CAST), {0}, {1});
  expect_op_outputs("cast_quantized", spec, {{{encode(TensorType::INT8, x)}, {encode(TensorType::FLOAT32, x)}}});
}

OP_TEST(Cast, WhatTfliteMicroRefusesIsOneLine) {
  const auto model = [](TensorType from, TensorType to) {
    return single_op_model({TensorSpec("x", kShape, from), TensorSpec("y", kShape, to)},
                           op_code(fb::BuiltinOperator::CAST), {0}, {1});
  };
  EXPECT_EQ(op_error("to_bool", model(TensorType::FLOAT32, TensorType::BOOL)),
            "node 'y' (cast): cast from float32 to bool is not supported (float32, int8, int16, int32, int64 and bool "
            "cast to float32, int8, int16, int32 and int64)");
  EXPECT_EQ(op_error("from_u8", model(TensorType::UINT8, TensorType::INT32)),
            "node 'y' (cast): cast from uint8 to int32 is not supported (float32, int8, int16, int32, int64 and bool "
            "cast to float32, int8, int16, int32 and int64)");
  // An int8 tensor without quantization is accepted only where CAST alone uses it.
  ModelSpec both = model(TensorType::INT8, TensorType::FLOAT32);
  both.tensors.push_back(TensorSpec("z", kShape, TensorType::INT8));
  OpSpec abs;
  abs.code = op_code(fb::BuiltinOperator::ABS);
  abs.inputs = {0};
  abs.outputs = {2};
  both.ops.push_back(abs);
  both.outputs.push_back(2);
  EXPECT_EQ(op_error("shared", both), "shared.tflite: tensor 'x' (int8) has no quantization parameters");
}

}  // namespace cast_test
}  // namespace mote::testing
