// Lowering of the matrix products: fully_connected on float32, int8 and int16
// activations (int16 with int8 weights: TFLite "16x8"), batch_matmul on float32, int8 and int16.
//
// fully_connected runs one check on every dtype (check_fully_connected); the dtype then
// decides only the kernel and the parameter struct it fills.
#include <string>
#include <vector>

#include "lower/node_lowering.h"
#include "lower/quantization.h"
// Kernel parameter structs.
#include "batch_matmul/batch_matmul.h"
#include "fully_connected/fully_connected.h"

namespace mote::lower {
namespace {

// What fully_connected's check establishes, for every dtype.
struct FullyConnectedCheck {
  DType dtype;  // of input 0 and output 0
  int64_t batches, in_features, out_features;
};

// input [..., K], weights [N, K], output: B * N elements with last dim N, where B is the
// product of the input's leading dims (as the kernel computes it; also right for K == 0).
FullyConnectedCheck check_fully_connected(const NodeLowering& l) {
  l.expect_io(2, 3, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& weights = l.input(1);
  const ir::Tensor& out = l.output(0);
  l.expect_min_rank(in, "input", 1);
  l.expect_rank(weights, "weights", 2);
  l.expect_min_rank(out, "output", 1);
  FullyConnectedCheck c{};
  c.dtype = expect_weighted_dtypes(l, "weights");
  c.in_features = in.shape.back();
  c.out_features = weights.shape[0];
  if (weights.shape[1] != c.in_features) {
    l.fail("weights '" + weights.name + "' has shape " + shape_string(weights.shape) + ", expected [N," +
           std::to_string(c.in_features) + "] to match input " + shape_string(in.shape));
  }
  c.batches = ir::element_count(ir::Shape(in.shape.begin(), in.shape.end() - 1));
  if (out.shape.back() != c.out_features || out.elements() != c.batches * c.out_features) {
    l.fail("output '" + out.name + "' has shape " + shape_string(out.shape) + ", expected " +
           std::to_string(c.batches * c.out_features) + " elements with last dim " +
           std::to_string(c.out_features));
  }
  return c;
}

// The quantized requantization: per tensor (TFLite's GetQuantizedConvolutionMultipler,
// float product; the weights' zero point applied) or per output channel (the weights'
// zero point never applied), each shift within max_shift.
struct FullyConnectedRequant {
  int32_t filter_zero_point = 0;
  std::vector<int32_t> multipliers, shifts;
};

FullyConnectedRequant fully_connected_requant(const NodeLowering& l, const FullyConnectedCheck& c,
                                              const TensorQuant& in_q, const TensorQuant& out_q,
                                              int32_t max_shift) {
  const ir::Tensor& weights = l.input(1);
  FullyConnectedRequant r;
  if (weights.quant.scales.size() == 1) {
    const TensorQuant w_q = per_tensor(l, weights, "weights");
    r.filter_zero_point = w_q.zero_point;
    int32_t m = 0, s = 0;
    fully_connected_multiplier(in_q.scale, w_q.scale, out_q.scale, &m, &s);
    expect_shift(l, s, kMinShift, max_shift, "requantization");
    r.multipliers.push_back(m);
    r.shifts.push_back(s);
  } else {
    channel_multipliers(l, in_q.scale, channel_scales(l, weights, 0, c.out_features), out_q.scale, max_shift,
                        &r.multipliers, &r.shifts);
  }
  return r;
}

}  // namespace

LoweredOp lower_fully_connected(const NodeLowering& l) {
  const FullyConnectedCheck c = check_fully_connected(l);
  const uint64_t macs = static_cast<uint64_t>(c.batches) * static_cast<uint64_t>(c.out_features) *
                        static_cast<uint64_t>(c.in_features);
  if (!l.quantized()) {
    expect_float32(l);
    expect_bias(l, 2, c.out_features, {DType::kFloat32});
    FullyConnectedParams p{};
    l.act(&p.act_min, &p.act_max);
    return lowered(KernelId::kFullyConnectedF32, params_bytes(p), macs);
  }
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  if (c.dtype == DType::kInt8) {
    expect_bias(l, 2, c.out_features, {DType::kInt32});
    FullyConnectedRequant r = fully_connected_requant(l, c, in_q, out_q, kMaxShift);
    FullyConnectedS8Params p{};
    p.input_zero_point = in_q.zero_point;
    p.filter_zero_point = r.filter_zero_point;
    p.output_zero_point = out_q.zero_point;
    act_range(l, out_q, c.dtype, &p.act_min, &p.act_max);
    p.channel_count = static_cast<uint32_t>(r.multipliers.size());
    return lowered(KernelId::kFullyConnectedS8, params_with_arrays(p, {&r.multipliers, &r.shifts}), macs);
  }
  const int32_t accumulator = accumulator_bits_16x8(l, 2);
  expect_bias(l, 2, c.out_features, {DType::kInt64, DType::kInt32});
  expect_symmetric(l, in_q, out_q);
  FullyConnectedRequant r = fully_connected_requant(l, c, in_q, out_q, accumulator == 64 ? kMaxShift64 : kMaxShift);
  FullyConnectedS16Params p{};
  p.filter_zero_point = r.filter_zero_point;
  p.accumulator = accumulator;
  act_range(l, out_q, c.dtype, &p.act_min, &p.act_max);
  p.channel_count = static_cast<uint32_t>(r.multipliers.size());
  return lowered(KernelId::kFullyConnectedS16, params_with_arrays(p, {&r.multipliers, &r.shifts}), macs);
}

// batch_matmul: A [..., M, K], B [..., K, N] (attributes adj_a / adj_b, 0 or 1: the
// operand's last two dims swapped), their batch dims broadcast (numpy), output
// [batch..., M, N]. float32 with the fused activation; int8 and int16 (zero points 0)
// with per-tensor quantization and TFLite's multiplier s_a * s_b / s_out in double.
LoweredOp lower_batch_matmul(const NodeLowering& l) {
  l.expect_io(2, 2, 1);
  const ir::Tensor& a = l.input(0);
  const ir::Tensor& b = l.input(1);
  const ir::Tensor& out = l.output(0);
  if (a.dtype != DType::kFloat32 && a.dtype != DType::kInt8 && a.dtype != DType::kInt16) {
    l.fail(l.label(a, "A") + " has dtype " + dtype_name(a.dtype) +
           ", expected float32, int8 or int16 (TensorFlow Lite Micro's batch_matmul)");
  }
  l.expect_min_rank(a, "A", 2);
  l.expect_min_rank(b, "B", 2);
  l.expect_dtype(b, "B", a.dtype);
  l.expect_dtype(out, "output", a.dtype);
  const int64_t adj_a = l.node().get_int("adj_a", 0), adj_b = l.node().get_int("adj_b", 0);
  if ((adj_a != 0 && adj_a != 1) || (adj_b != 0 && adj_b != 1))
    l.fail("adj_a " + std::to_string(adj_a) + " and adj_b " + std::to_string(adj_b) + " must be 0 or 1");
  const size_t ra = a.shape.size(), rb = b.shape.size();
  const int64_t m = a.shape[ra - 2 + adj_a], k = a.shape[ra - 1 - adj_a];
  const int64_t b_k = b.shape[rb - 2 + adj_b], n = b.shape[rb - 1 - adj_b];
  if (b_k != k) {
    l.fail("A '" + a.name + "' " + shape_string(a.shape) + " and B '" + b.name + "' " + shape_string(b.shape) +
           " disagree on K (adj_a " + std::to_string(adj_a) + ", adj_b " + std::to_string(adj_b) + ")");
  }
  ir::Shape batch;
  if (!broadcast_shapes(ir::Shape(a.shape.begin(), a.shape.end() - 2), ir::Shape(b.shape.begin(), b.shape.end() - 2),
                        &batch)) {
    l.fail("batch dims of A " + shape_string(a.shape) + " and B " + shape_string(b.shape) + " do not broadcast");
  }
  ir::Shape expected = batch;
  expected.push_back(m);
  expected.push_back(n);
  l.expect_shape(out, "output", expected);
  const uint64_t macs = static_cast<uint64_t>(ir::element_count(batch)) * static_cast<uint64_t>(m * n * k);
  if (!l.quantized()) {
    expect_float32(l);
    BatchMatMulParams p{};
    l.act(&p.act_min, &p.act_max);
    p.adj_a = static_cast<int32_t>(adj_a);
    p.adj_b = static_cast<int32_t>(adj_b);
    return lowered(KernelId::kBatchMatMulF32, params_bytes(p), macs);
  }
  const DType dtype = activation_dtype(l);
  const auto [a_q, b_q, out_q] = binary_quant(l, dtype, "A", "B");
  const bool s8 = dtype == DType::kInt8;
  BatchMatMulQuantParams p{};
  p.adj_a = static_cast<int32_t>(adj_a);
  p.adj_b = static_cast<int32_t>(adj_b);
  p.a_zero_point = a_q.zero_point;
  p.b_zero_point = b_q.zero_point;
  p.output_zero_point = out_q.zero_point;
  mul_multiplier(a_q.scale, b_q.scale, out_q.scale, &p.output_multiplier, &p.output_shift);
  expect_shift(l, p.output_shift, kMinShift, s8 ? kMaxShift : kMaxShift64, "requantization");
  act_range(l, out_q, dtype, &p.act_min, &p.act_max);
  return lowered(s8 ? KernelId::kBatchMatMulS8 : KernelId::kBatchMatMulS16, params_bytes(p), macs);
}

}  // namespace mote::lower
