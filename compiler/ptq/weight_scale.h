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
// Cost: 2 x 241 divisions and roundings per weight, in 2 x 61 passes over the row (four
// steps per pass). The error never exceeds that of max|w| / 127 or of
// any clipping on the old 2% grid, since those candidates are all in the search.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace mote::ptq {

// The int8 level of w on the grid of step s: round half away from zero, clamped.
inline double weight_level(double w, double s) { return std::clamp(std::round(w / s), -127.0, 127.0); }

// Squared error of rounding `row` to the int8 grid of step s (> 0).
inline double weight_grid_error(const std::vector<double>& row, double s) {
  double e = 0;
  for (double w : row) {
    const double d = w - s * weight_level(w, s);
    e += d * d;
  }
  return e;
}

// For the `n` (1 to 4) steps s[i]: the squared error e[i] of rounding `row` on s[i] and,
// when `wq` is given, the sums w . q and q . q of its levels, in one pass over the row.
// Each sum adds in row order, as weight_grid_error does, so the results are the same
// bits; the four steps' sums are independent chains the core overlaps.
inline void weight_grid_sums(const std::vector<double>& row, const double* s, size_t n, double* e, double* wq,
                             double* qq) {
  double steps[4];  // n steps, the last repeated: four lanes without a branch
  for (size_t i = 0; i < 4; ++i) steps[i] = s[std::min(i, n - 1)];
  double es[4] = {0, 0, 0, 0}, wqs[4] = {0, 0, 0, 0}, qqs[4] = {0, 0, 0, 0};
  for (double w : row) {
    for (size_t i = 0; i < 4; ++i) {
      const double q = weight_level(w, steps[i]);
      const double d = w - steps[i] * q;
      es[i] += d * d;
      wqs[i] += w * q;
      qqs[i] += q * q;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    e[i] = es[i];
    if (wq != nullptr) {
      wq[i] = wqs[i];
      qq[i] = qqs[i];
    }
  }
}

// The step for `row` as described above; 0 for an empty or all-zero row. The candidates'
// errors are computed four at a time (weight_grid_sums), then compared in the order the
// search states: f's step, then its refined step, f ascending.
inline double best_weight_scale(const std::vector<double>& row) {
  double max_abs = 0;
  for (double w : row) max_abs = std::max(max_abs, std::fabs(w));
  if (!(max_abs > 0) || !std::isfinite(max_abs)) return 0;
  constexpr size_t kSteps = (1500 - 300) / 5 + 1;
  std::vector<double> steps(kSteps), errors(kSteps), wq(kSteps), qq(kSteps);
  for (size_t i = 0; i < kSteps; ++i) steps[i] = max_abs * static_cast<int>(300 + 5 * i) / 1000.0 / 127.0;
  for (size_t i = 0; i < kSteps; i += 4)
    weight_grid_sums(row, &steps[i], std::min<size_t>(4, kSteps - i), &errors[i], &wq[i], &qq[i]);
  // The refined steps (0 where a step rounds every weight to 0: not a candidate).
  std::vector<double> refined(kSteps, 0.0), refined_errors(kSteps, 0.0);
  std::vector<double> live;  // the refined steps > 0, in order
  for (size_t i = 0; i < kSteps; ++i)
    if (qq[i] > 0 && wq[i] / qq[i] > 0) {
      refined[i] = wq[i] / qq[i];
      live.push_back(refined[i]);
    }
  std::vector<double> live_errors(live.size());
  for (size_t i = 0; i < live.size(); i += 4)
    weight_grid_sums(row, &live[i], std::min<size_t>(4, live.size() - i), &live_errors[i], nullptr, nullptr);
  for (size_t i = 0, next = 0; i < kSteps; ++i)
    if (refined[i] > 0) refined_errors[i] = live_errors[next++];

  double best = max_abs / 127.0;
  double best_error = weight_grid_error(row, best);
  auto consider = [&](double s, double e) {
    if (!(s > 0)) return;
    if (e < best_error) {
      best_error = e;
      best = s;
    }
  };
  for (size_t i = 0; i < kSteps; ++i) {
    consider(steps[i], errors[i]);
    consider(refined[i], refined_errors[i]);
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
