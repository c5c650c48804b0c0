// int8 depthwise convolution, 3x3 filter, depth multiplier 1, dilation 1, any stride and
// padding, with the Armv7E-M DSP extension; bit-exact with depthwise_conv2d_s8.
//
// Algorithm (the fast path: horizontal stride 1 or 2, every multiplier above 2^30, and
// every shift negative with the requantization bounds proved, by a quick test in
// fast_path() or else by depthwise_dsp::make_output()):
// - Per channel, a table entry computed by the compiler (make_table(); the op's params
//   carry it after the reference's bytes, check() recomputes it at load): the filter as
//   horizontal tap pairs, doubled, per filter row k: W01 = [2w(k,0), 2w(k,1)],
//   W12 = [2w(k,1), 2w(k,2)] (exact in int16); twice the bias; the requantization
//   constants (mode 1; mode 2 scales further, see below).
// - Input rows are extended into a ring of three slots (input row r lives in slot r mod 3),
//   each row once per image, channel-planar: per channel c and column pair j the word
//   P(j) = [x(2j) + offset, x(2j + 1) + offset]. Padding columns are read from a row of
//   input zero points and padding rows are zeros, so a padded tap contributes w * 0, as the
//   reference's skipping does. Per channel the words are stored by blocks of two pairs:
//   block b holds five ring rows, slots 0, 1, 2 and copies of slots 0 and 1, each with P(2b)
//   and P(2b + 1) of that row; the window rows of an output row whose first row is in slot s
//   are then ring rows s, s + 1, s + 2, at offsets known at compile time from a pointer
//   moved by s ring rows: one pass serves all three slots. Four channels and four columns
//   take 4 LDR, 4 PKHxx, 8 SXTAB16 and 4 STRD (8 for slots 0 and 1). A pair right of the
//   image in the last block reaching into it is zeroed once per run, not per row.
// - Per output row, every channel's outputs in passes of several, the channel loop
//   innermost: stride 1 twelve at a time (two passes of six, the second starting at pair 3
//   of a block), then fours, ending on a five (mode 2 only) or a six where the row leaves
//   one; stride 2 fours, ending on a six where the row leaves one. A filter row costs two
//   instructions per output: with stride 1 and P0 = [x0, x1], P1 = [x2, x3], P2 = ...
//     out0 += SMLAD(P0, W01) + SMLABT(P1, W12)    (x0 w0 + x1 w1, x2 w2)
//     out1 += SMLATB(P0, W01) + SMLAD(P1, W12)    (x1 w0, x2 w1 + x3 w2)
//   and likewise from P1, P2 for out2, out3; with stride 2, out_i += SMLAD(P_i, W01) +
//   SMLABT(P_i+1, W12). The accumulators, started at twice the bias, are twice the
//   reference's; the requantization is then
//     out = ssat8((SMMLAR(acc2, m, round_zp) + (acc2 >> 31)) >> right)
//   where SMMLAR adds SaturatingRoundingDoublingHighMul(acc, m) to round_zp, and the sign
//   of acc2 is the sign of that product because m > 2^30 (acc <= -1 gives a product below
//   -2^30). The correction (acc2 >> 31) changes only outputs of negative accumulators,
//   and those are at most output_zero_point with or without it (the product is then
//   negative, the rounding term below 2^right): when act_min >= output_zero_point both
//   clamp to act_min, and the table takes mode 2 where every channel allows it
//   (shifted_entry()): the filter and bias scaled by 2^(1 + d), d = 10 - right, so that
//     out = SSAT #8 (SMMLA(acc, m, A), ASR #10)
//   with no correction, no register shift and no load of right: two instructions and the
//   STRB per output (mode 1, the table otherwise: four and the STRB). A channel whose
//   output cannot vary (a dead channel, or a right of 10 and more with the output
//   saturated) gets a zero filter and A = out << 10. When [act_min, act_max] is not the
//   whole int8 range, each finished output row is clamped four bytes at a time (SSUB8 /
//   SEL). About 77 instructions per channel and six stride-1 outputs (54 MACs) in mode 2.
// - Narrow rows (kws's 25x5 layers: five columns, padding 1 each side, stride 1, mode 2,
//   C a multiple of 4; narrow_rows()): the ring holds only image columns, per channel and
//   row P0 = [x0, x1], P1 = [x2, x3], P2 = [x4, x3] (in the same ring words, at the same
//   slot stride), filled straight four channels at a time (extend_narrow()); the five
//   outputs take 8 MACs per filter row, the padding taps dropped and out4's two in one
//   SMLADX (narrow_pass()): 52 instructions per channel and output row (45 MACs), about
//   11 per channel and input row for the fill (kws: 104,160 per layer, 1.45 per MAC).
// Other shapes and requantizations take the general tap-by-tap path
// (depthwise_dsp::pixel) for every pixel.
//
// Table (in the params, table_bytes(C) = 4 + 40 * C + round4(C)): a word 2 or 1 when the
// fast path applies in mode 2 or 1 (0 otherwise, and then every other byte 0), the
// per-channel entries (10 words each), the row of C input zero points (rounded up to 4
// with zeros).
// Scratch (4-byte aligned): the ring, 40 * C * B bytes with B = ceil(ceil(Wp / 2) / 2)
// blocks, Wp = (out_w - 1) * stride_w + 3 padded columns. The general path keeps
// make_output()'s table (16 * C bytes) in the ring's space.
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_s8_dsp_common.h"
#include "depthwise_conv2d/depthwise_conv2d_shapes.h"
#include "quant/acc_range.h"
#include "quant/quant_check.h"

#if defined(__GNUC__) && !defined(__clang__)
#define MOTE_DW3X3_NOINLINE __attribute__((noinline))
// GCC's induction-variable pass turns each p + k * step into its own pointer, which then
// spill; without it the loops keep one pointer and register offsets.
#define MOTE_DW3X3_NO_IVOPTS __attribute__((optimize("no-schedule-insns", "no-ivopts")))
#else
#define MOTE_DW3X3_NOINLINE
#define MOTE_DW3X3_NO_IVOPTS
#endif

