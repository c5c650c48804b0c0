// Helium (MVE) int8 convolution, any KH x KW, stride, dilation and padding, groups == 1,
// bit-exact with conv2d_s8. Output pixels are taken two at a time: each one's window is
// copied into an im2col row of K = KH * KW * C bytes in scratch (taps outside the image
// written as input_zero_point, i.e. x + input_offset == 0, so they add nothing, as the
// reference's skipped taps; windows inside the image copied as KH runs of KW * C bytes),
// then both rows go through the matrix product of
// conv2d_s8_mve_rows.h (2 pixels x 4 channels per block, four outputs requantized per
// vector). The input offset is folded into a per-channel bias computed once per call.
//
// Scratch: out_c int32 (that bias), rounded up to 16 bytes, then two rows of K bytes.
//
// Windows of K <= 48 bytes (first layers: 3x3x3, K = 27; kws' 10x4x1, K = 40) take the
// small path instead (small_pairs): the matrix product's loop over groups of four
// channels runs short of registers there (eight sums, four pointers for the filter rows,
// three for the per-channel constants, two outputs) and spilled about half its
// instructions. So each group's four filter rows, zero-padded to V = ceil(K / 16) whole
// vectors, and its four folded biases, multipliers and shifts (left and right, as
// requant_s8x4 wants them) and the output zero point are laid out once per call as one
// block of 64 V + 80 bytes (group_block), which one pointer walks; the window rows are
// 16 V bytes, their lanes past K multiplied by the zero padding. Two pixels at a time
// for V <= 2, one for V = 3 (the pixel vectors, clamp bounds and two temporaries fill the
// eight Q registers); with right shifts only, a pixel pair's (V 3: a pixel's) full groups
// run in asm (small_groups_asm): per 2 pixels x 4 channels 4 V filter loads, 8 V VMLADAV,
// 4 VMOV, 2 x 14 for the requantization and store, 5 of loop; V 3 per pixel x 4
// channels 43. Windows come from SmallWalk: those inside the image as whole-vector runs,
// those at its border as predicated runs over the zero point. Scratch then: ceil(out_c /
// 4) blocks, two rows of 16 V bytes and 16 bytes of slack for SmallWalk's stores.
//
// On a core without MVE the same code runs through the portable definitions of
// kernels/isa/mve.h.
#include "conv2d/conv2d.h"
#include "conv2d/conv2d_s8_mve_rows.h"
#include "conv2d/conv2d_shapes.h"
#include "isa/mve.h"
#include "kernel_util.h"
#include "quant/quant_check.h"

