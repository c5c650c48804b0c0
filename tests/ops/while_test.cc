// WHILE as TensorFlow Lite Micro's kernels/while.cc: the loop variables go into the cond
// subgraph, whose output 0 (bool) says whether the body subgraph maps them to their next
// values once more; the outputs are their last values. Mote unrolls the iterations whose
// condition follows from constants (a counter) up to 16, and runs the rest as a loop in
// the program (jump and branch). Cases: counted loops (float32 and int8 variables beside
// an int32 counter, zero iterations, 2000 iterations), an IF in the body on the counter
// and one on the data, nested loops, conditions on the data with and without a bound
// (zero to hundreds of iterations), loop variables the body swaps, and the refusals.
// Outputs are the test's own arithmetic; host and emulated cores.
#include <algorithm>
#include <cfloat>
#include <cstring>

#include "all_kernels.h"
#include "common/error.h"
#include "host/loaded_program.h"
#include "kernel_ids.h"
#include "mote/mote.h"
#include "npy.h"
#include "ops/control_flow_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace while_test {

using B = fb::BuiltinOperator;
using fb::TensorType;
using namespace control_flow;

const std::vector<int32_t> kShape = {2, 3};

// cond (subgraph 1): i < limit.
SubgraphSpec counter_below(int32_t limit, const TensorSpec& value) {
  SubgraphSpec cond;
  cond.tensors = {i32("cond_i", {}), value, i32("limit", {}, {limit}), boolean("more", {})};
  cond.ops = {op(B::LESS, {0, 2}, {3})};
  cond.inputs = {0, 1};
  cond.outputs = {3};
  return cond;
}

// (i, x) = WHILE(start, x) with cond i < limit and body (subgraph 2): i + 1, x * 1.5.
ModelSpec scaling_loop(int32_t start, int32_t limit) {
  ModelSpec m;
  m.tensors = {i32("start", {}, {start}), f32("x", kShape), i32("i", {}), f32("y", kShape)};
  m.ops = {while_op({0, 1}, {2, 3}, 1, 2)};
  m.inputs = {1};
  m.outputs = {2, 3};
  SubgraphSpec body;
  body.tensors = {i32("body_i", {}), f32("body_x", kShape), i32("one", {}, {1}), f32("factor", {1}, {1.5f}),
                  i32("next_i", {}), f32("next_x", kShape)};
  body.ops = {op(B::ADD, {0, 2}, {4}), op(B::MUL, {1, 3}, {5})};
  body.inputs = {0, 1};
  body.outputs = {4, 5};
  m.subgraphs = {counter_below(limit, f32("cond_x", kShape)), body};
  return m;
}

const std::vector<std::vector<float>> kInputs = {{1.5f, -2.0f, 3.25f, 0.5f, -1.0f, 4.0f},
                                                 {-0.1f, 0.2f, 1e30f, -1e-30f, 7.0f, 0.0f}};

std::vector<OpSample> scaling_samples(int32_t start, int32_t limit) {
  std::vector<OpSample> samples;
  for (const std::vector<float>& x : kInputs) {
    std::vector<float> y = x;
    int32_t i = start;
    for (; i < limit; ++i)
      for (float& v : y) v = std::clamp(v * 1.5f, -FLT_MAX, FLT_MAX);  // one float multiply, as TFLite's MUL
    samples.push_back({{bytes_of(x)}, {bytes_of(std::vector<int32_t>{i}), bytes_of(y)}});
  }
  return samples;
}

OP_TEST(While, CountedLoopFloat32) {
  expect_op_outputs("while_count_f32", scaling_loop(0, 5), scaling_samples(0, 5));
  expect_op_outputs("while_count_from_negative_f32", scaling_loop(-3, 1), scaling_samples(-3, 1));
}

OP_TEST(While, ZeroIterationsPassTheInputsThrough) {
  expect_op_outputs("while_zero_iterations", scaling_loop(10, 5), scaling_samples(10, 5));
}

