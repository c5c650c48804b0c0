// Shared by the per-op tests of the operators that move elements without changing them
// (SPLIT, SPLIT_V, SLICE, PACK, UNPACK, EXPAND_DIMS, SQUEEZE, GATHER, GATHER_ND): the
// dtypes TensorFlow Lite Micro's kernels take for them, tensors of those dtypes (int8 and
// int16 quantized, as a quantized model holds them), distinct element values, and an
// oracle that builds an output element by element from the row-major index arithmetic a
// test states (never from Mote's kernels).
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "ops/op_test.h"

namespace mote::testing {

struct MovedType {
  fb::TensorType type;
  size_t bytes;  // per element
};

// int8, int16 (both quantized), int32, float32: what TFLM's data movement kernels take.
inline const std::vector<MovedType>& moved_types() {
  static const std::vector<MovedType> types = {{fb::TensorType::INT8, 1},
                                               {fb::TensorType::INT16, 2},
                                               {fb::TensorType::INT32, 4},
                                               {fb::TensorType::FLOAT32, 4}};
  return types;
}

inline std::string type_name(fb::TensorType t) { return fb::EnumNameTensorType(t); }

// A non-constant tensor of `t`: int8/int16 carry a per-tensor quantization (the moved
// bytes keep it).
inline TensorSpec moved_tensor(const std::string& name, std::vector<int32_t> shape, const MovedType& t) {
  if (t.type == fb::TensorType::INT8) return quantized(name, std::move(shape), t.type, 0.05f, -3);
  if (t.type == fb::TensorType::INT16) return quantized(name, std::move(shape), t.type, 0.001f, 0);
  return TensorSpec(name, std::move(shape), t.type);
}

inline int64_t elements_of(const std::vector<int32_t>& shape) {
  int64_t n = 1;
  for (int32_t d : shape) n *= d;
  return n;
}

// `count` elements of `t` as bytes, random but each a finite value (floats: no NaN, which
// would never compare equal); for int8 the values cycle through the whole range.
inline std::vector<uint8_t> random_elements(const MovedType& t, int64_t count, std::mt19937& rng) {
  std::vector<uint8_t> bytes(static_cast<size_t>(count) * t.bytes);
  for (int64_t i = 0; i < count; ++i) {
    uint8_t* p = &bytes[static_cast<size_t>(i) * t.bytes];
    if (t.type == fb::TensorType::FLOAT32) {
      const float v = std::uniform_real_distribution<float>(-1000.0f, 1000.0f)(rng);
      std::memcpy(p, &v, 4);
    } else {
      const uint32_t v = static_cast<uint32_t>(rng());
      std::memcpy(p, &v, t.bytes);
    }
  }
  return bytes;
}

// Runs test(case, type) for `cases` cases, each in one dtype in turn (case n in
// moved_types()[n % 4]) and case 0 in every dtype: every dtype meets several shapes
// without every shape running in every dtype.
inline void for_cases_across_types(size_t cases, const std::function<void(size_t, const MovedType&)>& test) {
  for (size_t n = 0; n < cases; ++n) {
    for (size_t k = 0; k < moved_types().size(); ++k)
      if (n == 0 || k == n % moved_types().size()) test(n, moved_types()[k]);
  }
}

// Each case of a test's list checked by expect_op_outputs in the dtypes
// for_cases_across_types picks, as "<prefix>_<dtype>_<case>" with two samples.
inline void expect_cases_across_types(const std::string& prefix, size_t cases,
                                      const std::function<ModelSpec(size_t, const MovedType&)>& model,
                                      const std::function<OpSample(size_t, const MovedType&)>& sample) {
  for_cases_across_types(cases, [&](size_t n, const MovedType& t) {
    const std::string name = prefix + "_" + type_name(t.type) + "_" + std::to_string(n);
    SCOPED_TRACE(name);
    expect_op_outputs(name, model(n, t), {sample(n, t), sample(n, t)});
  });
}

// A sample of an op over x [shape] of `t` (random) and int32 indices (GATHER,
// GATHER_ND): the indices follow x as the second graph input unless the model holds
// them as a constant; the expected output is oracle(x).
inline OpSample indexed_sample(const MovedType& t, const std::vector<int32_t>& shape,
                               const std::vector<int32_t>& indices, bool constant_indices,
                               const std::function<std::vector<uint8_t>(const std::vector<uint8_t>&)>& oracle,
                               std::mt19937& rng) {
  const std::vector<uint8_t> x = random_elements(t, elements_of(shape), rng);
  OpSample sample{{x}, {oracle(x)}};
  if (!constant_indices) sample.inputs.push_back(bytes_of(indices));
  return sample;
}

// Row-major strides of `shape`, in elements.
inline std::vector<int64_t> strides_of(const std::vector<int32_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

// The output of `out_shape` whose element at multi-index `index` is the element of
// `input` at the flat index source(index): every output element, in row-major order.
inline std::vector<uint8_t> pick_elements(const std::vector<uint8_t>& input, size_t element_bytes,
                                          const std::vector<int32_t>& out_shape,
                                          const std::function<int64_t(const std::vector<int64_t>&)>& source) {
  const int64_t count = elements_of(out_shape);
  std::vector<uint8_t> out(static_cast<size_t>(count) * element_bytes);
  std::vector<int64_t> index(out_shape.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t from = source(index);
    std::memcpy(&out[static_cast<size_t>(i) * element_bytes], &input[static_cast<size_t>(from) * element_bytes],
                element_bytes);
    for (size_t a = out_shape.size(); a-- > 0;) {
      if (++index[a] < out_shape[a]) break;
      index[a] = 0;
    }
  }
  return out;
}

// The box of `input` [in_shape] starting at `begin` with `sizes` elements per axis (stride
// 1), in the shape `out_shape` (sizes, possibly with axes of size 1 left out).
inline std::vector<uint8_t> slice_elements(const std::vector<uint8_t>& input, size_t element_bytes,
                                           const std::vector<int32_t>& in_shape, const std::vector<int64_t>& begin,
                                           const std::vector<int32_t>& sizes) {
  const std::vector<int64_t> strides = strides_of(in_shape);
  return pick_elements(input, element_bytes, sizes, [&](const std::vector<int64_t>& index) {
    int64_t from = 0;
    for (size_t a = 0; a < index.size(); ++a) from += (begin[a] + index[a]) * strides[a];
    return from;
  });
}

// A constant int32 tensor (axes, sizes, indices).
inline TensorSpec int32_constant(const std::string& name, std::vector<int32_t> shape, const std::vector<int32_t>& values) {
  return TensorSpec(name, std::move(shape), fb::TensorType::INT32, bytes_of(values));
}

}  // namespace mote::testing
