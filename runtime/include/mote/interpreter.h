// Loads a verified program into a caller-owned arena and runs it.
//
//   mote::Interpreter interp;
//   Status s = interp.load(program, arena, mote::all_kernels());
//   if (s != Status::kOk) { ... interp refuses run() with Status::kNotLoaded ... }
//   memcpy(interp.input_data(0), image, interp.input_desc(0).bytes);
//   s = interp.run();
//   const float* scores = static_cast<const float*>(interp.output_data(0));
//
// Buffers and lifetimes (the caller owns every byte):
//   - program: kProgramAlignment-aligned, read in place, must outlive the interpreter.
//     It may live in flash; the runtime never writes to it.
//   - arena: kArenaAlignment-aligned, at least program arena_bytes long; holds every
//     intermediate tensor, the inputs, the outputs and kernel scratch. Must outlive the
//     interpreter. The planner reuses an input's bytes once the input is consumed, so
//     set every input before each run(); outputs stay valid until the next run().
//   - state: a stateful program (TFLite resource variables, SVDF and LSTM state; the
//     memory report's arena_state_bytes > 0) keeps its persistent tensors in the arena
//     between run()s, so the arena belongs to this interpreter from load() until it is
//     dropped: do not lend it to anything else between runs (the other bytes are free
//     between runs, the state bytes are not).
//     load() and reset_state() make the next run() execute the program's init ops
//     first: they set the state to its initial value (TFLite Micro's reset value) and
//     run TFLite's CALL_ONCE subgraph.
// The interpreter never allocates and holds no pointers besides the two spans and the
// kernel table (48 bytes on a 32-bit core).
#pragma once

#include <stdint.h>

#include "mote/kernel.h"
#include "mote/npu.h"
#include "mote/program_format.h"
#include "mote/span.h"
#include "mote/status.h"

