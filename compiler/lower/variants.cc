// Variant choice per reference kernel. Each select_* below decides, from the node's
// shapes and the reference parameters already in op.params, whether a faster variant of
// that kernel applies on the target, and sets its kernel id and scratch.
#include "lower/variants.h"

#include <cstring>
#include <vector>

#include "conv2d/conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "elementwise/elementwise.h"
#include "fully_connected/fully_connected.h"
#include "pool2d/pool2d.h"

namespace mote::lower {

namespace {

template <typename T>
T params_as(const LoweredOp& op) {
  T p;
  std::memcpy(&p, op.params.data(), sizeof(T));
  return p;
}

// Armv7E-M / Armv8-M DSP extension variants (cortex-m4, m7, m33, m55).
// conv2d_s8_1x1__dsp for 1x1 kernels without padding (any stride), conv2d_s8__dsp for
// every other groups == 1 conv; grouped convs keep the reference.
void select_conv2d_s8_dsp(const NodeLowering& l, LoweredOp& op) {
  const auto p = params_as<Conv2dS8Params>(op);
  if (p.groups != 1) return;
  const ir::Shape& filter = l.input(1).shape;  // [O, KH, KW, C]
  const auto kernel_h = static_cast<int32_t>(filter[1]);
  const auto kernel_w = static_cast<int32_t>(filter[2]);
  const auto in_c = static_cast<int32_t>(filter[3]);
  const bool no_pad = p.window.pad_top == 0 && p.window.pad_left == 0 && p.window.pad_bottom == 0 && p.window.pad_right == 0;
  if (kernel_h == 1 && kernel_w == 1 && no_pad) {
    op.kernel = KernelId::kConv2dS81x1Dsp;
    op.scratch_bytes += conv2d_s8_1x1__dsp_scratch_bytes(in_c);
  } else {
    op.kernel = KernelId::kConv2dS8Dsp;
    op.scratch_bytes += conv2d_s8__dsp_scratch_bytes(kernel_h, kernel_w, in_c);
  }
}
// The kernel's view of a rank-4 depthwise node: input [N,H,W,C], output [N,OH,OW,OC],
// filter [1,KH,KW,OC].
DepthwiseConv2dShape depthwise_shape(const ir::Shape& in, const ir::Shape& out, const ir::Shape& filter) {
  DepthwiseConv2dShape shape{};
  shape.batch = static_cast<int32_t>(in[0]);
  shape.in_h = static_cast<int32_t>(in[1]);
  shape.in_w = static_cast<int32_t>(in[2]);
  shape.in_c = static_cast<int32_t>(in[3]);
  shape.out_h = static_cast<int32_t>(out[1]);
  shape.out_w = static_cast<int32_t>(out[2]);
  shape.out_c = static_cast<int32_t>(out[3]);
  shape.kernel_h = static_cast<int32_t>(filter[1]);
  shape.kernel_w = static_cast<int32_t>(filter[2]);
  return shape;
}

// 3x3 dilation-1 filters with a constant filter and bias (and a requantization its fast
// path takes) the specialized variant, its table computed here into its params (flash),
// other depth-multiplier-1 ones the general variant; depth multipliers >= 2 with a
// constant filter the multiplier variant, its filter arranged here into its params
// (flash), unless its scratch (the window) passes kMaxMultScratchBytes; otherwise the
// reference.
constexpr uint32_t kMaxMultScratchBytes = 4096;

void select_depthwise_conv2d_s8_dsp(const NodeLowering& l, LoweredOp& op) {
  const auto p = params_as<DepthwiseConv2dS8Params>(op);
  const ir::Shape& filter = l.input(1).shape;
  if (filter.size() != 4) return;
  const ir::Shape& in = l.input(0).shape;
  const ir::Shape& out = l.output(0).shape;
  const DepthwiseConv2dShape shape = depthwise_shape(in, out, filter);
  if (depthwise_conv2d_s8_mult__dsp_supports(p)) {
    const ir::Tensor& weights = l.input(1);
    const uint32_t scratch = depthwise_conv2d_s8_mult__dsp_scratch_bytes(p, shape);
    if (!weights.is_constant || weights.data.size() != static_cast<size_t>(weights.elements()) ||
        scratch > kMaxMultScratchBytes) {
      return;
    }
    const size_t reference_bytes = op.params.size();
    op.params.resize(reference_bytes + depthwise_conv2d_s8_mult__dsp_arranged_bytes(shape));
    depthwise_conv2d_s8_mult__dsp_arrange(shape, reinterpret_cast<const int8_t*>(weights.data.data()),
                                          reinterpret_cast<int8_t*>(op.params.data() + reference_bytes));
    op.kernel = KernelId::kDepthwiseConv2dS8MultDsp;
    op.scratch_bytes += scratch;
    return;
  }
  if (!depthwise_conv2d_s8__dsp_supports(p)) return;
  // The 3x3 variant's table (filter pairs, requantization constants, input zero points)
  // is computed here into its params: only for a constant filter and bias, and only when
  // its fast path applies (else it would run the general variant's path).
  if (depthwise_conv2d_s8_3x3__dsp_supports(p, static_cast<uint32_t>(filter[1]),
                                            static_cast<uint32_t>(filter[2]))) {
    const ir::Tensor& weights = l.input(1);
    const bool has_bias = l.has_input(2);
    const bool constant =
        weights.is_constant && weights.data.size() == static_cast<size_t>(weights.elements()) &&
        (!has_bias || (l.input(2).is_constant && l.input(2).dtype == DType::kInt32 &&
                       l.input(2).elements() == shape.in_c &&
                       l.input(2).data.size() == static_cast<size_t>(l.input(2).bytes())));
    const uint32_t channels = static_cast<uint32_t>(shape.in_c);
    if (constant && op.params.size() == sizeof(DepthwiseConv2dS8Params) + 8 * size_t{channels}) {
      const size_t reference_bytes = op.params.size();
      std::vector<int32_t> bias;
      if (has_bias) {
        bias.resize(channels);
        std::memcpy(bias.data(), l.input(2).data.data(), bias.size() * 4);
      }
      std::vector<uint8_t> table(depthwise_conv2d_s8_3x3__dsp_table_bytes(shape.in_c));
      std::vector<int32_t> arrays(2 * size_t{channels});
      std::memcpy(arrays.data(), op.params.data() + sizeof(DepthwiseConv2dS8Params),
                  arrays.size() * 4);
      if (depthwise_conv2d_s8_3x3__dsp_make_table(
              p, arrays.data(), arrays.data() + channels, has_bias ? bias.data() : nullptr,
              reinterpret_cast<const int8_t*>(weights.data.data()), shape.in_c, table.data())) {
        op.params.resize(reference_bytes + table.size());
        std::memcpy(op.params.data() + reference_bytes, table.data(), table.size());
        op.kernel = KernelId::kDepthwiseConv2dS83x3Dsp;
        op.scratch_bytes += depthwise_conv2d_s8_3x3__dsp_scratch_bytes(p, shape);
        return;
      }
    }
  }
  op.kernel = KernelId::kDepthwiseConv2dS8Dsp;
  op.scratch_bytes += depthwise_conv2d_s8__dsp_scratch_bytes(p, shape);
}
// Every int8 layer. The variant widens input rows of up to 1024 features to int16 in
// scratch (at most 2 KB) and widens longer rows on the fly without scratch (e.g.
// micro_speech's 4000 -> 4 layer), so fully_connected_s8__dsp_scratch_bytes() bounds the
// RAM it adds.
void select_fully_connected_s8_dsp(const NodeLowering& l, LoweredOp& op) {
  const ir::Shape& weights = l.input(1).shape;
  if (weights.size() != 2) return;
  op.kernel = KernelId::kFullyConnectedS8Dsp;
  op.scratch_bytes += fully_connected_s8__dsp_scratch_bytes(static_cast<int32_t>(weights[1]));
}
// Adds whose inputs both have the output's shape (ResNet's residual adds) and at least
// kAddS8TableMinCount elements: add_s8_lut__dsp, its rescaling tables computed here into
// its parameters (2 KiB more flash; no scratch, no table build per run). Shorter adds
// keep the reference: add_s8__dsp would run the reference arithmetic for them too, but
// reserve its 2 KiB table scratch, so it is no longer picked (it stays registered for
// programs that name it). Broadcasting adds keep the reference.
void select_add_s8_dsp(const NodeLowering& l, LoweredOp& op) {
  const ir::Shape& out = l.output(0).shape;
  if (l.input(0).shape != out || l.input(1).shape != out) return;
  int64_t count = 1;
  for (const int64_t d : out) count *= d;
  if (count < kAddS8TableMinCount) return;
  AddS8LutParams lut;
  add_s8_lut__dsp_make_params(params_as<QuantAddSubParams>(op), &lut);
  op.params.resize(sizeof(lut));
  std::memcpy(op.params.data(), &lut, sizeof(lut));
  op.kernel = KernelId::kAddS8LutDsp;
  op.scratch_bytes += add_s8_lut__dsp_scratch_bytes();
}
// The pooling variants take every shape the reference takes, and no scratch.
void select_pool2d_s8_dsp(const NodeLowering& /*l*/, LoweredOp& op) {
  op.kernel = op.kernel == KernelId::kAvgPool2dS8 ? KernelId::kAvgPool2dS8Dsp
                                                  : KernelId::kMaxPool2dS8Dsp;
}

// Helium (MVE) variants (cortex-m55). Each returns true when it picked one; otherwise
// the DSP choice runs.
// conv2d_s8_1x1__mve for 1x1 kernels without padding (any stride), conv2d_s8__mve for
// every other groups == 1 conv; grouped convs fall through to the DSP choice.
bool select_conv2d_s8_mve(const NodeLowering& l, LoweredOp& op) {
  const auto p = params_as<Conv2dS8Params>(op);
  const ir::Shape& filter = l.input(1).shape;  // [O, KH, KW, C]
  if (p.groups != 1 || filter.size() != 4) return false;
  const auto out_c = static_cast<int32_t>(filter[0]);
  const auto kernel_h = static_cast<int32_t>(filter[1]);
  const auto kernel_w = static_cast<int32_t>(filter[2]);
  const auto in_c = static_cast<int32_t>(filter[3]);
  const bool no_pad = p.window.pad_top == 0 && p.window.pad_left == 0 && p.window.pad_bottom == 0 && p.window.pad_right == 0;
  if (kernel_h == 1 && kernel_w == 1 && no_pad) {
    op.kernel = KernelId::kConv2dS81x1Mve;
    op.scratch_bytes += conv2d_s8_1x1__mve_scratch_bytes(out_c);
  } else {
    op.kernel = KernelId::kConv2dS8Mve;
    op.scratch_bytes += conv2d_s8__mve_scratch_bytes(out_c, kernel_h, kernel_w, in_c);
  }
  return true;
}
// depthwise_conv2d_s8__mve for depth multiplier 1 (any window); others go on to the DSP
// choice.
bool select_depthwise_conv2d_s8_mve(const NodeLowering& l, LoweredOp& op) {
  const auto p = params_as<DepthwiseConv2dS8Params>(op);
  const ir::Shape& filter = l.input(1).shape;
  const ir::Shape& in = l.input(0).shape;
  const ir::Shape& out = l.output(0).shape;
  if (p.depth_multiplier != 1 || filter.size() != 4 || in.size() != 4 || out.size() != 4) {
    return false;
  }
  const DepthwiseConv2dShape shape = depthwise_shape(in, out, filter);
  if (shape.out_h < 1 || shape.out_w < 1) return false;
  op.kernel = KernelId::kDepthwiseConv2dS8Mve;
  op.scratch_bytes += depthwise_conv2d_s8__mve_scratch_bytes(p, shape);
  return true;
}
// Every int8 fully connected layer (the variant has no shape limits).
bool select_fully_connected_s8_mve(const NodeLowering& l, LoweredOp& op) {
  if (l.input(1).shape.size() != 2) return false;
  op.kernel = KernelId::kFullyConnectedS8Mve;
  op.scratch_bytes += fully_connected_s8__mve_scratch_bytes();
  return true;
}
// add_s8__mve when neither input is broadcast (both have the output's element count).
bool select_add_s8_mve(const NodeLowering& l, LoweredOp& op) {
  const auto elements = [](const ir::Shape& shape) {
    int64_t n = 1;
    for (const int64_t d : shape) n *= d;
    return n;
  };
  const int64_t n = elements(l.output(0).shape);
  if (elements(l.input(0).shape) != n || elements(l.input(1).shape) != n) return false;
  op.kernel = KernelId::kAddS8Mve;
  return true;
}
// Every int8 max pool; average pools whose window has at most kAvgPool2dS8MveMaxTaps
// cells (the exact range of the variant's reciprocal division).
bool select_pool2d_s8_mve(const NodeLowering& /*l*/, LoweredOp& op) {
  const auto p = params_as<Pool2dS8Params>(op);
  if (op.kernel == KernelId::kMaxPool2dS8) {
    op.kernel = KernelId::kMaxPool2dS8Mve;
    return true;
  }
  if (int64_t{p.kernel_h} * p.kernel_w > kAvgPool2dS8MveMaxTaps) return false;
  op.kernel = KernelId::kAvgPool2dS8Mve;
  return true;
}

// Armv6-M variants (cortex-m0plus). None needs scratch, so the arena never grows.
// conv2d_s8__v6m for groups == 1 convs, depthwise_conv2d_s8__v6m for depth multiplier 1,
// fully_connected_s8__v6m for every int8 fully connected layer; others keep the reference.
void select_v6m(const NodeLowering& l, LoweredOp& op) {
  switch (op.kernel) {
    case KernelId::kConv2dS8:
      if (params_as<Conv2dS8Params>(op).groups != 1 || l.input(1).shape.size() != 4) return;
      op.kernel = KernelId::kConv2dS8V6m;
      op.scratch_bytes += conv2d_s8__v6m_scratch_bytes();
      break;
    case KernelId::kDepthwiseConv2dS8:
      if (params_as<DepthwiseConv2dS8Params>(op).depth_multiplier != 1) return;
      op.kernel = KernelId::kDepthwiseConv2dS8V6m;
      op.scratch_bytes += depthwise_conv2d_s8__v6m_scratch_bytes();
      break;
    case KernelId::kFullyConnectedS8:
      if (l.input(1).shape.size() != 2) return;
      op.kernel = KernelId::kFullyConnectedS8V6m;
      op.scratch_bytes += fully_connected_s8__v6m_scratch_bytes();
      break;
    default: break;
  }
}

}  // namespace

void select_variant(const NodeLowering& l, Target target, LoweredOp& op) {
  const TargetIsa isa = target_info(target).isa;
  if (isa.v6m) {
    select_v6m(l, op);
    return;
  }
  if (!isa.dsp && !isa.mve) return;
  switch (op.kernel) {
    case KernelId::kConv2dS8:
      if (!(isa.mve && select_conv2d_s8_mve(l, op)) && isa.dsp) select_conv2d_s8_dsp(l, op);
      break;
    case KernelId::kDepthwiseConv2dS8:
      if (!(isa.mve && select_depthwise_conv2d_s8_mve(l, op)) && isa.dsp)
        select_depthwise_conv2d_s8_dsp(l, op);
      break;
    case KernelId::kFullyConnectedS8:
      if (!(isa.mve && select_fully_connected_s8_mve(l, op)) && isa.dsp)
        select_fully_connected_s8_dsp(l, op);
      break;
    case KernelId::kAddS8:
      if (!(isa.mve && select_add_s8_mve(l, op)) && isa.dsp) select_add_s8_dsp(l, op);
      break;
    case KernelId::kAvgPool2dS8:
    case KernelId::kMaxPool2dS8:
      if (!(isa.mve && select_pool2d_s8_mve(l, op)) && isa.dsp) select_pool2d_s8_dsp(l, op);
      break;
    default: break;
  }
}

}  // namespace mote::lower
