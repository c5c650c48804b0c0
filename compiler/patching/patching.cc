#include "patching/patching.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "common/error.h"
#include "window_geometry.h"

namespace mote::patching {
namespace {

// Rows [y0, y1) and columns [x0, x1) of an NHWC tensor.
struct Region {
  int64_t y0 = 0, y1 = 0, x0 = 0, x1 = 0;
  int64_t height() const { return y1 - y0; }
  int64_t width() const { return x1 - x0; }
  bool empty() const { return y1 <= y0 || x1 <= x0; }
  bool operator==(const Region&) const = default;
  auto key() const { return std::make_tuple(y0, y1, x0, x1); }
};

Region unite(const Region& a, const Region& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return {std::min(a.y0, b.y0), std::max(a.y1, b.y1), std::min(a.x0, b.x0), std::max(a.x1, b.x1)};
}

// How an op runs on a tile of its NHWC output (ops.inc's tiling column).
using ir::Tiling;
Tiling tiling(ir::Op op) { return ir::op_traits(op).tiling; }

bool is_spatial(ir::Op op) {
  const Tiling t = tiling(op);
  return t == Tiling::kPoolWindow || t == Tiling::kFilterWindow;
}
// NCHW -> NHWC, as legalization puts it after a channels-first model input.
bool is_to_channels_last(const ir::Node& node) {
  return node.op == ir::Op::kTranspose && node.get_ints("perm") == std::vector<int64_t>{0, 2, 3, 1};
}

// A spatial op's sliding window over its input 0.
struct Window {
  int64_t kernel[2] = {1, 1};
  int64_t stride[2] = {1, 1};
  int64_t dilation[2] = {1, 1};
  int64_t pad_before[2] = {0, 0};  // top, left
  int64_t pad_after[2] = {0, 0};   // bottom, right
  int64_t extent(int axis) const { return dilation[axis] * (kernel[axis] - 1) + 1; }
};

// The window of a spatial node, or "" in *problem when its attributes do not describe one.
Window window_of(const ir::Graph& graph, const ir::Node& node, std::string* problem) {
  Window w;
  const std::vector<int64_t> strides = node.get_ints("strides", {1, 1});
  const std::vector<int64_t> dilations = node.get_ints("dilations", {1, 1});
  const std::vector<int64_t> pads = node.get_ints("pads", {0, 0, 0, 0});
  std::vector<int64_t> kernel;
  if (tiling(node.op) == Tiling::kPoolWindow) {
    kernel = node.get_ints("kernel");
  } else if (node.inputs.size() >= 2 && node.inputs[1] != ir::kNoTensor &&
             graph.tensors[node.inputs[1]].shape.size() == 4) {
    const ir::Shape& filter = graph.tensors[node.inputs[1]].shape;
    kernel = {filter[1], filter[2]};
  }
  if (kernel.size() != 2 || strides.size() != 2 || dilations.size() != 2 || pads.size() != 4) {
    *problem = "its kernel, strides, dilations or pads are not 2-D";
    return w;
  }
  for (int a = 0; a < 2; ++a) {
    w.kernel[a] = kernel[a];
    w.stride[a] = strides[a];
    w.dilation[a] = dilations[a];
    w.pad_before[a] = pads[a];
    w.pad_after[a] = pads[a + 2];
    if (w.kernel[a] < 1 || w.stride[a] < 1 || w.dilation[a] < 1 || w.pad_before[a] < 0 || w.pad_after[a] < 0) {
      *problem = "its kernel, strides, dilations or pads are out of range";
    }
  }
  return w;
}

// The input region a spatial op reads to produce output region `out` of an input with
// `size` rows and columns (padding excluded).
Region window_input(const Window& w, const Region& out, const int64_t size[2]) {
  const int64_t o0[2] = {out.y0, out.x0}, o1[2] = {out.y1, out.x1};
  int64_t i0[2], i1[2];
  for (int a = 0; a < 2; ++a) {
    i0[a] = std::max<int64_t>(0, o0[a] * w.stride[a] - w.pad_before[a]);
    i1[a] = std::min<int64_t>(size[a], (o1[a] - 1) * w.stride[a] - w.pad_before[a] + w.extent(a));
  }
  return {i0[0], i1[0], i0[1], i1[1]};
}

std::string node_label(const ir::Node& node) {
  return "node '" + node.name + "' (" + ir::op_name(node.op) + ")";
}

// A constant operand of an elementwise op may be broadcast over the tile only if it is
// the same for every row and column: right-aligned to [N,H,W,C], its H and W are 1.
bool constant_ignores_rows_and_columns(const ir::Tensor& t) {
  const size_t rank = t.shape.size();
  if (rank > 4) return false;
  for (size_t i = 0; i < rank; ++i) {
    const size_t axis = 4 - rank + i;
    if ((axis == 1 || axis == 2) && t.shape[i] != 1) return false;
  }
  return true;
}

}  // namespace

std::string node_problem(const ir::Graph& graph, size_t k) {
  const ir::Node& node = graph.nodes[k];
  const std::string label = node_label(node);
  if (k < graph.init_nodes) return label + " runs once, on the first run (an init node)";
  if (node.outputs.size() != 1) return label + " has " + std::to_string(node.outputs.size()) + " outputs";
  const ir::Tensor& out = graph.tensors[node.outputs[0]];
  if (out.is_persistent) return label + " writes state ('" + out.name + "')";
  if (out.shape.size() != 4) return label + ": output '" + out.name + "' is not 4-D (NHWC)";
  if (out.quant.axis >= 0 && out.quant.axis != 3) return label + ": output '" + out.name + "' is quantized per row or column";
  if (is_to_channels_last(node)) {
    const int id = node.inputs.empty() ? ir::kNoTensor : node.inputs[0];
    if (node.inputs.size() != 1 || id == ir::kNoTensor || graph.tensors[id].is_constant) return label + " reads no activation";
    const ir::Tensor& in = graph.tensors[id];
    if (in.shape.size() != 4) return label + ": input '" + in.name + "' is not 4-D (NCHW)";
    if (in.quant.axis >= 0 || out.quant.axis >= 0) return label + ": per-channel quantized activations";
    return "";
  }
  if (tiling(node.op) == Tiling::kNone) return label + " does not run on tiles";
  const bool spatial = is_spatial(node.op);
  int activations = 0;
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    const int id = node.inputs[i];
    if (id == ir::kNoTensor) continue;
    const ir::Tensor& t = graph.tensors[id];
    if (t.is_constant) {
      if (spatial) {
        if (i == 0) return label + ": its input is a constant";
        continue;  // filter, bias
      }
      if (!constant_ignores_rows_and_columns(t)) return label + ": constant '" + t.name + "' varies over rows or columns";
      continue;
    }
    ++activations;
    if (t.shape.size() != 4) return label + ": input '" + t.name + "' is not 4-D (NHWC)";
    if (t.quant.axis >= 0 && t.quant.axis != 3) return label + ": input '" + t.name + "' is quantized per row or column";
    if (spatial) {
      if (i != 0) return label + ": input " + std::to_string(i) + " is not a constant";
      if (t.shape[0] != out.shape[0]) return label + ": input and output batch differ";
    } else if (t.shape != out.shape) {
      return label + ": input '" + t.name + "' is broadcast to the output";
    }
  }
  if (activations == 0) return label + " reads no activation";
  if (spatial) {
    std::string problem;
    const Window w = window_of(graph, node, &problem);
    if (!problem.empty()) return label + ": " + problem;
    const ir::Tensor& in = graph.tensors[node.inputs[0]];
    for (int a = 0; a < 2; ++a) {
      // The output size must be the floor formula's: a ceil-mode pool's last window may
      // reach past the padding, which a tile cannot reproduce.
      const int64_t floor_size = window_output_size(in.shape[1 + a], w.kernel[a], w.stride[a], w.dilation[a],
                                                    w.pad_before[a], w.pad_after[a], false);
      if (floor_size == 0 || floor_size != out.shape[1 + a]) {
        return label + ": output size is not floor((in + pads - extent) / stride) + 1";
      }
    }
  }
  return "";
}

