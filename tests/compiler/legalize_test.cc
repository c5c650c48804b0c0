// onnx_import::legalize: the Mote op sequences it produces (layout choices, transposes at
// the boundary, cancelled transposes) and, numerically, that the legalized graphs compute
// what the models compute. The numbers come from a small float64 interpreter of the Mote
// ops written from the kernel headers' contracts (below), run against numpy references
// from make_onnx_testdata.py and against the shared models' PyTorch goldens. The
// interpreter also checks every node's output shape against the kernel's rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>

#include "onnx_test_util.h"
#include "import/onnx/source_eval.h"

namespace mote {
namespace {

using onnx_test::count_ops;
using onnx_test::error_of;
using onnx_test::import_and_legalize;
using onnx_test::load_npy;
using onnx_test::NpyArray;
using onnx_test::op_sequence;
using onnx_test::shared_model;
using onnx_test::testdata;

using ir::Op;
using Ops = std::vector<std::string>;
using Ints = std::vector<int64_t>;

// ---- a float64 reference interpreter of Mote ops ----------------------------------------

struct Buffer {
  ir::Shape shape;
  std::vector<double> v;
};

std::vector<int64_t> strides_of(const ir::Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (size_t i = s.size(); i-- > 1;) st[i - 1] = st[i] * s[i];
  return st;
}

// Calls fn(index) for every index of `shape` in row-major order.
template <typename Fn>
void for_each_index(const ir::Shape& shape, Fn&& fn) {
  const int64_t count = ir::element_count(shape);
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t k = 0; k < count; ++k) {
    fn(index);
    for (size_t i = shape.size(); i-- > 0;) {
      if (++index[i] < shape[i]) break;
      index[i] = 0;
    }
  }
}

// Offset of a (right-aligned, broadcast) index into a tensor of shape s.
int64_t broadcast_offset(const std::vector<int64_t>& index, const ir::Shape& s) {
  const std::vector<int64_t> st = strides_of(s);
  const size_t lead = index.size() - s.size();
  int64_t off = 0;
  for (size_t i = 0; i < s.size(); ++i) off += (s[i] == 1 ? 0 : index[lead + i]) * st[i];
  return off;
}

class MoteInterpreter {
 public:
  explicit MoteInterpreter(const ir::Graph& g) : g_(g) {}

  std::vector<Buffer> run(const std::vector<Buffer>& inputs) {
    values_.clear();
    EXPECT_EQ(inputs.size(), g_.inputs.size());
    for (size_t i = 0; i < inputs.size() && i < g_.inputs.size(); ++i) {
      EXPECT_EQ(inputs[i].shape, g_.tensors[g_.inputs[i]].shape) << "input " << i;
      values_[g_.inputs[i]] = inputs[i];
    }
    for (const ir::Node& n : g_.nodes) {
      SCOPED_TRACE("node '" + n.name + "' (" + ir::op_name(n.op) + ")");
      Buffer out = eval(n);
      const ir::Tensor& t = g_.tensors[n.outputs[0]];
      EXPECT_EQ(ir::element_count(out.shape), t.elements());
      if (!shape_free_) {
        EXPECT_EQ(out.shape, t.shape);
      }
      out.shape = t.shape;
      values_[n.outputs[0]] = std::move(out);
      shape_free_ = false;
    }
    std::vector<Buffer> outputs;
    for (int t : g_.outputs) outputs.push_back(value(t));
    return outputs;
  }

 private:
  const Buffer& value(int t) {
    auto it = values_.find(t);
    if (it != values_.end()) return it->second;
    const ir::Tensor& tensor = g_.tensors[t];
    EXPECT_TRUE(tensor.is_constant) << "tensor '" << tensor.name << "' read before it is written";
    Buffer b{tensor.shape, onnx_import::read_doubles(tensor)};
    return values_[t] = std::move(b);
  }
  const Buffer& in(const ir::Node& n, size_t k) { return value(n.inputs.at(k)); }
  const ir::Shape& out_shape(const ir::Node& n) const { return g_.tensors[n.outputs[0]].shape; }

  static double act(const ir::Node& n, double v) {
    return std::clamp(v, n.get_float("act_min", -INFINITY), n.get_float("act_max", INFINITY));
  }

  Buffer eval(const ir::Node& n) {
    switch (n.op) {
      case Op::kConv2d: return conv(n, false);
      case Op::kDepthwiseConv2d: return conv(n, true);
      case Op::kAvgPool2d: return pool(n, true);
      case Op::kMaxPool2d: return pool(n, false);
      case Op::kFullyConnected: return fully_connected(n);
      case Op::kBatchMatMul: return batch_matmul(n);
      case Op::kAdd:
      case Op::kSub:
      case Op::kMul:
      case Op::kDiv: return binary(n);
      case Op::kClamp:
      case Op::kSigmoid:
      case Op::kTanh: return unary(n);
      case Op::kSoftmax: return softmax(n);
      case Op::kMean: return mean(n);
      case Op::kTranspose: return transpose(n);
      case Op::kConcat: return concat(n);
      case Op::kPad: return pad(n);
      case Op::kLayerNorm: return layer_norm(n);
      case Op::kGroupNorm: return group_norm(n);
      case Op::kReshape: {
        Buffer b = in(n, 0);
        b.shape = out_shape(n);
        return b;
      }
      default: break;
    }
    ADD_FAILURE() << "not an op legalize emits";
    return {out_shape(n), std::vector<double>(ir::element_count(out_shape(n)), 0.0)};
  }

  Buffer unary(const ir::Node& n) {
    Buffer b = in(n, 0);
    for (double& v : b.v) {
      if (n.op == Op::kClamp) v = std::clamp(v, n.get_float("min", -INFINITY), n.get_float("max", INFINITY));
      if (n.op == Op::kSigmoid) v = 1.0 / (1.0 + std::exp(-v));
      if (n.op == Op::kTanh) v = std::tanh(v);
    }
    return b;
  }

