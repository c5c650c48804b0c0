// Reference int16 add, sub and mul with broadcasting (TFLite 16x8 arithmetic: ADD/SUB with
// left shift 15 and the general-scale path; MUL with zero points 0). See elementwise.h.
#include "elementwise/binary_quant.h"

namespace mote {

using AddS16 = binary_quant::AddSub<kAddSubLeftShiftS16, +1>;
using SubS16 = binary_quant::AddSub<kAddSubLeftShiftS16, -1>;

Status add_sub_s16_check(const OpContext& ctx) {
  return binary_quant::check_add_sub<int16_t>(ctx);
}

// TFLite refuses int16 MUL with non-zero zero points; (a - zp) * (b - zp) could then
// overflow int32.
Status mul_s16_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(binary_quant::check_mul<int16_t>(ctx));
  const QuantMulParams& p = ctx.params<QuantMulParams>();
  if (p.input1_zero_point != 0 || p.input2_zero_point != 0 || p.output_zero_point != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void add_s16_run(const OpContext& ctx) { binary_quant::run<int16_t, AddS16>(ctx); }
void sub_s16_run(const OpContext& ctx) { binary_quant::run<int16_t, SubS16>(ctx); }
void mul_s16_run(const OpContext& ctx) { binary_quant::run<int16_t, binary_quant::Mul>(ctx); }

const KernelEntry kAddS16Entry = {add_sub_s16_check, add_s16_run};
const KernelEntry kSubS16Entry = {add_sub_s16_check, sub_s16_run};
const KernelEntry kMulS16Entry = {mul_s16_check, mul_s16_run};

}  // namespace mote
