// Reference float32 <-> integer conversions, bit-exact with TFLite's AffineQuantize and
// Dequantize (see quantize.h). The only integer kernels that use float, by definition.
#include <math.h>

#include "isa/dsp.h"
#include "isa/fpu.h"
#include "isa/fpu_reciprocal.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "quantize/quantize.h"

namespace mote {
namespace {

// T is int8_t or int16_t (saturated by SSAT where the core has it). The quotient's
// rounding is isa/fpu_reciprocal.h's: a multiply by the scale's prepared reciprocal, the
// division redone only near ties, bit-exact with round_saturated(x / scale). For int8 it
// needs exactness only while |x / scale| < 2^9: beyond, every result saturates.
template <typename T>
void quantize(const AffineQuantParams& params, uint32_t count, const float* input, T* output) {
  const auto clamp = [](int32_t q) { return sizeof(T) == 1 ? dsp::ssat8(q) : dsp::ssat16(q); };
  const auto saturate = [clamp](int32_t q) { return static_cast<T>(clamp(q)); };
  const int32_t zero_point = params.zero_point;
  const fpu::Reciprocal reciprocal = fpu::prepare_reciprocal(params.scale);
  if (!reciprocal.usable) {
    for (uint32_t i = 0; i < count; ++i) {
      output[i] = saturate(fpu::round_saturated(input[i] / params.scale) + zero_point);
    }
    return;
  }
  constexpr int kExactLog2 = sizeof(T) == 1 ? 9 : 16;
  const auto quantize_one = [&](float x) {
    return static_cast<T>(fpu::divide_round_saturated<kExactLog2>(reciprocal, x, zero_point, clamp));
  };
  // Two per step (one loop branch per pair). In place, output j never overlaps a value
  // after j, which may be read again (for a division) after output j is written.
  const float* const pairs_end = input + (count & ~1u);
  for (; input != pairs_end; input += 2, output += 2) {
    int32_t q0, q1;
    fpu::divide_round_saturated_pair<kExactLog2>(reciprocal, input, zero_point, clamp, q0, q1);
    output[0] = static_cast<T>(q0);
    output[1] = static_cast<T>(q1);
  }
  if ((count & 1u) != 0) *output = quantize_one(*input);
}

template <typename T>
void dequantize(const AffineQuantParams& params, uint32_t count, const T* input, float* output) {
  for (uint32_t i = 0; i < count; ++i) {
    output[i] = params.scale * static_cast<float>(input[i] - params.zero_point);
  }
}

// float input, T output (quantize) or T input, float output (dequantize), same shape.
template <typename T>
Status check_affine(const OpContext& ctx, bool to_float) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(AffineQuantParams)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  const TensorDesc& quantized = to_float ? in : out;
  const TensorDesc& real = to_float ? out : in;
  if (!is_f32(real) || !has_dtype(quantized, IntRange<T>::kDType) || !same_shape(in, out)) {
    return Status::kBadParams;
  }
  const AffineQuantParams& p = ctx.params<AffineQuantParams>();
  if (!(p.scale > 0.0f && p.scale < INFINITY) || !valid_zero_point<T>(p.zero_point)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

}  // namespace

void quantize_f32_s8(const AffineQuantParams& params, uint32_t count, const float* input,
                     int8_t* output) {
  quantize(params, count, input, output);
}
void quantize_f32_s16(const AffineQuantParams& params, uint32_t count, const float* input,
                      int16_t* output) {
  quantize(params, count, input, output);
}
void dequantize_s8_f32(const AffineQuantParams& params, uint32_t count, const int8_t* input,
                       float* output) {
  dequantize(params, count, input, output);
}
void dequantize_s16_f32(const AffineQuantParams& params, uint32_t count, const int16_t* input,
                        float* output) {
  dequantize(params, count, input, output);
}
void dequantize_u8_f32(const AffineQuantParams& params, uint32_t count, const uint8_t* input,
                       float* output) {
  dequantize(params, count, input, output);
}

Status quantize_f32_s8_check(const OpContext& ctx) { return check_affine<int8_t>(ctx, false); }
Status quantize_f32_s16_check(const OpContext& ctx) { return check_affine<int16_t>(ctx, false); }
Status dequantize_s8_f32_check(const OpContext& ctx) { return check_affine<int8_t>(ctx, true); }
Status dequantize_s16_f32_check(const OpContext& ctx) { return check_affine<int16_t>(ctx, true); }
Status dequantize_u8_f32_check(const OpContext& ctx) { return check_affine<uint8_t>(ctx, true); }

void quantize_f32_s8_run(const OpContext& ctx) {
  quantize_f32_s8(ctx.params<AffineQuantParams>(), element_count(ctx.input_desc(0)),
                  static_cast<const float*>(ctx.input_data(0)),
                  static_cast<int8_t*>(ctx.output_data(0)));
}
void quantize_f32_s16_run(const OpContext& ctx) {
  quantize_f32_s16(ctx.params<AffineQuantParams>(), element_count(ctx.input_desc(0)),
                   static_cast<const float*>(ctx.input_data(0)),
                   static_cast<int16_t*>(ctx.output_data(0)));
}
void dequantize_s8_f32_run(const OpContext& ctx) {
  dequantize_s8_f32(ctx.params<AffineQuantParams>(), element_count(ctx.input_desc(0)),
                    static_cast<const int8_t*>(ctx.input_data(0)),
                    static_cast<float*>(ctx.output_data(0)));
}
void dequantize_s16_f32_run(const OpContext& ctx) {
  dequantize_s16_f32(ctx.params<AffineQuantParams>(), element_count(ctx.input_desc(0)),
                     static_cast<const int16_t*>(ctx.input_data(0)),
                     static_cast<float*>(ctx.output_data(0)));
}
void dequantize_u8_f32_run(const OpContext& ctx) {
  dequantize_u8_f32(ctx.params<AffineQuantParams>(), element_count(ctx.input_desc(0)),
                    static_cast<const uint8_t*>(ctx.input_data(0)),
                    static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kQuantizeF32S8Entry = {quantize_f32_s8_check, quantize_f32_s8_run};
const KernelEntry kQuantizeF32S16Entry = {quantize_f32_s16_check, quantize_f32_s16_run};
const KernelEntry kDequantizeS8F32Entry = {dequantize_s8_f32_check, dequantize_s8_f32_run};
const KernelEntry kDequantizeS16F32Entry = {dequantize_s16_f32_check, dequantize_s16_f32_run};
const KernelEntry kDequantizeU8F32Entry = {dequantize_u8_f32_check, dequantize_u8_f32_run};

}  // namespace mote
