#include "all_kernels.h"

#include "activation/activation.h"
#include "batch_matmul/batch_matmul.h"
#include "concat/concat.h"
#include "conv2d/conv2d.h"
#include "copy/copy.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "elementwise/elementwise.h"
#include "fully_connected/fully_connected.h"
#include "mean/mean.h"
#include "pad/pad.h"
#include "pool2d/pool2d.h"
#include "softmax/softmax.h"
#include "transpose/transpose.h"

namespace mote {
namespace {

// In KernelId order; tests/kernels checks every slot against its id.
const KernelEntry* const kEntries[] = {
    nullptr,                    // kInvalid
    &kConv2dF32Entry,           // kConv2dF32
    &kDepthwiseConv2dF32Entry,  // kDepthwiseConv2dF32
    &kFullyConnectedF32Entry,   // kFullyConnectedF32
    &kBatchMatMulF32Entry,      // kBatchMatMulF32
    &kAddF32Entry,              // kAddF32
    &kSubF32Entry,              // kSubF32
    &kMulF32Entry,              // kMulF32
    &kDivF32Entry,              // kDivF32
    &kClampF32Entry,            // kClampF32
    &kSigmoidF32Entry,          // kSigmoidF32
    &kTanhF32Entry,             // kTanhF32
    &kSoftmaxF32Entry,          // kSoftmaxF32
    &kAvgPool2dF32Entry,        // kAvgPool2dF32
    &kMaxPool2dF32Entry,        // kMaxPool2dF32
    &kMeanF32Entry,             // kMeanF32
    &kTransposeEntry,           // kTranspose
    &kConcatEntry,              // kConcat
    &kPadEntry,                 // kPad
    &kCopyEntry,                // kCopy
};
static_assert(sizeof(kEntries) / sizeof(kEntries[0]) == kKernelCount,
              "one entry per KernelId");

const KernelTable kAllKernels = {kEntries, kKernelCount};

}  // namespace

const KernelTable& all_kernels() { return kAllKernels; }

}  // namespace mote
