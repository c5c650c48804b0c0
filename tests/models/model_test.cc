// Every ONNX model in ../shared/models compiles, and `mote run` on the host matches its
// PyTorch golden outputs (rtol 1e-4, atol 1e-5). The memory plan of each is checked
// independently of the planner: no two tensors live at the same time overlap in the
// arena, the stated lower bound is right, and the arena is within 1.25x of it.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "host_runner.h"
#include "kernel_ids.h"
#include "model_test_util.h"

namespace mote::testing {
namespace {

const char* const kOnnxModels[] = {"add_1x5", "linear_3x3", "linear_4x3", "softmax_1x4",
                                   "lenet5_28", "mobilenet_v2_w005_96"};

class HostGolden : public ::testing::TestWithParam<const char*> {};

TEST_P(HostGolden, MatchesPyTorchOnEverySample) {
  const std::string stem = GetParam();
  TempDir dir;
  const std::string program = compile_shared_onnx(dir, stem);
  for (int sample = 0; std::filesystem::exists(sample_path(stem, sample, "out", 0)); ++sample) {
    const std::string out_dir = dir.file("s" + std::to_string(sample));
    const CommandResult r = run_mote("run '" + program + "'" + input_args(stem, sample) +
                                     " --output-dir '" + out_dir + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (int j = 0; std::filesystem::exists(sample_path(stem, sample, "out", j)); ++j)
      expect_allclose(read_npy(out_dir + "/out" + std::to_string(j) + ".npy"),
                      read_npy(sample_path(stem, sample, "out", j)), 1e-4, 1e-5,
                      stem + " sample " + std::to_string(sample) + " output " + std::to_string(j));
  }
}

INSTANTIATE_TEST_SUITE_P(OnnxModels, HostGolden, ::testing::ValuesIn(kOnnxModels));

// Lifetime of every arena buffer, derived from the program alone: a tensor lives from the
// first op that writes it to the last op that reads it; graph inputs from op 0; graph
// outputs to the end; scratch only during its op.
struct Buffer {
  uint64_t offset, bytes;
  uint32_t first, last;
  std::string what;
};

std::vector<Buffer> arena_buffers(const Interpreter& interp, const ProgramHeader& h) {
  const uint32_t ops = interp.op_count();
  std::vector<int64_t> first(h.tensor_count, -1), last(h.tensor_count, -1);
  const auto* tensors = reinterpret_cast<const TensorDesc*>(reinterpret_cast<const uint8_t*>(&h) + h.tensors_offset);
  const auto* pool = reinterpret_cast<const uint32_t*>(reinterpret_cast<const uint8_t*>(&h) + h.index_offset);
  // A copy whose output sits exactly on its input (the planner aliased a reshape) is one
  // buffer: its lifetime is the union of both tensors'.
  std::vector<uint32_t> root(h.tensor_count);
  for (uint32_t t = 0; t < h.tensor_count; ++t) root[t] = t;
  for (uint32_t k = 0; k < ops; ++k) {
    const OpDesc& op = *interp.op_desc(k);
    if (static_cast<KernelId>(op.kernel) != KernelId::kCopy) continue;
    const uint32_t in = pool[op.io_first], out = pool[op.io_first + 1];
    if (tensors[in].storage == tensors[out].storage && tensors[in].offset == tensors[out].offset &&
        tensors[in].bytes == tensors[out].bytes)
      root[out] = root[in];
  }
  auto touch = [&](uint32_t t, int64_t op) {
    t = root[t];
    if (first[t] < 0 || op < first[t]) first[t] = op;
    last[t] = std::max(last[t], op);
  };
  for (uint32_t i = 0; i < h.input_count; ++i) touch(pool[h.inputs_first + i], 0);
  for (uint32_t i = 0; i < h.output_count; ++i) touch(pool[h.outputs_first + i], ops ? ops - 1 : 0);
  std::vector<Buffer> buffers;
  for (uint32_t k = 0; k < ops; ++k) {
    const OpDesc& op = *interp.op_desc(k);
    for (uint32_t i = 0; i < op.input_count + op.output_count; ++i) {
      const uint32_t t = pool[op.io_first + i];
      if (t != kNoTensor) touch(t, k);
    }
    if (op.scratch_bytes) buffers.push_back({op.scratch_offset, op.scratch_bytes, k, k, "scratch of op " + std::to_string(k)});
  }
  for (uint32_t t = 0; t < h.tensor_count; ++t)
    if (tensors[t].storage == static_cast<uint8_t>(Storage::kArena) && first[t] >= 0)
      buffers.push_back({tensors[t].offset, tensors[t].bytes, uint32_t(first[t]), uint32_t(last[t]),
                         "tensor " + std::to_string(t)});
  return buffers;
}

class Planner : public ::testing::TestWithParam<const char*> {};

TEST_P(Planner, NoTwoLiveBuffersOverlapAndArenaIsNearTheLowerBound) {
  const std::string stem = GetParam();
  TempDir dir;
  const std::string path = compile_shared_onnx(dir, stem);
  LoadedProgram program(read_file(path), path);
  const ProgramHeader& h = program.header();
  const std::vector<Buffer> buffers = arena_buffers(program.interpreter(), h);
  ASSERT_FALSE(buffers.empty());

  // Exhaustive pairwise check.
  for (size_t a = 0; a < buffers.size(); ++a) {
    EXPECT_LE(buffers[a].offset + buffers[a].bytes, h.arena_bytes) << buffers[a].what;
    for (size_t b = a + 1; b < buffers.size(); ++b) {
      const Buffer& x = buffers[a];
      const Buffer& y = buffers[b];
      const bool live_together = x.first <= y.last && y.first <= x.last;
      const bool overlap = x.offset < y.offset + y.bytes && y.offset < x.offset + x.bytes;
      EXPECT_FALSE(live_together && overlap && x.bytes && y.bytes)
          << stem << ": " << x.what << " and " << y.what << " overlap while both live";
    }
  }

  // Independent lower bound: the largest sum of (16-aligned) live bytes at any op.
  uint64_t bound = 0;
  for (uint32_t k = 0; k < program.interpreter().op_count(); ++k) {
    uint64_t live = 0;
    for (const Buffer& b : buffers)
      if (b.first <= k && k <= b.last) live += (b.bytes + 15) / 16 * 16;
    bound = std::max(bound, live);
  }
  EXPECT_EQ(h.arena_lower_bound_bytes, bound) << stem;
  EXPECT_GE(h.arena_bytes, h.arena_lower_bound_bytes) << stem;
  EXPECT_LE(h.arena_bytes, h.arena_lower_bound_bytes * 1.25) << stem;
}

INSTANTIATE_TEST_SUITE_P(OnnxModels, Planner, ::testing::ValuesIn(kOnnxModels));

TEST(HostInspect, ReportsTheContractFields) {
  TempDir dir;
  const std::string program = compile_shared_onnx(dir, "mobilenet_v2_w005_96");
  const CommandResult r = run_mote("inspect '" + program + "' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = nlohmann::json::parse(r.out);
  for (const char* key : {"arena_bytes", "arena_lower_bound_bytes", "weights_bytes", "macs", "kernels", "ops"})
    EXPECT_TRUE(report.contains(key)) << key;
  EXPECT_GT(report["weights_bytes"].get<uint64_t>(), 5'000'000u);  // 1280x1000 classifier alone is 5.12 MB
  EXPECT_GT(report["macs"].get<uint64_t>(), 1'000'000u);
  const auto kernels = report["kernels"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(kernels.begin(), kernels.end(), "conv2d_f32"), kernels.end());
  EXPECT_NE(std::find(kernels.begin(), kernels.end(), "depthwise_conv2d_f32"), kernels.end());
  EXPECT_NE(std::find(kernels.begin(), kernels.end(), "fully_connected_f32"), kernels.end());
  // Every op carries a name and a kernel; the sum of op MACs is the total.
  uint64_t macs = 0;
  for (const auto& op : report["ops"]) {
    EXPECT_FALSE(op["kernel"].get<std::string>().empty());
    macs += op["macs"].get<uint64_t>();
  }
  EXPECT_EQ(macs, report["macs"].get<uint64_t>());
}

}  // namespace
}  // namespace mote::testing
