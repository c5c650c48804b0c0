// fill_state: each persistent tensor (state) gets a fill_bytes init node at the front of
// the graph, so the first run after load() or reset_state() starts it at TFLite Micro's
// reset value and the runtime writes no state itself (passes.h).
#include <string>
#include <utility>

#include "passes/passes.h"

namespace mote::passes {

void fill_state(ir::Graph& graph) {
  std::vector<ir::Node> fills;
  for (size_t id = 0; id < graph.tensors.size(); ++id) {
    const ir::Tensor& t = graph.tensors[id];
    if (!t.is_persistent) continue;
    // The low byte of the zero point, as TFLite Micro's memset of a variable (0 for float).
    const int32_t zero_point = t.quant.zero_points.empty() ? 0 : t.quant.zero_points[0];
    ir::Node fill;
    fill.name = t.name + " (initial value)";
    fill.op = ir::Op::kFillBytes;
    fill.outputs = {static_cast<int>(id)};
    fill.attrs["value"] = static_cast<int64_t>(static_cast<uint8_t>(zero_point));
    fills.push_back(std::move(fill));
  }
  if (fills.empty()) return;
  graph.init_nodes += fills.size();
  graph.nodes.insert(graph.nodes.begin(), std::make_move_iterator(fills.begin()),
                     std::make_move_iterator(fills.end()));
}

}  // namespace mote::passes
