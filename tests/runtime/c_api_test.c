/* The C API exercised from C99 (compiled with -std=c99 -pedantic), as a firmware would
 * use it. The scenarios are driven by c_api_driver_test.cc, which compiles the models
 * with the real compiler and checks the results against the C++ interpreter and the
 * golden outputs. Each scenario returns NULL when every expectation held, or a string
 * naming the first one that did not. */
#include "c_api_test.h"

#include <string.h>

#include "mote/mote.h"

/* The arena: static, as in firmware; aligned by hand (C99 has no alignas). */
#define ARENA_CAPACITY (1u << 20)
static unsigned char arena_storage[ARENA_CAPACITY + MOTE_ARENA_ALIGNMENT];

static unsigned char* aligned_arena(void) {
  const uintptr_t address = (uintptr_t)arena_storage;
  return arena_storage + ((MOTE_ARENA_ALIGNMENT - address % MOTE_ARENA_ALIGNMENT) % MOTE_ARENA_ALIGNMENT);
}

#define EXPECT(condition)                                         \
  do {                                                            \
    if (!(condition)) return __FILE__ ": expected " #condition; \
  } while (0)

/* Profile callbacks: record the order of begin/end calls. */
typedef struct profile_log {
  uint32_t begins;
  uint32_t ends;
  uint32_t next_op; /* the op the next begin must name */
  int in_op;
  int out_of_order;
} profile_log;

static void on_op_begin(void* user, uint32_t op) {
  profile_log* log = (profile_log*)user;
  if (log->in_op || op != log->next_op) log->out_of_order = 1;
  log->in_op = 1;
  ++log->begins;
}

static void on_op_end(void* user, uint32_t op) {
  profile_log* log = (profile_log*)user;
  if (!log->in_op || op != log->next_op) log->out_of_order = 1;
  log->in_op = 0;
  log->next_op = op + 1;
  ++log->ends;
}

const char* c_api_run_model(const void* program, size_t program_bytes,
                            const mote_kernel_table* kernels, const void* input,
                            uint32_t input_bytes, void* output, uint32_t output_bytes,
                            c_api_model_facts* facts) {
  mote_context ctx;
  profile_log log;
  mote_memory_report report;
  uint32_t axis;
  const uint32_t arena_bytes = mote_program_arena_bytes(program, program_bytes);
  EXPECT(arena_bytes > 0 && arena_bytes <= ARENA_CAPACITY);

  EXPECT(mote_load(&ctx, program, program_bytes, aligned_arena(), arena_bytes, kernels) == MOTE_OK);
  EXPECT(mote_failed_op(&ctx) == MOTE_NO_INDEX);
  EXPECT(mote_missing_kernel(&ctx) == MOTE_NO_INDEX);
  EXPECT(mote_input_count(&ctx) == 1 && mote_output_count(&ctx) == 1);
  EXPECT(mote_input_bytes(&ctx, 0) == input_bytes);
  EXPECT(mote_output_bytes(&ctx, 0) == output_bytes);
  EXPECT(mote_input(&ctx, 1) == NULL && mote_input_bytes(&ctx, 1) == 0);
  EXPECT(mote_output(&ctx, 1) == NULL && mote_output_dim(&ctx, 1, 0) == 0);

  facts->input_dtype = mote_input_dtype(&ctx, 0);
  facts->output_dtype = mote_output_dtype(&ctx, 0);
  facts->input_rank = mote_input_rank(&ctx, 0);
  facts->output_rank = mote_output_rank(&ctx, 0);
  for (axis = 0; axis < 6; ++axis) {
    facts->input_dims[axis] = mote_input_dim(&ctx, 0, axis);
    facts->output_dims[axis] = mote_output_dim(&ctx, 0, axis);
  }
  facts->op_count = mote_op_count(&ctx);
  facts->first_op_kernel = mote_op_kernel(&ctx, 0);
  EXPECT(mote_op_kernel(&ctx, facts->op_count) == 0);
  EXPECT(strcmp(mote_op_name(&ctx, facts->op_count), "") == 0);
  EXPECT(mote_op_name(&ctx, 0) != NULL);

  report = mote_get_memory_report(&ctx);
  facts->program_bytes = report.program_bytes;
  facts->constant_bytes = report.constant_bytes;
  facts->arena_planned_bytes = report.arena_planned_bytes;
  facts->arena_given_bytes = report.arena_given_bytes;

  /* Unprofiled run, then a profiled one: same outputs, callbacks paired and in order. */
  memcpy(mote_input(&ctx, 0), input, input_bytes);
  EXPECT(mote_run(&ctx) == MOTE_OK);
  memcpy(output, mote_output(&ctx, 0), output_bytes);

  memset(&log, 0, sizeof log);
  EXPECT(mote_set_profiler(&ctx, on_op_begin, on_op_end, &log) == MOTE_OK);
  memcpy(mote_input(&ctx, 0), input, input_bytes);
  EXPECT(mote_run(&ctx) == MOTE_OK);
  EXPECT(memcmp(output, mote_output(&ctx, 0), output_bytes) == 0);
  EXPECT(log.begins == facts->op_count && log.ends == facts->op_count);
  EXPECT(!log.out_of_order && !log.in_op);

  /* Clearing the profiler stops the callbacks. */
  EXPECT(mote_set_profiler(&ctx, NULL, NULL, NULL) == MOTE_OK);
  memcpy(mote_input(&ctx, 0), input, input_bytes);
  EXPECT(mote_run(&ctx) == MOTE_OK);
  EXPECT(log.begins == facts->op_count);
  return NULL;
}

