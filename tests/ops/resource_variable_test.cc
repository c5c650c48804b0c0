// Resource variables: VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE and CALL_ONCE, as
// TensorFlow Lite Micro runs them (micro_resource_variable.cc, kernels/var_handle.cc,
// read_variable.cc, assign_variable.cc, call_once.cc): a variable is keyed by
// (container, shared_name) across subgraphs, holds the bytes of its first assignment's
// zero point until assigned, READ copies it out and ASSIGN copies a value in, in operator
// order, and CALL_ONCE runs its init subgraph on the first Invoke only. The models run
// several times in one loaded program (host, and one QEMU boot per core) and each run's
// outputs are checked against the state the runs before it left: running sums, delay
// lines. Also: reset_state() through the C++ and C APIs, the memory report's state
// bytes, and the importer's refusals.
#include <cstdlib>
#include <cstring>
#include <memory>

#include "all_kernels.h"
#include "common/error.h"
#include "compiler.h"
#include "emit/c_emitter.h"
#include "mote/interpreter.h"
#include "mote/mote.h"
#include "ops/op_test.h"
#include "test_util.h"

namespace mote::testing {
namespace resource_variable_test {

using B = fb::BuiltinOperator;

OpSpec var_handle(int32_t out, const std::string& shared_name, const std::string& container = "") {
  OpSpec op;
  op.code = op_code(B::VAR_HANDLE);
  op.outputs = {out};
  op.options_type = fb::BuiltinOptions::VarHandleOptions;
  op.options = [shared_name, container](flatbuffers::FlatBufferBuilder& b) {
    const auto c = container.empty() ? flatbuffers::Offset<flatbuffers::String>() : b.CreateString(container);
    return fb::CreateVarHandleOptions(b, c, b.CreateString(shared_name)).Union();
  };
  return op;
}

OpSpec read_variable(int32_t handle, int32_t out) {
  OpSpec op;
  op.code = op_code(B::READ_VARIABLE);
  op.inputs = {handle};
  op.outputs = {out};
  return op;
}

OpSpec assign_variable(int32_t handle, int32_t value) {
  OpSpec op;
  op.code = op_code(B::ASSIGN_VARIABLE);
  op.inputs = {handle, value};
  return op;
}

OpSpec call_once(int32_t subgraph) {
  OpSpec op;
  op.code = op_code(B::CALL_ONCE);
  op.options_type = fb::BuiltinOptions::CallOnceOptions;
  op.options = [subgraph](flatbuffers::FlatBufferBuilder& b) { return fb::CreateCallOnceOptions(b, subgraph).Union(); };
  return op;
}

OpSpec add(int32_t a, int32_t b, int32_t out) {
  OpSpec op;
  op.code = op_code(B::ADD);
  op.inputs = {a, b};
  op.outputs = {out};
  return op;
}

TensorSpec resource(const std::string& name) { return TensorSpec(name, {}, fb::TensorType::RESOURCE); }

const std::vector<int32_t> kShape = {1, 4};

// y = x + acc; acc = y. With `init`, CALL_ONCE first runs subgraph 1: acc = init.
ModelSpec accumulator(const std::vector<float>& init = {}) {
  ModelSpec m;
  m.tensors = {TensorSpec("x", kShape), resource("acc_handle"), TensorSpec("acc_value", kShape), TensorSpec("y", kShape)};
  if (!init.empty()) {
    m.ops.push_back(call_once(1));
    SubgraphSpec sub;
    sub.tensors = {resource("init_handle"), TensorSpec("init_value", kShape, fb::TensorType::FLOAT32, bytes_of(init))};
    sub.ops = {var_handle(0, "acc"), assign_variable(0, 1)};
    m.subgraphs.push_back(sub);
  }
  m.ops.push_back(var_handle(1, "acc"));
  m.ops.push_back(read_variable(1, 2));
  m.ops.push_back(add(0, 2, 3));
  m.ops.push_back(assign_variable(1, 3));
  m.inputs = {0};
  m.outputs = {3};
  return m;
}

// Samples of the accumulator: inputs xs, outputs the running sum from `start`.
std::vector<OpSample> running_sums(const std::vector<std::vector<float>>& xs, std::vector<double> start) {
  std::vector<OpSample> samples;
  for (const std::vector<float>& x : xs) {
    std::vector<float> sum(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      start[i] += x[i];
      sum[i] = static_cast<float>(start[i]);
    }
    samples.push_back({{bytes_of(x)}, {bytes_of(sum)}});
  }
  return samples;
}

const std::vector<std::vector<float>> kInputs = {
    {1.0f, -2.0f, 0.5f, 3.0f}, {0.25f, 4.0f, -1.5f, -3.0f}, {2.0f, 2.0f, 2.0f, 2.0f}, {-8.0f, 0.125f, 16.0f, 1.0f}};

OP_TEST(ResourceVariable, AccumulatesAcrossRunsFromZero) {
  // TFLite Micro fills a float variable with zeros before its first assignment.
  expect_op_sequence("resource_variable_accumulate_f32", accumulator(), running_sums(kInputs, {0, 0, 0, 0}));
}

OP_TEST(ResourceVariable, CallOnceInitialisesTheVariableOnTheFirstRunOnly) {
  const std::vector<float> init = {10.0f, -20.0f, 0.75f, 100.0f};
  expect_op_sequence("resource_variable_call_once_f32", accumulator(init),
                     running_sums(kInputs, {init[0], init[1], init[2], init[3]}));
}

// y = previous x (a one-frame delay line): the READ comes before the ASSIGN in the file,
// and running it after would return x itself. The first run reads the variable's fill:
// TFLite Micro memsets it to the first assigned value's zero point.
ModelSpec delay_line(fb::TensorType type, float scale, int64_t zero_point) {
  ModelSpec m;
  const std::vector<int32_t> shape = {1, 6};
  auto value = [&](const std::string& name) {
    return type == fb::TensorType::FLOAT32 ? TensorSpec(name, shape) : quantized(name, shape, type, scale, zero_point);
  };
  m.tensors = {value("x"), resource("frame_handle"), value("y")};
  m.ops = {var_handle(1, "frame"), read_variable(1, 2), assign_variable(1, 0)};
  m.inputs = {0};
  m.outputs = {2};
  return m;
}

template <typename T>
std::vector<OpSample> delayed(const std::vector<std::vector<T>>& xs, T fill) {
  std::vector<OpSample> samples;
  std::vector<T> previous(xs[0].size(), fill);
  for (const std::vector<T>& x : xs) {
    samples.push_back({{bytes_of(x)}, {bytes_of(previous)}});
    previous = x;
  }
  return samples;
}

OP_TEST(ResourceVariable, DelayLineReadsBeforeItAssignsInEveryDtype) {
  expect_op_sequence("resource_variable_delay_s8", delay_line(fb::TensorType::INT8, 0.5f, -128),
                     delayed<int8_t>({{1, -2, 3, -128, 127, 0}, {5, 6, 7, 8, 9, 10}, {-1, -1, -1, -1, -1, -1}},
                                     int8_t{-128}));
  expect_op_sequence("resource_variable_delay_s8_zp",
                     delay_line(fb::TensorType::INT8, 0.25f, 17),
                     delayed<int8_t>({{100, -100, 3, 4, 5, 6}, {0, 0, 0, 0, 0, 0}}, int8_t{17}));
  expect_op_sequence("resource_variable_delay_s16", delay_line(fb::TensorType::INT16, 0.001f, 0),
                     delayed<int16_t>({{1000, -2000, 32767, -32768, 0, 7}, {1, 2, 3, 4, 5, 6}, {9, 9, 9, 9, 9, 9}},
                                      int16_t{0}));
  expect_op_sequence("resource_variable_delay_f32", delay_line(fb::TensorType::FLOAT32, 0, 0),
                     delayed<float>({{1.5f, -2, 3, 4, 5, 6}, {-1e30f, 1e-30f, 0, -0.0f, 7, 8}, {1, 1, 1, 1, 1, 1}},
                                    0.0f));
}

// A streaming model's ring of past frames, int8: ring = [frame t-2, t-1, t]; each run
// reads it, drops the oldest frame (SLICE), appends x (CONCATENATION on axis 1) and
// assigns the result back, which is also the output. The first runs show the fill (the
// zero point, -3) in the frames not yet seen.
OP_TEST(ResourceVariable, RingOfPastFramesInt8) {
  ModelSpec m;
  const float scale = 0.5f;
  const int64_t zp = -3;
  m.tensors = {quantized("x", {1, 1, 4}, fb::TensorType::INT8, scale, zp),
               resource("ring_handle"),
               quantized("ring", {1, 3, 4}, fb::TensorType::INT8, scale, zp),
               TensorSpec("begin", {3}, fb::TensorType::INT32, bytes_of(std::vector<int32_t>{0, 1, 0})),
               TensorSpec("size", {3}, fb::TensorType::INT32, bytes_of(std::vector<int32_t>{1, 2, 4})),
               quantized("recent", {1, 2, 4}, fb::TensorType::INT8, scale, zp),
               quantized("frames", {1, 3, 4}, fb::TensorType::INT8, scale, zp)};
  OpSpec slice;
  slice.code = op_code(B::SLICE);
  slice.inputs = {2, 3, 4};
  slice.outputs = {5};
  OpSpec concat;
  concat.code = op_code(B::CONCATENATION);
  concat.inputs = {5, 0};
  concat.outputs = {6};
  concat.options_type = fb::BuiltinOptions::ConcatenationOptions;
  concat.options = [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateConcatenationOptions(b, 1).Union(); };
  m.ops = {var_handle(1, "ring"), read_variable(1, 2), slice, concat, assign_variable(1, 6)};
  m.inputs = {0};
  m.outputs = {6};
  std::vector<int8_t> ring(12, static_cast<int8_t>(zp));
  std::vector<OpSample> samples;
  for (int t = 0; t < 5; ++t) {
    std::vector<int8_t> x(4);
    for (int i = 0; i < 4; ++i) x[static_cast<size_t>(i)] = static_cast<int8_t>(t * 10 + i - 20);
    std::vector<int8_t> next(ring.begin() + 4, ring.end());
    next.insert(next.end(), x.begin(), x.end());
    ring = next;
    samples.push_back({{bytes_of(x)}, {bytes_of(ring)}});
  }
  expect_op_sequence("resource_variable_ring_s8", m, samples);
}

// before = v (the previous run's x); v = x; after = v (this run's x): reads and the
// assignment between them keep their order.
OP_TEST(ResourceVariable, ReadAssignReadKeepsItsOrder) {
  ModelSpec m;
  const std::vector<int32_t> shape = {2, 3};
  m.tensors = {quantized("x", shape, fb::TensorType::INT8, 0.1f, 3), resource("v_handle"),
               quantized("before", shape, fb::TensorType::INT8, 0.1f, 3),
               quantized("after", shape, fb::TensorType::INT8, 0.1f, 3)};
  m.ops = {var_handle(1, "v"), read_variable(1, 2), assign_variable(1, 0), read_variable(1, 3)};
  m.inputs = {0};
  m.outputs = {2, 3};
  const std::vector<std::vector<int8_t>> xs = {{1, 2, 3, 4, 5, 6}, {-7, -8, -9, 10, 11, 12}, {0, 0, 0, 0, 0, 0}};
  std::vector<OpSample> samples;
  std::vector<int8_t> previous(6, 3);
  for (const auto& x : xs) {
    samples.push_back({{bytes_of(x)}, {bytes_of(previous), bytes_of(x)}});
    previous = x;
  }
  expect_op_sequence("resource_variable_read_assign_read", m, samples);
}

// Two variables ("a", "b") and a second handle on "a" (same shared_name, same variable):
//   y1 = x + a;  a = y1 (through the second handle);  y2 = b + y1;  b = x.
OP_TEST(ResourceVariable, VariablesAreKeyedBySharedNameAcrossHandles) {
  ModelSpec m;
  m.tensors = {TensorSpec("x", kShape), resource("a_handle"), resource("b_handle"), resource("a_again"),
               TensorSpec("a_value", kShape), TensorSpec("y1", kShape), TensorSpec("b_value", kShape),
               TensorSpec("y2", kShape)};
  m.ops = {var_handle(1, "a"),        var_handle(2, "b"), var_handle(3, "a"), read_variable(1, 4), add(0, 4, 5),
           assign_variable(3, 5),     read_variable(2, 6), add(6, 5, 7),       assign_variable(2, 0)};
  m.inputs = {0};
  m.outputs = {5, 7};
  std::vector<double> a(4, 0.0), b(4, 0.0);
  std::vector<OpSample> samples;
  for (const std::vector<float>& x : kInputs) {
    std::vector<float> y1(4), y2(4);
    for (size_t i = 0; i < 4; ++i) {
      a[i] += x[i];
      y1[i] = static_cast<float>(a[i]);
      y2[i] = static_cast<float>(b[i] + y1[i]);
      b[i] = x[i];
    }
    samples.push_back({{bytes_of(x)}, {bytes_of(y1), bytes_of(y2)}});
  }
  expect_op_sequence("resource_variable_two_variables", m, samples);
}

// The same shared_name in another container is another variable.
OP_TEST(ResourceVariable, ContainersSeparateVariables) {
  ModelSpec m;
  const std::vector<int32_t> shape = {3};
  m.tensors = {TensorSpec("x", shape), resource("h1"), resource("h2"), TensorSpec("first", shape),
               TensorSpec("second", shape)};
  // first = v@c1 (the previous x); v@c1 = x; v@c2 = first; second = v@c2, which is
  // `first` again (it would be x if the two were one variable).
  m.ops = {var_handle(1, "v", "c1"), var_handle(2, "v", "c2"), read_variable(1, 3), assign_variable(1, 0),
           assign_variable(2, 3),    read_variable(2, 4)};
  m.inputs = {0};
  m.outputs = {3, 4};
  const std::vector<std::vector<float>> xs = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  std::vector<OpSample> samples;
  std::vector<float> previous(3, 0.0f);
  for (const auto& x : xs) {
    samples.push_back({{bytes_of(x)}, {bytes_of(previous), bytes_of(previous)}});
    previous = x;
  }
  expect_op_sequence("resource_variable_containers", m, samples);
}

// ---- the program and the runtime -------------------------------------------------------

std::vector<uint8_t> compile_spec(const TempDir& dir, const std::string& name, const ModelSpec& spec,
                                  CompileResult* result = nullptr) {
  const std::string path = dir.file(name + ".tflite");
  write_bytes(path, build_model(spec));
  CompileOptions options;
  options.model_path = path;
  options.target = "host";
  CompileResult compiled = compile(options);
  if (result != nullptr) *result = compiled;
  return compiled.program;
}

struct Aligned {
  explicit Aligned(size_t size)
      : bytes(static_cast<uint8_t*>(std::aligned_alloc(16, (size + 15) / 16 * 16 + 16))), size(size) {
    std::memset(bytes.get(), 0xEE, (size + 15) / 16 * 16 + 16);
  }
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, Free> bytes;
  size_t size;
};

OP_TEST(ResourceVariable, TheProgramMarksStateAndInitOps) {
  TempDir dir;
  CompileResult result;
  const std::vector<uint8_t> program = compile_spec(dir, "state_program", accumulator({1, 2, 3, 4}), &result);
  EXPECT_EQ(result.report.state_bytes, 16u);
  ProgramHeader header;
  std::memcpy(&header, program.data(), sizeof header);
  EXPECT_EQ(header.version_minor, 1u);
  EXPECT_EQ(header.init_op_count, 2u);  // the state's fill, the init subgraph's assignment
  ASSERT_GE(header.op_count, 5u);       // fill, init assign, read, add, assign
  OpDesc first;
  std::memcpy(&first, program.data() + header.ops_offset, sizeof first);
  EXPECT_EQ(first.kernel, static_cast<uint16_t>(KernelId::kFillBytes));
  uint32_t persistent = 0;
  for (uint32_t i = 0; i < header.tensor_count; ++i) {
    TensorDesc t;
    std::memcpy(&t, program.data() + header.tensors_offset + i * sizeof(TensorDesc), sizeof t);
    if ((t.flags & kTensorPersistent) == 0) continue;
    ++persistent;
    EXPECT_EQ(t.storage, static_cast<uint8_t>(Storage::kArena));
    EXPECT_EQ(t.bytes, 16u);
  }
  EXPECT_EQ(persistent, 1u);
}

// --emit-c carries the state: the header defines <MODEL>_STATE_BYTES and says the arena
// must stay the context's; the provenance comment counts the init ops.
OP_TEST(ResourceVariable, GeneratedSourcesStateTheStateBytes) {
  TempDir dir;
  EmitCInput input;
  input.program = compile_spec(dir, "state_emit", accumulator({1, 2, 3, 4}));
  input.model_file_name = "state_emit.tflite";
  input.model_sha256 = std::string(64, '0');
  input.target = "host";
  const std::vector<GeneratedFile> files = emit_c_sources(input);
  bool header_seen = false;
  for (const GeneratedFile& f : files) {
    EXPECT_NE(f.text.find("State:   16 of the arena bytes kept between runs; 2 init ops run on the first run only"),
              std::string::npos)
        << f.name;
    if (f.name != "state_emit.h") continue;
    header_seen = true;
    EXPECT_NE(f.text.find("#define STATE_EMIT_STATE_BYTES 16u"), std::string::npos) << f.text;
    EXPECT_NE(f.text.find("STATE_EMIT_STATE_BYTES of it hold state between mote_run() calls"), std::string::npos);
  }
  EXPECT_TRUE(header_seen);
}

// The planner never lets another buffer share the state's bytes: a run's temporaries
// must not overwrite what the next run reads.
OP_TEST(ResourceVariable, NoOtherTensorSharesTheStateBytes) {
  TempDir dir;
  const std::vector<uint8_t> program = compile_spec(dir, "state_overlap", accumulator({1, 2, 3, 4}));
  ProgramHeader header;
  std::memcpy(&header, program.data(), sizeof header);
  std::vector<TensorDesc> tensors(header.tensor_count);
  std::memcpy(tensors.data(), program.data() + header.tensors_offset, tensors.size() * sizeof(TensorDesc));
  for (const TensorDesc& state : tensors) {
    if ((state.flags & kTensorPersistent) == 0) continue;
    for (const TensorDesc& other : tensors) {
      if (&other == &state || other.storage != static_cast<uint8_t>(Storage::kArena)) continue;
      const bool apart = other.offset + other.bytes <= state.offset || state.offset + state.bytes <= other.offset;
      EXPECT_TRUE(apart) << "a tensor at " << other.offset << " overlaps the state at " << state.offset;
    }
  }
}

OP_TEST(ResourceVariable, ResetStateRestartsTheSequenceThroughBothApis) {
  TempDir dir;
  const std::vector<float> init = {10, 20, 30, 40};
  const std::vector<uint8_t> bytes = compile_spec(dir, "state_reset", accumulator(init));
  Aligned program(bytes.size());
  std::memcpy(program.bytes.get(), bytes.data(), bytes.size());
  const uint32_t arena_bytes = mote_program_arena_bytes(program.bytes.get(), program.size);
  ASSERT_GT(arena_bytes, 0u);
  Aligned arena(arena_bytes);

  // C++: two runs, reset, the same two runs again.
  Interpreter interp;
  ASSERT_EQ(interp.load(Span<const uint8_t>(program.bytes.get(), program.size), Span<uint8_t>(arena.bytes.get(), arena_bytes),
                        all_kernels()),
            Status::kOk);
  EXPECT_EQ(interp.memory_report().arena_state_bytes, 16u);
  EXPECT_EQ(interp.memory_report().arena_state_bytes, 16u);
  const float x[4] = {1, 1, 1, 1};
  auto run_once = [&](float* y) {
    ASSERT_EQ(interp.set_input(0, x, sizeof x), Status::kOk);
    ASSERT_EQ(interp.run(), Status::kOk);
    ASSERT_EQ(interp.get_output(0, y, 16), Status::kOk);
  };
  float y[4];
  for (int pass = 0; pass < 2; ++pass) {
    run_once(y);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(y[i], init[i] + 1) << "pass " << pass;
    run_once(y);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(y[i], init[i] + 2) << "pass " << pass;
    ASSERT_EQ(interp.reset_state(), Status::kOk);
  }

  // C: the same through mote_reset_state.
  mote_context ctx;
  ASSERT_EQ(mote_load(&ctx, program.bytes.get(), program.size, arena.bytes.get(), arena_bytes,
                      mote_kernel_table_of(all_kernels())),
            MOTE_OK);
  EXPECT_EQ(mote_get_memory_report(&ctx).arena_state_bytes, 16u);
  for (int pass = 0; pass < 2; ++pass) {
    for (int run = 1; run <= 3; ++run) {
      std::memcpy(mote_input(&ctx, 0), x, sizeof x);
      ASSERT_EQ(mote_run(&ctx), MOTE_OK);
      std::memcpy(y, mote_output(&ctx, 0), sizeof y);
      for (int i = 0; i < 4; ++i) EXPECT_EQ(y[i], init[i] + run) << "pass " << pass << " run " << run;
    }
    ASSERT_EQ(mote_reset_state(&ctx), MOTE_OK);
  }
  mote_context unloaded;
  std::memset(&unloaded, 0, sizeof unloaded);
  EXPECT_EQ(mote_reset_state(&unloaded), MOTE_NOT_LOADED);
  EXPECT_EQ(mote_reset_state(nullptr), MOTE_NOT_LOADED);
  Interpreter never_loaded;
  EXPECT_EQ(never_loaded.reset_state(), Status::kNotLoaded);
}

OP_TEST(ResourceVariable, QuantizingAStatefulModelIsRefused) {
  EXPECT_EQ(quantize_error("state_ptq", accumulator(), {1, 4}),
            "state_ptq.tflite: --quantize int8: a model with state (variable 'acc') not supported");
}

// ---- refusals --------------------------------------------------------------------------

OP_TEST(ResourceVariable, RefusalsAreOneLine) {
  {  // read, never assigned
    ModelSpec m;
    m.tensors = {TensorSpec("x", kShape), resource("h"), TensorSpec("r", kShape), TensorSpec("y", kShape)};
    m.ops = {var_handle(1, "v"), read_variable(1, 2), add(0, 2, 3)};
    m.inputs = {0};
    m.outputs = {3};
    EXPECT_EQ(op_error("rv_unassigned", m),
              "rv_unassigned.tflite: operator 1 (READ_VARIABLE): variable 'v' is read but never assigned");
  }
  {  // assignments that disagree
    ModelSpec m;
    m.tensors = {TensorSpec("x", kShape), resource("h"),
                 TensorSpec("c", {1, 3}, fb::TensorType::FLOAT32, bytes_of(std::vector<float>{1, 2, 3})),
                 TensorSpec("y", kShape)};
    m.ops = {var_handle(1, "v", "box"), assign_variable(1, 0), assign_variable(1, 2), add(0, 0, 3)};
    m.inputs = {0};
    m.outputs = {3};
    EXPECT_EQ(op_error("rv_mismatch", m),
              "rv_mismatch.tflite: operator 2 (ASSIGN_VARIABLE): variable 'v' (container 'box') is float32 [1,3] "
              "here but float32 [1,4] at operator 1 (ASSIGN_VARIABLE)");
  }
  {  // an init subgraph index out of range, and the main subgraph as its own init
    ModelSpec m = accumulator({1, 2, 3, 4});
    m.ops[0] = call_once(2);
    EXPECT_EQ(op_error("rv_bad_index", m),
              "rv_bad_index.tflite: operator 0 (CALL_ONCE): init_subgraph_index 2 out of range (the model has 2 "
              "subgraphs; 0 is the main one)");
    m.ops[0] = call_once(0);
    EXPECT_EQ(op_error("rv_self_index", m),
              "rv_self_index.tflite: operator 0 (CALL_ONCE): init_subgraph_index 0 out of range (the model has 2 "
              "subgraphs; 0 is the main one)");
  }
  {  // CALL_ONCE inside the init subgraph
    ModelSpec m = accumulator({1, 2, 3, 4});
    m.subgraphs[0].ops.insert(m.subgraphs[0].ops.begin(), call_once(1));
    EXPECT_EQ(op_error("rv_nested", m),
              "rv_nested.tflite: subgraph 1 operator 0 (CALL_ONCE): CALL_ONCE inside an init subgraph not supported");
  }
  {  // an init subgraph with an input
    ModelSpec m = accumulator({1, 2, 3, 4});
    m.subgraphs[0].tensors.push_back(TensorSpec("z", kShape));
    m.subgraphs[0].inputs = {2};
    EXPECT_EQ(op_error("rv_init_inputs", m),
              "rv_init_inputs.tflite: operator 0 (CALL_ONCE): init subgraph 1 has 1 inputs and 0 outputs, expected "
              "none");
  }
  {  // an error inside the init subgraph names it
    ModelSpec m = accumulator({1, 2, 3, 4});
    m.subgraphs[0].ops[1].inputs = {5, 1};
    EXPECT_EQ(op_error("rv_init_error", m),
              "rv_init_error.tflite: subgraph 1 operator 1 (ASSIGN_VARIABLE): input 0 tensor index 5 out of range (2 "
              "tensors)");
  }
  {  // CALL_ONCE after the variable was read: running its subgraph first would differ
    ModelSpec m = accumulator({1, 2, 3, 4});
    std::swap(m.ops[0], m.ops[2]);  // var_handle, read, call_once, add, assign -> read before CALL_ONCE
    std::swap(m.ops[0], m.ops[1]);
    EXPECT_EQ(op_error("rv_late_call_once", m),
              "rv_late_call_once.tflite: operator 2 (CALL_ONCE): runs after operator 1 (READ_VARIABLE) reads or "
              "assigns a variable, not supported");
  }
  {  // READ of a tensor no VAR_HANDLE wrote
    ModelSpec m;
    m.tensors = {TensorSpec("x", kShape), TensorSpec("y", kShape)};
    m.ops = {read_variable(0, 1)};
    m.inputs = {0};
    m.outputs = {1};
    EXPECT_EQ(op_error("rv_not_a_handle", m),
              "rv_not_a_handle.tflite: operator 0 (READ_VARIABLE): input 0 (tensor 0) is not the output of a "
              "VAR_HANDLE operator");
  }
}

}  // namespace resource_variable_test
}  // namespace mote::testing
