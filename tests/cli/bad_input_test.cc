// Bad inputs to the CLI, each checked against its exact one-line message (issue 8), and
// the promise that a failed command leaves no partial or temporary output file behind.
// cli_test.cc covers the same paths by message fragments; these pin the whole line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <filesystem>

#include "mote/interpreter.h"
#include "npy.h"
#include "test_util.h"

namespace mote::testing {
namespace {

namespace fs = std::filesystem;

std::string quote(const std::string& s) { return "'" + s + "'"; }

void expect_error_line(const CommandResult& r, const std::string& line) {
  EXPECT_EQ(r.exit_code, 1);  // an error, not a signal (128 + n) or a usage error (2)
  EXPECT_EQ(r.err, "error: " + line + "\n");
}

// Every entry of `dir` (recursively), so a test can show what a failure left behind.
std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  if (!fs::exists(dir)) return names;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    names.push_back(fs::relative(e.path(), dir).string());
  std::sort(names.begin(), names.end());
  return names;
}

template <typename T>
void put(std::vector<uint8_t>& bytes, size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof value);
}
template <typename T>
T get(const std::vector<uint8_t>& bytes, size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

// Rewrites the checksum so that only the structural verifier can catch a corruption.
void reseal(std::vector<uint8_t>& program) {
  put(program, offsetof(ProgramHeader, checksum),
      program_checksum(program.data(), static_cast<uint32_t>(program.size())));
}

class BadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    program_ = dir_.file("linear.mote");
    const CommandResult r = run_mote("compile " + quote(onnx_model("linear_4x3")) + " -o " + quote(program_));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    bytes_ = read_file(program_);
    input_ = shared_models() + "/onnx/linear_4x3.s0.in0.npy";
  }
  // Runs `program` on linear_4x3's input into dir_/out.
  CommandResult run(const std::string& program, const std::string& extra = "") const {
    return run_mote("run " + quote(program) + " --input " + quote(input_) + " --output-dir " +
                    quote(dir_.file("out")) + extra);
  }
  std::string write_program(const std::string& name, const std::vector<uint8_t>& bytes) const {
    write_bytes(dir_.file(name), bytes);
    return dir_.file(name);
  }

  TempDir dir_;
  std::string program_;
  std::vector<uint8_t> bytes_;
  std::string input_;
};

TEST_F(BadInput, CorruptedProgramsGiveExactMessagesAndWriteNothing) {
  std::vector<uint8_t> truncated(bytes_.begin(), bytes_.end() - 1);
  expect_error_line(run(write_program("truncated.mote", truncated)),
                    dir_.file("truncated.mote") + ": invalid program: program truncated");

  std::vector<uint8_t> short_header(bytes_.begin(), bytes_.begin() + 40);
  expect_error_line(run(write_program("header.mote", short_header)),
                    dir_.file("header.mote") + ": invalid program: program truncated");

  std::vector<uint8_t> flipped = bytes_;
  flipped[bytes_.size() / 2] ^= 0x01;
  expect_error_line(run(write_program("flipped.mote", flipped)),
                    dir_.file("flipped.mote") + ": invalid program: program checksum mismatch (corrupted)");

  std::vector<uint8_t> newer = bytes_;
  put<uint16_t>(newer, offsetof(ProgramHeader, version_major), kFormatVersionMajor + 1);
  reseal(newer);
  expect_error_line(run(write_program("newer.mote", newer)),
                    dir_.file("newer.mote") + ": invalid program: unsupported program format version");

  std::vector<uint8_t> empty;
  expect_error_line(run(write_program("empty.mote", empty)),
                    dir_.file("empty.mote") + ": invalid program: program truncated");

  EXPECT_FALSE(fs::exists(dir_.file("out")));
}

