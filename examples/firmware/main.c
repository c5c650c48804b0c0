/* Example firmware: runs LeNet-5 (lenet5_28.onnx) compiled by Mote, on bare metal.
 *
 * Everything model-specific comes from the three files `mote compile --emit-c` wrote
 * (lenet5_28.h/.c, lenet5_28_kernels.c); this file is what an application
 * writes: place the arena, load, fill the input, run, read the output. It also prints
 * the per-op cycle report (profile callbacks) and the memory report.
 * The board layer (board.h) is QEMU's here: console through semihosting, cycles from
 * SysTick. No heap, no printf: numbers are formatted by hand below. */
#include <string.h>

#include "board.h"
#include "lenet5_28.h"

/* The sample image (generated at build time from lenet5_28.s0.in0.npy). */
extern const uint8_t sample_input[];
extern const uint32_t sample_input_bytes;

/* The arena: exactly what the compiler planned, in a RAM section of our choosing
 * (.mote_arena in ld/example_sections.ld), 16-byte aligned. */
static uint8_t arena[LENET5_28_ARENA_BYTES] __attribute__((section(".bss.mote_arena"), aligned(16)));

static mote_context ctx;

/* ------------------------------------------------------------ per-op profile */

#define MAX_OPS 64
static uint64_t op_cycles[MAX_OPS];
static uint64_t op_start;

static void on_op_begin(void* user, uint32_t op) {
  (void)user;
  (void)op;
  op_start = board_cycles();
}

static void on_op_end(void* user, uint32_t op) {
  const uint64_t now = board_cycles();
  (void)user;
  if (op < MAX_OPS) op_cycles[op] += now - op_start; /* an op in a loop: every iteration */
}

/* ------------------------------------------------------------ text output */

static char line[160];
static uint32_t line_length;

static void put(const char* text) {
  while (*text != '\0' && line_length + 1 < sizeof line) line[line_length++] = *text++;
  line[line_length] = '\0';
}

static void put_uint(uint64_t value) {
  char digits[21];
  int n = 0;
  char one[2] = {0, 0};
  do {
    digits[n++] = (char)('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n > 0) {
    one[0] = digits[--n];
    put(one);
  }
}

/* Pads with spaces until the field that started at `start` is `width` characters wide. */
static void pad_to(uint32_t start, uint32_t width) {
  while (line_length < start + width && line_length + 1 < sizeof line) put(" ");
}

/* d.dddddde+XX: 7 significant digits, enough to compare with the host's float32. */
static void put_float(float value) {
  double v = value;
  int exponent = 0;
  uint32_t mantissa;
  char text[16];
  int i;
  if (v != v) {
    put("nan");
    return;
  }
  if (v < 0) {
    put("-");
    v = -v;
  }
  if (v != 0) {
    while (v >= 10.0) v /= 10.0, ++exponent;
    while (v < 1.0) v *= 10.0, --exponent;
  }
  mantissa = (uint32_t)(v * 1e6 + 0.5);
  if (mantissa >= 10000000u) mantissa /= 10, ++exponent;
  for (i = 7; i >= 0; --i) {
    if (i == 1) {
      text[i] = '.';
      continue;
    }
    text[i] = (char)('0' + mantissa % 10);
    mantissa /= 10;
  }
  text[8] = 'e';
  text[9] = exponent < 0 ? '-' : '+';
  if (exponent < 0) exponent = -exponent;
  text[10] = (char)('0' + exponent / 10 % 10);
  text[11] = (char)('0' + exponent % 10);
  text[12] = '\0';
  put(text);
}

static void end_line(void) {
  put("\n");
  board_write(line);
  line_length = 0;
  line[0] = '\0';
}

/* ------------------------------------------------------------ main */

static int fail(const char* what, int status) {
  put("error: ");
  put(what);
  put(": ");
  put(mote_status_string(status));
  if (status == MOTE_MISSING_KERNEL) {
    put(" (kernel id ");
    put_uint(mote_missing_kernel(&ctx));
    put(", op ");
    put_uint(mote_failed_op(&ctx));
    put(")");
  }
  end_line();
  return 1;
}

int main(void) {
  uint64_t total = 0;
  uint32_t i;
  mote_memory_report memory;
  const float* scores;
  int status;

  put("mote example: lenet5_28 on ");
  put(MOTE_EXAMPLE_BOARD);
  put(" (");
  put(MOTE_EXAMPLE_CPU);
  put(")");
  end_line();

  status = mote_load(&ctx, lenet5_28_program, LENET5_28_PROGRAM_BYTES, arena, sizeof arena,
                     lenet5_28_kernels());
  if (status != MOTE_OK) return fail("load", status);
  if (sample_input_bytes != mote_input_bytes(&ctx, 0)) return fail("input size", MOTE_SIZE_MISMATCH);
  if (mote_op_count(&ctx) > MAX_OPS) return fail("too many ops for this report", MOTE_INVALID_ARGUMENT);

  memcpy(mote_input(&ctx, 0), sample_input, sample_input_bytes);
  mote_set_profiler(&ctx, on_op_begin, on_op_end, 0);
  board_start_cycle_counter();
  status = mote_run(&ctx);
  if (status != MOTE_OK) return fail("run", status);

  /* Outputs. */
  scores = (const float*)mote_output(&ctx, 0);
  for (i = 0; i < mote_output_bytes(&ctx, 0) / sizeof(float); ++i) {
    put("out0[");
    put_uint(i);
    put("] = ");
    put_float(scores[i]);
    end_line();
  }

  /* Per-op report. */
  for (i = 0; i < mote_op_count(&ctx); ++i) total += op_cycles[i];
  put("op      kernel                        cycles    share    name");
  end_line();
  for (i = 0; i < mote_op_count(&ctx); ++i) {
    const uint64_t share = total ? (op_cycles[i] * 1000 + total / 2) / total : 0; /* per mille */
    uint32_t start;
    put("op ");
    start = line_length;
    put_uint(i);
    pad_to(start, 3);
    put("  ");
    start = line_length;
    put(lenet5_28_kernel_name(mote_op_kernel(&ctx, i)));
    pad_to(start, 29);
    put(" "); /* a longer name still ends before its cycles */
    start = line_length;
    put_uint(op_cycles[i]);
    pad_to(start, 10);
    start = line_length;
    put_uint(share / 10);
    put(".");
    put_uint(share % 10);
    put("%");
    pad_to(start, 7);
    put("  ");
    put(mote_op_name(&ctx, i));
    end_line();
  }
  put("total ");
  put_uint(total);
  put(" cycles in ops");
  end_line();
  put("cycle counter: ");
  put(board_cycle_counter_name());
  end_line();

  /* Memory report. */
  memory = mote_get_memory_report(&ctx);
  put("program ");
  put_uint(memory.program_bytes);
  put(" bytes (constants ");
  put_uint(memory.constant_bytes);
  put("), arena planned ");
  put_uint(memory.arena_planned_bytes);
  put(" given ");
  put_uint(memory.arena_given_bytes);
  end_line();
  for (i = 0; i < mote_op_count(&ctx); ++i) {
    if (mote_op_scratch_bytes(&ctx, i) == 0) continue;
    put("  op ");
    put_uint(i);
    put(" scratch ");
    put_uint(mote_op_scratch_bytes(&ctx, i));
    put(" bytes");
    end_line();
  }
  return 0;
}
