// Conformance of depthwise_conv2d_s8_3x3__dsp against depthwise_conv2d_s8: 3x3 filters,
// strides 1-3, any padding (depthwise_conv2d_s8_dsp_cases.h), then as many cases aimed at
// the fast path's table modes (run_mode_cases()). The variant's table (its params after
// the reference's, computed by the compiler) is made here for each case.
#include "depthwise_conv2d_s8_dsp_cases.h"

namespace mote::conformance {

namespace {

// Tables of the fast path's mode 2 (filter scaled by 2^(1 + d), d = 10 - right; SSAT with
// an immediate shift) and their channels of constant output, counted by with_table().
struct TableCounts {
  int shifted = 0, constant_channels = 0, sign_fix = 0, narrow = 0;
};
TableCounts g_tables;

void count_table(const uint32_t* words, int32_t channels) {
  if (words[0] == 1) ++g_tables.sign_fix;
  if (words[0] != 2) return;
  ++g_tables.shifted;
  for (int32_t c = 0; c < channels; ++c) {
    const uint32_t* e = words + 1 + 10 * c;  // filter words 0..5, bias 6
    uint32_t any = 0;
    for (int32_t i = 0; i < 7; ++i) any |= e[i];
    if (any == 0) ++g_tables.constant_channels;
  }
}

void with_table(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                const int32_t* shifts, const DepthwiseConv2dShape& shape, const int8_t* input,
                const int8_t* filter, const int32_t* bias, int8_t* output, void* scratch) {
  void* table = arena().alloc(depthwise_conv2d_s8_3x3__dsp_table_bytes(shape.in_c), 4);
  if (table == nullptr) {
    skip_case("depthwise_conv2d_s8_3x3__dsp", -1, "arena too small for the table");
    return;
  }
  depthwise_conv2d_s8_3x3__dsp_make_table(params, multipliers, shifts, bias, filter, shape.in_c,
                                          table);
  count_table(static_cast<const uint32_t*>(table), shape.in_c);
  // The narrow-row path (narrow_rows()): kws's 5-wide rows in mode 2.
  if (static_cast<const uint32_t*>(table)[0] == 2 && params.window.stride_w == 1 &&
      params.window.pad_left == 1 && shape.in_w == 5 && shape.out_w == 5 &&
      shape.in_c % 4 == 0) {
    ++g_tables.narrow;
  }
  depthwise_conv2d_s8_3x3__dsp(params, multipliers, shifts, shape, input, filter, bias, table,
                               output, scratch);
}

// Cases aimed at the fast path's modes: narrow tall and wide short images (rows of 1..7
// outputs, as kws's 25x5), strides 1 and 2 (vertically up to 5 too: input rows that no
// window reads), padding, ReLU-like clamps (act_min >= output_zero_point: mode 2 when
// every channel fits it) and others, shifts -3..-9 (mode 2
// with any filter), channels with shifts up to -24 and small biases (mostly constant
// outputs, else mode 1), -1 and -2 with small weights (d 9 and 8), biases about where the
// scaled accumulator would overflow (such channels' outputs are constant: see
// shifted_entry(); channel 0 of half the cases, with the table's mode hanging on it),
// multipliers at 2^30 + 1 and INT32_MAX. Form 4: rows 1..8 wide, most 5 (the narrow-row
// path: stride 1, padding 1 each side, C a multiple of 4, mode 2) with channels up to 128
// (most a multiple of 4), batch 2 in a third of the cases and, in a third of those with
// one image, the output over the input (in place: as the memory plan may place it, just
// below the input rows the kernel has still to read).
int run_mode_cases(Rng& rng, int cases) {
  const char* const name = "depthwise_conv2d_s8_3x3__dsp";
  int failed = 0;
  for (int n = 0; n < cases; ++n) {
    Arena& a = arena();
    a.reset();
    DepthwiseConv2dS8Params p;
    DepthwiseConv2dShape s;
    s.batch = 1;
    s.kernel_h = s.kernel_w = 3;
    const int32_t form = rng.uniform(0, 4);
    s.in_w = form == 0 ? rng.uniform(1, 7) : (form == 1 ? rng.uniform(8, 30) : rng.uniform(1, 12));
    s.in_h = form == 0 ? rng.uniform(8, 30) : (form == 1 ? rng.uniform(1, 4) : rng.uniform(1, 12));
    if (form == 3) {  // kws's depthwise layers: 25x5, stride 1, padding 1
      s.in_h = 25;
      s.in_w = 5;
    }
    s.in_c = rng.coin() ? rng.uniform(1, 12) : rng.uniform(13, form == 1 ? 24 : 70);
    if (form == 4) {  // narrow rows
      s.in_w = rng.coin() ? 5 : rng.uniform(1, 8);
      s.in_h = rng.uniform(1, 30);
      s.in_c = rng.uniform(0, 3) != 0 ? 4 * rng.uniform(1, 32) : rng.uniform(1, 128);
      s.batch = rng.uniform(0, 2) == 0 ? 2 : 1;
    }
    p.window.stride_h = form == 3 ? 1 : rng.uniform(1, 2);
    if (form == 2 && rng.uniform(0, 3) == 0) p.window.stride_h = rng.uniform(3, 5);
    p.window.stride_w = form == 3 ? 1 : rng.uniform(1, 2);
    if (form == 4) p.window.stride_w = rng.uniform(0, 3) != 0 ? 1 : 2;
    p.window.dilation_h = p.window.dilation_w = 1;
    draw_padding(rng, 1, &p.window);
    if (form == 3 || (form == 4 && rng.uniform(0, 2) != 0)) {
      p.window.pad_top = p.window.pad_bottom = p.window.pad_left = p.window.pad_right = 1;
    }
    if (s.in_h + p.window.pad_top + p.window.pad_bottom < 3 ||
        s.in_w + p.window.pad_left + p.window.pad_right < 3) {
      --n;  // not a valid geometry; draw again
      continue;
    }
    s.out_h = (s.in_h + p.window.pad_top + p.window.pad_bottom - 3) / p.window.stride_h + 1;
    s.out_w = (s.in_w + p.window.pad_left + p.window.pad_right - 3) / p.window.stride_w + 1;
    s.out_c = s.in_c;
    p.depth_multiplier = 1;
    p.input_zero_point = rng.coin() ? -128 : rng.uniform(-128, 127);
    p.output_zero_point = rng.coin() ? -128 : rng.uniform(-128, 127);
    p.act_min = p.output_zero_point + (rng.coin() ? 0 : rng.uniform(0, 127 - p.output_zero_point));
    p.act_max = rng.coin() ? 127 : rng.uniform(p.act_min, 127);
    if (rng.uniform(0, 4) == 0) p.act_min = rng.uniform(-128, p.act_max);  // any clamp

    const int32_t in_count = s.batch * s.in_h * s.in_w * s.in_c;
    const int32_t out_count = s.batch * s.out_h * s.out_w * s.out_c;
    // In place: the output from `shared`, the input `below` bytes above it, the least that
    // keeps every output row off the input rows still to be read (from row oy * stride_h -
    // pad_top + 3 on: window_geometry.h's row-buffering promise, R = 3).
    const bool in_place = form == 4 && s.batch == 1 && rng.uniform(0, 2) == 0;
    int32_t below = 0;
    for (int32_t oy = 0; in_place && oy < s.out_h; ++oy) {
      const int32_t row = oy * p.window.stride_h - p.window.pad_top + 3;
      if (row >= s.in_h) break;
      const int32_t need = (oy + 1) * s.out_w * s.in_c - (row < 0 ? 0 : row) * s.in_w * s.in_c;
      if (need > below) below = need;
    }
    const int32_t span = below + (in_count > out_count ? in_count : out_count);
    int8_t* const shared = in_place ? a.alloc_array<int8_t>(span) : nullptr;
    int8_t* input = a.alloc_array<int8_t>(in_count);
    int8_t* filter = a.alloc_array<int8_t>(9 * s.out_c);
    int32_t* bias = rng.uniform(0, 5) == 0 ? nullptr : a.alloc_array<int32_t>(s.out_c);
    int32_t* multipliers = a.alloc_array<int32_t>(s.out_c);
    int32_t* shifts = a.alloc_array<int32_t>(s.out_c);
    int8_t* expected = a.alloc_array<int8_t>(out_count);
    int8_t* actual = a.alloc_array<int8_t>(out_count);
    void* scratch = a.alloc(depthwise_conv2d_s8_3x3__dsp_scratch_bytes(p, s) + 4, 4);
    if (input == nullptr || filter == nullptr || multipliers == nullptr || shifts == nullptr ||
        expected == nullptr || actual == nullptr || scratch == nullptr ||
        (in_place && shared == nullptr)) {
      skip_case(name, n, "arena too small");
      continue;
    }
    fill_s8(rng, input, static_cast<size_t>(in_count));
    if (rng.uniform(0, 3) == 0) {  // saturated inputs: the accumulator at its extremes
      const bool one = rng.coin();
      const int8_t v = rng.coin() ? -128 : 127;
      for (int32_t i = 0; i < in_count; ++i) input[i] = one ? v : (rng.coin() ? -128 : 127);
    }
    // Else every channel fits mode 2 but maybe channel 0 (form 4: mostly).
    const bool hostile = form == 4 ? rng.uniform(0, 3) == 0 : rng.coin();
    const bool edge_first = rng.coin();
    for (int32_t c = 0; c < s.out_c; ++c) {
      const int32_t kind = c == 0 && edge_first ? 2 : rng.uniform(0, hostile ? 9 : 19);
      int32_t w_max = 127, shift = -rng.uniform(3, 9);
      int32_t b = rng.uniform(-30000, 30000);
      int32_t w_fixed = 0;  // nonzero: every tap
      if (kind == 0) {  // constant output (always with zero weights), or mode 1
        shift = -rng.uniform(10, 24);
        b = rng.uniform(-3000, 3000);
        w_max = !hostile || rng.coin() ? 0 : rng.uniform(1, 127);
      } else if (!hostile && kind != 2) {
      } else if (kind == 1) {  // d 9 or 8: small weights only
        shift = -rng.uniform(1, 2);
        w_max = rng.uniform(0, 70);
      } else if (kind == 2) {  // about the scaled accumulator's bound 2^(31 - k), k = 1 + d
        const int32_t k = 11 + shift;
        const int32_t edge = (int32_t{1} << (31 - k)) - 9 * 255 * 128;
        b = edge + rng.uniform(-2000, 600000);
        if (rng.coin()) b = -b;
        if (rng.coin()) w_fixed = rng.coin() ? -128 : 127;
      } else if (kind == 3) {
        w_max = 0;
      }
      for (int32_t k = 0; k < 9; ++k) {
        filter[k * s.out_c + c] = static_cast<int8_t>(
            w_fixed != 0 ? w_fixed
                         : (w_max == 127 && rng.uniform(0, 3) == 0 ? (rng.coin() ? -128 : 127)
                                                                   : rng.uniform(-w_max, w_max)));
      }
      if (bias != nullptr) bias[c] = b;
      const int32_t m = rng.uniform(0, 3);
      multipliers[c] = m == 0 ? (1 << 30) + 1 : (m == 1 ? INT32_MAX : rng.uniform(1 << 30, INT32_MAX));
      shifts[c] = shift;
    }
    depthwise_conv2d_s8(p, multipliers, shifts, s, input, filter, bias, expected);
    // In place only on the fast path (row-buffered; the general path streams pixels, with
    // its own placement rule).
    void* const probe = in_place ? a.alloc(depthwise_conv2d_s8_3x3__dsp_table_bytes(s.in_c), 4)
                                 : nullptr;
    if (probe != nullptr && depthwise_conv2d_s8_3x3__dsp_make_table(p, multipliers, shifts, bias,
                                                                    filter, s.in_c, probe)) {
      for (int32_t i = 0; i < in_count; ++i) shared[below + i] = input[i];
      with_table(p, multipliers, shifts, s, shared + below, filter, bias, shared, scratch);
      if (!expect_equal_s8(name, n, "mode in place", expected, shared,
                           static_cast<size_t>(out_count))) {
        ++failed;
      }
      continue;
    }
    with_table(p, multipliers, shifts, s, input, filter, bias, actual, scratch);
    if (!expect_equal_s8(name, n, "mode", expected, actual, static_cast<size_t>(out_count))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace

int run_depthwise_conv2d_s8_3x3__dsp(Rng& rng, int cases) {
  const char* const name = "depthwise_conv2d_s8_3x3__dsp";
  g_tables = TableCounts();
  int failed = run_depthwise_cases(name, with_table, depthwise_conv2d_s8_3x3__dsp_scratch_bytes,
                                   true, rng, cases);
  failed += run_mode_cases(rng, cases);
  // Every mode drawn (with cases enough): a check that the cases reach the paths.
  const int32_t want = cases >= 200 ? 1 : 0;
  const int32_t got[4] = {g_tables.shifted >= want, g_tables.constant_channels >= want,
                          g_tables.sign_fix >= want, g_tables.narrow >= want};
  const int32_t all[4] = {1, 1, 1, 1};
  if (!expect_equal_s32(name, -1, "tables drawn of mode 2, constant channels, mode 1, narrow rows",
                        all, got, 4)) {
    ++failed;
  }
  return failed;
}

}  // namespace mote::conformance
