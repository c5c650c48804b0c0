// Lowering of the resize ops: resize_nearest, resize_bilinear, resize_cubic (mote_ops.md).
// NHWC images scaled along H and W. The source coordinates (and, bilinear, the weights) of each output
// row and column are computed here, on the host, so the kernels only gather and blend:
// with TFLite's arithmetic (align_corners, half_pixel_centers), or with ONNX Resize's
// (a `coordinate_transform`, `nearest_mode` and the scales, in double as the spec's
// formulas). resize_cubic, and ONNX's tf_crop_and_resize in every mode, run the separable
// kernels (resize_cubic_f32, and resize_cubic_s8 for cubic): four weighted taps per output
// row and column.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <string>
#include <variant>
#include <vector>

#include "lower/node_lowering.h"
#include "lower/quantization.h"
// Kernel contracts.
#include "resize_bilinear/resize_bilinear.h"
#include "resize_cubic/resize_cubic.h"
#include "resize_nearest/resize_nearest.h"

// TFLite rounds every float product and sum: no fused multiply-add, which GCC forms by
// default on hosts that have one (AArch64).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace mote::lower {
namespace {

// One input, one output of its dtype, both [N,H,W,C] with the same N and C; `blends`:
// the dtype is float32, int8 or int16 (the bilinear kernels; nearest moves any dtype).
void check_resize(const NodeLowering& l, bool blends) {
  expect_unary_io(l);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  if (blends && in.dtype != DType::kFloat32 && in.dtype != DType::kInt8 && in.dtype != DType::kInt16)
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

// One output coordinate's bilinear tap, float kernel: TFLite's
// ComputeInterpolationValues with the scale (in / out, or (in - 1) / (out - 1) when
// aligning corners and out > 1) in float.
ResizeBilinearF32Tap bilinear_f32_tap(int64_t o, int64_t in, int64_t out, bool align_corners,
                                      bool half_pixel_centers) {
  const float scale = align_corners && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                                               : static_cast<float>(in) / static_cast<float>(out);
  const float position = half_pixel_centers ? (static_cast<float>(o) + 0.5f) * scale - 0.5f
                                            : static_cast<float>(o) * scale;
  ResizeBilinearF32Tap tap;
  tap.lower = static_cast<int32_t>(std::max<int64_t>(static_cast<int64_t>(std::floor(position)), 0));
  tap.upper = static_cast<int32_t>(std::min<int64_t>(static_cast<int64_t>(std::ceil(position)), in - 1));
  tap.fraction = position - static_cast<float>(tap.lower);
  return tap;
}

// The same, integer kernels: TFLite's ComputeInterpolationValuesInteger, the scale in
// 1/1024 rounded to nearest and every step in integers (division truncating). Computed in
// int64; TFLite's int32 arithmetic must not overflow.
ResizeBilinearQuantTap bilinear_quant_tap(const NodeLowering& l, int64_t o, int64_t in, int64_t out,
                                          bool align_corners, bool half_pixel_centers) {
  const bool aligned = align_corners && out > 1;
  const int64_t num = aligned ? in - 1 : in, den = aligned ? out - 1 : out;
  const int64_t scale = (1024 * num + den / 2) / den;
  const int64_t position = half_pixel_centers ? o * scale + scale / 2 - 512 : o * scale;
  if (1024 * num + den / 2 > kMaxI32 || position + 1023 > kMaxI32)
    l.fail("resize from " + std::to_string(in) + " to " + std::to_string(out) + " overflows TFLite's int32 arithmetic");
  ResizeBilinearQuantTap tap;
  tap.lower = static_cast<int32_t>(std::max<int64_t>(position / 1024, 0));
  tap.upper = static_cast<int32_t>(std::min<int64_t>((position + 1023) / 1024, in - 1));
  tap.fraction = static_cast<int32_t>(position - 1024 * int64_t{tap.lower});
  return tap;
}

// Every tap inside [0, in), as the kernels require: TFLite does not clamp `lower` from
// above, so extreme ratios (a huge output, or the integer scale rounded up) would read
// past the input there; such a resize is refused.
template <typename Tap>
void expect_inside(const NodeLowering& l, const std::vector<Tap>& taps, const ir::Shape& in, int64_t out_h) {
  for (size_t i = 0; i < taps.size(); ++i) {
    const bool row = static_cast<int64_t>(i) < out_h;
    const int64_t dim = in[row ? 1 : 2];
    if (taps[i].lower >= dim || taps[i].upper >= dim || taps[i].upper < 0) {
      const int64_t o = row ? static_cast<int64_t>(i) : static_cast<int64_t>(i) - out_h;
      l.fail(std::string("output ") + (row ? "row " : "column ") + std::to_string(o) + " reads input " +
             (row ? "row " : "column ") + std::to_string(taps[i].lower) + " of " + std::to_string(dim) +
             " in TFLite's arithmetic, not supported");
    }
  }
}

// ---- ONNX Resize's coordinates ----
// The op's ONNX attributes: the coordinate transform (empty: TFLite's flags), the nearest
// rounding and the per-axis scales (H, W).
struct OnnxCoordinates {
  std::string transform;
  std::string nearest_mode;
  double scale[2];
  double roi[2][2] = {{0.0, 1.0}, {0.0, 1.0}};  // tf_crop_and_resize: {start, end} of H, W
  double extrapolation_value = 0.0;             // tf_crop_and_resize: points outside
  bool crop() const { return transform == "tf_crop_and_resize"; }
};

bool onnx_coordinates(const NodeLowering& l, OnnxCoordinates* c) {
  if (!l.node().has("coordinate_transform")) return false;
  c->transform = l.node().get_string("coordinate_transform");
  static const char* const kTransforms[] = {"half_pixel",           "pytorch_half_pixel", "align_corners",
                                            "asymmetric",           "tf_half_pixel_for_nn",
                                            "tf_crop_and_resize"};
  if (std::find(std::begin(kTransforms), std::end(kTransforms), c->transform) == std::end(kTransforms))
    l.fail("coordinate_transform '" + c->transform + "' not supported");
  c->nearest_mode = l.node().get_string("nearest_mode", "round_prefer_floor");
  if (c->nearest_mode != "round_prefer_floor" && c->nearest_mode != "round_prefer_ceil" &&
      c->nearest_mode != "floor" && c->nearest_mode != "ceil")
    l.fail("nearest_mode '" + c->nearest_mode + "' not supported");
  c->scale[0] = l.node().get_float("scale_h", 0.0);
  c->scale[1] = l.node().get_float("scale_w", 0.0);
  if (!(c->scale[0] > 0.0) || !(c->scale[1] > 0.0) || !std::isfinite(c->scale[0]) || !std::isfinite(c->scale[1]))
    l.fail("scales " + std::to_string(c->scale[0]) + ", " + std::to_string(c->scale[1]) + " must be positive");
  if (c->crop()) {
    const auto it = l.node().attrs.find("roi");
    const auto* roi = it == l.node().attrs.end() ? nullptr : std::get_if<std::vector<double>>(&it->second);
    if (roi == nullptr || roi->size() != 4) l.fail("tf_crop_and_resize needs roi {h_start, h_end, w_start, w_end}");
    for (int axis = 0; axis < 2; ++axis)
      for (int k = 0; k < 2; ++k) c->roi[axis][k] = (*roi)[2 * axis + k];
    c->extrapolation_value = l.node().get_float("extrapolation_value", 0.0);
  }
  return true;
}

// The input coordinate of output coordinate `o` (ONNX Resize's coordinate_transformation_mode).
double onnx_source(const OnnxCoordinates& c, int axis, int64_t o, int64_t in, int64_t out) {
  const double x = static_cast<double>(o), scale = c.scale[axis];
  if (c.transform == "align_corners")
    return out > 1 ? x * static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0;
  if (c.crop()) {
    const double start = c.roi[axis][0], end = c.roi[axis][1], last = static_cast<double>(in - 1);
    if (out == 1) return (end - start) * last / 2.0 + start * last;
    return x * (end - start) * last / static_cast<double>(out - 1) + start * last;
  }
  if (c.transform == "asymmetric") return x / scale;
  if (c.transform == "tf_half_pixel_for_nn") return (x + 0.5) / scale;
  if (c.transform == "pytorch_half_pixel" && out <= 1) return 0.0;
  return (x + 0.5) / scale - 0.5;  // half_pixel, pytorch_half_pixel
}

// ONNX's nearest_mode, then clamped into the input.
int32_t onnx_nearest(const OnnxCoordinates& c, double v, int64_t in) {
  const double lower = std::floor(v);
  double pick;
  if (c.nearest_mode == "floor") {
    pick = lower;
  } else if (c.nearest_mode == "ceil") {
    pick = std::ceil(v);
  } else if (v - lower == 0.5) {
    pick = c.nearest_mode == "round_prefer_floor" ? lower : lower + 1.0;
  } else {
    pick = std::round(v);
  }
  return static_cast<int32_t>(std::clamp<double>(pick, 0.0, static_cast<double>(in - 1)));
}

// ONNX's linear interpolation between floor(v) and floor(v) + 1, both clamped into the
// input (the spec pads by the edge): the weight of `upper` in [0, 1).
struct OnnxLinear {
  int32_t lower, upper;
  double fraction;
};
OnnxLinear onnx_linear(double v, int64_t in) {
  const double floor_v = std::floor(v);
  const double top = static_cast<double>(in - 1);
  OnnxLinear t;
  t.lower = static_cast<int32_t>(std::clamp(floor_v, 0.0, top));
  t.upper = static_cast<int32_t>(std::clamp(floor_v + 1.0, 0.0, top));
  t.fraction = t.lower == t.upper ? 0.0 : v - floor_v;
  return t;
}

template <typename Tap>
std::vector<uint8_t> taps_bytes(const std::vector<Tap>& taps) {
  std::vector<uint8_t> bytes(taps.size() * sizeof(Tap));
  if (!taps.empty()) std::memcpy(bytes.data(), taps.data(), bytes.size());
  return bytes;
}

// resize_bilinear with ONNX coordinates: float fractions rounded to float, integer ones to
// the nearest 1/1024.
LoweredOp lower_onnx_bilinear(const NodeLowering& l, const OnnxCoordinates& onnx) {
  const ir::Shape& in = l.input(0).shape;
  const ir::Shape& out = l.output(0).shape;
  std::vector<OnnxLinear> linear;
  for (int axis = 1; axis <= 2; ++axis)
    for (int64_t o = 0; o < out[axis]; ++o)
      linear.push_back(onnx_linear(onnx_source(onnx, axis - 1, o, in[axis], out[axis]), in[axis]));
  if (l.input(0).dtype == DType::kFloat32) {
    std::vector<ResizeBilinearF32Tap> taps;
    for (const OnnxLinear& t : linear) taps.push_back({t.lower, t.upper, static_cast<float>(t.fraction)});
    return lowered(KernelId::kResizeBilinearF32, taps_bytes(taps));
  }
  std::vector<ResizeBilinearQuantTap> taps;
  for (const OnnxLinear& t : linear) {
    const auto fraction = static_cast<int32_t>(std::lround(t.fraction * 1024.0));
    // A weight that rounds to 1024 reads `upper` alone.
    if (fraction >= 1024) taps.push_back({t.upper, t.upper, 0});
    else taps.push_back({t.lower, t.upper, fraction});
  }
  return lowered(l.input(0).dtype == DType::kInt8 ? KernelId::kResizeBilinearS8 : KernelId::kResizeBilinearS16,
                 taps_bytes(taps));
}

// ---- the separable kernels (resize_cubic_f32, resize_cubic_s8) ----
// One output row's (column's) taps, weights in double until packed for a kernel.
struct SeparableTap {
  int32_t index[kResizeCubicTaps];
  double weight[kResizeCubicTaps];
  bool inside;
};

// A tap reading `index` alone.
SeparableTap single_tap(int32_t index) {
  SeparableTap tap{};
  for (int i = 0; i < kResizeCubicTaps; ++i) tap.index[i] = index;
  tap.weight[0] = 1.0;
  tap.inside = true;
  return tap;
}

SeparableTap nearest_tap(const OnnxCoordinates& c, double v, int64_t in) { return single_tap(onnx_nearest(c, v, in)); }

SeparableTap linear_tap(double v, int64_t in) {
  const OnnxLinear t = onnx_linear(v, in);
  SeparableTap tap = single_tap(t.lower);
  tap.index[1] = t.upper;
  tap.weight[0] = 1.0 - t.fraction;
  tap.weight[1] = t.fraction;
  return tap;
}

// ONNX's cubic taps of coordinate v: the inputs floor(v) - 1 .. floor(v) + 2, or v - 2 ..
// v + 1 when v is whole (the weight then falls on v alone), with Keys' weights for
// coefficient a at distances t + 1, t, 1 - t, 2 - t (t = v - the second tap, in (0, 1]);
// taps outside [0, in) read the edge, or with exclude_outside weigh 0 and the others are
// renormalised to sum 1.
SeparableTap cubic_tap(const NodeLowering& l, double v, int64_t in, double a, bool exclude_outside) {
  const double second = std::ceil(v) - 1.0;
  const double t = v - second;
  auto near = [a](double d) { return ((a + 2.0) * d - (a + 3.0)) * d * d + 1.0; };        // |d| <= 1
  auto far = [a](double d) { return ((a * d - 5.0 * a) * d + 8.0 * a) * d - 4.0 * a; };  // 1 < |d| <= 2
  SeparableTap tap{{}, {far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t)}, true};
  const double top = static_cast<double>(in - 1);
  double sum = 0.0;
  for (int i = 0; i < kResizeCubicTaps; ++i) {
    const double index = second - 1.0 + i;
    if (exclude_outside && (index < 0.0 || index > top)) tap.weight[i] = 0.0;
    sum += tap.weight[i];
    tap.index[i] = static_cast<int32_t>(std::clamp(index, 0.0, top));
  }
  if (exclude_outside && sum == 0.0)
    l.fail("exclude_outside leaves input coordinate " + std::to_string(v) + " no weight");
  if (exclude_outside)
    for (double& w : tap.weight) w /= sum;
  return tap;
}

// make_tap(v, in) for each output row, then column (v its input coordinate); a coordinate
// outside [0, in - 1] under tf_crop_and_resize is extrapolated.
template <typename MakeTap>
std::vector<SeparableTap> separable_taps(const NodeLowering& l, const OnnxCoordinates& c, MakeTap make_tap) {
  const ir::Shape& in = l.input(0).shape;
  const ir::Shape& out = l.output(0).shape;
  std::vector<SeparableTap> taps;
  for (int axis = 1; axis <= 2; ++axis) {
    for (int64_t o = 0; o < out[axis]; ++o) {
      const double v = onnx_source(c, axis - 1, o, in[axis], out[axis]);
      const bool inside = !c.crop() || (v >= 0.0 && v <= static_cast<double>(in[axis] - 1));
      SeparableTap tap = inside ? make_tap(v, in[axis]) : single_tap(0);
      tap.inside = inside;
      taps.push_back(tap);
    }
  }
  return taps;
}

template <typename Header, typename Tap>
std::vector<uint8_t> separable_bytes(const Header& header, const std::vector<Tap>& taps) {
  std::vector<uint8_t> bytes(sizeof header);
  std::memcpy(bytes.data(), &header, sizeof header);
  const std::vector<uint8_t> rest = taps_bytes(taps);
  bytes.insert(bytes.end(), rest.begin(), rest.end());
  return bytes;
}

// resize_cubic_f32: the weights rounded to float.
LoweredOp lower_separable_f32(const OnnxCoordinates& c, const std::vector<SeparableTap>& taps) {
  std::vector<ResizeCubicTap> packed;
  for (const SeparableTap& t : taps) {
    ResizeCubicTap p{};
    for (int i = 0; i < kResizeCubicTaps; ++i) {
      p.index[i] = t.index[i];
      p.weight[i] = static_cast<float>(t.weight[i]);
    }
    p.inside = t.inside ? 1 : 0;
    packed.push_back(p);
  }
  const ResizeCubicParams params{static_cast<float>(c.extrapolation_value)};
  return lowered(KernelId::kResizeCubicF32, separable_bytes(params, packed));
}

// resize_cubic_s8: weights rounded to 1/4096 (within int16), the requantization
// input_scale / output_scale / 4096 below 1, extrapolation_value quantized.
LoweredOp lower_separable_s8(const NodeLowering& l, const OnnxCoordinates& c, const std::vector<SeparableTap>& taps) {
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  ResizeCubicS8Params p{};
  p.input_zero_point = in_q.zero_point;
  p.output_zero_point = out_q.zero_point;
  quantize_multiplier(double{in_q.scale} / out_q.scale / kResizeCubicWeightOne, &p.multiplier, &p.shift);
  if (p.shift > 0)
    l.fail("input scale " + float_string(in_q.scale) + " over output scale " + float_string(out_q.scale) +
           " is 4096 or more, not supported");
  expect_shift(l, p.shift, kMinShift, 0, "output");
  const double extrapolated = std::round(c.extrapolation_value / out_q.scale) + out_q.zero_point;
  p.extrapolation = static_cast<int32_t>(std::clamp(extrapolated, -128.0, 127.0));
  std::vector<ResizeCubicQuantTap> packed;
  for (const SeparableTap& t : taps) {
    ResizeCubicQuantTap q{};
    for (int i = 0; i < kResizeCubicTaps; ++i) {
      const double w = std::round(t.weight[i] * kResizeCubicWeightOne);
      if (!(w >= -32768.0 && w <= 32767.0))
        l.fail("cubic weight " + float_string(t.weight[i]) + " is outside the int8 kernel's range (-8, 8)");
      q.index[i] = t.index[i];
      q.weight[i] = static_cast<int32_t>(w);
    }
    q.inside = t.inside ? 1 : 0;
    packed.push_back(q);
  }
  return lowered(KernelId::kResizeCubicS8, separable_bytes(p, packed));
}

// The separable kernel for float32; int8 for cubic (tf_crop_and_resize of nearest and
// linear stays float: pass-through ops keep the input's scale, which an extrapolation
// value need not fit).
template <typename MakeTap>
LoweredOp lower_separable(const NodeLowering& l, const OnnxCoordinates& c, MakeTap make_tap, bool cubic) {
  const ir::Tensor& input = l.input(0);
  const std::vector<SeparableTap> taps = separable_taps(l, c, make_tap);
  if (input.dtype == DType::kFloat32) return lower_separable_f32(c, taps);
  if (cubic && input.dtype == DType::kInt8) return lower_separable_s8(l, c, taps);
  l.fail(l.label(input, "input") + " has dtype " + dtype_name(input.dtype) + ", expected float32" +
         (cubic ? " or int8 (no int16 kernel for cubic)" : " (no integer kernel for tf_crop_and_resize)"));
}

}  // namespace

