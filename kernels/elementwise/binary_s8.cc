// Reference int8 add, sub and mul with broadcasting, bit-exact with TFLite's integer
// reference kernels (see elementwise.h for the arithmetic).
#include "elementwise/binary_quant.h"

namespace mote {

using AddS8 = binary_quant::AddSub<kAddSubLeftShiftS8, +1>;
using SubS8 = binary_quant::AddSub<kAddSubLeftShiftS8, -1>;

Status add_sub_s8_check(const OpContext& ctx) { return binary_quant::check_add_sub<int8_t>(ctx); }
Status mul_s8_check(const OpContext& ctx) { return binary_quant::check_mul<int8_t>(ctx); }

void add_s8_run(const OpContext& ctx) { binary_quant::run<int8_t, AddS8>(ctx); }
void sub_s8_run(const OpContext& ctx) { binary_quant::run<int8_t, SubS8>(ctx); }
void mul_s8_run(const OpContext& ctx) { binary_quant::run<int8_t, binary_quant::Mul>(ctx); }

const KernelEntry kAddS8Entry = {add_sub_s8_check, add_s8_run};
const KernelEntry kSubS8Entry = {add_sub_s8_check, sub_s8_run};
const KernelEntry kMulS8Entry = {mul_s8_check, mul_s8_run};

}  // namespace mote
