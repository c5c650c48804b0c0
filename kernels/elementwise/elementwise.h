// Binary elementwise ops with numpy-style broadcasting: add, sub, mul, div.
//   inputs:  0 a, 1 b    ranks <= kMaxRank, right-aligned broadcast
//   output:  0           the broadcast shape (rank = max rank of a, b)
// The result is clamped to [act_min, act_max] (fused activation).
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct BinaryParams {
  float act_min, act_max;
};

// Broadcast geometry: output dims and each input's element strides (0 on broadcast
// dims), padded on the left to kMaxRank. Neighbouring dims that both inputs walk alike
// are merged and output dims of 1 dropped, so a same-shape operation is one innermost
// row (a walk's rows are as long as they can be).
struct BroadcastShape {
  int32_t out_dims[kMaxRank];
  int32_t a_strides[kMaxRank];
  int32_t b_strides[kMaxRank];
};

// Fills `shape` from the three descriptors; false when a and b do not broadcast to out.
bool make_broadcast_shape(const TensorDesc& a, const TensorDesc& b, const TensorDesc& out,
                          BroadcastShape* shape);

void add_f32(const BinaryParams& params, const BroadcastShape& shape, const float* a,
             const float* b, float* out);
void sub_f32(const BinaryParams& params, const BroadcastShape& shape, const float* a,
             const float* b, float* out);
void mul_f32(const BinaryParams& params, const BroadcastShape& shape, const float* a,
             const float* b, float* out);
void div_f32(const BinaryParams& params, const BroadcastShape& shape, const float* a,
             const float* b, float* out);

Status binary_f32_check(const OpContext& ctx);  // shared by add/sub/mul/div
void add_f32_run(const OpContext& ctx);
void sub_f32_run(const OpContext& ctx);
void mul_f32_run(const OpContext& ctx);
void div_f32_run(const OpContext& ctx);
extern const KernelEntry kAddF32Entry;
extern const KernelEntry kSubF32Entry;
extern const KernelEntry kMulF32Entry;
extern const KernelEntry kDivF32Entry;

// ---------------------------------------------------------------------------------------
// Quantized add and sub, int8 and int16 (TFLite ADD / SUB; reference_integer_ops::AddFunc,
// reference_ops::AddElementwise / SubElementwise / BroadcastQuantSubSlow). Same
// broadcasting as the float kernels. With left_shift = 20 (int8) or 15 (int16):
//   a' = multiply_by_quantized_multiplier((a - input1_zero_point) * 2^left_shift,
//                                         input1_multiplier, input1_shift)
//   b' = multiply_by_quantized_multiplier((b - input2_zero_point) * 2^left_shift,
//                                         input2_multiplier, input2_shift)
//   out = clamp(multiply_by_quantized_multiplier(a' +- b', output_multiplier, output_shift)
//               + output_zero_point, act_min, act_max)
// The compiler fills the multipliers with add_multipliers() (ADD) or sub_multipliers()
// (SUB; the same values, see quant_math.h for why not TFLM's float variant) with that
// left_shift, and the range with activation_range_quantized(.., type min, type max). check(): zero points
// and range in the element type, every shift in [-31, 0].
struct QuantAddSubParams {
  int32_t input1_zero_point;
  int32_t input2_zero_point;
  int32_t output_zero_point;
  int32_t input1_multiplier, input1_shift;
  int32_t input2_multiplier, input2_shift;
  int32_t output_multiplier, output_shift;
  int32_t act_min, act_max;
};

inline constexpr int32_t kAddSubLeftShiftS8 = 20;
inline constexpr int32_t kAddSubLeftShiftS16 = 15;

// Quantized mul, int8 and int16 (TFLite MUL; reference_integer_ops::MulElementwise):
//   out = clamp(multiply_by_quantized_multiplier((a - input1_zero_point) *
//               (b - input2_zero_point), output_multiplier, output_shift)
//               + output_zero_point, act_min, act_max)
// multiplier = mul_multiplier(s1, s2, s_out). int16 requires all zero points 0 (as TFLite).
// check(): shift in [-31, 30].
struct QuantMulParams {
  int32_t input1_zero_point;
  int32_t input2_zero_point;
  int32_t output_zero_point;
  int32_t output_multiplier, output_shift;
  int32_t act_min, act_max;
};

