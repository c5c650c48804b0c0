// batch_to_space and its inverse space_to_batch (one file: the shapes serve both).
#include "batch_to_space/batch_to_space.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "kernel_test_util.h"
#include "space_to_batch/space_to_batch.h"

namespace mote {
namespace batch_to_space_test {

using testing::TestOp;

// The batch_to_space contract: out(b, y, x, c) = in(b + ob * (((y + top) % bh) * bw +
// (x + left) % bw), (y + top) / bh, (x + left) / bw, c); dims [N,H,W,C].
template <typename T>
std::vector<T> batch_to_space(const std::vector<uint32_t>& i, const std::vector<uint32_t>& o,
                              const BatchToSpaceParams& p, const std::vector<T>& in) {
  std::vector<T> out;
  const uint32_t bh = p.block_h, bw = p.block_w;
  for (uint32_t b = 0; b < o[0]; ++b)
    for (uint32_t y = 0; y < o[1]; ++y)
      for (uint32_t x = 0; x < o[2]; ++x)
        for (uint32_t c = 0; c < o[3]; ++c) {
          const uint32_t fy = y + p.crop_top, fx = x + p.crop_left;
          const uint32_t ib = b + o[0] * ((fy % bh) * bw + fx % bw);
          out.push_back(in[((ib * i[1] + fy / bh) * i[2] + fx / bw) * i[3] + c]);
        }
  return out;
}

// The space_to_batch contract: out(b, y, x, c) = in(b % B, y*bh + sh - top, x*bw + sw - left, c),
// sh = (b / B) / bw, sw = (b / B) % bw, or the pad value outside the input.
template <typename T>
std::vector<T> space_to_batch(const std::vector<uint32_t>& i, const std::vector<uint32_t>& o,
                              const SpaceToBatchParams& p, T pad, const std::vector<T>& in) {
  std::vector<T> out;
  for (uint32_t b = 0; b < o[0]; ++b)
    for (uint32_t y = 0; y < o[1]; ++y)
      for (uint32_t x = 0; x < o[2]; ++x)
        for (uint32_t c = 0; c < o[3]; ++c) {
          const int64_t sh = (b / i[0]) / p.block_w, sw = (b / i[0]) % p.block_w;
          const int64_t iy = int64_t{y} * p.block_h + sh - p.pad_top, ix = int64_t{x} * p.block_w + sw - p.pad_left;
          const bool inside = iy >= 0 && iy < i[1] && ix >= 0 && ix < i[2];
          out.push_back(inside ? in[(((b % i[0]) * i[1] + iy) * i[2] + ix) * i[3] + c] : pad);
        }
  return out;
}

std::vector<uint32_t> nhwc(const std::vector<uint32_t>& d) {
  return d.size() == 4 ? d : std::vector<uint32_t>{d[0], d[1], 1, d[2]};
}

template <typename T>
void expect_batch_to_space(DType dtype, const std::vector<uint32_t>& in_dims, const std::vector<uint32_t>& out_dims,
                           BatchToSpaceParams p) {
  TestOp op;
  const uint32_t in = op.add_input(dtype, in_dims);
  const uint32_t out = op.add_output(dtype, out_dims);
  op.set_params(p);
  std::vector<T> values(testing::product(in_dims));
  std::iota(values.begin(), values.end(), T{1});  // distinct values expose any misplacement
  op.set_data(in, values);
  ASSERT_EQ(op.check(kBatchToSpaceEntry), Status::kOk);
  op.run(kBatchToSpaceEntry);
  EXPECT_EQ(op.data<T>(out), batch_to_space(nhwc(in_dims), nhwc(out_dims), p, values));
}

template <typename T>
void expect_space_to_batch(DType dtype, const std::vector<uint32_t>& in_dims, const std::vector<uint32_t>& out_dims,
                           SpaceToBatchParams p, T pad) {
  TestOp op;
  const uint32_t in = op.add_input(dtype, in_dims);
  const uint32_t out = op.add_output(dtype, out_dims);
  memcpy(p.pad_value, &pad, sizeof(T));
  op.set_params(p);
  std::vector<T> values(testing::product(in_dims));
  std::iota(values.begin(), values.end(), T{1});
  op.set_data(in, values);
  ASSERT_EQ(op.check(kSpaceToBatchEntry), Status::kOk);
  op.run(kSpaceToBatchEntry);
  EXPECT_EQ(op.data<T>(out), space_to_batch(nhwc(in_dims), nhwc(out_dims), p, pad, values));
}

TEST(BatchToSpace, HandComputed) {
  TestOp op;  // four 1x1 batches become one 2x2 image
  const uint32_t in = op.add_input(DType::kInt8, {4, 1, 1, 1});
  const uint32_t out = op.add_output(DType::kInt8, {1, 2, 2, 1});
  op.set_params(BatchToSpaceParams{2, 2, 0, 0});
  op.set_data(in, std::vector<int8_t>{1, 2, 3, 4});
  ASSERT_EQ(op.check(kBatchToSpaceEntry), Status::kOk);
  op.run(kBatchToSpaceEntry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{1, 2, 3, 4}));
}

TEST(BatchToSpace, MatchesTheContract) {
  expect_batch_to_space<int8_t>(DType::kInt8, {4, 2, 3, 2}, {1, 3, 4, 2}, {2, 2, 1, 0});
  expect_batch_to_space<int8_t>(DType::kInt8, {12, 2, 2, 1}, {2, 3, 3, 1}, {2, 3, 0, 2});
  expect_batch_to_space<int16_t>(DType::kInt16, {4, 3, 2}, {2, 4, 2}, {2, 1, 1, 0});  // rank 3
  expect_batch_to_space<float>(DType::kFloat32, {8, 2, 2, 1}, {2, 4, 4, 1}, {2, 2, 0, 0});
}

TEST(SpaceToBatch, MatchesTheContract) {
  expect_space_to_batch<int8_t>(DType::kInt8, {1, 4, 6, 2}, {4, 3, 4, 2}, {2, 2, 1, 0, {}}, int8_t{-3});
  expect_space_to_batch<int8_t>(DType::kInt8, {2, 3, 4, 3}, {12, 2, 2, 3}, {2, 3, 1, 1, {}}, int8_t{5});
  expect_space_to_batch<int16_t>(DType::kInt16, {2, 5, 2}, {4, 3, 2}, {2, 1, 1, 0, {}}, int16_t{0});  // rank 3
  expect_space_to_batch<float>(DType::kFloat32, {1, 2, 2, 1}, {4, 2, 2, 1}, {2, 2, 1, 1, {}}, 0.0f);
}

// Every case (what, in, out, p: int8 tensors and the params) fails `entry`'s check.
template <typename Case, size_t N>
void expect_all_refused(const Case (&cases)[N], const KernelEntry& entry) {
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    TestOp op;
    op.add_input(DType::kInt8, c.in);
    op.add_output(DType::kInt8, c.out);
    op.set_params(c.p);
    EXPECT_EQ(op.check(entry), Status::kBadParams);
  }
}

