// fold_constants (Mote level): a node whose inputs are all constant is run once on the
// host with the same reference kernel the target would run, and its outputs become
// constants. Using the real kernel (not a second host implementation) keeps folded and
// unfolded results bit-identical.
#include <cstring>
#include <string>
#include <vector>

#include "common/error.h"
#include "ir/graph.h"
#include "all_kernels.h"
#include "lower/lower.h"
#include "mote/kernel.h"
#include "passes/passes.h"

namespace mote::passes {
namespace {

// 16-byte aligned byte storage (kTensorAlignment) for constant inputs and the arena.
class AlignedBytes {
 public:
  explicit AlignedBytes(uint64_t bytes) : blocks_((bytes + 15) / 16 + 1) {}
  uint8_t* data() { return reinterpret_cast<uint8_t*>(blocks_.data()); }

 private:
  struct alignas(16) Block {
    uint8_t bytes[16];
  };
  std::vector<Block> blocks_;
};

uint64_t align16(uint64_t v) { return (v + 15) / 16 * 16; }

TensorDesc describe(const ir::Tensor& t, Storage storage, uint64_t offset) {
  TensorDesc desc{};
  desc.dtype = static_cast<uint8_t>(t.dtype);
  desc.rank = static_cast<uint8_t>(t.shape.size());
  desc.storage = static_cast<uint8_t>(storage);
  for (uint32_t i = 0; i < kMaxRank; ++i) desc.dims[i] = i < t.shape.size() ? static_cast<uint32_t>(t.shape[i]) : 1;
  desc.offset = static_cast<uint32_t>(offset);
  desc.bytes = static_cast<uint32_t>(t.bytes());
  desc.quant_offset = kNoOffset;
  desc.name_offset = kNoOffset;
  return desc;
}

bool all_inputs_constant(const ir::Graph& graph, const ir::Node& node) {
  bool any = false;
  for (int id : node.inputs) {
    if (id == ir::kNoTensor) continue;
    if (!graph.tensors[id].is_constant) return false;
    any = true;
  }
  return any;
}

// Runs `node` on its constant inputs and turns its outputs into constants. Returns false
// (and changes nothing) when the host build has no kernel for it.
bool evaluate(ir::Graph& graph, const ir::Node& node) {
  // Lowering checks the node exactly as it would for the program, so a malformed node
  // fails here with the same message.
  const lower::LoweredOp lowered = lower::lower_node(graph, node, lower::Target::kHost);
  const KernelTable& table = all_kernels();
  const uint32_t kernel = static_cast<uint32_t>(lowered.kernel);
  if (kernel >= table.count || table.entries[kernel] == nullptr) return false;
  const KernelEntry& entry = *table.entries[kernel];

  std::vector<TensorDesc> descs;
  std::vector<uint32_t> io;
  uint64_t constant_bytes = 0;
  std::vector<uint64_t> constant_offsets;
  for (int id : node.inputs) {
    if (id == ir::kNoTensor) {
      io.push_back(kNoTensor);
      continue;
    }
    const ir::Tensor& t = graph.tensors[id];
    constant_offsets.push_back(constant_bytes);
    io.push_back(static_cast<uint32_t>(descs.size()));
    descs.push_back(describe(t, Storage::kConstant, constant_bytes));
    constant_bytes = align16(constant_bytes + t.data.size());
  }
  uint64_t arena_bytes = 0;
  std::vector<uint64_t> output_offsets;
  for (int id : node.outputs) {
    const ir::Tensor& t = graph.tensors[id];
    output_offsets.push_back(arena_bytes);
    io.push_back(static_cast<uint32_t>(descs.size()));
    descs.push_back(describe(t, Storage::kArena, arena_bytes));
    arena_bytes = align16(arena_bytes + static_cast<uint64_t>(t.bytes()));
  }
  const uint64_t scratch_offset = arena_bytes;
  arena_bytes += lowered.scratch_bytes;

  AlignedBytes constants(constant_bytes);
  size_t next = 0;
  for (int id : node.inputs) {
    if (id == ir::kNoTensor) continue;
    const ir::Tensor& t = graph.tensors[id];
    if (!t.data.empty()) std::memcpy(constants.data() + constant_offsets[next], t.data.data(), t.data.size());
    ++next;
  }
  AlignedBytes arena(arena_bytes);
  AlignedBytes params(lowered.params.size());
  if (!lowered.params.empty()) std::memcpy(params.data(), lowered.params.data(), lowered.params.size());

  OpDesc op{};
  op.kernel = static_cast<uint16_t>(lowered.kernel);
  op.input_count = static_cast<uint8_t>(node.inputs.size());
  op.output_count = static_cast<uint8_t>(node.outputs.size());
  op.io_first = 0;
  op.params_offset = lowered.params.empty() ? kNoOffset : 0;
  op.params_bytes = static_cast<uint32_t>(lowered.params.size());
  op.scratch_offset = static_cast<uint32_t>(scratch_offset);
  op.scratch_bytes = static_cast<uint32_t>(lowered.scratch_bytes);
  op.name_offset = kNoOffset;

  const OpContext ctx(descs.data(), io.data(), &op, params.data(), constants.data(), arena.data());
  const Status status = entry.check(ctx);
  if (status != Status::kOk) {
    throw CompileError("node '" + node.name + "' (" + ir::op_name(node.op) + "): constant folding: kernel " +
                       kernel_name(lowered.kernel) + " refused the op (" + status_string(status) +
                       ")");
  }
  entry.run(ctx);

  for (size_t i = 0; i < node.outputs.size(); ++i) {
    ir::Tensor& t = graph.tensors[node.outputs[i]];
    const uint8_t* begin = arena.data() + output_offsets[i];
    t.data.assign(begin, begin + t.bytes());
    t.is_constant = true;
  }
  return true;
}

}  // namespace

void fold_constants(ir::Graph& graph) {
  bool changed = false;
  for (size_t k = 0; k < graph.nodes.size();) {
    const ir::Node& node = graph.nodes[k];
    if (all_inputs_constant(graph, node) && evaluate(graph, node)) {
      graph.nodes.erase(graph.nodes.begin() + static_cast<std::ptrdiff_t>(k));
      changed = true;
    } else {
      ++k;
    }
  }
  if (changed) graph.remove_dead();
}

}  // namespace mote::passes
