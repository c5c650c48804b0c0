#include "all_kernels.h"

#include "activation/activation.h"
#include "batch_matmul/batch_matmul.h"
#include "concat/concat.h"
#include "conv2d/conv2d.h"
#include "copy/copy.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "elementwise/elementwise.h"
#include "fully_connected/fully_connected.h"
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
    &kConv2dS8Entry,            // kConv2dS8
    &kDepthwiseConv2dS8Entry,   // kDepthwiseConv2dS8
    &kFullyConnectedS8Entry,    // kFullyConnectedS8
    &kAddS8Entry,               // kAddS8
    &kSubS8Entry,               // kSubS8
    &kMulS8Entry,               // kMulS8
    &kAvgPool2dS8Entry,         // kAvgPool2dS8
    &kMaxPool2dS8Entry,         // kMaxPool2dS8
    &kSoftmaxS8Entry,           // kSoftmaxS8
    &kSigmoidS8Entry,           // kSigmoidS8
    &kTanhS8Entry,              // kTanhS8
    &kMeanS8Entry,              // kMeanS8
    &kLeakyReluS8Entry,         // kLeakyReluS8
    &kConv2dS16Entry,           // kConv2dS16
    &kDepthwiseConv2dS16Entry,  // kDepthwiseConv2dS16
    &kTransposeConvS16Entry,    // kTransposeConvS16
    &kAddS16Entry,              // kAddS16
    &kSubS16Entry,              // kSubS16
    &kMulS16Entry,              // kMulS16
    &kLeakyReluS16Entry,        // kLeakyReluS16
    &kQuantizeF32S8Entry,       // kQuantizeF32S8
    &kQuantizeF32S16Entry,      // kQuantizeF32S16
    &kDequantizeS8F32Entry,     // kDequantizeS8F32
    &kDequantizeS16F32Entry,    // kDequantizeS16F32
    &kRequantizeS8S8Entry,      // kRequantizeS8S8
    &kRequantizeS8S16Entry,     // kRequantizeS8S16
    &kRequantizeS8S32Entry,     // kRequantizeS8S32
    &kRequantizeS16S8Entry,     // kRequantizeS16S8
    &kRequantizeS16S16Entry,    // kRequantizeS16S16
    &kRequantizeS16S32Entry,    // kRequantizeS16S32
    &kRequantizeS32S8Entry,     // kRequantizeS32S8
    &kRequantizeS32S16Entry,    // kRequantizeS32S16
    &kStridedSliceEntry,        // kStridedSlice
    &kLstmS8Entry,              // kLstmS8
    &kFullyConnectedS16Entry,   // kFullyConnectedS16
    &kMeanS16Entry,             // kMeanS16
    &kAvgPool2dS16Entry,        // kAvgPool2dS16
    &kMaxPool2dS16Entry,        // kMaxPool2dS16
    &kConv2dS8DspEntry,  // kConv2dS8Dsp
    &kConv2dS81x1DspEntry,  // kConv2dS81x1Dsp
    &kDepthwiseConv2dS8DspEntry,  // kDepthwiseConv2dS8Dsp
    &kDepthwiseConv2dS83x3DspEntry,  // kDepthwiseConv2dS83x3Dsp
    &kFullyConnectedS8DspEntry,  // kFullyConnectedS8Dsp
    &kAddS8DspEntry,  // kAddS8Dsp
    &kAvgPool2dS8DspEntry,  // kAvgPool2dS8Dsp
    &kMaxPool2dS8DspEntry,  // kMaxPool2dS8Dsp
    &kConv2dS8MveEntry,  // kConv2dS8Mve
    &kConv2dS81x1MveEntry,  // kConv2dS81x1Mve
    &kDepthwiseConv2dS8MveEntry,  // kDepthwiseConv2dS8Mve
    &kFullyConnectedS8MveEntry,  // kFullyConnectedS8Mve
    &kAddS8MveEntry,  // kAddS8Mve
    &kAvgPool2dS8MveEntry,  // kAvgPool2dS8Mve
    &kMaxPool2dS8MveEntry,  // kMaxPool2dS8Mve
    &kConv2dS8V6mEntry,  // kConv2dS8V6m
    &kDepthwiseConv2dS8V6mEntry,  // kDepthwiseConv2dS8V6m
    &kFullyConnectedS8V6mEntry,  // kFullyConnectedS8V6m
    &kDepthwiseConv2dS8MultDspEntry,  // kDepthwiseConv2dS8MultDsp
    &kAddS8LutDspEntry,  // kAddS8LutDsp
};
static_assert(sizeof(kEntries) / sizeof(kEntries[0]) == kKernelCount,
              "one entry per KernelId");

const KernelTable kAllKernels = {kEntries, kKernelCount};

}  // namespace

const KernelTable& all_kernels() { return kAllKernels; }

}  // namespace mote