// ---------------------------------------------------------------------------------------
// int32 add, sub and mul (TFLite ADD / SUB / MUL as TensorFlow Lite Micro runs them on
// int32 tensors, raw values: reference_ops::Add / SubWithActivation / Mul and their
// broadcast forms), BinaryS32Params: out = clamp(a op b, act_min, act_max), a op b computed in int32
// and wrapping around on overflow (two's complement, what a Cortex-M's ADD/SUB/MUL give;
// TFLite's own expression overflows). TFLM clamps SUB and MUL to the fused activation's
// int32 range and never clamps ADD (it passes the whole int32 range): the compiler fills
// act_min/act_max so. Same broadcasting and walk as div_s32, in place allowed.
// check(): int32 tensors that broadcast, act_min <= act_max.
Status binary_s32_check(const OpContext& ctx);  // shared by add/sub/mul
void add_s32_run(const OpContext& ctx);
void sub_s32_run(const OpContext& ctx);
void mul_s32_run(const OpContext& ctx);
extern const KernelEntry kAddS32Entry;
extern const KernelEntry kSubS32Entry;
extern const KernelEntry kMulS32Entry;

// ---------------------------------------------------------------------------------------
// Integer division (TFLite DIV as TensorFlow Lite Micro runs it: reference_ops::Div and
// BroadcastDivSlow). Same broadcasting as the float kernels, the output walked by
// broadcast_binary (broadcast_walk.h), so it may be written over an input of its shape.
//
// div_s32 (BinaryS32Params): clamp(a / b, act_min, act_max), the quotient truncated toward
//   zero. TFLite's reference leaves a / 0 and INT32_MIN / -1 undefined (TFLite stops with
//   an error on a zero divisor, TFLM divides); here they are what the Cortex-M's SDIV
//   gives: a / 0 = 0, INT32_MIN / -1 = INT32_MIN.
// div_s8 (QuantMulParams; multiplier and shift = quantize_multiplier of the float
//   s_a / (s_b * s_out) widened to double, as TFLM's CalculateOpDataDiv):
//     n = a - input1_zero_point, d = b - input2_zero_point; when d < 0, n = -n, d = -d
//     r   = 31 - clz(d), inv = one_over_one_plus_x_for_x_in_0_1(d * 2^clz(d) - 2^31)
//           (TFLite's GetReciprocal(d, 31): 1 / d as inv * 2^(r - 31))
//     h   = leading sign bits of n (31 for n = 0)
//     q   = srdhm(srdhm(n * 2^h, inv), output_multiplier)
//     e   = r + h - output_shift
//     out = clamp(output_zero_point + rounding_divide_by_pot(q, e), act_min, act_max)
//   e reaches 32 and more (e.g. n = 0 and d >= 2^(output_shift + 1)), where gemmlowp's
//   RoundingDivideByPOT asserts e <= 31 (compiled out with NDEBUG) and shifts by 32 or
//   more: there the mask (2^e - 1 truncated to 32 bits) is all ones and the shift (an
//   Arm ASR) gives the sign, so q >= 0 -> 1 and q < 0 -> -1, as a TFLM release build
//   computes it on a Cortex-M (0 / d gives the zero point plus 1, on any host too; for
//   q != 0 an x86 or WebAssembly build shifts by e - 32 instead, as TFLite does there).
//   A zero divisor (b == input2_zero_point), which TFLite leaves undefined, runs the same
//   arithmetic with clz(0) = 32 (r = -1, inv of -1), as TFLM does on a Cortex-M.
//   check(): zero points and act range in int8, multiplier >= 0, output_shift in
//   [kDivS8MinShift, kDivS8MaxShift], which keeps e in [0, 63] for every input.
struct BinaryS32Params {
  int32_t act_min, act_max;
};
inline constexpr int32_t kDivS8MinShift = -25;
inline constexpr int32_t kDivS8MaxShift = 22;