namespace mote {
namespace {

uint32_t bias_bytes(int32_t out_c) { return (static_cast<uint32_t>(out_c) * 4u + 15u) & ~15u; }

// The small path's vectors per window row (0: K > 32, the general path).
int32_t small_vectors(int32_t k) { return k <= 16 ? 1 : (k <= 32 ? 2 : (k <= 48 ? 3 : 0)); }
// A group block: four filter rows of 16 V bytes, then bias, multiplier, left shift and
// right shift (as requant_s8x4's neg_right) of its four channels and the output zero
// point four times, int32 each.
uint32_t group_block_bytes(int32_t v) { return 64u * static_cast<uint32_t>(v) + 80u; }
// The blocks, two window rows of 16 V bytes and 16 bytes that SmallWalk's whole-vector
// stores may write past the second.
uint64_t small_scratch_bytes(int32_t out_c, int32_t v) {
  return static_cast<uint64_t>((out_c + 3) / 4) * group_block_bytes(v) + 32u * static_cast<uint32_t>(v) + 16u;
}

// n bytes from src to dst, 16 at a time (the last step predicated).
void copy_bytes(int8_t* dst, const int8_t* src, int32_t n) {
  for (; n > 0; n -= 16, src += 16, dst += 16) {
    const mve::mve_pred16_t p = mve::vctp8q(static_cast<uint32_t>(n));
    mve::vstrbq_p_s8(dst, mve::vldrbq_z_s8(src, p), p);
  }
}

// n bytes of dst set to every lane of value.
void fill_bytes(int8_t* dst, mve::int8x16_t value, int32_t n) {
  for (; n > 0; n -= 16, dst += 16) {
    mve::vstrbq_p_s8(dst, value, mve::vctp8q(static_cast<uint32_t>(n)));
  }
}

// The window of output pixel (oy, ox) of `image` as one row of K bytes.
void im2col_row(const Conv2dS8Params& params, const Conv2dShape& shape, const int8_t* image,
                int32_t oy, int32_t ox, int8_t* row) {
  const int32_t c = shape.in_c;
  const int32_t row_bytes = shape.kernel_w * c;
  const mve::int8x16_t pad = mve::vdupq_n_s8(static_cast<int8_t>(params.input_zero_point));
  const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
  const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
  const bool x_inside = x0 >= 0 && x0 + (shape.kernel_w - 1) * params.window.dilation_w < shape.in_w;
  for (int32_t ky = 0; ky < shape.kernel_h; ++ky, row += row_bytes) {
    const int32_t y = y0 + ky * params.window.dilation_h;
    if (y < 0 || y >= shape.in_h) {
      fill_bytes(row, pad, row_bytes);
      continue;
    }
    const int8_t* in_row = image + y * shape.in_w * c;
    if (x_inside && params.window.dilation_w == 1) {
      copy_bytes(row, in_row + x0 * c, row_bytes);
      continue;
    }
    if (params.window.dilation_w == 1) {
      // Taps [lo, hi) inside the row: padding, one run of input, padding.
      const int32_t lo = x0 < 0 ? (-x0 < shape.kernel_w ? -x0 : shape.kernel_w) : 0;
      int32_t hi = shape.in_w - x0;
      hi = hi > shape.kernel_w ? shape.kernel_w : (hi < lo ? lo : hi);
      fill_bytes(row, pad, lo * c);
      copy_bytes(row + lo * c, in_row + (x0 + lo) * c, (hi - lo) * c);
      fill_bytes(row + hi * c, pad, (shape.kernel_w - hi) * c);
      continue;
    }
    for (int32_t kx = 0; kx < shape.kernel_w; ++kx) {
      const int32_t x = x0 + kx * params.window.dilation_w;
      if (x < 0 || x >= shape.in_w) {
        fill_bytes(row + kx * c, pad, c);
      } else {
        copy_bytes(row + kx * c, in_row + x * c, c);
      }
    }
  }
}

// Output pixels' windows in order (batch, row, column), each as one row of K bytes. A
// window wholly inside the image with dilation_w 1 is KH runs of KW * C contiguous input
// bytes, copied run by run (one predicated load and store per run of at most 16 bytes);
// the other windows go through im2col_row.
class WindowWalk {
 public:
  WindowWalk(const Conv2dS8Params& params, const Conv2dShape& shape, const int8_t* input)
      : params_(params), shape_(shape), image_(input) {
    c_ = shape.in_c;
    image_step_ = shape.in_h * shape.in_w * c_;
    run_ = shape.kernel_w * c_;
    run_step_ = params.window.dilation_h * shape.in_w * c_;
    span_h_ = (shape.kernel_h - 1) * params.window.dilation_h + 1;
    span_w_ = (shape.kernel_w - 1) * params.window.dilation_w + 1;
    runs_ = params.window.dilation_w == 1;
    short_runs_ = run_ <= 16;
    run_pred_ = mve::vctp8q(static_cast<uint32_t>(run_));
    y0_ = -params.window.pad_top;
    y_inside_ = y0_ >= 0 && y0_ + span_h_ <= shape.in_h;
  }

  // Moves to output pixel (oy, ox) of the image at `image`.
  void seek(int32_t oy, int32_t ox, const int8_t* image) {
    oy_ = oy;
    ox_ = ox;
    image_ = image;
    y0_ = oy * params_.window.stride_h - params_.window.pad_top;
    y_inside_ = y0_ >= 0 && y0_ + span_h_ <= shape_.in_h;
  }

  // The next pixel's window into row.
  __attribute__((always_inline)) void next(int8_t* row) {
    const int32_t x0 = ox_ * params_.window.stride_w - params_.window.pad_left;
    if (y_inside_ && runs_ && x0 >= 0 && x0 + span_w_ <= shape_.in_w) {
      const int8_t* src = image_ + (y0_ * shape_.in_w + x0) * c_;
      if (short_runs_) {
        for (int32_t ky = 0; ky < shape_.kernel_h; ++ky, src += run_step_, row += run_) {
          mve::vstrbq_p_s8(row, mve::vldrbq_z_s8(src, run_pred_), run_pred_);
        }
      } else {
        for (int32_t ky = 0; ky < shape_.kernel_h; ++ky, src += run_step_, row += run_) {
          copy_bytes(row, src, run_);
        }
      }
    } else {
      im2col_row(params_, shape_, image_, oy_, ox_, row);
    }
    if (++ox_ == shape_.out_w) {
      ox_ = 0;
      if (++oy_ == shape_.out_h) {
        oy_ = 0;
        image_ += image_step_;
      }
      y0_ = oy_ * params_.window.stride_h - params_.window.pad_top;
      y_inside_ = y0_ >= 0 && y0_ + span_h_ <= shape_.in_h;
    }
  }

