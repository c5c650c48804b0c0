// Conformance of quantize_f32_s16__mve against quantize_f32_s16, both called in place of
// each other on the same buffers: counts that leave tails of 1..3 (and 1..3 values
// alone), scales from models (1/255, 2^-k, the MobileNet input's ~1.4e-4) and random
// ones (1e-6 .. 1e3), the zero point's extremes, values at and a few ulp around
// half-integer quotients (the near-tie lanes the vector step hands to the scalar form),
// whole quotients, the saturation points, zeros, denormals, NaN, infinities and random
// bit patterns. Also one in-place run (output over the input, as the planner may place
// it).
#include <math.h>
#include <string.h>

#include "conformance.h"
#include "isa/fpu.h"
#include "quantize/quantize.h"

namespace mote::conformance {
namespace {

float draw_value(Rng& rng, float scale, uint32_t n) {
  static const float kEdges[] = {0.0f, -0.0f, 1.0e-45f, -1.1754942e-38f, NAN, INFINITY, -INFINITY, 3.4e38f};
  switch (n % 8) {
    case 0:
      return fpu::float_from_bits(rng.next());
    case 1:
      return rng.uniform(0, 15) == 0 ? kEdges[rng.uniform(0, 7)] : rng.uniform(-32768, 32767) * scale;
    case 2: {  // the int16 ends and past them
      static const float kEnds[] = {32767.5f, 32768.0f, 65535.5f, 65536.0f, 70000.5f, 1.0e6f};
      const float q = kEnds[rng.uniform(0, 5)] * (rng.coin() ? 1.0f : -1.0f);
      return fpu::float_from_bits(fpu::float_bits(q * scale) + static_cast<uint32_t>(rng.uniform(-3, 3)));
    }
    default: {  // half-integer quotients, up to 3 ulp away
      const int32_t range = n % 8 == 3 ? 70000 : 300;
      const float k = static_cast<float>(rng.uniform(-range, range)) + 0.5f;
      return fpu::float_from_bits(fpu::float_bits(k * scale) + static_cast<uint32_t>(rng.uniform(-3, 3)));
    }
  }
}

}  // namespace

int run_quantize_f32_s16__mve(Rng& rng, int cases) {
  constexpr uint32_t kMaxCount = 403;
  static const float kScales[] = {1.0f / 255.0f, 0.0078125f, 1.3733e-4f, 1.0f, 1.0e-6f, 1.0e3f, 1.0e-39f};
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    AffineQuantParams p;
    const int scale_pick = rng.uniform(0, 9);
    p.scale = scale_pick < 7 ? kScales[scale_pick] : fpu::float_from_bits(0x35800000u + rng.next() % 0x0a000000u);
    const int zp_pick = rng.uniform(0, 3);
    p.zero_point = zp_pick == 0 ? -32768 : (zp_pick == 1 ? 32767 : rng.uniform(-32768, 32767));
    const uint32_t count = c < 4 ? static_cast<uint32_t>(c + 1) : static_cast<uint32_t>(rng.uniform(1, kMaxCount));
    float input[kMaxCount];
    for (uint32_t i = 0; i < count; ++i) input[i] = draw_value(rng, p.scale, i + static_cast<uint32_t>(c));
    int16_t expected[kMaxCount], actual[kMaxCount];
    quantize_f32_s16(p, count, input, expected);
    quantize_f32_s16__mve(p, count, input, actual);
    bool ok = expect_equal_s16("quantize_f32_s16__mve", c, "output", expected, actual, count);
    if (ok && c % 8 == 0) {  // in place: int16 outputs over their float inputs
      float buffer[kMaxCount];
      memcpy(buffer, input, count * sizeof(float));
      int16_t* in_place = reinterpret_cast<int16_t*>(buffer);
      quantize_f32_s16__mve(p, count, buffer, in_place);
      ok = expect_equal_s16("quantize_f32_s16__mve", c, "in place", expected, in_place, count);
    }
    if (!ok) ++failed;
  }
  return failed;
}

}  // namespace mote::conformance
