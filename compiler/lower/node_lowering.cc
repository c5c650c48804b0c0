#include "lower/node_lowering.h"

#include <algorithm>
#include <cmath>

#include "lower/quantization.h"

namespace mote::lower {

bool is_quantized_node(const ir::Graph& graph, const ir::Node& node) {
  if (node.op == ir::Op::kQuantize || node.op == ir::Op::kDequantize || node.op == ir::Op::kLstm) return true;
  auto quantized = [&](int id) {
    if (id == ir::kNoTensor || id < 0 || static_cast<size_t>(id) >= graph.tensors.size()) return false;
    const ir::Tensor& t = graph.tensors[id];
    return !t.quant.empty() || t.dtype == DType::kInt8 || t.dtype == DType::kInt16;
  };
  if (!node.inputs.empty() && quantized(node.inputs[0])) return true;
  for (int id : node.outputs)
    if (quantized(id)) return true;
  return false;
}

std::vector<int32_t> NodeLowering::ints(const std::string& key, size_t size, std::vector<int64_t> fallback,
                                        int64_t min) const {
  if (!node_.has(key) && fallback.empty()) fail("attribute '" + key + "' is required");
  const std::vector<int64_t> values = node_.get_ints(key, fallback);
  if (values.size() != size) {
    fail("attribute '" + key + "' has " + std::to_string(values.size()) + " values, expected " +
         std::to_string(size));
  }
  std::vector<int32_t> result;
  for (int64_t v : values) {
    if (v < min || v > kMaxI32) {
      fail("attribute '" + key + "' value " + std::to_string(v) + " is out of range (expected >= " +
           std::to_string(min) + ")");
    }
    result.push_back(static_cast<int32_t>(v));
  }
  return result;
}

WindowGeometry NodeLowering::window() const {
  const auto strides = ints("strides", 2, {1, 1}, 1);
  const auto dilations = ints("dilations", 2, {1, 1}, 1);
  const auto pads = ints("pads", 4, {0, 0, 0, 0}, 0);
  return {strides[0], strides[1], dilations[0], dilations[1], pads[0], pads[1], pads[2], pads[3]};
}

void NodeLowering::act(float* act_min, float* act_max) const {
  const double lo = node_.get_float("act_min", -std::numeric_limits<double>::infinity());
  const double hi = node_.get_float("act_max", std::numeric_limits<double>::infinity());
  if (std::isnan(lo) || std::isnan(hi) || lo > hi) {
    fail("fused activation range [" + std::to_string(lo) + ", " + std::to_string(hi) +
         "] is empty or NaN");
  }
  *act_min = static_cast<float>(lo);
  *act_max = static_cast<float>(hi);
}

void expect_unary_io(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  l.expect_dtype(l.output(0), "output", l.input(0).dtype);
}

bool broadcast_shapes(const ir::Shape& a, const ir::Shape& b, ir::Shape* out) {
  const size_t rank = std::max(a.size(), b.size());
  out->assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    (*out)[i] = da == 1 ? db : da;
  }
  return true;
}

void expect_float32(const NodeLowering& l) {
  const DType dtype = l.input(0).dtype;
  if (dtype != DType::kFloat32) {
    l.fail(std::string("dtype ") + dtype_name(dtype) + " is not supported (expected float32)");
  }
}

void fail_no_float_kernel(const NodeLowering& l) {
  l.fail("has no float32 kernel (only quantized int8/int16 tensors are supported)");
}

void fail_no_integer_kernel(const NodeLowering& l) {
  l.fail(std::string("quantized ") + ir::op_name(l.node().op) + " has no integer kernel");
}

void expect_bias(const NodeLowering& l, size_t index, int64_t channels, std::initializer_list<DType> allowed) {
  if (!l.has_input(index)) return;
  const ir::Tensor& bias = l.input(index);
  l.expect_shape(bias, "bias", {channels});
  for (DType d : allowed)
    if (bias.dtype == d) return;
  std::string names;
  for (DType d : allowed) names += std::string(names.empty() ? "" : " or ") + dtype_name(d);
  l.fail(l.label(bias, "bias") + " has dtype " + dtype_name(bias.dtype) + ", expected " + names);
}

DType expect_same_dtype(const NodeLowering& l) {
  if (l.quantized()) return activation_dtype(l);
  l.expect_dtype(l.output(0), "output", l.input(0).dtype);
  return l.input(0).dtype;
}

DType expect_weighted_dtypes(const NodeLowering& l, const char* weights_role) {
  const DType dtype = expect_same_dtype(l);
  l.expect_dtype(l.input(1), weights_role, l.quantized() ? DType::kInt8 : dtype);
  return dtype;
}

DType check_same_shape_unary(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  const DType dtype = expect_same_dtype(l);
  l.expect_shape(l.output(0), "output", l.input(0).shape);
  return dtype;
}

}  // namespace mote::lower