 private:
  const Conv2dS8Params& params_;
  const Conv2dShape& shape_;
  const int8_t* image_;
  int32_t c_, image_step_, run_, run_step_, span_h_, span_w_;
  bool runs_, short_runs_;
  mve::mve_pred16_t run_pred_;
  int32_t oy_ = 0, ox_ = 0, y0_;
  bool y_inside_;
};

// Every output pixel, two at a time: their windows into row0 and row1, then the
// matrix product.
template <int kVectors, bool kRightShifts>
__attribute__((always_inline)) inline void windows_of(const Conv2dS8Params& params,
                                                      const Conv2dShape& shape,
                                                      const Conv2dS8MveRows& r,
                                                      const int8_t* input, int8_t* row0,
                                                      int8_t* row1, int8_t* out) {
  const int32_t pixels = shape.batch * shape.out_h * shape.out_w;
  const int32_t out_c = shape.out_c;
  WindowWalk walk(params, shape, input);
  int32_t p = 0;
  for (; p + 2 <= pixels; p += 2) {
    walk.next(row0);
    walk.next(row1);
    conv2d_s8_mve_rows<kVectors, true, kRightShifts>(r, row0, row1, out, out + out_c);
    out += 2 * out_c;
  }
  if (p < pixels) {
    walk.next(row0);
    conv2d_s8_mve_rows<kVectors, false, kRightShifts>(r, row0, nullptr, out, nullptr);
  }
}

// The rows with pixels in registers run on a local copy of r, which the output stores
// cannot alias (so its fields stay in registers); the long rows keep the reference
// (measured: fewer instructions there).
template <int kVectors, bool kRightShifts>
void windows(const Conv2dS8Params& params, const Conv2dShape& shape, const Conv2dS8MveRows& r,
             const int8_t* input, int8_t* row0, int8_t* row1, int8_t* out) {
  if (kVectors > 0) {
    const Conv2dS8MveRows local = r;
    windows_of<kVectors, kRightShifts>(params, shape, local, input, row0, row1, out);
  } else {
    windows_of<kVectors, kRightShifts>(params, shape, r, input, row0, row1, out);
  }
}

// The small path's group blocks at `blocks` (see the file comment): channels past out_c
// in the last group have zero filters and constants (their lanes are not stored).
void small_blocks(const Conv2dS8Params& params, const int32_t* multipliers, const int32_t* shifts,
                  const int8_t* filter, const int32_t* bias, int32_t out_c, int32_t k, int32_t v,
                  uint8_t* blocks) {
  const int32_t row = 16 * v;
  for (int32_t o0 = 0; o0 < out_c; o0 += 4, blocks += group_block_bytes(v)) {
    int8_t* const rows = reinterpret_cast<int8_t*>(blocks);
    int32_t* const consts = reinterpret_cast<int32_t*>(blocks + 4 * row);
    for (int32_t j = 0; j < 4; ++j) {
      const int32_t o = o0 + j;
      // Lanes past k (and every lane of a channel past out_c) zero.
      for (int32_t i = 0; i < v; ++i) {
        const int32_t n = o < out_c && k > 16 * i ? k - 16 * i : 0;
        mve::vstrbq_s8(rows + j * row + 16 * i,
                       mve::vldrbq_z_s8(filter + o * k + 16 * i, mve::vctp8q(static_cast<uint32_t>(n))));
      }
      int32_t eff = 0, m = 0, left = 0, right = 0;
      if (o < out_c) {
        conv2d_s8_mve_bias(filter + o * k, bias != nullptr ? bias + o : nullptr, 1, k, -params.input_zero_point,
                           &eff);
        m = multipliers[o];
        left = shifts[o] > 0 ? shifts[o] : 0;
        right = shifts[o] < 0 ? shifts[o] : 0;
      }
      consts[j] = eff;
      consts[4 + j] = m;
      consts[8 + j] = left;
      consts[12 + j] = right;
      consts[16 + j] = params.output_zero_point;
    }
  }
}

// Both pixels' windows (kV vectors each) against filter row f: a0 = x0.f, a1 = x1.f.
template <int kV>
__attribute__((always_inline)) inline void small_row(const Conv2dS8MvePixels& x, const int8_t* f,
                                                     int32_t& a0, int32_t& a1) {
  const mve::int8x16_t fa = mve::vldrbq_s8(f);
  a0 = conv2d_s8_mve_dot(x.x0a, fa);
  a1 = conv2d_s8_mve_dot(x.x1a, fa);
  if (kV >= 2) {
    const mve::int8x16_t fb = mve::vldrbq_s8(f + 16);
    a0 = mve::vmladavaq_s8(a0, x.x0b, fb);
    a1 = mve::vmladavaq_s8(a1, x.x1b, fb);
  }
  if (kV == 3) {
    const mve::int8x16_t fc = mve::vldrbq_s8(f + 32);
    a0 = mve::vmladavaq_s8(a0, x.x0c, fc);
    a1 = mve::vmladavaq_s8(a1, x.x1c, fc);
  }
}

#if MOTE_HAS_MVE
// The requantization of one pixel's four sums (acc registers a0..a3) by the block's
// constants at byte c (right shifts only: conv2d_s8_mve_requant_right), into q6.
#define MOTE_SMALL_REQUANT(a0, a1, a2, a3, c, c16, c48, c64) \
  "vmov q6[2], q6[0], " a0 ", " a2 "\n\t"                   \
  "vmov q6[3], q6[1], " a1 ", " a3 "\n\t"                   \
  "vldrw.32 q7, [%[f], #" c "]\n\t"                          \
  "vadd.i32 q6, q6, q7\n\t"                                  \
  "vldrw.32 q7, [%[f], #" c16 "]\n\t"                        \
  "vqrdmulh.s32 q6, q6, q7\n\t"                              \
  "vshr.s32 q7, q6, #31\n\t"                                 \
  "vqadd.s32 q6, q6, q7\n\t"                                 \
  "vldrw.32 q7, [%[f], #" c48 "]\n\t"                        \
  "vrshl.s32 q6, q6, q7\n\t"                                 \
  "vldrw.32 q7, [%[f], #" c64 "]\n\t"                        \
  "vadd.i32 q6, q6, q7\n\t"                                  \
  "vmax.s32 q6, q6, %q[lo]\n\t"                              \
  "vmin.s32 q6, q6, %q[hi]\n\t"
// Filter row at byte `off` against both pixels' first vectors (sums into a, b), and (kV
// 2) the second vectors at off + 16.
#define MOTE_SMALL_ROW1(a, b, off)                \
  "vldrb.8 q6, [%[f], #" off "]\n\t"           \
  "vmladav.s8 " a ", %q[x0a], q6\n\t"           \
  "vmladav.s8 " b ", %q[x1a], q6\n\t"
// kV 3, one pixel: filter row at f (then f moved past it) into a.
#define MOTE_SMALL_ROW3(a)                        \
  "vldrb.8 q6, [%[f]], #16\n\t"                \
  "vmladav.s8 " a ", %q[x0a], q6\n\t"           \
  "vldrb.8 q6, [%[f]], #16\n\t"                \
  "vmladava.s8 " a ", %q[x0b], q6\n\t"          \
  "vldrb.8 q6, [%[f]], #16\n\t"                \
  "vmladava.s8 " a ", %q[x0c], q6\n\t"
#define MOTE_SMALL_ROW2(a, b, off, off16)         \
  MOTE_SMALL_ROW1(a, b, off)                      \
  "vldrb.8 q6, [%[f], #" off16 "]\n\t"         \
  "vmladava.s8 " a ", %q[x0b], q6\n\t"          \
  "vmladava.s8 " b ", %q[x1b], q6\n\t"
// Both pixels' outputs of one group, then the next group until end (VMLADAV's accumulator
// must be an even register: pixel 0's sums in r0, r2, r4, r6, pixel 1's in r8, r10, r12,
// lr; the pixel vectors, clamp bounds and q6, q7 fill the eight Q registers).
#define MOTE_SMALL_GROUPS(rows, c, c16, c48, c64, block)                            \
  "1:\n\t" rows                                                                   \
  MOTE_SMALL_REQUANT("r0", "r2", "r4", "r6", c, c16, c48, c64)                      \
  "vstrb.32 q6, [%[y]]\n\t"                                                      \
  MOTE_SMALL_REQUANT("r8", "r10", "r12", "lr", c, c16, c48, c64)                    \
  "add r0, %[y], %[out_c]\n\t"                                                   \
  "vstrb.32 q6, [r0]\n\t"                                                        \
  "add %[y], %[y], #4\n\t"                                                       \
  "add %[f], %[f], #" block "\n\t"                                               \
  "cmp %[f], %[end]\n\t"                                                         \
  "bne 1b\n\t"

// small_pixels' full groups of a pixel pair with right shifts only, in asm (GCC spilled
// the pixel vectors and the sums: about 100 instructions per group, here 59 for kV 2 and
// 47 for kV 1); returns end.
template <int kV>
__attribute__((always_inline)) inline const uint8_t* small_groups_asm(const Conv2dS8MvePixels& x,
                                                                      const uint8_t* f,
                                                                      const uint8_t* end, int8_t* y,
                                                                      int32_t out_c, mve::int32x4_t lo,
                                                                      mve::int32x4_t hi) {
  static_assert(kV >= 1 && kV <= 3, "one to three vectors per window");
  if constexpr (kV == 3) {  // one pixel: VLDRB's offsets reach 127 bytes, so loads walk f
    static_assert(64 * 3 + 80 == 272, "the asm's block size and offsets");
    __asm__ volatile("1:\n\t" MOTE_SMALL_ROW3("r0") MOTE_SMALL_ROW3("r2") MOTE_SMALL_ROW3("r4") MOTE_SMALL_ROW3("r6")
                         MOTE_SMALL_REQUANT("r0", "r2", "r4", "r6", "0", "16", "48", "64")
                     "vstrb.32 q6, [%[y]]\n\t"
                     "add %[y], %[y], #4\n\t"
                     "add %[f], %[f], #80\n\t"
                     "cmp %[f], %[end]\n\t"
                     "bne 1b\n\t"
                     : [f] "+r"(f), [y] "+r"(y)
                     : [end] "r"(end), [x0a] "w"(x.x0a), [x0b] "w"(x.x0b), [x0c] "w"(x.x0c), [lo] "w"(lo),
                       [hi] "w"(hi)
                     : "r0", "r2", "r4", "r6", "q6", "q7", "cc", "memory");
    static_cast<void>(out_c);
  } else if constexpr (kV == 2) {
    static_assert(64 * 2 + 80 == 208, "the asm's block size and offsets");
    __asm__ volatile(MOTE_SMALL_GROUPS(MOTE_SMALL_ROW2("r0", "r8", "0", "16") MOTE_SMALL_ROW2("r2", "r10", "32", "48")
                                           MOTE_SMALL_ROW2("r4", "r12", "64", "80")
                                               MOTE_SMALL_ROW2("r6", "lr", "96", "112"),
                                       "128", "144", "176", "192", "208")
                     : [f] "+r"(f), [y] "+r"(y)
                     : [end] "r"(end), [out_c] "r"(out_c), [x0a] "w"(x.x0a), [x0b] "w"(x.x0b),
                       [x1a] "w"(x.x1a), [x1b] "w"(x.x1b), [lo] "w"(lo), [hi] "w"(hi)
                     : "r0", "r2", "r4", "r6", "r8", "r10", "r12", "lr", "q6", "q7", "cc", "memory");
  } else {
    static_assert(64 * 1 + 80 == 144, "the asm's block size and offsets");
    __asm__ volatile(MOTE_SMALL_GROUPS(MOTE_SMALL_ROW1("r0", "r8", "0") MOTE_SMALL_ROW1("r2", "r10", "16")
                                           MOTE_SMALL_ROW1("r4", "r12", "32") MOTE_SMALL_ROW1("r6", "lr", "48"),
                                       "64", "80", "112", "128", "144")
                     : [f] "+r"(f), [y] "+r"(y)
                     : [end] "r"(end), [out_c] "r"(out_c), [x0a] "w"(x.x0a), [x1a] "w"(x.x1a),
                       [lo] "w"(lo), [hi] "w"(hi)
                     : "r0", "r2", "r4", "r6", "r8", "r10", "r12", "lr", "q6", "q7", "cc", "memory");
  }
  return f;
}
#undef MOTE_SMALL_GROUPS
#undef MOTE_SMALL_ROW3
#undef MOTE_SMALL_ROW2
#undef MOTE_SMALL_ROW1
#undef MOTE_SMALL_REQUANT
#endif

// The small path's constants and pointers for small_pixels.
struct SmallRun {
  const uint8_t* blocks;
  int32_t out_c, groups;
  mve::mve_pred16_t last;  // the lanes of a last partial group (out_c % 4 of them)
  int32_t output_zero_point;
  mve::int32x4_t zp, lo, hi;
};

// One pixel (row0 into y) or two (kPair: row1 into y + out_c) through every group block.
template <int kV, bool kRightShifts, bool kPair>
__attribute__((always_inline)) inline void small_pixels(const SmallRun& run, const int8_t* row0,
                                                        const int8_t* row1, int8_t* y) {
  Conv2dS8MvePixels x;
  x.x0a = mve::vldrbq_s8(row0);
  x.x1a = kPair ? mve::vldrbq_s8(row1) : x.x0a;
  x.x0b = x.x1b = x.x0c = x.x1c = x.x0a;
  if (kV >= 2) {
    x.x0b = mve::vldrbq_s8(row0 + 16);
    x.x1b = kPair ? mve::vldrbq_s8(row1 + 16) : x.x0b;
  }
  if (kV == 3) {
    x.x0c = mve::vldrbq_s8(row0 + 32);
    x.x1c = kPair ? mve::vldrbq_s8(row1 + 32) : x.x0c;
  }
  const int32_t out_c = run.out_c;
  auto requant = [&](mve::int32x4_t acc, const int32_t* c) __attribute__((always_inline)) {
    acc = mve::vaddq_s32(acc, mve::vldrwq_s32(c));
    if (kRightShifts) {
      return conv2d_s8_mve_requant_right(acc, mve::vldrwq_s32(c + 4), mve::vldrwq_s32(c + 12),
                                         run.output_zero_point, run.lo, run.hi);
    }
    const RequantS8x4 q{mve::vldrwq_s32(c + 4), mve::vldrwq_s32(c + 8), mve::vldrwq_s32(c + 12)};
    return requant_s8x4(acc, q, run.zp, run.lo, run.hi);
  };
  // One group: the eight sums in scalars, then each pixel's four channels as one vector
  // (the second pixel's moved in only after the first's are stored: the pixel vectors,
  // the clamp bounds and the requantization's two temporaries fill the eight Q registers).
  auto group = [&](const uint8_t* block, int8_t* y, auto store) __attribute__((always_inline)) {
    const auto* f = reinterpret_cast<const int8_t*>(block);
    const auto* c = reinterpret_cast<const int32_t*>(block + 64 * kV);
    int32_t a00, a01, a02, a03, a10, a11, a12, a13;
    small_row<kV>(x, f, a00, a10);
    small_row<kV>(x, f + 16 * kV, a01, a11);
    small_row<kV>(x, f + 32 * kV, a02, a12);
    small_row<kV>(x, f + 48 * kV, a03, a13);
    store(y, requant(conv2d_s8_mve_lanes(a00, a01, a02, a03), c));
    if (kPair) store(y + out_c, requant(conv2d_s8_mve_lanes(a10, a11, a12, a13), c));
  };
  const uint8_t* block = run.blocks;
#if MOTE_HAS_MVE
  if constexpr (kRightShifts && kPair == (kV < 3)) {
    if (run.groups > 0) {
      block = small_groups_asm<kV>(x, block, block + run.groups * group_block_bytes(kV), y, out_c, run.lo, run.hi);
      y += 4 * run.groups;
    }
  } else {
#endif
    for (int32_t g = 0; g < run.groups; ++g, block += group_block_bytes(kV), y += 4) {
      group(block, y, [](int8_t* at, mve::int32x4_t v) __attribute__((always_inline)) { mve::vstrbq_s32(at, v); });
    }
#if MOTE_HAS_MVE
  }
#endif
  if (4 * run.groups != out_c) {
    const mve::mve_pred16_t last = run.last;
    group(block, y, [last](int8_t* at, mve::int32x4_t v) __attribute__((always_inline)) {
      mve::vstrbq_p_s32(at, v, last);
    });
  }
}

// WindowWalk for the small path, with a fast case for the windows that most pixels
// have: rows inside the image, columns inside it (dilation_w 1, a run of KW * C <= 16
// bytes per window row) and 16 bytes from every run's start inside the input. Those
// copy each run as one whole vector (the bytes past the run land on the next run's
// place, written next, or past K, where the filter rows are zero; the last run may write
// 16 bytes past the second window row: small_scratch_bytes keeps them): per window row
// one load, one store and one add. The rest go through general_next: short_runs when
// runs are short and contiguous (the border windows), else WindowWalk's code; it also
// moves on to the next output row and finds its fast columns [ox, fast_end).
class SmallWalk {
 public:
  SmallWalk(const Conv2dS8Params& params, const Conv2dShape& shape, const int8_t* input)
      : general_(params, shape, input), params_(params), shape_(shape), image_(input) {
    const int32_t c = shape.in_c;
    input_end_ = input + shape.batch * shape.in_h * shape.in_w * c;
    kernel_h_ = shape.kernel_h;
    run_ = shape.kernel_w * c;
    run_step_ = params.window.dilation_h * shape.in_w * c;
    col_step_ = params.window.stride_w * c;
    const int32_t span_w = (shape.kernel_w - 1) * params.window.dilation_w + 1;
    // Columns [ox_lo_, ox_hi_) have their windows inside the image horizontally.
    const int32_t stride_w = params.window.stride_w;
    ox_lo_ = (params.window.pad_left + stride_w - 1) / stride_w;
    const int32_t last = shape.in_w - span_w + params.window.pad_left;  // largest x0 + pad
    ox_hi_ = last < 0 ? 0 : last / stride_w + 1;
    if (ox_hi_ > shape.out_w) ox_hi_ = shape.out_w;
    fast_ok_ = params.window.dilation_w == 1 && run_ <= 16;
    enter_row();
  }

