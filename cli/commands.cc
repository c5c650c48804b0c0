// mote compile | run | inspect | size | init-firmware: the command-line contracts of ../shared/DESIGN.md.
#include "commands.h"

#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "arena_map.h"
#include "compiler.h"
#include "emit/c_emitter.h"
#include "ethos_u/ethos_u.h"
#include "device_runner.h"
#include "host_runner.h"
#include "init_firmware.h"
#include "import/onnx/onnx_importer.h"
#include "import/tflite/tflite_importer.h"
#include "lower/coverage.h"
#include "kernel_registry.h"
#include "npu/ethos_u.h"
#include "npy.h"
#include "target/target.h"

namespace mote {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::vector<int64_t> desc_shape(const TensorDesc& desc) {
  return std::vector<int64_t>(desc.dims, desc.dims + desc.rank);
}

std::string with_commas(uint64_t value) {
  std::string digits = std::to_string(value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(i, ",");
  return digits;
}

// Multiply-accumulates of op k (the kernel's MAC rule, kernels/kernel_registry.h).
uint64_t op_macs(const Interpreter& interp, uint32_t k) {
  return kernel_macs(static_cast<KernelId>(interp.op_desc(k)->kernel), interp.op_context(k));
}

struct ProgramSummary {
  uint64_t weights_bytes = 0;
  uint64_t macs = 0;
  std::vector<std::string> kernels;  // distinct, sorted
};

ProgramSummary summarize(const LoadedProgram& program) {
  ProgramSummary summary;
  const Interpreter& interp = program.interpreter();
  summary.weights_bytes = interp.memory_report().constant_bytes;
  for (uint32_t k = 0; k < interp.op_count(); ++k) {
    summary.macs += op_macs(interp, k);
    summary.kernels.push_back(kernel_name(static_cast<KernelId>(interp.op_desc(k)->kernel)));
  }
  std::sort(summary.kernels.begin(), summary.kernels.end());
  summary.kernels.erase(std::unique(summary.kernels.begin(), summary.kernels.end()),
                        summary.kernels.end());
  return summary;
}

json tensor_json(const TensorDesc& desc) {
  return json{{"dtype", dtype_name(static_cast<DType>(desc.dtype))}, {"shape", desc_shape(desc)},
              {"bytes", desc.bytes}, {"arena_offset", desc.offset}};
}

// ---------------------------------------------------------------- compile

struct CompileArgs {
  std::string model;
  std::string output;
  std::string target = "host";
  std::string quantize;
  std::vector<std::string> calibration;
  std::string calibration_method = "minmax";
  double percentile = 99.99;
  bool int8_io = false;
  std::string int16 = "auto";
  std::string weight_rounding = "gptq";
  std::string weight_scale = "search";
  double min_sqnr = 30.0;
  std::string optimize = "speed";
  std::string patching = "auto";
  std::string max_recompute = "10%";
  std::string arena_budget;
  std::string emit_c;
  bool emit_sources = false;  // --emit-sources: copy Mote's sources into the --emit-c DIR
  std::string source_root;    // --source-root: Mote's checkout (runtime/, kernels/)
  std::string emit_tflite;  // --emit-tflite FILE: the quantized graph as a .tflite
  std::vector<std::string> output_tensors;  // extra graph outputs, by tensor name
  std::vector<std::string> input_shapes;    // NAME=D0xD1x..., repeatable
  std::string npu;                          // --npu: the Ethos-U beside the core
  bool json = false;
};

bool is_source_tree(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "runtime/include/mote/mote.h", ec) &&
         fs::is_regular_file(dir / "kernels/kernel_registry.inc", ec);
}

// Mote's source tree for the sources manifest and --emit-sources, the first of:
// --source-root, $MOTE_SOURCE_ROOT, the tree this mote was built from (MOTE_SOURCE_DIR
// when the build defines it), <bin>/../share/mote (an installed mote) and the folders
// above the executable (build/bin/mote in a checkout). Empty when none is one; *looked
// says where it looked.
std::string find_source_root(const CompileArgs& args, std::string* looked) {
  std::vector<fs::path> candidates;
  if (!args.source_root.empty()) {
    if (!is_source_tree(args.source_root))
      throw std::runtime_error("--source-root " + args.source_root +
                               ": not a Mote source tree (no runtime/include/mote/mote.h or kernels/kernel_registry.inc)");
    return args.source_root;
  }
  if (const char* env = std::getenv("MOTE_SOURCE_ROOT"); env != nullptr && *env != '\0') {
    if (!is_source_tree(env))
      throw std::runtime_error(std::string("MOTE_SOURCE_ROOT=") + env +
                               ": not a Mote source tree (no runtime/include/mote/mote.h or kernels/kernel_registry.inc)");
    return env;
  }
#ifdef MOTE_SOURCE_DIR
  candidates.push_back(MOTE_SOURCE_DIR);
#endif
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path().parent_path() / "share/mote");
    for (fs::path dir = exe.parent_path(); dir.has_relative_path(); dir = dir.parent_path()) candidates.push_back(dir);
  }
  for (const fs::path& dir : candidates) {
    if (is_source_tree(dir)) return dir.lexically_normal().string();
    *looked += (looked->empty() ? "" : ", ") + dir.string();
  }
  return "";
}

// --emit-c DIR: the generated firmware sources (compiler/emit/c_emitter.h), each file
// written atomically; with Mote's sources found, their manifest (and with --emit-sources
// their copies).
void emit_c(const CompileArgs& args, const std::vector<uint8_t>& program) {
  EmitCInput input;
  input.program = program;
  input.model_file_name = fs::path(args.model).filename().string();
  input.model_sha256 = sha256_hex(read_file(args.model));
  input.target = args.target;
  std::string looked;
  input.source_root = find_source_root(args, &looked);
  input.copy_sources = args.emit_sources;
  if (input.source_root.empty() && args.emit_sources)
    throw std::runtime_error("--emit-sources: Mote's sources (runtime/, kernels/) not found in " + looked +
                             "; give --source-root DIR or set MOTE_SOURCE_ROOT");
  const std::vector<GeneratedFile> files = emit_c_sources(input);
  std::error_code ec;
  fs::create_directories(args.emit_c, ec);
  if (ec || !fs::is_directory(args.emit_c))
    throw std::runtime_error(args.emit_c + ": cannot create --emit-c directory" +
                             (ec ? ": " + ec.message() : ""));
  for (const GeneratedFile& file : files) {
    const fs::path path = fs::path(args.emit_c) / file.name;
    fs::create_directories(path.parent_path(), ec);
    if (ec) throw std::runtime_error(path.parent_path().string() + ": cannot create directory: " + ec.message());
    write_file_atomically(path.string(), std::vector<uint8_t>(file.text.begin(), file.text.end()));
  }
  if (args.json) return;
  size_t copied = 0;
  for (const GeneratedFile& file : files) {
    if (file.name.find('/') != std::string::npos) {
      ++copied;
      continue;
    }
    std::cout << "wrote " << (fs::path(args.emit_c) / file.name).string() << "\n";
  }
  if (copied != 0)
    std::cout << "wrote " << copied << " Mote sources into " << (fs::path(args.emit_c) / "mote").string()
              << " (the include directory they need)\n";
  if (input.source_root.empty())
    std::cerr << "note: no sources manifest: Mote's sources (runtime/, kernels/) not found in " << looked
              << " (give --source-root DIR or set MOTE_SOURCE_ROOT)\n";
}

// Calibration progress on stderr: a counter rewritten in place on a terminal, one line per
// phase otherwise (logs stay readable).
void print_progress(const char* phase, size_t done, size_t total) {
  static const bool tty = isatty(fileno(stderr)) != 0;
  if (tty) {
    std::cerr << "\r" << phase << " " << done << "/" << total << " samples" << (done == total ? "\n" : "")
              << std::flush;
  } else if (done == total) {
    std::cerr << phase << " " << done << "/" << total << " samples\n";
  }
}

std::string sqnr_string(double db) {
  if (std::isinf(db)) return "exact";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f dB", db);
  return buffer;
}

json quantization_json(const ptq::Report& q) {
  json tensors = json::array();
  for (const ptq::TensorReport& t : q.tensors)
    tensors.push_back({{"name", t.name}, {"dtype", dtype_name(t.dtype)}, {"observed_min", t.observed.min},
                       {"observed_max", t.observed.max}, {"range_min", t.chosen.min}, {"range_max", t.chosen.max},
                       {"scale", t.scale}, {"zero_point", t.zero_point}});
  json outputs = json::array();
  for (const ptq::OutputAccuracy& o : q.outputs) {
    json entry = {{"name", o.name}, {"sqnr_db", std::isinf(o.sqnr_db) ? json(nullptr) : json(o.sqnr_db)},
                  {"exact", std::isinf(o.sqnr_db)}};
    if (o.top1_rows > 0)
      entry["top1_agreement"] = static_cast<double>(o.top1_agreements) / static_cast<double>(o.top1_rows);
    outputs.push_back(entry);
  }
  return {{"scheme", q.int16_tensors ? "int8 with int16 activations (16x8)" : "int8"},
          {"method", ptq::range_method_name(q.method)}, {"samples", q.samples},
          {"int8_io", q.int8_io}, {"int16_tensors", q.int16_tensors},
          {"int8_only_sqnr_db", std::isinf(q.int8_only_sqnr_db) ? json(nullptr) : json(q.int8_only_sqnr_db)},
          {"int8_only_arena_bytes", q.int8_only_arena_bytes}, {"tensors", tensors}, {"float_nodes", q.float_nodes}, {"outputs", outputs}};
}

