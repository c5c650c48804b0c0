// resize_cubic_f32 and resize_cubic_s8: the contract's separable blend (columns first,
// then rows) against oracles (double; the int8 arithmetic written per element), a
// hand-computed row, extrapolated rows and columns, and check()'s refusals of corrupt taps,
// shapes and quantization parameters.
#include "resize_cubic/resize_cubic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "kernel_test_util.h"
#include "quant/quant_math.h"

namespace mote {
namespace resize_cubic_test {

using testing::TestOp;

template <typename Header, typename Tap>
std::vector<uint8_t> header_and_taps(const Header& params, const std::vector<Tap>& rows, const std::vector<Tap>& cols) {
  std::vector<uint8_t> bytes(sizeof params + (rows.size() + cols.size()) * sizeof(Tap));
  std::memcpy(bytes.data(), &params, sizeof params);
  uint8_t* at = bytes.data() + sizeof params;
  for (const std::vector<Tap>* taps : {&rows, &cols}) {
    if (taps->empty()) continue;
    std::memcpy(at, taps->data(), taps->size() * sizeof(Tap));
    at += taps->size() * sizeof(Tap);
  }
  return bytes;
}

std::vector<uint8_t> params_bytes(float extrapolation, const std::vector<ResizeCubicTap>& rows,
                                  const std::vector<ResizeCubicTap>& cols) {
  return header_and_taps(ResizeCubicParams{extrapolation}, rows, cols);
}

template <typename Tap, typename Weight>
Tap make_tap(const std::vector<int32_t>& index, const std::vector<Weight>& weight, int32_t inside) {
  Tap t{};
  for (int i = 0; i < kResizeCubicTaps; ++i) {
    t.index[i] = index[i];
    t.weight[i] = weight[i];
  }
  t.inside = inside;
  return t;
}

ResizeCubicTap tap(const std::vector<int32_t>& index, const std::vector<float>& weight, int32_t inside = 1) {
  return make_tap<ResizeCubicTap>(index, weight, inside);
}

ResizeCubicQuantTap quant_tap(const std::vector<int32_t>& index, const std::vector<int32_t>& weight,
                              int32_t inside = 1) {
  return make_tap<ResizeCubicQuantTap>(index, weight, inside);
}

// The contract per element, in double.
std::vector<double> oracle(const std::vector<uint32_t>& d, float extrapolation, const std::vector<ResizeCubicTap>& rows,
                           const std::vector<ResizeCubicTap>& cols, const std::vector<float>& in) {
  std::vector<double> out;
  for (uint32_t n = 0; n < d[0]; ++n)
    for (const ResizeCubicTap& r : rows)
      for (const ResizeCubicTap& q : cols)
        for (uint32_t c = 0; c < d[3]; ++c) {
          if (r.inside == 0 || q.inside == 0) {
            out.push_back(extrapolation);
            continue;
          }
          double sum = 0.0;
          for (int i = 0; i < kResizeCubicTaps; ++i)
            for (int j = 0; j < kResizeCubicTaps; ++j)
              sum += double{r.weight[i]} * q.weight[j] *
                     in[((n * d[1] + static_cast<uint32_t>(r.index[i])) * d[2] + static_cast<uint32_t>(q.index[j])) *
                            d[3] +
                        c];
          out.push_back(sum);
        }
  return out;
}

TEST(ResizeCubicF32, HandComputedRowWithEdgeTaps) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {1, 1, 4, 1});
  const uint32_t out = op.add_output(DType::kFloat32, {1, 1, 2, 1});
  // Column 0: Keys' weights at t = 0.5 (a = -0.75) over 0, 0, 1, 2 (the first clamped);
  // column 1 reads input 3 alone.
  const std::vector<float> keys = {-0.09375f, 0.59375f, 0.59375f, -0.09375f};
  op.set_raw_params(params_bytes(0.0f, {tap({0, 0, 0, 0}, {1, 0, 0, 0})},
                                 {tap({0, 0, 1, 2}, keys), tap({3, 3, 3, 3}, {1, 0, 0, 0})}));
  op.set_data(in, std::vector<float>{1.0f, 2.0f, 4.0f, 8.0f});
  ASSERT_EQ(op.check(kResizeCubicF32Entry), Status::kOk);
  op.run(kResizeCubicF32Entry);
  // -0.09375 * 1 + 0.59375 * 1 + 0.59375 * 2 - 0.09375 * 4 = 1.3125
  EXPECT_EQ(op.data<float>(out), (std::vector<float>{1.3125f, 8.0f}));
}