  __attribute__((always_inline)) void next(int8_t* row) {
    if (ox_ < fast_end_) {
      const int8_t* s = src_;
      for (int32_t ky = 0; ky < kernel_h_; ++ky, s += run_step_, row += run_) {
        mve::vstrbq_s8(row, mve::vldrbq_s8(s));
      }
      src_ += col_step_;
      ++ox_;
      if (ox_ == shape_.out_w) advance_row();
      return;
    }
    general_next(row);
  }

 private:
  // The fast columns of output row oy_ of image_ from ox_ on.
  void enter_row() {
    fast_end_ = 0;
    const int32_t y0 = oy_ * params_.window.stride_h - params_.window.pad_top;
    const int32_t span_h = (shape_.kernel_h - 1) * params_.window.dilation_h + 1;
    if (!fast_ok_ || y0 < 0 || y0 + span_h > shape_.in_h || ox_hi_ <= ox_lo_) return;
    const int8_t* row_src = image_ + (y0 * shape_.in_w - params_.window.pad_left) * shape_.in_c;
    // The whole-vector loads of the row's last fast window stay inside the input.
    const int8_t* last_src = row_src + (ox_hi_ - 1) * col_step_ + (kernel_h_ - 1) * run_step_;
    if (input_end_ - last_src < 16) return;
    const int32_t from = ox_ > ox_lo_ ? ox_ : ox_lo_;
    if (from >= ox_hi_) return;
    src_ = row_src + from * col_step_;
    fast_end_ = ox_ == from ? ox_hi_ : 0;  // not yet: ox_ < ox_lo_, general_next comes back here
  }

