// End-to-end bit-exactness of the integer kernels against TensorFlow Lite Micro.
//
// Each .tflite model of ../shared/models that the integer kernels cover is replayed op by
// op: the test derives every kernel parameter from the model's scales and options with
// the host helpers of quant/quant_math.h (exactly what the compiler's int8 lowering must
// do), runs the kernel, and feeds the result to the next op. The outputs must equal
// TFLM's golden outputs element for element:
//   - SeaNet single-layer 16x8 models: upstream bit-exact *_golden_*.csv files
//   - int8 models: tflm-golden/NAME.s{k}.out0.npy and, before the final softmax,
//     NAME.s{k}.presoftmax.npy
// The replay is test code, not the compiler: it handles exactly the ops and options these
// models use and fails loudly on anything else.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "activation/activation.h"
#include "conv2d/conv2d.h"
#include "copy/copy.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "elementwise/elementwise.h"
#include "fully_connected/fully_connected.h"
#include "kernel_test_util.h"
#include "leaky_relu/leaky_relu.h"
#include "pad/pad.h"
#include "pool2d/pool2d.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"
#include "quantize/quantize.h"
#include "softmax/softmax.h"
#include "strided_slice/strided_slice.h"
#include "tflite_test_model.h"
#include "transpose_conv/transpose_conv.h"

namespace mote {
namespace tflite_golden_test {

namespace tfl = testing::tflite;
using testing::Multiplier;
using testing::TestOp;

std::string models_dir() { return std::string(MOTE_SHARED_DIR) + "/models"; }

DType dtype_of(int8_t type) {
  switch (type) {
    case tfl::kFloat32: return DType::kFloat32;
    case tfl::kInt32: return DType::kInt32;
    case tfl::kInt64: return DType::kInt64;
    case tfl::kInt16: return DType::kInt16;
    case tfl::kInt8: return DType::kInt8;
  }
  ADD_FAILURE() << "tensor type " << int{type};
  return DType::kInt8;
}

std::vector<uint32_t> dims_of(const tfl::Tensor& t) {
  return std::vector<uint32_t>(t.shape.begin(), t.shape.end());
}

// TFLite padding (kernels/padding.h): output size from the padding type, then the total
// padding (clamped at 0), the smaller half before.
struct Pads {
  int32_t before, after;
};
Pads tflite_padding(int8_t padding, int32_t in, int32_t filter, int32_t stride, int32_t dilation) {
  const int64_t effective = int64_t{filter - 1} * dilation + 1;
  const int64_t out = padding == 0 ? (int64_t{in} + stride - 1) / stride
                                   : (int64_t{in} + stride - effective) / stride;
  int64_t total = (out - 1) * stride + effective - in;
  if (total < 0) total = 0;
  return {static_cast<int32_t>(total / 2), static_cast<int32_t>(total - total / 2)};
}

FusedActivation activation_of(int8_t a) {
  EXPECT_LE(a, 3) << "fused activation " << int{a};
  return static_cast<FusedActivation>(a);
}

// Replays a model's operators over a map from tensor index to raw bytes.
class Replay {
 public:
  explicit Replay(const tfl::Model& model) : m_(model) {}

  void set(int32_t t, std::vector<uint8_t> bytes) { values_[t] = std::move(bytes); }
  template <typename T>
  void set_values(int32_t t, const std::vector<T>& v) {
    std::vector<uint8_t> bytes(v.size() * sizeof(T));
    memcpy(bytes.data(), v.data(), bytes.size());
    set(t, bytes);
  }
  template <typename T>
  std::vector<T> get(int32_t t) const {
    const std::vector<uint8_t>& raw = bytes_of(t);
    std::vector<T> v(raw.size() / sizeof(T));
    if (!v.empty()) memcpy(v.data(), raw.data(), raw.size());
    return v;
  }