// Corruptions with a valid checksum (a buggy writer, or a deliberate edit) are caught by
// the structural verifier, which names the tensor or op.
TEST_F(BadInput, StructurallyInvalidProgramsNameTheTensorOrOp) {
  const auto h = get<ProgramHeader>(bytes_, 0);

  std::vector<uint8_t> many_tensors = bytes_;
  put<uint32_t>(many_tensors, offsetof(ProgramHeader, tensor_count), 0x10000000u);
  reseal(many_tensors);
  expect_error_line(run(write_program("sections.mote", many_tensors)),
                    dir_.file("sections.mote") + ": invalid program: program section out of bounds");

  std::vector<uint8_t> bad_dtype = bytes_;
  const size_t tensor1 = h.tensors_offset + sizeof(TensorDesc);
  put<uint8_t>(bad_dtype, tensor1 + offsetof(TensorDesc, dtype), 99);
  reseal(bad_dtype);
  expect_error_line(run(write_program("tensor.mote", bad_dtype)),
                    dir_.file("tensor.mote") + ": invalid program: invalid tensor descriptor (tensor 1)");

  std::vector<uint8_t> outside_arena = bytes_;
  put<uint32_t>(outside_arena, tensor1 + offsetof(TensorDesc, offset), 0xFFFFFFF0u);
  reseal(outside_arena);
  expect_error_line(run(write_program("offset.mote", outside_arena)),
                    dir_.file("offset.mote") + ": invalid program: invalid tensor descriptor (tensor 1)");

  ASSERT_EQ(h.op_count, 1u);
  std::vector<uint8_t> unknown_kernel = bytes_;
  put<uint16_t>(unknown_kernel, h.ops_offset + offsetof(OpDesc, kernel), 0xFFFF);
  reseal(unknown_kernel);
  const CommandResult r = run(write_program("kernel.mote", unknown_kernel));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("error: " + dir_.file("kernel.mote") +
                            ": invalid program: kernel not linked into this build (op 0",
                        0),
            0u)
      << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;

  std::vector<uint8_t> scratch = bytes_;
  put<uint32_t>(scratch, h.ops_offset + offsetof(OpDesc, scratch_offset), h.arena_bytes);
  put<uint32_t>(scratch, h.ops_offset + offsetof(OpDesc, scratch_bytes), 16);
  reseal(scratch);
  const CommandResult s = run(write_program("scratch.mote", scratch));
  EXPECT_EQ(s.exit_code, 1);
  EXPECT_EQ(s.err.rfind("error: " + dir_.file("scratch.mote") + ": invalid program: invalid op descriptor (op 0", 0), 0u)
      << s.err;

  EXPECT_FALSE(fs::exists(dir_.file("out")));
}

TEST_F(BadInput, ArenaTooSmallStatesTheBytesNeeded) {
  const auto h = get<ProgramHeader>(bytes_, 0);
  expect_error_line(run(program_, " --arena-bytes " + std::to_string(h.arena_bytes - 1)),
                    program_ + ": arena too small: program needs " + std::to_string(h.arena_bytes) +
                        " bytes, given " + std::to_string(h.arena_bytes - 1));
  EXPECT_FALSE(fs::exists(dir_.file("out")));
}

TEST_F(BadInput, WrongInputsGiveExactMessages) {
  expect_error_line(run_mote("run " + quote(program_) + " --input " + quote(input_) + " --input " + quote(input_) +
                             " --output-dir " + quote(dir_.file("out"))),
                    program_ + ": expects 1 input(s), got 2 --input");
  NpyArray ints{DType::kInt8, {4}, std::vector<uint8_t>(4, 0)};
  write_npy(dir_.file("int8.npy"), ints);
  expect_error_line(run_mote("run " + quote(program_) + " --input " + quote(dir_.file("int8.npy")) +
                             " --output-dir " + quote(dir_.file("out"))),
                    dir_.file("int8.npy") + ": input 0 expects float32 [1,4], got int8 [4]");
  write_bytes(dir_.file("header.npy"), {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 4, 0, '{', '}', ' ', '\n'});
  expect_error_line(run_mote("run " + quote(program_) + " --input " + quote(dir_.file("header.npy")) +
                             " --output-dir " + quote(dir_.file("out"))),
                    dir_.file("header.npy") + ": bad .npy header: no 'descr' entry");
  EXPECT_FALSE(fs::exists(dir_.file("out")));
}

