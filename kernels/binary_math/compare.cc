// Reference comparisons (EQUAL ... GREATER_EQUAL) with bool output (binary_math.h):
// float32, int16, int32, int64 and bool on the stored values, int8 rescaled as TFLite's
// ComparisonWithScaling.
#include "binary_math/binary_math.h"
#include "elementwise/broadcast_walk.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

template <typename T>
uint8_t compare(CompareFn fn, T a, T b) {
  switch (fn) {
    case CompareFn::kEqual: return a == b;
    case CompareFn::kNotEqual: return a != b;
    case CompareFn::kLess: return a < b;
    case CompareFn::kLessEqual: return a <= b;
    case CompareFn::kGreater: return a > b;
    case CompareFn::kGreaterEqual: return a >= b;
  }
  return 0;  // unreachable: check() accepts only the functions above
}

template <typename T>
void compare_raw(const OpContext& ctx) {
  const CompareFn fn = static_cast<CompareFn>(ctx.params<CompareParams>().fn);
  run_broadcast_binary<T, uint8_t>(ctx, [fn](T a, T b) { return compare(fn, a, b); });
}

Status compare_check(const OpContext& ctx, DType dtype, uint32_t params_bytes, int32_t fn_count) {
  MOTE_RETURN_IF_ERROR(check_broadcast_binary(ctx, dtype, DType::kBool, params_bytes));
  const int32_t fn = ctx.params<CompareParams>().fn;  // every params struct starts with fn
  return fn >= 0 && fn < fn_count ? Status::kOk : Status::kBadParams;
}

}  // namespace

Status compare_f32_check(const OpContext& ctx) {
  return compare_check(ctx, DType::kFloat32, sizeof(CompareParams), kCompareFnCount);
}
Status compare_s16_check(const OpContext& ctx) {
  return compare_check(ctx, DType::kInt16, sizeof(CompareParams), kCompareFnCount);
}
Status compare_s32_check(const OpContext& ctx) {
  return compare_check(ctx, DType::kInt32, sizeof(CompareParams), kCompareFnCount);
}
Status compare_s64_check(const OpContext& ctx) {
  return compare_check(ctx, DType::kInt64, sizeof(CompareParams), kCompareFnCount);
}
// bool: equal and not_equal only (the first two functions).
Status compare_bool_check(const OpContext& ctx) { return compare_check(ctx, DType::kBool, sizeof(CompareParams), 2); }

Status compare_s8_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(compare_check(ctx, DType::kInt8, sizeof(CompareS8Params), kCompareFnCount));
  const CompareS8Params& p = ctx.params<CompareS8Params>();
  if (!valid_zero_point<int8_t>(p.input1_zero_point) || !valid_zero_point<int8_t>(p.input2_zero_point)) {
    return Status::kBadParams;
  }
  const int32_t shifts[2] = {p.input1_shift, p.input2_shift};
  return shifts_in_range(shifts, 2, kMinShift, 0) ? Status::kOk : Status::kBadParams;
}

void compare_f32_run(const OpContext& ctx) { compare_raw<float>(ctx); }
void compare_s16_run(const OpContext& ctx) { compare_raw<int16_t>(ctx); }
void compare_s32_run(const OpContext& ctx) { compare_raw<int32_t>(ctx); }
void compare_s64_run(const OpContext& ctx) { compare_raw<int64_t>(ctx); }
void compare_bool_run(const OpContext& ctx) {
  const CompareFn fn = static_cast<CompareFn>(ctx.params<CompareParams>().fn);
  run_broadcast_binary<uint8_t, uint8_t>(ctx, [fn](uint8_t a, uint8_t b) { return compare(fn, a != 0, b != 0); });
}

void compare_s8_run(const OpContext& ctx) {
  const CompareS8Params& p = ctx.params<CompareS8Params>();
  const CompareFn fn = static_cast<CompareFn>(p.fn);
  run_broadcast_binary<int8_t, uint8_t>(ctx, [&](int8_t a, int8_t b) {
    const int32_t a_scaled = multiply_by_quantized_multiplier(
        (a - p.input1_zero_point) * (1 << kCompareLeftShiftS8), p.input1_multiplier, p.input1_shift);
    const int32_t b_scaled = multiply_by_quantized_multiplier(
        (b - p.input2_zero_point) * (1 << kCompareLeftShiftS8), p.input2_multiplier, p.input2_shift);
    return compare(fn, a_scaled, b_scaled);
  });
}

const KernelEntry kCompareF32Entry = {compare_f32_check, compare_f32_run};
const KernelEntry kCompareS8Entry = {compare_s8_check, compare_s8_run};
const KernelEntry kCompareS16Entry = {compare_s16_check, compare_s16_run};
const KernelEntry kCompareS32Entry = {compare_s32_check, compare_s32_run};
const KernelEntry kCompareS64Entry = {compare_s64_check, compare_s64_run};
const KernelEntry kCompareBoolEntry = {compare_bool_check, compare_bool_run};

}  // namespace mote
