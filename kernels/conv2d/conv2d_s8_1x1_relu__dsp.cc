// Armv7E-M DSP int8 pointwise convolution for ReLU-like layers: 1x1 filter, groups == 1,
// no padding, any stride, batch >= 1, act_min >= output zero point, every multiplier in
// conv2d_dsp::fast_applies' range and ceil(C / 4) a multiple of 4 (not C 8 or 16, which
// conv2d_s8_1x1__dsp's small-channel path serves); bit-exact with conv2d_s8. The compiler
// takes it for such layers with at least 16 output pixels in whole blocks
// (conv2d_s8_1x1_relu__dsp_applies); conv2d_s8_1x1__dsp serves every other pointwise
// layer, so a firmware whose pointwise layers are all ReLU-like (kws) links neither that
// kernel's small-channel path nor its general block loops.
// Four output pixels at a time: each one's C input values become an int16 column (input
// offset added) of the interleaved block of conv2d_s8_dsp_block.h, expanded straight from
// the input, then every output channel with a record runs its MAC loop over the block
// (below); channels without one run the block loops of conv2d_s8_dsp_block.h from the
// int8 weights (54 instructions per 64 MACs, 7 per output). A last single pixel runs on
// its own (a contiguous column when C % 16 == 0); a last 2 or 3 move the block back over
// pixels already done. A layer outside the rule (e.g. fewer than 16 pixels in blocks):
// the reference kernel runs.
//
// Scratch: the column block, 32 * ceil(C / 4) bytes, then wide_channels records of
// 8 * ceil(C / 4) + 16 bytes each (params: the reference's, then wide_channels, which the
// compiler plans and grows where the arena has room).
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

// The records path: pixel blocks of 4 (conv2d_s8_dsp_block.h's interleaved columns),
// output channels from records built once per run in scratch (bias', the widened
// weights, the channel's output offset and requantization constants), so that one
// pointer walks them: per channel and block of 4 pixels the MAC loop (11 instructions per
// 16 MACs, the first group adding the bias, 2 per pass of 8 groups), 8 of loop overhead
// and 3 per output (the 8-group pass saves 4 per channel and block over a 4-group one:
// 5,800 per kws 1x1 layer). When the scratch holds only some channels' records
// (wide_channels, at least kMinChunk), the channels run in chunks that fill it, each over
// every block (the columns expanded again per chunk: about 90 instructions per pixel for
// C = 64, less than a chunk's channels save). A channel whose output cannot vary (below)
// takes one word of that space, not a record, and no MAC loop: per block its constant is
// stored to the 4 pixels (trained ReLU networks have such dead channels: 488 of vww's 640
// in its 128-channel layers).
//
// The records' requantization: for every acc the channel can reach, the
// doubled-accumulator requantization without the sign correction (which only changes
// outputs below the zero point, clamped to act_min either way),
//   ssat8((SMMULR(2 acc, m) + R) >> right),  R = 2^(right-1) + zp * 2^right,
// is floor((2 acc m + 2^31 + R 2^32) / 2^(32 + right)); with d = kShiftR - right >= 1,
// k = 1 + d, that is floor((acc 2^k m + A 2^32) / 2^(32 + kShiftR)), A = 2^(d-1) + R 2^d,
// i.e. SSAT #8 (SMMLA(acc 2^k, m, A), ASR #kShiftR): the weights and bias are scaled by
// 2^k (right >= kShiftR - 7 keeps 128 * 2^k within int16; |acc| 2^k < 2^31 over the
// reachable range [bias - span, bias + span], span = C * 255 * 128). A channel whose
// output is the same at both ends of the range it can reach (the exact one from its
// weights; monotone for m >= 0, shift <= 0) is that constant. The few channels that fit
// neither (at most kMaxGeneral per chunk; large
// shifts, huge biases) run block_matmul_fast one by one. A clamp narrower than [-128,
// 127] is applied to the whole output afterwards.
constexpr int kShiftR = 11;
constexpr int32_t kMinChunk = 8;
constexpr int32_t kMaxGeneral = 8;
enum ChannelKind : int32_t { kKindShifted, kKindConstant, kKindGeneral };

// Words of a record: bias, 2 per group, offset, multiplier, A.
int32_t record_words(int32_t c) { return 2 * conv2d_dsp::k_groups(c) + 4; }
// Reachable |acc - bias| bound (c < 2^16: conv2d_s8_1x1_relu__dsp_record_bytes).
uint32_t acc_span(int32_t c) { return static_cast<uint32_t>(c) * 255u * 128u; }

