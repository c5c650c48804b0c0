// Internal to compiler/lower/: what the quantized paths of the op lowerings share. Every
// multiplier, shift and clamp range is derived exactly as TFLite Micro's Prepare()
// derives it, through the host helpers of kernels/quant/quant_math.h, as each kernel
// header documents: one place reproduces TFLite's rounding, the lowerings only pick the
// helper and its arguments. Per-channel arrays (int32 multiplier[C], then int32
// shift[C]) follow the parameter struct (params_with_arrays).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "lower/node_lowering.h"
#include "quant/quant_math.h"

namespace mote::lower {

bool is_integer(DType dtype);  // int8, int16, int32
int32_t type_min(DType dtype);  // of int8, int16; INT32_MIN otherwise
int32_t type_max(DType dtype);
std::string float_string(double v);  // "%.9g"

// Per-tensor quantization of an activation tensor.
struct TensorQuant {
  float scale;
  int32_t zero_point;
};

// The tensor's one scale (positive, finite) and zero point (within its dtype).
TensorQuant per_tensor(const NodeLowering& l, const ir::Tensor& t, const char* role);

bool same_quant(const ir::Tensor& a, const ir::Tensor& b);

// Filter scales, one per output channel: per-channel along `axis`, or the per-tensor scale
// repeated (TFLite uses filter_scale[0] for every channel then).
std::vector<float> channel_scales(const NodeLowering& l, const ir::Tensor& filter, int32_t axis,
                                  int64_t channels);

// multiplier[c], shift[c] of a conv-like op (conv_channel_multiplier per channel), each
// shift within [kMinShift, max_shift]; a shift of 32 or more becomes multiplier 0 (the
// zero point for every accumulator, what TensorFlow Lite Micro computes on an Arm core).
void channel_multipliers(const NodeLowering& l, float input_scale, const std::vector<float>& filter_scales,
                         float output_scale, int32_t max_shift, std::vector<int32_t>* multipliers,
                         std::vector<int32_t>* shifts);

// act_min/act_max (real-valued, mote_ops.md) -> the quantized clamp range. TFLite only has
// the fused activations NONE, RELU, RELU6 and RELU_N1_TO_1, so the bounds must be one of
// those; TFLite's CalculateActivationRangeQuantized (activation_range_quantized) does the
// conversion.
void act_range(const NodeLowering& l, const TensorQuant& out, DType dtype, int32_t* act_min,
               int32_t* act_max);

// TFLite's CheckedLog2: *log2 = round(log2(x)) computed in float as TFLite does; true when
// x is within 10^-3 (in log2) of that power of two.
bool checked_log2(float x, int32_t* log2);

// A shift the kernel's fixed-point arithmetic can apply: within [lo, hi].
void expect_shift(const NodeLowering& l, int32_t shift, int32_t lo, int32_t hi, const std::string& what);

// int16 activations are symmetric in TFLite: zero point 0.
void expect_zero_point_zero(const NodeLowering& l, const ir::Tensor& t, const char* role, int32_t zp);

// The per-tensor quantization of a two-input op's inputs 0 and 1 (named a_role, b_role in
// messages) and output 0; for int16 every zero point must be 0 (expect_zero_point_zero).
struct BinaryQuant {
  TensorQuant a, b, out;
};
BinaryQuant binary_quant(const NodeLowering& l, DType dtype, const char* a_role, const char* b_role);

// int16 activations: input 0 and output 0 have zero point 0 (expect_zero_point_zero).
void expect_symmetric(const NodeLowering& l, const TensorQuant& in, const TensorQuant& out);

// Activation dtype of an op on quantized tensors: input 0 int8 (s8 kernels) or int16
// (16x8 kernels), output 0 the same.
DType activation_dtype(const NodeLowering& l);

// Accumulator width of a 16x8 CONV_2D or FULLY_CONNECTED, as TFLite Micro picks it in
// Eval: int32 when the bias (input bias_index) is int32, or when there is no bias and the
// op's quantized_bias_type option is INT32 (attribute "quantized_bias_type" = "int32");
// int64 otherwise (int64 bias, or no bias with the option unset or INT64).
int32_t accumulator_bits_16x8(const NodeLowering& l, size_t bias_index);

// The struct's bytes, then the int32 arrays in order.
template <typename P>
std::vector<uint8_t> params_with_arrays(const P& params, const std::vector<const std::vector<int32_t>*>& arrays) {
  std::vector<uint8_t> bytes = params_bytes(params);
  for (const std::vector<int32_t>* a : arrays) {
    const size_t at = bytes.size();
    bytes.resize(at + a->size() * sizeof(int32_t));
    if (!a->empty()) std::memcpy(bytes.data() + at, a->data(), a->size() * sizeof(int32_t));
  }
  return bytes;
}

}  // namespace mote::lower
