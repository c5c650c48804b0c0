// The functional model of the Ethos-U55/U65/U85 (platforms/ethos_u/ethos_u_model.h):
//   - the Vela files of ../shared/models/ethos-u (U55, U65 and U85 streams) run on the
//     host (LoadedProgram's default NPU driver) and equal TensorFlow Lite Micro's outputs
//     (tflm-golden) bit for bit on the three golden inputs, and Mote's CPU kernels on the
//     plain twin on three random full-range inputs;
//   - on the ATU files (NXP's Vela), every stretch of NPU work between CPU ops equals the
//     plain twin on identical inputs, except the stretches holding a PAD with channel
//     padding, which NXP's Vela lowers to a concatenation along C alone (dropping the
//     other axis' padding): those differ as that lowering implies;
//   - synthetic streams: feature-map layouts, a U85 copy and scalar ADD, and the error
//     paths (an OFM past its region, an unknown opcode, U85 features it does not model,
//     bit flips in real U55 and U85 streams): one line naming the command, no crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "compiler.h"
#include "compiler/host_run.h"
#include "ethos_u_model.h"
#include "host/loaded_program.h"
#include "kernel_ids.h"
#include "mote/program_format.h"
#include "pad/pad.h"
#include "npy.h"
#include "test_util.h"

