// Reference float32 PReLU (TFLM BroadcastPrelu4DSlowFloat).
#include "prelu/prelu.h"
#include "prelu/prelu_walk.h"

namespace mote {

Status prelu_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 2, 1));
  if (ctx.params_bytes() != 0) return Status::kBadParams;
  if (!is_f32(ctx.input_desc(0)) || !is_f32(ctx.input_desc(1)) || !is_f32(ctx.output_desc(0))) {
    return Status::kBadParams;
  }
  BroadcastShape shape;
  return prelu_walk::valid_shapes(ctx, &shape) ? Status::kOk : Status::kBadParams;
}

void prelu_f32_run(const OpContext& ctx) {
  BroadcastShape shape;
  (void)prelu_walk::valid_shapes(ctx, &shape);  // check() accepted the same descriptors
  prelu_walk::walk(shape, static_cast<const float*>(ctx.input_data(0)),
                   static_cast<const float*>(ctx.input_data(1)), static_cast<float*>(ctx.output_data(0)),
                   [](float x, float alpha) { return x >= 0.0f ? x : x * alpha; });
}

const KernelEntry kPreluF32Entry = {prelu_f32_check, prelu_f32_run};

}  // namespace mote