// The reference's output for acc (m >= 0, shift <= 0: requantize_right's one SMLAL).
int32_t channel_output(const Conv2dS8Params& p, int64_t acc, int32_t m, int32_t shift) {
  const auto a = static_cast<int32_t>(acc);
  const int32_t v = shift == 0 ? multiply_by_quantized_multiplier(a, m, 0)
                               : conv2d_dsp::requantize_right(a, m, conv2d_dsp::right_base(~shift), ~shift);
  return clamp_i32(wrapping_add(v, p.output_zero_point), p.act_min, p.act_max);
}

struct ChannelPlan {
  const Conv2dS8Params& p;
  const int32_t* multipliers;
  const int32_t* shifts;
  const int32_t* bias;
  const int8_t* filter;
  int32_t c;
};

// Channel o's kind (every multiplier >= 0, act_min >= output zp).
ChannelKind channel_kind(const ChannelPlan& plan, int32_t o, int32_t* constant) {
  const int32_t m = plan.multipliers[o], shift = plan.shifts[o];
  const int32_t b = plan.bias != nullptr ? plan.bias[o] : 0;
  // |acc| <= mag < 2^32 (|b| <= 2^31, span < 2^31).
  const uint32_t span = acc_span(plan.c);
  const uint32_t mag = (b < 0 ? 0u - static_cast<uint32_t>(b) : static_cast<uint32_t>(b)) + span;
  const int32_t right = -shift;
  // Shifted: the scale 2^k, k = kShiftR + 1 - right in [2, 8].
  if (right >= kShiftR - 7 && right < kShiftR && (mag >> (right + 30 - kShiftR)) == 0) return kKindShifted;
  if (shift > 0) return kKindGeneral;
  // The range [b - span, b + span], else the exact one from the weights.
  int64_t lo = int64_t{b} - span, hi = int64_t{b} + span;
  if (lo < INT32_MIN || hi > INT32_MAX || channel_output(plan.p, lo, m, shift) != channel_output(plan.p, hi, m, shift)) {
    const AccRange range = acc_range(b, plan.filter + o * plan.c, plan.c, 1, plan.p.input_zero_point);
    lo = range.lo;
    hi = range.hi;
    if (lo < INT32_MIN || hi > INT32_MAX) return kKindGeneral;
  }
  *constant = channel_output(plan.p, lo, m, shift);
  return *constant == channel_output(plan.p, hi, m, shift) ? kKindConstant : kKindGeneral;
}

// `words` words of int8 weights from row as (even, odd) int16 pairs times 2^scale (scale
// in [0, 8]) at rec. Each byte w flipped to w + 128 in [0, 255] and zero-extended (an AND
// per half), the word shifted left stays within its halves (255 << 8 < 2^16); a halfwise
// subtract of 128 << scale then gives w << scale: 11 instructions a word with its load,
// store and loop.
void widen_scaled(const int8_t* row, int32_t words, int32_t scale, uint32_t* rec) {
  const uint32_t bias128 = 0x00800080u << scale;
#if MOTE_HAS_DSP
  if (words == 0) return;
  const int8_t* const end = row + 4 * words;
  uint32_t x, even;
  __asm__ volatile(
      "1:\n\t"
      "ldr %[x], [%[row]], #4\n\t"
      "eor %[x], %[x], #0x80808080\n\t"
      "and %[even], %[x], #0x00FF00FF\n\t"
      "lsr %[x], %[x], #8\n\t"
      "and %[x], %[x], #0x00FF00FF\n\t"
      "lsl %[even], %[even], %[scale]\n\t"
      "lsl %[x], %[x], %[scale]\n\t"
      "ssub16 %[even], %[even], %[bias]\n\t"
      "ssub16 %[x], %[x], %[bias]\n\t"
      "strd %[even], %[x], [%[rec]], #8\n\t"
      "cmp %[row], %[end]\n\t"
      "bne 1b\n\t"
      : [x] "=&r"(x), [even] "=&r"(even), [row] "+r"(row), [rec] "+r"(rec)
      : [end] "r"(end), [scale] "r"(scale), [bias] "r"(bias128)
      : "cc", "memory");
#else
  for (int32_t j = 0; j < words; ++j, row += 4, rec += 2) {
    const uint32_t flipped = dsp::load_u32(row) ^ 0x80808080u;
    rec[0] = dsp::ssub16((flipped & 0x00FF00FFu) << scale, bias128);
    rec[1] = dsp::ssub16(((flipped >> 8) & 0x00FF00FFu) << scale, bias128);
  }
#endif
}