// int8 [2, 3] rotated left by one column per iteration (SLICE + CONCATENATION), `limit` times.
ModelSpec rotating_loop(int32_t limit) {
  ModelSpec m;
  const auto s8 = [](const std::string& name, std::vector<int32_t> shape) {
    return quantized(name, std::move(shape), TensorType::INT8, 0.25f, -3);
  };
  m.tensors = {i32("start", {}, {0}), s8("x", kShape), i32("i", {}), s8("y", kShape)};
  m.ops = {while_op({0, 1}, {2, 3}, 1, 2)};
  m.inputs = {1};
  m.outputs = {2, 3};
  SubgraphSpec body;
  body.tensors = {i32("body_i", {}), s8("body_x", kShape), i32("one", {}, {1}), i32("next_i", {}),
                  i32("tail_begin", {2}, {0, 1}), i32("tail_size", {2}, {2, 2}), s8("tail", {2, 2}),
                  i32("head_begin", {2}, {0, 0}), i32("head_size", {2}, {2, 1}), s8("head", {2, 1}),
                  s8("next_x", kShape)};
  OpSpec concat = op(B::CONCATENATION, {6, 9}, {10});
  concat.options_type = fb::BuiltinOptions::ConcatenationOptions;
  concat.options = [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateConcatenationOptions(b, 1).Union(); };
  body.ops = {op(B::ADD, {0, 2}, {3}), op(B::SLICE, {1, 4, 5}, {6}), op(B::SLICE, {1, 7, 8}, {9}), concat};
  body.inputs = {0, 1};
  body.outputs = {3, 10};
  m.subgraphs = {counter_below(limit, s8("cond_x", kShape)), body};
  return m;
}

OP_TEST(While, CountedLoopInt8) {
  const std::vector<int8_t> x = {-128, 1, 2, 127, 0, -1};
  for (int32_t limit : {1, 2, 4}) {
    std::vector<int8_t> y(6);
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 3; ++c) y[static_cast<size_t>(r * 3 + c)] = x[static_cast<size_t>(r * 3 + (c + limit) % 3)];
    expect_op_outputs("while_rotate_s8_" + std::to_string(limit), rotating_loop(limit),
                      {{{bytes_of(x)}, {bytes_of(std::vector<int32_t>{limit}), bytes_of(y)}}});
  }
}

// The body holds two IFs: x = (i % 2 == 0) ? x * 2 : x + 1 (on the counter), then
// x = sum(x) > 100 ? x - 50 : x (on the data: both branches run, the output selected).
ModelSpec branching_loop(int32_t limit) {
  ModelSpec m = scaling_loop(0, limit);
  SubgraphSpec& body = m.subgraphs[1];
  body.tensors = {i32("body_i", {}),
                  f32("body_x", kShape),
                  i32("one", {}, {1}),
                  i32("two", {}, {2}),
                  i32("zero", {}, {0}),
                  i32("next_i", {}),
                  i32("parity", {}),
                  boolean("even", {}),
                  f32("stepped", kShape),
                  i32("axes", {2}, {0, 1}),
                  f32("sum", {1, 1}),
                  f32("hundred", {1}, {100.0f}),
                  boolean("large", {1, 1}),
                  f32("next_x", kShape)};
  OpSpec sum = op(B::SUM, {8, 9}, {10});
  sum.options_type = fb::BuiltinOptions::ReducerOptions;
  sum.options = [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateReducerOptions(b, true).Union(); };
  body.ops = {op(B::ADD, {0, 2}, {5}),         op(B::FLOOR_MOD, {0, 3}, {6}), op(B::EQUAL, {6, 4}, {7}),
              if_op({7, 1}, {8}, 3, 4),        sum,                           op(B::GREATER, {10, 11}, {12}),
              if_op({12, 8}, {13}, 5, 6)};
  body.outputs = {5, 13};
  const auto unary_branch = [](B code, float operand) {
    SubgraphSpec s;
    s.tensors = {f32("in", kShape), f32("operand", {1}, {operand}), f32("out", kShape)};
    s.ops = {op(code, {0, 1}, {2})};
    s.inputs = {0};
    s.outputs = {2};
    return s;
  };
  SubgraphSpec keep;
  keep.tensors = {f32("kept", kShape)};
  keep.inputs = {0};
  keep.outputs = {0};
  m.subgraphs.push_back(unary_branch(B::MUL, 2.0f));   // 3
  m.subgraphs.push_back(unary_branch(B::ADD, 1.0f));   // 4
  m.subgraphs.push_back(unary_branch(B::SUB, 50.0f));  // 5
  m.subgraphs.push_back(keep);                          // 6
  return m;
}

// branching_loop(limit)'s y for x, in float32 as TFLite computes it.
std::vector<float> branching_result(std::vector<float> y, int32_t limit) {
  for (int32_t i = 0; i < limit; ++i) {
    for (float& v : y) v = i % 2 == 0 ? v * 2.0f : v + 1.0f;
    float sum = 0;  // TFLite's SUM: a float accumulator in element order
    for (float v : y) sum += v;
    if (sum > 100.0f)
      for (float& v : y) v = v - 50.0f;
  }
  return y;
}

