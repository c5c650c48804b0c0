#include "ptq/gptq.h"

#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace mote::ptq {
namespace {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Adds x x^T (upper triangle; mirrored when used) for one input vector.
void add_outer(const std::vector<double>& x, std::vector<double>* sums) {
  const size_t k = x.size();
  for (size_t i = 0; i < k; ++i) {
    const double xi = x[i];
    if (xi == 0.0) continue;
    double* row = sums->data() + i * k;
    for (size_t j = i; j < k; ++j) row[j] += xi * x[j];
  }
}

// Vectors of one matrix waiting to be added to its sums, kBlock at a time.
constexpr size_t kBlock = 32;    // vectors per flush
constexpr size_t kColumns = 512;  // columns of the sums per tile (the tile of the block: 128 KiB)
struct PendingOuters {
  std::vector<double> vectors;  // `count` vectors of length k, one after another
  size_t count = 0;
};

// Adds x x^T of every pending vector to `sums` (upper triangle, k x k) and empties
// `pending`. Each element receives its products in vector order, the additions add_outer
// makes one vector at a time (a zero x_i adds nothing either way: the sums never hold
// -0), so the sums are the same bits; tiling the columns keeps the block's slice and the
// row's slice in cache instead of streaming the whole matrix once per vector.
void flush_outers(size_t k, PendingOuters* pending, std::vector<double>* sums) {
  const double* xs = pending->vectors.data();
  for (size_t j0 = 0; j0 < k; j0 += kColumns) {
    const size_t j1 = std::min(k, j0 + kColumns);
    for (size_t i = 0; i < j1; ++i) {
      double* row = sums->data() + i * k;
      const size_t from = std::max(i, j0);
      for (size_t p = 0; p < pending->count; ++p) {
        const double* x = xs + p * k;
        const double xi = x[i];
        if (xi == 0.0) continue;
        for (size_t j = from; j < j1; ++j) row[j] += xi * x[j];
      }
    }
  }
  pending->count = 0;
}

// The upper Cholesky factor U of H^-1 (H^-1 = U^T U), H damped by 1% of its mean
// diagonal; an input that never fires (H_ii = 0) gets a unit diagonal.
Matrix inverse_cholesky(const std::vector<double>& sums, int64_t k, uint64_t count) {
  Matrix h(k, k);
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = i; j < k; ++j) h(i, j) = h(j, i) = sums[static_cast<size_t>(i * k + j)] / static_cast<double>(std::max<uint64_t>(count, 1));
  double mean_diag = 0;
  for (int64_t i = 0; i < k; ++i) mean_diag += h(i, i);
  mean_diag = k > 0 ? mean_diag / static_cast<double>(k) : 0;
  if (!(mean_diag > 0)) mean_diag = 1;
  for (int64_t i = 0; i < k; ++i) {
    if (h(i, i) == 0) h(i, i) = 1;
    h(i, i) += 0.01 * mean_diag;
  }
  const Matrix inverse = h.llt().solve(Matrix::Identity(k, k));
  Eigen::LLT<Matrix> llt(inverse);
  return llt.matrixU();
}

}  // namespace

bool is_weighted_layer(ir::Op op) { return ir::op_traits(op).weighted; }

