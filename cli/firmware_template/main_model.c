/* @PROJECT@: runs @MODEL@ (compiled by Mote for @CPU@) once and reports it.
 * Written by `mote init-firmware`; yours to edit: this is where your application goes.
 *
 * Everything model-specific comes from model/@MODEL@.h (`mote compile --emit-c`):
 * place the arena, load the program with its kernel table, fill the inputs, run, read
 * the outputs. Prints every output value ("out<j>[<i>] = <v>"), the per-op time
 * (SysTick ticks: processor cycles on a board; instructions under
 * `qemu-system-arm -icount shift=0`) and the memory report, then "ok". A failure prints
 * one line "error: <what>: <status>" and returns 1. */
#include <string.h>

#include "@MODEL@.h"
#include "instruction_counter.h"
#include "print.h"
#include "sample_input.h"

/* The arena: exactly the bytes the compiler planned, 16-byte aligned, in RAM that the
 * start-up code does not zero (.mote_arena in sections.ld). */
static uint8_t arena[@MODEL_UPPER@_ARENA_BYTES] __attribute__((section(".bss.mote_arena"), aligned(16)));
static mote_context ctx;

#define MAX_OPS 256u
static uint64_t op_ticks[MAX_OPS];
static uint64_t op_begin;

static void on_op_begin(void* user, uint32_t op) {
  (void)user;
  (void)op;
  op_begin = mote_tick_counter_read();
}

static void on_op_end(void* user, uint32_t op) {
  const uint64_t now = mote_tick_counter_read();
  (void)user;
  if (op < MAX_OPS) op_ticks[op] += now - op_begin; /* an op inside a loop: every pass */
}

static int fail(const char* what, int status) {
  print_text("error: ");
  print_text(what);
  print_text(": ");
  print_text(mote_status_string(status));
  if (status == MOTE_MISSING_KERNEL) {
    print_text(" (kernel id ");
    print_uint(mote_missing_kernel(&ctx));
    print_text(", op ");
    print_uint(mote_failed_op(&ctx));
    print_text(")");
  }
  print_end_line();
  return 1;
}

static void print_output(uint32_t j) {
  const uint8_t* data = (const uint8_t*)mote_output(&ctx, j);
  const int dtype = mote_output_dtype(&ctx, j);
  const uint32_t bytes = mote_output_bytes(&ctx, j);
  uint32_t size = 1, i;
  switch (dtype) {
    case MOTE_DTYPE_FLOAT32: case MOTE_DTYPE_INT32: size = 4; break;
    case MOTE_DTYPE_INT16: size = 2; break;
    case MOTE_DTYPE_INT64: size = 8; break;
    default: size = 1; break;
  }
  for (i = 0; i < bytes / size; ++i) {
    const uint8_t* p = data + i * size;
    print_text("out");
    print_uint(j);
    print_text("[");
    print_uint(i);
    print_text("] = ");
    switch (dtype) {
      case MOTE_DTYPE_FLOAT32: { float v; memcpy(&v, p, 4); print_float(v); break; }
      case MOTE_DTYPE_INT32: { int32_t v; memcpy(&v, p, 4); print_int(v); break; }
      case MOTE_DTYPE_INT16: { int16_t v; memcpy(&v, p, 2); print_int(v); break; }
      case MOTE_DTYPE_INT64: { int64_t v; memcpy(&v, p, 8); print_int(v); break; }
      case MOTE_DTYPE_INT8: print_int((int8_t)*p); break;
      default: print_uint(*p); break; /* uint8, bool */
    }
    print_end_line();
  }
}

static void print_time(uint64_t ticks) {
  print_uint(ticks);
#ifdef BOARD_QEMU_CLOCK_HZ
  print_text(" (");
  print_uint(mote_ticks_to_instructions(ticks, BOARD_QEMU_CLOCK_HZ));
  print_text(" instr)");
#endif
}

int main(void) {
  mote_memory_report memory;
  uint64_t total = 0;
  uint32_t i;
  int status;

  status = mote_load(&ctx, @MODEL@_program, @MODEL_UPPER@_PROGRAM_BYTES, arena, sizeof arena, @MODEL@_kernels());
  if (status != MOTE_OK) return fail("load", status);
  for (i = 0; i < mote_input_count(&ctx); ++i) {
    if (i < sample_input_count) {
      if (sample_input_bytes[i] != mote_input_bytes(&ctx, i)) return fail("sample input size", MOTE_SIZE_MISMATCH);
      memcpy(mote_input(&ctx, i), sample_inputs[i], sample_input_bytes[i]);
    } else {
      memset(mote_input(&ctx, i), 0, mote_input_bytes(&ctx, i)); /* no sample: zero bytes */
    }
  }

  mote_set_profiler(&ctx, on_op_begin, on_op_end, 0);
  mote_tick_counter_start();
  status = mote_run(&ctx);
  if (status != MOTE_OK) return fail("run", status);

  for (i = 0; i < mote_output_count(&ctx); ++i) print_output(i);

  print_text("op   kernel");
  print_pad_to(38);
  print_text("ticks");
  print_pad_to(66);
  print_text("name");
  print_end_line();
  for (i = 0; i < mote_op_count(&ctx) && i < MAX_OPS; ++i) {
    print_uint(i);
    print_pad_to(5);
    print_text(@MODEL@_kernel_name(mote_op_kernel(&ctx, i)));
    print_text(" ");
    print_pad_to(38);
    print_time(op_ticks[i]);
    print_text(" ");
    print_pad_to(66);
    print_text_cut(mote_op_name(&ctx, i), 60);
    print_end_line();
    total += op_ticks[i];
  }
  print_text("total ticks in ops ");
  print_time(total);
  print_end_line();

  memory = mote_get_memory_report(&ctx);
  print_text("program ");
  print_uint(memory.program_bytes);
  print_text(" bytes (constants ");
  print_uint(memory.constant_bytes);
  print_text("), arena planned ");
  print_uint(memory.arena_planned_bytes);
  print_text(" given ");
  print_uint(memory.arena_given_bytes);
  print_end_line();
  print_text("ok");
  print_end_line();
  return 0;
}
