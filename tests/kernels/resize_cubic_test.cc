// resize_cubic_f32: the contract's separable blend (columns first, then rows) against an
// oracle in double, a hand-computed row, extrapolated rows and columns, and check()'s
// refusals of corrupt taps and shapes.
#include "resize_cubic/resize_cubic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace resize_cubic_test {

using testing::TestOp;

std::vector<uint8_t> params_bytes(float extrapolation, const std::vector<ResizeCubicTap>& rows,
                                  const std::vector<ResizeCubicTap>& cols) {
  const ResizeCubicParams params{extrapolation};
  std::vector<uint8_t> bytes(sizeof params + (rows.size() + cols.size()) * sizeof(ResizeCubicTap));
  std::memcpy(bytes.data(), &params, sizeof params);
  uint8_t* at = bytes.data() + sizeof params;
  for (const std::vector<ResizeCubicTap>* taps : {&rows, &cols}) {
    if (taps->empty()) continue;
    std::memcpy(at, taps->data(), taps->size() * sizeof(ResizeCubicTap));
    at += taps->size() * sizeof(ResizeCubicTap);
  }
  return bytes;
}

ResizeCubicTap tap(std::vector<int32_t> index, std::vector<float> weight, int32_t inside = 1) {
  ResizeCubicTap t{};
  for (int i = 0; i < kResizeCubicTaps; ++i) {
    t.index[i] = index[i];
    t.weight[i] = weight[i];
  }
  t.inside = inside;
  return t;
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
  op.set_raw_params(params_bytes(0.0f, {tap({0, 0, 0, 0}, {1, 0, 0, 0})}, {tap({0, 0, 1, 2}, keys), tap({3, 3, 3, 3}, {1, 0, 0, 0})}));
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

}  // namespace resize_cubic_test
}  // namespace mote
