// Transpose of any dtype. The output is written in memory order; for output axis i the
// input is stepped by the stride of input axis perm[i]. Elements move as 1, 2, 4 or
// 8-byte words (tensors are 16-byte aligned). The output must not alias the input.
#include <stdint.h>

#include "kernel_util.h"
#include "transpose/transpose.h"

namespace mote {
namespace {

struct TransposeShape {
  int32_t out_dims[kMaxRank];    // right-aligned
  int32_t in_strides[kMaxRank];  // input element stride along each output axis
};

void make_shape(const TensorDesc& in, const TensorDesc& out, const TransposeParams& params,
                TransposeShape* shape) {
  int32_t in_strides[kMaxRank];
  int32_t stride = 1;
  for (int32_t i = static_cast<int32_t>(in.rank) - 1; i >= 0; --i) {
    in_strides[i] = stride;
    stride *= static_cast<int32_t>(in.dims[i]);
  }
  int32_t dims[kMaxRank];
  right_aligned_dims(out, dims);
  const uint32_t lead = kMaxRank - out.rank;
  int32_t strides[kMaxRank];
  for (uint32_t i = 0; i < kMaxRank; ++i) {
    strides[i] = i < lead ? 0 : in_strides[params.perm[i - lead]];
  }
  // Shorten the walk, keeping its order: drop axes of size 1 and merge an output axis
  // into the one before it when the input steps over both as one (outer stride == inner
  // stride * inner dim). An NCHW -> NHWC permutation becomes [H*W, C]. Empty tensors
  // are walked as they are (nothing is written).
  int32_t count = 1;
  for (uint32_t i = 0; i < kMaxRank; ++i) count *= dims[i];
  if (count != 0) collapse_dims_right(dims, strides, static_cast<int32_t>(kMaxRank));
  for (uint32_t i = 0; i < kMaxRank; ++i) {
    shape->out_dims[i] = dims[i];
    shape->in_strides[i] = strides[i];
  }
}

// The last two output axes are walked as nested loops, along output rows (contiguous
// writes) unless a row is shorter than kShortRow elements and there are more rows than
// that: then column by column (a row such as the 3 channels of an image would cost its
// loop set-up per 3 elements); the axes before them as a multi-index.
constexpr int32_t kShortRow = 8;

template <typename Element>
void transpose(const TransposeShape& shape, const Element* input, Element* output) {
  constexpr int32_t kOuter = kMaxRank - 2;
  const int32_t cols = shape.out_dims[kMaxRank - 1];
  const int32_t col_step = shape.in_strides[kMaxRank - 1];
  const int32_t rows = shape.out_dims[kOuter];
  const int32_t row_step = shape.in_strides[kOuter];
  int32_t planes = 1;
  for (int32_t i = 0; i < kOuter; ++i) planes *= shape.out_dims[i];

  int32_t idx[kOuter] = {};
  for (int32_t p = 0; p < planes; ++p, output += rows * cols) {
    int32_t offset = 0;
    for (int32_t i = 0; i < kOuter; ++i) offset += idx[i] * shape.in_strides[i];
    const Element* plane = input + offset;
    if (cols >= kShortRow || cols >= rows) {
      Element* out = output;
      for (int32_t y = 0; y < rows; ++y) {
        const Element* in = plane + y * row_step;
        for (int32_t x = 0; x < cols; ++x, in += col_step) *out++ = *in;
      }
    } else {
      // Two rows per step (the loop's own instructions are most of a short row's cost).
      for (int32_t x = 0; x < cols; ++x) {
        const Element* in = plane + x * col_step;
        Element* out = output + x;
        int32_t y = rows;
        for (; y >= 2; y -= 2, in += 2 * row_step, out += 2 * cols) {
          const Element first = in[0];
          const Element second = in[row_step];
          out[0] = first;
          out[cols] = second;
        }
        if (y != 0) *out = *in;
      }
    }
    advance_index(idx, shape.out_dims, kOuter);
  }
}

}  // namespace

Status transpose_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(TransposeParams)) return Status::kBadParams;
  const TransposeParams& p = ctx.params<TransposeParams>();
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (in.dtype != out.dtype || in.rank != out.rank) return Status::kBadParams;
  const uint32_t size = dtype_size(static_cast<DType>(in.dtype));
  if (size != 1 && size != 2 && size != 4 && size != 8) return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(out)) return Status::kBadParams;
  bool seen[kMaxRank] = {};
  for (uint32_t i = 0; i < in.rank; ++i) {
    const uint32_t axis = p.perm[i];
    if (axis >= in.rank || seen[axis]) return Status::kBadParams;
    seen[axis] = true;
    if (out.dims[i] != in.dims[axis]) return Status::kBadParams;
  }
  return Status::kOk;
}

void transpose_run(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  TransposeShape shape;
  make_shape(in, ctx.output_desc(0), ctx.params<TransposeParams>(), &shape);
  const void* input = ctx.input_data(0);
  void* output = ctx.output_data(0);
  switch (dtype_size(static_cast<DType>(in.dtype))) {
    case 1:
      transpose(shape, static_cast<const uint8_t*>(input), static_cast<uint8_t*>(output));
      break;
    case 2:
      transpose(shape, static_cast<const uint16_t*>(input), static_cast<uint16_t*>(output));
      break;
    case 4:
      transpose(shape, static_cast<const uint32_t*>(input), static_cast<uint32_t*>(output));
      break;
    case 8:
      transpose(shape, static_cast<const uint64_t*>(input), static_cast<uint64_t*>(output));
      break;
    default:
      break;  // refused by check
  }
}

const KernelEntry kTransposeEntry = {transpose_check, transpose_run};

}  // namespace mote
