// Armv7E-M DSP int8 pointwise convolution: 1x1 filter, groups == 1, no padding, any
// stride (dilation does not matter for 1x1), batch >= 1; bit-exact with conv2d_s8.
// ReLU-like layers whose records apply take conv2d_s8_1x1_relu__dsp instead (the
// compiler's rule: conv2d_s8_1x1_relu__dsp_applies); this kernel serves the others.
// Four output pixels at a time: each one's C input values become an int16 column (input
// offset added) of the interleaved block of conv2d_s8_dsp_block.h, expanded straight
// from the input, then every output channel runs 16 MACs per weight word over the block
// (run_block: 54 instructions per 64 MACs from the int8 weights, 7 per output).
// With stride 1 the pixels are consecutive in the input. A last single pixel runs on
// its own (a contiguous column when C % 16 == 0, else run_single); a last 2 or 3 move
// the block back over pixels already done; with C % 8 == 0 and C >= 192 a last 5 run as
// one block of 5 (run_five). Fewer than 4 output pixels in all: the reference kernel
// runs (but for the small-channel path).
//
// C = 8 or 16 with the full clamp range and right-shifting scales: the small-channel
// path below (pixel by pixel, per-channel records), 11-13 / 19-21 instructions per
// output.
//
// Scratch: the column block, 32 * ceil(C / 4) bytes (40 * C / 4 when the 5-pixel block
// applies); for C = 8 / 16 at least the records of 32 channels, 32 * (C / 2 + 4) * 4
// bytes. Params: the reference's.
#include <stddef.h>

#include "conv2d/conv2d.h"
#include "conv2d/conv2d_s8_1x1_dsp_common.h"
#include "conv2d/conv2d_s8_dsp_block.h"
#include "conv2d/conv2d_shapes.h"
#include "kernel_util.h"
#include "quant/acc_range.h"
#include "quant/quant_check.h"

