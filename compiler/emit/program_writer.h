// Serializes a lowered, planned program into the v1.1 program format
// (runtime/include/mote/program_format.h).
//
// The writer decides nothing about the model: kernel choice, parameter structs, arena
// offsets and scratch come from lowering and the memory planner. It lays out the sections
// in format order (header, tensors, ops, index pool, params, strings, constant data),
// deduplicates name strings, packs constants 16-aligned, and fills the checksum. All
// padding is zero and nothing depends on addresses or hash order, so equal input gives
// byte-identical output. It throws CompileError if a value does not fit the format
// (rank > kMaxRank, a dim or size over 32 bits, more than 255 inputs to an op, ...).
//
// Offsets stored in the program are relative to their section: TensorDesc::offset into
// the arena or the constant data blob, params/quant offsets into the params blob, name
// offsets into the strings blob.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "mote/program_format.h"

namespace mote::emit {

struct ProgramTensor {
  std::string name;  // "" -> no name stored
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;
  Storage storage = Storage::kArena;
  uint64_t arena_offset = 0;   // kArena: from the memory plan
  std::vector<uint8_t> data;   // kConstant: the payload, exactly bytes() long
  ir::QuantParams quant;       // empty for float tensors
  bool persistent = false;     // kArena state kept between runs (kTensorPersistent)
};

struct ProgramOp {
  std::string name;  // source node name
  uint16_t kernel = 0;  // KernelId
  std::vector<uint32_t> inputs;   // tensor indices, kNoTensor for an absent optional input
  std::vector<uint32_t> outputs;
  std::vector<uint8_t> params;    // the kernel's parameter struct, byte for byte
  uint64_t scratch_offset = 0;    // arena offset, from the memory plan
  uint64_t scratch_bytes = 0;
};

struct ProgramSpec {
  std::string model_name;
  std::vector<ProgramTensor> tensors;
  std::vector<ProgramOp> ops;
  std::vector<uint32_t> inputs;   // graph inputs, tensor indices (arena tensors)
  std::vector<uint32_t> outputs;  // graph outputs, tensor indices (arena tensors)
  uint64_t arena_bytes = 0;
  uint64_t arena_lower_bound_bytes = 0;
  uint64_t init_op_count = 0;     // ops[0, init_op_count) run once, on the first run
};

// Returns the program bytes. Throws CompileError for anything the format cannot hold or
// that the runtime's verifier would reject (index out of range, tensor outside the arena,
// constant with a payload of the wrong size, graph io in constant storage).
std::vector<uint8_t> write_program(const ProgramSpec& spec);

}  // namespace mote::emit
