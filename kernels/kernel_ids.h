// Every kernel Mote has, by number. The number is what a program stores in
// OpDesc::kernel; it is stable across releases (append only, never renumber).
//
// Naming: <op>_<dtype>[_<specialization>][__<isa>], matching the file that holds it,
// e.g. kConv2dF32 lives in kernels/conv2d/conv2d_f32.cc. dtype s8 / s16 means int8 /
// int16 activations (16x8 kernels take int8 weights); conversions name both types,
// <op>_<from>_<to> (quantize_f32_s8, requantize_s16_s32: kernels/quantize/). Integer
// kernels whose code is shared between int8 and int16 live in one *_quant.cc file.
#pragma once

#include <stdint.h>

namespace mote {

enum class KernelId : uint16_t {
  kInvalid = 0,
  // float32 reference kernels
  kConv2dF32 = 1,
  kDepthwiseConv2dF32 = 2,
  kFullyConnectedF32 = 3,
  kBatchMatMulF32 = 4,
  kAddF32 = 5,
  kSubF32 = 6,
  kMulF32 = 7,
  kDivF32 = 8,
  kClampF32 = 9,
  kSigmoidF32 = 10,
  kTanhF32 = 11,
  kSoftmaxF32 = 12,
  kAvgPool2dF32 = 13,
  kMaxPool2dF32 = 14,
  kMeanF32 = 15,
  // dtype-agnostic data movement (works on element bytes)
  kTranspose = 16,
  kConcat = 17,
  kPad = 18,
  kCopy = 19,
  // integer reference kernels, TFLite arithmetic (int8; int16 activations "16x8")
  kConv2dS8 = 20,
  kDepthwiseConv2dS8 = 21,
  kFullyConnectedS8 = 22,
  kAddS8 = 23,
  kSubS8 = 24,
  kMulS8 = 25,
  kAvgPool2dS8 = 26,
  kMaxPool2dS8 = 27,
  kSoftmaxS8 = 28,
  kSigmoidS8 = 29,
  kTanhS8 = 30,
  kMeanS8 = 31,
  kLeakyReluS8 = 32,
  // int16 activations with int8 weights (TFLite 16x8)
  kConv2dS16 = 33,
  kDepthwiseConv2dS16 = 34,
  kTransposeConvS16 = 35,
  kAddS16 = 36,
  kSubS16 = 37,
  kMulS16 = 38,
  kLeakyReluS16 = 39,
  // conversions: float <-> integer, integer <-> integer (TFLite QUANTIZE/DEQUANTIZE)
  kQuantizeF32S8 = 40,
  kQuantizeF32S16 = 41,
  kDequantizeS8F32 = 42,
  kDequantizeS16F32 = 43,
  kRequantizeS8S8 = 44,
  kRequantizeS8S16 = 45,
  kRequantizeS8S32 = 46,
  kRequantizeS16S8 = 47,
  kRequantizeS16S16 = 48,
  kRequantizeS16S32 = 49,
  kRequantizeS32S8 = 50,
  kRequantizeS32S16 = 51,
  // dtype-agnostic data movement, continued
  kStridedSlice = 52,
  // recurrent, integer (TFLite UNIDIRECTIONAL_SEQUENCE_LSTM, int8 x int8 -> int16 cell)
  kLstmS8 = 53,
  // 16x8 (int16 activations, int8 weights), continued
  kFullyConnectedS16 = 54,
  kMeanS16 = 55,
  kAvgPool2dS16 = 56,
  kMaxPool2dS16 = 57,
  // optimized variants of the int8 kernels: same parameters and results as the
  // reference; __dsp = Armv7E-M/Armv8-M DSP extension, __mve = Helium (kernels/isa/)
  kConv2dS8Dsp = 58,
  kConv2dS81x1Dsp = 59,
  kDepthwiseConv2dS8Dsp = 60,
  kDepthwiseConv2dS83x3Dsp = 61,
  kFullyConnectedS8Dsp = 62,
  kAddS8Dsp = 63,
  kAvgPool2dS8Dsp = 64,
  kMaxPool2dS8Dsp = 65,
  kConv2dS8Mve = 66,
  kConv2dS81x1Mve = 67,
  kDepthwiseConv2dS8Mve = 68,
  kFullyConnectedS8Mve = 69,
  kAddS8Mve = 70,
  kAvgPool2dS8Mve = 71,
  kMaxPool2dS8Mve = 72,
  // __v6m = Armv6-M (Cortex-M0/M0+: Thumb-1, no SIMD, no 64-bit multiply)
  kConv2dS8V6m = 73,
  kDepthwiseConv2dS8V6m = 74,
  kFullyConnectedS8V6m = 75,
  // more __dsp variants
  kDepthwiseConv2dS8MultDsp = 76,
  kAddS8LutDsp = 77,

  kCount  // one past the last id; table sizes
};

inline constexpr uint32_t kKernelCount = static_cast<uint32_t>(KernelId::kCount);

// "conv2d_f32", ...; "" for an unknown id. Host-side (compiler, CLI, reports).
const char* kernel_name(KernelId id);

// The inverse of kernel_name(); KernelId::kInvalid for an unknown (or null) name.
KernelId kernel_id_from_name(const char* name);

}  // namespace mote
