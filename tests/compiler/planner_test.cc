// The memory planner: no two buffers live at the same op share a byte, the arena is the
// highest end, never below the lower bound, and it reaches the bound where it should.
#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <random>

#include "common/error.h"
#include "planner/memory_planner.h"

namespace mote::planner {
namespace planner_test {

// Checks every invariant of a plan against its buffers (exhaustive pairwise overlap).
void expect_valid_plan(const std::vector<Buffer>& buffers, const Plan& plan, uint32_t alignment) {
  ASSERT_EQ(plan.offsets.size(), buffers.size());
  uint64_t max_end = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    EXPECT_EQ(plan.offsets[i] % alignment, 0u) << "buffer " << i;
    max_end = std::max(max_end, plan.offsets[i] + align_up(buffers[i].bytes, alignment));
  }
  EXPECT_EQ(plan.arena_bytes, max_end);
  EXPECT_GE(plan.arena_bytes, plan.lower_bound);
  for (size_t i = 0; i < buffers.size(); ++i) {
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      const Buffer& a = buffers[i];
      const Buffer& b = buffers[j];
      const bool live_together = a.first_op <= b.last_op && b.first_op <= a.last_op;
      if (!live_together || a.bytes == 0 || b.bytes == 0) continue;
      if (a.in_place_of == static_cast<int64_t>(j) || b.in_place_of == static_cast<int64_t>(i)) {
        // An in-place pair: same offset, live together only at the op that hands over.
        const size_t written = a.in_place_of == static_cast<int64_t>(j) ? i : j;
        const size_t read = written == i ? j : i;
        EXPECT_EQ(plan.offsets[written] + buffers[written].in_place_shift, plan.offsets[read])
            << "in-place buffers " << written << " over " << read;
        EXPECT_TRUE(a.first_op == b.last_op || b.first_op == a.last_op) << i << ", " << j;
        continue;
      }
      const uint64_t a_end = plan.offsets[i] + a.bytes;
      const uint64_t b_end = plan.offsets[j] + b.bytes;
      const bool disjoint = a_end <= plan.offsets[j] || b_end <= plan.offsets[i];
      EXPECT_TRUE(disjoint) << "buffers " << i << " [" << plan.offsets[i] << ", " << a_end << ") and "
                            << j << " [" << plan.offsets[j] << ", " << b_end
                            << ") overlap while both live";
    }
  }
}

// The lower bound recomputed naively, op by op.
uint64_t naive_lower_bound(const std::vector<Buffer>& buffers, uint32_t alignment) {
  uint32_t last = 0;
  for (const Buffer& b : buffers) last = std::max(last, b.last_op);
  uint64_t peak = 0;
  for (uint32_t op = 0; op <= last && !buffers.empty(); ++op) {
    uint64_t live = 0;
    for (const Buffer& b : buffers) {
      if (b.first_op <= op && op <= b.last_op) live += align_up(b.bytes, alignment);
      // An in-place pair occupies its larger buffer's bytes at the op it hands over.
      if (b.in_place_of >= 0 && b.first_op == op) {
        const uint64_t size = align_up(b.bytes, alignment);
        const uint64_t from = align_up(buffers[b.in_place_of].bytes, alignment);
        if (size > b.in_place_shift) live -= std::min(size - b.in_place_shift, from);
      }
    }
    peak = std::max(peak, live);
  }
  return peak;
}

TEST(MemoryPlanner, NoBuffers) {
  const Plan plan = plan_memory({});
  EXPECT_TRUE(plan.offsets.empty());
  EXPECT_EQ(plan.arena_bytes, 0u);
  EXPECT_EQ(plan.lower_bound, 0u);
}

TEST(MemoryPlanner, OneBufferIsRoundedUpToTheAlignment) {
  const Plan plan = plan_memory({{100, 0, 0}});
  ASSERT_EQ(plan.offsets.size(), 1u);
  EXPECT_EQ(plan.offsets[0], 0u);
  EXPECT_EQ(plan.arena_bytes, 112u);
  EXPECT_EQ(plan.lower_bound, 112u);
}

