// MIRROR_PAD: REFLECT and SYMMETRIC on float32 and int8 (values and quantization kept),
// ranks 1-4, pads up to their limits (REFLECT dim - 1, SYMMETRIC dim), int32 and int64
// paddings, against TFLite Micro's source index (GetInputDimension) written here; pads
// beyond the limits, a requantizing output and a negative pad are refused with one line.
#include <algorithm>
#include <random>

#include "ops/op_test.h"

namespace mote::testing {
namespace mirror_pad_test {

constexpr int32_t kMirrorPad = op_code(fb::BuiltinOperator::MIRROR_PAD);

ModelSpec mirror_model(TensorSpec x, const std::vector<int32_t>& pads, fb::MirrorPadMode mode, TensorSpec y,
                       fb::TensorType pads_type = fb::TensorType::INT32) {
  const int32_t rank = static_cast<int32_t>(pads.size() / 2);
  std::vector<uint8_t> bytes = pads_type == fb::TensorType::INT64
                                   ? bytes_of(std::vector<int64_t>(pads.begin(), pads.end()))
                                   : bytes_of(pads);
  return single_op_model({std::move(x), TensorSpec("paddings", {rank, 2}, pads_type, bytes), std::move(y)},
                         kMirrorPad, {0, 1}, {2}, fb::BuiltinOptions::MirrorPadOptions,
                         [mode](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreateMirrorPadOptions(b, mode).Union();
                         });
}

// TFLite Micro's GetInputDimension: the input index of padded index p along one dim
// (offset 1 for REFLECT, 0 for SYMMETRIC).
int32_t source(int32_t p, int32_t left, int32_t dim, int32_t offset) {
  if (p < left) {
    const int32_t original = left + offset - 1;
    return original - std::min(p, original - offset);
  }
  p -= left;
  if (p >= dim) {
    p -= dim;
    const int32_t original = dim - (1 + offset);
    return original - std::min(p, original);
  }
  return p;
}

template <typename T>
std::vector<T> ref_mirror(const std::vector<T>& x, const std::vector<int32_t>& shape, const std::vector<int32_t>& pads,
                          int32_t offset, std::vector<int32_t>* out_shape) {
  const size_t rank = shape.size();
  out_shape->resize(rank);
  size_t count = 1;
  for (size_t i = 0; i < rank; ++i) {
    (*out_shape)[i] = shape[i] + pads[2 * i] + pads[2 * i + 1];
    count *= static_cast<size_t>((*out_shape)[i]);
  }
  std::vector<T> y(count);
  for (size_t k = 0; k < count; ++k) {
    size_t rest = k, src = 0, stride = 1;
    std::vector<int32_t> idx(rank);
    for (size_t i = rank; i-- > 0;) {
      const size_t dim = static_cast<size_t>((*out_shape)[i]);
      idx[i] = static_cast<int32_t>(rest % dim);
      rest /= dim;
    }
    for (size_t i = rank; i-- > 0;) {
      src += static_cast<size_t>(source(idx[i], pads[2 * i], shape[i], offset)) * stride;
      stride *= static_cast<size_t>(shape[i]);
    }
    y[k] = x[src];
  }
  return y;
}

struct Case {
  std::vector<int32_t> shape, pads;  // pads: [before, after] per dim, TFLite's layout
};

const Case kReflect[] = {{{5}, {4, 2}}, {{3, 4}, {2, 1, 0, 3}}, {{2, 3, 4}, {1, 1, 2, 0, 3, 3}},
                         {{1, 4, 3, 2}, {0, 0, 3, 1, 2, 2, 1, 0}}};
const Case kSymmetric[] = {{{5}, {5, 2}}, {{3, 4}, {3, 3, 0, 4}}, {{2, 3, 4}, {2, 1, 3, 0, 4, 4}},
                           {{1, 4, 3, 2}, {1, 0, 4, 1, 3, 3, 2, 2}}};

OP_TEST(MirrorPad, Float32ReflectAndSymmetric) {
  std::mt19937 rng(141);
  int n = 0;
  for (bool symmetric : {false, true})
    for (const Case& c : symmetric ? kSymmetric : kReflect) {
      size_t count = 1;
      for (int32_t d : c.shape) count *= static_cast<size_t>(d);
      std::vector<float> x(count);
      for (float& v : x) v = std::uniform_real_distribution<float>(-9.0f, 9.0f)(rng);
      std::vector<int32_t> out;
      const auto y = ref_mirror(x, c.shape, c.pads, symmetric ? 0 : 1, &out);
      const auto mode = symmetric ? fb::MirrorPadMode::SYMMETRIC : fb::MirrorPadMode::REFLECT;
      const auto pads_type = n % 2 ? fb::TensorType::INT64 : fb::TensorType::INT32;  // TFLM reads both
      expect_op_outputs("mirror_pad_f32_" + std::to_string(n++),
                        mirror_model(TensorSpec("x", c.shape), c.pads, mode, TensorSpec("y", out), pads_type),
                        {{{bytes_of(x)}, {bytes_of(y)}}});
    }
}

OP_TEST(MirrorPad, Int8KeepsValuesAndQuantization) {
  std::mt19937 rng(142);
  int n = 0;
  for (bool symmetric : {false, true})
    for (const Case& c : symmetric ? kSymmetric : kReflect) {
      size_t count = 1;
      for (int32_t d : c.shape) count *= static_cast<size_t>(d);
      std::vector<int8_t> x(count);
      for (int8_t& v : x) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
      std::vector<int32_t> out;
      const auto y = ref_mirror(x, c.shape, c.pads, symmetric ? 0 : 1, &out);
      const auto mode = symmetric ? fb::MirrorPadMode::SYMMETRIC : fb::MirrorPadMode::REFLECT;
      expect_op_outputs("mirror_pad_s8_" + std::to_string(n++),
                        mirror_model(quantized("x", c.shape, fb::TensorType::INT8, 0.2f, -11), c.pads, mode,
                                     quantized("y", out, fb::TensorType::INT8, 0.2f, -11)),
                        {{{bytes_of(x)}, {bytes_of(y)}}});
    }
}

OP_TEST(MirrorPad, WhatFallsOutsideTheMirrorIsOneLine) {
  EXPECT_EQ(op_error("mirror_reflect", mirror_model(TensorSpec("x", {3, 4}), {3, 0, 0, 0},
                                                    fb::MirrorPadMode::REFLECT, TensorSpec("y", {6, 4}))),
            "mirror_reflect.tflite: operator 0 (MIRROR_PAD): REFLECT paddings 3/0 on axis 0 exceed 2 (the input dim "
            "3 - 1)");
  EXPECT_EQ(op_error("mirror_symmetric", mirror_model(TensorSpec("x", {3, 4}), {0, 0, 0, 5},
                                                      fb::MirrorPadMode::SYMMETRIC, TensorSpec("y", {3, 9}))),
            "mirror_symmetric.tflite: operator 0 (MIRROR_PAD): SYMMETRIC paddings 0/5 on axis 1 exceed 4 (the input "
            "dim 4)");
  EXPECT_EQ(op_error("mirror_quant", mirror_model(quantized("x", {3, 4}, fb::TensorType::INT8, 0.2f, 0), {1, 1, 0, 0},
                                                  fb::MirrorPadMode::REFLECT,
                                                  quantized("y", {5, 4}, fb::TensorType::INT8, 0.3f, 0))),
            "mirror_quant.tflite: operator 0 (MIRROR_PAD): output 'y' is not quantized like the input (MIRROR_PAD "
            "moves values)");
  EXPECT_EQ(op_error("mirror_negative", mirror_model(TensorSpec("x", {3, 4}), {-1, 0, 0, 0},
                                                     fb::MirrorPadMode::REFLECT, TensorSpec("y", {2, 4}))),
            "mirror_negative.tflite: operator 0 (MIRROR_PAD): paddings [-1,0,0,0] not supported (negative)");
}

}  // namespace mirror_pad_test
}  // namespace mote::testing
