// Reference float32 fully connected layer: one dot product per (batch, output feature),
// both operands read contiguously (weights are [N, K], row n is output feature n).
#include "fully_connected/fully_connected.h"

#include "kernel_util.h"

namespace mote {

void fully_connected_f32(const FullyConnectedParams& params, int32_t batches, int32_t in_features,
                         int32_t out_features, const float* input, const float* weights,
                         const float* bias, float* output) {
  for (int32_t b = 0; b < batches; ++b) {
    const float* w = weights;
    for (int32_t n = 0; n < out_features; ++n) {
      float acc = bias != nullptr ? bias[n] : 0.0f;
      for (int32_t k = 0; k < in_features; ++k) acc += input[k] * w[k];
      w += in_features;
      *output++ = clamp_value(acc, params.act_min, params.act_max);
    }
    input += in_features;
  }
}

// B is the product of the input's leading dims (not elements / K, which K == 0 breaks).
static int64_t fc_batches(const TensorDesc& in) {
  int64_t batches = 1;
  for (uint32_t i = 0; i + 1 < in.rank; ++i) batches *= in.dims[i];
  return batches;
}

Status fully_connected_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  if (ctx.params_bytes() != sizeof(FullyConnectedParams)) return Status::kBadParams;
  const FullyConnectedParams& p = ctx.params<FullyConnectedParams>();
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& weights = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  const bool has_bias = ctx.input_count() == 3 && ctx.has_input(2);

  if (!is_f32(in) || !is_f32(weights) || !is_f32(out)) return Status::kBadParams;
  if (in.rank < 1 || weights.rank != 2 || out.rank < 1) return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(weights) || !index_math_fits(out)) {
    return Status::kBadParams;
  }
  const int64_t in_features = weights.dims[1];
  const int64_t out_features = weights.dims[0];
  if (in.dims[in.rank - 1] != in_features) return Status::kBadParams;
  if (out.dims[out.rank - 1] != out_features) return Status::kBadParams;
  if (static_cast<int64_t>(element_count(out)) != fc_batches(in) * out_features) {
    return Status::kBadParams;
  }
  if (has_bias) {
    const TensorDesc& bias = ctx.input_desc(2);
    if (!is_f32(bias) || bias.rank != 1 || bias.dims[0] != out_features) {
      return Status::kBadParams;
    }
  }
  if (!valid_act_range(p.act_min, p.act_max)) return Status::kBadParams;
  return Status::kOk;
}

void fully_connected_f32_run(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& weights = ctx.input_desc(1);
  const float* bias =
      ctx.input_count() == 3 ? static_cast<const float*>(ctx.input_data(2)) : nullptr;
  fully_connected_f32(ctx.params<FullyConnectedParams>(), static_cast<int32_t>(fc_batches(in)),
                      static_cast<int32_t>(weights.dims[1]), static_cast<int32_t>(weights.dims[0]),
                      static_cast<const float*>(ctx.input_data(0)),
                      static_cast<const float*>(ctx.input_data(1)), bias,
                      static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kFullyConnectedF32Entry = {fully_connected_f32_check, fully_connected_f32_run};

}  // namespace mote
