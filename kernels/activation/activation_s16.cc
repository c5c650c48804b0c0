// Reference int16 sigmoid and tanh, bit-exact with TFLite's reference_integer_ops::Logistic
// and Tanh on int16 (the shared table interpolation, quant/sigmoid_lut_s16.h). Each reads
// input[i] before writing output[i], so both may run in place.
#include "activation/activation.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/sigmoid_lut_s16.h"

namespace mote {

void sigmoid_s16(const SigmoidTanhS16Params& params, uint32_t count, const int16_t* input,
                 int16_t* output) {
  for (uint32_t i = 0; i < count; ++i) {
    output[i] = lut_sigmoid_s16(input[i], params.input_multiplier, params.input_left_shift);
  }
}

void tanh_s16(const SigmoidTanhS16Params& params, uint32_t count, const int16_t* input,
              int16_t* output) {
  for (uint32_t i = 0; i < count; ++i) {
    output[i] = lut_tanh_s16(input[i], params.input_multiplier, params.input_left_shift);
  }
}

Status sigmoid_tanh_s16_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(SigmoidTanhS16Params)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_s16(in) || !is_s16(out) || !same_shape(in, out)) return Status::kBadParams;
  const SigmoidTanhS16Params& p = ctx.params<SigmoidTanhS16Params>();
  if (p.input_multiplier < 1 || p.input_multiplier > 32767 || p.input_left_shift < 0 ||
      p.input_left_shift > 31) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void sigmoid_s16_run(const OpContext& ctx) {
  sigmoid_s16(ctx.params<SigmoidTanhS16Params>(), element_count(ctx.input_desc(0)),
              static_cast<const int16_t*>(ctx.input_data(0)),
              static_cast<int16_t*>(ctx.output_data(0)));
}

void tanh_s16_run(const OpContext& ctx) {
  tanh_s16(ctx.params<SigmoidTanhS16Params>(), element_count(ctx.input_desc(0)),
           static_cast<const int16_t*>(ctx.input_data(0)),
           static_cast<int16_t*>(ctx.output_data(0)));
}

const KernelEntry kSigmoidS16Entry = {sigmoid_tanh_s16_check, sigmoid_s16_run};
const KernelEntry kTanhS16Entry = {sigmoid_tanh_s16_check, tanh_s16_run};

}  // namespace mote