// Channel o's record at rec (a shifted channel's); returns the next record.
uint32_t* build_record(const ChannelPlan& plan, int32_t o, uint32_t* rec) {
  const int32_t m = plan.multipliers[o], right = -plan.shifts[o];
  const int32_t b = plan.bias != nullptr ? plan.bias[o] : 0;
  const int32_t scale = kShiftR + 1 - right;
  *rec++ = static_cast<uint32_t>(b) << scale;
  // The weights times 2^scale, (even, odd) int16 pairs per group.
  const int32_t c = plan.c;
  const int8_t* row = plan.filter + o * c;
  widen_scaled(row, c / 4, scale, rec);
  rec += 2 * (c / 4);
  if ((c & 3) != 0) {  // the last, partial group: the taps past c are 0
    int8_t last[4] = {};
    for (int32_t j = 0; j < (c & 3); ++j) last[j] = row[4 * (c / 4) + j];
    widen_scaled(last, 1, scale, rec);
    rec += 2;
  }
  const uint32_t round_zp = (1u << (right - 1)) + (static_cast<uint32_t>(plan.p.output_zero_point) << right);
  const int32_t d = kShiftR - right;
  rec[0] = static_cast<uint32_t>(o);
  rec[1] = static_cast<uint32_t>(m);
  rec[2] = (1u << (d - 1)) + (round_zp << d);
  return rec + 3;
}

// One block of 4 pixels (columns, `groups` groups, a multiple of 4) over the records
// [rec, rec_end): outputs dst[p * out_c + offset].
struct RecordBlock {
  const uint32_t* columns;      // 0
  const uint32_t* columns_end;  // 4
  int8_t* dst;                  // 8
  int32_t out_c;                // 12
  const uint32_t* rec_end;      // 16
};

