// The float-to-int rounding the quantizing kernels use (isa/fpu.h), checked on every core:
// round_saturated (truncation and fraction on FPv4, roundf elsewhere) equals the roundf
// form, and the saturating conversion matches VCVT.S32.F32's definition, on edge values
// and on random bit patterns (every exponent, both signs, NaNs and infinities among them).

#include "conformance.h"
#include "isa/fpu.h"
#include "isa/fpu_reciprocal.h"

namespace mote::conformance {
namespace {

// VCVT.S32.F32 by definition: truncation, the int32 ends beyond them, NaN to 0.
int32_t cvt_by_definition(float v) {
  if (v != v) return 0;
  if (v >= 2147483648.0f) return INT32_MAX;
  if (v < -2147483648.0f) return INT32_MIN;
  return static_cast<int32_t>(v);
}

// One case of the quotient rounding: a scale and kPerCase values, compared three ways.
bool check_reciprocal_case(Rng& rng, int c) {
  constexpr size_t kPerCase = 128;
  static const float kScales[] = {1.0f / 255.0f, 0.0078125f, 0.003921569f, 1.0f,    3.0f,
                                  1.0e-6f,       1.0e3f,     0.1017157f,   1.0e-30f, 1.0e30f};
  float scale;
  if (c < static_cast<int>(sizeof kScales / sizeof kScales[0])) {
    scale = kScales[c < 0 ? 0 : c];
  } else if (c % 3 == 0) {
    scale = fpu::float_from_bits(0x3f800000u - (rng.next() % 31u << 23));  // 2^-k
  } else {
    scale = fpu::float_from_bits(0x35800000u + rng.next() % 0x0a000000u);  // about 1e-6 .. 1e3
  }
  const fpu::Reciprocal r = fpu::prepare_reciprocal(scale);
  if (!r.usable) {
    const int32_t usable = 1, unusable = 0;
    return expect_equal_s32("isa_fpu_rounding", c, "reciprocal usable", &usable, &unusable, 1);
  }
  static const float kEdges[] = {0.0f, -0.0f, 1.0e-45f, -1.1754942e-38f, NAN, INFINITY, -INFINITY, 3.4e38f};
  float values[kPerCase];
  int32_t expected[kPerCase], actual[kPerCase], by_multiply[kPerCase], by_integer[kPerCase], by_pair[kPerCase];
  int32_t expected_int8[kPerCase], by_pair_int8[kPerCase];
  for (size_t n = 0; n < kPerCase; ++n) {
    float x;
    if (c < 0 && n < sizeof kEdges / sizeof kEdges[0]) {
      x = kEdges[n];
    } else if (n % 8 == 7) {
      x = fpu::float_from_bits(rng.next());
    } else {
      // (k + 1/2) * scale, k mostly small (int8 range), sometimes up to the int16 range
      // and past saturation, then moved by up to 3 ulp; one in eight left whole.
      const int32_t range = n % 4 == 0 ? 140000 : 1100;
      const float k = static_cast<float>(rng.uniform(-range / 2, range / 2));
      const float tie = (n % 8 == 3 ? k : k + 0.5f) * scale;
      x = fpu::float_from_bits(fpu::float_bits(tie) + static_cast<uint32_t>(rng.uniform(-3, 3)));
    }
    expected[n] = fpu::round_saturated(x / scale);
    actual[n] = fpu::divide_round_saturated(r, x);
    by_multiply[n] = fpu::divide_round_saturated_by_multiply(r, x);
    by_integer[n] = fpu::divide_round_saturated_by_integer(r, x);
    values[n] = x;
  }
  for (size_t n = 0; n < kPerCase; n += 2) {
    fpu::divide_round_saturated_pair(r, values + n, 0, fpu::Unsaturated(), by_pair[n], by_pair[n + 1]);
    fpu::divide_round_saturated_pair<9>(r, values + n, 0, fpu::Unsaturated(), by_pair_int8[n], by_pair_int8[n + 1]);
  }
  // The int8 window's contract: exact while |y| < 2^9, beyond at least 511 in magnitude
  // with the quotient's sign (taken as expected when it holds).
  for (size_t n = 0; n < kPerCase; ++n) {
    const int32_t e = expected[n], q = by_pair_int8[n];
    const bool beyond_ok = (e > 511 && q >= 511) || (e < -511 && q <= -511);
    expected_int8[n] = beyond_ok ? q : e;
  }
  return expect_equal_s32("isa_fpu_rounding", c, "divide_round_saturated", expected, actual, kPerCase) &&
         expect_equal_s32("isa_fpu_rounding", c, "by_multiply", expected, by_multiply, kPerCase) &&
         expect_equal_s32("isa_fpu_rounding", c, "by_integer", expected, by_integer, kPerCase) &&
         expect_equal_s32("isa_fpu_rounding", c, "pair", expected, by_pair, kPerCase) &&
         expect_equal_s32("isa_fpu_rounding", c, "pair, int8 window", expected_int8, by_pair_int8, kPerCase);
}

}  // namespace

int run_isa_fpu_rounding(Rng& rng, int cases) {
  constexpr size_t kPerCase = 256;
  const float edges[] = {0.5f,       -0.5f,      1.5f,        2.5f,        -2.5f,     0.49999997f, -0.49999997f,
                         65535.5f,   -65535.5f,  65535.49f,   65536.0f,    -65536.0f, 8388607.5f,  8388608.0f,
                         3.0e9f,     -3.0e9f,    2147483520.0f, -2147483648.0f, 1.0e-45f, -0.0f,   0.0f};
  int failed = 0;
  for (int c = -1; c < cases; ++c) {
    int32_t expected[kPerCase], actual[kPerCase], cvt_expected[kPerCase], cvt_actual[kPerCase];
    size_t n = 0;
    if (c < 0) {
      for (float v : edges) {
        expected[n] = fpu::round_saturated_by_roundf(v);
        actual[n] = fpu::round_saturated(v);
        cvt_expected[n] = cvt_by_definition(v);
        cvt_actual[n++] = fpu::cvt_s32_saturated(v);
      }
    } else {
      for (; n < kPerCase; ++n) {
        // Half the draws near the quantizing range (|v| < 2^17), half over every pattern.
        uint32_t bits = rng.next();
        if (n % 2 == 0) bits = (bits & 0x80000000u) | (bits % 0x48000000u);
        const float v = fpu::float_from_bits(bits);
        expected[n] = fpu::round_saturated_by_roundf(v);
        actual[n] = fpu::round_saturated(v);
        cvt_expected[n] = cvt_by_definition(v);
        cvt_actual[n] = fpu::cvt_s32_saturated(v);
      }
    }
    const bool ok = expect_equal_s32("isa_fpu_rounding", c, "round_saturated", expected, actual, n) &&
                    expect_equal_s32("isa_fpu_rounding", c, "cvt_s32_saturated", cvt_expected, cvt_actual, n);
    if (!ok) ++failed;
    if (!check_reciprocal_case(rng, c)) ++failed;
  }
  return failed;
}

}  // namespace mote::conformance
