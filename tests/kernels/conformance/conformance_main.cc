// Runs every conformance suite (the table sources.cmake generates) with a fixed seed and
// case count and prints
//   <variant>: <N> cases, <F> failed, <K> skipped
// per suite (with " FAILED" when F or K is not zero), then
//   conformance: <S> suites, <F> failed cases, <K> skipped cases
// Exit status 0 when no case failed and none was skipped (skip_case(), conformance.h),
// 1 otherwise (on a core the status reaches the host through semihosting).
//
// Host:     kernel_conformance [cases] [variant]   (defaults: kDefaultCases, every suite)
// Firmware: the case count may be given as the last word of the semihosting command
//           line (qemu ... -semihosting-config enable=on,target=native,arg=<cases>).
#include <stdint.h>
#include <string.h>

#include "conformance.h"

#if defined(MOTE_CONFORMANCE_FIRMWARE)
#include "semihost.h"
#endif

namespace mote::conformance {
namespace {

constexpr int kDefaultCases = 200;
constexpr uint32_t kSeed = 0x4D6F7465u;  // "Mote"

// FNV-1a of the variant name mixed into the seed: each suite has its own sequence.
uint32_t suite_seed(const char* name) {
  uint32_t h = 2166136261u;
  for (const char* p = name; *p != '\0'; ++p) h = (h ^ static_cast<uint8_t>(*p)) * 16777619u;
  return h ^ kSeed;
}

// A positive decimal number, or -1.
int parse_count(const char* text) {
  if (text == nullptr || *text == '\0') return -1;
  int64_t value = 0;
  for (const char* p = text; *p != '\0'; ++p) {
    if (*p < '0' || *p > '9') return -1;
    value = value * 10 + (*p - '0');
    if (value > 100000000) return -1;
  }
  return static_cast<int>(value);
}

int run_all(int cases, const char* only) {
  int total_failed = 0;
  int total_skipped = 0;
  int suites = 0;
  take_skipped_cases();
  for (size_t s = 0; s < kSuiteCount; ++s) {
    const Suite& suite = kSuites[s];
    if (only != nullptr && strcmp(only, suite.variant) != 0) continue;
    Rng rng(suite_seed(suite.variant));
    const int failed = suite.run(rng, cases);
    const int skipped = take_skipped_cases();
    arena().reset();
    print(suite.variant);
    print(": ");
    print_int(cases);
    print(" cases, ");
    print_int(failed);
    print(" failed, ");
    print_int(skipped);
    print(failed != 0 || skipped != 0 ? " skipped FAILED\n" : " skipped\n");
    total_failed += failed;
    total_skipped += skipped;
    ++suites;
  }
  print("conformance: ");
  print_int(suites);
  print(" suites, ");
  print_int(total_failed);
  print(" failed cases, ");
  print_int(total_skipped);
  print(" skipped cases\n");
  if (only != nullptr && suites == 0) {
    print("conformance: no suite named ");
    print(only);
    print("\n");
    return 1;
  }
  return total_failed == 0 && total_skipped == 0 ? 0 : 1;
}

}  // namespace
}  // namespace mote::conformance

#if defined(MOTE_CONFORMANCE_FIRMWARE)
int main() {
  static char command_line[256];
  int cases = mote::conformance::kDefaultCases;
  const int32_t length = mote::semihost::get_cmdline(command_line, sizeof(command_line));
  if (length > 0) {
    const char* last = command_line;
    for (const char* p = command_line; *p != '\0'; ++p) {
      if (*p == ' ') last = p + 1;
    }
    const int parsed = mote::conformance::parse_count(last);
    if (parsed > 0) cases = parsed;
  }
  return mote::conformance::run_all(cases, nullptr);
}
#else
int main(int argc, char** argv) {
  int cases = mote::conformance::kDefaultCases;
  if (argc > 1) {
    cases = mote::conformance::parse_count(argv[1]);
    if (cases <= 0) {
      mote::conformance::print("usage: kernel_conformance [cases] [variant]\n");
      return 2;
    }
  }
  return mote::conformance::run_all(cases, argc > 2 ? argv[2] : nullptr);
}
#endif
