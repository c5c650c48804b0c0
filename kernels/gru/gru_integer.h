// The integer GRU of gru.h, shared by gru_s8 (Act int8, int32 sums) and gru_s16 (Act
// int16, int64 sums): the kernels differ only in the activation type, the sums' width and
// their requantization (rnn/recurrent_integer.h's overloads).
//
// A step runs unit by unit. With linear_before_reset 1 every operation after the matrix
// products is elementwise, so unit n's three gates and its new hidden value come out of
// one pass. With linear_before_reset 0 the candidate's recurrent product needs r * h of
// every unit first: the first pass keeps z, fc_x(h) and rh in scratch, the second
// computes the candidate and the hidden value.
#pragma once

#include <stdint.h>

#include "gru/gru.h"
#include "kernel_util.h"
#include "quant/quant_math_dsp.h"
#include "quant/sigmoid_lut_s16.h"
#include "rnn/recurrent_integer.h"

namespace mote {

// The checks both kernels make; `activation` int8 or int16, `bias` int32 or int64.
inline Status gru_integer_check(const OpContext& ctx, DType activation, DType bias) {
  if (ctx.params_bytes() != sizeof(GruIntegerParams)) return Status::kBadParams;
  const GruIntegerParams& p = ctx.params<GruIntegerParams>();
  if (p.linear_before_reset > 1) return Status::kBadParams;
  MOTE_RETURN_IF_ERROR(recurrent_check_layout(ctx, 3, p.time_major, {activation, DType::kInt8, bias}));
  for (const GruGateParams& g : p.gate) {
    if (!recurrent_shift_ok(g.input_shift, bias) || !recurrent_shift_ok(g.recurrent_shift, bias)) {
      return Status::kBadParams;
    }
  }
  if (!valid_shift(p.hidden_shift) || !recurrent_zero_point_ok(p.input_zero_point, activation) ||
      !recurrent_zero_point_ok(p.hidden_zero_point, activation)) {
    return Status::kBadParams;
  }
  const uint32_t inputs = ctx.input_desc(0).dims[2], units = ctx.output_desc(0).dims[2];
  const uint64_t bytes = activation == DType::kInt8 ? gru_s8_scratch_bytes(inputs, units) : gru_s16_scratch_bytes(units);
  return lstm_scratch_fits(ctx, bytes, alignof(int16_t)) ? Status::kOk : Status::kBadParams;
}

// rq(acc) = recurrent_requantize(acc, multiplier, shift), the reference kernels'
// requantization of one multiplier and shift.
struct RecurrentRequant {
  int32_t multiplier, shift;
  RecurrentRequant(int32_t m, int32_t s) : multiplier(m), shift(s) {}
  template <typename Acc>
  int32_t operator()(Acc acc) const {
    return recurrent_requantize(acc, multiplier, shift);
  }
};

// A gate's part: clamp16(rq(acc)) with the gate's input or recurrent multiplier.
template <typename Acc, typename Rq>
inline int32_t gru_part(Acc acc, const Rq& rq) {
  return recurrent_clamp16(rq(acc));
}

// The new hidden value from z, the candidate g (both Q0.15) and hc = h - h_zp (hidden:
// the requantization of hidden_multiplier and hidden_shift).
template <typename Act, typename Rq>
inline Act gru_hidden(const GruIntegerParams& p, const Rq& hidden, int32_t z, int32_t g, int32_t hc) {
  const int32_t fresh = hidden((32768 - z) * g);
  return recurrent_saturate<Act>(wrapping_add(wrapping_add(p.hidden_zero_point, fresh), recurrent_mul_q15(z, hc)));
}

// The matrix-row products of gru_integer_run: rnn/recurrent_integer.h's loops (the
// reference kernels). The DSP and Helium variants of gru_s8 pass their own, which give the
// same wrapping int32 sums:
//   dot(w, v, n, bias)                      bias + w . v
//   dot2(w, v, n, bias, acc)                acc[g] = bias[g] + w[g] . v, g < 2
//   dot3(w, v, n, bias, acc)                the same for g < 3
// with w int8 rows and v the centered int16 values (the layout recurrent_centered writes),
// and Requant(multiplier, shift), the requantization of the sums (rq above).
struct RecurrentDots {
  using Requant = RecurrentRequant;
  template <typename Acc>
  static Acc dot(const int8_t* w, const int16_t* v, int32_t n, Acc bias) {
    return recurrent_dot(w, v, n, bias);
  }
  template <typename Acc>
  static void dot2(const int8_t* const w[2], const int16_t* v, int32_t n, const Acc bias[2], Acc acc[2]) {
    acc[0] = recurrent_dot(w[0], v, n, bias[0]);
    acc[1] = recurrent_dot(w[1], v, n, bias[1]);
  }
  template <typename Acc>
  static void dot3(const int8_t* const w[3], const int16_t* v, int32_t n, const Acc bias[3], Acc acc[3]) {
    recurrent_dot3(w, v, n, bias, acc);
  }
};

// A variant's product loops (RowsDots::dots, Rows::rows inlined into it) are functions of
// their own (inlined into the step, GCC spills their registers), compiled without the
// pre-allocation scheduler, which hoists the loads of the unrolled rows and spills the
// accumulators.
#if defined(__GNUC__) && !defined(__clang__)
#define MOTE_GRU_ROWS_HOT __attribute__((noinline, optimize("no-schedule-insns")))
#else
#define MOTE_GRU_ROWS_HOT __attribute__((noinline))
#endif

// The products of int32 sums from one always-inline function of the variant,
// Rows::rows<k>(row, v, n, a): a[g] += row[g] . v for g < k, wrapping (the row pointers
// its own to advance).
// Their requantization is quant_math_dsp.h's Requantizer (bit-exact with the reference's).
template <typename Rows>
struct RowsDots {
  using Requant = Requantizer;
  template <int kRows>
  MOTE_GRU_ROWS_HOT static void dots(const int8_t* const w[], const int16_t* v, int32_t n, const int32_t bias[],
                                     int32_t acc[]) {
    int32_t a[kRows];
    const int8_t* row[kRows];
    for (int g = 0; g < kRows; ++g) {
      a[g] = bias[g];
      row[g] = w[g];
    }
    Rows::template rows<kRows>(row, v, n, a);
    for (int g = 0; g < kRows; ++g) acc[g] = a[g];
  }
  static int32_t dot(const int8_t* w, const int16_t* v, int32_t n, int32_t bias) {
    int32_t acc;
    dots<1>(&w, v, n, &bias, &acc);
    return acc;
  }
  static void dot2(const int8_t* const w[2], const int16_t* v, int32_t n, const int32_t bias[2], int32_t acc[2]) {
    dots<2>(w, v, n, bias, acc);
  }
  static void dot3(const int8_t* const w[3], const int16_t* v, int32_t n, const int32_t bias[3], int32_t acc[3]) {
    dots<3>(w, v, n, bias, acc);
  }
};

template <typename Act, typename Acc, typename Dots = RecurrentDots>
inline void gru_integer_run(const OpContext& ctx) {
  const GruIntegerParams& p = ctx.params<GruIntegerParams>();
  const LstmDims d = lstm_dims(ctx, p.time_major);
  const int32_t inputs = d.inputs, units = d.units;
  const int8_t* w = static_cast<const int8_t*>(ctx.input_data(1));
  const int8_t* r = static_cast<const int8_t*>(ctx.input_data(2));
  const Acc* bias = static_cast<const Acc*>(ctx.input_data(3));
  // Scratch: z, fc_x(h) and rh ([H] each), then (int8 activations) the widened rows.
  int16_t* z_row = reinterpret_cast<int16_t*>(ctx.scratch().data());
  int16_t* candidate_x = z_row + units;
  int16_t* reset_h = candidate_x + units;
  int16_t* centered = reset_h + units;
  const GruGateParams& pz = p.gate[kGruUpdateGate];
  const GruGateParams& pr = p.gate[kGruResetGate];
  const GruGateParams& ph = p.gate[kGruHiddenGate];
  using Rq = typename Dots::Requant;
  const Rq z_x(pz.input_multiplier, pz.input_shift), z_h(pz.recurrent_multiplier, pz.recurrent_shift);
  const Rq r_x(pr.input_multiplier, pr.input_shift), r_hh(pr.recurrent_multiplier, pr.recurrent_shift);
  const Rq h_x(ph.input_multiplier, ph.input_shift), h_h(ph.recurrent_multiplier, ph.recurrent_shift);
  const Rq hidden(p.hidden_multiplier, p.hidden_shift);
  const int8_t* r_h = r + 2 * units * units;
  const Acc* wb = bias;
  const Acc* rb = bias + 3 * units;

  recurrent_integer_walk<Act>(ctx, d, p.input_zero_point, p.hidden_zero_point, centered,
                              [&](const int16_t* xc, const int16_t* hc, Act* out) {
    for (int32_t n = 0; n < units; ++n) {
      const int8_t* w_rows[3] = {w + n * inputs, w + (units + n) * inputs, w + (2 * units + n) * inputs};
      const int8_t* r_rows[3] = {r + n * units, r + (units + n) * units, r_h + n * units};
      const Acc wb_n[3] = {wb[n], wb[units + n], wb[2 * units + n]};
      const Acc rb_n[3] = {rb[n], rb[units + n], rb[2 * units + n]};
      Acc ax[3], ah[3] = {0, 0, 0};  // ah[2] unused with linear_before_reset 0
      Dots::dot3(w_rows, xc, inputs, wb_n, ax);
      if (p.linear_before_reset) {
        Dots::dot3(r_rows, hc, units, rb_n, ah);
      } else {
        Dots::dot2(r_rows, hc, units, rb_n, ah);
      }
      const int32_t z = lut_sigmoid_scaled(3 * recurrent_clamp16(gru_part(ax[0], z_x) +
                                                                 gru_part(ah[0], z_h)));
      const int32_t reset = lut_sigmoid_scaled(3 * recurrent_clamp16(gru_part(ax[1], r_x) +
                                                                     gru_part(ah[1], r_hh)));
      const int32_t fc_x = gru_part(ax[2], h_x);
      if (p.linear_before_reset) {
        const int32_t fc_h = gru_part(ah[2], h_h);
        const int32_t g = lut_tanh_scaled(3 * recurrent_clamp16(fc_x + recurrent_mul_q15(reset, fc_h)));
        out[n] = gru_hidden<Act>(p, hidden, z, g, hc[n]);
      } else {
        z_row[n] = static_cast<int16_t>(z);
        candidate_x[n] = static_cast<int16_t>(fc_x);
        reset_h[n] = static_cast<int16_t>(recurrent_mul_q15(reset, hc[n]));
      }
    }
    if (p.linear_before_reset) return;
    for (int32_t n = 0; n < units; ++n) {
      const int32_t fc_h = gru_part(Dots::dot(r_h + n * units, reset_h, units, rb[2 * units + n]), h_h);
      const int32_t g = lut_tanh_scaled(3 * recurrent_clamp16(candidate_x[n] + fc_h));
      out[n] = gru_hidden<Act>(p, hidden, z_row[n], g, hc[n]);
    }
  });
}

}  // namespace mote