void print_quantization(const ptq::Report& q) {
  std::cout << "quantization  int8 (" << ptq::range_method_name(q.method) << " ranges, " << q.samples
            << " calibration samples, " << (q.int8_io ? "int8" : "float32") << " model inputs/outputs)\n";
  if (q.int16_tensors > 0)
    std::cout << "  int16 activations (TFLite 16x8) for " << q.int16_tensors
              << " tensors: the all-int8 program had SQNR " << sqnr_string(q.int8_only_sqnr_db) << " and arena "
              << with_commas(q.int8_only_arena_bytes) << " bytes\n";
  std::cout << "  tensor                                             dtype  range                       scale  zero point\n";
  for (const ptq::TensorReport& t : q.tensors) {
    char line[256];
    std::snprintf(line, sizeof(line), "  %-50s %-5s  [%10.4g, %10.4g]  %12.6g  %4d\n",
                  t.name.size() > 50 ? ("..." + t.name.substr(t.name.size() - 47)).c_str() : t.name.c_str(),
                  dtype_name(t.dtype),
                  static_cast<double>(t.chosen.min), static_cast<double>(t.chosen.max),
                  static_cast<double>(t.scale), t.zero_point);
    std::cout << line;
  }
  for (const std::string& f : q.float_nodes) std::cout << "  kept float32: " << f << "\n";
  for (const ptq::OutputAccuracy& o : q.outputs) {
    std::cout << "  accuracy vs float on the calibration samples: output '" << o.name << "' SQNR "
              << sqnr_string(o.sqnr_db);
    if (o.top1_rows > 0)
      std::cout << ", top-1 agreement " << o.top1_agreements << "/" << o.top1_rows;
    std::cout << "\n";
  }
}

// "10%" or "0.1" -> 0.1; a one-line error for anything else or a negative value.
double parse_fraction(const std::string& text, const char* option) {
  std::string number = text;
  const bool percent = !number.empty() && number.back() == '%';
  if (percent) number.pop_back();
  char* end = nullptr;
  const double value = number.empty() ? -1.0 : std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || !(value >= 0.0) || std::isinf(value))
    throw std::runtime_error(std::string(option) + " '" + text + "': expected a percentage such as 10% or a fraction such as 0.1");
  return percent ? value / 100.0 : value;
}

// "143360", "140KiB", "140K", "1MiB" -> bytes (K = KiB = 1024); a one-line error for
// anything else, zero, or more than 4 GiB - 1.
uint32_t parse_bytes(const std::string& text, const char* option) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  const std::string unit = text.substr(digits);
  uint64_t scale = 0;
  if (unit.empty() || unit == "B") scale = 1;
  else if (unit == "K" || unit == "KiB") scale = 1024;
  else if (unit == "M" || unit == "MiB") scale = 1024 * 1024;
  uint64_t value = 0;
  bool too_big = false;
  for (size_t i = 0; i < digits && !too_big; ++i) {
    value = value * 10 + static_cast<uint64_t>(text[i] - '0');
    too_big = value > UINT32_MAX;
  }
  if (digits == 0 || scale == 0 || too_big || value == 0 || value * scale > UINT32_MAX)
    throw std::runtime_error(std::string(option) + " '" + text +
                             "': expected a size in bytes such as 143360, 140KiB or 1MiB (at most 4 GiB - 1)");
  return static_cast<uint32_t>(value * scale);
}

json patching_json(const PatchReport& p) {
  json out = {{"applied", p.applied},
              {"unpatched_arena_bytes", p.unpatched_arena_bytes},
              {"unpatched_lower_bound_bytes", p.unpatched_lower_bound_bytes},
              {"unpatched_macs", p.unpatched_macs},
              {"candidates_lowered", p.candidates},
              {"best_patched_arena_bytes", p.best_patched_arena_bytes}};
  if (p.applied) {
    out["first_op"] = p.first_op;
    out["last_op"] = p.last_op;
    out["stage_ops"] = p.stage_ops;
    out["tiles"] = {p.rows, p.cols};
    out["extra_macs"] = p.extra_macs;
  }
  return out;
}

void print_patching(const PatchReport& p) {
  if (!p.applied && p.best_patched_arena_bytes > 0) {
    std::cout << "  patching none (the best stage, " << with_commas(p.best_patched_arena_bytes)
              << " bytes, saves less than 20% of the arena: worth it with --optimize memory)\n";
    return;
  }
  if (!p.applied) {
    std::cout << "  patching none (no stage run tile by tile lowers the arena within --max-recompute)\n";
    return;
  }
  char share[32];
  std::snprintf(share, sizeof share, "%.1f%%",
                p.unpatched_macs ? 100.0 * static_cast<double>(p.extra_macs) / static_cast<double>(p.unpatched_macs) : 0.0);
  std::cout << "  patching " << p.stage_ops << " ops from '" << p.first_op << "' to '" << p.last_op << "' in "
            << p.rows << "x" << p.cols << " tiles: +" << with_commas(p.extra_macs) << " MACs (" << share
            << "); unpatched arena " << with_commas(p.unpatched_arena_bytes) << " bytes (lower bound "
            << with_commas(p.unpatched_lower_bound_bytes) << ")\n";
}

// The report's `search` object: per search (compiler/search/search.h), candidates tried
// and seconds, the seconds of nested searches included in their parent's.
json search_json(const SearchReport& s) {
  json out = json::object();
  for (const auto& [name, stage] : s.stages())
    out[name] = {{"candidates", stage->candidates}, {"seconds", stage->seconds}};
  return out;
}

// One line per search that ran, outermost first.
void print_search(const SearchReport& s) {
  for (const auto& [name, stage] : s.stages()) {
    if (stage->candidates == 0) continue;
    char line[128];
    std::snprintf(line, sizeof line, "  search   %-17s %7llu candidates %8.2f s\n", name,
                  static_cast<unsigned long long>(stage->candidates), stage->seconds);
    std::cout << line;
  }
  char line[128];
  std::snprintf(line, sizeof line, "  time     %.2f s (a search's seconds include the searches nested in it)\n", s.seconds);
  std::cout << line;
}

// --input-shape NAME=D0xD1x...: the dims as integers (their range is the importer's
// check, which names the input and axis).
InputShape parse_input_shape(const std::string& text) {
  const size_t eq = text.rfind('=');
  const std::string bad = "--input-shape '" + text + "': expected NAME=D0xD1x... (e.g. input=1x3x96x96)";
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) throw std::runtime_error(bad);
  InputShape shape;
  shape.name = text.substr(0, eq);
  std::stringstream dims(text.substr(eq + 1));
  std::string dim;
  while (std::getline(dims, dim, 'x')) {
    size_t used = 0;
    int64_t value = 0;
    try {
      value = std::stoll(dim, &used);
    } catch (const std::exception&) {
      throw std::runtime_error(bad);
    }
    if (used != dim.size()) throw std::runtime_error(bad);
    shape.dims.push_back(value);
  }
  if (text.back() == 'x') throw std::runtime_error(bad);
  return shape;
}

// The NPU ops (compile report, inspect): per op its accelerator, commands and regions.
json npu_json(const std::vector<NpuOpReport>& ops) {
  json list = json::array();
  for (const NpuOpReport& op : ops) {
    json operations = json::object();
    for (const auto& [kind, count] : op.operations) operations[kind] = count;
    json regions = json::array();
    for (const NpuRegionReport& region : op.regions)
      regions.push_back({{"index", region.index}, {"role", region.role}, {"bytes", region.bytes},
                         {"read", region.read}, {"written", region.written}, {"port", region.port},
                         {"used", json::array({region.used_begin, region.used_end})}});
    list.push_back({{"name", op.name}, {"accelerator", op.accelerator}, {"memory_mode", op.memory_mode},
                    {"commands", op.commands}, {"operations", operations}, {"regions", regions},
                    {"fast_scratch_bytes", op.fast_scratch_bytes}, {"checks", op.checks},
                    {"extents_checked", op.extents_checked}});
  }
  return list;
}

void print_npu(const std::vector<NpuOpReport>& ops) {
  for (const NpuOpReport& op : ops) {
    std::cout << "  npu      '" << op.name << "': " << op.accelerator << ", " << op.memory_mode << ", "
              << with_commas(op.commands) << " commands:";
    for (const auto& [kind, count] : op.operations)
      if (count != 0) std::cout << " " << kind << " " << count;
    std::cout << "\n           regions";
    const char* separator = " ";
    for (const NpuRegionReport& region : op.regions) {
      if (!region.read && !region.written) continue;
      std::cout << separator << region.index << " " << region.role << " " << with_commas(region.bytes) << " B "
                << (region.read ? "r" : "") << (region.written ? "w" : "") << " "
                << region.port.substr(0, region.port.find(' '));
      if (region.used_end != 0)
        std::cout << " used [" << with_commas(region.used_begin) << ", " << with_commas(region.used_end) << ")";
      separator = "; ";
    }
    std::cout << "\n";
    if (op.checks != ops.front().checks) std::cout << "           checked: " << op.checks << "\n";
  }
  if (!ops.empty()) std::cout << "  npu      checked: " << ops.front().checks << "\n";
}

