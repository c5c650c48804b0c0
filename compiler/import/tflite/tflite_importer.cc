#include "import/tflite/tflite_importer.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <span>
#include <sstream>
#include <string_view>
#include <utility>

#include "common/error.h"
#include "ethos_u/ethos_u_payload.h"
#include "flatbuffers/flatbuffers.h"
#include "import/tflite/tflite_schema_generated.h"
#include "mote/program_format.h"  // kMaxRank
#include "npu/ethos_u.h"
#include "passes/passes.h"
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

using Window = TfliteWindow;

Window tflite_window(fb::Padding padding, int64_t in, int64_t kernel, int64_t stride, int64_t dilation) {
  return mote::tflite_window(padding == fb::Padding::SAME, in, kernel, stride, dilation);
}

class TfliteImporter {
 public:
  // One builtin operator run() takes: its conversion, and every Mote op that conversion
  // may emit (tflite_operators(): `mote compile --list-ops`, the README's coverage table;
  // the per-op tests check each import against it). `takes`: the dtypes the operator
  // runs in when fewer than those of its ops' kernels (COS runs on the unary op, whose
  // kernels also take int8 ABS), space-separated as coverage lines write them; each
  // must be a dtype of one of those kernels (CoverageRules.TakesOnlyWhatKernelsRun).
  struct Conversion {
    BuiltinOperator code;
    void (*convert)(TfliteImporter&);
    std::vector<ir::Op> becomes;
    const char* takes = "";
  };

  // Every builtin operator the importer takes, one line each.
  static const std::vector<Conversion>& conversions() {
    using B = BuiltinOperator;
    using Op = ir::Op;
    static const std::vector<Conversion> table = {
        {B::ABS, [](TfliteImporter& i) { i.math_unary("abs"); }, {Op::kUnary}},
        {B::ADD, [](TfliteImporter& i) { i.binary(Op::kAdd); }, {Op::kAdd}},
        {B::ADD_N, [](TfliteImporter& i) { i.add_n(); }, {Op::kAddN}},
        {B::ARG_MAX, [](TfliteImporter& i) { i.arg_min_max(Op::kArgMax); }, {Op::kArgMax}},
        {B::ARG_MIN, [](TfliteImporter& i) { i.arg_min_max(Op::kArgMin); }, {Op::kArgMin}},
        {B::ASSIGN_VARIABLE, [](TfliteImporter& i) { i.assign_variable(); }, {Op::kCopy}},
        {B::AVERAGE_POOL_2D, [](TfliteImporter& i) { i.pool(Op::kAvgPool2d); }, {Op::kAvgPool2d}},
        {B::BATCH_MATMUL, [](TfliteImporter& i) { i.batch_matmul(); }, {Op::kBatchMatMul}},
        {B::BATCH_TO_SPACE_ND, [](TfliteImporter& i) { i.batch_to_space_nd(); }, {Op::kBatchToSpace}},
        {B::BROADCAST_ARGS, [](TfliteImporter& i) { i.broadcast_args(); }, {Op::kCopy}},
        {B::BROADCAST_TO, [](TfliteImporter& i) { i.broadcast_to(); }, {Op::kReshape, Op::kGather}},
        {B::CALL_ONCE, [](TfliteImporter& i) { i.call_once(); }, {}},
        {B::CAST, [](TfliteImporter& i) { i.cast(); }, {Op::kCast}},
        {B::CEIL, [](TfliteImporter& i) { i.math_unary("ceil"); }, {Op::kUnary}, "float32"},
        {B::CONCATENATION, [](TfliteImporter& i) { i.concat(); }, {Op::kConcat}},
        {B::CONV_2D, [](TfliteImporter& i) { i.conv2d(); }, {Op::kConv2d}},
        {B::COS, [](TfliteImporter& i) { i.math_unary("cos"); }, {Op::kUnary}, "float32"},
        {B::CUMSUM, [](TfliteImporter& i) { i.cumsum(); }, {Op::kCumsum}},
        {B::DEPTHWISE_CONV_2D, [](TfliteImporter& i) { i.depthwise_conv2d(); }, {Op::kDepthwiseConv2d}},
        {B::DEPTH_TO_SPACE, [](TfliteImporter& i) { i.depth_to_space(); }, {Op::kDepthToSpace}},
        {B::DEQUANTIZE, [](TfliteImporter& i) { i.dequantize(); }, {Op::kDequantize}},
        {B::DIV, [](TfliteImporter& i) { i.binary(Op::kDiv); }, {Op::kDiv}},
        {B::DYNAMIC_UPDATE_SLICE, [](TfliteImporter& i) { i.dynamic_update_slice(); }, {Op::kDynamicUpdateSlice}},
        {B::ELU, [](TfliteImporter& i) { i.activation(Op::kElu); }, {Op::kElu}},
        {B::EMBEDDING_LOOKUP, [](TfliteImporter& i) { i.embedding_lookup(); }, {Op::kGather, Op::kDequantize}, "float32 int8 int8->float32"},
        {B::EQUAL, [](TfliteImporter& i) { i.math_binary(Op::kCompare, "equal"); }, {Op::kCompare}},
        {B::EXP, [](TfliteImporter& i) { i.math_unary("exp"); }, {Op::kUnary}, "float32"},
        {B::EXPAND_DIMS, [](TfliteImporter& i) { i.expand_dims(); }, {Op::kReshape}},
        {B::FILL, [](TfliteImporter& i) { i.fill(); }, {Op::kReshape, Op::kGather}},
        {B::FLOOR, [](TfliteImporter& i) { i.math_unary("floor"); }, {Op::kUnary}, "float32"},
        {B::FLOOR_DIV, [](TfliteImporter& i) { i.math_binary(Op::kFloorDiv, ""); }, {Op::kFloorDiv}},
        {B::FLOOR_MOD, [](TfliteImporter& i) { i.math_binary(Op::kFloorMod, ""); }, {Op::kFloorMod}},
        {B::FULLY_CONNECTED, [](TfliteImporter& i) { i.fully_connected(); }, {Op::kFullyConnected, Op::kReshape}},
        {B::GATHER, [](TfliteImporter& i) { i.gather(); }, {Op::kGather}},
        {B::GATHER_ND, [](TfliteImporter& i) { i.gather_nd(); }, {Op::kGatherNd}},
        {B::GREATER, [](TfliteImporter& i) { i.math_binary(Op::kCompare, "greater"); }, {Op::kCompare}},
        {B::GREATER_EQUAL, [](TfliteImporter& i) { i.math_binary(Op::kCompare, "greater_equal"); }, {Op::kCompare}},
        {B::HARD_SWISH, [](TfliteImporter& i) { i.activation(Op::kHardSwish); }, {Op::kHardSwish}},
        {B::IF, [](TfliteImporter& i) { i.if_op(); }, {Op::kIf, Op::kCopy}},
        {B::L2_NORMALIZATION, [](TfliteImporter& i) { i.l2_normalization(); }, {Op::kL2Normalization}},
        {B::L2_POOL_2D, [](TfliteImporter& i) { i.pool(Op::kL2Pool2d); }, {Op::kL2Pool2d}},
        {B::LEAKY_RELU, [](TfliteImporter& i) { i.leaky_relu(); }, {Op::kLeakyRelu}},
        {B::LESS, [](TfliteImporter& i) { i.math_binary(Op::kCompare, "less"); }, {Op::kCompare}},
        {B::LESS_EQUAL, [](TfliteImporter& i) { i.math_binary(Op::kCompare, "less_equal"); }, {Op::kCompare}},
        {B::LOG, [](TfliteImporter& i) { i.math_unary("log"); }, {Op::kUnary}, "float32"},
        {B::LOGICAL_AND, [](TfliteImporter& i) { i.math_binary(Op::kLogical, "and"); }, {Op::kLogical}, "bool"},
        {B::LOGICAL_NOT, [](TfliteImporter& i) { i.math_unary("logical_not"); }, {Op::kUnary}, "bool"},
        {B::LOGICAL_OR, [](TfliteImporter& i) { i.math_binary(Op::kLogical, "or"); }, {Op::kLogical}, "bool"},
        {B::LOGISTIC, [](TfliteImporter& i) { i.unary(Op::kSigmoid); }, {Op::kSigmoid}},
        {B::LOG_SOFTMAX, [](TfliteImporter& i) { i.log_softmax(); }, {Op::kLogSoftmax}},
        {B::MAXIMUM, [](TfliteImporter& i) { i.math_binary(Op::kMaximum, ""); }, {Op::kMaximum}},
        {B::MAX_POOL_2D, [](TfliteImporter& i) { i.pool(Op::kMaxPool2d); }, {Op::kMaxPool2d}},
        {B::MEAN, [](TfliteImporter& i) { i.reduce(Op::kMean); }, {Op::kMean}},
        {B::MINIMUM, [](TfliteImporter& i) { i.math_binary(Op::kMinimum, ""); }, {Op::kMinimum}},
        {B::MIRROR_PAD, [](TfliteImporter& i) { i.mirror_pad(); }, {Op::kPad}},
        {B::MUL, [](TfliteImporter& i) { i.binary(Op::kMul); }, {Op::kMul}},
        {B::NEG, [](TfliteImporter& i) { i.math_unary("neg"); }, {Op::kUnary}, "float32"},
        {B::NOT_EQUAL, [](TfliteImporter& i) { i.math_binary(Op::kCompare, "not_equal"); }, {Op::kCompare}},
        {B::PACK, [](TfliteImporter& i) { i.pack(); }, {Op::kReshape, Op::kConcat}},
        {B::PAD, [](TfliteImporter& i) { i.pad(false); }, {Op::kPad}},
        {B::PADV2, [](TfliteImporter& i) { i.pad(true); }, {Op::kPad}},
        {B::PRELU, [](TfliteImporter& i) { i.prelu(); }, {Op::kPrelu}},
        {B::QUANTIZE, [](TfliteImporter& i) { i.quantize(); }, {Op::kQuantize}},
        {B::READ_VARIABLE, [](TfliteImporter& i) { i.read_variable(); }, {Op::kCopy}},
        {B::REDUCE_MAX, [](TfliteImporter& i) { i.reduce(Op::kReduceMax); }, {Op::kReduceMax}},
        {B::REDUCE_MIN, [](TfliteImporter& i) { i.reduce(Op::kReduceMin); }, {Op::kReduceMin}},
        {B::RELU, [](TfliteImporter& i) { i.relu(B::RELU); }, {Op::kClamp}},
        {B::RELU6, [](TfliteImporter& i) { i.relu(B::RELU6); }, {Op::kClamp}},
        {B::RELU_0_TO_1, [](TfliteImporter& i) { i.relu(B::RELU_0_TO_1); }, {Op::kClamp}},
        {B::RELU_N1_TO_1, [](TfliteImporter& i) { i.relu(B::RELU_N1_TO_1); }, {Op::kClamp}},
        {B::RESHAPE, [](TfliteImporter& i) { i.reshape(1, 2); }, {Op::kReshape}},
        {B::RESIZE_BILINEAR, [](TfliteImporter& i) { i.resize_bilinear(); }, {Op::kResizeBilinear}},
        {B::RESIZE_NEAREST_NEIGHBOR, [](TfliteImporter& i) { i.resize_nearest_neighbor(); }, {Op::kResizeNearest}},
        {B::REVERSE_V2, [](TfliteImporter& i) { i.reverse_v2(); }, {Op::kStridedSlice}},
        {B::ROUND, [](TfliteImporter& i) { i.math_unary("round"); }, {Op::kUnary}, "float32"},
        {B::RSQRT, [](TfliteImporter& i) { i.math_unary("rsqrt"); }, {Op::kUnary}, "float32 int8"},
        {B::SELECT_V2, [](TfliteImporter& i) { i.select_v2(); }, {Op::kSelect}},
        {B::SHAPE, [](TfliteImporter& i) { i.shape(); }, {Op::kCopy}},
        {B::SIN, [](TfliteImporter& i) { i.math_unary("sin"); }, {Op::kUnary}, "float32"},
        {B::SLICE, [](TfliteImporter& i) { i.slice(); }, {Op::kStridedSlice}},
        {B::SOFTMAX, [](TfliteImporter& i) { i.softmax(); }, {Op::kSoftmax}},
        {B::SPACE_TO_BATCH_ND, [](TfliteImporter& i) { i.space_to_batch_nd(); }, {Op::kSpaceToBatch}},
        {B::SPACE_TO_DEPTH, [](TfliteImporter& i) { i.space_to_depth(); }, {Op::kSpaceToDepth}},
        {B::SPLIT, [](TfliteImporter& i) { i.split(); }, {Op::kStridedSlice}},
        {B::SPLIT_V, [](TfliteImporter& i) { i.split_v(); }, {Op::kStridedSlice}},
        {B::SQRT, [](TfliteImporter& i) { i.math_unary("sqrt"); }, {Op::kUnary}, "float32"},
        {B::SQUARE, [](TfliteImporter& i) { i.math_unary("square"); }, {Op::kUnary}, "float32"},
        {B::SQUARED_DIFFERENCE, [](TfliteImporter& i) { i.math_binary(Op::kSquaredDifference, ""); }, {Op::kSquaredDifference}},
        {B::SQUEEZE, [](TfliteImporter& i) { i.squeeze(); }, {Op::kReshape}},
        {B::STRIDED_SLICE, [](TfliteImporter& i) { i.strided_slice(); }, {Op::kStridedSlice}},
        {B::SUB, [](TfliteImporter& i) { i.binary(Op::kSub); }, {Op::kSub}},
        {B::SUM, [](TfliteImporter& i) { i.reduce(Op::kSum); }, {Op::kSum}},
        {B::SVDF, [](TfliteImporter& i) { i.svdf(); }, {Op::kSvdf, Op::kCopy}},
        {B::TANH, [](TfliteImporter& i) { i.unary(Op::kTanh); }, {Op::kTanh}},
        {B::TRANSPOSE, [](TfliteImporter& i) { i.transpose(); }, {Op::kTranspose}},
        {B::TRANSPOSE_CONV, [](TfliteImporter& i) { i.transpose_conv(); }, {Op::kTransposeConv}},
        {B::UNIDIRECTIONAL_SEQUENCE_LSTM, [](TfliteImporter& i) { i.lstm(); }, {Op::kLstm, Op::kCopy}},
        {B::UNPACK, [](TfliteImporter& i) { i.unpack(); }, {Op::kStridedSlice}},
        {B::VAR_HANDLE, [](TfliteImporter& i) { i.var_handle(); }, {}},
        {B::WHILE, [](TfliteImporter& i) { i.while_op(); }, {Op::kWhile, Op::kCopy}},
        {B::ZEROS_LIKE, [](TfliteImporter& i) { i.zeros_like(); }, {Op::kCopy}},
    };
    return table;
  }

