#include "import/tflite/tflite_importer.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <span>
#include <string_view>

#include "common/error.h"
#include "flatbuffers/flatbuffers.h"
#include "import/tflite/tflite_schema_generated.h"
#include "mote/program_format.h"  // kMaxRank
#include "window_geometry.h"

namespace mote {
namespace {

namespace fb = mote::tflite;  // the reader flatc generates from tflite_schema.fbs
using fb::BuiltinOperator;

constexpr uint32_t kSchemaVersion = 3;
constexpr uintptr_t kBufferAlignment = 16;  // Buffer.data's force_align
constexpr int64_t kMaxTensorBytes = int64_t{1} << 31;  // program offsets are 32-bit

using ir::dtype_name;
std::string ints_string(const std::vector<int64_t>& values) { return ir::shape_string(values); }

std::string op_code_name(int32_t code) {
  const char* name = "";
  if (code >= 0) name = fb::EnumNameBuiltinOperator(static_cast<BuiltinOperator>(code));
  return (name && *name) ? name : "unknown";
}

// Element i of a [long] vector. The verifier aligns vectors to 4 bytes only, so a
// hostile file can place 8-byte elements off their alignment: read the bytes.
int64_t long_at(const flatbuffers::Vector<int64_t>* v, uint32_t i) {
  int64_t value;
  std::memcpy(&value, v->Data() + sizeof(int64_t) * i, sizeof(value));
  return flatbuffers::EndianScalar(value);
}

template <typename Enum>
std::string enum_string(Enum value, const char* name) {
  return (name && *name) ? std::string(name) : std::to_string(static_cast<int>(value));
}

std::string lower_case(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::optional<DType> dtype_from_tflite(fb::TensorType type) {
  switch (type) {
    case fb::TensorType::FLOAT32: return DType::kFloat32;
    case fb::TensorType::INT8: return DType::kInt8;
    case fb::TensorType::INT16: return DType::kInt16;
    case fb::TensorType::INT32: return DType::kInt32;
    case fb::TensorType::INT64: return DType::kInt64;
    case fb::TensorType::UINT8: return DType::kUInt8;
    case fb::TensorType::BOOL: return DType::kBool;
    default: return std::nullopt;
  }
}

// numpy-style broadcast of two shapes, or nullopt when they are incompatible.
std::optional<ir::Shape> broadcast_shape(const ir::Shape& a, const ir::Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  ir::Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

// One spatial axis of a TFLite window op (conv, depthwise, pool): output size and the
// explicit pads, as tflite::ComputePaddingHeightWidth computes them: out from
// ComputeOutSize, total = max((out - 1) * stride + dilated_kernel - in, 0), before =
// total / 2, the rest after.
struct Window {
  int64_t out = 0;
  int64_t pad_before = 0;
  int64_t pad_after = 0;
};

Window tflite_window(fb::Padding padding, int64_t in, int64_t kernel, int64_t stride,
                     int64_t dilation) {
  const int64_t span = (kernel - 1) * dilation + 1;
  Window w;
  w.out = padding == fb::Padding::SAME ? (in + stride - 1) / stride
                                        : window_output_size(in, kernel, stride, dilation, 0, 0, false);
  const int64_t total = std::max<int64_t>((w.out - 1) * stride + span - in, 0);
  w.pad_before = total / 2;
  w.pad_after = total - w.pad_before;
  return w;
}

class TfliteImporter {
 public:
  // The builtin operators run() takes (tflite_supported_ops lists them).
  static bool is_supported(int32_t code) {
    switch (static_cast<BuiltinOperator>(code)) {
      case BuiltinOperator::CONV_2D:
      case BuiltinOperator::DEPTHWISE_CONV_2D:
      case BuiltinOperator::FULLY_CONNECTED:
      case BuiltinOperator::ADD:
      case BuiltinOperator::SUB:
      case BuiltinOperator::MUL:
      case BuiltinOperator::AVERAGE_POOL_2D:
      case BuiltinOperator::MAX_POOL_2D:
      case BuiltinOperator::SOFTMAX:
      case BuiltinOperator::LOGISTIC:
      case BuiltinOperator::TANH:
      case BuiltinOperator::RESHAPE:
      case BuiltinOperator::SQUEEZE:
      case BuiltinOperator::QUANTIZE:
      case BuiltinOperator::DEQUANTIZE:
      case BuiltinOperator::MEAN:
      case BuiltinOperator::PAD:
      case BuiltinOperator::PADV2:
      case BuiltinOperator::CONCATENATION:
      case BuiltinOperator::STRIDED_SLICE:
      case BuiltinOperator::TRANSPOSE:
      case BuiltinOperator::TRANSPOSE_CONV:
      case BuiltinOperator::LEAKY_RELU:
      case BuiltinOperator::UNIDIRECTIONAL_SEQUENCE_LSTM:
      case BuiltinOperator::ABS:
      case BuiltinOperator::NEG:
      case BuiltinOperator::SIN:
      case BuiltinOperator::COS:
      case BuiltinOperator::LOG:
      case BuiltinOperator::SQRT:
      case BuiltinOperator::RSQRT:
      case BuiltinOperator::SQUARE:
      case BuiltinOperator::EXP:
      case BuiltinOperator::FLOOR:
      case BuiltinOperator::CEIL:
      case BuiltinOperator::ROUND:
      case BuiltinOperator::LOGICAL_NOT:
      case BuiltinOperator::MAXIMUM:
      case BuiltinOperator::MINIMUM:
      case BuiltinOperator::SQUARED_DIFFERENCE:
      case BuiltinOperator::FLOOR_DIV:
      case BuiltinOperator::FLOOR_MOD:
      case BuiltinOperator::EQUAL:
      case BuiltinOperator::NOT_EQUAL:
      case BuiltinOperator::LESS:
      case BuiltinOperator::LESS_EQUAL:
      case BuiltinOperator::GREATER:
      case BuiltinOperator::GREATER_EQUAL:
      case BuiltinOperator::LOGICAL_AND:
      case BuiltinOperator::LOGICAL_OR:
      case BuiltinOperator::SELECT_V2:
      case BuiltinOperator::CAST:
        return true;
      default:
        return false;
    }
  }
  explicit TfliteImporter(std::string path) : path_(std::move(path)) {}

  ir::Graph run_file() {
    read_file();
    return run(bytes_);
  }

  ir::Graph run(std::span<const uint8_t> bytes) {
    // The verifier checks alignment relative to the buffer's start: start aligned.
    if (reinterpret_cast<uintptr_t>(bytes.data()) % kBufferAlignment != 0) {
      bytes_.assign(bytes.begin(), bytes.end());
      bytes = bytes_;
    }
    verify(bytes);
    file_ = bytes;
    check_operators();
    graph_.name = std::filesystem::path(path_).stem().string();
    const size_t count = subgraph_->tensors() ? subgraph_->tensors()->size() : 0;
    ids_.assign(count, -1);
    mark_raw_only_tensors();
    writer_.assign(count, -1);
    is_graph_input_.assign(count, false);

    if (subgraph_->inputs()) {
      for (int32_t index : *subgraph_->inputs()) {
        check_tensor_index(index, "graph input");
        is_graph_input_[index] = true;
      }
      for (int32_t index : *subgraph_->inputs()) graph_.inputs.push_back(tensor(index));
    }
    const auto* operators = subgraph_->operators();
    for (uint32_t i = 0; operators && i < operators->size(); ++i) convert_operator(i);
    op_index_ = -1;

    if (!subgraph_->outputs() || subgraph_->outputs()->size() == 0) fail("the main subgraph has no outputs");
    for (int32_t index : *subgraph_->outputs()) {
      check_tensor_index(index, "graph output");
      const int id = tensor(index);
      const ir::Tensor& t = graph_.tensors[id];
      if (!t.is_constant && !is_graph_input_[index] && writer_[index] < 0)
        fail("graph output '" + t.name + "' is not written by any operator");
      graph_.outputs.push_back(id);
    }
    graph_.remove_dead();
    return std::move(graph_);
  }

 private:
  // ---- errors -------------------------------------------------------------------------
  [[noreturn]] void fail(const std::string& what) const { throw CompileError(path_ + ": " + what); }
  // Inside an operator's conversion: "operator 5 (CONV_2D): <what>".
  [[noreturn]] void fail_op(const std::string& what) const {
    fail("operator " + std::to_string(op_index_) + " (" + op_name_ + "): " + what);
  }
  [[noreturn]] void fail_option(const std::string& option, const std::string& value,
                                const std::string& why = {}) const {
    fail_op(option + " " + value + " not supported" + (why.empty() ? "" : " (" + why + ")"));
  }

  // ---- loading ------------------------------------------------------------------------
  void read_file() {
    std::error_code ec;
    if (std::filesystem::is_directory(path_, ec)) fail("cannot open: is a directory");
    std::ifstream file(path_, std::ios::binary);
    if (!file) fail(std::string("cannot open: ") + std::strerror(errno));
    bytes_.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    if (file.bad()) fail(std::string("cannot read: ") + std::strerror(errno));
  }

  // Nothing is read from the flatbuffer before the verifier has accepted it: every
  // offset, vector length and string then lies inside the buffer. Indices between
  // tables (tensor, buffer, opcode) are checked where they are used.
  void verify(std::span<const uint8_t> bytes) {
    if (bytes.size() < 8 || !fb::ModelBufferHasIdentifier(bytes.data()))
      fail("not a .tflite model (no 'TFL3' file identifier)");
    if (bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE)
      fail("file of " + std::to_string(bytes.size()) + " bytes is too large for a flatbuffer");
    flatbuffers::Verifier verifier(bytes.data(), bytes.size());
    if (!fb::VerifyModelBuffer(verifier))
      fail("corrupted .tflite model (flatbuffer verification failed)");
    model_ = fb::GetModel(bytes.data());
    if (model_->version() != kSchemaVersion)
      fail("schema version " + std::to_string(model_->version()) + " not supported (expected " +
           std::to_string(kSchemaVersion) + ")");
    if (!model_->subgraphs() || model_->subgraphs()->size() == 0) fail("the model has no subgraphs");
    subgraph_ = model_->subgraphs()->Get(0);
  }

  // ---- operator codes -----------------------------------------------------------------
  struct OpCode {
    int32_t builtin = 0;
    std::string custom;  // custom_code of a CUSTOM op
  };

  OpCode op_code(uint32_t index) const {
    const fb::Operator* op = subgraph_->operators()->Get(index);
    const auto* codes = model_->operator_codes();
    const uint32_t code_index = op->opcode_index();
    if (!codes || code_index >= codes->size())
      fail("operator " + std::to_string(index) + ": opcode_index " + std::to_string(code_index) +
           " out of range (" + std::to_string(codes ? codes->size() : 0) + " operator codes)");
    const fb::OperatorCode* code = codes->Get(code_index);
    OpCode result;
    // Files from before the int32 builtin_code field leave it 0 (ADD); newer files set
    // deprecated_builtin_code to PLACEHOLDER_FOR_GREATER_OP_CODES (127) for codes > 127.
    result.builtin = std::max<int32_t>(code->deprecated_builtin_code(),
                                       static_cast<int32_t>(code->builtin_code()));
    if (result.builtin == static_cast<int32_t>(BuiltinOperator::CUSTOM))
      result.custom = code->custom_code() ? code->custom_code()->str() : "";
    return result;
  }



  // Custom ops first (they can never be imported), then unsupported builtins; both before
  // any tensor is read, so the message names the op rather than one of its tensors.
  void check_operators() const {
    const auto* operators = subgraph_->operators();
    const uint32_t count = operators ? operators->size() : 0;
    std::vector<OpCode> codes;
    for (uint32_t i = 0; i < count; ++i) {
      codes.push_back(op_code(i));
      if (codes.back().builtin == static_cast<int32_t>(BuiltinOperator::CUSTOM))
        fail("operator " + std::to_string(i) + ": custom op '" + codes.back().custom +
             "' not supported");
    }
    for (uint32_t i = 0; i < count; ++i) {
      if (!is_supported(codes[i].builtin))
        fail("operator " + std::to_string(i) + ": op code " + std::to_string(codes[i].builtin) +
             " (" + op_code_name(codes[i].builtin) + ") not supported");
    }
  }

  // ---- tensors ------------------------------------------------------------------------
  void check_tensor_index(int32_t index, const std::string& role) const {
    const int32_t count = static_cast<int32_t>(ids_.size());
    if (index < 0 || index >= count) {
      const std::string what = role + " tensor index " + std::to_string(index) + " out of range (" +
                               std::to_string(count) + " tensors)";
      if (op_index_ >= 0) fail_op(what);
      fail(what);
    }
  }

  // The ir id of TFLite tensor `index`, importing it on first use.
  int tensor(int32_t index) {
    if (ids_[index] >= 0) return ids_[index];
    const fb::Tensor* t = subgraph_->tensors()->Get(index);
    ir::Tensor result;
    result.name = t->name() && t->name()->size() ? t->name()->str() : "tensor " + std::to_string(index);
    const std::string label = "tensor '" + result.name + "'";

    auto dtype = dtype_from_tflite(t->type());
    if (!dtype)
      fail(label + " has type " + enum_string(t->type(), fb::EnumNameTensorType(t->type())) +
           ", not supported");
    result.dtype = *dtype;

    if (t->shape()) {
      for (int32_t d : *t->shape()) {
        if (d < 0) fail(label + " has a dynamic shape " + shape_of(t->shape()) + ", not supported");
        result.shape.push_back(d);
      }
    }
    // shape_signature marks resizable dims with -1; `shape` holds the size the file was
    // written for, which TFLite Micro runs with. A resizable batch (dim 0, how Keras
    // exports every model) takes that size; any other resizable dim is refused, as its
    // size in `shape` is only a placeholder.
    if (const auto* signature = t->shape_signature()) {
      for (uint32_t i = 1; i < signature->size(); ++i)
        if (signature->Get(i) < 0)
          fail(label + " has a dynamic dimension " + std::to_string(i) + " (shape_signature " +
               shape_of(signature) + "), not supported");
    }
    int64_t elements = 1;
    for (int64_t d : result.shape) {
      elements *= d;
      if (elements * dtype_size(result.dtype) > kMaxTensorBytes)
        fail(label + " of shape " + ints_string(result.shape) + " is too large");
    }
    if (t->sparsity()) fail(label + " is sparse, not supported");
    result.quant = quantization(t, result, label);
    if ((result.dtype == DType::kInt8 || result.dtype == DType::kInt16) && result.quant.empty() && !raw_only_[index])
      fail(label + " (" + dtype_name(result.dtype) + ") has no quantization parameters");

    const uint32_t buffer_index = t->buffer();
    const auto* buffers = model_->buffers();
    if (buffer_index != 0 && (!buffers || buffer_index >= buffers->size()))
      fail(label + " buffer index " + std::to_string(buffer_index) + " out of range (" +
           std::to_string(buffers ? buffers->size() : 0) + " buffers)");
    const fb::Buffer* buffer = buffers && buffer_index < buffers->size() ? buffers->Get(buffer_index) : nullptr;
    const std::span<const uint8_t> data = buffer_data(buffer, buffer_index, label);
    const bool has_data = !data.empty();
    const int64_t bytes = elements * dtype_size(result.dtype);

    if (t->is_variable() && !is_graph_input_[index]) {
      // Mote programs keep no state between runs: a variable (LSTM state) is a constant
      // holding its initial value as TFLite Micro resets it before the first run (bytes
      // of zero; the zero point for int8), whatever its buffer holds.
      result.is_constant = true;
      const uint8_t fill = result.dtype == DType::kInt8 && !result.quant.empty()
                               ? static_cast<uint8_t>(static_cast<int8_t>(result.quant.zero_points[0]))
                               : 0;
      result.data.assign(static_cast<size_t>(bytes), fill);
    } else if (has_data && !is_graph_input_[index]) {
      if (static_cast<int64_t>(data.size()) != bytes)
        fail(label + " of shape " + ints_string(result.shape) + " (" + dtype_name(result.dtype) +
             ") has " + std::to_string(data.size()) + " bytes of data, expected " + std::to_string(bytes));
      result.is_constant = true;
      result.data.assign(data.begin(), data.end());
    }
    // Empty tensors only as constant index data (an empty axis list, say); anything else
    // would be an empty activation or weight, which no kernel takes.
    if (elements == 0) {
      const bool index_type = result.dtype == DType::kInt32 || result.dtype == DType::kInt64;
      if (!index_type || is_graph_input_[index])
        fail(label + " of shape " + ints_string(result.shape) + " has no elements");
      result.is_constant = true;
    }
    ids_[index] = graph_.add_tensor(std::move(result));
    return ids_[index];
  }

  static std::string shape_of(const flatbuffers::Vector<int32_t>* v) {
    std::vector<int64_t> values(v->begin(), v->end());
    return ints_string(values);
  }

  // A buffer's bytes: its `data` vector, or, when the converter stored the buffers after
  // the flatbuffer (offset > 1, as TFLite writes models over 2 GB and any model with
  // buffer offsets on), `size` bytes at `offset` from the file's start. Empty when it has
  // none.
  std::span<const uint8_t> buffer_data(const fb::Buffer* buffer, uint32_t index, const std::string& label) const {
    if (!buffer) return {};
    if (buffer->offset() > 1) {
      const uint64_t offset = buffer->offset(), size = buffer->size();
      if (offset > file_.size() || size > file_.size() - offset)
        fail(label + " buffer " + std::to_string(index) + " of " + std::to_string(size) + " bytes at offset " +
             std::to_string(offset) + " lies outside the file of " + std::to_string(file_.size()) + " bytes");
      return file_.subspan(static_cast<size_t>(offset), static_cast<size_t>(size));
    }
    if (!buffer->data()) return {};
    return {buffer->data()->data(), buffer->data()->size()};
  }

  // real = scale * (q - zero_point); one scale per tensor, or one per slice along
  // quantized_dimension. min/max alone (no scale) mean "not quantized", as in TFLite.
  ir::QuantParams quantization(const fb::Tensor* t, const ir::Tensor& tensor,
                               const std::string& label) const {
    ir::QuantParams q;
    const fb::QuantizationParameters* src = t->quantization();
    if (!src || !src->scale() || src->scale()->size() == 0) return q;
    if (src->details_type() != fb::QuantizationDetails::NONE)
      fail(label + " uses custom quantization, not supported");
    const auto* scales = src->scale();
    const auto* zero_points = src->zero_point();
    if (!zero_points || zero_points->size() != scales->size())
      fail(label + " has " + std::to_string(scales->size()) + " quantization scales but " +
           std::to_string(zero_points ? zero_points->size() : 0) + " zero points");
    for (float s : *scales) {
      if (!std::isfinite(s) || s < 0.0f)
        fail(label + " has quantization scale " + std::to_string(s) + ", expected a finite value >= 0");
      q.scales.push_back(s);
    }
    for (uint32_t i = 0; i < zero_points->size(); ++i) {
      const int64_t zp = long_at(zero_points, i);
      if (zp < std::numeric_limits<int32_t>::min() || zp > std::numeric_limits<int32_t>::max())
        fail(label + " has zero point " + std::to_string(zp) + ", out of int32 range");
      q.zero_points.push_back(static_cast<int32_t>(zp));
    }
    if (q.scales.size() > 1) {
      int32_t axis = src->quantized_dimension();
      const int64_t rank = static_cast<int64_t>(tensor.shape.size());
      // A 1-D per-channel tensor (a bias) whose quantized_dimension was copied from its
      // 4-D filter (3 for a depthwise filter [1, H, W, C]; TensorFlow Lite Micro's own
      // person_detect.tflite has it): its one axis, as TensorFlow Lite Micro reads it.
      if (rank == 1 && (axis < 0 || axis >= rank) && tensor.shape[0] == static_cast<int64_t>(q.scales.size()))
        axis = 0;
      if (axis < 0 || axis >= rank)
        fail(label + " has quantized_dimension " + std::to_string(axis) + " out of range for shape " +
             ints_string(tensor.shape));
      if (tensor.shape[axis] != static_cast<int64_t>(q.scales.size()))
        fail(label + " of shape " + ints_string(tensor.shape) + " has " +
             std::to_string(q.scales.size()) + " quantization scales, expected " +
             std::to_string(tensor.shape[axis]) + " (dim " + std::to_string(axis) + ")");
      q.axis = axis;
    }
    return q;
  }

  // ---- operator helpers ---------------------------------------------------------------
  const fb::Operator* op_ = nullptr;

  int input_count() const { return op_->inputs() ? static_cast<int>(op_->inputs()->size()) : 0; }

  void expect_inputs(int min, int max) const {
    const int n = input_count();
    if (n < min || n > max)
      fail_op("has " + std::to_string(n) + " inputs, expected " +
              (min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max)));
    const int outputs = op_->outputs() ? static_cast<int>(op_->outputs()->size()) : 0;
    if (outputs != 1) fail_op("has " + std::to_string(outputs) + " outputs, expected 1");
  }

  // Input k: its ir id, or kNoTensor when absent, -1 (an omitted optional input) or an
  // empty tensor of a value type (converters write a bias or LSTM weight left out as a
  // tensor of shape [0]; TensorFlow Lite Micro reads it as absent). A tensor that is
  // neither constant, graph input nor written by an earlier operator is refused: TFLite
  // stores operators in execution order.
  int input(int k) {
    if (k >= input_count()) return ir::kNoTensor;
    const int32_t index = op_->inputs()->Get(k);
    if (index == -1) return ir::kNoTensor;
    check_tensor_index(index, "input " + std::to_string(k));
    if (is_empty_value(subgraph_->tensors()->Get(static_cast<uint32_t>(index)))) return ir::kNoTensor;
    const int id = tensor(index);
    const ir::Tensor& t = graph_.tensors[id];
    if (!t.is_constant && !is_graph_input_[index] && writer_[index] < 0)
      fail_op("input " + std::to_string(k) + " '" + t.name + "' is read before any operator writes it");
    return id;
  }

  // A float or quantized tensor with a 0 in its shape (index tensors may be empty: an
  // empty axis list).
  static bool is_empty_value(const fb::Tensor* t) {
    if (!t->shape()) return false;
    const bool has_zero = std::find(t->shape()->begin(), t->shape()->end(), 0) != t->shape()->end();
    const fb::TensorType type = t->type();
    return has_zero && type != fb::TensorType::INT32 && type != fb::TensorType::INT64;
  }

  int required_input(int k, const std::string& role) {
    const int id = input(k);
    if (id == ir::kNoTensor) fail_op(role + " (input " + std::to_string(k) + ") is missing");
    return id;
  }

  int constant_input(int k, const std::string& role) {
    const int id = required_input(k, role);
    if (!graph_.tensors[id].is_constant)
      fail_op(role + " '" + graph_.tensors[id].name + "' is not constant, not supported");
    return id;
  }

  int output(int k) {
    const int32_t index = op_->outputs()->Get(k);
    check_tensor_index(index, "output " + std::to_string(k));
    if (writer_[index] >= 0)
      fail_op("output '" + graph_.tensors[tensor(index)].name + "' is already written by operator " +
              std::to_string(writer_[index]));
    const int id = tensor(index);
    if (graph_.tensors[id].is_constant || is_graph_input_[index])
      fail_op("output '" + graph_.tensors[id].name + "' is a constant or graph input");
    writer_[index] = op_index_;
    return id;
  }

  const ir::Tensor& T(int id) const { return graph_.tensors[id]; }

  void expect_rank(int id, const std::string& role, size_t rank) const {
    if (T(id).shape.size() != rank)
      fail_op(role + " '" + T(id).name + "' has shape " + ints_string(T(id).shape) + ", expected rank " +
              std::to_string(rank));
  }

  // Activations are never empty (tensor() refuses them), but an empty int32 constant is
  // accepted as index data: spatial ops check, so no channel count divides by zero.
  void expect_rank_nonempty(int id, const std::string& role, size_t rank) const {
    expect_rank(id, role, rank);
    if (T(id).elements() == 0) fail_op(role + " '" + T(id).name + "' has no elements");
  }

  void expect_shape(int id, const std::string& role, const ir::Shape& expected) const {
    if (T(id).shape != expected)
      fail_op(role + " '" + T(id).name + "' has shape " + ints_string(T(id).shape) + ", expected " +
              ints_string(expected));
  }

  // Reads a constant int32/int64 tensor (axes, paddings, slice bounds).
  std::vector<int64_t> read_ints(int id, const std::string& role) const {
    const ir::Tensor& t = T(id);
    std::vector<int64_t> values(static_cast<size_t>(t.elements()));
    if (t.dtype == DType::kInt32) {
      for (size_t i = 0; i < values.size(); ++i) {
        int32_t v;
        std::memcpy(&v, t.data.data() + 4 * i, 4);
        values[i] = v;
      }
    } else if (t.dtype == DType::kInt64) {
      std::memcpy(values.data(), t.data.data(), 8 * values.size());
    } else {
      fail_op(role + " '" + t.name + "' has type " + dtype_name(t.dtype) + ", expected int32 or int64");
    }
    return values;
  }

  // The real value of a one-element constant (PADV2's constant_values).
  double read_real_scalar(int id, const std::string& role) const {
    const ir::Tensor& t = T(id);
    if (t.elements() != 1) fail_op(role + " '" + t.name + "' must hold one value");
    double q = 0.0;
    const uint8_t* p = t.data.data();
    switch (t.dtype) {
      case DType::kFloat32: { float v; std::memcpy(&v, p, 4); return v; }
      case DType::kInt8: q = static_cast<int8_t>(p[0]); break;
      case DType::kUInt8: q = p[0]; break;
      case DType::kBool: q = p[0] != 0; break;
      case DType::kInt16: { int16_t v; std::memcpy(&v, p, 2); q = v; break; }
      case DType::kInt32: { int32_t v; std::memcpy(&v, p, 4); q = v; break; }
      case DType::kInt64: { int64_t v; std::memcpy(&v, p, 8); q = static_cast<double>(v); break; }
    }
    if (t.quant.empty()) return q;
    return static_cast<double>(t.quant.scales[0]) * (q - t.quant.zero_points[0]);
  }

  // The op's options table of type Options, or nullptr when the file has none (callers
  // then use the schema defaults, or refuse when `required`). Options of another type
  // are refused.
  template <typename Options>
  const Options* options(bool required) const {
    const fb::BuiltinOptions type = op_->builtin_options_type();
    if (type == fb::BuiltinOptions::NONE) {
      if (required) fail_op("builtin options missing");
      return nullptr;
    }
    constexpr fb::BuiltinOptions expected = fb::BuiltinOptionsTraits<Options>::enum_value;
    if (type != expected || !op_->builtin_options()) {
      const char* name = fb::EnumNameBuiltinOptions(type);
      fail_op("builtin options of type " + std::to_string(static_cast<int>(type)) +
              (name && *name ? std::string(" (") + name + ")" : std::string()) + ", expected " +
              fb::EnumNameBuiltinOptions(expected));
    }
    return static_cast<const Options*>(op_->builtin_options());
  }

  // act_min/act_max: the real-valued clamp of a fused activation (absent: no bound).
  void set_activation(ir::Node& node, fb::ActivationFunctionType act) const {
    switch (act) {
      case fb::ActivationFunctionType::NONE:
        return;
      case fb::ActivationFunctionType::RELU:
        node.attrs["act_min"] = 0.0;
        return;
      case fb::ActivationFunctionType::RELU_N1_TO_1:
        node.attrs["act_min"] = -1.0;
        node.attrs["act_max"] = 1.0;
        return;
      case fb::ActivationFunctionType::RELU6:
        node.attrs["act_min"] = 0.0;
        node.attrs["act_max"] = 6.0;
        return;
      default:
        fail_option("fused activation", enum_string(act, fb::EnumNameActivationFunctionType(act)));
    }
  }

  void check_padding(fb::Padding padding) const {
    if (padding != fb::Padding::SAME && padding != fb::Padding::VALID)
      fail_option("padding", std::to_string(static_cast<int>(padding)));
  }

  void check_positive(const std::string& option, int64_t value) const {
    if (value < 1) fail_option(option, std::to_string(value), "must be >= 1");
  }

  // quantized_bias_type (conv, fully connected, transpose conv) names the bias and
  // accumulator type; unset (FLOAT32) or equal to the bias tensor's type is accepted.
  void check_bias_type(fb::TensorType type, int bias) const {
    if (type == fb::TensorType::FLOAT32 || bias == ir::kNoTensor) return;
    const auto dtype = dtype_from_tflite(type);
    if (!dtype || *dtype != T(bias).dtype)
      fail_option("quantized_bias_type", enum_string(type, fb::EnumNameTensorType(type)),
                  std::string("the bias tensor is ") + dtype_name(T(bias).dtype));
  }

  // Without a bias tensor, quantized_bias_type INT32 still picks TFLite's int32
  // accumulator for 16x8 conv/fully connected (mote_ops.md: quantized_bias_type).
  static void mark_int32_accumulator(ir::Node& node, fb::TensorType type, int bias) {
    if (bias == ir::kNoTensor && type == fb::TensorType::INT32) node.attrs["quantized_bias_type"] = std::string("int32");
  }

  ir::Node& emit(ir::Op op, std::vector<int> inputs, std::vector<int> outputs) {
    while (!inputs.empty() && inputs.back() == ir::kNoTensor) inputs.pop_back();
    ir::Node node;
    node.name = T(outputs.at(0)).name;
    node.op = op;
    node.inputs = std::move(inputs);
    node.outputs = std::move(outputs);
    graph_.nodes.push_back(std::move(node));
    return graph_.nodes.back();
  }

  // ---- operators ----------------------------------------------------------------------
  void convert_operator(uint32_t index) {
    op_ = subgraph_->operators()->Get(index);
    op_index_ = static_cast<int>(index);
    const OpCode code = op_code(index);
    op_name_ = op_code_name(code.builtin);
    if (!op_->outputs() || op_->outputs()->size() == 0) fail_op("has no outputs");
    switch (static_cast<BuiltinOperator>(code.builtin)) {
      case BuiltinOperator::CONV_2D: return conv2d();
      case BuiltinOperator::DEPTHWISE_CONV_2D: return depthwise_conv2d();
      case BuiltinOperator::FULLY_CONNECTED: return fully_connected();
      case BuiltinOperator::ADD: return binary(ir::Op::kAdd);
      case BuiltinOperator::SUB: return binary(ir::Op::kSub);
      case BuiltinOperator::MUL: return binary(ir::Op::kMul);
      case BuiltinOperator::AVERAGE_POOL_2D: return pool(ir::Op::kAvgPool2d);
      case BuiltinOperator::MAX_POOL_2D: return pool(ir::Op::kMaxPool2d);
      case BuiltinOperator::SOFTMAX: return softmax();
      case BuiltinOperator::LOGISTIC: return unary(ir::Op::kSigmoid);
      case BuiltinOperator::TANH: return unary(ir::Op::kTanh);
      case BuiltinOperator::RESHAPE: return reshape(1, 2);
      case BuiltinOperator::SQUEEZE: return reshape(1, 1);
      case BuiltinOperator::QUANTIZE: return quantize();
      case BuiltinOperator::DEQUANTIZE: return dequantize();
      case BuiltinOperator::MEAN: return mean();
      case BuiltinOperator::PAD: return pad(false);
      case BuiltinOperator::PADV2: return pad(true);
      case BuiltinOperator::CONCATENATION: return concat();
      case BuiltinOperator::STRIDED_SLICE: return strided_slice();
      case BuiltinOperator::TRANSPOSE: return transpose();
      case BuiltinOperator::TRANSPOSE_CONV: return transpose_conv();
      case BuiltinOperator::LEAKY_RELU: return leaky_relu();
      case BuiltinOperator::UNIDIRECTIONAL_SEQUENCE_LSTM: return lstm();
      case BuiltinOperator::ABS: return math_unary("abs");
      case BuiltinOperator::NEG: return math_unary("neg");
      case BuiltinOperator::SIN: return math_unary("sin");
      case BuiltinOperator::COS: return math_unary("cos");
      case BuiltinOperator::LOG: return math_unary("log");
      case BuiltinOperator::SQRT: return math_unary("sqrt");
      case BuiltinOperator::RSQRT: return math_unary("rsqrt");
      case BuiltinOperator::SQUARE: return math_unary("square");
      case BuiltinOperator::EXP: return math_unary("exp");
      case BuiltinOperator::FLOOR: return math_unary("floor");
      case BuiltinOperator::CEIL: return math_unary("ceil");
      case BuiltinOperator::ROUND: return math_unary("round");
      case BuiltinOperator::LOGICAL_NOT: return math_unary("logical_not");
      case BuiltinOperator::MAXIMUM: return math_binary(ir::Op::kMaximum, "");
      case BuiltinOperator::MINIMUM: return math_binary(ir::Op::kMinimum, "");
      case BuiltinOperator::SQUARED_DIFFERENCE: return math_binary(ir::Op::kSquaredDifference, "");
      case BuiltinOperator::FLOOR_DIV: return math_binary(ir::Op::kFloorDiv, "");
      case BuiltinOperator::FLOOR_MOD: return math_binary(ir::Op::kFloorMod, "");
      case BuiltinOperator::EQUAL: return math_binary(ir::Op::kCompare, "equal");
      case BuiltinOperator::NOT_EQUAL: return math_binary(ir::Op::kCompare, "not_equal");
      case BuiltinOperator::LESS: return math_binary(ir::Op::kCompare, "less");
      case BuiltinOperator::LESS_EQUAL: return math_binary(ir::Op::kCompare, "less_equal");
      case BuiltinOperator::GREATER: return math_binary(ir::Op::kCompare, "greater");
      case BuiltinOperator::GREATER_EQUAL: return math_binary(ir::Op::kCompare, "greater_equal");
      case BuiltinOperator::LOGICAL_AND: return math_binary(ir::Op::kLogical, "and");
      case BuiltinOperator::LOGICAL_OR: return math_binary(ir::Op::kLogical, "or");
      case BuiltinOperator::SELECT_V2: return select_v2();
      case BuiltinOperator::CAST: return cast();
      default: fail_op("op not supported");  // check_operators() refused it already
    }
  }

  // input [N,H,W,C], filter [O,KH,KW,C/group] (OHWI), bias [O].
  void conv2d() {
    expect_inputs(2, 3);
    const auto* o = options<fb::Conv2DOptions>(true);
    const int x = required_input(0, "input");
    const int w = constant_input(1, "filter");
    const int b = input(2);
    const int y = output(0);
    expect_rank_nonempty(x, "input", 4);
    expect_rank(w, "filter", 4);
    check_padding(o->padding());
    check_positive("stride_h", o->stride_h());
    check_positive("stride_w", o->stride_w());
    check_positive("dilation_h_factor", o->dilation_h_factor());
    check_positive("dilation_w_factor", o->dilation_w_factor());
    check_bias_type(o->quantized_bias_type(), b);

    const ir::Shape& in = T(x).shape;
    const ir::Shape& filter = T(w).shape;
    const int64_t channels = in[3], out_channels = filter[0];
    if (filter[3] < 1 || channels % filter[3] != 0 || out_channels % (channels / filter[3]) != 0)
      fail_op("filter '" + T(w).name + "' of shape " + ints_string(filter) +
              " does not match input channels " + std::to_string(channels));
    const int64_t group = channels / filter[3];
    const Window wh = window(o->padding(), in[1], filter[1], o->stride_h(), o->dilation_h_factor());
    const Window ww = window(o->padding(), in[2], filter[2], o->stride_w(), o->dilation_w_factor());
    expect_shape(y, "output", {in[0], wh.out, ww.out, out_channels});
    expect_bias(b, out_channels);

    ir::Node& n = emit(ir::Op::kConv2d, {x, w, b}, {y});
    mark_int32_accumulator(n, o->quantized_bias_type(), b);
    n.attrs["strides"] = std::vector<int64_t>{o->stride_h(), o->stride_w()};
    n.attrs["dilations"] = std::vector<int64_t>{o->dilation_h_factor(), o->dilation_w_factor()};
    n.attrs["pads"] = std::vector<int64_t>{wh.pad_before, ww.pad_before, wh.pad_after, ww.pad_after};
    n.attrs["group"] = group;
    set_activation(n, o->fused_activation_function());
  }

  // input [N,H,W,C], filter [1,KH,KW,C*M], bias [C*M]. The depth_multiplier option is
  // redundant and 0 or stale in some files: M comes from the shapes.
  void depthwise_conv2d() {
    expect_inputs(2, 3);
    const auto* o = options<fb::DepthwiseConv2DOptions>(true);
    const int x = required_input(0, "input");
    const int w = constant_input(1, "filter");
    const int b = input(2);
    const int y = output(0);
    expect_rank_nonempty(x, "input", 4);
    expect_rank(w, "filter", 4);
    check_padding(o->padding());
    check_positive("stride_h", o->stride_h());
    check_positive("stride_w", o->stride_w());
    check_positive("dilation_h_factor", o->dilation_h_factor());
    check_positive("dilation_w_factor", o->dilation_w_factor());

    const ir::Shape& in = T(x).shape;
    const ir::Shape& filter = T(w).shape;
    const int64_t channels = in[3], out_channels = filter[3];
    if (filter[0] != 1 || out_channels % channels != 0)
      fail_op("filter '" + T(w).name + "' has shape " + ints_string(filter) + ", expected [1,KH,KW," +
              std::to_string(channels) + "*M]");
    const Window wh = window(o->padding(), in[1], filter[1], o->stride_h(), o->dilation_h_factor());
    const Window ww = window(o->padding(), in[2], filter[2], o->stride_w(), o->dilation_w_factor());
    expect_shape(y, "output", {in[0], wh.out, ww.out, out_channels});
    expect_bias(b, out_channels);

    ir::Node& n = emit(ir::Op::kDepthwiseConv2d, {x, w, b}, {y});
    n.attrs["strides"] = std::vector<int64_t>{o->stride_h(), o->stride_w()};
    n.attrs["dilations"] = std::vector<int64_t>{o->dilation_h_factor(), o->dilation_w_factor()};
    n.attrs["pads"] = std::vector<int64_t>{wh.pad_before, ww.pad_before, wh.pad_after, ww.pad_after};
    n.attrs["depth_multiplier"] = out_channels / channels;
    set_activation(n, o->fused_activation_function());
  }

  Window window(fb::Padding padding, int64_t in, int64_t kernel, int64_t stride, int64_t dilation) const {
    const Window w = tflite_window(padding, in, kernel, stride, dilation);
    if (kernel < 1 || w.out < 1)
      fail_op("kernel of size " + std::to_string(kernel) + " (dilation " + std::to_string(dilation) +
              ") does not fit an input of size " + std::to_string(in));
    return w;
  }

  void expect_bias(int b, int64_t channels) const {
    if (b != ir::kNoTensor && T(b).shape != ir::Shape{channels})
      fail_op("bias '" + T(b).name + "' has shape " + ints_string(T(b).shape) + ", expected [" +
              std::to_string(channels) + "]");
  }

  // input [..., K] (TFLite flattens any input to [elements / K, K]: a reshape is inserted
  // when the last dim is not K), weights [N,K], bias [N] -> [..., N].
  void fully_connected() {
    expect_inputs(2, 3);
    const auto* o = options<fb::FullyConnectedOptions>(false);
    int x = required_input(0, "input");
    const int w = constant_input(1, "weights");
    const int b = input(2);
    const int y = output(0);
    expect_rank(w, "weights", 2);
    const auto format = o ? o->weights_format() : fb::FullyConnectedOptionsWeightsFormat::DEFAULT;
    if (format != fb::FullyConnectedOptionsWeightsFormat::DEFAULT)
      fail_option("weights_format", enum_string(format, fb::EnumNameFullyConnectedOptionsWeightsFormat(format)));
    if (o) check_bias_type(o->quantized_bias_type(), b);
    const int64_t n = T(w).shape[0], k = T(w).shape[1];
    const int64_t elements = T(x).elements();
    if (k < 1 || elements % k != 0)
      fail_op("input '" + T(x).name + "' of shape " + ints_string(T(x).shape) +
              " does not flatten to rows of the weights' " + std::to_string(k) + " columns");
    const int64_t batches = elements / k;
    if (T(y).shape.empty() || T(y).shape.back() != n || T(y).elements() != batches * n)
      fail_op("output '" + T(y).name + "' has shape " + ints_string(T(y).shape) + ", expected " +
              std::to_string(batches * n) + " elements with last dim " + std::to_string(n));
    expect_bias(b, n);
    if (T(x).shape.empty() || T(x).shape.back() != k) {
      ir::Tensor flat = T(x);
      flat.name += "/flattened";
      flat.shape = {batches, k};
      flat.is_constant = false;
      flat.data.clear();
      const int from = x;
      x = graph_.add_tensor(std::move(flat));
      emit(ir::Op::kReshape, {from}, {x});
    }
    ir::Node& node = emit(ir::Op::kFullyConnected, {x, w, b}, {y});
    if (o) mark_int32_accumulator(node, o->quantized_bias_type(), b);
    set_activation(node, o ? o->fused_activation_function() : fb::ActivationFunctionType::NONE);
  }

  // add, sub, mul: numpy broadcast. pot_scale_int16 (add, sub; default true) selects
  // TFLite's int16 arithmetic: true = power-of-two scales, false = the general rescaling.
  void binary(ir::Op op) {
    expect_inputs(2, 2);
    const int a = required_input(0, "input 0");
    const int b = required_input(1, "input 1");
    const int y = output(0);
    auto act = fb::ActivationFunctionType::NONE;
    std::optional<bool> pot_scale_int16;
    if (op == ir::Op::kAdd) {
      const auto* o = options<fb::AddOptions>(false);
      act = o ? o->fused_activation_function() : act;
      pot_scale_int16 = o ? o->pot_scale_int16() : true;
    } else if (op == ir::Op::kSub) {
      const auto* o = options<fb::SubOptions>(false);
      act = o ? o->fused_activation_function() : act;
      pot_scale_int16 = o ? o->pot_scale_int16() : true;
    } else {
      const auto* o = options<fb::MulOptions>(false);
      act = o ? o->fused_activation_function() : act;
    }
    const auto shape = broadcast_shape(T(a).shape, T(b).shape);
    if (!shape)
      fail_op("inputs of shapes " + ints_string(T(a).shape) + " and " + ints_string(T(b).shape) +
              " do not broadcast");
    expect_shape(y, "output", *shape);
    ir::Node& n = emit(op, {a, b}, {y});
    set_activation(n, act);
    if (pot_scale_int16) n.attrs["pot_scale_int16"] = int64_t{*pot_scale_int16};
  }

  void pool(ir::Op op) {
    expect_inputs(1, 1);
    const auto* o = options<fb::Pool2DOptions>(true);
    const int x = required_input(0, "input");
    const int y = output(0);
    expect_rank_nonempty(x, "input", 4);
    check_padding(o->padding());
    check_positive("stride_h", o->stride_h());
    check_positive("stride_w", o->stride_w());
    check_positive("filter_height", o->filter_height());
    check_positive("filter_width", o->filter_width());
    const ir::Shape& in = T(x).shape;
    const Window wh = window(o->padding(), in[1], o->filter_height(), o->stride_h(), 1);
    const Window ww = window(o->padding(), in[2], o->filter_width(), o->stride_w(), 1);
    expect_shape(y, "output", {in[0], wh.out, ww.out, in[3]});
    ir::Node& n = emit(op, {x}, {y});
    n.attrs["kernel"] = std::vector<int64_t>{o->filter_height(), o->filter_width()};
    n.attrs["strides"] = std::vector<int64_t>{o->stride_h(), o->stride_w()};
    n.attrs["dilations"] = std::vector<int64_t>{1, 1};
    n.attrs["pads"] = std::vector<int64_t>{wh.pad_before, ww.pad_before, wh.pad_after, ww.pad_after};
    if (op == ir::Op::kAvgPool2d) n.attrs["count_include_pad"] = int64_t{0};  // TFLite averages real cells
    set_activation(n, o->fused_activation_function());
  }

  void softmax() {
    expect_inputs(1, 1);
    const auto* o = options<fb::SoftmaxOptions>(true);
    const int x = required_input(0, "input");
    const int y = output(0);
    if (T(x).shape.empty()) fail_op("input '" + T(x).name + "' is a scalar, expected rank >= 1");
    expect_shape(y, "output", T(x).shape);
    emit(ir::Op::kSoftmax, {x}, {y}).attrs["beta"] = static_cast<double>(o->beta());
  }

  void unary(ir::Op op) {
    expect_inputs(1, 1);
    const int x = required_input(0, "input");
    const int y = output(0);
    expect_shape(y, "output", T(x).shape);
    emit(op, {x}, {y});
  }

  // RESHAPE (the new_shape input or option is redundant with the static output shape)
  // and SQUEEZE: the same bytes under a new shape.
  void reshape(int min_inputs, int max_inputs) {
    expect_inputs(min_inputs, max_inputs);
    const int x = required_input(0, "input");
    const int y = output(0);
    if (T(y).elements() != T(x).elements())
      fail_op("output '" + T(y).name + "' of shape " + ints_string(T(y).shape) + " has " +
              std::to_string(T(y).elements()) + " elements, the input " + ints_string(T(x).shape) +
              " has " + std::to_string(T(x).elements()));
    emit(ir::Op::kReshape, {x}, {y});
  }

  // TRANSPOSE: output axis i is input axis perm[i], perm a constant permutation of
  // 0..rank-1 (TFLite takes no negative entries), rank at most 6. Its options table is
  // empty. Quantized values are copied unchanged, as TensorFlow Lite Micro does.
  void transpose() {
    expect_inputs(2, 2);
    const int x = required_input(0, "input");
    const int perm_tensor = constant_input(1, "perm");
    const int y = output(0);
    const ir::Shape& in = T(x).shape;
    const size_t rank = in.size();
    if (rank > kMaxRank) fail_op("input rank " + std::to_string(rank) + " not supported (at most 6)");
    const std::vector<int64_t> perm = read_ints(perm_tensor, "perm");
    if (perm.size() != rank)
      fail_op("perm " + ints_string(perm) + " has " + std::to_string(perm.size()) +
              " entries, expected the input rank " + std::to_string(rank));
    if (!ir::is_permutation(perm, rank))
      fail_op("perm " + ints_string(perm) + " is not a permutation of 0.." + std::to_string(rank - 1));
    expect_shape(y, "output", ir::permuted(in, perm));
    emit(ir::Op::kTranspose, {x}, {y}).attrs["perm"] = perm;
  }

  // float -> int8/int16, or requantization between quantized types (int8 -> int8,
  // int16 <-> int32, ...); the output's QuantParams say how.
  void quantize() {
    expect_inputs(1, 1);
    const int x = required_input(0, "input");
    const int y = output(0);
    expect_shape(y, "output", T(x).shape);
    if (T(y).quant.empty()) fail_op("output '" + T(y).name + "' has no quantization parameters");
    if (T(x).dtype != DType::kFloat32 && T(x).quant.empty())
      fail_op("input '" + T(x).name + "' has no quantization parameters");
    emit(ir::Op::kQuantize, {x}, {y});
  }

  void dequantize() {
    expect_inputs(1, 1);
    const int x = required_input(0, "input");
    const int y = output(0);
    expect_shape(y, "output", T(x).shape);
    if (T(x).quant.empty()) fail_op("input '" + T(x).name + "' has no quantization parameters");
    if (T(y).dtype != DType::kFloat32)
      fail_op("output '" + T(y).name + "' has type " + dtype_name(T(y).dtype) + ", expected float32");
    emit(ir::Op::kDequantize, {x}, {y});
  }

  void mean() {
    expect_inputs(2, 2);
    const auto* o = options<fb::ReducerOptions>(false);
    const int x = required_input(0, "input");
    const int axis = constant_input(1, "axis");
    const int y = output(0);
    const int64_t rank = static_cast<int64_t>(T(x).shape.size());
    std::vector<int64_t> axes;
    for (int64_t a : read_ints(axis, "axis")) {
      if (a < -rank || a >= rank)
        fail_op("axis " + std::to_string(a) + " out of range for input of shape " + ints_string(T(x).shape));
      axes.push_back(a < 0 ? a + rank : a);
    }
    std::sort(axes.begin(), axes.end());
    axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
    const bool keep_dims = o && o->keep_dims();
    ir::Shape expected;
    for (int64_t i = 0; i < rank; ++i) {
      const bool reduced = std::binary_search(axes.begin(), axes.end(), i);
      if (!reduced) expected.push_back(T(x).shape[i]);
      else if (keep_dims) expected.push_back(1);
    }
    expect_shape(y, "output", expected);
    emit(ir::Op::kMean, {x}, {y}).attrs["axes"] = axes;
  }

  // PAD pads with the real value 0 (the output zero point when quantized); PADV2 with
  // its constant_values input, which for a quantized model TFLite requires to share the
  // output's quantization, so that its real value converts back exactly.
  void pad(bool v2) {
    expect_inputs(2, v2 ? 3 : 2);
    if (v2) options<fb::PadV2Options>(false);
    else options<fb::PadOptions>(false);
    const int x = required_input(0, "input");
    const int paddings = constant_input(1, "paddings");
    const int values = v2 ? input(2) : ir::kNoTensor;
    const int y = output(0);
    const size_t rank = T(x).shape.size();
    if (T(paddings).shape != ir::Shape{static_cast<int64_t>(rank), 2})
      fail_op("paddings '" + T(paddings).name + "' has shape " + ints_string(T(paddings).shape) +
              ", expected [" + std::to_string(rank) + ",2]");
    const std::vector<int64_t> p = read_ints(paddings, "paddings");
    std::vector<int64_t> pads(2 * rank);
    ir::Shape expected = T(x).shape;
    for (size_t i = 0; i < rank; ++i) {
      if (p[2 * i] < 0 || p[2 * i + 1] < 0)
        fail_op("paddings " + ints_string(p) + " not supported (negative)");
      pads[i] = p[2 * i];
      pads[i + rank] = p[2 * i + 1];
      expected[i] += p[2 * i] + p[2 * i + 1];
    }
    expect_shape(y, "output", expected);
    double value = 0.0;
    if (values != ir::kNoTensor) {
      if (!T(values).is_constant) fail_op("constant_values '" + T(values).name + "' is not constant, not supported");
      if (T(values).dtype != T(x).dtype)
        fail_op("constant_values '" + T(values).name + "' has type " + dtype_name(T(values).dtype) +
                ", expected " + dtype_name(T(x).dtype));
      if (!T(y).quant.empty() &&
          (T(values).quant.scales != T(y).quant.scales || T(values).quant.zero_points != T(y).quant.zero_points))
        fail_op("constant_values '" + T(values).name + "' is not quantized like the output");
      value = read_real_scalar(values, "constant_values");
    }
    ir::Node& n = emit(ir::Op::kPad, {x}, {y});
    n.attrs["pads"] = pads;
    n.attrs["mode"] = std::string("constant");
    n.attrs["value"] = value;
  }

  void concat() {
    const int count = input_count();
    if (count < 1) fail_op("has no inputs");
    expect_inputs(1, count);
    const auto* o = options<fb::ConcatenationOptions>(false);
    std::vector<int> inputs;
    for (int k = 0; k < count; ++k) inputs.push_back(required_input(k, "input " + std::to_string(k)));
    const int y = output(0);
    const ir::Shape& first = T(inputs[0]).shape;
    const int64_t rank = static_cast<int64_t>(first.size());
    int64_t axis = o ? o->axis() : 0;
    if (axis < -rank || axis >= rank)
      fail_option("axis", std::to_string(axis), "input rank " + std::to_string(rank));
    if (axis < 0) axis += rank;
    ir::Shape expected = first;
    expected[axis] = 0;
    for (int id : inputs) {
      const ir::Shape& s = T(id).shape;
      bool ok = static_cast<int64_t>(s.size()) == rank;
      for (int64_t i = 0; ok && i < rank; ++i) ok = i == axis || s[i] == first[i];
      if (!ok)
        fail_op("input '" + T(id).name + "' of shape " + ints_string(s) + " does not join " +
                ints_string(first) + " along axis " + std::to_string(axis));
      expected[axis] += s[axis];
    }
    expect_shape(y, "output", expected);
    if (o && o->fused_activation_function() != fb::ActivationFunctionType::NONE) {
      const auto act = o->fused_activation_function();
      fail_option("fused activation", enum_string(act, fb::EnumNameActivationFunctionType(act)));
    }
    emit(ir::Op::kConcat, inputs, {y}).attrs["axis"] = axis;
  }

  // TFLite's begin/end/strides and masks (begin_mask, end_mask, shrink_axis_mask,
  // offset) resolved per input axis exactly as tflite::strided_slice's
  // StridedSliceStartForAxis / StridedSliceEndForAxis do, into begin (first index),
  // strides (non-zero) and sizes (element count per input axis, 1 for a shrunk axis).
  // ellipsis_mask and new_axis_mask are refused (TFLite Micro ignores them).
  void strided_slice() {
    expect_inputs(4, 4);
    const auto* o = options<fb::StridedSliceOptions>(false);
    const int x = required_input(0, "input");
    const int begin_t = constant_input(1, "begin");
    const int end_t = constant_input(2, "end");
    const int strides_t = constant_input(3, "strides");
    const int y = output(0);
    const int32_t begin_mask = o ? o->begin_mask() : 0, end_mask = o ? o->end_mask() : 0;
    const int32_t shrink_mask = o ? o->shrink_axis_mask() : 0;
    const bool offset = o && o->offset();
    if (o && o->ellipsis_mask() != 0) fail_option("ellipsis_mask", std::to_string(o->ellipsis_mask()));
    if (o && o->new_axis_mask() != 0) fail_option("new_axis_mask", std::to_string(o->new_axis_mask()));

    const ir::Shape& in = T(x).shape;
    const int64_t rank = static_cast<int64_t>(in.size());
    if (rank > 31) fail_op("input rank " + std::to_string(rank) + " not supported");
    // TFLite's indices are int32; clamping wider ones keeps the arithmetic in range.
    auto bounded = [](std::vector<int64_t> v) {
      for (int64_t& x : v) x = std::clamp<int64_t>(x, -(int64_t{1} << 40), int64_t{1} << 40);
      return v;
    };
    const std::vector<int64_t> b = bounded(read_ints(begin_t, "begin"));
    const std::vector<int64_t> e = bounded(read_ints(end_t, "end"));
    const std::vector<int64_t> s = read_ints(strides_t, "strides");
    for (const auto* v : {&b, &e, &s})
      if (static_cast<int64_t>(v->size()) != rank)
        fail_op("begin, end and strides must hold " + std::to_string(rank) + " values each (input " +
                ints_string(in) + "), got " + std::to_string(b.size()) + ", " + std::to_string(e.size()) +
                ", " + std::to_string(s.size()));

    std::vector<int64_t> begin(rank), sizes(rank);
    ir::Shape expected;
    for (int64_t i = 0; i < rank; ++i) {
      const int64_t dim = in[i], stride = s[i];
      if (stride == 0) fail_op("strides " + ints_string(s) + " not supported (zero stride)");
      int64_t start = b[i] < 0 ? b[i] + dim : b[i];
      start = stride > 0 ? std::clamp<int64_t>(start, 0, dim) : std::clamp<int64_t>(start, -1, dim - 1);
      if (begin_mask & (1 << i)) start = stride > 0 ? 0 : dim - 1;
      int64_t stop;
      const bool shrink = shrink_mask & (1 << i);
      if (shrink) {
        if (start < 0 || start >= dim)
          fail_op("shrink_axis_mask axis " + std::to_string(i) + " index " + std::to_string(b[i]) +
                  " out of range for dim " + std::to_string(dim));
        stop = start + 1;
      } else {
        stop = offset ? e[i] + start : e[i];
        if (stop < 0) stop += dim;
        stop = stride > 0 ? std::clamp<int64_t>(stop, 0, dim) : std::clamp<int64_t>(stop, -1, dim - 1);
        if (end_mask & (1 << i)) stop = stride > 0 ? dim : -1;
      }
      const int64_t span = stop - start;  // ceil(span / stride), 0 when empty
      int64_t count = 0;
      if (stride > 0 && span > 0) count = (span + stride - 1) / stride;
      if (stride < 0 && span < 0) count = (-span - stride - 1) / -stride;
      if (count == 0) fail_op("slice selects no elements along axis " + std::to_string(i));
      begin[i] = start;
      sizes[i] = count;
      if (!shrink) expected.push_back(count);
    }
    expect_shape(y, "output", expected);
    ir::Node& n = emit(ir::Op::kStridedSlice, {x}, {y});
    n.attrs["begin"] = begin;
    n.attrs["strides"] = s;
    n.attrs["sizes"] = sizes;
  }

  // TFLite inputs: output_shape, filter [O,KH,KW,C] (OHWI), input [N,H,W,C], bias [O].
  // Mote: input, filter, bias; the output shape is the (static) output tensor's. A
  // constant output_shape is checked against it; a graph-input output_shape (the
  // SeaNet test models feed one) stays a graph input that no op reads.
  void transpose_conv() {
    expect_inputs(3, 4);
    const auto* o = options<fb::TransposeConvOptions>(true);
    const int shape_t = required_input(0, "output_shape");
    const int w = constant_input(1, "filter");
    const int x = required_input(2, "input");
    const int b = input(3);
    const int y = output(0);
    expect_rank_nonempty(x, "input", 4);
    expect_rank(w, "filter", 4);
    expect_rank(y, "output", 4);
    check_padding(o->padding());
    check_positive("stride_h", o->stride_h());
    check_positive("stride_w", o->stride_w());
    check_bias_type(o->quantized_bias_type(), b);
    if (T(shape_t).is_constant && read_ints(shape_t, "output_shape") != T(y).shape)
      fail_op("output_shape " + ints_string(read_ints(shape_t, "output_shape")) + " differs from output '" +
              T(y).name + "' of shape " + ints_string(T(y).shape));

    const ir::Shape& in = T(x).shape;
    const ir::Shape& filter = T(w).shape;
    const ir::Shape& out = T(y).shape;
    if (filter[3] != in[3])
      fail_op("filter '" + T(w).name + "' of shape " + ints_string(filter) + " does not match input channels " +
              std::to_string(in[3]));
    if (out[0] != in[0] || out[3] != filter[0])
      fail_op("output '" + T(y).name + "' has shape " + ints_string(out) + ", expected batch " +
              std::to_string(in[0]) + " and " + std::to_string(filter[0]) + " channels");
    expect_bias(b, filter[0]);
    // TFLite pads the transposed conv as the conv it inverts: padding computed with the
    // output as that conv's input. Only the leading pad matters to the kernel; the
    // trailing one follows from the output size (negative: trailing output rows/columns
    // that no input reaches, which get only the bias).
    int64_t pads[4];
    const int64_t strides[2] = {o->stride_h(), o->stride_w()};
    for (int a = 0; a < 2; ++a) {
      const int64_t k = filter[1 + a], in_size = in[1 + a], out_size = out[1 + a];
      const Window wd = window(o->padding(), out_size, k, strides[a], 1);
      pads[a] = wd.pad_before;
      pads[a + 2] = (in_size - 1) * strides[a] + k - wd.pad_before - out_size;
    }
    ir::Node& n = emit(ir::Op::kTransposeConv, {x, w, b}, {y});
    n.attrs["strides"] = std::vector<int64_t>{strides[0], strides[1]};
    n.attrs["pads"] = std::vector<int64_t>{pads[0], pads[1], pads[2], pads[3]};
    set_activation(n, o->fused_activation_function());
  }

  void leaky_relu() {
    expect_inputs(1, 1);
    const auto* o = options<fb::LeakyReluOptions>(true);
    const int x = required_input(0, "input");
    const int y = output(0);
    expect_shape(y, "output", T(x).shape);
    emit(ir::Op::kLeakyRelu, {x}, {y}).attrs["alpha"] = static_cast<double>(o->alpha());
  }

  // UNIDIRECTIONAL_SEQUENCE_LSTM: all 24 TFLite inputs in TFLite's order (kNoTensor for
  // an omitted one; files with 20 inputs predate the layer-norm weights), the options,
  // and the operator's intermediate tensors' quantization as attributes (informational:
  // TFLite Micro's integer kernel, which Mote's int8 LSTM kernel reproduces, fixes the gate scales at
  // 2^-12 / 2^-15 and never reads them).
  void lstm() {
    expect_inputs(20, 24);
    const auto* o = options<fb::UnidirectionalSequenceLSTMOptions>(false);
    std::vector<int> inputs;
    for (int k = 0; k < 24; ++k) inputs.push_back(input(k));
    for (int k : {0, 2, 3, 4, 6, 7, 8, 13, 14, 15, 18, 19})
      if (inputs[k] == ir::kNoTensor) fail_op("required input " + std::to_string(k) + " is missing");
    const int y = output(0);
    expect_rank(inputs[0], "input", 3);
    const bool time_major = o && o->time_major();
    const ir::Shape& in = T(inputs[0]).shape;
    const int64_t units = T(inputs[18]).shape.empty() ? 0 : T(inputs[18]).shape.back();
    expect_shape(y, "output", {in[0], in[1], units});
    if (o && o->diagonal_recurrent_tensors()) fail_option("diagonal_recurrent_tensors", "true");

    const auto act = o ? o->fused_activation_function() : fb::ActivationFunctionType::NONE;
    std::vector<double> scales;
    std::vector<int64_t> zero_points;
    if (op_->intermediates()) {
      for (int32_t index : *op_->intermediates()) {
        check_tensor_index(index, "intermediate");
        const fb::Tensor* t = subgraph_->tensors()->Get(index);
        const auto* q = t->quantization();
        const bool quantized = q && q->scale() && q->scale()->size() > 0 && q->zero_point() &&
                               q->zero_point()->size() > 0;
        scales.push_back(quantized ? q->scale()->Get(0) : 0.0);
        zero_points.push_back(quantized ? long_at(q->zero_point(), 0) : 0);
      }
    }
    // Trailing omitted inputs are kept: positions are the op's contract.
    ir::Node node;
    node.name = T(y).name;
    node.op = ir::Op::kLstm;
    node.inputs = inputs;
    node.outputs = {y};
    node.attrs["activation"] = lower_case(enum_string(act, fb::EnumNameActivationFunctionType(act)));
    node.attrs["cell_clip"] = static_cast<double>(o ? o->cell_clip() : 0.0f);
    node.attrs["proj_clip"] = static_cast<double>(o ? o->proj_clip() : 0.0f);
    node.attrs["time_major"] = int64_t{time_major};
    node.attrs["asymmetric_quantize_inputs"] = int64_t{o && o->asymmetric_quantize_inputs()};
    node.attrs["intermediate_scales"] = scales;
    node.attrs["intermediate_zero_points"] = zero_points;
    graph_.nodes.push_back(std::move(node));
  }

  // ABS, NEG, SIN, COS, LOG, SQRT, RSQRT, SQUARE, EXP, FLOOR, CEIL, ROUND, LOGICAL_NOT:
  // unary with the function as `fn` (the op's name in lower case). Their options tables
  // carry nothing (none is read). Lowering picks the kernel by dtype.
  void math_unary(const char* fn) {
    expect_inputs(1, 1);
    const int x = required_input(0, "input");
    const int y = output(0);
    expect_shape(y, "output", T(x).shape);
    if (T(y).dtype != T(x).dtype)
      fail_op("output '" + T(y).name + "' has type " + dtype_name(T(y).dtype) + ", expected the input's " +
              dtype_name(T(x).dtype));
    emit(ir::Op::kUnary, {x}, {y}).attrs["fn"] = std::string(fn);
  }

  // MAXIMUM, MINIMUM, SQUARED_DIFFERENCE, FLOOR_DIV, FLOOR_MOD (output of the inputs'
  // type); EQUAL ... GREATER_EQUAL as compare, LOGICAL_AND / LOGICAL_OR as logical, with
  // `fn` (bool output): two inputs of one type, numpy broadcast. Their options tables
  // carry nothing (none is read).
  void math_binary(ir::Op op, const char* fn) {
    expect_inputs(2, 2);
    const int a = required_input(0, "input 0");
    const int b = required_input(1, "input 1");
    const int y = output(0);
    if (T(b).dtype != T(a).dtype)
      fail_op("input 1 '" + T(b).name + "' has type " + dtype_name(T(b).dtype) + ", input 0 " + dtype_name(T(a).dtype));
    const auto shape = broadcast_shape(T(a).shape, T(b).shape);
    if (!shape)
      fail_op("inputs of shapes " + ints_string(T(a).shape) + " and " + ints_string(T(b).shape) + " do not broadcast");
    expect_shape(y, "output", *shape);
    const bool to_bool = op == ir::Op::kCompare || op == ir::Op::kLogical;
    const DType out = to_bool ? DType::kBool : T(a).dtype;
    if (T(y).dtype != out)
      fail_op("output '" + T(y).name + "' has type " + dtype_name(T(y).dtype) + ", expected " + dtype_name(out));
    ir::Node& n = emit(op, {a, b}, {y});
    if (*fn) n.attrs["fn"] = std::string(fn);
  }

  // SELECT_V2: condition (bool), x, y broadcast together (numpy rules) to the output.
  void select_v2() {
    expect_inputs(3, 3);
    const int condition = required_input(0, "condition");
    const int x = required_input(1, "x");
    const int y_in = required_input(2, "y");
    const int y = output(0);
    if (T(condition).dtype != DType::kBool)
      fail_op("condition '" + T(condition).name + "' has type " + dtype_name(T(condition).dtype) + ", expected bool");
    if (T(y_in).dtype != T(x).dtype || T(y).dtype != T(x).dtype)
      fail_op("x, y and the output have types " + std::string(dtype_name(T(x).dtype)) + ", " +
              dtype_name(T(y_in).dtype) + " and " + dtype_name(T(y).dtype) + ", expected one type");
    auto shape = broadcast_shape(T(x).shape, T(y_in).shape);
    if (shape) shape = broadcast_shape(T(condition).shape, *shape);
    if (!shape)
      fail_op("condition " + ints_string(T(condition).shape) + ", x " + ints_string(T(x).shape) + " and y " +
              ints_string(T(y_in).shape) + " do not broadcast");
    expect_shape(y, "output", *shape);
    emit(ir::Op::kSelect, {condition, x, y_in}, {y});
  }

  // Tensors that may be int8/int16 without quantization parameters (tensor() refuses any
  // other): those only CAST operators read or write (TFLM casts raw values), and int16
  // ones only ABS operators use besides (TFLM's ABS takes unquantized int16).
  void mark_raw_only_tensors() {
    const size_t count = ids_.size();
    std::vector<bool> by_cast(count, false), by_abs(count, false), by_other(count, false);
    const auto* operators = subgraph_->operators();
    for (uint32_t i = 0; operators && i < operators->size(); ++i) {
      const fb::Operator* op = operators->Get(i);
      const int32_t code = op_code(i).builtin;
      std::vector<bool>& by = code == static_cast<int32_t>(BuiltinOperator::CAST)  ? by_cast
                              : code == static_cast<int32_t>(BuiltinOperator::ABS) ? by_abs
                                                                                  : by_other;
      for (const auto* list : {op->inputs(), op->outputs()}) {
        for (uint32_t k = 0; list && k < list->size(); ++k) {
          const int32_t index = list->Get(k);
          if (index >= 0 && static_cast<size_t>(index) < count) by[index] = true;
        }
      }
    }
    raw_only_.assign(count, false);
    for (size_t i = 0; i < count; ++i) {
      const bool int16 = subgraph_->tensors()->Get(static_cast<uint32_t>(i))->type() == fb::TensorType::INT16;
      raw_only_[i] = !by_other[i] && (by_cast[i] || by_abs[i]) && (int16 || !by_abs[i]);
    }
  }

  // CAST: the input's values converted to the output's type (lowering checks the pair);
  // its options table (CastOptions: the same two types) is not read.
  void cast() {
    expect_inputs(1, 1);
    const int x = required_input(0, "input");
    const int y = output(0);
    expect_shape(y, "output", T(x).shape);
    emit(ir::Op::kCast, {x}, {y});
  }

  std::string path_;
  std::vector<uint8_t> bytes_;         // the file, when reading one
  std::span<const uint8_t> file_;      // the verified file (buffers past the flatbuffer)
  const fb::Model* model_ = nullptr;
  const fb::SubGraph* subgraph_ = nullptr;
  ir::Graph graph_;
  std::vector<int> ids_;              // TFLite tensor index -> ir tensor id (-1: not yet)
  std::vector<int> writer_;           // TFLite tensor index -> operator writing it (-1)
  std::vector<bool> is_graph_input_;  // TFLite tensor index -> listed in subgraph inputs
  std::vector<bool> raw_only_;        // TFLite tensor index -> may lack quantization (CAST, int16 ABS)
  int op_index_ = -1;                 // operator being converted (-1: none)
  std::string op_name_;
};

}  // namespace

ir::Graph import_tflite(const std::string& path) { return TfliteImporter(path).run_file(); }

std::vector<std::string> tflite_supported_ops() {
  std::vector<std::string> names;
  for (int32_t code = 0; code <= static_cast<int32_t>(BuiltinOperator::MAX); ++code)
    if (TfliteImporter::is_supported(code)) names.push_back(fb::EnumNameBuiltinOperator(static_cast<BuiltinOperator>(code)));
  std::sort(names.begin(), names.end());
  return names;
}

ir::Graph import_tflite_buffer(std::span<const uint8_t> bytes, const std::string& path) {
  return TfliteImporter(path).run(bytes);
}

}  // namespace mote
