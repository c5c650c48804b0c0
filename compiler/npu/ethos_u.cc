#include "npu/ethos_u.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "common/error.h"
#include "ethos_u_model.h"
#include "mote/npu.h"

namespace mote::npu {
namespace {

struct AcceleratorRow {
  const char* name;
  EthosUProduct product;
  uint32_t macs;
};

constexpr AcceleratorRow kAccelerators[] = {
    {"ethos-u55-32", EthosUProduct::kU55, 32},     {"ethos-u55-64", EthosUProduct::kU55, 64},
    {"ethos-u55-128", EthosUProduct::kU55, 128},   {"ethos-u55-256", EthosUProduct::kU55, 256},
    {"ethos-u65-256", EthosUProduct::kU65, 256},   {"ethos-u65-512", EthosUProduct::kU65, 512},
    {"ethos-u85-128", EthosUProduct::kU85, 128},   {"ethos-u85-256", EthosUProduct::kU85, 256},
    {"ethos-u85-512", EthosUProduct::kU85, 512},   {"ethos-u85-1024", EthosUProduct::kU85, 1024},
    {"ethos-u85-2048", EthosUProduct::kU85, 2048},
};

Accelerator from_row(const AcceleratorRow& row) {
  Accelerator a;
  a.product = row.product;
  a.macs = row.macs;
  const bool u85 = row.product == EthosUProduct::kU85;
  a.stream_version = u85 ? 1 : 0;
  a.arch_major = u85 ? 2 : 1;
  a.arch_minor = 0;
  a.name = row.name;
  return a;
}

const char* product_name(uint32_t product) {
  switch (product) {
    case 0: return "U55";
    case 1: return "U65";
    case 2: return "U85";
  }
  return nullptr;
}

// ---- opcodes (docs/design/ethos_u_facts.md 2.2 and 3; Arm's ethosu55/65/85_interface.h)
enum Cmd0 : uint16_t {
  kStop = 0x000,
  kConv = 0x002,
  kDepthwise = 0x003,
  kPool = 0x005,
  kElementwise = 0x006,
  kResize = 0x007,  // U85
  kDmaStart = 0x010,
  kIfmPrecision = 0x105,
  kIfmRegion = 0x10F,
  kOfmPrecision = 0x114,
  kOfmRegion = 0x11F,
  kWeightRegion = 0x128,
  kScaleRegion = 0x129,
  kDmaSrcRegion = 0x130,
  kDmaDstRegion = 0x131,
  kIfm2Broadcast = 0x180,
  kIfm2Region = 0x18F,
};

// cmd0 opcodes common to every product, then each product's own.
constexpr uint16_t kCmd0Common[] = {
    0x000, 0x001, 0x002, 0x003, 0x005, 0x006, 0x010, 0x011, 0x012, 0x013, 0x100, 0x101, 0x102, 0x103,
    0x104, 0x105, 0x107, 0x109, 0x10A, 0x10B, 0x10C, 0x10F, 0x111, 0x112, 0x113, 0x114, 0x115, 0x116,
    0x117, 0x118, 0x11A, 0x11B, 0x11C, 0x11F, 0x120, 0x121, 0x122, 0x124, 0x125, 0x126, 0x127, 0x128,
    0x129, 0x12F, 0x130, 0x131, 0x132, 0x133, 0x180, 0x185, 0x189, 0x18A, 0x18B, 0x18C, 0x18F,
};
constexpr uint16_t kCmd0U55[] = {0x10D, 0x12D, 0x181, 0x18D};
constexpr uint16_t kCmd0U65[] = {0x10D, 0x123, 0x12D, 0x181, 0x18D};
constexpr uint16_t kCmd0U85[] = {0x007, 0x108, 0x12A, 0x12B, 0x12C, 0x12D, 0x12E, 0x134};
constexpr uint16_t kCmd1Common[] = {
    0x000, 0x001, 0x002, 0x003, 0x004, 0x005, 0x006, 0x010, 0x011, 0x012, 0x013, 0x014, 0x015,
    0x016, 0x020, 0x021, 0x022, 0x023, 0x024, 0x025, 0x026, 0x030, 0x031, 0x032, 0x080, 0x081,
    0x082, 0x083, 0x084, 0x085, 0x086,
};
constexpr uint16_t kCmd1U55[] = {0x033, 0x034, 0x0A0, 0x0A1, 0x0A2, 0x0A3, 0x0A4, 0x0A5, 0x0A6, 0x0A7};
constexpr uint16_t kCmd1U65[] = {0x033, 0x034, 0x090, 0x091, 0x092, 0x093};
constexpr uint16_t kCmd1U85[] = {0x027, 0x033, 0x034, 0x035, 0x036, 0x037, 0x038, 0x039, 0x090,
                                 0x091, 0x092, 0x093, 0x094, 0x095, 0x096, 0x097, 0x100};

bool listed(std::span<const uint16_t> list, uint16_t opcode) {
  return std::find(list.begin(), list.end(), opcode) != list.end();
}

bool known_opcode(EthosUProduct product, bool cmd1, uint16_t opcode) {
  using List = std::span<const uint16_t>;
  if (listed(cmd1 ? List(kCmd1Common) : List(kCmd0Common), opcode)) return true;
  switch (product) {
    case EthosUProduct::kU55: return listed(cmd1 ? List(kCmd1U55) : List(kCmd0U55), opcode);
    case EthosUProduct::kU65: return listed(cmd1 ? List(kCmd1U65) : List(kCmd0U65), opcode);
    case EthosUProduct::kU85: return listed(cmd1 ? List(kCmd1U85) : List(kCmd0U85), opcode);
  }
  return false;
}

// The region state the operations read (a region-select command's param bits 0-2).
struct Regions {
  uint32_t ifm = 0, ifm2 = 0, ofm = 0, weight = 0, scale = 0, dma_src = 0, dma_dst = 0;
  bool dma_src_internal = false, dma_dst_internal = false;
  bool ifm2_scalar = false;
  bool ifm_chained = false, ofm_chained = false;  // U85: not in memory
};

}  // namespace

Accelerator parse_accelerator(const std::string& name) {
  for (const AcceleratorRow& row : kAccelerators)
    if (name == row.name) return from_row(row);
  throw CompileError("unknown NPU '" + name + "' (expected one of: " + accelerator_list() + ")");
}

std::string accelerator_list() {
  std::string list;
  for (const AcceleratorRow& row : kAccelerators) list += (list.empty() ? "" : ", ") + std::string(row.name);
  return list;
}

std::string accelerator_name(uint32_t config_word) {
  const EthosUConfig c = decode_ethos_u_config(config_word, 0);
  for (const AcceleratorRow& row : kAccelerators)
    if (static_cast<uint32_t>(row.product) == c.product && row.macs == c.macs) return row.name;
  return "";
}

std::string describe_config(uint32_t config_word, uint32_t id_word) {
  const EthosUConfig c = decode_ethos_u_config(config_word, id_word);
  std::string name = accelerator_name(config_word);
  if (name.empty()) {
    const char* product = product_name(c.product);
    name = std::string(product ? product : "unknown product " + std::to_string(c.product)) + " with " +
           std::to_string(c.macs) + " MACs";
  }
  return name + " (command stream version " + std::to_string(c.stream_version) + ", architecture " +
         std::to_string(c.arch_major) + "." + std::to_string(c.arch_minor) + "." + std::to_string(c.arch_patch) +
         ")";
}

std::string config_mismatch(const Accelerator& npu, uint32_t config_word, uint32_t id_word) {
  const EthosUConfig c = decode_ethos_u_config(config_word, id_word);
  if (c.product != static_cast<uint32_t>(npu.product) || c.macs != npu.macs) return "another accelerator";
  if (c.stream_version != npu.stream_version)
    return "command stream version " + std::to_string(c.stream_version) + " (" + npu.name + " runs version " +
           std::to_string(npu.stream_version) + ")";
  if (c.arch_major != npu.arch_major || c.arch_minor > npu.arch_minor)
    return "architecture " + std::to_string(c.arch_major) + "." + std::to_string(c.arch_minor) + " (" + npu.name +
           " is " + std::to_string(npu.arch_major) + "." + std::to_string(npu.arch_minor) + ")";
  return "";
}

const char* command_kind_name(CommandKind kind) {
  switch (kind) {
    case CommandKind::kConv: return "conv";
    case CommandKind::kDepthwise: return "depthwise";
    case CommandKind::kPool: return "pool";
    case CommandKind::kElementwise: return "elementwise";
    case CommandKind::kDma: return "dma";
    case CommandKind::kResize: return "resize";
    case CommandKind::kOther: return "other";
  }
  return "?";
}

std::vector<uint32_t> stream_words(std::span<const uint8_t> payload, const EthosUPayload& parsed) {
  std::vector<uint32_t> words(parsed.stream_words);
  for (uint32_t i = 0; i < parsed.stream_words; ++i) words[i] = ethos_u_word(payload.data() + parsed.stream_offset, i);
  return words;
}

StreamSummary summarize_stream(std::span<const uint32_t> words, EthosUProduct product, const std::string& where) {
  StreamSummary s;
  Regions r;
  const bool u85 = product == EthosUProduct::kU85;
  bool stopped = false;
  for (size_t w = 0; w < words.size(); ++s.commands) {
    const uint32_t index = s.commands;
    auto fail = [&](const std::string& what) {
      throw CompileError(where + ": command " + std::to_string(index) + " (word " + std::to_string(w) + "): " + what);
    };
    if (stopped) fail("a command after NPU_OP_STOP");
    const uint32_t word = words[w];
    const uint16_t opcode = word & 0x3FF;
    const uint32_t control = (word >> 14) & 3;
    const uint32_t param = word >> 16;
    if (control > 1) fail("control bits " + std::to_string(control) + " (a command is 0 or 1)");
    const bool cmd1 = control == 1;
    if (cmd1 && w + 1 >= words.size()) fail("a two-word command without its second word");
    if (!known_opcode(product, cmd1, opcode)) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%03X", opcode);
      fail(std::string(cmd1 ? "two-word" : "one-word") + " opcode " + hex + " is not in the " +
           product_name(static_cast<uint32_t>(product)) + " command set");
    }
    w += cmd1 ? 2 : 1;
    if (cmd1) {
      if (opcode == 0x100) fail("NPU_OP_BRANCH: control flow in a command stream is not supported");
      continue;
    }
    auto reads = [&](uint32_t region) { s.regions_read |= 1u << region; };
    auto writes = [&](uint32_t region, const char* what) {
      if (region == 0) fail(std::string(what) + " writes region 0 (the constants, read-only)");
      s.regions_written |= 1u << region;
    };
    auto feature_maps = [&](bool ifm2) {
      if (!r.ifm_chained) reads(r.ifm);
      if (ifm2 && !r.ifm2_scalar) reads(r.ifm2);
      if (!r.ofm_chained) writes(r.ofm, "its output feature map");
    };
    switch (opcode) {
      case kStop: stopped = true; break;
      case kConv:
      case kDepthwise:
        ++s.operations[static_cast<size_t>(opcode == kConv ? CommandKind::kConv : CommandKind::kDepthwise)];
        feature_maps(u85 && opcode == kConv && (param & 1) != 0);  // U85: weights from IFM2 (matmul)
        reads(r.weight);
        reads(r.scale);
        break;
      case kPool:
        ++s.operations[static_cast<size_t>(CommandKind::kPool)];
        feature_maps(false);
        break;
      case kElementwise:
        ++s.operations[static_cast<size_t>(CommandKind::kElementwise)];
        feature_maps(true);
        break;
      case kResize:
        ++s.operations[static_cast<size_t>(CommandKind::kResize)];
        feature_maps(false);
        break;
      case kDmaStart:
        ++s.operations[static_cast<size_t>(CommandKind::kDma)];
        if (!r.dma_src_internal) reads(r.dma_src);
        if (!r.dma_dst_internal) writes(r.dma_dst, "a DMA");
        break;
      case kIfmRegion: r.ifm = param & 7; break;
      case kIfm2Region: r.ifm2 = param & 7; break;
      case kOfmRegion: r.ofm = param & 7; break;
      case kWeightRegion: r.weight = param & 7; break;
      case kScaleRegion: r.scale = param & 7; break;
      case kDmaSrcRegion:
        r.dma_src = param & 7;
        r.dma_src_internal = (param >> 8 & 1) != 0;
        break;
      case kDmaDstRegion:
        r.dma_dst = param & 7;
        r.dma_dst_internal = (param >> 8 & 1) != 0;
        break;
      case kIfm2Broadcast: r.ifm2_scalar = u85 ? (param & 0xF) == 8 : (param >> 7 & 1) != 0; break;
      case kIfmPrecision:
        if (u85) r.ifm_chained = (param >> 14) == 2;
        break;
      case kOfmPrecision:
        if (u85) r.ofm_chained = (param >> 14) == 2;
        break;
      default:
        if (opcode < 0x100) ++s.operations[static_cast<size_t>(CommandKind::kOther)];
        break;
    }
  }
  if (!stopped) throw CompileError(where + ": the command stream does not end with NPU_OP_STOP");
  return s;
}

