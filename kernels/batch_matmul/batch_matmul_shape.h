// The geometry every batch_matmul kernel walks (internal to kernels/batch_matmul/): the
// matrix dims, each operand's element strides along its row and column (adj_a / adj_b
// swap them), and the batch slots with each operand's matrix stride (0 where it
// broadcasts).
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "mote/kernel.h"

namespace mote {
namespace batch_matmul {

constexpr int32_t kBatchSlots = kMaxRank - 2;

struct Shape {
  int32_t m, k, n;
  int32_t a_m_step, a_k_step;  // elements between a[m, k] and a[m + 1, k] / a[m, k + 1]
  int32_t b_k_step, b_n_step;
  int32_t batch_dims[kBatchSlots];  // output batch dims, right-aligned
  int32_t a_strides[kBatchSlots];   // in matrices of A; 0 where A broadcasts
  int32_t b_strides[kBatchSlots];
};

// Size of batch slot `slot` of t (1 when t has fewer batch dims).
inline uint32_t batch_dim(const TensorDesc& t, int32_t slot) {
  const int32_t i = slot - (kBatchSlots - (t.rank - 2));
  return i < 0 ? 1u : t.dims[i];
}

// A, B and the output agree (the header's contract) for flags adj_a, adj_b in {0, 1}.
inline bool valid_shapes(const TensorDesc& a, const TensorDesc& b, const TensorDesc& out, int32_t adj_a,
                         int32_t adj_b) {
  if ((adj_a != 0 && adj_a != 1) || (adj_b != 0 && adj_b != 1)) return false;
  if (a.rank < 2 || b.rank < 2) return false;
  if (out.rank != (a.rank > b.rank ? a.rank : b.rank)) return false;
  if (!index_math_fits(a) || !index_math_fits(b) || !index_math_fits(out)) return false;
  const uint32_t m = a.dims[a.rank - 2 + adj_a], k = a.dims[a.rank - 1 - adj_a];
  const uint32_t b_k = b.dims[b.rank - 2 + adj_b], n = b.dims[b.rank - 1 - adj_b];
  if (k != b_k || out.dims[out.rank - 2] != m || out.dims[out.rank - 1] != n) return false;
  for (int32_t slot = 0; slot < kBatchSlots; ++slot) {
    const uint32_t a_dim = batch_dim(a, slot), b_dim = batch_dim(b, slot), out_dim = batch_dim(out, slot);
    const bool ok = (a_dim == b_dim && out_dim == a_dim) || (a_dim == 1 && out_dim == b_dim) ||
                    (b_dim == 1 && out_dim == a_dim);
    if (!ok) return false;
  }
  return true;
}

// The walk of descriptors valid_shapes() accepted.
inline Shape make_shape(const TensorDesc& a, const TensorDesc& b, const TensorDesc& out, int32_t adj_a,
                        int32_t adj_b) {
  Shape s;
  const int32_t a_rows = static_cast<int32_t>(a.dims[a.rank - 2]), a_cols = static_cast<int32_t>(a.dims[a.rank - 1]);
  const int32_t b_rows = static_cast<int32_t>(b.dims[b.rank - 2]), b_cols = static_cast<int32_t>(b.dims[b.rank - 1]);
  s.m = adj_a ? a_cols : a_rows;
  s.k = adj_a ? a_rows : a_cols;
  s.n = adj_b ? b_rows : b_cols;
  s.a_m_step = adj_a ? 1 : a_cols;
  s.a_k_step = adj_a ? a_cols : 1;
  s.b_k_step = adj_b ? 1 : b_cols;
  s.b_n_step = adj_b ? b_cols : 1;
  int32_t a_stride = 1;
  int32_t b_stride = 1;
  for (int32_t slot = kBatchSlots - 1; slot >= 0; --slot) {
    const int32_t a_dim = static_cast<int32_t>(batch_dim(a, slot));
    const int32_t b_dim = static_cast<int32_t>(batch_dim(b, slot));
    s.batch_dims[slot] = static_cast<int32_t>(batch_dim(out, slot));
    s.a_strides[slot] = a_dim == 1 ? 0 : a_stride;
    s.b_strides[slot] = b_dim == 1 ? 0 : b_stride;
    a_stride *= a_dim;
    b_stride *= b_dim;
  }
  return s;
}

// Calls matrix(a_matrix, b_matrix, out_matrix) for every output batch, in order.
template <typename In, typename Out, typename F>
void for_each_batch(const Shape& s, const In* a, const In* b, Out* out, F matrix) {
  const int32_t a_matrix = s.m * s.k;
  const int32_t b_matrix = s.k * s.n;
  int32_t batches = 1;
  for (int32_t slot = 0; slot < kBatchSlots; ++slot) batches *= s.batch_dims[slot];
  int32_t idx[kBatchSlots] = {};
  for (int32_t batch = 0; batch < batches; ++batch) {
    int32_t a_offset = 0;
    int32_t b_offset = 0;
    for (int32_t slot = 0; slot < kBatchSlots; ++slot) {
      a_offset += idx[slot] * s.a_strides[slot];
      b_offset += idx[slot] * s.b_strides[slot];
    }
    matrix(a + a_offset * a_matrix, b + b_offset * b_matrix, out);
    out += s.m * s.n;
    advance_index(idx, s.batch_dims, kBatchSlots);
  }
}

}  // namespace batch_matmul
}  // namespace mote
