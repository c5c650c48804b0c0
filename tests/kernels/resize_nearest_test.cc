#include "resize_nearest/resize_nearest.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace resize_nearest_test {

using testing::TestOp;

// The params: source_row[OH] then source_col[OW].
std::vector<uint8_t> table_bytes(const std::vector<int32_t>& rows, const std::vector<int32_t>& cols) {
  std::vector<int32_t> all = rows;
  all.insert(all.end(), cols.begin(), cols.end());
  std::vector<uint8_t> bytes(all.size() * 4);
  memcpy(bytes.data(), all.data(), bytes.size());
  return bytes;
}

// By definition: out[n][y][x][c] = in[n][rows[y]][cols[x]][c].
template <typename T>
std::vector<T> reference(const std::vector<uint32_t>& in_dims, const std::vector<int32_t>& rows,
                         const std::vector<int32_t>& cols, const std::vector<T>& in) {
  const uint32_t h = in_dims[1], w = in_dims[2], c = in_dims[3];
  std::vector<T> out;
  for (uint32_t n = 0; n < in_dims[0]; ++n)
    for (int32_t r : rows)
      for (int32_t q : cols)
        for (uint32_t k = 0; k < c; ++k) out.push_back(in[((n * h + r) * w + q) * c + k]);
  return out;
}

template <typename T>
void run_against_reference(DType dtype, const std::vector<uint32_t>& in_dims, const std::vector<int32_t>& rows,
                           const std::vector<int32_t>& cols) {
  TestOp op;
  const uint32_t in = op.add_input(dtype, in_dims);
  const uint32_t out = op.add_output(dtype, {in_dims[0], static_cast<uint32_t>(rows.size()),
                                             static_cast<uint32_t>(cols.size()), in_dims[3]});
  op.set_raw_params(table_bytes(rows, cols));
  std::vector<T> values(testing::product(in_dims));
  std::iota(values.begin(), values.end(), T{1});  // distinct values expose any misplacement
  op.set_data(in, values);
  ASSERT_EQ(op.check(kResizeNearestEntry), Status::kOk);
  op.run(kResizeNearestEntry);
  EXPECT_EQ(op.data<T>(out), reference(in_dims, rows, cols, values));
}

TEST(ResizeNearest, HandComputedDoubling) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {1, 2, 2, 1});
  const uint32_t out = op.add_output(DType::kInt8, {1, 4, 4, 1});
  op.set_raw_params(table_bytes({0, 0, 1, 1}, {0, 0, 1, 1}));
  op.set_data(in, std::vector<int8_t>{1, 2, 3, 4});
  ASSERT_EQ(op.check(kResizeNearestEntry), Status::kOk);
  op.run(kResizeNearestEntry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
}

TEST(ResizeNearest, GathersEveryElementSize) {
  run_against_reference<int8_t>(DType::kInt8, {2, 3, 5, 3}, {0, 0, 1, 2, 2, 2, 1}, {4, 0, 3, 3});
  run_against_reference<int16_t>(DType::kInt16, {1, 4, 4, 2}, {1, 3}, {0, 2, 3});
  run_against_reference<float>(DType::kFloat32, {3, 2, 3, 5}, {1, 0, 1}, {2, 2, 1, 0, 0});
  run_against_reference<uint8_t>(DType::kUInt8, {1, 1, 1, 7}, {0, 0, 0}, {0, 0});
  run_against_reference<int64_t>(DType::kInt64, {2, 2, 3, 2}, {1, 1, 0}, {2, 0});
}

TEST(ResizeNearest, CheckRefusesCorruptTablesAndShapes) {
  auto make = [](TestOp& op, std::vector<uint32_t> in_dims, std::vector<uint32_t> out_dims, DType in_dtype,
                 DType out_dtype) {
    op.add_input(in_dtype, in_dims);
    op.add_output(out_dtype, out_dims);
  };
  {
    TestOp op;  // the reference case passes
    make(op, {1, 3, 3, 2}, {1, 2, 2, 2}, DType::kInt8, DType::kInt8);
    op.set_raw_params(table_bytes({0, 2}, {1, 2}));
    EXPECT_EQ(op.check(kResizeNearestEntry), Status::kOk);
  }
  {
    TestOp op;  // a row past the input
    make(op, {1, 3, 3, 2}, {1, 2, 2, 2}, DType::kInt8, DType::kInt8);
    op.set_raw_params(table_bytes({0, 3}, {1, 2}));
    EXPECT_EQ(op.check(kResizeNearestEntry), Status::kBadParams);
  }
  {
    TestOp op;  // a negative column
    make(op, {1, 3, 3, 2}, {1, 2, 2, 2}, DType::kInt8, DType::kInt8);
    op.set_raw_params(table_bytes({0, 1}, {-1, 2}));
    EXPECT_EQ(op.check(kResizeNearestEntry), Status::kBadParams);
  }
  {
    TestOp op;  // one entry short
    make(op, {1, 3, 3, 2}, {1, 2, 2, 2}, DType::kInt8, DType::kInt8);
    op.set_raw_params(table_bytes({0, 1}, {2}));
    EXPECT_EQ(op.check(kResizeNearestEntry), Status::kBadParams);
  }
  {
    TestOp op;  // channels differ
    make(op, {1, 3, 3, 2}, {1, 2, 2, 3}, DType::kInt8, DType::kInt8);
    op.set_raw_params(table_bytes({0, 1}, {0, 1}));
    EXPECT_EQ(op.check(kResizeNearestEntry), Status::kBadParams);
  }
  {
    TestOp op;  // batches differ
    make(op, {2, 3, 3, 2}, {1, 2, 2, 2}, DType::kInt8, DType::kInt8);
    op.set_raw_params(table_bytes({0, 1}, {0, 1}));
    EXPECT_EQ(op.check(kResizeNearestEntry), Status::kBadParams);
  }
  {
    TestOp op;  // dtypes differ
    make(op, {1, 3, 3, 2}, {1, 2, 2, 2}, DType::kInt8, DType::kInt16);
    op.set_raw_params(table_bytes({0, 1}, {0, 1}));
    EXPECT_EQ(op.check(kResizeNearestEntry), Status::kBadParams);
  }
  {
    TestOp op;  // rank 3
    make(op, {3, 3, 2}, {2, 2, 2}, DType::kInt8, DType::kInt8);
    op.set_raw_params(table_bytes({0, 1}, {0, 1}));
    EXPECT_EQ(op.check(kResizeNearestEntry), Status::kBadParams);
  }
}

}  // namespace resize_nearest_test
}  // namespace mote
