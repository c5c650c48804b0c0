// float32 fully connected layer for cores with a single-precision FPU (hard float), every
// shape the reference takes; the reference's results up to float rounding (each output
// sums bias, then input[k] * weights[n, k] for k = 0, 1, ... as fully_connected_f32 does,
// so on a given core and compiler the two agree bit for bit; the conformance suite
// allows the rounding of any summation order).
//
// Four output features at a time share each input value loaded (four accumulators in
// s-registers, four weight rows walked together), eight values of K per step (then four,
// then one); features past a multiple of four go one at a time. No scratch.
#include "fully_connected/fully_connected.h"
#include "fully_connected/fully_connected_f32_run.h"
#include "isa/fpu.h"
#include "kernel_util.h"
#include "pixel_pairs.h"

namespace mote {
namespace {

struct Dense {
  template <bool kClamp>
  static void rows(const FullyConnectedParams& params, int32_t batches, int32_t in_features, int32_t out_features,
                   const float* input, const float* weights, const float* bias, float* output) {
    const float lo = params.act_min, hi = params.act_max;
    const int32_t k = in_features;
    for (int32_t b = 0; b < batches; ++b, input += k, output += out_features) {
      int32_t n = 0;
      for (; n + 4 <= out_features; n += 4) {
        float a0, a1, a2, a3;
        load_bias4(bias, n, a0, a1, a2, a3);
        const float* x = input;
        const float* w0 = weights + n * k;
        const float* w1 = w0 + k;
        const float* w2 = w1 + k;
        const float* w3 = w2 + k;
        int32_t i = k;
        for (; i >= 8; i -= 8) fpu::fma_1x4_step8(a0, a1, a2, a3, x, w0, w1, w2, w3);
        if (i >= 4) {
          fpu::fma_1x4_step4(a0, a1, a2, a3, x, w0, w1, w2, w3);
          i -= 4;
        }
        for (; i > 0; --i) {
          const float v = *x++;
          a0 += v * *w0++;
          a1 += v * *w1++;
          a2 += v * *w2++;
          a3 += v * *w3++;
        }
        output[n] = activate<kClamp>(a0, lo, hi);
        output[n + 1] = activate<kClamp>(a1, lo, hi);
        output[n + 2] = activate<kClamp>(a2, lo, hi);
        output[n + 3] = activate<kClamp>(a3, lo, hi);
      }
      for (; n < out_features; ++n) {
        float acc = bias != nullptr ? bias[n] : 0.0f;
        const float* w = weights + n * k;
        for (int32_t i = 0; i < k; ++i) acc += input[i] * w[i];
        output[n] = activate<kClamp>(acc, lo, hi);
      }
    }
  }
};

}  // namespace

void fully_connected_f32__fpu(const FullyConnectedParams& params, int32_t batches, int32_t in_features,
                              int32_t out_features, const float* input, const float* weights, const float* bias,
                              float* output) {
  fully_connected_f32_by_activation<Dense>(params, batches, in_features, out_features, input, weights, bias, output);
}

Status fully_connected_f32__fpu_check(const OpContext& ctx) { return fully_connected_f32_check(ctx); }

void fully_connected_f32__fpu_run(const OpContext& ctx) { fully_connected_f32_run_op<fully_connected_f32__fpu>(ctx); }

const KernelEntry kFullyConnectedF32FpuEntry = {fully_connected_f32__fpu_check, fully_connected_f32__fpu_run};

}  // namespace mote
