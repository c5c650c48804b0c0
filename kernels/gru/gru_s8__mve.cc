// gru_s8 with Helium (MVE), bit-identical with gru_s8 (gru_integer.h's step with these
// matrix-row products; the centered int16 rows as the reference lays them out).
//
// Per eight values: one VLDRH of the int16 row for all rows of the pass, and per int8
// weight row one VLDRB.S16 and one VMLADAVA.S16 (wrapping int32, as the reference's sums):
// 7 instructions per 24 products for the three gate rows of a unit. The last n mod 8
// values are one predicated step.
#include "gru/gru.h"
#include "gru/gru_integer.h"
#include "isa/mve.h"

namespace mote {
namespace {

struct MveRows {
  // a[g] += row[g] . v over n values, g < kRows; the row pointers advance.
  template <int kRows>
  __attribute__((always_inline)) static void rows(const int8_t* row[], const int16_t* v, int32_t n, int32_t a[]) {
    for (int32_t steps = n / 8; steps > 0; --steps) {
      const mve::int16x8_t vx = mve::vldrhq_s16(v);
      v += 8;
      for (int g = 0; g < kRows; ++g) {
        a[g] = mve::vmladavaq_s16(a[g], vx, mve::vldrbq_s16(row[g]));
        row[g] += 8;
      }
    }
    if ((n & 7) != 0) {
      const mve::mve_pred16_t p = mve::vctp16q(static_cast<uint32_t>(n & 7));
      const mve::int16x8_t vx = mve::vldrhq_z_s16(v, p);
      for (int g = 0; g < kRows; ++g) a[g] = mve::vmladavaq_s16(a[g], vx, mve::vldrbq_z_s16(row[g], p));
    }
  }
};

}  // namespace

Status gru_s8__mve_check(const OpContext& ctx) { return gru_s8_check(ctx); }

void gru_s8__mve_run(const OpContext& ctx) { gru_integer_run<int8_t, int32_t, RowsDots<MveRows>>(ctx); }

const KernelEntry kGruS8MveEntry = {gru_s8__mve_check, gru_s8__mve_run};

}  // namespace mote
