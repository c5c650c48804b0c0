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

// Patch-based execution of a CNN's first stages (compiler/patching/patching.h): kAuto
// runs the stage tile by tile when that lowers the arena within max_recompute.
enum class Patching { kOff, kAuto };

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
  Optimize optimize = Optimize::kSpeed;  // (new fields last: keeps brace-initialized options valid)
  Patching patching = Patching::kAuto;
  // The most extra MACs patching may add (halo recomputation), as a fraction of the
  // model's MACs.
  double max_recompute = 0.10;
  // The most arena bytes the program may need (0: no limit). With Optimize::kSpeed an
  // arena above it is planned again with Optimize::kMemory; a program still above it is a
  // CompileError. With --quantize, int16 activations may grow the arena up to it.
  uint32_t arena_budget = 0;
};

// What patching did (CompileReport::patching, when it was tried).
struct PatchReport {
  bool applied = false;
  std::string first_op, last_op;  // the stage's first and last source nodes
  size_t stage_ops = 0;           // nodes in the stage
  int rows = 0, cols = 0;         // the tile grid over the stage output
  uint64_t extra_macs = 0;        // recomputed in the tiles' overlaps
  uint32_t unpatched_arena_bytes = 0;
  uint32_t unpatched_lower_bound_bytes = 0;
  uint64_t unpatched_macs = 0;
  size_t candidates = 0;          // stages x grids compiled to choose
  // The smallest patched arena found (0: none beat the unpatched one), also when it saved
  // too little to apply with Optimize::kSpeed (less than a fifth).
  uint32_t best_patched_arena_bytes = 0;
};

struct OpReport {
  std::string name;    // source node name
  std::string kernel;  // kernel_name() of the kernel chosen for the op
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
  std::optional<PatchReport> patching;      // with Patching::kAuto
  // The ops run in another order than the model lists them (branches reordered), and the
  // arena the model's own order needed.
  bool reordered = false;
  uint32_t model_order_arena_bytes = 0;
};

struct CompileResult {
  std::vector<uint8_t> program;
  CompileReport report;
};

// Throws CompileError with a one-line message on any problem.
CompileResult compile(const CompileOptions& options);

// Import only (dispatch on the file extension): the model as a graph of Mote ops (for
// ONNX, after the importer's own stages: import/onnx/onnx_importer.h), with the tensors
// named in `extra_outputs` (CompileOptions::extra_outputs) appended to its outputs. Used
// by compile() and by tests.
ir::Graph import_model(const std::string& path, const std::vector<std::string>& extra_outputs = {});

// lower_to_program after the memory searches: the op order with the lowest peak of live
// bytes (compiler/schedule/op_order.h) when its arena is smaller than the graph's own
// order's, then with Patching::kAuto the stage and tile grid that give the smallest arena
// within max_recompute, when that beats the unpatched program.
CompileResult lower_for_memory(const ir::Graph& graph, const CompileOptions& options);

// The Mote-op graph -> program bytes (kernel choice, memory plan, serialization). A copy
// (reshape) shares its input's arena buffer; int8 constant weights read only by float ops
// (TFLite hybrid models) are dequantized to float32 constants.
CompileResult lower_to_program(const ir::Graph& graph, const std::string& target,
                               Optimize optimize = Optimize::kSpeed);

}  // namespace mote
