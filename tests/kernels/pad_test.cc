#include "pad/pad.h"

#include <gtest/gtest.h>
#include <string.h>

#include <numeric>
#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace pad_test {

using testing::TestOp;

template <typename T>
PadParams make_params(PadMode mode, const std::vector<int32_t>& before,
                      const std::vector<int32_t>& after, T value) {
  PadParams p{};
  p.mode = static_cast<uint32_t>(mode);
  for (size_t i = 0; i < before.size(); ++i) {
    p.before[i] = before[i];
    p.after[i] = after[i];
  }
  memcpy(p.value, &value, sizeof(T));
  return p;
}

// numpy.pad the way numpy does it: one axis at a time, each pass padding the result of
// the previous one (so corners come from already padded rows).
template <typename T>
std::vector<T> reference(std::vector<uint32_t> dims, std::vector<T> data, PadMode mode,
                         const std::vector<int32_t>& before, const std::vector<int32_t>& after,
                         T value) {
  for (size_t axis = 0; axis < dims.size(); ++axis) {
    std::vector<uint32_t> out_dims = dims;
    out_dims[axis] += before[axis] + after[axis];
    const auto in_strides = testing::strides_of(dims);
    std::vector<T> out(testing::product(out_dims));
    const int64_t n = dims[axis];
    for (size_t flat = 0; flat < out.size(); ++flat) {
      auto idx = testing::unflatten(flat, out_dims);
      int64_t j = static_cast<int64_t>(idx[axis]) - before[axis];
      if (j < 0 || j >= n) {
        if (mode == PadMode::kConstant) {
          out[flat] = value;
          continue;
        }
        if (mode == PadMode::kEdge) j = j < 0 ? 0 : n - 1;
        while (mode == PadMode::kReflect && (j < 0 || j >= n)) j = j < 0 ? -j : 2 * (n - 1) - j;
        while (mode == PadMode::kSymmetric && (j < 0 || j >= n)) j = j < 0 ? -j - 1 : 2 * n - 1 - j;
      }
      idx[axis] = static_cast<size_t>(j);
      size_t src = 0;
      for (size_t i = 0; i < idx.size(); ++i) src += idx[i] * in_strides[i];
      out[flat] = data[src];
    }
    dims = out_dims;
    data = out;
  }
  return data;
}

template <typename T>
void run_against_reference(DType dtype, const std::vector<uint32_t>& dims, PadMode mode,
                           const std::vector<int32_t>& before, const std::vector<int32_t>& after,
                           T value) {
  SCOPED_TRACE(static_cast<int>(mode));
  std::vector<uint32_t> out_dims = dims;
  for (size_t i = 0; i < dims.size(); ++i) out_dims[i] += before[i] + after[i];
  TestOp op;
  const uint32_t in = op.add_input(dtype, dims);
  const uint32_t out = op.add_output(dtype, out_dims);
  op.set_params(make_params(mode, before, after, value));
  std::vector<T> data(testing::product(dims));
  std::iota(data.begin(), data.end(), T{1});
  op.set_data(in, data);
  ASSERT_EQ(op.check(kPadEntry), Status::kOk);
  op.run(kPadEntry);
  EXPECT_EQ(op.data<T>(out), reference(dims, data, mode, before, after, value));
}

std::vector<float> pad_1d(PadMode mode, const std::vector<float>& x, int32_t before,
                          int32_t after) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {static_cast<uint32_t>(x.size())});
  const uint32_t out =
      op.add_output(DType::kFloat32, {static_cast<uint32_t>(x.size() + before + after)});
  op.set_params(make_params(mode, {before}, {after}, 0.0f));
  op.set_data(in, x);
  EXPECT_EQ(op.check(kPadEntry), Status::kOk);
  op.run(kPadEntry);
  return op.data<float>(out);
}

TEST(Pad, HandComputedModes) {
  EXPECT_EQ(pad_1d(PadMode::kConstant, {1, 2, 3}, 2, 1), (std::vector<float>{0, 0, 1, 2, 3, 0}));
  EXPECT_EQ(pad_1d(PadMode::kReflect, {1, 2, 3}, 2, 1), (std::vector<float>{3, 2, 1, 2, 3, 2}));
  EXPECT_EQ(pad_1d(PadMode::kEdge, {1, 2, 3}, 2, 1), (std::vector<float>{1, 1, 1, 2, 3, 3}));
  EXPECT_EQ(pad_1d(PadMode::kSymmetric, {1, 2, 3}, 3, 2), (std::vector<float>{3, 2, 1, 1, 2, 3, 3, 2}));
}

TEST(Pad, HandComputed2dConstantValue) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {1, 2});
  const uint32_t out = op.add_output(DType::kFloat32, {2, 3});
  op.set_params(make_params(PadMode::kConstant, {1, 0}, {0, 1}, 9.5f));
  op.set_data(in, std::vector<float>{1, 2});
  ASSERT_EQ(op.check(kPadEntry), Status::kOk);
  op.run(kPadEntry);
  EXPECT_EQ(op.data<float>(out), (std::vector<float>{9.5f, 9.5f, 9.5f, 1, 2, 9.5f}));
}

