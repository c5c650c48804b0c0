#include "import/onnx/source_eval.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <type_traits>

#include "common/error.h"

namespace mote::onnx_import {
namespace {

[[noreturn]] void fail(const SourceNode& node, const std::string& what) {
  throw CompileError("node '" + node.name + "' (" + node.op + "): " + what);
}

bool is_float(DType dtype) { return dtype == DType::kFloat32; }

// Row-major strides (in elements) of a shape.
std::vector<int64_t> strides_of(const ir::Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

int64_t normalize_axis(const SourceNode& node, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    fail(node, "axis " + std::to_string(axis) + " out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

const ir::Tensor& required(const SourceNode& node, const std::vector<const ir::Tensor*>& inputs,
                           size_t index) {
  if (index >= inputs.size() || inputs[index] == nullptr)
    fail(node, "input " + std::to_string(index) + " missing");
  return *inputs[index];
}

ir::Tensor make_result(DType dtype, ir::Shape shape, std::vector<uint8_t> data) {
  ir::Tensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.is_constant = true;
  t.data = std::move(data);
  return t;
}

// Axes from attribute "axes" or, when absent, from integer input `input_index`.
std::optional<std::vector<int64_t>> axes_of(const SourceNode& node,
                                            const std::vector<const ir::Tensor*>& inputs,
                                            size_t input_index) {
  if (node.has("axes")) return node.get_ints("axes");
  if (input_index < inputs.size() && inputs[input_index] != nullptr)
    return read_ints(*inputs[input_index]);
  return std::nullopt;
}

std::vector<ir::Tensor> eval_shape(const SourceNode& node, const ir::Tensor& in) {
  const int64_t rank = static_cast<int64_t>(in.shape.size());
  auto clamp_index = [rank](int64_t v) {
    if (v < 0) v += rank;
    return std::clamp<int64_t>(v, 0, rank);
  };
  int64_t start = clamp_index(node.get_int("start", 0));
  int64_t end = clamp_index(node.get_int("end", rank));
  std::vector<int64_t> dims;
  for (int64_t i = start; i < end; ++i) dims.push_back(in.shape[i]);
  return {make_result(DType::kInt64, {static_cast<int64_t>(dims.size())},
                      encode_ints(DType::kInt64, dims))};
}

std::vector<ir::Tensor> eval_gather(const SourceNode& node, const ir::Tensor& data,
                                    const ir::Tensor& indices_tensor) {
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  if (rank == 0) fail(node, "cannot gather from a scalar");
  const int64_t axis = normalize_axis(node, node.get_int("axis", 0), rank);
  std::vector<int64_t> indices = read_ints(indices_tensor);
  const int64_t dim = data.shape[axis];
  for (int64_t& i : indices) {
    if (i < -dim || i >= dim)
      fail(node, "index " + std::to_string(i) + " out of range for dimension " + std::to_string(dim));
    if (i < 0) i += dim;
  }
  ir::Shape out_shape(data.shape.begin(), data.shape.begin() + axis);
  out_shape.insert(out_shape.end(), indices_tensor.shape.begin(), indices_tensor.shape.end());
  out_shape.insert(out_shape.end(), data.shape.begin() + axis + 1, data.shape.end());
  const size_t elem = dtype_size(data.dtype);
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= data.shape[i];
  for (int64_t i = axis + 1; i < rank; ++i) inner *= data.shape[i];
  std::vector<uint8_t> out;
  out.reserve(outer * indices.size() * inner * elem);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t idx : indices) {
      const uint8_t* src = data.data.data() + ((o * dim + idx) * inner) * elem;
      out.insert(out.end(), src, src + inner * elem);
    }
  return {make_result(data.dtype, out_shape, std::move(out))};
}

std::vector<ir::Tensor> eval_unsqueeze(const SourceNode& node,
                                       const std::vector<const ir::Tensor*>& inputs) {
  const ir::Tensor& in = required(node, inputs, 0);
  auto axes = axes_of(node, inputs, 1);
  if (!axes) fail(node, "axes missing");
  const int64_t out_rank = static_cast<int64_t>(in.shape.size() + axes->size());
  std::set<int64_t> set;
  for (int64_t a : *axes) set.insert(normalize_axis(node, a, out_rank));
  if (set.size() != axes->size()) fail(node, "repeated axis");
  ir::Shape shape;
  size_t next = 0;
  for (int64_t i = 0; i < out_rank; ++i) shape.push_back(set.count(i) ? 1 : in.shape[next++]);
  return {make_result(in.dtype, shape, in.data)};
}

std::vector<ir::Tensor> eval_squeeze(const SourceNode& node,
                                     const std::vector<const ir::Tensor*>& inputs) {
  const ir::Tensor& in = required(node, inputs, 0);
  const int64_t rank = static_cast<int64_t>(in.shape.size());
  std::set<int64_t> set;
  if (auto axes = axes_of(node, inputs, 1)) {
    for (int64_t a : *axes) {
      int64_t axis = normalize_axis(node, a, rank);
      if (in.shape[axis] != 1) fail(node, "cannot squeeze axis " + std::to_string(a) + " of size " +
                                          std::to_string(in.shape[axis]));
      set.insert(axis);
    }
  } else {
    for (int64_t i = 0; i < rank; ++i)
      if (in.shape[i] == 1) set.insert(i);
  }
  ir::Shape shape;
  for (int64_t i = 0; i < rank; ++i)
    if (!set.count(i)) shape.push_back(in.shape[i]);
  return {make_result(in.dtype, shape, in.data)};
}

std::vector<ir::Tensor> eval_concat(const SourceNode& node,
                                    const std::vector<const ir::Tensor*>& inputs) {
  const ir::Tensor& first = required(node, inputs, 0);
  const int64_t rank = static_cast<int64_t>(first.shape.size());
  const int64_t axis = normalize_axis(node, node.get_int("axis", 0), rank);
  ir::Shape shape = first.shape;
  shape[axis] = 0;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const ir::Tensor& t = required(node, inputs, k);
    if (t.dtype != first.dtype || static_cast<int64_t>(t.shape.size()) != rank)
      fail(node, "inputs differ in dtype or rank");
    for (int64_t i = 0; i < rank; ++i)
      if (i != axis && t.shape[i] != first.shape[i])
        fail(node, "input shapes " + shape_string(first.shape) + " and " + shape_string(t.shape) +
                       " differ outside axis " + std::to_string(axis));
    shape[axis] += t.shape[axis];
  }
  const size_t elem = dtype_size(first.dtype);
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= shape[i];
  for (int64_t i = axis + 1; i < rank; ++i) inner *= shape[i];
  std::vector<uint8_t> out;
  out.reserve(ir::element_count(shape) * elem);
  for (int64_t o = 0; o < outer; ++o)
    for (const ir::Tensor* t : inputs) {
      const int64_t chunk = t->shape[axis] * inner * elem;
      const uint8_t* src = t->data.data() + o * chunk;
      out.insert(out.end(), src, src + chunk);
    }
  return {make_result(first.dtype, shape, std::move(out))};
}

// ONNX Reshape: 0 copies the input dim (unless allowzero), one -1 is inferred.
ir::Shape reshape_target(const SourceNode& node, const ir::Shape& in_shape,
                         const std::vector<int64_t>& requested, bool allowzero) {
  ir::Shape shape;
  int infer_at = -1;
  int64_t known = 1;
  for (size_t i = 0; i < requested.size(); ++i) {
    int64_t d = requested[i];
    if (d == 0 && !allowzero) {
      if (i >= in_shape.size()) fail(node, "shape entry 0 at index " + std::to_string(i) +
                                               " has no input dimension to copy");
      d = in_shape[i];
    } else if (d == -1) {
      if (infer_at >= 0) fail(node, "more than one -1 in shape");
      infer_at = static_cast<int>(i);
      shape.push_back(1);
      continue;
    } else if (d < 0) {
      fail(node, "invalid shape entry " + std::to_string(d));
    }
    known *= d;
    shape.push_back(d);
  }
  const int64_t count = ir::element_count(in_shape);
  if (infer_at >= 0) {
    if (known == 0 || count % known != 0)
      fail(node, "cannot reshape " + shape_string(in_shape) + " to " + shape_string(requested));
    shape[infer_at] = count / known;
  }
  if (ir::element_count(shape) != count)
    fail(node, "cannot reshape " + shape_string(in_shape) + " to " + shape_string(requested));
  return shape;
}

std::vector<ir::Tensor> eval_binary(const SourceNode& node, const ir::Tensor& a,
                                    const ir::Tensor& b, DType out_dtype) {
  const ir::Shape shape = broadcast_shapes(a.shape, b.shape, "node '" + node.name + "' (" +
                                                                 node.op + ")");
  const size_t rank = shape.size();
  auto padded_strides = [&](const ir::Shape& s) {
    ir::Shape padded(rank - s.size(), 1);
    padded.insert(padded.end(), s.begin(), s.end());
    std::vector<int64_t> st = strides_of(padded);
    for (size_t i = 0; i < rank; ++i)
      if (padded[i] == 1) st[i] = 0;
    return st;
  };
  const std::vector<int64_t> sa = padded_strides(a.shape), sb = padded_strides(b.shape);
  const int64_t count = ir::element_count(shape);
  std::vector<int64_t> index(rank, 0);
  auto offsets = [&](int64_t& oa, int64_t& ob) {
    oa = ob = 0;
    for (size_t i = 0; i < rank; ++i) {
      oa += index[i] * sa[i];
      ob += index[i] * sb[i];
    }
  };
  auto advance = [&]() {
    for (size_t i = rank; i-- > 0;) {
      if (++index[i] < shape[i]) return;
      index[i] = 0;
    }
  };
  const std::string& op = node.op;
  if (is_float(a.dtype) || is_float(b.dtype)) {
    const std::vector<double> va = read_doubles(a), vb = read_doubles(b);
    std::vector<double> out(count);
    for (int64_t k = 0; k < count; ++k, advance()) {
      int64_t oa, ob;
      offsets(oa, ob);
      const double x = va[oa], y = vb[ob];
      out[k] = op == "Add" ? x + y : op == "Sub" ? x - y : op == "Mul" ? x * y : x / y;
    }
    // Float math in float32 precision, as the model would compute it.
    for (double& v : out) v = static_cast<float>(v);
    return {make_result(out_dtype, shape, encode_values(out_dtype, out))};
  }
  const std::vector<int64_t> va = read_ints(a), vb = read_ints(b);
  std::vector<int64_t> out(count);
  for (int64_t k = 0; k < count; ++k, advance()) {
    int64_t oa, ob;
    offsets(oa, ob);
    const int64_t x = va[oa], y = vb[ob];
    if (op == "Div" && y == 0) fail(node, "integer division by zero");
    out[k] = op == "Add" ? x + y : op == "Sub" ? x - y : op == "Mul" ? x * y : x / y;
  }
  return {make_result(out_dtype, shape, encode_ints(out_dtype, out))};
}

std::vector<ir::Tensor> eval_cast(const ir::Tensor& in, DType to) {
  if (to == in.dtype) return {make_result(to, in.shape, in.data)};
  if (is_float(to)) return {make_result(to, in.shape, encode_values(to, read_doubles(in)))};
  if (to == DType::kBool) {
    std::vector<double> v = read_doubles(in);
    std::vector<int64_t> b(v.size());
    for (size_t i = 0; i < v.size(); ++i) b[i] = v[i] != 0.0;
    return {make_result(to, in.shape, encode_ints(to, b))};
  }
  return {make_result(to, in.shape, encode_ints(to, read_ints(in)))};
}

std::vector<ir::Tensor> eval_slice(const SourceNode& node,
                                   const std::vector<const ir::Tensor*>& inputs) {
  const ir::Tensor& data = required(node, inputs, 0);
  const ir::Tensor* axes = inputs.size() > 3 ? inputs[3] : nullptr;
  const ir::Tensor* steps = inputs.size() > 4 ? inputs[4] : nullptr;
  const std::vector<SliceAxis> bounds =
      slice_axes(node, data.shape, read_ints(required(node, inputs, 1)), read_ints(required(node, inputs, 2)),
                 axes ? read_ints(*axes) : std::vector<int64_t>{},
                 steps ? read_ints(*steps) : std::vector<int64_t>{});
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  ir::Shape shape(rank);
  for (int64_t i = 0; i < rank; ++i) shape[i] = bounds[i].count;
  const size_t elem = dtype_size(data.dtype);
  const std::vector<int64_t> in_strides = strides_of(data.shape);
  const int64_t count = ir::element_count(shape);
  std::vector<uint8_t> out(count * elem);
  std::vector<int64_t> index(rank, 0);
  for (int64_t k = 0; k < count; ++k) {
    int64_t src = 0;
    for (int64_t i = 0; i < rank; ++i) src += (bounds[i].begin + index[i] * bounds[i].step) * in_strides[i];
    std::memcpy(out.data() + k * elem, data.data.data() + src * elem, elem);
    for (int64_t i = rank; i-- > 0;) {
      if (++index[i] < shape[i]) break;
      index[i] = 0;
    }
  }
  return {make_result(data.dtype, shape, std::move(out))};
}

// Equal (-> bool) and Where (condition, x, y), numpy-broadcast: the -1 handling in the
// shape subgraphs of exports with symbolic axes (expand(-1, ...)).
std::vector<ir::Tensor> eval_equal(const SourceNode& node, const ir::Tensor& a, const ir::Tensor& b) {
  const std::string what = "node '" + node.name + "' (" + node.op + ")";
  const ir::Shape shape = broadcast_shapes(a.shape, b.shape, what);
  const std::vector<int64_t> ia = ir::broadcast_source(a.shape, shape), ib = ir::broadcast_source(b.shape, shape);
  const std::vector<double> va = read_doubles(a), vb = read_doubles(b);
  std::vector<int64_t> out(ia.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = va[ia[i]] == vb[ib[i]];
  return {make_result(DType::kBool, shape, encode_ints(DType::kBool, out))};
}

std::vector<ir::Tensor> eval_where(const SourceNode& node, const ir::Tensor& cond, const ir::Tensor& x,
                                   const ir::Tensor& y) {
  const std::string what = "node '" + node.name + "' (" + node.op + ")";
  if (x.dtype != y.dtype) fail(node, "x and y differ in dtype");
  const ir::Shape shape = broadcast_shapes(broadcast_shapes(cond.shape, x.shape, what), y.shape, what);
  const std::vector<int64_t> ic = ir::broadcast_source(cond.shape, shape), ix = ir::broadcast_source(x.shape, shape),
                             iy = ir::broadcast_source(y.shape, shape);
  const std::vector<int64_t> c = read_ints(cond);
  const size_t elem = dtype_size(x.dtype);
  std::vector<uint8_t> out(ic.size() * elem);
  for (size_t i = 0; i < ic.size(); ++i) {
    const uint8_t* src = c[ic[i]] != 0 ? x.data.data() + ix[i] * elem : y.data.data() + iy[i] * elem;
    std::memcpy(out.data() + i * elem, src, elem);
  }
  return {make_result(x.dtype, shape, std::move(out))};
}

// Expand: the input broadcast with the shape input (numpy rules, either side may be 1).
std::vector<ir::Tensor> eval_expand(const SourceNode& node, const std::vector<const ir::Tensor*>& inputs) {
  const ir::Tensor& in = required(node, inputs, 0);
  const ir::Shape target = read_ints(required(node, inputs, 1));
  ir::Shape shape;
  try {
    shape = broadcast_shapes(in.shape, target, "shape");
  } catch (const CompileError& e) {
    fail(node, e.what());
  }
  const size_t elem = dtype_size(in.dtype);
  const std::vector<int64_t> source = ir::broadcast_source(in.shape, shape);
  std::vector<uint8_t> out(source.size() * elem);
  for (size_t i = 0; i < source.size(); ++i)
    std::memcpy(out.data() + i * elem, in.data.data() + source[i] * elem, elem);
  return {make_result(in.dtype, shape, std::move(out))};
}

std::vector<ir::Tensor> eval_range(const SourceNode& node,
                                   const std::vector<const ir::Tensor*>& inputs, DType dtype) {
  const ir::Tensor& start_t = required(node, inputs, 0);
  const ir::Tensor& limit_t = required(node, inputs, 1);
  const ir::Tensor& delta_t = required(node, inputs, 2);
  if (start_t.elements() != 1 || limit_t.elements() != 1 || delta_t.elements() != 1)
    fail(node, "start, limit and delta must be scalars");
  if (is_float(dtype)) {
    const double start = read_doubles(start_t)[0], limit = read_doubles(limit_t)[0],
                 delta = read_doubles(delta_t)[0];
    if (delta == 0) fail(node, "delta 0");
    const int64_t n = std::max<int64_t>(static_cast<int64_t>(std::ceil((limit - start) / delta)), 0);
    std::vector<double> v(n);
    for (int64_t i = 0; i < n; ++i) v[i] = start + static_cast<double>(i) * delta;
    return {make_result(dtype, {n}, encode_values(dtype, v))};
  }
  const int64_t start = read_ints(start_t)[0], limit = read_ints(limit_t)[0],
                delta = read_ints(delta_t)[0];
  if (delta == 0) fail(node, "delta 0");
  const int64_t span = limit - start;
  int64_t n = delta > 0 ? (span + delta - 1) / delta : (span + delta + 1) / delta;
  n = std::max<int64_t>(n, 0);
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = start + i * delta;
  return {make_result(dtype, {n}, encode_ints(dtype, v))};
}

// Split along the normalized axis into the normalized part sizes (repeat_interleave's
// repeat counts: a Split of an Expand of constants).
std::vector<ir::Tensor> eval_split(const SourceNode& node, const ir::Tensor& in) {
  const int64_t rank = static_cast<int64_t>(in.shape.size());
  const int64_t axis = normalize_axis(node, node.get_int("axis", 0), rank);
  const std::vector<int64_t> sizes = node.get_ints("split");
  const size_t elem = dtype_size(in.dtype);
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= in.shape[i];
  for (int64_t i = axis + 1; i < rank; ++i) inner *= in.shape[i];
  std::vector<ir::Tensor> parts;
  int64_t start = 0;
  for (int64_t size : sizes) {
    ir::Shape shape = in.shape;
    shape[axis] = size;
    std::vector<uint8_t> out;
    for (int64_t o = 0; o < outer; ++o) {
      const uint8_t* src = in.data.data() + ((o * in.shape[axis] + start) * inner) * elem;
      out.insert(out.end(), src, src + size * inner * elem);
    }
    parts.push_back(make_result(in.dtype, shape, std::move(out)));
    start += size;
  }
  return parts;
}

// Floor, Ceil and Round (half to even, as std::nearbyint in the default rounding mode) of
// a float tensor; integers are their own.
std::vector<ir::Tensor> eval_rounding(const SourceNode& node, const ir::Tensor& in) {
  if (!is_float(in.dtype)) return {make_result(in.dtype, in.shape, in.data)};
  std::vector<double> v = read_doubles(in);
  for (double& d : v) d = node.op == "Floor" ? std::floor(d) : node.op == "Ceil" ? std::ceil(d) : std::nearbyint(d);
  return {make_result(in.dtype, in.shape, encode_values(in.dtype, v))};
}

// ReduceProd over the normalized axes (PyTorch's element counts for std/var: the
// product of Shape's dims), in doubles: exact for integers below 2^53.
std::vector<ir::Tensor> eval_reduce_prod(const SourceNode& node, const ir::Tensor& in) {
  const std::vector<int64_t> axes = node.get_ints("axes");
  const bool keepdims = node.get_int("keepdims", 1) != 0;
  if (node.get_int("noop", 0) != 0) return {make_result(in.dtype, in.shape, in.data)};
  ir::Shape kept = in.shape, out_shape;
  for (int64_t a : axes) kept[a] = 1;
  for (size_t i = 0; i < kept.size(); ++i)
    if (keepdims || std::find(axes.begin(), axes.end(), static_cast<int64_t>(i)) == axes.end())
      out_shape.push_back(kept[i]);
  const std::vector<double> v = read_doubles(in);
  std::vector<double> out(ir::element_count(kept), 1.0);
  const std::vector<int64_t> in_strides = strides_of(in.shape), out_strides = strides_of(kept);
  for (int64_t k = 0; k < static_cast<int64_t>(v.size()); ++k) {
    int64_t o = 0;
    for (size_t i = 0; i < kept.size(); ++i)
      if (kept[i] != 1) o += (k / in_strides[i]) % in.shape[i] * out_strides[i];
    out[o] *= v[k];
  }
  return {make_result(in.dtype, out_shape, encode_values(in.dtype, out))};
}

// Mod, numpy-broadcast: integers exactly (fmod 0: the floor remainder, the divisor's
// sign; fmod 1: C's, the dividend's), floats as C's fmod (fmod 0: moved to the divisor's
// sign), in float32 as the model computes them. An integer divisor 0 is an error.
std::vector<ir::Tensor> eval_mod(const SourceNode& node, const ir::Tensor& a, const ir::Tensor& b, DType out_dtype) {
  const ir::Shape shape = broadcast_shapes(a.shape, b.shape, "node '" + node.name + "' (" + node.op + ")");
  const std::vector<int64_t> ia = ir::broadcast_source(a.shape, shape), ib = ir::broadcast_source(b.shape, shape);
  const bool c_fmod = node.get_int("fmod", 0) != 0;
  if (is_float(a.dtype) || is_float(b.dtype)) {
    const std::vector<double> va = read_doubles(a), vb = read_doubles(b);
    std::vector<double> out(ia.size());
    for (size_t i = 0; i < out.size(); ++i) {
      const float x = static_cast<float>(va[ia[i]]), y = static_cast<float>(vb[ib[i]]);
      float r = std::fmod(x, y);
      if (!c_fmod && r != 0 && (r < 0) != (y < 0)) r += y;
      out[i] = r;
    }
    return {make_result(out_dtype, shape, encode_values(out_dtype, out))};
  }
  const std::vector<int64_t> va = read_ints(a), vb = read_ints(b);
  std::vector<int64_t> out(ia.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t x = va[ia[i]], y = vb[ib[i]];
    if (y == 0) fail(node, "integer division by zero");
    int64_t r = y == -1 ? 0 : x % y;
    if (!c_fmod && r != 0 && (r < 0) != (y < 0)) r += y;
    out[i] = r;
  }
  return {make_result(out_dtype, shape, encode_ints(out_dtype, out))};
}

// ScatterND(data, indices [..., k], updates [...indices' leading dims, data dims k..]): a
// copy of data with the slice at each index tuple (negative entries count from the end)
// replaced by, or (reduction add, mul, max, min) combined with, its update slice, in
// index order. Integers combine in int64 and wrap to the dtype, floats in float32.
std::vector<ir::Tensor> eval_scatter_nd(const SourceNode& node, const ir::Tensor& data, const ir::Tensor& indices_t,
                                        const ir::Tensor& updates) {
  const std::string reduction = node.get_string("reduction", "none");
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  if (indices_t.shape.empty()) fail(node, "indices must have rank >= 1");
  const int64_t k = indices_t.shape.back();
  if (k < 1 || k > rank)
    fail(node, "index tuples of " + std::to_string(k) + " entries for data of rank " + std::to_string(rank));
  ir::Shape expected(indices_t.shape.begin(), indices_t.shape.end() - 1);
  expected.insert(expected.end(), data.shape.begin() + k, data.shape.end());
  if (updates.shape != expected || updates.dtype != data.dtype)
    fail(node, "updates " + shape_string(updates.shape) + " " + dtype_name(updates.dtype) + ", expected " +
                   shape_string(expected) + " " + dtype_name(data.dtype));
  const std::vector<int64_t> indices = read_ints(indices_t);
  const std::vector<int64_t> strides = strides_of(data.shape);
  const int64_t slice = k == rank ? 1 : strides[k - 1];
  const int64_t tuples = static_cast<int64_t>(indices.size()) / k;
  const bool floats = is_float(data.dtype);
  std::vector<double> fv = floats ? read_doubles(data) : std::vector<double>{};
  std::vector<int64_t> iv = floats ? std::vector<int64_t>{} : read_ints(data);
  const std::vector<double> fu = floats ? read_doubles(updates) : std::vector<double>{};
  const std::vector<int64_t> iu = floats ? std::vector<int64_t>{} : read_ints(updates);
  if (reduction != "none" && reduction != "add" && reduction != "mul" && reduction != "max" && reduction != "min")
    fail(node, "reduction '" + reduction + "' not supported (none, add, mul, max, min)");
  auto combine = [&](auto acc, auto u) -> decltype(acc) {
    using T = decltype(acc);
    // Integers wrap (unsigned arithmetic) instead of overflowing.
    using Wide = std::conditional_t<std::is_integral_v<T>, uint64_t, T>;
    if (reduction == "add") return static_cast<T>(static_cast<Wide>(acc) + static_cast<Wide>(u));
    if (reduction == "mul") return static_cast<T>(static_cast<Wide>(acc) * static_cast<Wide>(u));
    if (reduction == "max") return std::max(acc, u);
    if (reduction == "min") return std::min(acc, u);
    return u;
  };
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t base = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t i = indices[t * k + j];
      const int64_t dim = data.shape[j];
      if (i < -dim || i >= dim)
        fail(node, "index " + std::to_string(i) + " out of range for dimension " + std::to_string(dim));
      base += (i < 0 ? i + dim : i) * strides[j];
    }
    for (int64_t e = 0; e < slice; ++e) {
      if (floats)
        fv[base + e] = static_cast<float>(combine(fv[base + e], fu[t * slice + e]));
      else
        iv[base + e] = combine(iv[base + e], iu[t * slice + e]);
    }
  }
  return {make_result(data.dtype, data.shape, floats ? encode_values(data.dtype, fv) : encode_ints(data.dtype, iv))};
}

}  // namespace

const std::set<std::string>& host_evaluable_ops() {
  static const std::set<std::string> kOps = {
      "Shape",     "Size",    "Gather",  "Unsqueeze", "Squeeze",         "Concat",
      "Cast",      "Reshape", "Flatten", "Add",       "Sub",             "Mul",
      "Div",       "Transpose", "ConstantOfShape", "Range", "Slice",      "Identity",
      "Dropout",   "Expand",  "Equal",   "Where",   "ReduceProd",
      "Split",     "Floor",   "Ceil",    "Round",   "Mod",     "ScatterND"};
  return kOps;
}

bool is_host_evaluable(const std::string& op) { return host_evaluable_ops().count(op) != 0; }

bool inputs_ready_for_evaluation(const SourceGraph& graph, const SourceNode& node) {
  if (!is_host_evaluable(node.op)) return false;
  if (node.op == "Shape" || node.op == "Size") return true;
  for (int t : node.inputs)
    if (t != ir::kNoTensor && !graph.tensors[t].is_constant) return false;
  return !node.inputs.empty();
}

std::vector<ir::Tensor> evaluate_source_node(const SourceNode& node,
                                             const std::vector<const ir::Tensor*>& inputs,
                                             const std::vector<DType>& output_dtypes) {
  const std::string& op = node.op;
  if (output_dtypes.empty()) fail(node, "no outputs");
  const DType out_dtype = output_dtypes[0];
  if (op == "Shape") return eval_shape(node, required(node, inputs, 0));
  if (op == "Size") {
    return {make_result(DType::kInt64, {},
                        encode_ints(DType::kInt64, {required(node, inputs, 0).elements()}))};
  }
  if (op == "Identity" || op == "Dropout") {
    const ir::Tensor& in = required(node, inputs, 0);
    return {make_result(in.dtype, in.shape, in.data)};
  }
  if (op == "Gather") return eval_gather(node, required(node, inputs, 0), required(node, inputs, 1));
  if (op == "Unsqueeze") return eval_unsqueeze(node, inputs);
  if (op == "Squeeze") return eval_squeeze(node, inputs);
  if (op == "Concat") return eval_concat(node, inputs);
  if (op == "Cast") return eval_cast(required(node, inputs, 0), out_dtype);
  if (op == "Reshape") {
    const ir::Tensor& in = required(node, inputs, 0);
    const ir::Shape shape = reshape_target(node, in.shape, read_ints(required(node, inputs, 1)),
                                           node.get_int("allowzero", 0) != 0);
    return {make_result(in.dtype, shape, in.data)};
  }
  if (op == "Flatten") {
    const ir::Tensor& in = required(node, inputs, 0);
    const int64_t rank = static_cast<int64_t>(in.shape.size());
    int64_t axis = node.get_int("axis", 1);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis > rank) fail(node, "axis out of range");
    int64_t outer = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= in.shape[i];
    return {make_result(in.dtype, {outer, in.elements() / std::max<int64_t>(outer, 1)}, in.data)};
  }
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div")
    return eval_binary(node, required(node, inputs, 0), required(node, inputs, 1), out_dtype);
  if (op == "Transpose") {
    const ir::Tensor& in = required(node, inputs, 0);
    std::vector<int64_t> perm = node.get_ints("perm");
    if (perm.empty())
      for (size_t i = in.shape.size(); i-- > 0;) perm.push_back(static_cast<int64_t>(i));
    if (perm.size() != in.shape.size()) fail(node, "perm length differs from the input rank");
    return {permute_tensor(in, perm)};
  }
  if (op == "ConstantOfShape") {
    const std::vector<int64_t> dims = read_ints(required(node, inputs, 0));
    for (int64_t d : dims)
      if (d < 0) fail(node, "negative dimension in shape " + shape_string(dims));
    const std::vector<double> values(ir::element_count(dims), node.get_float("value", 0.0));
    return {make_result(out_dtype, dims, encode_values(out_dtype, values))};
  }
  if (op == "Range") return eval_range(node, inputs, out_dtype);
  if (op == "ReduceProd") return eval_reduce_prod(node, required(node, inputs, 0));
  if (op == "Split") return eval_split(node, required(node, inputs, 0));
  if (op == "Floor" || op == "Ceil" || op == "Round") return eval_rounding(node, required(node, inputs, 0));
  if (op == "Slice") return eval_slice(node, inputs);
  if (op == "Mod") return eval_mod(node, required(node, inputs, 0), required(node, inputs, 1), out_dtype);
  if (op == "ScatterND")
    return eval_scatter_nd(node, required(node, inputs, 0), required(node, inputs, 1), required(node, inputs, 2));
  if (op == "Expand") return eval_expand(node, inputs);
  if (op == "Equal") return eval_equal(node, required(node, inputs, 0), required(node, inputs, 1));
  if (op == "Where")
    return eval_where(node, required(node, inputs, 0), required(node, inputs, 1), required(node, inputs, 2));
  fail(node, "cannot evaluate on the host");
}

