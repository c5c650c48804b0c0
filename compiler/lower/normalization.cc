// Lowering of the normalization ops: layer_norm (the last dims of each row) and
// group_norm (channels-last groups; instance normalization is groups = C). Float32 only:
// TFLite has no integer kernel for either, so --quantize keeps them float (ops.inc).
#include <cmath>
#include <string>

#include "lower/node_lowering.h"
// Kernel parameter structs.
#include "group_norm/group_norm.h"
#include "layer_norm/layer_norm.h"

namespace mote::lower {
namespace {

// x, output 0 of x's shape, all float32; scale (input 1) and the optional bias (input 2)
// float32 constants of `n` elements. Returns epsilon (finite, >= 0).
float check_normalization(const NodeLowering& l, int64_t n) {
  const ir::Tensor& x = l.input(0);
  l.expect_shape(l.output(0), "output", x.shape);
  if (l.quantized()) fail_no_integer_kernel(l);
  expect_float32(l);
  l.expect_dtype(l.output(0), "output", DType::kFloat32);
  const char* roles[] = {"x", "scale", "bias"};
  for (size_t i = 1; i < 3; ++i) {
    if (!l.has_input(i)) continue;
    const ir::Tensor& t = l.input(i);
    l.expect_dtype(t, roles[i], DType::kFloat32);
    if (t.elements() != n)
      l.fail(l.label(t, roles[i]) + " has shape " + shape_string(t.shape) + ", expected " +
             std::to_string(n) + " elements");
  }
  const double epsilon = l.node().get_float("epsilon", 1e-5);
  if (!(epsilon >= 0.0) || !std::isfinite(epsilon))
    l.fail("epsilon " + std::to_string(epsilon) + " out of range (finite, >= 0)");
  return static_cast<float>(epsilon);
}

}  // namespace

LoweredOp lower_layer_norm(const NodeLowering& l) {
  l.expect_io(2, 3, 1);
  const ir::Shape& shape = l.input(0).shape;
  const int64_t axis = l.node().get_int("axis", -1);
  if (axis < 0 || axis >= static_cast<int64_t>(shape.size()))
    l.fail("axis " + std::to_string(axis) + " out of range for rank " + std::to_string(shape.size()));
  int64_t n = 1;
  for (size_t i = static_cast<size_t>(axis); i < shape.size(); ++i) n *= shape[i];
  const float epsilon = check_normalization(l, n);
  return lowered(KernelId::kLayerNormF32, params_bytes(LayerNormParams{static_cast<uint32_t>(axis), epsilon}));
}

LoweredOp lower_group_norm(const NodeLowering& l) {
  l.expect_io(2, 3, 1);
  l.expect_min_rank(l.input(0), "x", 2);
  const int64_t channels = l.input(0).shape.back();
  const int64_t groups = l.node().get_int("groups", 0);
  if (groups < 1 || channels % groups != 0)
    l.fail("groups " + std::to_string(groups) + " does not divide the " + std::to_string(channels) + " channels");
  const float epsilon = check_normalization(l, channels);
  return lowered(KernelId::kGroupNormF32, params_bytes(GroupNormParams{static_cast<uint32_t>(groups), epsilon}));
}

}  // namespace mote::lower
