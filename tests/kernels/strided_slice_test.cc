// STRIDED_SLICE: the kernel against direct indexing, and strided_slice_resolve() against
// TFLite's begin/end/mask semantics.
#include "strided_slice/strided_slice.h"

#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace strided_slice_test {

using testing::TestOp;

template <typename T>
void run_case(DType dtype, const std::vector<uint32_t>& in_dims, const StridedSliceParams& p,
              const std::vector<uint32_t>& out_dims, uint32_t seed) {
  TestOp op;
  const uint32_t in = op.add_input(dtype, in_dims);
  const uint32_t out = op.add_output(dtype, out_dims);
  op.set_params(p);
  const auto x = testing::random_ints<T>(testing::product(in_dims), seed, -1000, 1000);
  op.set_data(in, x);
  ASSERT_EQ(op.check(kStridedSliceEntry), Status::kOk);
  op.run(kStridedSliceEntry);
  const auto y = op.data<T>(out);
  // Expected: walk the counts in row-major order.
  std::vector<uint32_t> counts;
  for (size_t i = 0; i < in_dims.size(); ++i) counts.push_back(static_cast<uint32_t>(p.count[i]));
  const auto strides = testing::strides_of(in_dims);
  ASSERT_EQ(y.size(), testing::product(counts));
  for (size_t k = 0; k < y.size(); ++k) {
    const auto idx = testing::unflatten(k, counts);
    size_t offset = 0;
    for (size_t i = 0; i < in_dims.size(); ++i) {
      offset += (p.begin[i] + static_cast<int64_t>(idx[i]) * p.stride[i]) * strides[i];
    }
    ASSERT_EQ(y[k], x[offset]) << k;
  }
}

StridedSliceParams make(std::vector<int32_t> begin, std::vector<int32_t> stride,
                        std::vector<int32_t> count) {
  StridedSliceParams p{};
  for (size_t i = 0; i < kMaxRank; ++i) {
    p.begin[i] = i < begin.size() ? begin[i] : 0;
    p.stride[i] = i < stride.size() ? stride[i] : 1;
    p.count[i] = i < count.size() ? count[i] : 1;
  }
  return p;
}

TEST(StridedSlice, HandComputed) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {2, 5});
  const uint32_t out = op.add_output(DType::kInt16, {2, 2});
  op.set_params(make({1, 4}, {-1, -3}, {2, 2}));
  op.set_data(in, std::vector<int16_t>{0, 1, 2, 3, 4, 10, 11, 12, 13, 14});
  ASSERT_EQ(op.check(kStridedSliceEntry), Status::kOk);
  op.run(kStridedSliceEntry);
  EXPECT_EQ(op.data<int16_t>(out), (std::vector<int16_t>{14, 11, 4, 1}));
}

TEST(StridedSlice, MatchesIndexingAnyDtype) {
  // SeaNet strided_slice1: [1, 4, 162, 8] -> rows 2..3 -> [1, 2, 162, 8].
  run_case<int16_t>(DType::kInt16, {1, 4, 162, 8}, make({0, 2, 0, 0}, {1, 1, 1, 1}, {1, 2, 162, 8}),
                    {1, 2, 162, 8}, 1);
  run_case<int8_t>(DType::kInt8, {3, 7, 5}, make({2, 6, 1}, {-1, -2, 3}, {3, 4, 2}), {3, 4, 2}, 2);
  run_case<float>(DType::kFloat32, {4, 6}, make({1, 0}, {2, 1}, {2, 6}), {2, 6}, 3);
  run_case<int32_t>(DType::kInt32, {2, 3, 4, 5, 6}, make({1, 0, 3, 1, 5}, {1, 2, -1, 2, -5}, {1, 2, 3, 2, 2}),
                    {2, 3, 2, 2}, 4);  // shrunk first axis: output rank 4
  run_case<int64_t>(DType::kInt64, {5}, make({0}, {1}, {0}), {0}, 5);  // empty
}

// The walk merges axes the input continues in the same step: a tile crop of an NHWC image
// (whole channel runs, part of the rows and columns), a crop of whole rows (one run), a
// negative-stride axis whose step continues the next one, an axis of one index between
// mergeable ones, and a strided innermost axis that must stay element by element.
TEST(StridedSlice, MatchesIndexingWhereAxesMerge) {
  run_case<int16_t>(DType::kInt16, {1, 12, 10, 3}, make({0, 2, 3, 0}, {1, 1, 1, 1}, {1, 5, 6, 3}), {1, 5, 6, 3}, 6);
  run_case<int16_t>(DType::kInt16, {1, 12, 10, 3}, make({0, 4, 0, 0}, {1, 1, 1, 1}, {1, 5, 10, 3}), {1, 5, 10, 3}, 7);
  run_case<int8_t>(DType::kInt8, {4, 3, 5}, make({0, 0, 0}, {1, 1, 1}, {4, 3, 5}), {4, 3, 5}, 8);
  run_case<float>(DType::kFloat32, {3, 1, 4, 2}, make({0, 0, 0, 0}, {1, 1, 2, 1}, {3, 1, 2, 2}), {3, 1, 2, 2}, 9);
  run_case<int32_t>(DType::kInt32, {6, 4}, make({5, 0}, {-1, 1}, {6, 4}), {6, 4}, 10);
  run_case<int16_t>(DType::kInt16, {2, 6, 4}, make({0, 1, 0}, {1, 1, 2}, {2, 5, 2}), {2, 5, 2}, 11);
}

