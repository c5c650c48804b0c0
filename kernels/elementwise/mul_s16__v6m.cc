// ARMv6-M (Cortex-M0+) int16 MUL (TFLite 16x8, zero points 0), any broadcast; bit-exact
// with mul_s16 (binary_quant::Mul, see elementwise.h) for every parameter mul_s16's check
// accepts. ARMv6-M multiplies only 32x32->32, so the reference's 64-bit product is a call
// to __aeabi_lmul per element; this loop uses five MULS instead.
//
// The product p = a * b is exact in int32 (|p| <= 2^30), and its requantization with
// multiplier m > 0 and shift <= -1 is split_requant (quant/split_requant.h: |p| <= 2^30
// and zero point 0 keep its rounding constant within bounds). Other multipliers and
// shifts (m <= 0, shift >= 0) take the reference arithmetic per element.
#include "elementwise/binary_quant.h"
#include "elementwise/elementwise.h"
#include "elementwise/mul_s16_rows.h"
#include "kernel_util.h"
#include "quant/split_requant.h"

namespace mote {

namespace {

struct MulConstants {
  QuantMulParams params;  // for the reference arithmetic
  SplitRequant requant;
  int32_t act_min, act_max;
  bool fast;
};

inline int16_t finish(const MulConstants& k, int32_t product) {
  return static_cast<int16_t>(clamp_i32(split_requant(k.requant, product), k.act_min, k.act_max));
}

struct Rows {
  using Constants = MulConstants;

  static MulConstants make(const QuantMulParams& p) {
    MulConstants k;
    k.params = p;
    k.act_min = p.act_min;
    k.act_max = p.act_max;
    k.fast = make_split_requant(p.output_multiplier, p.output_shift, 0, &k.requant);
    return k;
  }

  static int16_t one(const MulConstants& k, int32_t a, int32_t b) {
    if (!k.fast) return static_cast<int16_t>(binary_quant::Mul::apply(k.params, a, b));
    return finish(k, a * b);
  }

  static void pairs(const MulConstants& constants, const int16_t* a, const int16_t* b, int16_t* out,
                    int32_t n) {
    const MulConstants k = constants;
    if (!k.fast) {
      for (int32_t i = 0; i < n; ++i) out[i] = one(k, a[i], b[i]);
      return;
    }
    for (int32_t i = 0; i < n; ++i) out[i] = finish(k, a[i] * b[i]);
  }

  static void scalar(const MulConstants& constants, const int16_t* a, int16_t s, int16_t* out, int32_t n) {
    const MulConstants k = constants;
    if (!k.fast) {
      for (int32_t i = 0; i < n; ++i) out[i] = one(k, a[i], s);
      return;
    }
    const int32_t b = s;
    for (int32_t i = 0; i < n; ++i) out[i] = finish(k, a[i] * b);
  }
};

}  // namespace

Status mul_s16__v6m_check(const OpContext& ctx) { return mul_s16_rows::check(ctx); }

void mul_s16__v6m_run(const OpContext& ctx) { mul_s16_rows::run<Rows>(ctx); }

const KernelEntry kMulS16V6mEntry = {mul_s16__v6m_check, mul_s16__v6m_run};

}  // namespace mote
