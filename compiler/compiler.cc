// compile(): import -> graph passes (order of passes/passes.h) -> lower_to_program.
#include "compiler.h"

#include <filesystem>

#include "common/error.h"
#include "import/onnx/onnx_importer.h"
#include "lower/lower.h"
#include "passes/passes.h"

namespace mote {

ir::Graph import_model(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".onnx") return import_onnx(path);
  if (extension == ".tflite") {
    throw CompileError(path + ": .tflite models are not supported yet (expected .onnx)");
  }
  throw CompileError(path + ": unsupported model format '" + extension +
                     "' (expected .onnx or .tflite)");
}

CompileResult compile(const CompileOptions& options) {
  lower::parse_target(options.target);  // refuse a bad target before any work
  ir::Graph graph = import_model(options.model_path);

  // Source level (ONNX ops), then legalize to Mote ops. A .tflite importer emits Mote ops
  // directly and will skip these.
  passes::remove_identities(graph);
  passes::fold_constants_source(graph);
  passes::fold_batch_norm(graph);
  passes::legalize_onnx(graph);
  // Mote level.
  passes::fold_constants(graph);
  passes::fuse_activations(graph);

  return lower_to_program(graph, options.target);
}

}  // namespace mote
