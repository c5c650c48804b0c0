// numpy broadcasting for the per-op tests' oracles (binary ops): element counts and, for
// each output element, which input element an operand of a broadcast shape supplies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mote::testing {

inline size_t elements(const std::vector<int32_t>& shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

// For each element of `out`, the flat index of the element of `in` numpy broadcasting
// reads (shapes right-aligned, size-1 dims repeated).
inline std::vector<size_t> broadcast_index(const std::vector<int32_t>& in, const std::vector<int32_t>& out) {
  std::vector<size_t> result(elements(out));
  const size_t pad = out.size() - in.size();
  for (size_t n = 0; n < result.size(); ++n) {
    size_t rest = n, index = 0, stride = 1;
    for (size_t k = out.size(); k-- > 0;) {
      const size_t coord = rest % static_cast<size_t>(out[k]);
      rest /= static_cast<size_t>(out[k]);
      if (k >= pad) {
        const size_t dim = static_cast<size_t>(in[k - pad]);
        if (dim != 1) index += coord * stride;
        stride *= dim;
      }
    }
    result[n] = index;
  }
  return result;
}

// The quantization of a quantized binary op's inputs a, b and output y.
struct BinaryQuantCase {
  float a_scale;
  int32_t a_zp;
  float b_scale;
  int32_t b_zp;
  float y_scale;
  int32_t y_zp;
};

}  // namespace mote::testing
