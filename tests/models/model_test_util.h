// Shared by the host and QEMU model tests: compile a shared model with the CLI, run it,
// compare .npy outputs.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "npy.h"
#include "test_util.h"

namespace mote::testing {

inline std::string sample_path(const std::string& stem, int sample, const char* kind, int index) {
  return shared_models() + "/onnx/" + stem + ".s" + std::to_string(sample) + "." + kind +
         std::to_string(index) + ".npy";
}

// Every ONNX model of ../shared/models/onnx has golden samples s0, s1 and s2.
constexpr int kOnnxGoldenSamples = 3;

// How many golden samples `stem` has (s0, s1, ... while sample k's out0 exists); a test
// asserts it equals kOnnxGoldenSamples before looping, so missing data fails.
inline int golden_sample_count(const std::string& stem) {
  int n = 0;
  while (std::filesystem::exists(sample_path(stem, n, "out", 0))) ++n;
  return n;
}

// How many golden outputs sample `sample` of `stem` has (out0, out1, ...).
inline int golden_output_count(const std::string& stem, int sample) {
  int n = 0;
  while (std::filesystem::exists(sample_path(stem, sample, "out", n))) ++n;
  return n;
}

inline int input_count(const std::string& stem) {
  int n = 0;
  while (std::filesystem::exists(sample_path(stem, 0, "in", n))) ++n;
  return n;
}

inline std::string input_args(const std::string& stem, int sample) {
  std::string args;
  for (int i = 0; i < input_count(stem); ++i) args += " --input '" + sample_path(stem, sample, "in", i) + "'";
  return args;
}

// Compiles ../shared/models/onnx/<stem>.onnx into dir/<stem>.mote; fails the test on error.
inline std::string compile_shared_onnx(const TempDir& dir, const std::string& stem,
                                       const std::string& target = "host") {
  const std::string program = dir.file(stem + ".mote");
  const CommandResult r = run_mote("compile '" + onnx_model(stem) + "' -o '" + program + "' --target " + target);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return program;
}

// Every element within atol + rtol * |expected| (numpy.allclose semantics).
inline void expect_allclose(const NpyArray& got, const NpyArray& want, double rtol, double atol,
                            const std::string& what) {
  ASSERT_EQ(got.dtype, DType::kFloat32) << what;
  ASSERT_EQ(want.dtype, DType::kFloat32) << what;
  ASSERT_EQ(got.shape, want.shape) << what;
  const auto* g = reinterpret_cast<const float*>(got.data.data());
  const auto* w = reinterpret_cast<const float*>(want.data.data());
  const size_t n = got.data.size() / 4;
  size_t bad = 0;
  double worst = 0;
  for (size_t i = 0; i < n; ++i) {
    const double err = std::fabs(double(g[i]) - double(w[i]));
    const double allowed = atol + rtol * std::fabs(double(w[i]));
    if (!(err <= allowed)) ++bad;
    worst = std::max(worst, err);
  }
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << n << " elements outside tolerance, max abs error " << worst;
}

// Signal-to-quantization-noise ratio of `got` against `want` (float32, same shape), in
// dB; infinity when they are equal.
inline double sqnr_db(const NpyArray& got, const NpyArray& want) {
  const auto* g = reinterpret_cast<const float*>(got.data.data());
  const auto* w = reinterpret_cast<const float*>(want.data.data());
  double signal = 0, noise = 0;
  for (size_t i = 0; i < want.data.size() / 4; ++i) {
    signal += double(w[i]) * w[i];
    noise += (double(w[i]) - g[i]) * (double(w[i]) - g[i]);
  }
  return noise == 0 ? INFINITY : 10 * std::log10(signal / noise);
}

}  // namespace mote::testing
