/* Scenarios of c_api_test.c (C99), called by c_api_driver_test.cc. */
#ifndef MOTE_TESTS_C_API_TEST_H_
#define MOTE_TESTS_C_API_TEST_H_

#include <stddef.h>
#include <stdint.h>

#include "mote/mote.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the C API reported about a loaded model. */
typedef struct c_api_model_facts {
  int input_dtype;
  int output_dtype;
  uint32_t input_rank;
  uint32_t output_rank;
  uint32_t input_dims[6];
  uint32_t output_dims[6];
  uint32_t op_count;
  uint32_t first_op_kernel;
  uint32_t program_bytes;
  uint32_t constant_bytes;
  uint32_t arena_planned_bytes;
  uint32_t arena_given_bytes;
} c_api_model_facts;

/* Loads `program` (16-aligned) with an arena of exactly its planned size, runs it on
 * `input` three times (plain, profiled, profiler cleared) and copies output 0 out.
 * Returns NULL on success, else the failed expectation. */
const char* c_api_run_model(const void* program, size_t program_bytes,
                            const mote_kernel_table* kernels, const void* input,
                            uint32_t input_bytes, void* output, uint32_t output_bytes,
                            c_api_model_facts* facts);

/* Every refusal: unloaded context, bad arguments, short arena, misalignment, truncation,
 * a table without the first op's kernel (`first_op_kernel`). NULL on success. */
const char* c_api_refusals(const void* program, size_t program_bytes,
                           const mote_kernel_table* kernels,
                           const mote_kernel_table* kernels_without_first_op,
                           uint32_t first_op_kernel);

#ifdef __cplusplus
}
#endif

#endif
