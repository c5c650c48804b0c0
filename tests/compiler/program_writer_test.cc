// End to end from hand-built Mote graphs: lower_to_program -> bytes -> mote::Interpreter,
// with the numbers checked against naive implementations written here, plus the
// program's structure (determinism, header fields, every tensor in bounds).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>

#include "all_kernels.h"
#include "common/error.h"
#include "compiler.h"
#include "compiler/graph_builder.h"
#include "compiler/host_run.h"
#include "emit/program_writer.h"
#include "ir/graph.h"
#include "kernel_ids.h"
#include "mote/interpreter.h"
#include "passes/passes.h"
#include "planner/memory_planner.h"

namespace mote {
namespace program_writer_test {

constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- graph building ---------------------------------------------------------------------

std::vector<float> random_floats(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (float& x : v) x = dist(rng);
  return v;
}

// ---- running ---------------------------------------------------------------------------

class AlignedBuffer {
 public:
  explicit AlignedBuffer(size_t size)
      : data_(static_cast<uint8_t*>(std::aligned_alloc(16, (size + 16) / 16 * 16))), size_(size) {
    std::memset(data_.get(), 0xA5, (size + 16) / 16 * 16);  // garbage: kernels must not read it
  }
  uint8_t* data() { return data_.get(); }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, Free> data_;
  size_t size_;
};

ProgramHeader header_of(const std::vector<uint8_t>& program) {
  ProgramHeader h;
  std::memcpy(&h, program.data(), sizeof(h));
  return h;
}

// Loads `program`, feeds `inputs`, runs and returns every output as floats.
std::vector<std::vector<float>> run_program(const std::vector<uint8_t>& program,
                                            const std::vector<std::vector<float>>& inputs) {
  AlignedBuffer image(program.size());
  std::memcpy(image.data(), program.data(), program.size());
  AlignedBuffer arena(header_of(program).arena_bytes);
  Interpreter interp;
  const Status loaded = interp.load(Span<const uint8_t>(image.data(), image.size()),
                                    Span<uint8_t>(arena.data(), arena.size()), all_kernels());
  EXPECT_EQ(loaded, Status::kOk) << status_string(loaded) << " at op " << interp.failed_op()
                                 << " tensor " << interp.failed_tensor();
  if (loaded != Status::kOk) return {};
  EXPECT_EQ(interp.input_count(), inputs.size());
  for (uint32_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(interp.set_input(i, inputs[i].data(), static_cast<uint32_t>(inputs[i].size() * 4)),
              Status::kOk);
  }
  EXPECT_EQ(interp.run(), Status::kOk);
  std::vector<std::vector<float>> outputs;
  for (uint32_t i = 0; i < interp.output_count(); ++i) {
    std::vector<float> out(interp.output_desc(i)->bytes / 4);
    EXPECT_EQ(interp.get_output(i, out.data(), static_cast<uint32_t>(out.size() * 4)), Status::kOk);
    outputs.push_back(std::move(out));
  }
  return outputs;
}

void expect_near_all(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], 1e-5f * (1.0f + std::fabs(expected[i]))) << "element " << i;
}

// ---- naive references -------------------------------------------------------------------

// NHWC input, OHWI filter, stride/pad symmetric, no dilation, one group.
std::vector<float> naive_conv(const std::vector<float>& in, int h, int w, int c, const std::vector<float>& filter,
                              int o, int k, const std::vector<float>& bias, int stride, int pad, int oh, int ow) {
  std::vector<float> out(static_cast<size_t>(oh) * ow * o);
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x)
      for (int oc = 0; oc < o; ++oc) {
        double acc = bias[oc];
        for (int ky = 0; ky < k; ++ky)
          for (int kx = 0; kx < k; ++kx) {
            const int iy = y * stride - pad + ky, ix = x * stride - pad + kx;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
            for (int ic = 0; ic < c; ++ic)
              acc += in[(iy * w + ix) * c + ic] * filter[((oc * k + ky) * k + kx) * c + ic];
          }
        out[(y * ow + x) * o + oc] = static_cast<float>(acc);
      }
  return out;
}

std::vector<float> naive_fc(const std::vector<float>& in, const std::vector<float>& weights,
                            const std::vector<float>& bias, int n, int k) {
  std::vector<float> out(n);
  for (int j = 0; j < n; ++j) {
    double acc = bias[j];
    for (int i = 0; i < k; ++i) acc += in[i] * weights[j * k + i];
    out[j] = static_cast<float>(acc);
  }
  return out;
}

std::vector<float> naive_softmax(const std::vector<float>& x) {
  double mx = -kInf, sum = 0;
  for (float v : x) mx = std::max<double>(mx, v);
  std::vector<float> out(x.size());
  for (float v : x) sum += std::exp(v - mx);
  for (size_t i = 0; i < x.size(); ++i) out[i] = static_cast<float>(std::exp(x[i] - mx) / sum);
  return out;
}

