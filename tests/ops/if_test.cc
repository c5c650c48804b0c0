// IF as TensorFlow Lite Micro's kernels/if.cc: input 0 a bool condition of one element,
// the other inputs copied into the chosen branch subgraph's inputs (then_subgraph_index
// when true, else_subgraph_index), the branch run, its outputs copied into IF's outputs
// (bytes: a quantization that differs reads the same bytes as other values). Cases: a
// condition computed in the model (the sign of the input's sum) taking each branch, a
// constant condition, int8 operands whose branch tensors are quantized otherwise, an IF
// nested in a branch, and the refusals. A computed condition branches in the program:
// only the taken branch runs. Outputs are the test's own arithmetic; host and emulated
// cores.
#include <algorithm>
#include <cmath>

#include "ops/control_flow_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace if_test {

using B = fb::BuiltinOperator;
using fb::TensorType;
using namespace control_flow;

// SUM over every axis of a [2, 3] input, kept as [1, 1].
OpSpec sum_all(int32_t x, int32_t axes, int32_t out) {
  OpSpec o = op(B::SUM, {x, axes}, {out});
  o.options_type = fb::BuiltinOptions::ReducerOptions;
  o.options = [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateReducerOptions(b, true).Union(); };
  return o;
}

const std::vector<int32_t> kShape = {2, 3};

// then (subgraph `first`):     y = x * 2,  z = [1, 2, 3]
// else (subgraph `first` + 1): y = x + 10, z = [-1, -2, -3]
std::vector<SubgraphSpec> branches() {
  SubgraphSpec then_branch;
  then_branch.tensors = {f32("then_x", kShape), f32("two", {1}, {2.0f}), f32("then_y", kShape),
                         f32("then_z", {3}, {1.0f, 2.0f, 3.0f})};
  then_branch.ops = {op(B::MUL, {0, 1}, {2})};
  then_branch.inputs = {0};
  then_branch.outputs = {2, 3};
  SubgraphSpec else_branch;
  else_branch.tensors = {f32("else_x", kShape), f32("ten", {1}, {10.0f}), f32("else_y", kShape),
                         f32("else_z", {3}, {-1.0f, -2.0f, -3.0f})};
  else_branch.ops = {op(B::ADD, {0, 1}, {2})};
  else_branch.inputs = {0};
  else_branch.outputs = {2, 3};
  return {then_branch, else_branch};
}

// c = sum(x) > 0; (y, z) = IF(c, x) with branches().
ModelSpec computed_if() {
  ModelSpec m;
  m.tensors = {f32("x", kShape),
               TensorSpec("axes", {2}, TensorType::INT32, bytes_of(std::vector<int32_t>{0, 1})),
               f32("sum", {1, 1}),
               f32("zero", {1}, {0.0f}),
               TensorSpec("positive", {1, 1}, TensorType::BOOL),
               f32("y", kShape),
               f32("z", {3})};
  m.ops = {sum_all(0, 1, 2), op(B::GREATER, {2, 3}, {4}), if_op({4, 0}, {5, 6}, 1, 2)};
  m.inputs = {0};
  m.outputs = {5, 6};
  m.subgraphs = branches();
  return m;
}

OpSample branch_sample(const std::vector<float>& x, bool then_taken) {
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = then_taken ? x[i] * 2.0f : x[i] + 10.0f;
  const std::vector<float> z = then_taken ? std::vector<float>{1, 2, 3} : std::vector<float>{-1, -2, -3};
  return {{bytes_of(x)}, {bytes_of(y), bytes_of(z)}};
}

double sum(const std::vector<float>& x) {
  double s = 0;
  for (float v : x) s += v;
  return s;
}

const std::vector<std::vector<float>> kInputs = {{1.5f, -2.0f, 3.25f, 0.5f, -1.0f, 4.0f},
                                                 {-1.5f, 2.0f, -3.25f, -0.5f, 1.0f, -4.0f},
                                                 {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f},
                                                 {-100.0f, 99.0f, 0.5f, 0.25f, 0.125f, -0.0625f}};

OP_TEST(If, ComputedConditionTakesEachBranch) {
  std::vector<OpSample> samples;
  for (const std::vector<float>& x : kInputs) samples.push_back(branch_sample(x, sum(x) > 0));
  ASSERT_TRUE(sum(kInputs[0]) > 0 && !(sum(kInputs[1]) > 0));  // both branches are taken
  expect_op_outputs("if_computed_f32", computed_if(), samples);
}