namespace mote {

using conv2d_dsp::kBlockPixels;

namespace {

// The small-channel path (in_c 8 or 16): an output is only in_c MACs, so the per-output
// requantization and loop overhead decide. Pixel by pixel, the in_c input values (plus
// the offset) are widened once into registers; then every output channel of a chunk of
// kSmallChannels runs from a record built once per chunk in scratch: its weights
// (SXTB16-split, doubled), 2 * bias, multiplier, H and right. With A = 2 * acc (exact:
// |acc| < 2^30, see small_applies), SMMLAR(A, m, t) = floor((A * m + 2^31) / 2^32) + t =
// floor((acc * m + 2^30) / 2^31) + t, which is the reference's high-mul x plus t; with
// t = H - [acc < 0], H = 2^(right-1) + zp * 2^right, an ASR by right is
// RoundingDivideByPOT(x, right) + zp (see requantize_right: for m >= 0 the sign of x
// that decides the tie is that of acc, and acc * m in [-2^30, 0) gives 0 either way).
// On DSP cores one output is 13 (K 8) / 21 (K 16) instructions.
// Shifted mode, for a chunk whose channels all fit it (shifted_record) when zp ==
// act_min == -128: the sign term only changes results whose x < 0, which are <= zp
// either way and clamp to -128, so it is left out; and the weights and bias are scaled
// by 2^(1 + d), d = 10 - right >= 1, so that with A = 2^(d-1) + H * 2^d
//   out = SSAT #8 (SMMLA(acc', m, A), ASR #10)
// (floors nest: floor(floor(2^d Y) / 2^(d + right)) = floor(Y / 2^right) for Y =
// (2 acc m + 2^31) / 2^32 + H, the relu form above). A channel whose output cannot vary
// over its reachable accumulators is a zero filter and A = out << 10. Records W.., B', m,
// A; 10 (K 8) / 17 (K 16) instructions per output in pairs.
constexpr int32_t kSmallChannels = 32;
constexpr int kSmallShiftR = 10;  // the ASR of shifted mode's SSAT

bool small_k(int32_t c) { return c == 8 || c == 16; }
int32_t small_record_words(int32_t c) { return c / 2 + 4; }  // sign mode; shifted: one fewer

struct SmallQuant {
  bool applies, relu;
};

SmallQuant small_applies(const Conv2dS8Params& params, const int32_t* multipliers,
                         const int32_t* shifts, const int32_t* bias, int32_t out_c) {
  const int32_t zp = params.output_zero_point;
  if (params.act_min != -128 || params.act_max != 127 || zp < -128 || zp > 127) {
    return SmallQuant{false, false};
  }
  for (int32_t o = 0; o < out_c; ++o) {
    // |bias| <= 2^29 and |sum| <= 16 * 255 * 128 keep |acc| < 2^30; right <= 22 keeps
    // |x + H| < 2^31.
    if (multipliers[o] < 0 || shifts[o] > -1 || shifts[o] < -22) return SmallQuant{false, false};
    if (bias != nullptr && (bias[o] > (1 << 29) || bias[o] < -(1 << 29))) {
      return SmallQuant{false, false};
    }
  }
  return SmallQuant{true, zp == -128};
}

// The weights of filter row f as SXTB16-split int16 pairs scaled by 2^k (w[2g] = taps
// 4g, 4g + 2; w[2g + 1] = taps 4g + 1, 4g + 3).
void split_scaled(const int8_t* f, int32_t c, int32_t k, uint32_t* w) {
  for (int32_t g = 0; g < c / 4; ++g) {
    w[2 * g] = dsp::pack16(f[4 * g] * (1 << k), f[4 * g + 2] * (1 << k));
    w[2 * g + 1] = dsp::pack16(f[4 * g + 1] * (1 << k), f[4 * g + 3] * (1 << k));
  }
}

// Record words W0..W(c/2 - 1) and B in the asm's order (K 8: W0..W3 B; K 16: W0 B W1..W7);
// returns the next word.
uint32_t* put_weights(int32_t c, const uint32_t* w, uint32_t b, uint32_t* rec) {
  if (c == 8) {
    for (int32_t j = 0; j < 4; ++j) rec[j] = w[j];
    rec[4] = b;
    return rec + 5;
  }
  rec[0] = w[0];
  rec[1] = b;
  for (int32_t j = 1; j < 8; ++j) rec[j + 1] = w[j];
  return rec + 9;
}

// Shifted mode's record of channel o (see the path's comment), or false when the channel
// does not fit it: right > 9, a scaled weight past int16 or a scaled accumulator past
// int32 (from the exact range of x + offset, x in [-128, 127]). The relu form: zp -128.
bool shifted_record(int32_t c, const int8_t* f, int32_t bias, int32_t multiplier, int32_t shift,
                    int32_t input_zero_point, uint32_t* rec) {
  const int32_t right = -shift;  // 1..22 (small_applies)
  const AccRange range = acc_range(bias, f, c, 1, input_zero_point);
  const int64_t lo = range.lo, hi = range.hi;
  const int32_t w_min = range.w_min, w_max = range.w_max;
  const uint32_t h = (uint32_t{1} << (right - 1)) + (static_cast<uint32_t>(-128) << right);
  auto out_of = [&](int64_t acc) {  // |acc| < 2^30 (small_applies)
    const int32_t x = dsp::smmulr(static_cast<int32_t>(2 * acc), multiplier);
    return dsp::ssat8(static_cast<int32_t>(static_cast<uint32_t>(x) + h) >> right);
  };
  uint32_t w[8] = {};
  const int32_t out_lo = out_of(lo);
  if (out_lo == out_of(hi)) {
    rec = put_weights(c, w, 0, rec);
    rec[0] = static_cast<uint32_t>(multiplier);
    rec[1] = static_cast<uint32_t>(out_lo) << kSmallShiftR;
    return true;
  }
  const int32_t d = kSmallShiftR - right;
  if (d < 1) return false;
  const int32_t k = 1 + d;  // 2..10
  if (w_max > (32767 >> k) || w_min < -(32768 >> k)) return false;
  if (lo * (int64_t{1} << k) < INT32_MIN || hi * (int64_t{1} << k) > INT32_MAX) return false;
  split_scaled(f, c, k, w);
  rec = put_weights(c, w, static_cast<uint32_t>(bias) << k, rec);
  rec[0] = static_cast<uint32_t>(multiplier);
  rec[1] = (uint32_t{1} << (d - 1)) + (h << d);
  return true;
}

// Records of channels [o0, o0 + n) in the orders the asm's LDMs want; shifted mode's
// (see shifted_record) when `shifted` and every channel fits it (returns whether), else
// sign mode's: K = 8: W0 W1 W2 W3 B M H R; K = 16: W0 B W1 .. W7 M H R, Wj the weights'
// 2j-pair of the SXTB16 split, doubled, B = 2 * bias.
bool build_records(int32_t c, const int8_t* filter, const int32_t* bias,
                   const int32_t* multipliers, const int32_t* shifts,
                   const Conv2dS8Params& params, int32_t o0, int32_t n, bool shifted,
                   uint32_t* rec) {
  if (shifted) {
    uint32_t* r = rec;
    int32_t o = o0;
    for (; o < o0 + n; ++o, r += small_record_words(c) - 1) {
      if (!shifted_record(c, filter + o * c, bias != nullptr ? bias[o] : 0, multipliers[o],
                          shifts[o], params.input_zero_point, r)) {
        break;
      }
    }
    if (o == o0 + n) return true;
  }
  const int32_t zp = params.output_zero_point;
  for (int32_t o = o0; o < o0 + n; ++o) {
    uint32_t w[8];
    split_scaled(filter + o * c, c, 1, w);
    const uint32_t b = static_cast<uint32_t>(bias != nullptr ? bias[o] : 0) * 2u;
    const int32_t right = -shifts[o];
    const uint32_t h = (uint32_t{1} << (right - 1)) + (static_cast<uint32_t>(zp) << right);
    rec = put_weights(c, w, b, rec);
    rec[0] = static_cast<uint32_t>(multipliers[o]);
    rec[1] = h;
    rec[2] = static_cast<uint32_t>(right);
    rec += 3;
  }
  return false;
}

// count pixels from src (step src_step bytes), each writing the chunk's channels at dst
// and then skipping dst_skip bytes.
struct SmallRun {
  const int8_t* src;        // 0
  int32_t src_step;         // 4
  int32_t count;            // 8
  uint32_t offsets;         // 12
  const uint32_t* rec;      // 16
  const uint32_t* rec_end;  // 20
  int8_t* dst;              // 24
  int32_t dst_skip;         // 28
};
#if MOTE_HAS_DSP
static_assert(offsetof(SmallRun, offsets) == 12 && offsetof(SmallRun, rec) == 16 &&
                  offsetof(SmallRun, dst_skip) == 28,
              "SmallRun offsets are hard-coded in small_run");
#endif

// kShifted: shifted mode's records (else sign mode's); kPairs: the chunk has an even
// channel count; two channels per loop iteration.
template <int32_t kC, bool kShifted, bool kPairs>
void small_run(SmallRun& run) {
#if MOTE_HAS_DSP
  register SmallRun* state __asm__("r12") = &run;
  // r7 and the state are pushed: [sp] r7, [sp, #4] state. Per pixel: the input words
  // widened into r0-r3 (K 8) or r0-r6, r8 (K 16), r10/r12 the record range, r11 dst.
#define MOTE_SMALL_PIXEL_HEAD \
  "push {r7, r12}\n\t" \
  "ldr r11, [r12, #24]\n\t" \
  "1:\n\t" \
  "ldr r12, [sp, #4]\n\t" \
  "ldr lr, [r12, #0]\n\t" \
  "ldr r9, [r12, #12]\n\t" \
  "ldr r7, [r12, #4]\n\t"
#define MOTE_SMALL_PIXEL_TAIL \
  "cmp r10, r12\n\t" \
  "bne 2b\n\t" \
  "ldr r12, [sp, #4]\n\t" \
  "ldr r7, [r12, #28]\n\t" \
  "add r11, r11, r7\n\t" \
  "ldr r7, [r12, #8]\n\t" \
  "subs r7, r7, #1\n\t" \
  "str r7, [r12, #8]\n\t" \
  "bne 1b\n\t" \
  "pop {r7, r12}\n\t"
#define MOTE_SMALL_ASM(code)                                                                 \
  __asm__ volatile(code                                                                     \
                   : "+r"(state)                                                            \
                   :                                                                        \
                   : "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r8", "r9", "r10", "r11", "lr", \
                     "cc", "memory")
// K 8 keeps src in lr and the pixel count in r7 (neither is used by its channel loop).
#define MOTE_SMALL8_PIXEL \
  "push {r7, r12}\n\t" \
  "ldr r11, [r12, #24]\n\t" \
  "ldr lr, [r12, #0]\n\t" \
  "ldr r7, [r12, #8]\n\t" \
  "1:\n\t" \
  "ldr r9, [r12, #12]\n\t" \
  "ldr r0, [lr]\n\t" \
  "ldr r2, [lr, #4]\n\t" \
  "ldr r4, [r12, #4]\n\t" \
  "add lr, lr, r4\n\t" \
  "sxtab16 r1, r9, r0, ror #8\n\t" \
  "sxtab16 r0, r9, r0\n\t" \
  "sxtab16 r3, r9, r2, ror #8\n\t" \
  "sxtab16 r2, r9, r2\n\t" \
  "ldrd r10, r12, [r12, #16]\n\t" \
  "2:\n\t"
#define MOTE_SMALL8_MACS \
  "ldm r10!, {r4, r5, r6, r8, r9}\n\t" \
  "smlad r9, r0, r4, r9\n\t" \
  "smlad r9, r1, r5, r9\n\t" \
  "smlad r9, r2, r6, r9\n\t" \
  "smlad r9, r3, r8, r9\n\t" \
  "ldm r10!, {r4, r5, r6}\n\t"
#define MOTE_SMALL8_OUT \
  "add r5, r5, r9, asr #31\n\t" \
  "smmlar r5, r9, r4, r5\n\t" \
  "asr r5, r5, r6\n\t" \
  "ssat r5, #8, r5\n\t" \
  "strb r5, [r11], #1\n\t"
// Shifted mode: the record's last two words are m and A.
#define MOTE_SMALL8_MACS_SHIFTED \
  "ldm r10!, {r4, r5, r6, r8, r9}\n\t" \
  "smlad r9, r0, r4, r9\n\t" \
  "smlad r9, r1, r5, r9\n\t" \
  "smlad r9, r2, r6, r9\n\t" \
  "smlad r9, r3, r8, r9\n\t" \
  "ldm r10!, {r4, r5}\n\t"
#define MOTE_SMALL8_OUT_SHIFTED \
  "smmla r5, r9, r4, r5\n\t" \
  "ssat r5, #8, r5, asr #10\n\t" \
  "strb r5, [r11], #1\n\t"
#define MOTE_SMALL8_TAIL \
  "cmp r10, r12\n\t" \
  "bne 2b\n\t" \
  "ldr r12, [sp, #4]\n\t" \
  "ldr r9, [r12, #28]\n\t" \
  "add r11, r11, r9\n\t" \
  "subs r7, r7, #1\n\t" \
  "bne 1b\n\t" \
  "pop {r7, r12}\n\t"
#define MOTE_SMALL16_TAIL MOTE_SMALL_PIXEL_TAIL
#define MOTE_SMALL16_PIXEL \
  MOTE_SMALL_PIXEL_HEAD \
  "ldr r0, [lr]\n\t" \
  "ldr r2, [lr, #4]\n\t" \
  "ldr r4, [lr, #8]\n\t" \
  "ldr r8, [lr, #12]\n\t" \
  "add lr, lr, r7\n\t" \
  "str lr, [r12, #0]\n\t" \
  "sxtab16 r1, r9, r0, ror #8\n\t" \
  "sxtab16 r0, r9, r0\n\t" \
  "sxtab16 r3, r9, r2, ror #8\n\t" \
  "sxtab16 r2, r9, r2\n\t" \
  "sxtab16 r5, r9, r4, ror #8\n\t" \
  "sxtab16 r4, r9, r4\n\t" \
  "sxtab16 r6, r9, r8\n\t" \
  "sxtab16 r8, r9, r8, ror #8\n\t" \
  "ldrd r10, r12, [r12, #16]\n\t" \
  "2:\n\t"
#define MOTE_SMALL16_MACS \
  "ldm r10!, {r7, r9, lr}\n\t" \
  "smlad r9, r0, r7, r9\n\t" \
  "smlad r9, r1, lr, r9\n\t" \
  "ldrd r7, lr, [r10], #8\n\t" \
  "smlad r9, r2, r7, r9\n\t" \
  "smlad r9, r3, lr, r9\n\t" \
  "ldrd r7, lr, [r10], #8\n\t" \
  "smlad r9, r4, r7, r9\n\t" \
  "smlad r9, r5, lr, r9\n\t" \
  "ldrd r7, lr, [r10], #8\n\t" \
  "smlad r9, r6, r7, r9\n\t" \
  "smlad r9, r8, lr, r9\n\t" \
  "ldrd r7, lr, [r10], #8\n\t"
#define MOTE_SMALL16_OUT \
  "add lr, lr, r9, asr #31\n\t" \
  "smmlar lr, r9, r7, lr\n\t" \
  "ldr r7, [r10], #4\n\t" \
  "asr lr, lr, r7\n\t" \
  "ssat lr, #8, lr\n\t" \
  "strb lr, [r11], #1\n\t"
// Shifted mode: the last LDRD of MACS loads m and A.
#define MOTE_SMALL16_MACS_SHIFTED MOTE_SMALL16_MACS
#define MOTE_SMALL16_OUT_SHIFTED \
  "smmla lr, r9, r7, lr\n\t" \
  "ssat lr, #8, lr, asr #10\n\t" \
  "strb lr, [r11], #1\n\t"
#define MOTE_SMALL_CASES(K)                                                                \
  if (kShifted && kPairs) {                                                                \
    MOTE_SMALL_ASM(MOTE_SMALL##K##_PIXEL MOTE_SMALL##K##_MACS_SHIFTED                      \
                       MOTE_SMALL##K##_OUT_SHIFTED MOTE_SMALL##K##_MACS_SHIFTED            \
                           MOTE_SMALL##K##_OUT_SHIFTED MOTE_SMALL##K##_TAIL);             \
  } else if (kShifted) {                                                                   \
    MOTE_SMALL_ASM(MOTE_SMALL##K##_PIXEL MOTE_SMALL##K##_MACS_SHIFTED                      \
                       MOTE_SMALL##K##_OUT_SHIFTED MOTE_SMALL##K##_TAIL);                 \
  } else if (kPairs) {                                                                     \
    MOTE_SMALL_ASM(MOTE_SMALL##K##_PIXEL MOTE_SMALL##K##_MACS MOTE_SMALL##K##_OUT          \
                       MOTE_SMALL##K##_MACS MOTE_SMALL##K##_OUT MOTE_SMALL##K##_TAIL);    \
  } else {                                                                                 \
    MOTE_SMALL_ASM(MOTE_SMALL##K##_PIXEL MOTE_SMALL##K##_MACS MOTE_SMALL##K##_OUT          \
                       MOTE_SMALL##K##_TAIL);                                             \
  }
  if (kC == 8) {
    MOTE_SMALL_CASES(8)
  } else {
    MOTE_SMALL_CASES(16)
  }
#undef MOTE_SMALL_CASES
#undef MOTE_SMALL8_PIXEL
#undef MOTE_SMALL8_MACS
#undef MOTE_SMALL8_OUT
#undef MOTE_SMALL8_MACS_SHIFTED
#undef MOTE_SMALL8_OUT_SHIFTED
#undef MOTE_SMALL8_TAIL
#undef MOTE_SMALL16_TAIL
#undef MOTE_SMALL16_PIXEL
#undef MOTE_SMALL16_MACS
#undef MOTE_SMALL16_OUT
#undef MOTE_SMALL16_MACS_SHIFTED
#undef MOTE_SMALL16_OUT_SHIFTED
#undef MOTE_SMALL_ASM
#undef MOTE_SMALL_PIXEL_HEAD
#undef MOTE_SMALL_PIXEL_TAIL
#else
  // The same algorithm in C++.
  const int8_t* src = run.src;
  int8_t* dst = run.dst;
  for (int32_t p = 0; p < run.count; ++p, src += run.src_step, dst += run.dst_skip) {
    uint32_t x[8];
    for (int32_t g = 0; g < kC / 4; ++g) {
      const uint32_t raw = dsp::load_u32(src + 4 * g);
      x[2 * g] = dsp::sxtab16(run.offsets, raw);
      x[2 * g + 1] = dsp::sxtab16_ror8(run.offsets, raw);
    }
    for (const uint32_t* rec = run.rec; rec != run.rec_end;) {
      int32_t acc;
      if (kC == 8) {
        acc = static_cast<int32_t>(rec[4]);
        for (int32_t j = 0; j < 4; ++j) acc = dsp::smlad(x[j], rec[j], acc);
        rec += 5;
      } else {
        acc = dsp::smlad(x[0], rec[0], static_cast<int32_t>(rec[1]));
        for (int32_t j = 1; j < 8; ++j) acc = dsp::smlad(x[j], rec[j + 1], acc);
        rec += 9;
      }
      if (kShifted) {
        const int32_t t = dsp::smmla(acc, static_cast<int32_t>(rec[0]), static_cast<int32_t>(rec[1]));
        *dst++ = static_cast<int8_t>(dsp::ssat8_asr<kSmallShiftR>(t));
        rec += 2;
      } else {
        const int32_t t = static_cast<int32_t>(rec[1]) + (acc >> 31);
        *dst++ = static_cast<int8_t>(dsp::ssat8(dsp::smmlar(acc, static_cast<int32_t>(rec[0]), t) >> rec[2]));
        rec += 3;
      }
    }
  }
#endif
}

// One chunk's records (run: rec, rec_end, offsets, src_step, dst_skip set) over every
// output pixel from output channel o0.
template <int32_t kC, bool kShifted, bool kPairs>
void run_small_rows(SmallRun run, const Conv2dS8Params& params, const Conv2dShape& shape,
                    const int8_t* input, int8_t* output, int32_t o0) {
  if (params.window.stride_h == 1 && params.window.stride_w == 1) {
    run.src = input;
    run.count = shape.batch * shape.out_h * shape.out_w;
    run.dst = output + o0;
    small_run<kC, kShifted, kPairs>(run);
    return;
  }
  int8_t* dst = output + o0;
  for (int32_t b = 0; b < shape.batch; ++b) {
    const int8_t* image = input + b * shape.in_h * shape.in_w * kC;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      run.src = image + oy * params.window.stride_h * shape.in_w * kC;
      run.count = shape.out_w;
      run.dst = dst;
      small_run<kC, kShifted, kPairs>(run);
      dst += shape.out_w * shape.out_c;
    }
  }
}

// The small-channel path over chunks of kSmallChannels output channels, each in shifted
// mode when `relu` and all its channels fit it.
template <int32_t kC>
void run_small(bool relu, bool pairs, const Conv2dS8Params& params, const int32_t* multipliers,
               const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
               const int8_t* filter, const int32_t* bias, int8_t* output, uint32_t* records) {
  const int32_t out_c = shape.out_c;
  for (int32_t o0 = 0; o0 < out_c; o0 += kSmallChannels) {
    const int32_t n = out_c - o0 < kSmallChannels ? out_c - o0 : kSmallChannels;
    const bool shifted =
        build_records(kC, filter, bias, multipliers, shifts, params, o0, n, relu, records);
    SmallRun run{};
    run.src_step = params.window.stride_w * kC;
    run.offsets = conv2d_dsp::offset_pair(-params.input_zero_point);
    run.rec = records;
    run.rec_end = records + n * (small_record_words(kC) - (shifted ? 1 : 0));
    run.dst_skip = out_c - n;
    if (shifted && pairs) {
      run_small_rows<kC, true, true>(run, params, shape, input, output, o0);
    } else if (shifted) {
      run_small_rows<kC, true, false>(run, params, shape, input, output, o0);
    } else if (pairs) {
      run_small_rows<kC, false, true>(run, params, shape, input, output, o0);
    } else {
      run_small_rows<kC, false, false>(run, params, shape, input, output, o0);
    }
  }
}

// A last block of 5 pixels (pixels % 4 == 1, e.g. 3x3 maps) when C % 8 == 0, instead
// of a block of 4 and a single pixel: columns of 5 pixels interleaved like the 4-pixel
// block (word 10g + 2p = (x[4g], x[4g+2]) of pixel p, word 10g + 2p + 1 = (x[4g+1],
// x[4g+3])), and per channel 20 MACs in 16 instructions on DSP cores (one weight word
// split by SXTB16 feeds 10 SMLADs; the columns by LDM / LDRD), the requantization in C++.
constexpr int32_t kFivePixels = 5;

// Only for long columns: with C < 192 the C++ requantization of the 5 outputs costs
// more than the single pixel it saves.
bool five_fits(int32_t c) { return c % 8 == 0 && c >= 192; }
uint32_t five_columns_bytes(int32_t c) { return static_cast<uint32_t>(c / 4) * 40u; }

void expand_five(const int8_t* src, int32_t c, uint32_t offsets, uint32_t* columns,
                 int32_t pixel) {
  uint32_t* dst = columns + 2 * pixel;
  for (int32_t g = 0; g < c / 4; ++g, dst += 10) {
    const uint32_t x = dsp::load_u32(src + 4 * g);
    dst[0] = dsp::sxtab16(offsets, x);
    dst[1] = dsp::sxtab16_ror8(offsets, x);
  }
}

struct FiveMacs {
  int32_t acc[kFivePixels];  // 0: the bias in, the sums out
  const uint32_t* x;         // 20
  const uint32_t* x_end;     // 24
  const int8_t* w;           // 28
};

void five_macs(FiveMacs& f) {
#if MOTE_HAS_DSP
  static_assert(offsetof(FiveMacs, x) == 20 && offsetof(FiveMacs, w) == 28,
                "FiveMacs offsets are hard-coded in five_macs");
  register FiveMacs* state __asm__("r12") = &f;
#define MOTE_FIVE_GROUP \
  "ldr r8, [r7], #4\n\t" \
  "sxtb16 r9, r8, ror #8\n\t" \
  "sxtb16 r8, r8\n\t" \
  "ldm r5!, {r10, r11, r12, lr}\n\t" \
  "smlad r0, r10, r8, r0\n\t" \
  "smlad r0, r11, r9, r0\n\t" \
  "smlad r1, r12, r8, r1\n\t" \
  "smlad r1, lr, r9, r1\n\t" \
  "ldm r5!, {r10, r11, r12, lr}\n\t" \
  "smlad r2, r10, r8, r2\n\t" \
  "smlad r2, r11, r9, r2\n\t" \
  "smlad r3, r12, r8, r3\n\t" \
  "smlad r3, lr, r9, r3\n\t" \
  "ldrd r10, r11, [r5], #8\n\t" \
  "smlad r4, r10, r8, r4\n\t" \
  "smlad r4, r11, r9, r4\n\t"
  __asm__ volatile(
      "push {r7, r12}\n\t"
      "ldm r12, {r0, r1, r2, r3, r4, r5, r6, r7}\n\t"
      "1:\n\t"
      MOTE_FIVE_GROUP MOTE_FIVE_GROUP
      "cmp r5, r6\n\t"
      "bne 1b\n\t"
      "ldr r12, [sp, #4]\n\t"
      "stm r12, {r0, r1, r2, r3, r4}\n\t"
      "pop {r7, r12}\n\t"
      : "+r"(state)
      :
      : "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r8", "r9", "r10", "r11", "lr", "cc",
        "memory");
#undef MOTE_FIVE_GROUP
#else
  const int8_t* w = f.w;
  for (const uint32_t* x = f.x; x != f.x_end; x += 10, w += 4) {
    const uint32_t wv = dsp::load_u32(w);
    const uint32_t we = dsp::sxtb16(wv);
    const uint32_t wo = dsp::sxtb16_ror8(wv);
    for (int32_t i = 0; i < kFivePixels; ++i) {
      f.acc[i] = dsp::smlad(x[2 * i], we, f.acc[i]);
      f.acc[i] = dsp::smlad(x[2 * i + 1], wo, f.acc[i]);
    }
  }
#endif
}

void run_five(const uint32_t* columns, int32_t c, const int8_t* filter, const int32_t* bias,
              int32_t out_c, const conv2d_dsp::OutputQuant& q, int8_t* out) {
  FiveMacs f;
  f.x_end = columns + (c / 4) * 10;
  for (int32_t o = 0; o < out_c; ++o) {
    const int32_t b = bias != nullptr ? bias[o] : 0;
    for (int32_t i = 0; i < kFivePixels; ++i) f.acc[i] = b;
    f.x = columns;
    f.w = filter + o * c;
    five_macs(f);
    const int32_t multiplier = q.multipliers[o];
    const int32_t shift = q.shifts[o];
    if (conv2d_dsp::fast_right_applies(multiplier, shift, q.zero_point)) {
      const int32_t right_minus_1 = ~shift;
      const int32_t high = conv2d_dsp::fast_right_high(right_minus_1, q.zero_point);
      for (int32_t i = 0; i < kFivePixels; ++i) {
        const int32_t v = conv2d_dsp::requantize_fast(f.acc[i], multiplier, high, right_minus_1);
        out[i * out_c + o] = static_cast<int8_t>(clamp_i32(v, q.act_min, q.act_max));
      }
      continue;
    }
    for (int32_t i = 0; i < kFivePixels; ++i) {
      const int32_t v = wrapping_add(multiply_by_quantized_multiplier(f.acc[i], multiplier, shift),
                                     q.zero_point);
      out[i * out_c + o] = static_cast<int8_t>(clamp_i32(v, q.act_min, q.act_max));
    }
  }
}

// The scratch: the columns (or the 5-pixel block's), or the small-channel records.
uint32_t base_scratch_bytes(int32_t in_c) {
  const uint32_t columns =
      five_fits(in_c) ? five_columns_bytes(in_c) : conv2d_dsp::columns_bytes(in_c);
  if (!small_k(in_c)) return columns;
  const uint32_t records = static_cast<uint32_t>(kSmallChannels * small_record_words(in_c)) * 4u;
  return records > columns ? records : columns;
}

}  // namespace

uint32_t conv2d_s8_1x1__dsp_scratch_bytes(int32_t in_c) { return base_scratch_bytes(in_c); }

void conv2d_s8_1x1__dsp(const Conv2dS8Params& params, const int32_t* multipliers,
                        const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                        const int8_t* filter, const int32_t* bias, int8_t* output,
                        uint8_t* scratch) {
  const int32_t c = shape.in_c;
  uint32_t* columns = reinterpret_cast<uint32_t*>(scratch);
  const uint32_t offsets = conv2d_dsp::offset_pair(-params.input_zero_point);
  const conv2d_dsp::OutputQuant quant =
      conv2d_dsp::output_quant(params, multipliers, shifts, shape.out_c);

  const int32_t pixels = shape.batch * shape.out_h * shape.out_w;
  if (small_k(c) && pixels > 0) {
    const SmallQuant small = small_applies(params, multipliers, shifts, bias, shape.out_c);
    if (small.applies) {
      // Two channels per iteration when every chunk has an even channel count.
      const bool pairs = shape.out_c % 2 == 0;
      if (c == 8) {
        run_small<8>(small.relu, pairs, params, multipliers, shifts, shape, input, filter,
                     bias, output, columns);
      } else {
        run_small<16>(small.relu, pairs, params, multipliers, shifts, shape, input, filter,
                      bias, output, columns);
      }
      return;
    }
  }
  if (pixels < kBlockPixels) {
    conv2d_s8(params, multipliers, shifts, shape, input, filter, bias, output);
    return;
  }
  const int32_t out_c = shape.out_c;
  // The last pixels that do not make a block: a last single pixel, or (five_fits) 5,
  // run on their own after the blocks; a last 2 or 3 move the last block back.
  const bool five = five_fits(c);
  const int32_t tail = pixels % kBlockPixels != 1 ? 0 : five ? kFivePixels : 1;
  const int32_t block_pixels = pixels - tail;
  conv2d_1x1_dsp::PixelWalk walk(params, shape, input);
  for (int32_t p = 0; p < block_pixels; p += kBlockPixels) {
    walk.expand_block(p, block_pixels, c, offsets, columns);
    conv2d_dsp::run_block(columns, c, filter, bias, out_c, quant, output + p * out_c);
  }
  int8_t* const out = output + block_pixels * out_c;
  if (tail != 0) walk.seek(block_pixels);
  if (tail == kFivePixels) {
    for (int32_t i = 0; i < kFivePixels; ++i) {
      expand_five(walk.src, c, offsets, columns, i);
      walk.next();
    }
    run_five(columns, c, filter, bias, out_c, quant, out);
  } else if (tail == 1) {
    conv2d_1x1_dsp::run_last_pixel(walk.src, c, offsets, filter, bias, out_c, quant, columns, out);
  }
}

Status conv2d_s8_1x1__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_s8_check_params(ctx, 0));
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dS8Params& p = ctx.params<Conv2dS8Params>();
  if (p.groups != 1 || filter.dims[1] != 1 || filter.dims[2] != 1) return Status::kBadParams;
  if (p.window.pad_top != 0 || p.window.pad_left != 0 || p.window.pad_bottom != 0 || p.window.pad_right != 0) {
    return Status::kBadParams;
  }
  if (filter.dims[3] > 0x7FFFFFFFu) return Status::kBadParams;
  const uint64_t needed = base_scratch_bytes(static_cast<int32_t>(filter.dims[3]));
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < needed || reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s8_1x1__dsp_run(const OpContext& ctx) {
  const Conv2dS8Operands o = conv2d_s8_operands(ctx);
  conv2d_s8_1x1__dsp(o.params, o.multipliers, o.shifts, o.shape, o.input, o.filter, o.bias, o.output,
                     ctx.scratch().data());
}

const KernelEntry kConv2dS81x1DspEntry = {conv2d_s8_1x1__dsp_check, conv2d_s8_1x1__dsp_run};

}  // namespace mote
