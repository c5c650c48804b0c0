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
  // a[g] += row[g] . v over n values, g < kRows (1 to 3; written out per row so the
  // accumulators and row pointers stay in registers).
  template <int kRows>
  __attribute__((always_inline)) static void rows(const int8_t* row[], const int16_t* v, int32_t n, int32_t a[]) {
    static_assert(kRows >= 1 && kRows <= 3, "one to three rows");
    int32_t a0 = a[0], a1 = kRows > 1 ? a[1] : 0, a2 = kRows > 2 ? a[2] : 0;
    const int8_t* r0 = row[0];
    const int8_t* r1 = kRows > 1 ? row[1] : nullptr;
    const int8_t* r2 = kRows > 2 ? row[2] : nullptr;
    for (int32_t steps = n / 8; steps > 0; --steps) {
      const mve::int16x8_t vx = mve::vldrhq_s16(v);
      v += 8;
      a0 = mve::vmladavaq_s16(a0, vx, mve::vldrbq_s16(r0));
      r0 += 8;
      if (kRows > 1) {
        a1 = mve::vmladavaq_s16(a1, vx, mve::vldrbq_s16(r1));
        r1 += 8;
      }
      if (kRows > 2) {
        a2 = mve::vmladavaq_s16(a2, vx, mve::vldrbq_s16(r2));
        r2 += 8;
      }
    }
    if ((n & 7) != 0) {
      const mve::mve_pred16_t p = mve::vctp16q(static_cast<uint32_t>(n & 7));
      const mve::int16x8_t vx = mve::vldrhq_z_s16(v, p);
      a0 = mve::vmladavaq_s16(a0, vx, mve::vldrbq_z_s16(r0, p));
      if (kRows > 1) a1 = mve::vmladavaq_s16(a1, vx, mve::vldrbq_z_s16(r1, p));
      if (kRows > 2) a2 = mve::vmladavaq_s16(a2, vx, mve::vldrbq_z_s16(r2, p));
    }
    a[0] = a0;
    if (kRows > 1) a[1] = a1;
    if (kRows > 2) a[2] = a2;
  }
};

}  // namespace

Status gru_s8__mve_check(const OpContext& ctx) { return gru_s8_check(ctx); }

void gru_s8__mve_run(const OpContext& ctx) { gru_integer_run<int8_t, int32_t, RowsDots<MveRows>>(ctx); }

const KernelEntry kGruS8MveEntry = {gru_s8__mve_check, gru_s8__mve_run};

}  // namespace mote
