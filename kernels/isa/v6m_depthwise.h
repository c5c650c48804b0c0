// The channel loops of the ARMv6-M int8 depthwise convolution's 3x3 path: every channel
// of one output pixel (or of two neighbouring ones) whose taps are inside the image, in one
// Thumb-1 block. Portable definitions elsewhere (and at -O0 / -Os, see isa/v6m.h).
#pragma once

#include <stdint.h>

#include "isa/v6m.h"
#include "quant/quant_math_v6m.h"

namespace mote::v6m {

// The per-channel constants, prepared once per run (the assembly reads them by offset).
struct Depthwise3x3Channel {
  uint32_t bias;            // bias + input offset * the sum of the channel's nine weights
  RequantV6mRight requant;  // requant_v6m_right_s8's constants
};
static_assert(sizeof(Depthwise3x3Channel) == 24, "the assembly's offsets");

// For c in [0, count): out[c] = requant_v6m_right_s8(ch[c].bias + sum over r, k in 0..2 of
// w[c + 3 * count * r + count * k] * x[c + x_row * r + count * k], ch[c].requant, zp, lo,
// hi), the sums wrapping. count >= 1. 100 instructions per channel (36 for the taps, 44
// for the requantization), 11 fewer when the sum is in [-2^15, 2^15) (its high half is
// then zero, and so are two of the four partial products), about 30 fewer when it is
// below the channel's requant floor.
inline void depthwise_3x3_pixel(const Depthwise3x3Channel* ch, int32_t count, const int8_t* w,
                                const int8_t* x, int32_t x_row, int8_t* out, int32_t zp, int32_t lo,
                                int32_t hi) {
#if MOTE_V6M_ASM
  const Depthwise3x3Channel* const end = ch + count;
  const int32_t delta = static_cast<int32_t>(out - (x + 1));  // out[c] is at x + delta once x is at channel c + 1
  const int32_t next_x = 1 - 2 * x_row;  // from the third window row to the next channel
  const int32_t next_w = 1 - 6 * count;
  const uint32_t round30 = uint32_t{1} << 30;
  const int32_t c_count = count;
  int32_t zero = 0;
  int32_t c = count;
  int32_t c2 = 2 * c;
  int32_t xv, wv;
  uint32_t acc;
#define MOTE_V6M_DW_TAP(O)               \
  "ldrsb %[xv], [%[x], %[" O "]]\n\t"    \
  "ldrsb %[wv], [%[w], %[" O "]]\n\t"    \
  "muls %[wv], %[xv]\n\t"                \
  "add %[acc], %[wv]\n\t"
#define MOTE_V6M_DW_ROW MOTE_V6M_DW_TAP("zero") MOTE_V6M_DW_TAP("c") MOTE_V6M_DW_TAP("c2")
  // In the requantization a, bh, ah, t, u (requant_v6m_right_s8's names) are xv, wv,
  // zero, c and c2, which are set again before the next channel. An acc in [-2^15, 2^15)
  // (SXTH leaves it unchanged) has ah == 0 and al == acc (T1 = H = 0); ah is computed out
  // of line. MOTE_V6M_DW_LH_T2: with al in xv, c = Lh + T2, bl in c2, bh in wv.
#define MOTE_V6M_DW_LH_T2                \
  "ldr %[c2], [%[ch], #8]\n\t"           \
  "movs %[c], %[xv]\n\t"                 \
  "muls %[c], %[c2]\n\t"                 \
  "ldr %[wv], %[round30]\n\t"            \
  "adds %[c], %[c], %[wv]\n\t"           \
  "lsrs %[c], %[c], #16\n\t"             \
  "ldr %[wv], [%[ch], #4]\n\t"           \
  "muls %[xv], %[wv]\n\t"                \
  "adds %[c], %[c], %[xv]\n\t"
  __asm__ volatile(
      ".syntax unified\n"
      "1:\n\t"
      "ldr %[xv], [%[ch], #0]\n\t"
      "mov %[acc], %[xv]\n\t"
      MOTE_V6M_DW_ROW
      "add %[x], %[x_row]\n\t"
      "adds %[w], %[w], %[c]\n\t"
      "adds %[w], %[w], %[c2]\n\t"
      MOTE_V6M_DW_ROW
      "add %[x], %[x_row]\n\t"
      "adds %[w], %[w], %[c]\n\t"
      "adds %[w], %[w], %[c2]\n\t"
      MOTE_V6M_DW_ROW
      "ldr %[xv], %[next_x]\n\t"
      "adds %[x], %[x], %[xv]\n\t"
      "ldr %[xv], %[next_w]\n\t"
      "adds %[w], %[w], %[xv]\n\t"
      "mov %[xv], %[acc]\n\t"          // a
      "ldr %[c], [%[ch], #20]\n\t"    // floor
      "cmp %[xv], %[c]\n\t"
      "blt 9f\n\t"                    // a < floor: act_min
      "sxth %[c], %[xv]\n\t"
      "cmp %[c], %[xv]\n\t"
      "bne 6f\n\t"                      // ah != 0: out of line
      MOTE_V6M_DW_LH_T2                 // al == a
      "asrs %[xv], %[c], #15\n"         // y when ah == 0 (T1 = H = 0)
      "7:\n\t"
      "asrs %[c], %[xv], #31\n\t"
      "adds %[xv], %[xv], %[c]\n\t"    // y - [y < 0]
      "ldr %[c], [%[ch], #12]\n\t"
      "adds %[xv], %[xv], %[c]\n\t"    // + 2^n / 2, V when y >= 0 overflows
      "ldr %[c], [%[ch], #16]\n\t"
      "bvc 2f\n\t"
      "lsrs %[xv], %[c]\n\t"
      "b 3f\n"
      "2:\n\t"
      "asrs %[xv], %[c]\n"
      "3:\n\t"
      "add %[xv], %[zp]\n\t"
      "cmp %[xv], %[lo]\n\t"
      "bge 4f\n"
      "9:\n\t"
      "mov %[xv], %[lo]\n"
      "4:\n\t"
      "cmp %[xv], %[hi]\n\t"
      "ble 5f\n\t"
      "mov %[xv], %[hi]\n"
      "5:\n\t"
      "ldr %[c2], %[delta]\n\t"
      "strb %[xv], [%[x], %[c2]]\n\t"
      "ldr %[c], %[c_count]\n\t"
      "lsls %[c2], %[c], #1\n\t"
      "movs %[zero], #0\n\t"
      "adds %[ch], #24\n\t"
      "ldr %[wv], %[end]\n\t"
      "cmp %[ch], %[wv]\n\t"
      "bne 1b\n\t"
      "b 8f\n"
      "6:\n\t"
      "asrs %[zero], %[xv], #16\n\t"
      "sxth %[xv], %[xv]\n\t"          // al
      "lsrs %[c], %[xv], #31\n\t"
      "adds %[zero], %[zero], %[c]\n\t"  // ah
      MOTE_V6M_DW_LH_T2
      "muls %[c2], %[zero]\n\t"        // T1 = ah * bl
      "lsls %[xv], %[c2], #17\n\t"
      "lsrs %[xv], %[xv], #17\n\t"
      "adds %[c], %[c], %[xv]\n\t"
      "asrs %[c], %[c], #15\n\t"
      "asrs %[c2], %[c2], #15\n\t"
      "adds %[c], %[c], %[c2]\n\t"
      "muls %[zero], %[wv]\n\t"        // H = ah * bh
      "lsls %[zero], %[zero], #1\n\t"
      "adds %[xv], %[c], %[zero]\n\t"  // y, formula (2)
      "b 7b\n"
      "8:\n\t"
      : [x] "+l"(x), [w] "+l"(w), [ch] "+l"(ch), [zero] "+l"(zero), [c] "+l"(c), [c2] "+l"(c2),
        [xv] "=&l"(xv), [wv] "=&l"(wv), [acc] "=&h"(acc)
      : [x_row] "h"(x_row), [zp] "h"(zp), [lo] "h"(lo), [hi] "h"(hi), [delta] "m"(delta), [end] "m"(end),
        [next_x] "m"(next_x), [next_w] "m"(next_w), [round30] "m"(round30), [c_count] "m"(c_count)
      : "cc", "memory");
#undef MOTE_V6M_DW_LH_T2
#undef MOTE_V6M_DW_ROW
#undef MOTE_V6M_DW_TAP
#else
  for (int32_t c = 0; c < count; ++c, ++ch) {
    const uint32_t acc = dot_3x3(w + c, x + c, count, 3 * count, x_row, ch->bias);
    out[c] = requant_v6m_right_s8(static_cast<int32_t>(acc), ch->requant, zp, lo, hi);
  }
#endif
}

// Two horizontally adjacent output pixels (stride kStride, 1 or 2) of every channel, both
// windows inside the input: pixel a's tap (r, k) of channel c at x[c + r * x_row + k *
// count], pixel b's kStride channel groups (count values each) further; out_a[c] = out[c],
// out_b[c] = out[count + c], each as depthwise_3x3_pixel computes it. The taps of a window
// row share every weight and (stride 1) their middle inputs or (stride 2) one input
// between the two pixels (stride 1: 7 loads, 6 MULS and 6 ADDs for 6 multiply-accumulates;
// stride 2: 8 loads and a pointer step), and the per-channel steps are paid once for two
// outputs: about 75 instructions per output unclamped with stride 1, 77 with stride 2
// (depthwise_3x3_pixel: 84), sums in [-2^15, 2^15).
template <int32_t kStride>
inline void depthwise_3x3_pair(const Depthwise3x3Channel* ch, int32_t count, const int8_t* w, const int8_t* x,
                               int32_t x_row, int8_t* out, const RequantV6mOutput& k) {
  static_assert(kStride == 1 || kStride == 2, "neighbouring windows one or two channel groups apart");
#if MOTE_V6M_ASM
  const Depthwise3x3Channel* const end = ch + count;
  const int32_t delta_a = static_cast<int32_t>(out - (x + 1));  // out_a[c] is at x + delta_a once x is at c + 1
  const int32_t delta_b = delta_a + count;
  // A stride-2 row leaves x two channel groups on: the row step and the step to the next
  // channel take them back.
  const int32_t back = kStride == 2 ? 2 * count : 0;
  const int32_t next_x = 1 - 2 * x_row - back;  // from the third window row to the next channel
  x_row -= back;
  const int32_t next_w = 1 - 6 * count;
  const int32_t c_count = count;
  const int32_t round30 = k.round30, zp = k.zp, lo = k.lo, hi = k.hi;
  int32_t zero = 0;
  int32_t c1 = count;
  int32_t c2 = 2 * count;
  int32_t c3 = 3 * count;
  int32_t v0, v1;
  uint32_t acc_a, acc_b;
  const void* chh = ch;
#define MOTE_V6M_PAIR_ROW                  \
  "ldrsb %[v0], [%[x], %[zero]]\n\t"       \
  "ldrsb %[v1], [%[w], %[zero]]\n\t"       \
  "muls %[v0], %[v1]\n\t"                  \
  "add %[acc_a], %[v0]\n\t"                \
  "ldrsb %[v0], [%[x], %[c1]]\n\t"         \
  "muls %[v1], %[v0]\n\t"                  \
  "add %[acc_b], %[v1]\n\t"                \
  "ldrsb %[v1], [%[w], %[c1]]\n\t"         \
  "muls %[v0], %[v1]\n\t"                  \
  "add %[acc_a], %[v0]\n\t"                \
  "ldrsb %[v0], [%[x], %[c2]]\n\t"         \
  "muls %[v1], %[v0]\n\t"                  \
  "add %[acc_b], %[v1]\n\t"                \
  "ldrsb %[v1], [%[w], %[c2]]\n\t"         \
  "muls %[v0], %[v1]\n\t"                  \
  "add %[acc_a], %[v0]\n\t"                \
  "ldrsb %[v0], [%[x], %[c3]]\n\t"         \
  "muls %[v1], %[v0]\n\t"                  \
  "add %[acc_b], %[v1]\n\t"
  // The same for stride 2 (pixel b's taps at 2, 3 and 4 channel groups): a += w1 x1,
  // b += w1 x3, a += w0 x0, b += w0 x2, a += w2 x2, then x two groups on, b += w2 x4.
#define MOTE_V6M_PAIR_ROW_S2               \
  "ldrsb %[v0], [%[x], %[c1]]\n\t"         \
  "ldrsb %[v1], [%[w], %[c1]]\n\t"         \
  "muls %[v0], %[v1]\n\t"                  \
  "add %[acc_a], %[v0]\n\t"                \
  "ldrsb %[v0], [%[x], %[c3]]\n\t"         \
  "muls %[v1], %[v0]\n\t"                  \
  "add %[acc_b], %[v1]\n\t"                \
  "ldrsb %[v0], [%[x], %[zero]]\n\t"       \
  "ldrsb %[v1], [%[w], %[zero]]\n\t"       \
  "muls %[v0], %[v1]\n\t"                  \
  "add %[acc_a], %[v0]\n\t"                \
  "ldrsb %[v0], [%[x], %[c2]]\n\t"         \
  "muls %[v1], %[v0]\n\t"                  \
  "add %[acc_b], %[v1]\n\t"                \
  "ldrsb %[v1], [%[w], %[c2]]\n\t"         \
  "muls %[v0], %[v1]\n\t"                  \
  "add %[acc_a], %[v0]\n\t"                \
  "adds %[x], %[x], %[c2]\n\t"             \
  "ldrsb %[v0], [%[x], %[c2]]\n\t"         \
  "muls %[v1], %[v0]\n\t"                  \
  "add %[acc_b], %[v1]\n\t"
  // With al in v1: c2 = Lh + T2, bl in c3, bh in zero.
#define MOTE_V6M_PAIR_LH_T2                            \
  "ldr %[c3], [%[v0], #8]\n\t"                        \
  "movs %[c2], %[v1]\n\t"                             \
  "muls %[c2], %[c3]\n\t"                             \
  "ldr %[zero], %[round30]\n\t"                       \
  "adds %[c2], %[c2], %[zero]\n\t"                    \
  "lsrs %[c2], %[c2], #16\n\t"                        \
  "ldr %[zero], [%[v0], #4]\n\t"                      \
  "muls %[v1], %[zero]\n\t"                           \
  "adds %[c2], %[c2], %[v1]\n\t"
  // One output: requant_v6m_right_s8 of ACC with the channel at v0 (q), stored at x + DELTA.
  // a, bh, ah, t, u are v1, zero, c1, c2, c3 (set again before the next channel); ah only
  // out of line, for an acc outside [-2^15, 2^15).
#define MOTE_V6M_PAIR_OUT(ACC, DELTA)                  \
  "mov %[v1], %[" ACC "]\n\t"                          \
  "ldr %[c2], [%[v0], #20]\n\t"                       \
  "cmp %[v1], %[c2]\n\t"                              \
  "blt 5f\n\t"                                        \
  "sxth %[c2], %[v1]\n\t"                             \
  "cmp %[c2], %[v1]\n\t"                              \
  "bne 6f\n\t"                                        \
  MOTE_V6M_PAIR_LH_T2                                 \
  "asrs %[v1], %[c2], #15\n"                           \
  "7:\n\t"                                            \
  "asrs %[c2], %[v1], #31\n\t"                        \
  "adds %[v1], %[v1], %[c2]\n\t"                      \
  "ldr %[c2], [%[v0], #12]\n\t"                       \
  "adds %[v1], %[v1], %[c2]\n\t"                      \
  "ldr %[c2], [%[v0], #16]\n\t"                       \
  "bvc 1f\n\t"                                        \
  "lsrs %[v1], %[c2]\n\t"                             \
  "b 2f\n"                                             \
  "1:\n\t"                                            \
  "asrs %[v1], %[c2]\n"                                \
  "2:\n\t"                                            \
  "ldr %[c2], %[zp]\n\t"                              \
  "adds %[v1], %[v1], %[c2]\n\t"                      \
  "ldr %[c2], %[lo]\n\t"                              \
  "cmp %[v1], %[c2]\n\t"                              \
  "blt 5f\n\t"                                        \
  "ldr %[c2], %[hi]\n\t"                              \
  "cmp %[v1], %[c2]\n\t"                              \
  "ble 4f\n\t"                                        \
  "movs %[v1], %[c2]\n\t"                             \
  "b 4f\n"                                             \
  "6:\n\t"                                            \
  "asrs %[c1], %[v1], #16\n\t"                        \
  "sxth %[v1], %[v1]\n\t"                             \
  "lsrs %[c2], %[v1], #31\n\t"                        \
  "adds %[c1], %[c1], %[c2]\n\t"                      \
  MOTE_V6M_PAIR_LH_T2                                 \
  "muls %[c3], %[c1]\n\t"                             \
  "lsls %[v1], %[c3], #17\n\t"                        \
  "lsrs %[v1], %[v1], #17\n\t"                        \
  "adds %[c2], %[c2], %[v1]\n\t"                      \
  "asrs %[c2], %[c2], #15\n\t"                        \
  "asrs %[c3], %[c3], #15\n\t"                        \
  "adds %[c2], %[c2], %[c3]\n\t"                      \
  "muls %[c1], %[zero]\n\t"                           \
  "lsls %[c1], %[c1], #1\n\t"                         \
  "adds %[v1], %[c2], %[c1]\n\t"                      \
  "b 7b\n"                                             \
  "5:\n\t"                                            \
  "ldr %[v1], %[lo]\n"                                 \
  "4:\n\t"                                            \
  "ldr %[c2], %[" DELTA "]\n\t"                       \
  "strb %[v1], [%[x], %[c2]]\n\t"
  // The loop: the folded bias into both accumulators, three window rows, both outputs;
  // "b 3b" because the loop is longer than a conditional branch reaches.
#define MOTE_V6M_PAIR_LOOP(ROW)                                                                      \
  __asm__ volatile(                                                                                  \
      ".syntax unified\n"                                                                            \
      "3:\n\t"                                                                                       \
      "mov %[v0], %[chh]\n\t"                                                                        \
      "ldr %[v1], [%[v0], #0]\n\t"                                                                 \
      "mov %[acc_a], %[v1]\n\t"                                                                      \
      "mov %[acc_b], %[v1]\n\t"                                                                      \
      ROW                                                                                            \
      "add %[x], %[x_row]\n\t"                                                                       \
      "adds %[w], %[w], %[c3]\n\t"                                                                   \
      ROW                                                                                            \
      "add %[x], %[x_row]\n\t"                                                                       \
      "adds %[w], %[w], %[c3]\n\t"                                                                   \
      ROW                                                                                            \
      "ldr %[v0], %[next_x]\n\t"                                                                     \
      "adds %[x], %[x], %[v0]\n\t"                                                                   \
      "ldr %[v0], %[next_w]\n\t"                                                                     \
      "adds %[w], %[w], %[v0]\n\t"                                                                   \
      "mov %[v0], %[chh]\n\t"                                                                        \
      MOTE_V6M_PAIR_OUT("acc_a", "delta_a")                                                          \
      MOTE_V6M_PAIR_OUT("acc_b", "delta_b")                                                          \
      "movs %[zero], #0\n\t"                                                                         \
      "ldr %[c1], %[c_count]\n\t"                                                                    \
      "lsls %[c2], %[c1], #1\n\t"                                                                    \
      "adds %[c3], %[c2], %[c1]\n\t"                                                                 \
      "adds %[v0], #24\n\t"                                                                          \
      "mov %[chh], %[v0]\n\t"                                                                        \
      "ldr %[v1], %[end]\n\t"                                                                        \
      "cmp %[v0], %[v1]\n\t"                                                                         \
      "beq 8f\n\t"                                                                                   \
      "b 3b\n"                                                                                       \
      "8:\n\t"                                                                                       \
      : [x] "+l"(x), [w] "+l"(w), [zero] "+l"(zero), [c1] "+l"(c1), [c2] "+l"(c2), [c3] "+l"(c3),    \
        [v0] "=&l"(v0), [v1] "=&l"(v1), [acc_a] "=&h"(acc_a), [acc_b] "=&h"(acc_b), [chh] "+h"(chh)  \
      : [x_row] "h"(x_row), [delta_a] "m"(delta_a), [delta_b] "m"(delta_b), [end] "m"(end),          \
        [next_x] "m"(next_x), [next_w] "m"(next_w), [c_count] "m"(c_count), [round30] "m"(round30),  \
        [zp] "m"(zp), [lo] "m"(lo), [hi] "m"(hi)                                                     \
      : "cc", "memory")
  if (kStride == 2) {
    MOTE_V6M_PAIR_LOOP(MOTE_V6M_PAIR_ROW_S2);
  } else {
    MOTE_V6M_PAIR_LOOP(MOTE_V6M_PAIR_ROW);
  }
#undef MOTE_V6M_PAIR_LOOP
#undef MOTE_V6M_PAIR_OUT
#undef MOTE_V6M_PAIR_LH_T2
#undef MOTE_V6M_PAIR_ROW_S2
#undef MOTE_V6M_PAIR_ROW
#else
  for (int32_t c = 0; c < count; ++c, ++ch) {
    const uint32_t acc_a = dot_3x3(w + c, x + c, count, 3 * count, x_row, ch->bias);
    const uint32_t acc_b = dot_3x3(w + c, x + kStride * count + c, count, 3 * count, x_row, ch->bias);
    out[c] = requant_v6m_right_s8(static_cast<int32_t>(acc_a), ch->requant, k);
    out[count + c] = requant_v6m_right_s8(static_cast<int32_t>(acc_b), ch->requant, k);
  }
#endif
}

}  // namespace mote::v6m
