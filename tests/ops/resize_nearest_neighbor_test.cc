// RESIZE_NEAREST_NEIGHBOR: int8, int16 and float32 (the types TensorFlow Lite Micro's
// kernel takes; uint8 and int32 too), every align_corners / half_pixel_centers combination, upsampling and
// downsampling by integer and non-integer ratios, batches > 1; the source pixel of each
// output pixel computed here as TFLite's GetNearestNeighbor does (float arithmetic).
// Values are copied bit for bit. Refusals: a non-constant or malformed size, a size that
// disagrees with the output, an input of another rank.
#include <cmath>
#include <random>

#include "ops/op_test.h"

namespace mote::testing {
namespace resize_nearest_neighbor_test {

constexpr int32_t kResize = op_code(fb::BuiltinOperator::RESIZE_NEAREST_NEIGHBOR);

struct Flags {
  bool align_corners;
  bool half_pixel_centers;
};
const Flags kAllFlags[] = {{false, false}, {true, false}, {false, true}, {true, true}};

// TFLite's source coordinate, every step in float: scale in/out (or (in-1)/(out-1) when
// aligning corners and out > 1), the coordinate shifted by half a pixel when asked,
// rounded half away from zero (align_corners) or floored, then kept inside [0, in).
int32_t source_coordinate(int32_t o, int32_t in, int32_t out, Flags f) {
  float scale = static_cast<float>(in) / static_cast<float>(out);
  if (f.align_corners && out > 1) scale = static_cast<float>(in - 1) / static_cast<float>(out - 1);
  const float scaled = (static_cast<float>(o) + (f.half_pixel_centers ? 0.5f : 0.0f)) * scale;
  int32_t s = static_cast<int32_t>(f.align_corners ? std::lround(scaled) : std::floor(scaled));
  if (s > in - 1) s = in - 1;
  if (f.half_pixel_centers && s < 0) s = 0;
  return s;
}

struct Shape {
  std::vector<int32_t> in;  // N, H, W, C
  int32_t out_h, out_w;
};

std::vector<uint8_t> size_bytes(int32_t h, int32_t w) { return bytes_of(std::vector<int32_t>{h, w}); }

flatbuffers::Offset<void> options(flatbuffers::FlatBufferBuilder& b, Flags f) {
  return fb::CreateResizeNearestNeighborOptions(b, f.align_corners, f.half_pixel_centers).Union();
}

// x [in] -> y [N, out_h, out_w, C], size a constant.
ModelSpec resize_model(const Shape& s, fb::TensorType type, Flags f) {
  const std::vector<int32_t> out = {s.in[0], s.out_h, s.out_w, s.in[3]};
  TensorSpec x("x", s.in, type), y("y", out, type);
  if (type != fb::TensorType::FLOAT32) {
    x = quantized("x", s.in, type, 0.05f, type == fb::TensorType::INT8 ? -7 : 0);
    y = quantized("y", out, type, 0.05f, type == fb::TensorType::INT8 ? -7 : 0);
  }
  return single_op_model({x, TensorSpec("size", {2}, fb::TensorType::INT32, size_bytes(s.out_h, s.out_w)), y},
                         kResize, {0, 1}, {2}, fb::BuiltinOptions::ResizeNearestNeighborOptions,
                         [f](flatbuffers::FlatBufferBuilder& b) { return options(b, f); });
}

// Random elements of `bytes` each, then the output gathered element by element.
OpSample sample(const Shape& s, size_t bytes, Flags f, std::mt19937& rng) {
  const int32_t n = s.in[0], h = s.in[1], w = s.in[2], c = s.in[3];
  std::vector<uint8_t> x(static_cast<size_t>(n * h * w * c) * bytes);
  for (uint8_t& v : x) v = static_cast<uint8_t>(rng());
  if (bytes == 4)  // finite floats only: the comparison fails on NaN
    for (size_t i = 3; i < x.size(); i += 4) x[i] &= 0x3f;
  std::vector<uint8_t> y;
  for (int32_t b = 0; b < n; ++b)
    for (int32_t oy = 0; oy < s.out_h; ++oy)
      for (int32_t ox = 0; ox < s.out_w; ++ox) {
        const int32_t iy = source_coordinate(oy, h, s.out_h, f), ix = source_coordinate(ox, w, s.out_w, f);
        const size_t at = static_cast<size_t>(((b * h + iy) * w + ix) * c) * bytes;
        y.insert(y.end(), x.begin() + static_cast<std::ptrdiff_t>(at),
                 x.begin() + static_cast<std::ptrdiff_t>(at + c * bytes));
      }
  return {{x}, {y}};
}

void expect_resizes(fb::TensorType type, size_t bytes, const std::vector<Shape>& shapes, uint32_t seed) {
  std::mt19937 rng(seed);
  for (const Shape& s : shapes) {
    for (const Flags& f : kAllFlags) {
      const std::string name = std::string("resize_nearest_") + fb::EnumNameTensorType(type) + "_" +
                               std::to_string(s.in[1]) + "x" + std::to_string(s.in[2]) + "_to_" +
                               std::to_string(s.out_h) + "x" + std::to_string(s.out_w) +
                               (f.align_corners ? "_align" : "") + (f.half_pixel_centers ? "_half" : "");
      SCOPED_TRACE(name);
      expect_op_outputs(name, resize_model(s, type, f), {sample(s, bytes, f, rng), sample(s, bytes, f, rng)});
    }
  }
}

OP_TEST(ResizeNearestNeighbor, Int8UpAndDownByIntegerAndOtherRatios) {
  expect_resizes(fb::TensorType::INT8, 1,
                 {{{1, 6, 6, 3}, 12, 12},   // the 2x upsampling detection heads use
                  {{2, 3, 5, 3}, 7, 8},     // batch 2, non-integer ratios
                  {{1, 7, 9, 2}, 3, 4},     // downsampling
                  {{1, 5, 1, 3}, 1, 3}},    // one output row (align_corners keeps in/out)
                 17);
}

OP_TEST(ResizeNearestNeighbor, Int16) {
  expect_resizes(fb::TensorType::INT16, 2, {{{2, 3, 5, 3}, 7, 8}, {{1, 7, 9, 2}, 3, 4}}, 18);
}

OP_TEST(ResizeNearestNeighbor, Float32) {
  expect_resizes(fb::TensorType::FLOAT32, 4, {{{2, 3, 5, 3}, 7, 8}, {{1, 7, 9, 2}, 3, 4}}, 19);
}

// Beyond TFLite Micro's types (TFLite takes them too): values are moved, whatever they are.
OP_TEST(ResizeNearestNeighbor, Uint8AndInt32) {
  expect_resizes(fb::TensorType::UINT8, 1, {{{2, 3, 5, 3}, 7, 8}}, 21);
  expect_resizes(fb::TensorType::INT32, 4, {{{1, 7, 9, 2}, 3, 4}}, 22);
}

// Sizes where float arithmetic picks another source pixel than exact arithmetic would
// (the rounded scale times the coordinate lands on the other side of a whole number or a
// half): rows 14 -> 23 (output row 11, with either flag alone), columns 26 -> 22 (column 11,
// no flag), rows 8 -> 24 and columns 28 -> 20 (row 11, column 9, both flags).
OP_TEST(ResizeNearestNeighbor, SizesWhereFloatRoundingDecides) {
  expect_resizes(fb::TensorType::INT8, 1, {{{1, 14, 26, 1}, 23, 22}, {{1, 8, 28, 1}, 24, 20}}, 20);
}

OP_TEST(ResizeNearestNeighbor, RefusalsAreOneLine) {
  const Flags none = {false, false};
  const Shape s = {{1, 3, 3, 2}, 6, 6};
  ModelSpec spec = resize_model(s, fb::TensorType::INT8, none);
  spec.tensors[1].data.clear();  // size becomes a graph input
  spec.inputs = {0, 1};
  EXPECT_EQ(op_error("size_input", spec),
            "size_input.tflite: operator 0 (RESIZE_NEAREST_NEIGHBOR): size 'size' is not constant, not supported");

  spec = resize_model(s, fb::TensorType::INT8, none);
  spec.tensors[1] = TensorSpec("size", {2}, fb::TensorType::INT64, bytes_of(std::vector<int64_t>{6, 6}));
  EXPECT_EQ(op_error("size_int64", spec),
            "size_int64.tflite: operator 0 (RESIZE_NEAREST_NEIGHBOR): size 'size' has type int64, expected int32");

  spec = resize_model(s, fb::TensorType::INT8, none);
  spec.tensors[1] = TensorSpec("size", {3}, fb::TensorType::INT32, bytes_of(std::vector<int32_t>{6, 6, 1}));
  EXPECT_EQ(op_error("size_3", spec),
            "size_3.tflite: operator 0 (RESIZE_NEAREST_NEIGHBOR): size 'size' has shape [3], expected [2]");

  spec = resize_model({{1, 3, 3, 2}, 0, 6}, fb::TensorType::INT8, none);
  spec.tensors[2].shape = {1, 1, 6, 2};
  EXPECT_EQ(op_error("size_0", spec),
            "size_0.tflite: operator 0 (RESIZE_NEAREST_NEIGHBOR): size [0,6] not supported (must be >= 1)");

  spec = resize_model(s, fb::TensorType::INT8, none);
  spec.tensors[2].shape = {1, 6, 5, 2};
  EXPECT_EQ(op_error("output_shape", spec),
            "output_shape.tflite: operator 0 (RESIZE_NEAREST_NEIGHBOR): output 'y' has shape [1,6,5,2], expected "
            "[1,6,6,2]");

  spec = resize_model(s, fb::TensorType::INT8, none);
  spec.tensors[0].shape = {3, 3, 2};
  spec.tensors[2].shape = {6, 6, 2};
  EXPECT_EQ(op_error("rank_3", spec),
            "rank_3.tflite: operator 0 (RESIZE_NEAREST_NEIGHBOR): input 'x' has shape [3,3,2], expected rank 4");

}

}  // namespace resize_nearest_neighbor_test
}  // namespace mote::testing
