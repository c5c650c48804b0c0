// A functional model of the Arm Ethos-U55, Ethos-U65 and Ethos-U85 NPUs: runs a Vela
// command stream (the "COP1" driver payload, kernels/ethos_u/ethos_u_payload.h) over the
// regions an NPU op hands its driver (mote/npu.h) and writes what the NPU would write.
// Functional, not cycle-accurate, and not verified on hardware: the arithmetic is what
// docs/design/ethos_u_facts.md (sections 2, 3 and 4) records, checked bit for bit against
// TensorFlow Lite Micro and Mote's CPU kernels on the Vela files the tests name.
//
// What it runs: the register file (kept across the stream: Vela writes only registers
// that change), NPU_OP_CONV, NPU_OP_DEPTHWISE, NPU_OP_POOL (MAX, AVERAGE, REDUCE_SUM),
// NPU_OP_ELEMENTWISE (MUL, ADD, SUB, MIN, MAX, LRELU, ABS, SHL, SHR, CLZ), NPU_OP_DMA_START
// (1-D copies between regions, and into the SHRAM's LUT area), 8/16/32-bit feature maps
// in NHWC and NHCWB16 with up to four tiles, strides, padding, dilation, 2x upscaling,
// MLW-compressed weights with Vela's weight order, the 10-byte bias/scale records, the
// OFM rounding modes, activation clipping and 256-entry LUTs. The waits, block
// configuration and SHRAM layout registers change nothing a functional model computes.
// Ethos-U85 streams (architecture 2.0) decode per the U85's command set: its weight
// order for SWD weights (dense and 2:4 sparse) and FWD weights, 32-bit accumulator
// records, rounding from OFM_SCALE, CHAINED feature maps (an OFM passed to the next
// operation without memory), POOL MAX/AVERAGE/SUM, ELEMENTWISE MUL/ADD/SUB/MIN/MAX with
// IFM/IFM2_SCALE double rounding, broadcast and OP_SCALAR, and RESIZE NEAREST.
// What it refuses, naming the command: the built-in TANH/SIGMOID, 16-bit LUTs, 2-D/3-D
// DMA, dual-core U65-512 weight streams, any opcode the product does not have; on the
// U85: NPU_OP_BRANCH, 48-bit accumulators and accumulator KEEP/IFM2 input, a disabled
// OFM, TILE3X1 storage, OFM reverse/transpose, LUT activations, matmul (weights from
// IFM2), FWD depthwise weights, resize BILINEAR/REPLICATE, the other elementwise and
// pooling modes, OFM double rounding or IFM broadcast outside ELEMENTWISE, a chained
// input with a chained OFM, indexed and internal-memory DMA, U85-512 and larger (several
// weight decoders).
//
// Every memory access is checked against the region sizes given to invoke: an operation
// whose feature map, weights, scales or DMA range runs past its region fails before it
// touches a byte, with "command 123 (NPU_OP_CONV): ..." in the model's error text. The
// same walk without data (ethos_u_model_check) is the compiler's check of every access.
//
// Freestanding C++17: no heap, no exceptions, no std containers. The caller owns the
// model state and a workspace (decoded weights, per-channel records, MLW slice buffers,
// the U85's chained feature map);
// ethos_u_model_workspace_bytes() says how much a payload needs.
#pragma once

#include <stdint.h>

namespace mote {

inline constexpr uint32_t kEthosUModelLutBytes = 2048;   // the LUT area: the SHRAM's last 2 KiB
inline constexpr uint32_t kEthosUModelErrorBytes = 200;

// About 20 minutes of the host model; zero_dce's NPU ops run 1.6e10.
inline constexpr uint64_t kEthosUModelDefaultWorkLimit = uint64_t{1} << 40;

struct EthosUModel {
  uint8_t* workspace = nullptr;  // 8-byte aligned, workspace_bytes long, owned by the caller
  uint64_t workspace_bytes = 0;
  // The multiply-accumulates (element steps for pooling, elementwise and resize) one
  // invoke may run; 0: kEthosUModelDefaultWorkLimit. A stream's cost is what its
  // registers declare (a hostile one can declare a huge feature map over a small region
  // with overlapping strides): past the limit the invoke stops with an error line.
  uint64_t work_limit = 0;
  uint8_t lut[kEthosUModelLutBytes] = {};  // what DMAs to the SHRAM's LUT area wrote
  char error[kEthosUModelErrorBytes] = {};  // "" or the last invoke's error
};

// Error codes invoke returns (0: success).
inline constexpr int32_t kEthosUModelBadPayload = -1;   // the payload does not parse
inline constexpr int32_t kEthosUModelBadCommand = -2;   // an opcode or field it cannot run
inline constexpr int32_t kEthosUModelOutOfRegion = -3;  // an access past a region's end
inline constexpr int32_t kEthosUModelWorkspace = -4;    // the workspace is too small
inline constexpr int32_t kEthosUModelUnsupported = -5;  // built-in TANH/SIGMOID, U85 branches, ...

// The workspace a payload's stream needs (the largest over its operations, plus the
// largest U85 chained feature map); 0 when it
// needs none or does not parse (invoke then says why).
uint64_t ethos_u_model_workspace_bytes(const uint8_t* payload, uint32_t payload_bytes);

// NpuDriver::invoke's signature; `user` is an EthosUModel. Runs the whole stream.
int32_t ethos_u_model_invoke(void* user, const uint8_t* payload, uint32_t payload_bytes,
                             const uint64_t* base_addresses, const uint32_t* base_bytes, uint32_t region_count);

// What a stream's accesses span in one region (byte offsets from its base).
struct EthosURegionUse {
  uint64_t begin, end;  // [begin, end): the lowest and highest byte accessed
  bool read, written;
};
inline constexpr uint32_t kEthosUModelRegions = 8;  // the 3-bit region fields

struct EthosUModelCheck {
  EthosURegionUse regions[kEthosUModelRegions] = {};  // up to where the walk got
  uint32_t commands = 0;                         // commands walked
  char error[kEthosUModelErrorBytes] = {};       // "" or why the walk stopped
};

// The compile-time check: walks the stream as invoke would, checking every feature map,
// weight, scale and DMA access against `region_bytes` (0: the region is not given) without
// touching any data or computing anything, and records what each region's accesses span.
// Returns invoke's codes: 0, or kEthosUModelOutOfRegion / kEthosUModelBadCommand /
// kEthosUModelBadPayload with `result->error` naming the command, or
// kEthosUModelUnsupported where the model stops (a feature it does not model: the
// accesses after it are unchecked).
int32_t ethos_u_model_check(const uint8_t* payload, uint32_t payload_bytes, const uint32_t* region_bytes,
                            uint32_t region_count, EthosUModelCheck* result);

// The last invoke's error as one line ("" after a success).
inline const char* ethos_u_model_error(const EthosUModel& model) { return model.error; }

}  // namespace mote
