// Lays out small Mote programs by hand, straight from runtime/include/mote/program_format.h,
// so the platform tests depend on the format contract only (not on the compiler).
// Every arena tensor gets its own 16-aligned slot (no reuse); constants are stored in
// the data blob in the order they are added.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_ids.h"
#include "mote/interpreter.h"
#include "mote/program_format.h"

namespace mote::testing {

class ProgramBuilder {
 public:
  // Returns the tensor index. `constant` bytes (for Storage::kConstant) must match the
  // tensor's size.
  uint32_t tensor(DType dtype, const std::vector<uint32_t>& dims, const std::string& name,
                  const std::vector<uint8_t>& constant = {}) {
    TensorDesc t{};
    t.dtype = static_cast<uint8_t>(dtype);
    t.rank = static_cast<uint8_t>(dims.size());
    uint32_t elements = 1;
    for (uint32_t i = 0; i < kMaxRank; ++i) {
      t.dims[i] = i < dims.size() ? dims[i] : 1;
      if (i < dims.size()) elements *= dims[i];
    }
    t.bytes = elements * dtype_size(dtype);
    t.quant_offset = kNoOffset;
    t.name_offset = string(name);
    if (constant.empty()) {
      t.storage = static_cast<uint8_t>(Storage::kArena);
      t.offset = arena_bytes_;
      arena_bytes_ = align16(arena_bytes_ + t.bytes);
    } else {
      t.storage = static_cast<uint8_t>(Storage::kConstant);
      t.offset = static_cast<uint32_t>(data_.size());
      data_.insert(data_.end(), constant.begin(), constant.end());
      data_.resize(align16(static_cast<uint32_t>(data_.size())), 0);
    }
    tensors_.push_back(t);
    return static_cast<uint32_t>(tensors_.size() - 1);
  }

  template <typename Params>
  void op(KernelId kernel, const std::vector<uint32_t>& inputs,
          const std::vector<uint32_t>& outputs, const Params& params, const std::string& name) {
    OpDesc op{};
    op.kernel = static_cast<uint16_t>(kernel);
    op.input_count = static_cast<uint8_t>(inputs.size());
    op.output_count = static_cast<uint8_t>(outputs.size());
    op.io_first = static_cast<uint32_t>(index_pool_.size());
    index_pool_.insert(index_pool_.end(), inputs.begin(), inputs.end());
    index_pool_.insert(index_pool_.end(), outputs.begin(), outputs.end());
    op.params_offset = static_cast<uint32_t>(params_.size());
    op.params_bytes = sizeof(Params);
    params_.resize(params_.size() + sizeof(Params));
    std::memcpy(params_.data() + op.params_offset, &params, sizeof(Params));
    params_.resize((params_.size() + 3) / 4 * 4, 0);
    op.scratch_offset = 0;
    op.scratch_bytes = 0;
    op.name_offset = string(name);
    ops_.push_back(op);
  }

  void graph_io(const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs) {
    inputs_ = inputs;
    outputs_ = outputs;
  }

  std::vector<uint8_t> build() const {
    std::vector<uint32_t> pool = index_pool_;
    const uint32_t inputs_first = static_cast<uint32_t>(pool.size());
    pool.insert(pool.end(), inputs_.begin(), inputs_.end());
    const uint32_t outputs_first = static_cast<uint32_t>(pool.size());
    pool.insert(pool.end(), outputs_.begin(), outputs_.end());

    ProgramHeader h{};
    h.magic = kProgramMagic;
    h.version_major = kFormatVersionMajor;
    h.version_minor = kFormatVersionMinor;
    h.arena_bytes = arena_bytes_;
    h.arena_lower_bound_bytes = arena_bytes_;
    h.tensor_count = static_cast<uint32_t>(tensors_.size());
    h.op_count = static_cast<uint32_t>(ops_.size());
    h.index_count = static_cast<uint32_t>(pool.size());
    h.input_count = static_cast<uint32_t>(inputs_.size());
    h.inputs_first = inputs_first;
    h.output_count = static_cast<uint32_t>(outputs_.size());
    h.outputs_first = outputs_first;
    h.params_bytes = static_cast<uint32_t>(params_.size());
    h.strings_bytes = static_cast<uint32_t>(strings_.size());
    h.data_bytes = static_cast<uint32_t>(data_.size());
    h.name_offset = kNoOffset;

    std::vector<uint8_t> out(sizeof(ProgramHeader));
    h.tensors_offset = append(out, tensors_.data(), tensors_.size() * sizeof(TensorDesc), 4);
    h.ops_offset = append(out, ops_.data(), ops_.size() * sizeof(OpDesc), 4);
    h.index_offset = append(out, pool.data(), pool.size() * sizeof(uint32_t), 4);
    h.params_offset = append(out, params_.data(), params_.size(), 4);
    h.strings_offset = append(out, strings_.data(), strings_.size(), 1);
    h.data_offset = append(out, data_.data(), data_.size(), kTensorAlignment);
    h.total_bytes = static_cast<uint32_t>(out.size());
    std::memcpy(out.data(), &h, sizeof(h));
    seal(out);
    return out;
  }

  // Recomputes the checksum after a test edited the program.
  static void seal(std::vector<uint8_t>& program) {
    const uint32_t checksum = program_checksum(program.data(), static_cast<uint32_t>(program.size()));
    std::memcpy(program.data() + offsetof(ProgramHeader, checksum), &checksum, sizeof(checksum));
  }

 private:
  static uint32_t align16(uint32_t n) { return (n + 15) / 16 * 16; }

  static uint32_t append(std::vector<uint8_t>& out, const void* data, size_t bytes, size_t alignment) {
    out.resize((out.size() + alignment - 1) / alignment * alignment, 0);
    const uint32_t offset = static_cast<uint32_t>(out.size());
    const uint8_t* begin = static_cast<const uint8_t*>(data);
    if (bytes != 0) out.insert(out.end(), begin, begin + bytes);
    return offset;
  }

  uint32_t string(const std::string& text) {
    const uint32_t offset = static_cast<uint32_t>(strings_.size());
    strings_.insert(strings_.end(), text.begin(), text.end());
    strings_.push_back('\0');
    return offset;
  }

  std::vector<TensorDesc> tensors_;
  std::vector<OpDesc> ops_;
  std::vector<uint32_t> index_pool_;
  std::vector<uint8_t> params_;
  std::vector<char> strings_;
  std::vector<uint8_t> data_;
  std::vector<uint32_t> inputs_, outputs_;
  uint32_t arena_bytes_ = 0;
};

}  // namespace mote::testing
