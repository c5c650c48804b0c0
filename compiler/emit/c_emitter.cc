#include "emit/c_emitter.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <cstdio>
#include <map>
#include <memory>
#include <regex>
#include <set>

#include "all_kernels.h"
#include "common/error.h"
#include "host/loaded_program.h"
#include "kernel_registry.h"
#include "mote/interpreter.h"

namespace mote {
namespace {

constexpr const char* kGeneratorName = "mote 0.1.0 (mote compile --emit-c)";

// ---------------------------------------------------------------- SHA-256

constexpr std::array<uint32_t, 64> kSha256Rounds = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

uint32_t rotate_right(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void sha256_block(std::array<uint32_t, 8>& state, const uint8_t* block) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = uint32_t{block[4 * i]} << 24 | uint32_t{block[4 * i + 1]} << 16 |
           uint32_t{block[4 * i + 2]} << 8 | uint32_t{block[4 * i + 3]};
  for (int i = 16; i < 64; ++i) {
    const uint32_t s0 = rotate_right(w[i - 15], 7) ^ rotate_right(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const uint32_t s1 = rotate_right(w[i - 2], 17) ^ rotate_right(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int i = 0; i < 64; ++i) {
    const uint32_t t1 = h + (rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25)) +
                        ((e & f) ^ (~e & g)) + kSha256Rounds[i] + w[i];
    const uint32_t t2 = (rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22)) +
                        ((a & b) ^ (a & c) ^ (b & c));
    h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
  }
  state[0] += a, state[1] += b, state[2] += c, state[3] += d;
  state[4] += e, state[5] += f, state[6] += g, state[7] += h;
}

// ---------------------------------------------------------------- source writer

std::string hex(uint64_t value, int digits) {
  static const char kDigits[] = "0123456789abcdef";
  std::string text(digits, '0');
  for (int i = digits - 1; i >= 0; --i, value >>= 4) text[i] = kDigits[value & 0xF];
  return text;
}

// Builds one source file line by line with indentation; the only way text gets into a
// generated file.
class SourceWriter {
 public:
  void line(const std::string& text = "") {
    if (!text.empty()) out_.append(2 * indent_, ' ').append(text);
    out_ += '\n';
  }
  void indent() { ++indent_; }
  void dedent() { --indent_; }
  // A /* ... */ block, one comment line per entry.
  void block_comment(const std::vector<std::string>& lines) {
    line("/*");
    for (const std::string& text : lines) line(text.empty() ? " *" : " * " + text);
    line(" */");
  }
  // Array initializer rows: 16 bytes per line as 0x.., with a trailing comma.
  void byte_rows(const std::vector<uint8_t>& bytes) {
    for (size_t row = 0; row < bytes.size(); row += 16) {
      std::string text;
      for (size_t i = row; i < std::min(bytes.size(), row + 16); ++i)
        text += (i == row ? "0x" : " 0x") + hex(bytes[i], 2) + ",";
      line(text);
    }
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
  int indent_ = 0;
};

// ---------------------------------------------------------------- program facts

struct TensorFacts {
  std::string name;
  std::string dtype;
  std::vector<uint32_t> dims;
  uint32_t bytes;
};

struct ProgramFacts {
  uint32_t program_bytes = 0;
  uint32_t arena_bytes = 0;
  uint32_t arena_lower_bound_bytes = 0;
  uint32_t constant_bytes = 0;
  uint32_t state_bytes = 0;    // arena bytes kept between runs
  uint32_t init_op_count = 0;  // ops run only on the first run
  uint32_t op_count = 0;
  bool npu = false;                     // some op runs on an NPU (Ethos-U)
  uint32_t npu_fast_scratch_bytes = 0;  // the NPU ops' fast scratch (0: none)
  std::vector<KernelId> kernels;  // distinct, by id
  std::vector<std::string> op_lines;  // "op 0  <kernel name>  'Conv_0'  -> [1, 6, 24, 24]"
  std::vector<TensorFacts> inputs, outputs;
};

const char* dtype_c_name(uint8_t dtype) {
  switch (static_cast<DType>(dtype)) {
    case DType::kFloat32: return "float32";
    case DType::kInt8: return "int8";
    case DType::kInt16: return "int16";
    case DType::kInt32: return "int32";
    case DType::kUInt8: return "uint8";
    case DType::kInt64: return "int64";
    case DType::kBool: return "bool";
  }
  return "unknown";
}

TensorFacts tensor_facts(const TensorDesc& desc, const char* name) {
  TensorFacts facts;
  facts.name = name;
  facts.dtype = dtype_c_name(desc.dtype);
  facts.dims.assign(desc.dims, desc.dims + desc.rank);
  facts.bytes = desc.bytes;
  return facts;
}

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return text;
}

std::string shape_text(const std::vector<uint32_t>& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + "]";
}

// Text safe inside a /* */ comment: printable ASCII, no "*/".
std::string comment_safe(const std::string& text) {
  std::string safe;
  for (char c : text) safe += (c >= 0x20 && c < 0x7F) ? c : '?';
  for (size_t at; (at = safe.find("*/")) != std::string::npos;) safe[at] = '?';
  return safe;
}

// Reads the program through the runtime's own verifier, so the generated sources only
// ever hold a program the firmware will accept.
ProgramFacts read_program(const std::vector<uint8_t>& program) {
  if (program.size() < sizeof(ProgramHeader)) throw CompileError("--emit-c: program truncated");
  ProgramHeader header;
  std::memcpy(&header, program.data(), sizeof(header));
  const LoadedProgram loaded(program, "--emit-c: the program");
  const Interpreter& interp = loaded.interpreter();
  ProgramFacts facts;
  facts.npu_fast_scratch_bytes = loaded.fast_scratch_bytes();
  facts.program_bytes = header.total_bytes;
  facts.arena_bytes = header.arena_bytes;
  facts.arena_lower_bound_bytes = header.arena_lower_bound_bytes;
  facts.constant_bytes = interp.memory_report().constant_bytes;
  facts.state_bytes = interp.memory_report().arena_state_bytes;
  facts.init_op_count = header.init_op_count;
  facts.op_count = interp.op_count();
  std::set<uint16_t> ids;
  for (uint32_t k = 0; k < interp.op_count(); ++k) {
    const uint16_t kernel = interp.op_desc(k)->kernel;
    ids.insert(kernel);
    facts.npu = facts.npu || std::strcmp(kernel_name(static_cast<KernelId>(kernel)), "ethos_u") == 0;
    const OpContext ctx = interp.op_context(k);
    std::string result = "(control)";  // jump and branch write no tensor
    if (ctx.output_count() > 0) {
      const TensorDesc& out = ctx.output_desc(0);
      result = std::string(dtype_c_name(out.dtype)) + " " + shape_text(std::vector<uint32_t>(out.dims, out.dims + out.rank));
    }
    facts.op_lines.push_back("op " + std::to_string(k) + "  " + kernel_name(static_cast<KernelId>(kernel)) + "  '" +
                             comment_safe(interp.op_name(k)) + "'  -> " + result);
  }
  for (uint16_t id : ids) facts.kernels.push_back(static_cast<KernelId>(id));
  const auto* pool = reinterpret_cast<const uint32_t*>(loaded.bytes() + header.index_offset);
  for (uint32_t i = 0; i < interp.input_count(); ++i) {
    facts.inputs.push_back(
        tensor_facts(*interp.input_desc(i), interp.tensor_name(pool[header.inputs_first + i])));
  }
  for (uint32_t i = 0; i < interp.output_count(); ++i) {
    facts.outputs.push_back(
        tensor_facts(*interp.output_desc(i), interp.tensor_name(pool[header.outputs_first + i])));
  }
  return facts;
}

std::string kernel_list(const ProgramFacts& facts) {
  std::string text;
  for (KernelId id : facts.kernels) text += (text.empty() ? "" : ", ") + std::string(kernel_name(id));
  return text;
}

// The comment every generated file starts with.
std::vector<std::string> provenance(const EmitCInput& input, const ProgramFacts& facts,
                                    const std::string& what) {
  std::vector<std::string> lines = {
      what,
      "",
      std::string("Generated by ") + kGeneratorName + ". Do not edit.",
      "Model:   " + comment_safe(input.model_file_name) + " (SHA-256 " + input.model_sha256 + ")",
      "Target:  " + comment_safe(input.target),
      "Program: " + std::to_string(facts.program_bytes) + " bytes (" + std::to_string(facts.constant_bytes) +
          " of constants), " + std::to_string(facts.op_count) + " ops",
      "Arena:   " + std::to_string(facts.arena_bytes) + " bytes (schedule lower bound " +
          std::to_string(facts.arena_lower_bound_bytes) + ")"};
  if (facts.state_bytes != 0 || facts.init_op_count != 0) {
    lines.push_back("State:   " + std::to_string(facts.state_bytes) + " of the arena bytes kept between runs; " +
                    std::to_string(facts.init_op_count) + " init ops run on the first run only");
  }
  lines.push_back("Kernels: " + kernel_list(facts));
  return lines;
}

std::string emit_header(const EmitCInput& input, const ProgramFacts& facts, const std::string& id) {
  const std::string prefix = upper(id);
  SourceWriter w;
  std::vector<std::string> intro = provenance(input, facts, id + ".h: the compiled model for firmware.");
  intro.push_back("");
  intro.insert(intro.end(), facts.op_lines.begin(), facts.op_lines.end());
  intro.insert(intro.end(),
               {"", "Link " + id + ".c, " + id + "_kernels.c, the runtime and the kernel library (or the",
                "sources " + id + "_sources.txt lists):",
                "  mote_load(&ctx, " + id + "_program, " + prefix + "_PROGRAM_BYTES, arena, " + prefix +
                    "_ARENA_BYTES,",
                "            " + id + "_kernels());",
                "The arena is the caller's: " + prefix + "_ARENA_BYTES bytes, 16-byte aligned, placed in",
                "whatever RAM section the firmware chooses."});
  if (facts.npu) {
    intro.insert(intro.end(), {"The program has NPU ops: load it with mote_load_npu() and a mote_npu_driver (mote.h;",
                               "platforms/ethos_u/ has one for Arm's Ethos-U core driver)."});
  }
  if (facts.state_bytes != 0) {
    intro.insert(intro.end(), {prefix + "_STATE_BYTES of it hold state between mote_run() calls: keep the arena",
                               "for this context alone from mote_load() on (mote_reset_state() restarts it)."});
  }
  w.block_comment(intro);
  w.line("#ifndef " + prefix + "_MODEL_H_");
  w.line("#define " + prefix + "_MODEL_H_");
  w.line();
  w.line("#include <stdint.h>");
  w.line();
  w.line("#include \"mote/mote.h\"");
  w.line();
  w.line("#ifdef __cplusplus");
  w.line("extern \"C\" {");
  w.line("#endif");
  w.line();
  w.line("/* Size of the program array, and of the arena it needs (exactly, as planned). */");
  w.line("#define " + prefix + "_PROGRAM_BYTES " + std::to_string(facts.program_bytes) + "u");
  w.line("#define " + prefix + "_ARENA_BYTES " + std::to_string(facts.arena_bytes) + "u");
  if (facts.state_bytes != 0) {
    w.line("/* Of the arena, the bytes kept between runs (the model's state). */");
    w.line("#define " + prefix + "_STATE_BYTES " + std::to_string(facts.state_bytes) + "u");
  }
  if (facts.npu_fast_scratch_bytes != 0) {
    w.line("/* The NPU's fast scratch (Ethos-U region 2; mote_npu_driver.fast_scratch): a buffer of its");
    w.line(" * own, 16-byte aligned, in the memory behind the NPU's fast port, not part of the arena. */");
    w.line("#define " + prefix + "_NPU_FAST_SCRATCH_BYTES " + std::to_string(facts.npu_fast_scratch_bytes) + "u");
  }
  w.line();
  auto tensor_macros = [&](const std::vector<TensorFacts>& tensors, const std::string& kind) {
    w.line("#define " + prefix + "_" + upper(kind) + "_COUNT " + std::to_string(tensors.size()) + "u");
    for (size_t i = 0; i < tensors.size(); ++i) {
      const TensorFacts& t = tensors[i];
      w.line("/* " + kind + " " + std::to_string(i) + " \"" + comment_safe(t.name) + "\": " + t.dtype + " " +
             shape_text(t.dims) + " */");
      w.line("#define " + prefix + "_" + upper(kind) + std::to_string(i) + "_BYTES " +
             std::to_string(t.bytes) + "u");
    }
    w.line();
  };
  tensor_macros(facts.inputs, "input");
  tensor_macros(facts.outputs, "output");
  w.line("/* The program (" + id + ".c): 16-byte aligned, in section MOTE_PROGRAM_SECTION. */");
  w.line("extern const uint8_t " + id + "_program[" + prefix + "_PROGRAM_BYTES];");
  w.line();
  w.line("/* The kernels this program uses and no others (" + id + "_kernels.c), for mote_load(). */");
  w.line("const mote_kernel_table* " + id + "_kernels(void);");
  w.line();
  const std::string example = facts.kernels.empty() ? "" : std::string(", e.g. \"") + kernel_name(facts.kernels.back()) + "\"";
  w.line("/* The registry name of a kernel id this table holds (kernels/kernel_registry.inc" + example + ");");
  w.line(" * \"\" for any other id. For reports: the name of op k's kernel is");
  w.line(" * " + id + "_kernel_name(mote_op_kernel(&ctx, k)), and after mote_load() fails with");
  w.line(" * MOTE_MISSING_KERNEL, mote_missing_kernel(&ctx) is an id this table lacks (\"\"). */");
  w.line("const char* " + id + "_kernel_name(uint32_t kernel_id);");
  w.line();
  w.line("#ifdef __cplusplus");
  w.line("}  /* extern \"C\" */");
  w.line("#endif");
  w.line();
  w.line("#endif  /* " + prefix + "_MODEL_H_ */");
  return w.take();
}

std::string emit_program_source(const EmitCInput& input, const ProgramFacts& facts, const std::string& id) {
  const std::string prefix = upper(id);
  SourceWriter w;
  std::vector<std::string> intro = provenance(input, facts, id + ".c: the program bytes.");
  intro.insert(intro.end(), {"", "Placement: define MOTE_PROGRAM_SECTION (e.g. -DMOTE_PROGRAM_SECTION='\".flash_models\"')",
                             "to put the program in a section of your linker script; default \".rodata\"."});
  w.block_comment(intro);
  w.line("#include \"" + id + ".h\"");
  w.line();
  w.line("#ifndef MOTE_PROGRAM_SECTION");
  w.line("#define MOTE_PROGRAM_SECTION \".rodata\"");
  w.line("#endif");
  w.line();
  w.line("__attribute__((section(MOTE_PROGRAM_SECTION), aligned(16)))");
  w.line("const uint8_t " + id + "_program[" + prefix + "_PROGRAM_BYTES] = {");
  w.indent();
  w.byte_rows(input.program);
  w.dedent();
  w.line("};");
  return w.take();
}

// The Itanium C++ ABI name (the Arm C++ ABI's too) of `mote::<name>`, a namespace-scope
// object: what C code must call a kernel entry, since C cannot spell a namespace.
std::string mangled_entry_symbol(KernelId kernel) {
  const std::string name = kernel_entry_symbol(kernel);
  return "_ZN4mote" + std::to_string(name.size()) + name + "E";
}

std::string emit_kernels_source(const EmitCInput& input, const ProgramFacts& facts, const std::string& id) {
  SourceWriter w;
  std::vector<std::string> intro = provenance(input, facts, id + "_kernels.c: the kernel table.");
  intro.insert(intro.end(),
               {"", "Refers only to the kernel entries this program uses, so the linker takes only their",
                "objects from the kernel library (no --whole-archive). Each entry is a C++ object,",
                "mote::k<enumerator>Entry (kernels/kernel_registry.inc); C names it by its C++ symbol",
                "with an asm label, an extension of GCC and Clang (arm-none-eabi-gcc, armclang, the",
                "LLVM Embedded Toolchain for Arm). The file is C99 otherwise: a C-only project compiles",
                "it with its C compiler and links the runtime and kernels as libraries."});
  w.block_comment(intro);
  w.line("#include \"" + id + ".h\"");
  w.line();
  w.line("#if !defined(__GNUC__)");
  w.line("#error \"" + id + "_kernels.c names C++ symbols with asm labels: compile it with GCC or Clang\"");
  w.line("#endif");
  w.line();
  w.line("/* mote::KernelEntry objects (a check and a run function each), by their C++ symbols. */");
  for (KernelId kernel : facts.kernels)
    w.line("extern const struct mote_kernel_entry mote_entry_" + std::string(kernel_name(kernel)) + " __asm__(\"" +
           mangled_entry_symbol(kernel) + "\");");
  w.line();
  const uint32_t count = facts.kernels.empty() ? 1 : static_cast<uint32_t>(facts.kernels.back()) + 1;
  w.line("/* Indexed by kernel id (kernels/kernel_registry.inc); null where this program needs none. */");
  w.line("static const struct mote_kernel_entry* const entries[" + std::to_string(count) + "] = {");
  w.indent();
  for (KernelId kernel : facts.kernels)
    w.line("[" + std::to_string(static_cast<uint32_t>(kernel)) + "] = &mote_entry_" + kernel_name(kernel) + ",");
  w.dedent();
  w.line("};");
  w.line();
  w.line("static const mote_kernel_table table = {entries, " + std::to_string(count) + "u};");
  w.line();
  w.line("const mote_kernel_table* " + id + "_kernels(void) { return &table; }");
  w.line();
  w.line("const char* " + id + "_kernel_name(uint32_t kernel_id) {");
  w.indent();
  w.line("switch (kernel_id) {");
  w.indent();
  for (KernelId kernel : facts.kernels)
    w.line("case " + std::to_string(static_cast<uint32_t>(kernel)) + ": return \"" + kernel_name(kernel) + "\";");
  w.line("default: return \"\";");
  w.dedent();
  w.line("}");
  w.dedent();
  w.line("}");
  return w.take();
}

// ---------------------------------------------------------------- Mote's sources

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}
bool starts_with(const std::string& text, const std::string& head) { return text.rfind(head, 0) == 0; }

// Where --emit-sources puts a source-root path in DIR: runtime/include/mote/X -> mote/mote/X,
// runtime/src/X -> mote/runtime/X, kernels/X -> mote/X; DIR/mote is then the include
// directory of every file (the runtime's "mote/kernel.h", the kernels' "conv2d/conv2d.h").
std::string copied_path(const std::string& path) {
  if (starts_with(path, "runtime/include/")) return "mote/" + path.substr(16);
  if (starts_with(path, "runtime/src/")) return "mote/runtime/" + path.substr(12);
  return "mote/" + path.substr(8);  // kernels/
}

// C++ source text with comments, string and character literals and preprocessor lines
// blanked out (newlines kept), for the scans below.
std::string code_only(const std::string& text) {
  std::string out = text;
  size_t i = 0;
  bool line_start = true;
  while (i < out.size()) {
    const char c = out[i];
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (line_start && c == '#') {  // a directive, with its continuation lines
      while (i < out.size() && out[i] != '\n') {
        if (out[i] == '\\' && i + 1 < out.size() && out[i + 1] == '\n') out[i++] = ' ';
        out[i++] = ' ';
      }
      continue;
    }
    if (c != ' ' && c != '\t') line_start = false;
    if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
      const size_t close = out.find("*/", i + 2);
      const size_t stop = close == std::string::npos ? out.size() : close + 2;
      for (; i < stop; ++i)
        if (out[i] != '\n') out[i] = ' ';
    } else if (c == '"' || c == '\'') {
      out[i++] = ' ';
      while (i < out.size() && out[i] != c && out[i] != '\n') {
        if (out[i] == '\\' && i + 1 < out.size()) out[i++] = ' ';
        out[i++] = ' ';
      }
      if (i < out.size() && out[i] == c) out[i++] = ' ';
    } else {
      ++i;
    }
  }
  return out;
}

