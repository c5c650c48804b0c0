// The inner loops of the ARMv6-M (__v6m) kernel variants, hand-scheduled for Thumb-1.
// Each function has an exact portable C++ definition (used on the host and on every
// other core) and, when compiling for ARMv6-M, an inline-assembly body with the same
// results. GCC's Thumb-1 register allocator spills these loops to the stack; written out
// they keep four accumulators and the input offset in r8-r12 and everything else in
// r0-r7.
#pragma once

#include <stdint.h>

// The assembly bodies need up to eight low registers in one block. GCC can give them
// only when it optimizes for speed (r7 is then free of frame-pointer duty); at -O0 and
// -Os (and with -fno-omit-frame-pointer) the portable definitions are used instead.
#if defined(__ARM_ARCH_6M__) && defined(__thumb__) && defined(__GNUC__) && \
    defined(__OPTIMIZE__) && !defined(__OPTIMIZE_SIZE__)
#define MOTE_V6M_ASM 1
#else
#define MOTE_V6M_ASM 0
#endif

// The body of the four-channel multiply-accumulate loops (dot_4x1, dot_s16_4x1 and
// v6m_folded.h's folded_blocks_4): with the input value in xv, for j in 0..3 channel j's
// weight at [Wj, i] into t and a_j += t * xv. 12 instructions.
#define MOTE_V6M_4_MACS(W0, W1, W2, W3) \
  "ldrsb %[t], [%[" W0 "], %[i]]\n\t"   \
  "muls %[t], %[xv]\n\t"                \
  "add %[a0], %[t]\n\t"                 \
  "ldrsb %[t], [%[" W1 "], %[i]]\n\t"   \
  "muls %[t], %[xv]\n\t"                \
  "add %[a1], %[t]\n\t"                 \
  "ldrsb %[t], [%[" W2 "], %[i]]\n\t"   \
  "muls %[t], %[xv]\n\t"                \
  "add %[a2], %[t]\n\t"                 \
  "ldrsb %[t], [%[" W3 "], %[i]]\n\t"   \
  "muls %[t], %[xv]\n\t"                \
  "add %[a3], %[t]\n\t"

// A loop over taps i = -n .. -1 (n >= 1, in %[i]; %[xv] free on entry) unrolled four
// times: TAP is one tap's body ending in "adds %[i], #1" (so Z says whether it was the
// last). The first pass runs n % 4 taps, entered at step (-n) & 3 (LSLS #31 puts bit 1
// of -n in C and bit 0 in N): 4 instructions to enter, one branch per four taps.
// Labels 10-14.
#define MOTE_V6M_TAPS_UNROLLED_4(TAP) \
  "lsls %[xv], %[i], #31\n\t"         \
  "bcc 14f\n\t"                       \
  "bmi 13f\n\t"                       \
  "b 12f\n"                            \
  "14:\n\t"                           \
  "bmi 11f\n"                          \
  "10:\n\t" TAP                       \
  "11:\n\t" TAP                       \
  "12:\n\t" TAP                       \
  "13:\n\t" TAP                       \
  "bne 10b\n\t"

