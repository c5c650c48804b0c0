// Lowering of the resize ops: resize_nearest (mote_ops.md). NHWC images scaled along H
// and W. The source coordinate of each output row and column is computed here, on the
// host, with TFLite's float arithmetic, so the kernels only gather.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "lower/node_lowering.h"
// Kernel contracts.
#include "resize_nearest/resize_nearest.h"

namespace mote::lower {
namespace {

// One input, one output of its dtype (float32, int8 or int16, as TFLite Micro's resize
// kernels take), both [N,H,W,C] with the same N and C.
void check_resize(const NodeLowering& l) {
  expect_unary_io(l);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  if (in.dtype != DType::kFloat32 && in.dtype != DType::kInt8 && in.dtype != DType::kInt16)
    l.fail(l.label(in, "input") + " has dtype " + dtype_name(in.dtype) + ", expected float32, int8 or int16");
  l.expect_rank(in, "input", 4);
  l.expect_rank(out, "output", 4);
  if (out.shape[0] != in.shape[0] || out.shape[3] != in.shape[3] || out.shape[1] < 1 || out.shape[2] < 1)
    l.fail(l.label(out, "output") + " has shape " + shape_string(out.shape) + ", expected [" +
           std::to_string(in.shape[0]) + ",OH,OW," + std::to_string(in.shape[3]) + "] with OH, OW >= 1");
}

bool flag(const NodeLowering& l, const char* key) {
  const int64_t value = l.node().get_int(key, 0);
  if (value != 0 && value != 1) l.fail(std::string(key) + " is " + std::to_string(value) + ", expected 0 or 1");
  return value == 1;
}

// The input coordinate output coordinate `o` copies, as TFLite's GetNearestNeighbor
// computes it: every step in float (the scale rounded to float, then the scaled
// coordinate), round half away from zero when aligning corners, else floor.
int32_t nearest_source(int64_t o, int64_t in, int64_t out, bool align_corners, bool half_pixel_centers) {
  const float scale = align_corners && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                                               : static_cast<float>(in) / static_cast<float>(out);
  const float position = (static_cast<float>(o) + (half_pixel_centers ? 0.5f : 0.0f)) * scale;
  int64_t source = static_cast<int64_t>(align_corners ? std::round(position) : std::floor(position));
  source = std::min(source, in - 1);
  if (half_pixel_centers) source = std::max<int64_t>(source, 0);
  return static_cast<int32_t>(source);
}

}  // namespace

// resize_nearest: the params are source_row[OH] then source_col[OW].
LoweredOp lower_resize_nearest(const NodeLowering& l) {
  check_resize(l);
  const bool align_corners = flag(l, "align_corners");
  const bool half_pixel_centers = flag(l, "half_pixel_centers");
  const ir::Shape& in = l.input(0).shape;
  const ir::Shape& out = l.output(0).shape;
  std::vector<int32_t> sources;
  for (int axis = 1; axis <= 2; ++axis)
    for (int64_t o = 0; o < out[axis]; ++o)
      sources.push_back(nearest_source(o, in[axis], out[axis], align_corners, half_pixel_centers));
  std::vector<uint8_t> params(sources.size() * sizeof(int32_t));
  std::memcpy(params.data(), sources.data(), params.size());
  return lowered(KernelId::kResizeNearest, std::move(params));
}

}  // namespace mote::lower