namespace mote::testing {
namespace ethos_u_model_test {

std::string ethos_u_file(const std::string& name) { return shared_models() + "/ethos-u/" + name + ".tflite"; }
std::string golden(const std::string& name) { return shared_models() + "/tflm-golden/" + name; }

std::vector<uint8_t> compile_file(const std::string& path, const std::string& npu) {
  CompileOptions options;
  options.model_path = path;
  options.target = "cortex-m55";
  options.npu = npu;
  return compile(options).program;
}

struct VelaCase {
  std::string vela;    // file under ethos-u/
  std::string npu;
  std::string plain;   // the plain twin, also the golden files' stem
  uint32_t outputs;
};

const VelaCase kCases[] = {
    {"kws_micronet_m_vela_H128", "ethos-u55-128", "kws_micronet_m", 1},
    {"kws_micronet_m_vela_H256", "ethos-u55-256", "kws_micronet_m", 1},
    {"kws_micronet_m_vela_Y256", "ethos-u65-256", "kws_micronet_m", 1},
    {"yolo-fastest_192_face_v4_vela_H256", "ethos-u55-256", "yolo-fastest_192_face_v4", 2},
    {"yolo-fastest_192_face_v4_vela_Y256", "ethos-u65-256", "yolo-fastest_192_face_v4", 2},
    {"kws_micronet_m_vela_Z256", "ethos-u85-256", "kws_micronet_m", 1},
    {"yolo-fastest_192_face_v4_vela_Z256", "ethos-u85-256", "yolo-fastest_192_face_v4", 2},
};

void PrintTo(const VelaCase& c, std::ostream* os) { *os << c.vela; }

class VelaFiles : public ::testing::TestWithParam<VelaCase> {};

// The Vela op's outputs may come in another order than the goldens (yolo): each golden
// output is matched with the program output of its size, which is unique in these files.
TEST_P(VelaFiles, EqualTheTflmGoldensBitForBit) {
  const VelaCase& c = GetParam();
  const std::vector<uint8_t> program = compile_file(ethos_u_file(c.vela), c.npu);
  for (int s = 0; s < 3; ++s) {
    const std::string stem = golden(c.plain + ".s" + std::to_string(s));
    const NpyArray input = read_npy(stem + ".in0.npy");
    const std::vector<std::vector<uint8_t>> outputs = run_on_host(program, input.data);
    ASSERT_EQ(outputs.size(), c.outputs);
    for (uint32_t j = 0; j < c.outputs; ++j) {
      const NpyArray expected = read_npy(stem + ".out" + std::to_string(j) + ".npy");
      size_t matched = 0;
      for (const std::vector<uint8_t>& out : outputs) {
        if (out.size() != expected.data.size()) continue;
        ++matched;
        EXPECT_EQ(out, expected.data) << c.vela << " sample " << s << " output " << j;
      }
      EXPECT_EQ(matched, 1u) << c.vela << " output " << j;
    }
  }
}

TEST_P(VelaFiles, EqualThePlainTwinOnRandomFullRangeInputs) {
  const VelaCase& c = GetParam();
  const std::vector<uint8_t> vela = compile_file(ethos_u_file(c.vela), c.npu);
  const std::vector<uint8_t> plain = compile_file(ethos_u_file(c.plain), "");
  LoadedProgram probe(plain, c.plain);
  const uint32_t input_bytes = probe.interpreter().input_desc(0)->bytes;
  std::mt19937 rng(19);
  for (int s = 0; s < 3; ++s) {
    std::vector<uint8_t> input(input_bytes);
    for (uint8_t& b : input) b = static_cast<uint8_t>(rng());
    const auto expected = run_on_host(plain, input);
    const auto actual = run_on_host(vela, input);
    ASSERT_EQ(actual.size(), expected.size());
    for (const std::vector<uint8_t>& want : expected) {
      size_t matched = 0;
      for (const std::vector<uint8_t>& got : actual) {
        if (got.size() != want.size()) continue;
        ++matched;
        EXPECT_EQ(got, want) << c.vela << " random input " << s;
      }
      EXPECT_EQ(matched, 1u);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EthosUModel, VelaFiles, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<VelaCase>& info) {
                           std::string name = info.param.vela;
                           for (char& ch : name)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

// ---------------------------------------------------------------- the ATU files

// Every op's outputs of one run, by op name (the Vela and plain programs share the names
// of the ops Vela kept whole).
std::map<std::string, std::vector<std::vector<uint8_t>>> outputs_by_op(const std::vector<uint8_t>& program,
                                                                       const std::vector<uint8_t>& input) {
  LoadedProgram loaded(program, "program", std::nullopt, 0xA5);
  loaded.set_input(0, input);
  struct Capture {
    LoadedProgram* loaded;
    std::map<std::string, std::vector<std::vector<uint8_t>>> outputs;
  } capture{&loaded, {}};
  ProfileHook hook{nullptr,
                   [](void* user, uint32_t op) {
                     auto* c = static_cast<Capture*>(user);
                     const OpContext ctx = c->loaded->interpreter().op_context(op);
                     std::string name = c->loaded->describe_op(op);
                     name = name.substr(name.find('\'') + 1);
                     name.pop_back();
                     auto& list = c->outputs[name];
                     for (uint32_t i = 0; i < ctx.output_count(); ++i) {
                       const auto* p = static_cast<const uint8_t*>(ctx.output_data(i));
                       list.emplace_back(p, p + ctx.output_desc(i).bytes);
                     }
                   },
                   &capture};
  loaded.run(&hook);
  return capture.outputs;
}

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> bytes(n);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  return bytes;
}

// Every op's outputs of a Vela file (on the model) and of its plain twin (on the CPU
// kernels) for one random uint8 input.
struct TwinRun {
  std::map<std::string, std::vector<std::vector<uint8_t>>> vela, plain;
};
TwinRun run_twins(const std::string& name, size_t input_bytes, uint32_t seed) {
  const std::vector<uint8_t> input = random_bytes(input_bytes, seed);
  return {outputs_by_op(compile_file(ethos_u_file(name + "_vela"), "ethos-u65-256"), input),
          outputs_by_op(compile_file(ethos_u_file(name), ""), input)};
}

// espcn op 0 quantizes the uint8 image, pads it by 2 on TFLite's W and C axes (the image
// is NCHW [1,1,104,160] in an NHWC graph) into the fast scratch, and runs the first 5x5
// conv with its TANH as a LUT. NXP's Vela lowered that PAD to a concatenation along C
// (facts 2.9b): the stream writes the C padding (OFM base 2 = the C offset; the W offset
// would add 2 x 164 bytes) and nothing for the W padding: the image lands in rows 0-103 of
// the 108-row buffer instead of 2-105, and rows 104-107 are never written. So the graph output differs from the plain twin, while the model's
// conv + LUT is exact: its row r equals the reference's row r + 2 for every row whose
// window reads image rows only (r = 0..99).
TEST(EthosUModelAtu, EspcnFirstConvIsExactUpToVelasMissingPadRows) {
  TwinRun run = run_twins("espcn_x3_quant", 104 * 160, 3);
  auto& v = run.vela;
  auto& p = run.plain;
  ASSERT_EQ(v["Pad_2"].size(), 3u);
  const std::vector<uint8_t>& npu = v["Pad_2"][2];        // [1,104,160,64] after the LUT
  const std::vector<uint8_t>& cpu = p["onnx_tf_prefix_Tanh_1"][0];
  ASSERT_EQ(npu.size(), cpu.size());
  const size_t row = 160 * 64;
  for (size_t r = 0; r < 100; ++r)
    ASSERT_TRUE(std::equal(npu.begin() + r * row, npu.begin() + (r + 1) * row, cpu.begin() + (r + 2) * row))
        << "row " << r;
  EXPECT_NE(std::vector<uint8_t>(npu.begin(), npu.begin() + row), std::vector<uint8_t>(cpu.begin(), cpu.begin() + row));
}

// squeezenet: the uint8 input quantization, the 3x3/2 first conv and the squeeze 1x1 conv
// (with its fused max pool) equal the plain twin's; the first pad buffer built by NPU
// ops 0 and 8 ([1,16,57,57], padded on TFLite's W and C axes) misses its W padding as in
// espcn, and everything after it differs.
TEST(EthosUModelAtu, SqueezenetMatchesUntilVelasFirstPadBuffer) {
  TwinRun run = run_twins("squeezenet_v1_1_quant", 3 * 224 * 224, 5);
  auto& v = run.vela;
  auto& p = run.plain;
  const std::string first_conv = "onnx_tf_prefix_/features/init_block/activ/Relu;Add;convolution_22;convolution;Const_50";
  const std::string squeeze =
      "onnx_tf_prefix_/features/stage1/unit1/squeeze/activ/Relu;Add_1;convolution_4;convolution_1;Const_48";
  ASSERT_EQ(v[first_conv].size(), 1u);
  ASSERT_EQ(p[first_conv].size(), 1u);
  EXPECT_EQ(v[first_conv][0], p[first_conv][0]);
  ASSERT_EQ(v[squeeze].size(), 1u);
  ASSERT_EQ(p[squeeze].size(), 1u);
  EXPECT_EQ(v[squeeze][0], p[squeeze][0]);
  // The padded buffer the CPU transposes next: [1,16,57,57] in both programs.
  ASSERT_EQ(v["transpose_12"].size(), 1u);
  ASSERT_EQ(p["transpose_12"].size(), 1u);
  EXPECT_NE(v["transpose_12"][0], p["transpose_12"][0]);
}

// zero_dce (arena 94 MB): NPU op 0 quantizes the uint8 image and computes x*x - x with an
// elementwise MUL and SUB, both equal to the plain twin's; its pad buffer [1,3,402,602]
// (NCHW, padded by 1 on TFLite's W and C axes) again misses the W padding: its rows are
// the reference's rows shifted by one.
TEST(EthosUModelAtu, ZeroDceElementwiseIsExactAndItsPadBufferIsShiftedByVela) {
  TwinRun run = run_twins("zero_dce_quant", 3 * 400 * 600, 7);
  auto& v = run.vela;
  auto& p = run.plain;
  ASSERT_EQ(v["tfl.quantize"].size(), 9u);
  ASSERT_EQ(p["tfl.quantize"].size(), 1u);
  EXPECT_EQ(v["tfl.quantize"][0], p["tfl.quantize"][0]);
  ASSERT_EQ(p["onnx_tf_prefix_Sub_19"].size(), 1u);
  EXPECT_EQ(v["tfl.quantize"][1], p["onnx_tf_prefix_Sub_19"][0]);
  const std::vector<uint8_t>& npu_pad = v["tfl.quantize"][8];
  ASSERT_EQ(p["Pad"].size(), 1u);
  const std::vector<uint8_t>& cpu_pad = p["Pad"][0];
  ASSERT_EQ(npu_pad.size(), 3u * 402 * 602);
  ASSERT_EQ(cpu_pad.size(), npu_pad.size());
  for (size_t c = 0; c < 3; ++c)
    for (size_t r = 0; r < 400; ++r) {
      const size_t npu_row = (c * 402 + r) * 602 + 1, cpu_row = (c * 402 + r + 1) * 602 + 1;
      ASSERT_TRUE(std::equal(npu_pad.begin() + npu_row, npu_pad.begin() + npu_row + 600, cpu_pad.begin() + cpu_row))
          << "channel " << c << " row " << r;
    }
}

// ------------------------------------------------- every segment between CPU ops, in turn
//
// The NPU ops of a Vela file sit between CPU ops Vela kept whole (TRANSPOSE, RESHAPE, ...),
// which the plain twin also has under the same names. Run the Vela program on the model
// and record every CPU op's outputs; run the plain twin and, after each of those ops,
// compare its outputs with the Vela program's, then overwrite them with the Vela
// program's. So every stretch of NPU work (with the CPU kernels in it) is checked on
// identical inputs, one stretch at a time, and one defect cannot hide the rest; the graph
// outputs must then be equal.
//
// The known defect (facts 2.9b): NXP's Vela turns a PAD with channel padding into a
// concatenation along C alone, dropping the padding of the other axes, so a stretch whose
// plain ops contain such a PAD differs. The check derives which stretches those are from
// the plain program (a CPU op is "after the defect" when data flows into it from a pad op
// that Vela moved to the NPU and that pads the last axis and another one, with no
// overwrite in between) and requires the differing ops to be exactly those.
struct SegmentCheck {
  std::vector<std::string> compared;        // CPU ops compared, in plain program order
  std::vector<std::string> differing;       // whose outputs differed before the overwrite
  std::vector<std::string> after_defect;    // whose inputs depend on a C-and-other-axis pad
  uint32_t defective_pads = 0;
  bool outputs_equal = false;
};

bool is_kernel(const LoadedProgram& program, uint32_t op, KernelId kernel) {
  OpDesc desc;
  std::memcpy(&desc, program.bytes() + program.header().ops_offset + op * sizeof(OpDesc), sizeof(desc));
  return desc.kernel == static_cast<uint16_t>(kernel);
}

std::string op_name(const LoadedProgram& program, uint32_t op) {
  std::string name = program.describe_op(op);
  const size_t quote = name.find('\'');
  return quote == std::string::npos ? "" : name.substr(quote + 1, name.size() - quote - 2);
}

// A pad that NXP's Vela lowers wrongly: padding on the last axis and on another one.
bool pads_channels_and_more(const OpContext& ctx) {
  const PadParams& p = ctx.params<PadParams>();
  const uint32_t last = ctx.output_desc(0).rank - 1;
  bool channels = false, other = false;
  for (uint32_t axis = 0; axis <= last; ++axis) {
    const bool padded = p.before[axis] != 0 || p.after[axis] != 0;
    (axis == last ? channels : other) |= padded;
  }
  return channels && other;
}

SegmentCheck check_segments(const std::string& name, size_t input_bytes, uint32_t seed) {
  const std::vector<uint8_t> input = random_bytes(input_bytes, seed);
  LoadedProgram vela(compile_file(ethos_u_file(name + "_vela"), "ethos-u65-256"), name + "_vela", std::nullopt, 0xA5);
  LoadedProgram plain(compile_file(ethos_u_file(name), ""), name, std::nullopt, 0xA5);
  struct State {
    LoadedProgram* program;
    std::map<std::string, std::vector<std::vector<uint8_t>>> cpu_outputs;  // the Vela run's
    std::set<const void*> tainted;  // plain buffers computed from a defective pad's output
    SegmentCheck result;
  } state{&vela, {}, {}, {}};
  ProfileHook record{nullptr,
                     [](void* user, uint32_t op) {
                       auto* s = static_cast<State*>(user);
                       if (is_kernel(*s->program, op, KernelId::kEthosU)) return;
                       const OpContext ctx = s->program->interpreter().op_context(op);
                       auto& list = s->cpu_outputs[op_name(*s->program, op)];
                       if (!list.empty()) return;  // CPU op names are unique in these files
                       for (uint32_t i = 0; i < ctx.output_count(); ++i) {
                         const auto* p = static_cast<const uint8_t*>(ctx.output_data(i));
                         list.emplace_back(p, p + ctx.output_desc(i).bytes);
                       }
                     },
                     &state};
  vela.set_input(0, input);
  vela.run(&record);
  state.program = &plain;
  ProfileHook overwrite{
      nullptr,
      [](void* user, uint32_t op) {
        auto* s = static_cast<State*>(user);
        const OpContext ctx = s->program->interpreter().op_context(op);
        bool tainted = false;
        for (uint32_t i = 0; i < ctx.input_count(); ++i) tainted |= s->tainted.count(ctx.input_data(i)) > 0;
        const std::string n = op_name(*s->program, op);
        const auto it = s->cpu_outputs.find(n);
        const bool on_npu = it == s->cpu_outputs.end();  // Vela did not keep it as a CPU op
        if (on_npu && is_kernel(*s->program, op, KernelId::kPad) && pads_channels_and_more(ctx)) {
          ++s->result.defective_pads;
          tainted = true;
        }
        bool overwritten = it != s->cpu_outputs.end() && ctx.output_count() == it->second.size();
        for (uint32_t i = 0; overwritten && i < ctx.output_count(); ++i)
          overwritten = ctx.output_desc(i).bytes == it->second[i].size();
        if (overwritten) {
          s->result.compared.push_back(n);
          if (tainted) s->result.after_defect.push_back(n);
          bool equal = true;
          for (uint32_t i = 0; i < ctx.output_count(); ++i) {
            auto* p = static_cast<uint8_t*>(ctx.output_data(i));
            equal = equal && std::memcmp(p, it->second[i].data(), it->second[i].size()) == 0;
            std::memcpy(p, it->second[i].data(), it->second[i].size());
          }
          if (!equal) s->result.differing.push_back(n);
          tainted = false;
        }
        for (uint32_t i = 0; i < ctx.output_count(); ++i) {
          if (tainted)
            s->tainted.insert(ctx.output_data(i));
          else
            s->tainted.erase(ctx.output_data(i));
        }
      },
      &state};
  plain.set_input(0, input);
  plain.run(&overwrite);
  const uint32_t outputs = plain.interpreter().output_count();
  state.result.outputs_equal = outputs == vela.interpreter().output_count();
  for (uint32_t i = 0; state.result.outputs_equal && i < outputs; ++i) {
    const std::span<const uint8_t> a = plain.output(i), b = vela.output(i);
    state.result.outputs_equal = std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  return state.result;
}

void expect_only_the_pad_defect_differs(const std::string& name, size_t input_bytes, uint32_t defective_pads,
                                        uint32_t samples) {
  for (uint32_t seed = 11; seed < 11 + samples; ++seed) {
    const SegmentCheck check = check_segments(name, input_bytes, seed);
    EXPECT_GE(check.compared.size(), 2 * defective_pads) << name;
    EXPECT_EQ(check.defective_pads, defective_pads) << name;
    EXPECT_EQ(check.differing, check.after_defect) << name << " seed " << seed;
    EXPECT_TRUE(check.outputs_equal) << name << " seed " << seed;
  }
}

TEST(EthosUModelAtu, EspcnEveryStretchIsExactExceptAfterVelasPadDefect) {
  expect_only_the_pad_defect_differs("espcn_x3_quant", 104 * 160, 3, 3);
}

TEST(EthosUModelAtu, SqueezenetEveryStretchIsExactExceptAfterVelasPadDefect) {
  expect_only_the_pad_defect_differs("squeezenet_v1_1_quant", 3 * 224 * 224, 8, 3);
}

TEST(EthosUModelAtu, ZeroDceEveryStretchIsExactExceptAfterVelasPadDefect) {
  expect_only_the_pad_defect_differs("zero_dce_quant", 3 * 400 * 600, 7, 1);  // about 30 s a sample
}

// ---------------------------------------------------------------- synthetic streams

// A COP1 payload around command words (facts section 1): FourCC, OPTIMIZER_CONFIG, three
// NOPs, COMMAND_STREAM at byte 28, the commands from byte 32.
struct StreamBuilder {
  std::vector<uint32_t> commands;
  void cmd0(uint16_t opcode, uint16_t param) { commands.push_back(opcode | uint32_t{param} << 16); }
  void cmd1(uint16_t opcode, uint32_t value) {
    commands.push_back(opcode | 0x4000u);
    commands.push_back(value);
  }
  std::vector<uint8_t> payload(uint32_t config, uint32_t id) const {
    std::vector<uint32_t> words = {0x31504F43u, 0x00100001u, config, id, 5, 5, 5};
    const uint32_t n = static_cast<uint32_t>(commands.size());
    words.push_back(2u | (n & 0xFFFFu) << 16 | ((n >> 16) & 0xFFu) << 8);
    words.insert(words.end(), commands.begin(), commands.end());
    std::vector<uint8_t> bytes(words.size() * 4);
    std::memcpy(bytes.data(), words.data(), bytes.size());
    return bytes;
  }
};

constexpr uint32_t kU55Config = 0x00001807u, kU65Config = 0x10003008u, kU85Config = 0x20000118u;
constexpr uint32_t kArch1 = 0x10060000u, kArch2 = 0x20007000u;

// A 1x1 AVERAGE pool with a global scale of 1.0: a copy of an h x w x d int8 map from
// region 1 offset 0 (NHWC) to region 1 offset `ofm_base` (NHCWB16 when `brick`).
StreamBuilder copy_stream(uint32_t h, uint32_t w, uint32_t d, uint32_t ofm_base, bool brick) {
  StreamBuilder s;
  s.cmd0(0x10F, 1);                          // IFM_REGION 1
  s.cmd1(0x000, 0);                          // IFM_BASE0
  s.cmd0(0x10B, static_cast<uint16_t>(h - 1));  // IFM_HEIGHT0_M1
  s.cmd0(0x10C, static_cast<uint16_t>(h - 1));  // IFM_HEIGHT1_M1
  s.cmd0(0x10A, static_cast<uint16_t>(w - 1));  // IFM_WIDTH0_M1
  s.cmd0(0x104, static_cast<uint16_t>(d - 1));  // IFM_DEPTH_M1
  s.cmd1(0x004, d);                          // IFM_STRIDE_X
  s.cmd1(0x005, w * d);                      // IFM_STRIDE_Y
  s.cmd1(0x006, 1);                          // IFM_STRIDE_C
  s.cmd0(0x105, 1);                          // IFM_PRECISION: int8 NHWC
  s.cmd0(0x109, 0);                          // IFM_ZERO_POINT
  s.cmd0(0x11F, 1);                          // OFM_REGION 1
  s.cmd1(0x010, ofm_base);                   // OFM_BASE0
  s.cmd0(0x112, static_cast<uint16_t>(h - 1));  // OFM_HEIGHT_M1
  s.cmd0(0x111, static_cast<uint16_t>(w - 1));  // OFM_WIDTH_M1
  s.cmd0(0x113, static_cast<uint16_t>(d - 1));  // OFM_DEPTH_M1
  s.cmd0(0x11B, static_cast<uint16_t>(h - 1));  // OFM_HEIGHT0_M1
  s.cmd0(0x11C, static_cast<uint16_t>(h - 1));  // OFM_HEIGHT1_M1
  s.cmd0(0x11A, static_cast<uint16_t>(w - 1));  // OFM_WIDTH0_M1
  const uint32_t depth16 = (d + 15) / 16 * 16;
  s.cmd1(0x014, brick ? 16 : d);             // OFM_STRIDE_X
  s.cmd1(0x015, brick ? w * depth16 : w * d);  // OFM_STRIDE_Y
  s.cmd1(0x016, brick ? 16 * w : 1);         // OFM_STRIDE_C
  s.cmd0(0x114, static_cast<uint16_t>(0x8101u | (brick ? 0x40u : 0u)));  // OFM_PRECISION: int8, global, natural
  s.cmd0(0x118, 0);                          // OFM_ZERO_POINT
  s.cmd0(0x120, 0);                          // KERNEL_WIDTH_M1
  s.cmd0(0x121, 0);                          // KERNEL_HEIGHT_M1
  s.cmd0(0x122, 0);                          // KERNEL_STRIDE
  s.cmd0(0x125, 0);                          // ACTIVATION: none
  s.cmd0(0x126, 0xFF80);                     // ACTIVATION_MIN -128
  s.cmd0(0x127, 0x007F);                     // ACTIVATION_MAX 127
  s.commands.push_back(0x4024u | 30u << 16);  // OFM_SCALE: shift 30
  s.commands.push_back(1u << 30);            //   scale 2^30
  s.cmd0(0x005, 1);                          // NPU_OP_POOL AVERAGE
  s.cmd0(0x000, 0xFFFF);                     // NPU_OP_STOP
  return s;
}

struct ModelRun {
  EthosUModel model;
  std::vector<uint64_t> workspace;
  int32_t invoke(const std::vector<uint8_t>& payload, std::vector<uint8_t>& region1) {
    workspace.assign(ethos_u_model_workspace_bytes(payload.data(), static_cast<uint32_t>(payload.size())) / 8 + 1, 0);
    model.workspace = reinterpret_cast<uint8_t*>(workspace.data());
    model.workspace_bytes = workspace.size() * 8;
    static const uint8_t constants[16] = {};
    const uint64_t base[2] = {reinterpret_cast<uintptr_t>(constants), reinterpret_cast<uintptr_t>(region1.data())};
    const uint32_t bytes[2] = {sizeof constants, static_cast<uint32_t>(region1.size())};
    return ethos_u_model_invoke(&model, payload.data(), static_cast<uint32_t>(payload.size()), base, bytes, 2);
  }
};

TEST(EthosUModelStream, CopiesNhwcIntoNhcwb16Bricks) {
  const uint32_t h = 2, w = 3, d = 20, ofm = 256;
  std::vector<uint8_t> region1(ofm + h * w * 32, 0xEE);
  for (uint32_t i = 0; i < h * w * d; ++i) region1[i] = static_cast<uint8_t>(i * 7 - 60);
  ModelRun run;
  ASSERT_EQ(run.invoke(copy_stream(h, w, d, ofm, true).payload(kU55Config, kArch1), region1), 0)
      << ethos_u_model_error(run.model);
  EXPECT_STREQ(ethos_u_model_error(run.model), "");
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x)
      for (uint32_t c = 0; c < d; ++c) {
        const uint32_t at = ofm + y * (w * 32) + (c / 16) * (16 * w) + x * 16 + c % 16;
        ASSERT_EQ(region1[at], region1[(y * w + x) * d + c]) << y << " " << x << " " << c;
      }
  EXPECT_EQ(region1[ofm + 48 + 4], 0xEE);  // the second brick's padding lanes are not written
}

// An IFM in four tiles (facts 2.5): x >= WIDTH0 is tile 1, or tile 3 from row HEIGHT1;
// otherwise rows from HEIGHT0 are tile 2. Each tile's rows start at its own base.
TEST(EthosUModelStream, ReadsAnIfmSplitInFourTiles) {
  const uint32_t ofm = 400;
  StreamBuilder s = copy_stream(4, 4, 1, ofm, false);
  s.commands.resize(s.commands.size() - 2);  // without POOL and STOP
  s.cmd1(0x001, 100);  // IFM_BASE1
  s.cmd1(0x002, 200);  // IFM_BASE2
  s.cmd1(0x003, 300);  // IFM_BASE3
  s.cmd0(0x10A, 1);    // IFM_WIDTH0_M1: tiles 0 and 2 are 2 wide
  s.cmd0(0x10B, 2);    // IFM_HEIGHT0_M1: tile 0 has 3 rows
  s.cmd0(0x10C, 0);    // IFM_HEIGHT1_M1: tile 1 has 1 row
  s.cmd1(0x004, 1);    // IFM_STRIDE_X
  s.cmd1(0x005, 2);    // IFM_STRIDE_Y
  s.cmd0(0x005, 1);    // NPU_OP_POOL AVERAGE
  s.cmd0(0x000, 0xFFFF);
  std::vector<uint8_t> region1(ofm + 16, 0);
  for (uint32_t t = 0; t < 4; ++t)
    for (uint32_t i = 0; i < 8; ++i) region1[t * 100 + i] = static_cast<uint8_t>(t * 16 + i);
  ModelRun run;
  ASSERT_EQ(run.invoke(s.payload(kU65Config, kArch1), region1), 0) << ethos_u_model_error(run.model);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      uint32_t tile = 0, ty = y, tx = x;
      if (x >= 2) {
        tx -= 2;
        tile = 1;
        if (y >= 1) {
          ty -= 1;
          tile = 3;
        }
      } else if (y >= 3) {
        ty -= 3;
        tile = 2;
      }
      EXPECT_EQ(region1[ofm + y * 4 + x], tile * 16 + ty * 2 + tx) << y << " " << x;
    }
}

TEST(EthosUModelStream, AnOfmPastItsRegionFailsBeforeWritingNamingTheCommand) {
  const uint32_t h = 4, w = 4, d = 8;
  std::vector<uint8_t> region1(h * w * d + 100, 0x11);  // the copy at 128 needs 128 bytes
  const std::vector<uint8_t> before = region1;
  ModelRun run;
  const StreamBuilder s = copy_stream(h, w, d, 128, false);
  EXPECT_EQ(run.invoke(s.payload(kU65Config, kArch1), region1), kEthosUModelOutOfRegion);
  const std::string error = ethos_u_model_error(run.model);
  const size_t pool_index = 31;  // the 32nd command
  EXPECT_EQ(error, "command " + std::to_string(pool_index) +
                       " (NPU_OP_POOL): OFM [255, 256) runs past region 1 (228 bytes)");
  EXPECT_EQ(region1, before);
}

// The work limit (EthosUModel::work_limit): a stream declaring more element steps or
// multiply-accumulates than the invoke may run stops at that operation, in one line; two
// copies of 4x4x8 (128 steps each) fit a limit of 256, not of 255.
TEST(EthosUModelStream, AStreamPastTheWorkLimitStopsNamingTheCommand) {
  StreamBuilder twice = copy_stream(4, 4, 8, 128, false);
  twice.commands.pop_back();  // STOP
  twice.cmd0(0x005, 1);       // a second NPU_OP_POOL
  twice.cmd0(0x000, 0xFFFF);
  const std::vector<uint8_t> payload = twice.payload(kU65Config, kArch1);
  std::vector<uint8_t> region1(256, 0);
  ModelRun fits;
  fits.model.work_limit = 256;
  EXPECT_EQ(fits.invoke(payload, region1), 0) << ethos_u_model_error(fits.model);
  ModelRun over;
  over.model.work_limit = 255;
  EXPECT_EQ(over.invoke(payload, region1), kEthosUModelUnsupported);
  EXPECT_EQ(std::string(ethos_u_model_error(over.model)),
            "command 32 (NPU_OP_POOL): the stream's operations exceed the model's work limit of 255 "
            "multiply-accumulates in one invoke");
}

TEST(EthosUModelStream, RefusesAnUnknownOpcodeAndAU85StreamInOneLine) {
  std::vector<uint8_t> region1(1024);
  ModelRun run;
  StreamBuilder unknown = copy_stream(2, 2, 4, 64, false);
  unknown.commands.insert(unknown.commands.begin() + 3, 0x0000010Eu);  // cmd0 0x10E: no such register
  EXPECT_EQ(run.invoke(unknown.payload(kU55Config, kArch1), region1), kEthosUModelBadCommand);
  EXPECT_STREQ(ethos_u_model_error(run.model), "command 2 (cmd0 0x10E): unknown opcode for Ethos-U55");

  StreamBuilder parallel = copy_stream(2, 2, 4, 64, false);
  parallel.commands.insert(parallel.commands.begin(), 0x00000123u);  // PARALLEL_MODE: U65 only
  EXPECT_EQ(run.invoke(parallel.payload(kU55Config, kArch1), region1), kEthosUModelBadCommand);
  EXPECT_STREQ(ethos_u_model_error(run.model), "command 0 (NPU_SET_PARALLEL_MODE): unknown opcode for Ethos-U55");
  EXPECT_EQ(run.invoke(parallel.payload(kU65Config, kArch1), region1), 0) << ethos_u_model_error(run.model);

  // A U55 stream under a U85 header: OFM_PRECISION's U55 round mode bits (TRUNCATE) are
  // the U85's storage field (TILE3X1), which is refused.
  StreamBuilder u85 = copy_stream(2, 2, 4, 64, false);
  for (uint32_t& word : u85.commands)
    if (word == (0x8101u << 16 | 0x114u)) word = 0x4101u << 16 | 0x114u;
  EXPECT_EQ(run.invoke(u85.payload(kU85Config, kArch2), region1), kEthosUModelUnsupported);
  EXPECT_STREQ(ethos_u_model_error(run.model), "command 31 (NPU_OP_POOL): OFM storage TILE3X1 is not modelled");

  std::vector<uint8_t> truncated = u85.payload(kU55Config, kArch1);
  truncated.resize(truncated.size() - 8);
  EXPECT_EQ(run.invoke(truncated, region1), kEthosUModelBadPayload);
  EXPECT_EQ(std::string(ethos_u_model_error(run.model)).find("payload: "), 0u);
}

// The copy stream in the U85's encoding: the rounding mode moves from OFM_PRECISION to
// OFM_SCALE (round_mode NATURAL in bits 29-31).
StreamBuilder copy_stream_u85(uint32_t h, uint32_t w, uint32_t d, uint32_t ofm_base) {
  StreamBuilder s = copy_stream(h, w, d, ofm_base, false);
  for (size_t i = 0; i < s.commands.size(); ++i) {
    if ((s.commands[i] & 0xC3FFu) == 0x114u) s.commands[i] = 0x114u | 0x0101u << 16;  // OFM_PRECISION: int8, global
    if ((s.commands[i] & 0xC3FFu) == 0x4024u) {
      s.commands[i] = 0x4024u | (30u | 1u << 13) << 16;  // OFM_SCALE: shift 30, NATURAL
      ++i;
    }
  }
  return s;
}

TEST(EthosUModelStream, RunsAU85CopyAndRefusesWhatItDoesNotModelInOneLine) {
  const uint32_t h = 2, w = 3, d = 5, ofm = 64;
  std::vector<uint8_t> region1(ofm + h * w * d, 0xEE);
  for (uint32_t i = 0; i < h * w * d; ++i) region1[i] = static_cast<uint8_t>(i * 11 - 70);
  ModelRun run;
  const StreamBuilder copy = copy_stream_u85(h, w, d, ofm);
  ASSERT_EQ(run.invoke(copy.payload(kU85Config, kArch2), region1), 0) << ethos_u_model_error(run.model);
  for (uint32_t i = 0; i < h * w * d; ++i) EXPECT_EQ(region1[ofm + i], region1[i]) << i;

  // The pool becomes an ELEMENTWISE ADD of the 32-bit OP_SCALAR 5 (IFM2 broadcast SCALAR,
  // storage NONE) with unit IFM/IFM2/OFM scales: x + 5, saturated.
  StreamBuilder add = copy_stream_u85(h, w, d, ofm);
  add.commands.resize(add.commands.size() - 4);  // OFM_SCALE, POOL, STOP
  add.cmd0(0x185, 0xC001);                      // IFM2_PRECISION: int8, storage NONE
  add.cmd0(0x180, 8);                           // IFM2_BROADCAST SCALAR
  add.cmd0(0x189, 0);                           // IFM2_ZERO_POINT
  add.commands.insert(add.commands.end(), {0x4027u, 5u, 0x4025u, 1u, 0x4026u, 1u, 0x4024u, 1u});  // scalar, scales
  add.cmd0(0x006, 1);                           // NPU_OP_ELEMENTWISE ADD
  add.cmd0(0x000, 0xFFFF);
  ASSERT_EQ(run.invoke(add.payload(kU85Config, kArch2), region1), 0) << ethos_u_model_error(run.model);
  for (uint32_t i = 0; i < h * w * d; ++i)
    EXPECT_EQ(static_cast<int8_t>(region1[ofm + i]), std::min(127, static_cast<int8_t>(region1[i]) + 5)) << i;

  StreamBuilder branch = copy_stream_u85(h, w, d, ofm);  // NPU_OP_BRANCH back to command 0
  branch.commands.insert(branch.commands.begin(), {0x4100u, 0u});
  EXPECT_EQ(run.invoke(branch.payload(kU85Config, kArch2), region1), kEthosUModelUnsupported);
  EXPECT_STREQ(ethos_u_model_error(run.model), "command 0 (NPU_OP_BRANCH): control flow in the stream is not modelled");

  StreamBuilder acc48 = copy_stream_u85(h, w, d, ofm);
  acc48.cmd0(0x124, 1);  // ACC_FORMAT I48, moved before the pool below
  std::rotate(acc48.commands.end() - 3, acc48.commands.end() - 1, acc48.commands.end());
  EXPECT_EQ(run.invoke(acc48.payload(kU85Config, kArch2), region1), kEthosUModelUnsupported);
  EXPECT_STREQ(ethos_u_model_error(run.model),
               "command 32 (NPU_OP_POOL): 48-bit accumulators (ACC_FORMAT I48) are not modelled");

  StreamBuilder unchained = copy_stream_u85(h, w, d, ofm);  // IFM_PRECISION: int8, CHAINED
  for (uint32_t& word : unchained.commands)
    if (word == (0x0001u << 16 | 0x105u)) word = 0x8001u << 16 | 0x105u;
  EXPECT_EQ(run.invoke(unchained.payload(kU85Config, kArch2), region1), kEthosUModelBadCommand);
  EXPECT_STREQ(ethos_u_model_error(run.model),
               "command 31 (NPU_OP_POOL): IFM reads chain buffer 1 (1-byte elements), which no earlier operation "
               "chained");

  StreamBuilder bilinear = copy_stream_u85(h, w, d, ofm);  // the pool becomes a RESIZE BILINEAR
  for (uint32_t& word : bilinear.commands)
    if (word == (1u << 16 | 0x005u)) word = 0x007u;
  EXPECT_EQ(run.invoke(bilinear.payload(kU85Config, kArch2), region1), kEthosUModelUnsupported);
  EXPECT_STREQ(ethos_u_model_error(run.model), "command 31 (NPU_OP_RESIZE): resize mode BILINEAR is not modelled");

  StreamBuilder gone = copy_stream_u85(h, w, d, ofm);  // IFM2_SCALAR: U55/U65 only
  gone.commands.insert(gone.commands.begin(), 0x00000181u);
  EXPECT_EQ(run.invoke(gone.payload(kU85Config, kArch2), region1), kEthosUModelBadCommand);
  EXPECT_STREQ(ethos_u_model_error(run.model), "command 0 (cmd0 0x181): unknown opcode for Ethos-U85");
}

// What the runtime hands an NPU driver, copied: the payload and each region's bytes.
struct CapturedInvoke {
  std::vector<uint8_t> payload;
  std::vector<std::vector<uint8_t>> regions;
  static int32_t invoke(void* user, const uint8_t* payload, uint32_t payload_bytes, const uint64_t* base,
                        const uint32_t* bytes, uint32_t region_count) {
    auto* self = static_cast<CapturedInvoke*>(user);
    self->payload.assign(payload, payload + payload_bytes);
    self->regions.clear();
    for (uint32_t i = 0; i < region_count; ++i) {
      const auto* p = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(base[i]));
      self->regions.emplace_back(p, p + (p == nullptr ? 0 : bytes[i]));
    }
    return 0;
  }
};

// The payload and regions of a Vela file's first NPU op as the runtime hands them over.
CapturedInvoke capture_first_invoke(const std::string& vela, const std::string& npu) {
  const std::vector<uint8_t> program = compile_file(ethos_u_file(vela), npu);
  CapturedInvoke captured;
  std::vector<uint64_t> fast_scratch(uint64_t{1} << 17);  // 1 MiB: the U85 files' region 2
  NpuDriver driver{};
  driver.invoke = CapturedInvoke::invoke;
  driver.user = &captured;
  driver.fast_scratch = reinterpret_cast<uint8_t*>(fast_scratch.data());
  driver.fast_scratch_bytes = static_cast<uint32_t>(fast_scratch.size() * 8);
  LoadedProgram loaded(program, vela, std::nullopt, 0, &driver);
  loaded.run();
  return captured;
}

// A real stream with one bit flipped in a command word, `trials` times: each run succeeds or
// fails with one line, reading and writing only its regions (the sanitizer build checks).
void expect_bit_flips_run_or_fail_in_one_line(const std::string& vela, const std::string& npu, int trials) {
  const CapturedInvoke captured = capture_first_invoke(vela, npu);
  ASSERT_GT(captured.payload.size(), 64u);
  std::mt19937 rng(42);
  EthosUModel model;
  std::vector<uint64_t> workspace;
  int failures = 0;
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<uint8_t> payload = captured.payload;
    const size_t words = payload.size() / 4;
    const size_t bit = (8 + rng() % (words - 8)) * 32 + rng() % 32;  // a command word's bit
    payload[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    std::vector<std::vector<uint8_t>> regions = captured.regions;
    std::vector<uint64_t> base;
    std::vector<uint32_t> bytes;
    for (std::vector<uint8_t>& r : regions) {
      base.push_back(r.empty() ? 0 : reinterpret_cast<uintptr_t>(r.data()));
      bytes.push_back(static_cast<uint32_t>(r.size()));
    }
    const uint64_t need = ethos_u_model_workspace_bytes(payload.data(), static_cast<uint32_t>(payload.size()));
    workspace.assign(need / 8 + 1, 0);
    model.workspace = reinterpret_cast<uint8_t*>(workspace.data());
    model.workspace_bytes = workspace.size() * 8;
    const int32_t rc = ethos_u_model_invoke(&model, payload.data(), static_cast<uint32_t>(payload.size()), base.data(),
                                            bytes.data(), static_cast<uint32_t>(base.size()));
    const std::string error = ethos_u_model_error(model);
    EXPECT_LE(rc, 0);
    EXPECT_EQ(rc == 0, error.empty()) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos);
    if (rc != 0) {
      ++failures;
      EXPECT_TRUE(error.rfind("command ", 0) == 0 || error.rfind("payload: ", 0) == 0) << error;
    }
  }
  EXPECT_GT(failures, 0) << vela;
}

TEST(EthosUModelStream, BitFlipsInAVelaStreamRunOrFailInOneLine) {
  expect_bit_flips_run_or_fail_in_one_line("kws_micronet_m_vela_H128", "ethos-u55-128", 150);
  expect_bit_flips_run_or_fail_in_one_line("kws_micronet_m_vela_Z256", "ethos-u85-256", 150);
  // The U85 elementwise, chaining and resize paths (yolo's stream is 4 times kws's).
  expect_bit_flips_run_or_fail_in_one_line("yolo-fastest_192_face_v4_vela_Z256", "ethos-u85-256", 40);
}

// A real U85 stream whose first convolution is switched to 48-bit accumulators (its
// NPU_SET_ACC_FORMAT is command 58): the run stops at that convolution with one line.
TEST(EthosUModelStream, Refuses48BitAccumulatorsInARealU85StreamNamingTheCommand) {
  CapturedInvoke captured = capture_first_invoke("kws_micronet_m_vela_Z256", "ethos-u85-256");
  const std::vector<uint8_t> original = captured.payload;
  size_t patched = 0;
  for (size_t at = 0; at + 4 <= captured.payload.size(); at += 4) {
    uint32_t word;
    std::memcpy(&word, captured.payload.data() + at, 4);
    if (word == (0x0300u << 16 | 0x124u) && patched == 0) {  // the first ACC_FORMAT (microblock 2x2): I32 -> I48
      word |= 1u << 16;
      std::memcpy(captured.payload.data() + at, &word, 4);
      ++patched;
    }
  }
  ASSERT_EQ(patched, 1u);
  std::vector<uint64_t> base;
  std::vector<uint32_t> bytes;
  for (std::vector<uint8_t>& r : captured.regions) {
    base.push_back(r.empty() ? 0 : reinterpret_cast<uintptr_t>(r.data()));
    bytes.push_back(static_cast<uint32_t>(r.size()));
  }
  EthosUModel model;
  std::vector<uint64_t> workspace(
      ethos_u_model_workspace_bytes(original.data(), static_cast<uint32_t>(original.size())) / 8 + 1);
  model.workspace = reinterpret_cast<uint8_t*>(workspace.data());
  model.workspace_bytes = workspace.size() * 8;
  EXPECT_EQ(ethos_u_model_invoke(&model, captured.payload.data(), static_cast<uint32_t>(captured.payload.size()),
                                 base.data(), bytes.data(), static_cast<uint32_t>(base.size())),
            kEthosUModelUnsupported);
  EXPECT_STREQ(ethos_u_model_error(model),
               "command 61 (NPU_OP_CONV): 48-bit accumulators (ACC_FORMAT I48) are not modelled");
}

}  // namespace ethos_u_model_test
}  // namespace mote::testing
