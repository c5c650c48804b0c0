// Reference logical ops on bool tensors (logical.h).
#include "logical/logical.h"

#include "elementwise/broadcast_walk.h"
#include "kernel_util.h"

namespace mote {

void logical_not(uint32_t count, const uint8_t* input, uint8_t* output) {
  for (uint32_t i = 0; i < count; ++i) output[i] = input[i] == 0 ? 1 : 0;
}

Status logical_not_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != 0) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!has_dtype(in, DType::kBool) || !has_dtype(out, DType::kBool) || !same_shape(in, out)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void logical_not_run(const OpContext& ctx) {
  logical_not(element_count(ctx.input_desc(0)), static_cast<const uint8_t*>(ctx.input_data(0)),
              static_cast<uint8_t*>(ctx.output_data(0)));
}

const KernelEntry kLogicalNotEntry = {logical_not_check, logical_not_run};

Status logical_binary_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_broadcast_binary(ctx, DType::kBool, DType::kBool, sizeof(LogicalBinaryParams)));
  const int32_t is_or = ctx.params<LogicalBinaryParams>().is_or;
  return is_or == 0 || is_or == 1 ? Status::kOk : Status::kBadParams;
}

void logical_binary_run(const OpContext& ctx) {
  if (ctx.params<LogicalBinaryParams>().is_or) {
    run_broadcast_binary<uint8_t, uint8_t>(ctx, [](uint8_t a, uint8_t b) -> uint8_t { return a != 0 || b != 0; });
  } else {
    run_broadcast_binary<uint8_t, uint8_t>(ctx, [](uint8_t a, uint8_t b) -> uint8_t { return a != 0 && b != 0; });
  }
}

const KernelEntry kLogicalBinaryEntry = {logical_binary_check, logical_binary_run};

}  // namespace mote
