#include "compiler.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "common/error.h"
#include "emit/tflite_writer.h"
#include "import/onnx/onnx_importer.h"
#include "import/tflite/tflite_importer.h"
#include "kernel_registry.h"
#include "kernel_ids.h"
#include "npu/ethos_u.h"
#include "passes/passes.h"
#include "search/search.h"
#include "target/target.h"

namespace mote {

ir::Graph import_model(const std::string& path, const std::vector<std::string>& extra_outputs,
                       const std::vector<InputShape>& input_shapes) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".onnx") return import_onnx(path, extra_outputs, input_shapes);
  if (extension == ".tflite") {
    if (!input_shapes.empty())
      throw CompileError(path + ": --input-shape applies to ONNX models (a .tflite model's shapes are fixed)");
    ir::Graph graph = import_tflite(path);
    graph.add_named_outputs(extra_outputs, path);
    return graph;
  }
  throw CompileError(path + ": unsupported model format '" + extension +
                     "' (expected .onnx or .tflite)");
}

namespace {

// The kernels of `kernels` with `variant` given up for its reference kernel.
std::vector<std::string> with_reference(const std::vector<std::string>& kernels, const std::string& variant) {
  std::vector<std::string> out;
  const std::string reference = kernel_name(kernel_reference(kernel_id_from_name(variant.c_str())));
  for (const std::string& k : kernels)
    if (k != variant) out.push_back(k);
  if (std::find(out.begin(), out.end(), reference) == out.end()) out.push_back(reference);
  std::sort(out.begin(), out.end());
  return out;
}

// lower_within_budget; with Optimize::kSize, first with the fastest kernels, then with each
// variant whose reference lowers the code (options.code_bytes, shared code once) given
// up, the largest saving first, until none lowers it. A variant's reference takes the
// same inputs and parameters and gives the same bits, so only code and speed change
// (and the arena, which can only shrink: references need no scratch).
CompileResult lower_for_size(const ir::Graph& graph, const CompileOptions& options, SearchReport& search) {
  if (options.optimize != Optimize::kSize) return search::lower_within_budget(graph, options, search);
  CompileResult result = search::lower_within_budget(graph, options, search);
  std::vector<std::string> kernels = result.report.kernels;
  const uint64_t speed_bytes = options.code_bytes(kernels);
  uint64_t bytes = speed_bytes;
  std::vector<std::string> demoted, choices;
  for (;;) {
    std::string best;
    uint64_t best_bytes = bytes;
    for (const std::string& k : kernels) {
      if (!kernel_is_variant(kernel_id_from_name(k.c_str()))) continue;
      const uint64_t trial = options.code_bytes(with_reference(kernels, k));
      if (trial < best_bytes) {
        best = k;
        best_bytes = trial;
      }
    }
    if (best.empty()) break;
    choices.push_back(best + " -> " + kernel_name(kernel_reference(kernel_id_from_name(best.c_str()))) + ": " +
                      std::to_string(bytes) + " -> " + std::to_string(best_bytes) + " bytes of code");
    demoted.push_back(best);
    kernels = with_reference(kernels, best);
    bytes = best_bytes;
  }
  if (!demoted.empty()) {
    CompileOptions smaller = options;
    smaller.demoted_kernels = demoted;
    result = search::lower_within_budget(graph, smaller, search);
  }
  result.report.size_choices = std::move(choices);
  result.report.speed_code_bytes = speed_bytes;
  result.report.code_bytes = options.code_bytes(result.report.kernels);
  return result;
}

// lower_for_size, with the one-channel depthwise convolutions run as convolutions
// (passes::single_channel_depthwise_to_conv) when each of them gets an optimized
// convolution variant and the arena does not grow. The variants are faster there (on
// cortex-m55 micro_speech's goes 884K -> 291K instructions, 48 arena bytes less), but
// some take more scratch (cortex-m4: 867K -> 768K for 4,416 -> 4,912 bytes: kept as
// imported), and the reference convolution is slower than the reference depthwise one
// (cortex-m3: 3.8M -> 6.1M).
CompileResult lower_graph(const ir::Graph& graph, const CompileOptions& options, SearchReport& search) {
  CompileResult as_imported = lower_for_size(graph, options, search);
  ir::Graph rewritten = graph;
  const std::vector<std::string> names = passes::single_channel_depthwise_to_conv(rewritten);
  if (names.empty()) return as_imported;
  CompileResult as_conv = lower_for_size(rewritten, options, search);
  if (as_conv.report.arena_bytes > as_imported.report.arena_bytes) return as_imported;
  for (const OpReport& op : as_conv.report.ops) {
    // (A patched op's name carries its tile: "name [tile 0,1]".)
    const bool rewritten_op = std::any_of(names.begin(), names.end(), [&op](const std::string& name) {
      return op.name == name || op.name.rfind(name + " [", 0) == 0;
    });
    if (rewritten_op && !kernel_is_variant(kernel_id_from_name(op.kernel.c_str()))) return as_imported;
  }
  return as_conv;
}

}  // namespace

