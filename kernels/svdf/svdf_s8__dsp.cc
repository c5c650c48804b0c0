// int8 SVDF with the Armv7E-M DSP extension, bit-identical with svdf_s8 (svdf_s8.cc; the
// loop nest is svdf_s8_variant.h's).
//
// Feature products (weights_feature . (x - input_zp)): four rows at a time against x
// widened on the fly, SXTAB16 adding the input offset to two int8 lanes at once
// (fully_connected_s8_dsp_core.h's dot_rows4_direct: 23 instructions per 16 products).
// Time products (weights_time . (state - state_zp)):
//   int8:  four elements per two words, both extended with SXTB16 (the state with the
//          offset, SXTAB16), two SMLADs;
//   int16: two elements per word, one SMLAD; a nonzero state zero point is taken out as
//          zp * sum(weights) (mod 2^32 that equals the reference's sum of w * (s - zp)).
// The remaining K mod 4 (int8) or K mod 2 (int16) elements run scalar.
#include "fully_connected/fully_connected_s8_dsp_core.h"
#include "isa/dsp.h"
#include "svdf/svdf.h"
#include "svdf/svdf_s8_variant.h"

namespace mote {
namespace {

struct DspDots {
  static uint32_t offset2(int32_t zero_point) { return dsp::pack16(-zero_point, -zero_point); }

  static int32_t tail(const int8_t* w, const int8_t* x, int32_t begin, int32_t end, int32_t zp, int32_t acc) {
    uint32_t a = static_cast<uint32_t>(acc);
    for (int32_t i = begin; i < end; ++i) a += static_cast<uint32_t>(w[i] * (x[i] - zp));
    return static_cast<int32_t>(a);
  }

  static void features4(const int8_t* w, int32_t inputs, const int8_t* x, int32_t zp, int32_t acc[4]) {
    const int32_t groups = inputs / 4;
    fc_dsp::dot_rows4_direct(w, inputs, x, offset2(zp), groups, acc);
    for (int32_t j = 0; j < 4; ++j) acc[j] = tail(w + j * inputs, x, groups * 4, inputs, zp, acc[j]);
  }

  static int32_t features1(const int8_t* w, int32_t inputs, const int8_t* x, int32_t zp) {
    const int32_t groups = inputs / 4;
    return tail(w, x, groups * 4, inputs, zp, fc_dsp::dot_row_direct(w, x, offset2(zp), groups, 0));
  }

  static int32_t time(const int8_t* w, const int8_t* s, int32_t memory, int32_t zp) {
    const int32_t groups = memory / 4;
    return tail(w, s, groups * 4, memory, zp, fc_dsp::dot_row_direct(w, s, offset2(zp), groups, 0));
  }

  // sum_m a[m] * b[m] over int16 rows (any alignment), and sum_m a[m], wrapping.
  static int32_t dot_s16(const int16_t* a, const int16_t* b, int32_t n) {
    int32_t acc = 0;
    int32_t m = 0;
    for (; m + 4 <= n; m += 4) {
      acc = dsp::smlad(dsp::load_u32(a + m), dsp::load_u32(b + m), acc);
      acc = dsp::smlad(dsp::load_u32(a + m + 2), dsp::load_u32(b + m + 2), acc);
    }
    uint32_t rest = static_cast<uint32_t>(acc);
    for (; m < n; ++m) rest += static_cast<uint32_t>(a[m] * b[m]);
    return static_cast<int32_t>(rest);
  }
  static int32_t row_sum_s16(const int16_t* a, int32_t n) {
    const uint32_t ones = dsp::pack16(1, 1);
    int32_t acc = 0;
    int32_t m = 0;
    for (; m + 2 <= n; m += 2) acc = dsp::smlad(dsp::load_u32(a + m), ones, acc);
    if (m < n) acc = wrapping_add(acc, a[m]);
    return acc;
  }

  static int32_t time(const int16_t* w, const int16_t* s, int32_t memory, int32_t zp) {
    const int32_t dot = dot_s16(w, s, memory);
    if (zp == 0) return dot;
    return static_cast<int32_t>(static_cast<uint32_t>(dot) -
                                static_cast<uint32_t>(zp) * static_cast<uint32_t>(row_sum_s16(w, memory)));
  }
};

}  // namespace

Status svdf_s8__dsp_check(const OpContext& ctx) { return svdf_s8_check(ctx); }

void svdf_s8__dsp_run(const OpContext& ctx) { svdf_variant::run_any<DspDots>(ctx); }

const KernelEntry kSvdfS8DspEntry = {svdf_s8__dsp_check, svdf_s8__dsp_run};

}  // namespace mote
