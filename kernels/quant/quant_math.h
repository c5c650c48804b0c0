// Fixed-point arithmetic of TensorFlow Lite's integer reference kernels, reproduced bit
// for bit (TFLite Micro at commit 90b983c2, default Makefile build).
//
// Which variant. TFLite has two MultiplyByQuantizedMultiplier implementations, chosen
// by the TFLITE_SINGLE_ROUNDING macro (tensorflow/lite/kernels/internal/common.{h,cc}).
// Nothing in the TFLM tree at that commit defines it (not the Makefile, the target
// makefiles, Bazel or any header), so `#if TFLITE_SINGLE_ROUNDING` is false and the
// build uses the DOUBLE-ROUNDING variant: a gemmlowp SaturatingRoundingDoublingHighMul
// followed by a RoundingDivideByPOT. The same holds for CMSIS-NN's default
// (CMSIS_NN_USE_SINGLE_ROUNDING undefined), which is why the TFLM goldens agree between
// its reference and CMSIS-NN kernels. Everything below is that variant.
//
// Two halves:
//  * Device side (inline, integer only): what the kernels run. No float, no UB for any
//    argument values: sums and products that could overflow for corrupted parameters
//    wrap in two's complement (as TFLite's do in practice) instead of being undefined.
//    Right shifts of negative values are arithmetic (GCC and Clang guarantee it).
//  * Host side (quant_math.cc, may use double): how the compiler derives each kernel's
//    multipliers, shifts and ranges from scales exactly as TFLite's Prepare() does.
//    Never call these on the device; the kernels only read their results.
#pragma once

#include <stdint.h>

namespace mote {

// ---------------------------------------------------------------------------------------
// Device side
// ---------------------------------------------------------------------------------------

// Two's-complement wrapping int32 arithmetic (defined for every input).
inline int32_t wrapping_add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t wrapping_sub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}
inline int32_t wrapping_mul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}
inline int32_t wrapping_neg(int32_t a) {
  return static_cast<int32_t>(0u - static_cast<uint32_t>(a));
}
inline int64_t wrapping_add64(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t wrapping_mul64(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
// The low 32 bits of v as a signed value (what TFLite's implicit narrowing does).
inline int32_t truncate_to_i32(int64_t v) {
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));
}

inline int32_t clamp_i32(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

// gemmlowp SaturatingRoundingDoublingHighMul: round(a * b / 2^31) with ties toward
// +infinity; the single overflowing case a == b == INT32_MIN gives INT32_MAX.
inline int32_t saturating_rounding_doubling_high_mul(int32_t a, int32_t b) {
  if (a == b && a == INT32_MIN) return INT32_MAX;
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  // (ab + nudge) / 2^31 truncated toward zero (which, with the nudge above, rounds ties
  // upward), written as a shift so that no 64-bit division call is needed.
  const int64_t sum = ab + nudge;
  const int64_t toward_zero = sum < 0 ? (int64_t{1} << 31) - 1 : 0;
  return static_cast<int32_t>((sum + toward_zero) >> 31);
}

// gemmlowp RoundingDivideByPOT: x / 2^exponent rounded half away from zero.
// exponent must be in [0, 31].
inline int32_t rounding_divide_by_pot(int32_t x, int32_t exponent) {
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

// Valid shift ranges, checked by every kernel's check() before run() may use them.
inline constexpr int32_t kMinShift = -31;    // both variants: at most a 31-bit right shift
inline constexpr int32_t kMaxShift = 30;     // int32 variant: 1 << 30 is the largest factor
inline constexpr int32_t kMaxShift64 = 14;   // int64 variant: 15 - shift must stay >= 1
inline bool valid_shift(int32_t shift) { return shift >= kMinShift && shift <= kMaxShift; }
inline bool valid_shift64(int32_t shift) { return shift >= kMinShift && shift <= kMaxShift64; }

// TFLite MultiplyByQuantizedMultiplier(int32_t x, ...), double rounding:
//   left  = max(shift, 0), right = max(-shift, 0)
//   RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(x * 2^left, multiplier), right)
// shift in [kMinShift, kMaxShift]. x * 2^left wraps like TFLite's int32 multiply.
// For shift <= 0 this is also MultiplyByQuantizedMultiplierSmallerThanOneExp, and for
// shift >= 0 MultiplyByQuantizedMultiplierGreaterThanOne.
inline int32_t multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int32_t shift) {
  const int32_t left = shift > 0 ? shift : 0;
  const int32_t right = shift > 0 ? 0 : -shift;
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left);
  return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(shifted, multiplier),
                                right);
}

