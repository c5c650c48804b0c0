// A minimal read-only view of a .tflite flatbuffer, for the kernel tests that replay
// single layers and whole int8 models of ../shared/models against TensorFlow Lite
// Micro's golden outputs. Test-only: it trusts the file (the shared models), checks
// nothing, and reads just the fields those tests need. The compiler's importer is the
// real reader.
//
// Flatbuffer layout used: a table starts with an int32 offset back to its vtable; the
// vtable holds u16 sizes, then one u16 offset per field id (0 = absent). Vectors and
// sub-tables are u32 offsets relative to where they are stored. Field ids follow the
// TFLite schema (tensorflow/compiler/mlir/lite/schema/schema.fbs; a union takes two ids).
#pragma once

#include <stdint.h>
#include <string.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace mote::testing::tflite {

enum BuiltinOp : int32_t {
  kAdd = 0,
  kAveragePool2d = 1,
  kConcatenation = 2,
  kConv2d = 3,
  kDepthwiseConv2d = 4,
  kFullyConnected = 9,
  kMaxPool2d = 17,
  kMul = 18,
  kReshape = 22,
  kSoftmax = 25,
  kPad = 34,
  kMean = 40,
  kSub = 41,
  kStridedSlice = 45,
  kTransposeConv = 67,
  kLeakyRelu = 98,
  kQuantize = 114,
};

enum TensorType : int8_t {
  kFloat32 = 0,
  kInt32 = 2,
  kInt64 = 4,
  kInt16 = 7,
  kInt8 = 9,
};

class Table {
 public:
  Table() = default;
  Table(const uint8_t* file, uint32_t pos) : file_(file), pos_(pos) {}
  bool valid() const { return file_ != nullptr; }

  template <typename T>
  T scalar(int id, T fallback = T{}) const {
    const uint32_t at = field(id);
    if (at == 0) return fallback;
    T v;
    memcpy(&v, file_ + at, sizeof(T));
    return v;
  }
  Table table(int id) const {
    const uint32_t at = field(id);
    if (at == 0) return Table();
    return Table(file_, at + u32(at));
  }
  // Vector of scalars.
  template <typename T>
  std::vector<T> vector(int id) const {
    const uint32_t at = field(id);
    if (at == 0) return {};
    const uint32_t start = at + u32(at);
    std::vector<T> v(u32(start));
    if (!v.empty()) memcpy(v.data(), file_ + start + 4, v.size() * sizeof(T));
    return v;
  }
  // Vector of tables.
  std::vector<Table> tables(int id) const {
    const uint32_t at = field(id);
    if (at == 0) return {};
    const uint32_t start = at + u32(at);
    std::vector<Table> v;
    for (uint32_t i = 0; i < u32(start); ++i) {
      const uint32_t elem = start + 4 + 4 * i;
      v.emplace_back(file_, elem + u32(elem));
    }
    return v;
  }

 private:
  uint32_t u32(uint32_t at) const {
    uint32_t v;
    memcpy(&v, file_ + at, 4);
    return v;
  }
  // Absolute position of field `id`, or 0 when absent.
  uint32_t field(int id) const {
    int32_t back;
    memcpy(&back, file_ + pos_, 4);
    const uint32_t vtable = pos_ - back;
    uint16_t vtable_size;
    memcpy(&vtable_size, file_ + vtable, 2);
    if (4u + 2u * id >= vtable_size) return 0;
    uint16_t off;
    memcpy(&off, file_ + vtable + 4 + 2 * id, 2);
    return off == 0 ? 0 : pos_ + off;
  }

  const uint8_t* file_ = nullptr;
  uint32_t pos_ = 0;
};

struct Tensor {
  std::vector<int32_t> shape;
  int8_t type = 0;
  uint32_t buffer = 0;
  std::vector<float> scales;
  std::vector<int64_t> zero_points;
  int32_t quantized_dimension = 0;
  float scale() const { return scales.empty() ? 0.0f : scales[0]; }
  int32_t zero_point() const { return zero_points.empty() ? 0 : static_cast<int32_t>(zero_points[0]); }
};

struct Operator {
  int32_t op = -1;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  Table options;
};

struct Model {
  std::vector<uint8_t> bytes;
  std::vector<Tensor> tensors;
  std::vector<Operator> operators;
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;