namespace mote::v6m {

// The portable definition of dot_4x1 and dot_s16_4x1 (X: int8_t or int16_t inputs).
template <typename X>
inline void dot_4x1_portable(const int8_t* w, int32_t w_step, const X* x, int32_t n, int32_t offset,
                             uint32_t acc[4]) {
  for (int32_t k = 0; k < n; ++k) {
    const int32_t xv = x[k] + offset;
    for (int32_t j = 0; j < 4; ++j) acc[j] += static_cast<uint32_t>(w[j * w_step + k] * xv);
  }
}

// For k in [0, n) and j in 0..3:  acc[j] += w[j * w_step + k] * (x[k] + offset), in
// wrapping uint32 arithmetic (without the offset when kOffset is false). n >= 0. 5 loads,
// 4 MULS, 4 ADDs and the index step per tap (15 instructions; 14 without the offset), one
// branch per four taps (MOTE_V6M_TAPS_UNROLLED_4).
template <bool kOffset>
inline void dot_4x1_impl(const int8_t* w, int32_t w_step, const int8_t* x, int32_t n, int32_t offset,
                         uint32_t acc[4]) {
#if MOTE_V6M_ASM
  if (n <= 0) return;  // the loop below runs at least once
  const int8_t* w0 = w + n;
  const int8_t* w1 = w0 + w_step;
  const int8_t* w2 = w1 + w_step;
  const int8_t* w3 = w2 + w_step;
  const int8_t* xe = x + n;
  int32_t i = -n;
  uint32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  int32_t xv, t;
#define MOTE_V6M_DOT_4X1(ADD_OFFSET)                                                          \
  __asm__ volatile(".syntax unified\n\t"                                                      \
                   MOTE_V6M_TAPS_UNROLLED_4("ldrsb %[xv], [%[xe], %[i]]\n\t" ADD_OFFSET        \
                                            MOTE_V6M_4_MACS("w0", "w1", "w2", "w3")           \
                                            "adds %[i], #1\n\t")                              \
                   : [a0] "+h"(a0), [a1] "+h"(a1), [a2] "+h"(a2), [a3] "+h"(a3), [i] "+l"(i),   \
                     [xv] "=&l"(xv), [t] "=&l"(t)                                             \
                   : [xe] "l"(xe), [w0] "l"(w0), [w1] "l"(w1), [w2] "l"(w2), [w3] "l"(w3),     \
                     [off] "h"(offset)                                                        \
                   : "cc", "memory")
  if (kOffset) {
    MOTE_V6M_DOT_4X1("add %[xv], %[off]\n\t");
  } else {
    MOTE_V6M_DOT_4X1("");
  }
#undef MOTE_V6M_DOT_4X1
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
#else
  dot_4x1_portable(w, w_step, x, n, kOffset ? offset : 0, acc);
#endif
}

inline void dot_4x1(const int8_t* w, int32_t w_step, const int8_t* x, int32_t n, int32_t offset,
                    uint32_t acc[4]) {
  dot_4x1_impl<true>(w, w_step, x, n, offset, acc);
}

// dot_4x1 without an input offset (one folded into acc's start).
inline void dot_4x1_raw(const int8_t* w, int32_t w_step, const int8_t* x, int32_t n, uint32_t acc[4]) {
  dot_4x1_impl<false>(w, w_step, x, n, 0, acc);
}

// Two neighbouring channels along a strided run (a depthwise window row): for k in
// [0, n) and j in 0..1:  acc[j] += w[k * stride + j] * (x[k * stride + j] + offset),
// wrapping. n >= 0. 12 instructions per 2 multiply-accumulates.
inline void dot_strided_2(const int8_t* w, const int8_t* x, int32_t stride, int32_t n,
                          int32_t offset, uint32_t acc[2]) {
#if MOTE_V6M_ASM
  if (n <= 0) return;  // the loop below runs at least once
  const int32_t span = n * stride;
  const int8_t* x0 = x + span;
  const int8_t* x1 = x0 + 1;
  const int8_t* w0 = w + span;
  const int8_t* w1 = w0 + 1;
  int32_t i = -span;
  uint32_t a0 = acc[0], a1 = acc[1];
  int32_t xv, t;
  __asm__ volatile(
      ".syntax unified\n"
      "1:\n\t"
      "ldrsb %[xv], [%[x0], %[i]]\n\t"
      "add %[xv], %[off]\n\t"
      "ldrsb %[t], [%[w0], %[i]]\n\t"
      "muls %[t], %[xv]\n\t"
      "add %[a0], %[t]\n\t"
      "ldrsb %[xv], [%[x1], %[i]]\n\t"
      "add %[xv], %[off]\n\t"
      "ldrsb %[t], [%[w1], %[i]]\n\t"
      "muls %[t], %[xv]\n\t"
      "add %[a1], %[t]\n\t"
      "adds %[i], %[i], %[stride]\n\t"
      "bne 1b\n\t"
      : [a0] "+h"(a0), [a1] "+h"(a1), [i] "+l"(i), [xv] "=&l"(xv), [t] "=&l"(t)
      : [x0] "l"(x0), [x1] "l"(x1), [w0] "l"(w0), [w1] "l"(w1), [stride] "l"(stride),
        [off] "h"(offset)
      : "cc", "memory");
  acc[0] = a0;
  acc[1] = a1;
#else
  uint32_t a0 = acc[0], a1 = acc[1];
  for (int32_t k = 0; k < n; ++k, w += stride, x += stride) {
    a0 += static_cast<uint32_t>(w[0] * (x[0] + offset));
    a1 += static_cast<uint32_t>(w[1] * (x[1] + offset));
  }
  acc[0] = a0;
  acc[1] = a1;
#endif
}

// One channel of a window 3 taps wide (a 3xN depthwise window with dilation_w == 1):
// for r in [0, rows) and k in 0..2,
//   acc += w[r * w_row + k * c] * (x[r * x_row + k * c] + offset), wrapping.
// rows >= 0. 19 instructions per 3 multiply-accumulates, the loop over rows included.
inline uint32_t dot_3wide(const int8_t* w, const int8_t* x, int32_t c, int32_t rows,
                          int32_t w_row, int32_t x_row, int32_t offset, uint32_t acc) {
#if MOTE_V6M_ASM
  if (rows <= 0) return acc;  // the loop below runs at least once
  const int32_t zero = 0;
  const int32_t c2 = 2 * c;
  int32_t xv, wv;
  __asm__ volatile(
      ".syntax unified\n"
      "1:\n\t"
      "ldrsb %[xv], [%[x], %[zero]]\n\t"
      "add %[xv], %[off]\n\t"
      "ldrsb %[wv], [%[w], %[zero]]\n\t"
      "muls %[wv], %[xv]\n\t"
      "add %[acc], %[wv]\n\t"
      "ldrsb %[xv], [%[x], %[c]]\n\t"
      "add %[xv], %[off]\n\t"
      "ldrsb %[wv], [%[w], %[c]]\n\t"
      "muls %[wv], %[xv]\n\t"
      "add %[acc], %[wv]\n\t"
      "ldrsb %[xv], [%[x], %[c2]]\n\t"
      "add %[xv], %[off]\n\t"
      "ldrsb %[wv], [%[w], %[c2]]\n\t"
      "muls %[wv], %[xv]\n\t"
      "add %[acc], %[wv]\n\t"
      "add %[x], %[x_row]\n\t"
      "add %[w], %[w_row]\n\t"
      "subs %[rows], #1\n\t"
      "bne 1b\n\t"
      : [acc] "+h"(acc), [x] "+l"(x), [w] "+l"(w), [rows] "+l"(rows), [xv] "=&l"(xv),
        [wv] "=&l"(wv)
      : [zero] "l"(zero), [c] "l"(c), [c2] "l"(c2), [x_row] "h"(x_row), [w_row] "h"(w_row),
        [off] "h"(offset)
      : "cc", "memory");
  return acc;
#else
  for (int32_t r = 0; r < rows; ++r, x += x_row, w += w_row) {
    for (int32_t k = 0; k < 3; ++k) acc += static_cast<uint32_t>(w[k * c] * (x[k * c] + offset));
  }
  return acc;
#endif
}

// One channel of a 3x3 window without input offset (a depthwise window whose offset is
// folded into acc): for r, k in 0..2,
//   acc += w[r * w_row + k * c] * x[r * x_row + k * c], wrapping.
// 42 instructions per 9 multiply-accumulates, all taps unrolled.
inline uint32_t dot_3x3(const int8_t* w, const int8_t* x, int32_t c, int32_t w_row, int32_t x_row,
                        uint32_t acc) {
#if MOTE_V6M_ASM
  const int32_t zero = 0;
  const int32_t c2 = 2 * c;
  int32_t xv, wv;
#define MOTE_V6M_3X3_TAP(O)              \
  "ldrsb %[xv], [%[x], %[" O "]]\n\t"    \
  "ldrsb %[wv], [%[w], %[" O "]]\n\t"    \
  "muls %[wv], %[xv]\n\t"                \
  "add %[acc], %[wv]\n\t"
#define MOTE_V6M_3X3_ROW MOTE_V6M_3X3_TAP("zero") MOTE_V6M_3X3_TAP("c") MOTE_V6M_3X3_TAP("c2")
  __asm__ volatile(
      ".syntax unified\n\t"
      MOTE_V6M_3X3_ROW
      "add %[x], %[x_row]\n\t"
      "add %[w], %[w_row]\n\t"
      MOTE_V6M_3X3_ROW
      "add %[x], %[x_row]\n\t"
      "add %[w], %[w_row]\n\t"
      MOTE_V6M_3X3_ROW
      : [acc] "+h"(acc), [x] "+l"(x), [w] "+l"(w), [xv] "=&l"(xv), [wv] "=&l"(wv)
      : [zero] "l"(zero), [c] "l"(c), [c2] "l"(c2), [x_row] "h"(x_row), [w_row] "h"(w_row)
      : "cc", "memory");
#undef MOTE_V6M_3X3_ROW
#undef MOTE_V6M_3X3_TAP
  return acc;
#else
  for (int32_t r = 0; r < 3; ++r, x += x_row, w += w_row) {
    for (int32_t k = 0; k < 3; ++k) acc += static_cast<uint32_t>(w[k * c] * x[k * c]);
  }
  return acc;
#endif
}

// dst[k] = src[k] for k in [0, n), the buffers apart. 4 instructions per byte, no call
// (a window's rows into a patch are a few bytes each: memcpy's entry costs more).
inline void copy_bytes(int8_t* dst, const int8_t* src, int32_t n) {
#if MOTE_V6M_ASM
  if (n <= 0) return;  // the loop below runs at least once
  int32_t t;
  __asm__ volatile(
      ".syntax unified\n"
      "1:\n\t"
      "subs %[n], #1\n\t"
      "ldrb %[t], [%[src], %[n]]\n\t"
      "strb %[t], [%[dst], %[n]]\n\t"
      "bne 1b\n\t"
      : [n] "+l"(n), [t] "=&l"(t)
      : [dst] "l"(dst), [src] "l"(src)
      : "cc", "memory");
#else
  for (int32_t k = 0; k < n; ++k) dst[k] = src[k];
#endif
}

// acc + sum over k in [0, n) of w[k] * (x[k] + offset), wrapping. n >= 0.
inline uint32_t dot_1x1(const int8_t* w, const int8_t* x, int32_t n, int32_t offset,
                        uint32_t acc) {
  for (int32_t k = 0; k < n; ++k) acc += static_cast<uint32_t>(w[k] * (x[k] + offset));
  return acc;
}

// The 16x8 form of dot_4x1 (int16 inputs, no offset): for k in [0, n) and j in 0..3,
//   acc[j] += w[j * w_step + k] * x[k], wrapping. n >= 0. The input index is the weight
// index doubled in place (ADDS xv, i, i; LDRSH xv, [x, xv]): 16 instructions per 4
// multiply-accumulates, in the same eight low registers as dot_4x1.
inline void dot_s16_4x1(const int8_t* w, int32_t w_step, const int16_t* x, int32_t n,
                        uint32_t acc[4]) {
#if MOTE_V6M_ASM
  if (n <= 0) return;  // the loop below runs at least once
  const int8_t* w0 = w + n;
  const int8_t* w1 = w0 + w_step;
  const int8_t* w2 = w1 + w_step;
  const int8_t* w3 = w2 + w_step;
  const int16_t* xe = x + n;
  int32_t i = -n;
  uint32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  int32_t xv, t;
  __asm__ volatile(
      ".syntax unified\n"
      "1:\n\t"
      "adds %[xv], %[i], %[i]\n\t"
      "ldrsh %[xv], [%[xe], %[xv]]\n\t"
      MOTE_V6M_4_MACS("w0", "w1", "w2", "w3")
      "adds %[i], #1\n\t"
      "bne 1b\n\t"
      : [a0] "+h"(a0), [a1] "+h"(a1), [a2] "+h"(a2), [a3] "+h"(a3), [i] "+l"(i),
        [xv] "=&l"(xv), [t] "=&l"(t)
      : [xe] "l"(xe), [w0] "l"(w0), [w1] "l"(w1), [w2] "l"(w2), [w3] "l"(w3)
      : "cc", "memory");
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
#else
  dot_4x1_portable(w, w_step, x, n, 0, acc);
#endif
}

// acc + sum over k in [0, n) of w[k] * x[k] (int16 inputs), wrapping. n >= 0.
inline uint32_t dot_s16_1x1(const int8_t* w, const int16_t* x, int32_t n, uint32_t acc) {
  for (int32_t k = 0; k < n; ++k) acc += static_cast<uint32_t>(w[k] * x[k]);
  return acc;
}

// The 16x8 form of dot_3wide (int16 inputs, no offset) for windows kCols (2 or 3) taps
// wide: one channel, c channels between taps, for r in [0, rows) and k in [0, kCols):
//   acc += w[r * w_row + k * c] * x[r * x_row + k * c], wrapping. rows >= 0.
// 4 instructions per multiply-accumulate and 4 per row.
template <int32_t kCols>
inline uint32_t dot_s16_wide(const int8_t* w, const int16_t* x, int32_t c, int32_t rows, int32_t w_row,
                             int32_t x_row, uint32_t acc) {
  static_assert(kCols == 2 || kCols == 3, "two or three taps across");
#if MOTE_V6M_ASM
  if (rows <= 0) return acc;  // the loop below runs at least once
  const int32_t zero = 0;
  const int32_t c2 = 2 * c;
  const int32_t c4 = 4 * c;
  const int32_t x_step = 2 * x_row;  // bytes
  const int16_t* x_end = x + rows * x_row;
  int32_t xv, wv;
#define MOTE_V6M_WIDE_TAP(XO, WO)             \
  "ldrsh %[xv], [%[x], %[" XO "]]\n\t"        \
  "ldrsb %[wv], [%[w], %[" WO "]]\n\t"        \
  "muls %[wv], %[xv]\n\t"                     \
  "add %[acc], %[wv]\n\t"
#define MOTE_V6M_WIDE_LOOP(TAPS)                                                                  \
  __asm__ volatile(".syntax unified\n"                                                            \
                   "1:\n\t" TAPS                                                                  \
                   "add %[x], %[x_step]\n\t"                                                      \
                   "add %[w], %[w_row]\n\t"                                                       \
                   "cmp %[x], %[x_end]\n\t"                                                       \
                   "bne 1b\n\t"                                                                   \
                   : [acc] "+h"(acc), [x] "+l"(x), [w] "+l"(w), [xv] "=&l"(xv), [wv] "=&l"(wv)    \
                   : [zero] "l"(zero), [c] "l"(c), [c2] "l"(c2), [c4] "l"(c4), [x_step] "h"(x_step), \
                     [w_row] "h"(w_row), [x_end] "h"(x_end)                                       \
                   : "cc", "memory")
  if (kCols == 3) {
    MOTE_V6M_WIDE_LOOP(MOTE_V6M_WIDE_TAP("zero", "zero") MOTE_V6M_WIDE_TAP("c2", "c") MOTE_V6M_WIDE_TAP("c4", "c2"));
  } else {
    MOTE_V6M_WIDE_LOOP(MOTE_V6M_WIDE_TAP("zero", "zero") MOTE_V6M_WIDE_TAP("c2", "c"));
  }
#undef MOTE_V6M_WIDE_LOOP
#undef MOTE_V6M_WIDE_TAP
  return acc;
#else
  for (int32_t r = 0; r < rows; ++r, x += x_row, w += w_row) {
    for (int32_t k = 0; k < kCols; ++k) acc += static_cast<uint32_t>(w[k * c] * x[k * c]);
  }
  return acc;
#endif
}

// Two output pixels of one channel of a 3x3 window with dilation_w == 1 (a depthwise
// pair): the channel's nine weights are int32, row-major, 16 bytes past `record`;
// pixel p's tap (r, k) is at xp + r * x_row + k * c (values, p = a or b). Returns in
// *a0 / *a1 the wrapping sums
//   sum over r, k of w[3r + k] * xp[r * x_row + k * c],
// and moves xa and xb on to the next channel (one value further). Each weight is loaded
// once (LDR, immediate offset) for both pixels: 72 instructions per 18
// multiply-accumulates.
__attribute__((always_inline)) inline void dot_s16_3x3_pair(const int32_t* record, const int16_t*& xa,
                                                             const int16_t*& xb, int32_t c, int32_t x_row,
                                                             uint32_t* a0, uint32_t* a1) {
#if MOTE_V6M_ASM
  const int32_t zero = 0;
  const int32_t c2 = 2 * c;  // bytes to the next tap across
  const int32_t c4 = 4 * c;
  const int32_t row = 2 * x_row;  // bytes to the next window row
  const int32_t back = 2 - 2 * row;  // from the third row to the next channel's first
  uint32_t s0, s1;
  int32_t t, v;
#define MOTE_V6M_PAIR_TAP(OFF, XO, FIRST)     \
  "ldr %[t], [%[w], #" OFF "]\n\t"            \
  "ldrsh %[v], [%[xa], %[" XO "]]\n\t"        \
  "muls %[v], %[t]\n\t"                       \
  FIRST " %[s0], %[v]\n\t"                    \
  "ldrsh %[v], [%[xb], %[" XO "]]\n\t"        \
  "muls %[v], %[t]\n\t"                       \
  FIRST " %[s1], %[v]\n\t"
  __asm__ volatile(
      ".syntax unified\n\t"
      MOTE_V6M_PAIR_TAP("16", "zero", "mov")
      MOTE_V6M_PAIR_TAP("20", "c2", "add")
      MOTE_V6M_PAIR_TAP("24", "c4", "add")
      "add %[xa], %[row]\n\t"
      "add %[xb], %[row]\n\t"
      MOTE_V6M_PAIR_TAP("28", "zero", "add")
      MOTE_V6M_PAIR_TAP("32", "c2", "add")
      MOTE_V6M_PAIR_TAP("36", "c4", "add")
      "add %[xa], %[row]\n\t"
      "add %[xb], %[row]\n\t"
      MOTE_V6M_PAIR_TAP("40", "zero", "add")
      MOTE_V6M_PAIR_TAP("44", "c2", "add")
      MOTE_V6M_PAIR_TAP("48", "c4", "add")
      "add %[xa], %[back]\n\t"
      "add %[xb], %[back]\n\t"
      : [s0] "=&h"(s0), [s1] "=&h"(s1), [xa] "+l"(xa), [xb] "+l"(xb), [t] "=&l"(t), [v] "=&l"(v)
      : [w] "l"(record), [zero] "l"(zero), [c2] "l"(c2), [c4] "l"(c4), [row] "h"(row), [back] "h"(back)
      : "cc", "memory");
#undef MOTE_V6M_PAIR_TAP
  *a0 = s0;
  *a1 = s1;
#else
  const int32_t* w = record + 4;
  uint32_t s0 = 0, s1 = 0;
  for (int32_t r = 0; r < 3; ++r) {
    for (int32_t k = 0; k < 3; ++k) {
      const uint32_t wv = static_cast<uint32_t>(w[3 * r + k]);
      s0 += wv * static_cast<uint32_t>(xa[r * x_row + k * c]);
      s1 += wv * static_cast<uint32_t>(xb[r * x_row + k * c]);
    }
  }
  *a0 = s0;
  *a1 = s1;
  ++xa;
  ++xb;
#endif
}

// The int16 maxima of 2 kWords channels (kWords = 1 or 2 aligned words) over a pooling
// window: p (4-byte aligned) is the first tap, rows x cols taps (both >= 1), `channels`
// values between taps of a row and row_stride between rows (both even). m[2k] and
// m[2k + 1] get the largest low and high halves of word k over the taps. A word w orders
// as its high half (ties broken by the low half, which leaves the maximum's high half
// unchanged) and w << 16 as its low half, so each half costs a compare, a branch and
// perhaps a move: 8 to 10 instructions per word and tap, 3 per tap and 3 per row.
template <int kWords>
inline void max_s16_words(const int16_t* p, int32_t rows, int32_t cols, int32_t channels,
                          int32_t row_stride, int32_t m[2 * kWords]) {
  static_assert(kWords == 1 || kWords == 2, "one or two words");
#if MOTE_V6M_ASM
  int32_t m0 = INT32_MIN, m1 = INT32_MIN, m2 = INT32_MIN, m3 = INT32_MIN;
  const int32_t col_bytes = 2 * channels;
  const int32_t row_skip = 2 * (row_stride - cols * channels);
  const int16_t* stop = p + rows * row_stride;
  int32_t n, w;
#define MOTE_V6M_MAX_WORD(OFFSET, LO, HI, L1, L2)     \
  "ldr %[w], [%[p], #" OFFSET "]\n\t"                   \
  "cmp %[w], %[" HI "]\n\t"                            \
  "ble " L1 "f\n\t"                                    \
  "mov %[" HI "], %[w]\n"                               \
  L1 ":\n\t"                                           \
  "lsls %[w], %[w], #16\n\t"                           \
  "cmp %[w], %[" LO "]\n\t"                            \
  "ble " L2 "f\n\t"                                    \
  "mov %[" LO "], %[w]\n"                               \
  L2 ":\n\t"
  __asm__ volatile(".syntax unified\n"
                   "1:\n\t"
                   "mov %[n], %[cols]\n"
                   "2:\n\t"
                   MOTE_V6M_MAX_WORD("0", "m0", "m1", "3", "4")
                   ".if %c[two]\n\t"
                   MOTE_V6M_MAX_WORD("4", "m2", "m3", "5", "6")
                   ".endif\n\t"
                   "add %[p], %[col_bytes]\n\t"
                   "subs %[n], #1\n\t"
                   "bne 2b\n\t"
                   "add %[p], %[row_skip]\n\t"
                   "cmp %[p], %[stop]\n\t"
                   "bne 1b\n\t"
                   : [p] "+l"(p), [n] "=&l"(n), [w] "=&l"(w), [m0] "+l"(m0), [m1] "+l"(m1),
                     [m2] "+l"(m2), [m3] "+l"(m3)
                   : [cols] "h"(cols), [col_bytes] "h"(col_bytes), [row_skip] "h"(row_skip),
                     [stop] "h"(stop), [two] "i"(kWords == 2 ? 1 : 0)
                   : "cc", "memory");
#undef MOTE_V6M_MAX_WORD
  m[0] = m0 >> 16;
  m[1] = m1 >> 16;
  if (kWords == 2) {
    m[2] = m2 >> 16;
    m[3] = m3 >> 16;
  }
#else
  int32_t lo[kWords], hi[kWords];
  for (int k = 0; k < kWords; ++k) lo[k] = hi[k] = INT32_MIN;
  for (int32_t y = 0; y < rows; ++y) {
    const int16_t* px = p + y * row_stride;
    for (int32_t x = 0; x < cols; ++x, px += channels) {
      for (int k = 0; k < kWords; ++k) {
        int32_t w;
        __builtin_memcpy(&w, __builtin_assume_aligned(px + 2 * k, 4), sizeof(w));
        const int32_t w_lo = static_cast<int32_t>(static_cast<uint32_t>(w) << 16);
        if (w > hi[k]) hi[k] = w;
        if (w_lo > lo[k]) lo[k] = w_lo;
      }
    }
  }
  for (int k = 0; k < kWords; ++k) {
    m[2 * k] = lo[k] >> 16;
    m[2 * k + 1] = hi[k] >> 16;
  }
#endif
}

// The inner loop of the int16 ADD (16x8, left shift 15) where input a's rescaling is
// x << 14 and input b's rounds (the layout a compiled ADD has); the arithmetic and why it
// equals the reference are derived beside the kernel, which fills these constants.
struct Add16x8Constants {
  int32_t b_mul_lo;   // input b's multiplier: signed low 16 bits
  int32_t b_mul_hi;   // and (m - b_mul_lo) / 2^16
  int32_t b_right;    // its right shift, in [1, 14]
  int32_t out_lo;     // the output multiplier's low 16 bits, in (-2^15, 2^15]
  int32_t out_hi;     // and (m - out_lo) / 2^16
  int32_t out_right;  // the output right shift minus one, >= 1
  int32_t b_round;    // 2^15 + 2^(15 + b_right)
  uint32_t mid_round; // 2^14 + 2^30 (the bias that keeps the middle sum unsigned)
  int32_t out_round;  // 2^(out_right - 1) + zero point * 2^out_right - 2^14
  int32_t act_min, act_max;
};

// For i in [0, count): out[i] = clamp(y, act_min, act_max) with
//   raw = (a[i] << 14) + ((xb * mh + ((xb * ml + b_round) >> 16) - [xb < 0]) >> b_right),
//     xb = b[i], ml / mh = b_mul_lo / b_mul_hi,
//   hi = raw >> 16, lo = raw & 0xFFFF,
//   mid = hi * out_lo + lo * out_hi + ((lo * out_lo) >> 16) - [raw < 0] * 2^15 + mid_round,
//     in wrapping uint32 arithmetic,
//   y = (hi * out_hi + (mid >> 16, unsigned) + out_round) >> out_right.
// The caller guarantees that no other step overflows. `out` may be `a` or `b`.
// 43 instructions per element (44 when an output is clamped), six of them MULS.
inline void add_16x8(const Add16x8Constants& constants, const int16_t* a, const int16_t* b,
                     int16_t* out, int32_t count) {
#if MOTE_V6M_ASM
  if (count <= 0) return;  // the loop below runs at least once
  const Add16x8Constants k = constants;
  const int16_t* a_end = a + count;
  const int16_t* b_end = b + count;
  int16_t* out_end = out + count;
  int32_t i = -2 * count;
  int32_t x, y, z, w;
  __asm__ volatile(
      ".syntax unified\n"
      "1:\n\t"
      "ldrsh %[y], [%[b], %[i]]\n\t"  // xb
      "ldr %[z], %[b_mul_lo]\n\t"
      "muls %[z], %[y]\n\t"
      "add %[z], %[b_round]\n\t"
      "asrs %[z], %[z], #16\n\t"
      "ldr %[x], %[b_mul_hi]\n\t"
      "muls %[x], %[y]\n\t"
      "adds %[z], %[z], %[x]\n\t"
      "asrs %[y], %[y], #31\n\t"
      "adds %[z], %[z], %[y]\n\t"
      "ldr %[x], %[b_right]\n\t"
      "asrs %[z], %[x]\n\t"  // b'
      "ldrsh %[x], [%[a], %[i]]\n\t"
      "lsls %[x], %[x], #14\n\t"
      "adds %[x], %[x], %[z]\n\t"  // raw
      "uxth %[y], %[x]\n\t"        // lo
      "asrs %[x], %[x], #16\n\t"   // hi
      "asrs %[w], %[x], #31\n\t"
      "lsls %[w], %[w], #15\n\t"
      "add %[w], %[mid_round]\n\t"
      "ldr %[z], %[out_lo]\n\t"
      "muls %[z], %[x]\n\t"  // hi * out_lo
      "adds %[w], %[w], %[z]\n\t"
      "ldr %[z], %[out_lo]\n\t"
      "muls %[z], %[y]\n\t"  // lo * out_lo
      "asrs %[z], %[z], #16\n\t"
      "adds %[w], %[w], %[z]\n\t"
      "ldr %[z], %[out_hi]\n\t"
      "muls %[y], %[z]\n\t"  // lo * out_hi
      "adds %[w], %[w], %[y]\n\t"
      "lsrs %[w], %[w], #16\n\t"
      "muls %[x], %[z]\n\t"  // hi * out_hi
      "adds %[x], %[x], %[w]\n\t"
      "add %[x], %[out_round]\n\t"
      "ldr %[z], %[out_right]\n\t"
      "asrs %[x], %[z]\n\t"
      "cmp %[x], %[act_min]\n\t"
      "bge 2f\n\t"
      "mov %[x], %[act_min]\n"
      "2:\n\t"
      "cmp %[x], %[act_max]\n\t"
      "ble 3f\n\t"
      "mov %[x], %[act_max]\n"
      "3:\n\t"
      "strh %[x], [%[out], %[i]]\n\t"
      "adds %[i], #2\n\t"
      "bne 1b\n\t"
      : [i] "+l"(i), [x] "=&l"(x), [y] "=&l"(y), [z] "=&l"(z), [w] "=&l"(w)
      : [a] "l"(a_end), [b] "l"(b_end), [out] "l"(out_end), [b_mul_lo] "m"(k.b_mul_lo),
        [b_mul_hi] "m"(k.b_mul_hi), [b_right] "m"(k.b_right), [out_lo] "m"(k.out_lo),
        [out_hi] "m"(k.out_hi), [out_right] "m"(k.out_right), [b_round] "h"(k.b_round),
        [mid_round] "h"(k.mid_round), [out_round] "h"(k.out_round), [act_min] "h"(k.act_min),
        [act_max] "h"(k.act_max)
      : "cc", "memory");
#else
  const Add16x8Constants k = constants;
  for (int32_t i = 0; i < count; ++i) {
    const int32_t xb = b[i];
    const int32_t b_scaled = (xb * k.b_mul_hi + ((xb * k.b_mul_lo + k.b_round) >> 16) + (xb >> 31)) >> k.b_right;
    const int32_t raw = a[i] * (1 << 14) + b_scaled;
    const int32_t hi = raw >> 16;
    const int32_t lo = raw & 0xFFFF;
    const uint32_t mid = static_cast<uint32_t>(hi * k.out_lo) + static_cast<uint32_t>(lo * k.out_hi) +
                         static_cast<uint32_t>((lo * k.out_lo) >> 16) - (static_cast<uint32_t>(hi >> 31) & 0x8000u) +
                         k.mid_round;
    const int32_t y = (hi * k.out_hi + static_cast<int32_t>(mid >> 16) + k.out_round) >> k.out_right;
    out[i] = static_cast<int16_t>(y < k.act_min ? k.act_min : (y > k.act_max ? k.act_max : y));
  }
#endif
}

}  // namespace mote::v6m
