// Variant choice per reference kernel. Each select_* below decides, from the node's
// shapes and the reference parameters already in op.params, whether a faster variant of
// that kernel applies on the target, and sets its kernel id and scratch.
#include "lower/variants.h"

#include <cstring>

namespace mote::lower {

TargetIsa target_isa(Target target) {
  TargetIsa isa;
  switch (target) {
    case Target::kHost:
    case Target::kCortexM0Plus:  // Armv6-M
    case Target::kCortexM3:      // Armv7-M: no DSP extension
      break;
    case Target::kCortexM4:
    case Target::kCortexM7:
    case Target::kCortexM33:  // GCC's -mcpu=cortex-m33 includes the DSP extension
      isa.dsp = true;
      break;
    case Target::kCortexM55:
      isa.dsp = true;
      isa.mve = true;
      break;
  }
  return isa;
}

namespace {

template <typename T>
T params_as(const LoweredOp& op) {
  T p;
  std::memcpy(&p, op.params.data(), sizeof(T));
  return p;
}

void select_conv2d_s8(const NodeLowering& /*l*/, TargetIsa /*isa*/, LoweredOp& /*op*/) {}

void select_depthwise_conv2d_s8(const NodeLowering& /*l*/, TargetIsa /*isa*/, LoweredOp& /*op*/) {}

void select_fully_connected_s8(const NodeLowering& /*l*/, TargetIsa /*isa*/, LoweredOp& /*op*/) {}

void select_add_s8(const NodeLowering& /*l*/, TargetIsa /*isa*/, LoweredOp& /*op*/) {}

void select_pool2d_s8(const NodeLowering& /*l*/, TargetIsa /*isa*/, LoweredOp& /*op*/) {}

}  // namespace

void select_variant(const NodeLowering& l, Target target, LoweredOp& op) {
  const TargetIsa isa = target_isa(target);
  if (!isa.dsp && !isa.mve) return;
  switch (op.kernel) {
    case KernelId::kConv2dS8: select_conv2d_s8(l, isa, op); break;
    case KernelId::kDepthwiseConv2dS8: select_depthwise_conv2d_s8(l, isa, op); break;
    case KernelId::kFullyConnectedS8: select_fully_connected_s8(l, isa, op); break;
    case KernelId::kAddS8: select_add_s8(l, isa, op); break;
    case KernelId::kAvgPool2dS8:
    case KernelId::kMaxPool2dS8: select_pool2d_s8(l, isa, op); break;
    default: break;
  }
}

}  // namespace mote::lower
