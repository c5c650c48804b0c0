#include "host/loaded_program.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "all_kernels.h"
#include "common/error.h"
#include "ethos_u/ethos_u.h"
#include "ethos_u_model.h"
#include "kernel_ids.h"

namespace mote {
namespace {

uint8_t* aligned_copy(const uint8_t* data, size_t size, size_t capacity, uint8_t fill = 0) {
  const size_t rounded = ((capacity == 0 ? 16 : capacity) + 15) / 16 * 16;
  auto* p = static_cast<uint8_t*>(std::aligned_alloc(16, rounded));
  if (p == nullptr) throw CompileError("out of host memory (" + std::to_string(rounded) + " bytes)");
  std::memset(p, fill, rounded);
  if (size != 0) std::memcpy(p, data, size);
  return p;
}

}  // namespace

// The host's NPU driver: the functional model with a workspace grown to what each
// command stream needs, and the count of invokes in the current run (for messages).
struct LoadedProgram::HostNpuModel {
  EthosUModel model;
  std::vector<uint64_t> workspace;
  uint32_t invokes = 0;

  static int32_t invoke(void* user, const uint8_t* payload, uint32_t payload_bytes, const uint64_t* base,
                        const uint32_t* bytes, uint32_t regions) {
    auto* self = static_cast<HostNpuModel*>(user);
    ++self->invokes;
    const uint64_t need = ethos_u_model_workspace_bytes(payload, payload_bytes);
    if (need > self->workspace.size() * 8) self->workspace.resize((need + 7) / 8);
    self->model.workspace = reinterpret_cast<uint8_t*>(self->workspace.data());
    self->model.workspace_bytes = self->workspace.size() * 8;
    return ethos_u_model_invoke(&self->model, payload, payload_bytes, base, bytes, regions);
  }
};

void LoadedProgram::HostNpuModelDeleter::operator()(HostNpuModel* p) const { delete p; }

void LoadedProgram::FreeDeleter::operator()(uint8_t* p) const { std::free(p); }

LoadedProgram::LoadedProgram(std::span<const uint8_t> bytes, std::string what,
                             std::optional<uint64_t> arena_bytes, uint8_t arena_fill, const NpuDriver* npu)
    : program_bytes_(bytes.size()), what_(std::move(what)) {
  program_.reset(aligned_copy(bytes.data(), bytes.size(), bytes.size()));
  ProgramHeader h{};
  if (bytes.size() >= sizeof(h)) std::memcpy(&h, bytes.data(), sizeof(h));
  const uint64_t planned = bytes.size() >= sizeof(h) && h.magic == kProgramMagic ? h.arena_bytes : 0;
  const uint64_t arena_size = arena_bytes.value_or(planned);
  arena_.reset(aligned_copy(nullptr, 0, arena_size, arena_fill));

  host_model_.reset(new HostNpuModel());
  host_npu_.invoke = HostNpuModel::invoke;
  host_npu_.user = host_model_.get();
  uses_host_npu_ = npu == nullptr;
  Status status = load(bytes, arena_size, npu != nullptr ? npu : &host_npu_);
  if (status == Status::kFastScratchTooSmall && npu == nullptr) {
    host_npu_.fast_scratch_bytes = fast_scratch_needed(bytes, arena_size);
    fast_scratch_.reset(aligned_copy(nullptr, 0, host_npu_.fast_scratch_bytes));
    host_npu_.fast_scratch = fast_scratch_.get();
    status = load(bytes, arena_size, &host_npu_);
  }
  interpreter_.set_loop_limit(kDefaultLoopLimit);
  if (status == Status::kOk) return;
  if (status == Status::kArenaTooSmall)
    throw CompileError(what_ + ": arena too small: program needs " + std::to_string(planned) +
                       " bytes, given " + std::to_string(arena_size));
  std::string where = describe_op(interpreter_.failed_op());
  if (interpreter_.failed_tensor() != kNoOffset) where = "tensor " + std::to_string(interpreter_.failed_tensor());
  throw CompileError(what_ + ": invalid program: " + status_string(status) + (where.empty() ? "" : " (" + where + ")"));
}

Status LoadedProgram::load(std::span<const uint8_t> bytes, uint64_t arena_size, const NpuDriver* npu) {
  LoadOptions options;
  options.npu = npu;
  return interpreter_.load(Span<const uint8_t>(program_.get(), bytes.size()), Span<uint8_t>(arena_.get(), arena_size),
                           all_kernels(), options);
}

// The largest fast scratch an NPU op of the program needs: the program loaded once with a
// driver that claims any size (load() checks sizes and alignment, it touches no byte).
uint32_t LoadedProgram::fast_scratch_needed(std::span<const uint8_t> bytes, uint64_t arena_size) {
  alignas(16) static uint8_t claimed[16];
  NpuDriver probe = host_npu_;
  probe.fast_scratch = claimed;
  probe.fast_scratch_bytes = 0xFFFFFFFFu;
  if (load(bytes, arena_size, &probe) != Status::kOk) return 0;
  uint32_t needed = 0;
  for (uint32_t k = 0; k < interpreter_.op_count(); ++k)
    if (std::strcmp(kernel_name(static_cast<KernelId>(interpreter_.op_desc(k)->kernel)), "ethos_u") == 0)
      needed = std::max(needed, ethos_u_fast_scratch_bytes(interpreter_.op_context(k)));
  return needed;
}

const ProgramHeader& LoadedProgram::header() const {
  return *reinterpret_cast<const ProgramHeader*>(program_.get());
}

void LoadedProgram::set_input(uint32_t i, std::span<const uint8_t> data) {
  const Status status = interpreter_.set_input(i, data.data(), static_cast<uint32_t>(data.size()));
  if (status != Status::kOk) throw CompileError(what_ + ": input " + std::to_string(i) + ": " + status_string(status));
}

void LoadedProgram::run(const ProfileHook* hook) {
  host_model_->invokes = 0;
  const Status status = interpreter_.run(hook);
  if (status == Status::kLoopLimit)
    throw CompileError(what_ + ": run stopped: loop iteration limit reached (" +
                       std::to_string(interpreter_.loop_limit()) +
                       " iterations in one run: a loop whose condition still held)");
  if (status == Status::kNpuFailed && uses_host_npu_) {
    // The failed op: the run's last invoke, counted among the program's NPU ops.
    uint32_t failed = kNoOffset;
    for (uint32_t k = 0, npu_ops = 0; k < interpreter_.op_count() && failed == kNoOffset; ++k)
      if (std::strcmp(kernel_name(static_cast<KernelId>(interpreter_.op_desc(k)->kernel)), "ethos_u") == 0 &&
          ++npu_ops == host_model_->invokes)
        failed = k;
    throw CompileError(what_ + ": run stopped at " + describe_op(failed) + ": the NPU model says: " +
                       ethos_u_model_error(host_model_->model));
  }
  if (status == Status::kNpuFailed)
    throw CompileError(what_ + ": run stopped: the NPU driver returned " + std::to_string(interpreter_.npu_error()));
  if (status != Status::kOk) throw CompileError(what_ + ": run failed: " + status_string(status));
}

std::span<const uint8_t> LoadedProgram::output(uint32_t i) const {
  return {static_cast<const uint8_t*>(interpreter_.output_data(i)), interpreter_.output_desc(i)->bytes};
}

// The op's name straight from the header: also for a program the loader refused, whose
// interpreter cannot be asked.
std::string LoadedProgram::describe_op(uint32_t op) const {
  if (op == kNoOffset) return "";
  std::string name;
  ProgramHeader h{};
  if (program_bytes_ >= sizeof(h)) std::memcpy(&h, program_.get(), sizeof(h));
  const bool ops_inside = uint64_t{h.ops_offset} + uint64_t{h.op_count} * sizeof(OpDesc) <= program_bytes_;
  if (op < h.op_count && ops_inside) {
    OpDesc desc;
    std::memcpy(&desc, program_.get() + h.ops_offset + op * sizeof(OpDesc), sizeof(desc));
    if (desc.name_offset != kNoOffset && desc.name_offset < h.strings_bytes &&
        uint64_t{h.strings_offset} + h.strings_bytes <= program_bytes_) {
      const char* s = reinterpret_cast<const char*>(program_.get() + h.strings_offset + desc.name_offset);
      name.assign(s, strnlen(s, h.strings_bytes - desc.name_offset));
    }
  }
  return "op " + std::to_string(op) + (name.empty() ? "" : " '" + name + "'");
}

}  // namespace mote
