// layer_norm_f32 and group_norm_f32 against the normalization written here in double
// (mean, biased variance, (x - mean) / sqrt(var + eps) * scale + bias), on rows long
// enough and offset far enough from zero that float summation error would show, and
// check() against corrupted descriptors and parameters.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "group_norm/group_norm.h"
#include "kernel_test_util.h"
#include "layer_norm/layer_norm.h"

namespace mote {
namespace normalization_test {

using testing::TestOp;

// Normalizes the values x[index[i]] of one group (double math) into y.
void ref_normalize(const std::vector<float>& x, const std::vector<size_t>& index, double eps,
                   const std::vector<double>& scale, const std::vector<double>& bias, std::vector<double>* y) {
  double sum = 0;
  for (size_t i : index) sum += x[i];
  const double mean = sum / static_cast<double>(index.size());
  double sq = 0;
  for (size_t i : index) sq += (x[i] - mean) * (x[i] - mean);
  const double inv = 1.0 / std::sqrt(sq / static_cast<double>(index.size()) + eps);
  for (size_t k = 0; k < index.size(); ++k) (*y)[index[k]] = (x[index[k]] - mean) * inv * scale[k] + bias[k];
}

void expect_close(const std::vector<float>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const double err = std::fabs(got[i] - want[i]);
    EXPECT_TRUE(err <= tol * std::max(1.0, std::fabs(want[i]))) << i << ": " << got[i] << " vs " << want[i];
  }
}

// x of `dims`, rows of the dims from `axis` on; offset added to every value.
void run_layer_norm(const std::vector<uint32_t>& dims, uint32_t axis, float offset, bool with_bias) {
  size_t total = 1, n = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    total *= dims[i];
    if (i >= axis) n *= dims[i];
  }
  auto x = testing::random_floats(total, 11 + axis, -3.0f, 3.0f);
  for (float& v : x) v += offset;
  const auto scale = testing::random_floats(n, 12, 0.5f, 1.5f);
  const auto bias = testing::random_floats(n, 13, -1.0f, 1.0f);
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, dims);
  const uint32_t s = op.add_input(DType::kFloat32, {static_cast<uint32_t>(n)});
  uint32_t b = 0;
  if (with_bias) {
    b = op.add_input(DType::kFloat32, {static_cast<uint32_t>(n)});
  }
  const uint32_t out = op.add_output(DType::kFloat32, dims);
  op.set_params(LayerNormParams{axis, 1e-5f});
  op.set_data(in, x);
  op.set_data(s, scale);
  if (with_bias) op.set_data(b, bias);
  ASSERT_EQ(op.check(kLayerNormF32Entry), Status::kOk);
  op.run(kLayerNormF32Entry);
  std::vector<double> want(total);
  const std::vector<double> sd(scale.begin(), scale.end());
  const std::vector<double> bd = with_bias ? std::vector<double>(bias.begin(), bias.end()) : std::vector<double>(n, 0.0);
  for (size_t r = 0; r < total / n; ++r) {
    std::vector<size_t> index(n);
    for (size_t i = 0; i < n; ++i) index[i] = r * n + i;
    ref_normalize(x, index, 1e-5, sd, bd, &want);
  }
  expect_close(op.data<float>(out), want, 1e-5);
}

TEST(LayerNorm, Float32MatchesDoubleOverTheLastDims) {
  run_layer_norm({2, 3, 16}, 2, 0.0f, true);
  run_layer_norm({2, 3, 16}, 1, 0.0f, false);
  run_layer_norm({1, 4, 5, 6}, 2, 0.0f, true);
  run_layer_norm({3, 7}, 0, 0.0f, true);          // the whole tensor is one row
  run_layer_norm({2, 1000}, 1, 100.0f, true);     // long rows far from zero
}

TEST(LayerNorm, ConstantRowGivesBias) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {1, 4});
  const uint32_t s = op.add_input(DType::kFloat32, {4});
  const uint32_t b = op.add_input(DType::kFloat32, {4});
  const uint32_t out = op.add_output(DType::kFloat32, {1, 4});
  op.set_params(LayerNormParams{1, 1e-5f});
  op.set_data(in, std::vector<float>{2.5f, 2.5f, 2.5f, 2.5f});
  op.set_data(s, std::vector<float>{1, 2, 3, 4});
  op.set_data(b, std::vector<float>{0.5f, -1, 0, 7});
  ASSERT_EQ(op.check(kLayerNormF32Entry), Status::kOk);
  op.run(kLayerNormF32Entry);
  EXPECT_EQ(op.data<float>(out), (std::vector<float>{0.5f, -1, 0, 7}));
}

