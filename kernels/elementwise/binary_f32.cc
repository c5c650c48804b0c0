// Reference float32 add, sub, mul and div with numpy broadcasting.
//
// The output is walked row by row over the innermost broadcast dim; each input advances
// by its stride there (1, or 0 when it broadcasts along that dim). Safe to run in place
// when the output aliases an input of the output's shape.
#include <stdint.h>

#include "elementwise/elementwise.h"
#include "kernel_util.h"

namespace mote {
namespace {

struct AddOp {
  static float apply(float a, float b) { return a + b; }
};
struct SubOp {
  static float apply(float a, float b) { return a - b; }
};
struct MulOp {
  static float apply(float a, float b) { return a * b; }
};
struct DivOp {
  static float apply(float a, float b) { return a / b; }
};

template <typename Op>
void binary_f32(const BinaryParams& params, const BroadcastShape& shape, const float* a,
                const float* b, float* out) {
  constexpr int32_t kOuter = kMaxRank - 1;
  const int32_t row = shape.out_dims[kOuter];
  const int32_t a_step = shape.a_strides[kOuter];
  const int32_t b_step = shape.b_strides[kOuter];
  int32_t rows = 1;
  for (int32_t i = 0; i < kOuter; ++i) rows *= shape.out_dims[i];

  int32_t idx[kOuter] = {};
  for (int32_t r = 0; r < rows; ++r) {
    int32_t a_offset = 0;
    int32_t b_offset = 0;
    for (int32_t i = 0; i < kOuter; ++i) {
      a_offset += idx[i] * shape.a_strides[i];
      b_offset += idx[i] * shape.b_strides[i];
    }
    const float* pa = a + a_offset;
    const float* pb = b + b_offset;
    for (int32_t x = 0; x < row; ++x) {
      *out++ = clamp_value(Op::apply(*pa, *pb), params.act_min, params.act_max);
      pa += a_step;
      pb += b_step;
    }
    advance_index(idx, shape.out_dims, kOuter);
  }
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