// ---- the conv -> clamp -> fc -> softmax network ----------------------------------------

struct SmallNet {
  GraphBuilder b;
  std::vector<float> filter = random_floats(4 * 3 * 3 * 2, 1);
  std::vector<float> conv_bias = random_floats(4, 2);
  std::vector<float> weights = random_floats(3 * 36, 3);
  std::vector<float> fc_bias = random_floats(3, 4);

  SmallNet() {
    b.graph.name = "small_net";
    // input [1,6,6,2] -> conv 3x3 stride 2 pad 1 -> [1,3,3,4] -> relu6 -> reshape [1,36]
    // -> fully_connected [1,3] -> softmax
    const int x = b.input("image", {1, 6, 6, 2});
    const int f = b.constant("conv.weight", {4, 3, 3, 2}, filter);
    const int cb = b.constant("conv.bias", {4}, conv_bias);
    const int conv = b.node(ir::Op::kConv2d, "conv", {x, f, cb}, {1, 3, 3, 4},
                            {{"strides", std::vector<int64_t>{2, 2}},
                             {"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    const int relu = b.node(ir::Op::kClamp, "relu6", {conv}, {1, 3, 3, 4}, {{"min", 0.0}, {"max", 6.0}});
    const int flat = b.node(ir::Op::kReshape, "flatten", {relu}, {1, 36});
    const int w = b.constant("fc.weight", {3, 36}, weights);
    const int fb = b.constant("fc.bias", {3}, fc_bias);
    const int fc = b.node(ir::Op::kFullyConnected, "fc", {flat, w, fb}, {1, 3});
    const int probs = b.node(ir::Op::kSoftmax, "softmax", {fc}, {1, 3});
    b.output(probs);
  }

  std::vector<float> reference(const std::vector<float>& image) const {
    std::vector<float> conv = naive_conv(image, 6, 6, 2, filter, 4, 3, conv_bias, 2, 1, 3, 3);
    for (float& v : conv) v = std::min(6.0f, std::max(0.0f, v));
    return naive_softmax(naive_fc(conv, weights, fc_bias, 3, 36));
  }
};

TEST(ProgramWriter, ConvClampFcSoftmaxMatchesNaiveReference) {
  SmallNet net;
  const CompileResult result = lower_to_program(net.b.graph, "host");
  const std::vector<float> image = random_floats(72, 5);
  const auto outputs = run_program(result.program, {image});
  ASSERT_EQ(outputs.size(), 1u);
  expect_near_all(outputs[0], net.reference(image));

  EXPECT_EQ(result.report.ops.size(), 5u);
  EXPECT_EQ(result.report.kernels, (std::vector<std::string>{"clamp_f32", "conv2d_f32", "copy",
                                                             "fully_connected_f32", "softmax_f32"}));
  // conv: 36 outputs * 3*3*2 taps; fc: 3 * 36.
  EXPECT_EQ(result.report.macs, 36u * 18u + 3u * 36u);
  EXPECT_EQ(result.report.weights_bytes, (72u + 4u + 108u + 3u) * 4u);
}

TEST(ProgramWriter, FusedActivationGivesTheSameNumbersWithOneOpLess) {
  SmallNet net;
  ir::Graph fused = net.b.graph;
  passes::fuse_activations(fused);
  const CompileResult result = lower_to_program(fused, "cortex-m4");
  EXPECT_EQ(result.report.ops.size(), 4u);
  EXPECT_EQ(result.report.ops[0].kernel, "conv2d_f32__fpu");  // cortex-m4's FPU variant
  const std::vector<float> image = random_floats(72, 6);
  const auto outputs = run_program(result.program, {image});
  ASSERT_EQ(outputs.size(), 1u);
  expect_near_all(outputs[0], net.reference(image));
}

TEST(ProgramWriter, AddWithBroadcastOfTwoInputsAndAConstant) {
  GraphBuilder b;
  const int a = b.input("a", {2, 1, 4});
  const int c = b.input("c", {3, 1});
  const std::vector<float> k = {0.5f, -1.0f, 2.0f, 4.0f};
  const int bias = b.constant("k", {4}, k);
  const int sum = b.node(ir::Op::kAdd, "add", {a, c}, {2, 3, 4});
  const int scaled = b.node(ir::Op::kMul, "mul", {sum, bias}, {2, 3, 4}, {{"act_min", -1.0}, {"act_max", 3.0}});
  b.output(scaled);
  b.output(sum);  // an intermediate that is also a graph output

  const std::vector<float> av = random_floats(8, 7), cv = random_floats(3, 8);
  std::vector<float> expected_sum(24), expected_out(24);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int l = 0; l < 4; ++l) {
        const float s = av[i * 4 + l] + cv[j];
        expected_sum[(i * 3 + j) * 4 + l] = s;
        expected_out[(i * 3 + j) * 4 + l] = std::min(3.0f, std::max(-1.0f, s * k[l]));
      }
  const CompileResult result = lower_to_program(b.graph, "host");
  const auto outputs = run_program(result.program, {av, cv});
  ASSERT_EQ(outputs.size(), 2u);
  expect_near_all(outputs[0], expected_out);
  expect_near_all(outputs[1], expected_sum);
}

TEST(ProgramWriter, SameGraphGivesIdenticalBytes) {
  SmallNet net;
  const std::vector<uint8_t> first = lower_to_program(net.b.graph, "host").program;
  const ir::Graph copy = net.b.graph;
  const std::vector<uint8_t> second = lower_to_program(copy, "host").program;
  EXPECT_EQ(first, second);
  SmallNet other;  // built from scratch again
  EXPECT_EQ(first, lower_to_program(other.b.graph, "host").program);
}

TEST(ProgramWriter, HeaderAndEveryOpTensorAreConsistent) {
  SmallNet net;
  const CompileResult result = lower_to_program(net.b.graph, "host");
  const std::vector<uint8_t>& program = result.program;
  const ProgramHeader h = header_of(program);
  EXPECT_EQ(h.magic, kProgramMagic);
  EXPECT_EQ(h.version_major, kFormatVersionMajor);
  EXPECT_EQ(h.total_bytes, program.size());
  EXPECT_EQ(h.total_bytes % kProgramAlignment, 0u);
  EXPECT_EQ(h.checksum, program_checksum(program.data(), h.total_bytes));
  EXPECT_EQ(h.arena_bytes, result.report.arena_bytes);
  EXPECT_EQ(h.arena_lower_bound_bytes, result.report.arena_lower_bound_bytes);
  EXPECT_GE(h.arena_bytes, h.arena_lower_bound_bytes);
  EXPECT_EQ(h.init_op_count, 0u);
  EXPECT_EQ(result.report.program_bytes, program.size());
  EXPECT_EQ(h.data_offset % 16, 0u);
  EXPECT_EQ(h.op_count, 5u);

  AlignedBuffer image(program.size());
  std::memcpy(image.data(), program.data(), program.size());
  AlignedBuffer arena(h.arena_bytes);
  Interpreter interp;
  ASSERT_EQ(interp.load(Span<const uint8_t>(image.data(), image.size()),
                        Span<uint8_t>(arena.data(), arena.size()), all_kernels()),
            Status::kOk);
  const char* names[] = {"conv", "relu6", "flatten", "fc", "softmax"};
  uint32_t constant_bytes = 0;
  for (uint32_t k = 0; k < interp.op_count(); ++k) {
    EXPECT_STREQ(interp.op_name(k), names[k]);
    EXPECT_EQ(kernel_name(static_cast<KernelId>(interp.op_desc(k)->kernel)), result.report.ops[k].kernel);
    const OpContext ctx = interp.op_context(k);
    auto in_bounds = [&](const TensorDesc& t) {
      EXPECT_EQ(t.offset % kTensorAlignment, 0u);
      const uint32_t limit = t.storage == static_cast<uint8_t>(Storage::kArena) ? h.arena_bytes : h.data_bytes;
      EXPECT_LE(uint64_t{t.offset} + t.bytes, limit) << "op " << k;
    };
    for (uint32_t i = 0; i < ctx.input_count(); ++i)
      if (ctx.has_input(i)) in_bounds(ctx.input_desc(i));
    for (uint32_t i = 0; i < ctx.output_count(); ++i) {
      EXPECT_EQ(ctx.output_desc(i).storage, static_cast<uint8_t>(Storage::kArena));
      in_bounds(ctx.output_desc(i));
    }
  }
  EXPECT_STREQ(interp.tensor_name(interp.input_desc(0) - reinterpret_cast<const TensorDesc*>(
                                                             image.data() + h.tensors_offset)),
               "image");
  constant_bytes = interp.memory_report().constant_bytes;
  EXPECT_EQ(constant_bytes, result.report.weights_bytes);
  // The model name is stored.
  EXPECT_STREQ(reinterpret_cast<const char*>(image.data() + h.strings_offset + h.name_offset), "small_net");
}

TEST(ProgramWriter, OutputThatIsAnInputOrAConstantGetsACopy) {
  GraphBuilder b;
  const int x = b.input("x", {2, 2});
  const std::vector<float> kv = {1, 2, 3, 4};
  const int k = b.constant("k", {2, 2}, kv);
  const int y = b.node(ir::Op::kSigmoid, "sig", {x}, {2, 2});
  b.output(x);
  b.output(k);
  b.output(y);
  const CompileResult result = lower_to_program(b.graph, "host");
  ASSERT_EQ(result.report.ops.size(), 3u);
  EXPECT_EQ(result.report.ops[1].kernel, "copy");
  EXPECT_EQ(result.report.ops[2].kernel, "copy");
  const std::vector<float> xv = {0.0f, 1.0f, -1.0f, 2.0f};
  const auto outputs = run_program(result.program, {xv});
  ASSERT_EQ(outputs.size(), 3u);
  expect_near_all(outputs[0], xv);
  expect_near_all(outputs[1], kv);
  std::vector<float> sig;
  for (float v : xv) sig.push_back(1.0f / (1.0f + std::exp(-v)));
  expect_near_all(outputs[2], sig);
}

TEST(ProgramWriter, OptionalBiasIsWrittenAsNoTensor) {
  GraphBuilder b;
  const int x = b.input("x", {2, 3});
  const std::vector<float> w = random_floats(6, 11);
  const int wt = b.constant("w", {2, 3}, w);
  const int y = b.node(ir::Op::kFullyConnected, "fc", {x, wt, ir::kNoTensor}, {2, 2});
  b.output(y);
  const CompileResult result = lower_to_program(b.graph, "cortex-m0plus");
  const ProgramHeader h = header_of(result.program);
  OpDesc op;
  std::memcpy(&op, result.program.data() + h.ops_offset, sizeof(op));
  ASSERT_EQ(op.input_count, 3u);
  uint32_t bias_index;
  std::memcpy(&bias_index, result.program.data() + h.index_offset + (op.io_first + 2) * 4, 4);
  EXPECT_EQ(bias_index, kNoTensor);
  const std::vector<float> xv = random_floats(6, 12);
  const auto outputs = run_program(result.program, {xv});
  ASSERT_EQ(outputs.size(), 1u);
  std::vector<float> expected(4);
  for (int r = 0; r < 2; ++r)
    for (int n = 0; n < 2; ++n)
      for (int kk = 0; kk < 3; ++kk) expected[r * 2 + n] += xv[r * 3 + kk] * w[n * 3 + kk];
  expect_near_all(outputs[0], expected);
}

TEST(ProgramWriter, ArenaReusesMemoryAlongAChain) {
  // Five 1 KiB sigmoids in a chain: each writes over its input in place, so one
  // buffer's bytes serve the whole chain.
  GraphBuilder b;
  int t = b.input("x", {256});
  for (int i = 0; i < 5; ++i) t = b.node(ir::Op::kSigmoid, "s" + std::to_string(i), {t}, {256});
  b.output(t);
  const CompileResult result = lower_to_program(b.graph, "host");
  EXPECT_EQ(result.report.arena_lower_bound_bytes, 1024u);
  EXPECT_EQ(result.report.arena_bytes, 1024u);
  const std::vector<float> xv = random_floats(256, 3);
  const auto outputs = run_program(result.program, {xv});
  ASSERT_EQ(outputs.size(), 1u);
  std::vector<float> expected = xv;
  for (int i = 0; i < 5; ++i)
    for (float& v : expected) v = 1.0f / (1.0f + std::exp(-v));
  expect_near_all(outputs[0], expected);
}

TEST(ProgramWriter, InPlaceOnlyOverAnInputThatDies) {
  // y = sigmoid(x); z = y + x: the sigmoid may not write over x (read again by the add),
  // the add may write over y or x (both die there). A graph output is never written over.
  GraphBuilder b;
  const int x = b.input("x", {256});
  const int y = b.node(ir::Op::kSigmoid, "s", {x}, {256});
  const int z = b.node(ir::Op::kAdd, "a", {y, x}, {256});
  const int w = b.node(ir::Op::kTanh, "t", {z}, {256});
  b.output(z);
  b.output(w);
  const CompileResult result = lower_to_program(b.graph, "host");
  // x and y at s; x, y and z (over y) at a; z and w (over the dead x) at t.
  EXPECT_EQ(result.report.arena_lower_bound_bytes, 2048u);
  EXPECT_EQ(result.report.arena_bytes, 2048u);
  const std::vector<float> xv = random_floats(256, 4);
  const auto outputs = run_program(result.program, {xv});
  ASSERT_EQ(outputs.size(), 2u);
  std::vector<float> ez(256), ew(256);
  for (int i = 0; i < 256; ++i) {
    ez[i] = 1.0f / (1.0f + std::exp(-xv[i])) + xv[i];
    ew[i] = std::tanh(ez[i]);
  }
  expect_near_all(outputs[0], ez);
  expect_near_all(outputs[1], ew);
}

TEST(ProgramWriter, WritesQuantizationRecords) {
  emit::ProgramSpec spec;
  spec.model_name = "q";
  emit::ProgramTensor in;
  in.name = "in";
  in.dtype = DType::kInt8;
  in.shape = {1, 3};
  in.quant.scales = {0.5f, 0.25f, 0.125f};
  in.quant.zero_points = {1, -2, 3};
  in.quant.axis = 1;
  emit::ProgramTensor out = in;
  out.name = "out";
  out.arena_offset = 16;
  out.quant.scales = {0.75f};
  out.quant.zero_points = {-5};
  out.quant.axis = -1;
  spec.tensors = {in, out};
  emit::ProgramOp copy;
  copy.name = "copy";
  copy.kernel = static_cast<uint16_t>(KernelId::kCopy);
  copy.inputs = {0};
  copy.outputs = {1};
  spec.ops = {copy};
  spec.inputs = {0};
  spec.outputs = {1};
  spec.arena_bytes = 32;
  spec.arena_lower_bound_bytes = 32;
  const std::vector<uint8_t> program = emit::write_program(spec);
  const ProgramHeader h = header_of(program);

  TensorDesc t[2];
  std::memcpy(t, program.data() + h.tensors_offset, sizeof(t));
  ASSERT_NE(t[0].quant_offset, kNoOffset);
  ASSERT_NE(t[1].quant_offset, kNoOffset);
  EXPECT_EQ(t[0].quant_offset % 4, 0u);
  const uint8_t* record = program.data() + h.params_offset + t[0].quant_offset;
  QuantRecord header;
  std::memcpy(&header, record, sizeof(header));
  EXPECT_EQ(header.count, 3u);
  EXPECT_EQ(header.axis, 1);
  float scales[3];
  int32_t zero_points[3];
  std::memcpy(scales, record + 8, sizeof(scales));
  std::memcpy(zero_points, record + 20, sizeof(zero_points));
  EXPECT_EQ(scales[1], 0.25f);
  EXPECT_EQ(zero_points[2], 3);
  std::memcpy(&header, program.data() + h.params_offset + t[1].quant_offset, sizeof(header));
  EXPECT_EQ(header.count, 1u);
  EXPECT_EQ(header.axis, -1);

  // The runtime's verifier accepts the records and the copy runs.
  AlignedBuffer image(program.size());
  std::memcpy(image.data(), program.data(), program.size());
  AlignedBuffer arena(h.arena_bytes);
  Interpreter interp;
  ASSERT_EQ(interp.load(Span<const uint8_t>(image.data(), image.size()),
                        Span<uint8_t>(arena.data(), arena.size()), all_kernels()),
            Status::kOk);
  const int8_t data[3] = {-7, 0, 9};
  ASSERT_EQ(interp.set_input(0, data, 3), Status::kOk);
  ASSERT_EQ(interp.run(), Status::kOk);
  int8_t result[3];
  ASSERT_EQ(interp.get_output(0, result, 3), Status::kOk);
  EXPECT_EQ(std::memcmp(data, result, 3), 0);
}

TEST(ProgramWriter, RefusesWhatTheFormatCannotHold) {
  emit::ProgramSpec spec;
  emit::ProgramTensor t;
  t.name = "deep";
  t.shape = {1, 1, 1, 1, 1, 1, 1};
  spec.tensors = {t};
  spec.arena_bytes = 16;
  try {
    emit::write_program(spec);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("tensor 0 'deep' has rank 7"), std::string::npos) << e.what();
  }

  spec.tensors[0].shape = {4};
  spec.tensors[0].arena_offset = 16;  // [16, 32) but the arena is 16 bytes
  EXPECT_THROW(emit::write_program(spec), CompileError);

  spec.tensors[0].arena_offset = 0;
  spec.tensors[0].storage = Storage::kConstant;
  spec.tensors[0].data = {1, 2, 3};  // 3 bytes for a 16-byte tensor
  EXPECT_THROW(emit::write_program(spec), CompileError);

  spec.tensors[0].data.assign(16, 0);
  spec.outputs = {0};  // a constant as graph output
  EXPECT_THROW(emit::write_program(spec), CompileError);
}

TEST(ProgramWriter, WritesScratchIntoTheOpDescriptor) {
  emit::ProgramSpec spec;
  emit::ProgramTensor t;
  t.name = "x";
  t.shape = {4};
  emit::ProgramTensor u = t;
  u.name = "y";
  u.arena_offset = 16;
  spec.tensors = {t, u};
  emit::ProgramOp op;
  op.kernel = static_cast<uint16_t>(KernelId::kCopy);
  op.inputs = {0};
  op.outputs = {1};
  op.scratch_offset = 32;
  op.scratch_bytes = 100;
  spec.ops = {op};
  spec.inputs = {0};
  spec.outputs = {1};
  spec.arena_bytes = 144;
  const std::vector<uint8_t> program = emit::write_program(spec);
  const ProgramHeader h = header_of(program);
  OpDesc desc;
  std::memcpy(&desc, program.data() + h.ops_offset, sizeof(desc));
  EXPECT_EQ(desc.scratch_offset, 32u);
  EXPECT_EQ(desc.scratch_bytes, 100u);
  EXPECT_EQ(desc.params_bytes, 0u);
  EXPECT_EQ(desc.params_offset, kNoOffset);

  spec.arena_bytes = 128;  // scratch [32, 132) no longer fits
  EXPECT_THROW(emit::write_program(spec), CompileError);
}

TEST(ProgramWriter, ImportRefusesUnknownModelFormats) {
  try {
    import_model("/tmp/model.pb");
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_STREQ(e.what(), "/tmp/model.pb: unsupported model format '.pb' (expected .onnx or .tflite)");
  }
  CompileOptions options;
  options.model_path = "/tmp/model.onnx";
  options.target = "cortex-m85";
  try {
    compile(options);  // the target is checked before the file is read
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown target 'cortex-m85'"), std::string::npos) << e.what();
  }
}

TEST(ProgramWriter, RefusesABadTargetAndAnEmptyGraph) {
  SmallNet net;
  try {
    lower_to_program(net.b.graph, "cortex-a53");
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_STREQ(e.what(),
                 "unknown target 'cortex-a53' (expected one of: host, cortex-m0plus, cortex-m3, "
                 "cortex-m4, cortex-m7, cortex-m33, cortex-m55)");
  }
  ir::Graph empty;
  empty.name = "empty";
  EXPECT_THROW(lower_to_program(empty, "host"), CompileError);
}

TEST(ProgramWriter, EveryTargetNameIsAccepted) {
  SmallNet net;
  for (const char* target :
       {"host", "cortex-m0plus", "cortex-m3", "cortex-m4", "cortex-m7", "cortex-m33", "cortex-m55"}) {
    EXPECT_NO_THROW(lower_to_program(net.b.graph, target)) << target;
  }
}

}  // namespace program_writer_test
}  // namespace mote