std::vector<int64_t> read_ints(const ir::Tensor& t) {
  const int64_t n = t.elements();
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i) {
    switch (t.dtype) {
      case DType::kFloat32: v[i] = static_cast<int64_t>(t.as<float>()[i]); break;
      case DType::kInt8: v[i] = t.as<int8_t>()[i]; break;
      case DType::kInt16: v[i] = t.as<int16_t>()[i]; break;
      case DType::kInt32: v[i] = t.as<int32_t>()[i]; break;
      case DType::kUInt8: v[i] = t.as<uint8_t>()[i]; break;
      case DType::kInt64: v[i] = t.as<int64_t>()[i]; break;
      case DType::kBool: v[i] = t.as<uint8_t>()[i] != 0; break;
    }
  }
  return v;
}

std::vector<double> read_doubles(const ir::Tensor& t) {
  if (t.dtype == DType::kFloat32) {
    const float* p = t.as<float>();
    return std::vector<double>(p, p + t.elements());
  }
  std::vector<int64_t> ints = read_ints(t);
  return std::vector<double>(ints.begin(), ints.end());
}

std::vector<uint8_t> encode_ints(DType dtype, const std::vector<int64_t>& values) {
  if (dtype == DType::kFloat32) {
    std::vector<float> f(values.begin(), values.end());
    return float_bytes(f);
  }
  const size_t elem = dtype_size(dtype);
  std::vector<uint8_t> out(values.size() * elem);
  for (size_t i = 0; i < values.size(); ++i) {
    int64_t v = dtype == DType::kBool ? (values[i] != 0) : values[i];
    // Little-endian truncation to the element width (two's complement wrap).
    for (size_t b = 0; b < elem; ++b) out[i * elem + b] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * b));
  }
  return out;
}

