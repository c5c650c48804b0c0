// Execution order for graphs with branches (residual adds, concatenations, several
// outputs): among the topological orders of the nodes, the one whose peak of live
// activation bytes is lowest.
//
// The model counts what the arena must hold: a tensor is live from the op that produces
// it (graph inputs from the start) to the last op that reads it (graph outputs to the
// end); during an op its inputs and outputs are live together. A reshape's output shares
// its input's bytes (lowering aliases it).
//
// Small graphs get an exact search: a dynamic program over the sets of ops already run
// (the live bytes depend only on that set), layer by layer, keeping per set the lowest
// peak that reaches it. When the sets would exceed a budget (wide graphs), a greedy
// order is used instead: always the ready op after which the fewest bytes are live,
// ties to the earlier op of the original order.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"

namespace mote::schedule {

// Peak live activation bytes of running graph.nodes in `order` (indices into nodes).
uint64_t peak_live_bytes(const ir::Graph& graph, const std::vector<size_t>& order);

struct OrderResult {
  std::vector<size_t> order;  // indices into graph.nodes
  uint64_t peak = 0;          // peak_live_bytes of that order
  bool exact = false;         // from the exhaustive search (else greedy)
};

// The order with the lowest peak (exact when the search stays within max_states sets;
// never worse than the graph's own order).
OrderResult min_peak_order(const ir::Graph& graph, size_t max_states = 20000);

// graph.nodes permuted into `order`.
void reorder(ir::Graph& graph, const std::vector<size_t>& order);

}  // namespace mote::schedule
