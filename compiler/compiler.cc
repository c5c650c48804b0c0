// compile(): import (Mote ops) -> graph passes (order of passes/passes.h) -> lower_to_program.
#include "compiler.h"

#include <filesystem>

#include "common/error.h"
#include "import/onnx/onnx_importer.h"
#include "import/tflite/tflite_importer.h"
#include "lower/lower.h"
#include "passes/passes.h"

namespace mote {

ir::Graph import_model(const std::string& path, const std::vector<std::string>& extra_outputs) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".onnx") return import_onnx(path, extra_outputs);
  if (extension == ".tflite") {
    ir::Graph graph = import_tflite(path);
    graph.add_named_outputs(extra_outputs, path);
    return graph;
  }
  throw CompileError(path + ": unsupported model format '" + extension +
                     "' (expected .onnx or .tflite)");
}

namespace {

// lower_for_memory held to options.arena_budget: a fast plan above the budget is redone
// for memory; a program that still does not fit is refused.
CompileResult lower_within_budget(const ir::Graph& graph, const CompileOptions& options) {
  CompileResult result = lower_for_memory(graph, options);
  if (options.arena_budget == 0 || result.report.arena_bytes <= options.arena_budget) return result;
  if (options.optimize == Optimize::kSpeed) {
    CompileOptions memory = options;
    memory.optimize = Optimize::kMemory;
    result = lower_for_memory(graph, memory);
  }
  if (result.report.arena_bytes > options.arena_budget) {
    throw CompileError(options.model_path + ": the program needs an arena of " +
                       std::to_string(result.report.arena_bytes) + " bytes, over the budget of " +
                       std::to_string(options.arena_budget) + " bytes (lower bound " +
                       std::to_string(result.report.arena_lower_bound_bytes) + ")");
  }
  return result;
}

// The arena a quantized graph compiles to under `options`, UINT32_MAX when it does not fit
// the budget (for the int16 policy's search).
uint32_t arena_within_budget(const ir::Graph& graph, const CompileOptions& options) {
  try {
    return lower_within_budget(graph, options).report.arena_bytes;
  } catch (const CompileError&) {
    return UINT32_MAX;
  }
}

}  // namespace

CompileResult compile(const CompileOptions& options) {
  parse_target(options.target);  // refuse a bad target before any work
  ir::Graph graph = import_model(options.model_path, options.extra_outputs);
  passes::fold_constants(graph);
  passes::fuse_activations(graph);

  if (options.quantize.empty()) {
    if (!options.calibration.empty()) throw CompileError("--calibration needs --quantize int8");
    return lower_within_budget(graph, options);
  }
  if (options.quantize != "int8")
    throw CompileError("--quantize " + options.quantize + ": unsupported (expected int8)");
  if (options.calibration.empty())
    throw CompileError("--quantize int8 needs calibration samples: --calibration IN.npy per model input");
  const ptq::Calibration calibration =
      ptq::calibrate(graph, options.calibration, options.quantize_options);
  ptq::Report report;
  ptq::Options quantize_options = options.quantize_options;
  if (quantize_options.arena_budget_bytes == 0) quantize_options.arena_budget_bytes = options.arena_budget;
  const auto arena_of = [&](const ir::Graph& g) { return arena_within_budget(g, options); };
  const ir::Graph quantized = ptq::quantize_model(graph, calibration, options.calibration,
                                                  quantize_options, arena_of, &report);
  CompileResult result = lower_within_budget(quantized, options);
  result.report.quantization = std::move(report);
  return result;
}

}  // namespace mote