OP_TEST(While, IfInTheBody) {
  std::vector<std::vector<float>> xs = kInputs;
  xs.push_back(std::vector<float>(6, 3.0f));  // over 100 from the fifth iteration on
  std::vector<OpSample> samples;
  for (const std::vector<float>& x : xs)
    samples.push_back({{bytes_of(x)}, {bytes_of(std::vector<int32_t>{6}), bytes_of(branching_result(x, 6))}});
  expect_op_outputs("while_if_in_body", branching_loop(6), samples);
}

// A WHILE in the body of another: three outer iterations of two inner ones (x * 1.5 each).
ModelSpec nested_loop() {
  ModelSpec m = scaling_loop(0, 3);
  const ModelSpec inner = scaling_loop(0, 2);
  SubgraphSpec outer_body;
  outer_body.tensors = {i32("outer_i", {}), f32("outer_x", kShape), i32("one", {}, {1}), i32("next_i", {}),
                        i32("inner_start", {}, {0}), i32("inner_end", {}), f32("inner_x", kShape)};
  outer_body.ops = {op(B::ADD, {0, 2}, {3}), while_op({4, 1}, {5, 6}, 3, 4)};
  outer_body.inputs = {0, 1};
  outer_body.outputs = {3, 6};
  m.subgraphs = {m.subgraphs[0], outer_body, inner.subgraphs[0], inner.subgraphs[1]};
  return m;
}

OP_TEST(While, NestedInTheBody) {
  std::vector<OpSample> samples = scaling_samples(0, 6);
  for (OpSample& sample : samples) sample.expected[0] = bytes_of(std::vector<int32_t>{3});
  expect_op_outputs("while_nested", nested_loop(), samples);
}

// A resource variable the body reads and assigns each iteration: acc += x three times per
// run; after the loop the main subgraph reads it. The runs accumulate (TFLM keeps the
// variable between invocations).
ModelSpec accumulating_loop() {
  ModelSpec m = scaling_loop(0, 3);
  m.tensors.push_back(TensorSpec("handle", {}, TensorType::RESOURCE));
  m.tensors.push_back(f32("acc", kShape));
  m.ops.push_back(var_handle_op(4, "acc"));
  m.ops.push_back(op(B::READ_VARIABLE, {4}, {5}));
  m.outputs = {5};
  SubgraphSpec& body = m.subgraphs[1];
  body.tensors.push_back(TensorSpec("body_handle", {}, TensorType::RESOURCE));
  body.tensors.push_back(f32("old", kShape));
  body.tensors.push_back(f32("new", kShape));
  body.ops = {op(B::ADD, {0, 2}, {4}), var_handle_op(6, "acc"), op(B::READ_VARIABLE, {6}, {7}),
              op(B::ADD, {7, 1}, {8}), op(B::ASSIGN_VARIABLE, {6, 8}, {})};
  body.outputs = {4, 1};
  return m;
}

OP_TEST(While, ResourceVariableInTheBody) {
  std::vector<double> acc(6, 0.0);
  std::vector<OpSample> samples;
  for (const std::vector<float>& x : {kInputs[0], kInputs[0], std::vector<float>{1, 2, 3, 4, 5, 6}}) {
    std::vector<float> y(6);
    for (size_t i = 0; i < 6; ++i) {
      float a = static_cast<float>(acc[i]);
      for (int k = 0; k < 3; ++k) a = a + x[i];  // one float add per iteration
      acc[i] = a;
      y[i] = a;
    }
    samples.push_back({{bytes_of(x)}, {bytes_of(y)}});
  }
  expect_op_sequence("while_variable", accumulating_loop(), samples);
}

// x * 1.5 while x[0, 0] < threshold, at most `limit` times (tf.while_loop with
// maximum_iterations: the counter's test AND the data's). The condition depends on x.
ModelSpec bounded_data_loop(int32_t limit, float threshold) {
  ModelSpec m = scaling_loop(0, limit);
  SubgraphSpec& cond = m.subgraphs[0];
  cond.tensors = {i32("cond_i", {}),        f32("cond_x", kShape),  i32("limit", {}, {limit}),
                  boolean("below_limit", {}), i32("begin", {2}, {0, 0}), i32("size", {2}, {1, 1}),
                  f32("first", {1, 1}),      f32("threshold", {1}, {threshold}), boolean("below_threshold", {1, 1}),
                  boolean("more", {1, 1})};
  cond.ops = {op(B::LESS, {0, 2}, {3}), op(B::SLICE, {1, 4, 5}, {6}), op(B::LESS, {6, 7}, {8}),
              op(B::LOGICAL_AND, {3, 8}, {9})};
  cond.outputs = {9};
  return m;
}

