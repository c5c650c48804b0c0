// Reference FLOOR_DIV and FLOOR_MOD on float32 and int32 (binary_math.h), as TFLite's
// FloorDiv and FloorMod, with a zero int32 divisor defined (0) instead of an error.
#include <math.h>

#include "binary_math/binary_math.h"
#include "elementwise/broadcast_walk.h"

namespace mote {

float floor_div_f32_value(float a, float b) {
  return static_cast<float>(floor(static_cast<double>(a) / static_cast<double>(b)));
}

// The exact floor of a / b. TFLite floors the double quotient, which is the same: the
// quotient of two int32 values is never within double rounding of an integer it is not.
int32_t floor_div_s32_value(int32_t a, int32_t b) {
  if (b == 0) return 0;
  const int64_t q = static_cast<int64_t>(a) / b;  // truncated; INT32_MIN / -1 fits in int64
  const int64_t floored = (static_cast<int64_t>(a) % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  return floored > INT32_MAX ? INT32_MAX : static_cast<int32_t>(floored);
}

float floor_mod_f32_value(float a, float b) {
  const float r = fmodf(a, b);
  return (r != 0.0f && ((b < 0.0f) != (r < 0.0f))) ? r + b : r;
}

int32_t floor_mod_s32_value(int32_t a, int32_t b) {
  if (b == 0 || b == -1) return 0;  // x % -1 is 0; INT32_MIN % -1 would trap
  const int32_t r = a % b;
  return (r != 0 && ((b < 0) != (r < 0))) ? r + b : r;
}

Status floor_div_f32_check(const OpContext& ctx) {
  return check_broadcast_binary(ctx, DType::kFloat32, DType::kFloat32, 0);
}
Status floor_div_s32_check(const OpContext& ctx) {
  return check_broadcast_binary(ctx, DType::kInt32, DType::kInt32, 0);
}

void floor_div_f32_run(const OpContext& ctx) { run_broadcast_binary<float, float>(ctx, floor_div_f32_value); }
void floor_div_s32_run(const OpContext& ctx) { run_broadcast_binary<int32_t, int32_t>(ctx, floor_div_s32_value); }
void floor_mod_f32_run(const OpContext& ctx) { run_broadcast_binary<float, float>(ctx, floor_mod_f32_value); }
void floor_mod_s32_run(const OpContext& ctx) { run_broadcast_binary<int32_t, int32_t>(ctx, floor_mod_s32_value); }

// FLOOR_MOD checks the same as FLOOR_DIV.
const KernelEntry kFloorDivF32Entry = {floor_div_f32_check, floor_div_f32_run};
const KernelEntry kFloorDivS32Entry = {floor_div_s32_check, floor_div_s32_run};
const KernelEntry kFloorModF32Entry = {floor_div_f32_check, floor_mod_f32_run};
const KernelEntry kFloorModS32Entry = {floor_div_s32_check, floor_mod_s32_run};

}  // namespace mote