std::vector<uint8_t> encode_values(DType dtype, const std::vector<double>& values) {
  if (dtype == DType::kFloat32) {
    std::vector<float> f(values.begin(), values.end());
    return float_bytes(f);
  }
  std::vector<int64_t> ints(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    ints[i] = dtype == DType::kBool ? (values[i] != 0.0) : static_cast<int64_t>(values[i]);
  return encode_ints(dtype, ints);
}

std::vector<uint8_t> float_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(float));
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

ir::Tensor permute_tensor(const ir::Tensor& in, const std::vector<int64_t>& perm) {
  const size_t rank = in.shape.size();
  ir::Tensor out = in;
  out.shape.resize(rank);
  for (size_t i = 0; i < rank; ++i) out.shape[i] = in.shape[perm[i]];
  const std::vector<int64_t> in_strides = strides_of(in.shape);
  const size_t elem = dtype_size(in.dtype);
  const int64_t count = in.elements();
  std::vector<int64_t> index(rank, 0);  // index into out
  for (int64_t k = 0; k < count; ++k) {
    int64_t src = 0;
    for (size_t i = 0; i < rank; ++i) src += index[i] * in_strides[perm[i]];
    std::memcpy(out.data.data() + k * elem, in.data.data() + src * elem, elem);
    for (size_t i = rank; i-- > 0;) {
      if (++index[i] < out.shape[i]) break;
      index[i] = 0;
    }
  }
  return out;
}