OP_TEST(While, ConditionOnTheDataWithABound) {
  for (const auto& [limit, threshold] : {std::pair<int32_t, float>{6, 20.0f}, {3, 1e6f}, {8, -5.0f}}) {
    std::vector<OpSample> samples;
    for (const std::vector<float>& x : {kInputs[0], kInputs[1], std::vector<float>{19.0f, 1, 2, 3, 4, 5},
                                        std::vector<float>{0.001f, -1, 2, -3, 4, -5}}) {
      std::vector<float> y = x;
      int32_t i = 0;
      while (i < limit && y[0] < threshold) {
        for (float& v : y) v = v * 1.5f;
        ++i;
      }
      samples.push_back({{bytes_of(x)}, {bytes_of(std::vector<int32_t>{i}), bytes_of(y)}});
    }
    expect_op_outputs("while_bounded_data_" + std::to_string(limit), bounded_data_loop(limit, threshold), samples);
  }
}

// x * 1.5 until x[0, 0] reaches `threshold`, with no bound: the count of iterations
// follows from the data alone (i counts them; the condition does not read it).
ModelSpec data_loop(float threshold) {
  ModelSpec m = scaling_loop(0, 5);
  SubgraphSpec& cond = m.subgraphs[0];
  cond.tensors = {i32("cond_i", {}), f32("cond_x", kShape), i32("begin", {2}, {0, 0}), i32("size", {2}, {1, 1}),
                  f32("first", {1, 1}), f32("threshold", {1}, {threshold}), boolean("more", {1, 1})};
  cond.ops = {op(B::SLICE, {1, 2, 3}, {4}), op(B::LESS, {4, 5}, {6})};
  cond.outputs = {6};
  return m;
}

OP_TEST(While, ConditionOnTheDataAlone) {
  std::vector<OpSample> samples;
  // 1e-30 needs 182 iterations to reach 100; 150 none; 99 one.
  for (float first : {1.5f, 1e-30f, 150.0f, 99.0f, 0.25f}) {
    std::vector<float> y = {first, -2.0f, 3.25f, 0.5f, -1.0f, 4.0f};
    const std::vector<float> x = y;
    int32_t i = 0;
    while (y[0] < 100.0f) {
      for (float& v : y) v = v * 1.5f;
      ++i;
    }
    samples.push_back({{bytes_of(x)}, {bytes_of(std::vector<int32_t>{i}), bytes_of(y)}});
  }
  expect_op_outputs("while_data", data_loop(100.0f), samples);

  // The program loops: the body's multiply runs once per iteration.
  const std::vector<std::string> run = op_kernels_run("while_data_run", data_loop(100.0f), samples[1]);
  EXPECT_EQ(std::count(run.begin(), run.end(), "mul_f32"), 182);
  EXPECT_EQ(std::count(run.begin(), run.end(), "branch"), 183);
}

// The loop limit (Interpreter::set_loop_limit, mote_set_loop_limit, `mote run
// --loop-limit`): x[0, 0] = -1 never reaches 100 (x * 1.5 goes to -inf and stays there),
// so that input keeps the loop running for ever; 1e-30 ends after 182 iterations.
std::vector<float> first_is(float first) { return {first, -2.0f, 3.25f, 0.5f, -1.0f, 4.0f}; }

struct LoopProgram {
  TempDir dir;
  std::string model = write_model(dir, "while_limit", data_loop(100.0f));
  std::vector<uint8_t> bytes = compile_for(model, "host");
};

// How often a run executes `kernel`, and the run's status.
std::pair<Status, int> run_counting(Interpreter& interp, const std::vector<float>& x, KernelId kernel) {
  std::memcpy(interp.input_data(0), x.data(), x.size() * sizeof(float));
  struct Seen {
    const Interpreter* interp;
    KernelId kernel;
    int count;
  } seen{&interp, kernel, 0};
  ProfileHook hook{};
  hook.user = &seen;
  hook.op_begin = [](void* user, uint32_t op) {
    auto* s = static_cast<Seen*>(user);
    s->count += s->interp->op_desc(op)->kernel == static_cast<uint32_t>(s->kernel);
  };
  const Status status = interp.run(&hook);
  return {status, seen.count};
}

