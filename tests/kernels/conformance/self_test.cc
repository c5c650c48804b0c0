// The harness checking itself on every core: Rng sequence, Arena bounds and fill,
// expect_equal_* on equal data. Fails loudly if the platform build is broken (e.g. a
// pool not where the firmware expects it), before any variant suite runs.
#include "conformance.h"

namespace mote::conformance {

int run_conformance_self_test(Rng& rng, int cases) {
  int failed = 0;
  // xorshift32 from seed 1: the first values are fixed on every platform.
  Rng fixed(1);
  const uint32_t first[3] = {270369u, 67634689u, 2647435461u};
  for (uint32_t want : first) {
    if (fixed.next() != want) {
      print("conformance_self_test: Rng sequence differs\n");
      ++failed;
      break;
    }
  }
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    const size_t n = static_cast<size_t>(rng.uniform(1, 4096));
    int8_t* x = a.alloc_array<int8_t>(n);
    int8_t* y = a.alloc_array<int8_t>(n);
    if (x == nullptr || y == nullptr || (reinterpret_cast<uintptr_t>(y) & 15u) != 0 ||
        y < x + n) {
      print("conformance_self_test: bad arena allocation\n");
      ++failed;
      continue;
    }
    if (x[0] != static_cast<int8_t>(0xA5) || y[n - 1] != static_cast<int8_t>(0xA5)) {
      print("conformance_self_test: arena fill missing\n");
      ++failed;
      continue;
    }
    fill_s8_range(rng, x, n, -3, 3);
    for (size_t i = 0; i < n; ++i) y[i] = x[i];
    bool ok = expect_equal_s8("conformance_self_test", c, "copy", x, y, n);
    for (size_t i = 0; i < n; ++i) ok = ok && x[i] >= -3 && x[i] <= 3;
    if (!ok) ++failed;
  }
  Arena& a = arena();
  a.reset();
  if (a.alloc(Arena::kBytes + 1) != nullptr || a.alloc(Arena::kBytes, 1) == nullptr ||
      a.alloc(1) != nullptr) {
    print("conformance_self_test: arena bounds\n");
    ++failed;
  }
  a.reset();
  return failed;
}

}  // namespace mote::conformance
