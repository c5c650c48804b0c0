// top_k_f32: against a stable sort written here (every axis of a 4-D input, largest and
// smallest, every k, many ties: the lower index first), NaN ranked above every number,
// int32 and int64 indices, and check() against corrupted descriptors and parameters.
#include "top_k/top_k.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace top_k_test {

using testing::TestOp;

struct Expected {
  std::vector<float> values;
  std::vector<int64_t> indices;
};

// Each row along `axis` sorted stably (NaN above every number), the first k kept.
Expected sorted_rows(const std::vector<float>& x, const std::vector<uint32_t>& dims, uint32_t axis, uint32_t k,
                     bool largest) {
  std::vector<uint32_t> out_dims = dims;
  out_dims[axis] = k;
  const auto strides = testing::strides_of(dims), out_strides = testing::strides_of(out_dims);
  Expected e{std::vector<float>(testing::product(out_dims)), std::vector<int64_t>(testing::product(out_dims))};
  std::vector<uint32_t> row_dims = dims;
  row_dims[axis] = 1;
  for (size_t r = 0; r < testing::product(row_dims); ++r) {
    const auto pos = testing::unflatten(r, row_dims);
    size_t base = 0, out_base = 0;
    for (size_t i = 0; i < dims.size(); ++i) {
      base += pos[i] * strides[i];
      out_base += pos[i] * out_strides[i];
    }
    std::vector<uint32_t> order(dims[axis]);
    std::iota(order.begin(), order.end(), 0u);
    auto key = [&](uint32_t i) { return x[base + i * strides[axis]]; };
    auto above = [](float a, float b) { return !std::isnan(b) && (std::isnan(a) || a > b); };
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return largest ? above(key(a), key(b)) : above(key(b), key(a)); });
    for (uint32_t j = 0; j < k; ++j) {
      e.values[out_base + j * out_strides[axis]] = key(order[j]);
      e.indices[out_base + j * out_strides[axis]] = order[j];
    }
  }
  return e;
}

void run_case(const std::vector<uint32_t>& dims, uint32_t axis, uint32_t k, bool largest, const std::vector<float>& x,
              DType index_dtype) {
  SCOPED_TRACE(::testing::Message() << "axis " << axis << " k " << k << " largest " << largest);
  std::vector<uint32_t> out_dims = dims;
  out_dims[axis] = k;
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, dims);
  const uint32_t values = op.add_output(DType::kFloat32, out_dims);
  const uint32_t indices = op.add_output(index_dtype, out_dims);
  op.set_params(TopKParams{axis, k, largest ? 1u : 0u});
  op.set_data(in, x);
  ASSERT_EQ(op.check(kTopKF32Entry), Status::kOk);
  op.run(kTopKF32Entry);
  const Expected e = sorted_rows(x, dims, axis, k, largest);
  const std::vector<float> got = op.data<float>(values);
  ASSERT_EQ(got.size(), e.values.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(e.values[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << i;
    } else {
      EXPECT_EQ(got[i], e.values[i]) << i;
    }
  }
  if (index_dtype == DType::kInt64) {
    EXPECT_EQ(op.data<int64_t>(indices), e.indices);
  } else {
    EXPECT_EQ(op.data<int32_t>(indices), std::vector<int32_t>(e.indices.begin(), e.indices.end()));
  }
}

TEST(TopK, EveryAxisEveryKWithTies) {
  const std::vector<uint32_t> dims = {2, 3, 4, 5};
  const auto ints = testing::random_ints<int32_t>(120, 21, -3, 3);  // many ties
  std::vector<float> x(ints.begin(), ints.end());
  x[7] = INFINITY;
  x[31] = -INFINITY;
  for (uint32_t axis = 0; axis < 4; ++axis)
    for (uint32_t k = 1; k <= dims[axis]; ++k)
      for (bool largest : {true, false}) run_case(dims, axis, k, largest, x, DType::kInt64);
}

TEST(TopK, DistinctValuesInt32Indices) {
  const auto ints = testing::random_ints<int32_t>(60, 22, -1000, 1000);
  std::vector<float> x;
  for (int32_t v : ints) x.push_back(static_cast<float>(v) * 0.125f);
  run_case({6, 10}, 1, 4, true, x, DType::kInt32);
  run_case({6, 10}, 0, 6, false, x, DType::kInt32);
}

TEST(TopK, NanRanksAboveEveryNumber) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {1.0f, nan, 3.0f, -2.0f, nan, 5.0f};
  run_case({6}, 0, 3, true, x, DType::kInt64);   // nan (1), nan (4), 5
  run_case({6}, 0, 6, false, x, DType::kInt64);  // -2, 1, 3, 5, nan, nan
}

class TopKCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    in_ = op_.add_input(DType::kFloat32, {2, 5, 3});
    values_ = op_.add_output(DType::kFloat32, {2, 2, 3});
    indices_ = op_.add_output(DType::kInt64, {2, 2, 3});
    op_.set_params(TopKParams{1, 2, 1});
    ASSERT_EQ(check(), Status::kOk);
  }
  Status check() { return op_.check(kTopKF32Entry); }
  TestOp op_;
  uint32_t in_, values_, indices_;
};

TEST_F(TopKCheck, AxisKAndLargest) {
  op_.params<TopKParams>() = TopKParams{3, 2, 1};
  EXPECT_EQ(check(), Status::kBadParams);
  op_.params<TopKParams>() = TopKParams{1, 0, 1};
  EXPECT_EQ(check(), Status::kBadParams);
  op_.params<TopKParams>() = TopKParams{1, 6, 1};
  EXPECT_EQ(check(), Status::kBadParams);
  op_.params<TopKParams>() = TopKParams{1, 2, 2};
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(TopKCheck, OutputCounts) {
  op_.set_dims(values_, {2, 3, 3});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(values_, {2, 2, 3});
  op_.set_dims(indices_, {2, 5, 3});
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(TopKCheck, Dtypes) {
  op_.desc(indices_).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(check(), Status::kOk);
  op_.desc(indices_).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(check(), Status::kBadParams);
  op_.desc(indices_).dtype = static_cast<uint8_t>(DType::kInt64);
  op_.desc(values_).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(TopKCheck, ParamsSize) {
  op_.set_params_bytes(8);
  EXPECT_EQ(check(), Status::kBadParams);
}

}  // namespace top_k_test
}  // namespace mote