// The file names of a source's #include "..." lines (not <...>).
std::vector<std::string> quoted_includes(const std::string& text) {
  std::vector<std::string> names;
  static const std::regex include_line(R"re(^[ \t]*#[ \t]*include[ \t]*"([^"]+)")re", std::regex::multiline);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), include_line); it != std::sregex_iterator(); ++it)
    names.push_back((*it)[1]);
  return names;
}

// Identifiers and single punctuation characters ("::" and "->" as one token).
std::vector<std::string> tokens(const std::string& code) {
  std::vector<std::string> out;
  for (size_t i = 0; i < code.size();) {
    const unsigned char c = static_cast<unsigned char>(code[i]);
    if (std::isalpha(c) || c == '_') {
      size_t j = i;
      while (j < code.size() && (std::isalnum(static_cast<unsigned char>(code[j])) || code[j] == '_')) ++j;
      out.push_back(code.substr(i, j - i));
      i = j;
    } else if (std::isdigit(c)) {
      while (i < code.size() && (std::isalnum(static_cast<unsigned char>(code[i])) || code[i] == '.' || code[i] == '\'')) ++i;
    } else if (std::isspace(c)) {
      ++i;
    } else if ((c == ':' || c == '-') && i + 1 < code.size() && code[i + 1] == (c == ':' ? ':' : '>')) {
      out.push_back(code.substr(i, 2));
      i += 2;
    } else {
      out.push_back(std::string(1, static_cast<char>(c)));
      ++i;
    }
  }
  return out;
}

bool is_identifier(const std::string& token) {
  return !token.empty() && (std::isalpha(static_cast<unsigned char>(token[0])) || token[0] == '_');
}

// What a source defines and refers to, from its tokens (code_only() text).
struct SourceNames {
  // Functions defined with external linkage: at namespace scope outside anonymous
  // namespaces, not static, not templates.
  std::set<std::string> defined;
  // Identifiers inside braces other than a namespace's (function bodies, initializers
  // such as a variant's entry naming its reference's check function), not after '.' or
  // '->'. Declarations at namespace scope do not count: a header declaring a family's
  // functions needs none of them.
  std::set<std::string> referenced;
};

SourceNames source_names(const std::string& code) {
  enum class Scope { kNamespace, kHidden, kOther };  // hidden: an anonymous namespace
  std::vector<Scope> scopes;
  std::vector<std::string> statement;  // tokens since the last ; { or }
  SourceNames names;
  std::set<std::string> local;  // every function the file defines, at namespace scope
  std::string previous;
  const auto in_namespaces = [&](bool exported_only) {
    return std::all_of(scopes.begin(), scopes.end(), [&](Scope s) {
      return s == Scope::kNamespace || (!exported_only && s == Scope::kHidden);
    });
  };
  const std::vector<std::string> all = tokens(code);
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string& token = all[i];
    if (token == "__attribute__" || token == "alignas") {  // __attribute__((noinline)): not a name
      int depth = 0;
      while (i + 1 < all.size() && (all[i + 1] == "(" || depth > 0)) {
        depth += all[i + 1] == "(" ? 1 : all[i + 1] == ")" ? -1 : 0;
        ++i;
        if (depth == 0) break;
      }
      continue;
    }
    if (is_identifier(token) && previous != "." && previous != "->" && !in_namespaces(false))
      names.referenced.insert(token);
    previous = token;
    if (token == "{") {
      Scope scope = Scope::kOther;
      if (!statement.empty() && statement[0] == "namespace")
        scope = statement.size() > 1 && is_identifier(statement[1]) ? Scope::kNamespace : Scope::kHidden;
      else if (statement.size() == 1 && statement[0] == "extern")  // extern "C" { (the string is blanked)
        scope = Scope::kNamespace;
      const auto open = std::find(statement.begin(), statement.end(), "(");
      const bool function = scope == Scope::kOther && in_namespaces(false) && open != statement.end() &&
                            open != statement.begin() && is_identifier(*(open - 1)) &&
                            std::find(statement.begin(), open, "=") == open && statement[0] != "struct" &&
                            statement[0] != "class" && statement[0] != "union" && statement[0] != "enum";
      if (function) {
        local.insert(*(open - 1));
        if (in_namespaces(true) && std::find(statement.begin(), statement.end(), "static") == statement.end() &&
            std::find(statement.begin(), statement.end(), "template") == statement.end())
          names.defined.insert(*(open - 1));
      }
      scopes.push_back(scope);
      statement.clear();
    } else if (token == "}") {
      if (!scopes.empty()) scopes.pop_back();
      statement.clear();
    } else if (token == ";") {
      statement.clear();
    } else {
      statement.push_back(token);
    }
  }
  // A file's own functions (an anonymous namespace's copy_run) are not another file's.
  for (const std::string& name : local) names.referenced.erase(name);
  return names;
}

// Mote's checkout (runtime/, kernels/) read for the sources of a firmware.
class SourceTree {
 public:
  explicit SourceTree(std::string root) : root_(std::move(root)) {
    for (const char* marker : {"runtime/include/mote/mote.h", "kernels/kernel_registry.inc"})
      if (!std::filesystem::is_regular_file(std::filesystem::path(root_) / marker))
        throw CompileError(root_ + ": not a Mote source tree (no " + marker + ")");
  }

  std::string read(const std::string& path) const {
    const std::filesystem::path file = std::filesystem::path(root_) / path;
    std::FILE* f = std::fopen(file.string().c_str(), "rb");
    if (f == nullptr) throw CompileError(file.string() + ": missing from the Mote source tree");
    std::string text;
    char buffer[65536];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, n);
    std::fclose(f);
    return text;
  }

  // runtime/src and runtime/include/mote, every .cc/.h file.
  std::vector<std::string> runtime_files() const {
    std::vector<std::string> files;
    for (const char* folder : {"runtime/include/mote", "runtime/src"}) {
      std::error_code ec;
      for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(root_) / folder, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && (ends_with(name, ".cc") || ends_with(name, ".h")))
          files.push_back(std::string(folder) + "/" + name);
      }
      if (ec) throw CompileError(root_ + "/" + folder + ": " + ec.message());
    }
    std::sort(files.begin(), files.end());
    return files;
  }

  // The kernels/ files the given kernel sources need (firmware_sources()).
  std::vector<std::string> kernel_closure(const std::vector<std::string>& roots) {
    std::set<std::string> files;
    std::set<std::string> used;
    std::vector<std::string> pending = roots;
    while (!pending.empty()) {
      while (!pending.empty()) {
        const std::string path = pending.back();
        pending.pop_back();
        if (!files.insert(path).second) continue;
        const std::string text = read(path);
        for (const std::string& name : quoted_includes(text)) {
          const std::string header = resolve_include(path, name);
          if (starts_with(header, "kernels/")) pending.push_back(header);
        }
        // Headers too: an inline function may call a .cc file's function.
        const std::set<std::string> names = source_names(code_only(text)).referenced;
        used.insert(names.begin(), names.end());
      }
      for (const auto& [source, defined] : kernel_definitions()) {
        if (files.count(source) != 0) continue;
        if (std::any_of(defined.begin(), defined.end(), [&](const std::string& f) { return used.count(f) != 0; }))
          pending.push_back(source);
      }
    }
    for (const std::string& path : files)
      if (starts_with(path, "kernels/mote/") || starts_with(path, "kernels/runtime/"))
        throw CompileError(root_ + "/" + path + ": a kernels/ folder named like the runtime's cannot be copied");
    return std::vector<std::string>(files.begin(), files.end());
  }

 private:
  // An #include "name" of `from`: beside it, then in kernels/, then runtime/include.
  std::string resolve_include(const std::string& from, const std::string& name) const {
    const std::filesystem::path beside = std::filesystem::path(from).parent_path() / name;
    for (const std::filesystem::path& candidate :
         {beside, std::filesystem::path("kernels") / name, std::filesystem::path("runtime/include") / name}) {
      const std::string relative = candidate.lexically_normal().generic_string();
      if (std::filesystem::is_regular_file(std::filesystem::path(root_) / relative)) return relative;
    }
    throw CompileError(root_ + "/" + from + ": #include \"" + name +
                       "\" is in neither its folder, kernels/ nor runtime/include");
  }

  // Per kernels/ .cc file, the functions it defines (defined_functions()).
  const std::map<std::string, std::set<std::string>>& kernel_definitions() {
    if (!definitions_.empty()) return definitions_;
    const std::filesystem::path kernels = std::filesystem::path(root_) / "kernels";
    for (const auto& entry : std::filesystem::recursive_directory_iterator(kernels)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".cc") continue;
      const std::string path = "kernels/" + entry.path().lexically_relative(kernels).generic_string();
      definitions_[path] = source_names(code_only(read(path))).defined;
    }
    return definitions_;
  }

  std::string root_;
  std::map<std::string, std::set<std::string>> definitions_;
};

