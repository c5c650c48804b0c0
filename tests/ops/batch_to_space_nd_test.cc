// BATCH_TO_SPACE_ND and its inverse SPACE_TO_BATCH_ND (one file: the cases and the model
// builder serve both): float32 and int8 (the types TensorFlow Lite Micro's kernels take)
// and int16, 4-D [B,H,W,C] and 3-D [B,H,C] inputs, square and non-square blocks, crops
// and paddings on every side, output batches > 1; against TFLite's
// reference_ops::BatchToSpaceND / SpaceToBatchND loops written here (the padding is the
// output's zero point, as TFLite's kernel passes it). Values compare bit for bit.
// Refusals: non-constant or non-int32 block_shape, crops, paddings; wrong shapes; block
// sizes < 1; negative crops or paddings; sizes the blocks do not divide.
#include <random>

#include "ops/op_test.h"

namespace mote::testing {
namespace batch_to_space_nd_test {

constexpr int32_t kBatchToSpace = op_code(fb::BuiltinOperator::BATCH_TO_SPACE_ND);
constexpr int32_t kSpaceToBatch = op_code(fb::BuiltinOperator::SPACE_TO_BATCH_ND);

struct Case {
  fb::TensorType type;
  size_t bytes;
  std::vector<int32_t> in, out;
  std::vector<int32_t> block;    // [M]
  std::vector<int32_t> amounts;  // crops or paddings, [M,2] row by row
};

constexpr int32_t kZeroPoint = -3;  // int8's; int16 is symmetric

ModelSpec model(int32_t code, const Case& c) {
  TensorSpec x("x", c.in, c.type), y("y", c.out, c.type);
  if (c.type != fb::TensorType::FLOAT32) {
    const int32_t zp = c.type == fb::TensorType::INT8 ? kZeroPoint : 0;
    x = quantized("x", c.in, c.type, 0.1f, zp);
    y = quantized("y", c.out, c.type, 0.1f, zp);
  }
  const int32_t m = static_cast<int32_t>(c.block.size());
  TensorSpec block("block", {m}, fb::TensorType::INT32, bytes_of(c.block));
  TensorSpec amounts(code == kBatchToSpace ? "crops" : "paddings", {m, 2}, fb::TensorType::INT32, bytes_of(c.amounts));
  if (code == kBatchToSpace)
    return single_op_model({x, block, amounts, y}, code, {0, 1, 2}, {3}, fb::BuiltinOptions::BatchToSpaceNDOptions,
                           [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateBatchToSpaceNDOptions(b).Union(); });
  return single_op_model({x, block, amounts, y}, code, {0, 1, 2}, {3}, fb::BuiltinOptions::SpaceToBatchNDOptions,
                         [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateSpaceToBatchNDOptions(b).Union(); });
}

// [B,H,W,C] of a 4-D shape, [B,H,1,C] of a 3-D one (TFLite's ExtendShape...).
std::vector<int32_t> as_4d(const std::vector<int32_t>& s) {
  return s.size() == 4 ? s : std::vector<int32_t>{s[0], s[1], 1, s[2]};
}

void copy_pixel(const std::vector<uint8_t>& from, size_t from_pixel, std::vector<uint8_t>& to, size_t to_pixel,
                size_t pixel_bytes) {
  for (size_t k = 0; k < pixel_bytes; ++k) to[to_pixel * pixel_bytes + k] = from[from_pixel * pixel_bytes + k];
}

// TFLite's BatchToSpaceND: every input pixel placed, those in the crops dropped.
std::vector<uint8_t> batch_to_space(const Case& c, const std::vector<uint8_t>& x) {
  const std::vector<int32_t> in = as_4d(c.in), out = as_4d(c.out);
  const int32_t bh = c.block[0], bw = c.in.size() == 4 ? c.block[1] : 1;
  const int32_t top = c.amounts[0], left = c.in.size() == 4 ? c.amounts[2] : 0;
  const size_t pixel = static_cast<size_t>(in[3]) * c.bytes;
  std::vector<uint8_t> y(static_cast<size_t>(out[0] * out[1] * out[2]) * pixel);
  for (int32_t ib = 0; ib < in[0]; ++ib)
    for (int32_t ih = 0; ih < in[1]; ++ih)
      for (int32_t iw = 0; iw < in[2]; ++iw) {
        const int32_t ob = ib % out[0], offset = ib / out[0];
        const int32_t oh = ih * bh + offset / bw - top, ow = iw * bw + offset % bw - left;
        if (oh < 0 || oh >= out[1] || ow < 0 || ow >= out[2]) continue;
        copy_pixel(x, static_cast<size_t>((ib * in[1] + ih) * in[2] + iw), y,
                   static_cast<size_t>((ob * out[1] + oh) * out[2] + ow), pixel);
      }
  return y;
}

// TFLite's SpaceToBatchND: every output pixel from its input pixel, or the pad value.
std::vector<uint8_t> space_to_batch(const Case& c, const std::vector<uint8_t>& x) {
  const std::vector<int32_t> in = as_4d(c.in), out = as_4d(c.out);
  const int32_t bh = c.block[0], bw = c.in.size() == 4 ? c.block[1] : 1;
  const int32_t top = c.amounts[0], left = c.in.size() == 4 ? c.amounts[2] : 0;
  const size_t pixel = static_cast<size_t>(in[3]) * c.bytes;
  std::vector<uint8_t> pad(c.bytes, 0);
  if (c.type == fb::TensorType::INT8) pad[0] = static_cast<uint8_t>(kZeroPoint);
  std::vector<uint8_t> y;
  for (int32_t ob = 0; ob < out[0]; ++ob) {
    const int32_t ib = ob % in[0], sw = (ob / in[0]) % bw, sh = (ob / in[0]) / bw;
    for (int32_t oh = 0; oh < out[1]; ++oh)
      for (int32_t ow = 0; ow < out[2]; ++ow) {
        const int32_t ih = oh * bh + sh - top, iw = ow * bw + sw - left;
        if (ih < 0 || ih >= in[1] || iw < 0 || iw >= in[2]) {
          for (int32_t k = 0; k < in[3]; ++k) y.insert(y.end(), pad.begin(), pad.end());
        } else {
          const size_t at = static_cast<size_t>((ib * in[1] + ih) * in[2] + iw) * pixel;
          y.insert(y.end(), x.begin() + static_cast<std::ptrdiff_t>(at),
                   x.begin() + static_cast<std::ptrdiff_t>(at + pixel));
        }
      }
  }
  return y;
}

void expect_cases(int32_t code, const std::vector<Case>& cases, uint32_t seed) {
  std::mt19937 rng(seed);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const std::string name = std::string(code == kBatchToSpace ? "batch_to_space_" : "space_to_batch_") +
                             fb::EnumNameTensorType(c.type) + "_" + std::to_string(i);
    SCOPED_TRACE(name);
    size_t elements = c.bytes;
    for (int32_t d : c.in) elements *= static_cast<size_t>(d);
    std::vector<uint8_t> x(elements);
    for (uint8_t& v : x) v = static_cast<uint8_t>(rng());
    if (c.bytes == 4)  // finite floats only: the comparison fails on NaN
      for (size_t k = 3; k < x.size(); k += 4) x[k] &= 0x3f;
    expect_op_outputs(name, model(code, c), {{{x}, {code == kBatchToSpace ? batch_to_space(c, x) : space_to_batch(c, x)}}});
  }
}

constexpr fb::TensorType kI8 = fb::TensorType::INT8, kI16 = fb::TensorType::INT16, kF32 = fb::TensorType::FLOAT32;

OP_TEST(BatchToSpaceNd, EveryTypeBlockAndCrop) {
  expect_cases(kBatchToSpace,
               {{kI8, 1, {4, 2, 3, 2}, {1, 4, 6, 2}, {2, 2}, {0, 0, 0, 0}},
                {kI8, 1, {4, 2, 3, 2}, {1, 3, 4, 2}, {2, 2}, {1, 0, 0, 2}},
                {kI8, 1, {8, 2, 2, 1}, {2, 4, 4, 1}, {2, 2}, {0, 0, 0, 0}},   // two output batches
                {kI8, 1, {6, 2, 2, 3}, {1, 3, 3, 3}, {2, 3}, {0, 1, 2, 1}},   // non-square block
                {kI8, 1, {4, 3, 2}, {2, 4, 2}, {2}, {1, 1}},                 // rank 3
                {kF32, 4, {6, 2, 2, 3}, {1, 3, 3, 3}, {2, 3}, {0, 1, 2, 1}},
                {kI16, 2, {4, 2, 3, 2}, {1, 3, 4, 2}, {2, 2}, {1, 0, 0, 2}}},
               51);
}

OP_TEST(SpaceToBatchNd, EveryTypeBlockAndPadding) {
  expect_cases(kSpaceToBatch,
               {{kI8, 1, {1, 4, 6, 2}, {4, 2, 3, 2}, {2, 2}, {0, 0, 0, 0}},
                {kI8, 1, {1, 4, 6, 2}, {4, 3, 4, 2}, {2, 2}, {1, 1, 0, 2}},  // padded with the zero point
                {kI8, 1, {2, 3, 4, 3}, {12, 2, 2, 3}, {2, 3}, {1, 0, 1, 1}},
                {kI8, 1, {2, 5, 2}, {4, 3, 2}, {2}, {1, 0}},                 // rank 3
                {kF32, 4, {2, 3, 4, 3}, {12, 2, 2, 3}, {2, 3}, {1, 0, 1, 1}},
                {kI16, 2, {1, 4, 6, 2}, {4, 3, 4, 2}, {2, 2}, {1, 1, 0, 2}}},
               52);
}

OP_TEST(BatchToSpaceNd, RefusalsAreOneLine) {
  const Case c = {kI8, 1, {4, 2, 3, 2}, {1, 4, 6, 2}, {2, 2}, {0, 0, 0, 0}};
  const std::string op = ".tflite: operator 0 (BATCH_TO_SPACE_ND): ";
  ModelSpec spec = model(kBatchToSpace, c);
  spec.tensors[1].data.clear();  // block_shape becomes a graph input
  spec.inputs = {0, 1};
  EXPECT_EQ(op_error("block_input", spec), "block_input" + op + "block_shape 'block' is not constant, not supported");

  spec = model(kBatchToSpace, c);
  spec.tensors[2] = TensorSpec("crops", {2, 2}, fb::TensorType::INT64, bytes_of(std::vector<int64_t>{0, 0, 0, 0}));
  EXPECT_EQ(op_error("crops_int64", spec), "crops_int64" + op + "crops 'crops' has type int64, expected int32");

  Case bad = c;
  bad.block = {2, 2, 1};
  bad.amounts = {0, 0, 0, 0, 0, 0};
  EXPECT_EQ(op_error("block_3", model(kBatchToSpace, bad)), "block_3" + op + "block_shape 'block' has shape [3], expected [2]");
  bad = c;
  bad.block = {0, 2};
  EXPECT_EQ(op_error("block_0", model(kBatchToSpace, bad)), "block_0" + op + "block_shape [0,2] not supported (must be >= 1)");
  bad = c;
  bad.amounts = {0, -1, 0, 0};
  EXPECT_EQ(op_error("crop_neg", model(kBatchToSpace, bad)), "crop_neg" + op + "crops [0,-1,0,0] not supported (negative)");
  bad = {kI8, 1, {3, 2, 3, 2}, {1, 4, 6, 2}, {2, 2}, {0, 0, 0, 0}};
  EXPECT_EQ(op_error("batch_3", model(kBatchToSpace, bad)),
            "batch_3" + op + "input batch 3 is not a multiple of the block size 4");
  bad = c;
  bad.amounts = {2, 2, 0, 0};
  EXPECT_EQ(op_error("crop_all", model(kBatchToSpace, bad)),
            "crop_all" + op + "crops [2,2,0,0] leave nothing of input [4,2,3,2]");
  bad = c;
  bad.out = {1, 4, 5, 2};
  EXPECT_EQ(op_error("output", model(kBatchToSpace, bad)),
            "output" + op + "output 'y' has shape [1,4,5,2], expected [1,4,6,2]");
  bad = {kI8, 1, {4, 2}, {1, 8}, {2}, {0, 0}};
  EXPECT_EQ(op_error("rank_2", model(kBatchToSpace, bad)), "rank_2" + op + "input 'x' has shape [4,2], expected rank 3 or 4");
}

OP_TEST(SpaceToBatchNd, RefusalsAreOneLine) {
  const std::string op = ".tflite: operator 0 (SPACE_TO_BATCH_ND): ";
  const Case odd = {kI8, 1, {1, 5, 6, 2}, {4, 2, 3, 2}, {2, 2}, {0, 0, 0, 0}};
  EXPECT_EQ(op_error("odd", model(kSpaceToBatch, odd)),
            "odd" + op + "padded dim 1 of size 5 is not a multiple of block_shape 2");
  Case bad = {kI8, 1, {1, 4, 6, 2}, {4, 2, 3, 2}, {2, 2}, {0, 0, -2, 0}};
  EXPECT_EQ(op_error("pad_neg", model(kSpaceToBatch, bad)), "pad_neg" + op + "paddings [0,0,-2,0] not supported (negative)");
  bad = {kF32, 4, {1, 4, 6, 2}, {4, 2, 2, 2}, {2, 2}, {0, 0, 0, 0}};
  EXPECT_EQ(op_error("output", model(kSpaceToBatch, bad)),
            "output" + op + "output 'y' has shape [4,2,2,2], expected [4,2,3,2]");
}

}  // namespace batch_to_space_nd_test
}  // namespace mote::testing
