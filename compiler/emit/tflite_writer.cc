#include "emit/tflite_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

#include "common/error.h"
#include "flatbuffers/flatbuffers.h"
#include "import/tflite/tflite_importer.h"  // tflite_window
#include "import/tflite/tflite_schema_generated.h"
#include "lower/lower.h"
#include "target/target.h"

namespace mote {
namespace {

namespace fb = mote::tflite;
using fb::BuiltinOperator;
using fb::BuiltinOptions;
using flatbuffers::Offset;

constexpr uint32_t kSchemaVersion = 3;
constexpr size_t kBufferAlignment = 16;  // Buffer.data's force_align
constexpr double kInf = std::numeric_limits<double>::infinity();

std::optional<fb::TensorType> tflite_type(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return fb::TensorType::FLOAT32;
    case DType::kInt8: return fb::TensorType::INT8;
    case DType::kInt16: return fb::TensorType::INT16;
    case DType::kInt32: return fb::TensorType::INT32;
    case DType::kUInt8: return fb::TensorType::UINT8;
    case DType::kInt64: return fb::TensorType::INT64;
    case DType::kBool: return fb::TensorType::BOOL;
  }
  return std::nullopt;
}

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// A bound for messages: "6", "-1", "inf".
std::string real_string(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// A bound at or beyond float32's largest finite value is none (a float kernel's bound is
// the float's own range).
double unbounded(double v) {
  const double finite = std::numeric_limits<float>::max();
  return v >= finite ? kInf : v <= -finite ? -kInf : v;
}

// The explicit pads of one spatial axis against TFLite's SAME and VALID rules.
struct AxisWindow {
  int64_t in, kernel, stride, dilation, pad_before, pad_after, out;
  bool matches(bool same) const {
    const TfliteWindow w = tflite_window(same, in, kernel, stride, dilation);
    return w.out == out && w.pad_before == pad_before && w.pad_after == pad_after;
  }
};

class TfliteWriter {
 public:
  TfliteWriter(const ir::Graph& graph, const std::string& path)
      : g_(graph), path_(path), ids_(graph.tensors.size(), -1) {}

  std::vector<uint8_t> run() {
    if (g_.init_nodes != 0 || g_.has_regions())
      throw CompileError(path_ + ": --emit-tflite: the graph has init nodes or control flow, not supported");
    buffers_.push_back(fb::CreateBuffer(fbb_));  // buffers[0]: the empty sentinel
    std::vector<int32_t> inputs, outputs;
    for (int id : g_.inputs) inputs.push_back(tensor(id));
    for (const ir::Node& node : g_.nodes) convert(node);
    for (int id : g_.outputs) outputs.push_back(tensor(id));

    std::vector<Offset<fb::OperatorCode>> codes;
    for (BuiltinOperator code : codes_) {
      const auto value = static_cast<int32_t>(code);
      // deprecated_builtin_code holds codes below 127 (PLACEHOLDER_FOR_GREATER_OP_CODES);
      // readers take the larger of the two fields.
      codes.push_back(fb::CreateOperatorCode(fbb_, static_cast<int8_t>(std::min(value, 127)), 0, 1, code));
    }
    const auto subgraph = fb::CreateSubGraph(fbb_, fbb_.CreateVector(tensors_), fbb_.CreateVector(inputs),
                                             fbb_.CreateVector(outputs), fbb_.CreateVector(operators_),
                                             fbb_.CreateString(g_.name));
    const std::vector<Offset<fb::SubGraph>> subgraphs = {subgraph};
    const auto model = fb::CreateModel(fbb_, kSchemaVersion, fbb_.CreateVector(codes), fbb_.CreateVector(subgraphs),
                                       fbb_.CreateString("Mote --quantize int8"), fbb_.CreateVector(buffers_));
    fb::FinishModelBuffer(fbb_, model);
    return std::vector<uint8_t>(fbb_.GetBufferPointer(), fbb_.GetBufferPointer() + fbb_.GetSize());
  }

 private:
  const ir::Tensor& T(int id) const { return g_.tensors[static_cast<size_t>(id)]; }

  [[noreturn]] void fail(const ir::Node& node, const std::string& what) const {
    throw CompileError(path_ + ": --emit-tflite: node '" + node.name + "' (" + ir::op_name(node.op) + "): " + what);
  }

  // ---- tensors ------------------------------------------------------------------------
  // The file's tensor for ir tensor `id`, written on first use.
  int32_t tensor(int id) {
    if (id == ir::kNoTensor) return -1;
    int32_t& index = ids_[static_cast<size_t>(id)];
    if (index < 0) {
      const ir::Tensor& t = T(id);
      if (t.is_persistent) throw CompileError(path_ + ": --emit-tflite: tensor '" + t.name + "' is state, not supported");
      index = add_tensor(t.name, t.dtype, t.shape, t.quant, t.is_constant ? &t.data : nullptr);
    }
    return index;
  }

  int32_t add_tensor(const std::string& name, DType dtype, const ir::Shape& shape, const ir::QuantParams& quant,
                     const std::vector<uint8_t>* data) {
    const auto type = tflite_type(dtype);
    if (!type)
      throw CompileError(path_ + ": --emit-tflite: tensor '" + name + "' has dtype " + ir::dtype_name(dtype) +
                         ", which TFLite has no type for");
    std::vector<int32_t> dims;
    for (int64_t d : shape) {
      if (d < 0 || d > std::numeric_limits<int32_t>::max())
        throw CompileError(path_ + ": --emit-tflite: tensor '" + name + "' has shape " + ir::shape_string(shape) +
                           ", beyond TFLite's int32 dims");
      dims.push_back(static_cast<int32_t>(d));
    }
    uint32_t buffer = 0;
    if (data && !data->empty()) {
      fbb_.ForceVectorAlignment(data->size(), sizeof(uint8_t), kBufferAlignment);
      buffers_.push_back(fb::CreateBuffer(fbb_, fbb_.CreateVector(*data)));
      buffer = static_cast<uint32_t>(buffers_.size() - 1);
    }
    Offset<fb::QuantizationParameters> q = 0;
    if (!quant.empty()) {
      const std::vector<int64_t> zero_points(quant.zero_points.begin(), quant.zero_points.end());
      const int32_t axis = quant.scales.size() > 1 && quant.axis >= 0 ? quant.axis : 0;
      q = fb::CreateQuantizationParameters(fbb_, 0, 0, fbb_.CreateVector(quant.scales),
                                           fbb_.CreateVector(zero_points), fb::QuantizationDetails::NONE, 0, axis);
    }
    tensors_.push_back(fb::CreateTensor(fbb_, fbb_.CreateVector(dims), *type, buffer, fbb_.CreateString(name), q));
    return static_cast<int32_t>(tensors_.size() - 1);
  }

  // An int32 constant of shape `shape` (an operator's shape, axes, perm or paddings).
  int32_t int32_constant(const std::string& name, const std::vector<int64_t>& values, ir::Shape shape) {
    std::vector<int32_t> narrow(values.begin(), values.end());
    const std::vector<uint8_t> data = bytes_of(narrow);
    return add_tensor(name, DType::kInt32, shape, {}, &data);
  }

  // ---- operators ----------------------------------------------------------------------
  void emit(BuiltinOperator code, const std::vector<int32_t>& inputs, const std::vector<int32_t>& outputs,
            BuiltinOptions options_type = BuiltinOptions::NONE, Offset<void> options = 0) {
    auto it = std::find(codes_.begin(), codes_.end(), code);
    if (it == codes_.end()) it = codes_.insert(codes_.end(), code);
    const auto opcode = static_cast<uint32_t>(it - codes_.begin());
    operators_.push_back(fb::CreateOperator(fbb_, opcode, fbb_.CreateVector(inputs), fbb_.CreateVector(outputs),
                                            options_type, options));
  }

  std::vector<int32_t> tensors(const std::vector<int>& ids) {
    std::vector<int32_t> out;
    for (int id : ids) out.push_back(tensor(id));
    return out;
  }

  // Refuses an attribute the TFLite operator has no field for (its value would be lost).
  void expect_attrs(const ir::Node& node, std::initializer_list<const char*> known) const {
    for (const auto& attr : node.attrs) {
      const std::string& key = attr.first;  // not a structured binding: clang 14 cannot capture one
      const bool ok = std::any_of(known.begin(), known.end(), [&](const char* k) { return key == k; });
      if (!ok) fail(node, "attribute '" + key + "' has no TFLite option");
    }
  }

  fb::ActivationFunctionType activation(const ir::Node& node) const {
    // A float binary op from .tflite carries the float's finite range, TFLite's NONE.
    const double lo = unbounded(node.get_float("act_min", -kInf)), hi = unbounded(node.get_float("act_max", kInf));
    if (lo == -kInf && hi == kInf) return fb::ActivationFunctionType::NONE;
    if (lo == 0 && hi == kInf) return fb::ActivationFunctionType::RELU;
    if (lo == 0 && hi == 6) return fb::ActivationFunctionType::RELU6;
    if (lo == -1 && hi == 1) return fb::ActivationFunctionType::RELU_N1_TO_1;
    fail(node, "fused activation [" + real_string(lo) + ", " + real_string(hi) +
                   "] is none of TFLite's (NONE, RELU, RELU6, RELU_N1_TO_1)");
  }

  std::vector<int64_t> ints(const ir::Node& node, const char* key, size_t count) const {
    std::vector<int64_t> v = node.get_ints(key);
    if (v.size() != count) fail(node, std::string("attribute '") + key + "' missing or of the wrong length");
    return v;
  }

  // The SAME/VALID padding of a window node (conv, depthwise, pool) over input x with
  // kernel [kh, kw]. Pads neither rule gives: with `pad_value` (the quantized value a
  // padded cell must hold for the op to give the same result), a PAD/PADV2 operator
  // writes them into a new tensor, which `x` then names, and the op is VALID; without,
  // the node is refused.
  fb::Padding padding(const ir::Node& node, int32_t* x, int64_t kh, int64_t kw, const std::vector<int64_t>& strides,
                      const std::vector<int64_t>& dilations, std::optional<int64_t> pad_value) {
    const ir::Tensor& in = T(node.inputs[0]);
    const ir::Tensor& out = T(node.outputs[0]);
    if (in.shape.size() != 4 || out.shape.size() != 4) fail(node, "input and output must be NHWC");
    const std::vector<int64_t> pads = ints(node, "pads", 4);
    const AxisWindow h{in.shape[1], kh, strides[0], dilations[0], pads[0], pads[2], out.shape[1]};
    const AxisWindow w{in.shape[2], kw, strides[1], dilations[1], pads[1], pads[3], out.shape[2]};
    if (h.matches(true) && w.matches(true)) return fb::Padding::SAME;
    if (h.matches(false) && w.matches(false)) return fb::Padding::VALID;
    if (!pad_value)
      fail(node, "pads " + ir::shape_string(pads) + " are neither TFLite's SAME nor VALID for input " +
                     ir::shape_string(in.shape));
    // Max pooling in ceil mode has windows past the padded input: padded with the lowest
    // value too.
    const bool fit = node.op == ir::Op::kMaxPool2d;
    auto padded_in = [fit](const AxisWindow& a) {
      const int64_t in = a.in + a.pad_before + a.pad_after;
      const int64_t needed = (a.out - 1) * a.stride + (a.kernel - 1) * a.dilation + 1;
      return fit ? std::max(in, needed) : in;
    };
    const AxisWindow ph{padded_in(h), kh, h.stride, h.dilation, 0, 0, h.out};
    const AxisWindow pw{padded_in(w), kw, w.stride, w.dilation, 0, 0, w.out};
    if (!ph.matches(false) || !pw.matches(false))
      fail(node, "pads " + ir::shape_string(pads) + " give output " + ir::shape_string(out.shape) +
                     ", which no TFLite padding gives");
    const ir::Shape padded = {in.shape[0], ph.in, pw.in, in.shape[3]};
    const int32_t paddings =
        int32_constant(node.name + "/paddings",
                       {0, 0, pads[0], ph.in - h.in - pads[0], pads[1], pw.in - w.in - pads[1], 0, 0}, {4, 2});
    const int32_t result = add_tensor(node.name + "/padded", in.dtype, padded, in.quant, nullptr);
    const int64_t zero = in.quant.empty() ? 0 : in.quant.zero_points[0];
    if (*pad_value == zero) {  // PAD pads with the zero point (real 0)
      emit(BuiltinOperator::PAD, {*x, paddings}, {result}, BuiltinOptions::PadOptions,
           fb::CreatePadOptions(fbb_).Union());
      *x = result;
      return fb::Padding::VALID;
    }
    const std::vector<uint8_t> value = element_bytes(in.dtype, *pad_value);
    const int32_t constant = add_tensor(node.name + "/pad_value", in.dtype, {}, in.quant, &value);
    emit(BuiltinOperator::PADV2, {*x, paddings, constant}, {result}, BuiltinOptions::PadV2Options,
         fb::CreatePadV2Options(fbb_).Union());
    *x = result;
    return fb::Padding::VALID;
  }

  static std::vector<uint8_t> element_bytes(DType dtype, int64_t value) {
    switch (dtype) {
      case DType::kInt8: return bytes_of(std::vector<int8_t>{static_cast<int8_t>(value)});
      case DType::kInt16: return bytes_of(std::vector<int16_t>{static_cast<int16_t>(value)});
      default: return bytes_of(std::vector<float>{static_cast<float>(value)});
    }
  }

  // The quantized value of real `value` in tensor t's quantization, clamped to its dtype.
  static int64_t quantized(const ir::Tensor& t, double value) {
    const int64_t lo = t.dtype == DType::kInt16 ? -32768 : -128, hi = t.dtype == DType::kInt16 ? 32767 : 127;
    const double q = t.quant.zero_points[0] + std::round(value / t.quant.scales[0]);
    return static_cast<int64_t>(std::clamp<double>(q, static_cast<double>(lo), static_cast<double>(hi)));
  }

  static fb::TensorType bias_type(const ir::Node& node) {
    const std::string type = node.get_string("quantized_bias_type");
    return type == "int32" ? fb::TensorType::INT32 : type == "int64" ? fb::TensorType::INT64 : fb::TensorType::FLOAT32;
  }

  void conv2d(const ir::Node& node) {
    expect_attrs(node, {"strides", "dilations", "pads", "group", "act_min", "act_max", "quantized_bias_type"});
    const ir::Tensor& filter = T(node.inputs.at(1));
    const std::vector<int64_t> strides = ints(node, "strides", 2), dilations = ints(node, "dilations", 2);
    int32_t x = tensor(node.inputs[0]);
    const auto act = activation(node);
    const fb::Padding pad = padding(node, &x, filter.shape.at(1), filter.shape.at(2), strides, dilations, zero_point(node));
    const auto options = fb::CreateConv2DOptions(fbb_, pad, static_cast<int32_t>(strides[1]),
                                                 static_cast<int32_t>(strides[0]), act,
                                                 static_cast<int32_t>(dilations[1]),
                                                 static_cast<int32_t>(dilations[0]), bias_type(node));
    emit(BuiltinOperator::CONV_2D, window_inputs(node, x), tensors(node.outputs), BuiltinOptions::Conv2DOptions,
         options.Union());
  }

  void depthwise_conv2d(const ir::Node& node) {
    expect_attrs(node, {"strides", "dilations", "pads", "depth_multiplier", "act_min", "act_max"});
    const ir::Tensor& filter = T(node.inputs.at(1));
    const std::vector<int64_t> strides = ints(node, "strides", 2), dilations = ints(node, "dilations", 2);
    int32_t x = tensor(node.inputs[0]);
    const auto act = activation(node);
    const fb::Padding pad = padding(node, &x, filter.shape.at(1), filter.shape.at(2), strides, dilations, zero_point(node));
    const int64_t multiplier = filter.shape.at(3) / std::max<int64_t>(T(node.inputs[0]).shape.at(3), 1);
    const auto options = fb::CreateDepthwiseConv2DOptions(
        fbb_, pad, static_cast<int32_t>(strides[1]), static_cast<int32_t>(strides[0]),
        static_cast<int32_t>(multiplier), act, static_cast<int32_t>(dilations[1]), static_cast<int32_t>(dilations[0]));
    emit(BuiltinOperator::DEPTHWISE_CONV_2D, window_inputs(node, x), tensors(node.outputs),
         BuiltinOptions::DepthwiseConv2DOptions, options.Union());
  }

  // Input 0's zero point (the padded value that reads as real 0), 0 for a float input.
  std::optional<int64_t> zero_point(const ir::Node& node) const {
    const ir::Tensor& in = T(node.inputs[0]);
    return in.quant.empty() ? 0 : in.quant.zero_points[0];
  }

  std::vector<int32_t> window_inputs(const ir::Node& node, int32_t x) {
    std::vector<int32_t> inputs = {x, tensor(node.inputs.at(1))};
    if (node.inputs.size() > 2) inputs.push_back(tensor(node.inputs[2]));
    return inputs;
  }

  // transpose_conv: TFLite pads it as the conv it inverts (the output as that conv's
  // input, SAME or VALID); the importer's leading pads from that rule must be the node's,
  // and the trailing ones follow from the output size. No dilation or groups in TFLite.
  void transpose_conv(const ir::Node& node) {
    expect_attrs(node, {"strides", "dilations", "group", "pads", "act_min", "act_max", "quantized_bias_type"});
    if (node.get_ints("dilations", {1, 1}) != std::vector<int64_t>{1, 1}) fail(node, "dilated: TFLite's TRANSPOSE_CONV has none");
    if (node.get_int("group", 1) != 1) fail(node, "grouped: TFLite's TRANSPOSE_CONV has no groups");
    const ir::Shape& in = T(node.inputs.at(0)).shape;
    const ir::Shape& filter = T(node.inputs.at(1)).shape;
    const ir::Shape& out = T(node.outputs[0]).shape;
    if (in.size() != 4 || filter.size() != 4 || out.size() != 4) fail(node, "input, filter and output must be rank 4");
    const std::vector<int64_t> strides = ints(node, "strides", 2), pads = ints(node, "pads", 4);
    auto matches = [&](bool same) {
      for (int a = 0; a < 2; ++a) {
        const int64_t k = filter[1 + a];
        const TfliteWindow w = tflite_window(same, out[1 + a], k, strides[a], 1);
        const int64_t after = (in[1 + a] - 1) * strides[a] + k - w.pad_before - out[1 + a];
        if (w.out < 1 || w.pad_before != pads[a] || after != pads[a + 2]) return false;
      }
      return true;
    };
    const bool same = matches(true);
    if (!same && !matches(false))
      fail(node, "pads " + ir::shape_string(pads) + " are neither TFLite's SAME nor VALID for output " +
                     ir::shape_string(out));
    const auto act = activation(node);
    std::vector<int32_t> inputs = {int32_constant(node.name + "/output_shape", out, {4}), tensor(node.inputs[1]),
                                   tensor(node.inputs[0])};
    if (node.inputs.size() > 2 && node.inputs[2] != ir::kNoTensor) inputs.push_back(tensor(node.inputs[2]));
    const auto options = fb::CreateTransposeConvOptions(fbb_, same ? fb::Padding::SAME : fb::Padding::VALID,
                                                        static_cast<int32_t>(strides[1]),
                                                        static_cast<int32_t>(strides[0]), act, bias_type(node));
    emit(BuiltinOperator::TRANSPOSE_CONV, inputs, tensors(node.outputs), BuiltinOptions::TransposeConvOptions,
         options.Union());
  }

  void fully_connected(const ir::Node& node) {
    expect_attrs(node, {"act_min", "act_max", "quantized_bias_type"});
    const ir::Tensor& x = T(node.inputs.at(0));
    const ir::Tensor& w = T(node.inputs.at(1));
    if (x.shape.empty() || w.shape.size() != 2 || x.shape.back() != w.shape[1])
      fail(node, "input " + ir::shape_string(x.shape) + " does not end in the weights' K " +
                     ir::shape_string(w.shape));
    const bool keep_num_dims = T(node.outputs[0]).shape.size() != 2;
    const auto options = fb::CreateFullyConnectedOptions(fbb_, activation(node),
                                                         fb::FullyConnectedOptionsWeightsFormat::DEFAULT,
                                                         keep_num_dims, false, bias_type(node));
    emit(BuiltinOperator::FULLY_CONNECTED, tensors(node.inputs), tensors(node.outputs),
         BuiltinOptions::FullyConnectedOptions, options.Union());
  }

  void binary(const ir::Node& node) {
    expect_attrs(node, {"act_min", "act_max", "pot_scale_int16"});
    const auto act = activation(node);
    // Mote's int16 add and sub rescale generally (TFLite's pot_scale_int16 false).
    const bool pot = node.get_int("pot_scale_int16", 0) != 0;
    const auto in = tensors(node.inputs), out = tensors(node.outputs);
    if (node.op == ir::Op::kAdd)
      emit(BuiltinOperator::ADD, in, out, BuiltinOptions::AddOptions, fb::CreateAddOptions(fbb_, act, pot).Union());
    else if (node.op == ir::Op::kSub)
      emit(BuiltinOperator::SUB, in, out, BuiltinOptions::SubOptions, fb::CreateSubOptions(fbb_, act, pot).Union());
    else
      emit(BuiltinOperator::MUL, in, out, BuiltinOptions::MulOptions, fb::CreateMulOptions(fbb_, act).Union());
  }

  void pool(const ir::Node& node) {
    expect_attrs(node, {"kernel", "strides", "dilations", "pads", "count_include_pad", "ceil_mode", "act_min",
                        "act_max"});
    const std::vector<int64_t> kernel = ints(node, "kernel", 2), strides = ints(node, "strides", 2);
    const std::vector<int64_t> dilations = node.get_ints("dilations", {1, 1});
    if (dilations != std::vector<int64_t>{1, 1}) fail(node, "dilations " + ir::shape_string(dilations) + ": TFLite pools have none");
    const ir::Tensor& in = T(node.inputs[0]);
    const std::vector<int64_t> pads = ints(node, "pads", 4);
    const bool padded = std::any_of(pads.begin(), pads.end(), [](int64_t p) { return p != 0; });
    const bool avg = node.op == ir::Op::kAvgPool2d;
    if (avg && padded && node.get_int("count_include_pad", 0) != 0)
      fail(node, "count_include_pad with pads " + ir::shape_string(pads) + ": TFLite averages the cells inside only");
    // Max pooling over a cell padded with the lowest value gives what skipping it gives.
    std::optional<int64_t> pad_value;
    if (!avg && !in.quant.empty()) pad_value = in.dtype == DType::kInt16 ? -32768 : -128;
    int32_t x = tensor(node.inputs[0]);
    const auto act = activation(node);
    const fb::Padding pad = padding(node, &x, kernel[0], kernel[1], strides, {1, 1}, pad_value);
    const auto options = fb::CreatePool2DOptions(fbb_, pad, static_cast<int32_t>(strides[1]),
                                                 static_cast<int32_t>(strides[0]), static_cast<int32_t>(kernel[1]),
                                                 static_cast<int32_t>(kernel[0]), act);
    emit(avg ? BuiltinOperator::AVERAGE_POOL_2D : BuiltinOperator::MAX_POOL_2D, {x}, tensors(node.outputs),
         BuiltinOptions::Pool2DOptions, options.Union());
  }

  // mean, sum, reduce_max, reduce_min: the axes as an int32 constant, keep_dims when the
  // output keeps the input's rank.
  void reduce(const ir::Node& node, BuiltinOperator code) {
    expect_attrs(node, {"axes"});
    const std::vector<int64_t> axes = node.get_ints("axes");
    const bool keep_dims = T(node.outputs[0]).shape.size() == T(node.inputs[0]).shape.size() && !axes.empty();
    const int32_t axis = int32_constant(node.name + "/axes", axes, {static_cast<int64_t>(axes.size())});
    emit(code, {tensor(node.inputs[0]), axis}, tensors(node.outputs), BuiltinOptions::ReducerOptions,
         fb::CreateReducerOptions(fbb_, keep_dims).Union());
  }

  void reshape(const ir::Node& node) {
    expect_attrs(node, {});
    const ir::Shape& shape = T(node.outputs[0]).shape;
    const int32_t new_shape = int32_constant(node.name + "/shape", shape, {static_cast<int64_t>(shape.size())});
    const std::vector<int32_t> dims(shape.begin(), shape.end());
    emit(BuiltinOperator::RESHAPE, {tensor(node.inputs[0]), new_shape}, tensors(node.outputs),
         BuiltinOptions::ReshapeOptions, fb::CreateReshapeOptions(fbb_, fbb_.CreateVector(dims)).Union());
  }

  void transpose(const ir::Node& node) {
    expect_attrs(node, {"perm"});
    const std::vector<int64_t> perm = node.get_ints("perm");
    const int32_t p = int32_constant(node.name + "/perm", perm, {static_cast<int64_t>(perm.size())});
    emit(BuiltinOperator::TRANSPOSE, {tensor(node.inputs[0]), p}, tensors(node.outputs));
  }

  void softmax(const ir::Node& node) {
    expect_attrs(node, {"beta", "axis"});
    const ir::Tensor& x = T(node.inputs[0]);
    const int64_t rank = static_cast<int64_t>(x.shape.size());
    if (node.has("axis") && node.get_int("axis", rank - 1) != rank - 1)
      fail(node, "axis " + std::to_string(node.get_int("axis", 0)) + ": TFLite's SOFTMAX runs along the last axis");
    const double beta = node.get_float("beta", 1.0);
    if (static_cast<double>(static_cast<float>(beta)) != beta) fail(node, "beta is not a float32");
    emit(BuiltinOperator::SOFTMAX, tensors(node.inputs), tensors(node.outputs), BuiltinOptions::SoftmaxOptions,
         fb::CreateSoftmaxOptions(fbb_, static_cast<float>(beta)).Union());
  }

  void concat(const ir::Node& node) {
    expect_attrs(node, {"axis"});
    const auto options = fb::CreateConcatenationOptions(fbb_, static_cast<int32_t>(node.get_int("axis", 0)));
    emit(BuiltinOperator::CONCATENATION, tensors(node.inputs), tensors(node.outputs),
         BuiltinOptions::ConcatenationOptions, options.Union());
  }

  void pad(const ir::Node& node) {
    expect_attrs(node, {"pads", "mode", "value"});
    const std::string mode = node.get_string("mode", "constant");
    if (mode != "constant" && mode != "reflect" && mode != "symmetric")
      fail(node, "mode '" + mode + "': TFLite pads with a constant (PAD, PADV2) or a mirror (MIRROR_PAD)");
    const ir::Tensor& x = T(node.inputs[0]);
    const ir::Tensor& y = T(node.outputs[0]);
    const size_t rank = x.shape.size();
    const std::vector<int64_t> pads = ints(node, "pads", 2 * rank);
    std::vector<int64_t> pairs;
    for (size_t a = 0; a < rank; ++a) {
      pairs.push_back(pads[a]);
      pairs.push_back(pads[rank + a]);
    }
    const int32_t paddings = int32_constant(node.name + "/paddings", pairs, {static_cast<int64_t>(rank), 2});
    if (mode != "constant") return mirror_pad(node, mode, paddings);
    const double value = node.get_float("value", 0.0);
    if (value == 0.0) {
      emit(BuiltinOperator::PAD, {tensor(node.inputs[0]), paddings}, tensors(node.outputs), BuiltinOptions::PadOptions,
           fb::CreatePadOptions(fbb_).Union());
      return;
    }
    // PADV2's constant shares the output's quantization.
    std::vector<uint8_t> bytes;
    if (y.quant.empty()) {
      if (y.dtype != DType::kFloat32) fail(node, "a non-zero pad value on " + std::string(ir::dtype_name(y.dtype)));
      bytes = bytes_of(std::vector<float>{static_cast<float>(value)});
    } else {
      bytes = element_bytes(y.dtype, quantized(y, value));
    }
    const int32_t constant = add_tensor(node.name + "/constant_values", y.dtype, {}, y.quant, &bytes);
    emit(BuiltinOperator::PADV2, {tensor(node.inputs[0]), paddings, constant}, tensors(node.outputs),
         BuiltinOptions::PadV2Options, fb::CreatePadV2Options(fbb_).Union());
  }

  // clamp: TFLite's RELU family, with the attributes the importer gives each.
  void clamp(const ir::Node& node) {
    expect_attrs(node, {"min", "max", "requantize", "ratio_in_float"});
    const double lo = unbounded(node.get_float("min", -kInf)), hi = unbounded(node.get_float("max", kInf));
    const ir::Tensor& x = T(node.inputs[0]);
    const ir::Tensor& y = T(node.outputs[0]);
    const bool is_quantized = !x.quant.empty();
    const bool requantize = node.get_int("requantize", 1) != 0;
    const bool ratio_in_float = node.get_int("ratio_in_float", 0) != 0;
    const bool same_quant = x.quant.scales == y.quant.scales && x.quant.zero_points == y.quant.zero_points;
    BuiltinOperator code;
    bool tflite_only = false;
    if (lo == 0 && hi == kInf) {
      code = BuiltinOperator::RELU;
    } else if (lo == 0 && hi == 6) {
      code = BuiltinOperator::RELU6;
      // TensorFlow Lite Micro's RELU6 keeps the input's quantization (requantize 0).
      if (is_quantized && !same_quant && requantize)
        fail(node, "RELU6 between different quantizations: TensorFlow Lite Micro's keeps the input's");
    } else if (lo == -1 && hi == 1) {
      code = BuiltinOperator::RELU_N1_TO_1;
      tflite_only = true;
    } else if (lo == 0 && hi == 1) {
      code = BuiltinOperator::RELU_0_TO_1;
      tflite_only = true;
    } else {
      fail(node, "clamp [" + real_string(lo) + ", " + real_string(hi) + "] is none of TFLite's RELUs");
    }
    if (is_quantized && !requantize && !(code == BuiltinOperator::RELU6 && !same_quant))
      fail(node, "requantize 0: only TensorFlow Lite Micro's RELU6 keeps the input's quantization");
    if (is_quantized && ratio_in_float != tflite_only)
      fail(node, "ratio_in_float " + std::to_string(ratio_in_float) + " is not what TFLite's " +
                     fb::EnumNameBuiltinOperator(code) + " does");
    emit(code, tensors(node.inputs), tensors(node.outputs));
  }

  void mirror_pad(const ir::Node& node, const std::string& mode, int32_t paddings) {
    const ir::Tensor& x = T(node.inputs[0]);
    const ir::Tensor& y = T(node.outputs[0]);
    if (x.quant.scales != y.quant.scales || x.quant.zero_points != y.quant.zero_points)
      fail(node, "output not quantized like the input (TFLite's MIRROR_PAD moves values)");
    const auto m = mode == "symmetric" ? fb::MirrorPadMode::SYMMETRIC : fb::MirrorPadMode::REFLECT;
    emit(BuiltinOperator::MIRROR_PAD, {tensor(node.inputs[0]), paddings}, tensors(node.outputs),
         BuiltinOptions::MirrorPadOptions, fb::CreateMirrorPadOptions(fbb_, m).Union());
  }

  // strided_slice: begin and strides as they are, end one step past the last element (an
  // end below 0, a negative stride's past index 0, as end_mask), and the axes of size 1
  // the output drops as shrink_axis_mask.
  void strided_slice(const ir::Node& node) {
    expect_attrs(node, {"begin", "strides", "sizes"});
    const ir::Shape& in = T(node.inputs[0]).shape;
    const ir::Shape& out = T(node.outputs[0]).shape;
    const size_t rank = in.size();
    if (rank > 31) fail(node, "input rank " + std::to_string(rank) + " beyond TFLite's masks");
    const std::vector<int64_t> begin = ints(node, "begin", rank), strides = ints(node, "strides", rank);
    const std::vector<int64_t> sizes = ints(node, "sizes", rank);
    std::vector<int64_t> end(rank);
    int32_t end_mask = 0, shrink_mask = 0;
    size_t shrinks = rank >= out.size() ? rank - out.size() : 0, j = 0;
    ir::Shape kept;
    for (size_t i = 0; i < rank; ++i) {
      end[i] = begin[i] + (sizes[i] - 1) * strides[i] + (strides[i] > 0 ? 1 : -1);
      if (end[i] < 0) end_mask |= 1 << i;
      if (sizes[i] == 1 && shrinks > 0 && out.size() - j < rank - i) {
        shrink_mask |= 1 << i;
        --shrinks;
        continue;
      }
      kept.push_back(sizes[i]);
      ++j;
    }
    if (kept != out) fail(node, "output " + ir::shape_string(out) + " is not the sizes " + ir::shape_string(sizes) + " without some axes of size 1");
    const ir::Shape shape = {static_cast<int64_t>(rank)};
    const std::vector<int32_t> inputs = {tensor(node.inputs[0]), int32_constant(node.name + "/begin", begin, shape),
                                         int32_constant(node.name + "/end", end, shape),
                                         int32_constant(node.name + "/strides", strides, shape)};
    emit(BuiltinOperator::STRIDED_SLICE, inputs, tensors(node.outputs), BuiltinOptions::StridedSliceOptions,
         fb::CreateStridedSliceOptions(fbb_, 0, end_mask, 0, 0, shrink_mask).Union());
  }

  // gather: TFLite's GATHER takes int32 indices in [0, dim): constant int64 ones are
  // narrowed, negative ones (ONNX's, negative_from_end) refused.
  void gather(const ir::Node& node) {
    expect_attrs(node, {"axis", "batch_dims", "negative_from_end"});
    const ir::Tensor& indices = T(node.inputs.at(1));
    int32_t index_tensor;
    if (indices.dtype == DType::kInt32) {
      index_tensor = tensor(node.inputs[1]);
    } else if (indices.dtype == DType::kInt64 && indices.is_constant) {
      const std::vector<int64_t> values(indices.as<int64_t>(), indices.as<int64_t>() + indices.elements());
      for (int64_t v : values)
        if (v < 0 || v > std::numeric_limits<int32_t>::max()) fail(node, "index " + std::to_string(v) + " outside TFLite's [0, dim)");
      index_tensor = int32_constant(indices.name + "/int32", values, indices.shape);
    } else {
      fail(node, "indices '" + indices.name + "' are " + ir::dtype_name(indices.dtype) + ", TFLite's GATHER takes int32");
    }
    if (node.get_int("negative_from_end", 0) != 0 && indices.is_constant && indices.dtype == DType::kInt32)
      for (int64_t k = 0; k < indices.elements(); ++k)
        if (indices.as<int32_t>()[k] < 0) fail(node, "negative index: TFLite's GATHER takes [0, dim)");
    if (node.get_int("negative_from_end", 0) != 0 && !indices.is_constant)
      fail(node, "computed indices counted from the end (ONNX's): TFLite's GATHER takes [0, dim)");
    const auto options = fb::CreateGatherOptions(fbb_, static_cast<int32_t>(node.get_int("axis", 0)),
                                                 static_cast<int32_t>(node.get_int("batch_dims", 0)));
    emit(BuiltinOperator::GATHER, {tensor(node.inputs[0]), index_tensor}, tensors(node.outputs),
         BuiltinOptions::GatherOptions, options.Union());
  }

  void batch_matmul(const ir::Node& node) {
    expect_attrs(node, {"adj_a", "adj_b"});
    const auto options = fb::CreateBatchMatMulOptions(fbb_, node.get_int("adj_a", 0) != 0, node.get_int("adj_b", 0) != 0);
    emit(BuiltinOperator::BATCH_MATMUL, tensors(node.inputs), tensors(node.outputs),
         BuiltinOptions::BatchMatMulOptions, options.Union());
  }

  void arg_max(const ir::Node& node) {
    expect_attrs(node, {"axis", "select_last"});
    if (node.get_int("select_last", 0) != 0) fail(node, "select_last: TFLite's ARG_MAX gives the first");
    if (T(node.outputs[0]).dtype != DType::kInt32 || T(node.outputs[0]).shape.size() + 1 != T(node.inputs[0]).shape.size())
      fail(node, "TFLite Micro's ARG_MAX gives int32 without the axis");
    const int32_t axis = int32_constant(node.name + "/axis", {node.get_int("axis", 0)}, {1});
    const bool max = node.op == ir::Op::kArgMax;
    if (max)
      emit(BuiltinOperator::ARG_MAX, {tensor(node.inputs[0]), axis}, tensors(node.outputs), BuiltinOptions::ArgMaxOptions,
           fb::CreateArgMaxOptions(fbb_, fb::TensorType::INT32).Union());
    else
      emit(BuiltinOperator::ARG_MIN, {tensor(node.inputs[0]), axis}, tensors(node.outputs), BuiltinOptions::ArgMinOptions,
           fb::CreateArgMinOptions(fbb_, fb::TensorType::INT32).Union());
  }

  void leaky_relu(const ir::Node& node) {
    expect_attrs(node, {"alpha"});
    const double alpha = node.get_float("alpha", 0.01);
    if (static_cast<double>(static_cast<float>(alpha)) != alpha) fail(node, "alpha is not a float32");
    emit(BuiltinOperator::LEAKY_RELU, tensors(node.inputs), tensors(node.outputs), BuiltinOptions::LeakyReluOptions,
         fb::CreateLeakyReluOptions(fbb_, static_cast<float>(alpha)).Union());
  }

  // unary and compare: TFLite's operator of the function (`fn`); logical: AND and OR.
  void by_function(const ir::Node& node) {
    expect_attrs(node, {"fn"});
    static const std::map<std::string, BuiltinOperator> codes = {
        {"abs", BuiltinOperator::ABS}, {"neg", BuiltinOperator::NEG}, {"sin", BuiltinOperator::SIN},
        {"cos", BuiltinOperator::COS}, {"log", BuiltinOperator::LOG}, {"sqrt", BuiltinOperator::SQRT},
        {"rsqrt", BuiltinOperator::RSQRT}, {"square", BuiltinOperator::SQUARE}, {"exp", BuiltinOperator::EXP},
        {"floor", BuiltinOperator::FLOOR}, {"ceil", BuiltinOperator::CEIL}, {"round", BuiltinOperator::ROUND},
        {"logical_not", BuiltinOperator::LOGICAL_NOT}, {"equal", BuiltinOperator::EQUAL},
        {"not_equal", BuiltinOperator::NOT_EQUAL}, {"less", BuiltinOperator::LESS},
        {"less_equal", BuiltinOperator::LESS_EQUAL}, {"greater", BuiltinOperator::GREATER},
        {"greater_equal", BuiltinOperator::GREATER_EQUAL}, {"and", BuiltinOperator::LOGICAL_AND},
        {"or", BuiltinOperator::LOGICAL_OR}};
    const std::string fn = node.get_string("fn");
    const auto it = codes.find(fn);
    if (it == codes.end()) fail(node, "function '" + fn + "' has no TFLite operator");
    emit(it->second, tensors(node.inputs), tensors(node.outputs));
  }

  void block(const ir::Node& node, BuiltinOperator code) {
    expect_attrs(node, {"block_size"});
    const auto size = static_cast<int32_t>(node.get_int("block_size", 0));
    if (code == BuiltinOperator::DEPTH_TO_SPACE)
      emit(code, tensors(node.inputs), tensors(node.outputs), BuiltinOptions::DepthToSpaceOptions,
           fb::CreateDepthToSpaceOptions(fbb_, size).Union());
    else
      emit(code, tensors(node.inputs), tensors(node.outputs), BuiltinOptions::SpaceToDepthOptions,
           fb::CreateSpaceToDepthOptions(fbb_, size).Union());
  }

  void cumsum(const ir::Node& node) {
    expect_attrs(node, {"axis", "exclusive", "reverse"});
    const int32_t axis = int32_constant(node.name + "/axis", {node.get_int("axis", 0)}, {1});
    const auto options =
        fb::CreateCumsumOptions(fbb_, node.get_int("exclusive", 0) != 0, node.get_int("reverse", 0) != 0);
    emit(BuiltinOperator::CUMSUM, {tensor(node.inputs[0]), axis}, tensors(node.outputs), BuiltinOptions::CumsumOptions,
         options.Union());
  }

  // resize_nearest, resize_bilinear: TFLite's (align_corners, half_pixel_centers) pair
  // whose lowering gives the node's kernel with the same parameters (the same source taps:
  // an ONNX Resize's coordinate transform and scales, when TFLite's arithmetic lands on
  // the same taps, as PyTorch's integer upsampling does; lower::resize_sampling()), else refused.
  void resize(const ir::Node& node) {
    const bool nearest = node.op == ir::Op::kResizeNearest;
    const ir::Shape& out = T(node.outputs[0]).shape;
    if (out.size() != 4) fail(node, "output must be NHWC");
    const Target host = parse_target("host");
    const lower::LoweredOp want = lower::lower_node(g_, node, host);
    for (const auto& [align_corners, half_pixel_centers] : {std::pair{false, false}, {false, true}, {true, false}}) {
      ir::Node candidate = node;
      candidate.attrs.clear();
      candidate.attrs["align_corners"] = int64_t{align_corners};
      candidate.attrs["half_pixel_centers"] = int64_t{half_pixel_centers};
      lower::LoweredOp got;
      try {
        got = lower::lower_node(g_, candidate, host);
      } catch (const CompileError&) {
        continue;  // a setting the lowering refuses (a tap outside the input, ...)
      }
      if (got.kernel != want.kernel || lower::resize_sampling(got) != lower::resize_sampling(want)) continue;
      const int32_t size = int32_constant(node.name + "/size", {out[1], out[2]}, {2});
      const std::vector<int32_t> inputs = {tensor(node.inputs[0]), size};
      if (nearest)
        emit(BuiltinOperator::RESIZE_NEAREST_NEIGHBOR, inputs, tensors(node.outputs),
             BuiltinOptions::ResizeNearestNeighborOptions,
             fb::CreateResizeNearestNeighborOptions(fbb_, align_corners, half_pixel_centers).Union());
      else
        emit(BuiltinOperator::RESIZE_BILINEAR, inputs, tensors(node.outputs), BuiltinOptions::ResizeBilinearOptions,
             fb::CreateResizeBilinearOptions(fbb_, align_corners, half_pixel_centers).Union());
      return;
    }
    fail(node, "no align_corners/half_pixel_centers setting of TFLite's gives its sampling positions");
  }

  void plain(const ir::Node& node, BuiltinOperator code) {
    expect_attrs(node, {});
    emit(code, tensors(node.inputs), tensors(node.outputs));
  }

  void convert(const ir::Node& node) {
    switch (node.op) {
      case ir::Op::kConv2d: return conv2d(node);
      case ir::Op::kDepthwiseConv2d: return depthwise_conv2d(node);
      case ir::Op::kFullyConnected: return fully_connected(node);
      case ir::Op::kTransposeConv: return transpose_conv(node);
      case ir::Op::kAdd:
      case ir::Op::kSub:
      case ir::Op::kMul: return binary(node);
      case ir::Op::kAvgPool2d:
      case ir::Op::kMaxPool2d: return pool(node);
      case ir::Op::kMean: return reduce(node, BuiltinOperator::MEAN);
      case ir::Op::kSum: return reduce(node, BuiltinOperator::SUM);
      case ir::Op::kReduceMax: return reduce(node, BuiltinOperator::REDUCE_MAX);
      case ir::Op::kReduceMin: return reduce(node, BuiltinOperator::REDUCE_MIN);
      case ir::Op::kUnary:
      case ir::Op::kCompare:
      case ir::Op::kLogical: return by_function(node);
      case ir::Op::kDepthToSpace: return block(node, BuiltinOperator::DEPTH_TO_SPACE);
      case ir::Op::kSpaceToDepth: return block(node, BuiltinOperator::SPACE_TO_DEPTH);
      case ir::Op::kLogSoftmax: return plain(node, BuiltinOperator::LOG_SOFTMAX);
      case ir::Op::kPrelu: return plain(node, BuiltinOperator::PRELU);
      case ir::Op::kSelect: return plain(node, BuiltinOperator::SELECT_V2);
      case ir::Op::kCast: return plain(node, BuiltinOperator::CAST);
      case ir::Op::kCumsum: return cumsum(node);
      case ir::Op::kResizeNearest:
      case ir::Op::kResizeBilinear: return resize(node);
      case ir::Op::kReshape: return reshape(node);
      case ir::Op::kTranspose: return transpose(node);
      case ir::Op::kSoftmax: return softmax(node);
      case ir::Op::kConcat: return concat(node);
      case ir::Op::kPad: return pad(node);
      case ir::Op::kClamp: return clamp(node);
      case ir::Op::kLeakyRelu: return leaky_relu(node);
      case ir::Op::kStridedSlice: return strided_slice(node);
      case ir::Op::kGather: return gather(node);
      case ir::Op::kBatchMatMul: return batch_matmul(node);
      case ir::Op::kArgMax:
      case ir::Op::kArgMin: return arg_max(node);
      case ir::Op::kElu: return plain(node, BuiltinOperator::ELU);
      case ir::Op::kMaximum: return plain(node, BuiltinOperator::MAXIMUM);
      case ir::Op::kMinimum: return plain(node, BuiltinOperator::MINIMUM);
      case ir::Op::kQuantize: return plain(node, BuiltinOperator::QUANTIZE);
      case ir::Op::kDequantize: return plain(node, BuiltinOperator::DEQUANTIZE);
      case ir::Op::kSigmoid: return plain(node, BuiltinOperator::LOGISTIC);
      case ir::Op::kTanh: return plain(node, BuiltinOperator::TANH);
      case ir::Op::kHardSwish: return plain(node, BuiltinOperator::HARD_SWISH);
      default: {
        const std::string dtype = node.outputs.empty() ? "" : ir::dtype_name(T(node.outputs[0]).dtype);
        fail(node, "no TFLite operator --emit-tflite writes for it (output " + dtype + ")");
      }
    }
  }

  const ir::Graph& g_;
  const std::string path_;
  flatbuffers::FlatBufferBuilder fbb_;
  std::vector<int32_t> ids_;  // ir tensor id -> file tensor index, -1 until written
  std::vector<Offset<fb::Tensor>> tensors_;
  std::vector<Offset<fb::Buffer>> buffers_;
  std::vector<Offset<fb::Operator>> operators_;
  std::vector<BuiltinOperator> codes_;  // operator_codes, in order of first use
};

}  // namespace

std::vector<uint8_t> write_tflite(const ir::Graph& graph, const std::string& path) {
  return TfliteWriter(graph, path).run();
}

}  // namespace mote