TEST(ResizeCubicF32, MatchesTheContractWithExtrapolation) {
  const std::vector<uint32_t> dims = {2, 4, 5, 3};
  const std::vector<ResizeCubicTap> rows = {tap({0, 0, 1, 2}, {-0.07f, 0.8f, 0.3f, -0.03f}),
                                            tap({0, 1, 2, 3}, {-0.1f, 0.6f, 0.6f, -0.1f}),
                                            tap({0, 0, 0, 0}, {0, 0, 0, 0}, 0),
                                            tap({2, 3, 3, 3}, {-0.05f, 0.7f, 0.4f, -0.05f})};
  const std::vector<ResizeCubicTap> cols = {tap({1, 2, 3, 4}, {0.25f, 0.25f, 0.25f, 0.25f}),
                                            tap({4, 4, 4, 4}, {1, 0, 0, 0}),
                                            tap({0, 0, 0, 0}, {0, 0, 0, 0}, 0),
                                            tap({0, 1, 1, 1}, {0.5f, 0.5f, 0, 0}),
                                            tap({2, 3, 4, 4}, {-0.2f, 0.9f, 0.4f, -0.1f}),
                                            tap({1, 1, 1, 1}, {1, 0, 0, 0})};
  const std::vector<float> values = testing::random_floats(2 * 4 * 5 * 3, 7, -10.0f, 10.0f);
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, dims);
  const uint32_t out = op.add_output(DType::kFloat32, {2, 4, 6, 3});
  op.set_raw_params(params_bytes(-3.25f, rows, cols));
  op.set_data(in, values);
  ASSERT_EQ(op.check(kResizeCubicF32Entry), Status::kOk);
  op.run(kResizeCubicF32Entry);
  const std::vector<double> want = oracle(dims, -3.25f, rows, cols, values);
  const std::vector<float> got = op.data<float>(out);
  ASSERT_EQ(got.size(), want.size());
  size_t extrapolated = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_TRUE(std::fabs(double{got[i]} - want[i]) <= 1e-5 * (1.0 + std::fabs(want[i])))
        << "element " << i << ": " << got[i] << ", expected " << want[i];
    extrapolated += got[i] == -3.25f;
  }
  // Row 2 (6 columns) and column 2 (3 other rows), 3 channels, 2 images.
  EXPECT_EQ(extrapolated, 2u * 3u * (6u + 3u));
}

TEST(ResizeCubicF32, CheckRefusesCorruptTapsAndShapes) {
  const ResizeCubicTap ok = tap({0, 0, 1, 1}, {0.5f, 0.5f, 0, 0});
  struct Case {
    const char* what;
    std::vector<uint32_t> in, out;
    DType dtype;
    std::vector<ResizeCubicTap> rows, cols;
    Status expected;
  };
  const std::vector<Case> cases = {
      {"valid", {1, 2, 2, 1}, {1, 1, 2, 1}, DType::kFloat32, {ok}, {ok, ok}, Status::kOk},
      {"row index past the input", {1, 2, 2, 1}, {1, 1, 2, 1}, DType::kFloat32, {tap({0, 1, 2, 1}, {1, 0, 0, 0})},
       {ok, ok}, Status::kBadParams},
      {"negative column index", {1, 2, 2, 1}, {1, 1, 2, 1}, DType::kFloat32, {ok},
       {ok, tap({0, -1, 0, 0}, {1, 0, 0, 0})}, Status::kBadParams},
      {"inside not 0 or 1", {1, 2, 2, 1}, {1, 1, 2, 1}, DType::kFloat32, {tap({0, 0, 0, 0}, {1, 0, 0, 0}, 2)},
       {ok, ok}, Status::kBadParams},
      {"one tap short", {1, 2, 2, 1}, {1, 1, 2, 1}, DType::kFloat32, {ok}, {ok}, Status::kBadParams},
      {"channels differ", {1, 2, 2, 1}, {1, 1, 2, 2}, DType::kFloat32, {ok}, {ok, ok}, Status::kBadParams},
      {"int8", {1, 2, 2, 1}, {1, 1, 2, 1}, DType::kInt8, {ok}, {ok, ok}, Status::kBadParams},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    TestOp op;
    op.add_input(c.dtype, c.in);
    op.add_output(c.dtype, c.out);
    op.set_raw_params(params_bytes(0.0f, c.rows, c.cols));
    EXPECT_EQ(op.check(kResizeCubicF32Entry), c.expected);
  }
  TestOp op;  // params without the header
  op.add_input(DType::kFloat32, {1, 2, 2, 1});
  op.add_output(DType::kFloat32, {1, 1, 2, 1});
  std::vector<uint8_t> bytes = params_bytes(0.0f, {ok}, {ok, ok});
  bytes.erase(bytes.begin(), bytes.begin() + sizeof(ResizeCubicParams));
  op.set_raw_params(bytes);
  EXPECT_EQ(op.check(kResizeCubicF32Entry), Status::kBadParams);
}