json read_sizes(const std::string& target, const std::string& path, std::string* where);
uint64_t code_bytes(const json& sizes, const std::string& path, const std::string& target,
                    const std::vector<std::string>& kernels);

// The compile options args name (a one-line error for a bad value).
CompileOptions compile_options(const CompileArgs& args) {
  CompileOptions options;
  options.model_path = args.model;
  options.target = args.target;
  options.optimize = args.optimize == "memory" ? Optimize::kMemory
                     : args.optimize == "size" ? Optimize::kSize
                                               : Optimize::kSpeed;
  if (options.optimize == Optimize::kSize) {
    if (args.target == "host")
      throw std::runtime_error("--optimize size: give a Cortex-M --target (code size is measured per core)");
    auto where = std::make_shared<std::string>();
    auto sizes = std::make_shared<json>(read_sizes(args.target, "", where.get()));
    options.code_bytes = [sizes, where, target = args.target](const std::vector<std::string>& kernels) {
      return code_bytes(*sizes, *where, target, kernels);
    };
  }
  options.patching = args.patching == "off" ? Patching::kOff : Patching::kAuto;
  options.max_recompute = parse_fraction(args.max_recompute, "--max-recompute");
  if (!args.arena_budget.empty()) options.arena_budget = parse_bytes(args.arena_budget, "--arena-budget");
  options.extra_outputs = args.output_tensors;
  options.npu = args.npu;
  for (const std::string& text : args.input_shapes) options.input_shapes.push_back(parse_input_shape(text));
  options.quantize = args.quantize;
  options.emit_tflite = !args.emit_tflite.empty();
  if (!args.quantize.empty() || !args.calibration.empty()) {
    options.quantize_options.method = ptq::parse_range_method(args.calibration_method);
    if (!(args.percentile > 50.0 && args.percentile <= 100.0))
      throw std::runtime_error("--percentile " + std::to_string(args.percentile) + ": expected a value in (50, 100]");
    options.quantize_options.percentile = args.percentile;
    options.quantize_options.int8_io = args.int8_io;
    options.quantize_options.int16 = ptq::parse_int16_policy(args.int16);
    options.quantize_options.min_sqnr_db = args.min_sqnr;
    if (args.weight_rounding != "gptq" && args.weight_rounding != "nearest" &&
        args.weight_rounding != "sequential")
      throw std::runtime_error("--weight-rounding '" + args.weight_rounding +
                               "': expected nearest, gptq or sequential");
    options.quantize_options.gptq = args.weight_rounding == "gptq";
    options.quantize_options.sequential = args.weight_rounding == "sequential";
    if (args.weight_scale != "max" && args.weight_scale != "search")
      throw std::runtime_error("--weight-scale '" + args.weight_scale + "': expected max or search");
    options.quantize_options.weight_step_search = args.weight_scale == "search";
    options.quantize_options.progress = print_progress;
    for (const std::string& path : args.calibration) {
      NpyArray array = read_npy(path);
      ptq::CalibrationInput in;
      in.path = path;
      in.dtype = array.dtype;
      in.shape = array.shape;
      in.data = std::move(array.data);
      options.calibration.push_back(std::move(in));
    }
  }
  return options;
}