  void advance_row() {
    ox_ = 0;
    if (++oy_ == shape_.out_h) {
      oy_ = 0;
      image_ += shape_.in_h * shape_.in_w * shape_.in_c;
    }
    enter_row();
  }

  // A window with runs of at most 16 bytes (dilation_w 1) that reaches outside the image
  // or whose whole-vector loads would leave the input: per window row the zero point
  // over the run, then the bytes inside the image (one predicated load and store).
  void short_runs(int8_t* row) {
    const int32_t c = shape_.in_c;
    const int32_t y0 = oy_ * params_.window.stride_h - params_.window.pad_top;
    const int32_t x0 = ox_ * params_.window.stride_w - params_.window.pad_left;
    const int32_t lo = x0 < 0 ? (-x0 < shape_.kernel_w ? -x0 : shape_.kernel_w) : 0;
    int32_t hi = shape_.in_w - x0;
    hi = hi > shape_.kernel_w ? shape_.kernel_w : (hi < lo ? lo : hi);
    const mve::mve_pred16_t run_pred = mve::vctp8q(static_cast<uint32_t>(run_));
    const mve::mve_pred16_t in_pred = mve::vctp8q(static_cast<uint32_t>((hi - lo) * c));
    const mve::int8x16_t pad = mve::vdupq_n_s8(static_cast<int8_t>(params_.input_zero_point));
    int8_t* const dst_in = row + lo * c;
    const int32_t row_bytes = shape_.in_w * c;
    for (int32_t ky = 0; ky < kernel_h_; ++ky, row += run_) {
      mve::vstrbq_p_s8(row, pad, run_pred);
      const int32_t y = y0 + ky * params_.window.dilation_h;
      if (y >= 0 && y < shape_.in_h && hi > lo) {
        mve::vstrbq_p_s8(dst_in + ky * run_, mve::vldrbq_z_s8(image_ + y * row_bytes + (x0 + lo) * c, in_pred),
                         in_pred);
      }
    }
  }

