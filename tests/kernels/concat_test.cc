#include "concat/concat.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace concat_test {

using testing::TestOp;

// numpy.concatenate by definition: output index i along `axis` comes from the input
// whose axis range holds i, at i minus the sizes of the inputs before it.
template <typename T>
std::vector<T> reference(const std::vector<std::vector<uint32_t>>& dims,
                         const std::vector<std::vector<T>>& inputs, uint32_t axis) {
  std::vector<uint32_t> out_dims = dims[0];
  out_dims[axis] = 0;
  for (const auto& d : dims) out_dims[axis] += d[axis];
  std::vector<T> out(testing::product(out_dims));
  for (size_t flat = 0; flat < out.size(); ++flat) {
    auto idx = testing::unflatten(flat, out_dims);
    size_t k = 0;
    while (idx[axis] >= dims[k][axis]) idx[axis] -= dims[k++][axis];
    const auto strides = testing::strides_of(dims[k]);
    size_t src = 0;
    for (size_t i = 0; i < idx.size(); ++i) src += idx[i] * strides[i];
    out[flat] = inputs[k][src];
  }
  return out;
}

template <typename T>
void run_against_reference(DType dtype, const std::vector<std::vector<uint32_t>>& dims,
                           uint32_t axis) {
  TestOp op;
  std::vector<std::vector<T>> inputs;
  std::vector<uint32_t> tensors;
  T next = 1;
  for (const auto& d : dims) {
    tensors.push_back(op.add_input(dtype, d));
    inputs.emplace_back(testing::product(d));
    for (T& v : inputs.back()) v = next++;
  }
  const std::vector<T> expected = reference(dims, inputs, axis);
  std::vector<uint32_t> out_dims = dims[0];
  out_dims[axis] = 0;
  for (const auto& d : dims) out_dims[axis] += d[axis];
  const uint32_t out = op.add_output(dtype, out_dims);
  op.set_params(ConcatParams{axis});
  for (size_t k = 0; k < dims.size(); ++k) op.set_data(tensors[k], inputs[k]);
  ASSERT_EQ(op.check(kConcatEntry), Status::kOk);
  op.run(kConcatEntry);
  EXPECT_EQ(op.data<T>(out), expected);
}

TEST(Concat, HandComputed) {
  TestOp op;
  const uint32_t a = op.add_input(DType::kFloat32, {2, 1});
  const uint32_t b = op.add_input(DType::kFloat32, {2, 2});
  const uint32_t out = op.add_output(DType::kFloat32, {2, 3});
  op.set_params(ConcatParams{1});
  op.set_data(a, std::vector<float>{1, 2});
  op.set_data(b, std::vector<float>{3, 4, 5, 6});
  ASSERT_EQ(op.check(kConcatEntry), Status::kOk);
  op.run(kConcatEntry);
  EXPECT_EQ(op.data<float>(out), (std::vector<float>{1, 3, 4, 2, 5, 6}));
}

TEST(Concat, MatchesReferenceEveryAxis) {
  for (uint32_t axis = 0; axis < 4; ++axis) {
    SCOPED_TRACE(axis);
    std::vector<std::vector<uint32_t>> dims = {{2, 3, 4, 5}, {2, 3, 4, 5}, {2, 3, 4, 5}};
    dims[1][axis] = 1;
    dims[2][axis] = 3;
    run_against_reference<float>(DType::kFloat32, dims, axis);
  }
}

TEST(Concat, MatchesReferenceOtherDtypes) {
  run_against_reference<int8_t>(DType::kInt8, {{3, 2, 5}, {3, 7, 5}}, 1);
  run_against_reference<int16_t>(DType::kInt16, {{1, 3}, {4, 3}, {2, 3}, {1, 3}}, 0);
  run_against_reference<int64_t>(DType::kInt64, {{2, 2, 1}, {2, 2, 3}}, 2);
}

TEST(Concat, SingleInputAndEmptyInput) {
  run_against_reference<float>(DType::kFloat32, {{3, 4}}, 1);
  run_against_reference<float>(DType::kFloat32, {{3, 2}, {3, 0}, {3, 1}}, 1);
}

TEST(Concat, MatchesReferenceRank6) {
  run_against_reference<int8_t>(DType::kInt8, {{2, 1, 3, 2, 1, 2}, {2, 1, 3, 3, 1, 2}}, 3);
}

class ConcatCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    a_ = op_.add_input(DType::kFloat32, {2, 3, 4});
    b_ = op_.add_input(DType::kFloat32, {2, 5, 4});
    out_ = op_.add_output(DType::kFloat32, {2, 8, 4});
    op_.set_params(ConcatParams{1});
    ASSERT_EQ(check(), Status::kOk);
  }
  Status check() { return op_.check(kConcatEntry); }
  TestOp op_;
  uint32_t a_, b_, out_;
};

TEST_F(ConcatCheck, AxisMustBeInRange) {
  op_.params<ConcatParams>().axis = 3;
  EXPECT_EQ(check(), Status::kBadParams);
  op_.params<ConcatParams>().axis = 0xFFFFFFFFu;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(ConcatCheck, AxisSizesMustSum) {
  op_.set_dims(out_, {2, 9, 4});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(out_, {2, 7, 4});
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(ConcatCheck, OtherDimsMustAgree) {
  op_.set_dims(b_, {2, 5, 3});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(b_, {1, 5, 4});
  EXPECT_EQ(check(), Status::kBadParams);
  op_.set_dims(b_, {2, 5, 4, 1});
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(ConcatCheck, DtypesMustAgree) {
  op_.desc(b_).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(ConcatCheck, ParamsBytes) {
  op_.set_params_bytes(0);
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST(ConcatCheckIo, EveryInputRequired) {
  TestOp op;
  op.add_input(DType::kFloat32, {2});
  op.add_missing_input();
  op.add_output(DType::kFloat32, {2});
  op.set_params(ConcatParams{0});
  EXPECT_EQ(op.check(kConcatEntry), Status::kBadOp);

  TestOp no_inputs;
  no_inputs.add_output(DType::kFloat32, {2});
  no_inputs.set_params(ConcatParams{0});
  EXPECT_EQ(no_inputs.check(kConcatEntry), Status::kBadOp);
}

}  // namespace concat_test
}  // namespace mote
