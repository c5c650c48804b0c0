// single_channel_depthwise_to_conv: a depthwise convolution of a one-channel input is an
// ordinary convolution (groups 1) of the same window with M output channels. TFLite's
// converter writes one for every Conv2D whose input has a single channel (micro_speech's
// first layer: a 10x8 filter, M = 8); the convolution kernels take it as one matrix
// product over KH*KW taps per output, where the depthwise ones walk it channel by channel
// (micro_speech's first layer on cortex-m55: 883,500 instructions as a depthwise
// convolution, 290,625 as a convolution). Their scratch can be larger and the reference
// convolution is slower than the reference depthwise one here, so compile() lowers the
// graph with and without this pass and keeps the rewrite only where the arena does not
// grow and each rewritten node runs an optimized convolution variant.
//
// The results are the same bits: output channel m sums bias[m] and the products
// x[ky, kx] * w[ky, kx, m] in (ky, kx) order in both, and the requantization (int8) is
// per output channel in both. The filter [1,KH,KW,M] becomes [M,KH,KW,1] (a new constant:
// another node may share the old one), its per-channel quantization axis 3 becomes 0.
// Float32 and int8 only: a 16x8 depthwise accumulates in int64 where a 16x8 convolution
// may be told to use int32 (quantized_bias_type), so those are left as they are.
#include <string>
#include <vector>

#include "ir/graph.h"
#include "passes/passes.h"

namespace mote::passes {
namespace {

bool applies(const ir::Graph& graph, const ir::Node& node) {
  if (node.op != ir::Op::kDepthwiseConv2d || node.inputs.size() < 2) return false;
  const ir::Tensor& x = graph.tensors[node.inputs[0]];
  const ir::Tensor& w = graph.tensors[node.inputs[1]];
  if (x.shape.size() != 4 || x.shape[3] != 1 || w.shape.size() != 4 || w.shape[0] != 1 || !w.is_constant)
    return false;
  const bool same_type = x.dtype == w.dtype && (x.dtype == DType::kFloat32 || x.dtype == DType::kInt8);
  return same_type && x.quant.empty() == w.quant.empty();
}

// [1,KH,KW,M] -> [M,KH,KW,1]: element (t, m) of the [KH*KW, M] matrix goes to (m, t).
ir::Tensor transposed_filter(const ir::Tensor& w) {
  const int64_t taps = w.shape[1] * w.shape[2];
  const int64_t m = w.shape[3];
  const size_t size = dtype_size(w.dtype);
  ir::Tensor t = w;
  t.name = w.name + "/as_conv_filter";
  t.shape = {m, w.shape[1], w.shape[2], 1};
  for (int64_t tap = 0; tap < taps; ++tap) {
    for (int64_t c = 0; c < m; ++c) {
      const size_t from = static_cast<size_t>(tap * m + c) * size;
      const size_t to = static_cast<size_t>(c * taps + tap) * size;
      for (size_t b = 0; b < size; ++b) t.data[to + b] = w.data[from + b];
    }
  }
  if (t.quant.axis == 3) t.quant.axis = 0;
  return t;
}

}  // namespace

std::vector<std::string> single_channel_depthwise_to_conv(ir::Graph& graph) {
  std::vector<std::string> rewritten;
  for (ir::Node& node : graph.nodes) {
    if (!applies(graph, node)) continue;
    const int filter = graph.add_tensor(transposed_filter(graph.tensors[node.inputs[1]]));
    node.inputs[1] = filter;
    node.op = ir::Op::kConv2d;
    node.attrs.erase("depth_multiplier");
    node.attrs["group"] = int64_t{1};
    rewritten.push_back(node.name);
  }
  if (!rewritten.empty()) graph.remove_dead();  // the old filter, when no other node reads it
  return rewritten;
}

}  // namespace mote::passes