// The program branches: a run executes the taken branch's operator only.
OP_TEST(If, ComputedConditionRunsOnlyTheTakenBranch) {
  auto count = [](const std::vector<std::string>& run, const std::string& kernel) {
    return std::count(run.begin(), run.end(), kernel);
  };
  const std::vector<std::string> positive = op_kernels_run("if_run_then", computed_if(), branch_sample(kInputs[0], true));
  EXPECT_EQ(count(positive, "mul_f32"), 1);
  EXPECT_EQ(count(positive, "add_f32"), 0);
  EXPECT_EQ(count(positive, "branch"), 1);
  EXPECT_EQ(count(positive, "jump"), 1);
  const std::vector<std::string> negative = op_kernels_run("if_run_else", computed_if(), branch_sample(kInputs[1], false));
  EXPECT_EQ(count(negative, "mul_f32"), 0);
  EXPECT_EQ(count(negative, "add_f32"), 1);
  EXPECT_EQ(count(negative, "branch"), 1);
  EXPECT_EQ(count(negative, "jump"), 0);
}

// computed_if whose then branch assigns its y to the variable `v`, which the main
// subgraph reads after the IF: a run taking the else branch leaves v as it was.
ModelSpec assigning_if() {
  ModelSpec m = computed_if();
  m.tensors.push_back(TensorSpec("handle", {}, TensorType::RESOURCE));
  m.tensors.push_back(f32("v", kShape));
  m.ops.push_back(var_handle_op(7, "v"));
  m.ops.push_back(op(B::READ_VARIABLE, {7}, {8}));
  m.outputs = {5, 6, 8};
  SubgraphSpec& then_branch = m.subgraphs[0];
  then_branch.tensors.push_back(TensorSpec("then_handle", {}, TensorType::RESOURCE));
  then_branch.ops.push_back(var_handle_op(4, "v"));
  then_branch.ops.push_back(op(B::ASSIGN_VARIABLE, {4, 2}, {}));
  return m;
}

OP_TEST(If, ResourceVariableInABranch) {
  std::vector<float> v(6, 0.0f);  // TFLite Micro's initial value: zeros
  std::vector<OpSample> samples;
  for (const std::vector<float>& x : {kInputs[1], kInputs[0], kInputs[1], kInputs[3], kInputs[0]}) {
    const bool then_taken = sum(x) > 0;
    OpSample sample = branch_sample(x, then_taken);
    if (then_taken)
      for (size_t i = 0; i < 6; ++i) v[i] = x[i] * 2.0f;
    sample.expected.push_back(bytes_of(v));
    samples.push_back(sample);
  }
  expect_op_sequence("if_variable", assigning_if(), samples);
}

// (y, z) = IF(constant, x): only the taken branch is imported.
ModelSpec constant_if(bool condition) {
  ModelSpec m;
  m.tensors = {f32("x", kShape), TensorSpec("condition", {}, TensorType::BOOL, {static_cast<uint8_t>(condition)}),
               f32("y", kShape), f32("z", {3})};
  m.ops = {if_op({1, 0}, {2, 3}, 1, 2)};
  m.inputs = {0};
  m.outputs = {2, 3};
  m.subgraphs = branches();
  return m;
}

OP_TEST(If, ConstantConditionRunsTheTakenBranch) {
  for (bool condition : {true, false}) {
    std::vector<OpSample> samples;
    for (const std::vector<float>& x : kInputs) samples.push_back(branch_sample(x, condition));
    expect_op_outputs(condition ? "if_constant_true" : "if_constant_false", constant_if(condition), samples);
  }
}

