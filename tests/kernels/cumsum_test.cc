// CUMSUM: cumsum_f32 and cumsum_s8 against running sums written here (every axis of a
// 3-D input, exclusive and reverse; int8 as TFLite's integer CumSum: ADD's rescaling with
// left shift 20, the accumulator starting from the scaled input offset), and check()
// against corrupted descriptors and parameters.
#include "cumsum/cumsum.h"

#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace cumsum_test {

using testing::ref_clamp;
using testing::ref_mbqm;
using testing::TestOp;

const std::vector<uint32_t> kDims = {3, 4, 5};

// For every line along `axis`, acc(start) then add each element in walk order; the
// element's output is the accumulator after (inclusive) or before (exclusive) its term.
template <typename T, typename Acc, typename Term, typename Out>
std::vector<T> running(const std::vector<T>& x, uint32_t axis, bool exclusive, bool reverse, Acc start, Term term,
                       Out out) {
  const auto strides = testing::strides_of(kDims);
  std::vector<T> y(x.size());
  for (size_t k = 0; k < x.size(); ++k) {
    const auto idx = testing::unflatten(k, kDims);
    if (idx[axis] != 0) continue;  // one line per first element
    Acc acc = start;
    for (uint32_t s = 0; s < kDims[axis]; ++s) {
      const size_t d = reverse ? kDims[axis] - 1 - s : s;
      const size_t at = k + d * strides[axis];
      const Acc before = acc;
      acc = acc + term(x[at]);
      y[at] = out(exclusive ? before : acc);
    }
  }
  return y;
}

template <typename T, typename P>
std::vector<T> run_kernel(const KernelEntry& entry, DType dtype, const P& params, const std::vector<T>& x) {
  TestOp op;
  const uint32_t in = op.add_input(dtype, kDims);
  const uint32_t out = op.add_output(dtype, kDims);
  op.set_params(params);
  op.set_data(in, x);
  EXPECT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  return op.data<T>(out);
}

TEST(Cumsum, Float32EveryAxisExclusiveReverse) {
  const auto x = testing::random_floats(60, 31, -100.0f, 100.0f);
  for (uint32_t axis = 0; axis < 3; ++axis)
    for (bool exclusive : {false, true})
      for (bool reverse : {false, true}) {
        const CumsumParams p{axis, exclusive, reverse, {}};
        const auto expected = running<float>(x, axis, exclusive, reverse, 0.0f, [](float v) { return v; },
                                             [](float v) { return v; });
        EXPECT_EQ(run_kernel<float>(kCumsumF32Entry, DType::kFloat32, p, x), expected)
            << axis << exclusive << reverse;
      }
}

TEST(Cumsum, Int8AsTfliteCumSum) {
  const IntegerSumParams sums[] = {{-5, 3, 1 << 30, 0, 1518500250, -18},
                                   {128, -128, 1 << 30, 0, 1073741824, -19},
                                   {0, 0, 1 << 30, 0, 1288490189, -24}};
  const auto x = testing::random_ints<int8_t>(60, 32, -128, 127);
  for (const IntegerSumParams& q : sums) {
    auto term = [&](int32_t v) { return ref_mbqm((q.input_offset + v) * (1 << 20), q.input_multiplier, q.input_shift); };
    auto out = [&](int32_t acc) {
      return static_cast<int8_t>(
          ref_clamp(int64_t{ref_mbqm(acc, q.output_multiplier, q.output_shift)} + q.output_offset, -128, 127));
    };
    for (uint32_t axis = 0; axis < 3; ++axis)
      for (bool exclusive : {false, true})
        for (bool reverse : {false, true}) {
          const CumsumS8Params p{{axis, exclusive, reverse, {}}, q};
          const auto expected = running<int8_t>(x, axis, exclusive, reverse, term(0), term, out);
          EXPECT_EQ(run_kernel<int8_t>(kCumsumS8Entry, DType::kInt8, p, x), expected) << axis << exclusive << reverse;
        }
  }
}

TEST(Cumsum, CheckRefusesCorruptParams) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, kDims);
  const uint32_t out = op.add_output(DType::kInt8, kDims);
  op.set_params(CumsumS8Params{{1, 0, 1, {}}, {-5, 3, 1 << 30, 0, 1518500250, -18}});
  ASSERT_EQ(op.check(kCumsumS8Entry), Status::kOk);
  op.params<CumsumS8Params>().cumsum.axis = 3;
  EXPECT_EQ(op.check(kCumsumS8Entry), Status::kBadParams);
  op.params<CumsumS8Params>().cumsum.axis = 1;
  op.params<CumsumS8Params>().cumsum.exclusive = 2;
  EXPECT_EQ(op.check(kCumsumS8Entry), Status::kBadParams);
  op.params<CumsumS8Params>().cumsum.exclusive = 0;
  op.params<CumsumS8Params>().sum.output_shift = 1;
  EXPECT_EQ(op.check(kCumsumS8Entry), Status::kBadParams);
  op.params<CumsumS8Params>().sum.output_shift = -18;
  op.set_dims(out, {3, 5, 4});
  EXPECT_EQ(op.check(kCumsumS8Entry), Status::kBadParams);
  op.set_dims(out, kDims);
  op.desc(in).dtype = static_cast<uint8_t>(DType::kFloat32);
  EXPECT_EQ(op.check(kCumsumS8Entry), Status::kBadParams);
  op.set_params_bytes(8);
  EXPECT_EQ(op.check(kCumsumF32Entry), Status::kBadParams);
}

}  // namespace cumsum_test
}  // namespace mote
