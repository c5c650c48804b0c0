// BATCH_MATMUL: float32, int8 and int16 (zero points 0), every adj_x / adj_y, ranks 2 to
// 5 with broadcast batch dims, constant rhs (weights) and computed rhs (both operands
// activations, as attention has them), against TFLite's reference BatchMatMul written
// here: out[.., m, n] = sum over k ascending of lhs[.., m, k] * rhs[.., k, n] (operands
// read transposed in their last two dims under adj), float32 summed in float; the
// integer paths with their zero points, int32 (int8) or int64 (int16) accumulators and
// one per-tensor multiplier (ref_mbqm / ref_mbqm64). Refusals are one line.
#include <array>
#include <cmath>
#include <random>

#include "kernels/quant_test_util.h"
#include "ops/broadcast_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace batch_matmul_test {

using fb::TensorType;
using Shape = std::vector<int32_t>;

// The geometry of one case: lhs and rhs as stored, the flags, and the output TFLite gives.
struct Case {
  Shape lhs, rhs;
  bool adj_x, adj_y;
  Shape out;
};

// Output shape: the broadcast batch dims, then M (lhs rows, or its columns with adj_x) and
// N (rhs columns, or its rows with adj_y).
Shape output_shape(const Shape& lhs, const Shape& rhs, bool adj_x, bool adj_y) {
  const size_t rank = std::max(lhs.size(), rhs.size());
  Shape out(rank);
  for (size_t i = 0; i + 2 < rank; ++i) {
    const int32_t l = i + lhs.size() >= rank ? lhs[i + lhs.size() - rank] : 1;
    const int32_t r = i + rhs.size() >= rank ? rhs[i + rhs.size() - rank] : 1;
    out[i] = l == 1 ? r : l;
  }
  out[rank - 2] = lhs[lhs.size() - (adj_x ? 1 : 2)];
  out[rank - 1] = rhs[rhs.size() - (adj_y ? 2 : 1)];
  return out;
}

std::vector<Case> cases() {
  const std::vector<std::pair<Shape, Shape>> untransposed = {
      {{3, 4}, {4, 5}},                      // rank 2
      {{2, 3, 4}, {2, 4, 5}},                // one batch dim
      {{2, 3, 4}, {4, 5}},                   // rank 3 x rank 2 (the rhs broadcasts)
      {{3, 4}, {3, 4, 2}},                   // rank 2 x rank 3 (the lhs broadcasts)
      {{2, 1, 3, 4}, {1, 3, 4, 2}},          // both broadcast
      {{1, 2, 1, 3, 5}, {2, 1, 3, 5, 2}},    // rank 5
      {{1, 1, 7}, {1, 7, 1}},                // a dot product
  };
  std::vector<Case> result;
  for (const auto& [lhs, rhs] : untransposed) {
    for (int flags = 0; flags < 4; ++flags) {
      const bool adj_x = (flags & 1) != 0, adj_y = (flags & 2) != 0;
      Shape l = lhs, r = rhs;
      if (adj_x) std::swap(l[l.size() - 1], l[l.size() - 2]);
      if (adj_y) std::swap(r[r.size() - 1], r[r.size() - 2]);
      result.push_back({l, r, adj_x, adj_y, output_shape(l, r, adj_x, adj_y)});
    }
  }
  return result;
}

// out[flat] = f(element offsets of the lhs row and rhs column it reads): calls
// dot(lhs_offset(k), rhs_offset(k)) per output element through `emit`.
template <typename Emit>
void for_each_output(const Case& c, Emit emit) {
  const Shape& out = c.out;
  const size_t rank = out.size();
  const int32_t m_count = out[rank - 2], n_count = out[rank - 1];
  const int32_t k_count = c.lhs[c.lhs.size() - (c.adj_x ? 2 : 1)];
  const int32_t l_cols = c.lhs.back(), r_cols = c.rhs.back();
  size_t batches = 1;
  for (size_t i = 0; i + 2 < rank; ++i) batches *= static_cast<size_t>(out[i]);
  for (size_t batch = 0; batch < batches; ++batch) {
    // The batch coordinates, mapped right-aligned into each operand (0 where it is 1).
    size_t rest = batch, l_matrix = 0, r_matrix = 0, l_stride = 1, r_stride = 1;
    for (size_t i = rank - 2; i-- > 0;) {
      const size_t coord = rest % static_cast<size_t>(out[i]);
      rest /= static_cast<size_t>(out[i]);
      const size_t li = i + c.lhs.size(), ri = i + c.rhs.size();
      if (li >= rank) {
        const size_t dim = static_cast<size_t>(c.lhs[li - rank]);
        if (dim != 1) l_matrix += coord * l_stride;
        l_stride *= dim;
      }
      if (ri >= rank) {
        const size_t dim = static_cast<size_t>(c.rhs[ri - rank]);
        if (dim != 1) r_matrix += coord * r_stride;
        r_stride *= dim;
      }
    }
    const size_t l_base = l_matrix * static_cast<size_t>(m_count * k_count);
    const size_t r_base = r_matrix * static_cast<size_t>(k_count * n_count);
    for (int32_t m = 0; m < m_count; ++m) {
      for (int32_t n = 0; n < n_count; ++n) {
        emit(k_count, [&](int32_t k) { return l_base + static_cast<size_t>(c.adj_x ? k * l_cols + m : m * l_cols + k); },
             [&](int32_t k) { return r_base + static_cast<size_t>(c.adj_y ? n * r_cols + k : k * r_cols + n); });
      }
    }
  }
}

