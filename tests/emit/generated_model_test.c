/* The sources `mote compile --emit-c` generated for lenet5_28, compiled as C99 and linked
 * with the runtime and kernel libraries like a firmware would, run on the host:
 *   generated_model_test INPUT.npy GOLDEN.npy
 * Exits 0 when the output matches the golden output (float32, |diff| <= 1e-4), else
 * prints one line naming the problem and exits 1. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lenet5_28.h"

static unsigned char arena[LENET5_28_ARENA_BYTES] __attribute__((aligned(16)));
static mote_context ctx;

/* Reads a float32 .npy payload of exactly `bytes` bytes (format 1.0 header). */
static int read_npy_payload(const char* path, void* data, size_t bytes) {
  unsigned char preamble[10];
  FILE* file = fopen(path, "rb");
  size_t header_bytes;
  int ok;
  if (file == NULL) return 0;
  ok = fread(preamble, 1, sizeof preamble, file) == sizeof preamble && preamble[6] == 1;
  header_bytes = (size_t)preamble[8] | (size_t)preamble[9] << 8;
  ok = ok && fseek(file, (long)(10 + header_bytes), SEEK_SET) == 0 && fread(data, 1, bytes, file) == bytes;
  ok = ok && fgetc(file) == EOF;
  fclose(file);
  return ok;
}

int main(int argc, char** argv) {
  static float input[LENET5_28_INPUT0_BYTES / 4];
  static float golden[LENET5_28_OUTPUT0_BYTES / 4];
  const float* output;
  uint32_t i;
  int status;
  if (argc != 3 || !read_npy_payload(argv[1], input, sizeof input) ||
      !read_npy_payload(argv[2], golden, sizeof golden)) {
    fprintf(stderr, "error: usage: generated_model_test INPUT.npy GOLDEN.npy (float32, model sizes)\n");
    return 1;
  }
  status = mote_load(&ctx, lenet5_28_program, sizeof lenet5_28_program, arena, sizeof arena,
                     lenet5_28_kernels());
  if (status != MOTE_OK) {
    fprintf(stderr, "error: mote_load: %s (kernel %u)\n", mote_status_string(status),
            (unsigned)mote_missing_kernel(&ctx));
    return 1;
  }
  if (((uintptr_t)lenet5_28_program) % 16 != 0) {
    fprintf(stderr, "error: program array not 16-byte aligned\n");
    return 1;
  }
  for (i = 0; i < mote_op_count(&ctx); ++i) {
    if (strcmp(lenet5_28_kernel_name(mote_op_kernel(&ctx, i)), "") == 0) {
      fprintf(stderr, "error: op %u: kernel %u has no name in the generated table\n", (unsigned)i,
              (unsigned)mote_op_kernel(&ctx, i));
      return 1;
    }
  }
  memcpy(mote_input(&ctx, 0), input, sizeof input);
  status = mote_run(&ctx);
  if (status != MOTE_OK) {
    fprintf(stderr, "error: mote_run: %s\n", mote_status_string(status));
    return 1;
  }
  output = (const float*)mote_output(&ctx, 0);
  for (i = 0; i < LENET5_28_OUTPUT0_BYTES / 4; ++i) {
    if (!(fabsf(output[i] - golden[i]) <= 1e-4f)) {
      fprintf(stderr, "error: output[%u] = %.8g, golden %.8g\n", (unsigned)i, output[i], golden[i]);
      return 1;
    }
  }
  printf("lenet5_28 from generated sources: %u ops, %u outputs match the golden output\n",
         (unsigned)mote_op_count(&ctx), (unsigned)(LENET5_28_OUTPUT0_BYTES / 4));
  return 0;
}
