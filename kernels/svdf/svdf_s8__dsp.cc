// int8 SVDF with the Armv7E-M DSP extension, bit-identical with svdf_s8 (svdf_s8.cc; the
// loop nest is svdf_s8_variant.h's).
//
// Feature products (weights_feature . (x - input_zp)): four rows at a time against x
// widened on the fly, SXTAB16 adding the input offset to two int8 lanes at once
// (fully_connected_s8_dsp_core.h's dot_rows4_direct: 23 instructions per 16 products).
// Time products (weights_time . (state - state_zp)), each row copied into the new state
// (the shift) from the words the products load:
//   int8:  four elements per two words, both extended with SXTB16 (the state with the
//          offset, SXTAB16), two SMLADs;
//   int16: two elements per word, one SMLAD; a nonzero state zero point is taken out as
//          zp * sum(weights) (mod 2^32 that equals the reference's sum of w * (s - zp)).
// The remaining K mod 4 (int8) or K mod 2 (int16) elements run scalar. Each product loop
// is its own function: inlined into the loop nest, GCC spills its registers.
#include "fully_connected/fully_connected_s8_dsp_core.h"
#include "isa/dsp.h"
#include "svdf/svdf.h"
#include "svdf/svdf_s8_variant.h"

namespace mote {
namespace {

struct DspDots {
  static uint32_t offset2(int32_t zero_point) { return dsp::pack16(-zero_point, -zero_point); }

  static int32_t tail(const int8_t* w, const int8_t* x, int32_t begin, int32_t end, int32_t zp, int32_t acc) {
    uint32_t a = static_cast<uint32_t>(acc);
    for (int32_t i = begin; i < end; ++i) a += static_cast<uint32_t>(w[i] * (x[i] - zp));
    return static_cast<int32_t>(a);
  }

  MOTE_FC_DSP_HOT static void features4(const int8_t* w, int32_t inputs, const int8_t* x, int32_t zp, int32_t acc[4]) {
    const int32_t groups = inputs / 4;
    fc_dsp::dot_rows4_direct(w, inputs, x, offset2(zp), groups, acc);
    for (int32_t j = 0; j < 4; ++j) acc[j] = tail(w + j * inputs, x, groups * 4, inputs, zp, acc[j]);
  }

  MOTE_FC_DSP_HOT static int32_t features1(const int8_t* w, int32_t inputs, const int8_t* x, int32_t zp) {
    const int32_t groups = inputs / 4;
    return tail(w, x, groups * 4, inputs, zp, fc_dsp::dot_row_direct(w, x, offset2(zp), groups, 0));
  }

  MOTE_FC_DSP_HOT static int32_t time(const int8_t* w, const int8_t* old, int8_t* next, int32_t n, int32_t zp) {
    const uint32_t offset = offset2(zp);
    int32_t acc = 0;
    int32_t m = 0;
    for (; m + 4 <= n; m += 4) {
      const uint32_t sv = dsp::load_u32(old + m);
      dsp::store_u32(next + m, sv);
      const uint32_t wv = dsp::load_u32(w + m);
      acc = dsp::smlad(dsp::sxtb16(wv), dsp::sxtab16(offset, sv), acc);
      acc = dsp::smlad(dsp::sxtb16_ror8(wv), dsp::sxtab16_ror8(offset, sv), acc);
    }
    for (int32_t i = m; i < n; ++i) next[i] = old[i];
    return tail(w, old, m, n, zp, acc);
  }

  // sum_m a[m] (int16, any alignment), wrapping.
  static int32_t row_sum_s16(const int16_t* a, int32_t n) {
    const uint32_t ones = dsp::pack16(1, 1);
    int32_t acc = 0;
    int32_t m = 0;
    for (; m + 2 <= n; m += 2) acc = dsp::smlad(dsp::load_u32(a + m), ones, acc);
    if (m < n) acc = wrapping_add(acc, a[m]);
    return acc;
  }

  MOTE_FC_DSP_HOT static int32_t time(const int16_t* w, const int16_t* old, int16_t* next, int32_t n, int32_t zp) {
    const int16_t* const w0 = w;
    const int16_t* const end = old + n;
    const int16_t* const pairs_end = old + (n & ~1);
    const int16_t* const quads_end = old + (n & ~3);
    int32_t acc = 0;
    while (old != quads_end) {
      const uint32_t s01 = dsp::load_u32(old);
      const uint32_t s23 = dsp::load_u32(old + 2);
      old += 4;
      dsp::store_u32(next, s01);
      dsp::store_u32(next + 2, s23);
      next += 4;
      acc = dsp::smlad(dsp::load_u32(w), s01, acc);
      acc = dsp::smlad(dsp::load_u32(w + 2), s23, acc);
      w += 4;
    }
    if (old != pairs_end) {
      const uint32_t s01 = dsp::load_u32(old);
      old += 2;
      dsp::store_u32(next, s01);
      next += 2;
      acc = dsp::smlad(dsp::load_u32(w), s01, acc);
      w += 2;
    }
    if (old != end) {
      *next = *old;
      acc = wrapping_add(acc, *w * *old);
    }
    if (zp == 0) return acc;
    return static_cast<int32_t>(static_cast<uint32_t>(acc) -
                                static_cast<uint32_t>(zp) * static_cast<uint32_t>(row_sum_s16(w0, n)));
  }
};

}  // namespace

Status svdf_s8__dsp_check(const OpContext& ctx) { return svdf_s8_check(ctx); }

void svdf_s8__dsp_run(const OpContext& ctx) { svdf_variant::run_any<DspDots>(ctx); }

const KernelEntry kSvdfS8DspEntry = {svdf_s8__dsp_check, svdf_s8__dsp_run};

}  // namespace mote
