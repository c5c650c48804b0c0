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

// --optimize size: which kernels each op may take, and the code of a choice.
class SizeChoice {
 public:
  SizeChoice(std::vector<search::OpKernels> ops, std::vector<std::string> other_kernels)
      : ops_(std::move(ops)), other_(std::move(other_kernels)) {
    for (const search::OpKernels& op : ops_) total_macs_ += op.macs;
  }

  // The kernel op k takes with the variants in `demoted` passed over.
  KernelId kernel(size_t k, const std::vector<KernelId>& demoted) const {
    for (KernelId id : ops_[k].kernels)
      if (std::find(demoted.begin(), demoted.end(), id) == demoted.end()) return id;
    return ops_[k].kernels.back();  // the reference (never demoted)
  }

  // The kernels the program links with `demoted` passed over, sorted.
  std::vector<std::string> kernels(const std::vector<KernelId>& demoted) const {
    std::vector<std::string> names = other_;
    for (size_t k = 0; k < ops_.size(); ++k) names.push_back(kernel_name(kernel(k, demoted)));
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
  }

  // Passing `variant` over too would not move ops doing 1/32 of the model's MACs or more
  // (together) to reference kernels (a reference convolution runs ~10x the instructions).
  bool may_demote(KernelId variant, const std::vector<KernelId>& demoted) const {
    std::vector<KernelId> trial = demoted;
    trial.push_back(variant);
    uint64_t to_reference = 0;
    for (size_t k = 0; k < ops_.size(); ++k)
      if (kernel(k, demoted) == variant && !kernel_is_variant(kernel(k, trial))) to_reference += ops_[k].macs;
    return to_reference == 0 || to_reference * 32 < total_macs_;
  }

  // What the ops of `variant` take with `trial` passed over instead, by name ("a, b").
  std::string successors(KernelId variant, const std::vector<KernelId>& demoted,
                         const std::vector<KernelId>& trial) const {
    std::vector<std::string> names;
    for (size_t k = 0; k < ops_.size(); ++k) {
      if (kernel(k, demoted) != variant) continue;
      const std::string name = kernel_name(kernel(k, trial));
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
    return text;
  }

  // The one variant the ops of `variant` take with `trial` passed over, or kInvalid when
  // they take several kernels or a reference.
  KernelId next_variant(KernelId variant, const std::vector<KernelId>& demoted,
                        const std::vector<KernelId>& trial) const {
    KernelId next = KernelId::kInvalid;
    for (size_t k = 0; k < ops_.size(); ++k) {
      if (kernel(k, demoted) != variant) continue;
      const KernelId id = kernel(k, trial);
      if (!kernel_is_variant(id) || (next != KernelId::kInvalid && id != next)) return KernelId::kInvalid;
      next = id;
    }
    return next;
  }

 private:
  std::vector<search::OpKernels> ops_;
  std::vector<std::string> other_;  // kernels no op of the prepared graph chooses (patching's)
  uint64_t total_macs_ = 0;
};

// lower_within_budget; with Optimize::kSize, first with the fastest kernels, then with
// variants passed over (each op takes its next variant, or its reference kernel) where
// that lowers the code (options.code_bytes, shared code once), the largest saving first,
// until none lowers it. A step may pass over a variant and the variants its ops take next
// (kws' 1x1 layers: the records kernel, then the general 1x1 one, which is larger, then
// the general convolution), kept as a step when the code at its end is lower. An op
// doing at least 1/32 of the MACs keeps a variant: the smallest one whose rule applies. A variant takes the same inputs and parameters as its
// reference and gives the same bits, so only code and speed change (and the arena).
CompileResult lower_for_size(const ir::Graph& graph, const CompileOptions& options, SearchReport& search) {
  if (options.optimize != Optimize::kSize) return search::lower_within_budget(graph, options, search);
  CompileResult result = search::lower_within_budget(graph, options, search);
  const Target target = parse_target(options.target);
  std::vector<search::OpKernels> ops = search::op_kernel_candidates(graph, target);
  std::vector<std::string> other;
  for (const std::string& k : result.report.kernels) {
    const KernelId id = kernel_id_from_name(k.c_str());
    const bool chosen = std::any_of(ops.begin(), ops.end(), [id](const search::OpKernels& op) {
      return std::find(op.kernels.begin(), op.kernels.end(), id) != op.kernels.end();
    });
    if (!chosen) other.push_back(k);
  }
  const SizeChoice size(std::move(ops), std::move(other));
  const uint64_t speed_bytes = options.code_bytes(result.report.kernels);
  uint64_t bytes = options.code_bytes(size.kernels({}));
  std::vector<KernelId> demoted;
  std::vector<std::string> choices;
  for (;;) {
    KernelId best = KernelId::kInvalid;
    std::vector<KernelId> best_trial;
    uint64_t best_bytes = bytes;
    for (const std::string& k : size.kernels(demoted)) {
      const KernelId id = kernel_id_from_name(k.c_str());
      if (!kernel_is_variant(id)) continue;
      std::vector<KernelId> trial = demoted;
      for (KernelId step = id; step != KernelId::kInvalid && size.may_demote(step, trial);
           step = size.next_variant(id, demoted, trial)) {
        if (std::find(trial.begin(), trial.end(), step) != trial.end()) break;
        trial.push_back(step);
        const uint64_t trial_bytes = options.code_bytes(size.kernels(trial));
        if (trial_bytes < best_bytes) {
          best = id;
          best_trial = trial;
          best_bytes = trial_bytes;
        }
      }
    }
    if (best == KernelId::kInvalid) break;
    choices.push_back(std::string(kernel_name(best)) + " -> " + size.successors(best, demoted, best_trial) + ": " +
                      std::to_string(bytes) + " -> " + std::to_string(best_bytes) + " bytes of code");
    demoted = std::move(best_trial);
    bytes = best_bytes;
  }
  if (!demoted.empty()) {
    CompileOptions smaller = options;
    for (KernelId id : demoted) smaller.demoted_kernels.push_back(kernel_name(id));
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