  Buffer conv(const ir::Node& n, bool depthwise) {
    const Buffer& x = in(n, 0);
    const Buffer& f = in(n, 1);
    const bool has_bias = n.inputs.size() > 2 && n.inputs[2] != ir::kNoTensor;
    const std::vector<double> bias = has_bias ? in(n, 2).v : std::vector<double>{};
    const Ints s = n.get_ints("strides"), d = n.get_ints("dilations"), p = n.get_ints("pads");
    EXPECT_EQ(x.shape.size(), 4u);
    const int64_t N = x.shape[0], H = x.shape[1], W = x.shape[2], C = x.shape[3];
    const int64_t KH = f.shape[1], KW = f.shape[2];
    const int64_t O = depthwise ? f.shape[3] : f.shape[0];
    const int64_t OH = (H + p[0] + p[2] - d[0] * (KH - 1) - 1) / s[0] + 1;
    const int64_t OW = (W + p[1] + p[3] - d[1] * (KW - 1) - 1) / s[1] + 1;
    const int64_t groups = depthwise ? 0 : n.get_int("group", 1);
    const int64_t multiplier = depthwise ? n.get_int("depth_multiplier", 1) : 0;
    if (depthwise) {
      EXPECT_EQ(f.shape[0], 1);
      EXPECT_EQ(O, C * multiplier);
    } else {
      EXPECT_EQ(f.shape[3] * groups, C);
    }
    Buffer out{{N, OH, OW, O}, std::vector<double>(N * OH * OW * O)};
    const int64_t cg = depthwise ? 1 : C / groups;
    for (int64_t b = 0; b < N; ++b)
      for (int64_t oy = 0; oy < OH; ++oy)
        for (int64_t ox = 0; ox < OW; ++ox)
          for (int64_t o = 0; o < O; ++o) {
            double acc = has_bias ? bias[o] : 0.0;
            const int64_t first = depthwise ? o / multiplier : (o / (O / groups)) * cg;
            for (int64_t ky = 0; ky < KH; ++ky)
              for (int64_t kx = 0; kx < KW; ++kx) {
                const int64_t iy = oy * s[0] - p[0] + ky * d[0], ix = ox * s[1] - p[1] + kx * d[1];
                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                for (int64_t c = 0; c < cg; ++c) {
                  const double xv = x.v[((b * H + iy) * W + ix) * C + first + c];
                  const double fv = depthwise ? f.v[(ky * KW + kx) * O + o]
                                              : f.v[((o * KH + ky) * KW + kx) * cg + c];
                  acc += xv * fv;
                }
              }
            out.v[((b * OH + oy) * OW + ox) * O + o] = act(n, acc);
          }
    return out;
  }

  Buffer pool(const ir::Node& n, bool average) {
    const Buffer& x = in(n, 0);
    const Ints k = n.get_ints("kernel"), s = n.get_ints("strides"), d = n.get_ints("dilations"),
               p = n.get_ints("pads");
    const int64_t N = x.shape[0], H = x.shape[1], W = x.shape[2], C = x.shape[3];
    // The output size is the tensor's: floor or ceil form of the usual formula.
    const int64_t OH = out_shape(n)[1], OW = out_shape(n)[2];
    const int64_t fh = (H + p[0] + p[2] - d[0] * (k[0] - 1) - 1) / s[0] + 1;
    const int64_t fw = (W + p[1] + p[3] - d[1] * (k[1] - 1) - 1) / s[1] + 1;
    EXPECT_TRUE(OH == fh || OH == fh + 1);
    EXPECT_TRUE(OW == fw || OW == fw + 1);
    const bool include_pad = n.get_int("count_include_pad", 0) != 0;
    Buffer out{{N, OH, OW, C}, std::vector<double>(N * OH * OW * C)};
    for (int64_t b = 0; b < N; ++b)
      for (int64_t oy = 0; oy < OH; ++oy)
        for (int64_t ox = 0; ox < OW; ++ox)
          for (int64_t c = 0; c < C; ++c) {
            double acc = average ? 0.0 : -INFINITY;
            int64_t count = 0;
            for (int64_t ky = 0; ky < k[0]; ++ky)
              for (int64_t kx = 0; kx < k[1]; ++kx) {
                const int64_t iy = oy * s[0] - p[0] + ky * d[0], ix = ox * s[1] - p[1] + kx * d[1];
                if (iy >= 0 && iy < H && ix >= 0 && ix < W) {
                  const double v = x.v[((b * H + iy) * W + ix) * C + c];
                  acc = average ? acc + v : std::max(acc, v);
                  ++count;
                } else if (include_pad && iy >= -p[0] && iy < H + p[2] && ix >= -p[1] && ix < W + p[3]) {
                  ++count;
                }
              }
            out.v[((b * OH + oy) * OW + ox) * C + c] = act(n, average ? acc / count : acc);
          }
    return out;
  }

  Buffer fully_connected(const ir::Node& n) {
    const Buffer& x = in(n, 0);
    const Buffer& w = in(n, 1);
    const bool has_bias = n.inputs.size() > 2 && n.inputs[2] != ir::kNoTensor;
    const int64_t cols = w.shape[0], k = w.shape[1];
    EXPECT_EQ(x.shape.back(), k);
    const int64_t batches = ir::element_count(x.shape) / k;
    EXPECT_EQ(out_shape(n).back(), cols);
    Buffer out{out_shape(n), std::vector<double>(batches * cols)};
    for (int64_t b = 0; b < batches; ++b)
      for (int64_t o = 0; o < cols; ++o) {
        double acc = has_bias ? in(n, 2).v[o] : 0.0;
        for (int64_t i = 0; i < k; ++i) acc += x.v[b * k + i] * w.v[o * k + i];
        out.v[b * cols + o] = act(n, acc);
      }
    return out;
  }