namespace {

// Calls visit(matrix, a, b) for every input vector `node` reads: the rows of a
// fully_connected input, the im2col patches of a convolution (zero outside the image) per
// group or depthwise channel. `b`, when given, is a second input of the same shape read
// at the same positions (its vector is empty otherwise).
template <typename Visit>
void for_each_patch(const ir::Graph& graph, const ir::Node& node, const float* a, const float* b, Visit visit) {
  const ir::Tensor& in = graph.tensors[node.inputs[0]];
  const ir::Tensor& w = graph.tensors[node.inputs[1]];
  std::vector<double> xa, xb;
  if (node.op == ir::Op::kFullyConnected) {
    const int64_t k = w.shape[1];
    xa.resize(static_cast<size_t>(k));
    if (b != nullptr) xb.resize(static_cast<size_t>(k));
    for (int64_t r = 0; r + k <= in.elements(); r += k) {
      for (int64_t i = 0; i < k; ++i) {
        xa[static_cast<size_t>(i)] = a[r + i];
        if (b != nullptr) xb[static_cast<size_t>(i)] = b[r + i];
      }
      visit(size_t{0}, xa, xb);
    }
    return;
  }
  // conv2d / depthwise_conv2d, NHWC.
  const bool depthwise = node.op == ir::Op::kDepthwiseConv2d;
  const ir::Tensor& out = graph.tensors[node.outputs[0]];
  const int64_t n = in.shape[0], ih = in.shape[1], iw = in.shape[2], c = in.shape[3];
  const int64_t kh = w.shape[1], kw = w.shape[2];
  const int64_t oh = out.shape[1], ow = out.shape[2];
  const std::vector<int64_t> strides = node.get_ints("strides", {1, 1});
  const std::vector<int64_t> dilations = node.get_ints("dilations", {1, 1});
  const std::vector<int64_t> pads = node.get_ints("pads", {0, 0, 0, 0});
  const int64_t groups = depthwise ? c : node.get_int("group", 1);
  const int64_t cg = depthwise ? 1 : w.shape[3];
  const int64_t k = kh * kw * cg;
  xa.resize(static_cast<size_t>(k));
  if (b != nullptr) xb.resize(static_cast<size_t>(k));
  for (int64_t batch = 0; batch < n; ++batch) {
    for (int64_t oy = 0; oy < oh; ++oy) {
      for (int64_t ox = 0; ox < ow; ++ox) {
        for (int64_t g = 0; g < groups; ++g) {
          for (int64_t ky = 0; ky < kh; ++ky) {
            const int64_t y = oy * strides[0] - pads[0] + ky * dilations[0];
            for (int64_t kx = 0; kx < kw; ++kx) {
              const int64_t xx = ox * strides[1] - pads[1] + kx * dilations[1];
              const bool inside = y >= 0 && y < ih && xx >= 0 && xx < iw;
              const int64_t at = ((batch * ih + y) * iw + xx) * c + g * cg;
              for (int64_t ci = 0; ci < cg; ++ci) {
                const auto i = static_cast<size_t>((ky * kw + kx) * cg + ci);
                xa[i] = inside ? a[at + ci] : 0.0;
                if (b != nullptr) xb[i] = inside ? b[at + ci] : 0.0;
              }
            }
          }
          visit(static_cast<size_t>(g), xa, xb);
        }
      }
    }
  }
}

int64_t patch_matrices(const ir::Graph& graph, const ir::Node& node, int64_t* k) {
  const ir::Tensor& w = graph.tensors[node.inputs[1]];
  if (node.op == ir::Op::kFullyConnected) {
    *k = w.shape[1];
    return 1;
  }
  if (node.op == ir::Op::kDepthwiseConv2d) {
    *k = w.shape[1] * w.shape[2];
    return graph.tensors[node.inputs[0]].shape[3];
  }
  *k = w.shape[1] * w.shape[2] * w.shape[3];
  return node.get_int("group", 1);
}

}  // namespace

void accumulate_input_hessians(const ir::Graph& graph, const ir::Node& node, const float* input,
                               InputHessians* hessians) {
  if (hessians->sums.empty()) {
    const int64_t matrices = patch_matrices(graph, node, &hessians->k);
    hessians->sums.assign(static_cast<size_t>(matrices),
                          std::vector<double>(static_cast<size_t>(hessians->k * hessians->k), 0.0));
  }
  const auto k = static_cast<size_t>(hessians->k);
  std::vector<PendingOuters> pending(hessians->sums.size());
  for (PendingOuters& p : pending) p.vectors.resize(kBlock * k);
  uint64_t visited = 0;
  for_each_patch(graph, node, input, nullptr, [&](size_t g, const std::vector<double>& x, const std::vector<double>&) {
    PendingOuters& p = pending[g];
    std::copy(x.begin(), x.end(), p.vectors.begin() + static_cast<std::ptrdiff_t>(p.count * k));
    if (++p.count == kBlock) flush_outers(k, &p, &hessians->sums[g]);
    visited += g == 0;
  });
  for (size_t g = 0; g < pending.size(); ++g) flush_outers(k, &pending[g], &hessians->sums[g]);
  hessians->count += visited;
}

