// Reference group_norm_f32 (see group_norm.h).
#include "group_norm/group_norm.h"

#include <math.h>

#include "kernel_util.h"

namespace mote {
namespace {

struct Layout {
  uint32_t batch, positions, channels;
};

Layout layout_of(const TensorDesc& x) {
  Layout l{x.dims[0], 1, x.dims[x.rank - 1]};
  for (uint32_t i = 1; i + 1 < x.rank; ++i) l.positions *= x.dims[i];
  return l;
}

// sum over positions of sum over the group's `width` channels of (x - offset) (squared),
// x pointing at the group's first channel of position 0; positions added in blocks of 32.
float group_sum(const float* x, const Layout& l, uint32_t width, float offset, bool squared) {
  float total = 0.0f;
  for (uint32_t start = 0; start < l.positions; start += 32) {
    const uint32_t end = l.positions - start < 32 ? l.positions : start + 32;
    float block = 0.0f;
    for (uint32_t s = start; s < end; ++s) {
      const float* v = x + s * l.channels;
      float position = 0.0f;
      for (uint32_t c = 0; c < width; ++c) {
        const float d = v[c] - offset;
        position += squared ? d * d : d;
      }
      block += position;
    }
    total += block;
  }
  return total;
}

// Input 2 (the bias) is given: listed and present.
bool has_bias(const OpContext& ctx) { return ctx.input_count() > 2 && ctx.has_input(2); }

}  // namespace

Status group_norm_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  if (ctx.params_bytes() != sizeof(GroupNormParams)) return Status::kBadParams;
  const GroupNormParams& p = ctx.params<GroupNormParams>();
  const TensorDesc& x = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_f32(x) || !is_f32(out) || !same_shape(x, out) || !index_math_fits(x) || x.rank < 2)
    return Status::kBadParams;
  const uint32_t channels = x.dims[x.rank - 1];
  if (p.groups == 0 || channels % p.groups != 0) return Status::kBadParams;
  const TensorDesc& scale = ctx.input_desc(1);
  if (!is_f32(scale) || element_count(scale) != channels) return Status::kBadParams;
  if (has_bias(ctx)) {
    const TensorDesc& bias = ctx.input_desc(2);
    if (!is_f32(bias) || element_count(bias) != channels) return Status::kBadParams;
  }
  return Status::kOk;
}

void group_norm_f32_run(const OpContext& ctx) {
  const GroupNormParams& p = ctx.params<GroupNormParams>();
  const Layout l = layout_of(ctx.input_desc(0));
  const uint32_t width = l.channels / p.groups;
  if (l.positions == 0 || width == 0) return;
  const float count = static_cast<float>(l.positions) * static_cast<float>(width);
  const float* scale = static_cast<const float*>(ctx.input_data(1));
  const float* bias = has_bias(ctx) ? static_cast<const float*>(ctx.input_data(2)) : nullptr;
  const uint32_t image = l.positions * l.channels;
  for (uint32_t n = 0; n < l.batch; ++n) {
    const float* x = static_cast<const float*>(ctx.input_data(0)) + n * image;
    float* y = static_cast<float*>(ctx.output_data(0)) + n * image;
    for (uint32_t g = 0; g < p.groups; ++g) {
      const uint32_t first = g * width;
      const float mean = group_sum(x + first, l, width, 0.0f, false) / count;
      const float var = group_sum(x + first, l, width, mean, true) / count;
      const float inv = 1.0f / sqrtf(var + p.epsilon);
      for (uint32_t s = 0; s < l.positions; ++s) {
        const uint32_t base = s * l.channels + first;
        for (uint32_t c = 0; c < width; ++c) {
          const float v = (x[base + c] - mean) * inv * scale[first + c];
          y[base + c] = bias != nullptr ? v + bias[first + c] : v;
        }
      }
    }
  }
}

const KernelEntry kGroupNormF32Entry = {group_norm_f32_check, group_norm_f32_run};

}  // namespace mote