TEST(MemoryPlanner, ZeroByteBufferTakesNoSpace) {
  const std::vector<Buffer> buffers = {{0, 0, 3}, {64, 0, 3}, {0, 2, 2}};
  const Plan plan = plan_memory(buffers);
  expect_valid_plan(buffers, plan, 16);
  EXPECT_EQ(plan.arena_bytes, 64u);
  EXPECT_EQ(plan.lower_bound, 64u);
  const Plan only_empty = plan_memory({{0, 0, 0}});
  EXPECT_EQ(only_empty.arena_bytes, 0u);
  EXPECT_EQ(only_empty.offsets[0], 0u);
}

TEST(MemoryPlanner, ChainReusesMemoryAndReachesTheBound) {
  // input -> op0 -> t1 -> op1 -> t2 -> op2 -> t3 -> op3 -> output; each tensor lives
  // from its producer to its consumer, so only two are ever live together.
  const std::vector<Buffer> buffers = {
      {4096, 0, 0}, {2048, 0, 1}, {8192, 1, 2}, {1024, 2, 3}, {16, 3, 3}};
  const Plan plan = plan_memory(buffers);
  expect_valid_plan(buffers, plan, 16);
  EXPECT_EQ(plan.lower_bound, 8192u + 2048u);
  EXPECT_EQ(plan.arena_bytes, plan.lower_bound);
}

TEST(MemoryPlanner, SkipConnectionReachesTheBound) {
  // A residual block: x (0..3) is read again by the add at op 3.
  const std::vector<Buffer> buffers = {
      {1000, 0, 3}, {3000, 0, 1}, {3000, 1, 2}, {1000, 2, 3}, {1000, 3, 3}};
  const Plan plan = plan_memory(buffers);
  expect_valid_plan(buffers, plan, 16);
  EXPECT_EQ(plan.lower_bound, naive_lower_bound(buffers, 16));
  EXPECT_EQ(plan.arena_bytes, plan.lower_bound);
}

TEST(MemoryPlanner, BuffersLiveTogetherNeverShareBytes) {
  const std::vector<Buffer> buffers = {{48, 0, 5}, {48, 0, 5}, {48, 0, 5}};
  const Plan plan = plan_memory(buffers);
  expect_valid_plan(buffers, plan, 16);
  EXPECT_EQ(plan.arena_bytes, 144u);
}

TEST(MemoryPlanner, RefusesAnInvertedLifetime) {
  try {
    plan_memory({{16, 0, 1}, {16, 3, 2}});
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("buffer 1 ends at op 2 before it starts at op 3"),
              std::string::npos)
        << e.what();
  }
}

TEST(MemoryPlanner, IsDeterministic) {
  std::mt19937 rng(7);
  std::vector<Buffer> buffers;
  for (int i = 0; i < 60; ++i) {
    const uint32_t first = rng() % 30;
    buffers.push_back({rng() % 5000, first, static_cast<uint32_t>(first + rng() % 8)});
  }
  const Plan a = plan_memory(buffers);
  const Plan b = plan_memory(buffers);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.strategy, b.strategy);
}

// Randomized property test over many shapes of problem: sizes from tiny to large, short
// and long lifetimes, alignments 1..64.
TEST(MemoryPlanner, RandomPlansAreValid) {
  std::mt19937 rng(12345);
  for (int round = 0; round < 400; ++round) {
    const uint32_t alignment = 1u << (rng() % 7);
    const uint32_t op_count = 1 + rng() % 40;
    const size_t count = rng() % 50;
    std::vector<Buffer> buffers;
    for (size_t i = 0; i < count; ++i) {
      const uint32_t first = rng() % op_count;
      const uint32_t length = (rng() % 4 == 0) ? rng() % op_count : rng() % 3;
      const uint32_t last = std::min(op_count - 1, first + length);
      const uint64_t bytes = (rng() % 10 == 0) ? 0 : 1 + rng() % ((rng() % 2) ? 64 : 100000);
      buffers.push_back({bytes, first, last});
    }
    const Plan plan = plan_memory(buffers, alignment);
    SCOPED_TRACE("round " + std::to_string(round) + " strategy " + plan.strategy);
    expect_valid_plan(buffers, plan, alignment);
    EXPECT_EQ(plan.lower_bound, naive_lower_bound(buffers, alignment));
    if (::testing::Test::HasFailure()) return;
  }
}

