#include "model_file_target.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "all_kernels.h"
#include "common/error.h"
#include "compiler.h"
#include "mote/interpreter.h"

namespace mote::fuzz {
namespace {

std::string temp_model_path(const char* extension) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
  return (dir / ("mote-fuzz-" + std::to_string(getpid()) + extension)).string();
}

void write_or_die(const std::string& path, const uint8_t* data, size_t size) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (size != 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  if (std::fclose(f) != 0) std::abort();
}

// A tiny model may declare huge tensors, so a correct program may plan an arena beyond
// the fuzzer's malloc limit (-malloc_limit_mb=1024 in tools/fuzz.sh): such programs are
// compiled but not loaded.
constexpr uint32_t kMaxLoadedArenaBytes = 256u << 20;

// A compiled program is the compiler's promise that the runtime accepts it.
void check_program_loads(const std::vector<uint8_t>& program) {
  ProgramHeader h;
  if (program.size() < sizeof(h)) std::abort();
  std::copy(program.begin(), program.begin() + sizeof(h), reinterpret_cast<uint8_t*>(&h));
  if (h.arena_bytes > kMaxLoadedArenaBytes) return;
  void* block = nullptr;
  if (posix_memalign(&block, kProgramAlignment, program.size()) != 0) std::abort();
  std::copy(program.begin(), program.end(), static_cast<uint8_t*>(block));
  void* arena = nullptr;
  if (posix_memalign(&arena, kArenaAlignment, h.arena_bytes == 0 ? 16 : h.arena_bytes) != 0) std::abort();
  Interpreter interp;
  const Status status = interp.load(Span<const uint8_t>(static_cast<uint8_t*>(block), program.size()),
                                    Span<uint8_t>(static_cast<uint8_t*>(arena), h.arena_bytes),
                                    all_kernels());
  if (status != Status::kOk) {
    std::fprintf(stderr, "compiled program refused by the runtime: %s (op %u, tensor %u)\n",
                 status_string(status), interp.failed_op(), interp.failed_tensor());
    std::abort();
  }
  std::free(arena);
  std::free(block);
}

}  // namespace

void compile_model_bytes(const uint8_t* data, size_t size, const char* extension) {
  static const std::string path = temp_model_path(extension);
  static const bool registered = [] {
    std::atexit([] { std::remove(path.c_str()); });
    return true;
  }();
  (void)registered;
  write_or_die(path, data, size);
  CompileOptions options;
  options.model_path = path;
  try {
    check_program_loads(compile(options).program);
  } catch (const CompileError&) {
  }
}

}  // namespace mote::fuzz
