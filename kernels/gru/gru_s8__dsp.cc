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
  // a[g] += row[g] . v over n values, g < kRows; the row pointers advance.
  template <int kRows>
  __attribute__((always_inline)) static void rows(const int8_t* row[], const int16_t* v, int32_t n, int32_t a[]) {
    const int16_t* const quads_end = v + (n & ~3);
    const int16_t* const end = v + n;
    while (v != quads_end) {
      const uint32_t v01 = dsp::load_u32(v);
      const uint32_t v23 = dsp::load_u32(v + 2);
      v += 4;
      const uint32_t v02 = dsp::pack_lo_lo(v01, v23);
      const uint32_t v13 = dsp::pkhtb_hi_hi(v01, v23);
      for (int g = 0; g < kRows; ++g) {
        const uint32_t wv = dsp::load_u32(row[g]);
        row[g] += 4;
        a[g] = dsp::smlad(dsp::sxtb16(wv), v02, a[g]);
        a[g] = dsp::smlad(dsp::sxtb16_ror8(wv), v13, a[g]);
      }
    }
    for (; v != end; ++v) {
      for (int g = 0; g < kRows; ++g) a[g] = wrapping_add(a[g], *row[g]++ * *v);
    }
  }
};

}  // namespace

Status gru_s8__dsp_check(const OpContext& ctx) { return gru_s8_check(ctx); }

void gru_s8__dsp_run(const OpContext& ctx) { gru_integer_run<int8_t, int32_t, RowsDots<DspRows>>(ctx); }

const KernelEntry kGruS8DspEntry = {gru_s8__dsp_check, gru_s8__dsp_run};

}  // namespace mote
