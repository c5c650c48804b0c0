// The compiler's front door: model file in, program bytes and a report out.
//
// compile(): import (Mote ops) -> graph passes (passes/passes.h) -> with --quantize,
// calibration and the int16 policy -> the memory searches -> the link stage. Every
// search is in compiler/search/search.h, the link stage in compiler/link/link.h, the
// report's types in compiler/report.h.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "import/onnx/onnx_importer.h"
#include "ir/graph.h"
#include "ptq/ptq.h"
#include "report.h"

namespace mote {

// What lowering favours where they conflict: kSpeed keeps the target's fastest kernel
// variants even when their scratch raises the arena; kMemory falls back to the reference
// kernel (no scratch) for any variant whose scratch raises it; kSize gives up each variant
// for its reference where that lowers the code the program links (CompileOptions::
// code_bytes: shared code counted once), the largest saving first.
enum class Optimize { kSpeed, kMemory, kSize };

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
  // model input, in input order (compiler/ptq/ptq.h).
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
  // Graph input shapes replacing symbolic dims (ONNX only; onnx_importer.h InputShape).
  std::vector<InputShape> input_shapes = {};
  // The Ethos-U NPU beside the core (--npu: ethos-u55-128, ethos-u65-256, ...; "" for
  // none). A Vela-compiled model's NPU ops must have been compiled for it
  // (compiler/npu/ethos_u.h); every other op runs on the core.
  std::string npu = {};
  // --emit-tflite: also write the quantized graph as a standard int8 .tflite
  // (CompileResult::tflite, compiler/emit/tflite_writer.h), the graph quantize() gives,
  // before lowering. Needs quantize "int8".
  bool emit_tflite = false;
  // Optimize::kSize: the flash the runtime and these kernels (by name) take on the target,
  // code shared between them counted once (the CLI reads the build's size measurements).
  std::function<uint64_t(const std::vector<std::string>& kernels)> code_bytes = {};
  // Variants (by name) lowered as their reference kernel instead; compile() sets it for
  // Optimize::kSize.
  std::vector<std::string> demoted_kernels = {};
};

// Throws CompileError with a one-line message on any problem.
CompileResult compile(const CompileOptions& options);

// Import only (dispatch on the file extension): the model as a graph of Mote ops (for
// ONNX, after the importer's own stages: import/onnx/onnx_importer.h), with the tensors
// named in `extra_outputs` (CompileOptions::extra_outputs) appended to its outputs. Used
// by compile() and by tests.
// `input_shapes`: CompileOptions::input_shapes (an error for a .tflite model).
ir::Graph import_model(const std::string& path, const std::vector<std::string>& extra_outputs = {},
                       const std::vector<InputShape>& input_shapes = {});

// The Mote-op graph in its order -> program bytes: the target's kernels, with
// Optimize::kMemory the variant fallback, the memory plan (compiler/search/search.h,
// link()), without the op order, patching or arena budget searches compile() adds. For
// tests and tools.
CompileResult lower_to_program(const ir::Graph& graph, const std::string& target,
                               Optimize optimize = Optimize::kSpeed);

}  // namespace mote
