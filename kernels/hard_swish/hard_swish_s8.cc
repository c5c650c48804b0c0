// Reference int8 hard swish, bit-exact with TFLite's quantized reference_ops::HardSwish
// (16-bit gemmlowp fixed point; hard_swish.h states the steps).
#include "hard_swish/hard_swish.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

int16_t saturate_i16(int64_t v) {
  return static_cast<int16_t>(v < -32768 ? -32768 : (v > 32767 ? 32767 : v));
}

// gemmlowp SaturatingRoundingDoublingHighMul on int16: (a * b + nudge) / 2^15, truncated
// toward zero, nudge 2^14 (or 1 - 2^14 for a negative product); -32768 * -32768 saturates.
int16_t srdhm16(int16_t a, int16_t b) {
  if (a == -32768 && b == -32768) return 32767;
  const int32_t ab = static_cast<int32_t>(a) * b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((ab + nudge) / (1 << 15));
}

// TFLite's SaturatingDoublingHighMul: a * b / 2^15 truncated toward zero.
int16_t sdhm16(int16_t a, int16_t b) {
  if (a == -32768 && b == -32768) return 32767;
  return static_cast<int16_t>(static_cast<int32_t>(a) * b / (1 << 15));
}

// gemmlowp RoundingDivideByPOT on int16 values, exponent in [0, 31]: its mask
// (2^exponent - 1) is an int16, so for exponents of 16 or more it is -1.
int16_t rdbpot16(int16_t x, int32_t exponent) {
  const int16_t mask = static_cast<int16_t>(static_cast<uint16_t>((uint64_t{1} << exponent) - 1));
  const int16_t remainder = static_cast<int16_t>(x & mask);
  const int16_t threshold = static_cast<int16_t>((mask >> 1) + (x < 0 ? 1 : 0));
  return static_cast<int16_t>((x >> exponent) + (remainder > threshold ? 1 : 0));
}

// TFLite's SaturatingLeftShift: value * 2^amount saturated to int16, amount in [0, 29].
int16_t saturating_left_shift16(int16_t value, int32_t amount) {
  return saturate_i16(static_cast<int64_t>(value) * (int64_t{1} << amount));
}

}  // namespace

void hard_swish_s8(const HardSwishS8Params& p, uint32_t count, const int8_t* input,
                   int8_t* output) {
  const int16_t output_multiplier = static_cast<int16_t>(p.output_multiplier);
  const int16_t reluish_multiplier = static_cast<int16_t>(p.reluish_multiplier);
  for (uint32_t i = 0; i < count; ++i) {
    const int16_t hires = static_cast<int16_t>((input[i] - p.input_zero_point) * 128);
    const int16_t preshift = srdhm16(hires, output_multiplier);
    int16_t reluish = hires;
    if (p.reluish_exponent > 0) {
      reluish = saturating_left_shift16(reluish, p.reluish_exponent - 1);
      reluish = srdhm16(reluish, reluish_multiplier);
      reluish = saturating_left_shift16(reluish, 1);
    } else {
      reluish = srdhm16(reluish, reluish_multiplier);
      if (p.reluish_exponent < 0) reluish = rdbpot16(reluish, -p.reluish_exponent);
    }
    reluish = static_cast<int16_t>((reluish + (1 << 15)) >> 1);
    const int16_t y = rdbpot16(sdhm16(reluish, preshift), -p.output_exponent);
    output[i] = static_cast<int8_t>(clamp_i32(y + p.output_zero_point, -128, 127));
  }
}

Status hard_swish_s8_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(HardSwishS8Params)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!has_dtype(in, DType::kInt8) || !has_dtype(out, DType::kInt8) || !same_shape(in, out)) {
    return Status::kBadParams;
  }
  const HardSwishS8Params& p = ctx.params<HardSwishS8Params>();
  const auto valid_multiplier = [](int32_t m) { return m >= 0 && m <= 32767; };
  if (!valid_zero_point<int8_t>(p.input_zero_point) ||
      !valid_zero_point<int8_t>(p.output_zero_point) ||
      !valid_multiplier(p.reluish_multiplier) || !valid_multiplier(p.output_multiplier) ||
      !valid_shift(p.reluish_exponent) || p.output_exponent < kMinShift || p.output_exponent > 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void hard_swish_s8_run(const OpContext& ctx) {
  hard_swish_s8(ctx.params<HardSwishS8Params>(), element_count(ctx.input_desc(0)),
                static_cast<const int8_t*>(ctx.input_data(0)),
                static_cast<int8_t*>(ctx.output_data(0)));
}

const KernelEntry kHardSwishS8Entry = {hard_swish_s8_check, hard_swish_s8_run};

}  // namespace mote
