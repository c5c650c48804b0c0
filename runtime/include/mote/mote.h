/* The Mote runtime's C API, for C99 (and C++) firmware.
 *
 *   static mote_context ctx;                               // caller-owned, no heap
 *   static uint8_t arena[LENET5_28_ARENA_BYTES] __attribute__((aligned(16)));
 *   int s = mote_load(&ctx, lenet5_28_program, sizeof lenet5_28_program,
 *                     arena, sizeof arena, lenet5_28_kernels());
 *   if (s != MOTE_OK) { puts(mote_status_string(s)); ... }
 *   memcpy(mote_input(&ctx, 0), image, mote_input_bytes(&ctx, 0));
 *   s = mote_run(&ctx);
 *   const float* scores = (const float*)mote_output(&ctx, 0);
 *
 * A thin layer over mote::Interpreter (mote/interpreter.h); the same contracts hold:
 *   - program: 16-byte aligned (MOTE_PROGRAM_ALIGNMENT), read in place (may stay in
 *     flash), never written, must outlive the context.
 *   - arena: 16-byte aligned (MOTE_ARENA_ALIGNMENT), at least the program's planned
 *     arena bytes (the compiler states them; mote_program_arena_bytes() reads them from
 *     the program), must outlive the context. Inputs share arena bytes with later
 *     tensors: set every input before each mote_run(); outputs stay valid until the next.
 *   - state: a stateful program (TFLite resource variables, SVDF and LSTM state; the
 *     memory report's arena_state_bytes > 0) keeps that many bytes of the arena between mote_run()
 *     calls, so the arena belongs to the context from mote_load() on: do not reuse it
 *     for anything else between runs. After mote_load() and mote_reset_state() the next
 *     mote_run() first runs the program's init ops, which set the state to its initial
 *     value and run TFLite's CALL_ONCE subgraph.
 *   - kernel table: from the compiler's generated sources (`mote compile --emit-c`),
 *     holding exactly the kernels the program uses; a program needing a kernel that is
 *     not in the table is refused by mote_load() with MOTE_MISSING_KERNEL, and
 *     mote_missing_kernel() gives its id.
 * Every call that can fail returns a status (an int, MOTE_OK == 0); none allocates,
 * asserts or faults on bad arguments. A context whose load failed refuses to run.
 */
#ifndef MOTE_MOTE_H_
#define MOTE_MOTE_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of a mote_context: room for the interpreter (40 bytes on a 32-bit core) and the
 * profile hook, with headroom; checked against the C++ objects by a static_assert. */
#define MOTE_CONTEXT_BYTES (24 * sizeof(void*))
#define MOTE_PROGRAM_ALIGNMENT 16
#define MOTE_ARENA_ALIGNMENT 16
/* "No index": mote_failed_op()/mote_missing_kernel() when not applicable. */
#define MOTE_NO_INDEX 0xFFFFFFFFu

/* Opaque, caller-allocated state of one loaded program (static, on the stack, or in a
 * struct of the caller's). Its contents are private to the runtime. */
typedef struct mote_context {
  union {
    void* pointer_alignment;
    uint64_t integer_alignment;
    unsigned char bytes[MOTE_CONTEXT_BYTES];
  } opaque;
} mote_context;

/* The kernels linked into this firmware: `mote compile --emit-c` generates one as
 * <name>_kernels() (<name>_kernels.c). entries[i] is the kernel with id i
 * (kernels/kernel_registry.inc), a mote::KernelEntry, or null where the firmware has none;
 * the same layout as mote::KernelTable (checked by a static_assert in the runtime). */
struct mote_kernel_entry;
typedef struct mote_kernel_table {
  const struct mote_kernel_entry* const* entries;
  uint32_t count;
} mote_kernel_table;

/* Status codes: the values of mote::Status (mote/status.h), in the same ranges:
 * 0x10-0x1F caller errors, 0x20-0x3F malformed program, 0x40-0x4F missing capability. */