// One element of div_s8 (above); params accepted by div_s8_check.
int8_t div_s8_value(const QuantMulParams& params, int8_t a, int8_t b);
// One element of div_s32 before the clamp: a / b, 0 for b == 0, INT32_MIN / -1 = INT32_MIN.
int32_t div_s32_value(int32_t a, int32_t b);

Status div_s8_check(const OpContext& ctx);
Status div_s32_check(const OpContext& ctx);
void div_s8_run(const OpContext& ctx);
void div_s32_run(const OpContext& ctx);
extern const KernelEntry kDivS8Entry;
extern const KernelEntry kDivS32Entry;

Status add_sub_s8_check(const OpContext& ctx);
Status add_sub_s16_check(const OpContext& ctx);
Status mul_s8_check(const OpContext& ctx);
Status mul_s16_check(const OpContext& ctx);
void add_s8_run(const OpContext& ctx);
void sub_s8_run(const OpContext& ctx);
void mul_s8_run(const OpContext& ctx);
void add_s16_run(const OpContext& ctx);
void sub_s16_run(const OpContext& ctx);
void mul_s16_run(const OpContext& ctx);
extern const KernelEntry kAddS8Entry;
extern const KernelEntry kSubS8Entry;
extern const KernelEntry kMulS8Entry;

// Helium (MVE, cortex-m55) variant of int8 ADD for inputs with the output's element
// count (no broadcasting); same params and output bits as add_s8 (add_s8__mve.cc). No
// scratch. check(): as add_s8, plus both inputs the size of the output.
void add_s8__mve(const QuantAddSubParams& params, const int8_t* a, const int8_t* b,
                 int8_t* out, int32_t count);
Status add_s8__mve_check(const OpContext& ctx);
void add_s8__mve_run(const OpContext& ctx);
extern const KernelEntry kAddS8MveEntry;
extern const KernelEntry kAddS16Entry;
extern const KernelEntry kSubS16Entry;
extern const KernelEntry kMulS16Entry;

// add_s16__dsp / add_s16__mve: the DSP-extension and Helium variants of add_s16 for two
// inputs of the output's shape (add_s16__mve: element count) with no broadcasting; same
// params and output bits as add_s16, no scratch. `out` may be `a` or `b` (in place).
// add_s16__dsp runs its two-elements-per-word loop where its per-run test finds it exact
// for every input (input zero points 0, positive multipliers, a rounding output shift:
// what the compiler derives for TFLite 16x8), the reference arithmetic per element
// otherwise (add_s16__dsp.cc). check(): as add_s16, plus those shapes.
uint32_t add_s16__dsp_scratch_bytes();  // 0
void add_s16__dsp(const QuantAddSubParams& params, const int16_t* a, const int16_t* b,
                  int16_t* out, int32_t count);
Status add_s16__dsp_check(const OpContext& ctx);
void add_s16__dsp_run(const OpContext& ctx);
extern const KernelEntry kAddS16DspEntry;
void add_s16__mve(const QuantAddSubParams& params, const int16_t* a, const int16_t* b,
                  int16_t* out, int32_t count);
Status add_s16__mve_check(const OpContext& ctx);
void add_s16__mve_run(const OpContext& ctx);
extern const KernelEntry kAddS16MveEntry;
// add_s16__v6m: the ARMv6-M (Cortex-M0+) variant of add_s16 for two inputs of the
// output's shape (no broadcasting), same params and output bits, no scratch; `out` may be
// `a` or `b`. Its 32-bit-multiply loop runs where its per-run test finds it exact (as
// add_s16__dsp's), the reference arithmetic per element otherwise (add_s16__v6m.cc).
// check(): as add_s16, plus those shapes.
uint32_t add_s16__v6m_scratch_bytes();  // 0
void add_s16__v6m(const QuantAddSubParams& params, const int16_t* a, const int16_t* b,
                  int16_t* out, int32_t count);
Status add_s16__v6m_check(const OpContext& ctx);
void add_s16__v6m_run(const OpContext& ctx);
extern const KernelEntry kAddS16V6mEntry;

