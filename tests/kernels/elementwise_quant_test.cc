// Quantized add / sub / mul (int8 and int16) against the model of TFLite's AddFunc,
// SubElementwise and MulElementwise, with broadcasting.
#include <gtest/gtest.h>

#include <vector>

#include "elementwise/elementwise.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"

namespace mote {
namespace elementwise_quant_test {

using testing::TestOp;

enum class Kind { kAdd, kSub, kMul };

template <typename T>
int32_t reference(Kind kind, const QuantAddSubParams& p, int32_t left_shift, T a, T b) {
  const int32_t a_s = testing::ref_mbqm((a - p.input1_zero_point) * (1 << left_shift),
                                        p.input1_multiplier, p.input1_shift);
  const int32_t b_s = testing::ref_mbqm((b - p.input2_zero_point) * (1 << left_shift),
                                        p.input2_multiplier, p.input2_shift);
  const int32_t raw = testing::wrap32(kind == Kind::kAdd ? int64_t{a_s} + b_s : int64_t{a_s} - b_s);
  const int64_t v = int64_t{testing::ref_mbqm(raw, p.output_multiplier, p.output_shift)} +
                    p.output_zero_point;
  return testing::ref_clamp(v, p.act_min, p.act_max);
}

template <typename T>
int32_t reference_mul(const QuantMulParams& p, T a, T b) {
  const int64_t product = (int64_t{a} - p.input1_zero_point) * (int64_t{b} - p.input2_zero_point);
  const int64_t v = int64_t{testing::ref_mbqm(testing::wrap32(product), p.output_multiplier,
                                              p.output_shift)} +
                    p.output_zero_point;
  return testing::ref_clamp(v, p.act_min, p.act_max);
}

// Broadcast index of output element `flat` into an input of `dims` (right-aligned).
size_t broadcast_index(size_t flat, const std::vector<uint32_t>& out_dims,
                       const std::vector<uint32_t>& dims) {
  const auto idx = testing::unflatten(flat, out_dims);
  const size_t lead = out_dims.size() - dims.size();
  size_t offset = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    offset = offset * dims[i] + (dims[i] == 1 ? 0 : idx[lead + i]);
  }
  return offset;
}

template <typename T>
void run_add_sub(Kind kind, const KernelEntry& entry, const QuantAddSubParams& p,
                 int32_t left_shift, const std::vector<uint32_t>& a_dims,
                 const std::vector<uint32_t>& b_dims, const std::vector<uint32_t>& out_dims,
                 uint32_t seed) {
  constexpr DType kDType = sizeof(T) == 1 ? DType::kInt8 : DType::kInt16;
  TestOp op;
  const uint32_t a = op.add_input(kDType, a_dims);
  const uint32_t b = op.add_input(kDType, b_dims);
  const uint32_t out = op.add_output(kDType, out_dims);
  op.set_params(p);
  const auto av = testing::random_full_range<T>(testing::product(a_dims), seed);
  const auto bv = testing::random_full_range<T>(testing::product(b_dims), seed + 1);
  op.set_data(a, av);
  op.set_data(b, bv);
  ASSERT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  const auto result = op.data<T>(out);
  int unsaturated = 0;
  for (size_t i = 0; i < result.size(); ++i) {
    const int32_t expected = reference<T>(kind, p, left_shift, av[broadcast_index(i, out_dims, a_dims)],
                                          bv[broadcast_index(i, out_dims, b_dims)]);
    ASSERT_EQ(result[i], expected) << i;
    unsaturated += expected != p.act_min && expected != p.act_max;
  }
  EXPECT_GT(unsaturated, 0);
}

QuantAddSubParams add_params(float s1, float s2, float so, int32_t z1, int32_t z2, int32_t zo,
                             int32_t left_shift, bool sub, int32_t lo, int32_t hi) {
  AddSubMultipliers m{};
  const bool ok = sub ? sub_multipliers(s1, s2, so, left_shift, &m)
                      : add_multipliers(s1, s2, so, left_shift, &m);
  EXPECT_TRUE(ok);
  return QuantAddSubParams{z1, z2, zo, m.input1_multiplier, m.input1_shift, m.input2_multiplier,
                           m.input2_shift, m.output_multiplier, m.output_shift, lo, hi};
}

TEST(AddS8, HandComputed) {
  // Equal scales 0.5, output scale 1: in1 = in2 = 0.5 (2^30, 0), out = 1 / 2^20.
  // (a - 1) + (b + 2) with output zp 3: a = 5, b = -2 -> (4 + 0) * 0.5... in real terms
  // 0.5 * 4 + 0.5 * 0 = 2 -> q = 2 + 3 = 5.
  const QuantAddSubParams p = add_params(0.5f, 0.5f, 1.0f, 1, -2, 3, 20, false, -128, 127);
  TestOp op;
  const uint32_t a = op.add_input(DType::kInt8, {3});
  const uint32_t b = op.add_input(DType::kInt8, {3});
  const uint32_t out = op.add_output(DType::kInt8, {3});
  op.set_params(p);
  op.set_data(a, std::vector<int8_t>{5, 1, 127});
  op.set_data(b, std::vector<int8_t>{-2, 1, 127});
  ASSERT_EQ(op.check(kAddS8Entry), Status::kOk);
  op.run(kAddS8Entry);
  // 2 + 3 = 5;  0.5 * 0 + 0.5 * 3 = 1.5 -> 2 (half away) + 3 = 5;  63 + 64.5 -> 128 -> 127.
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{5, 5, 127}));
  op.run(kSubS8Entry);
  // 2 - 0 = 2 -> 5;  0 - 1.5 = -1.5 -> -2 + 3 = 1;  63 - 64.5 = -1.5 -> -2 + 3 = 1.
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{5, 1, 1}));
}

