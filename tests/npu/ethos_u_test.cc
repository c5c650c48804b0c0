// Ethos-U (issue 19): the driver payload parser, the command stream walk, the import of
// Vela-compiled models with `--npu`, the NPU area planned at Vela's offline offsets, and
// the runtime's NPU op driven through a recording fake driver (what a real driver would
// be handed: payload, base addresses, sizes, alignment) and the C API.
//
// The models are the Vela-compiled files of ../shared/models/ethos-u (README there); the
// expected operation counts per op were decoded independently (docs/design/
// ethos_u_facts.md, section 7).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "all_kernels.h"
#include "common/error.h"
#include "compiler.h"
#include "ethos_u/ethos_u.h"
#include "ethos_u/ethos_u_payload.h"
#include "host/loaded_program.h"
#include "kernel_ids.h"
#include "mote/mote.h"
#include "npy.h"
#include "npu/ethos_u.h"
#include "test_util.h"

namespace mote::testing {
namespace ethos_u_test {

std::string vela(const std::string& name) { return shared_models() + "/ethos-u/" + name + ".tflite"; }

// The ethos_u nodes of a Vela file's import, in order.
std::vector<const ir::Node*> npu_nodes(const ir::Graph& graph) {
  std::vector<const ir::Node*> nodes;
  for (const ir::Node& node : graph.nodes)
    if (node.op == ir::Op::kEthosU) nodes.push_back(&node);
  return nodes;
}

std::string compile_error(const CompileOptions& options) {
  try {
    compile(options);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

CompileOptions options_for(const std::string& model, const std::string& target, const std::string& npu) {
  CompileOptions options;
  options.model_path = model;
  options.target = target;
  options.npu = npu;
  return options;
}

struct VelaFile {
  std::string name;
  std::string npu;
  size_t npu_ops;
  // Operations over all NPU ops: conv, depthwise, pool, elementwise, dma, resize.
  std::array<uint32_t, 6> operations;
  bool dedicated;  // the streams use region 2 (fast scratch)
};

const std::vector<VelaFile>& vela_files() {
  static const std::vector<VelaFile> files = {
      {"kws_micronet_m_vela_H128", "ethos-u55-128", 1, {12, 5, 1, 0, 16, 0}, false},
      {"kws_micronet_m_vela_H256", "ethos-u55-256", 1, {18, 5, 1, 0, 22, 0}, false},
      {"kws_micronet_m_vela_Y256", "ethos-u65-256", 1, {8, 5, 1, 0, 12, 0}, true},
      {"kws_micronet_m_vela_Z256", "ethos-u85-256", 1, {11, 5, 1, 0, 15, 0}, true},
      {"yolo-fastest_192_face_v4_vela_H256", "ethos-u55-256", 1, {82, 41, 10, 18, 123, 0}, false},
      {"yolo-fastest_192_face_v4_vela_Y256", "ethos-u65-256", 1, {71, 33, 10, 18, 104, 0}, true},
      {"yolo-fastest_192_face_v4_vela_Z256", "ethos-u85-256", 1, {60, 28, 9, 18, 58, 1}, true},
      {"espcn_x3_quant_vela", "ethos-u65-256", 6, {4, 0, 11, 0, 6, 0}, true},
  };
  return files;
}

// ---------------------------------------------------------------- payload

std::vector<uint8_t> first_payload(const std::string& name) {
  const ir::Graph graph = import_model(vela(name));
  const std::vector<const ir::Node*> nodes = npu_nodes(graph);
  if (nodes.empty()) return {};
  return graph.tensors[nodes[0]->inputs[0]].data;
}

void put_word(std::vector<uint8_t>& bytes, size_t index, uint32_t value) {
  for (int b = 0; b < 4; ++b) bytes[index * 4 + b] = static_cast<uint8_t>(value >> (8 * b));
}

EthosUPayloadError parse(const std::vector<uint8_t>& bytes, uint32_t* at = nullptr) {
  EthosUPayload parsed;
  return parse_ethos_u_payload(bytes.data(), static_cast<uint32_t>(bytes.size()), &parsed, at);
}

TEST(EthosUPayload, EveryVelaPayloadParsesWithItsStreamAt32Bytes) {
  size_t payloads = 0;
  for (const VelaFile& file : vela_files()) {
    const ir::Graph graph = import_model(vela(file.name));
    for (const ir::Node* node : npu_nodes(graph)) {
      const std::vector<uint8_t>& bytes = graph.tensors[node->inputs[0]].data;
      EthosUPayload parsed;
      ASSERT_EQ(parse_ethos_u_payload(bytes.data(), static_cast<uint32_t>(bytes.size()), &parsed),
                EthosUPayloadError::kOk)
          << file.name;
      EXPECT_EQ(parsed.stream_offset, 32u) << file.name;
      EXPECT_EQ(parsed.stream_offset + parsed.stream_words * 4, bytes.size()) << file.name;
      EXPECT_EQ(npu::accelerator_name(parsed.config_word), file.npu) << file.name;
      ++payloads;
    }
  }
  EXPECT_EQ(payloads, 13u);
}

TEST(EthosUPayload, ConfigWordsDecodeAsTheReadmeStates) {
  // kws H128: cfg 0x00001807 (U55, 2^7 MACs, 24 KiB SHRAM), id 0x10060000 (arch 1.0.6).
  const EthosUConfig u55 = decode_ethos_u_config(0x00001807u, 0x10060000u);
  EXPECT_EQ(u55.product, 0u);
  EXPECT_EQ(u55.macs, 128u);
  EXPECT_EQ(u55.shram_kib, 24u);
  EXPECT_EQ(u55.stream_version, 0u);
  EXPECT_EQ(u55.arch_major, 1u);
  EXPECT_EQ(u55.arch_minor, 0u);
  EXPECT_EQ(u55.arch_patch, 6u);
  // kws Z256: cfg 0x20000118 (U85, 256 MACs, stream version 1), id 0x20007000 (arch 2.0.0).
  const EthosUConfig u85 = decode_ethos_u_config(0x20000118u, 0x20007000u);
  EXPECT_EQ(u85.product, 2u);
  EXPECT_EQ(u85.macs, 256u);
  EXPECT_EQ(u85.stream_version, 1u);
  EXPECT_EQ(u85.shram_kib, 0u);
  EXPECT_EQ(u85.arch_major, 2u);
  EXPECT_EQ(npu::describe_config(0x10003008u, 0x10060000u),
            "ethos-u65-256 (command stream version 0, architecture 1.0.6)");
}

TEST(EthosUPayload, RefusesWhatTheDriverRefusesAndNamesTheWord) {
  const std::vector<uint8_t> good = first_payload("kws_micronet_m_vela_H128");
  ASSERT_GT(good.size(), 64u);
  ASSERT_EQ(parse(good), EthosUPayloadError::kOk);

  std::vector<uint8_t> b = good;
  b[0] = 'X';
  EXPECT_EQ(parse(b), EthosUPayloadError::kFourCC);
  b = good;
  b.pop_back();
  EXPECT_EQ(parse(b), EthosUPayloadError::kSize);
  EXPECT_EQ(parse({}), EthosUPayloadError::kSize);
  uint32_t at = 0;
  b = good;
  put_word(b, 4, 0x00000003u);  // a NOP replaced by READ_APB (debug action the driver refuses)
  EXPECT_EQ(parse(b, &at), EthosUPayloadError::kUnknownAction);
  EXPECT_EQ(at, 4u);
  b = good;
  put_word(b, 4, 0x00000000u);  // RESERVED
  EXPECT_EQ(parse(b), EthosUPayloadError::kUnknownAction);
  b = good;
  put_word(b, 4, 0x00100001u);  // a second OPTIMIZER_CONFIG
  EXPECT_EQ(parse(b), EthosUPayloadError::kTwoConfigs);
  b = good;
  put_word(b, 1, 0x00000005u);  // the config replaced by NOPs: the stream comes first
  put_word(b, 2, 0x00000005u);
  put_word(b, 3, 0x00000005u);
  EXPECT_EQ(parse(b), EthosUPayloadError::kStreamBeforeConfig);
  b = good;
  put_word(b, 7, 0x00000002u | ((good.size() / 4) << 16));  // the stream longer than the payload
  EXPECT_EQ(parse(b, &at), EthosUPayloadError::kTruncatedStream);
  EXPECT_EQ(at, 7u);
  b = good;
  put_word(b, 7, 0x00000002u);
  EXPECT_EQ(parse(b), EthosUPayloadError::kEmptyStream);
  // A NOP fewer before the stream: it starts at byte 28, not 16-byte aligned.
  b.assign(good.begin(), good.begin() + 12);
  b.insert(b.end(), good.begin() + 16, good.end());
  EXPECT_EQ(parse(b), EthosUPayloadError::kStreamMisaligned);
  // The config and NOPs only.
  b.assign(good.begin(), good.begin() + 28);
  EXPECT_EQ(parse(b), EthosUPayloadError::kNoStream);
}

TEST(EthosUPayload, EveryTruncationAndTagBitFlipIsRefusedOrParsedInBounds) {
  const std::vector<uint8_t> good = first_payload("kws_micronet_m_vela_H128");
  ASSERT_FALSE(good.empty());
  for (size_t words = 0; words < good.size() / 4; ++words) {
    const std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(words * 4));
    EXPECT_NE(parse(cut), EthosUPayloadError::kOk) << words << " words";
  }
  // Any bit of the action words (0..7) flipped: an error or a payload whose stream lies
  // inside the bytes (the sanitizer build runs this too).
  size_t refused = 0;
  for (size_t bit = 0; bit < 8 * 32; ++bit) {
    std::vector<uint8_t> b = good;
    b[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    EthosUPayload parsed;
    const EthosUPayloadError e = parse_ethos_u_payload(b.data(), static_cast<uint32_t>(b.size()), &parsed);
    if (e != EthosUPayloadError::kOk) {
      ++refused;
      continue;
    }
    EXPECT_LE(uint64_t{parsed.stream_offset} + uint64_t{parsed.stream_words} * 4, b.size()) << bit;
  }
  // Every flip of the FourCC is refused, and so are most flips of the action words.
  for (size_t bit = 0; bit < 32; ++bit) {
    std::vector<uint8_t> b = good;
    b[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    EXPECT_EQ(parse(b), EthosUPayloadError::kFourCC) << bit;
  }
  EXPECT_GE(refused, 64u);
}

// ---------------------------------------------------------------- command stream

TEST(EthosUStream, OperationCountsMatchTheIndependentDecode) {
  for (const VelaFile& file : vela_files()) {
    const ir::Graph graph = import_model(vela(file.name));
    const std::vector<NpuOpReport> reports = npu::check_npu_ops(graph, file.npu, file.name);
    ASSERT_EQ(reports.size(), file.npu_ops) << file.name;
    std::map<std::string, uint32_t> total;
    bool dedicated = false;
    for (const NpuOpReport& r : reports) {
      for (const auto& [kind, count] : r.operations) total[kind] += count;
      // Region 2 used: Dedicated_Sram, with a fast scratch of the scratch_fast tensor's size.
      ASSERT_GE(r.regions.size(), 3u);
      const bool fast = r.regions[2].read || r.regions[2].written;
      EXPECT_EQ(r.memory_mode, fast ? "Dedicated_Sram" : "Shared_Sram or Sram_Only") << file.name;
      EXPECT_EQ(r.fast_scratch_bytes != 0, fast) << file.name;
      EXPECT_EQ(r.regions[2].bytes, r.fast_scratch_bytes) << file.name;
      dedicated = dedicated || fast;
      EXPECT_FALSE(r.regions[0].written) << file.name;
      EXPECT_TRUE(r.regions[1].read || r.regions[1].written) << file.name;
    }
    EXPECT_EQ(dedicated, file.dedicated) << file.name;
    EXPECT_EQ(total["conv"], file.operations[0]) << file.name;
    EXPECT_EQ(total["depthwise"], file.operations[1]) << file.name;
    EXPECT_EQ(total["pool"], file.operations[2]) << file.name;
    EXPECT_EQ(total["elementwise"], file.operations[3]) << file.name;
    EXPECT_EQ(total["dma"], file.operations[4]) << file.name;
    EXPECT_EQ(total["resize"], file.operations[5]) << file.name;
  }
}

std::string stream_error(std::vector<uint32_t> words, EthosUProduct product) {
  try {
    npu::summarize_stream(words, product, "s");
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

std::vector<uint32_t> kws_stream() {
  const std::vector<uint8_t> payload = first_payload("kws_micronet_m_vela_H128");
  EthosUPayload parsed;
  EXPECT_EQ(parse_ethos_u_payload(payload.data(), static_cast<uint32_t>(payload.size()), &parsed),
            EthosUPayloadError::kOk);
  return npu::stream_words(payload, parsed);
}

TEST(EthosUStream, RefusesWritesToRegionZeroUnknownOpcodesAndMissingStopNamingTheCommand) {
  const std::vector<uint32_t> good = kws_stream();
  ASSERT_EQ(stream_error(good, EthosUProduct::kU55), "");
  // The first OFM_REGION (cmd0 0x11F) set to region 0: the next operation writes it.
  std::vector<uint32_t> w = good;
  size_t ofm = 0;
  while (ofm < w.size() && (w[ofm] & 0xC3FF) != 0x011F) ++ofm;
  ASSERT_LT(ofm, w.size());
  w[ofm] &= 0x0000FFFFu;
  EXPECT_NE(stream_error(w, EthosUProduct::kU55).find("writes region 0 (the constants, read-only)"),
            std::string::npos);
  EXPECT_EQ(stream_error(w, EthosUProduct::kU55).rfind("s: command ", 0), 0u);

  w = good;
  w[0] = 0x000003FEu;  // cmd0 opcode 0x3FE
  EXPECT_EQ(stream_error(w, EthosUProduct::kU55),
            "s: command 0 (word 0): one-word opcode 0x3FE is not in the U55 command set");
  w = good;
  w[0] = 0x00000123u;  // NPU_SET_PARALLEL_MODE: U65 only
  EXPECT_NE(stream_error(w, EthosUProduct::kU55).find("0x123 is not in the U55 command set"), std::string::npos);
  EXPECT_EQ(stream_error(w, EthosUProduct::kU65), "");
  w = good;
  w[0] = 0x00008000u;  // control bits 2
  EXPECT_NE(stream_error(w, EthosUProduct::kU55).find("control bits 2"), std::string::npos);
  w = good;
  w.back() = 0x00000013u;  // PMU_MASK instead of the STOP
  EXPECT_EQ(stream_error(w, EthosUProduct::kU55), "s: the command stream does not end with NPU_OP_STOP");
  w = good;
  w.push_back(0x00000013u);  // a command after the STOP
  EXPECT_NE(stream_error(w, EthosUProduct::kU55).find("a command after NPU_OP_STOP"), std::string::npos);
  w = good;
  w.back() = 0x00004020u;  // a two-word command as the last word
  EXPECT_NE(stream_error(w, EthosUProduct::kU55).find("without its second word"), std::string::npos);
  // U85's branch: control flow in the stream is refused.
  EXPECT_NE(stream_error({0x00004100u, 0u, 0xFFFF0000u}, EthosUProduct::kU85).find("NPU_OP_BRANCH"),
            std::string::npos);
}

// ---------------------------------------------------------------- --npu

TEST(EthosUCompile, AVelaFileNeedsTheNpuItWasCompiledFor) {
  const std::string h128 = vela("kws_micronet_m_vela_H128");
  EXPECT_EQ(compile_error(options_for(h128, "cortex-m55", "")),
            h128 + ": NPU op 'Identity' was compiled by Vela for ethos-u55-128 (command stream version 0, "
                   "architecture 1.0.6): give --npu ethos-u55-128");
  EXPECT_EQ(compile_error(options_for(h128, "cortex-m55", "ethos-u55-256")),
            h128 + ": NPU op 'Identity' was compiled by Vela for ethos-u55-128 (command stream version 0, "
                   "architecture 1.0.6), not for --npu ethos-u55-256 (another accelerator)");
  EXPECT_NE(compile_error(options_for(vela("kws_micronet_m_vela_Z256"), "cortex-m55", "ethos-u65-256"))
                .find("compiled by Vela for ethos-u85-256"),
            std::string::npos);
  EXPECT_EQ(compile_error(options_for(h128, "cortex-m55", "ethos-u77")),
            "unknown NPU 'ethos-u77' (expected one of: " + npu::accelerator_list() + ")");
  CompileOptions quantize = options_for(h128, "cortex-m55", "ethos-u55-128");
  quantize.quantize = "int8";
  EXPECT_EQ(compile_error(quantize), h128 + ": --quantize: a Vela-compiled model is quantized already");
  // A model Vela has not seen runs on the core; the report says so.
  const CompileResult plain =
      compile(options_for(shared_models() + "/ethos-u/kws_micronet_m.tflite", "cortex-m33", "ethos-u65-256"));
  EXPECT_TRUE(plain.report.npu.empty());
  ASSERT_FALSE(plain.report.notes.empty());
  EXPECT_NE(plain.report.notes.back().find("no ethos-u operators"), std::string::npos);
}

TEST(EthosUCompile, EveryVelaFileCompilesForItsNpuWithTheOpsAroundIt) {
  for (const VelaFile& file : vela_files()) {
    const std::string target = file.npu.find("u65") != std::string::npos ? "cortex-m33" : "cortex-m55";
    const CompileResult result = compile(options_for(vela(file.name), target, file.npu));
    EXPECT_EQ(result.report.npu.size(), file.npu_ops) << file.name;
    size_t npu_kernels = 0;
    for (const OpReport& op : result.report.ops) npu_kernels += op.kernel == "ethos_u";
    EXPECT_EQ(npu_kernels, file.npu_ops) << file.name;
    EXPECT_EQ(result.report.npu_fast_scratch_bytes != 0, file.dedicated) << file.name;
    // Every access checked against its region (the functional model's check mode; U85
    // streams too, chained feature maps excepted: they are not in memory).
    for (const NpuOpReport& op : result.report.npu) {
      EXPECT_TRUE(op.extents_checked) << file.name << " " << op.checks;
      for (const NpuRegionReport& region : op.regions) {
        EXPECT_LE(region.used_begin, region.used_end) << file.name;
        EXPECT_LE(region.used_end, region.bytes) << file.name << " region " << region.index;
        if (op.extents_checked && (region.read || region.written)) {
          EXPECT_GT(region.used_end, 0u) << file.name;
        }
      }
    }
  }
}

// A region smaller than the stream's accesses: the compile-time check (describe_npu_op,
// which compile() runs for every NPU op) names the first command that runs past it.
TEST(EthosUCompile, AnAccessPastItsRegionIsRefusedNamingTheCommandAndTheRegion) {
  const CompileResult result = compile(options_for(vela("kws_micronet_m_vela_H128"), "cortex-m55", "ethos-u55-128"));
  ASSERT_EQ(result.report.npu.size(), 1u);
  const NpuOpReport& op = result.report.npu[0];
  ASSERT_TRUE(op.extents_checked);
  const std::vector<uint8_t> payload = first_payload("kws_micronet_m_vela_H128");
  std::vector<uint64_t> sizes;
  for (const NpuRegionReport& region : op.regions) sizes.push_back(region.bytes);
  EXPECT_NO_THROW(npu::describe_npu_op("Identity", payload, sizes, 0));
  for (uint32_t r : {0u, 1u}) {
    ASSERT_GT(op.regions[r].used_end, 0u);
    std::vector<uint64_t> small = sizes;
    small[r] = op.regions[r].used_end - 1;
    try {
      npu::describe_npu_op("Identity", payload, small, 0);
      ADD_FAILURE() << "region " << r << " one byte short was accepted";
    } catch (const CompileError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find("NPU op 'Identity': command "), 0u) << message;
      EXPECT_NE(message.find("runs past region " + std::to_string(r) + " (" + std::to_string(small[r]) + " bytes)"),
                std::string::npos)
          << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  }
  // A region the stream uses but the op does not give.
  std::vector<uint64_t> absent = sizes;
  absent[1] = 0;
  try {
    npu::describe_npu_op("Identity", payload, absent, 0);
    ADD_FAILURE() << "an absent region 1 was accepted";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("uses region 1, which the op does not give"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------- the runtime's NPU op

// A driver that records every call and, optionally, writes a pattern through region 1 at
// an offset (what the NPU would write there) or fails.
struct Recorder {
  struct Invoke {
    const uint8_t* payload = nullptr;
    uint32_t payload_bytes = 0;
    std::vector<uint64_t> base;
    std::vector<uint32_t> bytes;
  };
  std::vector<Invoke> invokes;
  std::vector<std::string> calls;  // "clean", "invoke", "invalidate" in order
  int32_t fail_with = 0;
  int64_t write_offset = -1;       // region-1 offset the fake NPU writes `pattern` to
  std::vector<uint8_t> pattern;
  NpuDriver driver{};

  Recorder() {
    driver.invoke = [](void* user, const uint8_t* payload, uint32_t payload_bytes, const uint64_t* base,
                       const uint32_t* bytes, uint32_t count) -> int32_t {
      auto* self = static_cast<Recorder*>(user);
      self->calls.push_back("invoke");
      self->invokes.push_back({payload, payload_bytes, {base, base + count}, {bytes, bytes + count}});
      if (self->fail_with != 0) return self->fail_with;
      if (self->write_offset >= 0 && count > 1)
        std::memcpy(reinterpret_cast<uint8_t*>(base[1]) + self->write_offset, self->pattern.data(), self->pattern.size());
      return 0;
    };
    driver.clean_cache = [](void* user, const uint64_t*, const uint32_t*, uint32_t) {
      static_cast<Recorder*>(user)->calls.push_back("clean");
    };
    driver.invalidate_cache = [](void* user, const uint64_t*, const uint32_t*, uint32_t) {
      static_cast<Recorder*>(user)->calls.push_back("invalidate");
    };
    driver.user = this;
  }
};

std::vector<uint8_t> compile_vela(const std::string& name, const std::string& npu, const std::string& target) {
  return compile(options_for(vela(name), target, npu)).program;
}

uintptr_t address(const void* p) { return reinterpret_cast<uintptr_t>(p); }

TEST(EthosURuntime, TheDriverGetsThePayloadAndEveryRegionExactAndAligned) {
  for (const VelaFile& file : vela_files()) {
    if (file.name.find("yolo") != std::string::npos) continue;  // same shape as kws, bigger
    const std::vector<uint8_t> program = compile_vela(file.name, file.npu, "cortex-m33");
    alignas(16) static uint8_t fast[512 * 1024];
    Recorder recorder;
    recorder.driver.fast_scratch = fast;
    recorder.driver.fast_scratch_bytes = sizeof fast;
    LoadedProgram loaded(program, file.name, std::nullopt, 0, &recorder.driver);
    const Interpreter& interp = loaded.interpreter();
    loaded.run();
    ASSERT_EQ(recorder.invokes.size(), file.npu_ops) << file.name;

    // The NPU ops' expected feature-map offsets from region 1: Vela's offline offsets.
    const ir::Graph graph = import_model(vela(file.name));
    const std::vector<const ir::Node*> nodes = npu_nodes(graph);
    size_t n = 0, fast_ops = 0;
    for (uint32_t k = 0; k < interp.op_count(); ++k) {
      if (std::string(kernel_name(static_cast<KernelId>(interp.op_desc(k)->kernel))) != "ethos_u") continue;
      const OpContext ctx = interp.op_context(k);
      const Recorder::Invoke& call = recorder.invokes[n];
      const ir::Node& node = *nodes[n++];
      EXPECT_EQ(call.payload, ctx.input_data(0)) << file.name;
      EXPECT_EQ(call.payload_bytes, ctx.input_desc(0).bytes) << file.name;
      EXPECT_EQ(address(call.payload) % 16, 0u) << file.name;
      const size_t regions = std::min<size_t>(8, ctx.input_count() - 1 + ctx.output_count());
      ASSERT_EQ(call.base.size(), regions) << file.name;
      EXPECT_EQ(call.base[0], address(ctx.input_data(1))) << file.name;
      EXPECT_EQ(call.bytes[0], ctx.input_desc(1).bytes) << file.name;
      EXPECT_EQ(call.base[1], address(ctx.input_data(2))) << file.name;
      EXPECT_EQ(call.bytes[1], ctx.input_desc(2).bytes) << file.name;
      if (ethos_u_fast_scratch_bytes(ctx) != 0) {
        EXPECT_EQ(call.base[2], address(fast)) << file.name;
        EXPECT_EQ(call.bytes[2], ethos_u_fast_scratch_bytes(ctx)) << file.name;
        fast_ops++;
      } else {
        EXPECT_EQ(call.base[2], 0u) << file.name;
        EXPECT_EQ(call.bytes[2], 0u) << file.name;
      }
      for (size_t i = 0; i < regions; ++i) EXPECT_EQ(call.base[i] % 16, 0u) << file.name << " region " << i;
      // Every feature map sits at region 1's base + its offline offset.
      const auto* region1 = static_cast<const uint8_t*>(ctx.input_data(2));
      for (uint32_t i = kEthosUFeatureMapInput; i < ctx.input_count(); ++i)
        EXPECT_EQ(static_cast<const uint8_t*>(ctx.input_data(i)) - region1,
                  graph.tensors[node.inputs[i]].offline_offset)
            << file.name << " input " << i;
      for (uint32_t i = 0; i < ctx.output_count(); ++i)
        EXPECT_EQ(static_cast<const uint8_t*>(ctx.output_data(i)) - region1,
                  graph.tensors[node.outputs[i]].offline_offset)
            << file.name << " output " << i;
    }
    EXPECT_EQ(fast_ops != 0, file.dedicated) << file.name;
    // Cache maintenance around each invoke.
    ASSERT_EQ(recorder.calls.size(), 3 * file.npu_ops);
    EXPECT_EQ(recorder.calls[0], "clean");
    EXPECT_EQ(recorder.calls[1], "invoke");
    EXPECT_EQ(recorder.calls[2], "invalidate");
  }
}

TEST(EthosURuntime, WhatTheNpuWritesThroughRegionOneIsTheGraphOutput) {
  // kws H128: the output [1, 12] int8 at offline offset 208 of region 1.
  const std::vector<uint8_t> program = compile_vela("kws_micronet_m_vela_H128", "ethos-u55-128", "cortex-m55");
  Recorder recorder;
  recorder.write_offset = 208;
  for (int i = 0; i < 12; ++i) recorder.pattern.push_back(static_cast<uint8_t>(0x40 + i));
  LoadedProgram loaded(program, "kws", std::nullopt, 0xA5, &recorder.driver);
  loaded.run();
  const std::span<const uint8_t> out = loaded.output(0);
  ASSERT_EQ(out.size(), 12u);
  EXPECT_TRUE(std::equal(out.begin(), out.end(), recorder.pattern.begin()));
}

TEST(EthosURuntime, LoadRefusesWithoutADriverOrWithASmallFastScratch) {
  const std::vector<uint8_t> program = compile_vela("kws_micronet_m_vela_Y256", "ethos-u65-256", "cortex-m33");
  ProgramHeader h;
  std::memcpy(&h, program.data(), sizeof h);
  std::vector<uint8_t> arena_storage(h.arena_bytes + 16);
  uint8_t* arena = arena_storage.data() + (16 - address(arena_storage.data()) % 16) % 16;
  std::vector<uint8_t> program_storage(program.size() + 16);
  uint8_t* bytes = program_storage.data() + (16 - address(program_storage.data()) % 16) % 16;
  std::memcpy(bytes, program.data(), program.size());

  Interpreter interp;
  auto load = [&](const NpuDriver* driver) {
    LoadOptions options;
    options.npu = driver;
    return interp.load(Span<const uint8_t>(bytes, program.size()), Span<uint8_t>(arena, h.arena_bytes), all_kernels(),
                       options);
  };
  EXPECT_EQ(load(nullptr), Status::kNoNpuDriver);
  Recorder recorder;
  EXPECT_EQ(load(&recorder.driver), Status::kFastScratchTooSmall);  // none given
  alignas(16) static uint8_t fast[113536 + 16];
  recorder.driver.fast_scratch = fast;
  recorder.driver.fast_scratch_bytes = 113536 - 1;
  EXPECT_EQ(load(&recorder.driver), Status::kFastScratchTooSmall);
  recorder.driver.fast_scratch = fast + 8;
  recorder.driver.fast_scratch_bytes = 113536;
  EXPECT_EQ(load(&recorder.driver), Status::kFastScratchTooSmall);  // misaligned
  recorder.driver.fast_scratch = fast;
  EXPECT_EQ(load(&recorder.driver), Status::kOk);
  NpuDriver no_invoke = recorder.driver;
  no_invoke.invoke = nullptr;
  EXPECT_EQ(load(&no_invoke), Status::kNoNpuDriver);

  // A payload byte changed in the program (checksum not checked): the op's check refuses it.
  std::memcpy(bytes, program.data(), program.size());
  ASSERT_EQ(load(&recorder.driver), Status::kOk);
  const auto* payload = static_cast<const uint8_t*>(interp.op_context(0).input_data(0));
  const size_t at = static_cast<size_t>(payload - bytes);
  bytes[at] ^= 0xFF;  // the FourCC
  LoadOptions unchecked;
  unchecked.verify_checksum = false;
  unchecked.npu = &recorder.driver;
  EXPECT_EQ(interp.load(Span<const uint8_t>(bytes, program.size()), Span<uint8_t>(arena, h.arena_bytes),
                        all_kernels(), unchecked),
            Status::kBadParams);
  EXPECT_EQ(interp.failed_op(), 0u);
}

TEST(EthosURuntime, ADriverErrorStopsTheRunAtTheNpuOp) {
  // espcn: six NPU ops among TRANSPOSE and RESHAPE ops.
  const std::vector<uint8_t> program = compile_vela("espcn_x3_quant_vela", "ethos-u65-256", "cortex-m33");
  alignas(16) static uint8_t fast[64 * 1024];
  Recorder recorder;
  recorder.driver.fast_scratch = fast;
  recorder.driver.fast_scratch_bytes = sizeof fast;
  recorder.fail_with = -7;
  LoadedProgram loaded(program, "espcn", std::nullopt, 0, &recorder.driver);
  Interpreter& interp = loaded.interpreter();
  uint32_t first_npu = 0;
  while (std::string(kernel_name(static_cast<KernelId>(interp.op_desc(first_npu)->kernel))) != "ethos_u") ++first_npu;
  std::vector<uint32_t> begun;
  ProfileHook hook{[](void* user, uint32_t op) { static_cast<std::vector<uint32_t>*>(user)->push_back(op); }, nullptr,
                   &begun};
  EXPECT_EQ(interp.run(&hook), Status::kNpuFailed);
  EXPECT_EQ(interp.npu_error(), -7);
  ASSERT_FALSE(begun.empty());
  EXPECT_EQ(begun.back(), first_npu);  // nothing after the failed op ran
  EXPECT_EQ(recorder.invokes.size(), 1u);
  EXPECT_EQ(recorder.calls.back(), "invoke");  // no invalidate after a failure
  EXPECT_STREQ(status_string(Status::kNpuFailed), "NPU driver error");
  // The next run with a working driver runs every op.
  recorder.fail_with = 0;
  begun.clear();
  EXPECT_EQ(interp.run(&hook), Status::kOk);
  EXPECT_EQ(interp.npu_error(), 0);
  EXPECT_EQ(begun.size(), interp.op_count());
  EXPECT_EQ(recorder.invokes.size(), 1u + 6u);
  try {
    recorder.fail_with = 3;
    loaded.run();
    ADD_FAILURE() << "expected an error";
  } catch (const CompileError& e) {
    EXPECT_STREQ(e.what(), "espcn: run stopped: the NPU driver returned 3");
  }
}

TEST(EthosURuntime, TheCApiTakesTheDriver) {
  const std::vector<uint8_t> program = compile_vela("kws_micronet_m_vela_H128", "ethos-u55-128", "cortex-m55");
  std::vector<uint8_t> program_storage(program.size() + 16);
  uint8_t* bytes = program_storage.data() + (16 - address(program_storage.data()) % 16) % 16;
  std::memcpy(bytes, program.data(), program.size());
  const uint32_t arena_bytes = mote_program_arena_bytes(bytes, program.size());
  std::vector<uint8_t> arena_storage(arena_bytes + 16);
  uint8_t* arena = arena_storage.data() + (16 - address(arena_storage.data()) % 16) % 16;

  mote_context ctx;
  const mote_kernel_table* kernels = mote_kernel_table_of(all_kernels());
  EXPECT_EQ(mote_load(&ctx, bytes, program.size(), arena, arena_bytes, kernels), MOTE_NO_NPU_DRIVER);
  EXPECT_STREQ(mote_status_string(MOTE_NO_NPU_DRIVER), "no NPU driver");
  Recorder recorder;
  mote_npu_driver driver;
  std::memcpy(&driver, &recorder.driver, sizeof driver);
  ASSERT_EQ(mote_load_npu(&ctx, bytes, program.size(), arena, arena_bytes, kernels, &driver), MOTE_OK);
  EXPECT_EQ(mote_run(&ctx), MOTE_OK);
  EXPECT_EQ(recorder.invokes.size(), 1u);
  recorder.fail_with = 12;
  EXPECT_EQ(mote_run(&ctx), MOTE_NPU_FAILED);
  EXPECT_EQ(mote_npu_error(&ctx), 12);
}

// ---------------------------------------------------------------- the CLI

TEST(EthosUCli, CompileReportsInspectDescribesAndTheHostRunsIt) {
  TempDir dir;
  const std::string model = vela("kws_micronet_m_vela_Y256");
  const CommandResult compiled = run_mote("compile '" + model + "' --target cortex-m33 --npu ethos-u65-256 -o '" +
                                          dir.file("kws.mote") + "' --emit-c '" + dir.path() + "'");
  ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
  EXPECT_NE(compiled.out.find("npu      'Identity': ethos-u65-256 (command stream version 0, architecture 1.0.6), "
                              "Dedicated_Sram, "),
            std::string::npos)
      << compiled.out;
  EXPECT_NE(compiled.out.find("2 fast scratch 113,536 B rw AXI0 used [0, 113,536)"), std::string::npos) << compiled.out;
  EXPECT_NE(compiled.out.find("every feature map, weight, scale and DMA access inside its region"), std::string::npos)
      << compiled.out;
  const std::string header = read_text(dir.file("kws_micronet_m_vela_Y256.h"));
  EXPECT_NE(header.find("#define KWS_MICRONET_M_VELA_Y256_NPU_FAST_SCRATCH_BYTES 113536u"), std::string::npos);
  EXPECT_NE(header.find("mote_load_npu()"), std::string::npos);

  const CommandResult inspected = run_mote("inspect --json '" + dir.file("kws.mote") + "'");
  ASSERT_EQ(inspected.exit_code, 0) << inspected.err;
  const nlohmann::json j = nlohmann::json::parse(inspected.out);
  ASSERT_EQ(j["npu"].size(), 1u);
  EXPECT_EQ(j["npu"][0]["operations"]["conv"], 8);
  EXPECT_EQ(j["npu"][0]["operations"]["dma"], 12);
  EXPECT_EQ(j["npu"][0]["regions"][2]["bytes"], 113536);
  EXPECT_EQ(j["npu"][0]["regions"][2]["port"], "AXI0 (SRAM)");
  EXPECT_EQ(j["npu"][0]["regions"][2]["used"], nlohmann::json::array({0, 113536}));
  EXPECT_EQ(j["npu"][0]["regions"][1]["used"], nlohmann::json::array({0, 490}));
  EXPECT_EQ(j["npu"][0]["extents_checked"], true);
  EXPECT_EQ(j["npu_fast_scratch_bytes"], 113536);

  const CommandResult run = run_mote("run '" + dir.file("kws.mote") + "' --input '" + shared_models() +
                                     "/tflm-golden/kws_micronet_m.s0.in0.npy' --output-dir '" + dir.file("out") + "'");
  // The host runs the stream on the functional model of the NPU (ethos_u_model_test.cc
  // compares it with the TFLM goldens); here: the CLI writes TFLM's output.
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(written_output_count(dir.file("out")), 1);
  EXPECT_EQ(read_npy(dir.file("out") + "/out0.npy").data,
            read_npy(shared_models() + "/tflm-golden/kws_micronet_m.s0.out0.npy").data);

  const CommandResult missing = run_mote("compile '" + model + "' --target cortex-m33 -o '" + dir.file("x.mote") + "'");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(line_count(missing.err), 1) << missing.err;
  EXPECT_NE(missing.err.find("give --npu ethos-u65-256"), std::string::npos) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.mote")));
}

}  // namespace ethos_u_test
}  // namespace mote::testing