TEST(LayerNorm, CheckRefusesCorruptDescriptors) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {2, 3, 4});
  const uint32_t s = op.add_input(DType::kFloat32, {12});
  const uint32_t b = op.add_input(DType::kFloat32, {12});
  const uint32_t out = op.add_output(DType::kFloat32, {2, 3, 4});
  op.set_params(LayerNormParams{1, 1e-5f});
  ASSERT_EQ(op.check(kLayerNormF32Entry), Status::kOk);
  op.params<LayerNormParams>().axis = 3;  // past the rank
  EXPECT_EQ(op.check(kLayerNormF32Entry), Status::kBadParams);
  op.params<LayerNormParams>().axis = 2;  // rows of 4, scale of 12
  EXPECT_EQ(op.check(kLayerNormF32Entry), Status::kBadParams);
  op.params<LayerNormParams>().axis = 1;
  op.set_dims(b, {11});
  EXPECT_EQ(op.check(kLayerNormF32Entry), Status::kBadParams);
  op.set_dims(b, {12});
  op.set_dims(out, {2, 4, 3});
  EXPECT_EQ(op.check(kLayerNormF32Entry), Status::kBadParams);
  op.set_dims(out, {2, 3, 4});
  op.desc(s).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(op.check(kLayerNormF32Entry), Status::kBadParams);
  op.desc(s).dtype = static_cast<uint8_t>(DType::kFloat32);
  op.set_params_bytes(4);
  EXPECT_EQ(op.check(kLayerNormF32Entry), Status::kBadParams);
  (void)in;
}

// x [N, positions..., C] channels last, `groups` groups.
void run_group_norm(const std::vector<uint32_t>& dims, uint32_t groups, float offset, bool with_bias) {
  size_t total = 1;
  for (uint32_t d : dims) total *= d;
  const size_t batch = dims.front(), channels = dims.back(), positions = total / batch / channels;
  auto x = testing::random_floats(total, 21 + groups, -2.0f, 2.0f);
  for (size_t i = 0; i < total; ++i) x[i] += offset + 0.3f * static_cast<float>(i % channels);
  const auto scale = testing::random_floats(channels, 22, 0.5f, 1.5f);
  const auto bias = testing::random_floats(channels, 23, -1.0f, 1.0f);
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, dims);
  const uint32_t s = op.add_input(DType::kFloat32, {static_cast<uint32_t>(channels)});
  uint32_t b = 0;
  if (with_bias) {
    b = op.add_input(DType::kFloat32, {static_cast<uint32_t>(channels)});
  }
  const uint32_t out = op.add_output(DType::kFloat32, dims);
  op.set_params(GroupNormParams{groups, 1e-5f});
  op.set_data(in, x);
  op.set_data(s, scale);
  if (with_bias) op.set_data(b, bias);
  ASSERT_EQ(op.check(kGroupNormF32Entry), Status::kOk);
  op.run(kGroupNormF32Entry);
  std::vector<double> want(total);
  const size_t width = channels / groups;
  for (size_t n = 0; n < batch; ++n) {
    for (size_t g = 0; g < groups; ++g) {
      std::vector<size_t> index;
      std::vector<double> sd, bd;
      for (size_t p = 0; p < positions; ++p) {
        for (size_t c = g * width; c < (g + 1) * width; ++c) {
          index.push_back((n * positions + p) * channels + c);
          sd.push_back(scale[c]);
          bd.push_back(with_bias ? bias[c] : 0.0);
        }
      }
      ref_normalize(x, index, 1e-5, sd, bd, &want);
    }
  }
  expect_close(op.data<float>(out), want, 1e-5);
}

TEST(GroupNorm, Float32MatchesDoubleOverPositionsAndGroupChannels) {
  run_group_norm({2, 5, 6, 16}, 4, 0.0f, true);   // GroupNorm(4, 16) NHWC
  run_group_norm({1, 7, 8}, 8, 0.0f, true);       // instance norm, NLC
  run_group_norm({2, 3, 3, 6}, 1, 0.0f, false);   // one group
  run_group_norm({1, 40, 40, 2}, 2, 50.0f, true); // many positions far from zero
  run_group_norm({3, 6}, 3, 0.0f, true);          // rank 2: one position
}

TEST(GroupNorm, CheckRefusesCorruptDescriptors) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {1, 2, 2, 8});
  const uint32_t s = op.add_input(DType::kFloat32, {8});
  op.add_missing_input();
  const uint32_t out = op.add_output(DType::kFloat32, {1, 2, 2, 8});
  op.set_params(GroupNormParams{4, 1e-5f});
  ASSERT_EQ(op.check(kGroupNormF32Entry), Status::kOk);
  op.params<GroupNormParams>().groups = 3;  // does not divide 8
  EXPECT_EQ(op.check(kGroupNormF32Entry), Status::kBadParams);
  op.params<GroupNormParams>().groups = 0;
  EXPECT_EQ(op.check(kGroupNormF32Entry), Status::kBadParams);
  op.params<GroupNormParams>().groups = 4;
  op.set_dims(s, {4});
  EXPECT_EQ(op.check(kGroupNormF32Entry), Status::kBadParams);
  op.set_dims(s, {8});
  op.set_dims(in, {16});
  op.set_dims(out, {16});
  EXPECT_EQ(op.check(kGroupNormF32Entry), Status::kBadParams);  // rank 1
  op.set_dims(in, {1, 2, 2, 8});
  op.set_dims(out, {1, 2, 8, 2});
  EXPECT_EQ(op.check(kGroupNormF32Entry), Status::kBadParams);
}

}  // namespace normalization_test
}  // namespace mote
