// The C API (mote/mote.h) over mote::Interpreter.
//
// A mote_context's bytes hold one ContextState, constructed in place by mote_load().
// Calls on a context that mote_load() never touched (zeroed or arbitrary bytes) see no
// kContextMagic and behave as "not loaded".
#include "mote/mote.h"

#include <stddef.h>
#include <string.h>

#include <new>

#include "mote/interpreter.h"

namespace mote {
namespace {

constexpr uint32_t kContextMagic = 0x43544F4Du;  // "MOTC"

struct ContextState {
  uint32_t magic;
  uint32_t missing_kernel;
  ProfileHook hook;
  Interpreter interpreter;
};

static_assert(sizeof(ContextState) <= MOTE_CONTEXT_BYTES, "raise MOTE_CONTEXT_BYTES");
static_assert(alignof(ContextState) <= alignof(mote_context), "mote_context under-aligned");
static_assert(MOTE_PROGRAM_ALIGNMENT == kProgramAlignment && MOTE_ARENA_ALIGNMENT == kArenaAlignment,
              "alignment constants differ");
static_assert(MOTE_NO_INDEX == kNoOffset, "no-index constants differ");

constexpr bool same(int c_value, Status status) { return c_value == static_cast<int>(status); }
static_assert(same(MOTE_OK, Status::kOk) && same(MOTE_NOT_LOADED, Status::kNotLoaded) &&
                  same(MOTE_ARENA_TOO_SMALL, Status::kArenaTooSmall) &&
                  same(MOTE_ARENA_MISALIGNED, Status::kArenaMisaligned) &&
                  same(MOTE_PROGRAM_MISALIGNED, Status::kProgramMisaligned) &&
                  same(MOTE_INDEX_OUT_OF_RANGE, Status::kIndexOutOfRange) &&
                  same(MOTE_SIZE_MISMATCH, Status::kSizeMismatch) &&
                  same(MOTE_INVALID_ARGUMENT, Status::kInvalidArgument) &&
                  same(MOTE_LOOP_LIMIT, Status::kLoopLimit) &&
                  same(MOTE_TRUNCATED, Status::kTruncated) && same(MOTE_BAD_MAGIC, Status::kBadMagic) &&
                  same(MOTE_UNSUPPORTED_VERSION, Status::kUnsupportedVersion) &&
                  same(MOTE_CHECKSUM_MISMATCH, Status::kChecksumMismatch) &&
                  same(MOTE_BAD_SECTION, Status::kBadSection) &&
                  same(MOTE_BAD_TENSOR, Status::kBadTensor) && same(MOTE_BAD_OP, Status::kBadOp) &&
                  same(MOTE_BAD_PARAMS, Status::kBadParams) && same(MOTE_BAD_IO, Status::kBadIo) &&
                  same(MOTE_MISSING_KERNEL, Status::kMissingKernel) &&
                  same(MOTE_FAST_SCRATCH_TOO_SMALL, Status::kFastScratchTooSmall) &&
                  same(MOTE_NO_NPU_DRIVER, Status::kNoNpuDriver) && same(MOTE_NPU_FAILED, Status::kNpuFailed),
              "C status values differ from mote::Status");
static_assert(MOTE_DTYPE_FLOAT32 == static_cast<int>(DType::kFloat32) &&
                  MOTE_DTYPE_INT8 == static_cast<int>(DType::kInt8) &&
                  MOTE_DTYPE_INT16 == static_cast<int>(DType::kInt16) &&
                  MOTE_DTYPE_INT32 == static_cast<int>(DType::kInt32) &&
                  MOTE_DTYPE_UINT8 == static_cast<int>(DType::kUInt8) &&
                  MOTE_DTYPE_INT64 == static_cast<int>(DType::kInt64) &&
                  MOTE_DTYPE_BOOL == static_cast<int>(DType::kBool),
              "C dtype values differ from mote::DType");

// mote_kernel_table is mote::KernelTable, field for field (mote_kernel_table_of() hands a
// C++ table to the C API as one).
static_assert(sizeof(mote_kernel_table) == sizeof(KernelTable) &&
                  offsetof(mote_kernel_table, entries) == offsetof(KernelTable, entries) &&
                  offsetof(mote_kernel_table, count) == offsetof(KernelTable, count),
              "mote_kernel_table differs from mote::KernelTable");

// mote_npu_driver is mote::NpuDriver, field for field.
static_assert(sizeof(mote_npu_driver) == sizeof(NpuDriver) &&
                  offsetof(mote_npu_driver, invoke) == offsetof(NpuDriver, invoke) &&
                  offsetof(mote_npu_driver, clean_cache) == offsetof(NpuDriver, clean_cache) &&
                  offsetof(mote_npu_driver, invalidate_cache) == offsetof(NpuDriver, invalidate_cache) &&
                  offsetof(mote_npu_driver, user) == offsetof(NpuDriver, user) &&
                  offsetof(mote_npu_driver, fast_scratch) == offsetof(NpuDriver, fast_scratch) &&
                  offsetof(mote_npu_driver, fast_scratch_bytes) == offsetof(NpuDriver, fast_scratch_bytes),
              "mote_npu_driver differs from mote::NpuDriver");

ContextState* state_of(mote_context* ctx) {
  if (ctx == nullptr) return nullptr;
  auto* state = reinterpret_cast<ContextState*>(ctx->opaque.bytes);
  return state->magic == kContextMagic ? state : nullptr;
}

const ContextState* state_of(const mote_context* ctx) {
  return state_of(const_cast<mote_context*>(ctx));
}

// The interpreter of a loaded context, or null.
const Interpreter* loaded(const mote_context* ctx) {
  const ContextState* state = state_of(ctx);
  return state != nullptr && state->interpreter.loaded() ? &state->interpreter : nullptr;
}

const TensorDesc* input_desc(const mote_context* ctx, uint32_t index) {
  const Interpreter* interp = loaded(ctx);
  return interp != nullptr ? interp->input_desc(index) : nullptr;
}

const TensorDesc* output_desc(const mote_context* ctx, uint32_t index) {
  const Interpreter* interp = loaded(ctx);
  return interp != nullptr ? interp->output_desc(index) : nullptr;
}

uint32_t dim_of(const TensorDesc* desc, uint32_t axis) {
  return desc != nullptr && axis < desc->rank ? desc->dims[axis] : 0;
}

int as_int(Status status) { return static_cast<int>(status); }

}  // namespace
}  // namespace mote

