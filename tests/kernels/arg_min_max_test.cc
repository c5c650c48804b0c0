// ARG_MAX / ARG_MIN: the kernels against a scan written here (every axis of a 4-D input,
// float32 and int8, many ties), TFLite Micro's NaN behaviour (a NaN never replaces, one at
// index 0 stays), and check() against corrupted descriptors and parameters.
#include "arg_min_max/arg_min_max.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace arg_min_max_test {

using testing::TestOp;

// The index along `axis` of the first extreme value: a later value replaces the current
// one only when strictly greater (max) or smaller (min).
template <typename T>
std::vector<int32_t> scan(const std::vector<T>& x, const std::vector<uint32_t>& dims, uint32_t axis, bool max) {
  std::vector<uint32_t> out_dims = dims;
  out_dims.erase(out_dims.begin() + axis);
  const auto strides = testing::strides_of(dims);
  std::vector<int32_t> y(testing::product(out_dims));
  for (size_t k = 0; k < y.size(); ++k) {
    const auto o = testing::unflatten(k, out_dims);
    size_t base = 0;
    for (size_t i = 0, j = 0; i < dims.size(); ++i)
      if (i != axis) base += o[j++] * strides[i];
    int32_t best = 0;
    for (uint32_t i = 1; i < dims[axis]; ++i) {
      const T v = x[base + i * strides[axis]];
      const T current = x[base + static_cast<size_t>(best) * strides[axis]];
      if (max ? v > current : v < current) best = static_cast<int32_t>(i);
    }
    y[k] = best;
  }
  return y;
}

template <typename T>
void run_case(DType dtype, const KernelEntry& entry, bool max, const std::vector<uint32_t>& dims, uint32_t axis,
              const std::vector<T>& x) {
  std::vector<uint32_t> out_dims = dims;
  out_dims.erase(out_dims.begin() + axis);
  TestOp op;
  const uint32_t in = op.add_input(dtype, dims);
  const uint32_t out = op.add_output(DType::kInt32, out_dims);
  op.set_params(ArgMinMaxParams{axis, 0});
  op.set_data(in, x);
  ASSERT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  EXPECT_EQ(op.data<int32_t>(out), scan(x, dims, axis, max)) << "axis " << axis;
}

const std::vector<uint32_t> kDims = {2, 3, 4, 5};

TEST(ArgMinMax, Float32EveryAxis) {
  // Values from a small set: many ties, which the first index wins.
  auto x = testing::random_ints<int32_t>(120, 11, -3, 3);
  std::vector<float> xf(x.begin(), x.end());
  xf[5] = INFINITY;
  xf[17] = -INFINITY;
  for (uint32_t axis = 0; axis < 4; ++axis) {
    run_case<float>(DType::kFloat32, kArgMaxF32Entry, true, kDims, axis, xf);
    run_case<float>(DType::kFloat32, kArgMinF32Entry, false, kDims, axis, xf);
  }
}

TEST(ArgMinMax, Int8EveryAxis) {
  const auto x = testing::random_ints<int8_t>(120, 12, -128, 127);
  const auto ties = testing::random_ints<int8_t>(120, 13, -128, -126);
  for (uint32_t axis = 0; axis < 4; ++axis) {
    for (const auto* v : {&x, &ties}) {
      run_case<int8_t>(DType::kInt8, kArgMaxS8Entry, true, kDims, axis, *v);
      run_case<int8_t>(DType::kInt8, kArgMinS8Entry, false, kDims, axis, *v);
    }
  }
  run_case<int8_t>(DType::kInt8, kArgMaxS8Entry, true, {7}, 0, {-128, 127, 5, 127, -128, 0, 127});
  run_case<int8_t>(DType::kInt8, kArgMinS8Entry, false, {7}, 0, {-127, 127, -128, 127, -128, 0, 127});
}

TEST(ArgMinMax, NanNeverReplacesAndStaysAtIndexZero) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {2, 4});
  const uint32_t out = op.add_output(DType::kInt32, {2});
  op.set_params(ArgMinMaxParams{1, 0});
  op.set_data(in, std::vector<float>{1.0f, nan, 3.0f, -2.0f, nan, 5.0f, -7.0f, nan});
  for (const KernelEntry* entry : {&kArgMaxF32Entry, &kArgMinF32Entry}) {
    ASSERT_EQ(op.check(*entry), Status::kOk);
    op.run(*entry);
    const std::vector<int32_t> expected = entry == &kArgMaxF32Entry ? std::vector<int32_t>{2, 0}
                                                                     : std::vector<int32_t>{3, 0};
    EXPECT_EQ(op.data<int32_t>(out), expected);
  }
}

class ArgMinMaxCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    in_ = op_.add_input(DType::kInt8, {2, 5, 3});
    out_ = op_.add_output(DType::kInt32, {2, 3});
    op_.set_params(ArgMinMaxParams{1, 0});
    ASSERT_EQ(check(), Status::kOk);
  }
  Status check() { return op_.check(kArgMaxS8Entry); }
  TestOp op_;
  uint32_t in_, out_;
};

TEST_F(ArgMinMaxCheck, AxisMustBeInsideTheRank) {
  op_.params<ArgMinMaxParams>() = ArgMinMaxParams{3, 0};
  EXPECT_EQ(check(), Status::kBadParams);
  op_.params<ArgMinMaxParams>() = ArgMinMaxParams{0xFFFFFFFFu, 0};
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(ArgMinMaxCheck, OutputCountMustBeTheInputsWithoutTheAxis) {
  op_.set_dims(out_, {2, 5});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(in_, {2, 0, 3});
  op_.set_dims(out_, {2, 3});
  EXPECT_EQ(check(), Status::kBadParams);  // an empty axis has no index to give
}

TEST_F(ArgMinMaxCheck, Dtypes) {
  op_.desc(out_).dtype = static_cast<uint8_t>(DType::kInt64);
  EXPECT_EQ(check(), Status::kOk);  // ONNX's index type
  op_.desc(out_).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(check(), Status::kBadParams);
  op_.desc(out_).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(op_.check(kArgMinF32Entry), Status::kBadParams);
}

TEST_F(ArgMinMaxCheck, ParamsSize) {
  op_.set_params_bytes(4);
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_params_bytes(12);
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(ArgMinMaxCheck, SelectLastIsAFlag) {
  op_.params<ArgMinMaxParams>() = ArgMinMaxParams{1, 2};
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST(ArgMinMax, SelectLastAndInt64Indices) {
  // Rows with ties: select_last gives the last of the tied extremes, into int64.
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {2, 5});
  const uint32_t out = op.add_output(DType::kInt64, {2, 1});
  op.set_data(in, std::vector<float>{3.0f, 1.0f, 3.0f, 1.0f, 0.0f, -2.0f, 4.0f, -2.0f, 4.0f, -2.0f});
  const struct {
    const KernelEntry* entry;
    uint32_t last;
    std::vector<int64_t> expected;
  } cases[] = {{&kArgMaxF32Entry, 0, {0, 1}}, {&kArgMaxF32Entry, 1, {2, 3}},
               {&kArgMinF32Entry, 0, {4, 0}}, {&kArgMinF32Entry, 1, {4, 4}}};
  for (const auto& c : cases) {
    op.set_params(ArgMinMaxParams{1, c.last});
    ASSERT_EQ(op.check(*c.entry), Status::kOk);
    op.run(*c.entry);
    EXPECT_EQ(op.data<int64_t>(out), c.expected) << "select_last " << c.last;
  }
}

}  // namespace arg_min_max_test
}  // namespace mote
