// The Mote program format, version 1.1: the on-disk/in-flash layout that the compiler
// writes and the runtime reads in place (zero copy).
//
// Why not flatbuffers: the runtime is freestanding C++17 without the standard library's
// containers, and every field here is fixed-size, so a hand-written verifier over plain
// structs is smaller than flatbuffers' headers, has no dependency on the target, and is
// easy to fuzz. The layout is versioned (major = incompatible, minor = additive).
//
// Layout. All integers little-endian. The program starts 16-byte aligned.
//   ProgramHeader                       at offset 0
//   TensorDesc[tensor_count]            at tensors_offset   (4-aligned)
//   OpDesc[op_count]                    at ops_offset       (4-aligned)
//   uint32_t index_pool[index_count]    at index_offset     op io lists, graph inputs/outputs
//   params blob                         at params_offset    per-op parameter structs,
//                                                           quantization records (4-aligned each)
//   strings blob                        at strings_offset   NUL-terminated names
//   constant data blob                  at data_offset      (16-aligned; each tensor 16-aligned)
// The verifier checks every offset/size against total_bytes and every tensor against
// its section before anything is dereferenced, so no program bytes can make the runtime
// read or write outside the program and arena spans.
//
// State (minor version 1, additive: a 1.0 program loads unchanged and must hold zero in
// both fields below). A program may keep state between runs (TFLite resource variables,
// SVDF and LSTM variable tensors):
//   - TensorDesc::flags bit 0, kTensorPersistent: an arena tensor whose bytes persist
//     from one run() to the next. The planner gives it the whole schedule as lifetime
//     and never overlaps it with another buffer; no in-place link or alias touches it.
//     load() and reset_state() fill it with the low byte of its zero point when it has a
//     quantization record (TFLite Micro's memset of a resource variable; the compiler
//     gives a non-int8 variable tensor zero point 0, TFLite Micro's reset), else zeros.
//   - ProgramHeader::init_op_count: ops [0, init_op_count) run only on the first run()
//     after load() or reset_state() (TFLite's CALL_ONCE init subgraph, inlined there);
//     every later run() starts at op init_op_count. init_op_count <= op_count.
// The compiler writes version 1.0 for a program without state, 1.1 only when it has some.
#pragma once

#include <stdint.h>

namespace mote {

inline constexpr uint32_t kProgramMagic = 0x45544F4Du;  // "MOTE" read as little-endian u32
inline constexpr uint16_t kFormatVersionMajor = 1;
inline constexpr uint16_t kFormatVersionMinor = 1;
inline constexpr uint32_t kMaxRank = 6;
inline constexpr uint32_t kNoOffset = 0xFFFFFFFFu;  // "absent" for optional offsets
inline constexpr uint32_t kProgramAlignment = 16;
inline constexpr uint32_t kArenaAlignment = 16;
inline constexpr uint32_t kTensorAlignment = 16;  // arena and constant tensors start 16-aligned

enum class DType : uint8_t {
  kFloat32 = 1,
  kInt8 = 2,
  kInt16 = 3,
  kInt32 = 4,
  kUInt8 = 5,
  kInt64 = 6,
  kBool = 7,
};

// Bytes per element; 0 for an unknown dtype value.
constexpr uint32_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return 4;
    case DType::kInt8: return 1;
    case DType::kInt16: return 2;
    case DType::kInt32: return 4;
    case DType::kUInt8: return 1;
    case DType::kInt64: return 8;
    case DType::kBool: return 1;
  }
  return 0;
}

enum class Storage : uint8_t {
  kArena = 0,     // offset is into the caller's arena
  kConstant = 1,  // offset is into the program's constant data blob (read-only)
};

struct ProgramHeader {
  uint32_t magic;          // kProgramMagic
  uint16_t version_major;  // kFormatVersionMajor
  uint16_t version_minor;
  uint32_t total_bytes;    // size of the whole program
  uint32_t checksum;       // program_checksum(): CRC-32 of all bytes but this field
  uint32_t arena_bytes;    // planned arena size: the exact amount the program needs
  uint32_t tensor_count;
  uint32_t tensors_offset;
  uint32_t op_count;
  uint32_t ops_offset;
  uint32_t index_count;
  uint32_t index_offset;
  uint32_t input_count;    // graph inputs: index_pool[inputs_first .. +input_count)
  uint32_t inputs_first;
  uint32_t output_count;   // graph outputs: index_pool[outputs_first .. +output_count)
  uint32_t outputs_first;
  uint32_t params_bytes;
  uint32_t params_offset;
  uint32_t strings_bytes;
  uint32_t strings_offset;
  uint32_t data_bytes;
  uint32_t data_offset;
  uint32_t name_offset;    // model name in the strings blob, or kNoOffset
  uint32_t arena_lower_bound_bytes;  // informative: the schedule's peak of live bytes
  uint32_t init_op_count;  // ops run once, on the first run() (zero before version 1.1)
};
static_assert(sizeof(ProgramHeader) == 96, "ProgramHeader layout is part of the format");

// TensorDesc::flags bits; every other bit is zero.
inline constexpr uint8_t kTensorPersistent = 0x01;  // arena state kept between runs (1.1)

struct TensorDesc {
  uint8_t dtype;    // DType
  uint8_t rank;     // 0..kMaxRank; rank 0 is a scalar (one element)
  uint8_t storage;  // Storage
  uint8_t flags;    // kTensor* bits (version 1.1); zero in version 1.0
  uint32_t dims[kMaxRank];  // dims[rank..] are 1
  uint32_t offset;  // byte offset into arena or constant blob; kTensorAlignment-aligned
  uint32_t bytes;   // == product(dims[0..rank)) * dtype_size(dtype)
  uint32_t quant_offset;  // QuantRecord in the params blob, or kNoOffset (float tensors)
  uint32_t name_offset;   // in the strings blob, or kNoOffset
};
static_assert(sizeof(TensorDesc) == 44, "TensorDesc layout is part of the format");

// Quantization record (params blob): header followed by scale[count] (float32) then
// zero_point[count] (int32). count == 1: per-tensor; count == dims[axis]: per-channel.
struct QuantRecord {
  uint32_t count;
  int32_t axis;  // -1 when per-tensor
};

struct OpDesc {
  uint16_t kernel;        // KernelId (kernels/kernel_ids.h)
  uint8_t input_count;
  uint8_t output_count;
  uint32_t io_first;      // index_pool[io_first .. +input_count) inputs, then outputs
  uint32_t params_offset; // into the params blob (4-aligned), or kNoOffset when params_bytes == 0
  uint32_t params_bytes;  // must equal the kernel's parameter struct size
  uint32_t scratch_offset;  // arena byte offset of this op's scratch buffer
  uint32_t scratch_bytes;   // 0 when the kernel needs none
  uint32_t name_offset;     // source node name in the strings blob, or kNoOffset
};
static_assert(sizeof(OpDesc) == 28, "OpDesc layout is part of the format");

// An optional tensor input (e.g. a convolution without bias) is encoded in the io list
// as kNoTensor.
inline constexpr uint32_t kNoTensor = 0xFFFFFFFFu;

}  // namespace mote
