#include "planner/in_place_links.h"

#include <algorithm>
#include <map>

namespace mote::planner {

LinkedPlan plan_with_in_place_links(const std::vector<Buffer>& buffers, const std::vector<size_t>& linked,
                                    uint32_t alignment, Effort effort) {
  LinkedPlan result;
  if (linked.empty()) {
    result.plan = plan_memory(buffers, alignment, effort);
    result.plans = 1;
    return result;
  }
  const std::vector<uint64_t> live = live_bytes_per_op(buffers, alignment);
  const uint64_t bound = *std::max_element(live.begin(), live.end());
  auto saving = [&](size_t to) {
    const Buffer& b = buffers[to];
    const uint64_t size = align_up(b.bytes, alignment);
    const uint64_t from = align_up(buffers[static_cast<size_t>(b.in_place_of)].bytes, alignment);
    return size > b.in_place_shift ? std::min(size - b.in_place_shift, from) : uint64_t{0};
  };
  std::vector<size_t> by_saving = linked;
  std::stable_sort(by_saving.begin(), by_saving.end(), [&](size_t a, size_t b) { return saving(a) < saving(b); });

  struct Candidate {
    std::vector<bool> on;  // per entry of `linked`
    Plan plan;
    size_t links = 0;
  };
  // `buffers` with the links of `linked` that `on` leaves off removed.
  auto with_links = [&](const std::vector<bool>& on) {
    std::vector<Buffer> trial = buffers;
    for (size_t i = 0; i < linked.size(); ++i) {
      if (on[i]) continue;
      trial[linked[i]].in_place_of = -1;
      trial[linked[i]].in_place_shift = 0;
    }
    return trial;
  };
  // The descents revisit sets of links (each starts with the toggles of its start):
  // every set is planned once, greedily; with Effort::kRepair the set kept is planned again
  // with the repair when the greedy plan misses its bound, and so is the set of all
  // links (its bound is the lowest), the better of the two kept.
  std::map<std::vector<bool>, Plan> planned;
  auto evaluate = [&](std::vector<bool> on) {
    Candidate c;
    c.links = static_cast<size_t>(std::count(on.begin(), on.end(), true));
    auto found = planned.find(on);
    if (found == planned.end()) {
      found = planned.emplace(on, plan_memory(with_links(on), alignment, Effort::kGreedy)).first;
      ++result.plans;
    }
    c.on = std::move(on);
    c.plan = found->second;
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
  auto finish = [&](const Candidate& c) {
    result.plan = c.plan;
    if (effort == Effort::kGreedy || result.plan.arena_bytes == result.plan.lower_bound) return result;
    std::vector<std::vector<bool>> repaired = {c.on};
    if (std::count(c.on.begin(), c.on.end(), false) != 0) repaired.emplace_back(linked.size(), true);
    for (const std::vector<bool>& on : repaired) {
      Plan plan = plan_memory(with_links(on), alignment, Effort::kRepair);
      ++result.plans;
      if (plan.arena_bytes < result.plan.arena_bytes ||
          (plan.arena_bytes == result.plan.arena_bytes && plan.arena_bytes == plan.lower_bound &&
           result.plan.arena_bytes != result.plan.lower_bound))
        result.plan = std::move(plan);
    }
    return result;
  };
  for (Candidate& start : starts) {
    if (better(start, best)) best = start;
    if (done(best)) return finish(best);
  }
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
      if (done(best)) return finish(best);
    }
  }
  return finish(best);
}

}  // namespace mote::planner
