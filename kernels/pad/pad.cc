// Pad of any dtype. The output is built row by row (a row is the innermost dim, dims
// right-aligned to kMaxRank). The outer coordinates of an output row map to an input row
// (reflect/edge fold each coordinate back inside; in constant mode a coordinate outside
// makes the whole row the pad value). A row is the pad prefix, a memcpy of the input row
// and the pad suffix. The output must not alias the input.
#include <string.h>

#include "kernel_util.h"
#include "pad/pad.h"

namespace mote {
namespace {

struct PadShape {
  PadMode mode;
  uint32_t element_bytes;
  int32_t in_dims[kMaxRank];
  int32_t out_dims[kMaxRank];
  int32_t before[kMaxRank];
};

void make_shape(const TensorDesc& in, const TensorDesc& out, const PadParams& params,
                PadShape* shape) {
  shape->mode = static_cast<PadMode>(params.mode);
  shape->element_bytes = dtype_size(static_cast<DType>(in.dtype));
  right_aligned_dims(in, shape->in_dims);
  right_aligned_dims(out, shape->out_dims);
  const uint32_t lead = kMaxRank - in.rank;
  for (uint32_t i = 0; i < kMaxRank; ++i) shape->before[i] = i < lead ? 0 : params.before[i - lead];
}

// Input coordinate of output coordinate `o` along a dim, or -1 for constant padding.
// Reflect needs before, after < dim (one fold suffices), symmetric before, after <= dim;
// edge and symmetric need dim >= 1.
// kSymmetric: the symmetric mode's own instantiation, so the other modes keep their
// three-way switch (the M4 build of yolo-fastest's pads ran 1.6% more instructions with a
// fourth case in it).
template <bool kSymmetric>
int32_t source_index(int32_t o, int32_t before, int32_t dim, PadMode mode) {
  const int32_t i = o - before;
  if (i >= 0 && i < dim) return i;
  if (kSymmetric) return i < 0 ? -i - 1 : 2 * dim - 1 - i;
  switch (mode) {
    case PadMode::kReflect: return i < 0 ? -i : 2 * (dim - 1) - i;
    case PadMode::kEdge: return i < 0 ? 0 : dim - 1;
    case PadMode::kSymmetric:
    case PadMode::kConstant: break;
  }
  return -1;
}

// Writes output elements [x_begin, x_end) of one row whose input row is `src`; returns
// the advanced output pointer.
template <bool kSymmetric>
uint8_t* pad_elements(const PadShape& shape, int32_t x_begin, int32_t x_end, const uint8_t* src,
                      const uint8_t* value, uint8_t* output) {
  constexpr int32_t kLast = kMaxRank - 1;
  const uint32_t eb = shape.element_bytes;
  for (int32_t x = x_begin; x < x_end; ++x, output += eb) {
    const int32_t s = source_index<kSymmetric>(x, shape.before[kLast], shape.in_dims[kLast], shape.mode);
    memcpy(output, s < 0 ? value : src + static_cast<uint32_t>(s) * eb, eb);
  }
  return output;
}

template <bool kSymmetric>
void pad(const PadShape& shape, const uint8_t* value, const uint8_t* input, uint8_t* output) {
  constexpr int32_t kOuter = kMaxRank - 1;
  const uint32_t eb = shape.element_bytes;
  const int32_t in_row = shape.in_dims[kOuter];
  const int32_t out_row = shape.out_dims[kOuter];
  const int32_t before = shape.before[kOuter];
  int32_t in_strides[kOuter];  // in elements
  int32_t stride = in_row;
  int32_t rows = 1;
  for (int32_t i = kOuter - 1; i >= 0; --i) {
    in_strides[i] = stride;
    stride *= shape.in_dims[i];
    rows *= shape.out_dims[i];
  }

  int32_t idx[kOuter] = {};
  for (int32_t r = 0; r < rows; ++r) {
    int32_t offset = 0;
    bool padding_row = false;
    for (int32_t i = 0; i < kOuter; ++i) {
      const int32_t s = source_index<kSymmetric>(idx[i], shape.before[i], shape.in_dims[i], shape.mode);
      if (s < 0) {
        padding_row = true;
        break;
      }
      offset += s * in_strides[i];
    }
    if (padding_row) {
      for (int32_t x = 0; x < out_row; ++x, output += eb) memcpy(output, value, eb);
    } else {
      const uint8_t* src = input + static_cast<uint32_t>(offset) * eb;
      output = pad_elements<kSymmetric>(shape, 0, before, src, value, output);
      memcpy(output, src, static_cast<uint32_t>(in_row) * eb);
      output += static_cast<uint32_t>(in_row) * eb;
      output = pad_elements<kSymmetric>(shape, before + in_row, out_row, src, value, output);
    }
    advance_index(idx, shape.out_dims, kOuter);
  }
}

}  // namespace

Status pad_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(PadParams)) return Status::kBadParams;
  const PadParams& p = ctx.params<PadParams>();
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (in.dtype != out.dtype || in.rank != out.rank) return Status::kBadParams;
  const uint32_t size = dtype_size(static_cast<DType>(in.dtype));
  if (size == 0 || size > sizeof(p.value)) return Status::kBadParams;
  if (p.mode > static_cast<uint32_t>(PadMode::kSymmetric)) return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(out)) return Status::kBadParams;
  const PadMode mode = static_cast<PadMode>(p.mode);
  for (uint32_t i = 0; i < in.rank; ++i) {
    const int64_t before = p.before[i];
    const int64_t after = p.after[i];
    const int64_t dim = in.dims[i];
    if (before < 0 || after < 0 || before + dim + after != out.dims[i]) return Status::kBadParams;
    const bool padded = before > 0 || after > 0;
    if (mode == PadMode::kReflect && padded && (before >= dim || after >= dim)) {
      return Status::kBadParams;
    }
    if (mode == PadMode::kSymmetric && padded && (before > dim || after > dim || dim == 0)) {
      return Status::kBadParams;
    }
    if (mode == PadMode::kEdge && padded && dim == 0) return Status::kBadParams;
  }
  return Status::kOk;
}

void pad_run(const OpContext& ctx) {
  const PadParams& p = ctx.params<PadParams>();
  PadShape shape;
  make_shape(ctx.input_desc(0), ctx.output_desc(0), p, &shape);
  const auto* input = static_cast<const uint8_t*>(ctx.input_data(0));
  auto* output = static_cast<uint8_t*>(ctx.output_data(0));
  if (shape.mode == PadMode::kSymmetric) {
    pad<true>(shape, p.value, input, output);
  } else {
    pad<false>(shape, p.value, input, output);
  }
}

const KernelEntry kPadEntry = {pad_check, pad_run};

}  // namespace mote