namespace {

struct StageIo {
  int input = -1;
  int output = -1;
};

// The stage's one external activation input and one exit, or "" in *problem.
StageIo stage_io(const ir::Graph& graph, size_t first, size_t end, std::string* problem) {
  std::set<int> produced, external, exits;
  for (size_t k = first; k < end; ++k) {
    for (int id : graph.nodes[k].inputs) {
      if (id == ir::kNoTensor || graph.tensors[id].is_constant || produced.count(id)) continue;
      external.insert(id);
    }
    for (int id : graph.nodes[k].outputs) produced.insert(id);
  }
  for (int id : produced) {
    bool leaves = graph.is_graph_output(id);
    for (size_t k = end; k < graph.nodes.size() && !leaves; ++k) {
      for (int in : graph.nodes[k].inputs) leaves = leaves || in == id;
    }
    if (leaves) exits.insert(id);
  }
  StageIo io;
  if (external.size() != 1) {
    *problem = "the stage reads " + std::to_string(external.size()) + " activations from outside (1 allowed)";
  } else if (exits.size() != 1) {
    *problem = "the stage leaves " + std::to_string(exits.size()) + " activations behind (1 allowed)";
  } else {
    io.input = *external.begin();
    io.output = *exits.begin();
  }
  return io;
}

// Which stage tensors are channels-first (NCHW): the inputs of a to-channels-last
// transpose and of elementwise ops on them; the rest are NHWC. "" in *problem unless the
// layouts agree (a tensor read in both, a spatial op on NCHW, a constant that would
// broadcast over a channels-first tensor, per-channel NCHW quantization).
std::map<int, bool> stage_layouts(const ir::Graph& graph, size_t first, size_t end, int output, std::string* problem) {
  std::map<int, bool> nchw;
  nchw[output] = false;
  for (size_t k = end; k-- > first && problem->empty();) {
    const ir::Node& node = graph.nodes[k];
    auto it = nchw.find(node.outputs[0]);
    if (it == nchw.end()) continue;
    const bool out_nchw = it->second;
    if ((is_to_channels_last(node) || is_spatial(node.op)) && out_nchw) {
      *problem = node_label(node) + ": its output is read channels-first";
      break;
    }
    const bool in_nchw = is_to_channels_last(node) || (!is_spatial(node.op) && out_nchw);
    for (int t : node.inputs) {
      if (t == ir::kNoTensor) continue;
      const ir::Tensor& tensor = graph.tensors[t];
      if (tensor.is_constant) {
        if (in_nchw && !is_spatial(node.op) && tensor.elements() != 1) {
          *problem = node_label(node) + ": constant '" + tensor.name + "' broadcasts over a channels-first tensor";
        }
        continue;
      }
      auto [slot, added] = nchw.emplace(t, in_nchw);
      if (!added && slot->second != in_nchw) *problem = "tensor '" + tensor.name + "' is read both channels-first and channels-last";
      if (in_nchw && tensor.quant.axis >= 0) *problem = "tensor '" + tensor.name + "' is quantized per channel channels-first";
    }
  }
  return nchw;
}

// The region of activation input `t` that node needs for output region `out`.
Region input_need(const ir::Graph& graph, const ir::Node& node, int t, const Region& out) {
  if (!is_spatial(node.op)) return out;
  std::string unused;
  const Window w = window_of(graph, node, &unused);
  const ir::Tensor& in = graph.tensors[t];
  const int64_t size[2] = {in.shape[1], in.shape[2]};
  return window_input(w, out, size);
}

std::string tile_tag(int row, int col) {
  return " [tile " + std::to_string(row) + "," + std::to_string(col) + "]";
}

// Walking the stage backwards from `tile`, a region of its output: the region of every
// stage tensor but the stage input that the tile needs. `where` names the tile for the
// error thrown when it would read padding only.
std::map<int, Region> tile_regions(const ir::Graph& graph, const Stage& stage, const StageIo& io, const Region& tile,
                                   const std::string& where) {
  std::map<int, Region> region;
  region[io.output] = tile;
  for (size_t k = stage.end; k-- > stage.first;) {
    const ir::Node& node = graph.nodes[k];
    auto it = region.find(node.outputs[0]);
    if (it == region.end()) continue;  // this tile needs nothing of it
    for (int t : node.inputs) {
      if (t == ir::kNoTensor || graph.tensors[t].is_constant) continue;
      const Region need = input_need(graph, node, t, it->second);
      if (need.empty()) throw CompileError(where + " of " + node_label(node) + " reads only padding");
      if (t != io.input) region[t] = unite(region[t], need);
    }
  }
  return region;
}

// A spatial node's pads on a tile that produces region `out` from region `read` of its
// input: padding where the region touches the tensor's border, none inside; after padding
// to keep the output count (the window's last rows in the padding).
std::vector<int64_t> tile_pads(const ir::Graph& graph, const ir::Node& node, const Region& out, const Region& read) {
  std::string problem_unused;
  const Window w = window_of(graph, node, &problem_unused);
  const int64_t out0[2] = {out.y0, out.x0}, out_size[2] = {out.height(), out.width()};
  const int64_t read0[2] = {read.y0, read.x0}, read_size[2] = {read.height(), read.width()};
  int64_t before[2], after[2];
  for (int a = 0; a < 2; ++a) {
    before[a] = read0[a] + w.pad_before[a] - out0[a] * w.stride[a];
    after[a] = std::max<int64_t>(0, (out_size[a] - 1) * w.stride[a] + w.extent(a) - read_size[a] - before[a]);
  }
  return {before[0], before[1], after[0], after[1]};
}

}  // namespace

