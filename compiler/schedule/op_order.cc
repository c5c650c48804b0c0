#include "schedule/op_order.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace mote::schedule {
namespace {

constexpr uint64_t kAlignment = 16;  // the planner's tensor alignment

// The graph reduced to what the order changes: buffers (a reshape shares its input's),
// who makes and who reads each, and which ops must run first.
struct Model {
  size_t ops = 0;
  std::vector<uint64_t> bytes;                 // per buffer
  std::vector<bool> pinned;                    // graph output: live to the end
  std::vector<std::vector<size_t>> readers;    // per buffer: ops reading it
  std::vector<std::vector<size_t>> allocates;  // per op: buffers it creates
  std::vector<std::vector<size_t>> reads;      // per op: buffers it reads (distinct)
  std::vector<std::vector<size_t>> after;      // per op: ops that must run before it
  uint64_t inputs_bytes = 0;                   // graph inputs, live from the start
};

Model build_model(const ir::Graph& graph) {
  Model m;
  m.ops = graph.nodes.size();
  const size_t tensors = graph.tensors.size();
  std::vector<int> buffer(tensors, -1), producer(tensors, -1);
  auto new_buffer = [&](int id) {
    buffer[static_cast<size_t>(id)] = static_cast<int>(m.bytes.size());
    const uint64_t b = static_cast<uint64_t>(graph.tensors[static_cast<size_t>(id)].bytes());
    m.bytes.push_back((b + kAlignment - 1) / kAlignment * kAlignment);
    m.pinned.push_back(false);
    m.readers.emplace_back();
  };
  for (int id : graph.inputs) {
    if (buffer[static_cast<size_t>(id)] >= 0) continue;
    new_buffer(id);
    m.inputs_bytes += m.bytes.back();
  }
  // State lives through every order: like an input that is also an output.
  for (size_t id = 0; id < tensors; ++id) {
    if (!graph.tensors[id].is_persistent) continue;
    new_buffer(static_cast<int>(id));
    m.pinned.back() = true;
    m.inputs_bytes += m.bytes.back();
  }
  m.allocates.resize(m.ops);
  m.reads.resize(m.ops);
  m.after = graph.order_edges();  // state and init order; the data edges are added below
  for (size_t k = 0; k < m.ops; ++k) {
    const ir::Node& node = graph.nodes[k];
    for (int id : node.inputs) {
      if (id == ir::kNoTensor || graph.tensors[static_cast<size_t>(id)].is_constant) continue;
      if (producer[static_cast<size_t>(id)] >= 0) m.after[k].push_back(static_cast<size_t>(producer[static_cast<size_t>(id)]));
      const int b = buffer[static_cast<size_t>(id)];
      if (b >= 0 && std::find(m.reads[k].begin(), m.reads[k].end(), static_cast<size_t>(b)) == m.reads[k].end()) {
        m.reads[k].push_back(static_cast<size_t>(b));
        m.readers[static_cast<size_t>(b)].push_back(k);
      }
    }
    const bool alias = node.op == ir::Op::kReshape && !node.inputs.empty() && node.inputs[0] != ir::kNoTensor &&
                       buffer[static_cast<size_t>(node.inputs[0])] >= 0 && node.outputs.size() == 1;
    for (int id : node.outputs) {
      if (graph.tensors[static_cast<size_t>(id)].is_persistent) continue;  // ordered by order_edges
      producer[static_cast<size_t>(id)] = static_cast<int>(k);
      if (alias) {
        buffer[static_cast<size_t>(id)] = buffer[static_cast<size_t>(node.inputs[0])];
      } else {
        new_buffer(id);
        m.allocates[k].push_back(m.bytes.size() - 1);
      }
    }
  }
  for (int id : graph.outputs)
    if (buffer[static_cast<size_t>(id)] >= 0) m.pinned[static_cast<size_t>(buffer[static_cast<size_t>(id)])] = true;
  return m;
}

// Running ops one at a time, tracking live bytes and which buffers still wait for readers.
struct Walk {
  const Model* m;
  std::vector<uint32_t> pending;  // per buffer: readers not yet run
  std::vector<bool> done;
  uint64_t live = 0;
  uint64_t peak = 0;

