// The compiler's front door: model file in, program bytes and a report out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "ptq/ptq.h"

namespace mote {

// What lowering favours where the two conflict: kSpeed keeps the target's fastest kernel
// variants even when their scratch raises the arena; kMemory falls back to the reference
// kernel (no scratch) for any variant whose scratch raises it.
enum class Optimize { kSpeed, kMemory };

struct CompileOptions {
  std::string model_path;
  std::string target = "host";  // host, cortex-m0plus, cortex-m3, m4, m7, m33, m55
  // Debugging and golden checks of intermediates: tensors (by name in the imported model)
  // appended, in this order, to the graph outputs, so a run also returns them. Each must be
  // an activation (not a constant or graph input); the passes then keep it.
  std::vector<std::string> extra_outputs;
  // Post-training quantization ("" or "int8") of a float model: one calibration set per
  // model input, in input order (compiler/quantize/quantize.h).
  std::string quantize;
  std::vector<ptq::CalibrationInput> calibration;
  ptq::Options quantize_options;
  Optimize optimize = Optimize::kSpeed;  // (last: keeps brace-initialized options valid)
};

struct OpReport {
  std::string name;    // source node name
  std::string kernel;  // kernel_name(), e.g. "conv2d_f32"
  uint64_t macs = 0;
};

struct CompileReport {
  uint32_t program_bytes = 0;
  uint32_t arena_bytes = 0;
  uint32_t arena_lower_bound_bytes = 0;
  uint32_t weights_bytes = 0;  // constant tensor bytes in the program
  uint64_t macs = 0;
  std::vector<std::string> kernels;  // distinct kernel names the program needs, sorted
  std::vector<OpReport> ops;         // in execution order
  std::optional<ptq::Report> quantization;  // with --quantize
};

struct CompileResult {
  std::vector<uint8_t> program;
  CompileReport report;
};

// Throws CompileError with a one-line message on any problem.
CompileResult compile(const CompileOptions& options);

// Import only (dispatch on the file extension); used by compile() and by tests.
ir::Graph import_model(const std::string& path);

// The Mote-op graph -> program bytes (kernel choice, memory plan, serialization). A copy
// (reshape) shares its input's arena buffer; int8 constant weights read only by float ops
// (TFLite hybrid models) are dequantized to float32 constants.
CompileResult lower_to_program(const ir::Graph& graph, const std::string& target,
                               Optimize optimize = Optimize::kSpeed);

}  // namespace mote
