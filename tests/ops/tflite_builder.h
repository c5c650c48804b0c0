// Small .tflite models built in a test with the generated flatbuffers builder: tensors
// (constants, quantization, shape signatures), operators with their options, one main
// subgraph, plus further ones with their own tensors and operators (CALL_ONCE init
// subgraphs) or empty unused ones when asked. Shared by the importer tests
// (tests/compiler/tflite_import_test.cc) and the per-op tests (tests/ops/).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "import/tflite/tflite_schema_generated.h"

namespace mote::testing {

namespace fb = mote::tflite;

struct TensorSpec {
  TensorSpec(std::string name_, std::vector<int32_t> shape_, fb::TensorType type_ = fb::TensorType::FLOAT32,
             std::vector<uint8_t> data_ = {})
      : name(std::move(name_)), shape(std::move(shape_)), type(type_), data(std::move(data_)) {}
  std::string name;
  std::vector<int32_t> shape;
  fb::TensorType type;
  std::vector<uint8_t> data;         // a constant when not empty
  std::vector<int32_t> signature;    // shape_signature, when not empty
  std::vector<float> scales;         // quantization, when not empty
  std::vector<int64_t> zero_points;
  int32_t quantized_dimension = 0;
  bool is_variable = false;
};

// A tensor with per-tensor quantization (scale, zero point).
inline TensorSpec quantized(std::string name, std::vector<int32_t> shape, fb::TensorType type, float scale,
                            int64_t zero_point, std::vector<uint8_t> data = {}) {
  TensorSpec t(std::move(name), std::move(shape), type, std::move(data));
  t.scales = {scale};
  t.zero_points = {zero_point};
  return t;
}

using OptionsFn = std::function<flatbuffers::Offset<void>(flatbuffers::FlatBufferBuilder&)>;

struct OpSpec {
  int32_t code = 0;          // BuiltinOperator value
  std::string custom;        // custom_code (code 32)
  std::vector<int32_t> inputs, outputs;
  fb::BuiltinOptions options_type = fb::BuiltinOptions::NONE;
  OptionsFn options;
  int32_t version = 1;       // the operator code's version
};

// A subgraph after the main one: its own tensors (indices into `tensors`), operators and io.
struct SubgraphSpec {
  std::vector<TensorSpec> tensors;
  std::vector<OpSpec> ops;
  std::vector<int32_t> inputs, outputs;
};

struct ModelSpec {
  std::vector<TensorSpec> tensors;
  std::vector<OpSpec> ops;
  std::vector<int32_t> inputs, outputs;
  uint32_t version = 3;
  std::vector<SubgraphSpec> subgraphs;  // subgraphs 1, 2, ... (their constants stay in Buffer.data)
  int extra_subgraphs = 0;  // unused empty subgraphs after those
  // Constant data after the flatbuffer (Buffer.offset / size, 16-byte aligned), as the
  // converter writes models over 2 GB, instead of in Buffer.data.
  bool buffers_after_flatbuffer = false;
};

inline constexpr int32_t op_code(fb::BuiltinOperator op) { return static_cast<int32_t>(op); }

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T>
std::vector<T> values_of(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

// The flatbuffer of `spec`; with buffers_after_flatbuffer, each constant's Buffer holds
// offsets[i] / its size instead of its data (offsets: one per constant, in tensor order).
inline std::vector<uint8_t> build_flatbuffer(const ModelSpec& spec, const std::vector<uint64_t>& offsets) {
  flatbuffers::FlatBufferBuilder b;
  std::vector<flatbuffers::Offset<fb::Buffer>> buffers = {fb::CreateBuffer(b)};
  size_t next_offset = 0;  // into `offsets`, for the main subgraph's constants
  auto make_tensors = [&](const std::vector<TensorSpec>& specs, bool main) {
    std::vector<flatbuffers::Offset<fb::Tensor>> tensors;
    for (const TensorSpec& t : specs) {
      uint32_t buffer = 0;
      if (!t.data.empty()) {
        if (spec.buffers_after_flatbuffer && main) {
          buffers.push_back(fb::CreateBuffer(b, 0, offsets.at(next_offset++), t.data.size()));
        } else {
          b.ForceVectorAlignment(t.data.size(), 1, 16);
          buffers.push_back(fb::CreateBuffer(b, b.CreateVector(t.data)));
        }
        buffer = static_cast<uint32_t>(buffers.size() - 1);
      }
      flatbuffers::Offset<fb::QuantizationParameters> quant;
      if (!t.scales.empty())
        quant = fb::CreateQuantizationParameters(b, 0, 0, b.CreateVector(t.scales), b.CreateVector(t.zero_points),
                                                 fb::QuantizationDetails::NONE, 0, t.quantized_dimension);
      tensors.push_back(fb::CreateTensor(b, b.CreateVector(t.shape), t.type, buffer, b.CreateString(t.name), quant,
                                         t.is_variable, 0, t.signature.empty() ? 0 : b.CreateVector(t.signature)));
    }
    return tensors;
  };
  std::vector<flatbuffers::Offset<fb::OperatorCode>> codes;
  auto make_ops = [&](const std::vector<OpSpec>& specs) {
    std::vector<flatbuffers::Offset<fb::Operator>> ops;
    for (const OpSpec& op : specs) {
      const int8_t deprecated = static_cast<int8_t>(std::min(op.code, 127));
      codes.push_back(fb::CreateOperatorCode(b, deprecated, op.custom.empty() ? 0 : b.CreateString(op.custom),
                                             op.version, static_cast<fb::BuiltinOperator>(op.code)));
      ops.push_back(fb::CreateOperator(b, static_cast<uint32_t>(codes.size() - 1), b.CreateVector(op.inputs),
                                       b.CreateVector(op.outputs), op.options_type,
                                       op.options ? op.options(b) : 0));
    }
    return ops;
  };
  const auto tensors = make_tensors(spec.tensors, true);
  const auto ops = make_ops(spec.ops);
  std::vector<flatbuffers::Offset<fb::SubGraph>> subgraphs = {
      fb::CreateSubGraph(b, b.CreateVector(tensors), b.CreateVector(spec.inputs), b.CreateVector(spec.outputs),
                         b.CreateVector(ops), b.CreateString("main"))};
  for (size_t i = 0; i < spec.subgraphs.size(); ++i) {
    const SubgraphSpec& sub = spec.subgraphs[i];
    const auto sub_tensors = make_tensors(sub.tensors, false);
    const auto sub_ops = make_ops(sub.ops);
    subgraphs.push_back(fb::CreateSubGraph(b, b.CreateVector(sub_tensors), b.CreateVector(sub.inputs),
                                           b.CreateVector(sub.outputs), b.CreateVector(sub_ops),
                                           b.CreateString("subgraph " + std::to_string(i + 1))));
  }
  for (int i = 0; i < spec.extra_subgraphs; ++i)
    subgraphs.push_back(fb::CreateSubGraph(b, 0, 0, 0, 0, b.CreateString("unused")));
  const auto model = fb::CreateModel(b, spec.version, b.CreateVector(codes), b.CreateVector(subgraphs),
                                     b.CreateString("built by a Mote test"), b.CreateVector(buffers));
  fb::FinishModelBuffer(b, model);
  return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

inline std::vector<uint8_t> build_model(const ModelSpec& spec) {
  if (!spec.buffers_after_flatbuffer) return build_flatbuffer(spec, {});
  // The offsets do not change the flatbuffer's size (each is stored either way): build
  // with placeholders, lay the data out after it, build again with the real offsets.
  std::vector<uint64_t> offsets;
  for (const TensorSpec& t : spec.tensors)
    if (!t.data.empty()) offsets.push_back(2);
  const size_t size = build_flatbuffer(spec, offsets).size();
  uint64_t end = size;
  offsets.clear();
  for (const TensorSpec& t : spec.tensors) {
    if (t.data.empty()) continue;
    end = (end + 15) / 16 * 16;
    offsets.push_back(end);
    end += t.data.size();
  }
  std::vector<uint8_t> file = build_flatbuffer(spec, offsets);
  file.resize(static_cast<size_t>(end), 0);
  size_t k = 0;
  for (const TensorSpec& t : spec.tensors)
    if (!t.data.empty()) std::memcpy(&file[static_cast<size_t>(offsets[k++])], t.data.data(), t.data.size());
  return file;
}

// One operator over tensors [0, n): inputs `in`, outputs `out`; the graph's inputs are the
// op's inputs that are not constants, its outputs the op's outputs.
inline ModelSpec single_op_model(std::vector<TensorSpec> tensors, int32_t code, std::vector<int32_t> in,
                                 std::vector<int32_t> out, fb::BuiltinOptions options_type = fb::BuiltinOptions::NONE,
                                 OptionsFn options = nullptr) {
  ModelSpec m;
  m.tensors = std::move(tensors);
  OpSpec op;
  op.code = code;
  op.inputs = in;
  op.outputs = out;
  op.options_type = options_type;
  op.options = std::move(options);
  m.ops = {op};
  for (int32_t i : in)
    if (i >= 0 && m.tensors[static_cast<size_t>(i)].data.empty()) m.inputs.push_back(i);
  m.outputs = out;
  return m;
}

}  // namespace mote::testing