// An elementwise op over a dying input writes its output at the input's offset: three
// equal buffers of an add (a + b -> c, a dies) need two buffers' bytes, not three.
TEST(MemoryPlanner, InPlaceOutputSharesItsInputsOffset) {
  std::vector<Buffer> buffers = {{1000, 0, 0}, {1000, 0, 0}, {1000, 0, 0}};
  buffers[2].in_place_of = 0;
  const Plan plan = plan_memory(buffers);
  expect_valid_plan(buffers, plan, 16);
  EXPECT_EQ(plan.offsets[2], plan.offsets[0]);
  EXPECT_EQ(plan.lower_bound, 2016u);
  EXPECT_EQ(plan.arena_bytes, 2016u);
}

// A chain of in-place ops (quantize -> add -> requantize) stays at one offset, and a
// smaller output over a larger input (float -> int8) counts the larger at the handover.
TEST(MemoryPlanner, InPlaceChainStaysAtOneOffset) {
  std::vector<Buffer> buffers = {{4000, 0, 1}, {1000, 1, 2}, {1000, 2, 3}, {500, 2, 2}, {3000, 0, 3}};
  buffers[1].in_place_of = 0;
  buffers[2].in_place_of = 1;
  const Plan plan = plan_memory(buffers);
  expect_valid_plan(buffers, plan, 16);
  EXPECT_EQ(plan.offsets[1], plan.offsets[0]);
  EXPECT_EQ(plan.offsets[2], plan.offsets[0]);
  EXPECT_EQ(plan.lower_bound, naive_lower_bound(buffers, 16));
  EXPECT_EQ(plan.lower_bound, 4000u + 3008u);
}

// A pointwise convolution that doubles the channels writes its output starting below
// its input: the pair takes the output's bytes plus the shift, not both buffers.
TEST(MemoryPlanner, ShiftedInPlaceOutputStartsBelowItsInput) {
  std::vector<Buffer> buffers = {{512, 0, 0}, {1000, 0, 1}, {2000, 1, 2}, {300, 1, 1}};
  buffers[2].in_place_of = 1;
  buffers[2].in_place_shift = 1024;
  const Plan plan = plan_memory(buffers);
  expect_valid_plan(buffers, plan, 16);
  EXPECT_EQ(plan.offsets[2] + 1024, plan.offsets[1]);
  EXPECT_EQ(plan.lower_bound, naive_lower_bound(buffers, 16));
  EXPECT_EQ(plan.lower_bound, 2032u + 304u);  // at op 1: the union [o, o + 1024 + 1008) and 300
  EXPECT_EQ(plan.arena_bytes, plan.lower_bound);
}

TEST(MemoryPlanner, RefusesBadInPlaceLinks) {
  auto message = [](std::vector<Buffer> buffers) -> std::string {
    try {
      plan_memory(buffers);
    } catch (const CompileError& e) {
      return e.what();
    }
    return "no error";
  };
  std::vector<Buffer> out_of_range = {{16, 0, 1}, {16, 1, 2}};
  out_of_range[1].in_place_of = 7;
  EXPECT_EQ(message(out_of_range), "memory planner: buffer 1 in place of buffer 7: no such other buffer");
  std::vector<Buffer> not_meeting = {{16, 0, 1}, {16, 2, 3}};
  not_meeting[1].in_place_of = 0;
  EXPECT_EQ(message(not_meeting),
            "memory planner: buffer 1 in place of buffer 0: that buffer ends at op 1, not at op 2 where "
            "this one starts");
  std::vector<Buffer> two_over_one = {{16, 0, 1}, {16, 1, 2}, {16, 1, 3}};
  two_over_one[1].in_place_of = 0;
  two_over_one[2].in_place_of = 0;
  EXPECT_EQ(message(two_over_one),
            "memory planner: buffer 2 in place of buffer 0: buffer 1 is already in its place");
  std::vector<Buffer> cycle = {{16, 1, 1}, {16, 1, 1}};
  cycle[0].in_place_of = 1;
  cycle[1].in_place_of = 0;
  EXPECT_EQ(message(cycle),
            "memory planner: buffer 0 in place of buffer 1: that buffer lives only at op 1 and is itself "
            "in place of another");
  std::vector<Buffer> one_op_middle = {{16, 0, 1}, {16, 1, 1}, {16, 1, 2}};
  one_op_middle[1].in_place_of = 0;
  one_op_middle[2].in_place_of = 1;
  EXPECT_EQ(message(one_op_middle),
            "memory planner: buffer 2 in place of buffer 1: that buffer lives only at op 1 and is itself "
            "in place of another");
  std::vector<Buffer> unaligned = {{16, 0, 1}, {16, 1, 2}};
  unaligned[1].in_place_of = 0;
  unaligned[1].in_place_shift = 8;
  EXPECT_EQ(message(unaligned),
            "memory planner: buffer 1 in place of buffer 0: shift 8 is not a multiple of the alignment 16");
}