OP_TEST(While, LoopLimitStopsTheRunAtTheIterationPastIt) {
  const LoopProgram p;
  LoadedProgram program(p.bytes, "while_limit");
  Interpreter& interp = program.interpreter();
  EXPECT_EQ(interp.loop_limit(), LoadedProgram::kDefaultLoopLimit);

  // 182 iterations: a limit of 182 lets it end, 181 stops it after exactly 181 bodies.
  interp.set_loop_limit(182);
  EXPECT_EQ(run_counting(interp, first_is(1e-30f), KernelId::kMulF32), std::make_pair(Status::kOk, 182));
  interp.set_loop_limit(181);
  EXPECT_EQ(run_counting(interp, first_is(1e-30f), KernelId::kMulF32), std::make_pair(Status::kLoopLimit, 181));
  // The input that never ends, bounded; then the same interpreter runs a good input.
  interp.set_loop_limit(5000);
  EXPECT_EQ(run_counting(interp, first_is(-1.0f), KernelId::kMulF32), std::make_pair(Status::kLoopLimit, 5000));
  EXPECT_EQ(run_counting(interp, first_is(99.0f), KernelId::kMulF32), std::make_pair(Status::kOk, 1));
  // No limit: a loop of 182 runs whole.
  interp.set_loop_limit(0);
  EXPECT_EQ(run_counting(interp, first_is(1e-30f), KernelId::kMulF32), std::make_pair(Status::kOk, 182));
  // Loops the compiler unrolled (a counter below 5: constant) take no jump back.
  TempDir dir;
  LoadedProgram counted(compile_for(write_model(dir, "while_limit_counted", scaling_loop(0, 5)), "host"), "counted");
  counted.interpreter().set_loop_limit(1);
  EXPECT_EQ(run_counting(counted.interpreter(), first_is(1.0f), KernelId::kMulF32), std::make_pair(Status::kOk, 5));

  // LoadedProgram::run() (the compiler's runs and `mote run`) says what stopped it.
  interp.set_loop_limit(100);
  program.set_input(0, bytes_of(first_is(-1.0f)));
  try {
    program.run();
    ADD_FAILURE() << "a run past the loop limit returned";
  } catch (const CompileError& e) {
    EXPECT_EQ(std::string(e.what()),
              "while_limit: run stopped: loop iteration limit reached (100 iterations in one run: a loop whose "
              "condition still held)");
  }
  EXPECT_STREQ(status_string(Status::kLoopLimit), "loop iteration limit reached");
}

OP_TEST(While, LoopLimitThroughTheCApi) {
  const LoopProgram p;
  LoadedProgram aligned(p.bytes, "while_limit");  // a 16-aligned copy of the program
  std::vector<uint8_t> arena_block(aligned.header().arena_bytes + 16);
  uint8_t* arena = arena_block.data() + (16 - reinterpret_cast<uintptr_t>(arena_block.data()) % 16) % 16;
  mote_context ctx;
  std::memset(&ctx, 0, sizeof ctx);
  EXPECT_EQ(mote_set_loop_limit(&ctx, 3), MOTE_NOT_LOADED);
  EXPECT_EQ(mote_set_loop_limit(nullptr, 3), MOTE_NOT_LOADED);
  const mote_kernel_table* kernels = mote_kernel_table_of(all_kernels());
  ASSERT_EQ(mote_load(&ctx, aligned.bytes(), p.bytes.size(), arena, aligned.header().arena_bytes, kernels), MOTE_OK);
  ASSERT_EQ(mote_set_loop_limit(&ctx, 40), MOTE_OK);
  const std::vector<float> never = first_is(-1.0f);
  std::memcpy(mote_input(&ctx, 0), never.data(), mote_input_bytes(&ctx, 0));
  EXPECT_EQ(mote_run(&ctx), MOTE_LOOP_LIMIT);
  EXPECT_STREQ(mote_status_string(MOTE_LOOP_LIMIT), "loop iteration limit reached");
  // mote_load clears the limit: 182 iterations run whole.
  ASSERT_EQ(mote_load(&ctx, aligned.bytes(), p.bytes.size(), arena, aligned.header().arena_bytes, kernels), MOTE_OK);
  const std::vector<float> ends = first_is(1e-30f);
  std::memcpy(mote_input(&ctx, 0), ends.data(), mote_input_bytes(&ctx, 0));
  EXPECT_EQ(mote_run(&ctx), MOTE_OK);
  int32_t iterations = 0;
  std::memcpy(&iterations, mote_output(&ctx, 0), sizeof iterations);
  EXPECT_EQ(iterations, 182);
}

