#include "lower/lower.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>

#include "common/error.h"
#include "compiler.h"
#include "emit/program_writer.h"
#include "kernel_registry.h"
#include "lower/node_lowering.h"
#include "lower/variants.h"
#include "planner/memory_planner.h"

namespace mote::lower {
namespace {

using ir::Op;

void check_tensor_dims(const NodeLowering& l, const ir::Tensor& t) {
  if (t.shape.size() > kMaxRank) {
    l.fail("tensor '" + t.name + "' has rank " + std::to_string(t.shape.size()) +
           ", at most " + std::to_string(kMaxRank) + " is supported");
  }
  for (int64_t d : t.shape) {
    if (d < 0 || d > kMaxI32) {
      l.fail("tensor '" + t.name + "' has shape " + shape_string(t.shape) +
             " with a dim outside [0, 2^31)");
    }
  }
}

// The reference kernel for node l, from its op's lowering (node_lowering.h lists them by
// file): the one switch over every Mote op.
LoweredOp lower_reference(const NodeLowering& l) {
  switch (l.node().op) {
    case Op::kConv2d: return lower_conv2d(l);
    case Op::kDepthwiseConv2d: return lower_depthwise_conv2d(l);
    case Op::kTransposeConv: return lower_transpose_conv(l);
    case Op::kFullyConnected: return lower_fully_connected(l);
    case Op::kBatchMatMul: return lower_batch_matmul(l);
    case Op::kAdd:
    case Op::kSub: return lower_add_sub(l);
    case Op::kMul: return lower_mul(l);
    case Op::kDiv: return lower_div(l);
    case Op::kClamp: return lower_clamp(l);
    case Op::kSigmoid:
    case Op::kTanh: return lower_sigmoid_tanh(l);
    case Op::kLeakyRelu: return lower_leaky_relu(l);
    case Op::kSoftmax: return lower_softmax(l);
    case Op::kQuantize: return lower_quantize(l);
    case Op::kDequantize: return lower_dequantize(l);
    case Op::kAvgPool2d:
    case Op::kMaxPool2d: return lower_pool2d(l);
    case Op::kMean: return lower_mean(l);
    case Op::kTranspose: return lower_transpose(l);
    case Op::kConcat: return lower_concat(l);
    case Op::kPad: return lower_pad(l);
    case Op::kReshape:
    case Op::kCopy: return lower_copy(l);
    case Op::kStridedSlice: return lower_strided_slice(l);
    case Op::kLstm: return lower_lstm(l);
  }
  l.fail("is not a Mote op");
}

}  // namespace

LoweredOp lower_node(const ir::Graph& graph, const ir::Node& node, Target target) {
  const NodeLowering l(graph, node);
  if (node.inputs.empty() || node.inputs[0] == ir::kNoTensor) l.fail("input 0 is missing");
  for (int id : node.inputs)
    if (id != ir::kNoTensor) check_tensor_dims(l, l.tensor(id));
  for (int id : node.outputs) check_tensor_dims(l, l.tensor(id));
  LoweredOp op = lower_reference(l);
  select_variant(l, target, op);  // the target's faster variant: same inputs and parameters
  choose_in_place(graph, node, op);
  return op;
}

// ---------------------------------------------------------------------------------------
// Placement in the arena: which input's buffer the output may be written over.
// ---------------------------------------------------------------------------------------

// The kernels' placement facts come from the registry (kernels/kernel_registry.inc).
bool streams_elementwise(KernelId kernel) {
  return kernel_placement(kernel) == KernelPlacement::kElementwise;
}

uint32_t pixel_stream_block(KernelId kernel, const ir::Shape& in, const ir::Shape& out) {
  if (in.size() != 4 || out.size() != 4) return 0;
  return kernel_pixel_stream_block(kernel, {in[0], in[1], in[2], in[3], out[1], out[2], out[3]});
}

namespace {

// The smallest shift (bytes the output starts below the input) at which a pixel-streaming
// kernel never writes over input it still reads: whenever output pixel p is the lowest
// one whose input is still to be read, the kernel has written at most pixels < p + block,
// and those bytes must not pass the first input byte that pixel p or any later pixel
// reads (first tap row and column, clamped to the image; a suffix minimum because padding
// clamps several output rows to the same first row).
uint64_t pixel_stream_shift(const ir::Tensor& in, const ir::Tensor& out, const WindowGeometry& g,
                            uint32_t block) {
  const int64_t n = in.shape[0], h = in.shape[1], w = in.shape[2], c = in.shape[3];
  const int64_t oh = out.shape[1], ow = out.shape[2], oc = out.shape[3];
  const int64_t in_elem = dtype_size(in.dtype), out_elem = dtype_size(out.dtype);
  const int64_t pixels = n * oh * ow;
  std::vector<int64_t> first_read(static_cast<size_t>(pixels));
  for (int64_t p = 0; p < pixels; ++p) {
    const int64_t b = p / (oh * ow), oy = (p / ow) % oh, ox = p % ow;
    const int64_t row = std::min(h - 1, std::max<int64_t>(0, oy * g.stride_h - g.pad_top));
    const int64_t col = std::min(w - 1, std::max<int64_t>(0, ox * g.stride_w - g.pad_left));
    first_read[static_cast<size_t>(p)] = ((b * h + row) * w + col) * c * in_elem;
  }
  for (int64_t p = pixels - 2; p >= 0; --p)
    first_read[static_cast<size_t>(p)] = std::min(first_read[static_cast<size_t>(p)], first_read[static_cast<size_t>(p + 1)]);
  int64_t shift = 0;
  for (int64_t p = 0; p < pixels; ++p) {
    const int64_t written_end = std::min<int64_t>(pixels, p + block) * oc * out_elem;
    shift = std::max(shift, written_end - first_read[static_cast<size_t>(p)]);
  }
  return static_cast<uint64_t>(shift);
}

}  // namespace

void choose_in_place(const ir::Graph& graph, const ir::Node& node, LoweredOp& op) {
  op.in_place_input = -1;
  op.in_place_shift = 0;
  if (node.outputs.size() != 1) return;
  const ir::Tensor& out = graph.tensors[node.outputs[0]];
  if (streams_elementwise(op.kernel)) {
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      const int id = node.inputs[i];
      if (id == ir::kNoTensor) continue;
      const ir::Tensor& in = graph.tensors[id];
      if (in.is_constant || in.shape != out.shape) continue;
      if (dtype_size(in.dtype) < dtype_size(out.dtype)) continue;
      op.in_place_input = static_cast<int>(i);
      return;
    }
    return;
  }
  if (node.inputs.empty() || node.inputs[0] == ir::kNoTensor) return;
  const ir::Tensor& in = graph.tensors[node.inputs[0]];
  const uint32_t block = pixel_stream_block(op.kernel, in.shape, out.shape);
  if (block == 0) return;
  WindowGeometry window;
  if (in.is_constant || in.shape.size() != 4 || out.shape.size() != 4 || in.elements() == 0 ||
      out.elements() == 0 || !kernel_window(op.kernel, op.params.data(), op.params.size(), &window)) {
    return;
  }
  op.in_place_input = 0;
  op.in_place_shift = pixel_stream_shift(in, out, window, block);
}

}  // namespace mote::lower

