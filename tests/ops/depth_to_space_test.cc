// DEPTH_TO_SPACE and its inverse SPACE_TO_DEPTH (one file: one oracle serves both):
// float32 and int8 (the types TensorFlow Lite Micro's kernels take) and int16, block sizes
// 1 to 3, batches > 1, against the index arithmetic of TFLite's
// reference_ops::DepthToSpace and SpaceToDepth written here; values are copied bit for
// bit. Refusals: block_size missing or < 1, channels not a multiple of block_size^2
// (depth to space), a height or width block_size does not divide (space to depth), an
// output of the wrong shape.
#include <random>

#include "ops/op_test.h"

namespace mote::testing {
namespace depth_to_space_test {

constexpr int32_t kDepthToSpace = op_code(fb::BuiltinOperator::DEPTH_TO_SPACE);
constexpr int32_t kSpaceToDepth = op_code(fb::BuiltinOperator::SPACE_TO_DEPTH);

ModelSpec model(int32_t code, const std::vector<int32_t>& in, const std::vector<int32_t>& out, fb::TensorType type,
                int32_t block_size) {
  TensorSpec x("x", in, type), y("y", out, type);
  if (type != fb::TensorType::FLOAT32) {
    x = quantized("x", in, type, 0.1f, type == fb::TensorType::INT8 ? -3 : 0);
    y = quantized("y", out, type, 0.1f, type == fb::TensorType::INT8 ? -3 : 0);
  }
  if (code == kDepthToSpace)
    return single_op_model({x, y}, code, {0}, {1}, fb::BuiltinOptions::DepthToSpaceOptions,
                           [block_size](flatbuffers::FlatBufferBuilder& b) {
                             return fb::CreateDepthToSpaceOptions(b, block_size).Union();
                           });
  return single_op_model({x, y}, code, {0}, {1}, fb::BuiltinOptions::SpaceToDepthOptions,
                         [block_size](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreateSpaceToDepthOptions(b, block_size).Union();
                         });
}

// The element of the depth-side tensor [N, h, w, c * bs * bs] that the space-side tensor
// [N, h * bs, w * bs, c] holds at (b, y, x, d): TFLite's in_d / out_d = d + ((y % bs) * bs +
// x % bs) * c at (b, y / bs, x / bs).
size_t depth_index(const std::vector<int32_t>& space, int32_t bs, int32_t b, int32_t y, int32_t x, int32_t d) {
  const int32_t h = space[1] / bs, w = space[2] / bs, c = space[3];
  return static_cast<size_t>(((b * h + y / bs) * w + x / bs) * (c * bs * bs) + d + ((y % bs) * bs + x % bs) * c);
}

// Moves every element of x between the space side `space` and the depth side: to_space
// reads the depth side (DEPTH_TO_SPACE), else writes it (SPACE_TO_DEPTH).
std::vector<uint8_t> move(const std::vector<int32_t>& space, int32_t bs, size_t bytes, bool to_space,
                          const std::vector<uint8_t>& x) {
  std::vector<uint8_t> y(x.size());
  size_t s = 0;  // the space side's elements in order
  for (int32_t b = 0; b < space[0]; ++b)
    for (int32_t h = 0; h < space[1]; ++h)
      for (int32_t w = 0; w < space[2]; ++w)
        for (int32_t d = 0; d < space[3]; ++d, ++s) {
          const size_t z = depth_index(space, bs, b, h, w, d);
          for (size_t k = 0; k < bytes; ++k) {
            if (to_space) y[s * bytes + k] = x[z * bytes + k];
            else y[z * bytes + k] = x[s * bytes + k];
          }
        }
  return y;
}

struct Case {
  fb::TensorType type;
  size_t bytes;
  std::vector<int32_t> space;  // the side with the larger image: N, H, W, C
  int32_t block_size;
};
const Case kCases[] = {
    {fb::TensorType::INT8, 1, {2, 6, 4, 2}, 2},    {fb::TensorType::INT8, 1, {1, 6, 9, 3}, 3},
    {fb::TensorType::INT8, 1, {1, 2, 2, 3}, 1},    {fb::TensorType::FLOAT32, 4, {2, 4, 6, 3}, 2},
    {fb::TensorType::INT16, 2, {1, 6, 4, 1}, 2},
};

void expect_moves(int32_t code) {
  const bool to_space = code == kDepthToSpace;
  std::mt19937 rng(to_space ? 41 : 42);
  for (const Case& c : kCases) {
    const std::vector<int32_t> depth = {c.space[0], c.space[1] / c.block_size, c.space[2] / c.block_size,
                                        c.space[3] * c.block_size * c.block_size};
    const std::string name = std::string(to_space ? "depth_to_space_" : "space_to_depth_") +
                             fb::EnumNameTensorType(c.type) + "_" + std::to_string(c.block_size) + "_" +
                             std::to_string(c.space[1]);
    SCOPED_TRACE(name);
    std::vector<uint8_t> x(static_cast<size_t>(c.space[0] * c.space[1] * c.space[2] * c.space[3]) * c.bytes);
    for (uint8_t& v : x) v = static_cast<uint8_t>(rng());
    if (c.bytes == 4)  // finite floats only: the comparison fails on NaN
      for (size_t i = 3; i < x.size(); i += 4) x[i] &= 0x3f;
    const ModelSpec spec = to_space ? model(code, depth, c.space, c.type, c.block_size)
                                    : model(code, c.space, depth, c.type, c.block_size);
    expect_op_outputs(name, spec, {{{x}, {move(c.space, c.block_size, c.bytes, to_space, x)}}});
  }
}

OP_TEST(DepthToSpace, EveryTypeAndBlockSize) { expect_moves(kDepthToSpace); }

OP_TEST(SpaceToDepth, EveryTypeAndBlockSize) { expect_moves(kSpaceToDepth); }

OP_TEST(DepthToSpace, RefusalsAreOneLine) {
  EXPECT_EQ(op_error("block_0", model(kDepthToSpace, {1, 2, 2, 4}, {1, 2, 2, 4}, fb::TensorType::INT8, 0)),
            "block_0.tflite: operator 0 (DEPTH_TO_SPACE): block_size 0 not supported (must be >= 1)");
  ModelSpec spec = model(kDepthToSpace, {1, 2, 2, 4}, {1, 4, 4, 1}, fb::TensorType::INT8, 2);
  spec.ops[0].options_type = fb::BuiltinOptions::NONE;
  spec.ops[0].options = nullptr;
  EXPECT_EQ(op_error("no_options", spec),
            "no_options.tflite: operator 0 (DEPTH_TO_SPACE): block_size 0 not supported (must be >= 1)");
  EXPECT_EQ(op_error("channels", model(kDepthToSpace, {1, 2, 2, 6}, {1, 4, 4, 1}, fb::TensorType::INT8, 2)),
            "channels.tflite: operator 0 (DEPTH_TO_SPACE): input 'x' has 6 channels, not a multiple of "
            "block_size^2 = 4");
  EXPECT_EQ(op_error("output", model(kDepthToSpace, {1, 2, 2, 8}, {1, 4, 4, 1}, fb::TensorType::INT8, 2)),
            "output.tflite: operator 0 (DEPTH_TO_SPACE): output 'y' has shape [1,4,4,1], expected [1,4,4,2]");
  EXPECT_EQ(op_error("rank_3", model(kDepthToSpace, {2, 2, 4}, {4, 4, 1}, fb::TensorType::INT8, 2)),
            "rank_3.tflite: operator 0 (DEPTH_TO_SPACE): input 'x' has shape [2,2,4], expected rank 4");
}

OP_TEST(SpaceToDepth, RefusalsAreOneLine) {
  EXPECT_EQ(op_error("block_neg", model(kSpaceToDepth, {1, 4, 4, 1}, {1, 2, 2, 4}, fb::TensorType::INT8, -2)),
            "block_neg.tflite: operator 0 (SPACE_TO_DEPTH): block_size -2 not supported (must be >= 1)");
  EXPECT_EQ(op_error("height", model(kSpaceToDepth, {1, 5, 4, 1}, {1, 2, 2, 4}, fb::TensorType::INT8, 2)),
            "height.tflite: operator 0 (SPACE_TO_DEPTH): input 'x' of shape [1,5,4,1] does not divide into 2x2 "
            "blocks");
  EXPECT_EQ(op_error("output", model(kSpaceToDepth, {1, 4, 4, 1}, {1, 2, 2, 2}, fb::TensorType::FLOAT32, 2)),
            "output.tflite: operator 0 (SPACE_TO_DEPTH): output 'y' has shape [1,2,2,2], expected [1,2,2,4]");
}

}  // namespace depth_to_space_test
}  // namespace mote::testing