// Random plans with random in-place chains: linked buffers share their offset and no
// other two live buffers overlap; the bound counts a handover once.
TEST(MemoryPlanner, RandomPlansWithInPlaceChainsAreValid) {
  std::mt19937 rng(2026);
  for (int round = 0; round < 2000; ++round) {
    const uint32_t alignment = 1u << (rng() % 5);
    const uint32_t op_count = 1 + rng() % 30;
    const size_t count = rng() % 40;
    std::vector<Buffer> buffers;
    std::vector<bool> taken;
    for (size_t i = 0; i < count; ++i) {
      const uint32_t first = rng() % op_count;
      const uint32_t length = (rng() % 4 == 0) ? rng() % op_count : rng() % 3;
      const uint32_t last = std::min(op_count - 1, first + length);
      const uint64_t bytes = (rng() % 10 == 0) ? 0 : 1 + rng() % ((rng() % 2) ? 64 : 50000);
      Buffer b{bytes, first, last};
      if (rng() % 3 == 0) b.in_place_shift = alignment * (rng() % 200);
      // Link to an earlier buffer that ends where this one starts, if one is free.
      if (rng() % 2 == 0) {
        for (size_t j = 0; j < buffers.size(); ++j) {
          const bool one_op_link = buffers[j].in_place_of >= 0 && buffers[j].first_op == buffers[j].last_op;
          if (!taken[j] && !one_op_link && buffers[j].last_op == first) {
            b.in_place_of = static_cast<int64_t>(j);
            taken[j] = true;
            break;
          }
        }
      }
      buffers.push_back(b);
      taken.push_back(false);
    }
    // The repair (thousands of placements when the bound is out of reach) on every 20th.
    const Plan plan = plan_memory(buffers, alignment, Effort::kGreedy);
    SCOPED_TRACE("round " + std::to_string(round) + " strategy " + plan.strategy);
    expect_valid_plan(buffers, plan, alignment);
    // A chain's rigidity can only raise the bound above the live bytes at an op.
    EXPECT_GE(plan.lower_bound, naive_lower_bound(buffers, alignment));
    if (round % 20 == 0) {
      const Plan repaired = plan_memory(buffers, alignment, Effort::kRepair);
      SCOPED_TRACE("repaired: " + repaired.strategy);
      expect_valid_plan(buffers, repaired, alignment);
      EXPECT_LE(repaired.arena_bytes, plan.arena_bytes);
    }
    if (::testing::Test::HasFailure()) return;
  }
}

// Buffers that are all live at one op: the bound is their sum and greedy reaches it.
TEST(MemoryPlanner, RandomIntervalGraphsThatPackPerfectly) {
  std::mt19937 rng(99);
  for (int round = 0; round < 100; ++round) {
    std::vector<Buffer> buffers;
    const size_t count = 1 + rng() % 20;
    for (size_t i = 0; i < count; ++i) buffers.push_back({1 + rng() % 4096, 0, 10});
    const Plan plan = plan_memory(buffers);
    expect_valid_plan(buffers, plan, 16);
    EXPECT_EQ(plan.arena_bytes, plan.lower_bound);
  }
}