  // The conversion of builtin operator `code`; nullptr when the importer does not take it.
  static const Conversion* conversion(int32_t code) {
    for (const Conversion& c : conversions())
      if (static_cast<int32_t>(c.code) == code) return &c;
    return nullptr;
  }
  static bool is_supported(int32_t code) { return conversion(code) != nullptr; }

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
    read_offline_plan();
    graph_.name = std::filesystem::path(path_).stem().string();
    begin_subgraph();

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
    finish_variables();
    graph_.remove_dead();
    return std::move(graph_);
  }

 private:
  // ---- errors -------------------------------------------------------------------------
  [[noreturn]] void fail(const std::string& what) const { throw CompileError(path_ + ": " + what); }
  // Inside an operator's conversion: "operator 5 (CONV_2D): <what>".
  [[noreturn]] void fail_op(const std::string& what) const {
    fail(subgraph_label_ + "operator " + std::to_string(op_index_) + " (" + op_name_ + "): " + what);
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
      fail(subgraph_label_ + "operator " + std::to_string(index) + ": opcode_index " + std::to_string(code_index) +
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



  // The custom op Arm's Vela compiler writes for the work of an Ethos-U NPU.
  static bool is_ethos_u(const OpCode& code) {
    return code.builtin == static_cast<int32_t>(BuiltinOperator::CUSTOM) && code.custom == "ethos-u";
  }

  // Custom ops first (only ethos-u can be imported), then unsupported builtins; both before
  // any tensor is read, so the message names the op rather than one of its tensors.
  void check_operators() const {
    const auto* operators = subgraph_->operators();
    const uint32_t count = operators ? operators->size() : 0;
    std::vector<OpCode> codes;
    for (uint32_t i = 0; i < count; ++i) {
      codes.push_back(op_code(i));
      if (is_ethos_u(codes.back())) continue;
      if (codes.back().builtin == static_cast<int32_t>(BuiltinOperator::CUSTOM))
        fail(subgraph_label_ + "operator " + std::to_string(i) + ": custom op '" + codes.back().custom +
             "' not supported");
    }
    for (uint32_t i = 0; i < count; ++i) {
      if (is_ethos_u(codes[i])) continue;
      if (!is_supported(codes[i].builtin))
        fail(subgraph_label_ + "operator " + std::to_string(i) + ": op code " + std::to_string(codes[i].builtin) +
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
      // A variable tensor (SVDF or LSTM state) is state kept between runs, as TFLite Micro
      // keeps it across Invoke() calls: its reader gets an output for the new value and a
      // copy writes that back (carried_state()). Its init op (passes::fill_state) fills a
      // persistent tensor with its zero point's low byte (zeros without quantization);
      // TFLite Micro's ResetVariableTensors fills the int8 zero point, else zeros. So a non-int8 state's
      // zero point here becomes 0, its fill; the new-value output keeps the real one,
      // which the lowering reads.
      result.is_persistent = true;
      variable_quant_[graph_.tensors.size()] = result.quant;
      if (result.dtype != DType::kInt8)
        for (int32_t& zero_point : result.quant.zero_points) zero_point = 0;
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
    // A subgraph imported again (WHILE iterations, both IF branches, CALL_ONCE) shares the
    // constants of its first import: one copy of a body's weights however often it runs.
    if (result.is_constant && current_subgraph_ != 0) {
      const auto [it, added] = subgraph_constants_.try_emplace({current_subgraph_, index}, -1);
      if (!added) return ids_[index] = it->second;
      it->second = ids_[index] = graph_.add_tensor(std::move(result));
      return ids_[index];
    }
    if (!result.is_constant && current_subgraph_ == 0 && static_cast<size_t>(index) < offline_.size())
      result.offline_offset = offline_[static_cast<size_t>(index)];
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

  int output_count() const { return op_->outputs() ? static_cast<int>(op_->outputs()->size()) : 0; }

  // Between min and max inputs and one output; expect_input_count alone for the ops
  // with several outputs (SPLIT, SPLIT_V, UNPACK).
  void expect_inputs(int min, int max) const {
    expect_input_count(min, max);
    if (output_count() != 1) fail_op("has " + std::to_string(output_count()) + " outputs, expected 1");
  }

  void expect_input_count(int min, int max) const {
    const int n = input_count();
    if (n < min || n > max)
      fail_op("has " + std::to_string(n) + " inputs, expected " +
              (min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max)));
  }

  // Input k: its ir id, or kNoTensor when absent, -1 (an omitted optional input) or an
  // empty tensor of a value type (converters write a bias or LSTM weight left out as a
  // tensor of shape [0]; TensorFlow Lite Micro reads it as absent). A tensor that is
  // neither constant, graph input, variable (state) nor written by an earlier operator is
  // refused: TFLite stores operators in execution order.
  int input(int k) {
    const int id = unwritten_input(k);
    if (id == ir::kNoTensor) return id;
    const int32_t index = op_->inputs()->Get(k);
    const ir::Tensor& t = graph_.tensors[id];
    if (!t.is_constant && !t.is_persistent && !is_graph_input_[index] && writer_[index] < 0)
      fail_op("input " + std::to_string(k) + " '" + t.name + "' is read before any operator writes it");
    return id;
  }

  // input(k) without the check that something wrote it: an ethos-u operator's scratch and
  // fast scratch (the NPU's working area, written by no operator).
  int unwritten_input(int k) {
    if (k >= input_count()) return ir::kNoTensor;
    const int32_t index = op_->inputs()->Get(k);
    if (index == -1) return ir::kNoTensor;
    check_tensor_index(index, "input " + std::to_string(k));
    if (is_empty_value(subgraph_->tensors()->Get(static_cast<uint32_t>(index)))) return ir::kNoTensor;
    return tensor(index);
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

  // Tensor `id` has the dtype of the operator's input x (ops that move elements).
  void expect_input_dtype(int id, const std::string& role, int x) const {
    if (T(id).dtype != T(x).dtype)
      fail_op(role + " '" + T(id).name + "' has type " + dtype_name(T(id).dtype) + ", expected the input's " +
              dtype_name(T(x).dtype));
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
    if (is_ethos_u(code)) {
      op_name_ = "ethos-u";
      if (current_subgraph_ != 0) fail_op("an ethos-u operator outside the main subgraph, not supported");
      ethos_u();
      return;
    }
    const bool has_effect = code.builtin == static_cast<int32_t>(BuiltinOperator::ASSIGN_VARIABLE) ||
                            code.builtin == static_cast<int32_t>(BuiltinOperator::CALL_ONCE);
    if (!has_effect && (!op_->outputs() || op_->outputs()->size() == 0)) fail_op("has no outputs");
    const Conversion* conversion = TfliteImporter::conversion(code.builtin);
    if (!conversion) fail_op("op not supported");  // check_operators() refused it already
    if (++converted_ > kMaxConvertedOperators)
      fail_op("the model's IF and WHILE operators expand to more than " + std::to_string(kMaxConvertedOperators) +
              " operators, not supported");
    const size_t first = graph_.nodes.size();
    conversion->convert(*this);
    if (unrolling_ > 0) {  // inside a WHILE loop: fold what only depends on constants (while_op)
      for (size_t k = first; k < graph_.nodes.size();)
        if (!passes::fold_node(graph_, k)) ++k;
    }
  }

  // ---- Ethos-U (Vela-compiled models) --------------------------------------------------
  // Vela's OfflineMemoryAllocation metadata: int32 words [version 0, subgraph count,
  // tensor count over all subgraphs, one offset per tensor (subgraph after subgraph)],
  // the offset an arena tensor must have, -1 for one the runtime places. Read only for a
  // model with ethos-u operators, whose NPU work addresses its feature maps at those
  // offsets; any other model's tensors the planner places (it needs no offline plan).
  void read_offline_plan() {
    bool npu = false;
    const auto* operators = subgraph_->operators();
    for (uint32_t i = 0; operators && i < operators->size(); ++i) npu = npu || is_ethos_u(op_code(i));
    if (!npu) return;
    const auto* metadata = model_->metadata();
    const fb::Metadata* plan = nullptr;
    for (uint32_t i = 0; metadata && i < metadata->size(); ++i)
      if (metadata->Get(i)->name() && metadata->Get(i)->name()->str() == "OfflineMemoryAllocation")
        plan = metadata->Get(i);
    if (!plan)
      fail("the model has ethos-u operators but no OfflineMemoryAllocation metadata (Vela's arena offsets, "
           "which its command streams address)");
    const auto* buffers = model_->buffers();
    const std::string label = "OfflineMemoryAllocation metadata";
    if (!buffers || plan->buffer() >= buffers->size())
      fail(label + ": buffer index " + std::to_string(plan->buffer()) + " out of range");
    const std::span<const uint8_t> data = buffer_data(buffers->Get(plan->buffer()), plan->buffer(), label);
    auto word = [&](size_t i) {
      int32_t v;
      std::memcpy(&v, data.data() + 4 * i, 4);
      return v;
    };
    if (data.size() < 12 || data.size() % 4 != 0)
      fail(label + " of " + std::to_string(data.size()) + " bytes (expected 3 header words and the offsets)");
    const size_t subgraphs = model_->subgraphs()->size();
    size_t tensors = 0;
    for (const fb::SubGraph* sg : *model_->subgraphs()) tensors += sg->tensors() ? sg->tensors()->size() : 0;
    if (word(0) != 0) fail(label + ": version " + std::to_string(word(0)) + " not supported (expected 0)");
    if (word(1) < 0 || static_cast<size_t>(word(1)) != subgraphs)
      fail(label + " names " + std::to_string(word(1)) + " subgraphs, the model has " + std::to_string(subgraphs));
    if (word(2) < 0 || static_cast<size_t>(word(2)) != tensors || data.size() / 4 != 3 + tensors)
      fail(label + " has " + std::to_string(data.size() / 4 - 3) + " offsets for " + std::to_string(word(2)) +
           " tensors; the model has " + std::to_string(tensors));
    const size_t main_tensors = subgraph_->tensors() ? subgraph_->tensors()->size() : 0;
    offline_.assign(main_tensors, -1);
    for (size_t i = 0; i < main_tensors; ++i) {
      const int32_t offset = word(3 + i);
      if (offset < -1) fail(label + ": tensor " + std::to_string(i) + " has the offset " + std::to_string(offset));
      offline_[i] = offset;
    }
  }

  // ethos-u: inputs [command stream (the driver payload), constant data, scratch, fast
  // scratch, feature maps...], outputs the feature maps it writes. The payload is parsed
  // and its command stream walked here (compiler/npu/ethos_u.h); `--npu` is checked
  // against it after import (npu::check_npu_ops). The fast scratch becomes a buffer of its
  // own (the driver's) when the stream uses region 2 (Vela's Dedicated_Sram), else the op
  // has none; the scratch and every feature map must have Vela's offline offset (the NPU
  // reaches them through region 1 there).
  void ethos_u() {
    const int n_inputs = input_count();
    if (n_inputs < 4)
      fail_op("has " + std::to_string(n_inputs) +
              " inputs, expected at least 4 (command stream, constant data, scratch, fast scratch)");
    if (const auto* options = op_->custom_options()) {
      // A FlexBuffer whose root is the integer 1 (CO_TYPE_ETHOSU): value, packed type (INT
      // or UINT), root byte width last.
      const size_t n = options->size();
      const uint8_t width = n >= 3 ? options->Get(static_cast<uint32_t>(n - 1)) : 0;
      const uint8_t type = n >= 3 ? options->Get(static_cast<uint32_t>(n - 2)) >> 2 : 0;
      const bool valid = (width == 1 || width == 2 || width == 4 || width == 8) && n >= 2u + width &&
                         (type == 1 || type == 2);
      int64_t value = 0;
      for (uint32_t b = 0; valid && b < width; ++b)
        value |= int64_t{options->Get(static_cast<uint32_t>(n - 2 - width + b))} << (8 * b);
      if (!valid || value != 1) fail_op("custom options are not Vela's (a FlexBuffer integer 1, CO_TYPE_ETHOSU)");
    }
    const int payload = constant_input(0, "command stream");
    const int data = input(1);
    const int scratch = unwritten_input(2);
    const int fast = unwritten_input(3);
    if (T(payload).dtype != DType::kUInt8) fail_op("command stream '" + T(payload).name + "' is not uint8");
    if (data != ir::kNoTensor && (!T(data).is_constant || T(data).dtype != DType::kUInt8))
      fail_op("constant data '" + T(data).name + "' is not a uint8 constant");
    for (int id : {scratch, fast})
      if (id != ir::kNoTensor && (T(id).is_constant || T(id).dtype != DType::kUInt8))
        fail_op("scratch '" + T(id).name + "' is not a uint8 tensor without data");

    const std::vector<uint8_t>& bytes = T(payload).data;
    EthosUPayload parsed;
    uint32_t at = 0;
    const EthosUPayloadError error =
        parse_ethos_u_payload(bytes.data(), static_cast<uint32_t>(bytes.size()), &parsed, &at);
    if (error != EthosUPayloadError::kOk)
      fail_op("driver payload '" + T(payload).name + "', word " + std::to_string(at) + ": " +
              ethos_u_payload_error_string(error));
    const EthosUConfig config = decode_ethos_u_config(parsed.config_word, parsed.id_word);
    if (config.product > static_cast<uint32_t>(EthosUProduct::kU85))
      fail_op("payload names product " + std::to_string(config.product) + " (expected 0 U55, 1 U65 or 2 U85)");
    const std::string where = path_ + ": operator " + std::to_string(op_index_) + " (ethos-u)";
    const npu::StreamSummary summary = npu::summarize_stream(
        npu::stream_words(bytes, parsed), static_cast<EthosUProduct>(config.product), where);

    ir::Node node;
    node.op = ir::Op::kEthosU;
    node.inputs = {payload, data, scratch, ir::kNoTensor};
    const bool dedicated = (summary.regions_read | summary.regions_written) & (1u << 2);
    int64_t fast_bytes = 0;
    if (dedicated) {
      if (fast == ir::kNoTensor) fail_op("the command stream uses region 2 (fast scratch) and the op has none");
      fast_bytes = T(fast).bytes();
      graph_.tensors[fast].offline_offset = -1;  // the driver's own buffer, not the arena
    }
    for (int k = 4; k < n_inputs; ++k) node.inputs.push_back(required_input(k, "feature map"));
    for (int k = 0; k < output_count(); ++k) node.outputs.push_back(output(k));
    if (scratch == ir::kNoTensor && (summary.regions_read | summary.regions_written) & (1u << 1))
      fail_op("the command stream uses region 1 (scratch) and the op has none");
    for (size_t k = 2; k < node.inputs.size() + node.outputs.size(); ++k) {
      const int id = k < node.inputs.size() ? node.inputs[k] : node.outputs[k - node.inputs.size()];
      if (id == ir::kNoTensor || k == 3) continue;
      if (T(id).is_constant) fail_op("feature map '" + T(id).name + "' is a constant, not supported");
      if (T(id).offline_offset < 0)
        fail_op("tensor '" + T(id).name + "' has no offset in OfflineMemoryAllocation (the NPU addresses it there)");
    }
    // An op without outputs writes into tensors of the NPU area earlier ops produced.
    node.name = node.outputs.empty() ? "ethos-u operator " + std::to_string(op_index_) : T(node.outputs[0]).name;
    node.attrs["config_word"] = static_cast<int64_t>(parsed.config_word);
    node.attrs["id_word"] = static_cast<int64_t>(parsed.id_word);
    node.attrs["fast_scratch_bytes"] = fast_bytes;
    graph_.nodes.push_back(std::move(node));
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

  // add, sub, mul, div: numpy broadcast. pot_scale_int16 (add, sub; default true) selects
  // TFLite's int16 arithmetic: true = power-of-two scales, false = the general rescaling.
  // float32 clamps to the finite float range (TFLite's activation bounds for NONE and
  // RELU are the float's lowest and max): an overflow, an infinite input or x / 0 gives
  // +-FLT_MAX, as TFLite's.
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
    } else if (op == ir::Op::kDiv) {
      const auto* o = options<fb::DivOptions>(false);
      act = o ? o->fused_activation_function() : act;
    } else {
      const auto* o = options<fb::MulOptions>(false);
      act = o ? o->fused_activation_function() : act;
    }
    const auto shape = broadcast_shape(T(a).shape, T(b).shape);
    if (!shape)
      fail_op("inputs of shapes " + ints_string(T(a).shape) + " and " + ints_string(T(b).shape) +
              " do not broadcast");
    if (shape->size() > kMaxRank)
      fail_op("output of rank " + std::to_string(shape->size()) + " not supported (at most " +
              std::to_string(kMaxRank) + ")");
    expect_shape(y, "output", *shape);
    ir::Node& n = emit(op, {a, b}, {y});
    set_activation(n, act);
    if (T(y).dtype == DType::kFloat32) {
      if (!n.has("act_min")) n.attrs["act_min"] = double{-std::numeric_limits<float>::max()};
      if (!n.has("act_max")) n.attrs["act_max"] = double{std::numeric_limits<float>::max()};
    }
    if (pot_scale_int16) n.attrs["pot_scale_int16"] = int64_t{*pot_scale_int16};
  }

  // BATCH_MATMUL: lhs [..., M, K] ([..., K, M] with adj_x), rhs [..., K, N] ([..., N, K]
  // with adj_y), each of rank 2 to 5 (TensorFlow Lite Micro's limit), batch dims
  // broadcast (numpy); rhs constant or computed. One type for lhs, rhs and the output (a
  // float x int8 "hybrid" is refused, and so is asymmetric_quantize_inputs, its option).
  void batch_matmul() {
    expect_inputs(2, 2);
    const auto* o = options<fb::BatchMatMulOptions>(false);
    const int a = required_input(0, "lhs");
    const int b = required_input(1, "rhs");
    const int y = output(0);
    if (o && o->asymmetric_quantize_inputs()) fail_option("asymmetric_quantize_inputs", "true", "hybrid batch matmul");
    for (const auto& [id, role] : {std::pair<int, const char*>{a, "lhs"}, {b, "rhs"}}) {
      const size_t rank = T(id).shape.size();
      if (rank < 2 || rank > 5)
        fail_op(std::string(role) + " '" + T(id).name + "' has shape " + ints_string(T(id).shape) +
                ", expected rank 2 to 5");
    }
    if (T(b).dtype != T(a).dtype || T(y).dtype != T(a).dtype)
      fail_op("lhs, rhs and the output have types " + std::string(dtype_name(T(a).dtype)) + ", " +
              dtype_name(T(b).dtype) + " and " + dtype_name(T(y).dtype) + ", expected one type");
    const bool adj_x = o && o->adj_x(), adj_y = o && o->adj_y();
    const ir::Shape& ls = T(a).shape;
    const ir::Shape& rs = T(b).shape;
    const int64_t m = ls[ls.size() - (adj_x ? 1 : 2)], k = ls[ls.size() - (adj_x ? 2 : 1)];
    const int64_t rk = rs[rs.size() - (adj_y ? 1 : 2)], n = rs[rs.size() - (adj_y ? 2 : 1)];
    if (rk != k)
      fail_op("lhs " + ints_string(ls) + " (adj_x " + std::to_string(adj_x) + ") and rhs " + ints_string(rs) +
              " (adj_y " + std::to_string(adj_y) + ") disagree on the inner dimension: " + std::to_string(k) +
              " vs " + std::to_string(rk));
    auto shape = broadcast_shape(ir::Shape(ls.begin(), ls.end() - 2), ir::Shape(rs.begin(), rs.end() - 2));
    if (!shape) fail_op("batch dims of lhs " + ints_string(ls) + " and rhs " + ints_string(rs) + " do not broadcast");
    shape->push_back(m);
    shape->push_back(n);
    expect_shape(y, "output", *shape);
    ir::Node& node = emit(ir::Op::kBatchMatMul, {a, b}, {y});
    node.attrs["adj_a"] = int64_t{adj_x};
    node.attrs["adj_b"] = int64_t{adj_y};
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

  // LOG_SOFTMAX: along the last axis, beta 1 (its options table is empty).
  void log_softmax() {
    ir::Node& n = activation(ir::Op::kLogSoftmax);
    if (T(n.inputs[0]).shape.empty()) fail_op("input '" + T(n.inputs[0]).name + "' is a scalar, expected rank >= 1");
  }

  void unary(ir::Op op) {
    expect_inputs(1, 1);
    const int x = required_input(0, "input");
    const int y = output(0);
    expect_shape(y, "output", T(x).shape);
    emit(op, {x}, {y});
  }

  // An elementwise activation with no options (HARD_SWISH, ELU, the RELUs): its input's shape
  // and dtype.
  ir::Node& activation(ir::Op op) {
    expect_inputs(1, 1);
    const int x = required_input(0, "input");
    const int y = output(0);
    expect_shape(y, "output", T(x).shape);
    if (T(y).dtype != T(x).dtype)
      fail_op("output '" + T(y).name + "' has type " + dtype_name(T(y).dtype) + ", expected " +
              dtype_name(T(x).dtype) + " (the input's)");
    return emit(op, {x}, {y});
  }

  // RELU [0, inf), RELU6 [0, 6], RELU_N1_TO_1 [-1, 1], RELU_0_TO_1 [0, 1]: a clamp. On
  // quantized tensors TFLite requantizes to the output's scale, except TensorFlow Lite
  // Micro's RELU6, which clamps the input's values in its own quantization and ignores the
  // output's (requantize = 0 when the two differ, so Mote gives what TFLM gives). TFLite's
  // RELU_N1_TO_1 and RELU_0_TO_1 (TFLM has neither) form the scale ratio in float; TFLite
  // has them in float32 and int8, and Mote runs their int16 form with the same
  // arithmetic as TFLite's int16 RELU (symmetric, ReluX).
  void relu(BuiltinOperator code) {
    const bool relu6 = code == BuiltinOperator::RELU6;
    const bool tflite_only = code == BuiltinOperator::RELU_N1_TO_1 || code == BuiltinOperator::RELU_0_TO_1;
    ir::Node& n = activation(ir::Op::kClamp);
    const ir::Tensor& x = T(n.inputs[0]);
    const ir::Tensor& y = T(n.outputs[0]);
    n.attrs["min"] = code == BuiltinOperator::RELU_N1_TO_1 ? -1.0 : 0.0;
    if (code == BuiltinOperator::RELU6) n.attrs["max"] = 6.0;
    if (tflite_only) n.attrs["max"] = 1.0;
    if (x.quant.empty()) return;
    if (relu6 && (x.quant.scales != y.quant.scales || x.quant.zero_points != y.quant.zero_points))
      n.attrs["requantize"] = int64_t{0};
    if (tflite_only) n.attrs["ratio_in_float"] = int64_t{1};
  }

  // RESHAPE (the new_shape input or option is redundant with the static output shape):
  // the same bytes under a new shape.
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

  // SQUEEZE: the input without the dims of size 1 that squeeze_dims lists (each in
  // [-rank, rank)), or without all of them when it lists none; a reshape.
  void squeeze() {
    expect_inputs(1, 1);
    const auto* o = options<fb::SqueezeOptions>(false);
    const int x = required_input(0, "input");
    const int y = output(0);
    const ir::Shape& in = T(x).shape;
    const int64_t rank = static_cast<int64_t>(in.size());
    std::vector<bool> squeezed(in.size(), false);
    const auto* dims = o ? o->squeeze_dims() : nullptr;
    if (!dims || dims->size() == 0) {
      for (int64_t i = 0; i < rank; ++i) squeezed[i] = in[i] == 1;
    } else {
      for (int32_t d : *dims) {
        const int64_t axis = d < 0 ? d + rank : d;
        if (axis < 0 || axis >= rank || in[axis] != 1)
          fail_option("squeeze_dims", shape_of(dims), "input '" + T(x).name + "' has shape " + ints_string(in));
        squeezed[axis] = true;
      }
    }
    ir::Shape expected;
    for (int64_t i = 0; i < rank; ++i)
      if (!squeezed[i]) expected.push_back(in[i]);
    expect_shape(y, "output", expected);
    emit(ir::Op::kReshape, {x}, {y});
  }

  // EXPAND_DIMS: inputs input, axis (a constant int32/int64 of one value in
  // [-rank - 1, rank]); the input with a dim of 1 inserted before input axis `axis` (a
  // negative one counts from the end of the output); a reshape.
  void expand_dims() {
    expect_inputs(2, 2);
    options<fb::ExpandDimsOptions>(false);
    const int x = required_input(0, "input");
    const int axis_t = constant_input(1, "axis");
    const int y = output(0);
    const ir::Shape& in = T(x).shape;
    const int64_t rank = static_cast<int64_t>(in.size());
    const std::vector<int64_t> values = read_ints(axis_t, "axis");
    if (values.size() != 1)
      fail_op("axis '" + T(axis_t).name + "' has shape " + ints_string(T(axis_t).shape) + ", expected one value");
    const int64_t axis = values[0] < 0 ? values[0] + rank + 1 : values[0];
    if (axis < 0 || axis > rank)
      fail_op("axis " + std::to_string(values[0]) + " out of range for input of shape " + ints_string(in));
    ir::Shape expected = in;
    expected.insert(expected.begin() + axis, 1);
    expect_shape(y, "output", expected);
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

  // MEAN, SUM, REDUCE_MAX, REDUCE_MIN: input, constant axis list (negative axes count
  // from the end, repeats allowed), keep_dims.
  void reduce(ir::Op op) {
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
    emit(op, {x}, {y}).attrs["axes"] = axes;
  }

  // ADD_N: two or more inputs of one shape and dtype, summed element by element into an
  // output of that shape and dtype (the lowering takes TFLite Micro's dtypes).
  void add_n() {
    options<fb::AddNOptions>(false);
    const std::vector<int> inputs = all_inputs();
    if (inputs.size() < 2) fail_op("has 1 input, expected at least 2");
    const int y = output(0);
    for (int id : inputs) {
      expect_shape(id, "input", T(inputs[0]).shape);
      expect_input_dtype(id, "input", inputs[0]);
    }
    expect_shape(y, "output", T(inputs[0]).shape);
    expect_input_dtype(y, "output", inputs[0]);
    emit(ir::Op::kAddN, inputs, {y});
  }

  // CUMSUM: input of rank >= 1, axis a constant int32 of one element (negative counts
  // from the end; TFLite Micro takes int32 only); options exclusive, reverse. The output
  // has the input's shape and dtype.
  void cumsum() {
    expect_inputs(2, 2);
    const auto* o = options<fb::CumsumOptions>(false);
    const int x = required_input(0, "input");
    const int y = output(0);
    const int64_t axis = single_axis(x, constant_input(1, "axis"));
    expect_shape(y, "output", T(x).shape);
    expect_input_dtype(y, "output", x);
    ir::Node& n = emit(ir::Op::kCumsum, {x}, {y});
    n.attrs["axis"] = axis;
    n.attrs["exclusive"] = int64_t{o && o->exclusive()};
    n.attrs["reverse"] = int64_t{o && o->reverse()};
  }

  // The axis of ARG_MAX, ARG_MIN and CUMSUM over input x: constant int32 (TFLite Micro
  // reads int32 only), one element, in [-rank, rank) of x's rank >= 1; made non-negative.
  int64_t single_axis(int x, int axis_tensor) {
    const ir::Shape& in = T(x).shape;
    const int64_t rank = static_cast<int64_t>(in.size());
    if (rank == 0) fail_op("input '" + T(x).name + "' is a scalar, expected rank >= 1");
    if (T(axis_tensor).dtype != DType::kInt32)
      fail_op("axis '" + T(axis_tensor).name + "' has type " + dtype_name(T(axis_tensor).dtype) +
              ", expected int32 (TensorFlow Lite Micro's)");
    const std::vector<int64_t> axes = read_ints(axis_tensor, "axis");
    if (axes.size() != 1)
      fail_op("axis '" + T(axis_tensor).name + "' has " + std::to_string(axes.size()) + " values, expected 1");
    if (axes[0] < -rank || axes[0] >= rank)
      fail_op("axis " + std::to_string(axes[0]) + " out of range for input of shape " + ints_string(in));
    return axes[0] < 0 ? axes[0] + rank : axes[0];
  }

  // L2_NORMALIZATION: input of rank 1..4 (TFLite Micro's limit), normalized along its last
  // axis; output of its shape and dtype; no fused activation (TFLite Micro requires NONE).
  void l2_normalization() {
    expect_inputs(1, 1);
    const auto* o = options<fb::L2NormOptions>(false);
    const int x = required_input(0, "input");
    const int y = output(0);
    const size_t rank = T(x).shape.size();
    if (rank < 1 || rank > 4)
      fail_op("input '" + T(x).name + "' has rank " + std::to_string(rank) + ", expected 1 to 4 (TensorFlow Lite Micro's)");
    expect_shape(y, "output", T(x).shape);
    expect_input_dtype(y, "output", x);
    if (o && o->fused_activation_function() != fb::ActivationFunctionType::NONE) {
      const auto act = o->fused_activation_function();
      fail_option("fused activation", enum_string(act, fb::EnumNameActivationFunctionType(act)));
    }
    emit(ir::Op::kL2Normalization, {x}, {y});
  }

  // ARG_MAX, ARG_MIN: input of rank >= 1, axis a constant int32 of one element (negative
  // counts from the end; TFLite Micro takes no int64 axis); output the input's shape
  // without the axis, int32 (TFLite Micro writes no other type), which output_type, when
  // the options are there, must say too. Ties give the first index, as TFLite's reference.
  void arg_min_max(ir::Op op) {
    expect_inputs(2, 2);
    std::optional<fb::TensorType> output_type;
    if (op == ir::Op::kArgMax) {
      if (const auto* o = options<fb::ArgMaxOptions>(false)) output_type = o->output_type();
    } else if (const auto* o = options<fb::ArgMinOptions>(false)) {
      output_type = o->output_type();
    }
    const int x = required_input(0, "input");
    const int y = output(0);
    const int64_t axis = single_axis(x, constant_input(1, "axis"));
    ir::Shape expected = T(x).shape;
    expected.erase(expected.begin() + axis);
    expect_shape(y, "output", expected);
    if (T(y).dtype != DType::kInt32)
      fail_op("output '" + T(y).name + "' has type " + dtype_name(T(y).dtype) +
              ", expected int32 (TensorFlow Lite Micro's only output type)");
    if (output_type && *output_type != fb::TensorType::INT32)
      fail_option("output_type", fb::EnumNameTensorType(*output_type), "the output '" + T(y).name + "' is int32");
    emit(op, {x}, {y}).attrs["axis"] = axis;
  }

  // The constant [rank, 2] paddings of PAD, PADV2 and MIRROR_PAD for input x, checked
  // against output y's shape: Mote's pads [before..., after...], all non-negative.
  std::vector<int64_t> paddings(int x, int paddings_tensor, int y) {
    const size_t rank = T(x).shape.size();
    if (T(paddings_tensor).shape != ir::Shape{static_cast<int64_t>(rank), 2})
      fail_op("paddings '" + T(paddings_tensor).name + "' has shape " + ints_string(T(paddings_tensor).shape) +
              ", expected [" + std::to_string(rank) + ",2]");
    const std::vector<int64_t> p = read_ints(paddings_tensor, "paddings");
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
    return pads;
  }

  // MIRROR_PAD: REFLECT (without the edge: pads below the dim) or SYMMETRIC (with it: pads
  // at most the dim), TFLite's meaning within those limits (beyond them TFLite Micro
  // clamps the source index; refused here). The output keeps the input's values and
  // quantization.
  void mirror_pad() {
    expect_inputs(2, 2);
    const auto* o = options<fb::MirrorPadOptions>(false);
    const int x = required_input(0, "input");
    const int y = output(0);
    const std::vector<int64_t> pads = paddings(x, constant_input(1, "paddings"), y);
    expect_input_dtype(y, "output", x);
    const bool symmetric = o && o->mode() == fb::MirrorPadMode::SYMMETRIC;
    if (o && o->mode() != fb::MirrorPadMode::REFLECT && !symmetric)
      fail_option("mode", std::to_string(static_cast<int>(o->mode())));
    const size_t rank = T(x).shape.size();
    for (size_t i = 0; i < rank; ++i) {
      const int64_t limit = T(x).shape[i] - (symmetric ? 0 : 1);
      if (pads[i] > limit || pads[rank + i] > limit)
        fail_op(std::string(symmetric ? "SYMMETRIC" : "REFLECT") + " paddings " + std::to_string(pads[i]) + "/" +
                std::to_string(pads[rank + i]) + " on axis " + std::to_string(i) + " exceed " +
                std::to_string(limit) + " (the input dim " + std::to_string(T(x).shape[i]) +
                (symmetric ? ")" : " - 1)"));
    }
    if (!T(y).quant.empty() &&
        (T(x).quant.scales != T(y).quant.scales || T(x).quant.zero_points != T(y).quant.zero_points))
      fail_op("output '" + T(y).name + "' is not quantized like the input (MIRROR_PAD moves values)");
    ir::Node& n = emit(ir::Op::kPad, {x}, {y});
    n.attrs["pads"] = pads;
    n.attrs["mode"] = std::string(symmetric ? "symmetric" : "reflect");
  }

  // PAD pads with the real value 0 (the output zero point when quantized); PADV2 with
  // its constant_values input, which for a quantized model TFLite requires to share the
  // output's quantization, so that its real value converts back exactly.
  void pad(bool v2) {
    expect_inputs(2, v2 ? 3 : 2);
    if (v2) options<fb::PadV2Options>(false);
    else options<fb::PadOptions>(false);
    const int x = required_input(0, "input");
    const int values = v2 ? input(2) : ir::kNoTensor;
    const int y = output(0);
    const std::vector<int64_t> pads = paddings(x, constant_input(1, "paddings"), y);
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

  // Every input of an operator taking any number of them (at least one) and one output.
  std::vector<int> all_inputs() {
    const int count = input_count();
    if (count < 1) fail_op("has no inputs");
    expect_inputs(1, count);
    std::vector<int> inputs;
    for (int k = 0; k < count; ++k) inputs.push_back(required_input(k, "input " + std::to_string(k)));
    return inputs;
  }

  void concat() {
    const auto* o = options<fb::ConcatenationOptions>(false);
    const std::vector<int> inputs = all_inputs();
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

  // An axis input (SPLIT, SPLIT_V): a constant tensor of one value in [-rank, rank) of
  // input x, int32 as converters write it (TFLite Micro reads the first int32 of the data,
  // which an int64 value gives too, so int64 is taken as well); returned non-negative.
  int64_t axis_input(int k, int x) {
    const int id = constant_input(k, "axis");
    if (T(id).elements() != 1)
      fail_op("axis '" + T(id).name + "' has shape " + ints_string(T(id).shape) + ", expected one value");
    const int64_t rank = static_cast<int64_t>(T(x).shape.size());
    const int64_t axis = read_ints(id, "axis")[0];
    if (axis < -rank || axis >= rank)
      fail_op("axis " + std::to_string(axis) + " out of range for input of shape " + ints_string(T(x).shape));
    return axis < 0 ? axis + rank : axis;
  }

  // y: the box of x from `begin` with `sizes` elements per input axis (stride 1), its
  // shape those sizes or fewer axes (a dropped one of size 1). One strided_slice: TFLite
  // Micro copies the bytes, quantized values stay unchanged.
  void emit_slice(int x, int y, const std::vector<int64_t>& begin, const std::vector<int64_t>& sizes) {
    ir::Node& n = emit(ir::Op::kStridedSlice, {x}, {y});
    n.attrs["begin"] = begin;
    n.attrs["strides"] = std::vector<int64_t>(begin.size(), 1);
    n.attrs["sizes"] = sizes;
  }

  // y: x sliced along `axis` from `start`, `size` elements there.
  void emit_axis_slice(int x, int y, int64_t axis, int64_t start, int64_t size) {
    std::vector<int64_t> begin(T(x).shape.size(), 0);
    begin[axis] = start;
    ir::Shape sizes = T(x).shape;
    sizes[axis] = size;
    emit_slice(x, y, begin, sizes);
  }

  // The outputs of SPLIT / SPLIT_V, each of the input's shape and dtype but along `axis`,
  // where they take consecutive ranges of sizes[k].
  void emit_split(int x, int64_t axis, const std::vector<int>& outputs, const std::vector<int64_t>& sizes) {
    int64_t start = 0;
    for (size_t k = 0; k < outputs.size(); ++k) {
      const std::string role = "output " + std::to_string(k);
      ir::Shape expected = T(x).shape;
      expected[axis] = sizes[k];
      expect_shape(outputs[k], role, expected);
      expect_input_dtype(outputs[k], role, x);
      emit_axis_slice(x, outputs[k], axis, start, sizes[k]);
      start += sizes[k];
    }
  }

  // Every output of the operator; `count`, the file's option counting them (num_splits,
  // num; nullopt without an options table), must agree.
  std::vector<int> counted_outputs(const std::string& option, std::optional<int32_t> count) {
    std::vector<int> outputs;
    for (int k = 0; k < output_count(); ++k) outputs.push_back(output(k));
    if (count && *count != output_count())
      fail_option(option, std::to_string(*count), "the operator has " + std::to_string(output_count()) + " outputs");
    return outputs;
  }

  // SPLIT: inputs axis, input; num_splits equal parts along the axis, one per output.
  void split() {
    expect_input_count(2, 2);
    const auto* o = options<fb::SplitOptions>(false);
    const int x = required_input(1, "input");
    const int64_t axis = axis_input(0, x);
    const std::vector<int> outputs = counted_outputs("num_splits", o ? std::optional(o->num_splits()) : std::nullopt);
    const int64_t parts = static_cast<int64_t>(outputs.size());
    const int64_t dim = T(x).shape[axis];
    if (dim % parts != 0)
      fail_op("input '" + T(x).name + "' of shape " + ints_string(T(x).shape) + " does not split into " +
              std::to_string(parts) + " equal parts along axis " + std::to_string(axis));
    emit_split(x, axis, outputs, std::vector<int64_t>(outputs.size(), dim / parts));
  }

  // SPLIT_V: inputs input, size_splits, axis; output k takes size_splits[k] along the
  // axis, one entry -1 standing for what the others leave. TFLite Micro reads the sizes
  // from the output shapes, so size_splits may be a runtime tensor; a constant one must
  // agree with them.
  void split_v() {
    expect_input_count(3, 3);
    const auto* o = options<fb::SplitVOptions>(false);
    const int x = required_input(0, "input");
    const int sizes_t = required_input(1, "size_splits");
    const int64_t axis = axis_input(2, x);
    const std::vector<int> outputs = counted_outputs("num_splits", o ? std::optional(o->num_splits()) : std::nullopt);
    const int64_t parts = static_cast<int64_t>(outputs.size());
    const int64_t dim = T(x).shape[axis];
    std::vector<int64_t> sizes;
    if (T(sizes_t).is_constant) {
      sizes = read_ints(sizes_t, "size_splits");
      if (T(sizes_t).shape.size() != 1 || static_cast<int64_t>(sizes.size()) != parts)
        fail_op("size_splits '" + T(sizes_t).name + "' has shape " + ints_string(T(sizes_t).shape) +
                ", expected [" + std::to_string(parts) + "] (one size per output)");
      const auto rest = std::find(sizes.begin(), sizes.end(), -1);
      int64_t sum = 0;
      for (auto it = sizes.begin(); it != sizes.end(); ++it) {
        if (it != rest && *it < 0)
          fail_op("size_splits " + ints_string(sizes) + " not supported (a negative size other than one -1)");
        if (it != rest) sum += *it;
      }
      if (rest != sizes.end() && sum <= dim) *rest = dim - sum;
      else if (sum != dim)
        fail_op("size_splits " + ints_string(sizes) + " do not sum to " + std::to_string(dim) +
                ", the input's dim along axis " + std::to_string(axis));
    } else {
      for (size_t k = 0; k < outputs.size(); ++k) {
        const ir::Shape& s = T(outputs[k]).shape;
        sizes.push_back(s.size() == T(x).shape.size() ? s[axis] : 0);
      }
      if (std::accumulate(sizes.begin(), sizes.end(), int64_t{0}) != dim)
        fail_op("the outputs' sizes " + ints_string(sizes) + " along axis " + std::to_string(axis) +
                " do not sum to the input's " + std::to_string(dim));
    }
    emit_split(x, axis, outputs, sizes);
  }

  // SLICE: inputs input, begin, size (constants of one type, int32 or int64, one value per
  // input axis); along axis i the output takes size[i] elements from begin[i] (size -1:
  // to the end), begin in [0, dim]. One strided_slice.
  void slice() {
    expect_inputs(3, 3);
    options<fb::SliceOptions>(false);
    const int x = required_input(0, "input");
    const int begin_t = constant_input(1, "begin");
    const int size_t_ = constant_input(2, "size");
    const int y = output(0);
    if (T(begin_t).dtype != T(size_t_).dtype)
      fail_op("begin '" + T(begin_t).name + "' (" + dtype_name(T(begin_t).dtype) + ") and size '" + T(size_t_).name +
              "' (" + dtype_name(T(size_t_).dtype) + ") differ in type");
    const std::vector<int64_t> begin = read_ints(begin_t, "begin");
    std::vector<int64_t> sizes = read_ints(size_t_, "size");
    const ir::Shape& in = T(x).shape;
    if (begin.size() != in.size() || sizes.size() != in.size())
      fail_op("begin and size must hold " + std::to_string(in.size()) + " values each (input " + ints_string(in) +
              "), got " + std::to_string(begin.size()) + " and " + std::to_string(sizes.size()));
    for (size_t i = 0; i < in.size(); ++i) {
      const int64_t rest = in[i] - begin[i];
      if (sizes[i] == -1) sizes[i] = rest;
      if (begin[i] < 0 || rest < 0 || sizes[i] < 0 || sizes[i] > rest)
        fail_op("begin " + ints_string(begin) + " and size " + ints_string(read_ints(size_t_, "size")) +
                " leave the input of shape " + ints_string(in) + " on axis " + std::to_string(i));
    }
    expect_shape(y, "output", sizes);
    emit_slice(x, y, begin, sizes);
  }

  // PACK: values_count inputs of one shape and dtype stacked along a new output axis
  // (in [-rank - 1, rank] of the inputs, a negative one counting from the output's end):
  // each input gets a dim of 1 there (a reshape, which takes the output's quantization:
  // TFLite Micro copies the bytes unchanged), then one concat.
  void pack() {
    const auto* o = options<fb::PackOptions>(true);
    const std::vector<int> inputs = all_inputs();
    const int count = static_cast<int>(inputs.size());
    if (o->values_count() != count)
      fail_option("values_count", std::to_string(o->values_count()), "the operator has " + std::to_string(count) + " inputs");
    const int y = output(0);
    const ir::Shape first = T(inputs[0]).shape;  // a copy: the loop adds tensors
    const int64_t rank = static_cast<int64_t>(first.size());
    const int64_t axis = o->axis() < 0 ? o->axis() + rank + 1 : o->axis();
    if (axis < 0 || axis > rank) fail_option("axis", std::to_string(o->axis()), "input rank " + std::to_string(rank));
    ir::Shape expected = first;
    expected.insert(expected.begin() + axis, count);
    expect_shape(y, "output", expected);
    ir::Shape expanded = first;
    expanded.insert(expanded.begin() + axis, 1);
    std::vector<int> parts;
    for (int k = 0; k < count; ++k) {
      const ir::Tensor& t = T(inputs[k]);
      if (t.shape != first || t.dtype != T(y).dtype)
        fail_op("input " + std::to_string(k) + " '" + t.name + "' of shape " + ints_string(t.shape) + " (" +
                dtype_name(t.dtype) + ") differs from the output's " + ints_string(first) + " (" +
                dtype_name(T(y).dtype) + ") values");
      ir::Tensor part = t;
      part.name = T(y).name + "/part" + std::to_string(k);
      part.shape = expanded;
      part.quant = T(y).quant;
      part.is_constant = false;
      part.data.clear();
      parts.push_back(graph_.add_tensor(std::move(part)));
      emit(ir::Op::kReshape, {inputs[k]}, {parts.back()});
    }
    emit(ir::Op::kConcat, parts, {y}).attrs["axis"] = axis;
  }

  // UNPACK: the input's num slices along `axis` (in [-rank, rank)), each without that
  // axis, one per output: one strided_slice each.
  void unpack() {
    expect_input_count(1, 1);
    const auto* o = options<fb::UnpackOptions>(true);
    const int x = required_input(0, "input");
    const ir::Shape in = T(x).shape;  // a copy: the outputs are imported below
    const int64_t rank = static_cast<int64_t>(in.size());
    const int64_t axis = o->axis() < 0 ? o->axis() + rank : o->axis();
    if (axis < 0 || axis >= rank) fail_option("axis", std::to_string(o->axis()), "input rank " + std::to_string(rank));
    const std::vector<int> outputs = counted_outputs("num", o->num());
    if (static_cast<int64_t>(outputs.size()) != in[axis])
      fail_op("input '" + T(x).name + "' of shape " + ints_string(in) + " has " + std::to_string(in[axis]) +
              " slices along axis " + std::to_string(axis) + ", the operator " + std::to_string(outputs.size()) +
              " outputs");
    ir::Shape expected = in;
    expected.erase(expected.begin() + axis);
    for (size_t k = 0; k < outputs.size(); ++k) {
      expect_shape(outputs[k], "output " + std::to_string(k), expected);
      expect_input_dtype(outputs[k], "output " + std::to_string(k), x);
      emit_axis_slice(x, outputs[k], axis, static_cast<int64_t>(k), 1);
    }
  }

  // The indices input k of GATHER / GATHER_ND: int32 only, as in TFLite Micro.
  int int32_indices(int k) {
    const int id = required_input(k, "indices");
    if (T(id).dtype != DType::kInt32)
      fail_op("indices '" + T(id).name + "' has type " + dtype_name(T(id).dtype) + ", expected int32");
    return id;
  }

  // EMBEDDING_LOOKUP: inputs lookup (int32 [n], constant or computed) and value (rank >= 2);
  // output [n, value dims 1..]: the value rows the lookup names, Mote's gather along axis
  // 0. TFLite Micro's dtypes: float32 -> float32, int8 -> int8 (values unchanged, so the
  // output must be quantized like the value), and int8 -> float32 ("hybrid": one scale,
  // zero point 0; a gather, then a dequantize). Constant lookups must lie inside the rows;
  // computed ones outside give zero bytes where TFLite Micro fails the invocation.
  void embedding_lookup() {
    expect_inputs(2, 2);
    const int lookup = int32_indices(0);
    const int value = required_input(1, "value");
    const int y = output(0);
    if (T(lookup).shape.size() != 1)
      fail_op("lookup '" + T(lookup).name + "' has shape " + ints_string(T(lookup).shape) + ", expected rank 1");
    if (T(value).shape.size() < 2)
      fail_op("value '" + T(value).name + "' has shape " + ints_string(T(value).shape) + ", expected rank >= 2");
    ir::Shape expected = T(value).shape;
    expected[0] = T(lookup).shape[0];
    expect_shape(y, "output", expected);
    const DType value_type = T(value).dtype, output_type = T(y).dtype;
    if (value_type != DType::kFloat32 && value_type != DType::kInt8)
      fail_op("value '" + T(value).name + "' has type " + dtype_name(value_type) +
              ", expected float32 or int8 (TensorFlow Lite Micro's)");
    if (T(lookup).is_constant) {
      for (int64_t index : read_ints(lookup, "lookup"))
        if (index < 0 || index >= T(value).shape[0])
          fail_op("lookup '" + T(lookup).name + "' holds " + std::to_string(index) + ", outside the value's " +
                  std::to_string(T(value).shape[0]) + " rows");
    }
    const bool hybrid = value_type == DType::kInt8 && output_type == DType::kFloat32;
    if (!hybrid && output_type != value_type)
      fail_op("output '" + T(y).name + "' has type " + dtype_name(output_type) + " for a " + dtype_name(value_type) +
              " value, expected " + (value_type == DType::kInt8 ? "int8 or float32" : "float32"));
    if (!hybrid && value_type == DType::kInt8 &&
        (T(value).quant.scales != T(y).quant.scales || T(value).quant.zero_points != T(y).quant.zero_points))
      fail_op("output '" + T(y).name + "' is not quantized like the value (EMBEDDING_LOOKUP copies rows)");
    int rows = y;
    if (hybrid) {
      const ir::QuantParams& q = T(value).quant;
      if (q.scales.size() != 1 || q.zero_points.size() != 1 || q.zero_points[0] != 0)
        fail_op("value '" + T(value).name + "' must have one scale and zero point 0 (TensorFlow Lite Micro's " +
                "int8 -> float32 lookup)");
      ir::Tensor picked = T(value);
      picked.name = T(y).name + "/rows";
      picked.shape = expected;
      picked.is_constant = false;
      picked.data.clear();
      rows = graph_.add_tensor(std::move(picked));
    }
    ir::Node& n = emit(ir::Op::kGather, {value, lookup}, {rows});
    n.attrs["axis"] = int64_t{0};
    n.attrs["batch_dims"] = int64_t{0};
    if (hybrid) emit(ir::Op::kDequantize, {rows}, {y});
  }

  // GATHER: inputs input, indices (int32, constant or computed: TFLite Micro takes both);
  // options axis (in [-rank, rank)) and batch_dims (in [-rank, rank] of the indices, a
  // negative one counting from their rank; at most axis), the indices' first batch_dims
  // dims the input's. The output keeps the input's bytes (quantized values unchanged).
  // Constant indices must lie in [0, dim of axis); computed ones outside give zero bytes
  // where TFLite Micro fails the invocation (kernels/gather/gather.h).
  void gather() {
    expect_inputs(2, 2);
    const auto* o = options<fb::GatherOptions>(false);
    const int x = required_input(0, "input");
    const int indices = int32_indices(1);
    const int y = output(0);
    const ir::Shape& in = T(x).shape;
    const ir::Shape& index_shape = T(indices).shape;
    const int64_t rank = static_cast<int64_t>(in.size()), index_rank = static_cast<int64_t>(index_shape.size());
    const int32_t axis_option = o ? o->axis() : 0, batch_option = o ? o->batch_dims() : 0;
    const int64_t axis = axis_option < 0 ? axis_option + rank : axis_option;
    if (axis < 0 || axis >= rank) fail_option("axis", std::to_string(axis_option), "input rank " + std::to_string(rank));
    const int64_t batch_dims = batch_option < 0 ? batch_option + index_rank : batch_option;
    if (batch_dims < 0 || batch_dims > index_rank || batch_dims > axis)
      fail_option("batch_dims", std::to_string(batch_option),
                  "indices rank " + std::to_string(index_rank) + ", axis " + std::to_string(axis));
    if (!std::equal(index_shape.begin(), index_shape.begin() + batch_dims, in.begin()))
      fail_op("indices '" + T(indices).name + "' of shape " + ints_string(index_shape) + " and input '" + T(x).name +
              "' of shape " + ints_string(in) + " differ in their " + std::to_string(batch_dims) + " batch dims");
    ir::Shape expected(in.begin(), in.begin() + axis);
    expected.insert(expected.end(), index_shape.begin() + batch_dims, index_shape.end());
    expected.insert(expected.end(), in.begin() + axis + 1, in.end());
    expect_shape(y, "output", expected);
    expect_input_dtype(y, "output", x);
    if (T(indices).is_constant) {
      for (int64_t index : read_ints(indices, "indices"))
        if (index < 0 || index >= in[axis])
          fail_op("indices '" + T(indices).name + "' hold " + std::to_string(index) + ", outside [0, " +
                  std::to_string(in[axis]) + ") of input axis " + std::to_string(axis));
    }
    ir::Node& n = emit(ir::Op::kGather, {x, indices}, {y});
    n.attrs["axis"] = axis;
    n.attrs["batch_dims"] = batch_dims;
  }

  // GATHER_ND: inputs input [d0..], indices (int32 [c.., n], constant or computed, n at
  // most the input's rank and 5 as in TFLite Micro): output (c, i) is the input at the
  // row's n leading coordinates. Constant rows must lie inside the input; computed ones
  // outside give zero bytes where TFLite Micro's newer kernels fail the invocation.
  void gather_nd() {
    expect_inputs(2, 2);
    options<fb::GatherNdOptions>(false);
    const int x = required_input(0, "input");
    const int indices = int32_indices(1);
    const int y = output(0);
    const ir::Shape& in = T(x).shape;
    const ir::Shape& index_shape = T(indices).shape;
    if (in.empty()) fail_op("input '" + T(x).name + "' is a scalar, expected rank >= 1");
    const int64_t depth = index_shape.empty() ? -1 : index_shape.back();
    if (depth < 0 || depth > static_cast<int64_t>(in.size()) || depth > 5)
      fail_op("indices '" + T(indices).name + "' of shape " + ints_string(index_shape) +
              " must end in a dim of at most 5 and the input's rank " + std::to_string(in.size()));
    ir::Shape expected(index_shape.begin(), index_shape.end() - 1);
    expected.insert(expected.end(), in.begin() + depth, in.end());
    expect_shape(y, "output", expected);
    expect_input_dtype(y, "output", x);
    if (T(indices).is_constant) {
      const std::vector<int64_t> rows = read_ints(indices, "indices");
      for (size_t k = 0; k < rows.size(); ++k) {
        const int64_t dim = in[k % static_cast<size_t>(depth)];
        if (rows[k] < 0 || rows[k] >= dim)
          fail_op("indices '" + T(indices).name + "' hold " + std::to_string(rows[k]) + ", outside [0, " +
                  std::to_string(dim) + ") of input axis " + std::to_string(k % static_cast<size_t>(depth)));
      }
    }
    emit(ir::Op::kGatherNd, {x, indices}, {y});
  }

  // TFLite inputs: output_shape, filter [O,KH,KW,C] (OHWI), input [N,H,W,C], bias [O];
  // float32, int8 or 16x8 (a float input with an int8 filter, "hybrid", is refused).
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
    // TensorFlow Lite Micro runs float32 x float32, int8 x int8 and int16 x int8 (16x8).
    if (T(w).dtype != T(x).dtype && !(T(x).dtype == DType::kInt16 && T(w).dtype == DType::kInt8))
      fail_op("input '" + T(x).name + "' and filter '" + T(w).name + "' have types " + dtype_name(T(x).dtype) +
              " and " + dtype_name(T(w).dtype) + " (hybrid transpose_conv: TensorFlow Lite Micro does not run it)");
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
    ir::Node& n = emit(ir::Op::kTransposeConv, {x, w, widened_16x8_bias(x, b)}, {y});
    n.attrs["strides"] = std::vector<int64_t>{strides[0], strides[1]};
    n.attrs["pads"] = std::vector<int64_t>{pads[0], pads[1], pads[2], pads[3]};
    set_activation(n, o->fused_activation_function());
  }

  // A 16x8 TRANSPOSE_CONV's int16 bias, which TensorFlow Lite Micro widens to int64 at run
  // time, as a constant int64 copy (the kernel's bias type); any other bias as it is.
  int widened_16x8_bias(int x, int b) {
    if (b == ir::kNoTensor || T(x).dtype != DType::kInt16 || T(b).dtype != DType::kInt16) return b;
    if (!T(b).is_constant) fail_op("int16 bias '" + T(b).name + "' must be a constant");
    ir::Tensor wide = T(b);
    wide.name += "/int64";
    wide.dtype = DType::kInt64;
    wide.data.resize(static_cast<size_t>(wide.elements()) * sizeof(int64_t));
    for (int64_t i = 0; i < wide.elements(); ++i) {
      int16_t v;
      std::memcpy(&v, T(b).data.data() + 2 * i, 2);
      const int64_t v64 = v;
      std::memcpy(wide.data.data() + 8 * i, &v64, 8);
    }
    return graph_.add_tensor(std::move(wide));
  }

  void leaky_relu() {
    expect_inputs(1, 1);
    const auto* o = options<fb::LeakyReluOptions>(true);
    const int x = required_input(0, "input");
    const int y = output(0);
    expect_shape(y, "output", T(x).shape);
    emit(ir::Op::kLeakyRelu, {x}, {y}).attrs["alpha"] = static_cast<double>(o->alpha());
  }

  // PRELU: input, alpha (broadcast against it, numpy rules); no options. TFLite's kernel
  // is 4-D: ranks above 4 are refused.
  void prelu() {
    expect_inputs(2, 2);
    const int x = required_input(0, "input");
    const int alpha = required_input(1, "alpha");
    const int y = output(0);
    for (int id : {x, alpha})
      if (T(id).shape.size() > 4)
        fail_op("'" + T(id).name + "' has shape " + ints_string(T(id).shape) + ", at most rank 4 is supported");
    const std::optional<ir::Shape> shape = broadcast_shape(T(x).shape, T(alpha).shape);
    if (!shape)
      fail_op("alpha '" + T(alpha).name + "' of shape " + ints_string(T(alpha).shape) +
              " does not broadcast against input " + ints_string(T(x).shape));
    expect_shape(y, "output", *shape);
    emit(ir::Op::kPrelu, {x, alpha}, {y});
  }

  // RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR: input [N,H,W,C], size a constant int32
  // [2] (OH, OW; TFLite Micro takes no other), output [N,OH,OW,C]. The output shape
  // carries the size; the flags become attributes. Every flag combination is valid for
  // nearest; bilinear refuses half_pixel_centers with align_corners, as TFLite does.
  void resize_nearest_neighbor() {
    const auto* o = options<fb::ResizeNearestNeighborOptions>(false);
    resize(ir::Op::kResizeNearest, o && o->align_corners(), o && o->half_pixel_centers());
  }

  void resize_bilinear() {
    const auto* o = options<fb::ResizeBilinearOptions>(false);
    const bool align_corners = o && o->align_corners(), half_pixel_centers = o && o->half_pixel_centers();
    if (align_corners && half_pixel_centers)
      fail_op("half_pixel_centers with align_corners not supported (TFLite requires one of them false)");
    resize(ir::Op::kResizeBilinear, align_corners, half_pixel_centers);
  }

  void resize(ir::Op op, bool align_corners, bool half_pixel_centers) {
    expect_inputs(2, 2);
    const int x = required_input(0, "input");
    const int size = constant_input(1, "size");
    const int y = output(0);
    expect_rank_nonempty(x, "input", 4);
    const std::vector<int64_t> hw = resize_size(size);
    const ir::Shape& in = T(x).shape;
    expect_shape(y, "output", {in[0], hw[0], hw[1], in[3]});
    ir::Node& n = emit(op, {x}, {y});
    n.attrs["align_corners"] = int64_t{align_corners};
    n.attrs["half_pixel_centers"] = int64_t{half_pixel_centers};
  }

  // DEPTH_TO_SPACE: [N,H,W,C] -> [N,H*b,W*b,C/(b*b)], C a multiple of b*b; SPACE_TO_DEPTH
  // the inverse, b dividing H and W. block_size b >= 1 (TFLite's default 0 is refused, as
  // TFLite Micro refuses it).
  void depth_to_space() {
    const auto* o = options<fb::DepthToSpaceOptions>(false);
    const int64_t b = o ? o->block_size() : 0;
    const auto [x, y] = block_io(b);
    const ir::Shape& in = T(x).shape;
    if (in[3] % (b * b) != 0)
      fail_op("input '" + T(x).name + "' has " + std::to_string(in[3]) + " channels, not a multiple of block_size^2 = " +
              std::to_string(b * b));
    expect_shape(y, "output", {in[0], in[1] * b, in[2] * b, in[3] / (b * b)});
    emit(ir::Op::kDepthToSpace, {x}, {y}).attrs["block_size"] = b;
  }

  void space_to_depth() {
    const auto* o = options<fb::SpaceToDepthOptions>(false);
    const int64_t b = o ? o->block_size() : 0;
    const auto [x, y] = block_io(b);
    const ir::Shape& in = T(x).shape;
    if (in[1] % b != 0 || in[2] % b != 0)
      fail_op("input '" + T(x).name + "' of shape " + ints_string(in) + " does not divide into " + std::to_string(b) +
              "x" + std::to_string(b) + " blocks");
    expect_shape(y, "output", {in[0], in[1] / b, in[2] / b, in[3] * b * b});
    emit(ir::Op::kSpaceToDepth, {x}, {y}).attrs["block_size"] = b;
  }

  // The input [N,H,W,C] and output of DEPTH_TO_SPACE / SPACE_TO_DEPTH, block_size checked.
  std::pair<int, int> block_io(int64_t block_size) {
    expect_inputs(1, 1);
    check_positive("block_size", block_size);
    const int x = required_input(0, "input");
    const int y = output(0);
    expect_rank_nonempty(x, "input", 4);
    return {x, y};
  }

  // BATCH_TO_SPACE_ND and SPACE_TO_BATCH_ND: input [B,H,W,C] or [B,H,C] (the ranks TFLite
  // Micro takes), block_shape a constant int32 [M] and crops / paddings a constant int32
  // [M,2], M = rank - 2 spatial dims; block sizes >= 1, crops and paddings >= 0. The
  // attributes take the 4-D form: block [bh,bw] and crops / pads [top,bottom,left,right]
  // (rank 3: bw 1, left and right 0).
  struct BlockMove {
    int x = ir::kNoTensor, y = ir::kNoTensor;
    std::vector<int64_t> block;    // [bh, bw]
    std::vector<int64_t> amounts;  // [top, bottom, left, right]
  };

  BlockMove block_move(const std::string& amounts_role) {
    expect_inputs(3, 3);
    BlockMove m;
    m.x = required_input(0, "input");
    const int block_t = constant_input(1, "block_shape");
    const int amounts_t = constant_input(2, amounts_role);
    m.y = output(0);
    const size_t rank = T(m.x).shape.size();
    if (rank != 3 && rank != 4)
      fail_op("input '" + T(m.x).name + "' has shape " + ints_string(T(m.x).shape) + ", expected rank 3 or 4");
    const int64_t spatial = static_cast<int64_t>(rank) - 2;
    for (const auto& [id, role] : {std::pair{block_t, std::string("block_shape")}, std::pair{amounts_t, amounts_role}})
      if (T(id).dtype != DType::kInt32)
        fail_op(role + " '" + T(id).name + "' has type " + dtype_name(T(id).dtype) + ", expected int32");
    expect_shape(block_t, "block_shape", {spatial});
    expect_shape(amounts_t, amounts_role, {spatial, 2});
    const std::vector<int64_t> block = read_ints(block_t, "block_shape");
    const std::vector<int64_t> amounts = read_ints(amounts_t, amounts_role);
    for (int64_t b : block)
      if (b < 1) fail_op("block_shape " + ints_string(block) + " not supported (must be >= 1)");
    for (int64_t a : amounts)
      if (a < 0) fail_op(amounts_role + " " + ints_string(amounts) + " not supported (negative)");
    m.block = {block[0], spatial == 2 ? block[1] : 1};
    m.amounts = {amounts[0], amounts[1], spatial == 2 ? amounts[2] : 0, spatial == 2 ? amounts[3] : 0};
    return m;
  }

  void batch_to_space_nd() {
    options<fb::BatchToSpaceNDOptions>(false);
    const BlockMove m = block_move("crops");
    const ir::Shape& in = T(m.x).shape;
    const int64_t blocks = m.block[0] * m.block[1];
    if (in[0] % blocks != 0)
      fail_op("input batch " + std::to_string(in[0]) + " is not a multiple of the block size " + std::to_string(blocks));
    ir::Shape expected = in;
    expected[0] = in[0] / blocks;
    expected[1] = in[1] * m.block[0] - m.amounts[0] - m.amounts[1];
    if (in.size() == 4) expected[2] = in[2] * m.block[1] - m.amounts[2] - m.amounts[3];
    for (size_t i = 1; i + 1 < expected.size(); ++i)
      if (expected[i] < 1) fail_op("crops " + ints_string(m.amounts) + " leave nothing of input " + ints_string(in));
    expect_shape(m.y, "output", expected);
    ir::Node& n = emit(ir::Op::kBatchToSpace, {m.x}, {m.y});
    n.attrs["block"] = m.block;
    n.attrs["crops"] = m.amounts;
  }

  void space_to_batch_nd() {
    options<fb::SpaceToBatchNDOptions>(false);
    const BlockMove m = block_move("paddings");
    const ir::Shape& in = T(m.x).shape;
    ir::Shape expected = in;
    expected[0] = in[0] * m.block[0] * m.block[1];
    for (size_t axis = 1; axis + 1 < in.size(); ++axis) {
      const int64_t padded = in[axis] + m.amounts[2 * (axis - 1)] + m.amounts[2 * axis - 1];
      const int64_t block = m.block[axis - 1];
      if (padded % block != 0)
        fail_op("padded dim " + std::to_string(axis) + " of size " + std::to_string(padded) +
                " is not a multiple of block_shape " + std::to_string(block));
      expected[axis] = padded / block;
    }
    expect_shape(m.y, "output", expected);
    ir::Node& n = emit(ir::Op::kSpaceToBatch, {m.x}, {m.y});
    n.attrs["block"] = m.block;
    n.attrs["pads"] = m.amounts;
  }

  // A resize op's size input: int32 [2], both values >= 1.
  std::vector<int64_t> resize_size(int size) const {
    if (T(size).dtype != DType::kInt32)
      fail_op("size '" + T(size).name + "' has type " + dtype_name(T(size).dtype) + ", expected int32");
    expect_shape(size, "size", {2});
    const std::vector<int64_t> hw = read_ints(size, "size");
    if (hw[0] < 1 || hw[1] < 1) fail_op("size " + ints_string(hw) + " not supported (must be >= 1)");
    return hw;
  }

  // UNIDIRECTIONAL_SEQUENCE_LSTM: all 24 TFLite inputs in TFLite's order (kNoTensor for
  // an omitted one; files with 20 inputs predate the layer-norm weights; 18 and 19, the
  // hidden and cell state, are variables: persistent), outputs y and the hidden and cell
  // state after the sequence, copied back into 18 and 19 (carried_state()), the options,
  // and the operator's intermediate tensors' quantization as attributes (informational:
  // TFLite Micro's integer kernels, which Mote's int8 and 16x8 LSTM kernels reproduce, fix the
  // gate scales at 2^-12 / 2^-15 and never read them).
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
    const int h_next = carried_state(inputs[18], "hidden state (input 18)");
    const int c_next = carried_state(inputs[19], "cell state (input 19)");
    node.outputs = {y, h_next, c_next};
    node.attrs["activation"] = lower_case(enum_string(act, fb::EnumNameActivationFunctionType(act)));
    node.attrs["cell_clip"] = static_cast<double>(o ? o->cell_clip() : 0.0f);
    node.attrs["proj_clip"] = static_cast<double>(o ? o->proj_clip() : 0.0f);
    node.attrs["time_major"] = int64_t{time_major};
    node.attrs["asymmetric_quantize_inputs"] = int64_t{o && o->asymmetric_quantize_inputs()};
    node.attrs["intermediate_scales"] = scales;
    node.attrs["intermediate_zero_points"] = zero_points;
    graph_.nodes.push_back(std::move(node));
    write_back(h_next, inputs[18]);
    write_back(c_next, inputs[19]);
  }

  // A stateful op's variable input `state` (persistent, see tensor()): the tensor for its
  // value after this run, the op's extra output, like `state` in dtype, shape and
  // quantization. write_back() copies it into the state once the op has run.
  int carried_state(int state, const std::string& role) {
    if (!T(state).is_persistent) {
      const bool input = std::find(graph_.inputs.begin(), graph_.inputs.end(), state) != graph_.inputs.end();
      fail_op(role + " '" + T(state).name + "' is " + (input ? "a graph input, " : "") +
              "not a variable tensor kept between runs");
    }
    ir::Tensor t;
    t.name = T(state).name + " (next)";
    t.dtype = T(state).dtype;
    t.shape = T(state).shape;
    t.quant = variable_quant_.at(state);
    return graph_.add_tensor(std::move(t));
  }

  void write_back(int next, int state) {
    ir::Node& node = emit(ir::Op::kCopy, {next}, {state});
    node.name = T(state).name + " = " + T(next).name;
  }

  // SVDF: input, weights_feature, weights_time (constants), bias (optional), the
  // activation state (a variable tensor: persistent state, see tensor()); outputs y and
  // the state after this run, which a copy writes back into the variable; rank and the
  // fused activation as attributes. asymmetric_quantize_inputs
  // only concerns TFLite's hybrid kernel, which TFLite Micro does not have.
  void svdf() {
    expect_inputs(5, 5);
    const auto* o = options<fb::SVDFOptions>(true);
    const int x = required_input(0, "input");
    const int wf = constant_input(1, "weights_feature");
    const int wt = constant_input(2, "weights_time");
    const int b = input(3);
    const int state = required_input(4, "activation state");
    const int y = output(0);
    const int32_t index = op_->inputs()->Get(4);
    if (!subgraph_->tensors()->Get(static_cast<uint32_t>(index))->is_variable())
      fail_op("activation state (input 4) '" + T(state).name + "' is not a variable tensor");
    const int next = carried_state(state, "activation state (input 4)");
    expect_rank(x, "input", 2);
    expect_rank(wf, "weights_feature", 2);
    const int64_t filters = T(wf).shape[0];
    if (o->rank() < 1 || filters % o->rank() != 0)
      fail_op("rank " + std::to_string(o->rank()) + " does not divide the " + std::to_string(filters) +
              " filters of weights_feature " + ints_string(T(wf).shape));
    expect_shape(y, "output", ir::Shape{T(x).shape[0], filters / o->rank()});
    ir::Node& node = emit(ir::Op::kSvdf, {x, wf, wt, b, state}, {y, next});
    node.attrs["rank"] = int64_t{o->rank()};
    // TFLite Micro's integer SVDF applies no fused activation: only the float one has it.
    if (T(x).dtype == DType::kFloat32) set_activation(node, o->fused_activation_function());
    write_back(next, state);
  }

  // ---- operators whose value is known here, or a broadcast ---------------------------
  // Output y becomes a constant holding `data` (TFLite Micro would compute it from
  // constants and static shapes); no node is emitted. A graph output that is a constant
  // is copied out by the lowering.
  void fold(int y, std::vector<uint8_t> data) {
    ir::Tensor& t = graph_.tensors[y];
    t.is_constant = true;
    t.data = std::move(data);
  }

  static std::vector<uint8_t> int_bytes(const std::vector<int64_t>& values, DType dtype) {
    std::vector<uint8_t> bytes;
    for (int64_t v : values) {
      const size_t at = bytes.size();
      if (dtype == DType::kInt32) {
        const int32_t w = static_cast<int32_t>(v);
        bytes.resize(at + 4);
        std::memcpy(bytes.data() + at, &w, 4);
      } else {
        bytes.resize(at + 8);
        std::memcpy(bytes.data() + at, &v, 8);
      }
    }
    return bytes;
  }

  void expect_int_shape_type(int id, const std::string& role) const {
    if (T(id).dtype != DType::kInt32 && T(id).dtype != DType::kInt64)
      fail_op(role + " '" + T(id).name + "' has type " + dtype_name(T(id).dtype) + ", expected int32 or int64");
  }

  // y = x broadcast to y's shape (numpy rules: x's shape right-aligned, its dims of 1
  // repeated; checked by the caller). A constant x folds; otherwise x flattened to [n]
  // (reshape) is gathered along axis 0 with constant indices (the source element of each
  // output element) into y flattened, reshaped to y's shape.
  void emit_broadcast(int x, int y) {
    const ir::Shape in = T(x).shape, out = T(y).shape;
    const int64_t count = T(y).elements();
    const std::vector<int64_t> wide = ir::broadcast_source(in, out);
    const std::vector<int32_t> source(wide.begin(), wide.end());
    const size_t element = static_cast<size_t>(dtype_size(T(x).dtype));
    if (T(x).is_constant) {
      std::vector<uint8_t> data(static_cast<size_t>(count) * element);
      for (size_t i = 0; i < source.size(); ++i)
        std::memcpy(data.data() + i * element, T(x).data.data() + static_cast<size_t>(source[i]) * element, element);
      fold(y, std::move(data));
      return;
    }
    auto derived = [&](int from, const std::string& suffix, ir::Shape shape) {
      ir::Tensor t = T(from);
      t.name += suffix;
      t.shape = std::move(shape);
      t.is_constant = false;
      t.data.clear();
      return graph_.add_tensor(std::move(t));
    };
    int flat_x = x;
    if (in.size() != 1) {
      flat_x = derived(x, "/flattened", {T(x).elements()});
      emit(ir::Op::kReshape, {x}, {flat_x});
    }
    ir::Tensor indices;
    indices.name = T(y).name + "/broadcast_indices";
    indices.dtype = DType::kInt32;
    indices.shape = {count};
    indices.is_constant = true;
    indices.data.resize(source.size() * 4);
    std::memcpy(indices.data.data(), source.data(), indices.data.size());
    const int indices_id = graph_.add_tensor(std::move(indices));
    const int flat_y = out.size() == 1 ? y : derived(y, "/flat", {count});
    ir::Node& node = emit(ir::Op::kGather, {flat_x, indices_id}, {flat_y});
    node.attrs["axis"] = int64_t{0};
    node.attrs["batch_dims"] = int64_t{0};
    if (flat_y != y) emit(ir::Op::kReshape, {flat_y}, {y});
  }

  // SHAPE: the input's static shape as int32 or int64 (out_type), a constant.
  void shape() {
    expect_inputs(1, 1);
    const auto* o = options<fb::ShapeOptions>(false);
    const int x = required_input(0, "input");
    const int y = output(0);
    const fb::TensorType out_type = o ? o->out_type() : fb::TensorType::INT32;
    expect_int_shape_type(y, "output");
    const DType want = out_type == fb::TensorType::INT64 ? DType::kInt64 : DType::kInt32;
    if ((out_type != fb::TensorType::INT32 && out_type != fb::TensorType::INT64) || T(y).dtype != want)
      fail_op("out_type " + std::string(fb::EnumNameTensorType(out_type)) + " does not match output '" + T(y).name +
              "' of type " + dtype_name(T(y).dtype));
    expect_shape(y, "output", ir::Shape{static_cast<int64_t>(T(x).shape.size())});
    fold(y, int_bytes(T(x).shape, want));
  }

  // ZEROS_LIKE: zero bytes of the input's shape and type (int64, int32, int8, float32 as
  // TFLite Micro; int8 holds 0, not the zero point), a constant.
  void zeros_like() {
    expect_inputs(1, 1);
    const int x = required_input(0, "input");
    const int y = output(0);
    const DType t = T(x).dtype;
    if (t != DType::kInt64 && t != DType::kInt32 && t != DType::kInt8 && t != DType::kFloat32)
      fail_op("input '" + T(x).name + "' has type " + dtype_name(t) + ", expected int64, int32, int8 or float32");
    expect_input_dtype(y, "output", x);
    expect_shape(y, "output", T(x).shape);
    fold(y, std::vector<uint8_t>(static_cast<size_t>(T(y).bytes()), 0));
  }

  // BROADCAST_ARGS: the broadcast of two constant shape vectors, a constant.
  void broadcast_args() {
    expect_inputs(2, 2);
    const int a = constant_input(0, "shape 0");
    const int b = constant_input(1, "shape 1");
    const int y = output(0);
    for (int id : {a, b}) {
      expect_int_shape_type(id, "input");
      expect_rank(id, "input", 1);
    }
    expect_input_dtype(b, "input 1", a);
    expect_input_dtype(y, "output", a);
    const std::optional<ir::Shape> shape = broadcast_shape(read_ints(a, "shape 0"), read_ints(b, "shape 1"));
    if (!shape)
      fail_op("shapes " + ints_string(read_ints(a, "shape 0")) + " and " + ints_string(read_ints(b, "shape 1")) +
              " do not broadcast");
    expect_shape(y, "output", ir::Shape{static_cast<int64_t>(shape->size())});
    fold(y, int_bytes(*shape, T(y).dtype));
  }

  // BROADCAST_TO: the input repeated to a constant shape (rank <= 5, as TFLite Micro).
  void broadcast_to() {
    expect_inputs(2, 2);
    const int x = required_input(0, "input");
    const int shape_id = constant_input(1, "shape");
    const int y = output(0);
    expect_int_shape_type(shape_id, "shape");
    expect_rank(shape_id, "shape", 1);
    const std::vector<int64_t> shape = read_ints(shape_id, "shape");
    if (shape.size() > 5 || T(x).shape.size() > shape.size())
      fail_op("input " + ints_string(T(x).shape) + " to shape " + ints_string(shape) +
              ": expected input rank <= shape rank <= 5");
    const std::optional<ir::Shape> out = broadcast_shape(T(x).shape, shape);
    if (!out || *out != shape)
      fail_op("input '" + T(x).name + "' of shape " + ints_string(T(x).shape) + " does not broadcast to " +
              ints_string(shape));
    expect_input_dtype(y, "output", x);
    expect_shape(y, "output", shape);
    emit_broadcast(x, y);
  }

  // FILL: a scalar value repeated to constant dims (float32, int32, int8: the value's
  // bytes, as TFLite Micro). A constant value folds; a computed one is broadcast.
  void fill() {
    expect_inputs(2, 2);
    const int dims_id = constant_input(0, "dims");
    const int value = required_input(1, "value");
    const int y = output(0);
    expect_int_shape_type(dims_id, "dims");
    expect_rank(dims_id, "dims", 1);
    const std::vector<int64_t> dims = read_ints(dims_id, "dims");
    if (!T(value).shape.empty())
      fail_op("value '" + T(value).name + "' has shape " + ints_string(T(value).shape) + ", expected a scalar");
    const DType t = T(value).dtype;
    if (t != DType::kFloat32 && t != DType::kInt32 && t != DType::kInt8)
      fail_op("value '" + T(value).name + "' has type " + dtype_name(t) + ", expected float32, int32 or int8");
    expect_input_dtype(y, "output", value);
    expect_shape(y, "output", dims);
    emit_broadcast(value, y);
  }

  // REVERSE_V2: the input with a constant int32 list of axes reversed, as a strided slice
  // starting at each reversed axis's last index with stride -1. TFLite Micro takes the
  // axes sorted into one contiguous run (each in [-rank, rank)), nothing else.
  void reverse_v2() {
    expect_inputs(2, 2);
    const int x = required_input(0, "input");
    const int axis_id = constant_input(1, "axis");
    const int y = output(0);
    if (T(axis_id).dtype != DType::kInt32)
      fail_op("axis '" + T(axis_id).name + "' has type " + dtype_name(T(axis_id).dtype) + ", expected int32");
    expect_rank(axis_id, "axis", 1);
    const ir::Shape& in = T(x).shape;
    const int64_t rank = static_cast<int64_t>(in.size());
    std::vector<int64_t> axes = read_ints(axis_id, "axis");
    if (static_cast<int64_t>(axes.size()) > rank)
      fail_op("axis " + ints_string(axes) + " has more entries than the input's rank " + std::to_string(rank));
    for (int64_t& a : axes) {
      if (a < -rank || a >= rank) fail_op("axis " + std::to_string(a) + " out of range for rank " + std::to_string(rank));
      if (a < 0) a += rank;
    }
    std::sort(axes.begin(), axes.end());
    for (size_t i = 1; i < axes.size(); ++i)
      if (axes[i - 1] + 1 != axes[i])
        fail_op("axes " + ints_string(axes) + " are not one contiguous run (TFLite Micro reverses only those)");
    expect_input_dtype(y, "output", x);
    expect_shape(y, "output", in);
    std::vector<int64_t> begin(in.size(), 0), strides(in.size(), 1);
    for (int64_t a : axes) {
      begin[static_cast<size_t>(a)] = in[static_cast<size_t>(a)] - 1;
      strides[static_cast<size_t>(a)] = -1;
    }
    ir::Node& n = emit(ir::Op::kStridedSlice, {x}, {y});
    n.attrs["begin"] = begin;
    n.attrs["strides"] = strides;
    n.attrs["sizes"] = std::vector<int64_t>(in.begin(), in.end());
  }

  // DYNAMIC_UPDATE_SLICE: operand, update (same dtype and rank, no dim larger), start
  // indices int32/int64 [rank] (computed or constant; the kernel clamps them as TFLite).
  void dynamic_update_slice() {
    expect_inputs(3, 3);
    const int x = required_input(0, "operand");
    const int update = required_input(1, "update");
    const int indices = required_input(2, "start indices");
    const int y = output(0);
    expect_input_dtype(update, "update", x);
    expect_int_shape_type(indices, "start indices");
    expect_shape(indices, "start indices", ir::Shape{static_cast<int64_t>(T(x).shape.size())});
    expect_rank(update, "update", T(x).shape.size());
    for (size_t k = 0; k < T(x).shape.size(); ++k)
      if (T(update).shape[k] > T(x).shape[k])
        fail_op("update '" + T(update).name + "' of shape " + ints_string(T(update).shape) +
                " is larger than the operand " + ints_string(T(x).shape));
    expect_input_dtype(y, "output", x);
    expect_shape(y, "output", T(x).shape);
    emit(ir::Op::kDynamicUpdateSlice, {x, update, indices}, {y});
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

  // ---- resource variables ------------------------------------------------------------
  // TFLite Micro keys a resource variable by (container, shared_name) across subgraphs;
  // its buffer is sized by the first ASSIGN_VARIABLE TFLite Micro prepares (subgraph 0
  // first) and filled with that value's zero point (low byte) until assigned. Here each
  // variable is one persistent tensor; READ_VARIABLE copies it out and ASSIGN_VARIABLE
  // copies a value in, in file order (ir::Graph::order_edges keeps that order).
  struct Variable {
    std::string container, shared_name;
    int state = -1;          // the persistent ir tensor, once a READ or ASSIGN reached it
    std::string fixed_by;    // the operator that fixed its dtype and shape
    std::string first_read;  // the first operator reading it ("" when none)
    bool assigned = false;
    std::pair<int, int> first_assign{-1, -1};  // (subgraph, operator) in TFLite Micro's prepare order
    ir::QuantParams fill_quant;  // the first assignment's value quantization
  };

  std::string here() const { return subgraph_label_ + "operator " + std::to_string(op_index_) + " (" + op_name_ + ")"; }

  static std::string variable_label(const Variable& v) {
    return "variable '" + v.shared_name + "'" + (v.container.empty() ? "" : " (container '" + v.container + "')");
  }

  // Per-subgraph bookkeeping for subgraph_.
  void begin_subgraph() {
    const size_t count = subgraph_->tensors() ? subgraph_->tensors()->size() : 0;
    ids_.assign(count, -1);
    mark_raw_only_tensors();
    writer_.assign(count, -1);
    is_graph_input_.assign(count, false);
    handle_of_.assign(count, -1);
  }

  // VAR_HANDLE: no inputs, one resource output naming the variable; no node.
  void var_handle() {
    expect_inputs(0, 0);
    const auto* o = options<fb::VarHandleOptions>(false);
    Variable key;
    if (o && o->container()) key.container = o->container()->str();
    if (o && o->shared_name()) key.shared_name = o->shared_name()->str();
    const int32_t index = op_->outputs()->Get(0);
    check_tensor_index(index, "output 0");
    if (writer_[index] >= 0)
      fail_op("output tensor " + std::to_string(index) + " is already written by operator " + std::to_string(writer_[index]));
    if (subgraph_->tensors()->Get(static_cast<uint32_t>(index))->type() != fb::TensorType::RESOURCE)
      fail_op("output tensor " + std::to_string(index) + " is not a RESOURCE tensor");
    writer_[index] = op_index_;
    for (size_t v = 0; v < variables_.size(); ++v) {
      if (variables_[v].container == key.container && variables_[v].shared_name == key.shared_name) {
        handle_of_[index] = static_cast<int>(v);
        return;
      }
    }
    handle_of_[index] = static_cast<int>(variables_.size());
    variables_.push_back(std::move(key));
  }

  // The variable input 0 names (a VAR_HANDLE output of this subgraph).
  Variable& variable_input() {
    const int32_t index = input_count() > 0 ? op_->inputs()->Get(0) : -1;
    check_tensor_index(index, "input 0");
    if (handle_of_[index] < 0)
      fail_op("input 0 (tensor " + std::to_string(index) + ") is not the output of a VAR_HANDLE operator");
    if (subgraph_label_.empty() && first_state_op_.empty()) first_state_op_ = here();
    return variables_[static_cast<size_t>(handle_of_[index])];
  }

  // The variable's persistent tensor, made from `like` (dtype, shape) at its first use;
  // later uses must agree.
  int state_tensor(Variable& v, int like) {
    if (v.state < 0) {
      ir::Tensor t;
      t.name = v.container.empty() ? v.shared_name : v.container + "/" + v.shared_name;
      t.dtype = T(like).dtype;
      t.shape = T(like).shape;
      t.is_persistent = true;
      v.state = graph_.add_tensor(std::move(t));
      v.fixed_by = here();
    }
    const ir::Tensor& state = T(v.state);
    if (state.dtype != T(like).dtype || state.shape != T(like).shape)
      fail_op(variable_label(v) + " is " + dtype_name(T(like).dtype) + " " + ints_string(T(like).shape) +
              " here but " + dtype_name(state.dtype) + " " + ints_string(state.shape) + " at " + v.fixed_by);
    return v.state;
  }

  // READ_VARIABLE: the variable's bytes copied into the output.
  void read_variable() {
    expect_inputs(1, 1);
    Variable& v = variable_input();
    const int y = output(0);
    const int state = state_tensor(v, y);
    if (v.first_read.empty()) v.first_read = here();
    emit(ir::Op::kCopy, {state}, {y});
  }

  // ASSIGN_VARIABLE: input 1 copied into the variable; no outputs.
  void assign_variable() {
    expect_input_count(2, 2);
    if (output_count() != 0) fail_op("has " + std::to_string(output_count()) + " outputs, expected none");
    Variable& v = variable_input();
    const int value = required_input(1, "value");
    const int state = state_tensor(v, value);
    const int subgraph = subgraph_label_.empty() ? 0 : current_subgraph_;
    if (!v.assigned || std::make_pair(subgraph, op_index_) < v.first_assign) {
      v.first_assign = {subgraph, op_index_};
      v.fill_quant = T(value).quant;
    }
    v.assigned = true;
    ir::Node& node = emit(ir::Op::kCopy, {value}, {state});
    node.name = T(state).name + " = " + T(value).name;
  }

  // CALL_ONCE: its init subgraph (no inputs, no outputs, no CALL_ONCE of its own) is
  // imported here; its nodes become the graph's init nodes, run before all others on the
  // first run only. So that running them first changes nothing, no variable may be read
  // or assigned before a CALL_ONCE.
  void call_once() {
    expect_input_count(0, 0);
    if (output_count() != 0) fail_op("has " + std::to_string(output_count()) + " outputs, expected none");
    if (branch_depth_ > 0 || unrolling_ > 0) fail_op("CALL_ONCE inside an IF branch or a WHILE loop not supported");
    if (!subgraph_label_.empty()) fail_op("CALL_ONCE inside an init subgraph not supported");
    if (!first_state_op_.empty())
      fail_op("runs after " + first_state_op_ + " reads or assigns a variable, not supported");
    const auto* o = options<fb::CallOnceOptions>(true);
    const int64_t index = o->init_subgraph_index();
    const uint32_t count = model_->subgraphs()->size();
    if (index < 1 || index >= count)
      fail_op("init_subgraph_index " + std::to_string(index) + " out of range (the model has " +
              std::to_string(count) + " subgraphs; 0 is the main one)");
    const fb::SubGraph* init = model_->subgraphs()->Get(static_cast<uint32_t>(index));
    const uint32_t inputs = init->inputs() ? init->inputs()->size() : 0;
    const uint32_t outputs = init->outputs() ? init->outputs()->size() : 0;
    if (inputs != 0 || outputs != 0)
      fail_op("init subgraph " + std::to_string(index) + " has " + std::to_string(inputs) + " inputs and " +
              std::to_string(outputs) + " outputs, expected none");
    import_init_subgraph(static_cast<int>(index));
  }

  void import_init_subgraph(int index) {
    const size_t first = graph_.nodes.size();
    in_subgraph(index, [] {}, [] {});
    init_ranges_.push_back({first, graph_.nodes.size()});
  }

  // Converts subgraph `index`'s operators into graph_ where the current operator stands
  // (CALL_ONCE's init subgraph, IF's branches): the per-subgraph state is saved, `bind`
  // runs in the subgraph's context before its operators (binding its inputs), `finish`
  // after them (reading its outputs), and the state comes back. active_subgraphs_ holds
  // the subgraphs being converted, so a subgraph that reaches itself is refused.
  template <typename Bind, typename Finish>
  void in_subgraph(int index, Bind bind, Finish finish) {
    const fb::SubGraph* saved_subgraph = subgraph_;
    std::vector<int> saved_ids = std::move(ids_), saved_writer = std::move(writer_), saved_handles = std::move(handle_of_);
    std::vector<bool> saved_inputs = std::move(is_graph_input_), saved_raw = std::move(raw_only_);
    const fb::Operator* saved_op = op_;
    const int saved_index = op_index_;
    const std::string saved_name = op_name_, saved_label = subgraph_label_;
    const int saved_current = current_subgraph_;

    subgraph_ = model_->subgraphs()->Get(static_cast<uint32_t>(index));
    subgraph_label_ = "subgraph " + std::to_string(index) + " ";
    current_subgraph_ = index;
    active_subgraphs_.push_back(index);
    check_operators();
    begin_subgraph();
    op_index_ = -1;
    bind();
    const auto* operators = subgraph_->operators();
    for (uint32_t i = 0; operators && i < operators->size(); ++i) convert_operator(i);
    op_index_ = -1;
    finish();
    active_subgraphs_.pop_back();

    subgraph_ = saved_subgraph;
    ids_ = std::move(saved_ids);
    writer_ = std::move(saved_writer);
    handle_of_ = std::move(saved_handles);
    is_graph_input_ = std::move(saved_inputs);
    raw_only_ = std::move(saved_raw);
    op_ = saved_op;
    op_index_ = saved_index;
    op_name_ = saved_name;
    subgraph_label_ = saved_label;
    current_subgraph_ = saved_current;
  }

  // ---- control flow -------------------------------------------------------------------
  // IF as TensorFlow Lite Micro's if.cc: input 0 the condition (bool, one element), the
  // other inputs copied into the inputs of the branch it picks (then_subgraph_index when
  // true, else_subgraph_index), that branch run, its outputs copied into IF's outputs.
  // The copies are of bytes: each branch input and output has the dtype and shape of the
  // IF operand it meets (TFLM checks the byte counts; its DCHECK the type); a quantization
  // that differs reads the same bytes as other values, as in TFLM.
  //
  // A constant condition (the converter's usual output of a Python `if` on a constant)
  // imports only the branch it takes, inline. A computed one becomes an `if` node whose
  // regions hold the two branches (the link lays them out with a branch and a jump: only
  // the branch taken runs). Resource variables a branch reads or assigns are state its
  // region's nodes touch (ir::Graph::order_edges keeps them in order); CALL_ONCE in a
  // branch is refused.
  void if_op() {
    if (input_count() < 1) fail_op("has no inputs, expected the condition as input 0");
    const auto* o = options<fb::IfOptions>(true);
    const int condition = required_input(0, "condition");
    if (T(condition).dtype != DType::kBool)
      fail_op("condition '" + T(condition).name + "' has type " + dtype_name(T(condition).dtype) + ", expected bool");
    if (T(condition).elements() != 1)
      fail_op("condition '" + T(condition).name + "' has shape " + ints_string(T(condition).shape) +
              ", expected one element");
    std::vector<int> args, outs;
    for (int k = 1; k < input_count(); ++k) args.push_back(required_input(k, "input"));
    for (int k = 0; k < output_count(); ++k) outs.push_back(output(k));
    const int then_index = o->then_subgraph_index(), else_index = o->else_subgraph_index();
    check_branch(then_index, "then_subgraph_index", args, &outs, 1);
    check_branch(else_index, "else_subgraph_index", args, &outs, 1);

    const size_t fresh_from = graph_.tensors.size();
    if (T(condition).is_constant) {
      bind_outputs(import_branch(T(condition).data[0] != 0 ? then_index : else_index, args, false), fresh_from);
      return;
    }
    ir::Node node;
    node.name = T(outs.empty() ? condition : outs[0]).name;
    node.op = ir::Op::kIf;
    node.inputs = {condition};
    node.inputs.insert(node.inputs.end(), args.begin(), args.end());
    node.regions.resize(2);
    const size_t first = graph_.nodes.size();
    node.regions[0].results = import_branch(then_index, args, true);
    cut_region(first, &node.regions[0]);
    node.regions[1].results = import_branch(else_index, args, true);
    cut_region(first, &node.regions[1]);
    for (int out : outs) node.outputs.push_back(new_like(out, T(out).name));
    const std::vector<int> values = node.outputs;
    graph_.nodes.push_back(std::move(node));
    bind_outputs(values, fresh_from);
  }

  // Moves graph_.nodes[first..] (a subgraph just imported inline) into `region`.
  void cut_region(size_t first, ir::Node::Region* region) {
    region->nodes.assign(std::make_move_iterator(graph_.nodes.begin() + static_cast<std::ptrdiff_t>(first)),
                         std::make_move_iterator(graph_.nodes.end()));
    graph_.nodes.resize(first);
  }

  // A new non-constant tensor of `like`'s dtype, shape and quantization.
  int new_like(int like, const std::string& name) {
    ir::Tensor t;
    t.name = name;
    t.dtype = T(like).dtype;
    t.shape = T(like).shape;
    t.quant = T(like).quant;
    return graph_.add_tensor(std::move(t));
  }

  // The subgraph an operator runs (`role`: the option naming it): in range, not running
  // already, and taking `args` (the operator's inputs from `first_arg` on) and giving
  // `results` (unless null), each of the same dtype and shape.
  void check_branch(int32_t index, const std::string& role, const std::vector<int>& args,
                    const std::vector<int>* results, int first_arg) const {
    const uint32_t count = model_->subgraphs()->size();
    if (index < 0 || static_cast<uint32_t>(index) >= count)
      fail_op(role + " " + std::to_string(index) + " out of range (the model has " + std::to_string(count) +
              " subgraphs)");
    if (std::find(active_subgraphs_.begin(), active_subgraphs_.end(), index) != active_subgraphs_.end())
      fail_op(role + " " + std::to_string(index) + " names a subgraph that is running this operator (recursion), "
              "not supported");
    const fb::SubGraph* g = model_->subgraphs()->Get(static_cast<uint32_t>(index));
    const std::string label = "subgraph " + std::to_string(index);
    auto check_list = [&](const flatbuffers::Vector<int32_t>* list, const std::vector<int>& operands,
                          const std::string& what, const std::string& operand, int first) {
      const size_t n = list ? list->size() : 0;
      if (n != operands.size())
        fail_op(label + " (" + role + ") has " + std::to_string(n) + " " + what + "s, expected " +
                std::to_string(operands.size()));
      const uint32_t tensors = g->tensors() ? g->tensors()->size() : 0;
      for (size_t k = 0; k < n; ++k) {
        const int32_t t_index = list->Get(static_cast<uint32_t>(k));
        if (t_index < 0 || static_cast<uint32_t>(t_index) >= tensors)
          fail_op(label + " " + what + " " + std::to_string(k) + " tensor index " + std::to_string(t_index) +
                  " out of range (" + std::to_string(tensors) + " tensors)");
        const fb::Tensor* t = g->tensors()->Get(static_cast<uint32_t>(t_index));
        const ir::Tensor& op_t = T(operands[k]);
        const auto dtype = dtype_from_tflite(t->type());
        std::vector<int64_t> shape;
        if (t->shape()) shape.assign(t->shape()->begin(), t->shape()->end());
        if (dtype != op_t.dtype || shape != op_t.shape) {
          const std::string type = dtype ? dtype_name(*dtype) : enum_string(t->type(), fb::EnumNameTensorType(t->type()));
          fail_op(label + " " + what + " " + std::to_string(k) + " '" + (t->name() ? t->name()->str() : "") + "' is " +
                  type + " " + ints_string(shape) + ", expected " + dtype_name(op_t.dtype) + " " +
                  ints_string(op_t.shape) + " as " + operand + " " + std::to_string(k + first) + " '" + op_t.name + "'");
        }
      }
    };
    check_list(g->inputs(), args, "input", "the operator's input", first_arg);
    if (results) check_list(g->outputs(), *results, "output", "the operator's output", 0);
  }

  // Imports subgraph `index` (check_branch accepted it) with its inputs bound to `args`;
  // the ir ids of its outputs. An input quantized as its argument is that argument; one
  // quantized otherwise is a copy of its bytes. `in_region`: its nodes go into a region
  // the program runs (or not) at run time (no CALL_ONCE there).
  std::vector<int> import_branch(int index, const std::vector<int>& args, bool in_region) {
    std::vector<int> results;
    branch_depth_ += in_region;
    in_subgraph(
        index,
        [&] {
          for (uint32_t k = 0; k < args.size(); ++k) {
            const int32_t t_index = subgraph_->inputs()->Get(k);
            if (ids_[t_index] >= 0) fail("subgraph " + std::to_string(index) + " input tensor " +
                                         std::to_string(t_index) + " is listed twice");
            is_graph_input_[t_index] = true;
            const int id = tensor(t_index);
            if (same_quant(T(id).quant, T(args[k]).quant))
              ids_[t_index] = args[k];
            else
              emit(ir::Op::kCopy, {args[k]}, {id});
          }
        },
        [&] {
          for (uint32_t k = 0; subgraph_->outputs() && k < subgraph_->outputs()->size(); ++k) {
            const int32_t t_index = subgraph_->outputs()->Get(k);
            check_tensor_index(t_index, "subgraph " + std::to_string(index) + " output " + std::to_string(k));
            const int id = tensor(t_index);
            if (!T(id).is_constant && !is_graph_input_[t_index] && writer_[t_index] < 0)
              fail(subgraph_label_ + "output '" + T(id).name + "' is not written by any operator");
            results.push_back(id);
          }
        });
    branch_depth_ -= in_region;
    return results;
  }

  // WHILE as TensorFlow Lite Micro's while.cc: the loop variables (the inputs; each output
  // has its input's dtype and shape) go into the cond subgraph, whose output 0 (bool,
  // element 0 read) says whether the body subgraph runs once more, mapping them to their
  // next values; the outputs are their last values.
  //
  // While the condition folds to a constant (a counter from a constant start: what
  // converters write for a loop over a range), iterations are unrolled: each one's cond
  // and body imported inline, their nodes folded as they come (passes::fold_node, the
  // same kernels the program would run), so an IF in the body on such a counter becomes
  // the branch it takes. From the first iteration whose condition depends on the model's
  // inputs, or after kMaxUnrolledIterations, the rest of the loop is a `while` node whose
  // regions hold cond and body, run by the program (the link lays them out with a jump and
  // a branch), as many times as the condition holds. Resource variables in it are assigned
  // on each iteration, as in TFLite Micro; CALL_ONCE in a loop is refused.
  static constexpr int kMaxUnrolledIterations = 16;

  void while_op() {
    const auto* o = options<fb::WhileOptions>(true);
    if (input_count() != output_count())
      fail_op("has " + std::to_string(input_count()) + " inputs and " + std::to_string(output_count()) +
              " outputs, expected as many outputs as inputs");
    std::vector<int> vars, outs;
    for (int k = 0; k < input_count(); ++k) vars.push_back(required_input(k, "input"));
    for (int k = 0; k < output_count(); ++k) {
      outs.push_back(output(k));
      if (T(outs[k]).dtype != T(vars[k]).dtype || T(outs[k]).shape != T(vars[k]).shape)
        fail_op("output " + std::to_string(k) + " '" + T(outs[k]).name + "' is " + dtype_name(T(outs[k]).dtype) + " " +
                ints_string(T(outs[k]).shape) + ", expected " + dtype_name(T(vars[k]).dtype) + " " +
                ints_string(T(vars[k]).shape) + " as input " + std::to_string(k) + " '" + T(vars[k]).name + "'");
    }
    const int cond_index = o->cond_subgraph_index(), body_index = o->body_subgraph_index();
    check_branch(cond_index, "cond_subgraph_index", vars, nullptr, 0);
    check_branch(body_index, "body_subgraph_index", vars, &outs, 0);
    const fb::SubGraph* cond_graph = model_->subgraphs()->Get(static_cast<uint32_t>(cond_index));
    if (!cond_graph->outputs() || cond_graph->outputs()->size() == 0)
      fail_op("subgraph " + std::to_string(cond_index) + " (cond_subgraph_index) has no outputs, expected the "
              "condition as output 0");
    const size_t fresh_from = graph_.tensors.size();
    ++unrolling_;
    for (int iteration = 0;; ++iteration) {
      const size_t first = graph_.nodes.size();
      const int c = loop_condition(cond_index, vars, false);
      if (T(c).is_constant && T(c).data[0] == 0) break;
      if (!T(c).is_constant || iteration == kMaxUnrolledIterations) {
        graph_.nodes.resize(first);  // the cond's nodes on these values: the loop node has its own
        vars = loop_node(cond_index, body_index, vars);
        break;
      }
      vars = import_branch(body_index, vars, false);
    }
    --unrolling_;
    bind_outputs(vars, fresh_from);
  }

  // Output 0 of the cond subgraph on `vars`: a bool with an element.
  int loop_condition(int cond_index, const std::vector<int>& vars, bool in_region) {
    const int c = import_branch(cond_index, vars, in_region).at(0);
    if (T(c).dtype != DType::kBool || T(c).elements() < 1)
      fail_op("subgraph " + std::to_string(cond_index) + " output 0 '" + T(c).name + "' is " + dtype_name(T(c).dtype) +
              " " + ints_string(T(c).shape) + ", expected bool with an element (the condition)");
    return c;
  }

  // The rest of a WHILE loop from `vars` as a `while` node: its outputs (new tensors, as
  // `vars`) hold the loop variables, which both regions read.
  std::vector<int> loop_node(int cond_index, int body_index, const std::vector<int>& vars) {
    ir::Node node;
    node.name = op_->outputs()->size() > 0 ? T(ids_[op_->outputs()->Get(0)]).name : here();
    node.op = ir::Op::kWhile;
    node.inputs = vars;
    for (size_t k = 0; k < vars.size(); ++k)
      node.outputs.push_back(new_like(vars[k], T(vars[k]).name + " (loop)"));
    node.regions.resize(2);
    const size_t first = graph_.nodes.size();
    node.regions[0].results = {loop_condition(cond_index, node.outputs, true)};
    cut_region(first, &node.regions[0]);
    const ir::Tensor& c = T(node.regions[0].results[0]);
    if (c.is_constant && c.data[0] != 0)
      fail_op("subgraph " + std::to_string(cond_index) + " (cond_subgraph_index) always gives true: the loop never "
              "ends");
    node.regions[1].results = import_branch(body_index, node.outputs, true);
    cut_region(first, &node.regions[1]);
    const std::vector<int> values = node.outputs;
    graph_.nodes.push_back(std::move(node));
    return values;
  }

  // The current operator's outputs take the values `values` (tensors of their dtypes and
  // shapes, from an inlined subgraph). A value the nodes since tensor `fresh_from`
  // computed, quantized as its output and not taken by another output, becomes that
  // output (under its name: no copy); any other (a constant, an operand passed through) is
  // copied into it.
  void bind_outputs(const std::vector<int>& values, size_t fresh_from) {
    std::vector<int> taken;
    for (size_t k = 0; k < values.size(); ++k) {
      const int32_t index = op_->outputs()->Get(static_cast<uint32_t>(k));
      const int out = ids_[index], value = values[k];
      const ir::Tensor& v = T(value);
      if (static_cast<size_t>(value) >= fresh_from && !v.is_constant && !v.is_persistent &&
          same_quant(v.quant, T(out).quant) && std::find(taken.begin(), taken.end(), value) == taken.end()) {
        graph_.tensors[static_cast<size_t>(value)].name = T(out).name;
        ids_[index] = value;
        taken.push_back(value);
      } else {
        emit(ir::Op::kCopy, {value}, {out});
      }
    }
  }

  static bool same_quant(const ir::QuantParams& a, const ir::QuantParams& b) {
    return a.scales == b.scales && a.zero_points == b.zero_points && a.axis == b.axis;
  }

  // After every operator: each variable read is assigned somewhere, takes its fill value
  // from its first assignment, and the init subgraphs' nodes move ahead of the others.
  void finish_variables() {
    for (const Variable& v : variables_) {
      if (v.state < 0) continue;
      if (!v.assigned) fail(v.first_read + ": " + variable_label(v) + " is read but never assigned");
      graph_.tensors[static_cast<size_t>(v.state)].quant = v.fill_quant;
    }
    if (init_ranges_.empty()) return;
    std::vector<bool> is_init(graph_.nodes.size(), false);
    for (const auto& [first, end] : init_ranges_)
      for (size_t k = first; k < end; ++k) is_init[k] = true;
    std::vector<ir::Node> nodes;
    for (int pass = 0; pass < 2; ++pass)
      for (size_t k = 0; k < graph_.nodes.size(); ++k)
        if (is_init[k] == (pass == 0)) nodes.push_back(std::move(graph_.nodes[k]));
    graph_.init_nodes = static_cast<size_t>(std::count(is_init.begin(), is_init.end(), true));
    graph_.nodes = std::move(nodes);
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
  std::vector<int64_t> offline_;      // main subgraph's TFLite tensor index -> Vela's arena offset (-1)
  std::vector<int> ids_;              // TFLite tensor index -> ir tensor id (-1: not yet)
  std::vector<int> writer_;           // TFLite tensor index -> operator writing it (-1)
  std::vector<bool> is_graph_input_;  // TFLite tensor index -> listed in subgraph inputs
  std::vector<bool> raw_only_;        // TFLite tensor index -> may lack quantization (CAST, int16 ABS)
  int op_index_ = -1;                 // operator being converted (-1: none)
  std::string op_name_;
  std::string subgraph_label_;        // "" in subgraph 0, "subgraph N " in an init subgraph
  int current_subgraph_ = 0;          // the subgraph being converted
  std::vector<int> handle_of_;        // TFLite tensor index -> variables_ index of its VAR_HANDLE (-1)
  std::vector<Variable> variables_;
  std::vector<std::pair<size_t, size_t>> init_ranges_;  // graph_.nodes of each CALL_ONCE's subgraph
  std::map<int, ir::QuantParams> variable_quant_;  // a variable tensor's id -> its quantization in the file
  std::string first_state_op_;        // the first READ/ASSIGN_VARIABLE of subgraph 0 ("" before one)
  std::vector<int> active_subgraphs_ = {0};  // the subgraphs being converted, outermost first
  int branch_depth_ = 0;              // regions (IF branches, WHILE loops run by the program) being converted
  int unrolling_ = 0;                 // WHILE loops being unrolled around the current operator
  std::map<std::pair<int, int32_t>, int> subgraph_constants_;  // (subgraph > 0, TFLite tensor) -> ir id
  // Operators converted so far, every import of a subgraph counted: the bound on what
  // inlining IF branches and unrolling WHILE loops may cost (a file nesting them could
  // otherwise ask for exponentially many).
  size_t converted_ = 0;
  static constexpr size_t kMaxConvertedOperators = 100000;
};

}  // namespace

ir::Graph import_tflite(const std::string& path) { return TfliteImporter(path).run_file(); }

TfliteWindow tflite_window(bool same, int64_t in, int64_t kernel, int64_t stride, int64_t dilation) {
  const int64_t span = (kernel - 1) * dilation + 1;
  TfliteWindow w;
  w.out = same ? (in + stride - 1) / stride : window_output_size(in, kernel, stride, dilation, 0, 0, false);
  const int64_t total = std::max<int64_t>((w.out - 1) * stride + span - in, 0);
  w.pad_before = total / 2;
  w.pad_after = total - w.pad_before;
  return w;
}

std::vector<TfliteOperator> tflite_operators() {
  std::vector<TfliteOperator> ops;
  for (const auto& c : TfliteImporter::conversions()) {
    TfliteOperator op{fb::EnumNameBuiltinOperator(c.code), c.becomes, {}};
    std::istringstream takes(c.takes);
    for (std::string dtype; takes >> dtype;) op.takes.push_back(dtype);
    ops.push_back(std::move(op));
  }
  std::sort(ops.begin(), ops.end(), [](const TfliteOperator& a, const TfliteOperator& b) { return a.name < b.name; });
  return ops;
}

std::vector<std::string> tflite_supported_ops() {
  std::vector<std::string> names;
  for (const TfliteOperator& op : tflite_operators()) names.push_back(op.name);
  return names;
}

ir::Graph import_tflite_buffer(std::span<const uint8_t> bytes, const std::string& path) {
  return TfliteImporter(path).run(bytes);
}

}  // namespace mote
