// Each CLI failure: non-zero exit, exactly one line on stderr naming the problem, and no
// partial output file. Plus the --json contracts of compile/run/inspect.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "kernel_registry.h"
#include "npy.h"
#include "ops/tflite_builder.h"
#include "test_util.h"

namespace mote::testing {
namespace {

namespace fs = std::filesystem;

std::string shell_quote(const std::string& s) { return "'" + s + "'"; }

void expect_one_line_error(const CommandResult& r, const std::vector<std::string>& fragments) {
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  for (const auto& fragment : fragments) EXPECT_NE(r.err.find(fragment), std::string::npos) << "missing '" << fragment << "' in: " << r.err;
}

// Compiles linear_4x3 (input float32 [1,4]) once per test into the temp dir.
class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    program_ = dir_.file("linear.mote");
    const CommandResult r = run_mote("compile " + shell_quote(onnx_model("linear_4x3")) + " -o " + shell_quote(program_));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    input_ = shared_models() + "/onnx/linear_4x3.s0.in0.npy";
  }
  std::string run_args(const std::string& input) const {
    return "run " + shell_quote(program_) + " --input " + shell_quote(input) + " --output-dir " + shell_quote(dir_.file("out"));
  }
  void write_npy_file(const std::string& name, DType dtype, std::vector<int64_t> shape) const {
    NpyArray a;
    a.dtype = dtype;
    a.shape = shape;
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    a.data.assign(n * dtype_size(dtype), 0);
    write_npy(dir_.file(name), a);
  }

  TempDir dir_;
  std::string program_;
  std::string input_;
};

TEST_F(Cli, CompileMissingFile) {
  const CommandResult r = run_mote("compile /nonexistent/model.onnx -o " + shell_quote(dir_.file("x.mote")));
  expect_one_line_error(r, {"/nonexistent/model.onnx"});
  EXPECT_FALSE(fs::exists(dir_.file("x.mote")));
}

TEST_F(Cli, CompileMalformedOnnx) {
  write_bytes(dir_.file("bad.onnx"), {0x08, 0x07, 0xFF, 0xFF, 0xFF, 0x12, 0x34, 0x00, 0x99});
  const CommandResult r = run_mote("compile " + shell_quote(dir_.file("bad.onnx")) + " -o " + shell_quote(dir_.file("x.mote")));
  expect_one_line_error(r, {"bad.onnx"});
  EXPECT_FALSE(fs::exists(dir_.file("x.mote")));
}

TEST_F(Cli, CompileUnknownFormatAndTarget) {
  write_bytes(dir_.file("model.pb"), {1, 2, 3});
  expect_one_line_error(run_mote("compile " + shell_quote(dir_.file("model.pb")) + " -o " + shell_quote(dir_.file("x.mote"))),
                        {"model.pb", ".pb"});
  expect_one_line_error(run_mote("compile " + shell_quote(onnx_model("linear_4x3")) + " -o " +
                                 shell_quote(dir_.file("x.mote")) + " --target cortex-a53"),
                        {"cortex-a53"});
}

TEST_F(Cli, CompileIntoMissingDirectoryLeavesNothing) {
  const std::string out = dir_.file("no/such/dir/x.mote");
  expect_one_line_error(run_mote("compile " + shell_quote(onnx_model("linear_4x3")) + " -o " + shell_quote(out)),
                        {out});
  EXPECT_TRUE(fs::is_empty(dir_.path()) || !fs::exists(dir_.file("no")));
}