// `mote run --loop-limit`: one line naming the limit, no outputs written, on the host and
// on each emulated core; the default limit (1,000,000) holds too, on the host.
OP_TEST(While, MoteRunStopsALoopThatDoesNotEnd) {
  const LoopProgram p;
  const std::string input = p.dir.file("never.npy");
  write_npy(input, NpyArray{DType::kFloat32, {2, 3}, bytes_of(first_is(-1.0f))});
  std::vector<std::string> devices = {"host"};
  for (const std::string& d : op_test_devices()) devices.push_back(d);
  for (const std::string& device : devices) {
    SCOPED_TRACE(device);
    const std::string program = p.dir.file("while_limit_" + device + ".mote");
    const std::string target = device == "host" ? "host" : device.substr(std::string("qemu-").size());
    write_bytes(program, compile_for(p.model, target));
    const std::string out = p.dir.file("out_" + device);
    const CommandResult r = run_mote("run '" + program + "' --input '" + input + "' --output-dir '" + out +
                                     "' --device " + device + " --loop-limit 300");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("loop iteration limit reached (300 iterations in one run"), std::string::npos) << r.err;
    EXPECT_EQ(written_output_count(out), 0);
  }
  const CommandResult r = run_mote("run '" + p.dir.file("while_limit_host.mote") + "' --input '" + input +
                                   "' --output-dir '" + p.dir.file("out_default") + "'");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("loop iteration limit reached (1000000 iterations in one run"), std::string::npos) << r.err;
}

// A counted loop past the unrolled iterations: 16 unrolled, the rest run by the program.
OP_TEST(While, LongCountedLoop) {
  expect_op_outputs("while_long", scaling_loop(0, 2000), scaling_samples(0, 2000));
  const std::vector<std::string> run =
      op_kernels_run("while_long_run", scaling_loop(0, 2000), scaling_samples(0, 2000)[0]);
  EXPECT_EQ(std::count(run.begin(), run.end(), "mul_f32"), 2000);
  EXPECT_EQ(std::count(run.begin(), run.end(), "branch"), 2000 - 16 + 1);
}

// Fibonacci on tensors: (a, b) = (b, a + b) while b[0, 0] < limit. The body's first result
// is its second variable: the next values must be read before either is written.
ModelSpec fibonacci_loop(float limit) {
  ModelSpec m;
  m.tensors = {f32("a0", kShape), f32("b0", kShape), f32("a", kShape), f32("b", kShape)};
  m.ops = {while_op({0, 1}, {2, 3}, 1, 2)};
  m.inputs = {0, 1};
  m.outputs = {2, 3};
  SubgraphSpec cond;
  cond.tensors = {f32("cond_a", kShape), f32("cond_b", kShape), i32("begin", {2}, {0, 0}), i32("size", {2}, {1, 1}),
                  f32("first", {1, 1}), f32("limit", {1}, {limit}), boolean("more", {1, 1})};
  cond.ops = {op(B::SLICE, {1, 2, 3}, {4}), op(B::LESS, {4, 5}, {6})};
  cond.inputs = {0, 1};
  cond.outputs = {6};
  SubgraphSpec body;
  body.tensors = {f32("body_a", kShape), f32("body_b", kShape), f32("sum", kShape)};
  body.ops = {op(B::ADD, {0, 1}, {2})};
  body.inputs = {0, 1};
  body.outputs = {1, 2};
  m.subgraphs = {cond, body};
  return m;
}

OP_TEST(While, BodySwapsItsVariables) {
  std::vector<OpSample> samples;
  for (const auto& [a0, b0] : {std::pair<std::vector<float>, std::vector<float>>{{0, 1, 2, 3, 4, 5}, {1, 1, 1, 1, 1, 1}},
                               {{1, -1, 0.5f, 2, 0, 9}, {2, 3, -4, 5, 6, -7}},
                               {{0, 0, 0, 0, 0, 0}, {500, 1, 2, 3, 4, 5}}}) {
    std::vector<float> a = a0, b = b0;
    while (b[0] < 300.0f) {
      std::vector<float> next(6);
      for (size_t k = 0; k < 6; ++k) next[k] = a[k] + b[k];
      a = b;
      b = next;
    }
    samples.push_back({{bytes_of(a0), bytes_of(b0)}, {bytes_of(a), bytes_of(b)}});
  }
  expect_op_outputs("while_swap", fibonacci_loop(300.0f), samples);
}

// branching_loop with a condition on the data too (i < limit and x[0, 0] < threshold):
// the loop runs in the program with both IFs of its body (on the counter, on the data).
OP_TEST(While, IfInALoopOnTheData) {
  ModelSpec m = branching_loop(6);
  m.subgraphs[0] = bounded_data_loop(6, 40.0f).subgraphs[0];
  std::vector<OpSample> samples;
  std::vector<std::vector<float>> xs = kInputs;
  xs.push_back(std::vector<float>(6, 3.0f));
  xs.push_back({45.0f, 1, 1, 1, 1, 1});
  for (const std::vector<float>& x : xs) {
    std::vector<float> y = x;
    int32_t i = 0;
    while (i < 6 && y[0] < 40.0f) {
      for (float& v : y) v = i % 2 == 0 ? v * 2.0f : v + 1.0f;
      float sum = 0;
      for (float v : y) sum += v;
      if (sum > 100.0f)
        for (float& v : y) v = v - 50.0f;
      ++i;
    }
    samples.push_back({{bytes_of(x)}, {bytes_of(std::vector<int32_t>{i}), bytes_of(y)}});
  }
  expect_op_outputs("while_data_if_in_body", m, samples);
}

