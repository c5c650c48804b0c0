// Reference int8 GELU: a lookup table the compiler fills (gelu.h).
#include "gelu/gelu.h"
#include "kernel_util.h"

namespace mote {

void gelu_s8(const GeluS8Params& params, uint32_t count, const int8_t* input, int8_t* output) {
  for (uint32_t i = 0; i < count; ++i) output[i] = params.table[input[i] + 128];
}

Status gelu_s8_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(GeluS8Params)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!has_dtype(in, DType::kInt8) || !has_dtype(out, DType::kInt8) || !same_shape(in, out)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void gelu_s8_run(const OpContext& ctx) {
  gelu_s8(ctx.params<GeluS8Params>(), element_count(ctx.input_desc(0)),
          static_cast<const int8_t*>(ctx.input_data(0)), static_cast<int8_t*>(ctx.output_data(0)));
}

const KernelEntry kGeluS8Entry = {gelu_s8_check, gelu_s8_run};

}  // namespace mote
