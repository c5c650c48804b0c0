// Variant choice: one rule per variant (when it applies to a node's shapes and
// parameters, and what it adds), and their order of preference (kRules). Which reference
// a variant replaces and which instruction set it needs come from the registry
// (kernels/kernel_registry.inc), so a rule names only its own variant.
#include "lower/variants.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernel_registry.h"

#include "conv2d/conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "elementwise/elementwise.h"
#include "fully_connected/fully_connected.h"
#include "lstm/lstm.h"
#include "mean/mean.h"
#include "pool2d/pool2d.h"

namespace mote::lower {

namespace {

template <typename T>
T params_as(const LoweredOp& op) {
  T p;
  std::memcpy(&p, op.params.data(), sizeof(T));
  return p;
}

// Each rule below decides whether its variant applies to node l, whose reference
// parameters are already in op.params (the reference is the variant's registry
// reference: the caller checked it). When it applies, the rule adds what the variant
// needs beyond the reference (scratch, parameter bytes the compiler computes for it) and
// returns true; otherwise it returns false and leaves op unchanged.
using Rule = bool (*)(const NodeLowering& l, LoweredOp& op);

bool no_padding(const WindowGeometry& w) {
  return w.pad_top == 0 && w.pad_left == 0 && w.pad_bottom == 0 && w.pad_right == 0;
}

// The filter's [O, KH, KW, C] as the kernels' scratch rules take them.
struct FilterDims {
  int32_t out_c, kernel_h, kernel_w, in_c;
};
bool conv_filter(const NodeLowering& l, FilterDims* f) {
  const ir::Shape& filter = l.input(1).shape;
  if (filter.size() != 4) return false;
  *f = {static_cast<int32_t>(filter[0]), static_cast<int32_t>(filter[1]), static_cast<int32_t>(filter[2]),
        static_cast<int32_t>(filter[3])};
  return true;
}

// ---- conv2d (int8): groups 1 only; 1x1 without padding (any stride) has its own variants.
bool conv2d_s8_1x1(const NodeLowering& l, const LoweredOp& op, FilterDims* f) {
  const auto p = params_as<Conv2dS8Params>(op);
  return p.groups == 1 && conv_filter(l, f) && f->kernel_h == 1 && f->kernel_w == 1 && no_padding(p.window);
}
bool conv2d_s8_general(const NodeLowering& l, const LoweredOp& op, FilterDims* f) {
  return params_as<Conv2dS8Params>(op).groups == 1 && conv_filter(l, f);
}
bool rule_conv2d_s8_1x1__mve(const NodeLowering& l, LoweredOp& op) {
  FilterDims f;
  if (!conv2d_s8_1x1(l, op, &f)) return false;
  op.scratch_bytes += conv2d_s8_1x1__mve_scratch_bytes(f.out_c);
  return true;
}
bool rule_conv2d_s8__mve(const NodeLowering& l, LoweredOp& op) {
  FilterDims f;
  if (!conv2d_s8_general(l, op, &f)) return false;
  op.scratch_bytes += conv2d_s8__mve_scratch_bytes(f.out_c, f.kernel_h, f.kernel_w, f.in_c);
  return true;
}
// The kernels' view (WindowShape) of a rank-4 convolution node: input [N,H,W,C], output
// [N,OH,OW,OC], filter [O,KH,KW,C] (conv2d) or [1,KH,KW,OC] (depthwise); false for other
// ranks.
bool window_shape(const NodeLowering& l, WindowShape* shape) {
  const ir::Shape& in = l.input(0).shape;
  const ir::Shape& out = l.output(0).shape;
  const ir::Shape& filter = l.input(1).shape;
  if (in.size() != 4 || out.size() != 4 || filter.size() != 4) return false;
  *shape = {};
  shape->batch = static_cast<int32_t>(in[0]);
  shape->in_h = static_cast<int32_t>(in[1]);
  shape->in_w = static_cast<int32_t>(in[2]);
  shape->in_c = static_cast<int32_t>(in[3]);
  shape->out_h = static_cast<int32_t>(out[1]);
  shape->out_w = static_cast<int32_t>(out[2]);
  shape->out_c = static_cast<int32_t>(out[3]);
  shape->kernel_h = static_cast<int32_t>(filter[1]);
  shape->kernel_w = static_cast<int32_t>(filter[2]);
  return true;
}
// ReLU-like pointwise layers with a bias whose records apply (conv2d_s8_1x1_relu__dsp_applies).
// Its params end with wide_channels, the channels whose records (bias, widened weights,
// requantization) a chunk of its scratch holds: as many as kPointwiseRecordBudget bytes
// hold are planned with the op's scratch (that much may raise the arena: kws' is set by
// its pointwise layers, and stays at 15,680 bytes with 48 of 64 channels planned, the
// depthwise layers' row-buffered placement and the pointwise layers' block rule of 1
// having freed 2.5 KB), and the rest up to every channel where the memory plan leaves room
// at the op (scratch_growth).
constexpr uint32_t kPointwiseRecordBudget = 6912;
bool rule_conv2d_s8_1x1_relu__dsp(const NodeLowering& l, LoweredOp& op) {
  FilterDims f;
  Conv2dShape shape;
  if (!conv2d_s8_1x1(l, op, &f) || !l.has_input(2) || !window_shape(l, &shape)) return false;
  const uint32_t unit = conv2d_s8_1x1_relu__dsp_record_bytes(f.in_c);
  const auto out_c = static_cast<uint32_t>(f.out_c);
  std::vector<int32_t> multipliers(out_c);
  std::memcpy(multipliers.data(), op.params.data() + sizeof(Conv2dS8Params), out_c * 4);
  if (unit == 0 || !conv2d_s8_1x1_relu__dsp_applies(params_as<Conv2dS8Params>(op), multipliers.data(), shape)) {
    return false;
  }
  const uint32_t planned = std::min(out_c, kPointwiseRecordBudget / unit);
  op.scratch_bytes += conv2d_s8_1x1_relu__dsp_scratch_bytes(f.in_c, static_cast<int32_t>(planned));
  const auto wide_offset = static_cast<uint32_t>(op.params.size());
  const auto wide = static_cast<int32_t>(planned);
  const auto* wide_bytes = reinterpret_cast<const uint8_t*>(&wide);
  op.params.insert(op.params.end(), wide_bytes, wide_bytes + 4);
  if (planned < out_c) op.scratch_growth = {unit, out_c - planned, wide_offset};
  return true;
}
// The other pointwise layers.
bool rule_conv2d_s8_1x1__dsp(const NodeLowering& l, LoweredOp& op) {
  FilterDims f;
  if (!conv2d_s8_1x1(l, op, &f)) return false;
  op.scratch_bytes += conv2d_s8_1x1__dsp_scratch_bytes(f.in_c);
  return true;
}
// Small windows (at most 24 SMLAD steps: few input channels, e.g. a 3x3x3 first layer or
// kws' 10x4x1): before conv2d_s8__dsp in kRules; a program whose other convs are 1x1
// then links this one alone (kws: about half conv2d_s8__dsp's code). Its params end with
// pair_records (0 or 1): every channel pair's record kept in scratch, blocks outermost,
// for windows of one-word rows (kws' first layer: 32 pairs, 367,520 -> 305,520
// instructions on cortex-m4). That layout needs
// conv2d_s8_small_window__dsp_records_bytes(); planned with the op where the chunked
// layout's scratch holds it, else one unit of the difference left to the memory plan's
// free bytes (scratch_growth: kws' 6,336 bytes against 5,480 fit at its first
// layer without raising the arena).
bool rule_conv2d_s8_small_window__dsp(const NodeLowering& l, LoweredOp& op) {
  FilterDims f;
  if (!conv2d_s8_general(l, op, &f)) return false;
  const uint32_t scratch = conv2d_s8_small_window__dsp_scratch_bytes(f.kernel_h, f.kernel_w, f.in_c);
  if (scratch == 0) return false;
  const uint32_t records = conv2d_s8_small_window__dsp_records_bytes(f.kernel_h, f.kernel_w, f.in_c, f.out_c);
  op.scratch_bytes += scratch;
  const auto records_offset = static_cast<uint32_t>(op.params.size());
  const int32_t planned = records != 0 && records <= scratch ? 1 : 0;
  const auto* planned_bytes = reinterpret_cast<const uint8_t*>(&planned);
  op.params.insert(op.params.end(), planned_bytes, planned_bytes + 4);
  if (records > scratch) op.scratch_growth = {records - scratch, 1, records_offset};
  return true;
}
// Its params end with wide_channels, the output channels whose weights a run widens in
// scratch (64 MACs in 46 instructions instead of 54; needs a bias, the asm channel loop's
// case): as many as kConvWideBudget bytes hold are planned with the op's scratch (that
// much may raise the arena: what keeps ResNet-8's within 0.7 x TFLM's, where its
// 16-channel 3x3 layers, which set the peak, widen 13 of 16 channels), and the rest up to
// every channel where the memory plan leaves room at the op (scratch_growth, granted
// without raising the arena: search/search.h).
constexpr uint32_t kConvWideBudget = 3840;
bool rule_conv2d_s8__dsp(const NodeLowering& l, LoweredOp& op) {
  FilterDims f;
  if (!conv2d_s8_general(l, op, &f)) return false;
  const uint32_t wide_unit = conv2d_s8__dsp_wide_channel_bytes(f.kernel_h, f.kernel_w, f.in_c);
  const auto out_c = static_cast<uint32_t>(f.out_c);
  const uint32_t planned = wide_unit != 0 && l.has_input(2) ? std::min(out_c, kConvWideBudget / wide_unit) : 0;
  op.scratch_bytes += conv2d_s8__dsp_scratch_bytes(f.kernel_h, f.kernel_w, f.in_c, static_cast<int32_t>(planned));
  const auto wide_offset = static_cast<uint32_t>(op.params.size());
  const auto wide = static_cast<int32_t>(planned);
  const auto* wide_bytes = reinterpret_cast<const uint8_t*>(&wide);
  op.params.insert(op.params.end(), wide_bytes, wide_bytes + 4);
  if (wide_unit != 0 && l.has_input(2) && planned < out_c) op.scratch_growth = {wide_unit, out_c - planned, wide_offset};
  return true;
}
// The compact one (code size before speed): after the two above in kRules, so only the
// size policy, which demotes them, reaches it.
bool rule_conv2d_s8_compact__dsp(const NodeLowering& l, LoweredOp& op) {
  FilterDims f;
  if (!conv2d_s8_general(l, op, &f)) return false;
  op.scratch_bytes += conv2d_s8_compact__dsp_scratch_bytes(f.kernel_h, f.kernel_w, f.in_c);
  return true;
}
// The ARMv6-M convolutions' requant floors (every acc below a channel's floor gives
// act_min: the clamped half of a ReLU's outputs skips the requantization), computed here by
// floors_fn into a third int32 array after the reference's multipliers and shifts: 4 bytes
// of flash per channel, no search at run time.
template <typename P, typename FloorsFn>
void append_v6m_floors(LoweredOp& op, int32_t channels, FloorsFn floors_fn) {
  const auto count = static_cast<size_t>(channels);
  if (channels <= 0 || op.params.size() != sizeof(P) + 8 * count) return;
  std::vector<int32_t> arrays(2 * count);
  std::memcpy(arrays.data(), op.params.data() + sizeof(P), arrays.size() * 4);
  std::vector<int32_t> floors(count);
  floors_fn(params_as<P>(op), arrays.data(), arrays.data() + count, channels, floors.data());
  const auto* bytes = reinterpret_cast<const uint8_t*>(floors.data());
  op.params.insert(op.params.end(), bytes, bytes + floors.size() * 4);
}

bool constant_payload(const ir::Tensor& t);

// Floors always; with a constant filter and bias also the folded biases (bias + input
// offset * the channel's weight sum, another 4 bytes per channel), so a run does not sum
// the weights (about 5 instructions per weight).
bool rule_conv2d_s8__v6m(const NodeLowering& l, LoweredOp& op) {
  FilterDims f;
  if (!conv2d_s8_general(l, op, &f)) return false;
  const size_t floors_end = op.params.size() + 4 * static_cast<size_t>(f.out_c);
  append_v6m_floors<Conv2dS8Params>(op, f.out_c, conv2d_s8__v6m_floors);
  const bool has_bias = l.has_input(2);
  const ir::Tensor& weights = l.input(1);
  if (op.params.size() == floors_end && constant_payload(weights) &&
      (!has_bias || (constant_payload(l.input(2)) && l.input(2).dtype == DType::kInt32 &&
                     l.input(2).elements() == f.out_c))) {
    std::vector<int32_t> bias;
    if (has_bias) {
      bias.resize(static_cast<size_t>(f.out_c));
      std::memcpy(bias.data(), l.input(2).data.data(), bias.size() * 4);
    }
    std::vector<int32_t> folded(static_cast<size_t>(f.out_c));
    conv2d_s8__v6m_folded_bias(params_as<Conv2dS8Params>(op), reinterpret_cast<const int8_t*>(weights.data.data()),
                               has_bias ? bias.data() : nullptr, f.kernel_h * f.kernel_w * f.in_c, f.out_c,
                               folded.data());
    const auto* bytes = reinterpret_cast<const uint8_t*>(folded.data());
    op.params.insert(op.params.end(), bytes, bytes + folded.size() * 4);
  }
  // A window over one input channel with at most 8 output channels (a one-channel
  // depthwise layer run as a convolution: micro_speech's first) keeps the scratch-free
  // path: compile() keeps that rewrite only if the arena does not grow.
  const bool small_single_channel = !(f.kernel_h == 1 && f.kernel_w == 1) && f.in_c == 1 && f.out_c <= 8;
  if (!small_single_channel) {
    op.scratch_bytes +=
        conv2d_s8__v6m_scratch_bytes(params_as<Conv2dS8Params>(op), f.kernel_h, f.kernel_w, f.in_c, f.out_c);
  }
  return true;
}

// ---- conv2d (16x8): groups 1, any window, both accumulators.
bool rule_conv2d_s16__mve(const NodeLowering& l, LoweredOp& op) {
  const auto p = params_as<Conv2dS16Params>(op);
  FilterDims f;
  Conv2dShape shape;
  if (p.groups != 1 || !conv_filter(l, &f) || !window_shape(l, &shape)) return false;
  op.scratch_bytes += conv2d_s16__mve_scratch_bytes(p, shape);
  return true;
}

bool rule_conv2d_s16__dsp(const NodeLowering& l, LoweredOp& op) {
  FilterDims f;
  if (params_as<Conv2dS16Params>(op).groups != 1 || !conv_filter(l, &f)) return false;
  op.scratch_bytes += conv2d_s16__dsp_scratch_bytes(f.out_c, f.kernel_h, f.kernel_w, f.in_c);
  return true;
}
// ARMv6-M: groups 1, any window, both accumulators; its per-channel table and a window's
// copy in scratch.
bool rule_conv2d_s16__v6m(const NodeLowering& l, LoweredOp& op) {
  FilterDims f;
  if (params_as<Conv2dS16Params>(op).groups != 1 || !conv_filter(l, &f)) return false;
  op.scratch_bytes += conv2d_s16__v6m_scratch_bytes(f.out_c, f.kernel_h, f.kernel_w, f.in_c);
  return true;
}

// ---- depthwise_conv2d (int8)
bool constant_payload(const ir::Tensor& t) {
  return t.is_constant && t.data.size() == static_cast<size_t>(t.bytes());
}

// Depth multiplier 1, any window.
bool rule_depthwise_conv2d_s8__mve(const NodeLowering& l, LoweredOp& op) {
  const auto p = params_as<DepthwiseConv2dS8Params>(op);
  DepthwiseConv2dShape shape;
  if (p.depth_multiplier != 1 || !window_shape(l, &shape) || shape.out_h < 1 || shape.out_w < 1) return false;
  op.scratch_bytes += depthwise_conv2d_s8__mve_scratch_bytes(p, shape);
  return true;
}
// 16x8, depth multiplier 1, any window.
bool rule_depthwise_conv2d_s16__mve(const NodeLowering& l, LoweredOp& op) {
  DepthwiseConv2dShape shape;
  if (params_as<DepthwiseConv2dS16Params>(op).depth_multiplier != 1 || !window_shape(l, &shape)) return false;
  op.scratch_bytes += depthwise_conv2d_s16__mve_scratch_bytes(shape.out_c);
  return true;
}
// Depth multipliers >= 2 with a constant filter, arranged here into the params (flash),
// unless its scratch (the window) passes kMaxMultScratchBytes.
constexpr uint32_t kMaxMultScratchBytes = 4096;
bool rule_depthwise_conv2d_s8_mult__dsp(const NodeLowering& l, LoweredOp& op) {
  const auto p = params_as<DepthwiseConv2dS8Params>(op);
  DepthwiseConv2dShape shape;
  if (!depthwise_conv2d_s8_mult__dsp_supports(p) || !window_shape(l, &shape)) return false;
  const ir::Tensor& weights = l.input(1);
  const uint32_t scratch = depthwise_conv2d_s8_mult__dsp_scratch_bytes(p, shape);
  if (!constant_payload(weights) || scratch > kMaxMultScratchBytes) return false;
  const size_t reference_bytes = op.params.size();
  op.params.resize(reference_bytes + depthwise_conv2d_s8_mult__dsp_arranged_bytes(shape));
  depthwise_conv2d_s8_mult__dsp_arrange(shape, reinterpret_cast<const int8_t*>(weights.data.data()),
                                        reinterpret_cast<int8_t*>(op.params.data() + reference_bytes));
  op.scratch_bytes += scratch;
  return true;
}
// 3x3, dilation 1, with a constant filter and bias and a requantization its fast path
// takes: its table (filter pairs, requantization constants, input zero points) is
// computed here into its params (flash).
bool rule_depthwise_conv2d_s8_3x3__dsp(const NodeLowering& l, LoweredOp& op) {
  const auto p = params_as<DepthwiseConv2dS8Params>(op);
  DepthwiseConv2dShape shape;
  if (!window_shape(l, &shape) ||
      !depthwise_conv2d_s8_3x3__dsp_supports(p, static_cast<uint32_t>(shape.kernel_h),
                                             static_cast<uint32_t>(shape.kernel_w))) {
    return false;
  }
  const ir::Tensor& weights = l.input(1);
  const bool has_bias = l.has_input(2);
  const auto channels = static_cast<uint32_t>(shape.in_c);
  const bool constant = constant_payload(weights) &&
                        (!has_bias || (constant_payload(l.input(2)) && l.input(2).dtype == DType::kInt32 &&
                                       l.input(2).elements() == shape.in_c));
  if (!constant || op.params.size() != sizeof(DepthwiseConv2dS8Params) + 8 * size_t{channels}) return false;
  std::vector<int32_t> bias;
  if (has_bias) {
    bias.resize(channels);
    std::memcpy(bias.data(), l.input(2).data.data(), bias.size() * 4);
  }
  std::vector<uint8_t> table(depthwise_conv2d_s8_3x3__dsp_table_bytes(shape.in_c));
  std::vector<int32_t> arrays(2 * size_t{channels});
  std::memcpy(arrays.data(), op.params.data() + sizeof(DepthwiseConv2dS8Params), arrays.size() * 4);
  if (!depthwise_conv2d_s8_3x3__dsp_make_table(p, arrays.data(), arrays.data() + channels,
                                               has_bias ? bias.data() : nullptr,
                                               reinterpret_cast<const int8_t*>(weights.data.data()), shape.in_c,
                                               table.data())) {
    return false;
  }
  op.params.insert(op.params.end(), table.begin(), table.end());
  op.scratch_bytes += depthwise_conv2d_s8_3x3__dsp_scratch_bytes(p, shape);
  return true;
}
// Depth multiplier 1, any window.
bool rule_depthwise_conv2d_s8__dsp(const NodeLowering& l, LoweredOp& op) {
  const auto p = params_as<DepthwiseConv2dS8Params>(op);
  DepthwiseConv2dShape shape;
  if (!depthwise_conv2d_s8__dsp_supports(p) || !window_shape(l, &shape)) return false;
  op.scratch_bytes += depthwise_conv2d_s8__dsp_scratch_bytes(p, shape);
  return true;
}
bool rule_depthwise_conv2d_s8__v6m(const NodeLowering& l, LoweredOp& op) {
  const auto p = params_as<DepthwiseConv2dS8Params>(op);
  DepthwiseConv2dShape shape;
  if (p.depth_multiplier != 1 || !window_shape(l, &shape)) return false;
  append_v6m_floors<DepthwiseConv2dS8Params>(op, shape.out_c, depthwise_conv2d_s8__v6m_floors);
  op.scratch_bytes += depthwise_conv2d_s8__v6m_scratch_bytes(p, shape);
  return true;
}

// ---- depthwise_conv2d (16x8): depth multiplier 1, any window.
bool rule_depthwise_conv2d_s16__dsp(const NodeLowering& l, LoweredOp& op) {
  DepthwiseConv2dShape shape;
  if (params_as<DepthwiseConv2dS16Params>(op).depth_multiplier != 1 || !window_shape(l, &shape)) return false;
  op.scratch_bytes += depthwise_conv2d_s16__dsp_scratch_bytes(shape);
  return true;
}
// ARMv6-M: depth multiplier 1 and windows of at most 511 taps; its per-channel table (and
// for 3x3 windows the widened weights) in scratch.
bool rule_depthwise_conv2d_s16__v6m(const NodeLowering& l, LoweredOp& op) {
  const ir::Shape& filter = l.input(1).shape;
  if (filter.size() != 4 ||
      !depthwise_conv2d_s16__v6m_supports(params_as<DepthwiseConv2dS16Params>(op), static_cast<int32_t>(filter[1]),
                                          static_cast<int32_t>(filter[2]))) {
    return false;
  }
  op.scratch_bytes += depthwise_conv2d_s16__v6m_scratch_bytes(
      static_cast<int32_t>(filter[3]), static_cast<int32_t>(filter[1]), static_cast<int32_t>(filter[2]));
  return true;
}

// ---- fully_connected (int8): every layer. The DSP variant widens input rows of up to
// 1024 features to int16 in scratch (at most 2 KB) and longer rows on the fly without
// scratch (e.g. micro_speech's 4000 -> 4 layer), so its scratch rule bounds the RAM it adds.
bool rule_fully_connected_s8__mve(const NodeLowering& l, LoweredOp& op) {
  if (l.input(1).shape.size() != 2) return false;
  op.scratch_bytes += fully_connected_s8__mve_scratch_bytes();
  return true;
}
bool rule_fully_connected_s8__dsp(const NodeLowering& l, LoweredOp& op) {
  const ir::Shape& weights = l.input(1).shape;
  if (weights.size() != 2) return false;
  op.scratch_bytes += fully_connected_s8__dsp_scratch_bytes(static_cast<int32_t>(weights[1]));
  return true;
}
bool rule_fully_connected_s8__v6m(const NodeLowering& l, LoweredOp& op) {
  if (l.input(1).shape.size() != 2) return false;
  op.scratch_bytes += fully_connected_s8__v6m_scratch_bytes();
  return true;
}

// ---- fully_connected (16x8): every layer with 2-D weights, no scratch.
bool rule_fully_connected_s16__mve(const NodeLowering& l, LoweredOp& /*op*/) {
  return l.input(1).shape.size() == 2;
}

// ---- fully_connected (16x8): rows of up to kMaxFullyConnectedS16DspFeatures features
// (the interleaved row in scratch, at most 8 KiB); longer rows keep the reference.
constexpr int64_t kMaxFullyConnectedS16DspFeatures = 4096;
bool rule_fully_connected_s16__dsp(const NodeLowering& l, LoweredOp& op) {
  const ir::Shape& weights = l.input(1).shape;
  if (weights.size() != 2 || weights[1] > kMaxFullyConnectedS16DspFeatures) return false;
  op.scratch_bytes += fully_connected_s16__dsp_scratch_bytes(static_cast<int32_t>(weights[1]));
  return true;
}
// ARMv6-M: every layer with 2-D weights, no scratch.
bool rule_fully_connected_s16__v6m(const NodeLowering& l, LoweredOp& /*op*/) {
  return l.input(1).shape.size() == 2;
}

// ---- float32 on cores with Helium float (ahead) or an FPU: convolution with groups 1,
// depthwise with depth multiplier 1 (any window), every fully connected layer; no scratch.
bool rule_conv2d_f32_ungrouped(const NodeLowering& /*l*/, LoweredOp& op) {
  return params_as<Conv2dParams>(op).groups == 1;
}
bool rule_depthwise_conv2d_f32_multiplier_1(const NodeLowering& /*l*/, LoweredOp& op) {
  return params_as<DepthwiseConv2dParams>(op).depth_multiplier == 1;
}

// ---- add (int8, int16)
// Helium, add_s8__mve and add_s16__mve: neither input broadcast (both have the output's
// element count).
bool rule_add_elementwise__mve(const NodeLowering& l, LoweredOp& /*op*/) {
  const int64_t n = ir::element_count(l.output(0).shape);
  return ir::element_count(l.input(0).shape) == n && ir::element_count(l.input(1).shape) == n;
}
// DSP, 16x8: both inputs of the output's shape; no scratch, no parameters beyond the
// reference's (the kernel tests its fast loop's exactness once per run).
bool rule_add_s16__dsp(const NodeLowering& l, LoweredOp& /*op*/) {
  const ir::Shape& out = l.output(0).shape;
  return l.input(0).shape == out && l.input(1).shape == out;
}
// ARMv6-M, 16x8: the same shapes, no scratch or parameters (its exactness test is per run
// too).
bool rule_add_s16__v6m(const NodeLowering& l, LoweredOp& op) { return rule_add_s16__dsp(l, op); }
// DSP: both inputs of the output's shape (ResNet's residual adds) and at least
// kAddS8TableMinCount elements, its rescaling tables computed here into its parameters
// (2 KiB more flash; no scratch, no table build per run). Shorter and broadcasting adds
// keep the reference. (add_s8__dsp, which builds the tables in 2 KiB of scratch per run,
// is no longer chosen; it stays registered for programs that name it.)
bool rule_add_s8_lut__dsp(const NodeLowering& l, LoweredOp& op) {
  const ir::Shape& out = l.output(0).shape;
  if (l.input(0).shape != out || l.input(1).shape != out || ir::element_count(out) < kAddS8TableMinCount)
    return false;
  AddS8LutParams lut;
  add_s8_lut__dsp_make_params(params_as<QuantAddSubParams>(op), &lut);
  op.params.resize(sizeof(lut));
  std::memcpy(op.params.data(), &lut, sizeof(lut));
  op.scratch_bytes += add_s8_lut__dsp_scratch_bytes();
  return true;
}

// ---- LSTM (int8): every layer the reference takes (the compiler's multipliers are never
// INT32_MIN), with the variant's scratch (at least the reference's).
bool lstm_s8_variant(LoweredOp& op, const ir::Shape& input_weights, uint32_t (*scratch_bytes)(uint32_t, uint32_t)) {
  if (!lstm_multipliers_above_min(params_as<LstmIntegerParams>(op)) || input_weights.size() != 2) return false;
  op.scratch_bytes = scratch_bytes(static_cast<uint32_t>(input_weights[1]), static_cast<uint32_t>(input_weights[0]));
  return true;
}
bool rule_lstm_s8__dsp(const NodeLowering& l, LoweredOp& op) {
  return lstm_s8_variant(op, l.input(1).shape, lstm_s8__dsp_scratch_bytes);
}
bool rule_lstm_s8__mve(const NodeLowering& l, LoweredOp& op) {
  return lstm_s8_variant(op, l.input(1).shape, lstm_s8__mve_scratch_bytes);
}

// ---- pooling (int8): every shape the reference takes, no scratch; the Helium average
// pool only for windows of at most kAvgPool2dS8MveMaxTaps cells (the exact range of its
// reciprocal division).
bool rule_any_shape(const NodeLowering& /*l*/, LoweredOp& /*op*/) { return true; }
bool rule_avg_pool2d_s8__mve(const NodeLowering& /*l*/, LoweredOp& op) {
  const auto p = params_as<Pool2dS8Params>(op);
  return int64_t{p.kernel_h} * p.kernel_w <= kAvgPool2dS8MveMaxTaps;
}
// ---- pooling (int16): every shape the reference takes, no scratch; the Helium average
// pool only for windows of at most kAvgPool2dS16MveMaxTaps cells (the exact range of its
// reciprocal division).
bool rule_avg_pool2d_s16__mve(const NodeLowering& /*l*/, LoweredOp& op) {
  const auto p = params_as<Pool2dS16Params>(op);
  return int64_t{p.kernel_h} * p.kernel_w <= kAvgPool2dS16MveMaxTaps;
}

// ---- svdf (int8): every op the reference takes (int8 or int16 state; the variants check
// what the reference checks), no scratch: rule_any_shape.
// ---- gru (int8): every op the reference takes, with the reference's scratch (the
// variants check what it checks): rule_any_shape.

// ---- mul (int16, 16x8): every op the reference takes (the variants broadcast as it does
// and check what it checks), no scratch: rule_any_shape.
// ---- mean (int16): an input whose kept and reduced elements each form one strided run,
// outputs or reduced elements side by side (the mean over H, W of NHWC, the innermost
// axes); other axis sets keep the reference. No scratch.
bool rule_mean_s16_single_runs(const NodeLowering& l, LoweredOp& op) {
  const ir::Shape& shape = l.input(0).shape;
  if (shape.size() > kMaxRank) return false;
  TensorDesc desc{};
  desc.rank = static_cast<uint8_t>(shape.size());
  for (uint32_t& d : desc.dims) d = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0 || shape[i] > INT32_MAX) return false;
    desc.dims[i] = static_cast<uint32_t>(shape[i]);
  }
  return mean_s16_single_runs(desc, params_as<MeanS16Params>(op).axes_mask);
}