  void run_all() {
    for (size_t i = 0; i < m_.operators.size(); ++i) {
      SCOPED_TRACE("operator " + std::to_string(i));
      run(m_.operators[i]);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }

 private:
  const std::vector<uint8_t>& bytes_of(int32_t t) const {
    const auto it = values_.find(t);
    return it != values_.end() ? it->second : m_.data(t);
  }
  const tfl::Tensor& tensor(int32_t t) const { return m_.tensors.at(t); }

  // Builds a TestOp with `inputs` (tensor indices, -1 = absent) and one output.
  void execute(const KernelEntry& entry, const std::vector<int32_t>& inputs, int32_t output,
               const std::vector<uint8_t>& params) {
    TestOp op;
    std::vector<std::pair<uint32_t, int32_t>> filled;
    for (int32_t t : inputs) {
      if (t < 0) {
        op.add_missing_input();
        continue;
      }
      filled.emplace_back(op.add_input(dtype_of(tensor(t).type), dims_of(tensor(t))), t);
    }
    const uint32_t out = op.add_output(dtype_of(tensor(output).type), dims_of(tensor(output)));
    op.set_raw_params(params);
    for (const auto& [index, t] : filled) op.set_data(index, bytes_of(t));
    ASSERT_EQ(op.check(entry), Status::kOk);
    op.run(entry);
    values_[output] = op.data<uint8_t>(out);
  }

  template <typename P>
  static std::vector<uint8_t> bytes(const P& p) {
    std::vector<uint8_t> b(sizeof(P));
    memcpy(b.data(), &p, sizeof(P));
    return b;
  }

  std::vector<Multiplier> channel_multipliers(const tfl::Tensor& in, const tfl::Tensor& filter,
                                              const tfl::Tensor& out, uint32_t channels) const {
    std::vector<Multiplier> m(channels);
    for (uint32_t c = 0; c < channels; ++c) {
      const float filter_scale = filter.scales.size() > 1 ? filter.scales[c] : filter.scales[0];
      conv_channel_multiplier(in.scale(), filter_scale, out.scale(), &m[c].multiplier, &m[c].shift);
    }
    return m;
  }

  void activation_range(int8_t act, const tfl::Tensor& out, int32_t* lo, int32_t* hi) const {
    const bool s16 = out.type == tfl::kInt16;
    ASSERT_TRUE(activation_range_quantized(activation_of(act), out.scale(), out.zero_point(),
                                           s16 ? -32768 : -128, s16 ? 32767 : 127, lo, hi));
  }

  void run(const tfl::Operator& op) {
    switch (op.op) {
      case tfl::kConv2d: return conv2d(op);
      case tfl::kDepthwiseConv2d: return depthwise(op);
      case tfl::kFullyConnected: return fully_connected(op);
      case tfl::kAdd:
      case tfl::kSub: return add_sub(op);
      case tfl::kAveragePool2d:
      case tfl::kMaxPool2d: return pool(op);
      case tfl::kReshape: return execute(kCopyEntry, {op.inputs[0]}, op.outputs[0], {});
      case tfl::kSoftmax: return softmax(op);
      case tfl::kLeakyRelu: return leaky_relu(op);
      case tfl::kQuantize: return requantize(op);
      case tfl::kStridedSlice: return strided_slice(op);
      case tfl::kPad: return pad(op);
      case tfl::kTransposeConv: return transpose_conv(op);
      default: FAIL() << "no replay for builtin operator " << op.op;
    }
  }

  void conv2d(const tfl::Operator& op) {
    const tfl::Tensor& in = tensor(op.inputs[0]);
    const tfl::Tensor& filter = tensor(op.inputs[1]);
    const tfl::Tensor& out = tensor(op.outputs[0]);
    const int32_t bias = op.inputs.size() > 2 ? op.inputs[2] : -1;
    const int8_t padding = op.options.scalar<int8_t>(0);
    const int32_t stride_w = op.options.scalar<int32_t>(1), stride_h = op.options.scalar<int32_t>(2);
    const int32_t dil_w = op.options.scalar<int32_t>(4, 1), dil_h = op.options.scalar<int32_t>(5, 1);
    const Pads ph = tflite_padding(padding, in.shape[1], filter.shape[1], stride_h, dil_h);
    const Pads pw = tflite_padding(padding, in.shape[2], filter.shape[2], stride_w, dil_w);
    const uint32_t out_c = filter.shape[0];
    const int32_t groups = in.shape[3] / filter.shape[3];
    const auto m = channel_multipliers(in, filter, out, out_c);
    int32_t lo = 0, hi = 0;
    activation_range(op.options.scalar<int8_t>(3), out, &lo, &hi);
    if (in.type == tfl::kInt8) {
      const Conv2dS8Params p{stride_h, stride_w, dil_h, dil_w, ph.before, pw.before, ph.after,
                             pw.after, groups, in.zero_point(), out.zero_point(), lo, hi};
      execute(kConv2dS8Entry, {op.inputs[0], op.inputs[1], bias}, op.outputs[0],
              testing::params_bytes(p, m));
    } else {
      // int64 accumulation unless the bias (or, without one, quantized_bias_type) is int32.
      const bool int32_bias = bias >= 0 ? tensor(bias).type == tfl::kInt32
                                        : op.options.scalar<int8_t>(6) == tfl::kInt32;
      const Conv2dS16Params p{stride_h, stride_w, dil_h, dil_w, ph.before, pw.before, ph.after,
                              pw.after, groups, int32_bias ? 32 : 64, lo, hi};
      execute(kConv2dS16Entry, {op.inputs[0], op.inputs[1], bias}, op.outputs[0],
              testing::params_bytes(p, m));
    }
  }

  void depthwise(const tfl::Operator& op) {
    const tfl::Tensor& in = tensor(op.inputs[0]);
    const tfl::Tensor& filter = tensor(op.inputs[1]);
    const tfl::Tensor& out = tensor(op.outputs[0]);
    const int32_t bias = op.inputs.size() > 2 ? op.inputs[2] : -1;
    const int8_t padding = op.options.scalar<int8_t>(0);
    const int32_t stride_w = op.options.scalar<int32_t>(1), stride_h = op.options.scalar<int32_t>(2);
    const int32_t dil_w = op.options.scalar<int32_t>(5, 1), dil_h = op.options.scalar<int32_t>(6, 1);
    const Pads ph = tflite_padding(padding, in.shape[1], filter.shape[1], stride_h, dil_h);
    const Pads pw = tflite_padding(padding, in.shape[2], filter.shape[2], stride_w, dil_w);
    const uint32_t out_c = filter.shape[3];
    const int32_t multiplier = static_cast<int32_t>(out_c) / in.shape[3];
    const auto m = channel_multipliers(in, filter, out, out_c);
    int32_t lo = 0, hi = 0;
    activation_range(op.options.scalar<int8_t>(4), out, &lo, &hi);
    ASSERT_EQ(in.type, tfl::kInt8);
    const DepthwiseConv2dS8Params p{stride_h, stride_w, dil_h, dil_w, ph.before, pw.before,
                                    ph.after, pw.after, multiplier, in.zero_point(),
                                    out.zero_point(), lo, hi};
    execute(kDepthwiseConv2dS8Entry, {op.inputs[0], op.inputs[1], bias}, op.outputs[0],
            testing::params_bytes(p, m));
  }

  void fully_connected(const tfl::Operator& op) {
    const tfl::Tensor& in = tensor(op.inputs[0]);
    const tfl::Tensor& filter = tensor(op.inputs[1]);
    const tfl::Tensor& out = tensor(op.outputs[0]);
    const int32_t bias = op.inputs.size() > 2 ? op.inputs[2] : -1;
    ASSERT_EQ(in.type, tfl::kInt8);
    std::vector<Multiplier> m;
    if (filter.scales.size() > 1) {
      m = channel_multipliers(in, filter, out, filter.shape[0]);
    } else {
      m.resize(1);
      fully_connected_multiplier(in.scale(), filter.scale(), out.scale(), &m[0].multiplier,
                                 &m[0].shift);
    }
    int32_t lo = 0, hi = 0;
    activation_range(op.options.scalar<int8_t>(0), out, &lo, &hi);
    const FullyConnectedS8Params p{in.zero_point(), filter.scales.size() > 1 ? 0 : filter.zero_point(),
                                   out.zero_point(), lo, hi, static_cast<uint32_t>(m.size())};
    execute(kFullyConnectedS8Entry, {op.inputs[0], op.inputs[1], bias}, op.outputs[0],
            testing::params_bytes(p, m));
  }

  void add_sub(const tfl::Operator& op) {
    const tfl::Tensor& a = tensor(op.inputs[0]);
    const tfl::Tensor& b = tensor(op.inputs[1]);
    const tfl::Tensor& out = tensor(op.outputs[0]);
    const bool s16 = out.type == tfl::kInt16;
    const bool sub = op.op == tfl::kSub;
    const int32_t left_shift = s16 ? kAddSubLeftShiftS16 : kAddSubLeftShiftS8;
    AddSubMultipliers m{};
    ASSERT_TRUE(sub ? sub_multipliers(a.scale(), b.scale(), out.scale(), left_shift, &m)
                    : add_multipliers(a.scale(), b.scale(), out.scale(), left_shift, &m));
    int32_t lo = 0, hi = 0;
    activation_range(op.options.scalar<int8_t>(0), out, &lo, &hi);
    const QuantAddSubParams p{a.zero_point(), b.zero_point(), out.zero_point(), m.input1_multiplier,
                              m.input1_shift, m.input2_multiplier, m.input2_shift,
                              m.output_multiplier, m.output_shift, lo, hi};
    const KernelEntry& entry = s16 ? (sub ? kSubS16Entry : kAddS16Entry) : (sub ? kSubS8Entry : kAddS8Entry);
    execute(entry, {op.inputs[0], op.inputs[1]}, op.outputs[0], bytes(p));
  }

  void pool(const tfl::Operator& op) {
    const tfl::Tensor& in = tensor(op.inputs[0]);
    const tfl::Tensor& out = tensor(op.outputs[0]);
    const int8_t padding = op.options.scalar<int8_t>(0);
    const int32_t stride_w = op.options.scalar<int32_t>(1), stride_h = op.options.scalar<int32_t>(2);
    const int32_t kw = op.options.scalar<int32_t>(3), kh = op.options.scalar<int32_t>(4);
    const Pads ph = tflite_padding(padding, in.shape[1], kh, stride_h, 1);
    const Pads pw = tflite_padding(padding, in.shape[2], kw, stride_w, 1);
    int32_t lo = 0, hi = 0;
    activation_range(op.options.scalar<int8_t>(5), out, &lo, &hi);
    const Pool2dS8Params p{kh, kw, {stride_h, stride_w, 1, 1, ph.before, pw.before, ph.after, pw.after}, lo, hi};
    execute(op.op == tfl::kAveragePool2d ? kAvgPool2dS8Entry : kMaxPool2dS8Entry, {op.inputs[0]},
            op.outputs[0], bytes(p));
  }

  void softmax(const tfl::Operator& op) {
    SoftmaxS8Params p{};
    ASSERT_TRUE(softmax_s8_params(op.options.scalar<float>(0), tensor(op.inputs[0]).scale(),
                                  &p.input_multiplier, &p.input_left_shift, &p.diff_min));
    execute(kSoftmaxS8Entry, {op.inputs[0]}, op.outputs[0], bytes(p));
  }

  void leaky_relu(const tfl::Operator& op) {
    const tfl::Tensor& in = tensor(op.inputs[0]);
    const tfl::Tensor& out = tensor(op.outputs[0]);
    LeakyReluQuantParams p{in.zero_point(), out.zero_point(), 0, 0, 0, 0};
    leaky_relu_multipliers(in.scale(), op.options.scalar<float>(0), out.scale(), &p.alpha_multiplier,
                           &p.alpha_shift, &p.identity_multiplier, &p.identity_shift);
    execute(in.type == tfl::kInt16 ? kLeakyReluS16Entry : kLeakyReluS8Entry, {op.inputs[0]},
            op.outputs[0], bytes(p));
  }

  void requantize(const tfl::Operator& op) {
    const tfl::Tensor& in = tensor(op.inputs[0]);
    const tfl::Tensor& out = tensor(op.outputs[0]);
    RequantizeParams p{in.zero_point(), out.zero_point(), 0, 0};
    requantize_multiplier(in.scale(), out.scale(), &p.multiplier, &p.shift);
    const KernelEntry* entry = nullptr;
    if (in.type == tfl::kInt32 && out.type == tfl::kInt16) entry = &kRequantizeS32S16Entry;
    if (in.type == tfl::kInt16 && out.type == tfl::kInt32) entry = &kRequantizeS16S32Entry;
    if (in.type == tfl::kInt8 && out.type == tfl::kInt8) entry = &kRequantizeS8S8Entry;
    ASSERT_NE(entry, nullptr);
    execute(*entry, {op.inputs[0]}, op.outputs[0], bytes(p));
  }

  void strided_slice(const tfl::Operator& op) {
    const tfl::Tensor& in = tensor(op.inputs[0]);
    const auto begin = m_.values<int32_t>(op.inputs[1]);
    const auto end = m_.values<int32_t>(op.inputs[2]);
    const auto strides = m_.values<int32_t>(op.inputs[3]);
    ASSERT_EQ(op.options.scalar<int32_t>(2), 0);  // ellipsis
    ASSERT_EQ(op.options.scalar<int32_t>(3), 0);  // new axis
    StridedSliceParams p{};
    ASSERT_TRUE(strided_slice_resolve(static_cast<uint32_t>(in.shape.size()), in.shape.data(),
                                      begin.data(), end.data(), strides.data(),
                                      op.options.scalar<int32_t>(0), op.options.scalar<int32_t>(1),
                                      op.options.scalar<int32_t>(4), op.options.scalar<bool>(5), &p));
    execute(kStridedSliceEntry, {op.inputs[0]}, op.outputs[0], bytes(p));
  }

  void pad(const tfl::Operator& op) {
    const tfl::Tensor& in = tensor(op.inputs[0]);
    const tfl::Tensor& out = tensor(op.outputs[0]);
    const auto paddings = m_.values<int32_t>(op.inputs[1]);
    PadParams p{};
    p.mode = static_cast<uint32_t>(PadMode::kConstant);
    for (size_t i = 0; i < in.shape.size(); ++i) {
      p.before[i] = paddings[2 * i];
      p.after[i] = paddings[2 * i + 1];
    }
    // TFLite pads quantized tensors with the output zero point.
    const int64_t zp = out.zero_point();
    memcpy(p.value, &zp, dtype_size(dtype_of(out.type)));
    execute(kPadEntry, {op.inputs[0]}, op.outputs[0], bytes(p));
  }

  void transpose_conv(const tfl::Operator& op) {
    const tfl::Tensor& filter = tensor(op.inputs[1]);
    const tfl::Tensor& in = tensor(op.inputs[2]);
    const tfl::Tensor& out = tensor(op.outputs[0]);
    const int32_t bias = op.inputs.size() > 3 ? op.inputs[3] : -1;
    ASSERT_EQ(in.type, tfl::kInt16);
    const int8_t padding = op.options.scalar<int8_t>(0);
    const int32_t stride_w = op.options.scalar<int32_t>(1), stride_h = op.options.scalar<int32_t>(2);
    // TFLM computes the padding with the output size as the "input" size.
    const Pads ph = tflite_padding(padding, out.shape[1], filter.shape[1], stride_h, 1);
    const Pads pw = tflite_padding(padding, out.shape[2], filter.shape[2], stride_w, 1);
    const auto m = channel_multipliers(in, filter, out, filter.shape[0]);
    int32_t lo = 0, hi = 0;
    activation_range(op.options.scalar<int8_t>(3), out, &lo, &hi);
    const TransposeConvS16Params p{stride_h, stride_w, ph.before, pw.before, lo, hi};
    if (bias >= 0) {
      ASSERT_EQ(tensor(bias).type, tfl::kInt64);
    }
    execute(kTransposeConvS16Entry, {op.inputs[2], op.inputs[1], bias}, op.outputs[0],
            testing::params_bytes(p, m));
  }

  const tfl::Model& m_;
  std::map<int32_t, std::vector<uint8_t>> values_;
};

// ---- SeaNet single-layer models: upstream golden CSV files -----------------------------

struct SeanetLayer {
  const char* dir;
  const char* name;
};

class SeanetGolden : public ::testing::TestWithParam<SeanetLayer> {};

std::vector<uint8_t> csv_as_bytes(const std::string& path, int8_t type) {
  std::vector<uint8_t> bytes;
  auto append = [&bytes](const auto& v) {
    const size_t at = bytes.size();
    bytes.resize(at + v.size() * sizeof(v[0]));
    if (!v.empty()) memcpy(bytes.data() + at, v.data(), v.size() * sizeof(v[0]));
  };
  if (type == tfl::kInt16) append(tfl::load_csv<int16_t>(path));
  if (type == tfl::kInt32) append(tfl::load_csv<int32_t>(path));
  if (type == tfl::kInt8) append(tfl::load_csv<int8_t>(path));
  return bytes;
}

const char* type_suffix(int8_t type) {
  return type == tfl::kInt16 ? "int16" : (type == tfl::kInt32 ? "int32" : "int8");
}

TEST_P(SeanetGolden, MatchesUpstreamGoldenExactly) {
  const SeanetLayer layer = GetParam();
  const std::string base = models_dir() + "/tflite/seanet/" + layer.dir + "/" + layer.name;
  tfl::Model model;
  ASSERT_TRUE(tfl::load(base + ".tflite", &model)) << base;
  ASSERT_EQ(model.operators.size(), 1u);
  Replay replay(model);
  for (size_t i = 0; i < model.inputs.size(); ++i) {
    const int32_t t = model.inputs[i];
    const std::string path =
        base + "_input" + std::to_string(i) + "_" + type_suffix(model.tensors[t].type) + ".csv";
    const std::vector<uint8_t> bytes = csv_as_bytes(path, model.tensors[t].type);
    ASSERT_FALSE(bytes.empty()) << path;
    if (model.operators[0].op == tfl::kTransposeConv && t == model.operators[0].inputs[0]) {
      // The output-shape input: static on our side; it must agree with the model.
      std::vector<int32_t> shape(bytes.size() / 4);
      memcpy(shape.data(), bytes.data(), bytes.size());
      ASSERT_EQ(shape, model.tensors[model.operators[0].outputs[0]].shape);
      continue;
    }
    replay.set(t, bytes);
  }
  replay.run_all();
  ASSERT_FALSE(HasFatalFailure());
  const int32_t out = model.outputs[0];
  const int8_t type = model.tensors[out].type;
  const std::string golden_path = base + "_golden_" + type_suffix(type) + ".csv";
  if (type == tfl::kInt16) {
    const auto golden = tfl::load_csv<int16_t>(golden_path);
    ASSERT_FALSE(golden.empty()) << golden_path;
    EXPECT_EQ(replay.get<int16_t>(out), golden);
  } else {
    ASSERT_EQ(type, tfl::kInt32);
    const auto golden = tfl::load_csv<int32_t>(golden_path);
    ASSERT_FALSE(golden.empty()) << golden_path;
    EXPECT_EQ(replay.get<int32_t>(out), golden);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Layers, SeanetGolden,
    ::testing::Values(SeanetLayer{"conv", "conv0"}, SeanetLayer{"conv", "conv1"},
                      SeanetLayer{"transpose_conv", "transpose_conv0"},
                      SeanetLayer{"transpose_conv", "transpose_conv1"},
                      SeanetLayer{"add", "add0"}, SeanetLayer{"add", "add1"},
                      SeanetLayer{"sub", "sub0"}, SeanetLayer{"sub", "sub1"},
                      SeanetLayer{"leaky_relu", "leaky_relu0"},
                      SeanetLayer{"leaky_relu", "leaky_relu1"},
                      SeanetLayer{"quantize", "quantize0"}, SeanetLayer{"quantize", "quantize1"},
                      SeanetLayer{"strided_slice", "strided_slice0"},
                      SeanetLayer{"strided_slice", "strided_slice1"},
                      SeanetLayer{"pad", "pad0"}, SeanetLayer{"pad", "pad1"}),
    [](const ::testing::TestParamInfo<SeanetLayer>& info) { return std::string(info.param.name); });

// ---- int8 models: tflm-golden outputs and pre-softmax tensors ---------------------------

struct Int8Model {
  const char* path;  // under models/tflite
  const char* name;  // tflm-golden stem
};

class Int8ModelGolden : public ::testing::TestWithParam<Int8Model> {};

TEST_P(Int8ModelGolden, MatchesTflmGoldenExactly) {
  const Int8Model spec = GetParam();
  tfl::Model model;
  ASSERT_TRUE(tfl::load(models_dir() + "/tflite/" + spec.path, &model)) << spec.path;
  // The tensor feeding the last SOFTMAX, if the model ends with one.
  int32_t presoftmax = -1;
  if (model.operators.back().op == tfl::kSoftmax) presoftmax = model.operators.back().inputs[0];
  for (int sample = 0; sample < 3; ++sample) {
    SCOPED_TRACE("sample " + std::to_string(sample));
    const std::string stem = models_dir() + "/tflm-golden/" + spec.name + ".s" + std::to_string(sample);
    Replay replay(model);
    for (size_t i = 0; i < model.inputs.size(); ++i) {
      std::vector<int8_t> input;
      std::vector<uint32_t> shape;
      ASSERT_TRUE(tfl::load_npy(stem + ".in" + std::to_string(i) + ".npy", &input, &shape));
      replay.set_values(model.inputs[i], input);
    }
    replay.run_all();
    ASSERT_FALSE(HasFatalFailure());
    std::vector<int8_t> golden;
    std::vector<uint32_t> shape;
    ASSERT_TRUE(tfl::load_npy(stem + ".out0.npy", &golden, &shape));
    EXPECT_EQ(replay.get<int8_t>(model.outputs[0]), golden);
    if (presoftmax >= 0) {
      std::vector<int8_t> golden_pre;
      ASSERT_TRUE(tfl::load_npy(stem + ".presoftmax.npy", &golden_pre, &shape));
      EXPECT_EQ(replay.get<int8_t>(presoftmax), golden_pre);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Models, Int8ModelGolden,
    ::testing::Values(Int8Model{"tflm/hello_world_int8.tflite", "hello_world_int8"},
                      Int8Model{"tflm/micro_speech_quantized.tflite", "micro_speech_quantized"},
                      Int8Model{"tflm/simple_add_model.tflite", "simple_add_model"},
                      Int8Model{"mlperf_tiny/ad01_int8.tflite", "ad01_int8"},
                      Int8Model{"mlperf_tiny/kws_ref_model.tflite", "kws_ref_model"},
                      Int8Model{"mlperf_tiny/pretrainedResnet_quant.tflite", "pretrainedResnet_quant"},
                      Int8Model{"mlperf_tiny/vww_96_int8.tflite", "vww_96_int8"}),
    [](const ::testing::TestParamInfo<Int8Model>& info) { return std::string(info.param.name); });

}  // namespace tflite_golden_test
}  // namespace mote
