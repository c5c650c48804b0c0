// Fuzz target: program bytes -> Interpreter::load -> one run().
//
// The property under test is the runtime's contract (runtime/src/interpreter.cc): no
// program bytes make load() or run() read or write outside the program span or the
// planned part of the arena. The program is copied into a heap block of exactly its size
// and the arena bytes past the program's arena_bytes are poisoned, so ASan reports any
// access outside either span.
//
// load() runs first with the checksum off, so that mutated programs reach the structural
// verifier and the kernels' check(), then with it on (what the CLI and firmware do).
// run() has a loop limit: a WHILE on the data (or a mutated jump) may loop for ever, and
// the limit is the runtime's answer to that; hitting it is a valid outcome.
#include <sanitizer/asan_interface.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "all_kernels.h"
#include "mote/interpreter.h"

namespace {

constexpr size_t kArenaCapacity = size_t{1} << 20;
constexpr uint32_t kLoopLimit = 2000;

uint8_t* arena_block() {
  static uint8_t* arena = [] {
    void* p = nullptr;
    if (posix_memalign(&p, mote::kArenaAlignment, kArenaCapacity) != 0) std::abort();
    return static_cast<uint8_t*>(p);
  }();
  return arena;
}

// The arena span load() is given: exactly the planned size when it fits in the block
// (the rest poisoned), else the whole block (load() then refuses with kArenaTooSmall).
size_t arena_size_for(const uint8_t* program, size_t size) {
  mote::ProgramHeader h;
  if (size < sizeof(h)) return kArenaCapacity;
  std::memcpy(&h, program, sizeof(h));
  return h.arena_bytes <= kArenaCapacity ? h.arena_bytes : kArenaCapacity;
}

void load_and_run(const uint8_t* program, size_t size, uint8_t* arena, size_t arena_size,
                  bool verify_checksum) {
  mote::Interpreter interp;
  mote::LoadOptions options;
  options.verify_checksum = verify_checksum;
  const mote::Status status =
      interp.load(mote::Span<const uint8_t>(program, size), mote::Span<uint8_t>(arena, arena_size),
                  mote::all_kernels(), options);
  if (status != mote::Status::kOk) {
    if (interp.loaded() || interp.run() != mote::Status::kNotLoaded) std::abort();
    return;
  }
  // Inputs hold whatever the previous run left: any bytes are valid input values.
  interp.set_loop_limit(kLoopLimit);
  const mote::Status ran = interp.run();
  if (ran != mote::Status::kOk && ran != mote::Status::kLoopLimit) std::abort();
  // Reading the outputs and names goes through the same verified offsets.
  for (uint32_t i = 0; i < interp.output_count(); ++i) {
    const mote::TensorDesc* desc = interp.output_desc(i);
    const auto* out = static_cast<const volatile uint8_t*>(interp.output_data(i));
    if (desc->bytes != 0) (void)out[desc->bytes - 1];
  }
  for (uint32_t k = 0; k < interp.op_count(); ++k) (void)std::strlen(interp.op_name(k));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A heap block of exactly `size` bytes, 16-aligned (posix_memalign has no size rule).
  void* block = nullptr;
  if (posix_memalign(&block, mote::kProgramAlignment, size == 0 ? 1 : size) != 0) return 0;
  auto* program = static_cast<uint8_t*>(block);
  if (size != 0) std::memcpy(program, data, size);

  uint8_t* arena = arena_block();
  const size_t arena_size = arena_size_for(program, size);
  ASAN_POISON_MEMORY_REGION(arena + arena_size, kArenaCapacity - arena_size);
  load_and_run(program, size, arena, arena_size, /*verify_checksum=*/false);
  load_and_run(program, size, arena, arena_size, /*verify_checksum=*/true);
  ASAN_UNPOISON_MEMORY_REGION(arena + arena_size, kArenaCapacity - arena_size);

  std::free(block);
  return 0;
}