__attribute__((noinline)) void records_block(const RecordBlock& r, const uint32_t* rec) {
#if MOTE_HAS_DSP
  register const RecordBlock* state __asm__("r12") = &r;
  register const uint32_t* w __asm__("r6") = rec;
  // [sp]: columns, columns_end, dst, out_c, rec_end, entry. Per channel: the first group
  // with the bias (r3) as addend, the rest of the MAC loop (8 groups a pass, entered by
  // LDR PC at entry: after its first group when the groups are a multiple of 8, after its
  // fifth when they leave 4), the offset and constants by one LDM, 4 outputs, the next
  // record.
#define MOTE_PW_CHANNEL_HEAD \
  "ldm r12, {r4, r5, r8, r9, r10}\n\t" \
  "sub r11, r5, r4\n\t" \
  "tst r11, #128\n\t" \
  "adr.w r11, 3f\n\t" \
  "it ne\n\t" \
  "adrne.w r11, 4f\n\t" \
  "orr r11, r11, #1\n\t" \
  "push {r4, r5, r8, r9, r10, r11}\n\t" \
  "2:\n\t" \
  "ldr r3, [r6], #4\n\t" \
  "ldrd r4, r5, [sp]\n\t" \
  "ldrd r10, r8, [r6], #8\n\t" \
  "ldm r4!, {r9, r11, r12, lr}\n\t" \
  "smlad r0, r9, r10, r3\n\t" \
  "smlad r0, r11, r8, r0\n\t" \
  "smlad r1, r12, r10, r3\n\t" \
  "smlad r1, lr, r8, r1\n\t" \
  "ldm r4!, {r9, r11, r12, lr}\n\t" \
  "smlad r2, r9, r10, r3\n\t" \
  "smlad r2, r11, r8, r2\n\t" \
  "smlad r3, r12, r10, r3\n\t" \
  "smlad r3, lr, r8, r3\n\t" \
  "ldr pc, [sp, #20]\n\t" \
  "1:\n\t" \
  MOTE_CONV2D_DSP_WIDE_GROUP \
  "3:\n\t" \
  MOTE_CONV2D_DSP_WIDE_GROUP MOTE_CONV2D_DSP_WIDE_GROUP MOTE_CONV2D_DSP_WIDE_GROUP \
  MOTE_CONV2D_DSP_WIDE_GROUP \
  "4:\n\t" \
  MOTE_CONV2D_DSP_WIDE_GROUP MOTE_CONV2D_DSP_WIDE_GROUP MOTE_CONV2D_DSP_WIDE_GROUP \
  "cmp r4, r5\n\t" \
  "bne 1b\n\t"
#define MOTE_PW_OUTPUTS(offset, out) \
  "ldrd r8, r10, [sp, #8]\n\t" \
  "add r9, r8, " offset "\n\t" \
  out("r0", "[r9]") \
  out("r1", "[r9, r10]") \
  "add r12, r9, r10, lsl #1\n\t" \
  out("r2", "[r12]") \
  out("r3", "[r12, r10]") \
  "ldr r8, [sp, #16]\n\t" \
  "cmp r6, r8\n\t" \
  "bne 2b\n\t" \
  "add sp, sp, #24\n\t"
#define MOTE_PW_SHIFTED(acc, addr) \
  "smmla " acc ", " acc ", r11, lr\n\t" \
  "ssat " acc ", #8, " acc ", asr #11\n\t" \
  "strb " acc ", " addr "\n\t"
#define MOTE_PW_ASM(code)                                                                        \
  __asm__ volatile(code                                                                           \
                   : "+r"(state), "+r"(w)                                                         \
                   :                                                                              \
                   : "r0", "r1", "r2", "r3", "r4", "r5", "r8", "r9", "r10", "r11", "lr", "cc", "memory")
  static_assert(kShiftR == 11, "the asm's SSAT shifts by 11");
  MOTE_PW_ASM(MOTE_PW_CHANNEL_HEAD "ldm r6!, {r9, r11, lr}\n\t" MOTE_PW_OUTPUTS("r9", MOTE_PW_SHIFTED));
#undef MOTE_PW_ASM
#undef MOTE_PW_SHIFTED
#undef MOTE_PW_OUTPUTS
#undef MOTE_PW_CHANNEL_HEAD
#else
  while (rec != r.rec_end) {
    int32_t acc[kBlockPixels];
    for (int32_t i = 0; i < kBlockPixels; ++i) acc[i] = static_cast<int32_t>(rec[0]);
    ++rec;
    for (const uint32_t* a = r.columns; a != r.columns_end; a += 8, rec += 2) {
      for (int32_t i = 0; i < kBlockPixels; ++i) {
        acc[i] = dsp::smlad(a[2 * i + 1], rec[1], dsp::smlad(a[2 * i], rec[0], acc[i]));
      }
    }
    int8_t* const dst = r.dst + rec[0];
    const auto m = static_cast<int32_t>(rec[1]), h = static_cast<int32_t>(rec[2]);
    for (int32_t i = 0; i < kBlockPixels; ++i) {
      dst[i * r.out_c] = static_cast<int8_t>(dsp::ssat8_asr<kShiftR>(dsp::smmla(acc[i], m, h)));
    }
    rec += 3;
  }
#endif
}

// out[0, count) clamped to [lo, hi].
void clamp_output(int8_t* out, int32_t count, int32_t lo, int32_t hi) {
  const uint32_t lo4 = 0x01010101u * static_cast<uint8_t>(lo), hi4 = 0x01010101u * static_cast<uint8_t>(hi);
  int32_t i = 0;
  for (; i + 4 <= count; i += 4) dsp::store_u32(out + i, dsp::min_s8x4(dsp::max_s8x4(dsp::load_u32(out + i), lo4), hi4));
  for (; i < count; ++i) out[i] = static_cast<int8_t>(clamp_i32(out[i], lo, hi));
}

// The channels [first, out_c) without a record, from the int8 weights: the common
// requantization's loop where every channel shares its form and the rows are whole
// 16-byte groups (kws), else the fast one; two instances, not conv2d_dsp::run_block's
// dozen.
void rest_channels(const uint32_t* columns, int32_t c, const int8_t* filter, const int32_t* bias, int32_t out_c,
                   const conv2d_dsp::OutputQuant& q, int8_t* out, int32_t first) {
  const conv2d_dsp::OutputQuant rest = q.from(first);
#if MOTE_HAS_DSP  // the common loop is asm only
  const bool aligned = (c & 15) == 0 && (reinterpret_cast<uintptr_t>(filter) & 3u) == 0;
  if (q.all_common && q.all_normal && aligned && bias != nullptr) {
    conv2d_dsp::block_matmul_common<false, true, true>(columns, c, filter + first * c, bias + first, out_c, rest,
                                                       out + first, out_c - first);
    return;
  }
#endif
  conv2d_dsp::block_matmul_fast<false, false>(columns, c, filter + first * c, bias != nullptr ? bias + first : nullptr,
                                              out_c - first, rest, out + first, out_c);
}

}  // namespace