  Buffer batch_matmul(const ir::Node& n) {
    const Buffer& a = in(n, 0);
    const Buffer& b = in(n, 1);
    const size_t ra = a.shape.size(), rb = b.shape.size();
    const int64_t M = a.shape[ra - 2], K = a.shape[ra - 1], N = b.shape[rb - 1];
    EXPECT_EQ(b.shape[rb - 2], K);
    const ir::Shape abatch(a.shape.begin(), a.shape.end() - 2), bbatch(b.shape.begin(), b.shape.end() - 2);
    ir::Shape shape = onnx_import::broadcast_shapes(abatch, bbatch, "batch_matmul");
    const ir::Shape batch = shape;
    shape.push_back(M);
    shape.push_back(N);
    Buffer out{shape, {}};
    for_each_index(batch, [&](const std::vector<int64_t>& idx) {
      const int64_t ao = broadcast_offset(idx, abatch) * M * K, bo = broadcast_offset(idx, bbatch) * K * N;
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
          double acc = 0;
          for (int64_t q = 0; q < K; ++q) acc += a.v[ao + i * K + q] * b.v[bo + q * N + j];
          out.v.push_back(act(n, acc));
        }
    });
    return out;
  }

  Buffer binary(const ir::Node& n) {
    const Buffer& a = in(n, 0);
    const Buffer& b = in(n, 1);
    Buffer out{onnx_import::broadcast_shapes(a.shape, b.shape, n.name), {}};
    for_each_index(out.shape, [&](const std::vector<int64_t>& idx) {
      const double x = a.v[broadcast_offset(idx, a.shape)], y = b.v[broadcast_offset(idx, b.shape)];
      const double r = n.op == Op::kAdd ? x + y : n.op == Op::kSub ? x - y : n.op == Op::kMul ? x * y : x / y;
      out.v.push_back(act(n, r));
    });
    return out;
  }

  Buffer softmax(const ir::Node& n) {
    Buffer b = in(n, 0);
    const double beta = n.get_float("beta", 1.0);
    const int64_t depth = b.shape.back();
    for (size_t row = 0; row < b.v.size(); row += depth) {
      const double mx = *std::max_element(b.v.begin() + row, b.v.begin() + row + depth);
      double sum = 0;
      for (int64_t i = 0; i < depth; ++i) sum += b.v[row + i] = std::exp(beta * (b.v[row + i] - mx));
      for (int64_t i = 0; i < depth; ++i) b.v[row + i] /= sum;
    }
    return b;
  }

  Buffer mean(const ir::Node& n) {
    const Buffer& x = in(n, 0);
    const Ints axes = n.get_ints("axes");
    EXPECT_TRUE(std::is_sorted(axes.begin(), axes.end()));
    ir::Shape kept = x.shape;
    int64_t reduced = 1;
    for (int64_t a : axes) {
      reduced *= x.shape[a];
      kept[a] = 1;
    }
    Buffer out{kept, std::vector<double>(ir::element_count(kept), 0.0)};
    const std::vector<int64_t> st = strides_of(kept);
    for_each_index(x.shape, [&](const std::vector<int64_t>& idx) {
      int64_t off = 0;
      for (size_t i = 0; i < idx.size(); ++i) off += (kept[i] == 1 ? 0 : idx[i]) * st[i];
      out.v[off] += x.v[broadcast_offset(idx, x.shape)] / reduced;
    });
    shape_free_ = true;  // keepdims or not: the output tensor's shape decides
    return out;
  }

  Buffer transpose(const ir::Node& n) {
    const Buffer& x = in(n, 0);
    const Ints perm = n.get_ints("perm");
    ir::Shape shape;
    for (int64_t p : perm) shape.push_back(x.shape[p]);
    const std::vector<int64_t> st = strides_of(x.shape);
    Buffer out{shape, {}};
    for_each_index(shape, [&](const std::vector<int64_t>& idx) {
      int64_t off = 0;
      for (size_t i = 0; i < idx.size(); ++i) off += idx[i] * st[perm[i]];
      out.v.push_back(x.v[off]);
    });
    return out;
  }

  Buffer concat(const ir::Node& n) {
    const int64_t axis = n.get_int("axis", -1);
    ir::Shape shape = in(n, 0).shape;
    shape[axis] = 0;
    for (size_t k = 0; k < n.inputs.size(); ++k) shape[axis] += in(n, k).shape[axis];
    Buffer out{shape, {}};
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= shape[i];
    for (size_t i = axis + 1; i < shape.size(); ++i) inner *= shape[i];
    for (int64_t o = 0; o < outer; ++o)
      for (size_t k = 0; k < n.inputs.size(); ++k) {
        const Buffer& b = in(n, k);
        const int64_t chunk = b.shape[axis] * inner;
        out.v.insert(out.v.end(), b.v.begin() + o * chunk, b.v.begin() + (o + 1) * chunk);
      }
    return out;
  }

  Buffer pad(const ir::Node& n) {
    const Buffer& x = in(n, 0);
    const Ints pads = n.get_ints("pads");
    const std::string mode = n.get_string("mode", "constant");
    const size_t r = x.shape.size();
    ir::Shape shape(r);
    for (size_t i = 0; i < r; ++i) shape[i] = pads[i] + x.shape[i] + pads[i + r];
    const std::vector<int64_t> st = strides_of(x.shape);
    Buffer out{shape, {}};
    for_each_index(shape, [&](const std::vector<int64_t>& idx) {
      int64_t off = 0;
      bool outside = false;
      for (size_t i = 0; i < r; ++i) {
        int64_t j = idx[i] - pads[i];
        const int64_t dim = x.shape[i];
        if (j < 0 || j >= dim) {
          outside = true;
          if (mode == "reflect") j = j < 0 ? -j : 2 * (dim - 1) - j;
          if (mode == "edge") j = std::clamp<int64_t>(j, 0, dim - 1);
        }
        off += j * st[i];
      }
      out.v.push_back(outside && mode == "constant" ? n.get_float("value", 0.0) : x.v[off]);
    });
    return out;
  }

