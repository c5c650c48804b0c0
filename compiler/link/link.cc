#include "link/link.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "emit/program_writer.h"
#include "kernel_registry.h"
#include "link/control_flow.h"
#include "lower/node_lowering.h"
#include "planner/in_place_links.h"

namespace mote::link {
namespace {

using ir::shape_string;

std::string graph_label(const ir::Graph& graph) {
  return graph.name.empty() ? std::string("model") : "model '" + graph.name + "'";
}

// The graph has outputs, and its inputs and outputs are tensors it holds; no input is a
// constant.
void check_graph_io(const ir::Graph& graph) {
  auto valid_id = [&](int id) { return id >= 0 && static_cast<size_t>(id) < graph.tensors.size(); };
  if (graph.outputs.empty()) throw CompileError(graph_label(graph) + ": the graph has no outputs");
  for (int id : graph.inputs) {
    if (!valid_id(id)) throw CompileError(graph_label(graph) + ": graph input id " + std::to_string(id) + " does not exist");
    if (graph.tensors[id].is_constant) {
      throw CompileError(graph_label(graph) + ": graph input '" + graph.tensors[id].name + "' is a constant");
    }
  }
  for (int id : graph.outputs)
    if (!valid_id(id)) throw CompileError(graph_label(graph) + ": graph output id " + std::to_string(id) + " does not exist");
}

// Graph inputs and outputs must be arena tensors the op list writes: an output that is a
// constant, a graph input, or already listed as an earlier output gets its own copy.
void insert_output_copies(ir::Graph& graph) {
  std::set<int> seen;
  for (size_t i = 0; i < graph.outputs.size(); ++i) {
    const int id = graph.outputs[i];
    const bool is_input = std::find(graph.inputs.begin(), graph.inputs.end(), id) != graph.inputs.end();
    const bool needs_copy = graph.tensors[id].is_constant || is_input || seen.count(id) != 0;
    seen.insert(id);
    if (!needs_copy) continue;
    ir::Tensor copy;
    copy.name = graph.tensors[id].name;
    copy.dtype = graph.tensors[id].dtype;
    copy.shape = graph.tensors[id].shape;
    copy.quant = graph.tensors[id].quant;
    const int copy_id = graph.add_tensor(std::move(copy));
    ir::Node node;
    node.name = graph.tensors[id].name + "/output_copy";
    node.op = ir::Op::kCopy;
    node.inputs = {id};
    node.outputs = {copy_id};
    graph.nodes.push_back(std::move(node));
    graph.outputs[i] = copy_id;
  }
}

// TFLite "hybrid" ops (float activations, int8 constant weights with quantization, e.g.
// the conv2d filters of kws_ref_model_float32): the float kernels run on the weights
// dequantized once here, real = scale * (q - zero_point), per tensor or per channel.
// (TFLite's hybrid kernels quantize the activations at run time instead, so results agree
// to float tolerance, not bit for bit.) Only constants that every reader uses on the float
// path are converted.
void dequantize_hybrid_weights(ir::Graph& graph) {
  for (size_t id = 0; id < graph.tensors.size(); ++id) {
    const ir::Tensor& t = graph.tensors[id];
    if (!t.is_constant || t.dtype != DType::kInt8 || t.quant.empty()) continue;
    const std::vector<int> readers = graph.consumers(static_cast<int>(id));
    if (readers.empty()) continue;
    bool float_readers = true;
    for (int k : readers) float_readers = float_readers && !lower::is_quantized_node(graph, graph.nodes[k]);
    if (!float_readers) continue;
    const ir::QuantParams& q = t.quant;
    const bool per_channel = q.scales.size() > 1;
    if (q.zero_points.size() != q.scales.size() ||
        (per_channel && (q.axis < 0 || static_cast<size_t>(q.axis) >= t.shape.size() ||
                         t.shape[q.axis] != static_cast<int64_t>(q.scales.size())))) {
      throw CompileError("constant '" + t.name + "': quantization parameters do not match its shape " +
                         shape_string(t.shape));
    }
    int64_t inner = 1;
    if (per_channel)
      for (size_t d = static_cast<size_t>(q.axis) + 1; d < t.shape.size(); ++d) inner *= t.shape[d];
    const int64_t n = t.elements();
    std::vector<uint8_t> data(static_cast<size_t>(n) * sizeof(float));
    for (int64_t i = 0; i < n; ++i) {
      const size_t c = per_channel ? static_cast<size_t>((i / inner) % t.shape[q.axis]) : 0;
      const float real = q.scales[c] * static_cast<float>(static_cast<int32_t>(t.as<int8_t>()[i]) - q.zero_points[c]);
      std::memcpy(data.data() + i * sizeof(float), &real, sizeof(float));
    }
    ir::Tensor& w = graph.tensors[id];
    w.dtype = DType::kFloat32;
    w.quant = ir::QuantParams{};
    w.data = std::move(data);
  }
}

std::vector<bool> graph_input_mask(const ir::Graph& graph) {
  std::vector<bool> is_input(graph.tensors.size(), false);
  for (int id : graph.inputs) is_input[id] = true;
  return is_input;
}

// A kernel variant whose ops do multiply-accumulates but together fewer than 1/512 of the
// graph's gives way to each op's next kernel (a smaller variant or the reference): its
// code buys a negligible share of the instructions. E.g. the classifier after a CNN:
// kws_ref_model on cortex-m4, the int8 fully connected DSP variant's 2.6 KB for 768 of
// 2.66M MACs (the reference adds 4,480 instructions to 3.3M).
void give_up_negligible_variants(const ir::Graph& graph, Target target, std::vector<lower::LoweredOp>& lowered) {
  uint64_t total = 0;
  for (const lower::LoweredOp& op : lowered) total += op.macs;
  std::vector<KernelId> negligible;
  for (const lower::LoweredOp& op : lowered) {
    if (!kernel_is_variant(op.kernel) || op.macs == 0) continue;
    if (std::find(negligible.begin(), negligible.end(), op.kernel) != negligible.end()) continue;
    uint64_t macs = 0;
    for (const lower::LoweredOp& other : lowered)
      if (other.kernel == op.kernel) macs += other.macs;
    if (macs * 512 < total) negligible.push_back(op.kernel);
  }
  if (negligible.empty()) return;
  for (size_t k = 0; k < lowered.size(); ++k) {
    if (std::find(negligible.begin(), negligible.end(), lowered[k].kernel) != negligible.end())
      lowered[k] = lower::lower_node(graph, graph.nodes[k], target, negligible);
  }
}

// Every node lowered for the target, in order; checks that the order produces each tensor
// before it is read, once, and every graph output. Fills producer (per tensor: the node
// that writes it, -1 for none).
std::vector<lower::LoweredOp> lower_nodes(const ir::Graph& graph, Target target, const std::vector<bool>& reassigned,
                                          std::vector<int>& producer) {
  const std::vector<bool> is_input = graph_input_mask(graph);
  std::vector<lower::LoweredOp> lowered;
  lowered.reserve(graph.nodes.size());
  producer.assign(graph.tensors.size(), -1);
  for (size_t k = 0; k < graph.nodes.size(); ++k) {
    const ir::Node& node = graph.nodes[k];
    lowered.push_back(lower::lower_node(graph, node, target));
    for (int id : node.inputs) {
      if (id == ir::kNoTensor) continue;
      const ir::Tensor& t = graph.tensors[id];
      if (!t.is_constant && !is_input[id] && !t.is_persistent && t.offline_offset < 0 && producer[id] < 0) {
        throw CompileError("node '" + node.name + "' (" + ir::op_name(node.op) + "): input '" + t.name +
                           "' is not a constant, a graph input or the output of an earlier node");
      }
    }
    for (int id : node.outputs) {
      const ir::Tensor& t = graph.tensors[id];
      if (t.is_persistent && !t.is_constant && !is_input[id]) continue;  // state: written in order, many times
      if (reassigned[id] && producer[id] >= 0) continue;  // a loop variable, an if's output
      if (t.is_constant || is_input[id] || producer[id] >= 0) {
        throw CompileError("node '" + node.name + "' (" + ir::op_name(node.op) + "): output '" + t.name +
                           "' is already a constant, a graph input or another node's output");
      }
      producer[id] = static_cast<int>(k);
    }
  }
  for (int id : graph.outputs) {
    if (producer[id] < 0) {
      throw CompileError(graph_label(graph) + ": graph output '" + graph.tensors[id].name +
                         "' is not produced by any node");
    }
  }
  give_up_negligible_variants(graph, target, lowered);
  return lowered;
}

// Program tensors: every tensor an op or the graph io refers to, in graph id order.
void index_tensors(Prepared& p) {
  const ir::Graph& graph = p.graph;
  std::vector<bool> used(graph.tensors.size(), false);
  for (const ir::Node& node : graph.nodes) {
    for (int id : node.inputs)
      if (id != ir::kNoTensor) used[id] = true;
    for (int id : node.outputs) used[id] = true;
  }
  for (int id : graph.inputs) used[id] = true;
  for (int id : graph.outputs) used[id] = true;
  p.program_index.assign(graph.tensors.size(), kNoTensor);
  for (size_t id = 0; id < graph.tensors.size(); ++id) {
    if (!used[id]) continue;
    p.program_index[id] = static_cast<uint32_t>(p.program_tensors.size());
    p.program_tensors.push_back(static_cast<int>(id));
  }
}

// Aliases (per tensor: the tensor whose buffer it shares, or -1): an op whose kernel
// writes input 0's bytes unchanged (placement alias in the kernel registry: reshape,
// squeeze, flatten) shares its input's buffer (the kernel is a memmove, a no-op then)
// unless that would make a graph output alias a graph input, or either is state (a
// persistent tensor keeps its own bytes), or either is written by several nodes (control
// flow: the bytes would change under the other).
std::vector<int> find_aliases(const Prepared& p) {
  const ir::Graph& graph = p.graph;
  const std::vector<bool> is_input = graph_input_mask(graph);
  std::vector<int> alias_of(graph.tensors.size(), -1);
  for (size_t k = 0; k < graph.nodes.size(); ++k) {
    if (kernel_placement(p.ops[k].kernel) != KernelPlacement::kAlias) continue;
    const int in = graph.nodes[k].inputs[0];
    const int out = graph.nodes[k].outputs[0];
    const int root = alias_of[in] >= 0 ? alias_of[in] : in;
    if (graph.tensors[in].is_constant || p.keeps_own_bytes(root) || p.keeps_own_bytes(out)) continue;
    if (is_input[root] && graph.is_graph_output(out)) continue;
    alias_of[out] = root;
  }
  return alias_of;
}

// The tensors with a Vela offline offset (ir::Tensor::offline_offset) share one buffer,
// the NPU area: each at its offset from the area's base, the area as long as the last of
// them reaches and live through the whole schedule, as TensorFlow Lite Micro reserves it
// (Vela planned the area's reuse for the model's op order, which the searches keep).
void place_offline_block(Prepared& p) {
  const ir::Graph& graph = p.graph;
  uint64_t end = 0;
  for (int id : p.program_tensors) {
    const ir::Tensor& t = graph.tensors[id];
    if (t.is_constant || t.offline_offset < 0) continue;
    if (t.offline_offset % kTensorAlignment != 0)
      throw CompileError(graph_label(graph) + ": tensor '" + t.name + "' has the offline arena offset " +
                         std::to_string(t.offline_offset) + ", not a multiple of " +
                         std::to_string(kTensorAlignment));
    end = std::max(end, static_cast<uint64_t>(t.offline_offset) + static_cast<uint64_t>(t.bytes()));
  }
  if (end == 0) return;
  const size_t block = p.buffers.size();
  p.buffers.push_back({end, 0, static_cast<uint32_t>(graph.nodes.size() - 1)});
  p.offline_block = block;
  for (int id : p.program_tensors) {
    const ir::Tensor& t = graph.tensors[id];
    if (t.is_constant || t.offline_offset < 0) continue;
    p.tensor_buffer[id] = block;
    p.offset_in_buffer[id] = static_cast<uint64_t>(t.offline_offset);
  }
}

// Lifetimes: arena tensors from producer (or op 0 for graph inputs) to last consumer (or
// the last op for graph outputs). An alias extends its root's buffer. State (persistent
// tensors) lives through every op and counts as an output: nothing is written over it.
// A loop variable lives at least to its loop's branch (control.live_until).
void set_lifetimes(Prepared& p, const std::vector<int>& producer, const std::vector<int>& alias_of,
                   const ControlFlowLayout& control) {
  const ir::Graph& graph = p.graph;
  const std::vector<bool> is_input = graph_input_mask(graph);
  const uint32_t last_op = static_cast<uint32_t>(graph.nodes.size() - 1);
  p.tensor_buffer.assign(graph.tensors.size(), SIZE_MAX);
  p.offset_in_buffer.assign(graph.tensors.size(), 0);
  place_offline_block(p);
  for (int id : p.program_tensors) {
    const ir::Tensor& t = graph.tensors[id];
    if (t.is_constant || alias_of[id] >= 0 || p.tensor_buffer[id] != SIZE_MAX) continue;
    planner::Buffer b;
    b.bytes = static_cast<uint64_t>(t.bytes());
    b.first_op = is_input[id] || t.is_persistent ? 0 : static_cast<uint32_t>(producer[id]);
    b.last_op = t.is_persistent ? last_op : b.first_op;
    p.tensor_buffer[id] = p.buffers.size();
    p.buffers.push_back(b);
  }
  for (int id : p.program_tensors)
    if (alias_of[id] >= 0) p.tensor_buffer[id] = p.tensor_buffer[alias_of[id]];
  for (size_t k = 0; k < graph.nodes.size(); ++k) {
    for (int id : graph.nodes[k].inputs) {
      if (id == ir::kNoTensor || p.tensor_buffer[id] == SIZE_MAX) continue;
      planner::Buffer& b = p.buffers[p.tensor_buffer[id]];
      b.last_op = std::max(b.last_op, static_cast<uint32_t>(k));
    }
  }
  for (const auto& [id, op] : control.live_until) {
    if (p.tensor_buffer[id] == SIZE_MAX) continue;
    planner::Buffer& b = p.buffers[p.tensor_buffer[id]];
    b.last_op = std::max(b.last_op, op);
  }
  for (int id : graph.outputs) p.buffers[p.tensor_buffer[id]].last_op = last_op;
  p.holds_output.assign(p.buffers.size(), false);
  for (int id : graph.outputs) p.holds_output[p.tensor_buffer[id]] = true;
  for (int id : p.program_tensors) {
    const ir::Tensor& t = graph.tensors[id];
    if (t.is_persistent || (!t.is_constant && t.offline_offset >= 0)) p.holds_output[p.tensor_buffer[id]] = true;
  }
}

// In place: an elementwise op's output starts at the offset of the input it streams over
// when that input's buffer dies at the op (not read later, not a graph output); a
// pixel-streaming op's output starts far enough below its dying input. Sets the links on
// `buffers` and returns the linked buffers, in op order.
std::vector<size_t> link_in_place(const Prepared& p, const std::vector<lower::LoweredOp>& ops,
                                  std::vector<planner::Buffer>& buffers) {
  std::vector<bool> overwritten(buffers.size(), false);
  std::vector<size_t> linked;
  for (size_t k = 0; k < ops.size(); ++k) {
    const int input = ops[k].in_place_input;
    if (input < 0) continue;
    const size_t from = p.tensor_buffer[p.graph.nodes[k].inputs[static_cast<size_t>(input)]];
    const size_t to = p.tensor_buffer[p.graph.nodes[k].outputs[0]];
    const int out = p.graph.nodes[k].outputs[0];
    if (p.keeps_own_bytes(out)) continue;
    if (from == SIZE_MAX || to == SIZE_MAX || from == to || p.holds_output[from] || overwritten[from]) continue;
    if (buffers[from].last_op != k || buffers[to].first_op != k || buffers[to].in_place_of >= 0) continue;
    // Worth it only when the pair then takes less than side by side.
    const uint64_t shift = planner::align_up(ops[k].in_place_shift, kTensorAlignment);
    if (shift >= planner::align_up(buffers[to].bytes, kTensorAlignment)) continue;
    buffers[to].in_place_of = static_cast<int64_t>(from);
    buffers[to].in_place_shift = shift;
    overwritten[from] = true;
    linked.push_back(to);
  }
  return linked;
}

// The program's tensors: constants with their data, arena tensors at their planned
// offsets. Adds the constants' bytes to *weights_bytes.
std::vector<emit::ProgramTensor> program_tensors(const Prepared& p, const planner::Plan& plan,
                                                 uint64_t* weights_bytes) {
  std::vector<emit::ProgramTensor> tensors;
  for (int id : p.program_tensors) {
    const ir::Tensor& t = p.graph.tensors[id];
    emit::ProgramTensor pt;
    pt.name = t.name;
    pt.dtype = t.dtype;
    pt.shape = t.shape;
    pt.quant = t.quant;
    if (t.is_constant) {
      pt.storage = Storage::kConstant;
      pt.data = t.data;
      if (static_cast<int64_t>(t.data.size()) != t.bytes()) {
        throw CompileError(graph_label(p.graph) + ": constant '" + t.name + "' " + shape_string(t.shape) +
                           " holds " + std::to_string(t.data.size()) + " bytes, expected " +
                           std::to_string(t.bytes()));
      }
      *weights_bytes += t.data.size();
    } else {
      pt.storage = Storage::kArena;
      pt.arena_offset = plan.offsets[p.tensor_buffer[id]] + p.offset_in_buffer[id];
      pt.persistent = t.is_persistent;
    }
    tensors.push_back(std::move(pt));
  }
  return tensors;
}

// The largest run [start, start + bytes) of the arena (below plan.arena_bytes) that no
// buffer live at op `op` occupies but `own` (that op's scratch); the lowest such run on a
// tie. O(n log n) for n buffers.
struct FreeRun {
  uint64_t start = 0, bytes = 0;
};
FreeRun largest_free_run(const Layout& layout, uint32_t op, size_t own) {
  std::vector<std::pair<uint64_t, uint64_t>> used;  // [begin, end), aligned ends
  for (size_t b = 0; b < layout.buffers.size(); ++b) {
    const planner::Buffer& buffer = layout.buffers[b];
    if (b == own || buffer.bytes == 0 || buffer.first_op > op || buffer.last_op < op) continue;
    const uint64_t begin = layout.plan.offsets[b];
    used.emplace_back(begin, begin + planner::align_up(buffer.bytes, kTensorAlignment));
  }
  std::sort(used.begin(), used.end());
  FreeRun best;
  uint64_t cursor = 0;
  auto consider = [&](uint64_t end) {
    if (end > cursor && end - cursor > best.bytes) best = {cursor, end - cursor};
  };
  for (const auto& [begin, end] : used) {
    consider(begin);
    cursor = std::max(cursor, end);
  }
  consider(layout.plan.arena_bytes);
  return best;
}

// LoweredOp::scratch_growth: the op's scratch grows by the whole units that fit in the
// largest run of the arena free at the op, and moves to its start. Scratch is live at
// its own op only, so no other buffer moves and the arena keeps its size.
void grant_free_run(const Layout& layout, size_t k, const lower::LoweredOp& op, emit::ProgramOp& po) {
  const lower::LoweredOp::ScratchGrowth& growth = op.scratch_growth;
  if (growth.max_units == 0 || growth.unit_bytes == 0 || layout.scratch_buffer[k] == SIZE_MAX) return;
  const FreeRun run = largest_free_run(layout, static_cast<uint32_t>(k), layout.scratch_buffer[k]);
  if (run.bytes < op.scratch_bytes + growth.unit_bytes) return;
  lower::LoweredOp granted = op;
  lower::grant_scratch(granted, static_cast<uint32_t>(std::min<uint64_t>(
                                    growth.max_units, (run.bytes - op.scratch_bytes) / growth.unit_bytes)));
  po.scratch_offset = run.start;
  po.scratch_bytes = granted.scratch_bytes;
  po.params = std::move(granted.params);
}

}  // namespace

Prepared prepare(const ir::Graph& graph, Target target) {
  Prepared p;
  p.graph = graph;
  check_graph_io(p.graph);
  const ControlFlowLayout control = lay_out_control_flow(p.graph);
  insert_output_copies(p.graph);
  dequantize_hybrid_weights(p.graph);
  p.reassigned = control.reassigned;
  p.reassigned.resize(p.graph.tensors.size(), false);
  std::vector<int> producer;
  p.ops = lower_nodes(p.graph, target, p.reassigned, producer);
  index_tensors(p);
  set_lifetimes(p, producer, find_aliases(p), control);
  return p;
}

Layout lay_out(const Prepared& prepared, const std::vector<lower::LoweredOp>& ops) {
  Layout layout;
  layout.buffers = prepared.buffers;
  layout.linked = link_in_place(prepared, ops, layout.buffers);
  layout.scratch_buffer.assign(ops.size(), SIZE_MAX);
  for (size_t k = 0; k < ops.size(); ++k) {
    if (ops[k].scratch_bytes == 0) continue;
    layout.scratch_buffer[k] = layout.buffers.size();
    layout.buffers.push_back({ops[k].scratch_bytes, static_cast<uint32_t>(k), static_cast<uint32_t>(k)});
  }
  return layout;
}

uint64_t arena_floor(const Layout& layout) {
  const std::vector<uint64_t> live = planner::live_bytes_per_op(layout.buffers, kTensorAlignment);
  return live.empty() ? 0 : *std::max_element(live.begin(), live.end());
}

void plan(Layout& layout, planner::Effort effort) {
  planner::LinkedPlan best = planner::plan_with_in_place_links(layout.buffers, layout.linked, kTensorAlignment, effort);
  layout.plan = std::move(best.plan);
  layout.plans = best.plans;
}

CompileResult assemble(const Prepared& prepared, const std::vector<lower::LoweredOp>& ops, const Layout& layout,
                       Emit emit) {
  const ir::Graph& graph = prepared.graph;
  const planner::Plan& plan = layout.plan;
  CompileResult result;
  emit::ProgramSpec spec;
  spec.model_name = graph.name;
  spec.arena_bytes = plan.arena_bytes;
  spec.arena_lower_bound_bytes = plan.lower_bound;
  spec.init_op_count = graph.init_nodes;
  uint64_t weights_bytes = 0;
  spec.tensors = program_tensors(prepared, plan, &weights_bytes);
  for (const emit::ProgramTensor& t : spec.tensors)
    if (t.persistent) result.report.state_bytes += static_cast<uint32_t>(ir::element_count(t.shape) * dtype_size(t.dtype));
  std::set<std::string> kernel_names;
  for (size_t k = 0; k < ops.size(); ++k) {
    const ir::Node& node = graph.nodes[k];
    const lower::LoweredOp& op = ops[k];
    emit::ProgramOp po;
    po.name = node.name;
    po.kernel = static_cast<uint16_t>(op.kernel);
    for (int id : node.inputs) po.inputs.push_back(id == ir::kNoTensor ? kNoTensor : prepared.program_index[id]);
    for (int id : node.outputs) po.outputs.push_back(prepared.program_index[id]);
    po.params = op.params;
    if (layout.scratch_buffer[k] != SIZE_MAX) {
      po.scratch_offset = plan.offsets[layout.scratch_buffer[k]];
      po.scratch_bytes = op.scratch_bytes;
      grant_free_run(layout, k, op, po);
    }
    spec.ops.push_back(std::move(po));

    OpReport report;
    report.name = node.name;
    report.kernel = kernel_name(op.kernel);
    report.macs = op.macs;
    kernel_names.insert(report.kernel);
    result.report.macs += op.macs;
    result.report.ops.push_back(std::move(report));
  }
  for (int id : graph.inputs) spec.inputs.push_back(prepared.program_index[id]);
  for (int id : graph.outputs) spec.outputs.push_back(prepared.program_index[id]);

  if (emit == Emit::kProgram) result.program = emit::write_program(spec);
  result.report.program_bytes = static_cast<uint32_t>(result.program.size());
  result.report.arena_bytes = static_cast<uint32_t>(plan.arena_bytes);
  result.report.arena_lower_bound_bytes = static_cast<uint32_t>(plan.lower_bound);
  if (weights_bytes > UINT32_MAX) throw CompileError(graph_label(graph) + ": weights exceed 4 GiB");
  result.report.weights_bytes = static_cast<uint32_t>(weights_bytes);
  result.report.kernels.assign(kernel_names.begin(), kernel_names.end());
  return result;
}

CompileResult link_program(const ir::Graph& graph, Target target) {
  const Prepared prepared = prepare(graph, target);
  Layout layout = lay_out(prepared, prepared.ops);
  plan(layout);
  return assemble(prepared, prepared.ops, layout);
}

}  // namespace mote::link