const char* c_api_refusals(const void* program, size_t program_bytes,
                           const mote_kernel_table* kernels,
                           const mote_kernel_table* kernels_without_first_op,
                           uint32_t first_op_kernel) {
  mote_context ctx;
  unsigned char* arena = aligned_arena();
  const uint32_t arena_bytes = mote_program_arena_bytes(program, program_bytes);
  unsigned char header_copy[96];
  mote_memory_report report;

  /* A context that was never loaded (arbitrary bytes) refuses everything. */
  memset(&ctx, 0xA5, sizeof ctx);
  EXPECT(mote_run(&ctx) == MOTE_NOT_LOADED);
  EXPECT(mote_input(&ctx, 0) == NULL && mote_output(&ctx, 0) == NULL);
  EXPECT(mote_input_count(&ctx) == 0 && mote_op_count(&ctx) == 0);
  EXPECT(mote_set_profiler(&ctx, on_op_begin, on_op_end, NULL) == MOTE_NOT_LOADED);
  report = mote_get_memory_report(&ctx);
  EXPECT(report.program_bytes == 0 && report.arena_planned_bytes == 0);
  EXPECT(mote_run(NULL) == MOTE_NOT_LOADED);
  EXPECT(mote_load(NULL, program, program_bytes, arena, arena_bytes, kernels) == MOTE_INVALID_ARGUMENT);

  /* Caller errors. */
  EXPECT(mote_load(&ctx, program, program_bytes, arena, arena_bytes, NULL) == MOTE_INVALID_ARGUMENT);
  EXPECT(mote_run(&ctx) == MOTE_NOT_LOADED);
  EXPECT(mote_load(&ctx, program, program_bytes, arena, arena_bytes - 1, kernels) == MOTE_ARENA_TOO_SMALL);
  EXPECT(mote_run(&ctx) == MOTE_NOT_LOADED);
  EXPECT(mote_load(&ctx, program, program_bytes, arena + 4, arena_bytes, kernels) == MOTE_ARENA_MISALIGNED);
  EXPECT(mote_load(&ctx, NULL, 0, arena, arena_bytes, kernels) == MOTE_TRUNCATED);
  EXPECT(mote_load(&ctx, program, 40, arena, arena_bytes, kernels) == MOTE_TRUNCATED);
  EXPECT(mote_load(&ctx, program, program_bytes - 1, arena, arena_bytes, kernels) == MOTE_TRUNCATED);

  /* Not a program: the header's magic is wrong. */
  memcpy(header_copy, program, sizeof header_copy);
  header_copy[0] ^= 0xFF;
  EXPECT(mote_program_arena_bytes(header_copy, sizeof header_copy) == 0);
  EXPECT(mote_program_arena_bytes(program, 95) == 0);

  /* A kernel missing from the table is named, and the context stays unloaded. */
  EXPECT(mote_load(&ctx, program, program_bytes, arena, arena_bytes, kernels_without_first_op) ==
         MOTE_MISSING_KERNEL);
  EXPECT(mote_missing_kernel(&ctx) == first_op_kernel);
  EXPECT(mote_failed_op(&ctx) == 0);
  EXPECT(mote_run(&ctx) == MOTE_NOT_LOADED);

  /* Status strings. */
  EXPECT(strcmp(mote_status_string(MOTE_OK), "ok") == 0);
  EXPECT(strcmp(mote_status_string(MOTE_ARENA_TOO_SMALL), "arena too small") == 0);
  EXPECT(strcmp(mote_status_string(MOTE_MISSING_KERNEL), "kernel not linked into this build") == 0);
  EXPECT(strcmp(mote_status_string(0x7F), "unknown status") == 0);

  /* After all that, a good load works again on the same context. */
  EXPECT(mote_load(&ctx, program, program_bytes, arena, arena_bytes, kernels) == MOTE_OK);
  EXPECT(mote_missing_kernel(&ctx) == MOTE_NO_INDEX);
  return NULL;
}
