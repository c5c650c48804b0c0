#include "resize_bilinear/resize_bilinear.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace resize_bilinear_test {

using testing::TestOp;

// The float oracle rounds every product and sum, as the kernel contract says (options
// restored at the end of the file: unity build).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

template <typename Tap>
std::vector<uint8_t> taps_bytes(const std::vector<Tap>& rows, const std::vector<Tap>& cols) {
  std::vector<Tap> all = rows;
  all.insert(all.end(), cols.begin(), cols.end());
  std::vector<uint8_t> bytes(all.size() * sizeof(Tap));
  memcpy(bytes.data(), all.data(), bytes.size());
  return bytes;
}

// The contract's blends, written per element.
float blend(float ll, float ul, float lu, float uu, float fy, float fx) {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
  return ll * (1 - fy) * (1 - fx) + ul * fy * (1 - fx) + lu * (1 - fy) * fx + uu * fy * fx + 0.0f;
}
template <typename T>
T blend(T ll, T ul, T lu, T uu, int32_t fy, int32_t fx) {
  const int64_t acc = int64_t{ll} * (1024 - fy) * (1024 - fx) + int64_t{ul} * fy * (1024 - fx) +
                      int64_t{lu} * (1024 - fy) * fx + int64_t{uu} * fy * fx;
  return static_cast<T>((acc + (acc > 0 ? (1 << 19) : -(1 << 19))) / (1 << 20));
}

template <typename T, typename Tap>
std::vector<T> reference(const std::vector<uint32_t>& d, const std::vector<Tap>& rows, const std::vector<Tap>& cols,
                         const std::vector<T>& in) {
  auto at = [&](uint32_t n, int32_t y, int32_t x, uint32_t c) { return in[((n * d[1] + y) * d[2] + x) * d[3] + c]; };
  std::vector<T> out;
  for (uint32_t n = 0; n < d[0]; ++n)
    for (const Tap& r : rows)
      for (const Tap& q : cols)
        for (uint32_t c = 0; c < d[3]; ++c)
          out.push_back(blend(at(n, r.lower, q.lower, c), at(n, r.upper, q.lower, c), at(n, r.lower, q.upper, c),
                              at(n, r.upper, q.upper, c), r.fraction, q.fraction));
  return out;
}

template <typename T, typename Tap>
void run_against_reference(const KernelEntry& entry, DType dtype, const std::vector<uint32_t>& dims,
                           const std::vector<Tap>& rows, const std::vector<Tap>& cols, const std::vector<T>& values) {
  TestOp op;
  const uint32_t in = op.add_input(dtype, dims);
  const uint32_t out = op.add_output(dtype, {dims[0], static_cast<uint32_t>(rows.size()),
                                             static_cast<uint32_t>(cols.size()), dims[3]});
  op.set_raw_params(taps_bytes(rows, cols));
  op.set_data(in, values);
  ASSERT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  const std::vector<T> expected = reference(dims, rows, cols, values);
  const std::vector<T> actual = op.data<T>(out);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)  // bit for bit (a float NaN would fail too)
    ASSERT_EQ(memcmp(&actual[i], &expected[i], sizeof(T)), 0) << "element " << i;
}

TEST(ResizeBilinear, HandComputedFloatRow) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {1, 1, 2, 1});
  const uint32_t out = op.add_output(DType::kFloat32, {1, 1, 3, 1});
  op.set_raw_params(taps_bytes<ResizeBilinearF32Tap>({{0, 0, 0.0f}}, {{0, 1, 0.0f}, {0, 1, 0.5f}, {1, 1, 0.0f}}));
  op.set_data(in, std::vector<float>{2.0f, 4.0f});
  ASSERT_EQ(op.check(kResizeBilinearF32Entry), Status::kOk);
  op.run(kResizeBilinearF32Entry);
  EXPECT_EQ(op.data<float>(out), (std::vector<float>{2.0f, 3.0f, 4.0f}));
}

TEST(ResizeBilinear, HandComputedInt8RoundsHalfAwayFromZero) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {1, 1, 2, 1});
  const uint32_t out = op.add_output(DType::kInt8, {1, 1, 3, 1});
  // Half way between 1 and 2 gives 2; between -1 and -2 gives -2; a quarter of 10 -> 3.
  op.set_raw_params(taps_bytes<ResizeBilinearQuantTap>({{0, 0, 0}}, {{0, 1, 512}, {0, 1, 512}, {0, 1, 256}}));
  op.set_data(in, std::vector<int8_t>{1, 2});
  ASSERT_EQ(op.check(kResizeBilinearS8Entry), Status::kOk);
  op.run(kResizeBilinearS8Entry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{2, 2, 1}));
  op.set_data(in, std::vector<int8_t>{-1, -2});
  op.run(kResizeBilinearS8Entry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{-2, -2, -1}));
  op.set_data(in, std::vector<int8_t>{0, 10});
  op.run(kResizeBilinearS8Entry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{5, 5, 3}));
}

