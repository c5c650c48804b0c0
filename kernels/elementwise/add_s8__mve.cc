// Helium (MVE) int8 ADD of two tensors of the output's shape (no broadcasting);
// bit-exact with add_s8 (binary_quant::AddSub, see elementwise.h). The loop and why it is
// exact: add_quant_mve.h (shared with add_s16__mve).
#include "elementwise/add_quant_mve.h"
#include "elementwise/elementwise.h"

namespace mote {

void add_s8__mve(const QuantAddSubParams& p, const int8_t* a, const int8_t* b,
                 int8_t* out, int32_t count) {
  add_quant_mve::add<int8_t, kAddSubLeftShiftS8>(p, a, b, out, count);
}

Status add_s8__mve_check(const OpContext& ctx) { return add_quant_mve::check(ctx, add_sub_s8_check); }

void add_s8__mve_run(const OpContext& ctx) { add_quant_mve::run<int8_t, kAddSubLeftShiftS8>(ctx); }

const KernelEntry kAddS8MveEntry = {add_s8__mve_check, add_s8__mve_run};

}  // namespace mote
