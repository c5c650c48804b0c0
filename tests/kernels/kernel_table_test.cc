#include <gtest/gtest.h>
#include <string.h>

#include <set>
#include <string>

#include "activation/activation.h"
#include "all_kernels.h"
#include "batch_matmul/batch_matmul.h"
#include "concat/concat.h"
#include "conv2d/conv2d.h"
#include "copy/copy.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "elementwise/elementwise.h"
#include "fully_connected/fully_connected.h"
#include "kernel_ids.h"
#include "leaky_relu/leaky_relu.h"
#include "lstm/lstm.h"
#include "mean/mean.h"
#include "pad/pad.h"
#include "pool2d/pool2d.h"
#include "quantize/quantize.h"
#include "softmax/softmax.h"
#include "strided_slice/strided_slice.h"
#include "transpose/transpose.h"
#include "transpose_conv/transpose_conv.h"

namespace mote {
namespace {

TEST(AllKernels, EveryIdMapsToItsEntry) {
  const struct {
    KernelId id;
    const KernelEntry* entry;
  } expected[] = {
      {KernelId::kConv2dF32, &kConv2dF32Entry},
      {KernelId::kDepthwiseConv2dF32, &kDepthwiseConv2dF32Entry},
      {KernelId::kFullyConnectedF32, &kFullyConnectedF32Entry},
      {KernelId::kBatchMatMulF32, &kBatchMatMulF32Entry},
      {KernelId::kAddF32, &kAddF32Entry},
      {KernelId::kSubF32, &kSubF32Entry},
      {KernelId::kMulF32, &kMulF32Entry},
      {KernelId::kDivF32, &kDivF32Entry},
      {KernelId::kClampF32, &kClampF32Entry},
      {KernelId::kSigmoidF32, &kSigmoidF32Entry},
      {KernelId::kTanhF32, &kTanhF32Entry},
      {KernelId::kSoftmaxF32, &kSoftmaxF32Entry},
      {KernelId::kAvgPool2dF32, &kAvgPool2dF32Entry},
      {KernelId::kMaxPool2dF32, &kMaxPool2dF32Entry},
      {KernelId::kMeanF32, &kMeanF32Entry},
      {KernelId::kTranspose, &kTransposeEntry},
      {KernelId::kConcat, &kConcatEntry},
      {KernelId::kPad, &kPadEntry},
      {KernelId::kCopy, &kCopyEntry},
      {KernelId::kConv2dS8, &kConv2dS8Entry},
      {KernelId::kDepthwiseConv2dS8, &kDepthwiseConv2dS8Entry},
      {KernelId::kFullyConnectedS8, &kFullyConnectedS8Entry},
      {KernelId::kAddS8, &kAddS8Entry},
      {KernelId::kSubS8, &kSubS8Entry},
      {KernelId::kMulS8, &kMulS8Entry},
      {KernelId::kAvgPool2dS8, &kAvgPool2dS8Entry},
      {KernelId::kMaxPool2dS8, &kMaxPool2dS8Entry},
      {KernelId::kSoftmaxS8, &kSoftmaxS8Entry},
      {KernelId::kSigmoidS8, &kSigmoidS8Entry},
      {KernelId::kTanhS8, &kTanhS8Entry},
      {KernelId::kMeanS8, &kMeanS8Entry},
      {KernelId::kLeakyReluS8, &kLeakyReluS8Entry},
      {KernelId::kConv2dS16, &kConv2dS16Entry},
      {KernelId::kDepthwiseConv2dS16, &kDepthwiseConv2dS16Entry},
      {KernelId::kTransposeConvS16, &kTransposeConvS16Entry},
      {KernelId::kAddS16, &kAddS16Entry},
      {KernelId::kSubS16, &kSubS16Entry},
      {KernelId::kMulS16, &kMulS16Entry},
      {KernelId::kLeakyReluS16, &kLeakyReluS16Entry},
      {KernelId::kQuantizeF32S8, &kQuantizeF32S8Entry},
      {KernelId::kQuantizeF32S16, &kQuantizeF32S16Entry},
      {KernelId::kDequantizeS8F32, &kDequantizeS8F32Entry},
      {KernelId::kDequantizeS16F32, &kDequantizeS16F32Entry},
      {KernelId::kRequantizeS8S8, &kRequantizeS8S8Entry},
      {KernelId::kRequantizeS8S16, &kRequantizeS8S16Entry},
      {KernelId::kRequantizeS8S32, &kRequantizeS8S32Entry},
      {KernelId::kRequantizeS16S8, &kRequantizeS16S8Entry},
      {KernelId::kRequantizeS16S16, &kRequantizeS16S16Entry},
      {KernelId::kRequantizeS16S32, &kRequantizeS16S32Entry},
      {KernelId::kRequantizeS32S8, &kRequantizeS32S8Entry},
      {KernelId::kRequantizeS32S16, &kRequantizeS32S16Entry},
      {KernelId::kStridedSlice, &kStridedSliceEntry},
      {KernelId::kLstmS8, &kLstmS8Entry},
      {KernelId::kFullyConnectedS16, &kFullyConnectedS16Entry},
      {KernelId::kMeanS16, &kMeanS16Entry},
      {KernelId::kAvgPool2dS16, &kAvgPool2dS16Entry},
      {KernelId::kMaxPool2dS16, &kMaxPool2dS16Entry},
      {KernelId::kConv2dS8Mve, &kConv2dS8MveEntry},
      {KernelId::kConv2dS8Dsp, &kConv2dS8DspEntry},
      {KernelId::kConv2dS81x1Dsp, &kConv2dS81x1DspEntry},
      {KernelId::kConv2dS81x1Mve, &kConv2dS81x1MveEntry},
      {KernelId::kAddS8Dsp, &kAddS8DspEntry},
      {KernelId::kAvgPool2dS8Dsp, &kAvgPool2dS8DspEntry},
      {KernelId::kMaxPool2dS8Dsp, &kMaxPool2dS8DspEntry},
      {KernelId::kDepthwiseConv2dS8Dsp, &kDepthwiseConv2dS8DspEntry},
      {KernelId::kDepthwiseConv2dS83x3Dsp, &kDepthwiseConv2dS83x3DspEntry},
      {KernelId::kFullyConnectedS8Dsp, &kFullyConnectedS8DspEntry},
      {KernelId::kDepthwiseConv2dS8Mve, &kDepthwiseConv2dS8MveEntry},
      {KernelId::kFullyConnectedS8Mve, &kFullyConnectedS8MveEntry},
      {KernelId::kAddS8Mve, &kAddS8MveEntry},
      {KernelId::kAvgPool2dS8Mve, &kAvgPool2dS8MveEntry},
      {KernelId::kMaxPool2dS8Mve, &kMaxPool2dS8MveEntry},
      {KernelId::kConv2dS8V6m, &kConv2dS8V6mEntry},
      {KernelId::kDepthwiseConv2dS8V6m, &kDepthwiseConv2dS8V6mEntry},
      {KernelId::kFullyConnectedS8V6m, &kFullyConnectedS8V6mEntry},
      {KernelId::kDepthwiseConv2dS8MultDsp, &kDepthwiseConv2dS8MultDspEntry},
      {KernelId::kAddS8LutDsp, &kAddS8LutDspEntry},
  };
  const KernelTable& table = all_kernels();
  ASSERT_EQ(table.count, kKernelCount);
  EXPECT_EQ(table.entries[0], nullptr);
  ASSERT_EQ(sizeof(expected) / sizeof(expected[0]), kKernelCount - 1);
  for (const auto& e : expected) {
    const uint32_t i = static_cast<uint32_t>(e.id);
    EXPECT_EQ(table.entries[i], e.entry) << kernel_name(e.id);
    ASSERT_NE(table.entries[i], nullptr);
    EXPECT_NE(table.entries[i]->check, nullptr);
    EXPECT_NE(table.entries[i]->run, nullptr);
  }
}

TEST(KernelNames, NamesAreUniqueAndRoundTrip) {
  std::set<std::string> seen;
  for (uint32_t i = 1; i < kKernelCount; ++i) {
    const KernelId id = static_cast<KernelId>(i);
    const char* name = kernel_name(id);
    ASSERT_NE(name, nullptr);
    EXPECT_GT(strlen(name), 0u) << i;
    EXPECT_TRUE(seen.insert(name).second) << name;
    EXPECT_EQ(kernel_id_from_name(name), id) << name;
  }
}

TEST(KernelNames, KnownNames) {
  EXPECT_STREQ(kernel_name(KernelId::kConv2dF32), "conv2d_f32");
  EXPECT_STREQ(kernel_name(KernelId::kAvgPool2dF32), "avg_pool2d_f32");
  EXPECT_STREQ(kernel_name(KernelId::kCopy), "copy");
  EXPECT_EQ(kernel_id_from_name("depthwise_conv2d_f32"), KernelId::kDepthwiseConv2dF32);
  EXPECT_EQ(kernel_id_from_name("transpose"), KernelId::kTranspose);
  EXPECT_STREQ(kernel_name(KernelId::kConv2dS8), "conv2d_s8");
  EXPECT_STREQ(kernel_name(KernelId::kTransposeConvS16), "transpose_conv_s16");
  EXPECT_STREQ(kernel_name(KernelId::kRequantizeS32S16), "requantize_s32_s16");
  EXPECT_EQ(kernel_id_from_name("quantize_f32_s8"), KernelId::kQuantizeF32S8);
  EXPECT_EQ(kernel_id_from_name("strided_slice"), KernelId::kStridedSlice);
}

// Ids are stored in programs: the integer kernels were appended after kCopy (19) and
// must keep their numbers.
TEST(KernelIds, IntegerKernelNumbersAreStable) {
  EXPECT_EQ(static_cast<uint32_t>(KernelId::kConv2dS8), 20u);
  EXPECT_EQ(static_cast<uint32_t>(KernelId::kLeakyReluS8), 32u);
  EXPECT_EQ(static_cast<uint32_t>(KernelId::kConv2dS16), 33u);
  EXPECT_EQ(static_cast<uint32_t>(KernelId::kQuantizeF32S8), 40u);
  EXPECT_EQ(static_cast<uint32_t>(KernelId::kRequantizeS32S16), 51u);
  EXPECT_EQ(static_cast<uint32_t>(KernelId::kStridedSlice), 52u);
  EXPECT_EQ(static_cast<uint32_t>(KernelId::kLstmS8), 53u);
  EXPECT_EQ(static_cast<uint32_t>(KernelId::kFullyConnectedS16), 54u);
  EXPECT_EQ(static_cast<uint32_t>(KernelId::kMeanS16), 55u);
  EXPECT_EQ(static_cast<uint32_t>(KernelId::kAvgPool2dS16), 56u);
  EXPECT_EQ(static_cast<uint32_t>(KernelId::kMaxPool2dS16), 57u);
  EXPECT_EQ(static_cast<uint32_t>(KernelId::kAddS8LutDsp), 77u);
  EXPECT_EQ(kKernelCount, 78u);
}

TEST(KernelNames, UnknownIdsAndNames) {
  EXPECT_STREQ(kernel_name(KernelId::kInvalid), "");
  EXPECT_STREQ(kernel_name(KernelId::kCount), "");
  EXPECT_STREQ(kernel_name(static_cast<KernelId>(999)), "");
  EXPECT_EQ(kernel_id_from_name(""), KernelId::kInvalid);
  EXPECT_EQ(kernel_id_from_name(nullptr), KernelId::kInvalid);
  EXPECT_EQ(kernel_id_from_name("conv2d"), KernelId::kInvalid);
  EXPECT_EQ(kernel_id_from_name("Conv2d_f32"), KernelId::kInvalid);
}

}  // namespace
}  // namespace mote