std::string stage_problem(const ir::Graph& graph, size_t first, size_t end) {
  if (first >= end || end > graph.nodes.size()) return "the stage holds no nodes";
  for (size_t k = first; k < end; ++k) {
    std::string problem = node_problem(graph, k);
    if (!problem.empty()) return problem;
  }
  std::string problem;
  const StageIo io = stage_io(graph, first, end, &problem);
  if (problem.empty()) stage_layouts(graph, first, end, io.output, &problem);
  return problem;
}

namespace {

std::string stage_where(const ir::Graph& graph, const Stage& stage) {
  return stage.first < stage.end && stage.end <= graph.nodes.size()
             ? "patching nodes '" + graph.nodes[stage.first].name + "' to '" + graph.nodes[stage.end - 1].name + "'"
             : "patching";
}

// The stage's input and output after the checks patch_stage makes before building
// anything (a patchable stage, a grid that splits the output); throws CompileError.
StageIo checked_stage_io(const ir::Graph& graph, const Stage& stage, const std::string& where) {
  const std::string problem = stage_problem(graph, stage.first, stage.end);
  if (!problem.empty()) throw CompileError(where + ": " + problem);
  std::string unused;
  const StageIo io = stage_io(graph, stage.first, stage.end, &unused);
  const ir::Tensor& stage_out = graph.tensors[io.output];
  const int64_t height = stage_out.shape[1], width = stage_out.shape[2];
  if (stage.rows < 1 || stage.cols < 1 || stage.rows > height || stage.cols > width ||
      (stage.rows == 1 && stage.cols == 1)) {
    throw CompileError(where + ": a " + std::to_string(stage.rows) + "x" + std::to_string(stage.cols) +
                       " grid does not split the " + std::to_string(height) + "x" + std::to_string(width) +
                       " output '" + stage_out.name + "' into tiles");
  }
  return io;
}

// Tile (row, col) of an output of `height` x `width` cut into stage.rows x stage.cols.
Region tile_of(const Stage& stage, int64_t height, int64_t width, int row, int col) {
  return {height * row / stage.rows, height * (row + 1) / stage.rows, width * col / stage.cols,
          width * (col + 1) / stage.cols};
}

}  // namespace