ModelSpec matmul_model(TensorSpec lhs, TensorSpec rhs, TensorSpec out, bool adj_x, bool adj_y,
                       bool asymmetric = false) {
  return single_op_model({std::move(lhs), std::move(rhs), std::move(out)}, op_code(fb::BuiltinOperator::BATCH_MATMUL),
                         {0, 1}, {2}, fb::BuiltinOptions::BatchMatMulOptions,
                         [=](flatbuffers::FlatBufferBuilder& b) {
                           return fb::CreateBatchMatMulOptions(b, adj_x, adj_y, asymmetric).Union();
                         });
}

std::string case_name(const char* dtype, size_t index, bool constant) {
  return std::string("batch_matmul_") + dtype + "_" + std::to_string(index) + (constant ? "_const" : "");
}

// Makes rhs a constant holding rhs_bytes, or leaves it a graph input; the sample's inputs.
std::vector<std::vector<uint8_t>> sample_inputs(TensorSpec* rhs, bool constant, std::vector<uint8_t> lhs_bytes,
                                                std::vector<uint8_t> rhs_bytes) {
  if (!constant) return {std::move(lhs_bytes), std::move(rhs_bytes)};
  rhs->data = std::move(rhs_bytes);
  return {std::move(lhs_bytes)};
}

OP_TEST(BatchMatMul, Float32EveryAdjAndBroadcast) {
  std::mt19937 rng(5);
  const std::vector<Case> all = cases();
  for (size_t i = 0; i < all.size(); ++i) {
    const Case& c = all[i];
    std::vector<float> lhs(elements(c.lhs)), rhs(elements(c.rhs)), out;
    for (float& v : lhs) v = std::uniform_real_distribution<float>(-2.0f, 2.0f)(rng);
    for (float& v : rhs) v = std::uniform_real_distribution<float>(-2.0f, 2.0f)(rng);
    for_each_output(c, [&](int32_t k_count, auto l_at, auto r_at) {
      float total = 0.0f;
      for (int32_t k = 0; k < k_count; ++k) total += lhs[l_at(k)] * rhs[r_at(k)];
      out.push_back(total);
    });
    // Float sums over k in TFLite's order; a core may fuse the multiply-add (one rounding
    // fewer per term), hence the tolerance.
    const FloatTolerance tolerance{1e-5, 1e-5};
    for (bool constant : {false, true}) {
      TensorSpec r("rhs", c.rhs);
      const auto inputs = sample_inputs(&r, constant, bytes_of(lhs), bytes_of(rhs));
      expect_op_outputs(case_name("f32", i, constant),
                        matmul_model(TensorSpec("lhs", c.lhs), r, TensorSpec("out", c.out), c.adj_x, c.adj_y),
                        {{inputs, {bytes_of(out)}}}, tolerance);
    }
  }
}

OP_TEST(BatchMatMul, Float32ReadsNoActivation) {
  // TFLite's float BatchMatMul has no activation and no clamp: infinities pass.
  const std::vector<float> lhs = {3e38f, 3e38f, -1.0f, 1.0f}, rhs = {2.0f, 1.0f};
  const std::vector<float> out = {std::numeric_limits<float>::infinity(), -1.0f};
  expect_op_outputs("batch_matmul_f32_inf",
                    matmul_model(TensorSpec("lhs", {2, 2}), TensorSpec("rhs", {2, 1}), TensorSpec("out", {2, 1}),
                                 false, false),
                    {{{bytes_of(lhs), bytes_of(rhs)}, {bytes_of(out)}}});
}

struct QuantCase {
  float l_scale;
  int32_t l_zp;
  float r_scale;
  int32_t r_zp;
  float o_scale;
  int32_t o_zp;
};

