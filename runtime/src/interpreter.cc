// Program verifier and executor.
//
// load() checks, in this order, before anything is dereferenced through program data:
//   1. spans: program long enough for a header, program/arena alignment
//   2. header: magic, major version, total_bytes within the span, CRC-32 of every
//      byte but the checksum field
//   3. sections: every table and blob inside total_bytes, aligned; strings end in NUL
//   4. arena: the span covers arena_bytes
//   5. tensors: dtype, rank, dims past rank == 1, bytes == product(dims) * size (64-bit
//      arithmetic, no overflow), offset aligned and [offset, offset + bytes) inside the
//      arena or the constant blob, quantization record inside the params blob, flags
//      (version 1.1: only kTensorPersistent, on arena tensors; 1.0: none)
//   6. graph inputs/outputs: valid tensor indices in the arena
//   7. ops: io list inside the index pool, every index valid, outputs in the arena,
//      params and scratch inside their regions, kernel linked, then the kernel's own
//      check() for shape/parameter consistency.
// The header's init_op_count is checked with the sections (<= op_count; zero in 1.0).
// After a successful load, run() does no checking: every access was proven in bounds.
// A control op's jump target needs none either: run() stops at any index past the last op.
// Termination cannot be verified (a loop on the data runs for as long as its condition
// holds, as in TFLite, and a program can be built to loop forever): set_loop_limit() bounds
// the jumps back one run takes. An NPU op's driver can fail at run time (the hardware's
// business): the op stops the run and run() returns kNpuFailed.
// load() and reset_state() arm the init ops: the next run() starts at op 0. The state's
// initial value is the compiler's business (fill_bytes init ops), not the runtime's.
#include "mote/interpreter.h"

#include <string.h>

