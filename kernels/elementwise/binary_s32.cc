// Reference int32 ADD, SUB and MUL with broadcasting: the int32 result wrapping around on
// overflow, clamped to [act_min, act_max] (elementwise.h).
#include "elementwise/broadcast_walk.h"
#include "elementwise/elementwise.h"
#include "quant/quant_math.h"

namespace mote {

Status binary_s32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_broadcast_binary(ctx, DType::kInt32, DType::kInt32, sizeof(BinaryS32Params)));
  const BinaryS32Params& p = ctx.params<BinaryS32Params>();
  return p.act_min <= p.act_max ? Status::kOk : Status::kBadParams;
}

void add_s32_run(const OpContext& ctx) {
  const BinaryS32Params& p = ctx.params<BinaryS32Params>();
  run_broadcast_binary<int32_t, int32_t>(
      ctx, [&p](int32_t a, int32_t b) { return clamp_i32(wrapping_add(a, b), p.act_min, p.act_max); });
}

void sub_s32_run(const OpContext& ctx) {
  const BinaryS32Params& p = ctx.params<BinaryS32Params>();
  run_broadcast_binary<int32_t, int32_t>(
      ctx, [&p](int32_t a, int32_t b) { return clamp_i32(wrapping_sub(a, b), p.act_min, p.act_max); });
}

void mul_s32_run(const OpContext& ctx) {
  const BinaryS32Params& p = ctx.params<BinaryS32Params>();
  run_broadcast_binary<int32_t, int32_t>(
      ctx, [&p](int32_t a, int32_t b) { return clamp_i32(wrapping_mul(a, b), p.act_min, p.act_max); });
}

const KernelEntry kAddS32Entry = {binary_s32_check, add_s32_run};
const KernelEntry kSubS32Entry = {binary_s32_check, sub_s32_run};
const KernelEntry kMulS32Entry = {binary_s32_check, mul_s32_run};

}  // namespace mote
