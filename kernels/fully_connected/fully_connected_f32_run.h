// What the float32 fully connected variants share: the activation chosen once per op and
// the run glue (the op's tensors as the kernels' arguments).
#pragma once

#include "fully_connected/fully_connected.h"
#include "kernel_util.h"

namespace mote {

// Dense::rows<kClamp>(params, batches, in_features, out_features, input, weights, bias,
// output) with kClamp false when the activation is the identity.
template <typename Dense>
void fully_connected_f32_by_activation(const FullyConnectedParams& params, int32_t batches, int32_t in_features,
                                       int32_t out_features, const float* input, const float* weights,
                                       const float* bias, float* output) {
  if (float_act_is_identity(params.act_min, params.act_max)) {
    Dense::template rows<false>(params, batches, in_features, out_features, input, weights, bias, output);
  } else {
    Dense::template rows<true>(params, batches, in_features, out_features, input, weights, bias, output);
  }
}

// Runs kernel (a function of fully_connected_f32's signature) on the op.
template <void (*kernel)(const FullyConnectedParams&, int32_t, int32_t, int32_t, const float*, const float*,
                         const float*, float*)>
void fully_connected_f32_run_op(const OpContext& ctx) {
  const TensorDesc& weights = ctx.input_desc(1);
  const int32_t in_features = static_cast<int32_t>(weights.dims[1]);
  const int32_t out_features = static_cast<int32_t>(weights.dims[0]);
  const float* bias = ctx.input_count() == 3 ? static_cast<const float*>(ctx.input_data(2)) : nullptr;
  // The output holds batches x out_features values (the reference's check).
  const int32_t batches =
      out_features == 0 ? 0 : static_cast<int32_t>(element_count(ctx.output_desc(0))) / out_features;
  kernel(ctx.params<FullyConnectedParams>(), batches, in_features, out_features,
         static_cast<const float*>(ctx.input_data(0)), static_cast<const float*>(ctx.input_data(1)), bias,
         static_cast<float*>(ctx.output_data(0)));
}

}  // namespace mote