NpuOpReport describe_npu_op(const std::string& name, std::span<const uint8_t> payload,
                            std::span<const uint64_t> region_bytes, uint32_t fast_scratch_bytes) {
  EthosUPayload parsed;
  if (parse_ethos_u_payload(payload.data(), static_cast<uint32_t>(payload.size()), &parsed) != EthosUPayloadError::kOk)
    throw CompileError("NPU op '" + name + "': the driver payload does not parse");
  const EthosUConfig config = decode_ethos_u_config(parsed.config_word, parsed.id_word);
  const auto product = static_cast<EthosUProduct>(config.product);
  const StreamSummary summary = summarize_stream(stream_words(payload, parsed), product, "NPU op '" + name + "'");
  NpuOpReport r;
  r.name = name;
  r.accelerator = describe_config(parsed.config_word, parsed.id_word);
  r.commands = summary.commands;
  for (size_t k = 0; k < kCommandKinds; ++k)
    r.operations.emplace_back(command_kind_name(static_cast<CommandKind>(k)), summary.operations[k]);
  const bool dedicated = ((summary.regions_read | summary.regions_written) & (1u << 2)) != 0;
  r.memory_mode = dedicated ? "Dedicated_Sram" : "Shared_Sram or Sram_Only";
  r.fast_scratch_bytes = fast_scratch_bytes;
  // Arm's driver defaults (ethosu_config_u55.h / _u65.h): the constants behind AXI1 (the
  // external port: flash or DRAM); the arena behind AXI0 (SRAM) on U55 and on U65 AXI1
  // (DRAM, with the fast scratch in SRAM behind AXI0).
  const char* sram = "AXI0 (SRAM)";
  const char* external = "AXI1 (external: flash or DRAM)";
  const char* roles[] = {"constants", "scratch", "fast scratch"};
  for (uint32_t i = 0; i < region_bytes.size(); ++i) {
    NpuRegionReport region;
    region.index = i;
    region.role = i < 3 ? roles[i] : "feature map";
    region.bytes = region_bytes[i];
    region.read = (summary.regions_read >> i & 1) != 0;
    region.written = (summary.regions_written >> i & 1) != 0;
    if (i == 0) region.port = external;
    else if (i == 1) region.port = product != EthosUProduct::kU55 && dedicated ? external : sram;
    else region.port = sram;
    r.regions.push_back(region);
  }
  r.checks = "payload parsed; every command in the " + std::string(product_name(config.product)) +
             " command set; ends with STOP; no write to region 0; ";

  // Every access against its region's size: the functional model's walk, in check mode.
  std::vector<uint32_t> sizes;
  for (uint64_t bytes : region_bytes) sizes.push_back(static_cast<uint32_t>(std::min<uint64_t>(bytes, UINT32_MAX)));
  EthosUModelCheck check;
  const int32_t rc = ethos_u_model_check(payload.data(), static_cast<uint32_t>(payload.size()), sizes.data(),
                                         static_cast<uint32_t>(sizes.size()), &check);
  if (rc != 0 && rc != kEthosUModelUnsupported)
    throw CompileError("NPU op '" + name + "': " + check.error);
  for (NpuRegionReport& region : r.regions) {
    if (region.index >= kEthosUModelRegions) continue;
    const EthosURegionUse& use = check.regions[region.index];
    if (use.read || use.written) region.used_begin = use.begin, region.used_end = use.end;
  }
  r.extents_checked = rc == 0;
  if (rc == 0)
    r.checks += "every feature map, weight, scale and DMA access inside its region";
  else
    r.checks += "accesses inside their regions up to command " + std::to_string(check.commands) +
                ", not after it (" + check.error + ")";
  return r;
}

