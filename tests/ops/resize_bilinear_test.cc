// RESIZE_BILINEAR: float32 (TFLite's reference_ops::ResizeBilinear), int8 (TensorFlow
// Lite Micro's kernel: reference_ops::ResizeBilinearInteger) and int16 (the same integer
// template), with align_corners, half_pixel_centers or neither; upsampling and
// downsampling by integer and non-integer ratios, batches > 1. The oracle below is
// TFLite's arithmetic written out per output element: float32 in float, each operation
// rounded; integers with the 10-bit fixed-point coordinates and the double rounding TFLite
// Micro builds with. Every output compares bit for bit. Refusals: both flags, a
// non-constant size, types TFLite Micro refuses, sizes whose integer coordinates leave
// the input.
#include <algorithm>
#include <cmath>
#include <random>

#include "ops/op_test.h"

namespace mote::testing {
namespace resize_bilinear_test {

// The float oracle rounds every product and sum, as TFLite's reference does: no fused
// multiply-add, whatever the host (options restored at the end of the file: unity build).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

constexpr int32_t kResize = op_code(fb::BuiltinOperator::RESIZE_BILINEAR);

struct Flags {
  bool align_corners;
  bool half_pixel_centers;
};
const Flags kValidFlags[] = {{false, false}, {true, false}, {false, true}};

struct Shape {
  std::vector<int32_t> in;  // N, H, W, C
  int32_t out_h, out_w;
};

// One axis of TFLite's float ComputeInterpolationValues: the scaled coordinate and its
// two neighbours.
struct FloatAxis {
  float position;
  int32_t lo, hi;
};
FloatAxis float_axis(int32_t o, int32_t in, int32_t out, Flags f) {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
  float scale = static_cast<float>(in) / static_cast<float>(out);
  if (f.align_corners && out > 1) scale = static_cast<float>(in - 1) / static_cast<float>(out - 1);
  FloatAxis a;
  a.position = f.half_pixel_centers ? (static_cast<float>(o) + 0.5f) * scale - 0.5f : static_cast<float>(o) * scale;
  a.lo = std::max(static_cast<int32_t>(std::floor(a.position)), 0);
  a.hi = std::min(static_cast<int32_t>(std::ceil(a.position)), in - 1);
  return a;
}

// The integer ComputeInterpolationValuesInteger: coordinates in 1/1024.
struct IntAxis {
  int64_t position;
  int64_t lo, hi;
};
IntAxis int_axis(int64_t o, int64_t in, int64_t out, Flags f) {
  int64_t scale = (1024 * in + out / 2) / out;
  if (f.align_corners && out > 1) scale = (1024 * (in - 1) + (out - 1) / 2) / (out - 1);
  IntAxis a;
  a.position = f.half_pixel_centers ? o * scale + scale / 2 - 512 : o * scale;
  a.lo = std::max<int64_t>(a.position / 1024, 0);
  a.hi = std::min<int64_t>((a.position + 1023) / 1024, in - 1);
  return a;
}

std::vector<float> resize_float(const Shape& s, Flags f, const std::vector<float>& x) {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
  const int32_t n = s.in[0], h = s.in[1], w = s.in[2], c = s.in[3];
  auto at = [&](int32_t b, int32_t yy, int32_t xx, int32_t k) { return x[static_cast<size_t>(((b * h + yy) * w + xx) * c + k)]; };
  std::vector<float> y;
  for (int32_t b = 0; b < n; ++b)
    for (int32_t oy = 0; oy < s.out_h; ++oy) {
      const FloatAxis ay = float_axis(oy, h, s.out_h, f);
      const float dy = ay.position - static_cast<float>(ay.lo);
      for (int32_t ox = 0; ox < s.out_w; ++ox) {
        const FloatAxis ax = float_axis(ox, w, s.out_w, f);
        const float dx = ax.position - static_cast<float>(ax.lo);
        for (int32_t k = 0; k < c; ++k)
          y.push_back(at(b, ay.lo, ax.lo, k) * (1 - dy) * (1 - dx) + at(b, ay.hi, ax.lo, k) * dy * (1 - dx) +
                      at(b, ay.lo, ax.hi, k) * (1 - dy) * dx + at(b, ay.hi, ax.hi, k) * dy * dx + 0.0f);
      }
    }
  return y;
}

template <typename T>
std::vector<T> resize_integer(const Shape& s, Flags f, const std::vector<T>& x) {
  const int64_t n = s.in[0], h = s.in[1], w = s.in[2], c = s.in[3];
  auto at = [&](int64_t b, int64_t yy, int64_t xx, int64_t k) { return static_cast<int64_t>(x[static_cast<size_t>(((b * h + yy) * w + xx) * c + k)]); };
  std::vector<T> y;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oy = 0; oy < s.out_h; ++oy) {
      const IntAxis ay = int_axis(oy, h, s.out_h, f);
      const int64_t dy = ay.position - 1024 * ay.lo;
      for (int64_t ox = 0; ox < s.out_w; ++ox) {
        const IntAxis ax = int_axis(ox, w, s.out_w, f);
        const int64_t dx = ax.position - 1024 * ax.lo;
        for (int64_t k = 0; k < c; ++k) {
          const int64_t sum = at(b, ay.lo, ax.lo, k) * (1024 - dy) * (1024 - dx) +
                              at(b, ay.hi, ax.lo, k) * dy * (1024 - dx) +
                              at(b, ay.lo, ax.hi, k) * (1024 - dy) * dx + at(b, ay.hi, ax.hi, k) * dy * dx;
          const int64_t half = sum > 0 ? (1 << 19) : -(1 << 19);
          y.push_back(static_cast<T>((sum + half) / (1 << 20)));
        }
      }
    }
  return y;
}

flatbuffers::Offset<void> options(flatbuffers::FlatBufferBuilder& b, Flags f) {
  return fb::CreateResizeBilinearOptions(b, f.align_corners, f.half_pixel_centers).Union();
}

ModelSpec resize_model(const Shape& s, fb::TensorType type, Flags f) {
  const std::vector<int32_t> out = {s.in[0], s.out_h, s.out_w, s.in[3]};
  TensorSpec x("x", s.in, type), y("y", out, type);
  if (type != fb::TensorType::FLOAT32) {
    x = quantized("x", s.in, type, 0.02f, type == fb::TensorType::INT8 ? 5 : 0);
    y = quantized("y", out, type, 0.02f, type == fb::TensorType::INT8 ? 5 : 0);
  }
  const std::vector<uint8_t> size = bytes_of(std::vector<int32_t>{s.out_h, s.out_w});
  return single_op_model({x, TensorSpec("size", {2}, fb::TensorType::INT32, size), y}, kResize, {0, 1}, {2},
                         fb::BuiltinOptions::ResizeBilinearOptions,
                         [f](flatbuffers::FlatBufferBuilder& b) { return options(b, f); });
}

std::string case_name(const char* type, const Shape& s, Flags f) {
  return std::string("resize_bilinear_") + type + "_" + std::to_string(s.in[1]) + "x" + std::to_string(s.in[2]) +
         "_to_" + std::to_string(s.out_h) + "x" + std::to_string(s.out_w) + (f.align_corners ? "_align" : "") +
         (f.half_pixel_centers ? "_half" : "");
}

size_t elements(const Shape& s) { return static_cast<size_t>(s.in[0] * s.in[1] * s.in[2] * s.in[3]); }

const std::vector<Shape> kShapes = {
    {{1, 4, 4, 2}, 8, 8},   // 2x upsampling
    {{2, 3, 5, 3}, 7, 8},   // batch 2, non-integer ratios
    {{1, 7, 9, 2}, 3, 4},   // downsampling
    {{1, 5, 1, 3}, 1, 3},   // one output row (align_corners keeps in/out), one input column
};

OP_TEST(ResizeBilinear, Float32) {
  std::mt19937 rng(31);
  for (const Shape& s : kShapes)
    for (const Flags& f : kValidFlags) {
      const std::string name = case_name("FLOAT32", s, f);
      SCOPED_TRACE(name);
      std::vector<OpSample> samples;
      for (int k = 0; k < 2; ++k) {
        std::vector<float> x(elements(s));
        for (float& v : x) v = std::uniform_real_distribution<float>(-10.0f, 10.0f)(rng);
        samples.push_back({{bytes_of(x)}, {bytes_of(resize_float(s, f, x))}});
      }
      expect_op_outputs(name, resize_model(s, fb::TensorType::FLOAT32, f), samples);
    }
}

template <typename T>
void expect_integer_resizes(fb::TensorType type, const std::vector<Shape>& shapes, uint32_t seed) {
  std::mt19937 rng(seed);
  for (const Shape& s : shapes)
    for (const Flags& f : kValidFlags) {
      const std::string name = case_name(fb::EnumNameTensorType(type), s, f);
      SCOPED_TRACE(name);
      std::vector<OpSample> samples;
      for (int k = 0; k < 2; ++k) {
        std::vector<T> x(elements(s));
        for (T& v : x) v = static_cast<T>(rng());  // the whole range, both ends included below
        x[0] = std::numeric_limits<T>::min();
        x[x.size() - 1] = std::numeric_limits<T>::max();
        samples.push_back({{bytes_of(x)}, {bytes_of(resize_integer(s, f, x))}});
      }
      expect_op_outputs(name, resize_model(s, type, f), samples);
    }
}

OP_TEST(ResizeBilinear, Int8) { expect_integer_resizes<int8_t>(fb::TensorType::INT8, kShapes, 32); }

OP_TEST(ResizeBilinear, Int16) { expect_integer_resizes<int16_t>(fb::TensorType::INT16, {kShapes[1], kShapes[2]}, 33); }

OP_TEST(ResizeBilinear, RefusalsAreOneLine) {
  const Shape s = {{1, 3, 3, 2}, 6, 6};
  EXPECT_EQ(op_error("both_flags", resize_model(s, fb::TensorType::INT8, {true, true})),
            "both_flags.tflite: operator 0 (RESIZE_BILINEAR): half_pixel_centers with align_corners not supported "
            "(TFLite requires one of them false)");

  ModelSpec spec = resize_model(s, fb::TensorType::FLOAT32, {false, false});
  spec.tensors[1].data.clear();  // size becomes a graph input
  spec.inputs = {0, 1};
  EXPECT_EQ(op_error("size_input", spec),
            "size_input.tflite: operator 0 (RESIZE_BILINEAR): size 'size' is not constant, not supported");

  spec = resize_model(s, fb::TensorType::FLOAT32, {false, false});
  spec.tensors[0].type = fb::TensorType::UINT8;
  spec.tensors[2].type = fb::TensorType::UINT8;
  EXPECT_EQ(op_error("type_uint8", spec),
            "node 'y' (resize_bilinear): input 'x' has dtype uint8, expected float32, int8 or int16");

  // 2 -> 3000 rows: the integer scale rounds to 1/1024, so output row 2048 would read row 2
  // of 2 (TFLite reads past the input there).
  EXPECT_EQ(op_error("past_the_input", resize_model({{1, 2, 1, 1}, 3000, 1}, fb::TensorType::INT8, {false, false})),
            "node 'y' (resize_bilinear): output row 2048 reads input row 2 of 2 in TFLite's arithmetic, not supported");
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

}  // namespace resize_bilinear_test
}  // namespace mote::testing
