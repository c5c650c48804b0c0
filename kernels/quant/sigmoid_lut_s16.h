// TFLite's int16 sigmoid and tanh (reference_integer_ops::Logistic and Tanh on int16),
// shared by the int16 LOGISTIC / TANH kernels (activation/activation_s16.cc) and the
// LSTM kernels' gates. Both interpolate one 256-entry table of sigmoid in Q0.16:
//   s = (x * multiplier + round) >> shift     (round = 2^(shift-1), 0 for shift 0)
//   sigmoid: |s| indexes the table with 9 fractional bits; out = sigmoid in Q0.15
//   tanh:    |s| indexes it with 8 fractional bits (tanh(v) = 2 sigmoid(2v) - 1);
//            out = tanh in Q0.15
// with TFLite's saturation (index >= 255) and its rounding back to 16 bits. The
// caller passes TFLite's effective multiplier and shift: for a power-of-two input scale
// (TFLite's input_multiplier 0) multiplier = 3 << input_left_shift and shift = 0.
// Contract (what keeps the int32 arithmetic exact, as TFLite's): 0 <= multiplier <= 32767
// and 0 <= shift <= 31, or multiplier <= 3 << 12 with shift 0.
#pragma once

#include <stdint.h>

namespace mote {

// sigmoid(i / 24) in Q0.16 (65535 for 1.0), i = 0..255: TFLite's sigmoid_table_uint16
// (kernels/internal/common.h), shared by its int16 Logistic and Tanh. The values are
// TFLite's exactly, as bit-exactness needs: 44 of them are one above the correctly
// rounded 65536 * sigmoid(i / 24), so the table cannot be recomputed from the formula.
inline constexpr uint16_t kSigmoidTableQ16[256] = {
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

inline int32_t lut_scaled_input_s16(int16_t x, int32_t multiplier, int32_t shift) {
  const int32_t round = shift > 0 ? int32_t{1} << (shift - 1) : 0;
  return (int32_t{x} * multiplier + round) >> shift;
}

// The table part of the sigmoid: `scaled` is the input already scaled (s above).
inline int16_t lut_sigmoid_scaled(int32_t scaled) {
  const uint32_t magnitude = static_cast<uint32_t>(scaled < 0 ? -scaled : scaled);
  const uint32_t index = magnitude >> 9;
  uint32_t value;
  if (index >= 255) {
    value = 0x7FFFu << 10;
  } else {
    const uint32_t lo = kSigmoidTableQ16[index];
    const uint32_t hi = kSigmoidTableQ16[index + 1];
    value = (lo << 9) + (magnitude & 0x1FFu) * (hi - lo);
  }
  value = scaled >= 0 ? value + (1u << 9) : (1u << 25) - value + (1u << 9) - 1;
  return static_cast<int16_t>(value >> 10);
}

inline int16_t lut_sigmoid_s16(int16_t x, int32_t multiplier, int32_t shift) {
  return lut_sigmoid_scaled(lut_scaled_input_s16(x, multiplier, shift));
}

// The table part of the tanh: `scaled` is the input already scaled (s above).
inline int16_t lut_tanh_scaled(int32_t scaled) {
  const uint32_t magnitude = static_cast<uint32_t>(scaled < 0 ? -scaled : scaled);
  const uint32_t index = magnitude >> 8;
  int32_t value;
  if (index >= 255) {
    value = 0xFFFF << 8;
  } else {
    const uint32_t lo = kSigmoidTableQ16[index];
    const uint32_t hi = kSigmoidTableQ16[index + 1];
    value = static_cast<int32_t>((lo << 8) + (magnitude & 0xFFu) * (hi - lo));
  }
  // tanh(v) = 2 * sigmoid(2v) - 1, back to Q0.15 with rounding.
  value = scaled >= 0 ? value - (1 << 23) + (1 << 7) : -value + (1 << 23) + (1 << 7) - 1;
  return static_cast<int16_t>(value >> 8);
}

inline int16_t lut_tanh_s16(int16_t x, int32_t multiplier, int32_t shift) {
  return lut_tanh_scaled(lut_scaled_input_s16(x, multiplier, shift));
}

}  // namespace mote
