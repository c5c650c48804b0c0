// Reference int8 LSTM (TFLite UNIDIRECTIONAL_SEQUENCE_LSTM, 8x8->16), bit-exact with
// TFLite Micro's integer path. TFLite Micro runs each step gate by gate over whole rows
// through four int16 scratch rows and keeps the hidden and cell state in variable tensors;
// every operation after the two matrix products is elementwise, so this kernel computes
// the step unit by unit instead: the four gates of unit n, then its cell and hidden value.
// The previous hidden state is read from the previous output row (TFLite copies the
// hidden state there unchanged), so the scratch is one row of cell state plus the step's
// input and hidden rows widened to int16 with their zero points applied (each product
// (w + w_offset) * (v + v_offset) is TFLite's, with the adds hoisted out of the loops).
// Cost per step: 4 * H * (I + H) multiply-adds, no division.
#include "lstm/lstm.h"

#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

// sigmoid(i / 24) in Q0.16 (65535 for 1.0), i = 0..255: TFLite's sigmoid_table_uint16
// (kernels/internal/common.h), shared by its int16 Logistic and Tanh. The values are
// TFLite's exactly, as bit-exactness needs: 44 of them are one above the correctly
// rounded 65536 * sigmoid(i / 24), so the table cannot be recomputed from the formula.
const uint16_t kSigmoidTable[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149,
    40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369,
    47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169,
    53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
    60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302,
    62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186, 63279, 63368, 63454, 63536,
    63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786,
    64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
    65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474,
    65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
    65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522,
    65523, 65523, 65524, 65524, 65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528,
    65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531,
    65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65534, 65535,
};

constexpr int32_t kInputCount = 24;
constexpr int32_t kHiddenStateInput = 18;
constexpr int32_t kCellStateInput = 19;

inline int32_t clamp16(int32_t v) { return clamp_i32(v, -32768, 32767); }

// clamp16(mbqm(a * b)): TFLite MulElementwise of two symmetric int16 values.
inline int32_t scaled_mul_s16(int32_t a, int32_t b, const LstmMulParams& m) {
  return multiply_by_quantized_multiplier(a * b, m.multiplier, m.shift);
}

// acc[g] = sum_k (w[g][k] + w_offset[g]) * v[k] for the four gates of one unit, wrapping
// like TFLite's int32 sums; v already holds the activation plus its offset, so each term
// is TFLite's exactly. One pass over v serves all four gates.
inline void dot4_s8(const int8_t* const w[4], const int32_t w_offset[4], const int16_t* v,
                    int32_t n, int32_t acc[4]) {
  const int8_t* w0 = w[0];
  const int8_t* w1 = w[1];
  const int8_t* w2 = w[2];
  const int8_t* w3 = w[3];
  uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  if ((w_offset[0] | w_offset[1] | w_offset[2] | w_offset[3]) == 0) {
    // TFLite's weights are symmetric: the usual case.
    for (int32_t k = 0; k < n; ++k) {
      const int32_t vk = v[k];
      a0 += static_cast<uint32_t>(w0[k] * vk);
      a1 += static_cast<uint32_t>(w1[k] * vk);
      a2 += static_cast<uint32_t>(w2[k] * vk);
      a3 += static_cast<uint32_t>(w3[k] * vk);
    }
  } else {
    for (int32_t k = 0; k < n; ++k) {
      const int32_t vk = v[k];
      a0 += static_cast<uint32_t>((w0[k] + w_offset[0]) * vk);
      a1 += static_cast<uint32_t>((w1[k] + w_offset[1]) * vk);
      a2 += static_cast<uint32_t>((w2[k] + w_offset[2]) * vk);
      a3 += static_cast<uint32_t>((w3[k] + w_offset[3]) * vk);
    }
  }
  acc[0] = static_cast<int32_t>(a0);
  acc[1] = static_cast<int32_t>(a1);
  acc[2] = static_cast<int32_t>(a2);
  acc[3] = static_cast<int32_t>(a3);
}

// dst[k] = src[k] + offset (int8 plus an offset in [-127, 128] fits int16).
inline void add_offset(const int8_t* src, int32_t offset, int32_t n, int16_t* dst) {
  for (int32_t k = 0; k < n; ++k) dst[k] = static_cast<int16_t>(src[k] + offset);
}

}  // namespace

int16_t lstm_sigmoid_s16(int16_t x) {
  // Logistic with input_multiplier 0, input_left_shift 0 (the power-of-two case:
  // multiplier 3, no shift): |x * 3| indexes the table with 9 fractional bits.
  const int32_t scaled = x * 3;
  const uint32_t magnitude = static_cast<uint32_t>(scaled < 0 ? -scaled : scaled);
  const uint32_t index = magnitude >> 9;
  uint32_t value;
  if (index >= 255) {
    value = 0x7FFFu << 10;
  } else {
    const uint32_t lo = kSigmoidTable[index];
    const uint32_t hi = kSigmoidTable[index + 1];
    value = (lo << 9) + (magnitude & 0x1FFu) * (hi - lo);
  }
  value = scaled >= 0 ? value + (1u << 9) : (1u << 25) - value + (1u << 9) - 1;
  return static_cast<int16_t>(value >> 10);
}

