// Static memory planner: places every arena buffer (activation tensors, graph inputs and
// outputs, per-op kernel scratch) at a fixed offset in one arena, such that two buffers
// that are live at the same op never share a byte.
//
// Input. A list of buffers, each with a size in bytes and an inclusive lifetime
// [first_op, last_op] in execution order: a tensor lives from its producer to its last
// consumer, a graph input from op 0, a graph output until the last op, a scratch buffer
// only during its op. Sizes are rounded up to `alignment` (16: every arena tensor starts
// kTensorAlignment-aligned), so every offset is a multiple of it.
//
// Algorithm. Greedy placement over a fixed order: each buffer goes into a gap between
// the already-placed buffers whose lifetimes intersect its own (buffers that are never
// live together may share bytes). The planner runs eight strategies -- four orders
//   - size, largest first (TFLite Micro's GreedyMemoryPlanner order),
//   - lifetime start, earliest first (then largest first),
//   - size * lifetime length, largest first,
//   - lifetime length, longest first (then largest first),
// each with two gap rules
//   - first fit: the lowest offset where the buffer fits,
//   - best fit: the smallest gap that holds it (lowest offset on ties), else the top --
// and keeps the plan with the smallest arena (the first strategy in that list on ties, so
// the result is deterministic). Ties inside an order are broken by buffer index.
//
// Quality. `lower_bound` is a proven floor: no offset assignment of these buffers (with
// these in-place links) fits a smaller arena. It is the larger of
//   - the largest sum of aligned sizes of the buffers live at any one op, and
//   - per in-place chain, the smallest arena the chain allows: a chain is rigid, so at
//     each op its live members fill a fixed window above its base, and the other bytes
//     live at that op must fit whole below or above that window (a subset-sum per op,
//     minimized over the chain's base; see chain_bound in the .cc). A chain that drifts
//     (shifts add up) needs at least its whole span.
// Greedy plans reach it on chains and most CNNs; on graphs with long skip connections they
// can exceed it by fragmentation (the problem is NP-hard in general: dynamic storage
// allocation). Both numbers are reported so a user can see how far a plan is from ideal.
// When the plain strategies miss the bound, the plan is also tried with a chain pinned at
// the base where its chain bound is reached and the other groups placed around it (eight
// more runs per chain that sets the bound or wants a base above 0; at most two chains).
// Still above it, Effort::kRepair perturbs each order (the group at the arena's top moved
// to the front, or two groups swapped by a fixed xorshift sequence) and keeps a perturbed
// order that does not raise the arena: up to 32768 placements in all, fewer when many
// buffers are live together (a long-skip image-to-image network, zero_dce_pp_quant on
// Cortex-M4, reaches its bound only this way, after about 2000 of them).
//
// Cost. The pairs of buffers live together are listed once (O(n log n + P) for n buffers
// and P pairs, at most n^2 / 2); each of the S = 8 strategies, 8 more per pinned chain,
// then visits each buffer's pairs and sorts the intervals they forbid: O(S * P log P) at
// worst. The repair, only when all of those miss the bound, adds at most
// min(32768, 2^24 / P) placements (2^24 pair visits). A chain's bound costs O(ops * n * K) with K <= 4096 subset sums kept per op
// (past that an op's other buffers count as divisible: a weaker bound, still valid). A
// patched vww_96_int8 (636 buffers, 279 in-place links) plans in 1 to 2 ms on the host.
//
// In-place chains. A buffer may name the buffer it is written over (`in_place_of`): an
// op that reads buffer P and writes buffer B in order, never ahead of what it has read,
// can put B at P's offset, or `in_place_shift` bytes below it, when P dies at that op
// (P.last_op == B.first_op). Such buffers form chains that are placed as one unit, each
// member at its fixed distance from the chain's base; at the op where one hands over to
// the next, they share the bytes where they overlap. The lower bound counts the pair's
// union at that op, not the sum; chain_bound adds the chain's rigidity.
//
// Limits. Lifetimes are taken as given: the planner does not reorder ops, and which
// buffers may share (in-place chains, a reshape reusing its input's bytes) is the
// caller's decision. Sizes and offsets are 64-bit here; the program writer refuses a
// plan that does not fit the 32-bit format.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mote::planner {

struct Buffer {
  uint64_t bytes = 0;
  uint32_t first_op = 0;  // inclusive
  uint32_t last_op = 0;   // inclusive; >= first_op
  // Index of the buffer this one is written over in place (same offset), or -1. That
  // buffer must end where this one starts; at most one buffer names any other.
  int64_t in_place_of = -1;
  // This buffer's offset is that buffer's offset minus in_place_shift (a multiple of the
  // alignment): an op that reads ahead of what it writes needs its output to start lower.
  uint64_t in_place_shift = 0;
};

struct Plan {
  std::vector<uint64_t> offsets;  // one per input buffer, multiples of the alignment
  uint64_t arena_bytes = 0;       // max over buffers of offset + aligned size
  uint64_t lower_bound = 0;       // no placement of these buffers fits a smaller arena
  std::string strategy;           // which order / gap rule produced the plan
};

// How hard plan_memory tries when the greedy orders miss the lower bound: kGreedy stops
// after the orders and pinned chains; kRepair then also repairs each order (see the
// header comment). Searches that plan many candidate buffer sets use kGreedy for the
// candidates and kRepair for the one they keep.
enum class Effort { kGreedy, kRepair };

// Throws CompileError for a buffer with last_op < first_op, a zero alignment or an
// invalid in-place link (out of range, lifetimes that do not meet, two buffers over one).
Plan plan_memory(const std::vector<Buffer>& buffers, uint32_t alignment = 16, Effort effort = Effort::kRepair);

// The aligned bytes live at each op (an in-place pair's overlap counted once at its
// handover op), indexed by op up to the largest last_op. Its maximum is at most
// Plan::lower_bound (equal unless an in-place chain's rigidity raises the bound).
std::vector<uint64_t> live_bytes_per_op(const std::vector<Buffer>& buffers, uint32_t alignment = 16);

// Rounds `bytes` up to a multiple of `alignment`.
constexpr uint64_t align_up(uint64_t bytes, uint64_t alignment) {
  return (bytes + alignment - 1) / alignment * alignment;
}

}  // namespace mote::planner