namespace mote {

// Called around each op when passed to run(); `op` is the op index in execution order.
struct ProfileHook {
  void (*op_begin)(void* user, uint32_t op);
  void (*op_end)(void* user, uint32_t op);
  void* user;
};

struct MemoryReport {
  uint32_t program_bytes;      // size of the program
  uint32_t constant_bytes;     // weights and other constant tensors inside the program
  uint32_t arena_planned_bytes;  // what the compiler planned (== what run() touches)
  uint32_t arena_given_bytes;    // length of the span the caller passed
  uint32_t arena_state_bytes;    // of the planned bytes, those kept between runs (state)
};

struct LoadOptions {
  // CRC-32 over the program costs ~10 cycles/byte once at load. Structural verification
  // always runs; only the checksum can be skipped (e.g. when the flash is ECC-protected).
  bool verify_checksum = true;
  // The NPU driver hook (mote/npu.h) for a program with NPU ops (Ethos-U); null when the
  // program has none. Must outlive the interpreter.
  const NpuDriver* npu = nullptr;
};

class Interpreter {
 public:
  Interpreter() = default;
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Verifies the program completely (header, sections, every tensor, every op and its
  // kernel's parameter check) before accepting it. On failure the interpreter stays
  // unloaded and failed_op()/failed_tensor() say where the problem was found.
  Status load(Span<const uint8_t> program, Span<uint8_t> arena, const KernelTable& kernels,
              const LoadOptions& options = LoadOptions());

  bool loaded() const { return loaded_; }

  // Runs every op in order (the init ops only on the first run after load() or
  // reset_state()). Returns kNotLoaded if load() did not succeed, kLoopLimit if the run
  // was stopped by the loop limit (below), kNpuFailed if an NPU op's driver returned an
  // error (npu_error() gives it; the run stops at that op, its outputs are not defined).
  Status run(const ProfileHook* hook = nullptr);

  // Bounds the loop iterations of one run() (0, the default: no bound, as in TFLite).
  // A WHILE whose condition depends on the data runs as a loop in the program (the
  // compiler unrolls those with a constant trip count of up to 16; they do not count),
  // and runs for as long as its condition holds: an input can make it run forever, and
  // so can a program built to. With a limit, run() counts each jump back to an earlier
  // op (one per iteration of any loop, nested ones included) and returns kLoopLimit
  // instead of taking the one past the limit: between two jumps back a run moves forward
  // only, so it executes at most (limit + 1) * op_count() ops. The outputs of such a run are not
  // defined, and a stateful program's state is left as the stopped run had it (call
  // reset_state() to start over). Costs one compare per op.
  void set_loop_limit(uint32_t iterations) { loop_limit_ = iterations; }
  uint32_t loop_limit() const { return loop_limit_; }

  // The value the NPU driver's invoke returned when the last run() ended with
  // kNpuFailed; 0 otherwise.
  int32_t npu_error() const { return npu_.error; }

  // Restarts a stateful program: the next run() executes the init ops again, which
  // return the state to its initial value, so it equals the first run after load().
  // (TFLite Micro's MicroInterpreter::Reset() refills the variables but leaves CALL_ONCE
  // done.) kNotLoaded if load() did not succeed; a no-op for a program without state.
  Status reset_state();

  uint32_t input_count() const;
  uint32_t output_count() const;
  uint32_t op_count() const;
  // Descriptors and data of graph inputs/outputs. Return nullptr when not loaded or
  // the index is out of range.
  const TensorDesc* input_desc(uint32_t i) const;
  const TensorDesc* output_desc(uint32_t i) const;
  void* input_data(uint32_t i);
  const void* output_data(uint32_t i) const;
  // Copies `bytes` into input i; kSizeMismatch unless bytes == input_desc(i)->bytes.
  Status set_input(uint32_t i, const void* data, uint32_t bytes);
  // Copies output i out; kSizeMismatch unless bytes == output_desc(i)->bytes.
  Status get_output(uint32_t i, void* data, uint32_t bytes) const;

  const OpDesc* op_desc(uint32_t op) const;
  // The tensors and parameters of op `op` as its kernel sees them (for reports and
  // tools; run() passes next_op for control ops). Only valid when loaded() and
  // op < op_count().
  OpContext op_context(uint32_t op, uint32_t* next_op = nullptr) const;
  // Name strings from the program (node names, tensor names); "" when absent.
  const char* op_name(uint32_t op) const;
  const char* tensor_name(uint32_t tensor) const;

  MemoryReport memory_report() const;

  // Where the last failed load() found its problem; kNoOffset when not applicable.
  uint32_t failed_op() const { return failed_op_; }
  uint32_t failed_tensor() const { return failed_tensor_; }

 private:
  const char* string_at(uint32_t offset) const;
  const uint32_t* io_list(const OpDesc& op) const;

  const uint8_t* program_ = nullptr;
  const ProgramHeader* header_ = nullptr;
  uint8_t* arena_ = nullptr;
  uint32_t arena_size_ = 0;
  const KernelEntry* const* kernels_ = nullptr;
  uint32_t kernel_count_ = 0;
  uint32_t failed_op_ = kNoOffset;
  uint32_t failed_tensor_ = kNoOffset;
  uint32_t loop_limit_ = 0;
  mutable NpuLink npu_ = {nullptr, 0};  // NPU ops write error through their OpContext
  bool loaded_ = false;
  bool init_pending_ = false;  // the next run() starts at op 0, not init_op_count
};

// CRC-32 (IEEE 802.3, reflected, as zlib's crc32) over `size` bytes, continuing from
// `crc` (the CRC of the bytes before; 0 to start), so crc32(b, n, crc32(a, m)) is the
// CRC of a followed by b.
uint32_t crc32(const uint8_t* data, uint32_t size, uint32_t crc = 0);

// The value ProgramHeader::checksum must hold: CRC-32 of every program byte except the
// checksum field itself (bytes [0, 12) and [16, total_bytes)). The compiler writes it
// with this same function. `total_bytes` must be >= sizeof(ProgramHeader).
uint32_t program_checksum(const uint8_t* program, uint32_t total_bytes);

}  // namespace mote