// The output file's name is taken by a directory: rename() fails, the temporary file
// written beside it is removed, and the directory is untouched.
TEST_F(BadInput, UnwritableOutputLeavesNoPartialOrTemporaryFile) {
  fs::create_directories(dir_.file("out/out0.npy"));
  expect_error_line(run(program_), dir_.file("out/out0.npy") + ": cannot write: Is a directory");
  EXPECT_EQ(entries(dir_.file("out")), std::vector<std::string>{"out0.npy"});
  EXPECT_TRUE(fs::is_empty(dir_.file("out/out0.npy")));
}

// A model with two outputs whose second output cannot be written: the first is not
// written either, so the directory never holds half of a run's results.
TEST_F(BadInput, RunWritesNoOutputWhenOneCannotBeWritten) {
  const std::string data = std::string(MOTE_SOURCE_DIR) + "/tests/compiler/testdata/onnx/gemm_variants";
  const std::string program = dir_.file("gemm.mote");
  ASSERT_EQ(run_mote("compile " + quote(data + ".onnx") + " -o " + quote(program)).exit_code, 0);
  fs::create_directories(dir_.file("out/out1.npy"));
  const CommandResult r = run_mote("run " + quote(program) + " --input " + quote(data + ".in0.npy") + " --input " +
                                   quote(data + ".in1.npy") + " --input " + quote(data + ".in2.npy") +
                                   " --output-dir " + quote(dir_.file("out")));
  expect_error_line(r, dir_.file("out/out1.npy") + ": cannot write: Is a directory");
  EXPECT_EQ(entries(dir_.file("out")), std::vector<std::string>{"out1.npy"});
}

TEST_F(BadInput, CompileToADirectoryLeavesNoTemporaryFile) {
  fs::create_directories(dir_.file("target.mote"));
  const CommandResult r =
      run_mote("compile " + quote(onnx_model("linear_4x3")) + " -o " + quote(dir_.file("target.mote")));
  expect_error_line(r, dir_.file("target.mote") + ": cannot write: Is a directory");
  EXPECT_EQ(entries(dir_.path()), (std::vector<std::string>{"linear.mote", "target.mote"}));
}

// A directory the CLI cannot write into. Root ignores permission bits on ordinary
// directories, so as root the test uses /proc, which nobody can create files in.
TEST_F(BadInput, OutputDirectoryNotWritable) {
  std::string out = dir_.file("readonly");
  if (geteuid() == 0) {
    out = "/proc";
  } else {
    fs::create_directories(out);
    fs::permissions(out, fs::perms::owner_read | fs::perms::owner_exec);
  }
  const CommandResult r = run_mote("run " + quote(program_) + " --input " + quote(input_) + " --output-dir " + quote(out));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("error: " + out, 0), 0u) << r.err;
  EXPECT_FALSE(fs::exists(out + "/out0.npy"));
  if (out != "/proc") {
    EXPECT_EQ(r.err, "error: " + out + ": output directory is not writable\n");
    EXPECT_TRUE(entries(out).empty());
    fs::permissions(out, fs::perms::owner_all);
  }
}

// The fuzzer's reproducer (fuzz/crashes/): libonnx's Conv shape inference dereferenced
// past the end of a rank-2 input's dims. The compile fails with one line naming the node
// and writes no program.
TEST_F(BadInput, OnnxConvOnRank2InputIsRefusedNotACrash) {
  const std::string model =
      std::string(MOTE_SOURCE_DIR) + "/fuzz/crashes/onnx_conv_shape_inference_segv.onnx";
  const CommandResult r = run_mote("compile " + quote(model) + " -o " + quote(dir_.file("conv.mote")));
  expect_error_line(r, model + ": node 'Conv_3' (Conv): input 'x' has rank 2, expected at least "
                               "3 (batch, channels, spatial axes)");
  EXPECT_EQ(entries(dir_.path()), std::vector<std::string>{"linear.mote"});
}