void accumulate_layer_moments(const ir::Graph& graph, const ir::Node& node, const float* xf, const float* xq,
                              LayerMoments* moments) {
  if (moments->qq.empty()) {
    const int64_t matrices = patch_matrices(graph, node, &moments->k);
    const auto size = static_cast<size_t>((moments->k + 1) * (moments->k + 1));
    moments->qq.assign(static_cast<size_t>(matrices), std::vector<double>(size, 0.0));
    moments->fq.assign(static_cast<size_t>(matrices), std::vector<double>(size, 0.0));
  }
  const auto k1 = static_cast<size_t>(moments->k + 1);
  std::vector<double> f(k1), q(k1);
  uint64_t visited = 0;
  for_each_patch(graph, node, xf, xq, [&](size_t g, const std::vector<double>& a, const std::vector<double>& b) {
    std::copy(a.begin(), a.end(), f.begin());
    std::copy(b.begin(), b.end(), q.begin());
    f[k1 - 1] = q[k1 - 1] = 1.0;
    add_outer(q, &moments->qq[g]);
    double* fq = moments->fq[g].data();
    for (size_t i = 0; i < k1; ++i) {
      const double fi = f[i];
      if (fi == 0.0) continue;
      double* row = fq + i * k1;
      for (size_t j = 0; j < k1; ++j) row[j] += fi * q[j];
    }
    visited += g == 0;
  });
  moments->count += visited;
}

std::vector<int8_t> gptq_round(const InputHessians& h, const std::vector<std::vector<double>>& rows,
                               const std::vector<double>& scales, const std::vector<size_t>& matrix_of_row) {
  const int64_t k = h.k;
  std::vector<Matrix> factors(h.sums.size());
  std::vector<bool> ready(h.sums.size(), false);
  std::vector<int8_t> out(rows.size() * static_cast<size_t>(k));
  for (size_t r = 0; r < rows.size(); ++r) {
    const size_t m = matrix_of_row[r];
    if (!ready[m]) {
      factors[m] = inverse_cholesky(h.sums[m], k, h.count);
      ready[m] = true;
    }
    const Matrix& u = factors[m];
    std::vector<double> w = rows[r];
    const double s = scales[r];
    for (int64_t i = 0; i < k; ++i) {
      const double q = std::clamp(std::round(w[static_cast<size_t>(i)] / s), -127.0, 127.0);
      out[r * static_cast<size_t>(k) + static_cast<size_t>(i)] = static_cast<int8_t>(q);
      const double err = (w[static_cast<size_t>(i)] - q * s) / u(i, i);
      for (int64_t j = i + 1; j < k; ++j) w[static_cast<size_t>(j)] -= err * u(i, j);
    }
  }
  return out;
}


namespace {

// Mirrors the upper triangle add_outer fills, divided by `count`.
Matrix symmetric_mean(const std::vector<double>& sums, int64_t k, uint64_t count) {
  Matrix m(k, k);
  const double n = static_cast<double>(std::max<uint64_t>(count, 1));
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = i; j < k; ++j) m(i, j) = m(j, i) = sums[static_cast<size_t>(i * k + j)] / n;
  return m;
}

bool enough_patches(const LayerMoments& m) {
  return m.count >= kPatchesPerCoordinate * static_cast<uint64_t>(m.k + 1);
}

}  // namespace

