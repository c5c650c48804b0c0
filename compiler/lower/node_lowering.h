// Internal to compiler/lower/: what the lowering of every op uses. NodeLowering (one
// node's tensors and attributes, and checks whose CompileError names the node), the
// checks several op families share, and each op's lowering function, by file. Not part
// of the compiler's API.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "ir/graph.h"
#include "lower/lower.h"
#include "window_geometry.h"

namespace mote::lower {

inline constexpr int64_t kMaxI32 = std::numeric_limits<int32_t>::max();

using ir::dtype_name;
using ir::shape_string;

// True when the node takes the integer kernels: quantize, dequantize and lstm always;
// other ops when input 0 or an output is int8/int16 or carries quantization parameters
// (the activations decide: an int8 weight under a float op, TFLite "hybrid", does not).
bool is_quantized_node(const ir::Graph& graph, const ir::Node& node);

class NodeLowering {
 public:
  NodeLowering(const ir::Graph& graph, const ir::Node& node) : graph_(graph), node_(node) {}

  [[noreturn]] void fail(const std::string& message) const {
    throw CompileError("node '" + node_.name + "' (" + ir::op_name(node_.op) + "): " + message);
  }

  // The node's tensors are quantized (is_quantized_node): its op lowers to an integer
  // kernel (*_s8, *_s16), else to a float32 one or a dtype-agnostic one.
  bool quantized() const { return is_quantized_node(graph_, node_); }

  void expect_io(size_t min_inputs, size_t max_inputs, size_t outputs) const {
    const size_t n = node_.inputs.size();
    if (n < min_inputs || n > max_inputs) {
      fail("has " + std::to_string(n) + " inputs, expected " +
           (min_inputs == max_inputs ? std::to_string(min_inputs)
                                     : std::to_string(min_inputs) + ".." + std::to_string(max_inputs)));
    }
    if (node_.outputs.size() != outputs) {
      fail("has " + std::to_string(node_.outputs.size()) + " outputs, expected " +
           std::to_string(outputs));
    }
    for (size_t i = 0; i < min_inputs; ++i)
      if (node_.inputs[i] == ir::kNoTensor) fail("input " + std::to_string(i) + " is missing");
    for (size_t i = 0; i < outputs; ++i)
      if (node_.outputs[i] == ir::kNoTensor) fail("output " + std::to_string(i) + " is missing");
  }

  bool has_input(size_t i) const { return i < node_.inputs.size() && node_.inputs[i] != ir::kNoTensor; }
  const ir::Tensor& input(size_t i) const { return tensor(node_.inputs[i]); }
  const ir::Tensor& output(size_t i) const { return tensor(node_.outputs[i]); }

  const ir::Tensor& tensor(int id) const {
    if (id < 0 || static_cast<size_t>(id) >= graph_.tensors.size())
      fail("refers to tensor id " + std::to_string(id) + " which does not exist");
    return graph_.tensors[id];
  }

  std::string label(const ir::Tensor& t, const char* role) const {
    return std::string(role) + " '" + t.name + "'";
  }

  void expect_rank(const ir::Tensor& t, const char* role, size_t rank) const {
    if (t.shape.size() != rank) {
      fail(label(t, role) + " has shape " + shape_string(t.shape) + " (rank " +
           std::to_string(t.shape.size()) + "), expected rank " + std::to_string(rank));
    }
  }
  void expect_min_rank(const ir::Tensor& t, const char* role, size_t rank) const {
    if (t.shape.size() < rank) {
      fail(label(t, role) + " has shape " + shape_string(t.shape) + ", expected rank >= " +
           std::to_string(rank));
    }
  }
  void expect_shape(const ir::Tensor& t, const char* role, const ir::Shape& expected) const {
    if (t.shape != expected) {
      fail(label(t, role) + " has shape " + shape_string(t.shape) + ", expected " +
           shape_string(expected));
    }
  }
  void expect_dtype(const ir::Tensor& t, const char* role, DType dtype) const {
    if (t.dtype != dtype) {
      fail(label(t, role) + " has dtype " + dtype_name(t.dtype) + ", expected " + dtype_name(dtype));
    }
  }

