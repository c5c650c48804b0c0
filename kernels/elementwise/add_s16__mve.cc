// Helium (MVE) int16 ADD (TFLite 16x8: left shift 15) of two tensors of the output's
// shape (no broadcasting); bit-exact with add_s16 (binary_quant::AddSub, see
// elementwise.h). The loop and why it is exact: add_quant_mve.h (shared with add_s8__mve).
#include "elementwise/add_quant_mve.h"
#include "elementwise/elementwise.h"

namespace mote {

void add_s16__mve(const QuantAddSubParams& p, const int16_t* a, const int16_t* b,
                  int16_t* out, int32_t count) {
  add_quant_mve::add<int16_t, kAddSubLeftShiftS16>(p, a, b, out, count);
}

Status add_s16__mve_check(const OpContext& ctx) { return add_quant_mve::check(ctx, add_sub_s16_check); }

void add_s16__mve_run(const OpContext& ctx) { add_quant_mve::run<int16_t, kAddSubLeftShiftS16>(ctx); }

const KernelEntry kAddS16MveEntry = {add_s16__mve_check, add_s16__mve_run};

}  // namespace mote