// int8: y = IF(x[0] > 0, x) where the then branch returns its input (quantized otherwise
// than x, so the bytes are copied in) and the else branch a constant; y is quantized
// otherwise again. The bytes pass through unchanged, as TFLM's memcpy.
ModelSpec int8_if() {
  ModelSpec m;
  m.tensors = {quantized("x", {4}, TensorType::INT8, 0.5f, 3),
               TensorSpec("begin", {1}, TensorType::INT32, bytes_of(std::vector<int32_t>{0})),
               TensorSpec("size", {1}, TensorType::INT32, bytes_of(std::vector<int32_t>{1})),
               quantized("first", {1}, TensorType::INT8, 0.5f, 3),
               quantized("zero", {1}, TensorType::INT8, 0.5f, 3, {3}),
               TensorSpec("positive", {1}, TensorType::BOOL),
               quantized("y", {4}, TensorType::INT8, 0.25f, -7)};
  m.ops = {op(B::SLICE, {0, 1, 2}, {3}), op(B::GREATER, {3, 4}, {5}), if_op({5, 0}, {6}, 1, 2)};
  m.inputs = {0};
  m.outputs = {6};
  SubgraphSpec then_branch;
  then_branch.tensors = {quantized("then_x", {4}, TensorType::INT8, 0.125f, 0)};
  then_branch.inputs = {0};
  then_branch.outputs = {0};
  SubgraphSpec else_branch;
  else_branch.tensors = {quantized("else_x", {4}, TensorType::INT8, 0.5f, 3),
                         quantized("fallback", {4}, TensorType::INT8, 1.0f, 0, {0x80, 0x7f, 0x00, 0xfe})};
  else_branch.inputs = {0};
  else_branch.outputs = {1};
  m.subgraphs = {then_branch, else_branch};
  return m;
}

OP_TEST(If, Int8BytesPassThroughEitherBranch) {
  const std::vector<std::vector<int8_t>> xs = {{4, -128, 127, 0}, {3, 1, 2, 3}, {2, 100, -100, 5}, {127, 1, 1, 1}};
  const std::vector<int8_t> fallback = {-128, 127, 0, -2};
  std::vector<OpSample> samples;
  for (const std::vector<int8_t>& x : xs) {
    const bool positive = x[0] > 3;  // real (x[0] - 3) * 0.5 > 0
    samples.push_back({{bytes_of(x)}, {bytes_of(positive ? x : fallback)}});
  }
  expect_op_outputs("if_int8_bytes", int8_if(), samples);
}

// An IF inside the then branch of another: y = sum(x) > 0 ? (x[0] > 0 ? x * 2 : x + 10) : x - x.
ModelSpec nested_if() {
  ModelSpec m = computed_if();
  m.tensors.pop_back();  // no z
  m.ops.back() = if_op({4, 0}, {5}, 1, 2);
  m.outputs = {5};
  SubgraphSpec outer_then;
  outer_then.tensors = {f32("outer_x", kShape),
                        TensorSpec("begin", {2}, TensorType::INT32, bytes_of(std::vector<int32_t>{0, 0})),
                        TensorSpec("size", {2}, TensorType::INT32, bytes_of(std::vector<int32_t>{1, 1})),
                        f32("first", {1, 1}),
                        f32("zero", {1}, {0.0f}),
                        TensorSpec("first_positive", {1, 1}, TensorType::BOOL),
                        f32("inner_y", kShape),
                        f32("unused_z", {3})};
  outer_then.ops = {op(B::SLICE, {0, 1, 2}, {3}), op(B::GREATER, {3, 4}, {5}), if_op({5, 0}, {6, 7}, 3, 4)};
  outer_then.inputs = {0};
  outer_then.outputs = {6};
  SubgraphSpec outer_else;
  outer_else.tensors = {f32("outer_else_x", kShape), f32("difference", kShape)};
  outer_else.ops = {op(B::SUB, {0, 0}, {1})};
  outer_else.inputs = {0};
  outer_else.outputs = {1};
  m.subgraphs = {outer_then, outer_else};
  for (const SubgraphSpec& s : branches()) m.subgraphs.push_back(s);
  return m;
}

OP_TEST(If, NestedInABranch) {
  std::vector<OpSample> samples;
  for (const std::vector<float>& x : kInputs) {
    std::vector<float> y(x.size());
    for (size_t i = 0; i < x.size(); ++i)
      y[i] = !(sum(x) > 0) ? x[i] - x[i] : x[0] > 0 ? x[i] * 2.0f : x[i] + 10.0f;
    samples.push_back({{bytes_of(x)}, {bytes_of(y)}});
  }
  std::vector<float> x = {-1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};  // the inner else branch
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = x[i] + 10.0f;
  samples.push_back({{bytes_of(x)}, {bytes_of(y)}});
  expect_op_outputs("if_nested", nested_if(), samples);
}