ir::Shape broadcast_shapes(const ir::Shape& a, const ir::Shape& b, const std::string& what) {
  const size_t rank = std::max(a.size(), b.size());
  ir::Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      throw CompileError(what + ": shapes " + shape_string(a) + " and " + shape_string(b) +
                         " do not broadcast");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<float> broadcast_along(const ir::Tensor& c, const ir::Shape& shape, const std::vector<bool>& kept) {
  const size_t rank = shape.size();
  if (!c.is_constant || c.shape.size() > rank) return {};
  // Stride in c of each dim of `shape` (0 where c broadcasts).
  std::vector<int64_t> strides(rank, 0);
  int64_t stride = 1;
  for (size_t k = 0; k < c.shape.size(); ++k) {
    const size_t i = rank - 1 - k;
    const int64_t d = c.shape[c.shape.size() - 1 - k];
    if (d != 1 && (d != shape[i] || !kept[i])) return {};
    if (d != 1) strides[i] = stride;
    stride *= d;
  }
  std::vector<size_t> dims;
  for (size_t i = 0; i < rank; ++i)
    if (kept[i]) dims.push_back(i);
  const std::vector<double> values = read_doubles(c);
  std::vector<int64_t> index(dims.size(), 0);
  int64_t count = 1;
  for (size_t i : dims) count *= shape[i];
  std::vector<float> out;
  out.reserve(count);
  for (int64_t k = 0; k < count; ++k) {
    int64_t src = 0;
    for (size_t j = 0; j < dims.size(); ++j) src += index[j] * strides[dims[j]];
    out.push_back(static_cast<float>(values[src]));
    for (size_t j = dims.size(); j-- > 0;) {
      if (++index[j] < shape[dims[j]]) break;
      index[j] = 0;
    }
  }
  return out;
}

std::vector<SliceAxis> slice_axes(const SourceNode& node, const ir::Shape& shape,
                                  const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                                  std::vector<int64_t> axes, std::vector<int64_t> steps) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    fail(node, "starts, ends, axes and steps differ in length (" + std::to_string(starts.size()) + ", " +
                   std::to_string(ends.size()) + ", " + std::to_string(axes.size()) + ", " +
                   std::to_string(steps.size()) + ")");
  std::vector<SliceAxis> out(rank);
  for (int64_t i = 0; i < rank; ++i) out[i] = {0, 1, shape[i]};
  std::vector<bool> seen(rank, false);
  for (size_t k = 0; k < starts.size(); ++k) {
    const int64_t axis = normalize_axis(node, axes[k], rank);
    if (seen[axis]) fail(node, "axis " + std::to_string(axes[k]) + " repeated");
    seen[axis] = true;
    const int64_t dim = shape[axis];
    const int64_t s = steps[k];
    if (s == 0) fail(node, "step 0 on axis " + std::to_string(axis));
    // Negative indices count from the end (the int64 extremes saturate), then clamp.
    int64_t b = starts[k], e = ends[k];
    if (b < 0) b = b < std::numeric_limits<int64_t>::min() + dim ? -1 : b + dim;
    if (e < 0) e = e < std::numeric_limits<int64_t>::min() + dim ? -1 : e + dim;
    if (s > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
    } else {
      b = std::clamp<int64_t>(b, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
    }
    const int64_t span = s > 0 ? e - b : b - e;
    const int64_t magnitude = s > 0 ? s : (s == std::numeric_limits<int64_t>::min() ? dim + 1 : -s);
    const int64_t n = span <= 0 ? 0 : 1 + (span - 1) / magnitude;
    // A single element needs no step (keeps huge steps out of the kernels' int32).
    out[axis] = {b, n <= 1 ? 1 : s, n};
  }
  return out;
}

void fail_node(std::string_view graph_name, const SourceNode& node, const std::string& what) {
  throw CompileError(std::string(graph_name) + ": node '" + node.name + "' (" + node.op + "): " + what);
}

}  // namespace mote::onnx_import