// mul_s16__dsp, mul_s16__mve, mul_s16__v6m: the DSP-extension, Helium and ARMv6-M
// variants of mul_s16 for every shape it takes (broadcasting as it does), same params
// and output bits, no scratch; `out` may be an input of the output's shape. The DSP and
// ARMv6-M loops run where their per-run test finds them exact (a positive multiplier and
// a right shift: what the compiler derives for TFLite 16x8), the reference arithmetic
// per element otherwise; the Helium loop is exact for every parameter (mul_s16__*.cc).
// check(): mul_s16's, plus an output element count that fits int32.
Status mul_s16__dsp_check(const OpContext& ctx);
void mul_s16__dsp_run(const OpContext& ctx);
extern const KernelEntry kMulS16DspEntry;
Status mul_s16__mve_check(const OpContext& ctx);
void mul_s16__mve_run(const OpContext& ctx);
extern const KernelEntry kMulS16MveEntry;
Status mul_s16__v6m_check(const OpContext& ctx);
void mul_s16__v6m_run(const OpContext& ctx);
extern const KernelEntry kMulS16V6mEntry;

// add_s8__dsp: the Armv7E-M / Armv8-M DSP variant of add_s8 for two inputs of the
// output's shape (no broadcasting; check() rejects other shapes): same params and output
// bits. Each input's rescaling is tabulated for its 256 values in the scratch
// (add_s8__dsp_scratch_bytes() = 2 KiB, int32-aligned, which check() verifies), then
// every element costs two table loads and one SMMULR-based requantization. Portable
// elsewhere (kernels/isa/dsp.h). `out` may be `a` or `b` (in place). Tensors shorter than
// kAddS8TableMinCount elements skip the tables (reference arithmetic per element). The
// compiler now picks add_s8_lut__dsp (below) instead; this one stays for programs that
// name it, and is the flash-cheaper form (no tables in the parameters).
inline constexpr int32_t kAddS8TableEntries = 256;    // one entry per int8 value
inline constexpr int32_t kAddS8TableMinCount = 512;   // shorter tensors skip the tables
uint32_t add_s8__dsp_scratch_bytes();
void add_s8__dsp(const QuantAddSubParams& params, const int8_t* a, const int8_t* b, int8_t* out,
                 int32_t count, uint8_t* scratch);
Status add_s8__dsp_check(const OpContext& ctx);
void add_s8__dsp_run(const OpContext& ctx);
extern const KernelEntry kAddS8DspEntry;

// add_s8_lut__dsp: add_s8__dsp with its two tables computed by the compiler and stored
// in the parameters (flash) instead of built in scratch on every run: no scratch, no
// per-run table cost, 2 KiB more parameter bytes. Same shapes (no broadcasting) and
// output bits as add_s8. Parameters (AddS8LutParams, 2092 bytes):
//   quant         the reference's QuantAddSubParams, unchanged
//   input1_table  [v + 128] = 2 * multiply_by_quantized_multiplier((v - input1_zero_point)
//                 * 2^20, input1_multiplier, input1_shift) for v in [-128, 127]
//   input2_table  the same for input 2
// add_s8_lut__dsp_make_params() fills them. check(): add_s8's checks on `quant`, both
// inputs of the output's shape, params of exactly sizeof(AddS8LutParams), and every table
// entry equal to the one recomputed from `quant` (a corrupted table is kBadParams; this
// also keeps every entry within the loop's overflow bound). `out` may be `a` or `b`.
struct AddS8LutParams {
  QuantAddSubParams quant;
  int32_t input1_table[kAddS8TableEntries];
  int32_t input2_table[kAddS8TableEntries];
};
// Fills *params with quant and both tables computed from it (its zero points in
// [-128, 127], shifts in [-31, 0], as check() requires).
void add_s8_lut__dsp_make_params(const QuantAddSubParams& quant, AddS8LutParams* params);
uint32_t add_s8_lut__dsp_scratch_bytes();  // 0
void add_s8_lut__dsp(const AddS8LutParams& params, const int8_t* a, const int8_t* b, int8_t* out,
                     int32_t count);
Status add_s8_lut__dsp_check(const OpContext& ctx);
void add_s8_lut__dsp_run(const OpContext& ctx);
extern const KernelEntry kAddS8LutDspEntry;

}  // namespace mote