TEST_F(Cli, CompileJsonReport) {
  const CommandResult r = run_mote("compile " + shell_quote(onnx_model("lenet5_28")) + " -o " +
                                   shell_quote(dir_.file("lenet.mote")) + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["arena_bytes"].get<uint64_t>(), 0u);
  EXPECT_GE(j["arena_bytes"].get<uint64_t>(), j["arena_lower_bound_bytes"].get<uint64_t>());
  EXPECT_GT(j["weights_bytes"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["program_bytes"].get<uint64_t>(), fs::file_size(dir_.file("lenet.mote")));
}

// The `search` object: every search of compiler/search/search.h with its candidates and
// seconds; a search that ran tried some candidates, one that did not tried none.
void expect_searches(const nlohmann::json& j, const std::set<std::string>& ran) {
  ASSERT_TRUE(j.contains("search")) << j.dump();
  const auto& search = j["search"];
  std::set<std::string> keys;
  for (const auto& [name, stage] : search.items()) {
    keys.insert(name);
    EXPECT_EQ(stage.size(), 2u) << name;
    const uint64_t candidates = stage.at("candidates").get<uint64_t>();
    const double seconds = stage.at("seconds").get<double>();
    EXPECT_GE(seconds, 0.0) << name;
    EXPECT_LE(seconds, j.at("compile_seconds").get<double>()) << name;
    if (ran.count(name)) {
      EXPECT_GT(candidates, 0u) << name;
    } else {
      EXPECT_EQ(candidates, 0u) << name;
      EXPECT_EQ(seconds, 0.0) << name;
    }
  }
  EXPECT_EQ(keys, (std::set<std::string>{"int16_policy", "arena_budget", "op_order", "patching", "variant_fallback",
                                         "planner"}));
  EXPECT_GT(j.at("compile_seconds").get<double>(), 0.0);
}

TEST_F(Cli, CompileReportsItsSearches) {
  const std::string kws = shell_quote(shared_models() + "/tflite/mlperf_tiny/kws_ref_model.tflite");
  const std::string out = " -o " + shell_quote(dir_.file("kws.mote"));
  CommandResult r = run_mote("compile " + kws + out + " --target cortex-m4 --optimize memory --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_searches(nlohmann::json::parse(r.out), {"op_order", "patching", "variant_fallback", "planner"});
  // The text report: a line per search that ran, the compile time last.
  r = run_mote("compile " + kws + out + " --target cortex-m4 --optimize memory");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* ran : {"op_order", "patching", "variant_fallback", "planner"})
    EXPECT_NE(r.out.find(std::string("  search   ") + ran + " "), std::string::npos) << ran << " in:\n" << r.out;
  EXPECT_EQ(r.out.find("search   int16_policy"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("search   arena_budget"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  time     "), std::string::npos) << r.out;

  // --quantize: the int16 policy; --arena-budget: the budget, in each of its candidates.
  r = run_mote("compile " + shell_quote(onnx_model("lenet5_28")) + " -o " + shell_quote(dir_.file("lenet.mote")) +
               " --target cortex-m4 --quantize int8 --calibration " +
               shell_quote(shared_models() + "/onnx/lenet5_28.calib.npy") + " --arena-budget 1MiB --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  expect_searches(j, {"int16_policy", "arena_budget", "op_order", "patching", "planner"});
  EXPECT_GE(j["search"]["arena_budget"]["candidates"].get<uint64_t>(),
            j["search"]["int16_policy"]["candidates"].get<uint64_t>() + 1);
}

TEST_F(Cli, RunWritesOutputsAndJson) {
  const CommandResult r = run_mote(run_args(input_) + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["arena_bytes"].get<uint64_t>(), 0u);
  ASSERT_EQ(j["ops"].size(), 1u);
  EXPECT_EQ(j["ops"][0]["kernel"], "fully_connected_f32");
  const NpyArray out = read_npy(dir_.file("out/out0.npy"));
  EXPECT_EQ(out.dtype, DType::kFloat32);
  EXPECT_EQ(out.shape, (std::vector<int64_t>{1, 3}));
}

TEST_F(Cli, RunWrongInputCount) {
  const CommandResult r = run_mote(run_args(input_) + " --input " + shell_quote(input_));
  expect_one_line_error(r, {"expects 1 input", "got 2"});
}

// A stateful model (y = x + acc; acc = y, a TFLite resource variable): `mote compile`
// states the bytes kept between runs, and `mote run --runs R` runs the program R times in
// one load, so the outputs are running sums.
TEST_F(Cli, RunWithSeveralRunsCarriesStateOver) {
  using B = fb::BuiltinOperator;
  ModelSpec m;
  m.tensors = {TensorSpec("x", {1, 4}), TensorSpec("acc_handle", {}, fb::TensorType::RESOURCE),
               TensorSpec("acc", {1, 4}), TensorSpec("y", {1, 4})};
  OpSpec handle;
  handle.code = op_code(B::VAR_HANDLE);
  handle.outputs = {1};
  handle.options_type = fb::BuiltinOptions::VarHandleOptions;
  handle.options = [](flatbuffers::FlatBufferBuilder& b) {
    return fb::CreateVarHandleOptions(b, 0, b.CreateString("acc")).Union();
  };
  OpSpec read, add, assign;
  read.code = op_code(B::READ_VARIABLE);
  read.inputs = {1};
  read.outputs = {2};
  add.code = op_code(B::ADD);
  add.inputs = {0, 2};
  add.outputs = {3};
  assign.code = op_code(B::ASSIGN_VARIABLE);
  assign.inputs = {1, 3};
  m.ops = {handle, read, add, assign};
  m.inputs = {0};
  m.outputs = {3};
  const std::string model = dir_.file("acc.tflite"), program = dir_.file("acc.mote");
  write_bytes(model, build_model(m));
  const CommandResult compiled = run_mote("compile " + shell_quote(model) + " -o " + shell_quote(program) + " --json");
  ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
  EXPECT_EQ(nlohmann::json::parse(compiled.out)["state_bytes"], 16);
  const CommandResult text = run_mote("compile " + shell_quote(model) + " -o " + shell_quote(dir_.file("again.mote")));
  EXPECT_NE(text.out.find("  state    16 bytes of the arena kept between runs"), std::string::npos) << text.out;

  std::string inputs;
  for (int r = 0; r < 3; ++r) {
    NpyArray x{DType::kFloat32, {1, 4}, {}};
    const std::vector<float> values = {1.0f + r, -2.0f, 0.5f * r, 100.0f};
    x.data.resize(16);
    std::memcpy(x.data.data(), values.data(), 16);
    write_npy(dir_.file("x" + std::to_string(r) + ".npy"), x);
    inputs += " --input " + shell_quote(dir_.file("x" + std::to_string(r) + ".npy"));
  }
  const CommandResult ran = run_mote("run " + shell_quote(program) + " --runs 3" + inputs + " --output-dir " +
                                     shell_quote(dir_.file("runs")) + " --json");
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_EQ(nlohmann::json::parse(ran.out)["memory"]["arena_state_bytes"], 16);
  const std::vector<std::vector<float>> sums = {{1, -2, 0, 100}, {3, -4, 0.5f, 200}, {6, -6, 1.5f, 300}};
  for (int r = 0; r < 3; ++r) {
    const NpyArray y = read_npy(dir_.file("runs/out0.run" + std::to_string(r) + ".npy"));
    ASSERT_EQ(y.data.size(), 16u);
    float got[4];
    std::memcpy(got, y.data.data(), 16);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i], sums[r][i]) << "run " << r << " element " << i;
  }
  const CommandResult inspected = run_mote("inspect " + shell_quote(program) + " --json");
  ASSERT_EQ(inspected.exit_code, 0) << inspected.err;
  EXPECT_EQ(nlohmann::json::parse(inspected.out)["state_bytes"], 16);
  EXPECT_EQ(nlohmann::json::parse(inspected.out)["init_op_count"], 1);  // the state's fill
  EXPECT_EQ(nlohmann::json::parse(inspected.out)["format_version"], "1.1");
  expect_one_line_error(run_mote("run " + shell_quote(program) + " --runs 2" + inputs + " --output-dir " +
                                 shell_quote(dir_.file("runs2"))),
                        {"expects 1 input(s) x 2 runs, got 3 --input"});
}

TEST_F(Cli, RunWrongInputShape) {
  write_npy_file("wrong_shape.npy", DType::kFloat32, {1, 5});
  expect_one_line_error(run_mote(run_args(dir_.file("wrong_shape.npy"))),
                        {"wrong_shape.npy", "expects float32 [1,4]", "got float32 [1,5]"});
  EXPECT_FALSE(fs::exists(dir_.file("out/out0.npy")));
}

TEST_F(Cli, RunWrongInputDtype) {
  write_npy_file("wrong_dtype.npy", DType::kInt32, {1, 4});
  expect_one_line_error(run_mote(run_args(dir_.file("wrong_dtype.npy"))),
                        {"wrong_dtype.npy", "expects float32 [1,4]", "got int32 [1,4]"});
}

TEST_F(Cli, RunArenaTooSmallStatesTheBytesNeeded) {
  const auto j = nlohmann::json::parse(run_mote("inspect " + shell_quote(program_) + " --json").out);
  const uint64_t needed = j["arena_bytes"].get<uint64_t>();
  expect_one_line_error(run_mote(run_args(input_) + " --arena-bytes 16"),
                        {"arena too small", "needs " + std::to_string(needed) + " bytes", "given 16"});
}

TEST_F(Cli, RunGarbageAndTruncatedPrograms) {
  write_bytes(dir_.file("garbage.mote"), std::vector<uint8_t>(200, 0xAB));
  expect_one_line_error(run_mote("run " + shell_quote(dir_.file("garbage.mote")) + " --input " + shell_quote(input_) +
                                 " --output-dir " + shell_quote(dir_.file("o"))),
                        {"garbage.mote", "invalid program", "bad magic"});
  const std::vector<uint8_t> bytes = read_file(program_);
  write_bytes(dir_.file("short.mote"), std::vector<uint8_t>(bytes.begin(), bytes.begin() + bytes.size() / 2));
  expect_one_line_error(run_mote("run " + shell_quote(dir_.file("short.mote")) + " --input " + shell_quote(input_) +
                                 " --output-dir " + shell_quote(dir_.file("o"))),
                        {"short.mote", "truncated"});
  std::vector<uint8_t> flipped = bytes;
  flipped[flipped.size() - 5] ^= 0x10;
  write_bytes(dir_.file("flipped.mote"), flipped);
  expect_one_line_error(run_mote("run " + shell_quote(dir_.file("flipped.mote")) + " --input " + shell_quote(input_) +
                                 " --output-dir " + shell_quote(dir_.file("o"))),
                        {"flipped.mote", "checksum"});
  EXPECT_FALSE(fs::exists(dir_.file("o")));
}

TEST_F(Cli, RunMissingAndMalformedInputFiles) {
  expect_one_line_error(run_mote(run_args(dir_.file("missing.npy"))), {"missing.npy", "cannot open"});
  write_bytes(dir_.file("bad.npy"), {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 200, 0, '{'});
  expect_one_line_error(run_mote(run_args(dir_.file("bad.npy"))), {"bad.npy", "truncated"});
}

TEST_F(Cli, RunOutputDirNotCreatable) {
  write_bytes(dir_.file("afile"), {1});
  const CommandResult r = run_mote("run " + shell_quote(program_) + " --input " + shell_quote(input_) + " --output-dir " +
                                   shell_quote(dir_.file("afile/sub")));
  expect_one_line_error(r, {"afile/sub", "cannot create output directory"});
}

TEST_F(Cli, RunUnknownDevice) {
  expect_one_line_error(run_mote(run_args(input_) + " --device qemu-cortex-a9"), {"qemu-cortex-a9"});
}

TEST_F(Cli, InspectMissingFileAndUsageErrors) {
  expect_one_line_error(run_mote("inspect /nonexistent.mote --json"), {"/nonexistent.mote"});
  expect_one_line_error(run_mote("run " + shell_quote(program_)), {"--input"});
  expect_one_line_error(run_mote("frobnicate"), {"frobnicate"});
}

// `mote inspect` counts each op's multiply-accumulates from the program alone (the
// registry's MAC rule of its kernel; a variant counts as its reference), `mote compile`
// from the graph while lowering: they agree op by op on every core's kernels, for
// models with convolutions, depthwise convolutions, fully connected layers and an LSTM.
// `mote compile --list-ops` prints, per importer, a heading "<format> (N operators): ..."
// and N lines "  NAME  dtypes  [optimized]", each operator once and sorted: TRANSPOSE
// among the .tflite ones, Slice (strided_slice: any dtype) and Shape (constant inputs
// only) among the ONNX ones; README's operator table holds exactly these lines.
TEST(CliListOps, PrintsEachImportersOperatorsAsTheReadmeLists) {
  const CommandResult r = run_mote("compile --list-ops");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  std::istringstream lines(r.out);
  std::vector<std::string> got;
  for (std::string line; std::getline(lines, line);) got.push_back(line);
  std::map<std::string, std::vector<std::string>> rows;  // by format: the operator lines
  for (size_t at = 0; at < got.size();) {
    const size_t open = got[at].find(" (");
    ASSERT_NE(open, std::string::npos) << got[at];
    const std::string format = got[at].substr(0, open);
    const size_t count = std::stoul(got[at].substr(open + 2));
    ASSERT_NE(got[at].find(" operators): "), std::string::npos) << got[at];
    ASSERT_LE(at + 1 + count, got.size()) << r.out;
    std::vector<std::string> names;
    for (size_t i = at + 1; i <= at + count; ++i) {
      ASSERT_EQ(got[i].rfind("  ", 0), 0u) << got[i];
      names.push_back(got[i].substr(2, got[i].find(' ', 2) - 2));
      EXPECT_GT(got[i].size(), names.back().size() + 3) << "no dtypes: " << got[i];
      rows[format].push_back(got[i]);
    }
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end())) << format;
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size()) << format;
    at += count + 1;
  }
  ASSERT_EQ(rows.size(), 2u) << r.out;
  auto row = [&](const std::string& format, const std::string& name) {
    for (const std::string& line : rows[format])
      if (line.rfind("  " + name + " ", 0) == 0) return line;
    return std::string();
  };
  for (const char* op : {"TRANSPOSE", "QUANTIZE", "CONV_2D"}) EXPECT_NE(row("tflite", op), "") << op;
  EXPECT_EQ(row("tflite", "CUSTOM").rfind("  CUSTOM ethos-u ", 0), 0u) << row("tflite", "CUSTOM");
  EXPECT_NE(row("onnx", "Conv").find("float32 int8 int16"), std::string::npos) << row("onnx", "Conv");
  EXPECT_NE(row("onnx", "Slice").find(" any"), std::string::npos) << row("onnx", "Slice");
  // A unary function lists int8 only where its lowering has an integer kernel: Abs, not Exp.
  EXPECT_EQ(row("onnx", "Abs").substr(32), "float32 int8 int16");
  for (const char* op : {"Exp", "Floor", "Sign", "Sqrt", "Erf", "ReduceL2"})
    EXPECT_EQ(row("onnx", op).substr(32), "float32") << op;
  EXPECT_NE(row("onnx", "Shape").find("constant inputs only (evaluated while importing)"), std::string::npos)
      << row("onnx", "Shape");
  // README.md's operator table holds exactly these lines, indented as a code block, in
  // this order.
  std::ifstream readme(std::string(MOTE_SOURCE_DIR) + "/README.md");
  std::vector<std::string> readme_lines;
  for (std::string line; std::getline(readme, line);) readme_lines.push_back(line);
  const auto first = std::find(readme_lines.begin(), readme_lines.end(), "    " + got[0]);
  ASSERT_NE(first, readme_lines.end()) << "README.md lacks: " << got[0];
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_LT(static_cast<size_t>(first - readme_lines.begin()) + i, readme_lines.size()) << "README.md ends early";
    EXPECT_EQ(*(first + static_cast<std::ptrdiff_t>(i)), "    " + got[i]) << "README.md operator line " << i;
  }
}

