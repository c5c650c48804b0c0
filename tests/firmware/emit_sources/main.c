/* A firmware around the folder `mote compile --emit-c DIR --emit-sources` writes, built by
 * tests/firmware/check_emit_sources.py with plain arm-none-eabi-gcc/g++ commands. C99:
 * the model's generated files and the runtime's C API are all it uses. It loads the
 * program with the generated kernel table, runs it once on sample_input (a C array the
 * check writes) and prints each output as "out<j> <hex bytes>", then "ok"; a failure
 * prints "error: <what>: <status>" and returns 1 (startup.cc hands main's value to QEMU).
 * The check names the model with -DMODEL_HEADER='"<id>.h"' -DMODEL_PROGRAM=<id>_program
 * -DMODEL_KERNELS=<id>_kernels -DMODEL_ARENA_BYTES=<ID>_ARENA_BYTES. */
#include <stdint.h>
#include <string.h>

#include MODEL_HEADER

extern const uint8_t sample_input[];
extern const uint32_t sample_input_bytes;

static uint8_t arena[MODEL_ARENA_BYTES] __attribute__((aligned(16)));
static mote_context ctx;

/* Semihosting SYS_WRITE0: a NUL-terminated string to QEMU's console. */
static void write_text(const char* text) {
  register uint32_t r0 __asm__("r0") = 0x04;
  register const char* r1 __asm__("r1") = text;
  __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
}

static int fail(const char* what, int status) {
  write_text("error: ");
  write_text(what);
  write_text(": ");
  write_text(mote_status_string(status));
  write_text("\n");
  return 1;
}

int main(void) {
  static const char digits[] = "0123456789abcdef";
  char line[67];
  uint32_t j, i;
  int status = mote_load(&ctx, MODEL_PROGRAM, sizeof MODEL_PROGRAM, arena, sizeof arena, MODEL_KERNELS());
  if (status != MOTE_OK) return fail("load", status);
  if (mote_input_count(&ctx) != 1 || mote_input_bytes(&ctx, 0) != sample_input_bytes)
    return fail("input size", MOTE_SIZE_MISMATCH);
  memcpy(mote_input(&ctx, 0), sample_input, sample_input_bytes);
  status = mote_run(&ctx);
  if (status != MOTE_OK) return fail("run", status);
  for (j = 0; j < mote_output_count(&ctx); ++j) {
    const uint8_t* bytes = (const uint8_t*)mote_output(&ctx, j);
    line[0] = 'o', line[1] = 'u', line[2] = 't', line[3] = (char)('0' + j % 10u), line[4] = ' ', line[5] = '\0';
    write_text(line);
    for (i = 0; i < mote_output_bytes(&ctx, j); i += 32) {
      uint32_t k, n = 0;
      for (k = i; k < i + 32 && k < mote_output_bytes(&ctx, j); ++k) {
        line[n++] = digits[bytes[k] >> 4];
        line[n++] = digits[bytes[k] & 15];
      }
      line[n] = '\0';
      write_text(line);
    }
    write_text("\n");
  }
  write_text("ok\n");
  return 0;
}
