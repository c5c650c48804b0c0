// Reference int32 DIV with broadcasting: TFLite's truncating quotient, clamped to the
// fused activation (see elementwise.h for the zero divisor and INT32_MIN / -1).
#include "elementwise/broadcast_walk.h"
#include "elementwise/elementwise.h"
#include "quant/quant_math.h"

namespace mote {

int32_t div_s32_value(int32_t a, int32_t b) {
  if (b == 0) return 0;
  if (b == -1) return wrapping_neg(a);  // INT32_MIN / -1 overflows: INT32_MIN, as SDIV
  return a / b;
}

// The int32 add/sub/mul check: int32 tensors that broadcast, act_min <= act_max.
Status div_s32_check(const OpContext& ctx) { return binary_s32_check(ctx); }

void div_s32_run(const OpContext& ctx) {
  const BinaryS32Params& p = ctx.params<BinaryS32Params>();
  run_broadcast_binary<int32_t, int32_t>(
      ctx, [&p](int32_t a, int32_t b) { return clamp_i32(div_s32_value(a, b), p.act_min, p.act_max); });
}

const KernelEntry kDivS32Entry = {div_s32_check, div_s32_run};

}  // namespace mote