// resize_cubic: ONNX Resize's cubic mode; always ONNX coordinates.
LoweredOp lower_resize_cubic(const NodeLowering& l) {
  check_resize(l, false);
  OnnxCoordinates onnx;
  if (!onnx_coordinates(l, &onnx)) l.fail("coordinate_transform missing (resize_cubic takes ONNX's coordinates)");
  const double a = l.node().get_float("cubic_coeff_a", -0.75);
  if (!std::isfinite(a)) l.fail("cubic_coeff_a " + std::to_string(a) + " is not finite");
  const bool exclude_outside = flag(l, "exclude_outside");
  return lower_separable(
      l, onnx, [&](double v, int64_t in) { return cubic_tap(l, v, in, a, exclude_outside); }, true);
}

// resize_nearest: the params are source_row[OH] then source_col[OW].
LoweredOp lower_resize_nearest(const NodeLowering& l) {
  check_resize(l, false);
  const ir::Shape& in = l.input(0).shape;
  const ir::Shape& out = l.output(0).shape;
  std::vector<int32_t> sources;
  OnnxCoordinates onnx;
  if (onnx_coordinates(l, &onnx)) {
    if (onnx.crop())
      return lower_separable(l, onnx, [&](double v, int64_t n) { return nearest_tap(onnx, v, n); }, false);
    for (int axis = 1; axis <= 2; ++axis)
      for (int64_t o = 0; o < out[axis]; ++o)
        sources.push_back(onnx_nearest(onnx, onnx_source(onnx, axis - 1, o, in[axis], out[axis]), in[axis]));
    return lowered(KernelId::kResizeNearest, taps_bytes(sources));
  }
  const bool align_corners = flag(l, "align_corners");
  const bool half_pixel_centers = flag(l, "half_pixel_centers");
  for (int axis = 1; axis <= 2; ++axis)
    for (int64_t o = 0; o < out[axis]; ++o)
      sources.push_back(nearest_source(o, in[axis], out[axis], align_corners, half_pixel_centers));
  return lowered(KernelId::kResizeNearest, taps_bytes(sources));
}

