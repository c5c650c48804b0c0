#include "planner/memory_planner.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <limits>
#include <numeric>

#include "common/error.h"

namespace mote::planner {
namespace {

// A unit of placement: one buffer, or an in-place chain of buffers that all start at
// the same offset. `size`, `first_op` and `last_op` span the members (for the orders).
struct Group {
  std::vector<size_t> members;
  std::vector<uint64_t> relative;  // member offset - group base offset
  uint64_t size = 0;
  uint32_t first_op = 0;
  uint32_t last_op = 0;
};

// An interval of base offsets [lo, hi) a group may not start in.
struct Forbidden {
  uint64_t lo;
  uint64_t hi;
};

enum class GapRule { kFirstFit, kBestFit };

// Per buffer, the other non-empty buffers whose lifetimes intersect its own: the only
// ones a placement must keep it clear of. Built once per plan_memory (a sweep over the
// buffers by first op, O(n log n + pairs)) and shared by all its placements.
std::vector<std::vector<uint32_t>> live_together(const std::vector<Buffer>& buffers,
                                                 const std::vector<uint64_t>& sizes) {
  std::vector<uint32_t> by_start;
  for (size_t i = 0; i < buffers.size(); ++i)
    if (sizes[i] != 0) by_start.push_back(static_cast<uint32_t>(i));
  std::stable_sort(by_start.begin(), by_start.end(),
                   [&](uint32_t a, uint32_t b) { return buffers[a].first_op < buffers[b].first_op; });
  std::vector<std::vector<uint32_t>> together(buffers.size());
  for (size_t i = 0; i < by_start.size(); ++i) {
    const uint32_t a = by_start[i];
    // Every later-starting buffer that starts before a ends is live with a.
    for (size_t j = i + 1; j < by_start.size() && buffers[by_start[j]].first_op <= buffers[a].last_op; ++j) {
      together[a].push_back(by_start[j]);
      together[by_start[j]].push_back(a);
    }
  }
  return together;
}

// Places groups in `order` and returns each buffer's offset (indexed like `buffers`).
// A group at base offset o conflicts with a placed buffer h (at off_h, size_h) when one
// of its members g is live together with h and [o, o + size_g) meets [off_h, off_h +
// size_h), i.e. when o lies in (off_h - size_g, off_h + size_h). The walk over those
// forbidden intervals, lowest first, finds the gaps; first fit takes the lowest gap,
// best fit the tightest one (least slack), else the group goes above everything.
// A group pinned at a given base is placed before all others (and skipped in `order`).
// `together` is live_together(buffers, sizes).
struct Pin {
  size_t group = SIZE_MAX;
  uint64_t base = 0;
};

std::vector<uint64_t> place(const std::vector<uint64_t>& sizes, const std::vector<std::vector<uint32_t>>& together,
                            const std::vector<Group>& groups, const std::vector<size_t>& order, GapRule rule,
                            Pin pin = {}) {
  const uint64_t kUnplaced = std::numeric_limits<uint64_t>::max();
  std::vector<uint64_t> offsets(sizes.size(), kUnplaced);
  if (pin.group != SIZE_MAX) {
    const Group& group = groups[pin.group];
    for (size_t m = 0; m < group.members.size(); ++m) offsets[group.members[m]] = pin.base + group.relative[m];
  }
  std::vector<Forbidden> forbidden;
  for (size_t group_index : order) {
    if (group_index == pin.group) continue;
    const Group& group = groups[group_index];
    forbidden.clear();
    for (size_t m = 0; m < group.members.size(); ++m) {
      const size_t member = group.members[m];
      const uint64_t size = sizes[member];
      const uint64_t rel = group.relative[m];
      if (size == 0) continue;
      for (const uint32_t other : together[member]) {
        if (offsets[other] == kUnplaced) continue;
        // base + rel in (off - size, off + size_other)
        const uint64_t hi = offsets[other] + sizes[other];
        if (hi <= rel) continue;
        const uint64_t lo = offsets[other] + 1 >= size + rel ? offsets[other] + 1 - size - rel : 0;
        forbidden.push_back({lo, hi - rel});
      }
    }
    std::sort(forbidden.begin(), forbidden.end(),
              [](const Forbidden& a, const Forbidden& b) { return a.lo < b.lo; });

    uint64_t chosen = kUnplaced;
    uint64_t chosen_slack = kUnplaced;
    uint64_t cursor = 0;
    for (const Forbidden& f : forbidden) {
      if (f.lo > cursor) {
        const uint64_t slack = f.lo - cursor;
        if (rule == GapRule::kFirstFit) {
          chosen = cursor;
          break;
        }
        if (slack < chosen_slack) {
          chosen = cursor;
          chosen_slack = slack;
        }
      }
      cursor = std::max(cursor, f.hi);
    }
    if (chosen == kUnplaced) chosen = cursor;  // above every conflicting buffer
    for (size_t m = 0; m < group.members.size(); ++m) offsets[group.members[m]] = chosen + group.relative[m];
  }
  return offsets;
}

uint64_t arena_of(const std::vector<uint64_t>& offsets, const std::vector<uint64_t>& sizes) {
  uint64_t arena = 0;
  for (size_t i = 0; i < offsets.size(); ++i) arena = std::max(arena, offsets[i] + sizes[i]);
  return arena;
}

std::vector<uint64_t> live_per_op(const std::vector<Buffer>& buffers, const std::vector<uint64_t>& sizes) {
  if (buffers.empty()) return {};
  uint32_t last = 0;
  for (const Buffer& b : buffers) last = std::max(last, b.last_op);
  // Difference array over ops: +size at first_op, -size after last_op; an in-place pair
  // shares its smaller size at the op where one hands over to the other.
  std::vector<int64_t> delta(static_cast<size_t>(last) + 2, 0);
  for (size_t i = 0; i < buffers.size(); ++i) {
    delta[buffers[i].first_op] += static_cast<int64_t>(sizes[i]);
    delta[static_cast<size_t>(buffers[i].last_op) + 1] -= static_cast<int64_t>(sizes[i]);
    if (buffers[i].in_place_of >= 0) {
      // The pair overlaps on [from - shift, from - shift + size_i) within [from, from + size_from).
      const size_t from = static_cast<size_t>(buffers[i].in_place_of);
      const uint64_t shift = buffers[i].in_place_shift;
      const int64_t shared = sizes[i] > shift ? static_cast<int64_t>(std::min(sizes[i] - shift, sizes[from])) : 0;
      delta[buffers[i].first_op] -= shared;
      delta[static_cast<size_t>(buffers[i].first_op) + 1] += shared;
    }
  }
  std::vector<uint64_t> live_at(static_cast<size_t>(last) + 1, 0);
  int64_t live = 0;
  for (uint32_t op = 0; op <= last; ++op) {
    live += delta[op];
    live_at[op] = static_cast<uint64_t>(live);
  }
  return live_at;
}

uint64_t compute_lower_bound(const std::vector<Buffer>& buffers, const std::vector<uint64_t>& sizes) {
  const std::vector<uint64_t> live = live_per_op(buffers, sizes);
  return live.empty() ? 0 : *std::max_element(live.begin(), live.end());
}

// Checks the in-place links and gathers the chains (in buffer order of their heads).
std::vector<Group> make_groups(const std::vector<Buffer>& buffers, const std::vector<uint64_t>& sizes,
                               uint32_t alignment) {
  const size_t n = buffers.size();
  std::vector<int64_t> next(n, -1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t from = buffers[i].in_place_of;
    if (from < 0) continue;
    const std::string name = "memory planner: buffer " + std::to_string(i) + " in place of buffer " +
                             std::to_string(from);
    if (static_cast<uint64_t>(from) >= n || static_cast<size_t>(from) == i)
      throw CompileError(name + ": no such other buffer");
    if (buffers[from].last_op != buffers[i].first_op) {
      throw CompileError(name + ": that buffer ends at op " + std::to_string(buffers[from].last_op) +
                         ", not at op " + std::to_string(buffers[i].first_op) + " where this one starts");
    }
    if (buffers[from].in_place_of >= 0 && buffers[from].first_op == buffers[from].last_op) {
      // It would be live together with its own predecessor at that one op.
      throw CompileError(name + ": that buffer lives only at op " + std::to_string(buffers[from].first_op) +
                         " and is itself in place of another");
    }
    if (buffers[i].in_place_shift % alignment != 0) {
      throw CompileError(name + ": shift " + std::to_string(buffers[i].in_place_shift) +
                         " is not a multiple of the alignment " + std::to_string(alignment));
    }
    if (next[from] >= 0)
      throw CompileError(name + ": buffer " + std::to_string(next[from]) + " is already in its place");
    next[from] = static_cast<int64_t>(i);
  }
  std::vector<Group> groups;
  for (size_t i = 0; i < n; ++i) {
    if (buffers[i].in_place_of >= 0) continue;  // not a chain head
    Group g;
    g.first_op = buffers[i].first_op;
    g.last_op = buffers[i].last_op;
    // Lifetimes strictly advance along a chain except for one-op buffers, so it ends.
    std::vector<int64_t> position;  // relative to the head, which is at 0
    for (int64_t k = static_cast<int64_t>(i); k >= 0; k = next[k]) {
      if (g.members.size() > n) throw CompileError("memory planner: in-place links form a cycle");
      position.push_back(g.members.empty() ? 0
                                           : position.back() - static_cast<int64_t>(buffers[k].in_place_shift));
      g.members.push_back(static_cast<size_t>(k));
      g.first_op = std::min(g.first_op, buffers[k].first_op);
      g.last_op = std::max(g.last_op, buffers[k].last_op);
    }
    const int64_t lowest = *std::min_element(position.begin(), position.end());
    for (size_t m = 0; m < g.members.size(); ++m) {
      g.relative.push_back(static_cast<uint64_t>(position[m] - lowest));
      g.size = std::max(g.size, g.relative[m] + sizes[g.members[m]]);
    }
    groups.push_back(std::move(g));
  }
  size_t grouped = 0;
  for (const Group& g : groups) grouped += g.members.size();
  if (grouped != n) throw CompileError("memory planner: in-place links form a cycle");
  return groups;
}

// The smallest arena a chain allows, whatever the other buffers do, and the chain base
// that reaches it. A chain is rigid: at op k its live members fill a fixed window
// [lo_k, hi_k) above its base c, and the other bytes live at k (L_k: single buffers, and
// other chains' handover pairs as their union) must fit below the window, in [0, c + lo_k),
// or above it, in [c + hi_k, arena). They cannot be split, so the most that fits below is
// the largest subset sum of their sizes that is <= c + lo_k (best_k), and
//   arena >= max(c + span, max over k of c + hi_k + L_k - best_k(c + lo_k)).
// Every constraint here holds for any valid placement (the others -- other buffers'
// lifetimes across ops, other chains' rigidity -- are dropped), so the minimum over c is
// a lower bound on the arena. Ops where the chain's live members leave a gap between
// them are skipped (also a relaxation).
struct ChainBound {
  uint64_t bound = 0;
  uint64_t base = 0;
};

ChainBound chain_bound(const std::vector<Buffer>& buffers, const std::vector<uint64_t>& sizes,
                       const std::vector<Group>& groups, const std::vector<size_t>& group_of,
                       const std::vector<std::vector<size_t>>& live_at, size_t group_index) {
  // Subset sums are enumerated up to this many distinct values per op; past it the op's
  // items count as divisible (best_k(x) = min(x, L_k)), a weaker but still valid bound.
  constexpr size_t kMaxSums = 4096;
  const Group& g = groups[group_index];
  struct OpWindow {
    uint64_t lo = 0, hi = 0, others = 0;
    std::vector<uint64_t> sums;  // reachable subset sums, ascending; empty: divisible
  };
  std::vector<OpWindow> windows;
  std::vector<uint64_t> items, next;
  std::vector<bool> merged(buffers.size(), false);
  for (uint64_t op = g.first_op; op <= g.last_op; ++op) {
    // The chain's window at this op.
    std::vector<std::pair<uint64_t, uint64_t>> spans;
    for (size_t m = 0; m < g.members.size(); ++m) {
      const Buffer& b = buffers[g.members[m]];
      if (sizes[g.members[m]] == 0 || op < b.first_op || op > b.last_op) continue;
      spans.push_back({g.relative[m], g.relative[m] + sizes[g.members[m]]});
    }
    if (spans.empty()) continue;
    std::sort(spans.begin(), spans.end());
    OpWindow w;
    w.lo = spans[0].first;
    w.hi = spans[0].second;
    bool contiguous = true;
    for (const auto& [lo, hi] : spans) {
      if (lo > w.hi) contiguous = false;
      w.hi = std::max(w.hi, hi);
    }
    if (!contiguous) continue;
    // The other live bytes as items; a handover pair that overlaps is one item.
    items.clear();
    const std::vector<size_t>& live = live_at[static_cast<size_t>(op)];
    for (size_t i : live) {
      const Buffer& b = buffers[i];
      if (group_of[i] == group_index || b.in_place_of < 0 || b.first_op != op || sizes[i] == 0) continue;
      const size_t from = static_cast<size_t>(b.in_place_of);
      if (sizes[from] == 0 || sizes[i] <= b.in_place_shift) continue;  // they do not overlap
      items.push_back(std::max(sizes[from] + b.in_place_shift, sizes[i]));
      merged[i] = merged[from] = true;
    }
    for (size_t i : live) {
      if (group_of[i] == group_index || merged[i] || sizes[i] == 0) continue;
      items.push_back(sizes[i]);
    }
    for (size_t i : live) merged[i] = false;
    w.sums = {0};
    for (uint64_t item : items) {
      w.others += item;
      if (w.sums.empty()) continue;
      std::vector<uint64_t> shifted(w.sums);
      for (uint64_t& v : shifted) v += item;
      next.clear();
      std::merge(w.sums.begin(), w.sums.end(), shifted.begin(), shifted.end(), std::back_inserter(next));
      next.erase(std::unique(next.begin(), next.end()), next.end());
      if (next.size() > kMaxSums) {
        w.sums.clear();
      } else {
        w.sums.swap(next);
      }
    }
    windows.push_back(std::move(w));
  }
  // At base c, op k needs c + hi_k + L_k - best_k(c + lo_k). Between the bases where some
  // c + lo_k reaches a subset sum this only grows with c, so the minimum over c is at
  // c = 0 or at one of those bases.
  std::vector<uint64_t> bases = {0};
  for (const OpWindow& w : windows)
    for (uint64_t sum : w.sums)
      if (sum > w.lo) bases.push_back(sum - w.lo);
  std::sort(bases.begin(), bases.end());
  bases.erase(std::unique(bases.begin(), bases.end()), bases.end());
  ChainBound result{std::numeric_limits<uint64_t>::max(), 0};
  for (uint64_t c : bases) {
    uint64_t arena = c + g.size;
    for (const OpWindow& w : windows) {
      const uint64_t room = c + w.lo;
      uint64_t below = std::min(room, w.others);
      if (!w.sums.empty()) below = *(std::upper_bound(w.sums.begin(), w.sums.end(), room) - 1);
      arena = std::max(arena, c + w.hi + w.others - below);
      if (arena >= result.bound) break;
    }
    if (arena < result.bound) result = {arena, c};
  }
  return result;
}

}  // namespace

std::vector<uint64_t> live_bytes_per_op(const std::vector<Buffer>& buffers, uint32_t alignment) {
  if (alignment == 0) throw CompileError("memory planner: alignment must be non-zero");
  std::vector<uint64_t> sizes(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) sizes[i] = align_up(buffers[i].bytes, alignment);
  return live_per_op(buffers, sizes);
}

// How many chains are tried pinned (8 placements each) when the plain orders miss the bound.
constexpr size_t kMaxPinnedChains = 2;
// The placements the repair tries in all (shared by the orders and gap rules), fewer
// when many buffers are live together: at most kRepairPairVisits pairs visited.
constexpr size_t kRepairPlacements = 32768;
constexpr uint64_t kRepairPairVisits = uint64_t{1} << 24;

// The repair (Effort::kRepair): each order of `sorted` (all sorted by plan_memory's
// orders) is perturbed and placed again, up to kRepairPlacements placements shared by the
// orders and gap rules. A trial moves the group that sets the arena's top of the order's
// current placement to the front (a group placed first takes the lowest offsets its
// lifetime allows), or, every other trial, swaps two groups chosen by a fixed xorshift
// sequence (plans are reproducible); a trial that does not raise the arena becomes the
// order's current one. `best` takes any placement below its arena; stops at its bound.
void repair(const std::vector<uint64_t>& sizes, const std::vector<std::vector<uint32_t>>& together,
            const std::vector<Group>& groups, const std::vector<size_t>& group_of,
            const std::vector<std::string>& order_names, const std::vector<std::vector<size_t>>& sorted,
            Plan& best) {
  const std::pair<std::string, GapRule> rules[] = {{"first-fit", GapRule::kFirstFit},
                                                   {"best-fit", GapRule::kBestFit}};
  uint64_t pairs = 1;
  for (const std::vector<uint32_t>& others : together) pairs += others.size();
  const size_t trials_per_order =
      std::min<uint64_t>(kRepairPlacements, kRepairPairVisits / pairs) / (sorted.size() * std::size(rules));
  uint32_t rng = 0x9E3779B9u;
  auto next = [&rng] {
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
  };
  for (size_t o = 0; o < sorted.size(); ++o) {
    if (sorted[o].empty()) continue;  // not sorted: plan_memory stopped before it
    for (const auto& [rule_name, rule] : rules) {
      std::vector<size_t> order = sorted[o];
      std::vector<uint64_t> placed = place(sizes, together, groups, order, rule);
      uint64_t arena = arena_of(placed, sizes);
      for (size_t trial = 0; trial < trials_per_order; ++trial) {
        std::vector<size_t> moved = order;
        if (trial % 2 == 0) {
          size_t top = 0;
          while (placed[top] + sizes[top] != arena) ++top;
          const auto at = std::find(moved.begin(), moved.end(), group_of[top]);
          std::rotate(moved.begin(), at, at + 1);
        } else {
          const size_t a = next() % moved.size(), b = next() % moved.size();
          std::swap(moved[a], moved[b]);
        }
        std::vector<uint64_t> tried = place(sizes, together, groups, moved, rule);
        const uint64_t tried_arena = arena_of(tried, sizes);
        if (tried_arena > arena) continue;
        order = std::move(moved);
        placed = std::move(tried);
        arena = tried_arena;
        if (arena < best.arena_bytes) {
          best.offsets = placed;
          best.arena_bytes = arena;
          best.strategy = order_names[o] + "/" + rule_name + ", repaired (trial " + std::to_string(trial + 1) + ")";
          if (arena == best.lower_bound) return;
        }
      }
    }
  }
}

Plan plan_memory(const std::vector<Buffer>& buffers, uint32_t alignment, Effort effort) {
  if (alignment == 0) throw CompileError("memory planner: alignment must be non-zero");
  std::vector<uint64_t> sizes(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    const Buffer& b = buffers[i];
    if (b.last_op < b.first_op) {
      throw CompileError("memory planner: buffer " + std::to_string(i) + " ends at op " +
                         std::to_string(b.last_op) + " before it starts at op " +
                         std::to_string(b.first_op));
    }
    sizes[i] = align_up(b.bytes, alignment);
  }

  const std::vector<Group> groups = make_groups(buffers, sizes, alignment);
  Plan best;
  best.lower_bound = compute_lower_bound(buffers, sizes);
  if (buffers.empty()) {
    best.strategy = "empty";
    return best;
  }

  // The orders sort groups (a plain buffer is a group of one).
  auto duration = [&](size_t i) -> uint64_t {
    return uint64_t{groups[i].last_op} - groups[i].first_op + 1;
  };
  using Less = std::function<bool(size_t, size_t)>;
  // Each comparator is a strict order; ties fall back to the buffer index (stable sort).
  const std::vector<std::pair<std::string, Less>> orders = {
      {"size", [&](size_t a, size_t b) { return groups[a].size > groups[b].size; }},
      {"start",
       [&](size_t a, size_t b) {
         if (groups[a].first_op != groups[b].first_op) return groups[a].first_op < groups[b].first_op;
         return groups[a].size > groups[b].size;
       }},
      {"area",
       [&](size_t a, size_t b) {
         // size * duration compared without overflow in 128 bits.
         const unsigned __int128 area_a = static_cast<unsigned __int128>(groups[a].size) * duration(a);
         const unsigned __int128 area_b = static_cast<unsigned __int128>(groups[b].size) * duration(b);
         return area_a > area_b;
       }},
      {"duration",
       [&](size_t a, size_t b) {
         if (duration(a) != duration(b)) return duration(a) > duration(b);
         return groups[a].size > groups[b].size;
       }},
  };
  const std::pair<std::string, GapRule> rules[] = {{"first-fit", GapRule::kFirstFit},
                                                   {"best-fit", GapRule::kBestFit}};

  const std::vector<std::vector<uint32_t>> together = live_together(buffers, sizes);
  bool have_best = false;
  std::vector<std::vector<size_t>> sorted(orders.size());  // each order, sorted when first used
  auto try_orders = [&](Pin pin, const std::string& prefix) {
    for (size_t o = 0; o < orders.size(); ++o) {
      const auto& [order_name, less] = orders[o];
      std::vector<size_t>& order = sorted[o];
      if (order.empty()) {
        order.resize(groups.size());
        std::iota(order.begin(), order.end(), size_t{0});
        std::stable_sort(order.begin(), order.end(), less);
      }
      for (const auto& [rule_name, rule] : rules) {
        std::vector<uint64_t> offsets = place(sizes, together, groups, order, rule, pin);
        const uint64_t arena = arena_of(offsets, sizes);
        if (!have_best || arena < best.arena_bytes) {
          best.offsets = std::move(offsets);
          best.arena_bytes = arena;
          best.strategy = prefix + order_name + "/" + rule_name;
          have_best = true;
        }
        if (best.arena_bytes == best.lower_bound) return true;  // cannot do better
      }
    }
    return false;
  };

  // Chains tighten the bound (chain_bound); each knows the base where it allows it.
  std::vector<size_t> group_of(buffers.size());
  for (size_t gi = 0; gi < groups.size(); ++gi)
    for (size_t member : groups[gi].members) group_of[member] = gi;
  std::vector<std::vector<size_t>> live_at;  // buffers live at each op, for chain_bound
  std::vector<std::pair<size_t, ChainBound>> chains;
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    if (groups[gi].members.size() < 2) continue;
    if (live_at.empty()) {
      uint32_t last = 0;
      for (const Buffer& b : buffers) last = std::max(last, b.last_op);
      live_at.resize(static_cast<size_t>(last) + 1);
      for (size_t i = 0; i < buffers.size(); ++i)
        for (uint64_t op = buffers[i].first_op; op <= buffers[i].last_op; ++op) live_at[static_cast<size_t>(op)].push_back(i);
    }
    const ChainBound cb = chain_bound(buffers, sizes, groups, group_of, live_at, gi);
    best.lower_bound = std::max(best.lower_bound, cb.bound);
    chains.push_back({gi, cb});
  }
  if (try_orders({}, "")) return best;
  // Then chains pinned at the base where their own bound is reached, the others placed
  // around them: tightest chains first, at most kMaxPinnedChains of them, and none below
  // the bound whose base is 0 (the plain orders already tend to put them there).
  std::stable_sort(chains.begin(), chains.end(),
                   [](const auto& a, const auto& b) { return a.second.bound > b.second.bound; });
  size_t pinned = 0;
  for (const auto& [gi, cb] : chains) {
    if (pinned == kMaxPinnedChains) break;
    if (cb.bound < best.lower_bound && cb.base == 0) continue;
    ++pinned;
    if (try_orders({gi, cb.base}, "chain " + std::to_string(groups[gi].members[0]) + " at " +
                                      std::to_string(cb.base) + ", "))
      return best;
  }
  if (effort == Effort::kGreedy) return best;
  std::vector<std::string> order_names;
  for (const auto& named : orders) order_names.push_back(named.first);
  repair(sizes, together, groups, group_of, order_names, sorted, best);
  return best;
}

}  // namespace mote::planner