OP_TEST(BatchMatMul, Int8EveryAdjAndBroadcast) {
  const std::vector<QuantCase> quants = {{0.02f, -5, 0.01f, 3, 0.05f, 10}, {0.5f, 127, 0.25f, -128, 0.3f, -128}};
  std::mt19937 rng(6);
  const std::vector<Case> all = cases();
  size_t index = 0;
  for (const QuantCase& q : quants) {
    int32_t multiplier, shift;
    ref_quantize_multiplier(static_cast<double>(q.l_scale) * static_cast<double>(q.r_scale) /
                                static_cast<double>(q.o_scale),
                            &multiplier, &shift);
    for (const Case& c : all) {
      std::vector<int8_t> lhs(elements(c.lhs)), rhs(elements(c.rhs)), out;
      for (int8_t& v : lhs) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
      for (int8_t& v : rhs) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
      lhs[0] = -128;
      rhs[0] = 127;
      for_each_output(c, [&](int32_t k_count, auto l_at, auto r_at) {
        int32_t total = 0;
        for (int32_t k = 0; k < k_count; ++k) total += (lhs[l_at(k)] - q.l_zp) * (rhs[r_at(k)] - q.r_zp);
        out.push_back(static_cast<int8_t>(ref_clamp(int64_t{ref_mbqm(total, multiplier, shift)} + q.o_zp, -128, 127)));
      });
      const bool constant = (index + index / all.size()) % 2 == 1;  // each case both ways
      TensorSpec r = quantized("rhs", c.rhs, TensorType::INT8, q.r_scale, q.r_zp);
      const auto inputs = sample_inputs(&r, constant, bytes_of(lhs), bytes_of(rhs));
      expect_op_outputs(case_name("s8", index, constant),
                        matmul_model(quantized("lhs", c.lhs, TensorType::INT8, q.l_scale, q.l_zp), r,
                                     quantized("out", c.out, TensorType::INT8, q.o_scale, q.o_zp), c.adj_x, c.adj_y),
                        {{inputs, {bytes_of(out)}}});
      ++index;
    }
  }
}

OP_TEST(BatchMatMul, Int16EveryAdjAndBroadcast) {
  const std::vector<std::array<float, 3>> scales = {{0.001f, 0.002f, 0.05f}, {0.5f, 0.25f, 0.001f}};
  std::mt19937 rng(7);
  const std::vector<Case> all = cases();
  size_t index = 0;
  for (const auto& s : scales) {
    int32_t multiplier, shift;
    ref_quantize_multiplier(static_cast<double>(s[0]) * static_cast<double>(s[1]) / static_cast<double>(s[2]),
                            &multiplier, &shift);
    for (const Case& c : all) {
      std::vector<int16_t> lhs(elements(c.lhs)), rhs(elements(c.rhs)), out;
      for (int16_t& v : lhs) v = static_cast<int16_t>(std::uniform_int_distribution<int>(-32768, 32767)(rng));
      for (int16_t& v : rhs) v = static_cast<int16_t>(std::uniform_int_distribution<int>(-32768, 32767)(rng));
      lhs[0] = -32768;
      rhs[0] = -32768;
      for_each_output(c, [&](int32_t k_count, auto l_at, auto r_at) {
        int64_t total = 0;
        for (int32_t k = 0; k < k_count; ++k) total += int64_t{lhs[l_at(k)]} * rhs[r_at(k)];
        out.push_back(static_cast<int16_t>(ref_clamp(ref_mbqm64(total, multiplier, shift), -32768, 32767)));
      });
      const bool constant = (index + index / all.size()) % 2 == 0;  // each case both ways
      TensorSpec r = quantized("rhs", c.rhs, TensorType::INT16, s[1], 0);
      const auto inputs = sample_inputs(&r, constant, bytes_of(lhs), bytes_of(rhs));
      expect_op_outputs(case_name("s16", index, constant),
                        matmul_model(quantized("lhs", c.lhs, TensorType::INT16, s[0], 0), r,
                                     quantized("out", c.out, TensorType::INT16, s[2], 0), c.adj_x, c.adj_y),
                        {{inputs, {bytes_of(out)}}});
      ++index;
    }
  }
}

OP_TEST(BatchMatMul, Int8ConstantLhs) {
  // Weights on the left (a constant lhs) against a computed rhs, read transposed.
  const Case c{{4, 3}, {2, 5, 3}, false, true, {2, 4, 5}};
  const QuantCase q{0.03f, 7, 0.02f, -9, 0.04f, -1};
  int32_t multiplier, shift;
  ref_quantize_multiplier(static_cast<double>(q.l_scale) * static_cast<double>(q.r_scale) / static_cast<double>(q.o_scale),
                          &multiplier, &shift);
  std::mt19937 rng(9);
  std::vector<int8_t> lhs(elements(c.lhs)), rhs(elements(c.rhs)), out;
  for (int8_t& v : lhs) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
  for (int8_t& v : rhs) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
  for_each_output(c, [&](int32_t k_count, auto l_at, auto r_at) {
    int32_t total = 0;
    for (int32_t k = 0; k < k_count; ++k) total += (lhs[l_at(k)] - q.l_zp) * (rhs[r_at(k)] - q.r_zp);
    out.push_back(static_cast<int8_t>(ref_clamp(int64_t{ref_mbqm(total, multiplier, shift)} + q.o_zp, -128, 127)));
  });
  expect_op_outputs("batch_matmul_s8_const_lhs",
                    matmul_model(quantized("lhs", c.lhs, TensorType::INT8, q.l_scale, q.l_zp, bytes_of(lhs)),
                                 quantized("rhs", c.rhs, TensorType::INT8, q.r_scale, q.r_zp),
                                 quantized("out", c.out, TensorType::INT8, q.o_scale, q.o_zp), c.adj_x, c.adj_y),
                    {{{bytes_of(rhs)}, {bytes_of(out)}}});
}

