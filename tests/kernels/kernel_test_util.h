// Builds one op in memory (tensor descriptors, io list, parameter bytes, an arena) so a
// test can call a kernel's check() and run() directly, as the interpreter would.
//
//   TestOp op;
//   const uint32_t x = op.add_input(DType::kFloat32, {2, 3});
//   const uint32_t y = op.add_output(DType::kFloat32, {2, 3});
//   op.set_params(ClampParams{0.0f, 6.0f});
//   op.set_data(x, values);
//   ASSERT_EQ(op.check(kClampF32Entry), Status::kOk);
//   op.run(kClampF32Entry);
//   std::vector<float> out = op.data<float>(y);
#pragma once

#include <gtest/gtest.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <ostream>
#include <cmath>
#include <random>
#include <vector>

#include "mote/kernel.h"
#include "mote/program_format.h"
#include "mote/status.h"

namespace mote {

// So gtest prints "0x27 (invalid op parameters)" instead of raw bytes.
inline void PrintTo(Status status, std::ostream* os) {
  *os << "0x" << std::hex << static_cast<int>(status) << std::dec << " ("
      << status_string(status) << ")";
}

}  // namespace mote

namespace mote::testing {

class TestOp {
 public:
  // Adds an arena tensor (16-aligned, zero-filled) and lists it as the next input/output.
  // Returns its tensor index.
  uint32_t add_input(DType dtype, const std::vector<uint32_t>& dims) {
    const uint32_t t = add_tensor(dtype, dims);
    inputs_.push_back(t);
    return t;
  }
  uint32_t add_output(DType dtype, const std::vector<uint32_t>& dims) {
    const uint32_t t = add_tensor(dtype, dims);
    outputs_.push_back(t);
    return t;
  }
  // An absent optional input (kNoTensor in the io list).
  void add_missing_input() { inputs_.push_back(kNoTensor); }
  // Lists an existing tensor again, e.g. as the output of an in-place op.
  void add_output_tensor(uint32_t t) { outputs_.push_back(t); }
  // Reserves `bytes` of 16-aligned kernel scratch in the arena (filled with 0x5A, so a
  // kernel that reads scratch before writing it shows up).
  void add_scratch(uint32_t bytes) {
    scratch_offset_ = static_cast<uint32_t>(arena_.size() * sizeof(Block));
    scratch_bytes_ = bytes;
    Block filled;
    memset(filled.bytes, 0x5A, sizeof filled.bytes);
    arena_.resize(arena_.size() + (bytes + sizeof(Block) - 1) / sizeof(Block) + 1, filled);
  }

  template <typename P>
  void set_params(const P& params) {
    params_.assign(sizeof(P), 0);
    memcpy(params_.data(), &params, sizeof(P));
    params_bytes_ = sizeof(P);
  }
  // Raw parameter bytes, e.g. a header struct followed by per-channel arrays.
  void set_raw_params(const std::vector<uint8_t>& bytes) {
    params_ = bytes;
    params_bytes_ = static_cast<uint32_t>(bytes.size());
  }
  // The parameter struct in place, for corrupting a field after set_params().
  template <typename P>
  P& params() {
    return *reinterpret_cast<P*>(params_.data());
  }
  // Declares a params size different from the struct actually stored.
  void set_params_bytes(uint32_t bytes) {
    if (params_.size() < bytes) params_.resize(bytes, 0);
    params_bytes_ = bytes;
  }

  // The descriptor, for corrupting a field. set_dims keeps `bytes` consistent (the data
  // is not reallocated, so only check() may be called after a change that grows it).
  TensorDesc& desc(uint32_t t) { return tensors_[t]; }
  // Marks tensor t constant (a program's constant data, which kernels may check for); its
  // bytes stay where set_data() put them.
  void set_constant(uint32_t t) { tensors_[t].storage = static_cast<uint8_t>(Storage::kConstant); }
  void set_dims(uint32_t t, const std::vector<uint32_t>& dims) { fill_dims(&tensors_[t], dims); }

  template <typename T>
  void set_data(uint32_t t, const std::vector<T>& values) {
    const TensorDesc& d = tensors_[t];
    ASSERT_EQ(values.size() * sizeof(T), d.bytes);
    if (d.bytes != 0) memcpy(arena_bytes() + d.offset, values.data(), d.bytes);
  }
  template <typename T>
  std::vector<T> data(uint32_t t) {
    const TensorDesc& d = tensors_[t];
    std::vector<T> values(d.bytes / sizeof(T));
    if (d.bytes != 0) memcpy(values.data(), arena_bytes() + d.offset, d.bytes);
    return values;
  }

  OpContext context() {
    io_.assign(inputs_.begin(), inputs_.end());
    io_.insert(io_.end(), outputs_.begin(), outputs_.end());
    op_ = OpDesc{};
    op_.kernel = 0;
    op_.input_count = static_cast<uint8_t>(inputs_.size());
    op_.output_count = static_cast<uint8_t>(outputs_.size());
    op_.params_offset = params_bytes_ != 0 ? 0 : kNoOffset;
    op_.params_bytes = params_bytes_;
    op_.scratch_offset = scratch_offset_;
    op_.scratch_bytes = scratch_bytes_;
    op_.name_offset = kNoOffset;
    if (params_.empty()) params_.resize(4, 0);
    return OpContext(tensors_.data(), io_.data(), &op_, params_.data(), arena_bytes(), arena_bytes(), &next_op_);
  }