enum {
  MOTE_OK = 0x00,
  MOTE_NOT_LOADED = 0x10,
  MOTE_ARENA_TOO_SMALL = 0x11,
  MOTE_ARENA_MISALIGNED = 0x12,
  MOTE_PROGRAM_MISALIGNED = 0x13,
  MOTE_INDEX_OUT_OF_RANGE = 0x14,
  MOTE_SIZE_MISMATCH = 0x15,
  MOTE_INVALID_ARGUMENT = 0x16,
  MOTE_LOOP_LIMIT = 0x17,
  MOTE_TRUNCATED = 0x20,
  MOTE_BAD_MAGIC = 0x21,
  MOTE_UNSUPPORTED_VERSION = 0x22,
  MOTE_CHECKSUM_MISMATCH = 0x23,
  MOTE_BAD_SECTION = 0x24,
  MOTE_BAD_TENSOR = 0x25,
  MOTE_BAD_OP = 0x26,
  MOTE_BAD_PARAMS = 0x27,
  MOTE_BAD_IO = 0x28,
  MOTE_FAST_SCRATCH_TOO_SMALL = 0x18,
  MOTE_MISSING_KERNEL = 0x40,
  MOTE_NO_NPU_DRIVER = 0x41,
  MOTE_NPU_FAILED = 0x50
};

/* Element types: the values of mote::DType (mote/program_format.h). */
enum {
  MOTE_DTYPE_FLOAT32 = 1,
  MOTE_DTYPE_INT8 = 2,
  MOTE_DTYPE_INT16 = 3,
  MOTE_DTYPE_INT32 = 4,
  MOTE_DTYPE_UINT8 = 5,
  MOTE_DTYPE_INT64 = 6,
  MOTE_DTYPE_BOOL = 7
};

/* Called before and after each op during mote_run(); `op` is the op index in execution
 * order (0 .. mote_op_count()-1). Keep them short: they run inside the timed region.
 * This is the cycle-counter hook: the runtime has no clock, read yours here, e.g. the
 * DWT cycle counter of platforms/cortex_m/cycle_counter.h on real M3/M4/M7/M33/M55, or
 * SysTick (platforms/cortex_m/instruction_counter.h: executed instructions under QEMU
 * with -icount shift=0, which models no DWT). */
typedef void (*mote_op_callback)(void* user, uint32_t op);

typedef struct mote_memory_report {
  uint32_t program_bytes;       /* size of the program */
  uint32_t constant_bytes;      /* weights and other constants inside the program */
  uint32_t arena_planned_bytes; /* what the compiler planned (what mote_run touches) */
  uint32_t arena_given_bytes;   /* length of the arena passed to mote_load */
  uint32_t arena_state_bytes;   /* of the planned bytes, those kept between runs (state) */
} mote_memory_report;

/* Planned arena bytes of a program, read from its header without loading it; 0 when
 * `program` is null, shorter than a header or not a Mote program. */
uint32_t mote_program_arena_bytes(const void* program, size_t program_bytes);

/* Verifies the program completely and binds it to the arena and kernels. On failure the
 * context is unloaded; mote_failed_op() and mote_missing_kernel() say where. */
int mote_load(mote_context* ctx, const void* program, size_t program_bytes, void* arena,
              size_t arena_bytes, const mote_kernel_table* kernels);

/* The NPU driver hook (Ethos-U) for a program with NPU ops; mote/npu.h (mote::NpuDriver,
 * the same struct) states the contract. invoke runs one op's command stream: `payload` is
 * the op's driver payload (Arm's driver: ethosu_invoke_v3's custom data), region i's base
 * address and size are base_addresses[i] and base_bytes[i] (0 constants, 1 scratch in the
 * arena, 2 fast scratch, 3.. the op's other inputs and outputs), all 16-byte aligned.
 * Return 0 on success; anything else ends mote_run() with MOTE_NPU_FAILED and
 * mote_npu_error() gives the value. The cache callbacks are optional (NULL). fast_scratch:
 * the NPU's fast memory for programs compiled with a dedicated one (the compiler's
 * <NAME>_NPU_FAST_SCRATCH_BYTES; NULL and 0 when none). platforms/ethos_u/ has an adapter
 * for Arm's core driver. */
typedef struct mote_npu_driver {
  int32_t (*invoke)(void* user, const uint8_t* payload, uint32_t payload_bytes,
                    const uint64_t* base_addresses, const uint32_t* base_bytes, uint32_t region_count);
  void (*clean_cache)(void* user, const uint64_t* base_addresses, const uint32_t* base_bytes,
                      uint32_t region_count);
  void (*invalidate_cache)(void* user, const uint64_t* base_addresses, const uint32_t* base_bytes,
                           uint32_t region_count);
  void* user;
  uint8_t* fast_scratch;
  uint32_t fast_scratch_bytes;
} mote_npu_driver;

/* mote_load for a program with NPU ops: the same, with the NPU driver (which must outlive
 * the context). Without one, such a program fails to load with MOTE_NO_NPU_DRIVER; with a
 * fast scratch too small for it, MOTE_FAST_SCRATCH_TOO_SMALL. */
