// Generated firmware sources for one compiled program (`mote compile --emit-c DIR`).
//
// For a model file `lenet5_28.onnx` (identifier `lenet5_28`, macro prefix `LENET5_28`):
//   lenet5_28_model.h    C99 header: LENET5_28_ARENA_BYTES, LENET5_28_PROGRAM_BYTES, the
//                        input/output sizes, and declarations of the program array and
//                        lenet5_28_kernels() / lenet5_28_kernel_name()
//   lenet5_28_model.c    C99: `const uint8_t lenet5_28_program[]`, 16-byte aligned, in
//                        section MOTE_PROGRAM_SECTION (default ".rodata"; define it on the
//                        compiler command line to place the program elsewhere)
//   lenet5_28_kernels.cc C++17: the kernel table holding exactly the program's kernels,
//                        as references to their KernelEntry objects (k<enumerator>Entry,
//                        kernels/kernel_registry.h kernel_entry_symbol()),
//                        so linking against the kernel library pulls in only those objects
//                        (no --whole-archive, no static registration)
// The text is a pure function of (program bytes, model file name and hash, target): the
// same input gives byte-identical files. Nothing in it depends on time or paths.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mote {

struct GeneratedFile {
  std::string name;  // file name, no directory
  std::string text;
};

struct EmitCInput {
  std::vector<uint8_t> program;  // a valid program (as compile() returns it)
  std::string model_file_name;   // e.g. "lenet5_28.onnx" (no directory)
  std::string model_sha256;      // hex digest of the model file's bytes
  std::string target;            // e.g. "cortex-m4"
};

// The three files described above. Throws CompileError when the program cannot be read
// (it is verified with the runtime's own loader first).
std::vector<GeneratedFile> emit_c_sources(const EmitCInput& input);

// C identifier for a model file: its stem with every character outside [A-Za-z0-9_]
// replaced by '_', prefixed with "model_" when it would start with a digit or be empty.
std::string c_identifier_for_model(const std::string& model_path);

// SHA-256 of `bytes` as 64 lowercase hex digits (FIPS 180-4).
std::string sha256_hex(const std::vector<uint8_t>& bytes);

}  // namespace mote