  // The values x.v[index[k]] normalized in place: (v - mean) / sqrt(var + eps) * scale[k]
  // + bias[k] (mote_ops.md: layer_norm, group_norm).
  static void normalize(Buffer& x, const std::vector<int64_t>& index, double eps, const std::vector<double>& scale,
                        const std::vector<double>& bias) {
    double mean = 0, var = 0;
    for (int64_t i : index) mean += x.v[i] / static_cast<double>(index.size());
    for (int64_t i : index) var += (x.v[i] - mean) * (x.v[i] - mean) / static_cast<double>(index.size());
    for (size_t k = 0; k < index.size(); ++k)
      x.v[index[k]] = (x.v[index[k]] - mean) / std::sqrt(var + eps) * scale[k] + (bias.empty() ? 0.0 : bias[k]);
  }

  Buffer layer_norm(const ir::Node& n) {
    Buffer x = in(n, 0);
    const int64_t axis = n.get_int("axis", -1);
    int64_t row = 1;
    for (size_t i = static_cast<size_t>(axis); i < x.shape.size(); ++i) row *= x.shape[i];
    const std::vector<double> scale = in(n, 1).v;
    const std::vector<double> bias = n.inputs.size() > 2 ? in(n, 2).v : std::vector<double>{};
    EXPECT_EQ(static_cast<int64_t>(scale.size()), row);
    for (int64_t start = 0; start < static_cast<int64_t>(x.v.size()); start += row) {
      std::vector<int64_t> index(row);
      for (int64_t i = 0; i < row; ++i) index[i] = start + i;
      normalize(x, index, n.get_float("epsilon", 0), scale, bias);
    }
    return x;
  }

  Buffer group_norm(const ir::Node& n) {
    Buffer x = in(n, 0);
    const int64_t channels = x.shape.back(), groups = n.get_int("groups", 0);
    const int64_t width = channels / groups, positions = ir::element_count(x.shape) / x.shape[0] / channels;
    const std::vector<double> scale = in(n, 1).v, bias = in(n, 2).v;
    for (int64_t b = 0; b < x.shape[0]; ++b)
      for (int64_t g = 0; g < groups; ++g) {
        std::vector<int64_t> index;
        std::vector<double> s, t;
        for (int64_t p = 0; p < positions; ++p)
          for (int64_t c = g * width; c < (g + 1) * width; ++c) {
            index.push_back((b * positions + p) * channels + c);
            s.push_back(scale[c]);
            t.push_back(bias[c]);
          }
        normalize(x, index, n.get_float("epsilon", 0), s, t);
      }
    return x;
  }

  const ir::Graph& g_;
  std::map<int, Buffer> values_;
  bool shape_free_ = false;
};

Buffer to_buffer(const NpyArray& a) { return {a.shape, std::vector<double>(a.data.begin(), a.data.end())}; }

void expect_close(const Buffer& actual, const NpyArray& expected, double tolerance,
                  const std::string& what) {
  ASSERT_EQ(actual.shape, expected.shape) << what;
  ASSERT_EQ(actual.v.size(), expected.data.size()) << what;
  // `!(err <= tolerance)`: a NaN on either side is outside the tolerance.
  size_t bad = 0, first_bad = 0;
  for (size_t i = 0; i < actual.v.size(); ++i) {
    const double err = std::fabs(actual.v[i] - expected.data[i]) / (1.0 + std::fabs(expected.data[i]));
    if (!(err <= tolerance) && bad++ == 0) first_bad = i;
  }
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << actual.v.size() << " elements outside "
                     << tolerance << "; first: element " << first_bad << " is " << actual.v[first_bad]
                     << ", expected " << expected.data[first_bad];
}

// Every node is an op legalize emits and no node output is a constant.
void expect_mote_graph(const ir::Graph& g) {
  static const std::set<Op> kLegalizeOps = {
      Op::kConv2d, Op::kDepthwiseConv2d, Op::kFullyConnected, Op::kBatchMatMul, Op::kAdd,
      Op::kSub,    Op::kMul,             Op::kDiv,            Op::kClamp,       Op::kSigmoid,
      Op::kTanh,   Op::kSoftmax,         Op::kAvgPool2d,      Op::kMaxPool2d,   Op::kMean,
      Op::kTranspose, Op::kConcat,       Op::kPad,            Op::kReshape,     Op::kLayerNorm,
      Op::kGroupNorm};
  for (const ir::Node& n : g.nodes) {
    EXPECT_TRUE(kLegalizeOps.count(n.op)) << n.name << ": " << n.op;
    for (int t : n.outputs) EXPECT_FALSE(g.tensors[t].is_constant) << n.name;
  }
}

// Legalizes `model` (a generated test model) and compares its outputs on the stored
// sample with the numpy reference.
ir::Graph check_numerics(const std::string& model, double tolerance = 1e-5) {
  SCOPED_TRACE(model);
  ir::Graph g = import_and_legalize(testdata(model + ".onnx"));
  expect_mote_graph(g);
  std::vector<Buffer> inputs;
  for (size_t i = 0; i < g.inputs.size(); ++i)
    inputs.push_back(to_buffer(load_npy(testdata(model + ".in" + std::to_string(i) + ".npy"))));
  const std::vector<Buffer> outputs = MoteInterpreter(g).run(inputs);
  for (size_t j = 0; j < outputs.size(); ++j)
    expect_close(outputs[j], load_npy(testdata(model + ".out" + std::to_string(j) + ".npy")), tolerance,
                 model + " output " + std::to_string(j));
  return g;
}