namespace mote {
namespace {

bool is_aligned(const void* pointer, uint32_t alignment) {
  return (reinterpret_cast<uintptr_t>(pointer) & (alignment - 1)) == 0;
}

// [offset, offset + size) fits in [0, limit), computed without overflow.
bool range_fits(uint64_t offset, uint64_t size, uint64_t limit) {
  return offset <= limit && size <= limit - offset;
}

bool name_offset_valid(uint32_t offset, const ProgramHeader& h) {
  return offset == kNoOffset || offset < h.strings_bytes;
}

Status verify_sections(const ProgramHeader& h) {
  const uint64_t total = h.total_bytes;
  struct Section {
    uint32_t offset;  // 32-bit: `offset % alignment` must not need a 64-bit division
    uint64_t bytes;
    uint32_t alignment;
  };
  const Section sections[] = {
      {h.tensors_offset, uint64_t{h.tensor_count} * sizeof(TensorDesc), 4},
      {h.ops_offset, uint64_t{h.op_count} * sizeof(OpDesc), 4},
      {h.index_offset, uint64_t{h.index_count} * sizeof(uint32_t), 4},
      {h.params_offset, h.params_bytes, 4},
      {h.strings_offset, h.strings_bytes, 1},
      {h.data_offset, h.data_bytes, kTensorAlignment},
  };
  for (const Section& s : sections) {
    if (s.offset % s.alignment != 0) return Status::kBadSection;
    if (s.offset < sizeof(ProgramHeader) && s.bytes != 0) return Status::kBadSection;
    if (!range_fits(s.offset, s.bytes, total)) return Status::kBadSection;
  }
  return Status::kOk;
}

Status verify_quant(const TensorDesc& t, const ProgramHeader& h, const uint8_t* params) {
  if (t.quant_offset == kNoOffset) return Status::kOk;
  if (t.quant_offset % 4 != 0 || !range_fits(t.quant_offset, sizeof(QuantRecord), h.params_bytes))
    return Status::kBadTensor;
  QuantRecord record;
  memcpy(&record, params + t.quant_offset, sizeof(record));
  if (record.count == 0) return Status::kBadTensor;
  const uint64_t payload = uint64_t{record.count} * (sizeof(float) + sizeof(int32_t));
  if (!range_fits(uint64_t{t.quant_offset} + sizeof(QuantRecord), payload, h.params_bytes))
    return Status::kBadTensor;
  if (record.axis == -1) return record.count == 1 ? Status::kOk : Status::kBadTensor;
  if (record.axis < 0 || record.axis >= t.rank) return Status::kBadTensor;
  return record.count == t.dims[record.axis] ? Status::kOk : Status::kBadTensor;
}

bool is_persistent(const TensorDesc& t) { return (t.flags & kTensorPersistent) != 0; }

Status verify_tensor(const TensorDesc& t, const ProgramHeader& h, const uint8_t* params) {
  const uint32_t element_size = dtype_size(static_cast<DType>(t.dtype));
  if (element_size == 0 || t.rank > kMaxRank) return Status::kBadTensor;
  const uint8_t allowed_flags = h.version_minor == 0 ? 0 : kTensorPersistent;
  if ((t.flags & ~allowed_flags) != 0) return Status::kBadTensor;
  if (is_persistent(t) && t.storage != static_cast<uint8_t>(Storage::kArena)) return Status::kBadTensor;
  uint64_t elements = 1;
  for (uint32_t i = 0; i < kMaxRank; ++i) {
    if (i >= t.rank) {
      if (t.dims[i] != 1) return Status::kBadTensor;
      continue;
    }
    elements *= t.dims[i];
    if (elements > 0xFFFFFFFFu) return Status::kBadTensor;
  }
  if (elements * element_size != t.bytes) return Status::kBadTensor;
  if (t.offset % kTensorAlignment != 0) return Status::kBadTensor;
  if (t.storage == static_cast<uint8_t>(Storage::kArena)) {
    if (!range_fits(t.offset, t.bytes, h.arena_bytes)) return Status::kBadTensor;
  } else if (t.storage == static_cast<uint8_t>(Storage::kConstant)) {
    if (!range_fits(t.offset, t.bytes, h.data_bytes)) return Status::kBadTensor;
  } else {
    return Status::kBadTensor;
  }
  if (!name_offset_valid(t.name_offset, h)) return Status::kBadTensor;
  return verify_quant(t, h, params);
}

bool is_arena_tensor(const TensorDesc* tensors, uint32_t count, uint32_t index) {
  return index < count && tensors[index].storage == static_cast<uint8_t>(Storage::kArena);
}

}  // namespace

Status Interpreter::load(Span<const uint8_t> program, Span<uint8_t> arena,
                         const KernelTable& kernels, const LoadOptions& options) {
  loaded_ = false;
  failed_op_ = kNoOffset;
  failed_tensor_ = kNoOffset;
  header_ = nullptr;
  npu_ = {options.npu, 0};  // the NPU ops' check() reads the driver

  if (program.data() == nullptr || program.size() < sizeof(ProgramHeader))
    return Status::kTruncated;
  if (!is_aligned(program.data(), kProgramAlignment)) return Status::kProgramMisaligned;
  if (arena.size() != 0 && !is_aligned(arena.data(), kArenaAlignment))
    return Status::kArenaMisaligned;
  if (kernels.entries == nullptr && kernels.count != 0) return Status::kInvalidArgument;

  const auto* h = reinterpret_cast<const ProgramHeader*>(program.data());
  if (h->magic != kProgramMagic) return Status::kBadMagic;
  if (h->version_major != kFormatVersionMajor) return Status::kUnsupportedVersion;
  if (h->total_bytes < sizeof(ProgramHeader) || h->total_bytes > program.size())
    return Status::kTruncated;
  const uint8_t* base = program.data();
  if (options.verify_checksum && program_checksum(base, h->total_bytes) != h->checksum)
    return Status::kChecksumMismatch;
  MOTE_RETURN_IF_ERROR(verify_sections(*h));
  if (h->init_op_count > h->op_count || (h->version_minor == 0 && h->init_op_count != 0))
    return Status::kBadSection;
  if (h->strings_bytes != 0 && base[h->strings_offset + h->strings_bytes - 1] != 0)
    return Status::kBadSection;
  if (!name_offset_valid(h->name_offset, *h)) return Status::kBadSection;
  if (arena.size() < h->arena_bytes || (h->arena_bytes != 0 && arena.data() == nullptr))
    return Status::kArenaTooSmall;

  const auto* tensors = reinterpret_cast<const TensorDesc*>(base + h->tensors_offset);
  const uint8_t* params = base + h->params_offset;
  for (uint32_t i = 0; i < h->tensor_count; ++i) {
    const Status status = verify_tensor(tensors[i], *h, params);
    if (status != Status::kOk) {
      failed_tensor_ = i;
      return status;
    }
  }

  const auto* index_pool = reinterpret_cast<const uint32_t*>(base + h->index_offset);
  if (!range_fits(h->inputs_first, h->input_count, h->index_count) ||
      !range_fits(h->outputs_first, h->output_count, h->index_count))
    return Status::kBadIo;
  for (uint32_t i = 0; i < h->input_count; ++i)
    if (!is_arena_tensor(tensors, h->tensor_count, index_pool[h->inputs_first + i]))
      return Status::kBadIo;
  for (uint32_t i = 0; i < h->output_count; ++i)
    if (!is_arena_tensor(tensors, h->tensor_count, index_pool[h->outputs_first + i]))
      return Status::kBadIo;

  const auto* ops = reinterpret_cast<const OpDesc*>(base + h->ops_offset);
  for (uint32_t k = 0; k < h->op_count; ++k) {
    const OpDesc& op = ops[k];
    failed_op_ = k;
    if (op.kernel == 0) return Status::kBadOp;
    if (op.kernel >= kernels.count || kernels.entries[op.kernel] == nullptr ||
        kernels.entries[op.kernel]->check == nullptr || kernels.entries[op.kernel]->run == nullptr)
      return Status::kMissingKernel;
    const uint32_t io_count = uint32_t{op.input_count} + op.output_count;
    if (!range_fits(op.io_first, io_count, h->index_count)) return Status::kBadOp;
    const uint32_t* io = index_pool + op.io_first;
    for (uint32_t i = 0; i < op.input_count; ++i)
      if (io[i] != kNoTensor && io[i] >= h->tensor_count) return Status::kBadOp;
    for (uint32_t i = op.input_count; i < io_count; ++i)
      if (!is_arena_tensor(tensors, h->tensor_count, io[i])) return Status::kBadOp;
    if (op.params_bytes != 0 &&
        (op.params_offset % 4 != 0 || !range_fits(op.params_offset, op.params_bytes, h->params_bytes)))
      return Status::kBadParams;
    if (!range_fits(op.scratch_offset, op.scratch_bytes, h->arena_bytes)) return Status::kBadOp;
    if (!name_offset_valid(op.name_offset, *h)) return Status::kBadOp;

    const OpContext ctx(tensors, io, &op, op.params_bytes != 0 ? params + op.params_offset : params,
                        base + h->data_offset, arena.data(), nullptr, &npu_);
    MOTE_RETURN_IF_ERROR(kernels.entries[op.kernel]->check(ctx));
  }
  failed_op_ = kNoOffset;

  program_ = base;
  header_ = h;
  arena_ = arena.data();
  arena_size_ = static_cast<uint32_t>(arena.size() > 0xFFFFFFFFu ? 0xFFFFFFFFu : arena.size());
  kernels_ = kernels.entries;
  kernel_count_ = kernels.count;
  loaded_ = true;
  init_pending_ = true;
  return Status::kOk;
}

Status Interpreter::reset_state() {
  if (!loaded_) return Status::kNotLoaded;
  init_pending_ = true;
  return Status::kOk;
}

const uint32_t* Interpreter::io_list(const OpDesc& op) const {
  return reinterpret_cast<const uint32_t*>(program_ + header_->index_offset) + op.io_first;
}

OpContext Interpreter::op_context(uint32_t op_index, uint32_t* next_op) const {
  const OpDesc& op = *op_desc(op_index);
  const uint8_t* params = program_ + header_->params_offset;
  return OpContext(reinterpret_cast<const TensorDesc*>(program_ + header_->tensors_offset),
                   io_list(op), &op, op.params_bytes != 0 ? params + op.params_offset : params,
                   program_ + header_->data_offset, arena_, next_op, &npu_);
}

Status Interpreter::run(const ProfileHook* hook) {
  if (!loaded_) return Status::kNotLoaded;
  const uint32_t first = init_pending_ ? 0 : header_->init_op_count;
  init_pending_ = false;
  // A control op (kernels/control) may name the next op; any other runs the one after it.
  // Every jump back to an earlier op is one loop iteration.
  // An NPU op whose driver fails records the error and jumps past the last op.
  uint32_t iterations = 0;
  npu_.error = 0;
  for (uint32_t k = first, next; k < header_->op_count; k = next) {
    next = k + 1;
    if (hook != nullptr && hook->op_begin != nullptr) hook->op_begin(hook->user, k);
    kernels_[op_desc(k)->kernel]->run(op_context(k, &next));
    if (hook != nullptr && hook->op_end != nullptr) hook->op_end(hook->user, k);
    if (next <= k && loop_limit_ != 0 && iterations++ == loop_limit_) return Status::kLoopLimit;
  }
  return npu_.error != 0 ? Status::kNpuFailed : Status::kOk;
}

uint32_t Interpreter::input_count() const { return loaded_ ? header_->input_count : 0; }
uint32_t Interpreter::output_count() const { return loaded_ ? header_->output_count : 0; }
uint32_t Interpreter::op_count() const { return loaded_ ? header_->op_count : 0; }

const TensorDesc* Interpreter::input_desc(uint32_t i) const {
  if (!loaded_ || i >= header_->input_count) return nullptr;
  const auto* pool = reinterpret_cast<const uint32_t*>(program_ + header_->index_offset);
  return reinterpret_cast<const TensorDesc*>(program_ + header_->tensors_offset) +
         pool[header_->inputs_first + i];
}

const TensorDesc* Interpreter::output_desc(uint32_t i) const {
  if (!loaded_ || i >= header_->output_count) return nullptr;
  const auto* pool = reinterpret_cast<const uint32_t*>(program_ + header_->index_offset);
  return reinterpret_cast<const TensorDesc*>(program_ + header_->tensors_offset) +
         pool[header_->outputs_first + i];
}

void* Interpreter::input_data(uint32_t i) {
  const TensorDesc* desc = input_desc(i);
  return desc != nullptr ? arena_ + desc->offset : nullptr;
}

const void* Interpreter::output_data(uint32_t i) const {
  const TensorDesc* desc = output_desc(i);
  return desc != nullptr ? arena_ + desc->offset : nullptr;
}

Status Interpreter::set_input(uint32_t i, const void* data, uint32_t bytes) {
  if (!loaded_) return Status::kNotLoaded;
  const TensorDesc* desc = input_desc(i);
  if (desc == nullptr) return Status::kIndexOutOfRange;
  if (data == nullptr) return Status::kInvalidArgument;
  if (bytes != desc->bytes) return Status::kSizeMismatch;
  memcpy(arena_ + desc->offset, data, bytes);
  return Status::kOk;
}

Status Interpreter::get_output(uint32_t i, void* data, uint32_t bytes) const {
  if (!loaded_) return Status::kNotLoaded;
  const TensorDesc* desc = output_desc(i);
  if (desc == nullptr) return Status::kIndexOutOfRange;
  if (data == nullptr) return Status::kInvalidArgument;
  if (bytes != desc->bytes) return Status::kSizeMismatch;
  memcpy(data, arena_ + desc->offset, bytes);
  return Status::kOk;
}

const OpDesc* Interpreter::op_desc(uint32_t op) const {
  if (!loaded_ || op >= header_->op_count) return nullptr;
  return reinterpret_cast<const OpDesc*>(program_ + header_->ops_offset) + op;
}

const char* Interpreter::string_at(uint32_t offset) const {
  if (!loaded_ || offset == kNoOffset || offset >= header_->strings_bytes) return "";
  return reinterpret_cast<const char*>(program_ + header_->strings_offset + offset);
}

const char* Interpreter::op_name(uint32_t op) const {
  const OpDesc* desc = op_desc(op);
  return desc != nullptr ? string_at(desc->name_offset) : "";
}

const char* Interpreter::tensor_name(uint32_t tensor) const {
  if (!loaded_ || tensor >= header_->tensor_count) return "";
  const auto* tensors = reinterpret_cast<const TensorDesc*>(program_ + header_->tensors_offset);
  return string_at(tensors[tensor].name_offset);
}

MemoryReport Interpreter::memory_report() const {
  MemoryReport report{};
  if (!loaded_) return report;
  report.program_bytes = header_->total_bytes;
  report.arena_planned_bytes = header_->arena_bytes;
  report.arena_given_bytes = arena_size_;
  const auto* tensors = reinterpret_cast<const TensorDesc*>(program_ + header_->tensors_offset);
  for (uint32_t i = 0; i < header_->tensor_count; ++i) {
    if (tensors[i].storage == static_cast<uint8_t>(Storage::kConstant))
      report.constant_bytes += tensors[i].bytes;
    else if (is_persistent(tensors[i]))
      report.arena_state_bytes += tensors[i].bytes;
  }
  return report;
}

}  // namespace mote