TEST(BatchToSpace, CheckRefusesMismatchedShapesAndParams) {
  struct Case {
    const char* what;
    std::vector<uint32_t> in, out;
    BatchToSpaceParams p;
  };
  const Case cases[] = {{"block 0", {4, 2, 3, 2}, {1, 4, 6, 2}, {0, 2, 0, 0}},
                        {"negative crop", {4, 2, 3, 2}, {1, 4, 6, 2}, {2, 2, -1, 0}},
                        {"batch not divided", {4, 2, 3, 2}, {2, 4, 6, 2}, {2, 2, 0, 0}},
                        {"output past the image", {4, 2, 3, 2}, {1, 4, 6, 2}, {2, 2, 1, 0}},
                        {"channels", {4, 2, 3, 2}, {1, 4, 6, 1}, {2, 2, 0, 0}},
                        {"rank 3 with a width block", {4, 3, 2}, {1, 6, 2}, {2, 2, 0, 0}}};
  expect_all_refused(cases, kBatchToSpaceEntry);
}

TEST(SpaceToBatch, CheckRefusesMismatchedShapesAndParams) {
  struct Case {
    const char* what;
    std::vector<uint32_t> in, out;
    SpaceToBatchParams p;
  };
  const Case cases[] = {{"block 0", {1, 4, 6, 2}, {4, 2, 3, 2}, {2, 0, 0, 0, {}}},
                        {"negative pad", {1, 4, 6, 2}, {4, 2, 3, 2}, {2, 2, 0, -1, {}}},
                        {"batch", {1, 4, 6, 2}, {2, 2, 3, 2}, {2, 2, 0, 0, {}}},
                        {"pad past the output", {1, 4, 6, 2}, {4, 2, 3, 2}, {2, 2, 1, 0, {}}},
                        {"rank 3 with a left pad", {1, 4, 2}, {2, 2, 2}, {2, 1, 0, 1, {}}}};
  expect_all_refused(cases, kSpaceToBatchEntry);
}

}  // namespace batch_to_space_test
}  // namespace mote