TEST(AddS8, MatchesModelBroadcastAndZeroPointExtremes) {
  run_add_sub<int8_t>(Kind::kAdd, kAddS8Entry,
                      add_params(0.04072537f, 0.04124561f, 0.05837741f, -2, -1, -3, 20, false, -128, 127),
                      20, {1, 8, 8, 1}, {1, 8, 8, 1}, {1, 8, 8, 1}, 10);  // simple_add_model
  run_add_sub<int8_t>(Kind::kAdd, kAddS8Entry,
                      add_params(0.3f, 0.01f, 0.2f, -128, 127, -128, 20, false, -128, 127), 20,
                      {2, 3, 5}, {3, 1}, {2, 3, 5}, 20);
  run_add_sub<int8_t>(Kind::kAdd, kAddS8Entry,
                      add_params(0.1f, 0.7f, 0.9f, 127, -128, 0, 20, false, -10, 60), 20,
                      {4, 1, 6}, {1, 5, 1}, {4, 5, 6}, 30);
}

TEST(SubS8, MatchesModel) {
  run_add_sub<int8_t>(Kind::kSub, kSubS8Entry,
                      add_params(0.02f, 0.05f, 0.04f, 10, -20, 5, 20, true, -128, 127), 20,
                      {3, 7}, {3, 7}, {3, 7}, 40);
  run_add_sub<int8_t>(Kind::kSub, kSubS8Entry,
                      add_params(0.5f, 0.02f, 0.6f, -128, 0, -128, 20, true, -128, 127), 20,
                      {7}, {2, 1}, {2, 7}, 50);
}

TEST(AddS16, MatchesModelSeanetScales) {
  // The scales of the SeaNet add0 / add1 layers, zero points 0, plus a broadcast case.
  run_add_sub<int16_t>(Kind::kAdd, kAddS16Entry,
                       add_params(0.0005852501f, 0.0008069296f, 0.001024442f, 0, 0, 0, 15, false,
                                  -32768, 32767),
                       15, {1, 1, 5, 64}, {1, 1, 5, 64}, {1, 1, 5, 64}, 60);
  run_add_sub<int16_t>(Kind::kAdd, kAddS16Entry,
                       add_params(0.0009583884f, 0.0005941494f, 0.0009693716f, 0, 0, 0, 15, false,
                                  -32768, 32767),
                       15, {1, 3, 12, 64}, {1, 1, 1, 64}, {1, 3, 12, 64}, 70);
  // Non-zero int16 zero points stay exact too.
  run_add_sub<int16_t>(Kind::kAdd, kAddS16Entry,
                       add_params(0.001f, 0.002f, 0.004f, -32768, 32767, 100, 15, false, -32768, 32767),
                       15, {50}, {50}, {50}, 80);
}

TEST(SubS16, MatchesModelSeanetScales) {
  run_add_sub<int16_t>(Kind::kSub, kSubS16Entry,
                       add_params(0.0009693716f, 8.709842e-06f, 0.0005941494f, 0, 0, 0, 15, true,
                                  -32768, 32767),
                       15, {1, 2, 12, 64}, {64}, {1, 2, 12, 64}, 90);
  run_add_sub<int16_t>(Kind::kSub, kSubS16Entry,
                       add_params(0.001257917f, 9.196187e-06f, 0.0009364741f, 0, 0, 0, 15, true,
                                  -32768, 32767),
                       15, {1, 2, 22, 32}, {32}, {1, 2, 22, 32}, 100);
}

