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

// Armv7E-M / Armv8-M DSP extension variants (cortex-m4, m7, m33, m55).
void select_conv2d_s8_dsp(const NodeLowering& /*l*/, LoweredOp& /*op*/) {}
void select_depthwise_conv2d_s8_dsp(const NodeLowering& /*l*/, LoweredOp& /*op*/) {}
void select_fully_connected_s8_dsp(const NodeLowering& /*l*/, LoweredOp& /*op*/) {}
void select_add_s8_dsp(const NodeLowering& /*l*/, LoweredOp& /*op*/) {}
void select_pool2d_s8_dsp(const NodeLowering& /*l*/, LoweredOp& /*op*/) {}

// Helium (MVE) variants (cortex-m55). Each returns true when it picked one; otherwise
// the DSP choice runs.
bool select_conv2d_s8_mve(const NodeLowering& /*l*/, LoweredOp& /*op*/) { return false; }
bool select_depthwise_conv2d_s8_mve(const NodeLowering& /*l*/, LoweredOp& /*op*/) { return false; }
bool select_fully_connected_s8_mve(const NodeLowering& /*l*/, LoweredOp& /*op*/) { return false; }
bool select_add_s8_mve(const NodeLowering& /*l*/, LoweredOp& /*op*/) { return false; }
bool select_pool2d_s8_mve(const NodeLowering& /*l*/, LoweredOp& /*op*/) { return false; }

}  // namespace

void select_variant(const NodeLowering& l, Target target, LoweredOp& op) {
  const TargetIsa isa = target_isa(target);
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
