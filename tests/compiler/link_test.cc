// The link stage (compiler/link/link.h): each check of a graph it is given, with its exact
// message; the copies it gives graph outputs; aliases and lifetimes of the buffers; the
// in-place links it proposes and the plan it assembles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "common/error.h"
#include "compiler.h"
#include "conv2d/conv2d.h"
#include "host/loaded_program.h"
#include "mote/program_format.h"
#include "compiler/graph_builder.h"
#include "kernel_ids.h"
#include "link/link.h"

namespace mote {
namespace link_test {

std::string link_error(const ir::Graph& graph) {
  try {
    link::link_program(graph, Target::kHost);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "(linked)";
}

// x [1,4] -> add(x, x) -> y; named "g".
GraphBuilder add_graph() {
  GraphBuilder b;
  b.graph.name = "g";
  const int x = b.input("x", {1, 4});
  b.output(b.node(ir::Op::kAdd, "add", {x, x}, {1, 4}));
  return b;
}

TEST(Link, RefusesGraphInputsAndOutputsThatAreNotArenaTensors) {
  GraphBuilder none = add_graph();
  none.graph.outputs.clear();
  EXPECT_EQ(link_error(none.graph), "model 'g': the graph has no outputs");

  GraphBuilder bad_input = add_graph();
  bad_input.graph.inputs.push_back(9);
  EXPECT_EQ(link_error(bad_input.graph), "model 'g': graph input id 9 does not exist");

  GraphBuilder constant_input = add_graph();
  constant_input.graph.inputs.push_back(constant_input.constant("w", {1, 4}, {1, 2, 3, 4}));
  EXPECT_EQ(link_error(constant_input.graph), "model 'g': graph input 'w' is a constant");

  GraphBuilder bad_output = add_graph();
  bad_output.graph.outputs.push_back(-1);
  EXPECT_EQ(link_error(bad_output.graph), "model 'g': graph output id -1 does not exist");

  GraphBuilder unnamed = add_graph();
  unnamed.graph.name.clear();
  unnamed.graph.outputs.clear();
  EXPECT_EQ(link_error(unnamed.graph), "model: the graph has no outputs");
}

TEST(Link, RefusesAnOrderThatReadsATensorBeforeItIsWritten) {
  GraphBuilder b = add_graph();
  const int later = b.tensor("later", {1, 4});
  ir::Node reader;
  reader.name = "early";
  reader.op = ir::Op::kAdd;
  reader.inputs = {b.graph.inputs[0], later};
  reader.outputs = {b.tensor("early:0", {1, 4})};
  b.graph.nodes.insert(b.graph.nodes.begin(), reader);
  ir::Node writer;
  writer.name = "late";
  writer.op = ir::Op::kCopy;
  writer.inputs = {b.graph.inputs[0]};
  writer.outputs = {later};
  b.graph.nodes.push_back(writer);
  b.output(reader.outputs[0]);
  EXPECT_EQ(link_error(b.graph),
            "node 'early' (add): input 'later' is not a constant, a graph input or the output of an earlier node");
}

TEST(Link, RefusesATensorWrittenTwiceOrNeverWritten) {
  GraphBuilder twice = add_graph();
  ir::Node again = twice.graph.nodes[0];
  again.name = "again";
  twice.graph.nodes.push_back(again);
  EXPECT_EQ(link_error(twice.graph),
            "node 'again' (add): output 'add:0' is already a constant, a graph input or another node's output");

  GraphBuilder over_input = add_graph();
  over_input.graph.nodes[0].outputs = {over_input.graph.inputs[0]};
  EXPECT_EQ(link_error(over_input.graph),
            "node 'add' (add): output 'x' is already a constant, a graph input or another node's output");

  GraphBuilder never = add_graph();
  never.output(never.tensor("orphan", {1, 4}));
  EXPECT_EQ(link_error(never.graph), "model 'g': graph output 'orphan' is not produced by any node");
}

TEST(Link, RefusesAConstantWhosePayloadIsNotItsShape) {
  GraphBuilder b;
  b.graph.name = "g";
  const int x = b.input("x", {1, 4});
  const int w = b.graph.add_constant("w", DType::kFloat32, {1, 4}, float_bytes({1, 2}));
  b.output(b.node(ir::Op::kAdd, "add", {x, w}, {1, 4}));
  EXPECT_EQ(link_error(b.graph), "model 'g': constant 'w' [1,4] holds 8 bytes, expected 16");
}

TEST(Link, DequantizesHybridWeightsAndRefusesMismatchedQuantization) {
  // A float add whose constant operand is int8 with a scale per column: linked as float.
  GraphBuilder b;
  b.graph.name = "g";
  const int x = b.input("x", {1, 4});
  const int w = b.graph.add_constant("w", DType::kInt8, {1, 4}, {2, 254, 10, 0});  // 2, -2, 10, 0
  b.graph.tensors[w].quant = {{0.5f, 0.5f, 0.25f, 1.0f}, {0, 0, 2, 0}, 1};
  b.output(b.node(ir::Op::kAdd, "add", {x, w}, {1, 4}));
  const link::Prepared prepared = link::prepare(b.graph, Target::kHost);
  const ir::Tensor& dequantized = prepared.graph.tensors[w];
  EXPECT_EQ(dequantized.dtype, DType::kFloat32);
  EXPECT_TRUE(dequantized.quant.empty());
  std::vector<float> values(4);
  ASSERT_EQ(dequantized.data.size(), 16u);
  std::memcpy(values.data(), dequantized.data.data(), 16);
  EXPECT_EQ(values, (std::vector<float>{1.0f, -1.0f, 2.0f, 0.0f}));
  EXPECT_EQ(kernel_name(prepared.ops[0].kernel), std::string("add_f32"));

  b.graph.tensors[w].quant.zero_points = {0, 0};  // 4 scales, 2 zero points
  EXPECT_EQ(link_error(b.graph), "constant 'w': quantization parameters do not match its shape [1,4]");
}

TEST(Link, CopiesOutputsThatAreInputsConstantsOrListedTwice) {
  GraphBuilder b = add_graph();
  const int y = b.graph.outputs[0];
  b.output(y);                                          // y twice
  b.output(b.graph.inputs[0]);                          // the input itself
  b.output(b.constant("c", {1, 2}, {1.0f, 2.0f}));      // a constant
  const CompileResult result = link::link_program(b.graph, Target::kHost);
  std::vector<std::string> ops;
  for (const OpReport& op : result.report.ops) ops.push_back(op.name + " " + op.kernel);
  EXPECT_EQ(ops, (std::vector<std::string>{"add add_f32", "add:0/output_copy copy", "x/output_copy copy",
                                           "c/output_copy copy"}));
}

TEST(Link, AliasesShareTheirRootsBufferButNeverMakeAnOutputAnInput) {
  // x -> add -> a -> reshape -> r -> reshape -> s (output): r and s share a's buffer, which
  // lives from the add to the end.
  GraphBuilder b;
  const int x = b.input("x", {1, 4});
  const int a = b.node(ir::Op::kAdd, "add", {x, x}, {1, 4});
  const int r = b.node(ir::Op::kReshape, "r", {a}, {4});
  const int s = b.node(ir::Op::kReshape, "s", {r}, {2, 2});
  b.output(s);
  const link::Prepared chain = link::prepare(b.graph, Target::kHost);
  EXPECT_EQ(chain.tensor_buffer[r], chain.tensor_buffer[a]);
  EXPECT_EQ(chain.tensor_buffer[s], chain.tensor_buffer[a]);
  const planner::Buffer& shared = chain.buffers[chain.tensor_buffer[a]];
  EXPECT_EQ(shared.first_op, 0u);
  EXPECT_EQ(shared.last_op, 2u);
  EXPECT_TRUE(chain.holds_output[chain.tensor_buffer[a]]);
  EXPECT_FALSE(chain.holds_output[chain.tensor_buffer[x]]);

  // A graph input reshaped straight to a graph output gets a buffer of its own.
  GraphBuilder direct;
  const int in = direct.input("in", {1, 4});
  const int out = direct.node(ir::Op::kReshape, "flat", {in}, {4});
  direct.output(out);
  const link::Prepared own = link::prepare(direct.graph, Target::kHost);
  EXPECT_NE(own.tensor_buffer[out], own.tensor_buffer[in]);
  EXPECT_EQ(own.buffers.size(), 2u);
}

TEST(Link, ProposesInPlaceLinksOnlyOverDyingInputs) {
  // x -> add(x, x) -> a -> add(a, a) -> y (output): each add may write over the input that
  // dies at it (x, read by the first add only, then a).
  GraphBuilder b;
  const int x = b.input("x", {1, 64});
  const int a = b.node(ir::Op::kAdd, "first", {x, x}, {1, 64});
  const int y = b.node(ir::Op::kAdd, "second", {a, a}, {1, 64});
  b.output(y);
  const link::Prepared prepared = link::prepare(b.graph, Target::kHost);
  link::Layout layout = link::lay_out(prepared, prepared.ops);
  ASSERT_EQ(layout.linked.size(), 2u);
  EXPECT_EQ(layout.buffers[prepared.tensor_buffer[a]].in_place_of, static_cast<int64_t>(prepared.tensor_buffer[x]));
  EXPECT_EQ(layout.buffers[prepared.tensor_buffer[y]].in_place_of, static_cast<int64_t>(prepared.tensor_buffer[a]));
  EXPECT_EQ(link::arena_floor(layout), 256u);  // one 256-byte tensor live at a time
  link::plan(layout);
  EXPECT_EQ(layout.plan.arena_bytes, 256u);
  EXPECT_GE(layout.plans, 1u);

  // As a graph output too, a must stay whole: the second add cannot write over it.
  GraphBuilder kept = b;
  kept.output(a);
  const link::Prepared keeps = link::prepare(kept.graph, Target::kHost);
  const link::Layout kept_layout = link::lay_out(keeps, keeps.ops);
  EXPECT_EQ(kept_layout.buffers[keeps.tensor_buffer[y]].in_place_of, -1);
}


// Scratch growth (LoweredOp::scratch_growth): ResNet-8 on cortex-m4. Its 3x3
// convolutions (conv2d_s8__dsp) plan the widened weights of as many channels as 3.75 KiB
// hold and get more where the plan has room; the pointwise ones (conv2d_s8_1x1__dsp) plan
// none. Some op ends with more than it planned, and every op's scratch lies in the arena
// clear of every tensor live at the op (graph inputs from the first op, outputs to the
// last; each arena tensor from its first op to its last).
TEST(Link, GrantsScratchGrowthOnlyInBytesFreeAtTheOp) {
  CompileOptions options;
  options.model_path = std::string(MOTE_SHARED_DIR) + "/models/tflite/mlperf_tiny/pretrainedResnet_quant.tflite";
  options.target = "cortex-m4";
  const CompileResult result = compile(options);
  const LoadedProgram loaded(result.program, "resnet");
  const ProgramHeader& h = loaded.header();
  const uint8_t* base = loaded.bytes();
  const auto* ops = reinterpret_cast<const OpDesc*>(base + h.ops_offset);
  const auto* tensors = reinterpret_cast<const TensorDesc*>(base + h.tensors_offset);
  const auto* pool = reinterpret_cast<const uint32_t*>(base + h.index_offset);
  std::vector<int64_t> first(h.tensor_count, -1), last(h.tensor_count, -1);
  auto touch = [&](uint32_t t, int64_t op) {
    if (first[t] < 0 || op < first[t]) first[t] = op;
    last[t] = std::max(last[t], op);
  };
  for (uint32_t i = 0; i < h.input_count; ++i) touch(pool[h.inputs_first + i], 0);
  for (uint32_t i = 0; i < h.output_count; ++i) touch(pool[h.outputs_first + i], h.op_count - 1);
  for (uint32_t k = 0; k < h.op_count; ++k)
    for (uint32_t i = 0; i < ops[k].input_count + ops[k].output_count; ++i)
      if (pool[ops[k].io_first + i] != kNoTensor) touch(pool[ops[k].io_first + i], k);

  int grown = 0;
  for (uint32_t k = 0; k < h.op_count; ++k) {
    const OpDesc& op = ops[k];
    if (op.scratch_bytes == 0) continue;
    EXPECT_LE(uint64_t{op.scratch_offset} + op.scratch_bytes, result.report.arena_bytes) << "op " << k;
    for (uint32_t t = 0; t < h.tensor_count; ++t) {
      if (tensors[t].storage != static_cast<uint8_t>(Storage::kArena) || first[t] > k || last[t] < k) continue;
      const bool overlap = tensors[t].offset < op.scratch_offset + op.scratch_bytes &&
                           op.scratch_offset < tensors[t].offset + tensors[t].bytes;
      EXPECT_FALSE(overlap) << "op " << k << " scratch over tensor " << t;
    }
    if (op.kernel != static_cast<uint16_t>(KernelId::kConv2dS8Dsp)) continue;
    const TensorDesc& filter = tensors[pool[op.io_first + 1]];
    int32_t wide = 0;
    std::memcpy(&wide, base + h.params_offset + op.params_offset + op.params_bytes - 4, 4);
    const uint32_t unit = conv2d_s8__dsp_wide_channel_bytes(static_cast<int32_t>(filter.dims[1]),
                                                            static_cast<int32_t>(filter.dims[2]),
                                                            static_cast<int32_t>(filter.dims[3]));
    EXPECT_GE(op.scratch_bytes, conv2d_s8__dsp_scratch_bytes(static_cast<int32_t>(filter.dims[1]),
                                                             static_cast<int32_t>(filter.dims[2]),
                                                             static_cast<int32_t>(filter.dims[3]), wide));
    if (unit != 0 && static_cast<uint32_t>(wide) > 3840u / unit) ++grown;
  }
  EXPECT_GT(grown, 0);
}

}  // namespace link_test
}  // namespace mote