// Every variant with its rule, in order of preference: the first variant of the op's
// reference kernel that the target's instruction set runs (kernel_isa) and whose rule
// applies is chosen. Helium before DSP (a core with Helium has DSP too), specialized
// before general.
struct VariantRule {
  KernelId variant;
  Rule applies;
};
const VariantRule kRules[] = {
    {KernelId::kConv2dS81x1Mve, rule_conv2d_s8_1x1__mve},
    {KernelId::kConv2dS8Mve, rule_conv2d_s8__mve},
    {KernelId::kConv2dS81x1ReluDsp, rule_conv2d_s8_1x1_relu__dsp},
    {KernelId::kConv2dS81x1Dsp, rule_conv2d_s8_1x1__dsp},
    {KernelId::kConv2dS8SmallWindowDsp, rule_conv2d_s8_small_window__dsp},
    {KernelId::kConv2dS8Dsp, rule_conv2d_s8__dsp},
    {KernelId::kConv2dS8CompactDsp, rule_conv2d_s8_compact__dsp},
    {KernelId::kConv2dS8V6m, rule_conv2d_s8__v6m},
    {KernelId::kConv2dS16Mve, rule_conv2d_s16__mve},
    {KernelId::kConv2dS16Dsp, rule_conv2d_s16__dsp},
    {KernelId::kConv2dS16V6m, rule_conv2d_s16__v6m},
    {KernelId::kDepthwiseConv2dS8Mve, rule_depthwise_conv2d_s8__mve},
    {KernelId::kDepthwiseConv2dS8MultDsp, rule_depthwise_conv2d_s8_mult__dsp},
    {KernelId::kDepthwiseConv2dS83x3Dsp, rule_depthwise_conv2d_s8_3x3__dsp},
    {KernelId::kDepthwiseConv2dS8Dsp, rule_depthwise_conv2d_s8__dsp},
    {KernelId::kDepthwiseConv2dS8V6m, rule_depthwise_conv2d_s8__v6m},
    {KernelId::kDepthwiseConv2dS16Mve, rule_depthwise_conv2d_s16__mve},
    {KernelId::kDepthwiseConv2dS16Dsp, rule_depthwise_conv2d_s16__dsp},
    {KernelId::kDepthwiseConv2dS16V6m, rule_depthwise_conv2d_s16__v6m},
    {KernelId::kFullyConnectedS8Mve, rule_fully_connected_s8__mve},
    {KernelId::kFullyConnectedS8Dsp, rule_fully_connected_s8__dsp},
    {KernelId::kFullyConnectedS8V6m, rule_fully_connected_s8__v6m},
    {KernelId::kFullyConnectedS16Mve, rule_fully_connected_s16__mve},
    {KernelId::kFullyConnectedS16Dsp, rule_fully_connected_s16__dsp},
    {KernelId::kConv2dF32Mve, rule_conv2d_f32_ungrouped},
    {KernelId::kConv2dF32Fpu, rule_conv2d_f32_ungrouped},
    {KernelId::kDepthwiseConv2dF32Mve, rule_depthwise_conv2d_f32_multiplier_1},
    {KernelId::kDepthwiseConv2dF32Fpu, rule_depthwise_conv2d_f32_multiplier_1},
    {KernelId::kFullyConnectedF32Mve, rule_any_shape},
    {KernelId::kFullyConnectedF32Fpu, rule_any_shape},
    {KernelId::kFullyConnectedS16V6m, rule_fully_connected_s16__v6m},
    {KernelId::kAddS8Mve, rule_add_elementwise__mve},
    {KernelId::kAddS8LutDsp, rule_add_s8_lut__dsp},
    {KernelId::kAddS16Mve, rule_add_elementwise__mve},
    {KernelId::kAddS16Dsp, rule_add_s16__dsp},
    {KernelId::kAddS16V6m, rule_add_s16__v6m},
    {KernelId::kMulS16Mve, rule_any_shape},
    {KernelId::kMulS16Dsp, rule_any_shape},
    {KernelId::kMulS16V6m, rule_any_shape},
    {KernelId::kMeanS16Mve, rule_mean_s16_single_runs},
    {KernelId::kMeanS16Dsp, rule_mean_s16_single_runs},
    {KernelId::kMeanS16V6m, rule_mean_s16_single_runs},
    {KernelId::kMaxPool2dS8Mve, rule_any_shape},
    {KernelId::kAvgPool2dS8Mve, rule_avg_pool2d_s8__mve},
    {KernelId::kMaxPool2dS8Dsp, rule_any_shape},
    {KernelId::kAvgPool2dS8Dsp, rule_any_shape},
    {KernelId::kMaxPool2dS16Mve, rule_any_shape},
    {KernelId::kAvgPool2dS16Mve, rule_avg_pool2d_s16__mve},
    {KernelId::kMaxPool2dS16Dsp, rule_any_shape},
    {KernelId::kAvgPool2dS16Dsp, rule_any_shape},
    {KernelId::kMaxPool2dS16V6m, rule_any_shape},
    {KernelId::kAvgPool2dS16V6m, rule_any_shape},
    {KernelId::kQuantizeF32S16Mve, rule_any_shape},
    {KernelId::kLstmS8Mve, rule_lstm_s8__mve},
    {KernelId::kLstmS8Dsp, rule_lstm_s8__dsp},
    {KernelId::kSvdfS8Mve, rule_any_shape},
    {KernelId::kSvdfS8Dsp, rule_any_shape},
    {KernelId::kGruS8Mve, rule_any_shape},
    {KernelId::kGruS8Dsp, rule_any_shape},
};