int run_compile(const CompileArgs& args) {
  if (args.output.empty() && args.emit_c.empty() && args.emit_tflite.empty())
    throw std::runtime_error("compile: nothing to write; give -o OUT.mote, --emit-c DIR and/or --emit-tflite FILE");
  if (args.emit_sources && args.emit_c.empty())
    throw std::runtime_error("--emit-sources: give --emit-c DIR (the folder the sources are copied into)");

  const CompileOptions options = compile_options(args);
  CompileResult result = compile(options);
  // The program and the .tflite: both or neither.
  std::vector<std::string> paths;
  std::vector<const std::vector<uint8_t>*> contents;
  if (!args.output.empty()) {
    paths.push_back(args.output);
    contents.push_back(&result.program);
  }
  if (!args.emit_tflite.empty()) {
    paths.push_back(args.emit_tflite);
    contents.push_back(&result.tflite);
  }
  if (!paths.empty()) write_files_atomically(paths, contents);
  if (!args.emit_c.empty()) emit_c(args, result.program);
  if (!args.emit_tflite.empty() && !args.json) std::cout << "wrote " << args.emit_tflite << "\n";

  const CompileReport& r = result.report;
  if (args.json) {
    json ops = json::array();
    for (size_t i = 0; i < r.ops.size(); ++i)
      ops.push_back({{"index", i}, {"name", r.ops[i].name}, {"kernel", r.ops[i].kernel},
                     {"macs", r.ops[i].macs}});
    json out = {{"program", args.output},
                {"target", args.target},
                {"program_bytes", r.program_bytes},
                {"arena_bytes", r.arena_bytes},
                {"arena_lower_bound_bytes", r.arena_lower_bound_bytes},
                {"weights_bytes", r.weights_bytes},
                {"state_bytes", r.state_bytes},
                {"macs", r.macs},
                {"kernels", r.kernels},
                {"ops", ops}};
    if (!args.emit_tflite.empty()) out["tflite"] = args.emit_tflite;
    if (r.quantization) out["quantization"] = quantization_json(*r.quantization);
    if (r.patching) out["patching"] = patching_json(*r.patching);
    out["reordered"] = r.reordered;
    if (r.reordered) out["model_order_arena_bytes"] = r.model_order_arena_bytes;
    out["search"] = search_json(r.search);
    out["compile_seconds"] = r.search.seconds;
    out["notes"] = r.notes;
    if (options.optimize == Optimize::kSize)
      out["optimize_size"] = {{"speed_code_bytes", r.speed_code_bytes}, {"code_bytes", r.code_bytes},
                              {"choices", r.size_choices}};
    if (!r.npu.empty()) {
      out["npu"] = npu_json(r.npu);
      out["npu_fast_scratch_bytes"] = r.npu_fast_scratch_bytes;
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::cout << (args.output.empty() ? "compiled " + args.model : "wrote " + args.output) << " ("
            << with_commas(r.program_bytes) << " bytes) for "
            << args.target << "\n"
            << "  ops      " << r.ops.size() << " (" << r.kernels.size() << " kernels), "
            << with_commas(r.macs) << " MACs\n"
            << "  arena    " << with_commas(r.arena_bytes) << " bytes (lower bound "
            << with_commas(r.arena_lower_bound_bytes) << ")\n"
            << "  weights  " << with_commas(r.weights_bytes) << " bytes\n";
  if (r.state_bytes != 0)
    std::cout << "  state    " << with_commas(r.state_bytes) << " bytes of the arena kept between runs\n";
  if (r.reordered)
    std::cout << "  order    branches reordered for memory (the model's own order needed "
              << with_commas(r.model_order_arena_bytes) << " bytes)\n";
  for (const std::string& note : r.notes) std::cout << "  note     " << note << "\n";
  print_npu(r.npu);
  if (r.patching) print_patching(*r.patching);
  if (options.optimize == Optimize::kSize) {
    std::cout << "  code     " << with_commas(r.code_bytes) << " bytes of runtime and kernels ("
              << with_commas(r.speed_code_bytes) << " with the fastest kernels)\n";
    for (const std::string& choice : r.size_choices) std::cout << "  size     " << choice << "\n";
    if (!r.size_choices.empty())
      std::cout << "  size     the instructions this costs: mote run --device qemu-" << args.target
                << " on both builds (tools/benchmark.py --optimize size)\n";
  }
  print_search(r.search);
  if (r.quantization) print_quantization(*r.quantization);
  return 0;
}

// ---------------------------------------------------------------- run

struct RunArgs {
  std::string program;
  std::vector<std::string> inputs;
  std::string output_dir;
  std::string device = "host";
  bool json = false;
  int64_t arena_bytes = -1;  // -1: exactly the planned size
  int64_t runs = 1;          // runs of the program loaded once; --input lists each run's inputs
  uint32_t loop_limit = LoadedProgram::kDefaultLoopLimit;  // per run; 0: none
};

// Checks that every .npy matches the program's input in count, dtype and shape; returns
// each run's inputs (--runs R: R * input_count files, run by run).
std::vector<std::vector<std::vector<uint8_t>>> read_inputs(const RunArgs& args, const Interpreter& interp) {
  if (args.runs < 1) throw std::runtime_error("--runs " + std::to_string(args.runs) + ": expected 1 or more");
  const uint64_t expected = interp.input_count() * static_cast<uint64_t>(args.runs);
  if (args.inputs.size() != expected)
    throw std::runtime_error(args.program + ": expects " + std::to_string(interp.input_count()) + " input(s)" +
                             (args.runs > 1 ? " x " + std::to_string(args.runs) + " runs" : std::string()) +
                             ", got " + std::to_string(args.inputs.size()) + " --input");
  std::vector<std::vector<std::vector<uint8_t>>> runs(static_cast<size_t>(args.runs));
  for (size_t k = 0; k < args.inputs.size(); ++k) {
    const uint32_t i = static_cast<uint32_t>(k % interp.input_count());
    NpyArray array = read_npy(args.inputs[k]);
    const TensorDesc& desc = *interp.input_desc(i);
    const auto expected_dtype = static_cast<DType>(desc.dtype);
    const auto expected_shape = desc_shape(desc);
    if (array.dtype != expected_dtype || array.shape != expected_shape)
      throw std::runtime_error(
          args.inputs[k] + ": input " + std::to_string(i) + " expects " + dtype_name(expected_dtype) +
          " " + shape_string(expected_shape) + ", got " + dtype_name(array.dtype) + " " +
          shape_string(array.shape));
    runs[k / interp.input_count()].push_back(std::move(array.data));
  }
  return runs;
}

// What `mote run` measured: every run's outputs; timings and arena figures of run 0.
struct RunOutcome {
  std::vector<std::vector<std::vector<uint8_t>>> outputs;  // per run, per output
  std::vector<double> op_seconds;
  std::vector<uint64_t> op_instructions;
  double total_seconds = 0;
  uint64_t total_instructions = 0;
  std::optional<DeviceRunResult> device_memory;  // the device's arena figures
};

// The runs, in order, in one loaded program (host) or one boot of the device, so that a
// stateful program's state carries from run to run.
RunOutcome execute_runs(const RunArgs& args, LoadedProgram& program,
                        const std::vector<std::vector<std::vector<uint8_t>>>& inputs) {
  const Interpreter& interp = program.interpreter();
  RunOutcome outcome;
  if (args.device == "host") {
    program.interpreter().set_loop_limit(args.loop_limit);
    for (size_t r = 0; r < inputs.size(); ++r) {
      HostRunResult result = run_on_host(program, inputs[r]);
      outcome.outputs.push_back(std::move(result.outputs));
      if (r != 0) continue;
      outcome.op_seconds = std::move(result.op_seconds);
      outcome.total_seconds = result.total_seconds;
    }
    return outcome;
  }
  DeviceRunResult result =
      run_sequence_on_device(args.device, args.program, inputs, interp.output_count(), args.loop_limit);
  outcome.outputs.push_back(std::move(result.outputs));
  for (auto& later : result.later_outputs) outcome.outputs.push_back(std::move(later));
  for (const auto& outputs : outcome.outputs)
    if (outputs.size() != interp.output_count())
      throw std::runtime_error(args.device + ": runner returned " + std::to_string(outputs.size()) +
                               " outputs, expected " + std::to_string(interp.output_count()));
  outcome.op_instructions = std::move(result.op_instructions);
  outcome.total_instructions = result.total_instructions;
  outcome.device_memory.emplace();
  outcome.device_memory->arena_given_bytes = result.arena_given_bytes;
  outcome.device_memory->arena_used_bytes = result.arena_used_bytes;
  outcome.device_memory->stack_used_bytes = result.stack_used_bytes;
  return outcome;
}

void prepare_output_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw std::runtime_error(dir + ": cannot create output directory" +
                             (ec ? ": " + ec.message() : ""));
  if (access(dir.c_str(), W_OK) != 0)
    throw std::runtime_error(dir + ": output directory is not writable");
}

std::string output_preview(const NpyArray& array) {
  std::ostringstream s;
  const size_t count = array.data.size() / dtype_size(array.dtype);
  if (array.dtype == DType::kFloat32) {
    const auto* v = reinterpret_cast<const float*>(array.data.data());
    size_t best = 0;
    for (size_t i = 1; i < count; ++i)
      if (v[i] > v[best]) best = i;
    if (count > 1) s << "argmax " << best << " (" << v[best] << "); ";
    for (size_t i = 0; i < std::min<size_t>(count, 6); ++i) s << (i ? " " : "") << v[i];
  } else if (array.dtype == DType::kInt8) {
    const auto* v = reinterpret_cast<const int8_t*>(array.data.data());
    for (size_t i = 0; i < std::min<size_t>(count, 8); ++i) s << (i ? " " : "") << int{v[i]};
  }
  if (count > 6) s << " ...";
  return s.str();
}

// Left-aligned in `width` columns (text may be longer).
std::string pad_right(const std::string& text, size_t width) {
  return text + std::string(width > text.size() ? width - text.size() : 0, ' ');
}
std::string pad_left(const std::string& text, size_t width) {
  return std::string(width > text.size() ? width - text.size() : 0, ' ') + text;
}

// `mote run`'s per-op table: every column as wide as its widest cell (an op name is cut
// to its first kMaxName characters), so long kernel and op names keep the columns aligned.
void print_op_table(const Interpreter& interp, bool on_host, const std::vector<double>& op_seconds,
                    const std::vector<uint64_t>& op_instructions, double total_seconds, uint64_t total_instructions) {
  constexpr size_t kMaxName = 48;
  const double total = on_host ? total_seconds * 1e6 : static_cast<double>(total_instructions);
  std::vector<std::array<std::string, 5>> rows = {
      {"op", "name", "kernel", on_host ? "time (us)" : "instructions", "share"}};
  for (uint32_t k = 0; k < interp.op_count(); ++k) {
    std::string name = interp.op_name(k);
    if (name.size() > kMaxName) name = name.substr(0, kMaxName - 3) + "...";
    const double value = on_host ? op_seconds[k] * 1e6
                                 : static_cast<double>(k < op_instructions.size() ? op_instructions[k] : 0);
    char number[32], share[16];
    std::snprintf(number, sizeof number, "%.*f", on_host ? 1 : 0, value);
    std::snprintf(share, sizeof share, "%.1f%%", total > 0 ? 100.0 * value / total : 0.0);
    rows.push_back({std::to_string(k), name, kernel_name(static_cast<KernelId>(interp.op_desc(k)->kernel)),
                    number, share});
  }
  std::array<size_t, 5> width{};
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  for (const auto& row : rows)
    std::cout << "  " << pad_left(row[0], width[0]) << "  " << pad_right(row[1], width[1]) << "  "
              << pad_right(row[2], width[2]) << "  " << pad_left(row[3], width[3]) << "  " << pad_left(row[4], width[4])
              << "\n";
}

int run_run(const RunArgs& args) {
  const std::vector<uint8_t> bytes = read_file(args.program);
  std::optional<uint64_t> arena;
  if (args.arena_bytes >= 0) arena = static_cast<uint64_t>(args.arena_bytes);
  LoadedProgram program(bytes, args.program, arena);
  Interpreter& interp = program.interpreter();
  const std::vector<std::vector<std::vector<uint8_t>>> inputs = read_inputs(args, interp);
  prepare_output_dir(args.output_dir);

  const bool on_host = args.device == "host";
  RunOutcome outcome = execute_runs(args, program, inputs);
  const std::vector<double>& op_seconds = outcome.op_seconds;
  const std::vector<uint64_t>& op_instructions = outcome.op_instructions;
  const double total_seconds = outcome.total_seconds;
  const uint64_t total_instructions = outcome.total_instructions;
  const std::optional<DeviceRunResult>& device_memory = outcome.device_memory;

  // Write all outputs (all or none, see write_files_atomically) before reporting: out<j>.npy,
  // or with several runs out<j>.run<r>.npy.
  std::vector<NpyArray> arrays;
  std::vector<std::string> paths;
  std::vector<std::vector<uint8_t>> files;
  for (size_t r = 0; r < outcome.outputs.size(); ++r) {
    std::vector<std::vector<uint8_t>>& outputs = outcome.outputs[r];
    for (uint32_t j = 0; j < interp.output_count(); ++j) {
      const TensorDesc& desc = *interp.output_desc(j);
      if (outputs[j].size() != desc.bytes)
        throw std::runtime_error(args.device + ": output " + std::to_string(j) + " has " +
                                 std::to_string(outputs[j].size()) + " bytes, expected " + std::to_string(desc.bytes));
      NpyArray array{static_cast<DType>(desc.dtype), desc_shape(desc), std::move(outputs[j])};
      const std::string run = args.runs > 1 ? ".run" + std::to_string(r) : "";
      paths.push_back((fs::path(args.output_dir) / ("out" + std::to_string(j) + run + ".npy")).string());
      files.push_back(encode_npy(array));
      arrays.push_back(std::move(array));
    }
  }
  std::vector<const std::vector<uint8_t>*> contents;
  for (const auto& file : files) contents.push_back(&file);
  write_files_atomically(paths, contents);

  const ProgramHeader& h = program.header();
  const ProgramSummary summary = summarize(program);
  if (args.json) {
    json ops = json::array();
    for (uint32_t k = 0; k < interp.op_count(); ++k) {
      json op = {{"index", k},
                 {"name", interp.op_name(k)},
                 {"kernel", kernel_name(static_cast<KernelId>(interp.op_desc(k)->kernel))},
                 {"macs", op_macs(interp, k)},
                 {"scratch_bytes", interp.op_desc(k)->scratch_bytes}};
      if (on_host) op["seconds"] = op_seconds[k];
      else op["instructions"] = k < op_instructions.size() ? op_instructions[k] : 0;
      ops.push_back(op);
    }
    json outs = json::array();
    for (size_t k = 0; k < arrays.size(); ++k)
      outs.push_back({{"index", k % interp.output_count()}, {"run", k / interp.output_count()}, {"path", paths[k]},
                      {"dtype", dtype_name(arrays[k].dtype)}, {"shape", arrays[k].shape}});
    json out = {{"program", args.program},
                {"device", args.device},
                {"arena_bytes", h.arena_bytes},
                {"arena_lower_bound_bytes", h.arena_lower_bound_bytes},
                {"program_bytes", h.total_bytes},
                {"weights_bytes", summary.weights_bytes},
                {"macs", summary.macs},
                {"outputs", outs},
                {"ops", ops}};
    // The memory report: what the program occupies (flash) and the arena (RAM) it was
    // planned for; on a device also the arena the runner gave and its high-water mark.
    uint32_t max_scratch = 0;
    for (uint32_t k = 0; k < interp.op_count(); ++k)
      max_scratch = std::max(max_scratch, interp.op_desc(k)->scratch_bytes);
    json memory = {{"program_bytes", h.total_bytes},
                   {"weights_bytes", summary.weights_bytes},
                   {"arena_planned_bytes", h.arena_bytes},
                   {"arena_lower_bound_bytes", h.arena_lower_bound_bytes},
                   {"arena_state_bytes", interp.memory_report().arena_state_bytes},
                   {"max_op_scratch_bytes", max_scratch}};
    if (device_memory) {
      memory["arena_given_bytes"] = device_memory->arena_given_bytes;
      memory["arena_used_bytes"] = device_memory->arena_used_bytes;
      memory["stack_used_bytes"] = device_memory->stack_used_bytes;
    }
    out["memory"] = memory;
    if (on_host) out["seconds"] = total_seconds;
    else out["instructions"] = total_instructions;
    std::cout << out.dump(2) << "\n";
    return 0;
  }

  std::cout << args.program << " on " << args.device << "\n";
  for (size_t k = 0; k < arrays.size(); ++k)
    std::cout << (args.runs > 1 ? "  run " + std::to_string(k / interp.output_count()) : std::string())
              << "  output " << k % interp.output_count() << "  " << dtype_name(arrays[k].dtype) << " "
              << shape_string(arrays[k].shape) << " -> " << paths[k] << "\n      " << output_preview(arrays[k])
              << "\n";
  std::cout << "  arena    " << with_commas(h.arena_bytes) << " bytes (lower bound "
            << with_commas(h.arena_lower_bound_bytes) << ")\n"
            << "  weights  " << with_commas(summary.weights_bytes) << " bytes, program "
            << with_commas(h.total_bytes) << " bytes, " << with_commas(summary.macs) << " MACs\n";
  if (interp.memory_report().arena_state_bytes != 0)
    std::cout << "  state    " << with_commas(interp.memory_report().arena_state_bytes) << " bytes of the arena kept between runs\n";
  if (device_memory)
    std::cout << "  stack    " << with_commas(device_memory->stack_used_bytes)
              << " bytes used by the run below its caller (painted; interrupts included)\n";
  print_op_table(interp, on_host, op_seconds, op_instructions, total_seconds, total_instructions);
  if (on_host)
    std::printf("  total %.1f us on the host\n", total_seconds * 1e6);
  else
    std::cout << "  total " << with_commas(total_instructions) << " instructions executed on "
              << args.device << "\n";
  return 0;
}

// ---------------------------------------------------------------- inspect

// The NPU ops of a loaded program, described from their payloads and region sizes.
std::vector<NpuOpReport> npu_ops_of(const LoadedProgram& program) {
  const Interpreter& interp = program.interpreter();
  std::vector<NpuOpReport> ops;
  for (uint32_t k = 0; k < interp.op_count(); ++k) {
    if (std::string(kernel_name(static_cast<KernelId>(interp.op_desc(k)->kernel))) != "ethos_u") continue;
    const OpContext ctx = interp.op_context(k);
    const uint32_t fast = ethos_u_fast_scratch_bytes(ctx);
    const uint32_t regions = std::min<uint32_t>(kNpuMaxRegions, ctx.input_count() - 1 + ctx.output_count());
    std::vector<uint64_t> bytes;
    for (uint32_t i = 0; i < regions; ++i) {
      const uint32_t input = i + 1;
      uint64_t b = 0;
      if (i == 2 && fast != 0) b = fast;
      else if (input < ctx.input_count()) b = ctx.has_input(input) ? ctx.input_desc(input).bytes : 0;
      else b = ctx.output_desc(input - ctx.input_count()).bytes;
      bytes.push_back(b);
    }
    const auto* payload = static_cast<const uint8_t*>(ctx.input_data(0));
    ops.push_back(npu::describe_npu_op(interp.op_name(k), {payload, ctx.input_desc(0).bytes}, bytes, fast));
  }
  return ops;
}

int run_inspect(const std::string& path, bool as_json, const std::string& memory_svg) {
  LoadedProgram program(read_file(path), path);
  const Interpreter& interp = program.interpreter();
  const ProgramHeader& h = program.header();
  if (!memory_svg.empty()) {
    const std::string svg = arena_svg(interp, h, fs::path(path).filename().string());
    write_file_atomically(memory_svg, std::vector<uint8_t>(svg.begin(), svg.end()));
    if (!as_json) std::cout << "wrote " << memory_svg << "\n";
  }
  const ProgramSummary summary = summarize(program);
  const std::vector<NpuOpReport> npu_ops = npu_ops_of(program);

  json ops = json::array();
  for (uint32_t k = 0; k < interp.op_count(); ++k) {
    const OpContext ctx = interp.op_context(k);
    json inputs = json::array(), outputs = json::array();
    for (uint32_t i = 0; i < ctx.input_count(); ++i)
      inputs.push_back(ctx.has_input(i) ? json(desc_shape(ctx.input_desc(i))) : json(nullptr));
    for (uint32_t i = 0; i < ctx.output_count(); ++i) outputs.push_back(desc_shape(ctx.output_desc(i)));
    const OpDesc& op = *interp.op_desc(k);
    ops.push_back({{"index", k},
                   {"name", interp.op_name(k)},
                   {"kernel", kernel_name(static_cast<KernelId>(op.kernel))},
                   {"macs", op_macs(interp, k)},
                   {"scratch_bytes", op.scratch_bytes},
                   {"input_shapes", inputs},
                   {"output_shapes", outputs}});
  }
  json ins = json::array(), outs = json::array();
  for (uint32_t i = 0; i < interp.input_count(); ++i) ins.push_back(tensor_json(*interp.input_desc(i)));
  for (uint32_t i = 0; i < interp.output_count(); ++i) outs.push_back(tensor_json(*interp.output_desc(i)));

  if (as_json) {
    json out = {{"program", path},
                {"format_version", std::to_string(h.version_major) + "." + std::to_string(h.version_minor)},
                {"program_bytes", h.total_bytes},
                {"arena_bytes", h.arena_bytes},
                {"arena_lower_bound_bytes", h.arena_lower_bound_bytes},
                {"weights_bytes", summary.weights_bytes},
                {"state_bytes", interp.memory_report().arena_state_bytes},
                {"init_op_count", h.init_op_count},
                {"macs", summary.macs},
                {"kernels", summary.kernels},
                {"inputs", ins},
                {"outputs", outs},
                {"ops", ops}};
    if (!npu_ops.empty()) {
      out["npu"] = npu_json(npu_ops);
      out["npu_fast_scratch_bytes"] = program.fast_scratch_bytes();
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::cout << path << ": Mote program v" << h.version_major << "." << h.version_minor << ", "
            << with_commas(h.total_bytes) << " bytes\n"
            << "  arena    " << with_commas(h.arena_bytes) << " bytes (lower bound "
            << with_commas(h.arena_lower_bound_bytes) << ")\n"
            << "  weights  " << with_commas(summary.weights_bytes) << " bytes, "
            << with_commas(summary.macs) << " MACs\n";
  if (interp.memory_report().arena_state_bytes != 0 || h.init_op_count != 0)
    std::cout << "  state    " << with_commas(interp.memory_report().arena_state_bytes) << " bytes of the arena kept between runs; the first "
              << h.init_op_count << " ops run on the first run only\n";
  std::cout << "  kernels ";
  for (const auto& k : summary.kernels) std::cout << " " << k;
  std::cout << "\n";
  print_npu(npu_ops);
  for (uint32_t k = 0; k < interp.op_count(); ++k)
    std::cout << "  " << k << "  " << ops[k]["kernel"].get<std::string>() << "  "
              << interp.op_name(k) << "\n";
  return 0;
}

// ---------------------------------------------------------------- size

struct SizeArgs {
  std::string program;
  std::string target;
  std::string sizes;  // sizes-<core>.json; default: the one the build measured
  bool json = false;
};

// The size measurements of a core (sizes-<core>.json: `path` or, when empty, the one
// this build measured), checked for the core; *where is the file read.
json read_sizes(const std::string& target, const std::string& path, std::string* where) {
  *where = !path.empty() ? path : std::string(MOTE_FIRMWARE_DIR) + "/lib-" + target + "/sizes-" + target + ".json";
  if (!fs::exists(*where))
    throw std::runtime_error(*where + ": no size measurements for " + target +
                             " (built with the firmware: cmake -DMOTE_BUILD_FIRMWARE=ON)");
  const std::vector<uint8_t> bytes = read_file(*where);
  json sizes = json::parse(bytes.begin(), bytes.end(), nullptr, false);
  if (sizes.is_discarded() || !sizes.contains("runtime_text_bytes") || !sizes.contains("kernels"))
    throw std::runtime_error(*where + ": not a size measurement file");
  if (sizes.value("core", "") != target)
    throw std::runtime_error(*where + ": measured for core '" + sizes.value("core", "") + "', expected '" + target +
                             "'");
  return sizes;
}

// Bytes that more than one of (the runtime core, the given kernel entries) measured,
// counted once more than needed: the sections of sizes-<core>.json (write_sizes.cmake)
// each probe kept. 0 for a measurement file without sections (then every kernel counts
// its shared helpers itself).
uint64_t shared_code_bytes(const json& sizes, const std::string& path, const std::vector<std::string>& symbols) {
  if (!sizes.contains("sections")) return 0;
  const json& sections = sizes["sections"];
  const auto bad = [&](const std::string& what) { return std::runtime_error(path + ": " + what); };
  if (!sections.is_array() || !sizes.contains("runtime_sections") || !sizes.contains("kernel_sections"))
    throw bad("sections without runtime_sections and kernel_sections");
  std::map<uint64_t, uint32_t> uses;
  const auto count = [&](const json& indices, const std::string& owner) {
    if (!indices.is_array()) throw bad(owner + ": section indices are not a list");
    for (const json& index : indices) {
      if (!index.is_number_unsigned() || index.get<uint64_t>() >= sections.size())
        throw bad(owner + ": section index " + index.dump() + " out of range");
      ++uses[index.get<uint64_t>()];
    }
  };
  count(sizes["runtime_sections"], "runtime_sections");
  for (const std::string& symbol : symbols) {
    if (!sizes["kernel_sections"].contains(symbol)) throw bad("kernel_sections has no " + symbol);
    count(sizes["kernel_sections"][symbol], symbol);
  }
  uint64_t shared = 0;
  for (const auto& [index, n] : uses) {
    const json& section = sections[index];
    if (!section.is_array() || section.size() != 2 || !section[1].is_number_unsigned())
      throw bad("section " + std::to_string(index) + " is not [name, bytes]");
    shared += (n - 1) * section[1].get<uint64_t>();
  }
  return shared;
}

// The runtime and these kernels' code (by name) with shared code once: what
// CompileOptions::code_bytes asks for --optimize size.
uint64_t code_bytes(const json& sizes, const std::string& path, const std::string& target,
                    const std::vector<std::string>& kernels) {
  uint64_t bytes = sizes["runtime_text_bytes"].get<uint64_t>();
  std::vector<std::string> symbols;
  for (const std::string& kernel : kernels) {
    const std::string symbol = kernel_entry_symbol(kernel_id_from_name(kernel.c_str()));
    if (!sizes["kernels"].contains(symbol))
      throw std::runtime_error(path + ": no measurement for kernel " + kernel + " (" + symbol + ") on " + target);
    bytes += sizes["kernels"][symbol].get<uint64_t>();
    symbols.push_back(symbol);
  }
  return bytes - shared_code_bytes(sizes, path, symbols);
}

// The stack mote_load and mote_run need for a program, from the static bounds of
// sizes-<core>.json (stack_bound.py): per phase the deeper of the runtime's own call tree
// and the point where it calls through a pointer plus the deepest check (load) or run
// function among the program's kernels. Empty when the file has no bounds or one is
// unknown (then `why` says which).
std::optional<uint64_t> stack_bound(const json& sizes, const std::vector<std::string>& symbols, std::string* why) {
  if (!sizes.contains("stack")) {
    *why = "no stack bounds in the size measurements";
    return std::nullopt;
  }
  const json& stack = sizes["stack"];
  uint64_t peak = 0;
  const char* phases[] = {"load", "run"};
  for (size_t phase = 0; phase < 2; ++phase) {
    const json& runtime = stack["runtime"][phases[phase]];
    if (!runtime.is_array() || runtime.size() != 2 || !runtime[0].is_number_unsigned()) {
      *why = std::string("the runtime's ") + phases[phase] + " path has no static bound";
      return std::nullopt;
    }
    uint64_t deepest_kernel = 0;
    for (const std::string& symbol : symbols) {
      const json& figures = stack["kernels"][symbol];
      if (!figures.is_array() || figures.size() != 2 || !figures[phase].is_number_unsigned()) {
        *why = symbol + " has no static stack bound (it calls code outside the kernel, e.g. an NPU driver)";
        return std::nullopt;
      }
      deepest_kernel = std::max(deepest_kernel, figures[phase].get<uint64_t>());
    }
    peak = std::max(peak, runtime[0].get<uint64_t>());
    if (runtime[1].is_number_unsigned()) peak = std::max(peak, runtime[1].get<uint64_t>() + deepest_kernel);
  }
  return peak;
}

// The flash bill of a program on one core: runtime core and each kernel, measured at
// build time from -Os cross-compiled objects (platforms/cortex_m/size_probe), plus the
// program bytes; the RAM bill is the arena.
int run_size(const SizeArgs& args) {
  const auto cores = targets();
  if (std::none_of(cores.begin(), cores.end(),
                   [&](const TargetInfo& t) { return t.qemu_machine != nullptr && args.target == t.name; }))
    throw std::runtime_error("--target " + args.target + ": size is measured for " + target_list(true));
  LoadedProgram program(read_file(args.program), args.program);
  const Interpreter& interp = program.interpreter();
  std::string sizes_path;
  const json sizes = read_sizes(args.target, args.sizes, &sizes_path);

  const ProgramSummary summary = summarize(program);
  const uint64_t runtime_bytes = sizes["runtime_text_bytes"].get<uint64_t>();
  json kernels = json::object();
  uint64_t kernel_bytes = 0;
  std::vector<std::string> symbols;
  for (const std::string& kernel : summary.kernels) {
    const std::string symbol = kernel_entry_symbol(kernel_id_from_name(kernel.c_str()));
    if (!sizes["kernels"].contains(symbol))
      throw std::runtime_error(sizes_path + ": no measurement for kernel " + kernel + " (" + symbol +
                               ": a variant for an ISA extension " + args.target +
                               " lacks, or the firmware targets need a rebuild)");
    const uint64_t bytes = sizes["kernels"][symbol].get<uint64_t>();
    kernels[kernel] = bytes;
    kernel_bytes += bytes;
    symbols.push_back(symbol);
  }
  const uint64_t shared_bytes = shared_code_bytes(sizes, sizes_path, symbols);
  std::string stack_unknown;
  const std::optional<uint64_t> stack_bytes = stack_bound(sizes, symbols, &stack_unknown);
  const ProgramHeader& h = program.header();
  const uint64_t code_bytes = runtime_bytes + kernel_bytes - shared_bytes;
  const uint64_t flash = code_bytes + h.total_bytes;
  if (args.json) {
    json out = {{"program", args.program},
                {"target", args.target},
                {"optimization", sizes.value("optimization", "-Os")},
                {"runtime_text_bytes", runtime_bytes},
                {"kernels", kernels},
                {"kernels_text_bytes", kernel_bytes},
                {"shared_text_bytes", shared_bytes},
                {"code_text_bytes", code_bytes},
                {"program_bytes", h.total_bytes},
                {"weights_bytes", summary.weights_bytes},
                {"arena_bytes", h.arena_bytes},
                {"flash_bytes", flash},
                {"ram_bytes", h.arena_bytes},
                {"op_count", interp.op_count()},
                {"measured_from", sizes_path}};
    if (stack_bytes) {
      out["stack_bytes"] = *stack_bytes;
    } else {
      out["stack_bytes"] = nullptr;
      out["stack_unknown"] = stack_unknown;
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  // Rows: a label column as wide as the longest label, then the bytes.
  std::vector<std::pair<std::string, std::string>> rows = {{"flash", "bytes"},
                                                           {"runtime core", with_commas(runtime_bytes)}};
  for (const auto& [name, bytes] : kernels.items())
    rows.emplace_back("kernel " + name, with_commas(bytes.get<uint64_t>()));
  if (shared_bytes > 0)
    rows.emplace_back("shared by the above, once", "-" + with_commas(shared_bytes));
  rows.emplace_back("program (weights + plan)", with_commas(h.total_bytes));
  rows.emplace_back("total flash", with_commas(flash));
  rows.emplace_back("RAM: arena", with_commas(h.arena_bytes));
  rows.emplace_back("RAM: stack (static bound)", stack_bytes ? with_commas(*stack_bytes) : "unknown");
  size_t width = 0;
  for (const auto& row : rows) width = std::max(width, row.first.size());
  std::cout << args.program << " on " << args.target << " (code at "
            << sizes.value("optimization", "-Os") << ")\n";
  size_t value_width = 0;
  for (const auto& row : rows) value_width = std::max(value_width, row.second.size());
  for (const auto& [label, value] : rows)
    std::cout << "  " << pad_right(label, width) << "  " << pad_left(value, value_width) << "\n";
  if (!stack_bytes) std::cout << "  (stack unknown: " << stack_unknown << ")\n";
  std::cout << "  (the stack: below the call to mote_load or mote_run, plus your interrupts and any profiler\n"
               "  callback; plus your firmware's own code, data and stack)\n";
  return 0;
}

// ---------------------------------------------------------------- init-firmware

struct InitFirmwareArgs {
  std::string dir;             // -o DIR
  std::string dir_positional;  // or DIR alone
  std::string target;
  std::string flash;
  std::string ram;
  std::string stack = "8KiB";
  std::string model;
  std::vector<std::string> inputs;
  std::string name;
  std::string mote_from = "sources";
  std::string source_root;
  bool force = false;
};

// `mote init-firmware DIR`: checks everything (the memory map, the folder, the model,
// its inputs and whether the arena and stack fit in RAM) before writing anything, then
// writes model/ (mote compile --emit-c) and the project files (cli/init_firmware.h).
int run_init_firmware(InitFirmwareArgs args) {
  if (!args.dir_positional.empty() && !args.dir.empty() && args.dir_positional != args.dir)
    throw std::runtime_error("init-firmware: two folders given (" + args.dir + " and " + args.dir_positional + ")");
  if (args.dir.empty()) args.dir = args.dir_positional;
  if (args.dir.empty()) throw std::runtime_error("init-firmware: give the folder to write, -o DIR");
  FirmwareProject project;
  project.target = parse_target(args.target);
  if (project.target == Target::kHost)
    throw std::runtime_error("--target host: init-firmware writes a project for a Cortex-M core (" +
                             target_list(true) + ")");
  project.flash = parse_region(args.flash, "--flash");
  project.ram = parse_region(args.ram, "--ram");
  project.flash_text = args.flash;
  project.ram_text = args.ram;
  project.stack_bytes = parse_bytes(args.stack, "--stack");
  project.mote_from = args.mote_from;
  fs::path folder = fs::absolute(args.dir).lexically_normal();
  if (folder.filename().empty()) folder = folder.parent_path();
  project.name = project_identifier(args.name.empty() ? folder.filename().string() : args.name);
  if (!args.name.empty() && project.name != args.name)
    throw std::runtime_error("--name '" + args.name + "': expected a C identifier (letters, digits, _)");
  if (!args.inputs.empty() && args.model.empty()) throw std::runtime_error("--input: give --model too");
  std::string no_qemu;
  project.qemu = qemu_machine_for(project.target, project.flash, project.ram, &no_qemu);
  check_firmware_project(project);

  std::error_code ec;
  if (fs::exists(args.dir, ec) && !fs::is_directory(args.dir, ec))
    throw std::runtime_error(args.dir + ": exists and is not a folder");
  if (fs::is_directory(args.dir, ec) && !fs::is_empty(args.dir, ec) && !args.force)
    throw std::runtime_error(args.dir + ": not empty; init-firmware writes a new project "
                             "(--force writes over the files it writes and keeps the others)");

  CompileArgs compile_args;
  std::vector<uint8_t> program;
  if (!args.model.empty()) {
    compile_args.model = args.model;
    compile_args.target = args.target;
    compile_args.emit_c = (fs::path(args.dir) / "model").string();
    compile_args.emit_sources = args.mote_from == "sources";
    compile_args.source_root = args.source_root;
    CompileResult result = compile(compile_options(compile_args));
    program = std::move(result.program);
    project.model = c_identifier_for_model(args.model);
    LoadedProgram loaded(program, args.model);
    if (!args.inputs.empty()) {
      RunArgs run_args;
      run_args.program = args.model;
      run_args.inputs = args.inputs;
      project.sample_inputs = read_inputs(run_args, loaded.interpreter()).front();
    }
    const uint64_t arena = (static_cast<uint64_t>(result.report.arena_bytes) + 15) / 16 * 16;
    if (arena + project.stack_bytes > project.ram.length)
      throw std::runtime_error("--ram '" + args.ram + "': " + with_commas(project.ram.length) +
                               " bytes, but the arena (" + with_commas(arena) + ") and the stack (" +
                               with_commas(project.stack_bytes) + ") need " +
                               with_commas(arena + project.stack_bytes));
    if (program.size() > project.flash.length)
      throw std::runtime_error("--flash '" + args.flash + "': " + with_commas(project.flash.length) +
                               " bytes, but the program alone has " + with_commas(program.size()));
  }
  const std::vector<GeneratedFile> files = firmware_project_files(project);
  if (!args.model.empty()) emit_c(compile_args, program);
  for (const GeneratedFile& file : files) {
    const fs::path path = fs::path(args.dir) / file.name;
    fs::create_directories(path.parent_path(), ec);
    if (ec) throw std::runtime_error(path.parent_path().string() + ": cannot create folder: " + ec.message());
    write_file_atomically(path.string(), std::vector<uint8_t>(file.text.begin(), file.text.end()));
  }
  std::cout << "wrote " << files.size() << " project files into " << args.dir << " (" << project.name << " for "
            << args.target << ", flash " << args.flash << ", RAM " << args.ram << ", stack "
            << with_commas(project.stack_bytes) << " bytes)\n"
            << "  build    cmake -S " << args.dir << " -B " << (fs::path(args.dir) / "build").string()
            << " && cmake --build " << (fs::path(args.dir) / "build").string() << "\n";
  if (project.qemu.machine.empty())
    std::cout << "  run      no run target: " << no_qemu << "\n";
  else
    std::cout << "  run      cmake --build " << (fs::path(args.dir) / "build").string()
              << " --target run   (qemu-system-arm -M " << project.qemu.machine << ")\n";
  return 0;
}

// The init-firmware subcommand and its options.
CLI::App* add_init_firmware_command(CLI::App& app, InitFirmwareArgs& args) {
  CLI::App* cmd = app.add_subcommand(
      "init-firmware", "Write a minimal bare-metal CMake project for a core and memory map (runs under QEMU)");
  cmd->add_option("-o,--output", args.dir, "Folder to write the project into (new or empty)");
  cmd->add_option("dir", args.dir_positional, "The same folder, given without -o");
  cmd->add_option("--target", args.target, target_list(true))->required();
  cmd->add_option("--flash", args.flash,
                  "Flash ORIGIN:SIZE, e.g. 0x10000000:2MiB (the vector table goes at its origin)")
      ->required();
  cmd->add_option("--ram", args.ram, "RAM ORIGIN:SIZE, e.g. 0x20000000:264KiB")->required();
  cmd->add_option("--stack", args.stack, "Main stack size (default 8KiB)");
  cmd->add_option("--model", args.model,
                  "Model (.onnx or .tflite) compiled with the default options into DIR/model "
                  "(recompile it there with other options: see the project's README.md)");
  cmd->add_option("--input", args.inputs, ".npy per model input: the sample main.c runs (default: zero bytes)");
  cmd->add_option("--mote-from", args.mote_from,
                  "sources (default): the runtime and the model's kernel sources copied into DIR/model/mote; "
                  "package: find_package(Mote), an installed package built for the core")
      ->check(CLI::IsMember({"sources", "package"}));
  cmd->add_option("--name", args.name, "Project and executable name (default: the folder's name)");
  cmd->add_option("--source-root", args.source_root,
                  "Mote's source tree for --mote-from sources (default: as for mote compile --emit-sources)");
  cmd->add_flag("--force", args.force, "Write into a folder that is not empty");
  return cmd;
}

// The .tflite operators, one line each with what they run as (lower/coverage.h), under a
// heading line; README's operator table repeats these lines.
std::string tflite_coverage() {
  const std::vector<TfliteOperator> ops = tflite_operators();
  std::string text = "tflite (" + std::to_string(ops.size() + 1) +
                     " operators): reference kernel dtypes, then optimized kernels (instruction set: dtypes (cores))\n";
  std::vector<std::string> lines;
  for (const TfliteOperator& op : ops) lines.push_back(lower::coverage_line(op.name, lower::coverage_of(op.becomes, op.takes)));
  // The one custom operator: Vela's NPU work (README "Ethos-U").
  lines.push_back(lower::coverage_line("CUSTOM ethos-u", lower::Coverage{{"Vela's NPU op, with --npu: U55/U65/U85 "
                                                                          "streams through the NPU driver (host and QEMU "
                                                                          "runners: the functional model)"},
                                                                         {}}));
  std::sort(lines.begin(), lines.end());
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// The ONNX operators, one line each: for a computing operator the dtypes its Mote ops
// run in from an ONNX model (float32; with --quantize the int8 and int16 kernels of the
// ops quantization takes; any: every dtype) and their optimized variants, for the others
// what import does with them.
std::string onnx_coverage() {
  const std::vector<OnnxOperator> ops = onnx_operators();
  std::string text = "onnx (" + std::to_string(ops.size()) +
                     " operators): float32 and, with --quantize, int8/int16 reference kernels, then optimized "
                     "kernels (instruction set: dtypes (cores))\n";
  for (const OnnxOperator& op : ops) {
    if (op.constant_only) {
      text += lower::coverage_line(op.name, lower::Coverage{{"constant inputs only (evaluated while importing)"}, {}}) +
              "\n";
      continue;
    }
    // The first Mote op listed is what the operator usually becomes (legalize.cc's
    // conversion table): when it stays float under --quantize, so does the operator (a
    // LayerNormalization's layer_norm, whatever the mul and add beside it take).
    const bool stays_float = !op.becomes.empty() &&
                             ir::op_traits(op.becomes.front()).quant_output == ir::QuantOutput::kStaysFloat;
    // An operator narrower than its ops' kernels says what it takes (Exp: float32).
    std::vector<std::string> takes = op.takes;
    for (const char* dtype : {"any", "float32", "int8", "int16"}) {
      const bool quantized = std::string(dtype) == "int8" || std::string(dtype) == "int16";
      if (!op.takes.empty() || (quantized && stays_float)) continue;
      bool runs = false;
      for (ir::Op mote_op : op.becomes) {
        const std::vector<std::string> dtypes = lower::coverage_of({mote_op}).dtypes;
        runs = runs || std::find(dtypes.begin(), dtypes.end(), dtype) != dtypes.end();
      }
      if (runs) takes.push_back(dtype);
    }
    text += lower::coverage_line(op.name, op.becomes.empty() ? lower::Coverage{} : lower::coverage_of(op.becomes, takes)) +
            "\n";
  }
  return text;
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{"Mote: neural networks compiled for Cortex-M microcontrollers"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "mote 0.1.0");

  CompileArgs compile_args;
  CLI::App* compile_cmd = app.add_subcommand("compile", "Compile an ONNX or .tflite model into a .mote program");
  compile_cmd->add_option("model", compile_args.model, "Model file (.onnx or .tflite)")->required();
  compile_cmd->add_option("-o,--output", compile_args.output,
                          "Program file to write (required unless --emit-c or --emit-tflite is given)");
  compile_cmd->add_option("--target", compile_args.target, target_list(false));
  compile_cmd->add_option("--quantize", compile_args.quantize, "Quantize: int8");
  compile_cmd->add_option("--calibration", compile_args.calibration, "Calibration .npy per model input: [N, *input shape], or [N, ...] stacked along an input batch axis of 1");
  compile_cmd->add_option("--calibration-method", compile_args.calibration_method,
                          "Activation ranges: minmax (default), percentile or mse");
  compile_cmd->add_option("--percentile", compile_args.percentile,
                          "Quantile kept by --calibration-method percentile (default 99.99)");
  compile_cmd->add_option("--int16", compile_args.int16,
                          "auto (default): int16 activations (TFLite 16x8) where int8 misses --min-sqnr and "
                          "the arena allows; off: int8 only; all: int16 wherever a kernel exists");
  compile_cmd->add_option("--min-sqnr", compile_args.min_sqnr,
                          "SQNR (dB) against the float model below which --int16 auto widens activations (default 30)");
  compile_cmd->add_option("--weight-rounding", compile_args.weight_rounding,
                          "gptq (default): rounding errors compensated over the calibration inputs; nearest; "
                          "sequential: each layer fitted to the already quantized layers before it");
  compile_cmd->add_option("--weight-scale", compile_args.weight_scale,
                          "search (default): the per-channel step minimising each channel's rounding error; "
                          "max: the step from max|w| clipped on a 2% grid");
  compile_cmd->add_flag("--int8-io", compile_args.int8_io,
                        "Keep int8 model inputs/outputs (no quantize/dequantize inside the program)");
  compile_cmd->add_option("--optimize", compile_args.optimize,
                          "speed (default): the target's fastest kernels, their scratch in the arena; "
                          "memory: a kernel variant whose scratch raises the arena gives way to the "
                          "reference kernel; size: a variant gives way to the op's next variant or its "
                          "reference where that lowers the code linked (as mote size counts it), the "
                          "largest saving first; ops doing 1/32 of the MACs or more keep variants")
      ->check(CLI::IsMember({"speed", "memory", "size"}));
  compile_cmd->add_option("--patching", compile_args.patching,
                          "auto (default): run a CNN's first stages tile by tile where that lowers the arena "
                          "within --max-recompute; off: layer by layer")
      ->check(CLI::IsMember({"auto", "off"}));
  compile_cmd->add_option("--max-recompute", compile_args.max_recompute,
                          "Most extra MACs patching may add, e.g. 10% (default) or 0.25");
  compile_cmd->add_option("--arena-budget", compile_args.arena_budget,
                          "Most arena bytes the program may need, e.g. 140KiB: planned for memory if the "
                          "fast plan exceeds it, refused if nothing fits; --int16 auto may use it up");
  compile_cmd->add_option("--emit-c", compile_args.emit_c,
                          "Write C sources to this directory: <model>.h, <model>.c, <model>_kernels.c and the "
                          "manifest of Mote sources to compile, <model>_sources.txt/.cmake");
  compile_cmd->add_flag("--emit-sources", compile_args.emit_sources,
                        "With --emit-c: also copy the runtime and exactly the sources the model's kernels need "
                        "into DIR/mote (the include directory they need), so one folder builds");
  compile_cmd->add_option("--source-root", compile_args.source_root,
                          "Mote's source tree (runtime/, kernels/) for --emit-c's manifest and --emit-sources "
                          "(default: $MOTE_SOURCE_ROOT, else the tree mote was built from)");
  compile_cmd->add_option("--emit-tflite", compile_args.emit_tflite,
                          "With --quantize int8: write the quantized graph as a standard int8 .tflite "
                          "(for Arm's Vela; bring its _vela.tflite back with --npu)");
  compile_cmd->add_flag("--json", compile_args.json, "Print the compile report as JSON");
  compile_cmd->add_flag_callback(
      "--list-ops",
      [] {
        std::cout << tflite_coverage() << onnx_coverage();
        throw CLI::Success();
      },
      "Print the operators each importer takes (.tflite builtins, ONNX ops) and exit");
  compile_cmd->add_option("--output-tensor", compile_args.output_tensors,
                          "Debugging: also output this intermediate tensor (by name; repeatable)");
  compile_cmd->add_option("--npu", compile_args.npu,
                          "The Ethos-U NPU beside the core, for a Vela-compiled .tflite: " + npu::accelerator_list());
  compile_cmd->add_option("--input-shape", compile_args.input_shapes,
                          "ONNX: a graph input's shape, NAME=D0xD1x... (e.g. x=1x3x96x96), for symbolic dims "
                          "(repeatable; a symbolic batch axis not given is fixed to 1)");

  RunArgs run_args;
  CLI::App* run_cmd = app.add_subcommand("run", "Run a program on the host or an emulated Cortex-M");
  run_cmd->add_option("program", run_args.program, ".mote program")->required();
  run_cmd->add_option("--input", run_args.inputs, ".npy file per model input, in order")->required();
  run_cmd->add_option("--output-dir", run_args.output_dir, "Directory for out<j>.npy")->required();
  run_cmd->add_option("--device", run_args.device, "host, " + target_list(true, "qemu-"));
  run_cmd->add_option("--arena-bytes", run_args.arena_bytes,
                      "Give the runtime this many arena bytes instead of the planned size (host)");
  run_cmd->add_option("--runs", run_args.runs,
                      "Run the program this many times in one load, in order (a model's state carries over); "
                      "--input then lists each run's inputs in turn, outputs go to out<j>.run<r>.npy");
  run_cmd->add_option("--loop-limit", run_args.loop_limit,
                      "Stop a run whose loops (WHILE on the data) take more iterations than this, with an "
                      "error (default " + std::to_string(LoadedProgram::kDefaultLoopLimit) + "; 0: no limit)");
  run_cmd->add_flag("--json", run_args.json, "Print results as one JSON object");

  std::string inspect_path;
  bool inspect_json = false;
  CLI::App* inspect_cmd = app.add_subcommand("inspect", "Describe a .mote program");
  inspect_cmd->add_option("program", inspect_path, ".mote program")->required();
  inspect_cmd->add_flag("--json", inspect_json, "Print as one JSON object");
  std::string inspect_svg;
  inspect_cmd->add_option("--memory-svg", inspect_svg,
                          "Draw the arena over time (op across, offset up) into this SVG file");

  SizeArgs size_args;
  CLI::App* size_cmd = app.add_subcommand("size", "Flash and RAM a program needs on a Cortex-M core");
  size_cmd->add_option("program", size_args.program, ".mote program")->required();
  size_cmd->add_option("--target", size_args.target, target_list(true))
      ->required();
  size_cmd->add_option("--sizes", size_args.sizes, "Size measurements (default: this build's)");
  size_cmd->add_flag("--json", size_args.json, "Print as one JSON object");

  InitFirmwareArgs init_args;
  CLI::App* init_cmd = add_init_firmware_command(app, init_args);

  if (argc > 1 && argv[1][0] != '-' && app.get_subcommands([&](CLI::App* sub) {
        return sub->get_name() == argv[1];
      }).empty()) {
    std::cerr << "error: unknown command '" << argv[1] << "' (expected compile, run, inspect, size or init-firmware)\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line: CLI11's message names the option and the problem.
    std::cerr << "error: " << e.what() << " (see mote --help)\n";
    return 2;
  }

  try {
    if (compile_cmd->parsed()) return run_compile(compile_args);
    if (run_cmd->parsed()) return run_run(run_args);
    if (inspect_cmd->parsed()) return run_inspect(inspect_path, inspect_json, inspect_svg);
    if (size_cmd->parsed()) return run_size(size_args);
    if (init_cmd->parsed()) return run_init_firmware(init_args);
  } catch (const std::exception& e) {
    std::string message = e.what();
    std::replace(message.begin(), message.end(), '\n', ' ');
    std::cerr << "error: " << message << "\n";
    return 1;
  }
  return 1;
}

}  // namespace mote