void fit_to_quantized_inputs(const LayerMoments& m, const std::vector<size_t>& matrix_of_row,
                             std::vector<std::vector<double>>* rows) {
  if (!enough_patches(m)) return;
  const int64_t k1 = m.k + 1;
  std::vector<Matrix> maps(m.qq.size());
  std::vector<bool> ready(m.qq.size(), false);
  for (size_t r = 0; r < rows->size(); ++r) {
    const size_t g = matrix_of_row[r];
    if (!ready[g]) {
      // M = (C_fq - H_qq) (H_qq + lambda I)^-1, applied as w'^T = w^T + w^T M.
      Matrix h = symmetric_mean(m.qq[g], k1, m.count);
      Matrix c(k1, k1);
      for (int64_t i = 0; i < k1; ++i)
        for (int64_t j = 0; j < k1; ++j)
          c(i, j) = m.fq[g][static_cast<size_t>(i * k1 + j)] / static_cast<double>(m.count);
      const Matrix diff = c - h;
      const double lambda = 0.01 * std::max(h.diagonal().mean(), 1e-30);
      for (int64_t i = 0; i < k1; ++i) h(i, i) += h(i, i) == 0 ? 1.0 : lambda;
      // h is symmetric: (diff h^-1)^T = h^-1 diff^T.
      maps[g] = h.llt().solve(diff.transpose()).transpose();
      ready[g] = true;
    }
    std::vector<double>& w = (*rows)[r];
    const Eigen::Map<const Eigen::RowVectorXd> wv(w.data(), k1);
    const Eigen::RowVectorXd adjusted = wv + wv * maps[g];
    for (int64_t i = 0; i < k1; ++i) w[static_cast<size_t>(i)] = adjusted(i);
  }
}

std::vector<int8_t> round_on_quantized_inputs(const LayerMoments& m, const std::vector<size_t>& matrix_of_row,
                                              const std::vector<double>& scales,
                                              std::vector<std::vector<double>>* rows) {
  const int64_t k = m.k;
  const auto k1 = static_cast<size_t>(k + 1);
  std::vector<int8_t> out(rows->size() * static_cast<size_t>(k));
  if (!enough_patches(m)) {
    const double n = static_cast<double>(std::max<uint64_t>(m.count, 1));
    for (size_t r = 0; r < rows->size(); ++r) {
      std::vector<double>& w = (*rows)[r];
      const std::vector<double>& qq = m.qq[matrix_of_row[r]];
      const std::vector<double>& fq = m.fq[matrix_of_row[r]];
      double shift = 0;  // E[xf].w - E[xq].q
      for (size_t i = 0; i < static_cast<size_t>(k); ++i) {
        const double q = std::clamp(std::round(w[i] / scales[r]), -127.0, 127.0);
        out[r * static_cast<size_t>(k) + i] = static_cast<int8_t>(q);
        shift += fq[i * k1 + k1 - 1] / n * w[i] - qq[i * k1 + k1 - 1] / n * q * scales[r];
      }
      w[k1 - 1] += shift;
    }
    return out;
  }
  std::vector<Matrix> factors(m.qq.size());
  std::vector<bool> ready(m.qq.size(), false);
  for (size_t r = 0; r < rows->size(); ++r) {
    const size_t g = matrix_of_row[r];
    if (!ready[g]) {
      factors[g] = inverse_cholesky(m.qq[g], k + 1, m.count);
      ready[g] = true;
    }
    const Matrix& u = factors[g];
    std::vector<double>& w = (*rows)[r];
    const double s = scales[r];
    for (int64_t i = 0; i < k; ++i) {
      const double q = std::clamp(std::round(w[static_cast<size_t>(i)] / s), -127.0, 127.0);
      out[r * static_cast<size_t>(k) + static_cast<size_t>(i)] = static_cast<int8_t>(q);
      const double err = (w[static_cast<size_t>(i)] - q * s) / u(i, i);
      for (int64_t j = i + 1; j <= k; ++j) w[static_cast<size_t>(j)] -= err * u(i, j);
    }
  }
  return out;
}

}  // namespace mote::ptq