// nested_loop with conditions on the data in both loops: the outer runs while x[0, 0] <
// 1000 (counting i), the inner (x * 1.5) while x[0, 0] < 10 * (outer i + 1), both in the
// program.
OP_TEST(While, NestedLoopsOnTheData) {
  ModelSpec m = nested_loop();
  m.subgraphs[0] = data_loop(1000.0f).subgraphs[0];
  SubgraphSpec& outer_body = m.subgraphs[1];
  // The inner loop's variables: (bound, x); its cond reads the bound, its body keeps it.
  outer_body.tensors = {i32("outer_i", {}),    f32("outer_x", kShape), i32("one", {}, {1}), i32("next_i", {}),
                        f32("ten", {}, {10.0f}),  f32("i_float", {}),   f32("bound", {}),   f32("inner_bound", {}),
                        f32("inner_x", kShape)};
  OpSpec cast = op(B::CAST, {3}, {5});
  outer_body.ops = {op(B::ADD, {0, 2}, {3}), cast, op(B::MUL, {5, 4}, {6}), while_op({6, 1}, {7, 8}, 3, 4)};
  outer_body.outputs = {3, 8};
  SubgraphSpec inner_cond;
  inner_cond.tensors = {f32("c_bound", {}), f32("c_x", kShape), i32("begin", {2}, {0, 0}), i32("size", {2}, {1, 1}),
                        f32("first", {1, 1}), boolean("more", {1, 1})};
  inner_cond.ops = {op(B::SLICE, {1, 2, 3}, {4}), op(B::LESS, {4, 0}, {5})};
  inner_cond.inputs = {0, 1};
  inner_cond.outputs = {5};
  SubgraphSpec inner_body;
  inner_body.tensors = {f32("b_bound", {}), f32("b_x", kShape), f32("factor", {1}, {1.5f}), f32("scaled", kShape)};
  inner_body.ops = {op(B::MUL, {1, 2}, {3})};
  inner_body.inputs = {0, 1};
  inner_body.outputs = {0, 3};
  m.subgraphs[2] = inner_cond;
  m.subgraphs[3] = inner_body;
  std::vector<OpSample> samples;
  for (float first : {1.0f, 0.01f, 2000.0f, 5.0f}) {
    std::vector<float> y = {first, 1, -2, 3, -4, 5};
    const std::vector<float> x = y;
    int32_t i = 0;
    while (y[0] < 1000.0f) {
      ++i;
      const float bound = static_cast<float>(i) * 10.0f;
      while (y[0] < bound)
        for (float& v : y) v = v * 1.5f;
    }
    samples.push_back({{bytes_of(x)}, {bytes_of(std::vector<int32_t>{i}), bytes_of(y)}});
  }
  expect_op_outputs("while_nested_data", m, samples);
}

// bounded_data_loop whose body assigns each next x to the variable `v`, which the main
// subgraph reads after the loop: a run of zero iterations leaves v as it was.
OP_TEST(While, ResourceVariableInALoopOnTheData) {
  ModelSpec m = bounded_data_loop(4, 10.0f);
  m.tensors.push_back(TensorSpec("handle", {}, TensorType::RESOURCE));
  m.tensors.push_back(f32("v", kShape));
  m.ops.push_back(var_handle_op(4, "v"));
  m.ops.push_back(op(B::READ_VARIABLE, {4}, {5}));
  m.outputs = {2, 3, 5};
  m.subgraphs[1].tensors.push_back(TensorSpec("handle", {}, TensorType::RESOURCE));
  m.subgraphs[1].ops.push_back(var_handle_op(6, "v"));
  m.subgraphs[1].ops.push_back(op(B::ASSIGN_VARIABLE, {6, 5}, {}));
  std::vector<float> v(6, 0.0f);
  std::vector<OpSample> samples;
  for (const std::vector<float>& x : {std::vector<float>{19.0f, 1, 2, 3, 4, 5}, kInputs[0],
                                      std::vector<float>{19.0f, 1, 2, 3, 4, 5}, std::vector<float>{0.001f, -1, 2, -3, 4, -5}}) {
    std::vector<float> y = x;
    int32_t i = 0;
    while (i < 4 && y[0] < 10.0f) {
      for (float& e : y) e = e * 1.5f;
      v = y;
      ++i;
    }
    samples.push_back({{bytes_of(x)}, {bytes_of(std::vector<int32_t>{i}), bytes_of(y), bytes_of(v)}});
  }
  expect_op_sequence("while_data_variable", m, samples);
}