bool runs_on(KernelIsa kernel, const TargetIsa& target) {
  switch (kernel) {
    case KernelIsa::kPortable: return true;
    case KernelIsa::kDsp: return target.dsp;
    case KernelIsa::kMve: return target.mve;
    case KernelIsa::kV6m: return target.v6m;
    case KernelIsa::kFpu: return target.fpu;
  }
  return false;
}

}  // namespace

void select_variant(const NodeLowering& l, Target target, LoweredOp& op, const std::vector<KernelId>& skipped) {
  const TargetIsa& isa = target_info(target).isa;
  for (const VariantRule& rule : kRules) {
    if (kernel_reference(rule.variant) != op.kernel || !runs_on(kernel_isa(rule.variant), isa)) continue;
    if (std::find(skipped.begin(), skipped.end(), rule.variant) != skipped.end()) continue;
    if (rule.applies(l, op)) {
      op.kernel = rule.variant;
      return;
    }
  }
}

std::vector<KernelId> applicable_variants(const NodeLowering& l, Target target, const LoweredOp& op) {
  const TargetIsa& isa = target_info(target).isa;
  std::vector<KernelId> variants;
  for (const VariantRule& rule : kRules) {
    if (kernel_reference(rule.variant) != op.kernel || !runs_on(kernel_isa(rule.variant), isa)) continue;
    LoweredOp trial = op;
    if (rule.applies(l, trial)) variants.push_back(rule.variant);
  }
  return variants;
}

}  // namespace mote::lower
