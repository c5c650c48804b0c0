// int8 SVDF with Helium (MVE), bit-identical with svdf_s8 (svdf_s8.cc; the loop nest is
// svdf_s8_variant.h's).
//
// Every product sum w . (v - zp) is computed as w . v - zp * sum(w): mod 2^32 the two are
// equal, and the reference's sums wrap mod 2^32. So the int8 vectors are multiplied as they
// are, 16 lanes per VMLADAVA.S8 (int16 state: 8 lanes per VMLADAVA.S16), and a nonzero
// zero point adds one VADDVA of the weights per vector.
// Feature products: four rows at a time, x loaded once per 16 inputs for the four
// (13 instructions per 64 products with an input zero point, 9 without).
// Time products: one row, the state row and the weights row loaded per 16 (int8) or 8
// (int16) elements, the state row stored into the new state as it is loaded (the shift). The last K mod 16 (or mod 8) elements are one predicated step. Each
// product loop is its own function (inlined into the loop nest, GCC spills).
#include "isa/mve.h"
#include "svdf/svdf.h"
#include "svdf/svdf_s8_variant.h"

namespace mote {
namespace {

inline int32_t less_offset(int32_t dot, int32_t zp, int32_t wsum) {
  return static_cast<int32_t>(static_cast<uint32_t>(dot) - static_cast<uint32_t>(zp) * static_cast<uint32_t>(wsum));
}

// acc[j] = w_j . x and wsum[j] = sum(w_j) (kSum) over n int8 elements, rows w + j * stride.
template <bool kSum>
__attribute__((noinline)) void dot4_s8(const int8_t* w, int32_t stride, const int8_t* x, int32_t n, int32_t acc[4], int32_t wsum[4]) {
  const int8_t* w0 = w;
  const int8_t* w1 = w0 + stride;
  const int8_t* w2 = w1 + stride;
  const int8_t* w3 = w2 + stride;
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  auto step = [&](mve::int8x16_t vx, mve::int8x16_t v0, mve::int8x16_t v1, mve::int8x16_t v2,
                  mve::int8x16_t v3) {
    a0 = mve::vmladavaq_s8(a0, v0, vx);
    a1 = mve::vmladavaq_s8(a1, v1, vx);
    a2 = mve::vmladavaq_s8(a2, v2, vx);
    a3 = mve::vmladavaq_s8(a3, v3, vx);
    if (kSum) {
      s0 = mve::vaddvaq_s8(s0, v0);
      s1 = mve::vaddvaq_s8(s1, v1);
      s2 = mve::vaddvaq_s8(s2, v2);
      s3 = mve::vaddvaq_s8(s3, v3);
    }
  };
  for (int32_t steps = n / 16; steps > 0; --steps) {
    step(mve::vldrbq_s8(x), mve::vldrbq_s8(w0), mve::vldrbq_s8(w1), mve::vldrbq_s8(w2), mve::vldrbq_s8(w3));
    x += 16;
    w0 += 16;
    w1 += 16;
    w2 += 16;
    w3 += 16;
  }
  const int32_t rest = n % 16;
  if (rest != 0) {
    const mve::mve_pred16_t p = mve::vctp8q(static_cast<uint32_t>(rest));
    step(mve::vldrbq_z_s8(x, p), mve::vldrbq_z_s8(w0, p), mve::vldrbq_z_s8(w1, p), mve::vldrbq_z_s8(w2, p),
         mve::vldrbq_z_s8(w3, p));
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
  wsum[0] = s0;
  wsum[1] = s1;
  wsum[2] = s2;
  wsum[3] = s3;
}

// w . (v - zp) over n int8 elements; kStore: v copied to next as it is loaded.
template <bool kStore>
__attribute__((noinline)) int32_t dot1_s8(const int8_t* w, const int8_t* v, int8_t* next, int32_t n, int32_t zp) {
  int32_t acc = 0, wsum = 0;
  for (int32_t steps = n / 16; steps > 0; --steps) {
    const mve::int8x16_t vv = mve::vldrbq_s8(v);
    if (kStore) mve::vstrbq_s8(next, vv);
    const mve::int8x16_t vw = mve::vldrbq_s8(w);
    acc = mve::vmladavaq_s8(acc, vw, vv);
    wsum = mve::vaddvaq_s8(wsum, vw);
    w += 16;
    v += 16;
    if (kStore) next += 16;
  }
  if ((n & 15) != 0) {
    const mve::mve_pred16_t p = mve::vctp8q(static_cast<uint32_t>(n & 15));
    const mve::int8x16_t vv = mve::vldrbq_z_s8(v, p);
    if (kStore) mve::vstrbq_p_s8(next, vv, p);
    const mve::int8x16_t vw = mve::vldrbq_z_s8(w, p);
    acc = mve::vmladavaq_s8(acc, vw, vv);
    wsum = mve::vaddvaq_s8(wsum, vw);
  }
  return less_offset(acc, zp, wsum);
}

// w . (old - zp) over n int16 elements, old copied to next as it is loaded.
__attribute__((noinline)) int32_t dot1_s16(const int16_t* w, const int16_t* old, int16_t* next, int32_t n,
                                           int32_t zp) {
  int32_t acc = 0, wsum = 0;
  for (int32_t steps = n / 8; steps > 0; --steps) {
    const mve::int16x8_t vs = mve::vldrhq_s16(old);
    mve::vstrhq_s16(next, vs);
    const mve::int16x8_t vw = mve::vldrhq_s16(w);
    acc = mve::vmladavaq_s16(acc, vw, vs);
    if (zp != 0) wsum = mve::vaddvaq_s16(wsum, vw);
    w += 8;
    old += 8;
    next += 8;
  }
  if ((n & 7) != 0) {
    const mve::mve_pred16_t p = mve::vctp16q(static_cast<uint32_t>(n & 7));
    const mve::int16x8_t vs = mve::vldrhq_z_s16(old, p);
    mve::vstrhq_p_s16(next, vs, p);
    const mve::int16x8_t vw = mve::vldrhq_z_s16(w, p);
    acc = mve::vmladavaq_s16(acc, vw, vs);
    wsum = mve::vaddvaq_s16(wsum, vw);
  }
  return less_offset(acc, zp, wsum);
}

struct MveDots {
  static void features4(const int8_t* w, int32_t inputs, const int8_t* x, int32_t zp, int32_t acc[4]) {
    int32_t wsum[4];
    if (zp == 0) {
      dot4_s8<false>(w, inputs, x, inputs, acc, wsum);
      return;
    }
    dot4_s8<true>(w, inputs, x, inputs, acc, wsum);
    for (int32_t j = 0; j < 4; ++j) acc[j] = less_offset(acc[j], zp, wsum[j]);
  }
  static int32_t features1(const int8_t* w, int32_t inputs, const int8_t* x, int32_t zp) {
    return dot1_s8<false>(w, x, nullptr, inputs, zp);
  }
  static int32_t time(const int8_t* w, const int8_t* old, int8_t* next, int32_t n, int32_t zp) {
    return dot1_s8<true>(w, old, next, n, zp);
  }
  static int32_t time(const int16_t* w, const int16_t* old, int16_t* next, int32_t n, int32_t zp) {
    return dot1_s16(w, old, next, n, zp);
  }
};

}  // namespace

Status svdf_s8__mve_check(const OpContext& ctx) { return svdf_s8_check(ctx); }

void svdf_s8__mve_run(const OpContext& ctx) { svdf_variant::run_any<MveDots>(ctx); }

const KernelEntry kSvdfS8MveEntry = {svdf_s8__mve_check, svdf_s8__mve_run};

}  // namespace mote