// The source root as the manifests name it: absolute, normalized, '/'-separated, no
// trailing '/'.
std::string absolute_root(const std::string& root) {
  std::string path = std::filesystem::absolute(root).lexically_normal().generic_string();
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

// <id>_sources.txt: one file to compile per line.
std::string emit_sources_list(const std::vector<std::string>& compiled) {
  std::string text;
  for (const std::string& path : compiled) text += path + "\n";
  return text;
}

// <id>_sources.cmake: <ID>_SOURCES and <ID>_INCLUDE_DIRS, absolute through
// CMAKE_CURRENT_LIST_DIR (the generated files) and <ID>_MOTE_SOURCE_DIR (the checkout's).
std::string emit_sources_cmake(const EmitCInput& input, const ProgramFacts& facts, const std::string& id,
                               const std::vector<std::string>& compiled) {
  const std::string prefix = upper(id);
  SourceWriter w;
  std::vector<std::string> intro = provenance(input, facts, id + "_sources.cmake: the sources a firmware compiles for " + id + ".");
  for (std::string& line : intro) line = "# " + line;
  for (const std::string& line : intro) w.line(line == "# " ? "#" : line);
  w.line("#");
  w.line("#   include(" + id + "_sources.cmake)");
  w.line("#   target_sources(app PRIVATE ${" + prefix + "_SOURCES})");
  w.line("#   target_include_directories(app PRIVATE ${" + prefix + "_INCLUDE_DIRS})");
  w.line("# C++17 for the .cc files, without exceptions or RTTI (-fno-exceptions -fno-rtti); with");
  w.line("# -ffunction-sections -fdata-sections and --gc-sections only the code used stays.");
  std::string root = "${CMAKE_CURRENT_LIST_DIR}";
  if (!input.copy_sources) {
    w.line("set(" + prefix + "_MOTE_SOURCE_DIR \"" + absolute_root(input.source_root) + "\")");
    root = "${" + prefix + "_MOTE_SOURCE_DIR}";
  }
  w.line("set(" + prefix + "_SOURCES");
  w.indent();
  for (const std::string& path : compiled) {
    const bool generated = path == id + ".c" || path == id + "_kernels.c";
    w.line((generated ? std::string("${CMAKE_CURRENT_LIST_DIR}") : root) + "/" + path);
  }
  w.dedent();
  w.line(")");
  std::vector<std::string> v6m;
  for (const std::string& path : compiled)
    if (path.ends_with("__v6m.cc")) v6m.push_back(root + "/" + path);
  if (!v6m.empty()) {
    w.line("# The ARMv6-M kernels at -O2 even in a -Os build: their inline assembly needs r8-r11,");
    w.line("# which GCC withholds on Thumb-1 at -Os (they would fall back to portable loops, 3x slower).");
    w.line("set(" + prefix + "_SPEED_SOURCES");
    w.indent();
    for (const std::string& path : v6m) w.line(path);
    w.dedent();
    w.line(")");
    w.line("set_source_files_properties(${" + prefix + "_SPEED_SOURCES} PROPERTIES COMPILE_OPTIONS -O2)");
  }
  if (input.copy_sources)
    w.line("set(" + prefix + "_INCLUDE_DIRS ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_CURRENT_LIST_DIR}/mote)");
  else
    w.line("set(" + prefix + "_INCLUDE_DIRS ${CMAKE_CURRENT_LIST_DIR} " + root + "/runtime/include " + root + "/kernels)");
  return w.take();
}

}  // namespace