// TFLite MultiplyByQuantizedMultiplier(int64_t x, ...), used by the 16x8 kernels with
// int64 accumulators. The multiplier is first reduced to 16 bits (rounded), then
//   result = (x * reduced + 2^(total - 1)) >> total,  total = 15 - shift
// i.e. one rounding, ties toward +infinity, truncated to int32. shift in
// [kMinShift, kMaxShift64]. TFLite assumes |x| < 2^47; beyond that the product wraps.
inline int32_t multiply_by_quantized_multiplier64(int64_t x, int32_t multiplier, int32_t shift) {
  const int32_t reduced = multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
  const int32_t total_shift = 15 - shift;
  const int64_t product = wrapping_mul64(x, reduced);
  const int64_t rounded = wrapping_add64(product, int64_t{1} << (total_shift - 1));
  return truncate_to_i32(rounded >> total_shift);
}

// gemmlowp SaturatingRoundingMultiplyByPOT<exponent> for exponent > 0: x * 2^exponent,
// saturated to the int32 range. exponent in [1, 30].
inline int32_t saturating_left_shift(int32_t x, int32_t exponent) {
  const int32_t threshold = (1 << (31 - exponent)) - 1;
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

// Number of leading zero bits of x; 32 for x == 0.
inline int32_t count_leading_zeros(uint32_t x) {
  if (x == 0) return 32;
  int32_t n = 0;
  while ((x & 0x80000000u) == 0) {
    x <<= 1;
    ++n;
  }
  return n;
}

// ---------------------------------------------------------------------------------------
// Host side (quant_math.cc). Each function names the TFLite code it reproduces; the
// order and precision (float vs double) of every operation matter for bit-exactness.
// ---------------------------------------------------------------------------------------

// TFLite QuantizeMultiplier (kernels/internal/quantization_util.cc), double rounding:
//   real == 0          -> (0, 0)
//   q, shift = frexp(real)                    q in [0.5, 1) (negative for real < 0)
//   q_fixed = round(q * 2^31)                 round half away from zero
//   q_fixed == 2^31    -> q_fixed = 2^30, ++shift
//   shift < -31        -> (0, 0)              flush tiny multipliers to zero
// so real ~= multiplier * 2^(shift - 31). e.g. 0.5 -> (2^30, 0), 0.25 -> (2^30, -1),
// 1.0 -> (2^30, 1). The shift is NOT capped at 30 (that is the single-rounding build).
// Host only.
void quantize_multiplier(double real, int32_t* multiplier, int32_t* shift);

// TFLite QuantizeMultiplierSmallerThanOneExp / QuantizeMultiplierGreaterThanOne: the
// same, but false when real is outside (0, 1) resp. (1, inf) (TFLite aborts there).
// Host only.
bool quantize_multiplier_smaller_than_one(double real, int32_t* multiplier, int32_t* shift);
bool quantize_multiplier_greater_than_one(double real, int32_t* multiplier, int32_t* shift);

// TFLite CalculateInputRadius(input_integer_bits, input_left_shift, total_signed_bits):
//   floor((2^integer_bits - 1) * 2^(total_bits - integer_bits) / 2^left_shift)
// evaluated in double. Host only.
int32_t calculate_input_radius(int32_t input_integer_bits, int32_t input_left_shift,
                               int32_t total_signed_bits = 31);

// Fused activation of a TFLite op (ActivationFunctionType values NONE, RELU,
// RELU_N1_TO_1, RELU6; TANH and SIGN_BIT are not fusable into integer kernels).
enum class FusedActivation : uint8_t { kNone = 0, kRelu = 1, kReluN1To1 = 2, kRelu6 = 3 };

// TFLite CalculateActivationRangeQuantized (kernels/kernel_util.cc) for an output of
// the given scale / zero point whose type spans [qmin, qmax] (int8: -128..127, int16:
// -32768..32767). Each bound is quantized in float: zp + (int32)roundf(bound / scale);
//   RELU: [max(qmin, q(0)), qmax]    RELU6: [max(qmin, q(0)), min(qmax, q(6))]
//   RELU_N1_TO_1: [max(qmin, q(-1)), min(qmax, q(1))]    NONE: [qmin, qmax]
// False if a quantized bound overflows int32 (TFLite fails Prepare). Host only.
bool activation_range_quantized(FusedActivation activation, float output_scale,
                                int32_t output_zero_point, int32_t qmin, int32_t qmax,
                                int32_t* act_min, int32_t* act_max);

// The bounds of a standalone quantized clamp (TFLite's QuantizedReluX, TFLite Micro's
// CalculateReluOpData and Relu6Prepare): each finite bound quantized as above
// (zero_point + (int32)roundf(bound / scale)) and clamped to [qmin, qmax]; -inf / +inf
// give qmin / qmax. False if a quantized bound overflows int32. Host only.
bool clamp_range_quantized(float lo, float hi, float scale, int32_t zero_point, int32_t qmin,
                           int32_t qmax, int32_t* act_min, int32_t* act_max);

// TFLite ReluPrepare (tensorflow/lite/kernels/activations.cc, the RELU_N1_TO_1 and
// RELU_0_TO_1 kernels TFLite Micro does not have): the scale ratio formed in float,
//   quantize_multiplier(double(input_scale / output_scale)).
// (TFLite Micro's RELU forms it in double: requantize_multiplier.) Host only.
void requantize_multiplier_float_ratio(float input_scale, float output_scale, int32_t* multiplier,
                                       int32_t* shift);

// Per-output-channel multiplier of CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV and
// per-channel FULLY_CONNECTED (TFLite PopulateConvolutionQuantizationParams):
//   quantize_multiplier(double(input_scale) * double(filter_scale[c]) / double(output_scale))
// For a per-tensor filter scale TFLite uses the same formula with filter_scale[0] for
// every channel. Host only.
void conv_channel_multiplier(float input_scale, float filter_scale, float output_scale,
                             int32_t* multiplier, int32_t* shift);

// Per-tensor FULLY_CONNECTED (TFLite GetQuantizedConvolutionMultipler): note the float
// product: quantize_multiplier(double(float(input_scale * filter_scale)) / double(output_scale)).
// Host only.
void fully_connected_multiplier(float input_scale, float filter_scale, float output_scale,
                                int32_t* multiplier, int32_t* shift);

// The five multipliers of quantized ADD / SUB (see elementwise.h). left_shift is 20 for
// int8 and 15 for int16.
struct AddSubMultipliers {
  int32_t input1_multiplier, input1_shift;
  int32_t input2_multiplier, input2_shift;
  int32_t output_multiplier, output_shift;
};

// TFLite ADD (micro/kernels/add_common.cc), in double:
//   twice_max = 2 * double(max(s1, s2))
//   in1 = s1 / twice_max,  in2 = s2 / twice_max,  out = twice_max / (2^left_shift * s_out)
// each through quantize_multiplier_smaller_than_one. False if one is not in (0, 1).
// Host only.
bool add_multipliers(float input1_scale, float input2_scale, float output_scale,
                     int32_t left_shift, AddSubMultipliers* m);

// SUB uses the same multipliers as ADD: TFLite's SUB (tensorflow/lite/kernels/sub.cc,
// PrepareGeneralSubOp) computes them in double exactly like ADD, and the SeaNet sub
// goldens, which TFLite produced, need that. TFLM's micro/kernels/sub_common.cc at
// 90b983c2 differs: it forms the ratios in float (double(s1 / (2.f * max)), ..); its
// multipliers differ in the low bits and its outputs are 1 LSB off on 3 of the 2944
// SeaNet sub0/sub1 elements (TFLM's own integration test allows +-1 there). No int8 model
// with TFLM goldens contains SUB. Host only.
bool sub_multipliers(float input1_scale, float input2_scale, float output_scale,
                     int32_t left_shift, AddSubMultipliers* m);

// TFLite MUL: quantize_multiplier(double(s1) * double(s2) / double(s_out)). Host only.
void mul_multiplier(float input1_scale, float input2_scale, float output_scale,
                    int32_t* multiplier, int32_t* shift);

// TFLite QUANTIZE between integer types (requantize):
//   quantize_multiplier(double(input_scale) / double(output_scale)). Host only.
void requantize_multiplier(float input_scale, float output_scale, int32_t* multiplier,
                           int32_t* shift);

// TFLite MEAN (micro/kernels/reduce_common.cc + reference_ops::QuantizedMeanOrSum), with
// the division by the reduced element count n folded in as TFLite does at run time:
//   (m, s) = quantize_multiplier(double(input_scale) / double(output_scale))
//   k = min(floor(log2(n)), 32, 31 + s)
//   multiplier = int32((int64(m) << k) / n),  shift = s - k
// n >= 1. Host only.
void mean_multiplier(float input_scale, float output_scale, int64_t reduced_count,
                     int32_t* multiplier, int32_t* shift);

// TFLite int8 SOFTMAX parameters (micro/kernels/softmax_common.cc,
// PreprocessSoftmaxScaling with 5 integer bits):
//   real = min(double(beta) * double(input_scale) * 2^26, 2^31 - 1)
//   (multiplier, left_shift) = quantize_multiplier_greater_than_one(real)
//   diff_min = -calculate_input_radius(5, left_shift)
// False if real <= 1 (TFLite aborts). Host only.
bool softmax_s8_params(float beta, float input_scale, int32_t* input_multiplier,
                       int32_t* input_left_shift, int32_t* diff_min);

// TFLite Micro's int16 SOFTMAX tables (softmax_common.cc, LUTPopulate<int16_t> in float, as
// its Prepare computes them): exp over [-10, 0] (input scale 10 / 65535, zero point 32767,
// output scale 2 / 65535) and 1 / (1 + x) over [0, 1] (input scale 1 / 65535, zero point
// -32768, same output scale), 513 entries each. Every float operation in TFLite's order
// (expf, roundf half away from zero), for the bits TFLM's tables have. Host only.
void softmax_s16_tables(int16_t* exp_lut, int16_t* one_over_one_plus_x_lut);

// TFLite Micro int8 LOG_SOFTMAX parameters (micro/kernels/log_softmax.cc,
// PreprocessLogSoftmaxScalingExp with beta 1 and 5 integer bits):
//   (input_multiplier, input_left_shift, diff_min) = softmax_s8_params(1, input_scale)
//   reverse = double(1 << (31 - input_left_shift)) / double(input_multiplier)
//   (reverse_scaling_divisor, -reverse_scaling_right_shift)
//       = quantize_multiplier_smaller_than_one(reverse)
// False where TFLite aborts (a multiplier outside its range). Host only.
bool log_softmax_s8_params(float input_scale, int32_t* input_multiplier, int32_t* input_left_shift,
                           int32_t* reverse_scaling_divisor, int32_t* reverse_scaling_right_shift,
                           int32_t* diff_min);

// TFLite int8 LOGISTIC and TANH parameters (micro/kernels/logistic_common.cc, tanh.cc),
// 4 input integer bits. Not quantize_multiplier: frexp without the 2^31 fix-up.
//   q, left_shift = frexp(double(input_scale) * 2^27)
//   multiplier = int32(round(q * 2^31))
//   range_radius = calculate_input_radius(4, left_shift)
// False if left_shift falls outside [0, kMaxShift]. Host only.
bool sigmoid_tanh_s8_params(float input_scale, int32_t* input_multiplier,
                            int32_t* input_left_shift, int32_t* input_range_radius);

// TFLite LEAKY_RELU (micro/kernels/leaky_relu_common.cc), float intermediates:
//   alpha:    quantize_multiplier(double(input_scale * alpha / output_scale))
//   identity: quantize_multiplier(double(input_scale / output_scale))
// A negative alpha gives a negative alpha multiplier (the kernel handles the sign).
// Host only.
void leaky_relu_multipliers(float input_scale, float alpha, float output_scale,
                            int32_t* alpha_multiplier, int32_t* alpha_shift,
                            int32_t* identity_multiplier, int32_t* identity_shift);

// TFLite Micro PRELU (micro/kernels/prelu_common.cc, CalculatePreluParams), in double:
//   identity: quantize_multiplier(double(input_scale) / double(output_scale))
//   alpha:    quantize_multiplier(double(input_scale) * double(alpha_scale) / double(output_scale))
// Host only.
void prelu_multipliers(float input_scale, float alpha_scale, float output_scale,
                       int32_t* identity_multiplier, int32_t* identity_shift,
                       int32_t* alpha_multiplier, int32_t* alpha_shift);

// TFLite Micro int8 ELU's lookup table (micro/kernels/elu.cc, PopulateLookupTable), in
// float: for each v in [-128, 127],
//   x = input_scale * (v - input_zero_point)
//   t = x < 0 ? expf(x) - 1 : x
//   q = roundf(t * (1 / output_scale)) + output_zero_point, clamped to [-128, 127]
// stored at table[v + 128]. Host only.
void elu_s8_table(float input_scale, int32_t input_zero_point, float output_scale,
                  int32_t output_zero_point, int8_t table[256]);

// TFLite int8 HARD_SWISH parameters (micro/kernels/hard_swish_common.cc), float
// intermediates:
//   hires_input_scale = input_scale / 128 (float)
//   output:  quantize_multiplier(double(hires_input_scale / output_scale))
//   reluish: quantize_multiplier(double(hires_input_scale / (3 / 32768)))
// each multiplier then reduced to 16 bits (TFLite DownScaleInt32ToInt16Multiplier:
// (m + 2^15) >> 16, or 32767 when m >= 2^31 - 1 - 2^15). TFLite refuses an output
// exponent above 0 (the caller checks). Host only.
void hard_swish_s8_multipliers(float input_scale, float output_scale,
                               int32_t* reluish_multiplier, int32_t* reluish_exponent,
                               int32_t* output_multiplier, int32_t* output_exponent);

}  // namespace mote
