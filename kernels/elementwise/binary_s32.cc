// Reference int32 ADD, SUB and MUL with broadcasting, as TFLite's reference_ops over
// int32 (TFLM add.cc, sub.cc, mul_common.cc): two's-complement wrapping arithmetic (what
// the Cortex-M's ADD, SUB and MUL give where C++ leaves the overflow undefined), then the
// clamp to [act_min, act_max] (see elementwise.h).
#include "elementwise/broadcast_walk.h"
#include "elementwise/elementwise.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

Status check_s32(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_broadcast_binary(ctx, DType::kInt32, DType::kInt32, sizeof(BinaryS32Params)));
  const BinaryS32Params& p = ctx.params<BinaryS32Params>();
  return p.act_min <= p.act_max ? Status::kOk : Status::kBadParams;
}

template <int32_t (*Op)(int32_t, int32_t)>
void run_s32(const OpContext& ctx) {
  const BinaryS32Params& p = ctx.params<BinaryS32Params>();
  run_broadcast_binary<int32_t, int32_t>(ctx, [&p](int32_t a, int32_t b) { return clamp_i32(Op(a, b), p.act_min, p.act_max); });
}

}  // namespace

Status add_s32_check(const OpContext& ctx) { return check_s32(ctx); }
Status sub_s32_check(const OpContext& ctx) { return check_s32(ctx); }
Status mul_s32_check(const OpContext& ctx) { return check_s32(ctx); }
void add_s32_run(const OpContext& ctx) { run_s32<wrapping_add>(ctx); }
void sub_s32_run(const OpContext& ctx) { run_s32<wrapping_sub>(ctx); }
void mul_s32_run(const OpContext& ctx) { run_s32<wrapping_mul>(ctx); }

const KernelEntry kAddS32Entry = {add_s32_check, add_s32_run};
const KernelEntry kSubS32Entry = {sub_s32_check, sub_s32_run};
const KernelEntry kMulS32Entry = {mul_s32_check, mul_s32_run};

}  // namespace mote
