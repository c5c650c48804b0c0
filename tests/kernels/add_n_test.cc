// ADD_N: add_n_f32 against the sum in input order, add_n_s8 against TFLite's integer
// AddN written here (ADD's left shift 20, the accumulator starting from the scaled input
// offset), 2 to 16 inputs, and check() against corrupted descriptors and parameters.
#include "add_n/add_n.h"

#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace add_n_test {

using testing::ref_clamp;
using testing::ref_mbqm;
using testing::TestOp;

TEST(AddN, Float32SumsInInputOrder) {
  for (uint32_t n : {2u, 3u, 7u}) {
    TestOp op;
    std::vector<std::vector<float>> xs;
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t t = op.add_input(DType::kFloat32, {3, 5});
      xs.push_back(testing::random_floats(15, 20 + k, -1e4f, 1e4f));
      op.set_data(t, xs.back());
    }
    const uint32_t out = op.add_output(DType::kFloat32, {3, 5});
    ASSERT_EQ(op.check(kAddNF32Entry), Status::kOk);
    op.run(kAddNF32Entry);
    const auto y = op.data<float>(out);
    for (size_t i = 0; i < 15; ++i) {
      float sum = 0.0f;
      for (const auto& x : xs) sum += x[i];
      EXPECT_EQ(y[i], sum) << i;
    }
  }
}

// TFLite's AddN for int8: scaled(v) = mbqm((offset + v) << 20, in_m, in_s), the sum
// starting from scaled(0) (wrapping in int32), then the output multiplier, offset and clamp.
std::vector<int8_t> ref_add_n(const IntegerSumParams& p, const std::vector<std::vector<int8_t>>& xs) {
  auto scaled = [&](int32_t v) { return ref_mbqm((p.input_offset + v) * (1 << 20), p.input_multiplier, p.input_shift); };
  std::vector<int8_t> y(xs[0].size());
  for (size_t i = 0; i < y.size(); ++i) {
    // 16 inputs of 255 after the offset can pass 2^31: int32 wraps as on the device.
    int64_t sum = scaled(0);
    for (const auto& x : xs) sum += scaled(x[i]);
    const int32_t acc = static_cast<int32_t>(static_cast<uint32_t>(sum));
    y[i] = static_cast<int8_t>(ref_clamp(int64_t{ref_mbqm(acc, p.output_multiplier, p.output_shift)} + p.output_offset,
                                         -128, 127));
  }
  return y;
}

TEST(AddN, Int8AsTfliteAddN) {
  // Input multiplier 0.5 = (2^30, 0) as TFLite's ADD gives for equal input scales; output
  // multipliers of several sizes.
  const IntegerSumParams params[] = {{-5, 3, 1 << 30, 0, 1518500250, -18},
                                 {128, -128, 1 << 30, 0, 1073741824, -19},
                                 {-127, 127, 1 << 30, 0, 2147483000, -21},
                                 {0, 0, 1 << 30, 0, 1288490189, -20}};
  uint32_t seed = 40;
  for (const IntegerSumParams& p : params) {
    for (uint32_t n : {2u, 4u, 16u}) {
      TestOp op;
      std::vector<std::vector<int8_t>> xs;
      for (uint32_t k = 0; k < n; ++k) {
        const uint32_t t = op.add_input(DType::kInt8, {2, 3, 7});
        xs.push_back(testing::random_ints<int8_t>(42, ++seed, -128, 127));
        if (k == 0) xs.back()[0] = -128, xs.back()[1] = 127;
        op.set_data(t, xs.back());
      }
      const uint32_t out = op.add_output(DType::kInt8, {2, 3, 7});
      op.set_params(p);
      ASSERT_EQ(op.check(kAddNS8Entry), Status::kOk);
      op.run(kAddNS8Entry);
      EXPECT_EQ(op.data<int8_t>(out), ref_add_n(p, xs)) << "offset " << p.input_offset << " n " << n;
    }
  }
}

class AddNCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    a_ = op_.add_input(DType::kInt8, {4, 3});
    b_ = op_.add_input(DType::kInt8, {4, 3});
    out_ = op_.add_output(DType::kInt8, {4, 3});
    op_.set_params(IntegerSumParams{-5, 3, 1 << 30, 0, 1518500250, -18});
    ASSERT_EQ(check(), Status::kOk);
  }
  Status check() { return op_.check(kAddNS8Entry); }
  TestOp op_;
  uint32_t a_, b_, out_;
};

TEST_F(AddNCheck, ShapesAndDtypesMustMatch) {
  op_.set_dims(b_, {3, 4});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(b_, {4, 3});
  op_.desc(out_).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(check(), Status::kBadParams);
  op_.desc(out_).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(op_.check(kAddNF32Entry), Status::kBadParams);
}

TEST_F(AddNCheck, ShiftsAndOffsets) {
  op_.params<IntegerSumParams>().input_shift = 1;
  EXPECT_EQ(check(), Status::kBadParams);
  op_.params<IntegerSumParams>().input_shift = 0;
  op_.params<IntegerSumParams>().output_shift = -32;
  EXPECT_EQ(check(), Status::kBadParams);
  op_.params<IntegerSumParams>().output_shift = -18;
  op_.params<IntegerSumParams>().input_offset = 129;
  EXPECT_EQ(check(), Status::kBadParams);
  op_.params<IntegerSumParams>().input_offset = -5;
  op_.params<IntegerSumParams>().output_offset = 128;
  EXPECT_EQ(check(), Status::kBadParams);
  op_.params<IntegerSumParams>().output_offset = 3;
  op_.set_params_bytes(4);
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST(AddN, OneInputIsRefused) {
  TestOp op;
  op.add_input(DType::kFloat32, {4});
  op.add_output(DType::kFloat32, {4});
  EXPECT_NE(op.check(kAddNF32Entry), Status::kOk);
}

}  // namespace add_n_test
}  // namespace mote