int mote_load_npu(mote_context* ctx, const void* program, size_t program_bytes, void* arena,
                  size_t arena_bytes, const mote_kernel_table* kernels, const mote_npu_driver* npu);

/* After mote_run() returned MOTE_NPU_FAILED: the value the driver's invoke returned; 0
 * otherwise. */
int32_t mote_npu_error(const mote_context* ctx);

/* Runs every op once, calling the profile callbacks if set. MOTE_NOT_LOADED if the last
 * mote_load failed (or ctx is null); MOTE_LOOP_LIMIT if the loop limit stopped it. */
int mote_run(mote_context* ctx);

/* Restarts a stateful program: the next mote_run() runs the init ops again, so the
 * state starts from its initial value as after mote_load(). MOTE_NOT_LOADED if the last mote_load
 * failed (or ctx is null); MOTE_OK and nothing to do for a program without state. */
int mote_reset_state(mote_context* ctx);

/* Sets (or with nulls clears) the per-op callbacks used by later mote_run() calls. */
int mote_set_profiler(mote_context* ctx, mote_op_callback op_begin, mote_op_callback op_end,
                      void* user);

/* Bounds the loop iterations of each later mote_run() (0: no bound, the default; mote_load
 * clears it, as it clears the profiler). A WHILE on the data runs as a loop for as long as
 * its condition holds, so an input can keep it running forever: with a limit, mote_run
 * returns MOTE_LOOP_LIMIT instead of starting iteration `iterations` + 1 (every jump back,
 * in any loop, counts one). That run's outputs are not defined; a stateful program's state
 * is as the stopped run left it (mote_reset_state() starts over). */
int mote_set_loop_limit(mote_context* ctx, uint32_t iterations);

/* "arena too small", ...; "" when the runtime was built with MOTE_NO_STATUS_STRINGS. */
const char* mote_status_string(int status);

/* Graph inputs and outputs. Counts are 0, pointers null and sizes 0 when not loaded or
 * the index is out of range. Input pointers are writable arena memory of
 * mote_input_bytes() bytes; outputs are read-only views valid until the next run. */
uint32_t mote_input_count(const mote_context* ctx);
uint32_t mote_output_count(const mote_context* ctx);
void* mote_input(mote_context* ctx, uint32_t index);
const void* mote_output(const mote_context* ctx, uint32_t index);
uint32_t mote_input_bytes(const mote_context* ctx, uint32_t index);
uint32_t mote_output_bytes(const mote_context* ctx, uint32_t index);
/* Element type (MOTE_DTYPE_*), rank and dimension `axis` (outermost first; 0 when axis
 * >= rank). */
int mote_input_dtype(const mote_context* ctx, uint32_t index);
int mote_output_dtype(const mote_context* ctx, uint32_t index);
uint32_t mote_input_rank(const mote_context* ctx, uint32_t index);
uint32_t mote_output_rank(const mote_context* ctx, uint32_t index);
uint32_t mote_input_dim(const mote_context* ctx, uint32_t index, uint32_t axis);
uint32_t mote_output_dim(const mote_context* ctx, uint32_t index, uint32_t axis);

/* Ops, for reports: count, kernel id (kernels/kernel_ids.h; 0 when out of range),
 * source node name ("" when absent) and scratch bytes. */
uint32_t mote_op_count(const mote_context* ctx);
uint32_t mote_op_kernel(const mote_context* ctx, uint32_t op);
const char* mote_op_name(const mote_context* ctx, uint32_t op);
uint32_t mote_op_scratch_bytes(const mote_context* ctx, uint32_t op);

/* Zeros when not loaded. */
mote_memory_report mote_get_memory_report(const mote_context* ctx);

/* After a failed mote_load: the op where verification stopped, and for
 * MOTE_MISSING_KERNEL the kernel id the program needs; MOTE_NO_INDEX otherwise. */
uint32_t mote_failed_op(const mote_context* ctx);
uint32_t mote_missing_kernel(const mote_context* ctx);

#ifdef __cplusplus
}  /* extern "C" */

namespace mote {
struct KernelTable;
}
/* A C++ kernel table (e.g. mote::all_kernels()) as the C API's handle. */
inline const mote_kernel_table* mote_kernel_table_of(const mote::KernelTable& table) {
  return reinterpret_cast<const mote_kernel_table*>(&table);
}
#endif

#endif /* MOTE_MOTE_H_ */