OP_TEST(While, QuantizingALoopOnTheDataIsRefused) {
  EXPECT_EQ(quantize_error("while_ptq", data_loop(100.0f), {2, 3}),
            "while_ptq.tflite: --quantize int8: node 'i' (while) runs its regions at run time (TFLite IF or WHILE), "
            "not supported");
}

OP_TEST(While, Refusals) {
  ModelSpec m;
  // A condition that is true whatever the values: TFLite Micro would never return.
  m = scaling_loop(0, 5);
  m.subgraphs[0].tensors[2] = i32("limit", {}, {5});
  m.subgraphs[0].tensors.push_back(i32("six", {}, {6}));
  m.subgraphs[0].ops = {op(B::LESS, {2, 4}, {3})};
  EXPECT_EQ(op_error("while_forever", m),
            "while_forever.tflite: operator 0 (WHILE): subgraph 1 (cond_subgraph_index) always gives true: the loop "
            "never ends");

  m = scaling_loop(0, 5);
  m.subgraphs[0].tensors[3] = i32("more", {});
  m.subgraphs[0].ops = {op(B::ADD, {0, 2}, {3})};
  EXPECT_EQ(op_error("while_int_condition", m),
            "while_int_condition.tflite: operator 0 (WHILE): subgraph 1 output 0 'more' is int32 [], expected bool "
            "with an element (the condition)");

  m = scaling_loop(0, 5);
  m.ops = {while_op({0, 1}, {2, 3}, 1, 3)};
  EXPECT_EQ(op_error("while_range", m),
            "while_range.tflite: operator 0 (WHILE): body_subgraph_index 3 out of range (the model has 3 subgraphs)");

  m = scaling_loop(0, 5);
  m.subgraphs[1].tensors[5] = f32("next_x", {3, 2});
  m.subgraphs[1].ops[1] = op(B::RESHAPE, {1}, {5});
  EXPECT_EQ(op_error("while_body_shape", m),
            "while_body_shape.tflite: operator 0 (WHILE): subgraph 2 output 1 'next_x' is float32 [3,2], expected "
            "float32 [2,3] as the operator's output 1 'y'");

  m = scaling_loop(0, 5);
  m.tensors[3] = f32("y", {6});
  EXPECT_EQ(op_error("while_output_shape", m),
            "while_output_shape.tflite: operator 0 (WHILE): output 1 'y' is float32 [6], expected float32 [2,3] as "
            "input 1 'x'");

  m = scaling_loop(0, 5);
  m.subgraphs[0].outputs = {99};
  EXPECT_EQ(op_error("while_cond_output", m),
            "while_cond_output.tflite: subgraph 1 output 0 tensor index 99 out of range (4 tensors)");

  m = scaling_loop(0, 5);
  m.subgraphs[0].inputs = {0};
  EXPECT_EQ(op_error("while_cond_inputs", m),
            "while_cond_inputs.tflite: operator 0 (WHILE): subgraph 1 (cond_subgraph_index) has 1 inputs, expected 2");

  m = scaling_loop(0, 5);
  OpSpec call_once = op(B::CALL_ONCE, {}, {});
  call_once.options_type = fb::BuiltinOptions::CallOnceOptions;
  call_once.options = [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateCallOnceOptions(b, 1).Union(); };
  m.subgraphs[1].ops.push_back(call_once);
  EXPECT_EQ(op_error("while_call_once", m),
            "while_call_once.tflite: subgraph 2 operator 2 (CALL_ONCE): CALL_ONCE inside an IF branch or a WHILE loop not "
            "supported");

  // The body runs a WHILE whose body is itself.
  m = scaling_loop(0, 5);
  m.subgraphs[1].tensors.push_back(i32("inner_i", {}));
  m.subgraphs[1].tensors.push_back(f32("inner_x", kShape));
  m.subgraphs[1].ops.push_back(while_op({4, 5}, {6, 7}, 1, 2));
  m.subgraphs[1].outputs = {6, 7};
  EXPECT_EQ(op_error("while_recursion", m),
            "while_recursion.tflite: subgraph 2 operator 2 (WHILE): body_subgraph_index 2 names a subgraph that is "
            "running this operator (recursion), not supported");
}

}  // namespace while_test
}  // namespace mote::testing
