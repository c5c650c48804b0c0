// Internal to the int8 fully connected __dsp variant and the kernels built on it
// (fully_connected_s8__dsp.cc, the depthwise multiplier __dsp variant in
// kernels/depthwise_conv2d/): the widened-row dot
// products and the requantization of a block of outputs. See fully_connected_s8__dsp.cc
// for the algorithm and the widened layout:
//   word 2g = [x(4g) + input_offset, x(4g+2) + input_offset]
//   word 2g+1 = [x(4g+1) + input_offset, x(4g+3) + input_offset]
#pragma once

#include <stdint.h>

#include "fully_connected/fully_connected.h"
#include "isa/dsp.h"
#include "kernel_util.h"
#include "quant/quant_math.h"
#include "quant/quant_math_dsp.h"

// GCC's pre-allocation scheduler hoists the loads of the unrolled steps and then spills
// the accumulators; the hot loops are compiled without it.
#if defined(__GNUC__) && !defined(__clang__)
#define MOTE_FC_DSP_HOT __attribute__((noinline, optimize("no-schedule-insns")))
#else
#define MOTE_FC_DSP_HOT __attribute__((noinline))
#endif

namespace mote::fc_dsp {

// One row of weights against the widened row x: the sum over `groups` groups of four.
inline int32_t dot_row(const int8_t* w, const uint32_t* x, int32_t groups, int32_t acc) {
  for (int32_t g = 0; g < groups; ++g) {
    const uint32_t wv = dsp::load_u32(w);
    w += 4;
    acc = dsp::smlad(dsp::sxtb16(wv), x[0], acc);
    acc = dsp::smlad(dsp::sxtb16_ror8(wv), x[1], acc);
    x += 2;
  }
  return acc;
}

// One group of four of each of four weight rows against one widened group (x02, x13:
// the group's even and odd features); each row pointer advances past its group.
__attribute__((always_inline)) inline void group4(const int8_t*& w0, const int8_t*& w1, const int8_t*& w2,
                                                  const int8_t*& w3, uint32_t x02, uint32_t x13, int32_t& acc0,
                                                  int32_t& acc1, int32_t& acc2, int32_t& acc3) {
  const auto row = [x02, x13](const int8_t*& w, int32_t& acc) {
    const uint32_t wv = dsp::load_u32(w);
    w += 4;
    acc = dsp::smlad(dsp::sxtb16(wv), x02, acc);
    acc = dsp::smlad(dsp::sxtb16_ror8(wv), x13, acc);
  };
  row(w0, acc0);
  row(w1, acc1);
  row(w2, acc2);
  row(w3, acc3);
}

// Four rows (w, w + stride, ...) against the int8 row `row`, widened on the fly (offset2:
// the input offset in both halves): acc[0..3] = the sums over `groups` groups of four.
// Also the int8 SVDF __dsp variant's feature products.
inline void dot_rows4_direct(const int8_t* w, int32_t stride, const int8_t* row,
                             uint32_t offset2, int32_t groups, int32_t* acc) {
  const int8_t* w0 = w;
  const int8_t* w1 = w + stride;
  const int8_t* w2 = w1 + stride;
  const int8_t* w3 = w2 + stride;
  int32_t acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
  const int8_t* const end = row + 4 * groups;
  while (row != end) {
    const uint32_t xv = dsp::load_u32(row);
    row += 4;
    const uint32_t x02 = dsp::sxtab16(offset2, xv);
    const uint32_t x13 = dsp::sxtab16_ror8(offset2, xv);
    group4(w0, w1, w2, w3, x02, x13, acc0, acc1, acc2, acc3);
  }
  acc[0] = acc0;
  acc[1] = acc1;
  acc[2] = acc2;
  acc[3] = acc3;
}

// One row against the int8 row, widened on the fly: acc + the sum over `groups` quads.
inline int32_t dot_row_direct(const int8_t* w, const int8_t* row, uint32_t offset2,
                              int32_t groups, int32_t acc) {
  for (int32_t g = 0; g < groups; ++g) {
    const uint32_t xv = dsp::load_u32(row + 4 * g);
    const uint32_t wv = dsp::load_u32(w + 4 * g);
    acc = dsp::smlad(dsp::sxtb16(wv), dsp::sxtab16(offset2, xv), acc);
    acc = dsp::smlad(dsp::sxtb16_ror8(wv), dsp::sxtab16_ror8(offset2, xv), acc);
  }
  return acc;
}

// One octet (eight features) of two rows: acc0, acc1 += the products of the next two
// words of w0, w1 (advanced) with the activation words xa..xd.
inline void step_rows2(const uint32_t*& w0, const uint32_t*& w1, uint32_t xa, uint32_t xb,
                       uint32_t xc, uint32_t xd, int32_t& acc0, int32_t& acc1) {
  uint32_t p, q;
  dsp::load2_u32_advance(w0, p, q);
  acc0 = dsp::smlad(dsp::sxtb16(p), xa, acc0);
  acc0 = dsp::smlad(dsp::sxtb16_ror8(p), xb, acc0);
  acc0 = dsp::smlad(dsp::sxtb16(q), xc, acc0);
  acc0 = dsp::smlad(dsp::sxtb16_ror8(q), xd, acc0);
  dsp::load2_u32_advance(w1, p, q);
  acc1 = dsp::smlad(dsp::sxtb16(p), xa, acc1);
  acc1 = dsp::smlad(dsp::sxtb16_ror8(p), xb, acc1);
  acc1 = dsp::smlad(dsp::sxtb16(q), xc, acc1);
  acc1 = dsp::smlad(dsp::sxtb16_ror8(q), xd, acc1);
}

// Pairs of octets of two 4-byte aligned rows against the widened row x up to x_end
// (x_end - x a positive multiple of 8 words): acc0, acc1 += the sums; w0, w1 and x end
// past them. On a DSP core 40 instructions per 32 MACs: LDM needs an ascending register
// list, so the activation words live in fixed registers r8-r11 (clobbered).
__attribute__((always_inline)) inline void rows2_octet_pairs(const uint32_t*& w0,
                                                             const uint32_t*& w1,
                                                             const uint32_t*& x,
                                                             const uint32_t* end, int32_t& acc0,
                                                             int32_t& acc1) {
#if MOTE_HAS_DSP
  uint32_t p, q, t;
  __asm__ volatile(
      "1:\n\t"
      "ldm %[x]!, {r8, r9, r10, r11}\n\t"
      "ldrd %[p], %[q], [%[w0]], #8\n\t"
      "sxtb16 %[t], %[p]\n\t"
      "smlad %[a0], %[t], r8, %[a0]\n\t"
      "sxtb16 %[t], %[p], ror #8\n\t"
      "smlad %[a0], %[t], r9, %[a0]\n\t"
      "sxtb16 %[t], %[q]\n\t"
      "smlad %[a0], %[t], r10, %[a0]\n\t"
      "sxtb16 %[t], %[q], ror #8\n\t"
      "smlad %[a0], %[t], r11, %[a0]\n\t"
      "ldrd %[p], %[q], [%[w1]], #8\n\t"
      "sxtb16 %[t], %[p]\n\t"
      "smlad %[a1], %[t], r8, %[a1]\n\t"
      "sxtb16 %[t], %[p], ror #8\n\t"
      "smlad %[a1], %[t], r9, %[a1]\n\t"
      "sxtb16 %[t], %[q]\n\t"
      "smlad %[a1], %[t], r10, %[a1]\n\t"
      "sxtb16 %[t], %[q], ror #8\n\t"
      "smlad %[a1], %[t], r11, %[a1]\n\t"
      "ldm %[x]!, {r8, r9, r10, r11}\n\t"
      "ldrd %[p], %[q], [%[w0]], #8\n\t"
      "sxtb16 %[t], %[p]\n\t"
      "smlad %[a0], %[t], r8, %[a0]\n\t"
      "sxtb16 %[t], %[p], ror #8\n\t"
      "smlad %[a0], %[t], r9, %[a0]\n\t"
      "sxtb16 %[t], %[q]\n\t"
      "smlad %[a0], %[t], r10, %[a0]\n\t"
      "sxtb16 %[t], %[q], ror #8\n\t"
      "smlad %[a0], %[t], r11, %[a0]\n\t"
      "ldrd %[p], %[q], [%[w1]], #8\n\t"
      "sxtb16 %[t], %[p]\n\t"
      "smlad %[a1], %[t], r8, %[a1]\n\t"
      "sxtb16 %[t], %[p], ror #8\n\t"
      "smlad %[a1], %[t], r9, %[a1]\n\t"
      "sxtb16 %[t], %[q]\n\t"
      "smlad %[a1], %[t], r10, %[a1]\n\t"
      "sxtb16 %[t], %[q], ror #8\n\t"
      "smlad %[a1], %[t], r11, %[a1]\n\t"
      "cmp %[x], %[end]\n\t"
      "bne 1b"
      : [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1), [a0] "+r"(acc0), [a1] "+r"(acc1),
        [p] "=&r"(p), [q] "=&r"(q), [t] "=&r"(t)
      : [end] "r"(end)
      : "r8", "r9", "r10", "r11", "cc", "memory");
#else
  do {
    uint32_t xa, xb, xc, xd;
    for (int i = 0; i < 2; ++i) {
      dsp::load2_u32_advance(x, xa, xb);
      dsp::load2_u32_advance(x, xc, xd);
      step_rows2(w0, w1, xa, xb, xc, xd, acc0, acc1);
    }
  } while (x != end);
#endif
}

// Two 4-byte aligned rows w0, w1 against the widened row x, `octets` groups of eight
// features: acc0, acc1 += the sums; w0 and w1 end past the octets. One LDRD per row and
// octet; the activation octet (four words) is one LDM on a DSP core, two LDRDs elsewhere.
__attribute__((always_inline)) inline void dot_rows2_aligned(const uint32_t*& w0,
                                                             const uint32_t*& w1,
                                                             const uint32_t* x, int32_t octets,
                                                             int32_t& acc0, int32_t& acc1) {
  if ((octets & 1) != 0) {
    uint32_t xa, xb, xc, xd;
    dsp::load2_u32_advance(x, xa, xb);
    dsp::load2_u32_advance(x, xc, xd);
    step_rows2(w0, w1, xa, xb, xc, xd, acc0, acc1);
  }
  const uint32_t* const end = x + 4 * (octets & ~1);
  if (x != end) rows2_octet_pairs(w0, w1, x, end, acc0, acc1);
}

// Output n from its accumulator (products, bias and filter-offset term included).
// Common case inline: shift <= 0 and |acc| < 2^30, where
//   multiply_by_quantized_multiplier(acc, m, shift)
//     = RoundingDivideByPOT(SMMULR(2 acc, m), -shift)
// (quant_math_dsp.h); everything else goes through requant_dsp() or the reference.
struct Finisher {
  const int32_t* multipliers;
  const int32_t* shifts;
  int32_t channel_step;  // 0 per-tensor, 1 per-channel
  bool fast_requant;     // no multiplier is INT32_MIN
  int32_t zero_point, act_min, act_max;

