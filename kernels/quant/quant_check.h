// Helpers for the integer kernels' check() functions (internal to kernels/).
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

inline bool is_s8(const TensorDesc& t) { return has_dtype(t, DType::kInt8); }
inline bool is_s16(const TensorDesc& t) { return has_dtype(t, DType::kInt16); }
inline bool is_s32(const TensorDesc& t) { return has_dtype(t, DType::kInt32); }
inline bool is_s64(const TensorDesc& t) { return has_dtype(t, DType::kInt64); }

// The value range of an integer element type.
template <typename T>
struct IntRange;
template <>
struct IntRange<int8_t> {
  static constexpr int32_t kMin = -128;
  static constexpr int32_t kMax = 127;
  static constexpr DType kDType = DType::kInt8;
};
template <>
struct IntRange<uint8_t> {
  static constexpr int32_t kMin = 0;
  static constexpr int32_t kMax = 255;
  static constexpr DType kDType = DType::kUInt8;
};
template <>
struct IntRange<int16_t> {
  static constexpr int32_t kMin = -32768;
  static constexpr int32_t kMax = 32767;
  static constexpr DType kDType = DType::kInt16;
};
template <>
struct IntRange<int32_t> {
  static constexpr int32_t kMin = INT32_MIN;
  static constexpr int32_t kMax = INT32_MAX;
  static constexpr DType kDType = DType::kInt32;
};

// A zero point representable in T (TFLite stores it in the tensor's own type range).
template <typename T>
bool valid_zero_point(int32_t zero_point) {
  return zero_point >= IntRange<T>::kMin && zero_point <= IntRange<T>::kMax;
}

// A fused activation range inside T's range and not empty.
template <typename T>
bool valid_quant_range(int32_t act_min, int32_t act_max) {
  return IntRange<T>::kMin <= act_min && act_min <= act_max && act_max <= IntRange<T>::kMax;
}

// params_bytes() == header_bytes + arrays * count * 4 (int32 arrays after the header).
inline bool params_with_arrays(const OpContext& ctx, uint32_t header_bytes, uint32_t arrays,
                               uint32_t count) {
  const uint64_t expected = uint64_t{header_bytes} + uint64_t{arrays} * count * 4u;
  return ctx.params_bytes() == expected;
}

// The int32 array `index` (0-based) of length `count` that follows a params header.
template <typename P>
const int32_t* params_array(const P& header, uint32_t index, uint32_t count) {
  static_assert(sizeof(P) % 4 == 0, "arrays after the header stay 4-aligned");
  return reinterpret_cast<const int32_t*>(&header + 1) + index * count;
}

// Every shift in shifts[0..count) lies in [lo, hi].
inline bool shifts_in_range(const int32_t* shifts, uint32_t count, int32_t lo, int32_t hi) {
  for (uint32_t i = 0; i < count; ++i) {
    if (shifts[i] < lo || shifts[i] > hi) return false;
  }
  return true;
}

}  // namespace mote