// Whether the buffers fit an arena of `arena` bytes, by exhaustive search: each chain
// (or single buffer) tries every aligned base, in buffer order, against those placed.
bool fits_exhaustively(const std::vector<Buffer>& buffers, uint64_t arena, uint32_t alignment) {
  const size_t n = buffers.size();
  std::vector<uint64_t> size(n);
  for (size_t i = 0; i < n; ++i) size[i] = align_up(buffers[i].bytes, alignment);
  // Chains: members and their offsets relative to the head (shifts go down).
  std::vector<std::vector<std::pair<size_t, int64_t>>> chains;
  std::vector<int64_t> next(n, -1);
  for (size_t i = 0; i < n; ++i)
    if (buffers[i].in_place_of >= 0) next[static_cast<size_t>(buffers[i].in_place_of)] = static_cast<int64_t>(i);
  for (size_t i = 0; i < n; ++i) {
    if (buffers[i].in_place_of >= 0) continue;
    std::vector<std::pair<size_t, int64_t>> chain;
    int64_t at = 0;
    for (int64_t k = static_cast<int64_t>(i); k >= 0; k = next[static_cast<size_t>(k)]) {
      if (!chain.empty()) at -= static_cast<int64_t>(buffers[static_cast<size_t>(k)].in_place_shift);
      chain.push_back({static_cast<size_t>(k), at});
    }
    chains.push_back(chain);
  }
  std::vector<int64_t> offset(n, -1);
  std::function<bool(size_t)> search = [&](size_t c) -> bool {
    if (c == chains.size()) return true;
    int64_t lowest = 0, highest = 0;
    for (const auto& [m, rel] : chains[c]) {
      lowest = std::min(lowest, rel);
      highest = std::max(highest, rel + static_cast<int64_t>(size[m]));
    }
    for (int64_t head = -lowest; head + highest <= static_cast<int64_t>(arena); head += alignment) {
      bool ok = true;
      for (const auto& [m, rel] : chains[c]) {
        const int64_t at = head + rel;
        for (size_t other = 0; other < n && ok; ++other) {
          if (offset[other] < 0 || size[m] == 0 || size[other] == 0) continue;
          const Buffer& a = buffers[m];
          const Buffer& b = buffers[other];
          if (a.first_op > b.last_op || b.first_op > a.last_op) continue;
          ok = at + static_cast<int64_t>(size[m]) <= offset[other] ||
               offset[other] + static_cast<int64_t>(size[other]) <= at;
        }
        if (!ok) break;
      }
      if (!ok) continue;
      for (const auto& [m, rel] : chains[c]) offset[m] = head + rel;
      if (search(c + 1)) return true;
      for (const auto& [m, rel] : chains[c]) offset[m] = -1;
    }
    return false;
  };
  return search(0);
}