  // An int list attribute of exactly `size` entries (or `fallback` when absent), each >= min.
  std::vector<int32_t> ints(const std::string& key, size_t size, std::vector<int64_t> fallback,
                            int64_t min) const;

  // The window attributes of a convolution or pooling node (mote_ops.md): strides and
  // dilations (default 1, each >= 1), pads [top, left, bottom, right] (default 0, >= 0).
  WindowGeometry window() const;

  // The float path's fused activation: act_min/act_max as they are (a non-empty range).
  void act(float* act_min, float* act_max) const;

  const ir::Node& node() const { return node_; }

 private:
  const ir::Graph& graph_;
  const ir::Node& node_;
};

// ---------------------------------------------------------------------------------------
// Checks several op families share (node_lowering.cc). Each op's lowering runs one check
// of its tensors and attributes on every dtype; what differs by dtype is the kernel and
// the parameter struct it fills.
// ---------------------------------------------------------------------------------------

// The lowered op: `kernel` with its parameter bytes (params_bytes(struct), or
// params_with_arrays for a struct followed by per-channel arrays) and MACs per inference.
inline LoweredOp lowered(KernelId kernel, std::vector<uint8_t> params = {}, uint64_t macs = 0) {
  LoweredOp op;
  op.kernel = kernel;
  op.params = std::move(params);
  op.macs = macs;
  return op;
}

// One input and one output of the input's dtype, any dtype (data movement).
void expect_unary_io(const NodeLowering& l);

// Broadcast of two shapes (numpy rules, right-aligned); false when they do not broadcast.
bool broadcast_shapes(const ir::Shape& a, const ir::Shape& b, ir::Shape* out);

// Input 0 is float32: the float path's arithmetic kernels take nothing else (an int32,
// uint8, int64 or bool tensor without quantization reaches the float path too).
void expect_float32(const NodeLowering& l);

// For an op with no float32 kernel (quantized only), and one with no integer kernel.
[[noreturn]] void fail_no_float_kernel(const NodeLowering& l);
[[noreturn]] void fail_no_integer_kernel(const NodeLowering& l);

// The optional bias (input `index`): shape [channels], one of the `allowed` dtypes.
void expect_bias(const NodeLowering& l, size_t index, int64_t channels, std::initializer_list<DType> allowed);

// Input 0's dtype, which output 0 must have too; on the quantized path int8 or int16
// (activation_dtype, quantization.h).
DType expect_same_dtype(const NodeLowering& l);

// The activation dtype of an op with weights (input 1, `weights_role` in messages):
// output 0 has input 0's dtype; float path: the weights have it too; quantized path:
// int8 or int16 activations with int8 weights. Returns input 0's dtype.
DType expect_weighted_dtypes(const NodeLowering& l, const char* weights_role);

// One input, one output of the input's shape and dtype (float path: any dtype; quantized
// path: int8 or int16). Returns the dtype.
DType check_same_shape_unary(const NodeLowering& l);

// ---------------------------------------------------------------------------------------
// The lowering of each op: checks node l and fills its reference kernel's parameters for
// the node's dtype (float32, int8, int16, or any for data movement), its MACs and the
// scratch the reference kernel needs. lower_node (lower.cc) dispatches to these, then
// picks the target's variant (variants.cc) and the in-place input.
// ---------------------------------------------------------------------------------------

// conv.cc
LoweredOp lower_conv2d(const NodeLowering& l);
LoweredOp lower_depthwise_conv2d(const NodeLowering& l);
LoweredOp lower_transpose_conv(const NodeLowering& l);
// fully_connected.cc
LoweredOp lower_fully_connected(const NodeLowering& l);
LoweredOp lower_batch_matmul(const NodeLowering& l);
// elementwise.cc
LoweredOp lower_add_sub(const NodeLowering& l);
LoweredOp lower_add_n(const NodeLowering& l);
LoweredOp lower_cumsum(const NodeLowering& l);
LoweredOp lower_l2_normalization(const NodeLowering& l);
LoweredOp lower_mul(const NodeLowering& l);
LoweredOp lower_div(const NodeLowering& l);
LoweredOp lower_clamp(const NodeLowering& l);
LoweredOp lower_sigmoid_tanh(const NodeLowering& l);
LoweredOp lower_leaky_relu(const NodeLowering& l);
LoweredOp lower_softmax(const NodeLowering& l);
LoweredOp lower_quantize(const NodeLowering& l);
LoweredOp lower_dequantize(const NodeLowering& l);
// activation.cc
LoweredOp lower_hard_swish(const NodeLowering& l);
LoweredOp lower_prelu(const NodeLowering& l);
LoweredOp lower_elu(const NodeLowering& l);
LoweredOp lower_gelu(const NodeLowering& l);
LoweredOp lower_log_softmax(const NodeLowering& l);
// normalization.cc
LoweredOp lower_layer_norm(const NodeLowering& l);
LoweredOp lower_group_norm(const NodeLowering& l);
// pool.cc
LoweredOp lower_pool2d(const NodeLowering& l);
LoweredOp lower_l2_pool2d(const NodeLowering& l);
LoweredOp lower_mean(const NodeLowering& l);
LoweredOp lower_sum(const NodeLowering& l);
LoweredOp lower_reduce_max_min(const NodeLowering& l);
LoweredOp lower_arg_min_max(const NodeLowering& l);
LoweredOp lower_top_k(const NodeLowering& l);
LoweredOp lower_reduce_prod(const NodeLowering& l);
// control_flow.cc
LoweredOp lower_jump(const NodeLowering& l);
LoweredOp lower_branch(const NodeLowering& l);
[[noreturn]] void lower_region_op(const NodeLowering& l);
// data_movement.cc
LoweredOp lower_transpose(const NodeLowering& l);
LoweredOp lower_concat(const NodeLowering& l);
LoweredOp lower_pad(const NodeLowering& l);
LoweredOp lower_copy(const NodeLowering& l);
LoweredOp lower_fill_bytes(const NodeLowering& l);
LoweredOp lower_dynamic_update_slice(const NodeLowering& l);
LoweredOp lower_strided_slice(const NodeLowering& l);
LoweredOp lower_gather(const NodeLowering& l);
LoweredOp lower_gather_nd(const NodeLowering& l);
LoweredOp lower_depth_to_space(const NodeLowering& l);
LoweredOp lower_space_to_depth(const NodeLowering& l);
LoweredOp lower_batch_to_space(const NodeLowering& l);
LoweredOp lower_space_to_batch(const NodeLowering& l);
// lstm.cc
LoweredOp lower_lstm(const NodeLowering& l);
// recurrent.cc
LoweredOp lower_gru(const NodeLowering& l);
LoweredOp lower_rnn(const NodeLowering& l);
// resize.cc
LoweredOp lower_resize_nearest(const NodeLowering& l);
LoweredOp lower_resize_bilinear(const NodeLowering& l);
LoweredOp lower_resize_cubic(const NodeLowering& l);
// svdf.cc
LoweredOp lower_svdf(const NodeLowering& l);
// npu.cc
LoweredOp lower_ethos_u(const NodeLowering& l);
// math.cc
LoweredOp lower_unary(const NodeLowering& l);
LoweredOp lower_min_max(const NodeLowering& l);
LoweredOp lower_squared_difference(const NodeLowering& l);
LoweredOp lower_floor_div_mod(const NodeLowering& l);
LoweredOp lower_pow(const NodeLowering& l);
LoweredOp lower_compare(const NodeLowering& l);
LoweredOp lower_logical(const NodeLowering& l);
LoweredOp lower_select(const NodeLowering& l);
LoweredOp lower_cast(const NodeLowering& l);

}  // namespace mote::lower
