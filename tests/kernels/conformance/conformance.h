// The kernel conformance suite: every optimized kernel variant against its reference
// kernel, bit for bit, on seeded random cases (shapes, strides, padding, zero points,
// multipliers, activation ranges). The same sources build for the host (ctest
// kernel_conformance) and as one bare-metal firmware per Cortex-M core run under QEMU
// (ctest kernel_conformance_<core>), so each variant is checked on the core it is for
// as well as through its portable definition on the host.
//
// Freestanding C++17 like the kernels: no heap, no std containers, no gtest. Each case
// takes its buffers from Arena, reset between cases.
//
// A suite lives in <variant name>.cc beside this header and defines one
// `int run_<variant name>(Rng& rng, int cases)` that returns the number of failed cases.
// Every variant of kernels/kernel_registry.inc (a kernel whose reference is another)
// must have one: sources.cmake reads the registry, stops the configuration when a
// variant's file is missing, and generates the suite table (kSuites). Nothing else lists
// suites. sources.cmake feeds both the host test (ctest kernel_conformance, label unit)
// and the per-core firmware (platforms/cortex_m/conformance, ctest
// kernel_conformance_<core>, label qemu). Run one suite on the host with
// `kernel_conformance [cases] [variant]`.
//
// A suite calls the reference kernel and the variant directly (their plain functions
// over params/pointers/scratch), on buffers from arena(), and compares the outputs
// with expect_equal_*. Keep a case's buffers well under Arena::kBytes (cases are run on
// emulated cores too: a few hundred cases per suite should take seconds, not minutes).
// Each suite gets its own Rng seeded from its variant name, so adding a suite does not
// change the cases of the others.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace mote::conformance {

// xorshift32: the same sequence on every core and the host.
class Rng {
 public:
  explicit Rng(uint32_t seed) : state_(seed != 0 ? seed : 0x9E3779B9u) {}
  uint32_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_;
  }
  // Uniform in [lo, hi] (inclusive); hi >= lo.
  int32_t uniform(int32_t lo, int32_t hi) {
    // In uint32 arithmetic: the full int32 range must not overflow.
    const uint32_t span = static_cast<uint32_t>(hi) - static_cast<uint32_t>(lo) + 1u;
    const uint32_t offset = span == 0 ? next() : next() % span;
    return static_cast<int32_t>(static_cast<uint32_t>(lo) + offset);
  }
  bool coin() { return (next() & 1u) != 0; }

 private:
  uint32_t state_;
};

// Bump allocator over a static pool; reset() before each case. Fresh allocations are
// filled with one fixed byte (0xA5), so output a kernel leaves unwritten shows up. alloc()
// returns nullptr when the pool is exhausted (a suite then calls skip_case()).
class Arena {
 public:
  static constexpr size_t kBytes = 512 * 1024;
  void reset() { used_ = 0; }
  void* alloc(size_t bytes, size_t align = 16);
  template <typename T>
  T* alloc_array(size_t count) {
    return static_cast<T*>(alloc(count * sizeof(T), alignof(T) > 16 ? alignof(T) : 16));
  }

 private:
  size_t used_ = 0;
};
Arena& arena();

// Text output: stdout on the host, semihosting on a core.
void print(const char* text);
void print_int(int64_t value);

// Fills with random int8 values, or int8/int32 in [lo, hi].
void fill_s8(Rng& rng, int8_t* data, size_t count);
void fill_s8_range(Rng& rng, int8_t* data, size_t count, int32_t lo, int32_t hi);
void fill_s32(Rng& rng, int32_t* data, size_t count, int32_t lo, int32_t hi);

// Fills with floats uniform in [lo, hi] (24 random bits each).
void fill_f32(Rng& rng, float* data, size_t count, float lo, float hi);

// Float variants may sum in another order than their reference. True when every
// element is within the rounding bound of two summation orders of the same terms:
//   |expected - actual| <= terms * 2^-23 * magnitude[i] + 2^-126
// where magnitude[i] is the sum of the terms' absolute values (|bias| + sum |x * w|,
// e.g. the reference run on absolute values without activation) and terms the number
// of them: each order's error is at most about terms * 2^-24 * magnitude, and the
// fused activation (a clamp) does not widen a difference. A NaN in either fails.
// Otherwise prints the mismatch line of expect_equal_* with the two values as float bit
// patterns and returns false.
bool expect_close_f32(const char* variant, int case_index, const char* what, const float* expected,
                      const float* actual, const float* magnitude, int64_t terms, size_t count);

// True when expected and actual are equal; otherwise prints one line
// "<variant> case <n> (<what>): element <i>: expected <e>, got <a>" and returns false.
bool expect_equal_s8(const char* variant, int case_index, const char* what,
                     const int8_t* expected, const int8_t* actual, size_t count);
bool expect_equal_s16(const char* variant, int case_index, const char* what,
                      const int16_t* expected, const int16_t* actual, size_t count);
bool expect_equal_s32(const char* variant, int case_index, const char* what,
                      const int32_t* expected, const int32_t* actual, size_t count);

// A case the suite could not run because its buffers do not fit the arena: prints
// "<variant> case <n> skipped: <why>" (no number when case_index < 0) and counts it.
// A skipped case is not a pass: the pool is Arena::kBytes on the host and on every core,
// so every case a suite draws is required to run, and run_all() fails a suite that
// skipped any (shrink the suite's shapes, or grow the pool, until none is skipped).
void skip_case(const char* variant, int case_index, const char* why);
// The cases skipped since the last call (run_all() reads it after each suite).
int take_skipped_cases();

struct Suite {
  const char* variant;  // the variant's kernel name
  int (*run)(Rng& rng, int cases);
};
// Every suite (generated by sources.cmake).
extern const Suite kSuites[];
extern const size_t kSuiteCount;

}  // namespace mote::conformance
