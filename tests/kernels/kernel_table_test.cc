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
#include "mean/mean.h"
#include "pad/pad.h"
#include "pool2d/pool2d.h"
#include "softmax/softmax.h"
#include "transpose/transpose.h"

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