// Small random graphs shaped like CNNs: in-place chains whose shifts drift, per-op
// scratch, a few long-lived buffers. An exhaustive search checks the bound is never above
// the true optimum (nothing fits one alignment step below it), so where the plan reaches
// its bound it is optimal.
TEST(MemoryPlanner, ChainBoundIsNeverAboveTheOptimum) {
  std::mt19937 rng(515);
  int reached = 0, raised = 0;
  const int rounds = 1500;
  for (int round = 0; round < rounds; ++round) {
    const uint32_t alignment = 16;
    const uint32_t op_count = 2 + rng() % 6;
    std::vector<Buffer> buffers;
    // A chain through the ops: buffer k lives [k, k + 1] and is written over buffer k - 1.
    const uint32_t chain_from = rng() % 2;
    for (uint32_t op = chain_from; op + 1 < op_count; ++op) {
      Buffer b{uint64_t{alignment} * (1 + rng() % 5), op, op + 1};
      if (op > chain_from && rng() % 4 != 0) {
        b.in_place_of = static_cast<int64_t>(buffers.size() - 1);
        b.in_place_shift = alignment * (rng() % 3);
      }
      buffers.push_back(b);
    }
    // Scratch and other buffers.
    const size_t extra = rng() % 5;
    for (size_t i = 0; i < extra; ++i) {
      const uint32_t first = rng() % op_count;
      const uint32_t last = std::min<uint32_t>(op_count - 1, first + ((rng() % 3 == 0) ? rng() % op_count : 0));
      buffers.push_back({uint64_t{alignment} * (rng() % 5), first, last});
    }
    const Plan plan = plan_memory(buffers, alignment);
    SCOPED_TRACE("round " + std::to_string(round) + " strategy " + plan.strategy);
    expect_valid_plan(buffers, plan, alignment);
    EXPECT_GE(plan.lower_bound, naive_lower_bound(buffers, alignment));
    if (plan.lower_bound > 0) {
      EXPECT_FALSE(fits_exhaustively(buffers, plan.lower_bound - alignment, alignment))
          << "the stated bound " << plan.lower_bound << " is above a feasible arena";
    }
    EXPECT_TRUE(fits_exhaustively(buffers, plan.arena_bytes, alignment));
    reached += plan.arena_bytes == plan.lower_bound;
    raised += plan.lower_bound > naive_lower_bound(buffers, alignment);
    if (::testing::Test::HasFailure()) return;
  }
  // The chain bound matters in many of these and the planner reaches it in most (the misses
  // are random long-lived buffers that real graphs rarely have: fragmentation, or a bound
  // that is not tight). Seeded, so these counts are fixed: 1416 and 191 today.
  EXPECT_GT(raised, rounds / 10);
  EXPECT_GE(reached, rounds * 94 / 100);
  std::cout << "[ planner  ] " << reached << " of " << rounds << " plans at their bound, " << raised
            << " bounds raised by a chain\n";
}

// A chain that drifts down (each link shifts its output lower) needs its whole span, and
// scratch at the ops where the chain's window sits low goes under it: the plan pins the
// chain at the base that leaves room (keyword-spotting's depthwise/pointwise stack).
TEST(MemoryPlanner, DriftingChainWithScratchReachesItsBound) {
  std::vector<Buffer> buffers;
  for (uint32_t op = 0; op < 8; ++op) {
    Buffer b{8000, op, op + 1};
    if (op > 0) {
      b.in_place_of = static_cast<int64_t>(op - 1);
      b.in_place_shift = op % 2 ? 448 : 256;
    }
    buffers.push_back(b);
  }
  for (uint32_t op = 1; op < 8; ++op) buffers.push_back({op % 2 ? 4864u : 512u, op, op});
  const Plan plan = plan_memory(buffers);
  expect_valid_plan(buffers, plan, 16);
  uint64_t drift = 0;
  for (const Buffer& b : buffers) drift += b.in_place_shift;
  EXPECT_GT(plan.lower_bound, naive_lower_bound(buffers, 16));
  EXPECT_GE(plan.lower_bound, drift + 8000);
  EXPECT_EQ(plan.arena_bytes, plan.lower_bound);
}