uint32_t conv2d_s8_1x1_relu__dsp_record_bytes(int32_t in_c) {
  return in_c == 8 || in_c == 16 || !conv2d_dsp::wide_applies(in_c) || in_c >= 65536
             ? 0u
             : static_cast<uint32_t>(record_words(in_c)) * 4u;
}

bool conv2d_s8_1x1_relu__dsp_applies(const Conv2dS8Params& params, const int32_t* multipliers, const Conv2dShape& shape) {
  if (conv2d_s8_1x1_relu__dsp_record_bytes(shape.in_c) == 0 || params.act_min < params.output_zero_point) return false;
  const int64_t pixels = int64_t{shape.batch} * shape.out_h * shape.out_w;
  if (pixels - (pixels % kBlockPixels == 1 ? 1 : 0) < conv2d_dsp::kWideMinPixels) return false;
  for (int32_t o = 0; o < shape.out_c; ++o) {
    if (!conv2d_dsp::fast_applies(multipliers[o], params.output_zero_point)) return false;
  }
  return true;
}

uint32_t conv2d_s8_1x1_relu__dsp_scratch_bytes(int32_t in_c, int32_t wide_channels) {
  return conv2d_dsp::columns_bytes(in_c) + static_cast<uint32_t>(wide_channels) * conv2d_s8_1x1_relu__dsp_record_bytes(in_c);
}

void conv2d_s8_1x1_relu__dsp(const Conv2dS8Params& params, const int32_t* multipliers, const int32_t* shifts,
                             const Conv2dShape& shape, const int8_t* input, const int8_t* filter,
                             const int32_t* bias, int8_t* output, uint8_t* scratch, int32_t wide_channels) {
  const int32_t c = shape.in_c;
  const int32_t out_c = shape.out_c;
  const int32_t pixels = shape.batch * shape.out_h * shape.out_w;
  // Outside its rule (a program the compiler did not write): the reference.
  if (!conv2d_s8_1x1_relu__dsp_applies(params, multipliers, shape)) {
    conv2d_s8(params, multipliers, shifts, shape, input, filter, bias, output);
    return;
  }
  uint32_t* const columns = reinterpret_cast<uint32_t*>(scratch);
  const uint32_t offsets = conv2d_dsp::offset_pair(-params.input_zero_point);
  const conv2d_dsp::OutputQuant quant = conv2d_dsp::output_quant(params, multipliers, shifts, out_c);
  // A last single pixel runs on its own after the blocks; a last 2 or 3 move the last
  // block back.
  const int32_t tail = pixels % kBlockPixels == 1 ? 1 : 0;
  const int32_t block_pixels = pixels - tail;
  conv2d_1x1_dsp::PixelWalk walk(params, shape, input);
  // The records when the scratch holds a chunk of them (at least kMinChunk, or every
  // channel); else every channel from the int8 weights.
  const int32_t chunk = wide_channels < out_c ? wide_channels : out_c;
  const ChannelPlan plan{params, multipliers, shifts, bias, filter, c};
  const bool use_records = (chunk >= kMinChunk || chunk == out_c) && chunk > 0;
  // A second chunk reads the input again after the first wrote its outputs: an output
  // buffer over the input (the placement rule lets it start 4 pixels below) would have
  // overwritten it. Then one pass: the first chunk (records, and the channels without
  // one it met), ending at channel rest; channels [rest, out_c) by rest_channels.
  const auto in_at = reinterpret_cast<uintptr_t>(input), out_at = reinterpret_cast<uintptr_t>(output);
  const bool one_pass = out_at < in_at + static_cast<uintptr_t>(shape.batch * walk.image_step) &&
                        in_at < out_at + static_cast<uintptr_t>(pixels * out_c);
  int32_t rest = use_records ? out_c : 0;
  uint32_t* const records = columns + conv2d_dsp::columns_bytes(c) / 4;
  RecordBlock r{columns, columns + conv2d_dsp::k_groups(c) * 8, nullptr, out_c, nullptr};
  // The records in chunks, in channel order; the channels without one a chunk meets (at
  // most kMaxGeneral per chunk) run by block_matmul_fast.
  int32_t cursor = 0;
  for (bool first = true;; first = false) {
    // Records from the start of the chunk's space up, constants (one word each: offset <<
    // 8 | output byte) from its end down.
    uint32_t* rec = records;
    uint32_t* const space_end = records + chunk * record_words(c);
    uint32_t* constants = space_end;
    int32_t general[kMaxGeneral];
    int32_t generals = 0;
    for (; use_records && generals < kMaxGeneral && cursor < out_c; ++cursor) {
      int32_t constant = 0;
      const ChannelKind kind = channel_kind(plan, cursor, &constant);
      if (kind == kKindGeneral) {
        general[generals++] = cursor;
        continue;
      }
      if ((kind == kKindConstant ? 1 : record_words(c)) > constants - rec) break;
      if (kind == kKindConstant) {
        *--constants = static_cast<uint32_t>(cursor) << 8 | static_cast<uint8_t>(constant);
      } else {
        rec = build_record(plan, cursor, rec);
      }
    }
    if (use_records && one_pass) rest = cursor;
    if (!first && rec == records && constants == space_end && generals == 0) break;
    walk.seek(0);
    for (int32_t p = 0; p < block_pixels; p += kBlockPixels) {
      walk.expand_block(p, block_pixels, c, offsets, columns);
      r.dst = output + p * out_c;
      if (rec != records) {
        r.rec_end = rec;
        records_block(r, records);
      }
      for (const uint32_t* k = constants; k != space_end; ++k) {
        int8_t* const dst = r.dst + (*k >> 8);
        const auto v = static_cast<int8_t>(*k & 0xFFu);
        dst[0] = v;
        dst[out_c] = v;
        dst[2 * out_c] = v;
        dst[3 * out_c] = v;
      }
      if (rest < out_c) rest_channels(columns, c, filter, bias, out_c, quant, r.dst, rest);
      for (int32_t i = 0; i < generals; ++i) {
        const int32_t o = general[i];
        const conv2d_dsp::OutputQuant q{multipliers + o, shifts + o, quant.zero_point, quant.act_min,
                                        quant.act_max, true, false, false};
        conv2d_dsp::block_matmul_fast<false, false>(columns, c, filter + o * c, bias != nullptr ? bias + o : nullptr,
                                                   1, q, r.dst + o, out_c);
      }
    }
    if (!use_records || one_pass) break;
  }
  if (tail != 0) {
    walk.seek(block_pixels);
    int8_t* const out = output + block_pixels * out_c;
    conv2d_1x1_dsp::run_last_pixel(walk.src, c, offsets, filter, bias, out_c, quant, columns, out);
  }
  // The records' SSAT clamps to [-128, 127] only.
  if (use_records && (params.act_min > -128 || params.act_max < 127)) {
    clamp_output(output, block_pixels * out_c, params.act_min, params.act_max);
  }
}

