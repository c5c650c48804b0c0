// Drives the C99 scenarios in c_api_test.c with programs from the real compiler and
// checks what the C API returned against the C++ interpreter and the golden outputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "all_kernels.h"
#include "c_api_test.h"
#include "compiler.h"
#include "host_runner.h"
#include "kernel_ids.h"
#include "mote/mote.h"
#include "npy.h"
#include "test_util.h"

namespace mote {
namespace {

struct Free {
  void operator()(uint8_t* p) const { std::free(p); }
};

// A compiled model, 16-aligned, with its sample input and golden output.
struct Model {
  std::vector<uint8_t> bytes;
  std::unique_ptr<uint8_t, Free> program;
  NpyArray input;
  NpyArray golden;
};

Model load_model(const std::string& stem) {
  Model m;
  CompileOptions options;
  options.model_path = testing::onnx_model(stem);
  m.bytes = compile(options).program;
  m.program.reset(static_cast<uint8_t*>(std::aligned_alloc(16, (m.bytes.size() + 15) / 16 * 16)));
  std::memcpy(m.program.get(), m.bytes.data(), m.bytes.size());
  m.input = read_npy(testing::shared_models() + "/onnx/" + stem + ".s0.in0.npy");
  m.golden = read_npy(testing::shared_models() + "/onnx/" + stem + ".s0.out0.npy");
  return m;
}

class CApi : public ::testing::TestWithParam<const char*> {};

TEST_P(CApi, RunsTheModelLikeTheCppInterpreter) {
  Model m = load_model(GetParam());
  std::vector<uint8_t> c_output(m.golden.data.size());
  c_api_model_facts facts{};
  const char* failure =
      c_api_run_model(m.program.get(), m.bytes.size(), mote_kernel_table_of(all_kernels()),
                      m.input.data.data(), static_cast<uint32_t>(m.input.data.size()),
                      c_output.data(), static_cast<uint32_t>(c_output.size()), &facts);
  ASSERT_EQ(failure, nullptr) << failure;

  // The C++ interpreter on the same program and input: identical bytes.
  LoadedProgram cpp(m.bytes, GetParam());
  HostRunResult cpp_run = run_on_host(cpp, {m.input.data});
  EXPECT_EQ(c_output, cpp_run.outputs[0]);

  // Close to PyTorch's output.
  const auto* got = reinterpret_cast<const float*>(c_output.data());
  const auto* want = reinterpret_cast<const float*>(m.golden.data.data());
  for (size_t i = 0; i < c_output.size() / 4; ++i) EXPECT_NEAR(got[i], want[i], 1e-4f) << "element " << i;

  // Shapes, dtypes and the memory report as the program states them.
  const Interpreter& interp = cpp.interpreter();
  EXPECT_EQ(facts.input_dtype, MOTE_DTYPE_FLOAT32);
  EXPECT_EQ(facts.output_dtype, MOTE_DTYPE_FLOAT32);
  ASSERT_EQ(facts.input_rank, m.input.shape.size());
  ASSERT_EQ(facts.output_rank, m.golden.shape.size());
  for (size_t a = 0; a < m.input.shape.size(); ++a) EXPECT_EQ(facts.input_dims[a], m.input.shape[a]);
  for (size_t a = 0; a < m.golden.shape.size(); ++a) EXPECT_EQ(facts.output_dims[a], m.golden.shape[a]);
  EXPECT_EQ(facts.input_dims[facts.input_rank], 0u);
  EXPECT_EQ(facts.op_count, interp.op_count());
  EXPECT_EQ(facts.first_op_kernel, interp.op_desc(0)->kernel);
  EXPECT_EQ(facts.program_bytes, m.bytes.size());
  EXPECT_EQ(facts.constant_bytes, interp.memory_report().constant_bytes);
  EXPECT_EQ(facts.arena_planned_bytes, cpp.header().arena_bytes);
  EXPECT_EQ(facts.arena_given_bytes, cpp.header().arena_bytes);
}

TEST_P(CApi, RefusesWithAStatusNeverACrash) {
  Model m = load_model(GetParam());
  const auto* header = reinterpret_cast<const ProgramHeader*>(m.program.get());
  const auto* first_op = reinterpret_cast<const OpDesc*>(m.program.get() + header->ops_offset);
  // The full table without the first op's kernel.
  std::vector<const KernelEntry*> entries(all_kernels().entries, all_kernels().entries + all_kernels().count);
  entries[first_op->kernel] = nullptr;
  const KernelTable without{entries.data(), static_cast<uint32_t>(entries.size())};
  const char* failure = c_api_refusals(m.program.get(), m.bytes.size(), mote_kernel_table_of(all_kernels()),
                                       mote_kernel_table_of(without), first_op->kernel);
  EXPECT_EQ(failure, nullptr) << failure;
}

INSTANTIATE_TEST_SUITE_P(Models, CApi, ::testing::Values("linear_4x3", "lenet5_28"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace mote