  Status check(const KernelEntry& kernel) { return kernel.check(context()); }
  // Runs the kernel as op `index` of a program: next_op() is then the op that runs next.
  void run(const KernelEntry& kernel, uint32_t index = 0) {
    next_op_ = index + 1;
    kernel.run(context());
  }
  uint32_t next_op() const { return next_op_; }

 private:
  uint32_t next_op_ = 0;
  struct alignas(16) Block {
    uint8_t bytes[16];
  };

  static void fill_dims(TensorDesc* d, const std::vector<uint32_t>& dims) {
    d->rank = static_cast<uint8_t>(dims.size());
    uint64_t elements = 1;
    for (uint32_t i = 0; i < kMaxRank; ++i) {
      d->dims[i] = i < dims.size() ? dims[i] : 1;
      elements *= d->dims[i];
    }
    d->bytes = static_cast<uint32_t>(elements * dtype_size(static_cast<DType>(d->dtype)));
  }

  uint32_t add_tensor(DType dtype, const std::vector<uint32_t>& dims) {
    TensorDesc d{};
    d.dtype = static_cast<uint8_t>(dtype);
    d.storage = static_cast<uint8_t>(Storage::kArena);
    d.quant_offset = kNoOffset;
    d.name_offset = kNoOffset;
    fill_dims(&d, dims);
    d.offset = static_cast<uint32_t>(arena_.size() * sizeof(Block));
    arena_.resize(arena_.size() + (d.bytes + sizeof(Block) - 1) / sizeof(Block) + 1, Block{});
    tensors_.push_back(d);
    return static_cast<uint32_t>(tensors_.size() - 1);
  }

  uint8_t* arena_bytes() { return reinterpret_cast<uint8_t*>(arena_.data()); }

  std::vector<TensorDesc> tensors_;
  std::vector<Block> arena_;
  std::vector<uint32_t> inputs_;
  std::vector<uint32_t> outputs_;
  std::vector<uint32_t> io_;
  std::vector<uint8_t> params_;
  uint32_t params_bytes_ = 0;
  uint32_t scratch_offset_ = 0;
  uint32_t scratch_bytes_ = 0;
  OpDesc op_{};
};

// A binary op's check() status and, when check() accepts, its output: inputs a and b
// of `dtype` (element type T) with their dims, an output of out_dims, params p.
template <typename T>
struct BinaryResult {
  Status check;
  std::vector<T> out;
};
template <typename T, typename P>
BinaryResult<T> run_binary(const KernelEntry& entry, DType dtype, const P& p,
                           const std::vector<uint32_t>& a_dims, const std::vector<uint32_t>& b_dims,
                           const std::vector<uint32_t>& out_dims, const std::vector<T>& a,
                           const std::vector<T>& b) {
  TestOp op;
  const uint32_t ta = op.add_input(dtype, a_dims);
  const uint32_t tb = op.add_input(dtype, b_dims);
  const uint32_t to = op.add_output(dtype, out_dims);
  op.set_params(p);
  op.set_data(ta, a);
  op.set_data(tb, b);
  BinaryResult<T> r;
  r.check = op.check(entry);
  if (r.check == Status::kOk) {
    op.run(entry);
    r.out = op.data<T>(to);
  }
  return r;
}

// Uniform values in [lo, hi) from a fixed seed, so failures reproduce.
inline std::vector<float> random_floats(size_t count, uint32_t seed, float lo = -1.0f,
                                        float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> values(count);
  for (float& v : values) v = dist(rng);
  return values;
}

inline size_t product(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

// Row-major strides of `dims`, in elements.
inline std::vector<size_t> strides_of(const std::vector<uint32_t>& dims) {
  std::vector<size_t> strides(dims.size());
  size_t s = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = s;
    s *= dims[i];
  }
  return strides;
}

// Multi-index of flat row-major index `flat` in `dims`.
inline std::vector<size_t> unflatten(size_t flat, const std::vector<uint32_t>& dims) {
  std::vector<size_t> idx(dims.size());
  for (size_t i = dims.size(); i-- > 0;) {
    idx[i] = flat % dims[i];
    flat /= dims[i];
  }
  return idx;
}

inline double clamp_ref(double v, double lo, double hi) { return std::min(std::max(v, lo), hi); }

// Every element within `tolerance` relative to max(1, |expected|); infinities must match.
inline void expect_all_near(const std::vector<float>& actual, const std::vector<double>& expected,
                            double tolerance = 1e-5) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::isinf(expected[i])) {
      EXPECT_EQ(actual[i], expected[i]) << "at element " << i;
      continue;
    }
    const double scale = std::max(1.0, std::fabs(expected[i]));
    EXPECT_NEAR(actual[i], expected[i], tolerance * scale) << "at element " << i;
  }
}

}  // namespace mote::testing