Status conv2d_s8_1x1_relu__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_s8_check_params(ctx, 4));  // then the wide_channels int32
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dS8Params& p = ctx.params<Conv2dS8Params>();
  if (p.groups != 1 || filter.dims[1] != 1 || filter.dims[2] != 1) return Status::kBadParams;
  if (p.window.pad_top != 0 || p.window.pad_left != 0 || p.window.pad_bottom != 0 || p.window.pad_right != 0) {
    return Status::kBadParams;
  }
  const uint32_t out_c = filter.dims[0];
  const int32_t wide_channels = params_array(p, 2, out_c)[0];
  if (wide_channels < 0 || static_cast<uint32_t>(wide_channels) > out_c || filter.dims[3] > 0x7FFFFFFFu) {
    return Status::kBadParams;
  }
  const auto in_c = static_cast<int32_t>(filter.dims[3]);
  const uint32_t unit = conv2d_s8_1x1_relu__dsp_record_bytes(in_c);
  if (unit == 0) return Status::kBadParams;  // C 8 or 16, or a group count the records do not take
  const uint64_t needed = conv2d_dsp::columns_bytes(in_c) + uint64_t{static_cast<uint32_t>(wide_channels)} * unit;
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < needed || reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s8_1x1_relu__dsp_run(const OpContext& ctx) {
  const Conv2dS8Operands o = conv2d_s8_operands(ctx);
  conv2d_s8_1x1_relu__dsp(o.params, o.multipliers, o.shifts, o.shape, o.input, o.filter, o.bias, o.output,
                          ctx.scratch().data(), params_array(o.params, 2, o.shape.out_c)[0]);
}

const KernelEntry kConv2dS81x1ReluDspEntry = {conv2d_s8_1x1_relu__dsp_check, conv2d_s8_1x1_relu__dsp_run};

}  // namespace mote