uint64_t conv_macs(const ir::Graph& graph, const ir::Node& node, int64_t output_elements) {
  if ((node.op != ir::Op::kConv2d && node.op != ir::Op::kDepthwiseConv2d) || node.inputs.size() < 2) return 0;
  const ir::Shape& filter = graph.tensors[node.inputs[1]].shape;
  if (filter.size() != 4) return 0;
  const int64_t taps = filter[1] * filter[2];
  const int64_t depth = node.op == ir::Op::kConv2d ? filter[3] : 1;
  return static_cast<uint64_t>(output_elements * taps * depth);
}

uint64_t tile_conv_macs(const ir::Graph& graph, const Stage& stage) {
  const std::string where = stage_where(graph, stage);
  const StageIo io = checked_stage_io(graph, stage, where);
  const ir::Shape& out_shape = graph.tensors[io.output].shape;
  uint64_t macs = 0;
  for (int row = 0; row < stage.rows; ++row) {
    for (int col = 0; col < stage.cols; ++col) {
      const std::map<int, Region> region =
          tile_regions(graph, stage, io, tile_of(stage, out_shape[1], out_shape[2], row, col),
                       where + ": tile " + std::to_string(row) + "," + std::to_string(col));
      for (size_t k = stage.first; k < stage.end; ++k) {
        const ir::Node& node = graph.nodes[k];
        auto it = region.find(node.outputs[0]);
        if (it == region.end()) continue;
        const ir::Shape& shape = graph.tensors[node.outputs[0]].shape;  // NHWC: spatial ops are never channels-first
        macs += conv_macs(graph, node, shape[0] * it->second.height() * it->second.width() * shape[3]);
      }
    }
  }
  return macs;
}