namespace mote {
namespace program_writer_test {

// Convolution, depthwise convolution and pooling write their output over their dying
// input, starting as far below it as lowering computes. Over random geometries (batch,
// strides, dilations, asymmetric padding, channel growth and shrinkage) the in-place
// program must give exactly the output of the same op with separate buffers (the input
// kept alive as a second graph output), and most cases must actually save bytes.
TEST(ProgramWriter, RandomConvLikeOpsRunInPlaceExactly) {
  std::mt19937 rng(515);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<uint32_t>(hi - lo + 1)); };
  int cases = 0, saved = 0;
  for (int round = 0; round < 400 && cases < 200; ++round) {
    const ir::Op op = std::vector<ir::Op>{ir::Op::kConv2d, ir::Op::kDepthwiseConv2d, ir::Op::kAvgPool2d, ir::Op::kMaxPool2d}[rng() % 4];
    const int n = pick(1, 2), h = pick(1, 9), w = pick(1, 9), c = pick(1, 6);
    const int kh = pick(1, 4), kw = pick(1, 4), sh = pick(1, 3), sw = pick(1, 3);
    const bool pool = op != ir::Op::kConv2d && op != ir::Op::kDepthwiseConv2d;
    const int dh = pool ? 1 : pick(1, 2), dw = pool ? 1 : pick(1, 2);
    const int pt = pick(0, kh - 1), pb = pick(0, kh - 1), pl = pick(0, kw - 1), pr = pick(0, kw - 1);
    const int eff_h = dh * (kh - 1) + 1, eff_w = dw * (kw - 1) + 1;
    const int oh = (h + pt + pb - eff_h) / sh + 1, ow = (w + pl + pr - eff_w) / sw + 1;
    if (h + pt + pb < eff_h || w + pl + pr < eff_w || oh <= 0 || ow <= 0) continue;
    if (pool && (pt >= kh || pl >= kw)) continue;
    const int multiplier = op == ir::Op::kDepthwiseConv2d ? pick(1, 3) : 1;
    const int oc = op == ir::Op::kConv2d ? pick(1, 8) : c * multiplier;
    ++cases;
    SCOPED_TRACE(std::string(ir::op_name(op)) + " case " + std::to_string(cases) + ": [" + std::to_string(n) + "," + std::to_string(h) + "," +
                 std::to_string(w) + "," + std::to_string(c) + "] k " + std::to_string(kh) + "x" + std::to_string(kw) +
                 " s " + std::to_string(sh) + "," + std::to_string(sw) + " d " + std::to_string(dh) + "," +
                 std::to_string(dw) + " pads " + std::to_string(pt) + "," + std::to_string(pl) + "," +
                 std::to_string(pb) + "," + std::to_string(pr) + " out channels " + std::to_string(oc));
    const std::vector<float> xv = random_floats(static_cast<size_t>(n * h * w * c), 1000 + round);
    const std::vector<float> fv = random_floats(static_cast<size_t>(oc * kh * kw * (op == ir::Op::kConv2d ? c : 1)), 2000 + round);
    auto build = [&](bool keep_input) {
      GraphBuilder b;
      const int x = b.input("x", {n, h, w, c});
      std::map<std::string, ir::AttrValue> attrs = {
          {"strides", std::vector<int64_t>{sh, sw}},
          {"pads", std::vector<int64_t>{pt, pl, pb, pr}}};
      std::vector<int> inputs = {x};
      if (pool) {
        attrs["kernel"] = std::vector<int64_t>{kh, kw};
      } else {
        attrs["dilations"] = std::vector<int64_t>{dh, dw};
        const ir::Shape filter_shape = op == ir::Op::kConv2d ? ir::Shape{oc, kh, kw, c} : ir::Shape{1, kh, kw, oc};
        inputs.push_back(b.constant("f", filter_shape, fv));
        if (op == ir::Op::kDepthwiseConv2d) attrs["depth_multiplier"] = int64_t{multiplier};
      }
      const int y = b.node(op, "op", inputs, {n, oh, ow, oc}, attrs);
      b.output(y);
      if (keep_input) b.output(x);
      return lower_to_program(b.graph, "host");
    };
    const CompileResult in_place = build(false);
    const CompileResult separate = build(true);
    const auto got = run_program(in_place.program, {xv});
    const auto want = run_program(separate.program, {xv});
    ASSERT_EQ(got.size(), 1u);
    ASSERT_EQ(want.size(), 2u);
    ASSERT_EQ(got[0].size(), want[0].size());
    for (size_t i = 0; i < got[0].size(); ++i) ASSERT_EQ(got[0][i], want[0][i]) << "element " << i;
    const uint64_t side_by_side = planner::align_up(xv.size() * 4, 16) + planner::align_up(want[0].size() * 4, 16);
    EXPECT_LE(in_place.report.arena_bytes, side_by_side);
    if (in_place.report.arena_bytes < side_by_side) ++saved;
  }
  EXPECT_GE(cases, 150);
  EXPECT_GE(saved * 2, cases) << saved << " of " << cases << " cases wrote in place";
}

}  // namespace program_writer_test
}  // namespace mote

