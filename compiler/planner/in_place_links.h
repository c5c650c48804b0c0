// Which in-place links a memory plan keeps (compiler/link/ proposes them, this searches).
//
// Every in-place link (planner::Buffer::in_place_of) fixes where its output goes, and
// chains of them drift (each shift moves the next buffer lower), which can cost the
// placement more than the links save. So the links kept are searched: the starting points
// are all links, none, and only the links an op needs to reach the bound all links give
// (a link whose op stays at or under that bound without it is dropped, smallest saving
// first); from each, two descents toggle links one at a time while that lowers the arena:
// first improvement (take a toggle as soon as it helps) and steepest (take the best toggle
// of a pass); they get stuck in different places. A plan is better with a smaller arena,
// then when its arena is its own lower bound (proven optimal for its links), then with
// fewer links. The search stops early at the bound all links give, reached exactly: no
// set of these links plans below it.
//
// Cost: at most 2 * links + 19 sets of links tried, each planned once (plan_memory, itself
// eight or more placements): the descents revisit sets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "planner/memory_planner.h"

namespace mote::planner {

struct LinkedPlan {
  Plan plan;
  size_t plans = 0;  // plan_memory calls the search made
};

// `buffers` with every link of `linked` (indices of buffers whose in_place_of is set) on;
// the links not in `linked` are kept as they are.
// `effort` is the kept plan's (plan_memory's Effort); the candidates are planned greedily.
LinkedPlan plan_with_in_place_links(const std::vector<Buffer>& buffers, const std::vector<size_t>& linked,
                                    uint32_t alignment, Effort effort = Effort::kRepair);

}  // namespace mote::planner