// resize_bilinear: a tap per output row, then per output column (float32: float
// fractions; int8, int16: fractions in 1/1024). half_pixel_centers with align_corners is
// refused, as TFLite refuses it.
LoweredOp lower_resize_bilinear(const NodeLowering& l) {
  check_resize(l, true);
  OnnxCoordinates onnx;
  if (onnx_coordinates(l, &onnx))
    return onnx.crop() ? lower_separable(l, onnx, linear_tap, false) : lower_onnx_bilinear(l, onnx);
  const bool align_corners = flag(l, "align_corners");
  const bool half_pixel_centers = flag(l, "half_pixel_centers");
  if (align_corners && half_pixel_centers)
    l.fail("half_pixel_centers with align_corners is not supported (TFLite requires one of them false)");
  const ir::Shape& in = l.input(0).shape;
  const ir::Shape& out = l.output(0).shape;
  const DType dtype = l.input(0).dtype;
  if (dtype == DType::kFloat32) {
    std::vector<ResizeBilinearF32Tap> taps;
    for (int axis = 1; axis <= 2; ++axis)
      for (int64_t o = 0; o < out[axis]; ++o)
        taps.push_back(bilinear_f32_tap(o, in[axis], out[axis], align_corners, half_pixel_centers));
    expect_inside(l, taps, in, out[1]);
    return lowered(KernelId::kResizeBilinearF32, taps_bytes(taps));
  }
  std::vector<ResizeBilinearQuantTap> taps;
  for (int axis = 1; axis <= 2; ++axis)
    for (int64_t o = 0; o < out[axis]; ++o)
      taps.push_back(bilinear_quant_tap(l, o, in[axis], out[axis], align_corners, half_pixel_centers));
  expect_inside(l, taps, in, out[1]);
  return lowered(dtype == DType::kInt8 ? KernelId::kResizeBilinearS8 : KernelId::kResizeBilinearS16,
                 taps_bytes(taps));
}

std::vector<uint8_t> resize_sampling(const LoweredOp& op) {
  if (op.kernel != KernelId::kResizeBilinearS8 && op.kernel != KernelId::kResizeBilinearS16) return op.params;
  std::vector<ResizeBilinearQuantTap> taps(op.params.size() / sizeof(ResizeBilinearQuantTap));
  std::memcpy(taps.data(), op.params.data(), taps.size() * sizeof(ResizeBilinearQuantTap));
  for (ResizeBilinearQuantTap& tap : taps)
    if (tap.lower == tap.upper) tap.fraction = 0;
  std::vector<uint8_t> bytes(op.params.size());
  std::memcpy(bytes.data(), taps.data(), taps.size() * sizeof(ResizeBilinearQuantTap));
  return bytes;
}

}  // namespace mote::lower
