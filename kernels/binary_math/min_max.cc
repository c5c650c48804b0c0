// Reference MAXIMUM / MINIMUM on float32, int8, int16, int32 and int64 (binary_math.h): the
// stored values compared, as TFLM's MaximumOp / MinimumOp.
#include "binary_math/binary_math.h"
#include "elementwise/broadcast_walk.h"

namespace mote {
namespace {

template <typename T>
void min_max(const OpContext& ctx) {
  if (ctx.params<MinMaxParams>().maximum) {
    run_broadcast_binary<T, T>(ctx, [](T a, T b) { return a > b ? a : b; });
  } else {
    run_broadcast_binary<T, T>(ctx, [](T a, T b) { return a < b ? a : b; });
  }
}

Status min_max_check(const OpContext& ctx, DType dtype) {
  MOTE_RETURN_IF_ERROR(check_broadcast_binary(ctx, dtype, dtype, sizeof(MinMaxParams)));
  const int32_t maximum = ctx.params<MinMaxParams>().maximum;
  return maximum == 0 || maximum == 1 ? Status::kOk : Status::kBadParams;
}

}  // namespace

Status min_max_f32_check(const OpContext& ctx) { return min_max_check(ctx, DType::kFloat32); }
Status min_max_s8_check(const OpContext& ctx) { return min_max_check(ctx, DType::kInt8); }
Status min_max_s16_check(const OpContext& ctx) { return min_max_check(ctx, DType::kInt16); }
Status min_max_s32_check(const OpContext& ctx) { return min_max_check(ctx, DType::kInt32); }
Status min_max_s64_check(const OpContext& ctx) { return min_max_check(ctx, DType::kInt64); }
void min_max_f32_run(const OpContext& ctx) { min_max<float>(ctx); }
void min_max_s8_run(const OpContext& ctx) { min_max<int8_t>(ctx); }
void min_max_s16_run(const OpContext& ctx) { min_max<int16_t>(ctx); }
void min_max_s32_run(const OpContext& ctx) { min_max<int32_t>(ctx); }
void min_max_s64_run(const OpContext& ctx) { min_max<int64_t>(ctx); }

const KernelEntry kMinMaxF32Entry = {min_max_f32_check, min_max_f32_run};
const KernelEntry kMinMaxS8Entry = {min_max_s8_check, min_max_s8_run};
const KernelEntry kMinMaxS16Entry = {min_max_s16_check, min_max_s16_run};
const KernelEntry kMinMaxS32Entry = {min_max_s32_check, min_max_s32_run};
const KernelEntry kMinMaxS64Entry = {min_max_s64_check, min_max_s64_run};

}  // namespace mote