std::string sha256_hex(const std::vector<uint8_t>& bytes) {
  std::array<uint32_t, 8> state = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  const size_t full = bytes.size() / 64 * 64;
  for (size_t at = 0; at < full; at += 64) sha256_block(state, bytes.data() + at);
  // Padding: 0x80, zeros, then the bit length as a big-endian 64-bit number.
  uint8_t tail[128] = {};
  const size_t rest = bytes.size() - full;
  if (rest != 0) std::memcpy(tail, bytes.data() + full, rest);
  tail[rest] = 0x80;
  const size_t tail_bytes = rest < 56 ? 64 : 128;
  const uint64_t bits = uint64_t{bytes.size()} * 8;
  for (int i = 0; i < 8; ++i) tail[tail_bytes - 1 - i] = static_cast<uint8_t>(bits >> (8 * i));
  for (size_t at = 0; at < tail_bytes; at += 64) sha256_block(state, tail + at);
  std::string digest;
  for (uint32_t word : state) digest += hex(word, 8);
  return digest;
}

std::string c_identifier_for_model(const std::string& model_path) {
  std::string id = std::filesystem::path(model_path).stem().string();
  for (char& c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "model_" + id;
  return id;
}

FirmwareSources firmware_sources(const std::string& source_root, const std::vector<uint16_t>& kernel_ids) {
  SourceTree tree(source_root);
  FirmwareSources sources;
  sources.runtime = tree.runtime_files();
  std::vector<std::string> roots;
  for (uint16_t id : kernel_ids) {
    const char* source = kernel_source(static_cast<KernelId>(id));
    if (*source == '\0') throw CompileError("the program uses kernel id " + std::to_string(id) + ", which Mote does not have");
    roots.push_back(std::string("kernels/") + source);
  }
  sources.kernels = tree.kernel_closure(roots);
  return sources;
}

std::vector<GeneratedFile> emit_c_sources(const EmitCInput& input) {
  const ProgramFacts facts = read_program(input.program);
  const std::string id = c_identifier_for_model(input.model_file_name);
  std::vector<GeneratedFile> files = {{id + ".h", emit_header(input, facts, id)},
                                      {id + ".c", emit_program_source(input, facts, id)},
                                      {id + "_kernels.c", emit_kernels_source(input, facts, id)}};
  if (input.source_root.empty()) {
    if (input.copy_sources) throw CompileError("--emit-sources: no Mote source tree to copy from");
    return files;
  }
  std::vector<uint16_t> ids;
  for (KernelId kernel : facts.kernels) ids.push_back(static_cast<uint16_t>(kernel));
  const FirmwareSources sources = firmware_sources(input.source_root, ids);
  std::vector<std::string> all = sources.runtime;
  all.insert(all.end(), sources.kernels.begin(), sources.kernels.end());
  std::vector<std::string> compiled = {id + ".c", id + "_kernels.c"};
  for (const std::string& path : all)
    if (ends_with(path, ".cc")) compiled.push_back(input.copy_sources ? copied_path(path) : path);
  // The list names the checkout's files by absolute path (its relative paths are DIR's).
  std::vector<std::string> listed = compiled;
  if (!input.copy_sources)
    for (size_t i = 2; i < listed.size(); ++i) listed[i] = absolute_root(input.source_root) + "/" + listed[i];
  files.push_back({id + "_sources.txt", emit_sources_list(listed)});
  files.push_back({id + "_sources.cmake", emit_sources_cmake(input, facts, id, compiled)});
  if (input.copy_sources) {
    SourceTree tree(input.source_root);
    for (const std::string& path : all) files.push_back({copied_path(path), tree.read(path)});
  }
  return files;
}

}  // namespace mote