// `levels` subgraphs, each an IF on a computed condition whose two branches are the next
// one: the last is imported 2^(levels - 1) times.
ModelSpec doubling_ifs(int levels) {
  ModelSpec m;
  m.tensors = {boolean("c", {1}), f32("x", kShape), f32("y", kShape)};
  m.ops = {if_op({0, 0, 1}, {2}, 1, 1)};
  m.inputs = {0, 1};
  m.outputs = {2};
  for (int k = 1; k <= levels; ++k) {
    SubgraphSpec s;
    s.tensors = {boolean("c", {1}), f32("x", kShape), f32("y", kShape)};
    s.inputs = {0, 1};
    s.outputs = {k < levels ? 2 : 1};
    if (k < levels) s.ops = {if_op({0, 0, 1}, {2}, k + 1, k + 1)};
    m.subgraphs.push_back(s);
  }
  return m;
}

OP_TEST(If, Refusals) {
  ModelSpec m = computed_if();
  m.ops.back() = if_op({4, 0}, {5, 6}, 1, 3);
  EXPECT_EQ(op_error("if_range", m),
            "if_range.tflite: operator 2 (IF): else_subgraph_index 3 out of range (the model has 3 subgraphs)");

  m.ops.back() = if_op({4, 0}, {5, 6}, 0, 2);
  EXPECT_EQ(op_error("if_main", m),
            "if_main.tflite: operator 2 (IF): then_subgraph_index 0 names a subgraph that is running this operator "
            "(recursion), not supported");

  // Subgraph 1 runs an IF naming subgraph 1.
  m = computed_if();
  SubgraphSpec& then_branch = m.subgraphs[0];
  then_branch.tensors = {f32("then_x", kShape), TensorSpec("yes", {}, TensorType::BOOL, {1}), f32("then_y", kShape),
                         f32("then_z", {3})};
  then_branch.ops = {if_op({1, 0}, {2, 3}, 1, 2)};
  EXPECT_EQ(op_error("if_recursion", m),
            "if_recursion.tflite: subgraph 1 operator 0 (IF): then_subgraph_index 1 names a subgraph that is running "
            "this operator (recursion), not supported");

  m = computed_if();
  m.subgraphs[1].tensors[2] = f32("else_y", {3, 2});
  EXPECT_EQ(op_error("if_shape", m),
            "if_shape.tflite: operator 2 (IF): subgraph 2 output 0 'else_y' is float32 [3,2], expected float32 "
            "[2,3] as the operator's output 0 'y'");

  m = computed_if();
  m.subgraphs[0].outputs = {2};
  EXPECT_EQ(op_error("if_outputs", m),
            "if_outputs.tflite: operator 2 (IF): subgraph 1 (then_subgraph_index) has 1 outputs, expected 2");

  m = computed_if();
  m.subgraphs[0].tensors[0] = TensorSpec("then_x", kShape, TensorType::INT32);
  EXPECT_EQ(op_error("if_input_type", m),
            "if_input_type.tflite: operator 2 (IF): subgraph 1 input 0 'then_x' is int32 [2,3], expected float32 "
            "[2,3] as the operator's input 1 'x'");

  m = computed_if();
  m.ops.back() = if_op({2, 0}, {5, 6}, 1, 2);
  EXPECT_EQ(op_error("if_float_condition", m),
            "if_float_condition.tflite: operator 2 (IF): condition 'sum' has type float32, expected bool");

  m = computed_if();
  m.ops = {op(B::GREATER, {0, 0}, {4}), if_op({4, 0}, {5, 6}, 1, 2)};
  m.tensors[4] = TensorSpec("positive", kShape, TensorType::BOOL);
  EXPECT_EQ(op_error("if_condition_elements", m),
            "if_condition_elements.tflite: operator 1 (IF): condition 'positive' has shape [2,3], expected one "
            "element");

  m = computed_if();
  m.ops.back().options_type = fb::BuiltinOptions::NONE;
  m.ops.back().options = nullptr;
  EXPECT_EQ(op_error("if_no_options", m), "if_no_options.tflite: operator 2 (IF): builtin options missing");

  EXPECT_EQ(op_error("if_doubling", doubling_ifs(18)),
            "if_doubling.tflite: subgraph 15 operator 0 (IF): the model's IF and WHILE operators expand to more than "
            "100000 operators, not supported");
}

}  // namespace if_test
}  // namespace mote::testing
