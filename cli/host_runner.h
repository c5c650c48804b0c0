// Loading and running a program on the host, with the same runtime and kernels the
// firmware uses.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mote/interpreter.h"

namespace mote {

// A program copied into 16-aligned memory with its own arena, loaded and verified.
class LoadedProgram {
 public:
  // Throws std::runtime_error with one line ("PATH: invalid program: ..." or "arena too
  // small: ...") when the runtime refuses the program. `arena_bytes` overrides the arena
  // size (default: exactly what the program plans).
  LoadedProgram(const std::vector<uint8_t>& bytes, const std::string& path,
                std::optional<uint64_t> arena_bytes = std::nullopt);

  Interpreter& interpreter() { return interpreter_; }
  const Interpreter& interpreter() const { return interpreter_; }
  const ProgramHeader& header() const;
  const std::string& path() const { return path_; }

 private:
  struct FreeDeleter {
    void operator()(uint8_t* p) const;
  };
  std::unique_ptr<uint8_t, FreeDeleter> program_;
  std::unique_ptr<uint8_t, FreeDeleter> arena_;
  std::string path_;
  Interpreter interpreter_;
};

struct HostRunResult {
  std::vector<std::vector<uint8_t>> outputs;
  std::vector<double> op_seconds;
  double total_seconds = 0;
};

// Copies inputs in (sizes must match the program's inputs exactly; the caller checks
// shapes first), runs once with per-op timing, copies outputs out.
HostRunResult run_on_host(LoadedProgram& program, const std::vector<std::vector<uint8_t>>& inputs);

// "op 3 'Conv_0'" for messages; "" for kNoOffset.
std::string describe_op(const Interpreter& interpreter, const ProgramHeader& header, uint32_t op,
                        const uint8_t* program);

}  // namespace mote