  __attribute__((noinline)) void general_next(int8_t* row) {
    if (fast_ok_) {
      short_runs(row);
    } else {
      general_.seek(oy_, ox_, image_);
      general_.next(row);
    }
    if (++ox_ == shape_.out_w) {
      advance_row();
    } else if (ox_ == ox_lo_) {
      enter_row();
    }
  }

  WindowWalk general_;
  const Conv2dS8Params& params_;
  const Conv2dShape& shape_;
  const int8_t* image_;
  const int8_t* input_end_;
  const int8_t* src_ = nullptr;
  int32_t kernel_h_, run_, run_step_, col_step_, ox_lo_, ox_hi_;
  int32_t oy_ = 0, ox_ = 0, fast_end_ = 0;
  bool fast_ok_;
};

// Every output pixel, two at a time, through the group blocks at `blocks`; row0, row1:
// 16 kV bytes each.
template <int kV, bool kRightShifts>
void small_pairs(const Conv2dS8Params& params, const Conv2dShape& shape, const uint8_t* blocks,
                 const int8_t* input, int8_t* row0, int8_t* row1, int8_t* out) {
  SmallRun run;
  run.blocks = blocks;
  run.out_c = shape.out_c;
  run.groups = shape.out_c / 4;
  run.last = mve::vctp32q(static_cast<uint32_t>(shape.out_c % 4));
  run.output_zero_point = params.output_zero_point;
  run.zp = mve::vdupq_n_s32(params.output_zero_point);
  run.lo = mve::vdupq_n_s32(params.act_min);
  run.hi = mve::vdupq_n_s32(params.act_max);
  SmallWalk walk(params, shape, input);
  const int32_t pixels = shape.batch * shape.out_h * shape.out_w;
  int32_t p = 0;
  if (kV == 3) {  // three vectors a pixel: one pixel at a time (see small_groups_asm)
    for (; p < pixels; ++p, out += run.out_c) {
      walk.next(row0);
      small_pixels<kV, kRightShifts, false>(run, row0, nullptr, out);
    }
    return;
  }
  for (; p + 2 <= pixels; p += 2, out += 2 * run.out_c) {
    walk.next(row0);
    walk.next(row1);
    small_pixels<kV, kRightShifts, true>(run, row0, row1, out);
  }
  if (p < pixels) {
    walk.next(row0);
    small_pixels<kV, kRightShifts, false>(run, row0, nullptr, out);
  }
}

}  // namespace

uint32_t conv2d_s8__mve_scratch_bytes(int32_t out_c, int32_t kernel_h, int32_t kernel_w,
                                      int32_t in_c) {
  const int32_t k = kernel_h * kernel_w * in_c;
  const int32_t v = small_vectors(k);
  if (v > 0) return static_cast<uint32_t>(small_scratch_bytes(out_c, v));
  return bias_bytes(out_c) + 2u * static_cast<uint32_t>(k);
}

void conv2d_s8__mve(const Conv2dS8Params& params, const int32_t* multipliers,
                    const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                    const int8_t* filter, const int32_t* bias, int8_t* output,
                    uint8_t* scratch) {
  const int32_t k = shape.kernel_h * shape.kernel_w * shape.in_c;
  if (const int32_t v = small_vectors(k); v > 0) {
    small_blocks(params, multipliers, shifts, filter, bias, shape.out_c, k, v, scratch);
    bool right_shifts = true;
    for (int32_t o = 0; o < shape.out_c; ++o) right_shifts = right_shifts && shifts[o] < 0;
    uint8_t* const blocks = scratch;
    int8_t* const row0 = reinterpret_cast<int8_t*>(scratch + static_cast<uint32_t>((shape.out_c + 3) / 4) *
                                                                 group_block_bytes(v));
    int8_t* const row1 = row0 + 16 * v;
    if (v == 1) {
      (right_shifts ? small_pairs<1, true> : small_pairs<1, false>)(params, shape, blocks, input, row0, row1,
                                                                    output);
    } else if (v == 2) {
      (right_shifts ? small_pairs<2, true> : small_pairs<2, false>)(params, shape, blocks, input, row0, row1,
                                                                    output);
    } else {
      (right_shifts ? small_pairs<3, true> : small_pairs<3, false>)(params, shape, blocks, input, row0, row1,
                                                                    output);
    }
    return;
  }
  int32_t* bias_eff = reinterpret_cast<int32_t*>(scratch);
  int8_t* row0 = reinterpret_cast<int8_t*>(scratch + bias_bytes(shape.out_c));
  int8_t* row1 = row0 + k;
  conv2d_s8_mve_bias(filter, bias, shape.out_c, k, -params.input_zero_point, bias_eff);
  const Conv2dS8MveRows r = conv2d_s8_mve_rows_prepare(params, multipliers, shifts, filter,
                                                       bias_eff, shape.out_c, k);
  if (k <= 16) {
    if (r.right_shifts) {
      windows<1, true>(params, shape, r, input, row0, row1, output);
    } else {
      windows<1, false>(params, shape, r, input, row0, row1, output);
    }
  } else if (k <= 32) {
    if (r.right_shifts) {
      windows<2, true>(params, shape, r, input, row0, row1, output);
    } else {
      windows<2, false>(params, shape, r, input, row0, row1, output);
    }
  } else if (k <= 48) {
    if (r.right_shifts) {
      windows<3, true>(params, shape, r, input, row0, row1, output);
    } else {
      windows<3, false>(params, shape, r, input, row0, row1, output);
    }
  } else {
    windows<0, false>(params, shape, r, input, row0, row1, output);
  }
}

Status conv2d_s8__mve_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_s8_check(ctx));
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dS8Params& p = ctx.params<Conv2dS8Params>();
  if (p.groups != 1) return Status::kBadParams;
  const uint64_t k = uint64_t{filter.dims[1]} * filter.dims[2] * filter.dims[3];
  const int32_t v = k <= 48 ? small_vectors(static_cast<int32_t>(k)) : 0;
  const uint64_t needed = v > 0 ? small_scratch_bytes(static_cast<int32_t>(filter.dims[0]), v)
                                : bias_bytes(static_cast<int32_t>(filter.dims[0])) + 2u * k;
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < needed || reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s8__mve_run(const OpContext& ctx) {
  const Conv2dS8Operands o = conv2d_s8_operands(ctx);
  conv2d_s8__mve(o.params, o.multipliers, o.shifts, o.shape, o.input, o.filter, o.bias, o.output,
                 ctx.scratch().data());
}

const KernelEntry kConv2dS8MveEntry = {conv2d_s8__mve_check, conv2d_s8__mve_run};

}  // namespace mote
