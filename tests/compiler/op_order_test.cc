// Op order (compiler/schedule/op_order.h): the exact search finds the lowest peak of all
// topological orders (checked against brute force on thousands of random small DAGs), the
// greedy fallback gives a valid order, and compile reorders branches when the arena drops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>

#include "compiler.h"
#include "ir/graph.h"
#include "schedule/op_order.h"
#include "search/search.h"

namespace mote {
namespace op_order_test {

int activation(ir::Graph& g, const std::string& name, int64_t elements) {
  ir::Tensor t;
  t.name = name;
  t.shape = {1, elements};
  return g.add_tensor(std::move(t));
}

// A random DAG of elementwise-like nodes: each reads one to three earlier tensors.
ir::Graph random_dag(std::mt19937& rng, size_t nodes) {
  ir::Graph g;
  g.inputs = {activation(g, "in", 1 + rng() % 64)};
  std::vector<int> available = g.inputs;
  for (size_t k = 0; k < nodes; ++k) {
    ir::Node n;
    n.name = "n" + std::to_string(k);
    n.op = ir::Op::kAdd;
    const size_t reads = 1 + rng() % 3;
    for (size_t r = 0; r < reads; ++r) {
      const int id = available[rng() % available.size()];
      if (std::find(n.inputs.begin(), n.inputs.end(), id) == n.inputs.end()) n.inputs.push_back(id);
    }
    const int out = activation(g, n.name + ":0", 1 + static_cast<int64_t>(rng() % 256));
    n.outputs = {out};
    g.nodes.push_back(std::move(n));
    available.push_back(out);
  }
  g.outputs = {available.back()};
  if (rng() % 3 == 0) g.outputs.push_back(available[1 + rng() % (available.size() - 1)]);
  return g;
}

bool valid_order(const ir::Graph& g, const std::vector<size_t>& order) {
  if (order.size() != g.nodes.size()) return false;
  std::vector<bool> produced(g.tensors.size(), false), seen(g.nodes.size(), false);
  for (int id : g.inputs) produced[static_cast<size_t>(id)] = true;
  for (size_t k : order) {
    if (k >= g.nodes.size() || seen[k]) return false;
    seen[k] = true;
    for (int id : g.nodes[k].inputs)
      if (!produced[static_cast<size_t>(id)]) return false;
    for (int id : g.nodes[k].outputs) produced[static_cast<size_t>(id)] = true;
  }
  return true;
}

// The lowest peak over every topological order, by enumeration.
uint64_t brute_force_peak(const ir::Graph& g) {
  std::vector<size_t> order(g.nodes.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  uint64_t best = UINT64_MAX;
  do {
    if (valid_order(g, order)) best = std::min(best, schedule::peak_live_bytes(g, order));
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

TEST(OpOrder, ExactSearchMatchesBruteForceOnRandomDags) {
  std::mt19937 rng(77);
  for (int round = 0; round < 1500; ++round) {
    const ir::Graph g = random_dag(rng, 2 + rng() % 6);
    SCOPED_TRACE("round " + std::to_string(round));
    const schedule::OrderResult found = schedule::min_peak_order(g);
    ASSERT_TRUE(found.exact);
    ASSERT_TRUE(valid_order(g, found.order));
    EXPECT_EQ(found.peak, schedule::peak_live_bytes(g, found.order));
    EXPECT_EQ(found.peak, brute_force_peak(g));
  }
}

TEST(OpOrder, GreedyFallbackGivesAValidOrderNoWorseThanTheModels) {
  std::mt19937 rng(78);
  for (int round = 0; round < 300; ++round) {
    const ir::Graph g = random_dag(rng, 10 + rng() % 20);
    std::vector<size_t> model_order(g.nodes.size());
    for (size_t k = 0; k < model_order.size(); ++k) model_order[k] = k;
    const schedule::OrderResult greedy = schedule::min_peak_order(g, 1);  // no room for the exact search
    EXPECT_FALSE(greedy.exact);
    ASSERT_TRUE(valid_order(g, greedy.order));
    EXPECT_EQ(greedy.peak, schedule::peak_live_bytes(g, greedy.order));
    EXPECT_LE(greedy.peak, schedule::peak_live_bytes(g, model_order));
    const schedule::OrderResult exact = schedule::min_peak_order(g, 5000);
    if (exact.exact) {
      EXPECT_LE(exact.peak, greedy.peak);
    }
  }
}

// Two branches from x, each a big tensor reduced to a small one, joined: the model lists
// both big ops first; run branch by branch only one big tensor is live at a time.
ir::Graph two_branches() {
  ir::Graph g;
  auto tensor = [&](const std::string& name, int64_t n) {
    ir::Tensor t;
    t.name = name;
    t.shape = {1, n};
    return g.add_tensor(std::move(t));
  };
  const int x = tensor("x", 16);
  g.inputs = {x};
  auto node = [&](ir::Op op, const std::string& name, std::vector<int> in, int64_t n,
                  std::map<std::string, ir::AttrValue> attrs = {}) {
    ir::Node node;
    node.name = name;
    node.op = op;
    node.inputs = std::move(in);
    node.outputs = {tensor(name + ":0", n)};
    node.attrs = std::move(attrs);
    g.nodes.push_back(std::move(node));
    return g.nodes.back().outputs[0];
  };
  std::vector<float> w1(1000 * 16), w2(16 * 1000);
  for (size_t i = 0; i < w1.size(); ++i) w1[i] = static_cast<float>(static_cast<int>(i % 13) - 6) / 32.0f;
  for (size_t i = 0; i < w2.size(); ++i) w2[i] = static_cast<float>(static_cast<int>(i % 7) - 3) / 64.0f;
  auto constant = [&](const std::string& name, ir::Shape shape, const std::vector<float>& v) {
    std::vector<uint8_t> bytes(v.size() * 4);
    std::memcpy(bytes.data(), v.data(), bytes.size());
    return g.add_constant(name, DType::kFloat32, std::move(shape), std::move(bytes));
  };
  const int wa = constant("wa", {1000, 16}, w1), wb = constant("wb", {16, 1000}, w2);
  const int big1 = node(ir::Op::kFullyConnected, "big1", {x, wa}, 1000);
  const int big2 = node(ir::Op::kFullyConnected, "big2", {x, wa}, 1000);
  const int small1 = node(ir::Op::kFullyConnected, "small1", {big1, wb}, 16);
  const int small2 = node(ir::Op::kFullyConnected, "small2", {big2, wb}, 16);
  g.outputs = {node(ir::Op::kAdd, "join", {small1, small2}, 16)};
  return g;
}

TEST(OpOrder, CompileRunsBranchesOneAfterTheOther) {
  const ir::Graph g = two_branches();
  const schedule::OrderResult found = schedule::min_peak_order(g);
  EXPECT_TRUE(found.exact);
  EXPECT_EQ(found.order, (std::vector<size_t>{0, 2, 1, 3, 4}));
  // The model's order holds x (64 B) with big1 and big2 (4000 B each) while big2 runs;
  // branch by branch, at most one big tensor with x and a small result.
  EXPECT_EQ(schedule::peak_live_bytes(g, {0, 1, 2, 3, 4}), 64u + 4000 + 4000);
  EXPECT_EQ(found.peak, 64u + 4000 + 64);

  CompileOptions options;
  options.patching = Patching::kOff;
  SearchReport searches;
  const CompileResult compiled = search::lower_for_memory(g, options, searches);
  EXPECT_EQ(searches.op_order.candidates, 2u);  // the model's order and the lowest-peak one
  const CompileResult model_order = lower_to_program(g, "host");
  EXPECT_TRUE(compiled.report.reordered);
  EXPECT_EQ(compiled.report.model_order_arena_bytes, model_order.report.arena_bytes);
  EXPECT_LT(compiled.report.arena_bytes, model_order.report.arena_bytes);
  ASSERT_EQ(compiled.report.ops.size(), 5u);
  EXPECT_EQ(compiled.report.ops[1].name, "small1");
  EXPECT_EQ(compiled.report.ops[2].name, "big2");
}

// State (a persistent tensor S, TFLite resource variable) is read and written by copy
// nodes with no data edge between them: r = S (read), a = x + x, S = x (assign),
// y = r + a (a small result). Reading S last would hold r only for the final op, so the
// lowest-peak order without the state edges runs the read after the assignment, and
// would read the new value. The order kept follows Graph::order_edges(): the read stays
// before the assignment, and the init node (S = c, run on the first run only) first.
TEST(OpOrder, KeepsStateAccessesAndInitNodesInTheirOrder) {
  ir::Graph g;
  const int x = activation(g, "x", 1024);
  g.inputs = {x};
  ir::Tensor state;
  state.name = "S";
  state.shape = {1, 1024};
  state.is_persistent = true;
  const int s = g.add_tensor(std::move(state));
  const int c = g.add_constant("c", DType::kFloat32, {1, 1024}, std::vector<uint8_t>(4096, 0));
  auto node = [&](ir::Op op, const std::string& name, std::vector<int> inputs, int output) {
    ir::Node n;
    n.name = name;
    n.op = op;
    n.inputs = std::move(inputs);
    n.outputs = {output};
    g.nodes.push_back(std::move(n));
  };
  const int r = activation(g, "r", 1024), a = activation(g, "a", 1024), y = activation(g, "y", 16);
  node(ir::Op::kCopy, "init", {c}, s);
  node(ir::Op::kCopy, "read", {s}, r);
  node(ir::Op::kAdd, "double", {x, x}, a);
  node(ir::Op::kCopy, "assign", {x}, s);
  node(ir::Op::kAdd, "sum", {r, a}, y);
  g.outputs = {y};
  g.init_nodes = 1;

  const std::vector<std::vector<size_t>> edges = g.order_edges();
  EXPECT_EQ(edges[1], (std::vector<size_t>{0}));     // after the init node, which wrote S
  EXPECT_EQ(edges[2], (std::vector<size_t>{0}));     // after the init node
  EXPECT_EQ(edges[3], (std::vector<size_t>{0, 1}));  // the assignment after the read

  const schedule::OrderResult found = schedule::min_peak_order(g);
  EXPECT_TRUE(found.exact);
  EXPECT_EQ(found.order, (std::vector<size_t>{0, 1, 2, 3, 4}));
  // What the edges forbid would have been cheaper: read after the assignment.
  EXPECT_LT(schedule::peak_live_bytes(g, {0, 2, 3, 1, 4}), found.peak);
}

}  // namespace op_order_test
}  // namespace mote
