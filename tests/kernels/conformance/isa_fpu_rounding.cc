// The float-to-int rounding the quantizing kernels use (isa/fpu.h), checked on every core:
// round_saturated (truncation and fraction on FPv4, roundf elsewhere) equals the roundf
// form, and the saturating conversion matches VCVT.S32.F32's definition, on edge values
// and on random bit patterns (every exponent, both signs, NaNs and infinities among them).
#include <string.h>

#include "conformance.h"
#include "isa/fpu.h"

namespace mote::conformance {
namespace {

float from_bits(uint32_t bits) {
  float v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

// VCVT.S32.F32 by definition: truncation, the int32 ends beyond them, NaN to 0.
int32_t cvt_by_definition(float v) {
  if (v != v) return 0;
  if (v >= 2147483648.0f) return INT32_MAX;
  if (v < -2147483648.0f) return INT32_MIN;
  return static_cast<int32_t>(v);
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
        const float v = from_bits(bits);
        expected[n] = fpu::round_saturated_by_roundf(v);
        actual[n] = fpu::round_saturated(v);
        cvt_expected[n] = cvt_by_definition(v);
        cvt_actual[n] = fpu::cvt_s32_saturated(v);
      }
    }
    const bool ok = expect_equal_s32("isa_fpu_rounding", c, "round_saturated", expected, actual, n) &&
                    expect_equal_s32("isa_fpu_rounding", c, "cvt_s32_saturated", cvt_expected, cvt_actual, n);
    if (!ok) ++failed;
  }
  return failed;
}

}  // namespace mote::conformance
