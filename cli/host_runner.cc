#include "host_runner.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "all_kernels.h"

namespace mote {
namespace {

uint8_t* aligned_copy(const uint8_t* data, size_t size, size_t capacity) {
  const size_t rounded = ((capacity == 0 ? 16 : capacity) + 15) / 16 * 16;
  auto* p = static_cast<uint8_t*>(std::aligned_alloc(16, rounded));
  if (p == nullptr) throw std::runtime_error("out of host memory");
  std::memset(p, 0, rounded);
  if (size != 0) std::memcpy(p, data, size);
  return p;
}

std::string op_name_from_header(const ProgramHeader& h, const uint8_t* program, uint32_t op) {
  if (op >= h.op_count || !(uint64_t{h.ops_offset} + uint64_t{h.op_count} * sizeof(OpDesc) <= h.total_bytes))
    return "";
  OpDesc desc;
  std::memcpy(&desc, program + h.ops_offset + op * sizeof(OpDesc), sizeof(desc));
  if (desc.name_offset == kNoOffset || desc.name_offset >= h.strings_bytes ||
      uint64_t{h.strings_offset} + h.strings_bytes > h.total_bytes)
    return "";
  const char* s = reinterpret_cast<const char*>(program + h.strings_offset + desc.name_offset);
  return std::string(s, strnlen(s, h.strings_bytes - desc.name_offset));
}

}  // namespace

void LoadedProgram::FreeDeleter::operator()(uint8_t* p) const { std::free(p); }

std::string describe_op(const Interpreter&, const ProgramHeader& header, uint32_t op,
                        const uint8_t* program) {
  if (op == kNoOffset) return "";
  std::string name = op_name_from_header(header, program, op);
  return "op " + std::to_string(op) + (name.empty() ? "" : " '" + name + "'");
}

LoadedProgram::LoadedProgram(const std::vector<uint8_t>& bytes, const std::string& path,
                             std::optional<uint64_t> arena_bytes)
    : path_(path) {
  program_.reset(aligned_copy(bytes.data(), bytes.size(), bytes.size()));
  ProgramHeader h{};
  if (bytes.size() >= sizeof(h)) std::memcpy(&h, bytes.data(), sizeof(h));
  const uint64_t planned = bytes.size() >= sizeof(h) && h.magic == kProgramMagic ? h.arena_bytes : 0;
  const uint64_t arena_size = arena_bytes.value_or(planned);
  arena_.reset(aligned_copy(nullptr, 0, arena_size));

  const Status status = interpreter_.load(Span<const uint8_t>(program_.get(), bytes.size()),
                                          Span<uint8_t>(arena_.get(), arena_size), all_kernels());
  if (status == Status::kOk) return;
  if (status == Status::kArenaTooSmall)
    throw std::runtime_error(path + ": arena too small: program needs " + std::to_string(planned) +
                             " bytes, given " + std::to_string(arena_size));
  std::string where = describe_op(interpreter_, h, interpreter_.failed_op(), program_.get());
  if (interpreter_.failed_tensor() != kNoOffset)
    where = "tensor " + std::to_string(interpreter_.failed_tensor());
  throw std::runtime_error(path + ": invalid program: " + status_string(status) +
                           (where.empty() ? "" : " (" + where + ")"));
}

const ProgramHeader& LoadedProgram::header() const {
  return *reinterpret_cast<const ProgramHeader*>(program_.get());
}

HostRunResult run_on_host(LoadedProgram& program, const std::vector<std::vector<uint8_t>>& inputs) {
  Interpreter& interp = program.interpreter();
  for (uint32_t i = 0; i < inputs.size(); ++i) {
    const Status status = interp.set_input(i, inputs[i].data(), static_cast<uint32_t>(inputs[i].size()));
    if (status != Status::kOk)
      throw std::runtime_error("input " + std::to_string(i) + ": " + status_string(status));
  }
  using Clock = std::chrono::steady_clock;
  struct Timing {
    std::vector<double> seconds;
    Clock::time_point start;
  } timing;
  timing.seconds.assign(interp.op_count(), 0.0);
  ProfileHook hook;
  hook.user = &timing;
  hook.op_begin = [](void* user, uint32_t) { static_cast<Timing*>(user)->start = Clock::now(); };
  hook.op_end = [](void* user, uint32_t op) {
    auto* t = static_cast<Timing*>(user);
    t->seconds[op] = std::chrono::duration<double>(Clock::now() - t->start).count();
  };
  const auto start = Clock::now();
  const Status status = interp.run(&hook);
  HostRunResult result;
  result.total_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (status != Status::kOk) throw std::runtime_error(std::string("run failed: ") + status_string(status));
  result.op_seconds = std::move(timing.seconds);
  for (uint32_t i = 0; i < interp.output_count(); ++i) {
    const auto* data = static_cast<const uint8_t*>(interp.output_data(i));
    result.outputs.emplace_back(data, data + interp.output_desc(i)->bytes);
  }
  return result;
}

}  // namespace mote