  __attribute__((always_inline)) int8_t operator()(int32_t n, int32_t acc) const {
    const int32_t c = n * channel_step;
    const int32_t shift = shifts[c];
    int32_t scaled;
    if (fast_requant && shift <= 0 &&
        static_cast<uint32_t>(acc) + ((uint32_t{1} << 30) - 1) < (uint32_t{1} << 31) - 1) {
      const int32_t right = -shift;
      const int32_t y =
          dsp::smmulr(static_cast<int32_t>(static_cast<uint32_t>(acc) << 1), multipliers[c]);
      const int32_t round = static_cast<int32_t>((uint32_t{1} << right) >> 1);
      scaled = (y + round + ((y & -right) >> 31)) >> right;
    } else {
      scaled = slow(c, acc);
    }
    return static_cast<int8_t>(clamp_i32(wrapping_add(scaled, zero_point), act_min, act_max));
  }

  int32_t slow(int32_t c, int32_t acc) const {
    return fast_requant ? requant_dsp(acc, requant_dsp_prepare(multipliers[c], shifts[c]))
                        : multiply_by_quantized_multiplier(acc, multipliers[c], shifts[c]);
  }
};

// acc[0..count) = the sums of rows 0..count-1 of w (row stride in_features) over the
// full groups of four against the widened row x (rows 4-byte aligned,
// in_features % 4 == 0). Each pair of rows ends where the next pair starts.
MOTE_FC_DSP_HOT inline void dot_block_aligned(const int8_t* w, int32_t in_features,
                                              const uint32_t* x, int32_t count, int32_t* acc) {
  const int32_t groups = in_features / 4;
  const int32_t octets = groups / 2;
  const uint32_t* const x_last = x + 4 * octets;  // the odd group of four, if any
  const uint32_t* w0 = reinterpret_cast<const uint32_t*>(w);
  int32_t* const acc_end = acc + (count & ~1);
  if ((groups & 3) == 0 && groups != 0) {  // K % 16 == 0: whole passes of the loop only
    const uint32_t* const x_end = x + 2 * groups;
    for (; acc != acc_end; acc += 2) {
      const uint32_t* w1 = w0 + groups;
      const uint32_t* xp = x;
      int32_t a0 = 0, a1 = 0;
      rows2_octet_pairs(w0, w1, xp, x_end, a0, a1);
      acc[0] = a0;
      acc[1] = a1;
      w0 = w1;
    }
  }
  for (; acc != acc_end; acc += 2) {
    const uint32_t* w1 = w0 + groups;
    int32_t a0 = 0, a1 = 0;
    dot_rows2_aligned(w0, w1, x, octets, a0, a1);
    if ((groups & 1) != 0) {
      const uint32_t x02 = x_last[0], x13 = x_last[1];
      uint32_t wv = *w0;
      a0 = dsp::smlad(dsp::sxtb16(wv), x02, a0);
      a0 = dsp::smlad(dsp::sxtb16_ror8(wv), x13, a0);
      wv = *w1++;
      a1 = dsp::smlad(dsp::sxtb16(wv), x02, a1);
      a1 = dsp::smlad(dsp::sxtb16_ror8(wv), x13, a1);
    }
    acc[0] = a0;
    acc[1] = a1;
    w0 = w1;
  }
  if ((count & 1) != 0) *acc = dot_row(reinterpret_cast<const int8_t*>(w0), x, groups, 0);
}

// The reference requantization of acc for channel c, clamped (off the hot loops).
__attribute__((noinline)) inline int8_t finish_slow(const Finisher& f, int32_t c, int32_t acc) {
  return static_cast<int8_t>(
      clamp_i32(wrapping_add(f.slow(c, acc), f.zero_point), f.act_min, f.act_max));
}

// The per-tensor fast loop of finish_block (see there): out[i] from acc[i] + bias[i],
// up to the first a whose double overflows; returns how many it wrote.
MOTE_FC_DSP_HOT inline int32_t finish_per_tensor(const int32_t* acc, const int32_t* bias,
                                                 int32_t count, int32_t m, int32_t right,
                                                 int32_t round_zp, int32_t lo, int32_t hi,
                                                 int8_t* out) {
  const int32_t* const begin = acc;
  const int32_t* const end = acc + count;
  while (acc != end) {
    const uint32_t a = static_cast<uint32_t>(*acc) + static_cast<uint32_t>(*bias++);
    const int32_t a2 = static_cast<int32_t>(a << 1);
    if ((a2 >> 1) != static_cast<int32_t>(a)) break;
    const int32_t y = dsp::smmulr(a2, m);
    *out++ = static_cast<int8_t>(clamp_i32((y + round_zp + (y >> 31)) >> right, lo, hi));
    ++acc;
  }
  return static_cast<int32_t>(acc - begin);
}

// The per-channel fast loop of finish_block: as finish_per_tensor with each channel's own
// multiplier m[i] and shift[i]; stops at the first output whose 2a overflows or whose
// shift is outside [-22, -1] (all multipliers are known not to be INT32_MIN).
MOTE_FC_DSP_HOT inline int32_t finish_per_channel(const int32_t* acc, const int32_t* bias,
                                                  int32_t count, const int32_t* m,
                                                  const int32_t* shift, int32_t zero_point,
                                                  int32_t lo, int32_t hi, int8_t* out) {
  const int32_t* const begin = acc;
  const int32_t* const end = acc + count;
  while (acc != end) {
    const uint32_t a = static_cast<uint32_t>(*acc) + static_cast<uint32_t>(*bias++);
    const int32_t a2 = static_cast<int32_t>(a << 1);
    const int32_t right = -*shift++;
    if ((a2 >> 1) != static_cast<int32_t>(a) || static_cast<uint32_t>(right - 1) > 21u) break;
    const int32_t round_zp = static_cast<int32_t>((uint32_t{1} << (right - 1)) +
                                                  (static_cast<uint32_t>(zero_point) << right));
    const int32_t y = dsp::smmulr(a2, *m++);
    *out++ = static_cast<int8_t>(clamp_i32((y + round_zp + (y >> 31)) >> right, lo, hi));
    ++acc;
  }
  return static_cast<int32_t>(acc - begin);
}

// out[i] = the output of channel n0 + i from acc[i] + bias[i] + offset_term, i < count
// (bias nullable, already at n0). The constants are copied to locals: stores through
// `out` could alias the Finisher's fields otherwise.
//
// Per-tensor quantization with a right shift of 1..22, a bias and no filter offset (the
// common case) has its own loop (per-channel likewise, each output checking its shift):
// when 2a fits int32, y = SMMULR(2a, m) = SaturatingRoundingDoublingHighMul(a, m)
// (quant_math_dsp.h; m != INT32_MIN), |y| <= 2^30, and
//   RoundingDivideByPOT(y, right) + zp = (y + round_zp + (y >> 31)) >> right
// with round_zp = 2^(right-1) + zp * 2^right, |round_zp| <= 2^21 + 2^29, so nothing
// overflows (y >> 31 is -1 exactly when y < 0, the rounding's tie correction).
MOTE_FC_DSP_HOT inline void finish_block(const Finisher& finish, int32_t n0, int32_t count,
                                         const int32_t* acc, const int32_t* bias,
                                         uint32_t offset_term, int8_t* out) {
  const Finisher f = finish;
  const int32_t shift0 = f.shifts[0];
  if (f.channel_step == 0 && f.fast_requant && shift0 <= -1 && shift0 >= -22 &&
      bias != nullptr && offset_term == 0) {
    const int32_t right = -shift0;
    const int32_t round_zp = static_cast<int32_t>((uint32_t{1} << (right - 1)) +
                                                  (static_cast<uint32_t>(f.zero_point) << right));
    for (int32_t i = 0; i < count; ++i) {
      i += finish_per_tensor(acc + i, bias + i, count - i, f.multipliers[0], right, round_zp,
                             f.act_min, f.act_max, out + i);
      if (i < count) {
        out[i] = finish_slow(f, 0, static_cast<int32_t>(static_cast<uint32_t>(acc[i]) +
                                                        static_cast<uint32_t>(bias[i])));
      }
    }
    return;
  }
  if (f.channel_step == 1 && f.fast_requant && bias != nullptr && offset_term == 0) {
    for (int32_t i = 0; i < count; ++i) {
      i += finish_per_channel(acc + i, bias + i, count - i, f.multipliers + n0 + i,
                              f.shifts + n0 + i, f.zero_point, f.act_min, f.act_max, out + i);
      if (i < count) {
        out[i] = f(n0 + i, static_cast<int32_t>(static_cast<uint32_t>(acc[i]) +
                                                static_cast<uint32_t>(bias[i])));
      }
    }
    return;
  }
  for (int32_t i = 0; i < count; ++i) {
    uint32_t a = static_cast<uint32_t>(acc[i]) + offset_term;
    if (bias != nullptr) a += static_cast<uint32_t>(bias[i]);
    out[i] = f(n0 + i, static_cast<int32_t>(a));
  }
}

}  // namespace mote::fc_dsp
