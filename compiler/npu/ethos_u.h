// Ethos-U at compile time: the accelerators `--npu` names, the check of a Vela payload
// against one, and the command stream's summary (`mote compile` report, `mote inspect`).
// The payload's layout is kernels/ethos_u/ethos_u_payload.h; the facts behind every field
// and opcode are in docs/design/ethos_u_facts.md (sections 1-3).
//
// Command stream walk. Each command is one word (control bits 14-15 = 0: "cmd0", a
// 16-bit parameter in bits 16-31) or two (control 1: "cmd1", a 32-bit payload word
// follows); control 2 or 3 is a parse error. The walk counts the operations (NPU_OP_*:
// CONV, DEPTHWISE, POOL, ELEMENTWISE, DMA_START, RESIZE on U85) and, for each, the regions
// its register state says it reads and writes (IFM, IFM2, OFM, weights, scales, DMA
// source and destination; a DMA to the NPU's internal SHRAM names none). It refuses an
// opcode the accelerator's command set does not have, a stream that does not end with
// NPU_OP_STOP, a word after the STOP, a cmd1 header without its payload word, and any
// operation that writes region 0 (the constants: read-only, may be flash), naming the
// command index. describe_npu_op() then checks the byte extent of every access against
// its region's size with the functional model's check mode (ethos_u_model_check).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ethos_u/ethos_u_payload.h"
#include "ir/graph.h"
#include "report.h"

namespace mote::npu {

// An accelerator `--npu` names: ethos-u55-32/64/128/256, ethos-u65-256/512,
// ethos-u85-128/256/512/1024/2048.
struct Accelerator {
  EthosUProduct product = EthosUProduct::kU55;
  uint32_t macs = 0;            // MACs per cycle (all cores)
  uint32_t stream_version = 0;  // 0 for U55/U65, 1 for U85
  uint32_t arch_major = 0;      // 1 for U55/U65, 2 for U85
  uint32_t arch_minor = 0;      // the highest minor version whose streams it runs
  std::string name;             // "ethos-u65-256"
};

// Throws CompileError "unknown NPU 'x' (expected one of: ethos-u55-32, ...)".
Accelerator parse_accelerator(const std::string& name);
std::string accelerator_list();  // "ethos-u55-32, ethos-u55-64, ..."

// What a payload's CONFIG and ID words name, as `--npu` spells it with the versions:
// "ethos-u65-256 (command stream version 0, architecture 1.0.6)".
std::string describe_config(uint32_t config_word, uint32_t id_word);
// The --npu name for the config ("ethos-u65-256"), or "" when it names none.
std::string accelerator_name(uint32_t config_word);

// Empty when `npu` runs streams compiled for this payload (the driver's rule: same
// product, MACs and stream version, the same architecture major, a payload minor no
// higher than the accelerator's); else why not, in words.
std::string config_mismatch(const Accelerator& npu, uint32_t config_word, uint32_t id_word);

enum class CommandKind : uint8_t { kConv, kDepthwise, kPool, kElementwise, kDma, kResize, kOther };
inline constexpr size_t kCommandKinds = 7;
const char* command_kind_name(CommandKind kind);  // "conv", "depthwise", ...

struct StreamSummary {
  uint32_t commands = 0;  // commands (cmd0 and cmd1 alike), the final STOP included
  std::array<uint32_t, kCommandKinds> operations{};  // NPU_OP_* by kind
  uint32_t regions_read = 0;     // bit i: some operation reads region i
  uint32_t regions_written = 0;  // bit i: some operation writes region i
};

// Walks `words` (the payload's command stream) for an accelerator of `product`. Throws
// CompileError "<where>: command <i> (word <w>): <what>" on anything it refuses.
StreamSummary summarize_stream(std::span<const uint32_t> words, EthosUProduct product, const std::string& where);

// The payload's command words (parse_ethos_u_payload() accepted it).
std::vector<uint32_t> stream_words(std::span<const uint8_t> payload, const EthosUPayload& parsed);

// The report of one NPU op from its payload (parse_ethos_u_payload() accepted it) and
// its regions' sizes: region_bytes[i] for i < region_count (region 2: the driver's fast
// scratch when fast_scratch_bytes > 0). Throws CompileError "NPU op 'x': command 12
// (NPU_OP_CONV): OFM [a, b) runs past region 1 (n bytes)" when an access does not fit.
NpuOpReport describe_npu_op(const std::string& name, std::span<const uint8_t> payload,
                            std::span<const uint64_t> region_bytes, uint32_t fast_scratch_bytes);

// Checks every ethos_u node of `graph` against `npu` (the --npu value, "" when not
// given): a Vela model without --npu, or with an accelerator its payloads were not
// compiled for, is a CompileError naming what the file was compiled for. Returns the
// report of each NPU op (their regions sized from the graph's tensors).
std::vector<NpuOpReport> check_npu_ops(const ir::Graph& graph, const std::string& npu, const std::string& path);

}  // namespace mote::npu