// The int8 contract per element.
std::vector<int8_t> oracle_s8(const std::vector<uint32_t>& d, const ResizeCubicS8Params& p,
                              const std::vector<ResizeCubicQuantTap>& rows, const std::vector<ResizeCubicQuantTap>& cols,
                              const std::vector<int8_t>& in) {
  std::vector<int8_t> out;
  for (uint32_t n = 0; n < d[0]; ++n)
    for (const ResizeCubicQuantTap& r : rows)
      for (const ResizeCubicQuantTap& q : cols)
        for (uint32_t c = 0; c < d[3]; ++c) {
          if (r.inside == 0 || q.inside == 0) {
            out.push_back(static_cast<int8_t>(p.extrapolation));
            continue;
          }
          int64_t acc = 0;
          for (int i = 0; i < kResizeCubicTaps; ++i) {
            int64_t column_blend = 0;
            for (int j = 0; j < kResizeCubicTaps; ++j) {
              const uint32_t at = ((n * d[1] + static_cast<uint32_t>(r.index[i])) * d[2] +
                                   static_cast<uint32_t>(q.index[j])) * d[3] + c;
              column_blend += int64_t{q.weight[j]} * (in[at] - p.input_zero_point);
            }
            acc += r.weight[i] * column_blend;
          }
          const int64_t scaled = (acc + 2048) >> 12;
          const int64_t v = p.output_zero_point +
                            int64_t{multiply_by_quantized_multiplier(static_cast<int32_t>(scaled), p.multiplier, p.shift)};
          out.push_back(static_cast<int8_t>(std::min<int64_t>(127, std::max<int64_t>(-128, v))));
        }
  return out;
}

TEST(ResizeCubicS8, MatchesTheContract) {
  const std::vector<uint32_t> dims = {2, 3, 4, 5};
  // Weights up to the int16 limits, negative lobes, an extrapolated row and column.
  const std::vector<ResizeCubicQuantTap> rows = {quant_tap({0, 0, 1, 2}, {-300, 3500, 1000, -104}),
                                                 quant_tap({0, 0, 0, 0}, {0, 0, 0, 0}, 0),
                                                 quant_tap({1, 2, 2, 2}, {32767, -32768, 4096, 0}),
                                                 quant_tap({2, 2, 2, 2}, {4096, 0, 0, 0})};
  const std::vector<ResizeCubicQuantTap> cols = {quant_tap({0, 1, 2, 3}, {-384, 2432, 2432, -384}),
                                                 quant_tap({3, 3, 3, 3}, {4096, 0, 0, 0}),
                                                 quant_tap({0, 0, 0, 0}, {0, 0, 0, 0}, 0),
                                                 quant_tap({1, 1, 2, 3}, {32767, 32767, -32768, 100})};
  ResizeCubicS8Params p{};
  p.input_zero_point = -7;
  p.output_zero_point = 12;
  quantize_multiplier(0.8 / 4096.0, &p.multiplier, &p.shift);
  p.extrapolation = -100;
  std::vector<int8_t> values(2 * 3 * 4 * 5);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int8_t>((i * 73 + 11) % 256 - 128);
  values[0] = -128;
  values[1] = 127;
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, dims);
  const uint32_t out = op.add_output(DType::kInt8, {2, 4, 4, 5});
  op.set_raw_params(header_and_taps(p, rows, cols));
  op.set_data(in, values);
  ASSERT_EQ(op.check(kResizeCubicS8Entry), Status::kOk);
  op.run(kResizeCubicS8Entry);
  const std::vector<int8_t> got = op.data<int8_t>(out);
  const std::vector<int8_t> want = oracle_s8(dims, p, rows, cols, values);
  EXPECT_EQ(got, want);
  // Saturation at both ends happens with the int16-limit weights.
  EXPECT_NE(std::find(got.begin(), got.end(), int8_t{127}), got.end());
  EXPECT_NE(std::find(got.begin(), got.end(), int8_t{-128}), got.end());
}

TEST(ResizeCubicS8, CheckRefusesCorruptParams) {
  const ResizeCubicQuantTap ok = quant_tap({0, 0, 1, 1}, {2048, 2048, 0, 0});
  ResizeCubicS8Params valid{};
  quantize_multiplier(0.5 / 4096.0, &valid.multiplier, &valid.shift);
  struct Case {
    const char* what;
    ResizeCubicS8Params params;
    ResizeCubicQuantTap col;
    Status expected;
  };
  ResizeCubicS8Params zp = valid, extrapolation = valid, shift = valid;
  zp.input_zero_point = 128;
  extrapolation.extrapolation = -129;
  shift.shift = 1;
  const std::vector<Case> cases = {
      {"valid", valid, ok, Status::kOk},
      {"input zero point 128", zp, ok, Status::kBadParams},
      {"extrapolation -129", extrapolation, ok, Status::kBadParams},
      {"left shift", shift, ok, Status::kBadParams},
      {"weight past int16", valid, quant_tap({0, 0, 1, 1}, {32768, 0, 0, 0}), Status::kBadParams},
      {"index past the input", valid, quant_tap({0, 0, 2, 1}, {4096, 0, 0, 0}), Status::kBadParams},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    TestOp op;
    op.add_input(DType::kInt8, {1, 2, 2, 1});
    op.add_output(DType::kInt8, {1, 1, 2, 1});
    op.set_raw_params(header_and_taps(c.params, std::vector<ResizeCubicQuantTap>{ok}, {ok, c.col}));
    EXPECT_EQ(op.check(kResizeCubicS8Entry), c.expected);
  }
}

}  // namespace resize_cubic_test
}  // namespace mote
