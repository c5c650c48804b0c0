#include "planner/memory_planner.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>

#include "common/error.h"

namespace mote::planner {
namespace {

struct Placed {
  uint64_t offset;
  uint64_t end;
};

bool lifetimes_intersect(const Buffer& a, const Buffer& b) {
  return a.first_op <= b.last_op && b.first_op <= a.last_op;
}

enum class GapRule { kFirstFit, kBestFit };

// Places buffers in `order` and returns their offsets (indexed like `buffers`).
std::vector<uint64_t> place(const std::vector<Buffer>& buffers, const std::vector<uint64_t>& sizes,
                            const std::vector<size_t>& order, GapRule rule) {
  const uint64_t kUnplaced = std::numeric_limits<uint64_t>::max();
  std::vector<uint64_t> offsets(buffers.size(), kUnplaced);
  std::vector<size_t> placed;
  placed.reserve(buffers.size());
  std::vector<Placed> conflicts;
  for (size_t index : order) {
    const uint64_t size = sizes[index];
    conflicts.clear();
    if (size != 0) {
      for (size_t other : placed) {
        if (sizes[other] != 0 && lifetimes_intersect(buffers[index], buffers[other]))
          conflicts.push_back({offsets[other], offsets[other] + sizes[other]});
      }
    }
    std::sort(conflicts.begin(), conflicts.end(),
              [](const Placed& a, const Placed& b) { return a.offset < b.offset; });

    // Walk the gaps between conflicting buffers, lowest first.
    uint64_t chosen = kUnplaced;
    uint64_t chosen_gap = kUnplaced;
    uint64_t cursor = 0;
    for (const Placed& c : conflicts) {
      if (c.offset > cursor) {
        const uint64_t gap = c.offset - cursor;
        if (gap >= size) {
          if (rule == GapRule::kFirstFit) {
            chosen = cursor;
            break;
          }
          if (gap < chosen_gap) {
            chosen = cursor;
            chosen_gap = gap;
          }
        }
      }
      cursor = std::max(cursor, c.end);
    }
    if (chosen == kUnplaced) chosen = cursor;  // above every conflicting buffer
    offsets[index] = chosen;
    placed.push_back(index);
  }
  return offsets;
}

uint64_t arena_of(const std::vector<uint64_t>& offsets, const std::vector<uint64_t>& sizes) {
  uint64_t arena = 0;
  for (size_t i = 0; i < offsets.size(); ++i) arena = std::max(arena, offsets[i] + sizes[i]);
  return arena;
}

uint64_t compute_lower_bound(const std::vector<Buffer>& buffers, const std::vector<uint64_t>& sizes) {
  if (buffers.empty()) return 0;
  uint32_t last = 0;
  for (const Buffer& b : buffers) last = std::max(last, b.last_op);
  // Difference array over ops: +size at first_op, -size after last_op.
  std::vector<int64_t> delta(static_cast<size_t>(last) + 2, 0);
  for (size_t i = 0; i < buffers.size(); ++i) {
    delta[buffers[i].first_op] += static_cast<int64_t>(sizes[i]);
    delta[static_cast<size_t>(buffers[i].last_op) + 1] -= static_cast<int64_t>(sizes[i]);
  }
  int64_t live = 0;
  int64_t peak = 0;
  for (uint32_t op = 0; op <= last; ++op) {
    live += delta[op];
    peak = std::max(peak, live);
  }
  return static_cast<uint64_t>(peak);
}

}  // namespace

Plan plan_memory(const std::vector<Buffer>& buffers, uint32_t alignment) {
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

  Plan best;
  best.lower_bound = compute_lower_bound(buffers, sizes);
  if (buffers.empty()) {
    best.strategy = "empty";
    return best;
  }

  auto duration = [&](size_t i) -> uint64_t {
    return uint64_t{buffers[i].last_op} - buffers[i].first_op + 1;
  };
  using Less = std::function<bool(size_t, size_t)>;
  // Each comparator is a strict order; ties fall back to the buffer index (stable sort).
  const std::vector<std::pair<std::string, Less>> orders = {
      {"size", [&](size_t a, size_t b) { return sizes[a] > sizes[b]; }},
      {"start",
       [&](size_t a, size_t b) {
         if (buffers[a].first_op != buffers[b].first_op)
           return buffers[a].first_op < buffers[b].first_op;
         return sizes[a] > sizes[b];
       }},
      {"area",
       [&](size_t a, size_t b) {
         // size * duration compared without overflow in 128 bits.
         const unsigned __int128 area_a = static_cast<unsigned __int128>(sizes[a]) * duration(a);
         const unsigned __int128 area_b = static_cast<unsigned __int128>(sizes[b]) * duration(b);
         return area_a > area_b;
       }},
      {"duration",
       [&](size_t a, size_t b) {
         if (duration(a) != duration(b)) return duration(a) > duration(b);
         return sizes[a] > sizes[b];
       }},
  };
  const std::pair<std::string, GapRule> rules[] = {{"first-fit", GapRule::kFirstFit},
                                                   {"best-fit", GapRule::kBestFit}};

  bool have_best = false;
  for (const auto& [order_name, less] : orders) {
    std::vector<size_t> order(buffers.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), less);
    for (const auto& [rule_name, rule] : rules) {
      std::vector<uint64_t> offsets = place(buffers, sizes, order, rule);
      const uint64_t arena = arena_of(offsets, sizes);
      if (!have_best || arena < best.arena_bytes) {
        best.offsets = std::move(offsets);
        best.arena_bytes = arena;
        best.strategy = order_name + "/" + rule_name;
        have_best = true;
      }
      if (best.arena_bytes == best.lower_bound) return best;  // cannot do better
    }
  }
  return best;
}

}  // namespace mote::planner
