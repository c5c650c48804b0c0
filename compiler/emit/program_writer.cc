#include "emit/program_writer.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <map>

#include "common/error.h"
#include "mote/interpreter.h"  // mote::program_checksum

namespace mote::emit {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the program writer copies structs as they are in memory; the format is "
              "little-endian");

constexpr uint64_t kMaxU32 = std::numeric_limits<uint32_t>::max();

uint64_t align_up(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

uint32_t checked_u32(uint64_t value, const std::string& what) {
  if (value >= kMaxU32) {  // kMaxU32 itself is reserved for kNoOffset / kNoTensor
    throw CompileError("program writer: " + what + " is " + std::to_string(value) +
                       ", more than the program format's 32-bit limit");
  }
  return static_cast<uint32_t>(value);
}

// A growable byte image with typed writes at explicit offsets.
class Image {
 public:
  uint64_t size() const { return bytes_.size(); }
  void pad_to(uint64_t alignment) { bytes_.resize(align_up(bytes_.size(), alignment), 0); }
  uint64_t append(const void* data, size_t size) {
    const uint64_t at = bytes_.size();
    bytes_.resize(at + size, 0);
    if (size != 0) std::memcpy(bytes_.data() + at, data, size);
    return at;
  }
  template <typename T>
  uint64_t append_value(const T& value) {
    return append(&value, sizeof(T));
  }
  template <typename T>
  void write_at(uint64_t at, const T& value) {
    std::memcpy(bytes_.data() + at, &value, sizeof(T));
  }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

// Deduplicated NUL-terminated strings; offsets in first-insertion order.
class StringTable {
 public:
  uint32_t add(const std::string& s) {
    if (s.empty()) return kNoOffset;
    auto it = offsets_.find(s);
    if (it != offsets_.end()) return it->second;
    const uint32_t at = checked_u32(blob_.size(), "strings blob size");
    blob_.insert(blob_.end(), s.begin(), s.end());
    blob_.push_back('\0');
    offsets_.emplace(s, at);
    return at;
  }
  const std::vector<uint8_t>& blob() const { return blob_; }

 private:
  std::map<std::string, uint32_t> offsets_;
  std::vector<uint8_t> blob_;
};

std::string tensor_label(const ProgramSpec& spec, size_t index) {
  const std::string& name = spec.tensors[index].name;
  return "tensor " + std::to_string(index) + (name.empty() ? "" : " '" + name + "'");
}

std::string op_label(const ProgramSpec& spec, size_t index) {
  const std::string& name = spec.ops[index].name;
  return "op " + std::to_string(index) + (name.empty() ? "" : " '" + name + "'");
}

uint64_t tensor_bytes(const ProgramTensor& t) {
  uint64_t n = 1;
  for (int64_t d : t.shape) n *= static_cast<uint64_t>(d);
  return n * dtype_size(t.dtype);
}

TensorDesc make_tensor_desc(const ProgramSpec& spec, size_t index, uint64_t data_offset,
                            uint32_t quant_offset, uint32_t name_offset) {
  const ProgramTensor& t = spec.tensors[index];
  const std::string label = tensor_label(spec, index);
  if (t.shape.size() > kMaxRank) {
    throw CompileError("program writer: " + label + " has rank " + std::to_string(t.shape.size()) +
                       ", more than the supported " + std::to_string(kMaxRank));
  }
  if (dtype_size(t.dtype) == 0) throw CompileError("program writer: " + label + " has an unknown dtype");
  TensorDesc desc{};
  desc.dtype = static_cast<uint8_t>(t.dtype);
  desc.rank = static_cast<uint8_t>(t.shape.size());
  desc.storage = static_cast<uint8_t>(t.storage);
  desc.flags = t.persistent ? kTensorPersistent : 0;
  if (t.persistent && t.storage != Storage::kArena)
    throw CompileError("program writer: " + label + " is state but not in the arena");
  for (uint32_t i = 0; i < kMaxRank; ++i) desc.dims[i] = 1;
  for (size_t i = 0; i < t.shape.size(); ++i) {
    if (t.shape[i] < 0) throw CompileError("program writer: " + label + " has a negative dim");
    desc.dims[i] = checked_u32(static_cast<uint64_t>(t.shape[i]), label + " dim " + std::to_string(i));
  }
  const uint64_t bytes = tensor_bytes(t);
  desc.bytes = checked_u32(bytes, label + " byte size");
  if (t.storage == Storage::kArena) {
    if (t.arena_offset % kTensorAlignment != 0) {
      throw CompileError("program writer: " + label + " arena offset " +
                         std::to_string(t.arena_offset) + " is not " +
                         std::to_string(kTensorAlignment) + "-aligned");
    }
    if (t.arena_offset + bytes > spec.arena_bytes) {
      throw CompileError("program writer: " + label + " [" + std::to_string(t.arena_offset) + ", +" +
                         std::to_string(bytes) + ") lies outside the " +
                         std::to_string(spec.arena_bytes) + "-byte arena");
    }
    desc.offset = checked_u32(t.arena_offset, label + " arena offset");
  } else {
    if (t.data.size() != bytes) {
      throw CompileError("program writer: constant " + label + " has " + std::to_string(t.data.size()) +
                         " bytes of data, expected " + std::to_string(bytes));
    }
    desc.offset = checked_u32(data_offset, label + " constant offset");
  }
  desc.quant_offset = quant_offset;
  desc.name_offset = name_offset;
  return desc;
}

// Appends a QuantRecord (header, scales, zero points) and returns its params offset.
uint32_t append_quant(Image& params, const ProgramSpec& spec, size_t index) {
  const ProgramTensor& t = spec.tensors[index];
  const std::string label = tensor_label(spec, index);
  const ir::QuantParams& q = t.quant;
  if (q.zero_points.size() != q.scales.size()) {
    throw CompileError("program writer: " + label + " has " + std::to_string(q.scales.size()) +
                       " quantization scales but " + std::to_string(q.zero_points.size()) +
                       " zero points");
  }
  if (q.scales.size() != 1 || q.axis != -1) {
    if (q.axis < 0 || static_cast<size_t>(q.axis) >= t.shape.size() ||
        static_cast<uint64_t>(t.shape[q.axis]) != q.scales.size()) {
      throw CompileError("program writer: " + label + " has " + std::to_string(q.scales.size()) +
                         " quantization scales on axis " + std::to_string(q.axis) +
                         ", expected 1 (per-tensor, axis -1) or the axis' dim");
    }
  }
  params.pad_to(4);
  QuantRecord record{};
  record.count = checked_u32(q.scales.size(), label + " quantization count");
  record.axis = q.axis;
  const uint64_t at = params.append_value(record);
  params.append(q.scales.data(), q.scales.size() * sizeof(float));
  params.append(q.zero_points.data(), q.zero_points.size() * sizeof(int32_t));
  return checked_u32(at, "params blob size");
}

void check_tensor_index(const ProgramSpec& spec, uint32_t index, const std::string& where) {
  if (index >= spec.tensors.size()) {
    throw CompileError("program writer: " + where + " refers to tensor " + std::to_string(index) +
                       " of " + std::to_string(spec.tensors.size()));
  }
}

// The lowest minor version that holds the program: 1.0 without state, so that runtimes
// from before 1.1 load every stateless program (and its bytes stay what they were).
uint16_t format_minor(const ProgramSpec& spec) {
  if (spec.init_op_count > spec.ops.size())
    throw CompileError("program writer: " + std::to_string(spec.init_op_count) + " init ops of " +
                       std::to_string(spec.ops.size()));
  const bool stateful = spec.init_op_count != 0 || std::any_of(spec.tensors.begin(), spec.tensors.end(),
                                                               [](const ProgramTensor& t) { return t.persistent; });
  return stateful ? kFormatVersionMinor : 0;
}

}  // namespace

std::vector<uint8_t> write_program(const ProgramSpec& spec) {
  StringTable strings;
  const uint32_t model_name_offset = strings.add(spec.model_name);

  // Params blob: op parameter structs, then quantization records.
  Image params;
  std::vector<uint32_t> op_params_offset(spec.ops.size(), kNoOffset);
  for (size_t i = 0; i < spec.ops.size(); ++i) {
    const ProgramOp& op = spec.ops[i];
    if (op.params.empty()) continue;
    params.pad_to(4);
    op_params_offset[i] = checked_u32(params.append(op.params.data(), op.params.size()),
                                      "params blob size");
  }
  std::vector<uint32_t> quant_offset(spec.tensors.size(), kNoOffset);
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    if (!spec.tensors[i].quant.empty()) quant_offset[i] = append_quant(params, spec, i);
  }
  params.pad_to(4);

  // Constant data blob, every tensor 16-aligned.
  Image data;
  std::vector<uint64_t> data_offset(spec.tensors.size(), 0);
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const ProgramTensor& t = spec.tensors[i];
    if (t.storage != Storage::kConstant) continue;
    data.pad_to(kTensorAlignment);
    data_offset[i] = data.append(t.data.data(), t.data.size());
  }
  data.pad_to(kTensorAlignment);

  // Tensor and op tables, index pool.
  std::vector<TensorDesc> tensor_descs;
  tensor_descs.reserve(spec.tensors.size());
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const uint32_t name = strings.add(spec.tensors[i].name);
    tensor_descs.push_back(make_tensor_desc(spec, i, data_offset[i], quant_offset[i], name));
  }

  std::vector<uint32_t> index_pool;
  std::vector<OpDesc> op_descs;
  op_descs.reserve(spec.ops.size());
  for (size_t i = 0; i < spec.ops.size(); ++i) {
    const ProgramOp& op = spec.ops[i];
    const std::string label = op_label(spec, i);
    if (op.inputs.size() > 255 || op.outputs.size() > 255) {
      throw CompileError("program writer: " + label + " has " + std::to_string(op.inputs.size()) +
                         " inputs and " + std::to_string(op.outputs.size()) +
                         " outputs, at most 255 each are supported");
    }
    if (op.scratch_bytes != 0 && op.scratch_offset + op.scratch_bytes > spec.arena_bytes) {
      throw CompileError("program writer: " + label + " scratch lies outside the arena");
    }
    OpDesc desc{};
    desc.kernel = op.kernel;
    desc.input_count = static_cast<uint8_t>(op.inputs.size());
    desc.output_count = static_cast<uint8_t>(op.outputs.size());
    desc.io_first = checked_u32(index_pool.size(), "index pool size");
    for (uint32_t t : op.inputs) {
      if (t != kNoTensor) check_tensor_index(spec, t, label);
      index_pool.push_back(t);
    }
    for (uint32_t t : op.outputs) {
      check_tensor_index(spec, t, label);
      if (spec.tensors[t].storage != Storage::kArena) {
        throw CompileError("program writer: " + label + " writes constant " + tensor_label(spec, t));
      }
      index_pool.push_back(t);
    }
    desc.params_offset = op_params_offset[i];
    desc.params_bytes = checked_u32(op.params.size(), label + " params size");
    desc.scratch_offset = op.scratch_bytes == 0 ? 0 : checked_u32(op.scratch_offset, label + " scratch offset");
    desc.scratch_bytes = checked_u32(op.scratch_bytes, label + " scratch size");
    desc.name_offset = strings.add(op.name);
    op_descs.push_back(desc);
  }
  auto append_io = [&](const std::vector<uint32_t>& list, const char* what) {
    const uint32_t first = checked_u32(index_pool.size(), "index pool size");
    for (uint32_t t : list) {
      check_tensor_index(spec, t, std::string("graph ") + what);
      if (spec.tensors[t].storage != Storage::kArena) {
        throw CompileError(std::string("program writer: graph ") + what + " " + tensor_label(spec, t) +
                           " must live in the arena, not in constant storage");
      }
      index_pool.push_back(t);
    }
    return first;
  };
  const uint32_t inputs_first = append_io(spec.inputs, "input");
  const uint32_t outputs_first = append_io(spec.outputs, "output");

  // Lay the sections out in format order.
  Image image;
  ProgramHeader header{};
  image.append_value(header);  // filled in at the end
  image.pad_to(4);
  const uint64_t tensors_offset = image.size();
  image.append(tensor_descs.data(), tensor_descs.size() * sizeof(TensorDesc));
  image.pad_to(4);
  const uint64_t ops_offset = image.size();
  image.append(op_descs.data(), op_descs.size() * sizeof(OpDesc));
  image.pad_to(4);
  const uint64_t index_offset = image.size();
  image.append(index_pool.data(), index_pool.size() * sizeof(uint32_t));
  image.pad_to(4);
  const uint64_t params_offset = image.size();
  image.append(params.bytes().data(), params.size());
  const uint64_t strings_offset = image.size();
  image.append(strings.blob().data(), strings.blob().size());
  image.pad_to(kTensorAlignment);
  const uint64_t data_blob_offset = image.size();
  image.append(data.bytes().data(), data.size());
  image.pad_to(kProgramAlignment);

  header.magic = kProgramMagic;
  header.version_major = kFormatVersionMajor;
  header.version_minor = format_minor(spec);
  header.total_bytes = checked_u32(image.size(), "program size");
  header.arena_bytes = checked_u32(spec.arena_bytes, "arena size");
  header.tensor_count = checked_u32(spec.tensors.size(), "tensor count");
  header.tensors_offset = static_cast<uint32_t>(tensors_offset);
  header.op_count = checked_u32(spec.ops.size(), "op count");
  header.ops_offset = static_cast<uint32_t>(ops_offset);
  header.index_count = checked_u32(index_pool.size(), "index pool size");
  header.index_offset = static_cast<uint32_t>(index_offset);
  header.input_count = checked_u32(spec.inputs.size(), "input count");
  header.inputs_first = inputs_first;
  header.output_count = checked_u32(spec.outputs.size(), "output count");
  header.outputs_first = outputs_first;
  header.params_bytes = static_cast<uint32_t>(params.size());
  header.params_offset = static_cast<uint32_t>(params_offset);
  header.strings_bytes = static_cast<uint32_t>(strings.blob().size());
  header.strings_offset = static_cast<uint32_t>(strings_offset);
  header.data_bytes = static_cast<uint32_t>(data.size());
  header.data_offset = static_cast<uint32_t>(data_blob_offset);
  header.name_offset = model_name_offset;
  header.arena_lower_bound_bytes = checked_u32(spec.arena_lower_bound_bytes, "arena lower bound");
  header.init_op_count = static_cast<uint32_t>(spec.init_op_count);
  header.checksum = 0;
  image.write_at(0, header);

  std::vector<uint8_t>& bytes = image.bytes();
  header.checksum = program_checksum(bytes.data(), static_cast<uint32_t>(bytes.size()));
  image.write_at(0, header);
  return std::move(bytes);
}

}  // namespace mote::emit