// ---- shared models -----------------------------------------------------------------------

TEST(Legalize, MobilenetOpSequence) {
  ir::Graph g = import_and_legalize(shared_model("mobilenet_v2_w005_96.onnx"));
  expect_mote_graph(g);
  const Ops ops = op_sequence(g);
  ASSERT_GE(ops.size(), 3u);
  EXPECT_EQ(ops[0], "transpose");  // NCHW input -> NHWC, once
  EXPECT_EQ(ops[1], "conv2d");
  EXPECT_EQ(ops.back(), "fully_connected");
  EXPECT_EQ(count_ops(g, "transpose"), 1);
  EXPECT_EQ(count_ops(g, "depthwise_conv2d"), 17);
  EXPECT_EQ(count_ops(g, "conv2d"), 35);
  EXPECT_EQ(count_ops(g, "clamp"), 35);
  EXPECT_EQ(count_ops(g, "add"), 12);  // residual connections
  EXPECT_EQ(count_ops(g, "mean"), 1);
  EXPECT_EQ(count_ops(g, "reshape"), 1);  // flatten of [1,1,1,C]: no transpose needed
  const ir::Node& gap = g.nodes[g.nodes.size() - 3];
  EXPECT_EQ(gap.op, Op::kMean);
  EXPECT_EQ(gap.get_ints("axes"), Ints({1, 2}));
  for (const ir::Node& n : g.nodes)
    if (n.op == Op::kDepthwiseConv2d) {
      EXPECT_EQ(g.tensors[n.inputs[1]].shape[0], 1) << n.name;
      EXPECT_EQ(n.get_int("depth_multiplier", 0), 1) << n.name;
    }
}

TEST(Legalize, Lenet5OpSequence) {
  ir::Graph g = import_and_legalize(shared_model("lenet5_28.onnx"));
  expect_mote_graph(g);
  // The single-channel input needs no real transpose (a reshape); the NCHW flatten
  // before the classifier is absorbed into the first fully_connected's weights.
  EXPECT_EQ(op_sequence(g), Ops({"reshape", "conv2d", "clamp", "max_pool2d", "conv2d", "clamp",
                                 "max_pool2d", "reshape", "fully_connected", "clamp",
                                 "fully_connected", "clamp", "fully_connected"}));
  const ir::Node& conv = g.nodes[1];
  EXPECT_EQ(g.tensors[conv.inputs[1]].shape, Ints({6, 5, 5, 1}));  // OHWI
  EXPECT_EQ(conv.get_ints("pads"), Ints({2, 2, 2, 2}));
  EXPECT_EQ(g.tensors[g.nodes[8].inputs[1]].shape, Ints({120, 400}));
}

// The shared models against their PyTorch goldens (samples s0..s2, every one required).
TEST(Legalize, SharedModelsMatchGoldens) {
  for (const char* model : {"add_1x5", "linear_3x3", "linear_4x3", "softmax_1x4", "lenet5_28",
                            "mobilenet_v2_w005_96"}) {
    SCOPED_TRACE(model);
    ir::Graph g = import_and_legalize(shared_model(std::string(model) + ".onnx"));
    MoteInterpreter interpreter(g);
    for (int s = 0; s < 3; ++s) {
      const std::string prefix = shared_model(std::string(model) + ".s" + std::to_string(s));
      for (size_t i = 0; i < g.inputs.size(); ++i)
        ASSERT_TRUE(std::filesystem::exists(prefix + ".in" + std::to_string(i) + ".npy")) << prefix << " input " << i;
      ASSERT_TRUE(std::filesystem::exists(prefix + ".out0.npy")) << prefix;
      std::vector<Buffer> inputs;
      for (size_t i = 0; i < g.inputs.size(); ++i)
        inputs.push_back(to_buffer(load_npy(prefix + ".in" + std::to_string(i) + ".npy")));
      const std::vector<Buffer> outputs = interpreter.run(inputs);
      expect_close(outputs[0], load_npy(prefix + ".out0.npy"), 1e-4, prefix);
    }
  }
}

// ---- generated models: numbers and structure -------------------------------------------

TEST(Legalize, ConvBatchNormRelu) {
  ir::Graph g = check_numerics("conv_bn_relu");
  EXPECT_EQ(op_sequence(g), Ops({"transpose", "conv2d", "clamp", "transpose"}));
  EXPECT_EQ(g.nodes.back().get_ints("perm"), Ints({0, 3, 1, 2}));  // back to NCHW
  EXPECT_EQ(g.nodes.back().outputs[0], g.outputs[0]);
  EXPECT_EQ(count_ops(g, "BatchNormalization"), 0);
}

TEST(Legalize, StandaloneBatchNorm) {
  ir::Graph g = check_numerics("batchnorm_alone");
  EXPECT_EQ(op_sequence(g), Ops({"mul", "add"}));  // stays NCHW: nothing spatial
}

TEST(Legalize, MiniMobilenet) {
  ir::Graph g = check_numerics("mini_mobilenet");
  EXPECT_EQ(op_sequence(g), Ops({"transpose", "conv2d", "clamp", "depthwise_conv2d", "clamp", "conv2d",
                                 "add", "add", "mean", "reshape", "fully_connected"}));
  const ir::Node& dw = g.nodes[3];
  EXPECT_EQ(dw.get_int("depth_multiplier", 0), 2);
  EXPECT_EQ(g.tensors[dw.inputs[1]].shape, Ints({1, 3, 3, 8}));
  // The [4,1,1] NCHW channel bias broadcasts as [4] over NHWC.
  EXPECT_EQ(g.tensors[g.nodes[7].inputs[1]].shape, Ints({4}));
}