ir::Graph patch_stage(const ir::Graph& graph, const Stage& stage) {
  const std::string where = stage_where(graph, stage);
  const StageIo io = checked_stage_io(graph, stage, where);
  std::string unused;
  const ir::Tensor stage_out = graph.tensors[io.output];
  const int64_t height = stage_out.shape[1], width = stage_out.shape[2];

  const std::map<int, bool> nchw = stage_layouts(graph, stage.first, stage.end, io.output, &unused);
  auto channels_first = [&](int t) {
    auto it = nchw.find(t);
    return it != nchw.end() && it->second;
  };
  // The rows and columns axes of a stage tensor.
  auto row_axis = [&](int t) { return channels_first(t) ? 2 : 1; };
  auto whole = [&](int t) {
    const ir::Shape& s = graph.tensors[t].shape;
    return Region{0, s[row_axis(t)], 0, s[row_axis(t) + 1]};
  };

  ir::Graph g = graph;
  g.nodes.assign(graph.nodes.begin(), graph.nodes.begin() + static_cast<std::ptrdiff_t>(stage.first));
  auto add_like = [&](int like, const Region& r, const std::string& name) {
    ir::Tensor t = graph.tensors[like];
    t.name = name;
    t.shape[row_axis(like)] = r.height();
    t.shape[row_axis(like) + 1] = r.width();
    t.data.clear();
    return g.add_tensor(std::move(t));
  };

  std::vector<int> strips;
  for (int row = 0; row < stage.rows; ++row) {
    std::vector<int> tiles;
    for (int col = 0; col < stage.cols; ++col) {
      const std::string tag = tile_tag(row, col);
      const Region tile = tile_of(stage, height, width, row, col);
      const std::map<int, Region> region = tile_regions(graph, stage, io, tile, where + ": tile " +
                                                        std::to_string(row) + "," + std::to_string(col));
      // Forwards: the stage's nodes on those regions.
      std::map<int, int> local;  // stage tensor -> its tile tensor
      std::map<std::tuple<int, int64_t, int64_t, int64_t, int64_t>, int> crops;
      auto source = [&](int t, const Region& need) {
        const ir::Tensor& full = graph.tensors[t];
        const Region provided = t == io.input ? whole(t) : region.at(t);
        const int base = t == io.input ? t : local.at(t);
        if (provided == need) return base;
        const auto key = std::tuple_cat(std::make_tuple(t), need.key());
        if (auto found = crops.find(key); found != crops.end()) return found->second;
        const int crop = add_like(t, need, full.name + tag + " rows " + std::to_string(need.y0) + ":" +
                                               std::to_string(need.y1) + " cols " + std::to_string(need.x0) +
                                               ":" + std::to_string(need.x1));
        ir::Node slice;
        slice.name = full.name + tag + " crop";
        slice.op = ir::Op::kStridedSlice;
        slice.inputs = {base};
        slice.outputs = {crop};
        std::vector<int64_t> begin(4, 0), sizes = full.shape;
        const int axis = row_axis(t);
        begin[axis] = need.y0 - provided.y0;
        begin[axis + 1] = need.x0 - provided.x0;
        sizes[axis] = need.height();
        sizes[axis + 1] = need.width();
        slice.attrs["begin"] = begin;
        slice.attrs["strides"] = std::vector<int64_t>{1, 1, 1, 1};
        slice.attrs["sizes"] = sizes;
        g.nodes.push_back(std::move(slice));
        crops[key] = crop;
        return crop;
      };
      for (size_t k = stage.first; k < stage.end; ++k) {
        const ir::Node& node = graph.nodes[k];
        auto it = region.find(node.outputs[0]);
        if (it == region.end()) continue;
        const Region out = it->second;
        ir::Node n = node;
        n.name += tag;
        Region read;
        for (int& t : n.inputs) {
          if (t == ir::kNoTensor || graph.tensors[t].is_constant) continue;
          read = input_need(graph, node, t, out);
          t = source(t, read);
        }
        if (is_spatial(node.op)) n.attrs["pads"] = tile_pads(graph, node, out, read);
        const int produced = add_like(node.outputs[0], out, graph.tensors[node.outputs[0]].name + tag);
        n.outputs = {produced};
        local[node.outputs[0]] = produced;
        g.nodes.push_back(std::move(n));
      }
      tiles.push_back(local.at(io.output));
    }
    // Join the row's tiles along the width (the last row join makes the stage output
    // itself when there is one row of tiles).
    if (stage.cols == 1) {
      strips.push_back(tiles[0]);
      continue;
    }
    const Region strip{height * row / stage.rows, height * (row + 1) / stage.rows, 0, width};
    const int joined = stage.rows == 1 ? io.output : add_like(io.output, strip, stage_out.name + " [row " + std::to_string(row) + "]");
    ir::Node concat;
    concat.name = stage_out.name + " [row " + std::to_string(row) + " join]";
    concat.op = ir::Op::kConcat;
    concat.inputs = tiles;
    concat.outputs = {joined};
    concat.attrs["axis"] = int64_t{2};
    g.nodes.push_back(std::move(concat));
    strips.push_back(joined);
  }
  if (stage.rows > 1) {
    ir::Node concat;
    concat.name = stage_out.name + " [join]";
    concat.op = ir::Op::kConcat;
    concat.inputs = strips;
    concat.outputs = {io.output};
    concat.attrs["axis"] = int64_t{1};
    g.nodes.push_back(std::move(concat));
  }
  g.nodes.insert(g.nodes.end(), graph.nodes.begin() + static_cast<std::ptrdiff_t>(stage.end), graph.nodes.end());
  g.remove_dead();
  return g;
}

}  // namespace mote::patching
