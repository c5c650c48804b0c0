// L2_POOL_2D (float32, as TensorFlow Lite Micro's l2_pool_2d.cc / reference_ops::L2Pool):
// SAME and VALID padding, several windows and strides, fused RELU / RELU6 / RELU_N1_TO_1,
// against sqrtf(sum of the squares of the cells inside the image / their count) written
// here; int8 (no TFLM kernel) is refused with one line.
#include <algorithm>
#include <cmath>
#include <random>

#include "ops/op_test.h"

namespace mote::testing {
namespace l2_pool2d_test {

constexpr int32_t kL2Pool = op_code(fb::BuiltinOperator::L2_POOL_2D);

struct Pool {
  fb::Padding padding;
  int32_t filter_h, filter_w, stride_h, stride_w;
  fb::ActivationFunctionType act = fb::ActivationFunctionType::NONE;
};

int32_t out_size(const Pool& p, int32_t in, int32_t filter, int32_t stride) {
  return p.padding == fb::Padding::SAME ? (in + stride - 1) / stride : (in - filter) / stride + 1;
}

ModelSpec l2_pool_model(const Pool& p, TensorSpec x, TensorSpec y) {
  return single_op_model({std::move(x), std::move(y)}, kL2Pool, {0}, {1}, fb::BuiltinOptions::Pool2DOptions,
                         [p](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreatePool2DOptions(b, p.padding, p.stride_w, p.stride_h, p.filter_w,
                                                          p.filter_h, p.act)
                               .Union();
                         });
}

// TFLite's L2Pool over NHWC `shape`: SAME pads split as TFLite (the smaller half first).
std::vector<float> ref_l2_pool(const Pool& p, const std::vector<int32_t>& shape, const std::vector<float>& x) {
  const int32_t n = shape[0], h = shape[1], w = shape[2], c = shape[3];
  const int32_t oh = out_size(p, h, p.filter_h, p.stride_h), ow = out_size(p, w, p.filter_w, p.stride_w);
  const int32_t pad_h = p.padding == fb::Padding::SAME ? std::max((oh - 1) * p.stride_h + p.filter_h - h, 0) / 2 : 0;
  const int32_t pad_w = p.padding == fb::Padding::SAME ? std::max((ow - 1) * p.stride_w + p.filter_w - w, 0) / 2 : 0;
  float lo = -INFINITY, hi = INFINITY;
  if (p.act == fb::ActivationFunctionType::RELU) lo = 0.0f;
  if (p.act == fb::ActivationFunctionType::RELU6) lo = 0.0f, hi = 6.0f;
  if (p.act == fb::ActivationFunctionType::RELU_N1_TO_1) lo = -1.0f, hi = 1.0f;
  std::vector<float> y;
  for (int32_t b = 0; b < n; ++b)
    for (int32_t oy = 0; oy < oh; ++oy)
      for (int32_t ox = 0; ox < ow; ++ox)
        for (int32_t ch = 0; ch < c; ++ch) {
          float sum = 0.0f;
          int32_t count = 0;
          for (int32_t ky = 0; ky < p.filter_h; ++ky)
            for (int32_t kx = 0; kx < p.filter_w; ++kx) {
              const int32_t iy = oy * p.stride_h - pad_h + ky, ix = ox * p.stride_w - pad_w + kx;
              if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
              const float v = x[((static_cast<size_t>(b) * h + iy) * w + ix) * c + ch];
              sum += v * v;
              ++count;
            }
          y.push_back(std::min(std::max(std::sqrt(sum / static_cast<float>(count)), lo), hi));
        }
  return y;
}

OP_TEST(L2Pool2d, Float32PaddingWindowsStridesActivations) {
  const std::vector<int32_t> shape = {2, 7, 6, 3};
  std::mt19937 rng(131);
  std::vector<float> x(2 * 7 * 6 * 3);
  for (float& v : x) v = std::uniform_real_distribution<float>(-4.0f, 4.0f)(rng);
  x[5] = 0.0f;
  const Pool pools[] = {{fb::Padding::VALID, 2, 2, 2, 2},
                        {fb::Padding::SAME, 3, 3, 1, 1},
                        {fb::Padding::SAME, 3, 2, 2, 3},
                        {fb::Padding::VALID, 7, 6, 1, 1},
                        {fb::Padding::SAME, 2, 2, 2, 2, fb::ActivationFunctionType::RELU6},
                        {fb::Padding::VALID, 1, 1, 1, 1, fb::ActivationFunctionType::RELU_N1_TO_1},
                        {fb::Padding::SAME, 4, 1, 3, 1, fb::ActivationFunctionType::RELU}};
  int k = 0;
  for (const Pool& p : pools) {
    const std::vector<int32_t> out = {2, out_size(p, 7, p.filter_h, p.stride_h), out_size(p, 6, p.filter_w, p.stride_w),
                                      3};
    // The kernel may fuse each square into the sum (FMA): a few float ulps.
    expect_op_outputs("l2_pool_f32_" + std::to_string(k++),
                      l2_pool_model(p, TensorSpec("x", shape), TensorSpec("y", out)),
                      {{{bytes_of(x)}, {bytes_of(ref_l2_pool(p, shape, x))}}}, FloatTolerance{1e-7, 1e-6});
  }
}

OP_TEST(L2Pool2d, Int8IsRefusedAsTfliteMicroHasNoKernel) {
  const Pool p{fb::Padding::VALID, 2, 2, 2, 2};
  EXPECT_EQ(op_error("l2_pool_s8", l2_pool_model(p, quantized("x", {1, 4, 4, 2}, fb::TensorType::INT8, 0.1f, 0),
                                                 quantized("y", {1, 2, 2, 2}, fb::TensorType::INT8, 0.1f, 0))),
            "node 'y' (l2_pool2d): input 'x' has dtype int8, expected float32 (TensorFlow Lite Micro's l2_pool2d)");
}

}  // namespace l2_pool2d_test
}  // namespace mote::testing
