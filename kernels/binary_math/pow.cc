// Reference POW on float32 (binary_math.h): the C library's powf per element.
#include <math.h>

#include "binary_math/binary_math.h"
#include "elementwise/broadcast_walk.h"

namespace mote {

float pow_f32_value(float a, float b) { return powf(a, b); }

Status pow_f32_check(const OpContext& ctx) {
  return check_broadcast_binary(ctx, DType::kFloat32, DType::kFloat32, 0);
}

void pow_f32_run(const OpContext& ctx) { run_broadcast_binary<float, float>(ctx, pow_f32_value); }

const KernelEntry kPowF32Entry = {pow_f32_check, pow_f32_run};

}  // namespace mote
