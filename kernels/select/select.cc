// Reference SELECT_V2 (select.h): a 3-input broadcast walk over the output.
#include "select/select.h"

#include "kernel_util.h"

namespace mote {
namespace {

// Element strides of t against the output's right-aligned dims (0 where t broadcasts);
// false when t does not broadcast to out.
bool broadcast_strides(const TensorDesc& t, const int32_t out_dims[kMaxRank], int32_t strides[kMaxRank]) {
  int32_t dims[kMaxRank];
  right_aligned_dims(t, dims);
  int32_t stride = 1;
  for (int32_t i = kMaxRank - 1; i >= 0; --i) {
    if (dims[i] != out_dims[i] && dims[i] != 1) return false;
    strides[i] = dims[i] == 1 ? 0 : stride;
    stride *= dims[i];
  }
  return true;
}

struct SelectShape {
  int32_t out_dims[kMaxRank];
  int32_t strides[3][kMaxRank];  // condition, x, y
};

bool make_select_shape(const OpContext& ctx, SelectShape* shape) {
  const TensorDesc& out = ctx.output_desc(0);
  if (!index_math_fits(out)) return false;
  right_aligned_dims(out, shape->out_dims);
  uint32_t max_rank = 0;
  for (uint32_t i = 0; i < 3; ++i) {
    const TensorDesc& t = ctx.input_desc(i);
    if (!index_math_fits(t) || !broadcast_strides(t, shape->out_dims, shape->strides[i])) return false;
    if (t.rank > max_rank) max_rank = t.rank;
  }
  return out.rank == max_rank;
}

template <typename T>
void select(const SelectShape& s, const uint8_t* condition, const T* x, const T* y, T* out) {
  constexpr int32_t kRank = kMaxRank;
  int32_t count = 1;
  for (int32_t i = 0; i < kRank; ++i) count *= s.out_dims[i];
  int32_t idx[kRank] = {};
  for (int32_t n = 0; n < count; ++n) {
    int32_t offset[3] = {0, 0, 0};
    for (int32_t k = 0; k < 3; ++k)
      for (int32_t i = 0; i < kRank; ++i) offset[k] += idx[i] * s.strides[k][i];
    out[n] = condition[offset[0]] != 0 ? x[offset[1]] : y[offset[2]];
    advance_index(idx, s.out_dims, kRank);
  }
}

}  // namespace

Status select_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 3, 3, 1));
  if (ctx.params_bytes() != 0) return Status::kBadParams;
  const TensorDesc& x = ctx.input_desc(1);
  if (!has_dtype(ctx.input_desc(0), DType::kBool) || ctx.input_desc(2).dtype != x.dtype ||
      ctx.output_desc(0).dtype != x.dtype) {
    return Status::kBadParams;
  }
  const uint32_t size = dtype_size(static_cast<DType>(x.dtype));
  if (size != 1 && size != 2 && size != 4) return Status::kBadParams;
  SelectShape shape;
  return make_select_shape(ctx, &shape) ? Status::kOk : Status::kBadParams;
}

void select_run(const OpContext& ctx) {
  SelectShape shape;
  (void)make_select_shape(ctx, &shape);  // cannot fail: check() accepted the descriptors
  const uint8_t* condition = static_cast<const uint8_t*>(ctx.input_data(0));
  switch (dtype_size(static_cast<DType>(ctx.input_desc(1).dtype))) {
    case 1:
      select(shape, condition, static_cast<const uint8_t*>(ctx.input_data(1)),
             static_cast<const uint8_t*>(ctx.input_data(2)), static_cast<uint8_t*>(ctx.output_data(0)));
      break;
    case 2:
      select(shape, condition, static_cast<const uint16_t*>(ctx.input_data(1)),
             static_cast<const uint16_t*>(ctx.input_data(2)), static_cast<uint16_t*>(ctx.output_data(0)));
      break;
    default:
      select(shape, condition, static_cast<const uint32_t*>(ctx.input_data(1)),
             static_cast<const uint32_t*>(ctx.input_data(2)), static_cast<uint32_t*>(ctx.output_data(0)));
      break;
  }
}

const KernelEntry kSelectEntry = {select_check, select_run};

}  // namespace mote
