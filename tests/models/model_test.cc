// Every ONNX model in ../shared/models compiles, and `mote run` on the host matches its
// PyTorch golden outputs (rtol 1e-4, atol 1e-5). The memory plan of each is checked
// independently of the planner: no two tensors live at the same time overlap in the
// arena, the stated lower bound is right, and the arena is within 1.25x of it.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "arena_map.h"
#include "host_runner.h"
#include "kernel_ids.h"
#include "lower/lower.h"
#include "model_test_util.h"
#include "refused_models.h"

namespace mote::testing {
namespace {

const char* const kOnnxModels[] = {"add_1x5", "linear_3x3", "linear_4x3", "softmax_1x4",
                                   "lenet5_28", "mobilenet_v2_w005_96"};

class HostGolden : public ::testing::TestWithParam<const char*> {};

TEST_P(HostGolden, MatchesPyTorchOnEverySample) {
  const std::string stem = GetParam();
  TempDir dir;
  const std::string program = compile_shared_onnx(dir, stem);
  ASSERT_EQ(golden_sample_count(stem), kOnnxGoldenSamples) << stem;
  for (int sample = 0; sample < kOnnxGoldenSamples; ++sample) {
    const std::string out_dir = dir.file("s" + std::to_string(sample));
    const CommandResult r = run_mote("run '" + program + "'" + input_args(stem, sample) +
                                     " --output-dir '" + out_dir + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const int outputs = golden_output_count(stem, sample);
    ASSERT_EQ(written_output_count(out_dir), outputs) << stem << " sample " << sample;
    for (int j = 0; j < outputs; ++j)
      expect_allclose(read_npy(out_dir + "/out" + std::to_string(j) + ".npy"),
                      read_npy(sample_path(stem, sample, "out", j)), 1e-4, 1e-5,
                      stem + " sample " + std::to_string(sample) + " output " + std::to_string(j));
  }
}

INSTANTIATE_TEST_SUITE_P(OnnxModels, HostGolden, ::testing::ValuesIn(kOnnxModels));

// Lifetime of every arena buffer, derived from the program alone (cli/arena_map.h).
using Buffer = ArenaBuffer;

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
      if (x.in_place_of == static_cast<int64_t>(b) || y.in_place_of == static_cast<int64_t>(a)) {
        // Written in place: only at the op that hands over, only by a kernel that streams
        // elementwise, and at the same offset.
        const Buffer& written = x.in_place_of == static_cast<int64_t>(b) ? x : y;
        const uint32_t op = written.first;
        const Buffer& read = x.in_place_of == static_cast<int64_t>(b) ? y : x;
        const KernelId kernel = static_cast<KernelId>(program.interpreter().op_desc(op)->kernel);
        const OpContext ctx = program.interpreter().op_context(op);
        auto shape_of = [](const TensorDesc& d) { return ir::Shape(d.dims, d.dims + d.rank); };
        EXPECT_TRUE(lower::streams_elementwise(kernel) ||
                    lower::pixel_stream_block(kernel, shape_of(ctx.input_desc(0)), shape_of(ctx.output_desc(0))) > 0)
            << stem << ": op " << op << " writes " << written.what << " in place";
        if (lower::streams_elementwise(kernel))
          EXPECT_EQ(written.offset, read.offset) << stem << ": " << written.what << " over " << read.what;
        EXPECT_LE(written.offset, read.offset) << stem << ": " << written.what << " over " << read.what;
        continue;
      }
      EXPECT_FALSE(live_together && overlap && x.bytes && y.bytes)
          << stem << ": " << x.what << " and " << y.what << " overlap while both live";
    }
  }

