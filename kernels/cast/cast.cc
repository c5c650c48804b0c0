// Reference CAST (cast.h): one loop per (input, output) dtype pair.
#include "cast/cast.h"

#include "kernel_util.h"

namespace mote {
namespace {

// float -> int32 as Arm converts it: toward zero, saturated, NaN to 0.
int32_t float_to_int32(float v) {
  if (!(v == v)) return 0;
  if (v >= 2147483648.0f) return INT32_MAX;
  if (v <= -2147483648.0f) return INT32_MIN;
  return static_cast<int32_t>(v);
}

template <typename To>
To from_int32(int32_t v) {
  return static_cast<To>(static_cast<uint32_t>(v));  // the low bits: wraps
}
template <>
float from_int32<float>(int32_t v) {
  return static_cast<float>(v);
}

template <typename From>
int32_t to_int32(From v) {
  return static_cast<int32_t>(v);
}
template <>
int32_t to_int32<float>(float v) {
  return float_to_int32(v);
}
template <>
int32_t to_int32<int64_t>(int64_t v) {
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));  // the low bits
}

// bool is read as a byte; every other type as itself.
template <typename From, typename To>
To convert(From v) {
  return from_int32<To>(to_int32(v));
}
template <>
float convert<float, float>(float v) {
  return v;
}
template <>
float convert<int64_t, float>(int64_t v) {
  return static_cast<float>(v);  // not through int32: every int64 rounds to its nearest float
}
// To int64: integers sign-extended (int64 copied), float32 as Arm converts to int64
// (toward zero, saturated, NaN 0: __aeabi_f2lz).
template <>
int64_t convert<int64_t, int64_t>(int64_t v) {
  return v;
}
template <>
int64_t convert<float, int64_t>(float v) {
  if (!(v == v)) return 0;
  if (v >= 9223372036854775808.0f) return INT64_MAX;
  if (v <= -9223372036854775808.0f) return INT64_MIN;
  return static_cast<int64_t>(v);
}
template <>
int64_t convert<int8_t, int64_t>(int8_t v) {
  return v;
}
template <>
int64_t convert<int16_t, int64_t>(int16_t v) {
  return v;
}
template <>
int64_t convert<int32_t, int64_t>(int32_t v) {
  return v;
}
template <>
int64_t convert<uint8_t, int64_t>(uint8_t v) {
  return v;  // bool's byte, read only through from_bool
}

template <typename From, typename To>
void cast_loop(uint32_t count, const void* input, void* output, bool from_bool) {
  const From* in = static_cast<const From*>(input);
  To* out = static_cast<To*>(output);
  for (uint32_t i = 0; i < count; ++i) out[i] = from_bool ? static_cast<To>(in[i] != 0) : convert<From, To>(in[i]);
}

template <typename From>
void cast_from(DType to, uint32_t count, const void* in, void* out, bool from_bool) {
  switch (to) {
    case DType::kInt8: return cast_loop<From, int8_t>(count, in, out, from_bool);
    case DType::kInt16: return cast_loop<From, int16_t>(count, in, out, from_bool);
    case DType::kInt32: return cast_loop<From, int32_t>(count, in, out, from_bool);
    case DType::kInt64: return cast_loop<From, int64_t>(count, in, out, from_bool);
    default: return cast_loop<From, float>(count, in, out, from_bool);  // float32
  }
}

bool readable(DType d) {
  return d == DType::kFloat32 || d == DType::kInt8 || d == DType::kInt16 || d == DType::kInt32 || d == DType::kInt64 ||
         d == DType::kBool;
}
bool writable(DType d) {
  return d == DType::kFloat32 || d == DType::kInt8 || d == DType::kInt16 || d == DType::kInt32 || d == DType::kInt64;
}

}  // namespace

Status cast_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != 0) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!readable(static_cast<DType>(in.dtype)) || !writable(static_cast<DType>(out.dtype)) || !same_shape(in, out)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void cast_run(const OpContext& ctx) {
  const TensorDesc& in_desc = ctx.input_desc(0);
  const DType to = static_cast<DType>(ctx.output_desc(0).dtype);
  const uint32_t count = element_count(in_desc);
  const void* in = ctx.input_data(0);
  void* out = ctx.output_data(0);
  switch (static_cast<DType>(in_desc.dtype)) {
    case DType::kInt8: return cast_from<int8_t>(to, count, in, out, false);
    case DType::kInt16: return cast_from<int16_t>(to, count, in, out, false);
    case DType::kInt32: return cast_from<int32_t>(to, count, in, out, false);
    case DType::kInt64: return cast_from<int64_t>(to, count, in, out, false);
    case DType::kBool: return cast_from<uint8_t>(to, count, in, out, true);
    default: return cast_from<float>(to, count, in, out, false);  // float32
  }
}

const KernelEntry kCastEntry = {cast_check, cast_run};

}  // namespace mote
