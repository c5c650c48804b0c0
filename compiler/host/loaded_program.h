// A program loaded into the host runtime, the one way the compiler (constant folding,
// calibration, accuracy checks) and the CLI (`mote run`, `inspect`, `size`) run or read a
// program on the host: the bytes are copied into 16-byte-aligned memory with an arena of
// their own and verified by the same loader, and run with the same kernels
// (kernels/all_kernels.h), as on a device. A stateful program keeps its state from one
// run() to the next on the same LoadedProgram (interpreter().reset_state() restarts it);
// the first run() sets it (the init ops), whatever the arena fill.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mote/interpreter.h"
#include "mote/npu.h"

namespace mote {

class LoadedProgram {
 public:
  // Throws CompileError with one line ("WHAT: invalid program: STATUS (op 3 'conv')" or
  // "WHAT: arena too small: ...") when the runtime refuses the program. `what` names it
  // in messages (its path, or what the compiler runs it for). `arena_bytes` overrides the
  // arena size (default: exactly what the program plans); the arena starts filled with
  // `arena_fill` (tests fill it with garbage so that reading unwritten memory shows).
  // A program with NPU ops (Ethos-U) runs them through `npu` (tests pass a recording
  // driver); by default through the host's own NPU driver, the functional model of the
  // Ethos-U55/U65/U85 (platforms/ethos_u/ethos_u_model.h), with a fast scratch as large as
  // the program's NPU ops need. A command stream the model refuses (a U85 branch, an access
  // past a region, ...) stops run() with the model's error.
  LoadedProgram(std::span<const uint8_t> bytes, std::string what,
                std::optional<uint64_t> arena_bytes = std::nullopt, uint8_t arena_fill = 0,
                const NpuDriver* npu = nullptr);

  Interpreter& interpreter() { return interpreter_; }
  const Interpreter& interpreter() const { return interpreter_; }
  const ProgramHeader& header() const;
  const uint8_t* bytes() const { return program_.get(); }
  const std::string& what() const { return what_; }
  // The fast scratch the host's NPU driver holds for the program's NPU ops (0: none, or a
  // driver given by the caller).
  uint32_t fast_scratch_bytes() const { return host_npu_.fast_scratch_bytes; }

  // Copies input i in; its size must be exactly the input tensor's. Throws CompileError.
  void set_input(uint32_t i, std::span<const uint8_t> data);
  // The loop limit every LoadedProgram starts with (Interpreter::set_loop_limit; 0 would be
  // none): a WHILE on the data that never ends must not hang the compiler (calibration,
  // folding) or `mote run`, which sets its own with --loop-limit.
  static constexpr uint32_t kDefaultLoopLimit = 1'000'000;

  // One inference; `hook` (may be null) is called around each op. Throws CompileError
  // (also when the loop limit stops the run).
  void run(const ProfileHook* hook = nullptr);
  // Output i after run(): its bytes, or as float32 (the caller knows the dtype).
  std::span<const uint8_t> output(uint32_t i) const;
  const float* float_output(uint32_t i) const { return static_cast<const float*>(interpreter_.output_data(i)); }

  // "op 3 'Conv_0'" for messages; "" for kNoOffset.
  std::string describe_op(uint32_t op) const;

 private:
  struct FreeDeleter {
    void operator()(uint8_t* p) const;
  };
  std::unique_ptr<uint8_t, FreeDeleter> program_;
  std::unique_ptr<uint8_t, FreeDeleter> arena_;
  size_t program_bytes_ = 0;
  std::string what_;
  NpuDriver host_npu_{};
  struct HostNpuModel;  // the functional model and its workspace
  struct HostNpuModelDeleter {
    void operator()(HostNpuModel* p) const;
  };
  std::unique_ptr<HostNpuModel, HostNpuModelDeleter> host_model_;
  bool uses_host_npu_ = false;
  std::unique_ptr<uint8_t, FreeDeleter> fast_scratch_;
  Interpreter interpreter_;

  Status load(std::span<const uint8_t> bytes, uint64_t arena_size, const NpuDriver* npu);
  uint32_t fast_scratch_needed(std::span<const uint8_t> bytes, uint64_t arena_size);
};

}  // namespace mote