  // Independent lower bound: the largest sum of (16-aligned) live bytes at any op.
  uint64_t bound = 0;
  for (uint32_t k = 0; k < program.interpreter().op_count(); ++k) {
    uint64_t live = 0;
    for (const Buffer& b : buffers) {
      if (b.first <= k && k <= b.last) live += (b.bytes + 15) / 16 * 16;
      if (b.in_place_of >= 0 && b.first == k) {  // the pair's overlap is counted once
        const Buffer& from = buffers[b.in_place_of];
        const uint64_t lo = std::max(b.offset, from.offset);
        const uint64_t hi = std::min(b.offset + (b.bytes + 15) / 16 * 16, from.offset + (from.bytes + 15) / 16 * 16);
        live -= hi > lo ? hi - lo : 0;
      }
    }
    bound = std::max(bound, live);
  }
  // The stated bound also counts in-place chains' rigidity (planner/memory_planner.h), so
  // it is at least the live bytes, and at least each chain's span: the members' offsets
  // are fixed relative to each other by their links.
  EXPECT_GE(h.arena_lower_bound_bytes, bound) << stem;
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].in_place_of >= 0) continue;  // walk chains from their heads
    uint64_t lo = buffers[i].offset, hi = buffers[i].offset + buffers[i].bytes;
    for (size_t k = i, steps = 0; steps < buffers.size(); ++steps) {
      size_t next = buffers.size();
      for (size_t j = 0; j < buffers.size(); ++j)
        if (buffers[j].in_place_of == static_cast<int64_t>(k)) next = j;
      if (next == buffers.size()) break;
      k = next;
      lo = std::min(lo, buffers[k].offset);
      hi = std::max(hi, buffers[k].offset + buffers[k].bytes);
    }
    EXPECT_LE(hi - lo, h.arena_lower_bound_bytes) << stem << ": chain from " << buffers[i].what;
  }
  EXPECT_GE(h.arena_bytes, h.arena_lower_bound_bytes) << stem;
  EXPECT_LE(h.arena_bytes, h.arena_lower_bound_bytes * 1.25) << stem;
}

INSTANTIATE_TEST_SUITE_P(OnnxModels, Planner, ::testing::ValuesIn(kOnnxModels));

// `mote inspect --memory-svg`: one box per arena buffer, each inside the planned arena and
// spanning its ops; the title names the peak op; the file is complete XML.
TEST(MemorySvg, DrawsEveryArenaBufferWithinThePlot) {
  TempDir dir;
  const std::string program = compile_shared_onnx(dir, "lenet5_28");
  const std::string svg_path = dir.file("arena.svg");
  const CommandResult r = run_mote("inspect '" + program + "' --memory-svg '" + svg_path + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string svg = read_text(svg_path);
  ASSERT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  LoadedProgram loaded(read_file(program), program);
  const std::vector<ArenaBuffer> buffers = arena_buffers(loaded.interpreter(), loaded.header());
  size_t boxes = 0;
  for (size_t at = svg.find("<title>"); at != std::string::npos; at = svg.find("<title>", at + 1)) ++boxes;
  size_t nonempty = 0;
  for (const ArenaBuffer& b : buffers) nonempty += b.bytes != 0;
  EXPECT_EQ(boxes, nonempty);
  EXPECT_GT(boxes, 5u);
  auto commas = [](uint64_t v) {
    std::string digits = std::to_string(v);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<size_t>(i), ",");
    return digits;
  };
  EXPECT_NE(svg.find("arena " + commas(loaded.header().arena_bytes) + " bytes (lower bound " +
                     commas(loaded.header().arena_lower_bound_bytes) + ")"),
            std::string::npos);
  // The live bytes never exceed the lower bound (which may be above them where an
  // in-place chain's rigidity raises it).
  const std::vector<uint64_t> live = live_bytes_per_op(buffers, loaded.interpreter().op_count());
  EXPECT_LE(*std::max_element(live.begin(), live.end()), loaded.header().arena_lower_bound_bytes);
  // An unwritable path is one line and leaves nothing behind.
  const CommandResult bad = run_mote("inspect '" + program + "' --memory-svg '" + dir.file("no/such/dir/a.svg") + "'");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_EQ(line_count(bad.err), 1) << bad.err;
}

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