CompileResult compile(const CompileOptions& options) {
  if (options.emit_tflite && options.quantize.empty()) {
    if (std::filesystem::path(options.model_path).extension() == ".tflite")
      throw CompileError(options.model_path + ": --emit-tflite writes the graph --quantize int8 gives; this model is a "
                         ".tflite already (give it to Vela as it is)");
    throw CompileError(options.model_path + ": --emit-tflite needs --quantize int8 (it writes the quantized graph)");
  }
  const auto start = std::chrono::steady_clock::now();
  parse_target(options.target);  // refuse a bad target before any work
  ir::Graph graph = import_model(options.model_path, options.extra_outputs, options.input_shapes);
  std::vector<NpuOpReport> npu_ops = npu::check_npu_ops(graph, options.npu, options.model_path);
  if (!options.npu.empty() && npu_ops.empty())
    graph.notes.push_back("--npu " + options.npu +
                          ": the model has no ethos-u operators (Vela's output), so every op runs on the core");
  if (!npu_ops.empty() && !options.quantize.empty())
    throw CompileError(options.model_path + ": --quantize: a Vela-compiled model is quantized already");
  passes::fill_state(graph);
  passes::fold_constants(graph);
  passes::fuse_activations(graph);

  SearchReport search;
  CompileResult result;
  if (options.optimize == Optimize::kSize && !options.code_bytes)
    throw CompileError("--optimize size needs the target's code size measurements (a Cortex-M target)");
  if (options.quantize.empty()) {
    if (!options.calibration.empty()) throw CompileError("--calibration needs --quantize int8");
    result = lower_graph(graph, options, search);
  } else {
    if (options.quantize != "int8")
      throw CompileError("--quantize " + options.quantize + ": unsupported (expected int8)");
    if (options.calibration.empty())
      throw CompileError("--quantize int8 needs calibration samples: --calibration IN.npy per model input");
    for (const ir::Tensor& t : graph.tensors)
      if (t.is_persistent)
        throw CompileError(options.model_path + ": --quantize int8: a model with state (variable '" + t.name +
                           "') not supported");
    for (const ir::Node& node : graph.nodes)
      if (!node.regions.empty())
        throw CompileError(options.model_path + ": --quantize int8: node '" + node.name + "' (" +
                           ir::op_name(node.op) + ") runs its regions at run time (TFLite IF or WHILE), not supported");
    passes::divisions_to_multiplications(graph);
    const ptq::Calibration calibration = ptq::calibrate(graph, options.calibration, options.quantize_options);
    ptq::Report report;
    const ir::Graph quantized = search::quantize(graph, calibration, options, &report, search);
    // Written before lowering (a graph the writer cannot express fails before any work).
    std::vector<uint8_t> tflite;
    if (options.emit_tflite) tflite = write_tflite(quantized, options.model_path);
    result = lower_graph(quantized, options, search);
    result.tflite = std::move(tflite);
    result.report.quantization = std::move(report);
  }
  search.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.report.search = search;
  result.report.notes = graph.notes;
  for (const NpuOpReport& op : npu_ops)
    result.report.npu_fast_scratch_bytes = std::max(result.report.npu_fast_scratch_bytes, op.fast_scratch_bytes);
  result.report.npu = std::move(npu_ops);
  return result;
}

CompileResult lower_to_program(const ir::Graph& graph, const std::string& target, Optimize optimize) {
  SearchReport unused;
  return search::link(graph, parse_target(target), optimize, unused);
}

}  // namespace mote