TEST(Legalize, LenetLikeFlattenAbsorbedIntoWeights) {
  ir::Graph g = check_numerics("lenet_like");
  EXPECT_EQ(count_ops(g, "transpose"), 0);
  EXPECT_EQ(op_sequence(g), Ops({"reshape", "conv2d", "clamp", "max_pool2d", "avg_pool2d", "reshape",
                                 "fully_connected"}));
  EXPECT_EQ(g.nodes[4].get_int("count_include_pad", -1), 1);
}

TEST(Legalize, SoftmaxOpset11FlattensTo2d) {
  ir::Graph g = check_numerics("softmax_axis1_opset11");
  EXPECT_EQ(op_sequence(g), Ops({"reshape", "softmax", "reshape"}));
  EXPECT_EQ(g.tensors[g.nodes[1].inputs[0]].shape, Ints({2, 12}));
}

TEST(Legalize, SoftmaxOpset13MovesAxisLast) {
  ir::Graph g = check_numerics("softmax_axis1_opset13");
  EXPECT_EQ(op_sequence(g), Ops({"transpose", "softmax", "transpose"}));
}

TEST(Legalize, SoftmaxOverChannelsRunsInNhwc) {
  ir::Graph g = check_numerics("softmax_channels");
  // Channel softmax is a last-axis softmax in NHWC; the model's own Transpose to NHWC
  // cancels against the layout, so softmax writes the output directly.
  EXPECT_EQ(op_sequence(g), Ops({"transpose", "conv2d", "softmax"}));
  EXPECT_EQ(g.nodes.back().outputs[0], g.outputs[0]);
}

TEST(Legalize, ModelTransposesCancel) {
  ir::Graph g = check_numerics("nhwc_model");
  ASSERT_EQ(op_sequence(g), Ops({"conv2d"}));
  EXPECT_EQ(g.nodes[0].inputs[0], g.inputs[0]);
  EXPECT_EQ(g.nodes[0].outputs[0], g.outputs[0]);
}

TEST(Legalize, ShapeSubgraph) {
  ir::Graph g = check_numerics("shape_subgraph");
  EXPECT_EQ(op_sequence(g), Ops({"reshape", "fully_connected"}));
}

TEST(Legalize, FoldStatic) {
  ir::Graph g = check_numerics("fold_static");
  EXPECT_EQ(op_sequence(g), Ops({"add", "sub"}));
}

TEST(Legalize, ConcatPadMeanInNhwc) {
  ir::Graph g = check_numerics("misc_ops");
  EXPECT_EQ(count_ops(g, "transpose"), 1);  // only the input
  const ir::Node* concat = onnx_test::find_node(g, "concat");
  ASSERT_NE(concat, nullptr);
  EXPECT_EQ(concat->op, Op::kConcat);
  EXPECT_EQ(concat->get_int("axis", -1), 3);  // NCHW channel axis 1 -> NHWC 3
  const ir::Node* pad = onnx_test::find_node(g, "pad");
  // NCHW pads [0,0,1,2, 0,0,2,1] -> NHWC [0,1,2,0, 0,2,1,0].
  EXPECT_EQ(pad->get_ints("pads"), Ints({0, 1, 2, 0, 0, 2, 1, 0}));
  const ir::Node* mean = onnx_test::find_node(g, "mean");
  EXPECT_EQ(mean->get_ints("axes"), Ints({1, 2}));
  EXPECT_EQ(mean->outputs[0], g.outputs[0]);  // squeeze/unsqueeze vanished
}

TEST(Legalize, SqueezeExciteBlock) {
  ir::Graph g = check_numerics("se_block");
  EXPECT_EQ(g.nodes.back().op, Op::kTranspose);  // 4-D output leaves NHWC
  EXPECT_EQ(count_ops(g, "transpose"), 2);
}

TEST(Legalize, GemmAndMatMulVariants) {
  ir::Graph g = check_numerics("gemm_variants");
  EXPECT_EQ(count_ops(g, "batch_matmul"), 1);
  EXPECT_EQ(count_ops(g, "fully_connected"), 2);
}

TEST(Legalize, GemmAlphaBetaFoldIntoWeightsAndBias) {
  ir::Graph g = check_numerics("gemm_bias");
  ASSERT_EQ(op_sequence(g), Ops({"fully_connected"}));
  const ir::Node& fc = g.nodes[0];
  ASSERT_EQ(fc.inputs.size(), 3u);
  const NpyArray w = load_npy(testdata("gemm_bias.weights.npy"));
  const NpyArray b = load_npy(testdata("gemm_bias.bias.npy"));
  EXPECT_EQ(g.tensors[fc.inputs[1]].shape, w.shape);
  EXPECT_EQ(onnx_test::floats_of(g.tensors[fc.inputs[1]]), w.data);
  EXPECT_EQ(onnx_test::floats_of(g.tensors[fc.inputs[2]]), b.data);
}