TEST(Pad, MatchesReferenceAllModesRank4) {
  for (PadMode mode : {PadMode::kConstant, PadMode::kReflect, PadMode::kEdge, PadMode::kSymmetric}) {
    run_against_reference<float>(DType::kFloat32, {2, 5, 4, 3}, mode, {0, 2, 1, 0},
                                 {1, 3, 0, 2}, 2.5f);
  }
}

TEST(Pad, MatchesReferenceInt8AndInt16) {
  for (PadMode mode : {PadMode::kConstant, PadMode::kReflect, PadMode::kEdge, PadMode::kSymmetric}) {
    run_against_reference<int8_t>(DType::kInt8, {3, 4, 5}, mode, {2, 0, 4}, {1, 3, 2},
                                  int8_t{-3});
    run_against_reference<int16_t>(DType::kInt16, {6, 2}, mode, {5, 1}, {0, 1}, int16_t{-300});
  }
}

TEST(Pad, MatchesReferenceInt64Rank6) {
  for (PadMode mode : {PadMode::kConstant, PadMode::kReflect, PadMode::kEdge, PadMode::kSymmetric}) {
    run_against_reference<int64_t>(DType::kInt64, {2, 3, 1, 2, 3, 2}, mode, {1, 0, 0, 1, 2, 0},
                                   {0, 2, 0, 0, 1, 1}, int64_t{1} << 40);
  }
}

TEST(Pad, NoPaddingAndScalar) {
  run_against_reference<float>(DType::kFloat32, {3, 2}, PadMode::kReflect, {0, 0}, {0, 0}, 0.0f);
  run_against_reference<float>(DType::kFloat32, {}, PadMode::kConstant, {}, {}, 0.0f);
}

TEST(Pad, ConstantPadAroundEmptyDim) {
  run_against_reference<float>(DType::kFloat32, {0, 2}, PadMode::kConstant, {1, 1}, {2, 0}, 7.0f);
}

class PadCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    in_ = op_.add_input(DType::kFloat32, {3, 4});
    out_ = op_.add_output(DType::kFloat32, {6, 5});
    op_.set_params(make_params(PadMode::kReflect, {2, 0}, {1, 1}, 0.0f));
    ASSERT_EQ(check(), Status::kOk);
  }
  Status check() { return op_.check(kPadEntry); }
  PadParams& params() { return op_.params<PadParams>(); }
  TestOp op_;
  uint32_t in_, out_;
};

TEST_F(PadCheck, OutputDimsMustBeBeforePlusInPlusAfter) {
  op_.set_dims(out_, {6, 6});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(out_, {6, 5, 1});
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(PadCheck, NegativePads) {
  params().before[1] = -1;
  params().after[1] = 2;
  EXPECT_EQ(check(), Status::kBadParams);
  params().before[1] = 0;
  params().after[1] = 1;
  params().after[0] = INT32_MIN;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(PadCheck, ReflectNeedsPadsSmallerThanDim) {
  params().before[0] = 3;  // dim 3
  params().after[0] = 0;
  EXPECT_EQ(check(), Status::kBadParams);
  params().mode = static_cast<uint32_t>(PadMode::kEdge);
  EXPECT_EQ(check(), Status::kOk);
  params().mode = static_cast<uint32_t>(PadMode::kConstant);
  EXPECT_EQ(check(), Status::kOk);
}

TEST_F(PadCheck, SymmetricNeedsPadsAtMostTheDim) {
  params().mode = static_cast<uint32_t>(PadMode::kSymmetric);
  params().before[0] = 3;  // dim 3: allowed (the whole axis mirrored)
  params().after[0] = 0;
  EXPECT_EQ(check(), Status::kOk);
  params().before[0] = 4;
  op_.set_dims(out_, {7, 5});
  EXPECT_EQ(check(), Status::kBadParams);
  params().mode = static_cast<uint32_t>(PadMode::kEdge);
  EXPECT_EQ(check(), Status::kOk);  // the same shapes otherwise pass
}

TEST_F(PadCheck, EdgeNeedsAnElement) {
  TestOp op;
  op.add_input(DType::kFloat32, {0, 2});
  op.add_output(DType::kFloat32, {2, 2});
  op.set_params(make_params(PadMode::kEdge, {1, 0}, {1, 0}, 0.0f));
  EXPECT_EQ(op.check(kPadEntry), Status::kBadParams);
  op.params<PadParams>().mode = static_cast<uint32_t>(PadMode::kConstant);
  EXPECT_EQ(op.check(kPadEntry), Status::kOk);
}

TEST_F(PadCheck, ModeDtypeParamsIo) {
  params().mode = 4;
  EXPECT_EQ(check(), Status::kBadParams);
  params().mode = static_cast<uint32_t>(PadMode::kReflect);
  op_.desc(out_).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(check(), Status::kBadParams);
  op_.desc(out_).dtype = static_cast<uint8_t>(DType::kFloat32);
  op_.set_params_bytes(sizeof(PadParams) - 8);
  EXPECT_EQ(check(), Status::kBadParams);

  TestOp op;
  op.add_input(DType::kFloat32, {2});
  op.add_output(DType::kFloat32, {2});
  op.add_output(DType::kFloat32, {2});
  op.set_params(make_params(PadMode::kConstant, {0}, {0}, 0.0f));
  EXPECT_EQ(op.check(kPadEntry), Status::kBadOp);
}

}  // namespace pad_test
}  // namespace mote
