// The conformance suite's shared pieces: the case arena, text output and comparison.
// Text goes through conformance_sink() (sink.h), defined once per platform: host_sink.cc
// writes to stdout, platforms/cortex_m/conformance/semihost_sink.cc to the semihosting
// console.
#include "conformance.h"

#include <string.h>

#include "sink.h"

namespace mote::conformance {
namespace {

// The firmware build places the pool in the workspace region (.noinit, never zeroed
// by startup and 16 MiB on every QEMU machine), so its size does not count against the
// machine's RAM (the Cortex-M55 board has 512 KiB of DTCM).
#if defined(MOTE_CONFORMANCE_POOL_IN_WORKSPACE)
__attribute__((section(".noinit.mote_conformance_pool")))
#endif
alignas(16) uint8_t g_pool[Arena::kBytes];

Arena g_arena;
int g_skipped_cases = 0;

// Fresh allocations are filled with this byte so that a kernel reading memory it did
// not write (or leaving output untouched) sees the same garbage in both runs.
constexpr uint8_t kFill = 0xA5;

}  // namespace

void* Arena::alloc(size_t bytes, size_t align) {
  if (align == 0) align = 1;
  size_t start = (used_ + align - 1) / align * align;
  if (start > kBytes || bytes > kBytes - start) return nullptr;
  used_ = start + bytes;
  memset(g_pool + start, kFill, bytes);
  return g_pool + start;
}

Arena& arena() { return g_arena; }

void print(const char* text) { conformance_sink(text); }

void print_int(int64_t value) {
  char digits[24];
  uint64_t magnitude = value < 0 ? 0u - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  size_t n = sizeof(digits) - 1;
  digits[n] = '\0';
  do {
    digits[--n] = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  if (value < 0) digits[--n] = '-';
  conformance_sink(digits + n);
}

void fill_s8(Rng& rng, int8_t* data, size_t count) {
  for (size_t i = 0; i < count; ++i) data[i] = static_cast<int8_t>(rng.next() >> 24);
}

void fill_s8_range(Rng& rng, int8_t* data, size_t count, int32_t lo, int32_t hi) {
  for (size_t i = 0; i < count; ++i) data[i] = static_cast<int8_t>(rng.uniform(lo, hi));
}

void fill_s32(Rng& rng, int32_t* data, size_t count, int32_t lo, int32_t hi) {
  for (size_t i = 0; i < count; ++i) data[i] = rng.uniform(lo, hi);
}

void fill_f32(Rng& rng, float* data, size_t count, float lo, float hi) {
  for (size_t i = 0; i < count; ++i) {
    const float unit = static_cast<float>(rng.next() >> 8) * (1.0f / 16777216.0f);
    data[i] = lo + (hi - lo) * unit;
  }
}

namespace {

void report_mismatch(const char* variant, int case_index, const char* what, size_t element,
                     int64_t expected, int64_t actual) {
  print(variant);
  print(" case ");
  print_int(case_index);
  print(" (");
  print(what);
  print("): element ");
  print_int(static_cast<int64_t>(element));
  print(": expected ");
  print_int(expected);
  print(", got ");
  print_int(actual);
  print("\n");
}

}  // namespace

void skip_case(const char* variant, int case_index, const char* why) {
  ++g_skipped_cases;
  print(variant);
  if (case_index >= 0) {
    print(" case ");
    print_int(case_index);
  }
  print(" skipped: ");
  print(why);
  print("\n");
}

int take_skipped_cases() {
  const int skipped = g_skipped_cases;
  g_skipped_cases = 0;
  return skipped;
}

bool expect_equal_s8(const char* variant, int case_index, const char* what,
                     const int8_t* expected, const int8_t* actual, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (expected[i] != actual[i]) {
      report_mismatch(variant, case_index, what, i, expected[i], actual[i]);
      return false;
    }
  }
  return true;
}

bool expect_equal_s16(const char* variant, int case_index, const char* what,
                      const int16_t* expected, const int16_t* actual, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (expected[i] != actual[i]) {
      report_mismatch(variant, case_index, what, i, expected[i], actual[i]);
      return false;
    }
  }
  return true;
}

bool expect_equal_s32(const char* variant, int case_index, const char* what,
                      const int32_t* expected, const int32_t* actual, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (expected[i] != actual[i]) {
      report_mismatch(variant, case_index, what, i, expected[i], actual[i]);
      return false;
    }
  }
  return true;
}

bool expect_close_f32(const char* variant, int case_index, const char* what, const float* expected,
                      const float* actual, const float* magnitude, int64_t terms, size_t count) {
  constexpr double kUnit = 1.0 / 8388608.0;                   // 2^-23
  constexpr double kFloor = 1.1754943508222875e-38;           // 2^-126
  for (size_t i = 0; i < count; ++i) {
    const double e = expected[i], a = actual[i];
    const double bound = static_cast<double>(terms) * kUnit * static_cast<double>(magnitude[i]) + kFloor;
    const double diff = e > a ? e - a : a - e;
    if (!(diff <= bound)) {  // also NaN
      uint32_t eb, ab;
      memcpy(&eb, &expected[i], 4);
      memcpy(&ab, &actual[i], 4);
      report_mismatch(variant, case_index, what, i, eb, ab);
      return false;
    }
  }
  return true;
}

}  // namespace mote::conformance
