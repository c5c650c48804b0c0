// The grid step of one output channel's int8 weights (symmetric, integers in [-127, 127]).
//
// max|w| / 127 wastes no level on clipping, but the rounding error it leaves is a matter
// of luck for a short row (a 3x3 depthwise channel has 9 weights, a first convolution 27):
// the squared error of one step can be half or twice that of a step a few percent away.
// In a deep network that amplifies every layer's error (an untrained MobileNetV2 on noise
// turns a first-layer weight error of -40 dB into -22 dB at the output) this choice
// decides several dB of the output SQNR. So the step is searched:
//
//   candidates s = f * max|w| / 127 for f = 0.300, 0.305, ..., 1.500 (241 steps: below 1
//   some weights clip, above it levels go unused), each refined to the least-squares
//   step of its own integers, s' = (w . q) / (q . q), and rounded again; the step with
//   the smallest sum (w - s q)^2 wins (the first one on ties).
//
// Cost: 2 x 241 passes over the row. The error never exceeds that of max|w| / 127 or of
// any clipping on the old 2% grid, since those candidates are all in the search.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace mote::ptq {

// Squared error of rounding `row` to the int8 grid of step s (> 0).
inline double weight_grid_error(const std::vector<double>& row, double s) {
  double e = 0;
  for (double w : row) {
    const double d = w - s * std::clamp(std::round(w / s), -127.0, 127.0);
    e += d * d;
  }
  return e;
}

// The step for `row` as described above; 0 for an empty or all-zero row.
inline double best_weight_scale(const std::vector<double>& row) {
  double max_abs = 0;
  for (double w : row) max_abs = std::max(max_abs, std::fabs(w));
  if (!(max_abs > 0) || !std::isfinite(max_abs)) return 0;
  double best = max_abs / 127.0;
  double best_error = weight_grid_error(row, best);
  auto consider = [&](double s) {
    if (!(s > 0)) return;
    const double e = weight_grid_error(row, s);
    if (e < best_error) {
      best_error = e;
      best = s;
    }
  };
  for (int step = 300; step <= 1500; step += 5) {
    const double s = max_abs * step / 1000.0 / 127.0;
    consider(s);
    double wq = 0, qq = 0;
    for (double w : row) {
      const double q = std::clamp(std::round(w / s), -127.0, 127.0);
      wq += w * q;
      qq += q * q;
    }
    if (qq > 0) consider(wq / qq);
  }
  return best;
}

// The default step: max|w| clipped to the fraction 1.00, 0.98, ..., 0.50 with the smallest
// squared error (the first one on ties); the step is float-rounded as stored. 0 for an
// empty or all-zero row.
inline double clipped_weight_scale(const std::vector<double>& row) {
  float max_abs = 0;
  for (double w : row) max_abs = std::max(max_abs, static_cast<float>(std::fabs(w)));
  if (!(max_abs > 0) || !std::isfinite(max_abs)) return 0;
  double best_error = std::numeric_limits<double>::infinity();
  float best = max_abs;
  for (int step = 100; step >= 50; step -= 2) {
    const double e = weight_grid_error(row, max_abs * step / 100.0 / 127.0);
    if (e < best_error) {
      best_error = e;
      best = static_cast<float>(max_abs * step / 100.0);
    }
  }
  return static_cast<double>(best) / 127.0;
}

}  // namespace mote::ptq
