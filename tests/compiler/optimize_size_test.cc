// --optimize size (compiler/compiler.cc, lower_for_size): each variant the code search
// gives up passes its ops to their next variant, or to their reference kernel; ops doing
// 1/32 of the model's MACs or more (together) keep a variant. Shown on the MLPerf Tiny
// keyword-spotting DS-CNN for cortex-m4 with made-up code sizes, so the test fixes the
// policy, not the sizes of this build's kernels (tests/firmware/check_size.py measures
// those and checks the outputs stay bit for bit).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "compiler.h"
#include "import/tflite/tflite_importer.h"
#include "kernel_registry.h"
#include "search/search.h"

namespace mote {
namespace optimize_size_test {

const std::string kKws = std::string(MOTE_SHARED_DIR) + "/models/tflite/mlperf_tiny/kws_ref_model.tflite";

// Code bytes of a kernel set: 4,000 of runtime plus each kernel's made-up size.
std::function<uint64_t(const std::vector<std::string>&)> code_sizes(std::map<std::string, uint64_t> sizes) {
  return [sizes](const std::vector<std::string>& kernels) {
    uint64_t bytes = 4000;
    for (const std::string& k : kernels) {
      const auto it = sizes.find(k);
      bytes += it == sizes.end() ? 1000 : it->second;
    }
    return bytes;
  };
}

CompileResult compile_kws(Optimize optimize, std::map<std::string, uint64_t> sizes) {
  CompileOptions options;
  options.model_path = kKws;
  options.target = "cortex-m4";
  options.optimize = optimize;
  options.code_bytes = code_sizes(std::move(sizes));
  return compile(options);
}

std::vector<std::string> kernels_of(const CompileResult& r, const std::string& prefix) {
  std::vector<std::string> kernels;
  for (const OpReport& op : r.report.ops)
    if (op.kernel.rfind(prefix, 0) == 0 && std::find(kernels.begin(), kernels.end(), op.kernel) == kernels.end())
      kernels.push_back(op.kernel);
  return kernels;
}

TEST(OptimizeSize, CandidatesListTheApplicableVariantsInPreferenceOrderThenTheReference) {
  const ir::Graph graph = import_tflite(kKws);
  const std::vector<search::OpKernels> ops = search::op_kernel_candidates(graph, Target::kCortexM4);
  ASSERT_GE(ops.size(), 13u);
  // op 2: a 1x1 convolution without padding, ReLU-like: the four DSP variants apply, the
  // records one first, the compact one last.
  EXPECT_EQ(ops[2].kernels,
            (std::vector<KernelId>{KernelId::kConv2dS81x1ReluDsp, KernelId::kConv2dS81x1Dsp, KernelId::kConv2dS8Dsp,
                                   KernelId::kConv2dS8CompactDsp, KernelId::kConv2dS8}));
  EXPECT_EQ(ops[2].macs, 512000u);
  // op 1: a 3x3 depthwise convolution: the 3x3 variant, then the general one.
  EXPECT_EQ(ops[1].kernels, (std::vector<KernelId>{KernelId::kDepthwiseConv2dS83x3Dsp,
                                                   KernelId::kDepthwiseConv2dS8Dsp, KernelId::kDepthwiseConv2dS8}));
  // op 11: the classifier (768 of 2.66M MACs): link() gives its variant up (see
  // link.cc, give_up_negligible_variants), so the list starts at the reference.
  EXPECT_EQ(ops[11].kernels, std::vector<KernelId>{KernelId::kFullyConnectedS8});
  for (const search::OpKernels& op : ops) EXPECT_FALSE(kernel_is_variant(op.kernels.back()));
}

TEST(OptimizeSize, VariantsGiveWayToSmallerVariantsAndMacHeavyOpsNeverReachReferences) {
  // Every variant larger than its reference: only the MAC rule keeps variants.
  const std::map<std::string, uint64_t> sizes = {
      {"conv2d_s8_1x1_relu__dsp", 15000}, {"conv2d_s8_1x1__dsp", 15000},
      {"conv2d_s8__dsp", 12000},          {"conv2d_s8_compact__dsp", 3000},
      {"conv2d_s8_small_window__dsp", 8000},
      {"conv2d_s8", 2000},           {"depthwise_conv2d_s8_3x3__dsp", 20000}, {"depthwise_conv2d_s8__dsp", 3000},
      {"depthwise_conv2d_s8", 2000}, {"fully_connected_s8__dsp", 4000}, {"fully_connected_s8", 1500},
      {"avg_pool2d_s8__dsp", 3000},  {"avg_pool2d_s8", 2000}};
  const CompileResult fast = compile_kws(Optimize::kSpeed, sizes);
  EXPECT_EQ(kernels_of(fast, "conv2d"),
            (std::vector<std::string>{"conv2d_s8_small_window__dsp", "conv2d_s8_1x1_relu__dsp"}));
  const CompileResult small = compile_kws(Optimize::kSize, sizes);
  // The convolutions (89% of the MACs) take the compact DSP variant; the four depthwise
  // layers (2.7% each, 10.8% together) the general DSP one; the pooling (no MACs) its
  // reference (the fully connected layer has it in the fast build already).
  EXPECT_EQ(kernels_of(small, "conv2d"), std::vector<std::string>{"conv2d_s8_compact__dsp"});
  EXPECT_EQ(kernels_of(small, "depthwise"), std::vector<std::string>{"depthwise_conv2d_s8__dsp"});
  EXPECT_EQ(kernels_of(small, "fully"), std::vector<std::string>{"fully_connected_s8"});
  EXPECT_EQ(kernels_of(small, "avg"), std::vector<std::string>{"avg_pool2d_s8"});
  // The largest saving first; the compact convolution and the general depthwise stay
  // (the 1x1 convolutions pass over the records kernel, the general 1x1 one and
  // conv2d_s8__dsp in one step: the general 1x1 kernel alone would add code; the first
  // conv's small-window variant then joins them on the compact one).
  EXPECT_EQ(small.report.size_choices,
            (std::vector<std::string>{
                "depthwise_conv2d_s8_3x3__dsp -> depthwise_conv2d_s8__dsp: 53500 -> 36500 bytes of code",
                "conv2d_s8_1x1_relu__dsp -> conv2d_s8_compact__dsp: 36500 -> 24500 bytes of code",
                "conv2d_s8_small_window__dsp -> conv2d_s8_compact__dsp: 24500 -> 16500 bytes of code",
                "avg_pool2d_s8__dsp -> avg_pool2d_s8: 16500 -> 15500 bytes of code"}));
  EXPECT_EQ(small.report.speed_code_bytes, 53500u);
  EXPECT_EQ(small.report.code_bytes, 15500u);
}

TEST(OptimizeSize, GivesUpOnlyWhatLowersTheCode) {
  // References and the general depthwise variant large, the other variants 1,000 bytes:
  // nothing goes (the 1x1 convolutions' variant for conv2d_s8__dsp, or the first conv's
  // small-window one for the compact one, would each cost as much as it saves).
  const CompileResult small = compile_kws(Optimize::kSize, {{"conv2d_s8", 90000},
                                                            {"depthwise_conv2d_s8", 90000},
                                                            {"depthwise_conv2d_s8__dsp", 90000},
                                                            {"fully_connected_s8", 90000},
                                                            {"avg_pool2d_s8", 90000}});
  EXPECT_EQ(small.report.size_choices, std::vector<std::string>{});
  EXPECT_EQ(small.report.speed_code_bytes, 100000u);  // the classifier's reference: 90,000
  EXPECT_EQ(small.report.code_bytes, 100000u);
  EXPECT_EQ(kernels_of(small, "depthwise"), std::vector<std::string>{"depthwise_conv2d_s8_3x3__dsp"});
}

// Every mode: a variant whose ops do under 1/512 of the model's MACs gives way to the next
// kernel (compiler/link/link.cc, give_up_negligible_variants), whose code is smaller.
TEST(NegligibleVariants, AClassifierWithATinyShareOfTheMacsTakesTheReference) {
  const CompileResult kws = compile_kws(Optimize::kSpeed, {});
  EXPECT_EQ(kernels_of(kws, "fully"), std::vector<std::string>{"fully_connected_s8"});  // 768 of 2.66M MACs
  EXPECT_EQ(kernels_of(kws, "conv2d"),
            (std::vector<std::string>{"conv2d_s8_small_window__dsp", "conv2d_s8_1x1_relu__dsp"}));
  // micro_speech's classifier does 4.8% of its MACs: it keeps the DSP variant.
  CompileOptions options;
  options.model_path = std::string(MOTE_SHARED_DIR) + "/models/tflite/tflm/micro_speech_quantized.tflite";
  options.target = "cortex-m4";
  EXPECT_EQ(kernels_of(compile(options), "fully"), std::vector<std::string>{"fully_connected_s8__dsp"});
}

}  // namespace optimize_size_test
}  // namespace mote