std::vector<NpuOpReport> check_npu_ops(const ir::Graph& graph, const std::string& npu, const std::string& path) {
  std::vector<NpuOpReport> reports;
  std::optional<Accelerator> accelerator;
  if (!npu.empty()) accelerator = parse_accelerator(npu);
  for (const ir::Node& node : graph.nodes) {
    if (node.op != ir::Op::kEthosU) continue;
    const auto config = static_cast<uint32_t>(node.get_int("config_word", 0));
    const auto id = static_cast<uint32_t>(node.get_int("id_word", 0));
    const std::string label = path + ": NPU op '" + node.name + "' was compiled by Vela for " + describe_config(config, id);
    if (!accelerator) {
      const std::string name = accelerator_name(config);
      throw CompileError(label + (name.empty() ? ", which --npu cannot name" : ": give --npu " + name));
    }
    const std::string why = config_mismatch(*accelerator, config, id);
    if (!why.empty()) throw CompileError(label + ", not for --npu " + accelerator->name + " (" + why + ")");
    const auto fast = static_cast<uint32_t>(node.get_int("fast_scratch_bytes", 0));
    std::vector<uint64_t> regions;
    const size_t count = std::min<size_t>(kNpuMaxRegions, node.inputs.size() - 1 + node.outputs.size());
    for (size_t i = 0; i < count; ++i) {
      const size_t k = i + 1;
      const int tensor = k < node.inputs.size() ? node.inputs[k] : node.outputs[k - node.inputs.size()];
      uint64_t bytes = tensor == ir::kNoTensor ? 0 : static_cast<uint64_t>(graph.tensors[tensor].bytes());
      if (i == 2 && fast != 0) bytes = fast;
      regions.push_back(bytes);
    }
    reports.push_back(describe_npu_op(node.name, graph.tensors[node.inputs[0]].data, regions, fast));
  }
  return reports;
}

}  // namespace mote::npu
