// The kernel registry (kernels/kernel_registry.inc) and what derives from it: ids, names,
// the table of all kernels, entry symbols, references, instruction sets, placements.
#include <gtest/gtest.h>
#include <string.h>

#include <cctype>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "all_kernels.h"
#include "conv2d/conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "kernel_registry.h"
#include "pool2d/pool2d.h"

namespace mote {
namespace kernel_table_test {

std::vector<KernelId> every_kernel() {
  std::vector<KernelId> ids;
  for (uint32_t i = 1; i < kKernelCount; ++i) ids.push_back(static_cast<KernelId>(i));
  return ids;
}

TEST(AllKernels, EverySlotHoldsADistinctEntry) {
  const KernelTable& table = all_kernels();
  ASSERT_EQ(table.count, kKernelCount);
  EXPECT_EQ(table.entries[0], nullptr);
  std::set<const KernelEntry*> seen;
  for (const KernelId id : every_kernel()) {
    const KernelEntry* entry = table.entries[static_cast<uint32_t>(id)];
    ASSERT_NE(entry, nullptr) << kernel_name(id);
    EXPECT_NE(entry->check, nullptr) << kernel_name(id);
    EXPECT_NE(entry->run, nullptr) << kernel_name(id);
    EXPECT_TRUE(seen.insert(entry).second) << kernel_name(id);
  }
}

// Programs store these numbers: a kernel keeps its id forever (new kernels are appended
// to the registry with the next number; they need not be added here).
TEST(KernelIds, IdsProgramsStoreNeverChange) {
  const char* const kFrozen[] = {
    "conv2d_f32", "depthwise_conv2d_f32", "fully_connected_f32", "batch_matmul_f32",
    "add_f32", "sub_f32", "mul_f32", "div_f32", "clamp_f32", "sigmoid_f32", "tanh_f32",
    "softmax_f32", "avg_pool2d_f32", "max_pool2d_f32", "mean_f32", "transpose", "concat",
    "pad", "copy", "conv2d_s8", "depthwise_conv2d_s8", "fully_connected_s8", "add_s8",
    "sub_s8", "mul_s8", "avg_pool2d_s8", "max_pool2d_s8", "softmax_s8", "sigmoid_s8",
    "tanh_s8", "mean_s8", "leaky_relu_s8", "conv2d_s16", "depthwise_conv2d_s16",
    "transpose_conv_s16", "add_s16", "sub_s16", "mul_s16", "leaky_relu_s16",
    "quantize_f32_s8", "quantize_f32_s16", "dequantize_s8_f32", "dequantize_s16_f32",
    "requantize_s8_s8", "requantize_s8_s16", "requantize_s8_s32", "requantize_s16_s8",
    "requantize_s16_s16", "requantize_s16_s32", "requantize_s32_s8", "requantize_s32_s16",
    "strided_slice", "lstm_s8", "fully_connected_s16", "mean_s16", "avg_pool2d_s16",
    "max_pool2d_s16", "conv2d_s8__dsp", "conv2d_s8_1x1__dsp", "depthwise_conv2d_s8__dsp",
    "depthwise_conv2d_s8_3x3__dsp", "fully_connected_s8__dsp", "add_s8__dsp",
    "avg_pool2d_s8__dsp", "max_pool2d_s8__dsp", "conv2d_s8__mve", "conv2d_s8_1x1__mve",
    "depthwise_conv2d_s8__mve", "fully_connected_s8__mve", "add_s8__mve",
    "avg_pool2d_s8__mve", "max_pool2d_s8__mve", "conv2d_s8__v6m", "depthwise_conv2d_s8__v6m",
    "fully_connected_s8__v6m", "depthwise_conv2d_s8_mult__dsp", "add_s8_lut__dsp"
  };
  ASSERT_LE(sizeof(kFrozen) / sizeof(kFrozen[0]), kKernelCount - 1);
  for (uint32_t i = 0; i < sizeof(kFrozen) / sizeof(kFrozen[0]); ++i)
    EXPECT_STREQ(kernel_name(static_cast<KernelId>(i + 1)), kFrozen[i]) << "id " << i + 1;
}

TEST(KernelNames, NamesAreUniqueAndRoundTrip) {
  std::set<std::string> seen;
  for (const KernelId id : every_kernel()) {
    const char* name = kernel_name(id);
    ASSERT_NE(name, nullptr);
    EXPECT_GT(strlen(name), 0u) << static_cast<uint32_t>(id);
    EXPECT_TRUE(seen.insert(name).second) << name;
    EXPECT_EQ(kernel_id_from_name(name), id) << name;
  }
}

TEST(KernelNames, UnknownIdsAndNames) {
  EXPECT_STREQ(kernel_name(KernelId::kInvalid), "");
  EXPECT_STREQ(kernel_name(KernelId::kCount), "");
  EXPECT_STREQ(kernel_name(static_cast<KernelId>(999)), "");
  EXPECT_EQ(kernel_id_from_name(""), KernelId::kInvalid);
  EXPECT_EQ(kernel_id_from_name(nullptr), KernelId::kInvalid);
  EXPECT_EQ(kernel_id_from_name("conv2d"), KernelId::kInvalid);
  EXPECT_EQ(kernel_id_from_name("Conv2d_f32"), KernelId::kInvalid);
  EXPECT_STREQ(kernel_entry_symbol(KernelId::kInvalid), "");
  EXPECT_STREQ(kernel_source(KernelId::kCount), "");
  EXPECT_EQ(kernel_reference(KernelId::kInvalid), KernelId::kInvalid);
  EXPECT_FALSE(kernel_is_variant(KernelId::kCount));
  EXPECT_EQ(kernel_placement(static_cast<KernelId>(999)), KernelPlacement::kNotInPlace);
}

// A registry line whose enumerator and name disagree would give one kernel's number
// another's name: the enumerator is the name camel-cased (matmul spelled MatMul), and the
// entry symbol is k<enumerator>Entry.
TEST(KernelRegistry, EnumeratorsSpellTheirNames) {
  for (const KernelId id : every_kernel()) {
    std::string camel = "k";
    const std::string name = kernel_name(id);
    for (size_t at = 0; at < name.size();) {
      size_t end = name.find('_', at);
      if (end == std::string::npos) end = name.size();
      std::string word = name.substr(at, end - at);
      if (word == "matmul") word = "MatMul";
      if (!word.empty()) word[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(word[0])));
      camel += word;
      at = end + 1;
    }
    EXPECT_EQ(camel + "Entry", kernel_entry_symbol(id)) << name;
  }
}

// A variant is <reference>[_<specialization>]__<isa> for a reference kernel of the same
// name stem, written for its isa; a reference kernel is portable and its own reference.
TEST(KernelRegistry, VariantsNameTheirReferenceAndIsa) {
  const char* const kIsaSuffix[] = {"", "__dsp", "__mve", "__v6m", "__fpu"};
  int variants = 0;
  for (const KernelId id : every_kernel()) {
    const std::string name = kernel_name(id);
    const KernelId reference = kernel_reference(id);
    ASSERT_NE(reference, KernelId::kInvalid) << name;
    EXPECT_EQ(kernel_reference(reference), reference) << name << ": its reference has a reference";
    if (!kernel_is_variant(id)) {
      EXPECT_EQ(reference, id);
      EXPECT_EQ(kernel_isa(id), KernelIsa::kPortable) << name;
      EXPECT_EQ(name.find("__"), std::string::npos) << name;
      continue;
    }
    ++variants;
    const std::string suffix = kIsaSuffix[static_cast<int>(kernel_isa(id))];
    ASSERT_FALSE(suffix.empty()) << name << " is a variant written in portable C++";
    ASSERT_GT(name.size(), suffix.size());
    EXPECT_EQ(name.substr(name.size() - suffix.size()), suffix) << name;
    const std::string stem = kernel_name(reference);
    EXPECT_EQ(name.rfind(stem, 0), 0u) << name << " does not start with its reference " << stem;
    EXPECT_NE(kernel_placement(id), KernelPlacement::kAlias) << name;
  }
  EXPECT_GE(variants, 20);
}

TEST(KernelRegistry, SourcesExistInTheirOpFolder) {
  for (const KernelId id : every_kernel()) {
    const std::string source = kernel_source(id);
    EXPECT_NE(source.find('/'), std::string::npos) << source << ": not in an op folder";
    EXPECT_TRUE(std::filesystem::exists(std::string(MOTE_SOURCE_DIR) + "/kernels/" + source)) << source;
  }
}

// The planner reads stride and pads through each pixel-streaming kernel's own params
// struct: a window placed in the struct's `window` comes back, wherever the struct keeps it.
TEST(KernelRegistry, WindowIsReadThroughTheParamsStruct) {
  const WindowGeometry g = {2, 3, 1, 1, 4, 5, 6, 7};
  auto check = [&](KernelId id, const auto& params) {
    std::vector<uint8_t> bytes(sizeof(params) + 16);  // a variant may append data
    memcpy(bytes.data(), &params, sizeof(params));
    WindowGeometry read = {};
    ASSERT_TRUE(kernel_window(id, bytes.data(), bytes.size(), &read)) << kernel_name(id);
    EXPECT_EQ(memcmp(&read, &g, sizeof(g)), 0) << kernel_name(id);
    EXPECT_FALSE(kernel_window(id, bytes.data(), sizeof(params) - 1, &read)) << kernel_name(id);
  };
  Pool2dParams pool{};
  pool.kernel_h = pool.kernel_w = 99;  // before the window: must not be read as stride
  pool.window = g;
  Pool2dS8Params pool_s8{};
  pool_s8.kernel_h = pool_s8.kernel_w = 99;
  pool_s8.window = g;
  Conv2dS8Params conv_s8{};
  conv_s8.window = g;
  DepthwiseConv2dS8Params depthwise_s8{};
  depthwise_s8.window = g;
  int pixel_kernels = 0;
  for (const KernelId id : every_kernel()) {
    if (kernel_placement(id) != KernelPlacement::kPixelStream) {
      WindowGeometry unused;
      EXPECT_FALSE(kernel_window(id, reinterpret_cast<const uint8_t*>(&pool), sizeof(pool), &unused))
          << kernel_name(id);
      continue;
    }
    ++pixel_kernels;
    const KernelId reference = kernel_reference(id);
    if (reference == KernelId::kAvgPool2dF32 || reference == KernelId::kMaxPool2dF32) check(id, pool);
    if (reference == KernelId::kAvgPool2dS8 || reference == KernelId::kMaxPool2dS8) check(id, pool_s8);
    if (reference == KernelId::kConv2dS8) check(id, conv_s8);
    if (reference == KernelId::kDepthwiseConv2dS8) check(id, depthwise_s8);
  }
  EXPECT_GE(pixel_kernels, 22);
}

// Each streaming kernel's block rule as the registry gives it (the rules' reasons are in
// the kernels' headers; the random in-place tests of tests/compiler check them).
TEST(KernelRegistry, PixelStreamBlocks) {
  const PixelStreamShape shape = {1, 10, 12, 3, 5, 6, 8};
  const PixelStreamShape one_channel = {1, 10, 12, 1, 5, 6, 8};
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kConv2dF32, shape), 1u);
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kMaxPool2dS16, shape), 1u);
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kConv2dS8Dsp, shape), 4u);
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kConv2dS81x1Mve, shape), 2u);
  // conv2d_s8_1x1__dsp: 1 (inputs read before their pixels are written) but 4 where a last
  // block steps back (30 and 31 pixels) or the small-channel path reads the input again.
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kConv2dS81x1Dsp, {1, 5, 6, 24, 5, 6, 8}), 4u);
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kConv2dS81x1Dsp, {1, 5, 6, 24, 4, 8, 8}), 1u);
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kConv2dS81x1Dsp, {1, 5, 6, 24, 5, 5, 8}), 1u);
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kConv2dS81x1Dsp, {1, 31, 1, 24, 31, 1, 8}), 4u);
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kConv2dS81x1Dsp, {1, 4, 8, 16, 4, 8, 8}), 4u);
  // conv2d_s8_1x1_relu__dsp: the same without a small-channel path.
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kConv2dS81x1ReluDsp, {1, 5, 6, 64, 5, 6, 8}), 4u);
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kConv2dS81x1ReluDsp, {1, 5, 5, 64, 5, 5, 8}), 1u);
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kConv2dS81x1ReluDsp, {1, 4, 8, 16, 4, 8, 8}), 1u);
  // depthwise_conv2d_s8_3x3__dsp: block 1; row-buffered with a fast-path table
  // (lower_variants_depthwise_fc_test.cc).
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kDepthwiseConv2dS83x3Dsp, shape), 1u);
  EXPECT_EQ(kernel_pixel_stream_rows(KernelId::kDepthwiseConv2dS83x3Dsp, nullptr, 0, shape), 0u);
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kDepthwiseConv2dS8Mve, shape), 6u);  // out_w
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kDepthwiseConv2dS8MultDsp, shape), 0u);
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kDepthwiseConv2dS8MultDsp, one_channel), 1u);
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kAvgPool2dS8Dsp, shape), 0u);  // not in place
  EXPECT_EQ(kernel_pixel_stream_block(KernelId::kAddS8, shape), 0u);
  EXPECT_EQ(kernel_placement(KernelId::kAddS8LutDsp), KernelPlacement::kElementwise);
  EXPECT_EQ(kernel_placement(KernelId::kDequantizeS8F32), KernelPlacement::kNotInPlace);  // widens
  EXPECT_EQ(kernel_placement(KernelId::kCopy), KernelPlacement::kAlias);
}

}  // namespace kernel_table_test
}  // namespace mote