namespace mote {

namespace {

using depthwise_dsp::Output;

// One channel's table entry (int32 words).
constexpr int32_t kFilterWords = 6;  // W01, W12 of filter rows 0, 1, 2
constexpr int32_t kBias2 = kFilterWords;
constexpr int32_t kRight = 7;
constexpr int32_t kMultiplier = 8;  // then kRoundZp: one LDRD
constexpr int32_t kRoundZp = 9;
constexpr int32_t kEntryWords = 10;
// The table's first word: the general path, the fast path with mode 1's entries (doubled
// filter, requantization with the sign correction) or mode 2's (see shifted_entry()).
constexpr uint32_t kModeGeneral = 0;
constexpr uint32_t kModeSignFix = 1;
constexpr uint32_t kModeShifted = 2;
// Mode 2's requantization ends on SSAT #8 with this ASR (an immediate: one for every layer).
constexpr int kShiftR = 10;  // shifted_entry()'s bounds take kShiftR <= 10
// Two pairs for each of five ring rows: slots 0, 1, 2, then copies of slots 0 and 1, so
// that the window rows of every output row are three consecutive ring rows.
constexpr int32_t kBlockWords = 10;
constexpr int32_t kCopyWords = 6;  // from slot 0 or 1 to its copy

int32_t ring_blocks(const DepthwiseConv2dS8Params& params, const DepthwiseConv2dShape& shape) {
  const int32_t columns = (shape.out_w - 1) * params.window.stride_w + 3;
  const int32_t pairs = (columns + 1) / 2;
  return (pairs + 1) / 2;
}

// Byte offset of pair i of ring row `row` (0..4) from a block-aligned pointer.
constexpr int pair_offset(int row, int i) {
  return 4 * ((i >> 1) * kBlockWords + row * 2 + (i & 1));
}

// Filter row kRow (its input row in ring row kRow from p) of kN outputs added to a0..a5;
// the first output's window starts at pair kBase of the block-aligned p (kBase 3: only for six
// stride-1 outputs, the second half of a twelve). The source order keeps at most two
// input words live (GCC keeps it: no-schedule-insns), so that the channel loop's pointers
// stay in registers.
template <int kStride, int kN, int kRow, int kBase>
inline void filter_row(const uint32_t* p, const uint32_t* entry, int32_t& a0, int32_t& a1,
                       int32_t& a2, int32_t& a3, int32_t& a4, int32_t& a5) {
  uint32_t w01, w12, x0, x1, x2, x3, x4;
  dsp::load2_u32_at<8 * kRow>(entry, w01, w12);
  if constexpr (kStride == 1 && kN >= 5) {  // pairs 0..3 (one LDRD when block-aligned)
    if constexpr (kBase % 2 == 0) {
      dsp::load2_u32_at<pair_offset(kRow, kBase)>(p, x0, x1);
    } else {  // one load per pair: at most two input words live
      x0 = p[pair_offset(kRow, kBase) / 4];
      x1 = p[pair_offset(kRow, kBase + 1) / 4];
    }
    a0 = dsp::smlad(x0, w01, a0);
    a0 = dsp::smlabt(x1, w12, a0);
    a1 = dsp::smlatb(x0, w01, a1);
    a1 = dsp::smlad(x1, w12, a1);
    x2 = p[pair_offset(kRow, kBase + 2) / 4];
    a2 = dsp::smlad(x1, w01, a2);
    a2 = dsp::smlabt(x2, w12, a2);
    a3 = dsp::smlatb(x1, w01, a3);
    a3 = dsp::smlad(x2, w12, a3);
    x3 = p[pair_offset(kRow, kBase + 3) / 4];
    a4 = dsp::smlad(x2, w01, a4);
    a4 = dsp::smlabt(x3, w12, a4);
    if constexpr (kN >= 6) {
      a5 = dsp::smlatb(x2, w01, a5);
      a5 = dsp::smlad(x3, w12, a5);
    }
    return;
  }
  static_assert(kBase == 0 || (kStride == 1 && kN >= 5), "pair base 3: six stride-1 outputs");
  dsp::load2_u32_at<pair_offset(kRow, 0)>(p, x0, x1);
  if constexpr (kStride == 2 && kN == 6) {  // pairs 0..6, one load each after the first two
    a0 = dsp::smlad(x0, w01, a0);
    a0 = dsp::smlabt(x1, w12, a0);
    x2 = p[pair_offset(kRow, 2) / 4];
    a1 = dsp::smlad(x1, w01, a1);
    a1 = dsp::smlabt(x2, w12, a1);
    x3 = p[pair_offset(kRow, 3) / 4];
    a2 = dsp::smlad(x2, w01, a2);
    a2 = dsp::smlabt(x3, w12, a2);
    x4 = p[pair_offset(kRow, 4) / 4];
    a3 = dsp::smlad(x3, w01, a3);
    a3 = dsp::smlabt(x4, w12, a3);
    x0 = p[pair_offset(kRow, 5) / 4];
    a4 = dsp::smlad(x4, w01, a4);
    a4 = dsp::smlabt(x0, w12, a4);
    x1 = p[pair_offset(kRow, 6) / 4];
    a5 = dsp::smlad(x0, w01, a5);
    a5 = dsp::smlabt(x1, w12, a5);
  } else if constexpr (kStride == 1) {
    a0 = dsp::smlad(x0, w01, a0);
    a0 = dsp::smlabt(x1, w12, a0);
    if constexpr (kN >= 2) {
      a1 = dsp::smlatb(x0, w01, a1);
      a1 = dsp::smlad(x1, w12, a1);
    }
    if constexpr (kN >= 3) {
      x2 = p[pair_offset(kRow, 2) / 4];
      a2 = dsp::smlad(x1, w01, a2);
      a2 = dsp::smlabt(x2, w12, a2);
    }
    if constexpr (kN >= 4) {
      a3 = dsp::smlatb(x1, w01, a3);
      a3 = dsp::smlad(x2, w12, a3);
    }
  } else {
    a0 = dsp::smlad(x0, w01, a0);
    a0 = dsp::smlabt(x1, w12, a0);
    if constexpr (kN >= 2) {
      a1 = dsp::smlad(x1, w01, a1);
      if constexpr (kN >= 3) {
        dsp::load2_u32_at<pair_offset(kRow, 2)>(p, x2, x3);
      } else {
        x2 = p[pair_offset(kRow, 2) / 4];
      }
      a1 = dsp::smlabt(x2, w12, a1);
    }
    if constexpr (kN >= 3) {
      a2 = dsp::smlad(x2, w01, a2);
      a2 = dsp::smlabt(x3, w12, a2);
    }
    if constexpr (kN >= 4) {
      x4 = p[pair_offset(kRow, 4) / 4];
      a3 = dsp::smlad(x3, w01, a3);
      a3 = dsp::smlabt(x4, w12, a3);
    }
  }
}

// The requantizations (template argument kRq): kSignFixRq for a table of mode 1,
// kShiftedRq for mode 2 (see shifted_entry()), kEitherRq by the channel's entry (mode 2's
// entries have right 0; only the one- and two-output tails, so that they need no copy per
// mode). acc: the accumulator as the entry scales it; round_zp: mode 1's round_zp or mode
// 2's A.
constexpr int kShiftedRq = 0;
constexpr int kSignFixRq = 1;
constexpr int kEitherRq = 2;

template <int kRq>
inline int32_t requantize(int32_t acc, int32_t multiplier, int32_t round_zp, int32_t right) {
  if constexpr (kRq == kShiftedRq) {
    return dsp::ssat8_asr<kShiftR>(dsp::smmla(acc, multiplier, round_zp));
  } else if constexpr (kRq == kSignFixRq) {
    const int32_t t = dsp::smmlar(acc, multiplier, round_zp) + (acc >> 31);
    return dsp::ssat8(t >> right);
  } else {
    return right == 0 ? requantize<kShiftedRq>(acc, multiplier, round_zp, right)
                      : requantize<kSignFixRq>(acc, multiplier, round_zp, right);
  }
}

// The bytes out[0, count) clamped to [lo, hi] (lo4, hi4: the bounds in each byte).
void clamp_bytes(int8_t* out, int32_t count, uint32_t lo4, uint32_t hi4, int32_t lo, int32_t hi) {
  int32_t i = 0;
  for (; i + 4 <= count; i += 4) {
    dsp::store_u32(out + i, dsp::min_s8x4(dsp::max_s8x4(dsp::load_u32(out + i), lo4), hi4));
  }
  for (; i < count; ++i) out[i] = static_cast<int8_t>(clamp_i32(out[i], lo, hi));
}

// kN (1..4, or 5, 6 with stride 1) outputs of one channel: p is the block-aligned ring
// pointer (the first window starts at its pair kBase), entry the channel's table entry,
// out the first output, step the bytes between horizontally adjacent outputs.
template <int kStride, int kN, int kBase, int kRq>
MOTE_DW3X3_NO_IVOPTS inline void outputs(const uint32_t* p, const uint32_t* entry, int32_t step,
                                         int8_t* out) {
  const int32_t bias2 = static_cast<int32_t>(entry[kBias2]);
  int32_t a0 = bias2, a1 = bias2, a2 = bias2, a3 = bias2, a4 = bias2, a5 = bias2;
  filter_row<kStride, kN, 0, kBase>(p, entry, a0, a1, a2, a3, a4, a5);
  filter_row<kStride, kN, 1, kBase>(p, entry, a0, a1, a2, a3, a4, a5);
  filter_row<kStride, kN, 2, kBase>(p, entry, a0, a1, a2, a3, a4, a5);
  uint32_t m, rz;
  dsp::load2_u32_at<4 * kMultiplier>(entry, m, rz);
  const int32_t right = kRq == kShiftedRq ? 0 : static_cast<int32_t>(entry[kRight]);
  const int32_t multiplier = static_cast<int32_t>(m), round_zp = static_cast<int32_t>(rz);
  out[0] = static_cast<int8_t>(requantize<kRq>(a0, multiplier, round_zp, right));
  if constexpr (kN >= 2) {
    out[step] = static_cast<int8_t>(requantize<kRq>(a1, multiplier, round_zp, right));
  }
  if constexpr (kN >= 3) {
    out += 2 * step;
    out[0] = static_cast<int8_t>(requantize<kRq>(a2, multiplier, round_zp, right));
  }
  if constexpr (kN >= 4) {
    out[step] = static_cast<int8_t>(requantize<kRq>(a3, multiplier, round_zp, right));
  }
  if constexpr (kN >= 5) {
    out += 2 * step;
    out[0] = static_cast<int8_t>(requantize<kRq>(a4, multiplier, round_zp, right));
  }
  if constexpr (kN >= 6) {
    out[step] = static_cast<int8_t>(requantize<kRq>(a5, multiplier, round_zp, right));
  }
}

// kN outputs of every channel at `count` places `advance` ring words apart (out_advance
// output bytes apart): p, entry, out as for channel 0 at the first place.
template <int kStride, int kN, int kBase, int kRq>
MOTE_DW3X3_NO_IVOPTS void channels_pass(const uint32_t* p, int32_t chan_words,
                                        const uint32_t* table, int32_t channels, int32_t count,
                                        int32_t advance, int32_t out_advance, int8_t* out) {
  for (int32_t i = 0; i < count; ++i) {
    const uint32_t* pc = p;
    const uint32_t* entry = table;
    int8_t* oc = out;
    int8_t* const end = out + channels;
    do {
      outputs<kStride, kN, kBase, kRq>(pc, entry, channels, oc);
      pc += chan_words;
      entry += kEntryWords;
      ++oc;
    } while (oc != end);
    p += advance;
    out += out_advance;
  }
}

// One output row, every channel. ring: the ring's first word; chan_words: words per
// channel in the ring; out_row: the row's first output. Stride 1 takes twelve outputs at
// a time as two passes of six (fewer loads and channel-loop turns per output than four),
// then fours, and ends with five or six in one pass where the row leaves five or six;
// stride 2 takes fours and ends with a six where the row leaves six.
template <int kStride, int kRq>
void row_pass(const uint32_t* ring, int32_t chan_words, const uint32_t* table, int32_t channels,
              int32_t out_w, int8_t* out_row) {
  constexpr int32_t kAdvance = kStride == 1 ? kBlockWords : 2 * kBlockWords;  // per 4 outputs
  int32_t left = out_w;
  if constexpr (kStride == 1) {
    const int32_t twelves = left / 12;
    if (twelves > 0) {
      channels_pass<1, 6, 0, kRq>(ring, chan_words, table, channels, twelves, 3 * kBlockWords,
                                       12 * channels, out_row);
      channels_pass<1, 6, 3, kRq>(ring, chan_words, table, channels, twelves, 3 * kBlockWords,
                                       12 * channels, out_row + 6 * channels);
      ring += twelves * 3 * kBlockWords;
      out_row += twelves * 12 * channels;
      left -= twelves * 12;
    }
  }
  int32_t quads = left >> 2;
  int32_t tail = left & 3;
  // End on a five or a six (stride 2: a six only; sixes throughout cost more than fours;
  // the five only in mode 2, for code size: mode 1 ends on a four and a one).
  if (quads > 0 && (tail == 2 || (kStride == 1 && kRq == kShiftedRq && tail == 1))) {
    --quads;
    tail += 4;
  }
  if (quads > 0) {
    channels_pass<kStride, 4, 0, kRq>(ring, chan_words, table, channels, quads, kAdvance,
                                           4 * channels, out_row);
  }
  ring += quads * kAdvance;
  out_row += quads * 4 * channels;
  switch (tail) {
    case 1:
      channels_pass<kStride, 1, 0, kEitherRq>(ring, chan_words, table, channels, 1, 0, 0, out_row);
      break;
    case 2:
      channels_pass<kStride, 2, 0, kEitherRq>(ring, chan_words, table, channels, 1, 0, 0, out_row);
      break;
    case 3:
      channels_pass<kStride, 3, 0, kRq>(ring, chan_words, table, channels, 1, 0, 0, out_row);
      break;
    case 5:
      if constexpr (kStride == 1 && kRq == kShiftedRq) {
        channels_pass<1, 5, 0, kRq>(ring, chan_words, table, channels, 1, 0, 0, out_row);
      }
      break;
    case 6:
      channels_pass<kStride, 6, 0, kRq>(ring, chan_words, table, channels, 1, 0, 0, out_row);
      break;
    default:
      break;
  }
}

using RowPass = void (*)(const uint32_t*, int32_t, const uint32_t*, int32_t, int32_t, int8_t*);

// Mode 1 requantizes with the sign correction, mode 2 without one (its table exists only
// when act_min >= output_zero_point: see shifted_entry()).
RowPass row_pass_for(const DepthwiseConv2dS8Params& params, uint32_t mode) {
  if (mode == kModeShifted) {
    return params.window.stride_w == 1 ? row_pass<1, kShiftedRq> : row_pass<2, kShiftedRq>;
  }
  return params.window.stride_w == 1 ? row_pass<1, kSignFixRq> : row_pass<2, kSignFixRq>;
}

// Stores lo, hi at d[0], d[1] and, for a slot with a copy (kCopy), at the copy's words;
// then advances d by kStepBytes.
template <bool kCopy, int kStepBytes>
inline void put2(uint32_t*& d, uint32_t lo, uint32_t hi) {
  if constexpr (kCopy) dsp::store2_u32_at<4 * kCopyWords>(d, lo, hi);
  dsp::store2_u32_advance<kStepBytes>(d, lo, hi);
}

template <bool kCopy>
inline void put1(uint32_t* d, uint32_t v) {
  if constexpr (kCopy) d[kCopyWords] = v;
  d[0] = v;
}

// The ring word of pair j of channel c in the slot.
inline uint32_t* ring_word(uint32_t* ring, int32_t chan_words, int32_t c, int32_t slot,
                           int32_t j) {
  return ring + c * chan_words + (j >> 1) * kBlockWords + slot * 2 + (j & 1);
}

// One block of channels [0, channels_end) (a positive multiple of four), four at a time: s0..s3
// point at the block's four columns (byte 0; a padding column at input zero points, which
// extend to 0), d at channel 0's ring words of the block. kCopy: the slot has a copy.
template <bool kCopy>
MOTE_DW3X3_NO_IVOPTS MOTE_DW3X3_NOINLINE void extend_edge_block(
    const int8_t* s0, const int8_t* s1, const int8_t* s2, const int8_t* s3, int32_t channels_end,
    uint32_t offset2, uint32_t* d, int32_t chan_words) {
  const int8_t* const end = s0 + channels_end;
  do {
    const uint32_t x0 = dsp::load_u32(s0);
    const uint32_t x1 = dsp::load_u32(s1);
    s0 += 4;
    s1 += 4;
    const uint32_t lo01 = dsp::pack_lo_lo(x0, x1);
    const uint32_t hi01 = dsp::pkhtb_hi_hi(x0, x1);
    const uint32_t x2 = dsp::load_u32(s2);
    const uint32_t x3 = dsp::load_u32(s3);
    s2 += 4;
    s3 += 4;
    const uint32_t lo23 = dsp::pack_lo_lo(x2, x3);
    const uint32_t hi23 = dsp::pkhtb_hi_hi(x2, x3);
    put2<kCopy, 0>(d, dsp::sxtab16(offset2, lo01), dsp::sxtab16(offset2, lo23));
    d += chan_words;
    put2<kCopy, 0>(d, dsp::sxtab16_ror8(offset2, lo01), dsp::sxtab16_ror8(offset2, lo23));
    d += chan_words;
    put2<kCopy, 0>(d, dsp::sxtab16(offset2, hi01), dsp::sxtab16(offset2, hi23));
    d += chan_words;
    put2<kCopy, 0>(d, dsp::sxtab16_ror8(offset2, hi01), dsp::sxtab16_ror8(offset2, hi23));
    d += chan_words;
  } while (s0 != end);
}

// The first pair only of an edge block whose second pair lies right of the image (left
// at zero from the start of the run): s0, s1 point at its two columns, d, kCopy as above.
template <bool kCopy>
MOTE_DW3X3_NO_IVOPTS MOTE_DW3X3_NOINLINE void extend_edge_pair(const int8_t* s0,
                                                              const int8_t* s1,
                                                              int32_t channels_end,
                                                              uint32_t offset2, uint32_t* d,
                                                              int32_t chan_words) {
  const int8_t* const end = s0 + channels_end;
  do {
    const uint32_t x0 = dsp::load_u32(s0);
    const uint32_t x1 = dsp::load_u32(s1);
    s0 += 4;
    s1 += 4;
    const uint32_t lo01 = dsp::pack_lo_lo(x0, x1);
    const uint32_t hi01 = dsp::pkhtb_hi_hi(x0, x1);
    put1<kCopy>(d, dsp::sxtab16(offset2, lo01));
    put1<kCopy>(d + chan_words, dsp::sxtab16_ror8(offset2, lo01));
    d += 2 * chan_words;
    put1<kCopy>(d, dsp::sxtab16(offset2, hi01));
    put1<kCopy>(d + chan_words, dsp::sxtab16_ror8(offset2, hi01));
    d += 2 * chan_words;
  } while (s0 != end);
}

// `count` (>= 1) full blocks of channels c..c+3 (src: byte c of the first block's first
// column) into their ring words from d0 (channel c) on; kCopy as above.
template <bool kCopy>
MOTE_DW3X3_NO_IVOPTS MOTE_DW3X3_NOINLINE void extend_full_blocks(
    const int8_t* src, int32_t count, int32_t channels, uint32_t offset2, uint32_t* d0,
    int32_t chan_words) {
  uint32_t* d1 = d0 + chan_words;
  uint32_t* d2 = d1 + chan_words;
  uint32_t* d3 = d2 + chan_words;
  const int32_t pair_step = 2 * channels;
  do {
    const uint32_t x0 = dsp::load_u32(src);
    const uint32_t x1 = dsp::load_u32(src + channels);
    src += pair_step;
    const uint32_t lo01 = dsp::pack_lo_lo(x0, x1);  // bytes c, c+1 of columns 0, 1
    const uint32_t hi01 = dsp::pkhtb_hi_hi(x0, x1);  // bytes c+2, c+3
    const uint32_t x2 = dsp::load_u32(src);
    const uint32_t x3 = dsp::load_u32(src + channels);
    src += pair_step;
    const uint32_t lo23 = dsp::pack_lo_lo(x2, x3);
    const uint32_t hi23 = dsp::pkhtb_hi_hi(x2, x3);
    put2<kCopy, 4 * kBlockWords>(d0, dsp::sxtab16(offset2, lo01), dsp::sxtab16(offset2, lo23));
    put2<kCopy, 4 * kBlockWords>(d1, dsp::sxtab16_ror8(offset2, lo01),
                                 dsp::sxtab16_ror8(offset2, lo23));
    put2<kCopy, 4 * kBlockWords>(d2, dsp::sxtab16(offset2, hi01), dsp::sxtab16(offset2, hi23));
    put2<kCopy, 4 * kBlockWords>(d3, dsp::sxtab16_ror8(offset2, hi01),
                                 dsp::sxtab16_ror8(offset2, hi23));
  } while (--count != 0);
}

// Zeros a padding row's ring words, in memory order: d points at the slot's words of
// channel 0, block 0, and `count` (>= 1) blocks follow every 4 * kBlockWords bytes (all
// channels' blocks: those all padding already hold zeros); kCopy: the slot's copy too.
template <bool kCopy>
MOTE_DW3X3_NO_IVOPTS MOTE_DW3X3_NOINLINE void zero_slot(uint32_t* d, int32_t count) {
  auto one = [&d]() {
    if constexpr (kCopy) dsp::store2_u32_at<4 * kCopyWords>(d, 0, 0);
    dsp::store2_u32_advance<4 * kBlockWords>(d, 0, 0);
  };
  if ((count & 1) != 0) one();
  for (count >>= 1; count != 0; --count) {
    one();
    one();
  }
}

// What extend_row() needs of the run, computed once: blocks [0, first) and [full, live)
// are edge blocks (a column outside the image: read from zp_row, C input zero points),
// [first, full) full blocks (four columns inside the image); blocks from live on are all
// padding (zero since the start of the run).
struct RowFill {
  const int8_t* zp_row;
  uint32_t* ring;
  int32_t channels, in_w, pad_left, chan_words;
  int32_t first, full, live, groups_end;
  int32_t input_offset;
  uint32_t offset2;  // input_offset in each halfword
};

RowFill row_fill(const DepthwiseConv2dS8Params& params, const DepthwiseConv2dShape& shape,
                 int32_t live, int32_t chan_words, const int8_t* zp_row, uint32_t* ring) {
  RowFill f;
  f.zp_row = zp_row;
  f.ring = ring;
  f.channels = shape.in_c;
  f.in_w = shape.in_w;
  f.pad_left = params.window.pad_left;
  f.chan_words = chan_words;
  f.live = live;
  f.first = (f.pad_left + 3) / 4;
  f.full = shape.in_w + f.pad_left - 4 >= 0 ? (shape.in_w + f.pad_left - 4) / 4 + 1 : 0;
  if (f.full > live) f.full = live;
  if (f.full < f.first) f.full = f.first;
  f.groups_end = shape.in_c & ~3;
  f.input_offset = -params.input_zero_point;
  f.offset2 = dsp::pack16(f.input_offset, f.input_offset);
  return f;
}

// Edge block b of `row`: its columns outside the image read from zp_row.
void extend_edge(const RowFill& f, const int8_t* row, int32_t b, int32_t slot, bool copy) {
  const int32_t x = 4 * b - f.pad_left;
  auto column = [&](int32_t k) {
    return static_cast<uint32_t>(x + k) < static_cast<uint32_t>(f.in_w) ? row + (x + k) * f.channels
                                                                        : f.zp_row;
  };
  uint32_t* const d = ring_word(f.ring, f.chan_words, 0, slot, 2 * b);
  if (x + 2 >= f.in_w) {  // the block's second pair is padding: zero since the start
    (copy ? extend_edge_pair<true> : extend_edge_pair<false>)(column(0), column(1), f.groups_end,
                                                              f.offset2, d, f.chan_words);
  } else {
    (copy ? extend_edge_block<true> : extend_edge_block<false>)(column(0), column(1), column(2),
                                                                column(3), f.groups_end,
                                                                f.offset2, d, f.chan_words);
  }
}

// Extends input row iy (zeros outside the image) into the slot and, when `copy` (slots 0
// and 1), into the slot's copy: the live blocks' pairs (the others, all padding, hold
// zeros written once per run).
MOTE_DW3X3_NOINLINE void extend_row(const RowFill& f, const int8_t* image, int32_t in_h,
                                    int32_t iy, int32_t slot) {
  const bool copy = slot < 2;
  const int32_t channels = f.channels;
  if (iy < 0 || iy >= in_h) {
    (copy ? zero_slot<true> : zero_slot<false>)(f.ring + 2 * slot,
                                                channels * (f.chan_words / kBlockWords));
    return;
  }
  const int8_t* const row = image + iy * f.in_w * channels;
  if (f.groups_end > 0) {
    for (int32_t b = 0; b < f.first && b < f.live; ++b) extend_edge(f, row, b, slot, copy);
    for (int32_t b = f.full; b < f.live; ++b) extend_edge(f, row, b, slot, copy);
    // Full blocks: four channels and four columns at a time.
    if (f.first < f.full) {
      const int8_t* src = row + (4 * f.first - f.pad_left) * channels;
      uint32_t* d = ring_word(f.ring, f.chan_words, 0, slot, 2 * f.first);
      for (int32_t c = 0; c < f.groups_end; c += 4) {
        (copy ? extend_full_blocks<true>
              : extend_full_blocks<false>)(src, f.full - f.first, channels, f.offset2, d,
                                           f.chan_words);
        src += 4;
        d += 4 * f.chan_words;
      }
    }
  }
  // Channels past the last multiple of four, one element at a time.
  const int32_t input_offset = f.input_offset;
  for (int32_t c = f.groups_end; c < channels; ++c) {
    for (int32_t j = 0; j < 2 * f.live; ++j) {
      const int32_t x = 2 * j - f.pad_left;
      const int32_t v0 = x >= 0 && x < f.in_w ? row[x * channels + c] + input_offset : 0;
      const int32_t v1 =
          x + 1 >= 0 && x + 1 < f.in_w ? row[(x + 1) * channels + c] + input_offset : 0;
      uint32_t* const d = ring_word(f.ring, f.chan_words, c, slot, j);
      *d = dsp::pack16(v0, v1);
      if (copy) d[kCopyWords] = *d;
    }
  }
}

// Narrow rows (kws's 25x5x64 layers): five columns, five outputs (stride 1, one padding
// column each side), mode 2, C a multiple of 4. A row's ring words per channel are three
// pairs of its image columns, no padding column: P0 = [x0, x1], P1 = [x2, x3] and
// P2 = [x4, x3] (+ offset). Per filter row the five outputs take 8 MACs instead of the
// blocks' 10 (the padding taps dropped, out4's two taps in one SMLADX):
//   out0 += SMLAD(P0, W12)                        (x0 w1 + x1 w2)
//   out1 += SMLAD(P0, W01) + SMLABT(P1, W12)      (x0 w0 + x1 w1, x2 w2)
//   out2 += SMLATB(P0, W01) + SMLAD(P1, W12)      (x1 w0, x2 w1 + x3 w2)
//   out3 += SMLAD(P1, W01) + SMLABT(P2, W12)      (x2 w0 + x3 w1, x4 w2)
//   out4 += SMLADX(P2, W01)                       (x4 w1 + x3 w0)
// and two loads (LDR, LDRD). A channel's ring words (its 20 words of B = 2 blocks): P0, P1
// of ring row r at words 2r, 2r + 1 and P2 at word 10 + 2r, ring rows 0..4 as the blocks'
// (slots 0, 1, 2, copies of slots 0 and 1), so that the row passes' pointer (the ring +
// 2 * slot words) serves both layouts; twice the bias sits in free ring words beside row
// 2's P2 (narrow_biases()). Per channel and output row 52 instructions (24 MACs, 15
// requantize + store, 10 loads, 3 loop), per four channels and input row 43 (fill).
bool narrow_rows(const DepthwiseConv2dS8Params& params, const DepthwiseConv2dShape& shape,
                 uint32_t mode) {
  return shape.in_w == 5 && shape.out_w == 5 && params.window.stride_w == 1 &&
         params.window.pad_left == 1 && mode == kModeShifted && (shape.in_c & 3) == 0;
}

constexpr int32_t kNarrowChanWords = 2 * kBlockWords;
constexpr int32_t kNarrowP2 = 10;  // words from a ring row's P0 to its P2
// Twice the channel's bias beside ring row 2's P2 from the pass pointer (so one LDRD loads
// both): ring words 15, 17, 19 (free: the P2s take the even words), written once per run.
constexpr int32_t kNarrowBias = kNarrowP2 + 2 * 2 + 1;

// Each channel's twice-bias (entry word kBias2) into its ring words kNarrowBias + 2 * slot.
MOTE_DW3X3_NOINLINE void narrow_biases(uint32_t* ring, const uint32_t* entry,
                                       int32_t channels) {
  do {
    const uint32_t bias2 = entry[kBias2];
    ring[kNarrowBias] = ring[kNarrowBias + 2] = ring[kNarrowBias + 4] = bias2;
    ring += kNarrowChanWords;
    entry += kEntryWords;
  } while (--channels != 0);
}

// Filter row kRow of the five outputs (ring row kRow from p) added to a0..a4; entry
// points at the channel's multiplier (the entry's last words, loaded with the step to the
// next channel's). Row 0's P0, P1 load steps p to the next channel.
template <int kRow>
inline void narrow_filter_row(const uint32_t*& p, const uint32_t* entry, uint32_t p2,
                              int32_t& a0, int32_t& a1, int32_t& a2, int32_t& a3, int32_t& a4) {
  uint32_t w01, w12, x0, x1 = p2;  // P2 first: at most two words live
  dsp::load2_u32_at<8 * kRow - 4 * kMultiplier>(entry, w01, w12);
  a4 = dsp::smladx(x1, w01, a4);
  a3 = dsp::smlabt(x1, w12, a3);
  if constexpr (kRow == 0) {
    dsp::load2_u32_step<4 * kNarrowChanWords>(p, x0, x1);
  } else {
    dsp::load2_u32_at<8 * kRow>(p, x0, x1);
  }
  a0 = dsp::smlad(x0, w12, a0);
  a1 = dsp::smlad(x0, w01, a1);
  a1 = dsp::smlabt(x1, w12, a1);
  a2 = dsp::smlatb(x0, w01, a2);
  a2 = dsp::smlad(x1, w12, a2);
  a3 = dsp::smlad(x1, w01, a3);
}

// One output row's five outputs of every channel (a RowPass): p at channel 0's ring row
// of the window's first row, out at the row's first output.
MOTE_DW3X3_NO_IVOPTS void narrow_pass(const uint32_t* p, int32_t /*chan_words*/,
                                      const uint32_t* entry, int32_t channels,
                                      int32_t /*out_w*/, int8_t* out) {
  int8_t* const end = out + channels;
  entry += kMultiplier;
  do {
    uint32_t p2, b;
    dsp::load2_u32_at<4 * (kNarrowBias - 1)>(p, p2, b);  // ring row 2's P2, twice the bias
    const int32_t bias2 = static_cast<int32_t>(b);
    int32_t a0 = bias2, a1 = bias2, a2 = bias2, a3 = bias2, a4 = bias2;
    narrow_filter_row<2>(p, entry, p2, a0, a1, a2, a3, a4);
    narrow_filter_row<1>(p, entry, p[kNarrowP2 + 2], a0, a1, a2, a3, a4);
    narrow_filter_row<0>(p, entry, p[kNarrowP2], a0, a1, a2, a3, a4);
    uint32_t m, rz;
    dsp::load2_u32_step<4 * kEntryWords>(entry, m, rz);
    const int32_t multiplier = static_cast<int32_t>(m), round_zp = static_cast<int32_t>(rz);
    dsp::store5_s8_strided_advance(out, channels,
                                   requantize<kShiftedRq>(a0, multiplier, round_zp, 0),
                                   requantize<kShiftedRq>(a1, multiplier, round_zp, 0),
                                   requantize<kShiftedRq>(a2, multiplier, round_zp, 0),
                                   requantize<kShiftedRq>(a3, multiplier, round_zp, 0),
                                   requantize<kShiftedRq>(a4, multiplier, round_zp, 0));
  } while (out != end);
}

// Channel kChan's (of four from d) P0, P1 (kPair 0, one STRD) or P2 (kPair 2) into its
// ring row at d and at dc (the copy's, or d again for slot 2).
template <int kChan, int kPair>
inline void narrow_put(uint32_t* d, uint32_t* dc, uint32_t lo, uint32_t hi) {
  if constexpr (kPair == 0) {
    constexpr int kAt = 4 * kNarrowChanWords * kChan;
    dsp::store2_u32_at<kAt>(d, lo, hi);
    dsp::store2_u32_at<kAt>(dc, lo, hi);
  } else {
    constexpr int kAt = kNarrowChanWords * kChan + kNarrowP2;
    d[kAt] = lo;
    dc[kAt] = lo;
  }
}

// Input row iy (zeros outside the image) into ring row `slot` of every channel and, for
// slots 0 and 1, its copy. Four channels take 5 LDR, 6 PKHxx, 12 SXTAB16,
// 8 STRD + 8 STR (half of them the copy's, for slot 2 the same words again) and 4 for the
// loop: 43. In this order (P2 first, every column address a register offset before the
// post-increments) 13 registers suffice: no spill, no address temporary (GCC 12).
MOTE_DW3X3_NO_IVOPTS MOTE_DW3X3_NOINLINE void extend_narrow(const RowFill& f,
                                                           const int8_t* image, int32_t in_h,
                                                           int32_t iy, int32_t slot) {
  int32_t channels = f.channels;
  uint32_t* d = f.ring + 2 * slot;
  uint32_t* dc = slot < 2 ? d + kCopyWords : d;
  if (iy < 0 || iy >= in_h) {
    do {
      narrow_put<0, 0>(d, dc, 0, 0);
      narrow_put<0, 2>(d, dc, 0, 0);
      d += kNarrowChanWords;
      dc += kNarrowChanWords;
    } while (--channels != 0);
    return;
  }
  const int32_t step = channels;
  const uint32_t offset2 = f.offset2;
  const int8_t* src = image + iy * 5 * channels;
  const int8_t* const end = src + channels;
  const int8_t* src2 = src + 2 * step;  // column 2
  do {
    const uint32_t x3 = dsp::load_u32(src2 + step);
    const uint32_t x4 = dsp::load_u32(src2 + 2 * step);
    const uint32_t x2 = dsp::load_u32(src2);
    src2 += 4;
    const uint32_t lo43 = dsp::pack_lo_lo(x4, x3), hi43 = dsp::pkhtb_hi_hi(x4, x3);
    narrow_put<0, 2>(d, dc, dsp::sxtab16(offset2, lo43), 0);
    narrow_put<1, 2>(d, dc, dsp::sxtab16_ror8(offset2, lo43), 0);
    narrow_put<2, 2>(d, dc, dsp::sxtab16(offset2, hi43), 0);
    narrow_put<3, 2>(d, dc, dsp::sxtab16_ror8(offset2, hi43), 0);
    const uint32_t x1 = dsp::load_u32(src + step);
    const uint32_t x0 = dsp::load_u32(src);
    src += 4;
    const uint32_t lo01 = dsp::pack_lo_lo(x0, x1), hi01 = dsp::pkhtb_hi_hi(x0, x1);
    const uint32_t lo23 = dsp::pack_lo_lo(x2, x3), hi23 = dsp::pkhtb_hi_hi(x2, x3);
    narrow_put<0, 0>(d, dc, dsp::sxtab16(offset2, lo01), dsp::sxtab16(offset2, lo23));
    narrow_put<1, 0>(d, dc, dsp::sxtab16_ror8(offset2, lo01), dsp::sxtab16_ror8(offset2, lo23));
    narrow_put<2, 0>(d, dc, dsp::sxtab16(offset2, hi01), dsp::sxtab16(offset2, hi23));
    narrow_put<3, 0>(d, dc, dsp::sxtab16_ror8(offset2, hi01), dsp::sxtab16_ror8(offset2, hi23));
    d += 4 * kNarrowChanWords;
    dc += 4 * kNarrowChanWords;
  } while (src != end);
}

// Whether the fast path applies: horizontal stride 1 or 2, every multiplier above 2^30,
// and the requantization bounds proved by the quick test below or else by make_output()
// (channel by channel, into a one-entry table on the stack: no scratch is written). The
// quick test: with |bias| < 2^29, |acc| < 2^29 + 9 * 128 * 255, so 2 * acc fits int32 and
// |y| <= |acc| + 1; a shift in [-right_max, -1] keeps 2^(right - 1) + |zp << right| below
// 2^30, so the rounding sum stays below 2^31.
bool fast_path(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
               const int32_t* shifts, const int32_t* bias, int32_t channels) {
  if (params.window.stride_w != 1 && params.window.stride_w != 2) return false;
  // right <= right_max keeps (2 |zp| + 1) << (right - 1), i.e. round + |zp << right|, below 2^30.
  const uint64_t zp_bound = 2u * static_cast<uint64_t>(params.output_zero_point < 0
                                                           ? -int64_t{params.output_zero_point}
                                                           : int64_t{params.output_zero_point}) +
                            1u;
  int32_t right_max = 0;
  while (right_max < 31 && (zp_bound << right_max) < (uint64_t{1} << 30)) ++right_max;
  bool quick = true;
  for (int32_t c = 0; c < channels; ++c) {
    const int32_t shift = shifts[c];
    const int32_t b = bias != nullptr ? bias[c] : 0;
    if (multipliers[c] <= (int32_t{1} << 30)) return false;
    if (shift > -1 || shift < -right_max || b >= (1 << 29) || b <= -(1 << 29)) quick = false;
  }
  if (quick) return true;
  for (int32_t c = 0; c < channels; ++c) {
    depthwise_dsp::ChannelRequant one;
    if (depthwise_dsp::make_output(params, multipliers + c, shifts + c,
                                   bias != nullptr ? bias + c : nullptr, 1, 9, &one)
            .table == nullptr) {
      return false;
    }
  }
  return true;
}

// Channel c's table entry (kEntryWords words): the filter rows as doubled tap pairs
// (exact in int16), twice the bias, the requantization constants. Wrapping arithmetic:
// the entry is used only on the fast path, where 2 * bias and round_zp fit int32 exactly.
void channel_entry(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                   const int32_t* shifts, const int32_t* bias, const int8_t* filter,
                   int32_t channels, int32_t c, uint32_t* e) {
  for (int32_t k = 0; k < 3; ++k) {
    const int32_t w0 = filter[3 * k * channels + c];
    const int32_t w1 = filter[(3 * k + 1) * channels + c];
    const int32_t w2 = filter[(3 * k + 2) * channels + c];
    e[2 * k] = dsp::pack16(2 * w0, 2 * w1);
    e[2 * k + 1] = dsp::pack16(2 * w1, 2 * w2);
  }
  const uint32_t zp = static_cast<uint32_t>(params.output_zero_point);
  const uint32_t right = (0u - static_cast<uint32_t>(shifts[c])) & 31u;
  e[kBias2] = (bias != nullptr ? static_cast<uint32_t>(bias[c]) : 0u) << 1;
  e[kRight] = right;
  e[kMultiplier] = static_cast<uint32_t>(multipliers[c]);
  e[kRoundZp] = ((1u << right) >> 1) + (zp << right);
}

// Mode 2's entry of channel c, or false when the channel does not fit it. Called only
// when the fast path applies (so the bounds of fast_path() hold: 2 * acc and mode 1's
// round_zp fit int32, and SMMULR(2 acc, m) + round_zp does not overflow) and act_min >=
// output_zero_point, where mode 1 without the sign correction outputs (clamp aside)
//   ssat8((SMMULR(2 acc, m) + round_zp) >> right)
//     = ssat8(floor((2 acc m + 2^31 + round_zp 2^32) / 2^(32 + right)))
// (floor(floor(u) / n) = floor(u / n)). With d = kShiftR - right >= 1 that is
//     ssat8(floor((acc 2^(1 + d) m + A 2^32) / 2^(32 + kShiftR))),  A = 2^(d - 1) + round_zp 2^d
//     = ssat8(SMMLA(acc 2^(1 + d), m, A) >> kShiftR)
// one SSAT with an immediate shift instead of ASR + SSAT. So mode 2 scales the filter and
// bias by 2^k, k = 1 + d, when the scaled taps fit int16. Over the accumulators the
// channel can reach, [lo, hi] (bias plus each tap's extremes over the input range,
// padding's 0 included; hi - lo <= 2 * 9 * 255 * 128 = 587520), the output rises by at
// most 1 per step of acc (m < 2^31), so a channel whose output differs at lo and hi has
// an unsaturated output at some acc0 in between: |SMMULR(2 acc0, m)| <= 2^(right + 8)
// + 2^(right - 1), so |acc0| < 2^(right + 10) (m > 2^30), and every acc in [lo, hi] has
// |acc| < 2^(right + 10) + 587520 < 2^(31 - k) = 2^(20 + right): the scaled accumulator
// fits int32, and SMMLA's result too (|high word| <= 2^30, |A| < 2^18). A channel whose
// output is the same at lo and hi has it for every input: its entry is a zero filter and
// bias with A = out << kShiftR.
bool shifted_entry(const DepthwiseConv2dS8Params& params, int32_t multiplier, int32_t shift,
                   int32_t bias, const int8_t* filter, int32_t channels, int32_t c,
                   uint32_t* e) {
  const int32_t right = -shift;  // 1..30 on the fast path
  const AccRange range = acc_range(bias, filter + c, 9, channels, params.input_zero_point);
  // |lo|, |hi| < 2^30 (fast path)
  const auto lo = static_cast<int32_t>(range.lo), hi = static_cast<int32_t>(range.hi);
  const int32_t w_min = range.w_min, w_max = range.w_max;
  const int32_t round_zp = static_cast<int32_t>((1u << right >> 1) +
                                                (static_cast<uint32_t>(params.output_zero_point)
                                                 << right));
  auto out_of = [&](int32_t acc) {
    return dsp::ssat8((dsp::smmulr(2 * acc, multiplier) + round_zp) >> right);
  };
  for (int32_t i = 0; i < kEntryWords; ++i) e[i] = 0;
  e[kMultiplier] = static_cast<uint32_t>(multiplier);
  const int32_t out_lo = out_of(lo);
  if (out_lo == out_of(hi)) {
    e[kRoundZp] = static_cast<uint32_t>(out_lo) << kShiftR;
    return true;
  }
  const int32_t d = kShiftR - right;
  if (d < 1) return false;
  const int32_t k = 1 + d;  // the scale's exponent, 2..9
  if (w_max > (32767 >> k) || w_min < -(32768 >> k)) return false;
  for (int32_t r = 0; r < 3; ++r) {
    const int32_t w0 = filter[3 * r * channels + c] * (1 << k);
    const int32_t w1 = filter[(3 * r + 1) * channels + c] * (1 << k);
    const int32_t w2 = filter[(3 * r + 2) * channels + c] * (1 << k);
    e[2 * r] = dsp::pack16(w0, w1);
    e[2 * r + 1] = dsp::pack16(w1, w2);
  }
  e[kBias2] = static_cast<uint32_t>(bias) << k;
  e[kRoundZp] = (1u << (d - 1)) + (static_cast<uint32_t>(round_zp) << d);
  return true;  // e[kRight] stays 0: mode 2's mark (mode 1's right is at least 1)
}

// The table's mode and its entries: written to `out`, or (out null) compared with
// `expect`, kModeMismatch at the first that differs. Mode 2 when every channel fits it.
constexpr uint32_t kModeMismatch = 3;
uint32_t table_entries(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                       const int32_t* shifts, const int32_t* bias, const int8_t* filter,
                       int32_t channels, uint32_t* out, const uint32_t* expect) {
  if (!fast_path(params, multipliers, shifts, bias, channels)) return kModeGeneral;
  uint32_t e[kEntryWords];
  uint32_t mode = params.act_min >= params.output_zero_point ? kModeShifted : kModeSignFix;
  for (int32_t c = 0; mode == kModeShifted && c < channels; ++c) {
    if (!shifted_entry(params, multipliers[c], shifts[c], bias != nullptr ? bias[c] : 0, filter,
                       channels, c, e)) {
      mode = kModeSignFix;
    }
  }
  for (int32_t c = 0; c < channels; ++c) {
    if (mode == kModeShifted) {
      shifted_entry(params, multipliers[c], shifts[c], bias != nullptr ? bias[c] : 0, filter,
                    channels, c, e);
    } else {
      channel_entry(params, multipliers, shifts, bias, filter, channels, c, e);
    }
    for (int32_t i = 0; i < kEntryWords; ++i) {
      if (out != nullptr) {
        out[kEntryWords * c + i] = e[i];
      } else if (expect[kEntryWords * c + i] != e[i]) {
        return kModeMismatch;
      }
    }
  }
  return mode;
}

// Bytes of the zero-point row (C rounded up to words).
uint32_t zp_row_bytes(int32_t channels) { return (static_cast<uint32_t>(channels) + 3u) & ~3u; }

}  // namespace

uint32_t depthwise_conv2d_s8_3x3__dsp_scratch_bytes(const DepthwiseConv2dS8Params& params,
                                                    const DepthwiseConv2dShape& shape) {
  const uint32_t channels = static_cast<uint32_t>(shape.in_c);
  const uint32_t blocks = static_cast<uint32_t>(ring_blocks(params, shape));
  return 4u * kBlockWords * channels * blocks;
}

uint32_t depthwise_conv2d_s8_3x3__dsp_table_bytes(int32_t channels) {
  return 4u + 4u * kEntryWords * static_cast<uint32_t>(channels) + zp_row_bytes(channels);
}

bool depthwise_conv2d_s8_3x3__dsp_make_table(const DepthwiseConv2dS8Params& params,
                                             const int32_t* multipliers, const int32_t* shifts,
                                             const int32_t* bias, const int8_t* filter,
                                             int32_t channels, void* table) {
  uint32_t* const words = static_cast<uint32_t*>(table);
  const uint32_t bytes = depthwise_conv2d_s8_3x3__dsp_table_bytes(channels);
  uint8_t* const raw = static_cast<uint8_t*>(table);
  for (uint32_t i = 0; i < bytes; ++i) raw[i] = 0;
  words[0] = table_entries(params, multipliers, shifts, bias, filter, channels, words + 1, nullptr);
  if (words[0] == kModeGeneral) return false;
  int8_t* const zp_row = reinterpret_cast<int8_t*>(words + 1 + kEntryWords * channels);
  for (int32_t c = 0; c < channels; ++c) zp_row[c] = static_cast<int8_t>(params.input_zero_point);
  return true;
}

void depthwise_conv2d_s8_3x3__dsp(const DepthwiseConv2dS8Params& params,
                                  const int32_t* multipliers, const int32_t* shifts,
                                  const DepthwiseConv2dShape& shape, const int8_t* input,
                                  const int8_t* filter, const int32_t* bias, const void* table,
                                  int8_t* output, void* scratch) {
  const int32_t channels = shape.in_c;
  const int32_t in_image_stride = shape.in_h * shape.in_w * channels;
  const int32_t out_image_stride = shape.out_h * shape.out_w * channels;
  const uint32_t* const words = static_cast<const uint32_t*>(table);
  const uint32_t* const entries = words + 1;
  const int8_t* const zp_row = reinterpret_cast<const int8_t*>(entries + kEntryWords * channels);
  uint32_t* const ring = static_cast<uint32_t*>(scratch);
  if (words[0] == kModeGeneral) {  // not the fast path: the common table goes in the ring's space
    const Output out = depthwise_dsp::make_output(
        params, multipliers, shifts, bias, channels, 9,
        reinterpret_cast<depthwise_dsp::ChannelRequant*>(ring));
    for (int32_t b = 0; b < shape.batch; ++b) {
      const int8_t* image = input + b * in_image_stride;
      for (int32_t oy = 0; oy < shape.out_h; ++oy) {
        for (int32_t ox = 0; ox < shape.out_w; ++ox) {
          depthwise_dsp::pixel(params, shape, out, image, filter,
                               oy * params.window.stride_h - params.window.pad_top,
                               ox * params.window.stride_w - params.window.pad_left, output);
          output += channels;
        }
      }
    }
    return;
  }

  if (channels <= 0) return;
  const int32_t blocks = ring_blocks(params, shape);
  const int32_t chan_words = kBlockWords * blocks;
  // Blocks from `live` on lie right of the image: all padding, zero for every row.
  int32_t live = (shape.in_w + params.window.pad_left + 3) / 4;
  if (live > blocks) live = blocks;
  for (int32_t c = 0; live < blocks && c < channels; ++c) {
    uint32_t* dst = ring + c * chan_words + live * kBlockWords;
    for (int32_t b = live; b < blocks; ++b) {
      for (int32_t row = 0; row < 5; ++row) dsp::store2_u32_advance<8>(dst, 0, 0);
    }
  }
  // When the last live block's second pair is all padding, extend_row() writes only its
  // first pair (extend_edge_pair): the second is zero in every ring row from here on (not
  // on the narrow path, whose rows are written whole).
  const bool narrow = narrow_rows(params, shape, words[0]);
  if (!narrow && live > 0 && 4 * (live - 1) + 2 - params.window.pad_left >= shape.in_w) {
    uint32_t* word = ring_word(ring, chan_words, 0, 0, 2 * (live - 1) + 1);
    for (int32_t c = 0; c < channels; ++c, word += chan_words) {
      word[0] = word[2] = word[4] = word[6] = word[8] = 0;  // ring rows 0..4
    }
  }
  const bool clamped = params.act_min > -128 || params.act_max < 127;
  const uint32_t lo4 = (static_cast<uint32_t>(params.act_min) & 0xFFu) * 0x01010101u;
  const uint32_t hi4 = (static_cast<uint32_t>(params.act_max) & 0xFFu) * 0x01010101u;
  const int32_t out_row_stride = shape.out_w * channels;
  const RowPass pass = narrow ? narrow_pass : row_pass_for(params, words[0]);
  if (narrow) narrow_biases(ring, entries, channels);
  const RowFill fill = row_fill(params, shape, live, chan_words, zp_row, ring);
  const int32_t first_slot0 = ((-params.window.pad_top % 3) + 3) % 3;
  const int32_t stride_h = params.window.stride_h;
  const int32_t slot_step = stride_h % 3;
  for (int32_t b = 0; b < shape.batch; ++b) {
    const int8_t* image = input + b * in_image_stride;
    int8_t* out_row = output + b * out_image_stride;
    // Input rows are extended once each, in order: next (in slot next_slot) is the first
    // not extended yet.
    int32_t next = -params.window.pad_top;
    int32_t next_slot = first_slot0;
    int32_t first_slot = first_slot0;  // y0 mod 3
    int32_t y0 = -params.window.pad_top;  // output row oy's first input row
    for (int8_t* const out_end = out_row + out_image_stride; out_row != out_end; y0 += stride_h) {
      if (next < y0) {  // stride 4 and more: rows between windows are never read
        next = y0;
        next_slot = first_slot;
      }
      for (; next <= y0 + 2; ++next) {
        // Called directly, not through a pointer: extend_row reaches extend_edge, which
        // calls through one, and the static stack bound (`mote size`) cannot bound a
        // cycle through pointers.
        if (narrow) {
          extend_narrow(fill, image, shape.in_h, next, next_slot);
        } else {
          extend_row(fill, image, shape.in_h, next, next_slot);
        }
        next_slot = next_slot == 2 ? 0 : next_slot + 1;
      }
      // Ring rows first_slot .. + 2 hold input rows y0 .. y0 + 2 (slot 0, 1's copies follow
      // slot 2).
      pass(ring + 2 * first_slot, chan_words, entries, channels, shape.out_w, out_row);
      if (clamped) {
        clamp_bytes(out_row, out_row_stride, lo4, hi4, params.act_min, params.act_max);
      }
      out_row += out_row_stride;
      first_slot += slot_step;
      if (first_slot >= 3) first_slot -= 3;
    }
  }
}

// check(): the reference's checks on the reference's part of the params, then the table
// after it, word for word against the one computed from the filter, bias and
// requantization (a program is read from storage: a corrupt copy is refused at load,
// never run).
Status depthwise_conv2d_s8_3x3__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  const TensorDesc& filter = ctx.input_desc(1);
  if (filter.rank != 4 || filter.dims[3] > (1u << 24)) return Status::kBadParams;
  const int32_t channels = static_cast<int32_t>(filter.dims[3]);
  const uint32_t table_bytes = depthwise_conv2d_s8_3x3__dsp_table_bytes(channels);
  MOTE_RETURN_IF_ERROR(depthwise_conv2d_s8_check_params(ctx, table_bytes));
  const DepthwiseConv2dS8Params& p = ctx.params<DepthwiseConv2dS8Params>();
  if (!depthwise_conv2d_s8_3x3__dsp_supports(p, filter.dims[1], filter.dims[2])) {
    return Status::kBadParams;
  }
  const DepthwiseConv2dShape shape =
      window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  if (ctx.scratch().size() < depthwise_conv2d_s8_3x3__dsp_scratch_bytes(p, shape) ||
      (reinterpret_cast<uintptr_t>(ctx.scratch().data()) & 3u) != 0) {
    return Status::kBadParams;
  }
  const auto* weights = static_cast<const int8_t*>(ctx.input_data(1));
  const int32_t* bias =
      ctx.input_count() == 3 ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr;
  if (weights == nullptr || (ctx.input_count() == 3 && ctx.has_input(2) && bias == nullptr)) {
    return Status::kBadParams;
  }
  const uint32_t out_c = filter.dims[3];
  const int32_t* multipliers = params_array(p, 0, out_c);
  const int32_t* shifts = params_array(p, 1, out_c);
  const auto* words = reinterpret_cast<const uint32_t*>(params_array(p, 2, out_c));
  const uint32_t mode = table_entries(p, multipliers, shifts, bias, weights, channels, nullptr,
                                      words + 1);
  if (words[0] != mode) return Status::kBadParams;  // also on kModeMismatch
  const auto* rest = reinterpret_cast<const uint8_t*>(words + 1);
  if (mode == kModeGeneral) {  // all zeros
    for (uint32_t i = 4; i < table_bytes; ++i) {
      if (*rest++ != 0) return Status::kBadParams;
    }
    return Status::kOk;
  }
  const auto* zp_row = reinterpret_cast<const int8_t*>(words + 1 + kEntryWords * channels);
  for (uint32_t c = 0; c < zp_row_bytes(channels); ++c) {
    const int8_t want = static_cast<int32_t>(c) < channels
                            ? static_cast<int8_t>(p.input_zero_point)
                            : int8_t{0};
    if (zp_row[c] != want) return Status::kBadParams;
  }
  return Status::kOk;
}

void depthwise_conv2d_s8_3x3__dsp_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const DepthwiseConv2dShape shape =
      window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const DepthwiseConv2dS8Params& p = ctx.params<DepthwiseConv2dS8Params>();
  const uint32_t out_c = filter.dims[3];
  const int32_t* bias =
      ctx.input_count() == 3 ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr;
  depthwise_conv2d_s8_3x3__dsp(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
                               static_cast<const int8_t*>(ctx.input_data(0)),
                               static_cast<const int8_t*>(ctx.input_data(1)), bias,
                               params_array(p, 2, out_c),
                               static_cast<int8_t*>(ctx.output_data(0)), ctx.scratch().data());
}

const KernelEntry kDepthwiseConv2dS83x3DspEntry = {depthwise_conv2d_s8_3x3__dsp_check,
                                                   depthwise_conv2d_s8_3x3__dsp_run};

}  // namespace mote