int16_t lstm_tanh_s16(int16_t x, int32_t multiplier, int32_t shift) {
  const int32_t round = shift > 0 ? int32_t{1} << (shift - 1) : 0;
  const int32_t scaled = wrapping_add(wrapping_mul(x, multiplier), round) >> shift;
  const uint32_t magnitude = static_cast<uint32_t>(scaled < 0 ? wrapping_neg(scaled) : scaled);
  const uint32_t index = magnitude >> 8;
  int32_t value;
  if (index >= 255) {
    value = 0xFFFF << 8;
  } else {
    const uint32_t lo = kSigmoidTable[index];
    const uint32_t hi = kSigmoidTable[index + 1];
    value = static_cast<int32_t>((lo << 8) + (magnitude & 0xFFu) * (hi - lo));
  }
  // tanh(x) = 2 * sigmoid(2x) - 1, back to Q0.15 with rounding.
  value = scaled >= 0 ? value - (1 << 23) + (1 << 7) : -value + (1 << 23) + (1 << 7) - 1;
  return static_cast<int16_t>(value >> 8);
}

Status lstm_s8_check(const OpContext& ctx) {
  if (ctx.input_count() != kInputCount || ctx.output_count() != 1) return Status::kBadParams;
  if (ctx.params_bytes() != sizeof(LstmS8Params)) return Status::kBadParams;
  const LstmS8Params& p = ctx.params<LstmS8Params>();
  // Required inputs present, the variants' inputs absent.
  for (uint32_t i = 0; i < kInputCount; ++i) {
    const bool required = i <= 8 || (i >= 12 && i <= 15) || i == 18 || i == 19;
    if (ctx.has_input(i) != required) return Status::kBadParams;
  }
  if (p.time_major > 1 || p.cell_clip_enabled > 1) return Status::kBadParams;
  const TensorDesc& x = ctx.input_desc(0);
  const TensorDesc& y = ctx.output_desc(0);
  if (!is_s8(x) || !is_s8(y) || x.rank != 3 || y.rank != 3) return Status::kBadParams;
  if (!index_math_fits(x) || !index_math_fits(y)) return Status::kBadParams;
  const uint32_t inputs = x.dims[2];
  const uint32_t units = y.dims[2];
  if (y.dims[0] != x.dims[0] || y.dims[1] != x.dims[1] || inputs == 0 || units == 0) {
    return Status::kBadParams;
  }
  const uint32_t batches = p.time_major ? x.dims[1] : x.dims[0];
  for (uint32_t g = 0; g < 4; ++g) {
    const TensorDesc& wx = ctx.input_desc(1 + g);
    const TensorDesc& wh = ctx.input_desc(5 + g);
    const TensorDesc& bias = ctx.input_desc(12 + g);
    if (!is_s8(wx) || wx.rank != 2 || wx.dims[0] != units || wx.dims[1] != inputs) {
      return Status::kBadParams;
    }
    if (!is_s8(wh) || wh.rank != 2 || wh.dims[0] != units || wh.dims[1] != units) {
      return Status::kBadParams;
    }
    if (!is_s32(bias) || bias.rank != 1 || bias.dims[0] != units) return Status::kBadParams;
    const LstmGateParams& gp = p.gate[g];
    if (!valid_shift(gp.input_shift) || !valid_shift(gp.recurrent_shift) ||
        !valid_zero_point<int8_t>(gp.input_weight_zero_point) ||
        !valid_zero_point<int8_t>(gp.recurrent_weight_zero_point)) {
      return Status::kBadParams;
    }
  }
  const TensorDesc& h0 = ctx.input_desc(kHiddenStateInput);
  const TensorDesc& c0 = ctx.input_desc(kCellStateInput);
  const uint64_t state = uint64_t{batches} * units;
  if (!is_s8(h0) || !is_s16(c0) || element_count(h0) != state || element_count(c0) != state ||
      !index_math_fits(h0) || !index_math_fits(c0)) {
    return Status::kBadParams;
  }
  if (!valid_shift(p.forget_cell.shift) || !valid_shift(p.input_cell.shift) ||
      !valid_shift(p.hidden.shift) || !valid_zero_point<int8_t>(p.input_zero_point) ||
      !valid_zero_point<int8_t>(p.hidden_zero_point)) {
    return Status::kBadParams;
  }
  if (p.cell_tanh_multiplier < 1 || p.cell_tanh_multiplier > (3 << 12) || p.cell_tanh_shift < 0 ||
      p.cell_tanh_shift > 31 || p.cell_clip < 0 || p.cell_clip > 32767) {
    return Status::kBadParams;
  }
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < lstm_s8_scratch_bytes(inputs, units) ||
      reinterpret_cast<uintptr_t>(scratch.data()) % alignof(int16_t) != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void lstm_s8_run(const OpContext& ctx) {
  const LstmS8Params& p = ctx.params<LstmS8Params>();
  const TensorDesc& x_desc = ctx.input_desc(0);
  const int32_t inputs = static_cast<int32_t>(x_desc.dims[2]);
  const int32_t units = static_cast<int32_t>(ctx.output_desc(0).dims[2]);
  const int32_t batches = static_cast<int32_t>(p.time_major ? x_desc.dims[1] : x_desc.dims[0]);
  const int32_t steps = static_cast<int32_t>(p.time_major ? x_desc.dims[0] : x_desc.dims[1]);
  const int8_t* x = static_cast<const int8_t*>(ctx.input_data(0));
  const int8_t* h0 = static_cast<const int8_t*>(ctx.input_data(kHiddenStateInput));
  const int16_t* c0 = static_cast<const int16_t*>(ctx.input_data(kCellStateInput));
  int8_t* y = static_cast<int8_t*>(ctx.output_data(0));
  // Scratch: cell state [H], then this step's x and h plus their offsets ([I], [H]).
  int16_t* cell = reinterpret_cast<int16_t*>(ctx.scratch().data());
  int16_t* x_shifted = cell + units;
  int16_t* h_shifted = x_shifted + inputs;
  const int8_t* wx[4];
  const int8_t* wh[4];
  const int32_t* bias[4];
  for (int32_t g = 0; g < 4; ++g) {
    wx[g] = static_cast<const int8_t*>(ctx.input_data(1 + g));
    wh[g] = static_cast<const int8_t*>(ctx.input_data(5 + g));
    bias[g] = static_cast<const int32_t*>(ctx.input_data(12 + g));
  }
  const int32_t x_offset = -p.input_zero_point;
  const int32_t h_offset = -p.hidden_zero_point;
  const int32_t clip = p.cell_clip;
  int32_t wx_offset[4], wh_offset[4];
  for (int32_t g = 0; g < 4; ++g) {
    wx_offset[g] = -p.gate[g].input_weight_zero_point;
    wh_offset[g] = -p.gate[g].recurrent_weight_zero_point;
  }

  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t n = 0; n < units; ++n) cell[n] = c0[b * units + n];
    for (int32_t t = 0; t < steps; ++t) {
      // Row of (b, t) in [B, T, *] or [T, B, *].
      const int32_t row = p.time_major ? t * batches + b : b * steps + t;
      const int32_t prev_row = p.time_major ? row - batches : row - 1;
      add_offset(x + row * inputs, x_offset, inputs, x_shifted);
      add_offset(t == 0 ? h0 + b * units : y + prev_row * units, h_offset, units, h_shifted);
      int8_t* out = y + row * units;
      for (int32_t n = 0; n < units; ++n) {
        const int8_t* wx_rows[4];
        const int8_t* wh_rows[4];
        for (int32_t g = 0; g < 4; ++g) {
          wx_rows[g] = wx[g] + n * inputs;
          wh_rows[g] = wh[g] + n * units;
        }
        int32_t acc_x[4], acc_h[4], pre[4];
        dot4_s8(wx_rows, wx_offset, x_shifted, inputs, acc_x);
        dot4_s8(wh_rows, wh_offset, h_shifted, units, acc_h);
        for (int32_t g = 0; g < 4; ++g) {
          const LstmGateParams& gp = p.gate[g];
          const int32_t fc_x = clamp16(multiply_by_quantized_multiplier(
              wrapping_add(acc_x[g], bias[g][n]), gp.input_multiplier, gp.input_shift));
          const int32_t fc_h = clamp16(multiply_by_quantized_multiplier(
              acc_h[g], gp.recurrent_multiplier, gp.recurrent_shift));
          pre[g] = clamp16(fc_x + fc_h);
        }
        const int32_t in_gate = lstm_sigmoid_s16(static_cast<int16_t>(pre[kLstmInputGate]));
        const int32_t forget = lstm_sigmoid_s16(static_cast<int16_t>(pre[kLstmForgetGate]));
        const int32_t cell_in = lstm_tanh_s16(static_cast<int16_t>(pre[kLstmCellGate]), 3, 0);
        const int32_t out_gate = lstm_sigmoid_s16(static_cast<int16_t>(pre[kLstmOutputGate]));
        const int32_t kept = clamp16(scaled_mul_s16(forget, cell[n], p.forget_cell));
        const int32_t added = clamp16(scaled_mul_s16(in_gate, cell_in, p.input_cell));
        int32_t c = clamp16(kept + added);
        if (p.cell_clip_enabled) c = clamp_i32(c, -clip, clip);
        cell[n] = static_cast<int16_t>(c);
        const int32_t squashed =
            lstm_tanh_s16(static_cast<int16_t>(c), p.cell_tanh_multiplier, p.cell_tanh_shift);
        const int32_t hidden =
            wrapping_add(p.hidden_zero_point, scaled_mul_s16(squashed, out_gate, p.hidden));
        out[n] = static_cast<int8_t>(clamp_i32(hidden, -128, 127));
      }
    }
  }
}

const KernelEntry kLstmS8Entry = {lstm_s8_check, lstm_s8_run};

}  // namespace mote