namespace mote {
namespace program_writer_test {

// Loads `program`, feeds raw input bytes, runs, returns every output's raw bytes.
std::vector<std::vector<uint8_t>> run_program_bytes(const std::vector<uint8_t>& program,
                                                    const std::vector<uint8_t>& input) {
  return testing::run_on_host(program, input);
}

// The int8 convolution, depthwise and pooling kernels each target picks (the references
// on the host, the DSP variants on cortex-m4, the Helium ones on cortex-m55), written in
// place over random geometries, give exactly the out-of-place result (run on the host).
TEST(ProgramWriter, RandomInt8ConvLikeOpsRunInPlaceExactlyOnEveryTarget) {
  std::mt19937 rng(616);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<uint32_t>(hi - lo + 1)); };
  int cases = 0, saved = 0;
  for (int round = 0; round < 600 && cases < 240; ++round) {
    const ir::Op op = std::vector<ir::Op>{ir::Op::kConv2d, ir::Op::kConv2d, ir::Op::kDepthwiseConv2d, ir::Op::kAvgPool2d,
                                          ir::Op::kMaxPool2d}[rng() % 5];
    const bool pool = op == ir::Op::kAvgPool2d || op == ir::Op::kMaxPool2d;
    const bool pointwise = op == ir::Op::kConv2d && rng() % 2 == 0;
    const int n = pick(1, 2), h = pick(1, 12), w = pick(1, 12), c = pick(1, 20);
    const int kh = pointwise ? 1 : pick(1, 4), kw = pointwise ? 1 : pick(1, 4);
    const int sh = pick(1, 3), sw = pick(1, 3);
    const int dh = pool ? 1 : pick(1, 2), dw = pool ? 1 : pick(1, 2);
    const int pt = pointwise ? 0 : pick(0, kh - 1), pb = pointwise ? 0 : pick(0, kh - 1);
    const int pl = pointwise ? 0 : pick(0, kw - 1), pr = pointwise ? 0 : pick(0, kw - 1);
    const int eff_h = dh * (kh - 1) + 1, eff_w = dw * (kw - 1) + 1;
    if (h + pt + pb < eff_h || w + pl + pr < eff_w) continue;
    const int oh = (h + pt + pb - eff_h) / sh + 1, ow = (w + pl + pr - eff_w) / sw + 1;
    const int multiplier = op == ir::Op::kDepthwiseConv2d ? (rng() % 4 == 0 ? 2 : 1) : 1;
    const int oc = op == ir::Op::kConv2d ? pick(1, 24) : c * multiplier;
    ++cases;
    SCOPED_TRACE(std::string(ir::op_name(op)) + " case " + std::to_string(cases) + ": [" + std::to_string(n) + "," + std::to_string(h) + "," +
                 std::to_string(w) + "," + std::to_string(c) + "] k " + std::to_string(kh) + "x" + std::to_string(kw) +
                 " s " + std::to_string(sh) + "," + std::to_string(sw) + " d " + std::to_string(dh) + "," +
                 std::to_string(dw) + " pads " + std::to_string(pt) + "," + std::to_string(pl) + "," +
                 std::to_string(pb) + "," + std::to_string(pr) + " out channels " + std::to_string(oc));
    std::vector<uint8_t> xv(static_cast<size_t>(n * h * w * c));
    for (uint8_t& v : xv) v = static_cast<uint8_t>(rng());
    const int filter_c = op == ir::Op::kConv2d ? c : 1;
    std::vector<uint8_t> fv(static_cast<size_t>(oc * kh * kw * filter_c));
    for (uint8_t& v : fv) v = static_cast<uint8_t>(rng());
    std::vector<uint8_t> bv(static_cast<size_t>(oc) * 4);
    for (size_t i = 0; i < bv.size(); i += 4) {
      const int32_t b = static_cast<int32_t>(rng() % 20001) - 10000;
      std::memcpy(&bv[i], &b, 4);
    }
    auto build = [&](bool keep_input, const std::string& target) {
      ir::Graph g;
      auto add = [&](const std::string& name, ir::Shape shape, DType dtype, std::vector<float> scales,
                     std::vector<int32_t> zps, int32_t axis, const std::vector<uint8_t>* data) {
        ir::Tensor t;
        t.name = name;
        t.dtype = dtype;
        t.shape = std::move(shape);
        t.quant.scales = std::move(scales);
        t.quant.zero_points = std::move(zps);
        t.quant.axis = axis;
        if (data != nullptr) {
          t.is_constant = true;
          t.data = *data;
        }
        return g.add_tensor(std::move(t));
      };
      const int x = add("x", {n, h, w, c}, DType::kInt8, {0.05f}, {-3}, -1, nullptr);
      std::vector<int> inputs = {x};
      std::map<std::string, ir::AttrValue> attrs = {{"strides", std::vector<int64_t>{sh, sw}},
                                                    {"pads", std::vector<int64_t>{pt, pl, pb, pr}}};
      std::vector<float> y_scale = {0.05f};
      std::vector<int32_t> y_zp = {-3};
      if (pool) {
        attrs["kernel"] = std::vector<int64_t>{kh, kw};
      } else {
        std::vector<float> scales(static_cast<size_t>(oc));
        for (int o = 0; o < oc; ++o) scales[static_cast<size_t>(o)] = 0.002f * static_cast<float>(1 + o % 5);
        const ir::Shape fshape = op == ir::Op::kConv2d ? ir::Shape{oc, kh, kw, c} : ir::Shape{1, kh, kw, oc};
        inputs.push_back(add("f", fshape, DType::kInt8, scales, std::vector<int32_t>(static_cast<size_t>(oc), 0),
                             op == ir::Op::kConv2d ? 0 : 3, &fv));
        std::vector<float> bias_scales(scales.size());
        for (size_t o = 0; o < scales.size(); ++o) bias_scales[o] = 0.05f * scales[o];
        inputs.push_back(add("b", {oc}, DType::kInt32, bias_scales, std::vector<int32_t>(scales.size(), 0), 0, &bv));
        attrs["dilations"] = std::vector<int64_t>{dh, dw};
        if (op == ir::Op::kDepthwiseConv2d) attrs["depth_multiplier"] = int64_t{multiplier};
        y_scale = {0.08f};
        y_zp = {5};
      }
      const int y = add("y", {n, oh, ow, oc}, DType::kInt8, y_scale, y_zp, -1, nullptr);
      ir::Node node;
      node.name = "op";
      node.op = op;
      node.inputs = inputs;
      node.outputs = {y};
      node.attrs = attrs;
      g.nodes.push_back(std::move(node));
      g.inputs = {x};
      g.outputs = {y};
      if (keep_input) g.outputs.push_back(x);
      return lower_to_program(g, target);
    };
    for (const std::string target : {"host", "cortex-m4", "cortex-m55"}) {
      SCOPED_TRACE(target);
      const CompileResult in_place = build(false, target);
      const CompileResult separate = build(true, target);
      const auto got = run_program_bytes(in_place.program, xv);
      const auto want = run_program_bytes(separate.program, xv);
      ASSERT_EQ(got.size(), 1u);
      ASSERT_EQ(want.size(), 2u);
      ASSERT_EQ(got[0], want[0]) << "kernel " << in_place.report.ops[0].kernel;
      if (in_place.report.arena_bytes < separate.report.arena_bytes) ++saved;
    }
  }
  EXPECT_GE(cases, 200);
  EXPECT_GE(saved * 3, cases) << saved << " target compiles of " << cases << " cases wrote in place";
}

}  // namespace program_writer_test
}  // namespace mote