TEST(StridedSliceResolve, TfliteSemantics) {
  StridedSliceParams p{};
  const int32_t dims[] = {1, 4, 162, 8};
  // begin [0, 2, 0, 0], end [1, 4, 162, 8] with begin/end masks on axes 0, 2, 3.
  const int32_t begin[] = {0, 2, 0, 0}, end[] = {0, 4, 0, 0}, strides[] = {1, 1, 1, 1};
  ASSERT_TRUE(strided_slice_resolve(4, dims, begin, end, strides, 0b1101, 0b1101, 0, false, &p));
  EXPECT_EQ(p.begin[1], 2);
  EXPECT_EQ(p.count[0], 1);
  EXPECT_EQ(p.count[1], 2);
  EXPECT_EQ(p.count[2], 162);
  EXPECT_EQ(p.count[3], 8);

  // Negative indices and a negative stride: x[-1:-6:-2] of 10 -> 9, 7, 5.
  const int32_t d1[] = {10};
  const int32_t b1[] = {-1}, e1[] = {-6}, s1[] = {-2};
  ASSERT_TRUE(strided_slice_resolve(1, d1, b1, e1, s1, 0, 0, 0, false, &p));
  EXPECT_EQ(p.begin[0], 9);
  EXPECT_EQ(p.stride[0], -2);
  EXPECT_EQ(p.count[0], 3);
  // End mask with a negative stride runs to index 0: 9, 6, 3, 0.
  const int32_t s3[] = {-3};
  ASSERT_TRUE(strided_slice_resolve(1, d1, b1, e1, s3, 0, 1, 0, false, &p));
  EXPECT_EQ(p.count[0], 4);
  // Shrink axis: exactly one element at begin.
  const int32_t b2[] = {4}, e2[] = {0}, s2[] = {1};
  ASSERT_TRUE(strided_slice_resolve(1, d1, b2, e2, s2, 0, 0, 1, false, &p));
  EXPECT_EQ(p.begin[0], 4);
  EXPECT_EQ(p.count[0], 1);
  // Out-of-range begin/end clamp; an empty range gives count 0.
  const int32_t b3[] = {-100}, e3[] = {100};
  ASSERT_TRUE(strided_slice_resolve(1, d1, b3, e3, s2, 0, 0, 0, false, &p));
  EXPECT_EQ(p.begin[0], 0);
  EXPECT_EQ(p.count[0], 10);
  const int32_t b4[] = {7}, e4[] = {3};
  ASSERT_TRUE(strided_slice_resolve(1, d1, b4, e4, s2, 0, 0, 0, false, &p));
  EXPECT_EQ(p.count[0], 0);
  // offset: end is relative to begin: [2, 2 + 5) step 2 -> 2, 4, 6.
  const int32_t b5[] = {2}, e5[] = {5}, s5[] = {2};
  ASSERT_TRUE(strided_slice_resolve(1, d1, b5, e5, s5, 0, 0, 0, true, &p));
  EXPECT_EQ(p.count[0], 3);
  // Zero stride is refused.
  const int32_t s0[] = {0};
  EXPECT_FALSE(strided_slice_resolve(1, d1, b5, e5, s0, 0, 0, 0, false, &p));
}

TEST(StridedSliceCheck, Rejections) {
  TestOp op;
  op.add_input(DType::kInt8, {4, 6});
  const uint32_t out = op.add_output(DType::kInt8, {2, 3});
  op.set_params(make({1, 5}, {2, -2}, {2, 3}));
  ASSERT_EQ(op.check(kStridedSliceEntry), Status::kOk);
  auto& p = op.params<StridedSliceParams>();
  p.begin[1] = 6;  // first index outside
  EXPECT_EQ(op.check(kStridedSliceEntry), Status::kBadParams);
  p.begin[1] = 3;  // last index 3 - 4 = -1 outside
  EXPECT_EQ(op.check(kStridedSliceEntry), Status::kBadParams);
  p.begin[1] = 5;
  p.stride[0] = 0;
  EXPECT_EQ(op.check(kStridedSliceEntry), Status::kBadParams);
  p.stride[0] = 2;
  p.count[0] = -1;
  EXPECT_EQ(op.check(kStridedSliceEntry), Status::kBadParams);
  p.count[0] = 2;
  op.desc(out).dims[1] = 4;  // element count mismatch
  EXPECT_EQ(op.check(kStridedSliceEntry), Status::kBadParams);
  op.desc(out).dims[1] = 3;
  op.desc(out).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(op.check(kStridedSliceEntry), Status::kBadParams);
  op.desc(out).dtype = static_cast<uint8_t>(DType::kInt8);
  // Huge stride and begin on an axis visited once are harmless and accepted.
  p.count[0] = 1;
  p.stride[0] = INT32_MAX;
  op.desc(out).dims[0] = 1;
  EXPECT_EQ(op.check(kStridedSliceEntry), Status::kOk);
}

}  // namespace strided_slice_test
}  // namespace mote
