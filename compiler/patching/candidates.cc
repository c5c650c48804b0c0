// The patching search's candidates (patching.h, rank_candidates), ranked without lowering.
#include <algorithm>
#include <tuple>

#include "common/error.h"
#include "patching/patching.h"

namespace mote::patching {
namespace {

constexpr int kGrids[][2] = {{2, 1}, {3, 1}, {4, 1}, {6, 1}, {8, 1}, {2, 2}, {3, 3},
                             {4, 4}, {5, 5}, {6, 6}, {8, 8}, {3, 2}, {4, 3}};
constexpr size_t kStartsPerRun = 3;

// The activation bytes live at each op of the execution order (graph inputs from the
// first op, outputs to the last; no scratch). An elementwise op whose input dies there
// and may be written over counts only that input's bytes (e.g. a float input quantized
// in place before the first tile crops it).
std::vector<int64_t> live_bytes(const ir::Graph& g) {
  const size_t ops = g.nodes.size();
  if (ops == 0) return {};
  std::vector<int64_t> first(g.tensors.size(), -1), last(g.tensors.size(), -1);
  for (int id : g.inputs) first[id] = 0;
  for (size_t k = 0; k < ops; ++k) {
    for (int id : g.nodes[k].outputs) first[id] = static_cast<int64_t>(k);
    for (int id : g.nodes[k].inputs)
      if (id != ir::kNoTensor) last[id] = static_cast<int64_t>(k);
  }
  for (int id : g.outputs) last[id] = static_cast<int64_t>(ops - 1);
  std::vector<int64_t> delta(ops + 1, 0);
  for (size_t id = 0; id < g.tensors.size(); ++id) {
    if (g.tensors[id].is_constant || first[id] < 0) continue;
    const int64_t end = std::max(first[id], last[id]);
    delta[static_cast<size_t>(first[id])] += g.tensors[id].bytes();
    delta[static_cast<size_t>(end) + 1] -= g.tensors[id].bytes();
  }
  for (size_t k = 0; k < ops; ++k) {
    const ir::Node& node = g.nodes[k];
    if (node.outputs.size() != 1 || !ir::op_traits(node.op).writes_over_input) continue;
    const ir::Tensor& out = g.tensors[node.outputs[0]];
    for (int id : node.inputs) {
      if (id == ir::kNoTensor) continue;
      const ir::Tensor& in = g.tensors[id];
      if (in.is_constant || in.shape != out.shape || dtype_size(in.dtype) < dtype_size(out.dtype) ||
          last[id] != static_cast<int64_t>(k) || first[id] < 0 ||
          std::find(g.outputs.begin(), g.outputs.end(), id) != g.outputs.end()) {
        continue;
      }
      delta[k] -= out.bytes();  // the output's bytes are the input's at this op only
      delta[k + 1] += out.bytes();
      break;
    }
  }
  std::vector<int64_t> live(ops);
  int64_t sum = 0;
  for (size_t k = 0; k < ops; ++k) live[k] = sum += delta[k];
  return live;
}

uint64_t live_peak(const ir::Graph& g) {
  const std::vector<int64_t> live = live_bytes(g);
  return live.empty() ? 0 : static_cast<uint64_t>(std::max<int64_t>(0, *std::max_element(live.begin(), live.end())));
}

// Convolution MACs (the part patching repeats) of nodes [first, end).
uint64_t stage_conv_macs(const ir::Graph& g, size_t first, size_t end) {
  uint64_t macs = 0;
  for (size_t k = first; k < end; ++k) {
    const ir::Node& node = g.nodes[k];
    if (!node.outputs.empty()) macs += conv_macs(g, node, g.tensors[node.outputs[0]].elements());
  }
  return macs;
}

}  // namespace

RankedCandidates rank_candidates(const ir::Graph& graph, double max_recompute) {
  RankedCandidates result;
  ir::Graph skeleton = graph;
  for (ir::Tensor& t : skeleton.tensors)
    if (t.is_constant) t.data.clear();
  const size_t ops = skeleton.nodes.size();
  const uint64_t base_peak = live_peak(skeleton);
  const uint64_t base_macs = stage_conv_macs(skeleton, 0, ops);
  const auto cap = static_cast<uint64_t>(max_recompute * static_cast<double>(base_macs));
  // A patched graph's live bytes outside its stage [s, e) are the unpatched graph's: its
  // peak is at least max(peak before s, peak from e on).
  const std::vector<int64_t> live = live_bytes(skeleton);
  std::vector<int64_t> peak_before(ops + 1, 0), peak_from(ops + 1, 0);
  for (size_t k = 0; k < ops; ++k) peak_before[k + 1] = std::max(peak_before[k], live[k]);
  for (size_t k = ops; k-- > 0;) peak_from[k] = std::max(peak_from[k + 1], live[k]);

  std::vector<bool> patchable(ops);
  for (size_t k = 0; k < ops; ++k) patchable[k] = node_problem(skeleton, k).empty();
  for (size_t s = 0; s < ops; ++s) {
    if (!patchable[s]) continue;
    size_t run_head = s;
    while (run_head > 0 && patchable[run_head - 1]) --run_head;
    if (s - run_head >= kStartsPerRun) continue;
    for (size_t e = s + 1; e <= ops && patchable[e - 1]; ++e) {
      if (!stage_problem(skeleton, s, e).empty()) continue;
      const uint64_t outside_macs = base_macs - stage_conv_macs(skeleton, s, e);
      const bool may_lower_peak = static_cast<uint64_t>(std::max(peak_before[s], peak_from[e])) < base_peak;
      bool any_within_cap = false;
      for (const auto& grid : kGrids) {
        const Stage stage{s, e, grid[0], grid[1]};
        uint64_t macs = 0;
        try {
          macs = outside_macs + tile_conv_macs(skeleton, stage);
        } catch (const CompileError&) {
          continue;  // the grid does not fit this stage's output
        }
        ++result.tried;
        if (macs > base_macs + cap) continue;
        any_within_cap = true;
        if (!may_lower_peak) continue;
        const uint64_t peak = live_peak(patch_stage(skeleton, stage));
        if (peak < base_peak) result.ranked.push_back({stage, peak, macs});
      }
      if (!any_within_cap) break;  // a longer stage only widens the halo
    }
  }
  std::sort(result.ranked.begin(), result.ranked.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.peak, a.macs, a.stage.first, a.stage.end) < std::tie(b.peak, b.macs, b.stage.first, b.stage.end);
  });
  return result;
}

}  // namespace mote::patching
