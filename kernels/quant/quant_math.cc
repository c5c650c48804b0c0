// Host-side derivation of the integer kernels' parameters, operation for operation as
// TFLite Micro's Prepare() functions do it (see quant_math.h). Uses double; never
// called by a kernel, so it is not linked into firmware that only runs kernels.
#include "quant/quant_math.h"

#include <math.h>

namespace mote {

void quantize_multiplier(double real, int32_t* multiplier, int32_t* shift) {
  if (real == 0.0) {
    *multiplier = 0;
    *shift = 0;
    return;
  }
  int exponent = 0;
  const double q = frexp(real, &exponent);
  // round() rounds half away from zero, like TfLiteRound.
  int64_t q_fixed = static_cast<int64_t>(round(q * static_cast<double>(int64_t{1} << 31)));
  if (q_fixed == (int64_t{1} << 31)) {
    q_fixed /= 2;
    ++exponent;
  }
  if (exponent < -31) {
    exponent = 0;
    q_fixed = 0;
  }
  *multiplier = static_cast<int32_t>(q_fixed);
  *shift = exponent;
}

bool quantize_multiplier_smaller_than_one(double real, int32_t* multiplier, int32_t* shift) {
  if (!(real > 0.0 && real < 1.0)) return false;
  quantize_multiplier(real, multiplier, shift);
  return *shift <= 0;
}

bool quantize_multiplier_greater_than_one(double real, int32_t* multiplier, int32_t* shift) {
  if (!(real > 1.0)) return false;
  quantize_multiplier(real, multiplier, shift);
  return *shift >= 0;
}

int32_t calculate_input_radius(int32_t input_integer_bits, int32_t input_left_shift,
                               int32_t total_signed_bits) {
  const double max_input_rescaled =
      1.0 * ((1 << input_integer_bits) - 1) *
      ldexp(1.0, total_signed_bits - input_integer_bits) / ldexp(1.0, input_left_shift);
  return static_cast<int32_t>(floor(max_input_rescaled));
}

namespace {

// kernel_util.cc Quantize(): float division and float rounding.
bool quantize_bound(float scale, int32_t zero_point, float value, int32_t* q) {
  const float t = roundf(value / scale);
  if (!(t >= -2147483648.0f && t <= 2147483647.0f)) return false;
  // t == 2^31 passes TFLite's float comparison but does not fit; TFLite's cast would be
  // undefined there. Refuse it.
  if (t >= 2147483648.0f) return false;
  *q = zero_point + static_cast<int32_t>(t);
  return true;
}

}  // namespace

bool activation_range_quantized(FusedActivation activation, float output_scale,
                                int32_t output_zero_point, int32_t qmin, int32_t qmax,
                                int32_t* act_min, int32_t* act_max) {
  int32_t q = 0;
  switch (activation) {
    case FusedActivation::kRelu:
      if (!quantize_bound(output_scale, output_zero_point, 0.0f, &q)) return false;
      *act_min = q > qmin ? q : qmin;
      *act_max = qmax;
      return true;
    case FusedActivation::kRelu6:
      if (!quantize_bound(output_scale, output_zero_point, 0.0f, &q)) return false;
      *act_min = q > qmin ? q : qmin;
      if (!quantize_bound(output_scale, output_zero_point, 6.0f, &q)) return false;
      *act_max = q < qmax ? q : qmax;
      return true;
    case FusedActivation::kReluN1To1:
      if (!quantize_bound(output_scale, output_zero_point, -1.0f, &q)) return false;
      *act_min = q > qmin ? q : qmin;
      if (!quantize_bound(output_scale, output_zero_point, 1.0f, &q)) return false;
      *act_max = q < qmax ? q : qmax;
      return true;
    case FusedActivation::kNone:
      break;
  }
  *act_min = qmin;
  *act_max = qmax;
  return true;
}

bool clamp_range_quantized(float lo, float hi, float scale, int32_t zero_point, int32_t qmin,
                           int32_t qmax, int32_t* act_min, int32_t* act_max) {
  int32_t q = 0;
  *act_min = qmin;
  *act_max = qmax;
  if (isfinite(lo)) {
    if (!quantize_bound(scale, zero_point, lo, &q)) return false;
    *act_min = q < qmin ? qmin : (q > qmax ? qmax : q);
  }
  if (isfinite(hi)) {
    if (!quantize_bound(scale, zero_point, hi, &q)) return false;
    *act_max = q < qmin ? qmin : (q > qmax ? qmax : q);
  }
  return true;
}

void requantize_multiplier_float_ratio(float input_scale, float output_scale, int32_t* multiplier,
                                       int32_t* shift) {
  quantize_multiplier(static_cast<double>(input_scale / output_scale), multiplier, shift);
}

void conv_channel_multiplier(float input_scale, float filter_scale, float output_scale,
                             int32_t* multiplier, int32_t* shift) {
  const double effective = static_cast<double>(input_scale) * static_cast<double>(filter_scale) /
                           static_cast<double>(output_scale);
  quantize_multiplier(effective, multiplier, shift);
}

void fully_connected_multiplier(float input_scale, float filter_scale, float output_scale,
                                int32_t* multiplier, int32_t* shift) {
  const float product = input_scale * filter_scale;
  quantize_multiplier(static_cast<double>(product) / static_cast<double>(output_scale),
                      multiplier, shift);
}

bool add_multipliers(float input1_scale, float input2_scale, float output_scale,
                     int32_t left_shift, AddSubMultipliers* m) {
  const float max_scale = input1_scale > input2_scale ? input1_scale : input2_scale;
  const double twice_max = 2 * static_cast<double>(max_scale);
  const double real1 = static_cast<double>(input1_scale) / twice_max;
  const double real2 = static_cast<double>(input2_scale) / twice_max;
  const double real_out =
      twice_max / (static_cast<double>(1 << left_shift) * static_cast<double>(output_scale));
  return quantize_multiplier_smaller_than_one(real1, &m->input1_multiplier, &m->input1_shift) &&
         quantize_multiplier_smaller_than_one(real2, &m->input2_multiplier, &m->input2_shift) &&
         quantize_multiplier_smaller_than_one(real_out, &m->output_multiplier, &m->output_shift);
}

bool sub_multipliers(float input1_scale, float input2_scale, float output_scale,
                     int32_t left_shift, AddSubMultipliers* m) {
  return add_multipliers(input1_scale, input2_scale, output_scale, left_shift, m);
}

void mul_multiplier(float input1_scale, float input2_scale, float output_scale,
                    int32_t* multiplier, int32_t* shift) {
  const double real = static_cast<double>(input1_scale) * static_cast<double>(input2_scale) /
                      static_cast<double>(output_scale);
  quantize_multiplier(real, multiplier, shift);
}

void requantize_multiplier(float input_scale, float output_scale, int32_t* multiplier,
                           int32_t* shift) {
  quantize_multiplier(static_cast<double>(input_scale) / static_cast<double>(output_scale),
                      multiplier, shift);
}

void mean_multiplier(float input_scale, float output_scale, int64_t reduced_count,
                     int32_t* multiplier, int32_t* shift) {
  int32_t m = 0;
  int32_t s = 0;
  quantize_multiplier(static_cast<double>(input_scale) / static_cast<double>(output_scale), &m,
                      &s);
  if (reduced_count < 1) reduced_count = 1;
  int32_t k = 63;
  while (k > 0 && (static_cast<uint64_t>(reduced_count) >> k) == 0) --k;  // floor(log2(n))
  if (k > 32) k = 32;
  if (k > 31 + s) k = 31 + s;
  *multiplier = static_cast<int32_t>((static_cast<int64_t>(m) << k) / reduced_count);
  *shift = s - k;
}

bool softmax_s8_params(float beta, float input_scale, int32_t* input_multiplier,
                       int32_t* input_left_shift, int32_t* diff_min) {
  constexpr int32_t kScaledDiffIntegerBits = 5;
  const double max_real = static_cast<double>((int64_t{1} << 31) - 1);
  double real = static_cast<double>(beta) * static_cast<double>(input_scale) *
                static_cast<double>(1 << (31 - kScaledDiffIntegerBits));
  if (real > max_real) real = max_real;
  if (!quantize_multiplier_greater_than_one(real, input_multiplier, input_left_shift)) {
    return false;
  }
  *diff_min = -calculate_input_radius(kScaledDiffIntegerBits, *input_left_shift);
  return true;
}

namespace {

// TFLite's LUTPopulateInt16<float> (kernels/internal/common.h): 512 samples of transform
// over the input range, each corrected by half the error of linear interpolation at the
// midpoint, and the value at the range's end.
template <typename Transform>
void lut_populate_s16(float input_scale, int32_t input_zero_point, float output_scale, int32_t output_zero_point,
                      Transform transform, int16_t* lut) {
  const float input_min = input_scale * static_cast<float>(-32768 - input_zero_point);
  const float input_max = input_scale * static_cast<float>(32767 - input_zero_point);
  const float output_min = output_scale * static_cast<float>(-32768 - output_zero_point);
  const float output_max = output_scale * static_cast<float>(32767 - output_zero_point);
  constexpr int kSteps = 512;
  const float step = (input_max - input_min) / static_cast<float>(kSteps);
  const float half_step = step / 2;
  const float scaling_inv = 65536.0f / (output_max - output_min);
  const auto to_table = [](float v) { return static_cast<int16_t>(fminf(fmaxf(v, -32768.0f), 32767.0f)); };
  for (int i = 0; i < kSteps; ++i) {
    const float at = input_min + static_cast<float>(i) * step;
    const float val = transform(at);
    const float val_midpoint = transform(at + half_step);
    const float val_next = transform(input_min + static_cast<float>(i + 1) * step);
    const float sample = roundf(val * scaling_inv);
    const float midpoint_interp = roundf((val_next * scaling_inv + roundf(val * scaling_inv)) / 2);
    const float midpoint = roundf(val_midpoint * scaling_inv);
    const float bias = roundf((midpoint_interp - midpoint) / 2);
    lut[i] = to_table(sample - bias);
  }
  lut[kSteps] = to_table(roundf(transform(input_max) * scaling_inv));
}

}  // namespace

void softmax_s16_tables(int16_t* exp_lut, int16_t* one_over_one_plus_x_lut) {
  const float range = 65535.0f;  // int16 max - int16 min
  lut_populate_s16(10.0f / range, 32767, 2.0f / range, 0, [](float v) { return expf(v); }, exp_lut);
  lut_populate_s16(1.0f / range, -32768, 2.0f / range, 0, [](float v) { return 1.0f / (1.0f + v); },
                   one_over_one_plus_x_lut);
}

bool log_softmax_s8_params(float input_scale, int32_t* input_multiplier, int32_t* input_left_shift,
                           int32_t* reverse_scaling_divisor, int32_t* reverse_scaling_right_shift,
                           int32_t* diff_min) {
  if (!softmax_s8_params(1.0f, input_scale, input_multiplier, input_left_shift, diff_min)) return false;
  if (*input_left_shift < 1 || *input_left_shift > 30) return false;
  const double reverse =
      static_cast<double>(1 << (31 - *input_left_shift)) / static_cast<double>(*input_multiplier);
  int32_t left_shift = 0;
  if (!quantize_multiplier_smaller_than_one(reverse, reverse_scaling_divisor, &left_shift)) return false;
  *reverse_scaling_right_shift = -left_shift;
  return true;
}

bool sigmoid_tanh_s8_params(float input_scale, int32_t* input_multiplier,
                            int32_t* input_left_shift, int32_t* input_range_radius) {
  constexpr int32_t kInputIntegerBits = 4;
  const double real = static_cast<double>(input_scale) *
                      static_cast<double>(1 << (31 - kInputIntegerBits));
  int exponent = 0;
  const double q = frexp(real, &exponent);
  const double q_fixed = round(q * static_cast<double>(int64_t{1} << 31));
  // A float32 scale has a 24-bit significand, so q * 2^31 is an integer below 2^31 and
  // TFLite's unchecked cast never sees 2^31; refuse it rather than guess.
  if (!(q_fixed > 0.0 && q_fixed < 2147483648.0)) return false;
  if (exponent < 0 || exponent > kMaxShift) return false;
  *input_multiplier = static_cast<int32_t>(q_fixed);
  *input_left_shift = exponent;
  *input_range_radius = calculate_input_radius(kInputIntegerBits, exponent);
  return true;
}

void leaky_relu_multipliers(float input_scale, float alpha, float output_scale,
                            int32_t* alpha_multiplier, int32_t* alpha_shift,
                            int32_t* identity_multiplier, int32_t* identity_shift) {
  const float alpha_real = input_scale * alpha / output_scale;
  quantize_multiplier(static_cast<double>(alpha_real), alpha_multiplier, alpha_shift);
  const float identity_real = input_scale / output_scale;
  quantize_multiplier(static_cast<double>(identity_real), identity_multiplier, identity_shift);
}

void prelu_multipliers(float input_scale, float alpha_scale, float output_scale,
                       int32_t* identity_multiplier, int32_t* identity_shift,
                       int32_t* alpha_multiplier, int32_t* alpha_shift) {
  const double in = static_cast<double>(input_scale);
  const double out = static_cast<double>(output_scale);
  quantize_multiplier(in / out, identity_multiplier, identity_shift);
  quantize_multiplier(in * static_cast<double>(alpha_scale) / out, alpha_multiplier, alpha_shift);
}

void elu_s8_table(float input_scale, int32_t input_zero_point, float output_scale,
                  int32_t output_zero_point, int8_t table[256]) {
  const float inverse_scale = 1 / output_scale;
  for (int32_t v = -128; v <= 127; ++v) {
    const float x = input_scale * static_cast<float>(v - input_zero_point);
    const float t = x < 0.0f ? expf(x) - 1.0f : x;
    const float q = roundf(t * inverse_scale) + static_cast<float>(output_zero_point);
    // TFLite casts q to int32 before clamping; clamping first gives the same for every
    // q that fits int32 and keeps the cast defined for those that do not.
    table[v + 128] = static_cast<int8_t>(q < -128.0f ? -128 : (q > 127.0f ? 127 : static_cast<int32_t>(q)));
  }
}

namespace {

// TFLite DownScaleInt32ToInt16Multiplier, for a multiplier >= 0.
int32_t downscale_to_int16_multiplier(int32_t multiplier) {
  constexpr int32_t kRoundingOffset = 1 << 15;
  if (multiplier >= INT32_MAX - kRoundingOffset) return INT16_MAX;
  return (multiplier + kRoundingOffset) >> 16;
}

}  // namespace

void hard_swish_s8_multipliers(float input_scale, float output_scale,
                               int32_t* reluish_multiplier, int32_t* reluish_exponent,
                               int32_t* output_multiplier, int32_t* output_exponent) {
  const float hires_input_scale = (1.0f / 128.0f) * input_scale;
  const float reluish_scale = 3.0f / 32768.0f;
  int32_t multiplier = 0;
  quantize_multiplier(static_cast<double>(hires_input_scale / output_scale), &multiplier,
                      output_exponent);
  *output_multiplier = downscale_to_int16_multiplier(multiplier);
  quantize_multiplier(static_cast<double>(hires_input_scale / reluish_scale), &multiplier,
                      reluish_exponent);
  *reluish_multiplier = downscale_to_int16_multiplier(multiplier);
}

}  // namespace mote
