// Reference float32 add, sub, mul and div with numpy broadcasting.
//
// The output is walked by broadcast_binary (broadcast_walk.h): safe to run in place when
// the output aliases an input of the output's shape. Without a fused activation the clamp
// is skipped, and a same-shape add runs four sums per step (fpu::add_step4: one VLDM per
// operand on an FPU core; the same sums everywhere).
#include <stdint.h>

#include "elementwise/broadcast_walk.h"
#include "elementwise/elementwise.h"
#include "isa/fpu.h"
#include "kernel_util.h"

namespace mote {
namespace {

struct AddOp {
  static constexpr bool kIsAdd = true;
  static float apply(float a, float b) { return a + b; }
};
struct SubOp {
  static constexpr bool kIsAdd = false;
  static float apply(float a, float b) { return a - b; }
};
struct MulOp {
  static constexpr bool kIsAdd = false;
  static float apply(float a, float b) { return a * b; }
};
struct DivOp {
  static constexpr bool kIsAdd = false;
  static float apply(float a, float b) { return a / b; }
};

// True for the shape of two same-shape operands (make_broadcast_shape merges them into
// one row both inputs walk).
bool one_contiguous_row(const BroadcastShape& shape) {
  constexpr int32_t kRow = kMaxRank - 1;
  for (int32_t i = 0; i < kRow; ++i)
    if (shape.out_dims[i] != 1) return false;
  return shape.a_strides[kRow] == 1 && shape.b_strides[kRow] == 1;
}

template <typename Op>
void binary_f32(const BinaryParams& params, const BroadcastShape& shape, const float* a,
                const float* b, float* out) {
  if (float_act_is_identity(params.act_min, params.act_max)) {
    if constexpr (Op::kIsAdd) {
      if (one_contiguous_row(shape)) {
        // A residual connection's add: four sums per step (fpu::add_step4), the same bits.
        int32_t n = shape.out_dims[kMaxRank - 1];
        for (; n >= 4; n -= 4) fpu::add_step4(a, b, out);
        for (; n > 0; --n) *out++ = *a++ + *b++;
        return;
      }
    }
    // No fused activation: clamp_value would return every value (NaN included) as is,
    // at two compares per element on an FPU without min/max instructions.
    broadcast_binary(shape, a, b, out, [](float x, float y) { return Op::apply(x, y); });
    return;
  }
  broadcast_binary(shape, a, b, out, [&params](float x, float y) {
    return clamp_value(Op::apply(x, y), params.act_min, params.act_max);
  });
}

template <typename Op>
void binary_f32_run(const OpContext& ctx) {
  BroadcastShape shape;
  // Cannot fail: check() accepted the same descriptors.
  (void)make_broadcast_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0), &shape);
  binary_f32<Op>(ctx.params<BinaryParams>(), shape, static_cast<const float*>(ctx.input_data(0)),
                 static_cast<const float*>(ctx.input_data(1)),
                 static_cast<float*>(ctx.output_data(0)));
}

}  // namespace

void add_f32(const BinaryParams& params, const BroadcastShape& shape, const float* a,
             const float* b, float* out) {
  binary_f32<AddOp>(params, shape, a, b, out);
}
void sub_f32(const BinaryParams& params, const BroadcastShape& shape, const float* a,
             const float* b, float* out) {
  binary_f32<SubOp>(params, shape, a, b, out);
}
void mul_f32(const BinaryParams& params, const BroadcastShape& shape, const float* a,
             const float* b, float* out) {
  binary_f32<MulOp>(params, shape, a, b, out);
}
void div_f32(const BinaryParams& params, const BroadcastShape& shape, const float* a,
             const float* b, float* out) {
  binary_f32<DivOp>(params, shape, a, b, out);
}

Status binary_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 2, 1));
  if (ctx.params_bytes() != sizeof(BinaryParams)) return Status::kBadParams;
  const BinaryParams& p = ctx.params<BinaryParams>();
  const TensorDesc& a = ctx.input_desc(0);
  const TensorDesc& b = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_f32(a) || !is_f32(b) || !is_f32(out)) return Status::kBadParams;
  BroadcastShape shape;
  if (!make_broadcast_shape(a, b, out, &shape)) return Status::kBadParams;
  if (!valid_act_range(p.act_min, p.act_max)) return Status::kBadParams;
  return Status::kOk;
}

void add_f32_run(const OpContext& ctx) { binary_f32_run<AddOp>(ctx); }
void sub_f32_run(const OpContext& ctx) { binary_f32_run<SubOp>(ctx); }
void mul_f32_run(const OpContext& ctx) { binary_f32_run<MulOp>(ctx); }
void div_f32_run(const OpContext& ctx) { binary_f32_run<DivOp>(ctx); }

const KernelEntry kAddF32Entry = {binary_f32_check, add_f32_run};
const KernelEntry kSubF32Entry = {binary_f32_check, sub_f32_run};
const KernelEntry kMulF32Entry = {binary_f32_check, mul_f32_run};
const KernelEntry kDivF32Entry = {binary_f32_check, div_f32_run};

}  // namespace mote
