// compile(): import -> graph passes (order of passes/passes.h) -> lower_to_program.
#include "compiler.h"

#include <filesystem>

#include "common/error.h"
#include "import/onnx/onnx_importer.h"
#include "import/tflite/tflite_importer.h"
#include "lower/lower.h"
#include "passes/passes.h"

namespace mote {

ir::Graph import_model(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".onnx") return import_onnx(path);
  if (extension == ".tflite") return import_tflite(path);
  throw CompileError(path + ": unsupported model format '" + extension +
                     "' (expected .onnx or .tflite)");
}

namespace {

// CompileOptions::extra_outputs: named activations become graph outputs after the model's.
void add_extra_outputs(ir::Graph& graph, const CompileOptions& options) {
  for (const std::string& name : options.extra_outputs) {
    int found = -1;
    for (size_t id = 0; id < graph.tensors.size(); ++id) {
      if (graph.tensors[id].name == name) {
        found = static_cast<int>(id);
        break;
      }
    }
    if (found < 0) throw CompileError(options.model_path + ": extra output '" + name + "': no tensor has that name");
    if (graph.producer(found) < 0) {
      throw CompileError(options.model_path + ": extra output '" + name +
                         "' is a constant or graph input, not an op's result");
    }
    graph.outputs.push_back(found);
  }
}

}  // namespace

CompileResult compile(const CompileOptions& options) {
  lower::parse_target(options.target);  // refuse a bad target before any work
  ir::Graph graph = import_model(options.model_path);
  add_extra_outputs(graph, options);

  // Source level (ONNX ops), then legalize to Mote ops. The .tflite importer emits Mote
  // ops directly and skips these.
  if (std::filesystem::path(options.model_path).extension() != ".tflite") {
    passes::remove_identities(graph);
    passes::fold_constants_source(graph);
    passes::fold_batch_norm(graph);
    passes::legalize_onnx(graph);
  }
  // Mote level.
  passes::fold_constants(graph);
  passes::fuse_activations(graph);

  if (options.quantize.empty()) {
    if (!options.calibration.empty()) throw CompileError("--calibration needs --quantize int8");
    return lower_for_memory(graph, options);
  }
  if (options.quantize != "int8")
    throw CompileError("--quantize " + options.quantize + ": unsupported (expected int8)");
  if (options.calibration.empty())
    throw CompileError("--quantize int8 needs calibration samples: --calibration IN.npy per model input");
  const ptq::Calibration calibration =
      ptq::calibrate(graph, options.calibration, options.quantize_options);
  ptq::Report report;
  const ir::Graph quantized = ptq::quantize_model(graph, calibration, options.calibration,
                                                  options.quantize_options, options.target, &report);
  CompileResult result = lower_for_memory(quantized, options);
  result.report.quantization = std::move(report);
  return result;
}

}  // namespace mote