// ---------------------------------------------------------------------------------------
// lower_to_program: kernel choice, memory plan, serialization.
// ---------------------------------------------------------------------------------------

namespace mote {
namespace {

using lower::shape_string;

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

// Every in-place link fixes where its output goes, and chains of them drift (each shift
// moves the next buffer lower), which can cost the placement more than the links save.
// So the links kept are searched: starting points are all links, none, and only the links
// an op needs to reach the bound all links give (a link whose op stays at or under that
// bound without it is dropped, smallest saving first); from each, links are toggled one
// at a time while that lowers the arena (see below). A plan is better with a smaller
// arena, then when its arena is its own lower bound (proven optimal for its links), then
// with fewer links. The search stops early at the bound all links give, reached exactly:
// no set of these links can plan below it. Cost: at most 2 * links + 19 plans.
planner::Plan plan_with_in_place_links(const std::vector<planner::Buffer>& buffers,
                                       const std::vector<size_t>& linked) {
  if (linked.empty()) return planner::plan_memory(buffers, kTensorAlignment);
  const std::vector<uint64_t> live = planner::live_bytes_per_op(buffers, kTensorAlignment);
  const uint64_t bound = *std::max_element(live.begin(), live.end());
  auto saving = [&](size_t to) {
    const planner::Buffer& b = buffers[to];
    const uint64_t size = planner::align_up(b.bytes, kTensorAlignment);
    const uint64_t from = planner::align_up(buffers[static_cast<size_t>(b.in_place_of)].bytes, kTensorAlignment);
    return size > b.in_place_shift ? std::min(size - b.in_place_shift, from) : uint64_t{0};
  };
  std::vector<size_t> by_saving = linked;
  std::stable_sort(by_saving.begin(), by_saving.end(), [&](size_t a, size_t b) { return saving(a) < saving(b); });

  struct Candidate {
    std::vector<bool> on;  // per entry of `linked`
    planner::Plan plan;
    size_t links = 0;
  };
  auto evaluate = [&](std::vector<bool> on) {
    std::vector<planner::Buffer> trial = buffers;
    Candidate c;
    for (size_t i = 0; i < linked.size(); ++i) {
      if (on[i]) {
        ++c.links;
        continue;
      }
      trial[linked[i]].in_place_of = -1;
      trial[linked[i]].in_place_shift = 0;
    }
    c.on = std::move(on);
    c.plan = planner::plan_memory(trial, kTensorAlignment);
    return c;
  };
  auto better = [](const Candidate& a, const Candidate& b) {
    if (a.plan.arena_bytes != b.plan.arena_bytes) return a.plan.arena_bytes < b.plan.arena_bytes;
    const bool a_exact = a.plan.arena_bytes == a.plan.lower_bound;
    const bool b_exact = b.plan.arena_bytes == b.plan.lower_bound;
    if (a_exact != b_exact) return a_exact;
    return a.links < b.links;
  };

  std::vector<bool> needed(linked.size(), true);
  std::vector<uint64_t> live_needed = live;
  for (size_t to : by_saving) {
    const uint32_t op = buffers[to].first_op;
    if (live_needed[op] + saving(to) > bound) continue;  // this op needs it
    live_needed[op] += saving(to);
    needed[static_cast<size_t>(std::find(linked.begin(), linked.end(), to) - linked.begin())] = false;
  }
  std::vector<Candidate> starts;
  starts.push_back(evaluate(needed));
  starts.push_back(evaluate(std::vector<bool>(linked.size(), true)));
  starts.push_back(evaluate(std::vector<bool>(linked.size(), false)));
  Candidate best = starts[0];
  auto done = [&](const Candidate& c) {
    return c.plan.arena_bytes == bound && c.plan.arena_bytes == c.plan.lower_bound;
  };
  for (Candidate& start : starts) {
    if (better(start, best)) best = start;
    if (done(best)) return best.plan;
  }
  // From each start, two descents: first improvement (take a toggle as soon as it lowers
  // the arena) and steepest (take the best toggle of a pass); they get stuck in different
  // places.
  // The plans tried are capped (budget) so graphs with many links (patched tiles) stay fast.
  size_t budget = 2 * linked.size() + 16;
  for (const Candidate& start : starts) {
    for (const bool steepest : {false, true}) {
      Candidate current = start;
      for (bool changed = true; changed && !done(current) && budget > 0;) {
        changed = false;
        Candidate step = current;
        for (size_t i = 0; i < linked.size() && !done(current) && budget > 0; ++i, --budget) {
          std::vector<bool> on = current.on;
          on[i] = !on[i];
          Candidate trial = evaluate(std::move(on));
          if (trial.plan.arena_bytes >= (steepest ? step : current).plan.arena_bytes) continue;
          changed = true;
          if (steepest) {
            step = std::move(trial);
          } else {
            current = std::move(trial);
          }
        }
        if (steepest && changed) current = std::move(step);
      }
      if (better(current, best)) best = current;
      if (done(best)) return best.plan;
    }
  }
  return best.plan;
}

std::string graph_label(const ir::Graph& graph) {
  return graph.name.empty() ? std::string("model") : "model '" + graph.name + "'";
}

}  // namespace

CompileResult lower_to_program(const ir::Graph& source, const std::string& target_name, Optimize optimize) {
  const Target target = parse_target(target_name);
  ir::Graph graph = source;
  const size_t tensor_total = graph.tensors.size();
  auto valid_id = [&](int id) { return id >= 0 && static_cast<size_t>(id) < tensor_total; };
  if (graph.outputs.empty()) throw CompileError(graph_label(graph) + ": the graph has no outputs");
  for (int id : graph.inputs) {
    if (!valid_id(id)) throw CompileError(graph_label(graph) + ": graph input id " + std::to_string(id) + " does not exist");
    if (graph.tensors[id].is_constant) {
      throw CompileError(graph_label(graph) + ": graph input '" + graph.tensors[id].name + "' is a constant");
    }
  }
  for (int id : graph.outputs)
    if (!valid_id(id)) throw CompileError(graph_label(graph) + ": graph output id " + std::to_string(id) + " does not exist");
  insert_output_copies(graph);
  dequantize_hybrid_weights(graph);

  // Lower every node; check the op order produces each tensor before it is read.
  const size_t op_count = graph.nodes.size();
  std::vector<lower::LoweredOp> lowered;
  lowered.reserve(op_count);
  std::vector<int> producer(graph.tensors.size(), -1);
  std::vector<bool> is_input(graph.tensors.size(), false);
  for (int id : graph.inputs) is_input[id] = true;
  for (size_t k = 0; k < op_count; ++k) {
    const ir::Node& node = graph.nodes[k];
    lowered.push_back(lower::lower_node(graph, node, target));
    for (int id : node.inputs) {
      if (id == ir::kNoTensor) continue;
      const ir::Tensor& t = graph.tensors[id];
      if (!t.is_constant && !is_input[id] && producer[id] < 0) {
        throw CompileError("node '" + node.name + "' (" + ir::op_name(node.op) + "): input '" + t.name +
                           "' is not a constant, a graph input or the output of an earlier node");
      }
    }
    for (int id : node.outputs) {
      const ir::Tensor& t = graph.tensors[id];
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

  // Program tensors: every tensor an op or the graph io refers to, in graph id order.
  std::vector<bool> used(graph.tensors.size(), false);
  for (const ir::Node& node : graph.nodes) {
    for (int id : node.inputs)
      if (id != ir::kNoTensor) used[id] = true;
    for (int id : node.outputs) used[id] = true;
  }
  for (int id : graph.inputs) used[id] = true;
  for (int id : graph.outputs) used[id] = true;
  std::vector<uint32_t> program_index(graph.tensors.size(), kNoTensor);
  std::vector<int> program_tensors;
  for (size_t id = 0; id < graph.tensors.size(); ++id) {
    if (!used[id]) continue;
    program_index[id] = static_cast<uint32_t>(program_tensors.size());
    program_tensors.push_back(static_cast<int>(id));
  }

  // Aliases: an op whose kernel writes input 0's bytes unchanged (placement alias in the
  // kernel registry: reshape, squeeze, flatten) shares its input's buffer (the kernel is
  // a memmove, a no-op then) unless that would make a graph output alias a graph input.
  std::vector<int> alias_of(graph.tensors.size(), -1);
  for (size_t k = 0; k < op_count; ++k) {
    if (kernel_placement(lowered[k].kernel) != KernelPlacement::kAlias) continue;
    const int in = graph.nodes[k].inputs[0];
    const int out = graph.nodes[k].outputs[0];
    if (graph.tensors[in].is_constant) continue;
    const int root = alias_of[in] >= 0 ? alias_of[in] : in;
    if (is_input[root] && graph.is_graph_output(out)) continue;
    alias_of[out] = root;
  }

  // Lifetimes: arena tensors from producer (or op 0 for graph inputs) to last consumer
  // (or the last op for graph outputs); scratch during its op only. An alias extends its
  // root's buffer.
  const uint32_t last_op = static_cast<uint32_t>(op_count - 1);
  std::vector<planner::Buffer> buffers;
  std::vector<size_t> tensor_buffer(graph.tensors.size(), SIZE_MAX);
  for (int id : program_tensors) {
    const ir::Tensor& t = graph.tensors[id];
    if (t.is_constant || alias_of[id] >= 0) continue;
    planner::Buffer b;
    b.bytes = static_cast<uint64_t>(t.bytes());
    b.first_op = is_input[id] ? 0 : static_cast<uint32_t>(producer[id]);
    b.last_op = b.first_op;
    tensor_buffer[id] = buffers.size();
    buffers.push_back(b);
  }
  for (int id : program_tensors)
    if (alias_of[id] >= 0) tensor_buffer[id] = tensor_buffer[alias_of[id]];
  for (size_t k = 0; k < op_count; ++k) {
    for (int id : graph.nodes[k].inputs) {
      if (id == ir::kNoTensor || tensor_buffer[id] == SIZE_MAX) continue;
      planner::Buffer& b = buffers[tensor_buffer[id]];
      b.last_op = std::max(b.last_op, static_cast<uint32_t>(k));
    }
  }
  for (int id : graph.outputs) buffers[tensor_buffer[id]].last_op = last_op;

  // In place: an elementwise op's output starts at the offset of the input it streams
  // over when that input's buffer dies at the op (not read later, not a graph output);
  // a pixel-streaming op's output starts far enough below its dying input.
  std::vector<bool> holds_output(buffers.size(), false);
  for (int id : graph.outputs) holds_output[tensor_buffer[id]] = true;
  const std::vector<planner::Buffer> tensor_buffers = buffers;
  struct Planned {
    planner::Plan plan;
    std::vector<planner::Buffer> buffers;   // tensors, then scratch
    std::vector<size_t> scratch_buffer;     // per op, SIZE_MAX for none
  };
  auto plan_ops = [&](const std::vector<lower::LoweredOp>& ops) {
    Planned p;
    p.buffers = tensor_buffers;
    std::vector<bool> overwritten(p.buffers.size(), false);
    std::vector<size_t> linked;  // buffers written in place, in op order
    for (size_t k = 0; k < op_count; ++k) {
      const int input = ops[k].in_place_input;
      if (input < 0) continue;
      const size_t from = tensor_buffer[graph.nodes[k].inputs[static_cast<size_t>(input)]];
      const size_t to = tensor_buffer[graph.nodes[k].outputs[0]];
      if (from == SIZE_MAX || to == SIZE_MAX || from == to || holds_output[from] || overwritten[from]) continue;
      if (p.buffers[from].last_op != k || p.buffers[to].first_op != k || p.buffers[to].in_place_of >= 0) continue;
      // Worth it only when the pair then takes less than side by side.
      const uint64_t shift = planner::align_up(ops[k].in_place_shift, kTensorAlignment);
      if (shift >= planner::align_up(p.buffers[to].bytes, kTensorAlignment)) continue;
      p.buffers[to].in_place_of = static_cast<int64_t>(from);
      p.buffers[to].in_place_shift = shift;
      overwritten[from] = true;
      linked.push_back(to);
    }
    p.scratch_buffer.assign(op_count, SIZE_MAX);
    for (size_t k = 0; k < op_count; ++k) {
      if (ops[k].scratch_bytes == 0) continue;
      p.scratch_buffer[k] = p.buffers.size();
      p.buffers.push_back({ops[k].scratch_bytes, static_cast<uint32_t>(k), static_cast<uint32_t>(k)});
    }
    p.plan = plan_with_in_place_links(p.buffers, linked);
    return p;
  };
  Planned planned = plan_ops(lowered);

  // Optimize::kMemory: an optimized variant whose scratch sets the arena peak gives way
  // to the reference kernel (no scratch) when that lowers the arena. Only ops whose
  // scratch could matter (live bytes at the op within their scratch of the arena) are
  // tried, largest scratch first, each together with every other such op of the same
  // kernel (the tiles of a patched layer all reach the peak: giving up one alone never
  // lowers it); repeated until nothing improves.
  // At most kMaxMemoryTrials plans: a patched program has hundreds of ops, and each plan
  // of it is itself a search.
  constexpr size_t kMaxMemoryTrials = 24;
  size_t memory_trials = 0;
  for (size_t round = 0; optimize == Optimize::kMemory && round < op_count && memory_trials < kMaxMemoryTrials; ++round) {
    const std::vector<uint64_t> live = planner::live_bytes_per_op(planned.buffers, kTensorAlignment);
    std::vector<size_t> candidates;
    for (size_t k = 0; k < op_count && k < live.size(); ++k) {
      const uint64_t scratch = planner::align_up(lowered[k].scratch_bytes, kTensorAlignment);
      if (scratch == 0 || !kernel_is_variant(lowered[k].kernel)) continue;
      if (live[k] + scratch >= planned.plan.arena_bytes) candidates.push_back(k);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](size_t a, size_t b) { return lowered[a].scratch_bytes > lowered[b].scratch_bytes; });
    bool improved = false;
    std::vector<bool> tried(candidates.size(), false);
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (tried[i]) continue;
      if (++memory_trials > kMaxMemoryTrials) break;
      std::vector<lower::LoweredOp> trial_ops = lowered;
      const KernelId kernel = lowered[candidates[i]].kernel;
      for (size_t j = i; j < candidates.size(); ++j) {
        if (lowered[candidates[j]].kernel != kernel) continue;
        tried[j] = true;
        const size_t k = candidates[j];
        trial_ops[k] = lower::lower_node(graph, graph.nodes[k], Target::kHost);  // the reference
      }
      Planned trial = plan_ops(trial_ops);
      if (trial.plan.arena_bytes < planned.plan.arena_bytes) {
        lowered = std::move(trial_ops);
        planned = std::move(trial);
        improved = true;
        break;
      }
    }
    if (!improved) break;
  }
  const planner::Plan& plan = planned.plan;
  const std::vector<size_t>& scratch_buffer = planned.scratch_buffer;

  // Assemble and serialize.
  emit::ProgramSpec spec;
  spec.model_name = graph.name;
  spec.arena_bytes = plan.arena_bytes;
  spec.arena_lower_bound_bytes = plan.lower_bound;
  uint64_t weights_bytes = 0;
  for (int id : program_tensors) {
    const ir::Tensor& t = graph.tensors[id];
    emit::ProgramTensor pt;
    pt.name = t.name;
    pt.dtype = t.dtype;
    pt.shape = t.shape;
    pt.quant = t.quant;
    if (t.is_constant) {
      pt.storage = Storage::kConstant;
      pt.data = t.data;
      if (static_cast<int64_t>(t.data.size()) != t.bytes()) {
        throw CompileError(graph_label(graph) + ": constant '" + t.name + "' " +
                           shape_string(t.shape) + " holds " + std::to_string(t.data.size()) +
                           " bytes, expected " + std::to_string(t.bytes()));
      }
      weights_bytes += t.data.size();
    } else {
      pt.storage = Storage::kArena;
      pt.arena_offset = plan.offsets[tensor_buffer[id]];
    }
    spec.tensors.push_back(std::move(pt));
  }
  CompileResult result;
  std::set<std::string> kernel_names;
  for (size_t k = 0; k < op_count; ++k) {
    const ir::Node& node = graph.nodes[k];
    const lower::LoweredOp& op = lowered[k];
    emit::ProgramOp po;
    po.name = node.name;
    po.kernel = static_cast<uint16_t>(op.kernel);
    for (int id : node.inputs) po.inputs.push_back(id == ir::kNoTensor ? kNoTensor : program_index[id]);
    for (int id : node.outputs) po.outputs.push_back(program_index[id]);
    po.params = op.params;
    if (scratch_buffer[k] != SIZE_MAX) {
      po.scratch_offset = plan.offsets[scratch_buffer[k]];
      po.scratch_bytes = op.scratch_bytes;
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
  for (int id : graph.inputs) spec.inputs.push_back(program_index[id]);
  for (int id : graph.outputs) spec.outputs.push_back(program_index[id]);

  result.program = emit::write_program(spec);
  result.report.program_bytes = static_cast<uint32_t>(result.program.size());
  result.report.arena_bytes = static_cast<uint32_t>(plan.arena_bytes);
  result.report.arena_lower_bound_bytes = static_cast<uint32_t>(plan.lower_bound);
  if (weights_bytes > UINT32_MAX) throw CompileError(graph_label(graph) + ": weights exceed 4 GiB");
  result.report.weights_bytes = static_cast<uint32_t>(weights_bytes);
  result.report.kernels.assign(kernel_names.begin(), kernel_names.end());
  return result;
}

}  // namespace mote