TEST(CliMacs, InspectCountsWhatCompileCounted) {
  const std::vector<std::string> models = {"onnx/lenet5_28.onnx", "tflite/mlperf_tiny/kws_ref_model.tflite",
                                           "tflite/mlperf_tiny/pretrainedResnet_quant.tflite",
                                           "tflite/tflm/trained_lstm_int8.tflite",
                                           "tflite/seanet/transpose_conv/transpose_conv0.tflite"};
  TempDir dir;
  for (const std::string& model : models) {
    for (const char* target : {"host", "cortex-m0plus", "cortex-m4", "cortex-m55"}) {
      const std::string program = dir.file("p.mote");
      const CommandResult compiled = run_mote("compile " + shell_quote(shared_models() + "/" + model) + " -o " +
                                              shell_quote(program) + " --target " + target + " --json");
      ASSERT_EQ(compiled.exit_code, 0) << model << " " << target << ": " << compiled.err;
      const auto report = nlohmann::json::parse(compiled.out.substr(compiled.out.find('{')));
      const CommandResult inspected = run_mote("inspect " + shell_quote(program) + " --json");
      ASSERT_EQ(inspected.exit_code, 0) << inspected.err;
      const auto inspect = nlohmann::json::parse(inspected.out);
      ASSERT_GT(report.at("macs").get<uint64_t>(), 0u) << model;
      EXPECT_EQ(inspect.at("macs").get<uint64_t>(), report.at("macs").get<uint64_t>()) << model << " " << target;
      const auto& compile_ops = report.at("ops");
      const auto& inspect_ops = inspect.at("ops");
      ASSERT_EQ(compile_ops.size(), inspect_ops.size()) << model;
      for (size_t k = 0; k < compile_ops.size(); ++k)
        EXPECT_EQ(inspect_ops[k].at("macs"), compile_ops[k].at("macs"))
            << model << " " << target << " op " << k << " " << inspect_ops[k].at("kernel");
    }
  }
}