OP_TEST(BatchMatMul, RefusesWhatTfliteMicroDoesNotRun) {
  const auto f32 = [](const char* n, Shape s) { return TensorSpec(n, std::move(s)); };
  EXPECT_EQ(op_error("bmm_rank6", matmul_model(f32("lhs", {1, 1, 1, 1, 2, 3}), f32("rhs", {3, 2}),
                                               f32("out", {1, 1, 1, 1, 2, 2}), false, false)),
            "bmm_rank6.tflite: operator 0 (BATCH_MATMUL): lhs 'lhs' has shape [1,1,1,1,2,3], expected rank 2 to 5");
  EXPECT_EQ(op_error("bmm_rank1", matmul_model(f32("lhs", {2, 3}), f32("rhs", {3}), f32("out", {2}), false, false)),
            "bmm_rank1.tflite: operator 0 (BATCH_MATMUL): rhs 'rhs' has shape [3], expected rank 2 to 5");
  EXPECT_EQ(op_error("bmm_hybrid_option", matmul_model(f32("lhs", {2, 3}), f32("rhs", {3, 2}), f32("out", {2, 2}),
                                                       false, false, true)),
            "bmm_hybrid_option.tflite: operator 0 (BATCH_MATMUL): asymmetric_quantize_inputs true not supported "
            "(hybrid batch matmul)");
  EXPECT_EQ(op_error("bmm_hybrid", matmul_model(f32("lhs", {2, 3}), quantized("rhs", {3, 2}, TensorType::INT8, 0.1f, 0),
                                                f32("out", {2, 2}), false, false)),
            "bmm_hybrid.tflite: operator 0 (BATCH_MATMUL): lhs, rhs and the output have types float32, int8 and "
            "float32, expected one type");
  EXPECT_EQ(op_error("bmm_inner", matmul_model(f32("lhs", {2, 3}), f32("rhs", {3, 2}), f32("out", {3, 3}), true,
                                               false)),
            "bmm_inner.tflite: operator 0 (BATCH_MATMUL): lhs [2,3] (adj_x 1) and rhs [3,2] (adj_y 0) disagree on "
            "the inner dimension: 2 vs 3");
  EXPECT_EQ(op_error("bmm_batch", matmul_model(f32("lhs", {2, 2, 3}), f32("rhs", {3, 3, 2}), f32("out", {3, 2, 2}),
                                               false, false)),
            "bmm_batch.tflite: operator 0 (BATCH_MATMUL): batch dims of lhs [2,2,3] and rhs [3,3,2] do not broadcast");
  EXPECT_EQ(op_error("bmm_out", matmul_model(f32("lhs", {2, 3}), f32("rhs", {3, 4}), f32("out", {2, 3}), false,
                                             false)),
            "bmm_out.tflite: operator 0 (BATCH_MATMUL): output 'out' has shape [2,3], expected [2,4]");
  const auto s32 = [](const char* n, Shape s) { return TensorSpec(n, std::move(s), TensorType::INT32); };
  EXPECT_EQ(op_error("bmm_s32", matmul_model(s32("lhs", {2, 3}), s32("rhs", {3, 2}), s32("out", {2, 2}), false, false)),
            "node 'out' (batch_matmul): A 'lhs' has dtype int32, expected float32, int8 or int16 (TensorFlow Lite "
            "Micro's batch_matmul)");
  const auto s16 = [](const char* n, Shape s, int64_t zp) {
    return quantized(n, std::move(s), TensorType::INT16, 0.01f, zp);
  };
  EXPECT_EQ(op_error("bmm_s16_zp", matmul_model(s16("lhs", {2, 3}, 4), s16("rhs", {3, 2}, 0), s16("out", {2, 2}, 0),
                                                false, false)),
            "node 'out' (batch_matmul): A 'lhs' has zero point 4, expected 0 (int16 activations are symmetric in "
            "TFLite)");
}

}  // namespace batch_matmul_test
}  // namespace mote::testing