// The buffers of zero_dce_pp_quant.tflite on cortex-m4 (its uint8 400x600 image kept to
// the end, 32-channel feature maps concatenated across the network, the DSP depthwise
// variant's shifted in-place outputs and scratch), all links on: {bytes, first op,
// last op, in place of, shift}. Every greedy order misses the bound (the best by 64
// bytes); the repair reaches it.
TEST(MemoryPlanner, RepairReachesTheBoundTheGreedyOrdersMiss) {
  const std::vector<Buffer> buffers = [] {
    const int64_t rows[][5] = {
      {720000, 0, 0, -1, 0}, {720000, 0, 43, 0, 0}, {726012, 1, 2, -1, 0}, {720000, 25, 26, -1, 0},
      {720000, 26, 42, 3, 0}, {726012, 2, 3, -1, 0}, {720000, 3, 4, 5, 16}, {7680000, 4, 5, 6, 6960016},
      {7680000, 5, 35, -1, 0}, {7744128, 6, 7, -1, 0}, {7744128, 7, 8, -1, 0}, {7680000, 8, 9, 10, 32},
      {7680000, 9, 10, 11, 128}, {7680000, 10, 29, -1, 0}, {7744128, 11, 12, -1, 0}, {7744128, 12, 13, -1, 0},
      {7680000, 13, 14, 15, 32}, {7680000, 14, 15, 16, 128}, {7680000, 15, 21, -1, 0}, {7744128, 16, 17, -1, 0},
      {7744128, 17, 18, -1, 0}, {7680000, 18, 19, 20, 32}, {7680000, 19, 20, 21, 128}, {7680000, 20, 21, -1, 0},
      {15360000, 21, 22, -1, 0}, {15488256, 22, 23, -1, 0}, {15488256, 23, 24, -1, 0}, {15360000, 24, 27, 26, 64},
      {7680000, 27, 28, 27, 128}, {7680000, 28, 29, -1, 0}, {15360000, 29, 30, -1, 0}, {15488256, 30, 31, -1, 0},
      {15488256, 31, 32, -1, 0}, {15360000, 32, 33, 32, 64}, {7680000, 33, 34, 33, 128}, {7680000, 34, 35, -1, 0},
      {15360000, 35, 36, -1, 0}, {15488256, 36, 37, -1, 0}, {15488256, 37, 38, -1, 0}, {15360000, 38, 39, 38, 64},
      {720000, 39, 40, 39, 16}, {720000, 40, 41, 40, 0}, {720000, 41, 70, -1, 0}, {720000, 42, 43, -1, 0},
      {720000, 43, 47, 1, 0}, {720000, 44, 45, -1, 0}, {720000, 45, 46, 45, 0}, {720000, 46, 47, -1, 0},
      {720000, 47, 51, 44, 0}, {720000, 48, 49, -1, 0}, {720000, 49, 50, 49, 0}, {720000, 50, 51, -1, 0},
      {720000, 51, 55, 48, 0}, {720000, 52, 53, -1, 0}, {720000, 53, 54, 53, 0}, {720000, 54, 55, -1, 0},
      {720000, 55, 59, 52, 0}, {720000, 56, 57, -1, 0}, {720000, 57, 58, 57, 0}, {720000, 58, 59, -1, 0},
      {720000, 59, 63, 56, 0}, {720000, 60, 61, -1, 0}, {720000, 61, 62, 61, 0}, {720000, 62, 63, -1, 0},
      {720000, 63, 67, 60, 0}, {720000, 64, 65, -1, 0}, {720000, 65, 66, 65, 0}, {720000, 66, 67, -1, 0},
      {720000, 67, 71, 64, 0}, {720000, 68, 69, -1, 0}, {720000, 69, 70, 69, 0}, {720000, 70, 71, 42, 0},
      {720000, 71, 72, 68, 0}, {720000, 72, 72, 72, 0}, {10872, 3, 3, -1, 0}, {32, 4, 4, -1, 0},
      {115968, 8, 8, -1, 0}, {256, 9, 9, -1, 0}, {115968, 13, 13, -1, 0}, {256, 14, 14, -1, 0},
      {115968, 18, 18, -1, 0}, {256, 19, 19, -1, 0}, {231936, 24, 24, -1, 0}, {512, 27, 27, -1, 0},
      {231936, 32, 32, -1, 0}, {512, 33, 33, -1, 0}, {231936, 38, 38, -1, 0}, {512, 39, 39, -1, 0},
    };
    std::vector<Buffer> list;
    for (const auto& r : rows)
      list.push_back({static_cast<uint64_t>(r[0]), static_cast<uint32_t>(r[1]), static_cast<uint32_t>(r[2]), r[3],
                      static_cast<uint64_t>(r[4])});
    return list;
  }();
  const Plan greedy = plan_memory(buffers, 16, Effort::kGreedy);
  expect_valid_plan(buffers, greedy, 16);
  EXPECT_GT(greedy.arena_bytes, greedy.lower_bound);
  const Plan repaired = plan_memory(buffers, 16, Effort::kRepair);
  expect_valid_plan(buffers, repaired, 16);
  EXPECT_EQ(repaired.lower_bound, greedy.lower_bound);
  EXPECT_EQ(repaired.arena_bytes, repaired.lower_bound) << repaired.strategy;
  EXPECT_EQ(repaired.lower_bound, 47056512u);
  // Reproducible: the same plan again.
  EXPECT_EQ(plan_memory(buffers, 16, Effort::kRepair).offsets, repaired.offsets);
}

}  // namespace planner_test
}  // namespace mote::planner
