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

bool has_input_hessians(const ir::Node& node) {
  return node.op == "conv2d" || node.op == "depthwise_conv2d" || node.op == "fully_connected";
}

void accumulate_input_hessians(const ir::Graph& graph, const ir::Node& node, const float* input,
                               InputHessians* hessians) {
  const ir::Tensor& in = graph.tensors[node.inputs[0]];
  const ir::Tensor& w = graph.tensors[node.inputs[1]];
  if (node.op == "fully_connected") {
    const int64_t k = w.shape[1];
    if (hessians->sums.empty()) {
      hessians->k = k;
      hessians->sums.assign(1, std::vector<double>(static_cast<size_t>(k * k), 0.0));
    }
    std::vector<double> x(static_cast<size_t>(k));
    for (int64_t r = 0; r + k <= in.elements(); r += k) {
      for (int64_t i = 0; i < k; ++i) x[static_cast<size_t>(i)] = input[r + i];
      add_outer(x, &hessians->sums[0]);
      ++hessians->count;
    }
    return;
  }
  // conv2d / depthwise_conv2d, NHWC.
  const bool depthwise = node.op == "depthwise_conv2d";
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
  if (hessians->sums.empty()) {
    hessians->k = k;
    hessians->sums.assign(static_cast<size_t>(groups), std::vector<double>(static_cast<size_t>(k * k), 0.0));
  }
  std::vector<double> x(static_cast<size_t>(k));
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t oy = 0; oy < oh; ++oy) {
      for (int64_t ox = 0; ox < ow; ++ox) {
        for (int64_t g = 0; g < groups; ++g) {
          for (int64_t ky = 0; ky < kh; ++ky) {
            const int64_t y = oy * strides[0] - pads[0] + ky * dilations[0];
            for (int64_t kx = 0; kx < kw; ++kx) {
              const int64_t xx = ox * strides[1] - pads[1] + kx * dilations[1];
              const bool inside = y >= 0 && y < ih && xx >= 0 && xx < iw;
              const float* pixel = input + ((b * ih + y) * iw + xx) * c + g * cg;
              for (int64_t ci = 0; ci < cg; ++ci)
                x[static_cast<size_t>((ky * kw + kx) * cg + ci)] = inside ? pixel[ci] : 0.0;
            }
          }
          add_outer(x, &hessians->sums[static_cast<size_t>(g)]);
        }
      }
    }
  }
  hessians->count += static_cast<uint64_t>(n * oh * ow);
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

}  // namespace mote::ptq
