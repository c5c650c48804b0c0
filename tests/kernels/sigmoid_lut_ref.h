// The tests' transcription of TFLite's int16 sigmoid and tanh
// (reference_integer_ops::Logistic / Tanh on int16) and of how TensorFlow Lite Micro's
// LOGISTIC / TANH Prepare turns an input scale into their input_multiplier and
// input_left_shift: the oracle of the int16 LOGISTIC / TANH and 16x8 LSTM tests, written
// from TFLite's source independently of Mote's kernels. The table is TFLite's
// sigmoid_table_uint16 (kernels/internal/common.h) as data; RefSigmoidTable.* checks it
// against 65536 * sigmoid(i / 24).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace mote::testing {

// sigmoid(i / 24) in Q0.16, TFLite's values.
inline constexpr uint16_t kRefSigmoidTable[256] = {
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

// TFLite's CheckedLog2 (float arithmetic): rounded log2 and whether x is that power of 2.
inline bool ref_checked_log2(float x, int* log2_result) {
  const float x_log2 = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(x_log2);
  *log2_result = static_cast<int>(rounded);
  return std::abs(x_log2 - rounded) < 1e-3f;
}

// TensorFlow Lite Micro's int16 LOGISTIC (sigmoid = true) / TANH Prepare: the multiplier and
// shift its Eval receives (multiplier 0 for a power-of-two scale it takes as it is).
inline void ref_int16_activation_params(float input_scale, bool sigmoid, int32_t* multiplier, int32_t* shift) {
  int log2_scale = 0;
  bool pot = ref_checked_log2(input_scale, &log2_scale);
  *shift = (15 - 3) + log2_scale;
  pot = pot && (*shift == 0 || (!sigmoid && *shift == 1));
  if (pot) {
    *multiplier = 0;
    return;
  }
  double m = static_cast<double>(input_scale) * 4096.0 * 3.0;
  *shift = 0;
  while (m <= 32767.0 / 2.0 && *shift <= 30) {
    ++*shift;
    m = m * 2.0;
  }
  *multiplier = static_cast<int32_t>(m);
}

// reference_integer_ops::Logistic(input_multiplier, input_left_shift, ...) on one int16.
inline int16_t ref_logistic_s16(int32_t input_multiplier, int32_t input_left_shift, int16_t x) {
  if (input_multiplier == 0) {
    input_multiplier = 3 << input_left_shift;
    input_left_shift = 0;
  }
  const int32_t round = input_left_shift > 0 ? 1 << (input_left_shift - 1) : 0;
  const int32_t v = (x * input_multiplier + round) >> input_left_shift;
  const uint32_t a = static_cast<uint32_t>(std::abs(v));
  const uint32_t uh = a >> 9;
  uint32_t result;
  if (uh >= 255) {
    result = 0x7FFF << 10;
  } else {
    const uint32_t ua = kRefSigmoidTable[uh];
    const uint32_t ub = kRefSigmoidTable[uh + 1];
    result = (ua << 9) + (a & 0x1ff) * (ub - ua);
  }
  result = v >= 0 ? result + (1 << 9) : (1 << (16 + 9)) - result + (1 << 9) - 1;
  return static_cast<int16_t>(result >> 10);
}

// reference_integer_ops::Tanh(input_multiplier, input_left_shift, ...) on one int16.
inline int16_t ref_tanh_s16(int32_t input_multiplier, int32_t input_left_shift, int16_t x) {
  if (input_multiplier == 0) {
    input_multiplier = 3 << input_left_shift;
    input_left_shift = 0;
  }
  const int32_t round = input_left_shift > 0 ? 1 << (input_left_shift - 1) : 0;
  const int32_t v = (x * input_multiplier + round) >> input_left_shift;
  const uint32_t a = static_cast<uint32_t>(std::abs(v));
  const uint32_t uh = a >> 8;
  int32_t result;
  if (uh >= 255) {
    result = 0xFFFF << 8;
  } else {
    const uint32_t ua = kRefSigmoidTable[uh];
    const uint32_t ub = kRefSigmoidTable[uh + 1];
    const uint8_t ut = static_cast<uint8_t>(a & 0xFF);
    result = static_cast<int32_t>((ua << 8) + ut * (ub - ua));
  }
  result = v >= 0 ? result - (1 << (14 + 9)) + (1 << (9 - 2)) : -result + (1 << (14 + 9)) + (1 << (9 - 2)) - 1;
  return static_cast<int16_t>(result >> (9 - 1));
}

}  // namespace mote::testing
