// Shared body of the model importer fuzz targets (fuzz_onnx, fuzz_tflite).
#pragma once

#include <cstddef>
#include <cstdint>

namespace mote::fuzz {

// Writes the bytes to a per-process temporary file named *`extension` (the importers
// read files; they have no in-memory entry point) and runs the whole compile() pipeline
// on it: import, graph passes, lowering, planning, program writing. CompileError is the
// expected outcome for bad input; any other exception escapes and aborts the fuzzer.
// A program that compiles must load in the runtime verifier.
void compile_model_bytes(const uint8_t* data, size_t size, const char* extension);

}  // namespace mote::fuzz