// The lines of `text` from the one starting with `first` to the one starting with `stop`
// (excluded).
std::vector<std::string> table_lines(const std::string& text, const std::string& first, const std::string& stop) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    inside = inside ? line.rfind(stop, 0) != 0 : line.rfind(first, 0) == 0;
    if (inside) lines.push_back(line);
  }
  return lines;
}

// `mote run` and `mote size` size their columns from the content: with the kws model's
// long kernel names (depthwise_conv2d_s8_3x3__dsp) and op names every row of a table is
// as long as its header, and the kernel column starts where its heading does.
TEST(CliTables, ColumnsFitTheLongestKernelAndOpNames) {
  TempDir dir;
  const std::string program = dir.file("kws.mote");
  ASSERT_EQ(run_mote("compile " + shell_quote(shared_models() + "/tflite/mlperf_tiny/kws_ref_model.tflite") +
                     " --target cortex-m4 -o " + shell_quote(program))
                .exit_code,
            0);
  const CommandResult run = run_mote("run " + shell_quote(program) + " --input " +
                                     shell_quote(shared_models() + "/tflite/mlperf_tiny/kws_ref_model.s0.in0.npy") +
                                     " --output-dir " + shell_quote(dir.file("out")));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<std::string> rows = table_lines(run.out, "  op  name", "  total");
  ASSERT_EQ(rows.size(), 14u) << run.out;
  const size_t kernel_at = rows[0].find("kernel");
  for (const std::string& row : rows) {
    EXPECT_EQ(row.size(), rows[0].size()) << row;
    EXPECT_NE(row[kernel_at], ' ') << row;
    EXPECT_EQ(row[kernel_at - 1], ' ') << row;
  }
  EXPECT_NE(run.out.find("depthwise_conv2d_s8_3x3__dsp"), std::string::npos);
  EXPECT_NE(run.out.find("functional_1/activation/Relu;functional_1/bat"), std::string::npos) << run.out;

  // mote size with measurements of the program's kernels (--sizes: a file of the
  // format the firmware build writes), one of them a seven-digit count.
  const CommandResult inspected = run_mote("inspect --json " + shell_quote(program));
  ASSERT_EQ(inspected.exit_code, 0);
  nlohmann::json sizes = {{"core", "cortex-m4"}, {"runtime_text_bytes", 3000}, {"kernels", nlohmann::json::object()}};
  uint64_t bytes = 100;
  const nlohmann::json inspect = nlohmann::json::parse(inspected.out);
  for (const auto& kernel : inspect.at("kernels")) {
    const std::string symbol = kernel_entry_symbol(kernel_id_from_name(kernel.get<std::string>().c_str()));
    sizes["kernels"][symbol] = bytes *= 10;
  }
  {
    std::ofstream file(dir.file("sizes.json"));
    file << sizes.dump();
  }
  const CommandResult size = run_mote("size " + shell_quote(program) + " --target cortex-m4 --sizes " +
                                      shell_quote(dir.file("sizes.json")));
  ASSERT_EQ(size.exit_code, 0) << size.err;
  const std::vector<std::string> size_rows = table_lines(size.out, "  flash", "  (");
  ASSERT_GE(size_rows.size(), 9u) << size.out;
  for (const std::string& row : size_rows) EXPECT_EQ(row.size(), size_rows[0].size()) << size.out;
  EXPECT_NE(size.out.find("kernel depthwise_conv2d_s8_3x3__dsp"), std::string::npos) << size.out;
}

}  // namespace
}  // namespace mote::testing