// Another reproducer: a Gemm whose weights do not match the flattened features (18 vs
// 12) overflowed a buffer in a later pass; the importer now compares the inner dimensions.
TEST_F(BadInput, OnnxGemmInnerDimensionMismatchIsRefusedNotACrash) {
  const std::string model =
      std::string(MOTE_SOURCE_DIR) + "/fuzz/crashes/onnx_gemm_inner_dim_mismatch_heap_overflow.onnx";
  const CommandResult r = run_mote("compile " + quote(model) + " -o " + quote(dir_.file("gemm.mote")));
  expect_error_line(r, model + ": node 'fc' (Gemm): inner dimensions differ: A 'f' [1,18] has K 18, "
                               "B 'wf' [4,12] (transB) has K 12");
  EXPECT_EQ(entries(dir_.path()), std::vector<std::string>{"linear.mote"});
}

// --input-shape: a symbolic batch axis not given is fixed to 1 with a note in the report
// (text and --json); given, it sets the shape; each wrong use is one line.
TEST_F(BadInput, InputShapeOptionSetsSymbolicDimsOrSaysWhatIsWrong) {
  const std::string model = std::string(MOTE_SOURCE_DIR) + "/tests/compiler/testdata/onnx/dynamic_batch.onnx";
  const std::string out = quote(dir_.file("dyn.mote"));
  CommandResult r = run_mote("compile " + quote(model) + " -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\n  note     input 'x': symbolic batch axis 'batch' fixed to 1 (set it with "
                       "--input-shape x=...)\n"),
            std::string::npos)
      << r.out;
  r = run_mote("compile " + quote(model) + " -o " + out + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"notes\": [\n    \"input 'x': symbolic batch axis 'batch' fixed to 1"), std::string::npos)
      << r.out;
  r = run_mote("compile " + quote(model) + " -o " + out + " --input-shape x=2x3x10 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"notes\": []"), std::string::npos) << r.out;

  const std::pair<std::string, std::string> cases[] = {
      {"x=1xax10", "--input-shape 'x=1xax10': expected NAME=D0xD1x... (e.g. input=1x3x96x96)"},
      {"x", "--input-shape 'x': expected NAME=D0xD1x... (e.g. input=1x3x96x96)"},
      {"x=1x3x", "--input-shape 'x=1x3x': expected NAME=D0xD1x... (e.g. input=1x3x96x96)"},
      {"y=1x3x10", model + ": --input-shape y=1x3x10: no graph input named 'y' (inputs: x)"},
      {"x=1x3", model + ": --input-shape x=1x3: rank 2, input 'x' has rank 3"},
      {"x=1x4x10", model + ": --input-shape x=1x4x10: input 'x' has dim 3 at axis 1"},
      {"x=0x3x10", model + ": --input-shape x=0x3x10: dim 0 is 0, expected >= 1"},
      {"x=-1x3x10", model + ": --input-shape x=-1x3x10: dim 0 is -1, expected >= 1"},
  };
  for (const auto& [option, message] : cases) {
    SCOPED_TRACE(option);
    expect_error_line(run_mote("compile " + quote(model) + " -o " + out + " --input-shape=" + quote(option)), message);
  }
  const std::string tflite = shared_models() + "/tflite/mlperf_tiny/kws_ref_model.tflite";
  expect_error_line(run_mote("compile " + quote(tflite) + " -o " + out + " --input-shape x=1x96x96x3"),
                    tflite + ": --input-shape applies to ONNX models (a .tflite model's shapes are fixed)");
}

}  // namespace
}  // namespace mote::testing
