// An op built over buffers of the conformance Arena, for suites whose kernels take only
// an OpContext (SVDF, GRU: their check and run functions read tensor descriptors): the
// tensors, io list, OpDesc, params and scratch a program would hold, with every tensor in
// the arena (Storage::kArena) at 16-aligned offsets from one base allocation.
//
// Inputs are added first, in order (add_missing_input() for an absent optional one), then
// outputs. A buffer the arena cannot hold makes ok() false; the suite then skips the case.
#pragma once

#include <stdint.h>
#include <string.h>

#include "conformance.h"
#include "mote/kernel.h"

namespace mote::conformance {

class OpCase {
 public:
  static constexpr uint32_t kMaxTensors = 10;

  OpCase() : base_(static_cast<uint8_t*>(arena().alloc(16))) { ok_ = base_ != nullptr; }

  bool ok() const { return ok_; }

  // A tensor of `dtype` and rank 1-3 (d1, d2 ignored past the rank); its data, or nullptr.
  template <typename T>
  T* add_input(DType dtype, uint8_t rank, uint32_t d0, uint32_t d1 = 1, uint32_t d2 = 1) {
    return static_cast<T*>(add(dtype, rank, d0, d1, d2, false));
  }
  void add_missing_input() {
    io_[count_++] = kNoTensor;
    ++inputs_;
  }
  template <typename T>
  T* add_output(DType dtype, uint8_t rank, uint32_t d0, uint32_t d1 = 1, uint32_t d2 = 1) {
    return static_cast<T*>(add(dtype, rank, d0, d1, d2, true));
  }

  template <typename P>
  void set_params(const P& params) {
    params_ = reinterpret_cast<const uint8_t*>(&params);
    op_.params_bytes = sizeof(P);
  }
  // `bytes` of scratch at a 16-aligned offset plus `misalign` bytes; its data.
  uint8_t* set_scratch(uint32_t bytes, uint32_t misalign = 0) {
    uint8_t* p = static_cast<uint8_t*>(arena().alloc(bytes + misalign + 1));
    if (p == nullptr) {
      ok_ = false;
      return nullptr;
    }
    op_.scratch_offset = static_cast<uint32_t>(p + misalign - base_);
    op_.scratch_bytes = bytes;
    return p + misalign;
  }

  OpContext context() {
    op_.input_count = static_cast<uint8_t>(inputs_);
    op_.output_count = static_cast<uint8_t>(count_ - inputs_);
    op_.io_first = 0;
    return OpContext(tensors_, io_, &op_, params_, nullptr, base_);
  }
  TensorDesc& desc(uint32_t io_index) { return tensors_[io_[io_index]]; }

 private:
  void* add(DType dtype, uint8_t rank, uint32_t d0, uint32_t d1, uint32_t d2, bool output) {
    if (!output && inputs_ != count_) ok_ = false;  // inputs after an output
    if (count_ == kMaxTensors) ok_ = false;
    if (!ok_) return nullptr;
    TensorDesc& t = tensors_[count_];
    memset(&t, 0, sizeof(t));
    t.dtype = static_cast<uint8_t>(dtype);
    t.rank = rank;
    t.storage = static_cast<uint8_t>(Storage::kArena);
    for (uint32_t& d : t.dims) d = 1;
    const uint32_t dims[3] = {d0, d1, d2};
    uint32_t elements = 1;
    for (uint8_t i = 0; i < rank; ++i) elements *= (t.dims[i] = dims[i]);
    t.bytes = elements * dtype_size(dtype);
    t.quant_offset = kNoOffset;
    t.name_offset = kNoOffset;
    uint8_t* p = static_cast<uint8_t*>(arena().alloc(t.bytes + 1));
    if (p == nullptr) {
      ok_ = false;
      return nullptr;
    }
    t.offset = static_cast<uint32_t>(p - base_);
    io_[count_] = count_;
    ++count_;
    if (!output) ++inputs_;
    return p;
  }

  uint8_t* base_;
  bool ok_ = true;
  TensorDesc tensors_[kMaxTensors];
  uint32_t io_[kMaxTensors];
  uint32_t count_ = 0, inputs_ = 0;
  OpDesc op_{};
  const uint8_t* params_ = nullptr;
};

}  // namespace mote::conformance
