// Generated firmware sources for one compiled program (`mote compile --emit-c DIR`).
//
// For a model file `lenet5_28.onnx` (identifier `lenet5_28`, macro prefix `LENET5_28`)
// the files are named after the identifier alone:
//   lenet5_28.h          C99 header: LENET5_28_ARENA_BYTES, LENET5_28_PROGRAM_BYTES, the
//                        input/output sizes, and declarations of the program array and
//                        lenet5_28_kernels() / lenet5_28_kernel_name()
//   lenet5_28.c          C99: `const uint8_t lenet5_28_program[]`, 16-byte aligned, in
//                        section MOTE_PROGRAM_SECTION (default ".rodata"; define it on the
//                        compiler command line to place the program elsewhere)
//   lenet5_28_kernels.c  C99 (with the GCC/Clang asm-label extension): the kernel table
//                        holding exactly the program's kernels, as references to their
//                        mote::KernelEntry objects by C++ symbol (k<enumerator>Entry,
//                        kernels/kernel_registry.h kernel_entry_symbol()), so linking
//                        against the kernel library pulls in only those objects (no
//                        --whole-archive, no static registration)
// With a source root (Mote's checkout: runtime/ and kernels/), also the manifest of the
// Mote sources a firmware compiles for this program:
//   lenet5_28_sources.txt    one path per line, the .c/.cc files to compile: the
//                            generated ones and copies relative to DIR, the checkout's
//                            absolute
//   lenet5_28_sources.cmake  LENET5_28_SOURCES and LENET5_28_INCLUDE_DIRS for CMake
// naming the checkout's files, or with copy_sources (`--emit-sources`) copies of them in
// DIR/mote/ (runtime/include/mote -> mote/mote, runtime/src -> mote/runtime, kernels/X ->
// mote/X), so that DIR/mote is the one include directory Mote's sources need.
// The text is a pure function of (program bytes, model file name and hash, target, the
// source root's path and files): the same input gives byte-identical files. Nothing in
// it depends on time.
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
  std::string source_root;       // Mote's source tree; empty: no manifest, no copies
  bool copy_sources = false;     // copy the sources into DIR/mote (needs source_root)
};

// The files described above, generated files first; a copied source's name has its
// folder ("mote/runtime/interpreter.cc"). Throws CompileError when the program cannot be
// read (it is verified with the runtime's own loader first) or a source is missing.
std::vector<GeneratedFile> emit_c_sources(const EmitCInput& input);

// The Mote sources a firmware compiles and includes for the given kernels, as paths
// relative to the source root ('/'-separated, sorted):
//   runtime: every file of runtime/src and runtime/include/mote;
//   kernels: the kernels' own sources, the headers they include (transitively, from
//     their #include "..." lines, resolved like the compiler: beside the including
//     file, then kernels/, then runtime/include), and the .cc files that define a
//     function those sources call (found by scanning each kernels/ .cc file for the
//     functions it defines outside anonymous namespaces), transitively.
// Throws CompileError naming the file when the root lacks one the kernels need.
struct FirmwareSources {
  std::vector<std::string> runtime;
  std::vector<std::string> kernels;
};
FirmwareSources firmware_sources(const std::string& source_root, const std::vector<uint16_t>& kernel_ids);

// C identifier for a model file: its stem with every character outside [A-Za-z0-9_]
// replaced by '_', prefixed with "model_" when it would start with a digit or be empty.
std::string c_identifier_for_model(const std::string& model_path);

// SHA-256 of `bytes` as 64 lowercase hex digits (FIPS 180-4).
std::string sha256_hex(const std::vector<uint8_t>& bytes);

}  // namespace mote