using mote::ContextState;

extern "C" {

uint32_t mote_program_arena_bytes(const void* program, size_t program_bytes) {
  if (program == nullptr || program_bytes < sizeof(mote::ProgramHeader)) return 0;
  mote::ProgramHeader header;
  memcpy(&header, program, sizeof(header));
  return header.magic == mote::kProgramMagic ? header.arena_bytes : 0;
}

int mote_load(mote_context* ctx, const void* program, size_t program_bytes, void* arena,
              size_t arena_bytes, const mote_kernel_table* kernels) {
  return mote_load_npu(ctx, program, program_bytes, arena, arena_bytes, kernels, nullptr);
}

int mote_load_npu(mote_context* ctx, const void* program, size_t program_bytes, void* arena,
                  size_t arena_bytes, const mote_kernel_table* kernels, const mote_npu_driver* npu) {
  if (ctx == nullptr) return mote::as_int(mote::Status::kInvalidArgument);
  auto* state = new (ctx->opaque.bytes) ContextState{};
  state->magic = mote::kContextMagic;
  state->missing_kernel = MOTE_NO_INDEX;
  if (kernels == nullptr) return mote::as_int(mote::Status::kInvalidArgument);
  const mote::KernelTable table = {reinterpret_cast<const mote::KernelEntry* const*>(kernels->entries),
                                   kernels->count};
  const mote::Status status = state->interpreter.load(
      mote::Span<const uint8_t>(static_cast<const uint8_t*>(program), program_bytes),
      mote::Span<uint8_t>(static_cast<uint8_t*>(arena), arena_bytes), table,
      mote::LoadOptions{true, reinterpret_cast<const mote::NpuDriver*>(npu)});
  if (status == mote::Status::kMissingKernel) {
    // load() verified the op table's bounds before checking kernels, so the failed op's
    // descriptor is inside the program.
    const auto* header = static_cast<const mote::ProgramHeader*>(program);
    mote::OpDesc op;
    memcpy(&op,
           static_cast<const uint8_t*>(program) + header->ops_offset +
               state->interpreter.failed_op() * sizeof(mote::OpDesc),
           sizeof(op));
    state->missing_kernel = op.kernel;
  }
  return mote::as_int(status);
}

int mote_reset_state(mote_context* ctx) {
  ContextState* state = mote::state_of(ctx);
  if (state == nullptr) return mote::as_int(mote::Status::kNotLoaded);
  return mote::as_int(state->interpreter.reset_state());
}

int32_t mote_npu_error(const mote_context* ctx) {
  const mote::Interpreter* interp = mote::loaded(ctx);
  return interp != nullptr ? interp->npu_error() : 0;
}

int mote_run(mote_context* ctx) {
  ContextState* state = mote::state_of(ctx);
  if (state == nullptr) return mote::as_int(mote::Status::kNotLoaded);
  const bool profiled = state->hook.op_begin != nullptr || state->hook.op_end != nullptr;
  return mote::as_int(state->interpreter.run(profiled ? &state->hook : nullptr));
}

int mote_set_profiler(mote_context* ctx, mote_op_callback op_begin, mote_op_callback op_end,
                      void* user) {
  ContextState* state = mote::state_of(ctx);
  if (state == nullptr) return mote::as_int(mote::Status::kNotLoaded);
  state->hook = mote::ProfileHook{op_begin, op_end, user};
  return MOTE_OK;
}

int mote_set_loop_limit(mote_context* ctx, uint32_t iterations) {
  ContextState* state = mote::state_of(ctx);
  if (state == nullptr) return mote::as_int(mote::Status::kNotLoaded);
  state->interpreter.set_loop_limit(iterations);
  return MOTE_OK;
}

const char* mote_status_string(int status) {
  return mote::status_string(static_cast<mote::Status>(status));
}

uint32_t mote_input_count(const mote_context* ctx) {
  const mote::Interpreter* interp = mote::loaded(ctx);
  return interp != nullptr ? interp->input_count() : 0;
}

uint32_t mote_output_count(const mote_context* ctx) {
  const mote::Interpreter* interp = mote::loaded(ctx);
  return interp != nullptr ? interp->output_count() : 0;
}

void* mote_input(mote_context* ctx, uint32_t index) {
  ContextState* state = mote::state_of(ctx);
  return state != nullptr ? state->interpreter.input_data(index) : nullptr;
}

const void* mote_output(const mote_context* ctx, uint32_t index) {
  const mote::Interpreter* interp = mote::loaded(ctx);
  return interp != nullptr ? interp->output_data(index) : nullptr;
}

uint32_t mote_input_bytes(const mote_context* ctx, uint32_t index) {
  const mote::TensorDesc* desc = mote::input_desc(ctx, index);
  return desc != nullptr ? desc->bytes : 0;
}

uint32_t mote_output_bytes(const mote_context* ctx, uint32_t index) {
  const mote::TensorDesc* desc = mote::output_desc(ctx, index);
  return desc != nullptr ? desc->bytes : 0;
}

int mote_input_dtype(const mote_context* ctx, uint32_t index) {
  const mote::TensorDesc* desc = mote::input_desc(ctx, index);
  return desc != nullptr ? desc->dtype : 0;
}

int mote_output_dtype(const mote_context* ctx, uint32_t index) {
  const mote::TensorDesc* desc = mote::output_desc(ctx, index);
  return desc != nullptr ? desc->dtype : 0;
}

uint32_t mote_input_rank(const mote_context* ctx, uint32_t index) {
  const mote::TensorDesc* desc = mote::input_desc(ctx, index);
  return desc != nullptr ? desc->rank : 0;
}

uint32_t mote_output_rank(const mote_context* ctx, uint32_t index) {
  const mote::TensorDesc* desc = mote::output_desc(ctx, index);
  return desc != nullptr ? desc->rank : 0;
}

uint32_t mote_input_dim(const mote_context* ctx, uint32_t index, uint32_t axis) {
  return mote::dim_of(mote::input_desc(ctx, index), axis);
}

uint32_t mote_output_dim(const mote_context* ctx, uint32_t index, uint32_t axis) {
  return mote::dim_of(mote::output_desc(ctx, index), axis);
}

uint32_t mote_op_count(const mote_context* ctx) {
  const mote::Interpreter* interp = mote::loaded(ctx);
  return interp != nullptr ? interp->op_count() : 0;
}

uint32_t mote_op_kernel(const mote_context* ctx, uint32_t op) {
  const mote::Interpreter* interp = mote::loaded(ctx);
  const mote::OpDesc* desc = interp != nullptr ? interp->op_desc(op) : nullptr;
  return desc != nullptr ? desc->kernel : 0;
}

const char* mote_op_name(const mote_context* ctx, uint32_t op) {
  const mote::Interpreter* interp = mote::loaded(ctx);
  return interp != nullptr ? interp->op_name(op) : "";
}

uint32_t mote_op_scratch_bytes(const mote_context* ctx, uint32_t op) {
  const mote::Interpreter* interp = mote::loaded(ctx);
  const mote::OpDesc* desc = interp != nullptr ? interp->op_desc(op) : nullptr;
  return desc != nullptr ? desc->scratch_bytes : 0;
}

mote_memory_report mote_get_memory_report(const mote_context* ctx) {
  mote_memory_report report = {0, 0, 0, 0, 0};
  const mote::Interpreter* interp = mote::loaded(ctx);
  if (interp == nullptr) return report;
  const mote::MemoryReport r = interp->memory_report();
  report.program_bytes = r.program_bytes;
  report.constant_bytes = r.constant_bytes;
  report.arena_planned_bytes = r.arena_planned_bytes;
  report.arena_given_bytes = r.arena_given_bytes;
  report.arena_state_bytes = r.arena_state_bytes;
  return report;
}

uint32_t mote_failed_op(const mote_context* ctx) {
  const ContextState* state = mote::state_of(ctx);
  return state != nullptr ? state->interpreter.failed_op() : MOTE_NO_INDEX;
}

uint32_t mote_missing_kernel(const mote_context* ctx) {
  const ContextState* state = mote::state_of(ctx);
  return state != nullptr ? state->missing_kernel : MOTE_NO_INDEX;
}

}  // extern "C"
