// The output channels of one pixel of the ARMv6-M int8 convolution's folded path (input
// offset folded into the bias, requant_v6m_right_s8 in every channel), four at a time in
// one Thumb-1 loop: per block of four the biases into the accumulators, the dot products,
// the four requantizations and the stores, without the compiler's spills between them or
// a call per block; and two channels of two pixels of the 1x1 path at once, two products
// per MULS (dot_2x2_packed). Portable definitions elsewhere (and at -O0 / -Os, see
// isa/v6m.h).
#pragma once

#include <stdint.h>

#include "isa/v6m.h"
#include "quant/quant_math_v6m.h"

namespace mote::v6m {

// One output channel's constants (the assembly reads them by offset).
struct FoldedChannel {
  uint32_t bias;            // bias + input offset * the sum of the channel's weights
  RequantV6mRight requant;  // requant_v6m_right_s8's constants
};
static_assert(sizeof(FoldedChannel) == 24, "the assembly's offsets");

// What folded_blocks_4 reads and advances (the assembly reads it by offset).
struct FoldedBlock {
  const int8_t* w;              // channel j's `taps` weights at w + j * taps
  const int8_t* x;              // the pixel's `taps` inputs
  int32_t taps;                 // >= 1
  const FoldedChannel* ch;      // channels j = 0..3 of the block
  int8_t* out;                  // out[j]
  const RequantV6mOutput* k;    // the op's output constants
  const FoldedChannel* ch_end;  // ch + a positive multiple of 4
};

// Until b.ch reaches b.ch_end, a block of four channels: for j in 0..3, out[j] =
// requant_v6m_right_s8(ch[j].bias + sum over t in [0, taps) of w[j * taps + t] * x[t],
// ch[j].requant, *k), the sums wrapping; then w += 4 * taps, ch += 4, out += 4 (b is left
// at the end). 57 instructions per 16 multiply-accumulates (the tap loop unrolled four
// times: 14 per tap and one branch), per block about 24 before the tap loop and 14 after
// it, and per output requant_v6m_right_s8's arithmetic plus 2. kPositive: the channels
// are prepared for requant_v6m_positive_s8 (requant_v6m_positive_prepare), which replaces
// requant_v6m_right_s8 (about 26 instructions per output unclamped, acc in [-2^15, 2^15)).
template <bool kPositive>
inline void folded_blocks_4(FoldedBlock& b) {
#if MOTE_V6M_ASM
  FoldedBlock* p = &b;
  const int8_t *xe, *w0, *w1, *w2;
  int32_t i, xv, t;
  uint32_t a0, a1, a2, a3;
  const void* save;
  // One tap of the four channels, then the next tap (the flags: i == 0 after the last).
#define MOTE_V6M_FOLDED_TAP                   \
  "ldrsb %[xv], [%[xe], %[i]]\n\t"           \
  MOTE_V6M_4_MACS("w0", "w1", "w2", "p")      \
  "adds %[i], #1\n\t"
  // With al in xe: t = Lh + T2 (requant_v6m_right_s8's names), bl in xv, bh in p.
#define MOTE_V6M_FOLDED_LH_T2(OFF)                           \
  "ldr %[xv], [%[w0], #(" OFF "+8)]\n\t"                     \
  "movs %[t], %[xe]\n\t"                                     \
  "muls %[t], %[xv]\n\t"                                     \
  "ldr %[p], [%[w2], #0]\n\t"                                \
  "adds %[t], %[t], %[p]\n\t"                                \
  "lsrs %[t], %[t], #16\n\t"                                 \
  "ldr %[p], [%[w0], #(" OFF "+4)]\n\t"                      \
  "muls %[xe], %[p]\n\t"                                     \
  "adds %[t], %[t], %[xe]\n\t"
  // For an acc in xe outside [-2^15, 2^15): formula (2) up to y = t + i (t: the low
  // terms, i: 2H).
#define MOTE_V6M_FOLDED_LARGE_Y(OFF)                         \
  "asrs %[i], %[xe], #16\n\t"                                \
  "sxth %[xe], %[xe]\n\t"                                    \
  "lsrs %[t], %[xe], #31\n\t"                                \
  "adds %[i], %[i], %[t]\n\t"                                \
  MOTE_V6M_FOLDED_LH_T2(OFF)                                 \
  "muls %[xv], %[i]\n\t"                                     \
  "lsls %[xe], %[xv], #17\n\t"                               \
  "lsrs %[xe], %[xe], #17\n\t"                               \
  "adds %[t], %[t], %[xe]\n\t"                               \
  "asrs %[t], %[t], #15\n\t"                                 \
  "asrs %[xv], %[xv], #15\n\t"                               \
  "adds %[t], %[t], %[xv]\n\t"                               \
  "muls %[i], %[p]\n\t"                                      \
  "lsls %[i], %[i], #1\n\t"
  // The acc ACC into xe; below the floor: to 5f, outside [-2^15, 2^15): to 6f, else
  // t = Lh + T2.
#define MOTE_V6M_FOLDED_HEAD(ACC, OFF)                       \
  "mov %[xe], %[" ACC "]\n\t"                                \
  "ldr %[t], [%[w0], #(" OFF "+20)]\n\t"                     \
  "cmp %[xe], %[t]\n\t"                                      \
  "blt 5f\n\t"                                               \
  "sxth %[t], %[xe]\n\t"                                     \
  "cmp %[t], %[xe]\n\t"                                      \
  "bne 6f\n\t"                                               \
  MOTE_V6M_FOLDED_LH_T2(OFF)
  // One output: a_j's requantization with channel j's constants at q + 24 j, stored to o[j].
  // Registers: a = xe, bh = p, ah = i, u = xv; q = w0, o = w1, k = w2. An acc in
  // [-2^15, 2^15) (sxth leaves it unchanged) has ah == 0 and al == acc: T1 = H = 0, and ah
  // is computed only out of line.
#define MOTE_V6M_FOLDED_OUT(J, ACC, OFF)                     \
  MOTE_V6M_FOLDED_HEAD(ACC, OFF)                             \
  "asrs %[xe], %[t], #15\n"                                  \
  "7:\n\t"                                                   \
  "asrs %[t], %[xe], #31\n\t"                                \
  "adds %[xe], %[xe], %[t]\n\t"                              \
  "ldr %[t], [%[w0], #(" OFF "+12)]\n\t"                     \
  "adds %[xe], %[xe], %[t]\n\t"                              \
  "ldr %[t], [%[w0], #(" OFF "+16)]\n\t"                     \
  "bvc 1f\n\t"                                               \
  "lsrs %[xe], %[t]\n\t"                                     \
  "b 2f\n"                                                   \
  "1:\n\t"                                                   \
  "asrs %[xe], %[t]\n"                                       \
  "2:\n\t"                                                   \
  "ldr %[t], [%[w2], #4]\n\t"                                \
  "adds %[xe], %[xe], %[t]\n\t"                              \
  "ldr %[t], [%[w2], #8]\n\t"                                \
  "cmp %[xe], %[t]\n\t"                                      \
  "blt 5f\n\t"                                               \
  "ldr %[t], [%[w2], #12]\n\t"                               \
  "cmp %[xe], %[t]\n\t"                                      \
  "ble 4f\n\t"                                               \
  "movs %[xe], %[t]\n\t"                                     \
  "b 4f\n"                                                   \
  "6:\n\t"                                                   \
  MOTE_V6M_FOLDED_LARGE_Y(OFF)                               \
  "adds %[xe], %[t], %[i]\n\t"                               \
  "b 7b\n"                                                   \
  "5:\n\t"                                                   \
  "ldr %[xe], [%[w2], #8]\n"                                 \
  "4:\n\t"                                                   \
  "strb %[xe], [%[w1], #" J "]\n\t"
  // The same for requant_v6m_positive_s8: no rounding of a negative y, no lower clamp, and
  // for an acc in [-2^15, 2^15) one rounding shift of t.
#define MOTE_V6M_FOLDED_OUT_POSITIVE(J, ACC, OFF)            \
  MOTE_V6M_FOLDED_HEAD(ACC, OFF)                             \
  "ldr %[xe], [%[w0], #(" OFF "+12)]\n\t"                    \
  "adds %[t], %[t], %[xe]\n\t"                               \
  "ldr %[xe], [%[w0], #(" OFF "+16)]\n\t"                    \
  "asrs %[t], %[xe]\n"                                       \
  "2:\n\t"                                                   \
  "ldr %[xe], [%[w2], #4]\n\t"                               \
  "adds %[xe], %[xe], %[t]\n\t"                              \
  "ldr %[t], [%[w2], #12]\n\t"                               \
  "cmp %[xe], %[t]\n\t"                                      \
  "ble 4f\n\t"                                               \
  "movs %[xe], %[t]\n\t"                                     \
  "b 4f\n"                                                   \
  "6:\n\t"                                                   \
  MOTE_V6M_FOLDED_LARGE_Y(OFF)                               \
  "adds %[xe], %[t], %[i]\n\t"  /* y >= 0 */                 \
  "ldr %[i], [%[w0], #(" OFF "+16)]\n\t"                     \
  "subs %[i], #15\n\t"           /* n */                     \
  "movs %[t], #1\n\t"                                        \
  "lsls %[t], %[i]\n\t"                                      \
  "lsrs %[t], %[t], #1\n\t"                                  \
  "adds %[t], %[xe], %[t]\n\t"  /* y + 2^n / 2 < 2^32 */     \
  "lsrs %[t], %[i]\n\t"                                      \
  "b 2b\n"                                                   \
  "5:\n\t"                                                   \
  "ldr %[xe], [%[w2], #8]\n"                                 \
  "4:\n\t"                                                   \
  "strb %[xe], [%[w1], #" J "]\n\t"
#define MOTE_V6M_FOLDED_ASM(OUT)                                                                     \
  __asm__ volatile(                                                                                  \
      ".syntax unified\n\t"                                                                          \
      "mov %[save], %[p]\n"                                                                        \
      "8:\n\t"                                                                                     \
      "ldr %[t], [%[p], #12]\n\t"  /* ch */                                                        \
      "ldr %[xv], [%[t], #0]\n\t"                                                                  \
      "mov %[a0], %[xv]\n\t"                                                                       \
      "ldr %[xv], [%[t], #24]\n\t"                                                                 \
      "mov %[a1], %[xv]\n\t"                                                                       \
      "ldr %[xv], [%[t], #48]\n\t"                                                                 \
      "mov %[a2], %[xv]\n\t"                                                                       \
      "ldr %[xv], [%[t], #72]\n\t"                                                                 \
      "mov %[a3], %[xv]\n\t"                                                                       \
      "ldr %[i], [%[p], #8]\n\t"  /* taps */                                                       \
      "ldr %[xe], [%[p], #4]\n\t"                                                                  \
      "adds %[xe], %[xe], %[i]\n\t"  /* x + taps */                                                \
      "ldr %[w0], [%[p], #0]\n\t"                                                                  \
      "adds %[w0], %[w0], %[i]\n\t"  /* channel 0's weights + taps */                              \
      "adds %[w1], %[w0], %[i]\n\t"                                                                \
      "adds %[w2], %[w1], %[i]\n\t"                                                                \
      "adds %[p], %[w2], %[i]\n\t"   /* channel 3's (p is free until the loop ends) */             \
      "negs %[i], %[i]\n\t"                                                                        \
      MOTE_V6M_TAPS_UNROLLED_4(MOTE_V6M_FOLDED_TAP)                                                \
      "mov %[p], %[save]\n\t"                                                                      \
      "ldr %[w0], [%[p], #12]\n\t"  /* q: the channels */                                          \
      "ldr %[w1], [%[p], #16]\n\t"  /* o: the outputs */                                           \
      "ldr %[w2], [%[p], #20]\n\t"  /* k: the output constants */                                  \
      OUT("0", "a0", "0")                                                                          \
      OUT("1", "a1", "24")                                                                         \
      OUT("2", "a2", "48")                                                                         \
      OUT("3", "a3", "72")                                                                         \
      "mov %[p], %[save]\n\t"     /* the next block */                                             \
      "ldr %[t], [%[p], #8]\n\t"                                                                   \
      "lsls %[t], %[t], #2\n\t"                                                                    \
      "ldr %[xv], [%[p], #0]\n\t"                                                                  \
      "adds %[xv], %[xv], %[t]\n\t"                                                                \
      "str %[xv], [%[p], #0]\n\t"  /* w += 4 * taps */                                             \
      "adds %[w0], #96\n\t"                                                                        \
      "str %[w0], [%[p], #12]\n\t"  /* ch += 4 */                                                  \
      "adds %[w1], #4\n\t"                                                                         \
      "str %[w1], [%[p], #16]\n\t"  /* out += 4 */                                                 \
      "ldr %[t], [%[p], #24]\n\t"                                                                  \
      "cmp %[w0], %[t]\n\t"                                                                        \
      "beq 9f\n\t"                                                                                 \
      "b 8b\n"                      /* the loop is longer than a conditional branch reaches */     \
      "9:\n\t"                                                                                     \
      : [p] "+l"(p), [xe] "=&l"(xe), [w0] "=&l"(w0), [w1] "=&l"(w1), [w2] "=&l"(w2), [i] "=&l"(i), \
        [xv] "=&l"(xv), [t] "=&l"(t), [a0] "=&h"(a0), [a1] "=&h"(a1), [a2] "=&h"(a2), [a3] "=&h"(a3),\
        [save] "=&h"(save)                                                                         \
      :                                                                                            \
      : "cc", "memory")
  if constexpr (kPositive) {
    MOTE_V6M_FOLDED_ASM(MOTE_V6M_FOLDED_OUT_POSITIVE);
  } else {
    MOTE_V6M_FOLDED_ASM(MOTE_V6M_FOLDED_OUT);
  }
#undef MOTE_V6M_FOLDED_ASM
#undef MOTE_V6M_FOLDED_OUT_POSITIVE
#undef MOTE_V6M_FOLDED_OUT
#undef MOTE_V6M_FOLDED_HEAD
#undef MOTE_V6M_FOLDED_LARGE_Y
#undef MOTE_V6M_FOLDED_LH_T2
#undef MOTE_V6M_FOLDED_TAP
#else
  for (; b.ch != b.ch_end; b.w += 4 * b.taps, b.ch += 4, b.out += 4) {
    uint32_t acc[4] = {b.ch[0].bias, b.ch[1].bias, b.ch[2].bias, b.ch[3].bias};
    dot_4x1_portable(b.w, b.taps, b.x, b.taps, 0, acc);
    for (int32_t j = 0; j < 4; ++j) {
      b.out[j] = kPositive ? requant_v6m_positive_s8(static_cast<int32_t>(acc[j]), b.ch[j].requant, *b.k)
                           : requant_v6m_right_s8(static_cast<int32_t>(acc[j]), b.ch[j].requant, *b.k);
    }
  }
#endif
}

// Two pixels' inputs packed for dot_2x2_packed, negated: packed[k] = -xa[k] - xb[k] * 2^16
// (an exact int32), k in [0, n).
inline void pack_pixel_pair(const int8_t* xa, const int8_t* xb, int32_t n, int32_t* packed) {
  for (int32_t k = 0; k < n; ++k) {
    packed[k] = -static_cast<int32_t>(xa[k]) - static_cast<int32_t>(static_cast<uint32_t>(xb[k]) << 16);
  }
}

// Two output channels of two pixels at once, two multiplies per MULS: for k in [0, n)
//   acc[0] += w0[k] * xa[k], acc[1] += w0[k] * xb[k], acc[2] += w1[k] * xa[k],
//   acc[3] += w1[k] * xb[k]
// (wrapping), with packed from pack_pixel_pair(xa, xb). n even, >= 2. The loop adds the
// negated products to the negated accumulators: a weight times a packed input is
// -w * xa - (w * xb) * 2^16, and two of them, P = A + B * 2^16 (mod 2^32), have A and B
// in [-2^15, 2^15 - 256] (a product -w * x is in [-128 * 128, 128 * 127]; not negated,
// two products of -128 would reach 2^15), so A = (int16)P and B = (P - A) >> 16 exactly
// (P - A = B * 2^16 is an int32 even when P wrapped).
// Per two taps: 1 LDM, 4 byte loads, 4 MULS, 2 ADDs for the pairs of products, 10 to split
// the two sums into the four accumulators, the index steps and a branch: 24 instructions
// for 8 multiply-accumulates (folded_blocks_4: 28 and a half).
inline void dot_2x2_packed(const int32_t* packed, const int8_t* w0, const int8_t* w1, int32_t n,
                           uint32_t acc[4]) {
#if MOTE_V6M_ASM
  register int32_t x1 __asm__("r4");
  register int32_t x2 __asm__("r5");
  int32_t j = -n;
  int32_t p0, p1;
  uint32_t a0 = 0u - acc[0], b0 = 0u - acc[1], a1 = 0u - acc[2], b1 = 0u - acc[3];
  w0 += n;
  w1 += n;
  __asm__ volatile(
      ".syntax unified\n"
      "1:\n\t"
      "ldm %[x]!, {%[x1], %[x2]}\n\t"
      "ldrsb %[p0], [%[w0], %[j]]\n\t"
      "muls %[p0], %[x1]\n\t"
      "ldrsb %[p1], [%[w1], %[j]]\n\t"
      "muls %[p1], %[x1]\n\t"
      "adds %[j], #1\n\t"
      "ldrsb %[x1], [%[w0], %[j]]\n\t"
      "muls %[x1], %[x2]\n\t"
      "adds %[p0], %[p0], %[x1]\n\t"
      "ldrsb %[x1], [%[w1], %[j]]\n\t"
      "muls %[x1], %[x2]\n\t"
      "adds %[p1], %[p1], %[x1]\n\t"
      "sxth %[x1], %[p0]\n\t"
      "add %[a0], %[x1]\n\t"
      "subs %[p0], %[p0], %[x1]\n\t"
      "asrs %[p0], %[p0], #16\n\t"
      "add %[b0], %[p0]\n\t"
      "sxth %[x1], %[p1]\n\t"
      "add %[a1], %[x1]\n\t"
      "subs %[p1], %[p1], %[x1]\n\t"
      "asrs %[p1], %[p1], #16\n\t"
      "add %[b1], %[p1]\n\t"
      "adds %[j], #1\n\t"
      "bne 1b\n\t"
      : [x] "+l"(packed), [j] "+l"(j), [x1] "=&l"(x1), [x2] "=&l"(x2), [p0] "=&l"(p0), [p1] "=&l"(p1),
        [a0] "+h"(a0), [b0] "+h"(b0), [a1] "+h"(a1), [b1] "+h"(b1)
      : [w0] "l"(w0), [w1] "l"(w1)
      : "cc", "memory");
  acc[0] = 0u - a0;
  acc[1] = 0u - b0;
  acc[2] = 0u - a1;
  acc[3] = 0u - b1;
#else
  for (int32_t k = 0; k < n; ++k) {
    const int32_t xa = -static_cast<int16_t>(packed[k]);
    const int32_t xb = -((packed[k] + xa) >> 16);
    acc[0] += static_cast<uint32_t>(w0[k] * xa);
    acc[1] += static_cast<uint32_t>(w0[k] * xb);
    acc[2] += static_cast<uint32_t>(w1[k] * xa);
    acc[3] += static_cast<uint32_t>(w1[k] * xb);
  }
#endif
}

}  // namespace mote::v6m
