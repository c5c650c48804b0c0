// Fuzz target: any bytes as a .tflite file -> compile(). See model_file_target.h.
#include "model_file_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mote::fuzz::compile_model_bytes(data, size, ".tflite");
  return 0;
}