// MatMul + Add of a constant bias along the last axis only: one fully_connected with that
// bias; a constant broadcasting along other axes stays an add.
TEST(Legalize, LinearOn3dInputsTakesItsBiasIntoFullyConnected) {
  ir::Graph g = check_numerics("linear_bias_3d");
  EXPECT_EQ(op_sequence(g), Ops({"fully_connected", "fully_connected", "fully_connected", "add", "fully_connected"}));
  const std::vector<std::pair<const char*, std::vector<int64_t>>> fused = {
      {"matmul0", {5}}, {"matmul1", {3}}, {"matmul3", {2}}};
  for (const auto& [name, bias_shape] : fused) {
    const ir::Node* fc = onnx_test::find_node(g, name);
    ASSERT_NE(fc, nullptr) << name;
    ASSERT_EQ(fc->inputs.size(), 3u) << name;
    EXPECT_EQ(g.tensors[fc->inputs[2]].shape, bias_shape) << name;
    EXPECT_EQ(g.tensors[fc->outputs[0]].name, std::string("y") + name[6]) << name;
  }
  const std::vector<float> scalar_bias = onnx_test::floats_of(g.tensors[onnx_test::find_node(g, "matmul3")->inputs[2]]);
  EXPECT_EQ(scalar_bias[0], scalar_bias[1]);
  ASSERT_NE(onnx_test::find_node(g, "add2"), nullptr);
  EXPECT_EQ(onnx_test::find_node(g, "matmul2")->inputs.size(), 2u);
}

TEST(Legalize, Conv1dRunsAs2d) {
  ir::Graph g = check_numerics("conv1d");
  const ir::Node* conv = onnx_test::find_node(g, "conv1d");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->get_ints("dilations"), Ints({1, 2}));
  EXPECT_EQ(conv->get_ints("pads"), Ints({0, 1, 0, 1}));
  EXPECT_EQ(g.tensors[conv->inputs[1]].shape, Ints({3, 1, 3, 2}));
}

TEST(Legalize, Opset11Ops) {
  ir::Graph g = check_numerics("opset11_ops");
  EXPECT_EQ(op_sequence(g), Ops({"pad", "mean", "clamp"}));
}

TEST(Legalize, AutoPadSame) { check_numerics("auto_pad_same"); }

TEST(Legalize, PiecewiseLinearActivationsAndPadIntoConv) {
  ir::Graph g = check_numerics("activations");
  EXPECT_EQ(count_ops(g, "pad"), 0);  // the zero Pad became the Conv's padding
  const ir::Node* conv = onnx_test::find_node(g, "conv_after_pad");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->get_ints("pads"), Ints({2, 1, 1, 1}));
  EXPECT_EQ(count_ops(g, "transpose"), 2);  // input and output only
  // The PRelu slope [3,1,1] broadcasts over NHWC as [3].
  const ir::Node* slope = onnx_test::find_node(g, "prelu/slope");
  ASSERT_NE(slope, nullptr);
  EXPECT_EQ(g.tensors[slope->inputs[1]].shape, Ints({3}));
}

// ---- normalizations ---------------------------------------------------------------------

TEST(Legalize, LayerNormalizationAxesAndBias) {
  struct Case {
    const char* model;
    int64_t axis;
    bool bias;
  };
  for (const Case& c : {Case{"layernorm_last", 2, true}, Case{"layernorm_axis1", 1, false},
                        Case{"layernorm_axis2_rank4", 2, true}}) {
    ir::Graph g = check_numerics(c.model);
    ASSERT_EQ(op_sequence(g), Ops({"layer_norm"})) << c.model;
    const ir::Node& ln = g.nodes[0];
    EXPECT_EQ(ln.get_int("axis", -1), c.axis) << c.model;
    EXPECT_EQ(ln.inputs.size(), c.bias ? 3u : 2u) << c.model;
  }
}

// A computed scale or bias is a mul / add after layer_norm (numpy broadcast); a constant
// one stays in it. A scale given as a model input too.
TEST(Legalize, LayerNormalizationWithComputedScaleAndBias) {
  ir::Graph g = check_numerics("layer_norm_computed_params");
  const ir::Node* last = onnx_test::find_node(g, "ln_last");
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last->inputs.size(), 2u);  // constant ones, no bias
  ASSERT_NE(onnx_test::find_node(g, "ln_last/scale"), nullptr);
  EXPECT_EQ(onnx_test::find_node(g, "ln_last/scale")->op, Op::kMul);
  EXPECT_EQ(onnx_test::find_node(g, "ln_last/bias")->op, Op::kAdd);
  const ir::Node* axis1 = onnx_test::find_node(g, "ln_axis1");
  ASSERT_NE(axis1, nullptr);
  EXPECT_EQ(axis1->inputs.size(), 2u);  // the constant scale; the bias added after
  EXPECT_EQ(onnx_test::find_node(g, "ln_axis1/scale"), nullptr);
  EXPECT_EQ(onnx_test::find_node(g, "ln_axis1/bias")->op, Op::kAdd);
  const ir::Graph v = import_and_legalize(testdata("layernorm_variable_scale.onnx"));
  EXPECT_EQ(op_sequence(v), Ops({"layer_norm", "mul"}));
}

TEST(Legalize, Opset13LayerNormPatternFuses) {
  // Gamma [16] and beta [1,1,16] (the Add's first operand) absorbed; Casts gone.
  ir::Graph g = check_numerics("layernorm_pattern13");
  ASSERT_EQ(op_sequence(g), Ops({"layer_norm"}));
  EXPECT_EQ(g.nodes[0].get_int("axis", -1), 2);
  EXPECT_NEAR(g.nodes[0].get_float("epsilon", 0), 1e-5, 1e-12);
  ASSERT_EQ(g.nodes[0].inputs.size(), 3u);
  EXPECT_EQ(g.tensors[g.nodes[0].inputs[2]].shape, Ints({16}));
  // torch.rsqrt's form: Mul(Div(1, Sqrt(.)), d).
  g = check_numerics("layernorm_pattern_rsqrt");
  EXPECT_EQ(op_sequence(g), Ops({"layer_norm"}));
  // torch var()'s form over the last two axes: a second mean, the square as Mul.
  g = check_numerics("layernorm_pattern_var");
  EXPECT_EQ(op_sequence(g), Ops({"layer_norm", "clamp"}));
  EXPECT_EQ(g.nodes[0].get_int("axis", -1), 2);
}