// With patching off, every shared model's plan reaches its stated lower bound (ratio
// 1.00) on every target and --optimize choice: the .tflite models, the ONNX models as
// float, and the ONNX models through --quantize int8. The models of refused_models.h pass
// only when every compile is refused with exactly their reason; any other error fails.
// In the sanitized build (tools/sanitize.sh) each model compiles on the host with both
// --optimize choices and for cortex-m55 (the lowering's Helium rules) with --optimize
// speed: the other targets take the same compiler paths with other kernel choices, and
// the full sweep, eight compiles per model under ASan, was a third of the sanitizer tests'
// time (561 of ~1,800 s).
std::vector<std::string> shared_model_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(shared_models())) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".tflite" || ext == ".onnx")
      files.push_back(std::filesystem::relative(entry.path(), shared_models()).string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The walk below finds every model: 6 ONNX and 44 .tflite ones that compile (10 of them
// Vela's, with their --npu), and the refused ones (an empty or partial walk would quietly
// instantiate fewer tests).
TEST(SharedModelFiles, AreAllFound) {
  EXPECT_EQ(shared_model_files().size(), 50u + refused_models().size());
}

class ArenaAtLowerBound : public ::testing::TestWithParam<std::string> {};

TEST_P(ArenaAtLowerBound, OnEveryTargetWithPatchingOff) {
  const std::string file = shared_models() + "/" + GetParam();
  const std::filesystem::path path(file);
  const bool onnx = path.extension() == ".onnx";
  const std::string stem = path.stem().string();
  const Refusal* refusal = refusal_of(GetParam());
  const std::string npu = npu_of(GetParam()).empty() ? "" : " --npu " + npu_of(GetParam());
  std::vector<std::string> variants = {""};
  if (onnx) {
    std::string calibration;
    const std::string single = shared_models() + "/onnx/" + stem + ".calib.npy";
    if (std::filesystem::exists(single)) calibration = " --calibration '" + single + "'";
    for (int i = 0; std::filesystem::exists(shared_models() + "/onnx/" + stem + ".calib.in" + std::to_string(i) + ".npy"); ++i)
      calibration += " --calibration '" + shared_models() + "/onnx/" + stem + ".calib.in" + std::to_string(i) + ".npy'";
    ASSERT_FALSE(calibration.empty()) << stem;
    variants.push_back(" --quantize int8" + calibration);
  }
  TempDir dir;
  for (const std::string& variant : variants) {
    for (const char* target : {"host", "cortex-m0plus", "cortex-m4", "cortex-m55"}) {
      for (const char* optimize : {"speed", "memory"}) {
        // Quantizing is slow (calibration); the int8 ONNX programs are checked on host and
        // cortex-m4 with the default --optimize.
        if (!variant.empty() && (std::string(optimize) == "memory" || std::string(target) == "cortex-m0plus" ||
                                 std::string(target) == "cortex-m55"))
          continue;
#ifdef MOTE_SANITIZED_BUILD
        if (std::string(target) != "host" && (std::string(target) != "cortex-m55" || std::string(optimize) != "speed"))
          continue;
#endif
        const std::string what = GetParam() + variant.substr(0, variant.find(" --calibration")) + " --target " +
                                 target + " --optimize " + optimize;
        const CommandResult r = run_mote("compile '" + file + "' -o '" + dir.file("p.mote") + "' --target " + target +
                                         " --optimize " + optimize + " --patching off --json" + variant + npu);
        if (refusal != nullptr) {
          EXPECT_NE(r.exit_code, 0) << what << " compiles: remove it from refused_models.h";
          const std::string expected = refusal->stage == Refusal::kImport ? file + ": " + refusal->message
                                                                          : refusal->message;
          EXPECT_EQ(r.err, "error: " + expected + "\n") << what;
          continue;
        }
        ASSERT_EQ(r.exit_code, 0) << what << ": " << r.err;
        const auto report = nlohmann::json::parse(r.out.substr(r.out.find('{')));
        const uint64_t arena = report["arena_bytes"].get<uint64_t>();
        const uint64_t bound = report["arena_lower_bound_bytes"].get<uint64_t>();
        EXPECT_EQ(arena, bound) << what;
        std::cout << "[ arena    ] " << what << ": " << arena << " bytes (lower bound " << bound << ")\n";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SharedModels, ArenaAtLowerBound, ::testing::ValuesIn(shared_model_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace mote::testing
