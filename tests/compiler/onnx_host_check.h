// Running a generated ONNX test model on the host (tests/compiler/testdata/onnx/): compile
// it, feed its one sample input, and compare every output with numpy's golden within
// 1e-5 x (1 + |golden|) (a NaN fails).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "compiler.h"
#include "host_run.h"
#include "onnx_test_util.h"

namespace mote::onnx_test {

inline int count_ops(const ir::Graph& g, ir::Op op) {
  int n = 0;
  for (const ir::Node& node : g.nodes) n += node.op == op;
  return n;
}

inline void expect_output(const std::vector<uint8_t>& bytes, const NpyArray& expected, size_t j) {
  ASSERT_EQ(bytes.size(), expected.data.size() * sizeof(float)) << "output " << j;
  std::vector<float> actual(expected.data.size());
  std::memcpy(actual.data(), bytes.data(), bytes.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    // `!(err <= tol)`: a NaN fails.
    const double err = std::fabs(static_cast<double>(actual[i]) - expected.data[i]);
    ASSERT_TRUE(err <= 1e-5 * (1.0 + std::fabs(expected.data[i])))
        << "output " << j << " element " << i << ": " << actual[i] << ", expected " << expected.data[i];
  }
}

// Compiles `model` for the host, runs it on its sample and compares every output with
// numpy's (data movement is exact; the conv in front rounds differently from float64).
inline ir::Graph check_model(const std::string& model, const std::vector<InputShape>& shapes = {}) {
  SCOPED_TRACE(model);
  const std::string path = testdata(model + ".onnx");
  CompileOptions options;
  options.model_path = path;
  options.input_shapes = shapes;
  const CompileResult result = compile(options);
  const NpyArray in = load_npy(testdata(model + ".in0.npy"));
  std::vector<uint8_t> bytes(in.data.size() * sizeof(float));
  std::memcpy(bytes.data(), in.data.data(), bytes.size());
  const std::vector<std::vector<uint8_t>> outputs = testing::run_on_host(result.program, bytes);
  ir::Graph g = import_model(path, {}, shapes);
  EXPECT_EQ(outputs.size(), g.outputs.size());
  for (size_t j = 0; j < outputs.size(); ++j) {
    const NpyArray expected = load_npy(testdata(model + ".out" + std::to_string(j) + ".npy"));
    EXPECT_EQ(g.tensors[g.outputs[j]].shape, expected.shape) << "output " << j;
    expect_output(outputs[j], expected, j);
  }
  return g;
}

}  // namespace mote::onnx_test