TEST(Legalize, InstanceNormalizationRunsChannelsLast) {
  ir::Graph g = check_numerics("instancenorm_2d");
  EXPECT_EQ(op_sequence(g), Ops({"transpose", "group_norm", "transpose"}));
  const ir::Node* in = onnx_test::find_node(g, "in");
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->get_int("groups", 0), 3);
  EXPECT_EQ(g.tensors[in->inputs[0]].shape, Ints({2, 4, 5, 3}));
  EXPECT_NEAR(in->get_float("epsilon", 0), 1e-3, 1e-10);
  g = check_numerics("instancenorm_1d");
  EXPECT_EQ(count_ops(g, "group_norm"), 1);
}

TEST(Legalize, GroupNormPatternFusesAfterConv) {
  // Reshape -> InstanceNormalization(ones, zeros) -> Reshape -> Mul -> Add: one group_norm
  // on the conv's NHWC output, gamma and beta per channel.
  ir::Graph g = check_numerics("groupnorm_pattern");
  EXPECT_EQ(op_sequence(g), Ops({"transpose", "conv2d", "group_norm", "transpose"}));
  const ir::Node* gn = onnx_test::find_node(g, "gn");
  ASSERT_NE(gn, nullptr);
  EXPECT_EQ(gn->get_int("groups", 0), 4);
  EXPECT_EQ(g.tensors[gn->inputs[1]].shape, Ints({8}));
}

TEST(Legalize, ChannelsLastLayerNormReadsNhwcDirectly) {
  // Transpose to NHWC, LayerNormalization over C, Transpose back, between convs: the
  // transposes cancel against the NHWC layout, the norm reads the conv's output.
  ir::Graph g = check_numerics("layernorm_channels_last");
  EXPECT_EQ(op_sequence(g), Ops({"transpose", "conv2d", "layer_norm", "conv2d", "transpose"}));
}

TEST(Legalize, UnfusedGroupChainRunsInstanceNormOnGroups) {
  // The instance norm's scale is not ones: nothing fuses, group_norm runs on [N, M, G].
  ir::Graph g = check_numerics("groupnorm_unfused");
  const ir::Node* in = onnx_test::find_node(g, "in");
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->op, Op::kGroupNorm);
  EXPECT_EQ(in->get_int("groups", 0), 2);
  EXPECT_EQ(g.tensors[in->inputs[0]].shape, Ints({1, 18, 2}));
}

// ---- errors ----------------------------------------------------------------------------

TEST(LegalizeErrors, NormalizationRefusals) {
  EXPECT_EQ(error_of([] { import_and_legalize(testdata("instancenorm_3d.onnx")); }),
            testdata("instancenorm_3d.onnx") +
                ": node 'in' (InstanceNormalization): input rank 5 not supported (1-D and 2-D only)");
  EXPECT_EQ(error_of([] { import_and_legalize(testdata("instancenorm_variable_scale.onnx")); }),
            testdata("instancenorm_variable_scale.onnx") +
                ": node 'in' (InstanceNormalization): non-constant scale not supported");
}

TEST(LegalizeErrors, NonConstantWeights) {
  EXPECT_EQ(error_of([] { import_and_legalize(testdata("variable_weights.onnx")); }),
            testdata("variable_weights.onnx") + ": node 'conv' (Conv): non-constant weights not supported");
}

TEST(LegalizeErrors, NonConstantClipBound) {
  EXPECT_EQ(error_of([] { import_and_legalize(testdata("clip_variable_bound.onnx")); }),
            testdata("clip_variable_bound.onnx") + ": node 'clip' (Clip): input 'min' must be a constant scalar");
}

// Gather(table, ids) with ids a model input: an embedding lookup.
onnx_import::SourceGraph lookup_graph(DType index_dtype) {
  onnx_import::SourceGraph g;
  g.name = "m";
  ir::Tensor data;
  data.name = "table";
  data.shape = {4, 2};
  ir::Tensor idx;
  idx.name = "idx";
  idx.dtype = index_dtype;
  idx.shape = {1, 3};
  ir::Tensor out;
  out.name = "rows";
  out.shape = {1, 3, 2};
  g.inputs = {g.add_tensor(data), g.add_tensor(idx)};
  g.outputs = {g.add_tensor(out)};
  onnx_import::SourceNode gather;
  gather.name = "lookup";
  gather.op = "Gather";
  gather.inputs = g.inputs;
  gather.outputs = g.outputs;
  gather.attrs["axis"] = int64_t{0};
  g.nodes.push_back(gather);
  return g;
}

TEST(Legalize, GatherAtComputedIndicesReadsThemAsTheyAre) {
  for (DType dtype : {DType::kInt64, DType::kInt32}) {
    const ir::Graph g = onnx_import::legalize(lookup_graph(dtype));
    ASSERT_EQ(g.nodes.size(), 1u);
    const ir::Node& n = g.nodes[0];
    EXPECT_EQ(n.op, ir::Op::kGather);
    ASSERT_EQ(n.inputs.size(), 2u);
    EXPECT_EQ(g.tensors[n.inputs[0]].name, "table");
    EXPECT_EQ(g.tensors[n.inputs[1]].name, "idx");
    EXPECT_EQ(g.tensors[n.inputs[1]].dtype, dtype);
    EXPECT_EQ(g.tensors[n.outputs[0]].name, "rows");
    EXPECT_EQ(n.get_int("axis", -1), 0);
    EXPECT_EQ(n.get_int("batch_dims", -1), 0);
    EXPECT_EQ(n.get_int("negative_from_end", -1), 1);
  }
  EXPECT_EQ(error_of([&] { onnx_import::legalize(lookup_graph(DType::kInt16)); }),
            "m: node 'lookup' (Gather): indices dtype int16 not supported (int32 or int64)");
}

}  // namespace
}  // namespace mote
