// gru_s8 with the Armv7E-M DSP extension, bit-identical with gru_s8 (gru_integer.h's step
// with these matrix-row products; the centered int16 rows as the reference lays them out).
//
// Per four values: the int16 row's two words (v0, v1), (v2, v3) are repacked once into
// (v0, v2), (v1, v3) (PKHBT, PKHTB) for all rows of the pass, and each int8 weight word
// costs two SXTB16 and two SMLADs: 17 + 2 instructions per 12 products for the three gate
// rows of a unit. The last n mod 4 values run scalar. The sums wrap in int32 as the
// reference's.
#include "gru/gru.h"
#include "gru/gru_integer.h"
#include "isa/dsp.h"

namespace mote {
namespace {

struct DspRows {
  // a[g] += row[g] . v over n values, g < kRows (1 to 3; written out per row so the
  // accumulators and row pointers stay in registers).
  template <int kRows>
  __attribute__((always_inline)) static void rows(const int8_t* row[], const int16_t* v, int32_t n, int32_t a[]) {
    static_assert(kRows >= 1 && kRows <= 3, "one to three rows");
    int32_t a0 = a[0], a1 = kRows > 1 ? a[1] : 0, a2 = kRows > 2 ? a[2] : 0;
    const int8_t* r0 = row[0];
    const int8_t* r1 = kRows > 1 ? row[1] : nullptr;
    const int8_t* r2 = kRows > 2 ? row[2] : nullptr;
    auto quad = [](const int8_t*& r, uint32_t v02, uint32_t v13, int32_t& acc) {
      const uint32_t wv = dsp::load_u32(r);
      r += 4;
      acc = dsp::smlad(dsp::sxtb16(wv), v02, acc);
      acc = dsp::smlad(dsp::sxtb16_ror8(wv), v13, acc);
    };
    const int16_t* const quads_end = v + (n & ~3);
    const int16_t* const end = v + n;
    while (v != quads_end) {
      const uint32_t v01 = dsp::load_u32(v);
      const uint32_t v23 = dsp::load_u32(v + 2);
      v += 4;
      const uint32_t v02 = dsp::pack_lo_lo(v01, v23);
      const uint32_t v13 = dsp::pkhtb_hi_hi(v01, v23);
      quad(r0, v02, v13, a0);
      if (kRows > 1) quad(r1, v02, v13, a1);
      if (kRows > 2) quad(r2, v02, v13, a2);
    }
    for (; v != end; ++v) {
      a0 = wrapping_add(a0, *r0++ * *v);
      if (kRows > 1) a1 = wrapping_add(a1, *r1++ * *v);
      if (kRows > 2) a2 = wrapping_add(a2, *r2++ * *v);
    }
    a[0] = a0;
    if (kRows > 1) a[1] = a1;
    if (kRows > 2) a[2] = a2;
  }
};

}  // namespace

Status gru_s8__dsp_check(const OpContext& ctx) { return gru_s8_check(ctx); }

void gru_s8__dsp_run(const OpContext& ctx) { gru_integer_run<int8_t, int32_t, RowsDots<DspRows>>(ctx); }

const KernelEntry kGruS8DspEntry = {gru_s8__dsp_check, gru_s8__dsp_run};

}  // namespace mote