// Taps as the compiler makes them for half-pixel upsampling: a negative fraction at the
// first row and column (lower == upper there), interior blends, the last row clamped.
const std::vector<ResizeBilinearQuantTap> kQuantRows = {{0, 0, -256}, {0, 1, 256}, {1, 2, 768}, {2, 2, 256}};
const std::vector<ResizeBilinearQuantTap> kQuantCols = {{0, 0, -512}, {0, 1, 1023}, {1, 1, 0}};
const std::vector<ResizeBilinearF32Tap> kFloatRows = {{0, 0, -0.25f}, {0, 1, 0.25f}, {1, 2, 0.75f}, {2, 2, 0.25f}};
const std::vector<ResizeBilinearF32Tap> kFloatCols = {{0, 0, -0.5f}, {0, 1, 0.999f}, {1, 1, 0.0f}};

template <typename T>
std::vector<T> extremes_and_random(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<T> v(count);
  for (T& x : v) x = static_cast<T>(rng());
  v[0] = std::numeric_limits<T>::min();
  v[1] = std::numeric_limits<T>::max();
  return v;
}

TEST(ResizeBilinear, IntegerKernelsMatchTheContract) {
  const std::vector<uint32_t> dims = {2, 3, 2, 5};
  run_against_reference<int8_t>(kResizeBilinearS8Entry, DType::kInt8, dims, kQuantRows, kQuantCols,
                                extremes_and_random<int8_t>(60, 1));
  run_against_reference<int16_t>(kResizeBilinearS16Entry, DType::kInt16, dims, kQuantRows, kQuantCols,
                                 extremes_and_random<int16_t>(60, 2));
  // All minimum or all maximum: the blend stays at the end of the range.
  run_against_reference<int8_t>(kResizeBilinearS8Entry, DType::kInt8, dims, kQuantRows, kQuantCols,
                                std::vector<int8_t>(60, -128));
  run_against_reference<int16_t>(kResizeBilinearS16Entry, DType::kInt16, dims, kQuantRows, kQuantCols,
                                 std::vector<int16_t>(60, 32767));
}

TEST(ResizeBilinear, FloatKernelMatchesTheContract) {
  run_against_reference<float>(kResizeBilinearF32Entry, DType::kFloat32, {2, 3, 2, 5}, kFloatRows, kFloatCols,
                               testing::random_floats(60, 3, -100.0f, 100.0f));
}

TEST(ResizeBilinear, CheckRefusesCorruptTapsAndShapes) {
  struct Case {
    const char* what;
    std::vector<uint32_t> in, out;
    DType dtype;
    std::vector<ResizeBilinearQuantTap> rows, cols;
    Status expected;
  };
  const std::vector<Case> cases = {
      {"valid", {1, 3, 2, 1}, {1, 2, 1, 1}, DType::kInt8, {{0, 1, 3}, {2, 2, 0}}, {{1, 1, 0}}, Status::kOk},
      {"row past the input", {1, 3, 2, 1}, {1, 2, 1, 1}, DType::kInt8, {{0, 1, 3}, {3, 2, 0}}, {{1, 1, 0}},
       Status::kBadParams},
      {"negative upper column", {1, 3, 2, 1}, {1, 2, 1, 1}, DType::kInt8, {{0, 1, 3}, {2, 2, 0}}, {{1, -1, 0}},
       Status::kBadParams},
      {"fraction below -512", {1, 3, 2, 1}, {1, 2, 1, 1}, DType::kInt16, {{0, 1, -513}, {2, 2, 0}}, {{1, 1, 0}},
       Status::kBadParams},
      {"fraction 1024", {1, 3, 2, 1}, {1, 2, 1, 1}, DType::kInt8, {{0, 1, 3}, {2, 2, 0}}, {{1, 1, 1024}},
       Status::kBadParams},
      {"one tap short", {1, 3, 2, 1}, {1, 2, 1, 1}, DType::kInt8, {{0, 1, 3}}, {{1, 1, 0}}, Status::kBadParams},
      {"channels differ", {1, 3, 2, 1}, {1, 2, 1, 2}, DType::kInt8, {{0, 1, 3}, {2, 2, 0}}, {{1, 1, 0}},
       Status::kBadParams},
      {"batches differ", {1, 3, 2, 1}, {2, 2, 1, 1}, DType::kInt8, {{0, 1, 3}, {2, 2, 0}}, {{1, 1, 0}},
       Status::kBadParams},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    TestOp op;
    op.add_input(c.dtype, c.in);
    op.add_output(c.dtype, c.out);
    op.set_raw_params(taps_bytes(c.rows, c.cols));
    EXPECT_EQ(op.check(c.dtype == DType::kInt8 ? kResizeBilinearS8Entry : kResizeBilinearS16Entry), c.expected);
  }
  TestOp op;  // an int8 tensor given to the float kernel
  op.add_input(DType::kInt8, {1, 3, 2, 1});
  op.add_output(DType::kInt8, {1, 2, 1, 1});
  op.set_raw_params(taps_bytes<ResizeBilinearF32Tap>({{0, 1, 0.5f}, {2, 2, 0.0f}}, {{1, 1, 0.0f}}));
  EXPECT_EQ(op.check(kResizeBilinearF32Entry), Status::kBadParams);
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

}  // namespace resize_bilinear_test
}  // namespace mote