template <typename T>
void run_mul(const KernelEntry& entry, const QuantMulParams& p, const std::vector<uint32_t>& a_dims,
             const std::vector<uint32_t>& b_dims, const std::vector<uint32_t>& out_dims,
             uint32_t seed) {
  constexpr DType kDType = sizeof(T) == 1 ? DType::kInt8 : DType::kInt16;
  TestOp op;
  const uint32_t a = op.add_input(kDType, a_dims);
  const uint32_t b = op.add_input(kDType, b_dims);
  const uint32_t out = op.add_output(kDType, out_dims);
  op.set_params(p);
  const auto av = testing::random_full_range<T>(testing::product(a_dims), seed);
  const auto bv = testing::random_full_range<T>(testing::product(b_dims), seed + 1);
  op.set_data(a, av);
  op.set_data(b, bv);
  ASSERT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  const auto result = op.data<T>(out);
  int unsaturated = 0;
  for (size_t i = 0; i < result.size(); ++i) {
    const int32_t expected = reference_mul<T>(p, av[broadcast_index(i, out_dims, a_dims)],
                                              bv[broadcast_index(i, out_dims, b_dims)]);
    ASSERT_EQ(result[i], expected) << i;
    unsaturated += expected != p.act_min && expected != p.act_max;
  }
  EXPECT_GT(unsaturated, 0);
}

TEST(MulS8, MatchesModel) {
  int32_t m = 0, s = 0;
  mul_multiplier(0.05f, 0.02f, 0.3f, &m, &s);
  run_mul<int8_t>(kMulS8Entry, QuantMulParams{-128, 127, 3, m, s, -128, 127}, {2, 3, 4}, {4},
                  {2, 3, 4}, 110);
  mul_multiplier(0.5f, 0.5f, 0.16f, &m, &s);  // a multiplier above one: positive shift
  ASSERT_GT(s, 0);
  run_mul<int8_t>(kMulS8Entry, QuantMulParams{0, 0, 0, m, s, -100, 100}, {400}, {400}, {400}, 120);
}

TEST(MulS16, MatchesModelAndRefusesZeroPoints) {
  int32_t m = 0, s = 0;
  mul_multiplier(0.001f, 0.002f, 0.1f, &m, &s);
  run_mul<int16_t>(kMulS16Entry, QuantMulParams{0, 0, 0, m, s, -32768, 32767}, {3, 17}, {3, 1},
                   {3, 17}, 130);
  TestOp op;
  op.add_input(DType::kInt16, {2});
  op.add_input(DType::kInt16, {2});
  op.add_output(DType::kInt16, {2});
  op.set_params(QuantMulParams{1, 0, 0, m, s, -32768, 32767});
  EXPECT_EQ(op.check(kMulS16Entry), Status::kBadParams);
}

TEST(QuantBinaryCheck, Rejections) {
  TestOp op;
  const uint32_t a = op.add_input(DType::kInt8, {2, 3});
  op.add_input(DType::kInt8, {3});
  const uint32_t out = op.add_output(DType::kInt8, {2, 3});
  op.set_params(add_params(0.1f, 0.2f, 0.3f, 0, 0, 0, 20, false, -128, 127));
  ASSERT_EQ(op.check(kAddS8Entry), Status::kOk);
  EXPECT_EQ(op.check(kAddS16Entry), Status::kBadParams);  // wrong element type
  auto& p = op.params<QuantAddSubParams>();
  p.input2_shift = 1;  // add/sub multipliers are below one: shift <= 0
  EXPECT_EQ(op.check(kAddS8Entry), Status::kBadParams);
  p.input2_shift = -32;
  EXPECT_EQ(op.check(kSubS8Entry), Status::kBadParams);
  p.input2_shift = -1;
  p.output_zero_point = 128;
  EXPECT_EQ(op.check(kAddS8Entry), Status::kBadParams);
  p.output_zero_point = 0;
  p.act_min = 5;
  p.act_max = 4;
  EXPECT_EQ(op.check(kAddS8Entry), Status::kBadParams);
  p.act_min = -128;
  p.act_max = 127;
  op.desc(out).dims[1] = 4;  // not the broadcast shape
  EXPECT_EQ(op.check(kAddS8Entry), Status::kBadParams);
  op.desc(out).dims[1] = 3;
  op.desc(a).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(op.check(kAddS8Entry), Status::kBadParams);
  op.desc(a).dtype = static_cast<uint8_t>(DType::kInt8);
  op.set_params_bytes(sizeof(QuantAddSubParams) - 4);
  EXPECT_EQ(op.check(kAddS8Entry), Status::kBadParams);
  EXPECT_EQ(op.check(kMulS8Entry), Status::kBadParams);
}

}  // namespace elementwise_quant_test
}  // namespace mote