  // Raw constant data of tensor t (empty for activations).
  const std::vector<uint8_t>& data(int32_t t) const { return buffers[tensors[t].buffer]; }
  template <typename T>
  std::vector<T> values(int32_t t) const {
    const std::vector<uint8_t>& raw = data(t);
    std::vector<T> v(raw.size() / sizeof(T));
    if (!v.empty()) memcpy(v.data(), raw.data(), raw.size());
    return v;
  }
};

inline bool load(const std::string& path, Model* m) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  m->bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (m->bytes.size() < 8) return false;
  uint32_t root_pos;
  memcpy(&root_pos, m->bytes.data(), 4);
  const Table model(m->bytes.data(), root_pos);
  std::vector<int32_t> codes;
  for (const Table& code : model.tables(1)) {
    const int32_t deprecated = code.scalar<int8_t>(0);
    const int32_t builtin = code.scalar<int32_t>(3);
    codes.push_back(builtin > deprecated ? builtin : deprecated);
  }
  for (const Table& buffer : model.tables(4)) m->buffers.push_back(buffer.vector<uint8_t>(0));
  const Table graph = model.tables(2).at(0);
  for (const Table& t : graph.tables(0)) {
    Tensor tensor;
    tensor.shape = t.vector<int32_t>(0);
    tensor.type = t.scalar<int8_t>(1);
    tensor.buffer = t.scalar<uint32_t>(2);
    const Table q = t.table(4);
    if (q.valid()) {
      tensor.scales = q.vector<float>(2);
      tensor.zero_points = q.vector<int64_t>(3);
      tensor.quantized_dimension = q.scalar<int32_t>(6);
    }
    m->tensors.push_back(tensor);
  }
  m->inputs = graph.vector<int32_t>(1);
  m->outputs = graph.vector<int32_t>(2);
  for (const Table& o : graph.tables(3)) {
    Operator op;
    op.op = codes.at(o.scalar<uint32_t>(0));
    op.inputs = o.vector<int32_t>(1);
    op.outputs = o.vector<int32_t>(2);
    op.options = o.table(4);
    m->operators.push_back(op);
  }
  return true;
}

// Reads a .npy file (v1/v2, little-endian, C order) of element type T.
template <typename T>
bool load_npy(const std::string& path, std::vector<T>* values, std::vector<uint32_t>* shape) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10) return false;
  const uint32_t major = bytes[6];
  uint32_t header_len = 0;
  uint32_t header_start = 0;
  if (major == 1) {
    header_len = bytes[8] | (bytes[9] << 8);
    header_start = 10;
  } else {
    header_len = bytes[8] | (bytes[9] << 8) | (bytes[10] << 16) | (uint32_t{bytes[11]} << 24);
    header_start = 12;
  }
  const std::string header(bytes.begin() + header_start, bytes.begin() + header_start + header_len);
  shape->clear();
  const size_t open = header.find('(', header.find("shape"));
  const size_t close = header.find(')', open);
  size_t element_count = 1;
  std::string dims = header.substr(open + 1, close - open - 1);
  size_t p = 0;
  while (p < dims.size()) {
    while (p < dims.size() && (dims[p] < '0' || dims[p] > '9')) ++p;
    if (p >= dims.size()) break;
    size_t q = p;
    while (q < dims.size() && dims[q] >= '0' && dims[q] <= '9') ++q;
    shape->push_back(static_cast<uint32_t>(std::stoul(dims.substr(p, q - p))));
    element_count *= shape->back();
    p = q;
  }
  const size_t data_start = header_start + header_len;
  if (bytes.size() - data_start != element_count * sizeof(T)) return false;
  values->resize(element_count);
  if (element_count != 0) memcpy(values->data(), bytes.data() + data_start, element_count * sizeof(T));
  return true;
}

// Reads one line of comma-separated integers (the SeaNet golden CSV files).
template <typename T>
std::vector<T> load_csv(const std::string& path) {
  std::ifstream in(path);
  std::vector<T> values;
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.find_first_of("-0123456789") == std::string::npos) continue;
    values.push_back(static_cast<T>(std::stoll(item)));
  }
  return values;
}

}  // namespace mote::testing::tflite
