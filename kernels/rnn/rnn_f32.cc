// rnn_f32: the float32 RNN of rnn.h.
#include <math.h>

#include "kernel_util.h"
#include "rnn/rnn.h"

namespace mote {
namespace {

inline float dot(const float* w, const float* v, int32_t n) {
  float total = 0.0f;
  for (int32_t k = 0; k < n; ++k) total += w[k] * v[k];
  return total;
}

}  // namespace

Status rnn_f32_check(const OpContext& ctx) {
  if (ctx.params_bytes() != sizeof(RnnF32Params)) return Status::kBadParams;
  const RnnF32Params& p = ctx.params<RnnF32Params>();
  if (p.activation > kRnnRelu || p.time_major > 1) return Status::kBadParams;
  if (ctx.input_count() != 5 || ctx.output_count() != 2) return Status::kBadParams;
  for (uint32_t i = 0; i < 5; ++i)
    if (!ctx.has_input(i)) return Status::kBadParams;
  const TensorDesc& x = ctx.input_desc(0);
  const TensorDesc& w = ctx.input_desc(1);
  const TensorDesc& r = ctx.input_desc(2);
  const TensorDesc& bias = ctx.input_desc(3);
  const TensorDesc& h0 = ctx.input_desc(4);
  const TensorDesc& y = ctx.output_desc(0);
  const TensorDesc& h = ctx.output_desc(1);
  const TensorDesc* const all[] = {&x, &w, &r, &bias, &h0, &y, &h};
  for (const TensorDesc* t : all)
    if (!has_dtype(*t, DType::kFloat32) || !index_math_fits(*t)) return Status::kBadParams;
  if (x.rank != 3 || y.rank != 3 || w.rank != 2 || r.rank != 2 || bias.rank != 1) return Status::kBadParams;
  const uint32_t units = y.dims[2], inputs = x.dims[2];
  if (units == 0 || inputs == 0 || y.dims[0] != x.dims[0] || y.dims[1] != x.dims[1]) return Status::kBadParams;
  if (w.dims[0] != units || w.dims[1] != inputs || r.dims[0] != units || r.dims[1] != units ||
      bias.dims[0] != 2 * units) {
    return Status::kBadParams;
  }
  const uint64_t state = uint64_t{p.time_major ? x.dims[1] : x.dims[0]} * units;
  if (element_count(h0) != state || element_count(h) != state) return Status::kBadParams;
  return Status::kOk;
}

void rnn_f32_run(const OpContext& ctx) {
  const RnnF32Params& p = ctx.params<RnnF32Params>();
  const TensorDesc& xd = ctx.input_desc(0);
  const int32_t batches = static_cast<int32_t>(p.time_major ? xd.dims[1] : xd.dims[0]);
  const int32_t steps = static_cast<int32_t>(p.time_major ? xd.dims[0] : xd.dims[1]);
  const int32_t inputs = static_cast<int32_t>(xd.dims[2]);
  const int32_t units = static_cast<int32_t>(ctx.output_desc(0).dims[2]);
  const float* x = static_cast<const float*>(ctx.input_data(0));
  const float* w = static_cast<const float*>(ctx.input_data(1));
  const float* r = static_cast<const float*>(ctx.input_data(2));
  const float* bias = static_cast<const float*>(ctx.input_data(3));
  const float* h0 = static_cast<const float*>(ctx.input_data(4));
  float* y = static_cast<float*>(ctx.output_data(0));
  float* h_last = static_cast<float*>(ctx.output_data(1));

  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t t = 0; t < steps; ++t) {
      const int32_t row = p.time_major ? t * batches + b : b * steps + t;
      const int32_t previous = p.time_major ? row - batches : row - 1;
      const float* x_row = x + row * inputs;
      const float* h = t == 0 ? h0 + b * units : y + previous * units;
      float* out = y + row * units;
      for (int32_t n = 0; n < units; ++n) {
        const float v =
            dot(w + n * inputs, x_row, inputs) + bias[n] + dot(r + n * units, h, units) + bias[units + n];
        out[n] = p.activation == kRnnRelu ? (v > 0.0f ? v : 0.0f) : tanhf(v);
      }
    }
    const int32_t last = p.time_major ? (steps - 1) * batches + b : b * steps + steps - 1;
    for (int32_t n = 0; n < units; ++n) h_last[b * units + n] = steps > 0 ? y[last * units + n] : h0[b * units + n];
  }
}

const KernelEntry kRnnF32Entry = {rnn_f32_check, rnn_f32_run};

}  // namespace mote