  explicit Walk(const Model& model) : m(&model), pending(model.bytes.size()), done(model.ops, false) {
    for (size_t b = 0; b < model.bytes.size(); ++b) pending[b] = static_cast<uint32_t>(model.readers[b].size());
    live = model.inputs_bytes;
    peak = live;
  }
  bool ready(size_t k) const {
    if (done[k]) return false;
    for (size_t p : m->after[k])
      if (!done[p]) return false;
    return true;
  }
  // Bytes live while k runs, and after it.
  std::pair<uint64_t, uint64_t> cost(size_t k) const {
    uint64_t during = live, freed = 0;
    for (size_t b : m->allocates[k]) {
      during += m->bytes[b];
      if (m->readers[b].empty() && !m->pinned[b]) freed += m->bytes[b];
    }
    for (size_t b : m->reads[k])
      if (pending[b] == 1 && !m->pinned[b]) freed += m->bytes[b];
    return {during, during - freed};
  }
  void run(size_t k) {
    const auto [during, after] = cost(k);
    peak = std::max(peak, during);
    live = after;
    done[k] = true;
    for (size_t b : m->reads[k]) --pending[b];
  }
};

std::vector<size_t> greedy_order(const Model& m) {
  Walk walk(m);
  std::vector<size_t> order;
  while (order.size() < m.ops) {
    size_t best = m.ops;
    std::pair<uint64_t, uint64_t> best_cost{};
    for (size_t k = 0; k < m.ops; ++k) {
      if (!walk.ready(k)) continue;
      const auto c = walk.cost(k);
      if (best == m.ops || c.second < best_cost.second || (c.second == best_cost.second && c.first < best_cost.first)) {
        best = k;
        best_cost = c;
      }
    }
    if (best == m.ops) return {};  // a cycle: keep the graph's order
    walk.run(best);
    order.push_back(best);
  }
  return order;
}

// Exact: states are the sets of ops run so far, layer by layer. Returns {} when the
// sets exceed max_states.
std::vector<size_t> exact_order(const Model& m, size_t max_states) {
  struct State {
    std::string bits;  // one byte per op: 1 when run
    uint64_t peak;
    uint64_t live;
    size_t parent;     // index into the previous layer's states
    size_t op;         // the op run last
  };
  std::vector<std::vector<State>> layers(1);
  layers[0].push_back({std::string(m.ops, '\0'), m.inputs_bytes, m.inputs_bytes, 0, 0});
  size_t total = 1;
  for (size_t depth = 0; depth < m.ops; ++depth) {
    std::vector<State> next;
    std::unordered_map<std::string, size_t> index;
    const std::vector<State>& layer = layers[depth];
    for (size_t s = 0; s < layer.size(); ++s) {
      const State& state = layer[s];
      // A buffer k reads dies with k when k is its last reader still to run.
      auto last_reader = [&](size_t b) {
        uint32_t left = 0;
        for (size_t r : m.readers[b]) left += state.bits[r] ? 0 : 1;
        return left == 1;
      };
      for (size_t k = 0; k < m.ops; ++k) {
        if (state.bits[k]) continue;
        bool ready = true;
        for (size_t p : m.after[k]) ready = ready && state.bits[p];
        if (!ready) continue;
        uint64_t during = state.live, freed = 0;
        for (size_t b : m.allocates[k]) {
          during += m.bytes[b];
          if (m.readers[b].empty() && !m.pinned[b]) freed += m.bytes[b];
        }
        for (size_t b : m.reads[k])
          if (!m.pinned[b] && last_reader(b)) freed += m.bytes[b];
        State child{state.bits, std::max(state.peak, during), during - freed, s, k};
        child.bits[k] = 1;
        auto found = index.find(child.bits);
        if (found == index.end()) {
          index.emplace(child.bits, next.size());
          next.push_back(std::move(child));
          if (++total > max_states) return {};
        } else if (child.peak < next[found->second].peak) {
          next[found->second] = std::move(child);
        }
      }
    }
    if (next.empty()) return {};  // a cycle
    layers.push_back(std::move(next));
  }
  std::vector<size_t> order(m.ops);
  size_t s = 0;
  for (size_t depth = m.ops; depth > 0; --depth) {
    const State& state = layers[depth][s];
    order[depth - 1] = state.op;
    s = state.parent;
  }
  return order;
}

}  // namespace

uint64_t peak_live_bytes(const ir::Graph& graph, const std::vector<size_t>& order) {
  const Model m = build_model(graph);
  Walk walk(m);
  for (size_t k : order) walk.run(k);
  return walk.peak;
}

OrderResult min_peak_order(const ir::Graph& graph, size_t max_states) {
  const Model m = build_model(graph);
  OrderResult best;
  best.order.resize(m.ops);
  for (size_t k = 0; k < m.ops; ++k) best.order[k] = k;
  best.peak = peak_live_bytes(graph, best.order);
  std::vector<size_t> found = exact_order(m, max_states);
  const bool exact = !found.empty() || m.ops == 0;
  if (found.empty()) found = greedy_order(m);
  if (found.size() == m.ops) {
    const uint64_t peak = peak_live_bytes(graph, found);
    if (peak < best.peak) {
      best.order = std::move(found);
      best.peak = peak;
    }
  }
  best.exact = exact;
  return best;
}

void reorder(ir::Graph& graph, const std::vector<size_t>& order) {
  std::vector<ir::Node> nodes;
  nodes.reserve(order.size());
  for (size_t k : order) nodes.push_back(graph.nodes[k]);
  graph.nodes = std::move(nodes);
}

}  // namespace mote::schedule
