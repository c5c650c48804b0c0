// depth_to_space and its inverse space_to_depth (one file: one oracle serves both).
#include "depth_to_space/depth_to_space.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "kernel_test_util.h"
#include "space_to_depth/space_to_depth.h"

namespace mote {
namespace depth_to_space_test {

using testing::TestOp;

// The contracts: the space side [N, h*b, w*b, c] holds at (n, y, x, k) the depth side's
// [N, h, w, c*b*b] element (n, y/b, x/b, ((y%b)*b + x%b)*c + k).
std::vector<uint32_t> depth_dims(const std::vector<uint32_t>& space, uint32_t b) {
  return {space[0], space[1] / b, space[2] / b, space[3] * b * b};
}
size_t depth_index(const std::vector<uint32_t>& space, uint32_t b, uint32_t n, uint32_t y, uint32_t x, uint32_t k) {
  const std::vector<uint32_t> d = depth_dims(space, b);
  return ((n * d[1] + y / b) * d[2] + x / b) * d[3] + ((y % b) * b + x % b) * space[3] + k;
}

// Runs `entry` from `from` to `to` on distinct values; to_space: depth side -> space side.
template <typename T>
void run_against_reference(const KernelEntry& entry, DType dtype, const std::vector<uint32_t>& space, uint32_t b,
                           bool to_space) {
  TestOp op;
  const std::vector<uint32_t> depth = depth_dims(space, b);
  const uint32_t in = op.add_input(dtype, to_space ? depth : space);
  const uint32_t out = op.add_output(dtype, to_space ? space : depth);
  if (to_space) op.set_params(DepthToSpaceParams{static_cast<int32_t>(b)});
  else op.set_params(SpaceToDepthParams{static_cast<int32_t>(b)});
  std::vector<T> values(testing::product(space));
  std::iota(values.begin(), values.end(), T{1});  // distinct values expose any misplacement
  op.set_data(in, values);
  ASSERT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  std::vector<T> expected(values.size());
  size_t s = 0;
  for (uint32_t n = 0; n < space[0]; ++n)
    for (uint32_t y = 0; y < space[1]; ++y)
      for (uint32_t x = 0; x < space[2]; ++x)
        for (uint32_t k = 0; k < space[3]; ++k, ++s) {
          const size_t z = depth_index(space, b, n, y, x, k);
          if (to_space) expected[s] = values[z];
          else expected[z] = values[s];
        }
  EXPECT_EQ(op.data<T>(out), expected);
}

TEST(DepthToSpace, HandComputed) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {1, 1, 2, 4});
  const uint32_t out = op.add_output(DType::kInt8, {1, 2, 4, 1});
  op.set_params(DepthToSpaceParams{2});
  op.set_data(in, std::vector<int8_t>{1, 2, 3, 4, 5, 6, 7, 8});
  ASSERT_EQ(op.check(kDepthToSpaceEntry), Status::kOk);
  op.run(kDepthToSpaceEntry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{1, 2, 5, 6, 3, 4, 7, 8}));
}

TEST(SpaceToDepth, HandComputed) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {1, 2, 4, 1});
  const uint32_t out = op.add_output(DType::kInt8, {1, 1, 2, 4});
  op.set_params(SpaceToDepthParams{2});
  op.set_data(in, std::vector<int8_t>{1, 2, 5, 6, 3, 4, 7, 8});
  ASSERT_EQ(op.check(kSpaceToDepthEntry), Status::kOk);
  op.run(kSpaceToDepthEntry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(DepthToSpace, BothDirectionsMatchTheContract) {
  for (const bool to_space : {true, false}) {
    SCOPED_TRACE(to_space ? "depth_to_space" : "space_to_depth");
    const KernelEntry& entry = to_space ? kDepthToSpaceEntry : kSpaceToDepthEntry;
    run_against_reference<int8_t>(entry, DType::kInt8, {2, 6, 4, 2}, 2, to_space);
    run_against_reference<int16_t>(entry, DType::kInt16, {1, 6, 9, 2}, 3, to_space);
    run_against_reference<float>(entry, DType::kFloat32, {1, 2, 2, 3}, 1, to_space);
    run_against_reference<int64_t>(entry, DType::kInt64, {1, 2, 4, 1}, 2, to_space);
  }
}

TEST(DepthToSpace, CheckRefusesMismatchedShapes) {
  struct Case {
    const char* what;
    bool to_space;
    std::vector<uint32_t> in, out;
    int32_t block;
  };
  const Case cases[] = {{"block 0", true, {1, 2, 2, 4}, {1, 2, 2, 4}, 0},
                        {"channels not a multiple", true, {1, 2, 2, 6}, {1, 4, 4, 1}, 2},
                        {"height", true, {1, 2, 2, 4}, {1, 3, 4, 1}, 2},
                        {"batch", true, {1, 2, 2, 4}, {2, 4, 4, 1}, 2},
                        {"rank 3", true, {2, 2, 4}, {4, 4, 1}, 2},
                        {"block -2", false, {1, 4, 4, 1}, {1, 2, 2, 4}, -2},
                        {"height not divided", false, {1, 5, 4, 1}, {1, 2, 2, 4}, 2},
                        {"channels", false, {1, 4, 4, 1}, {1, 2, 2, 3}, 2},
                        {"batch", false, {1, 4, 4, 1}, {2, 2, 2, 4}, 2}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    TestOp op;
    op.add_input(DType::kInt8, c.in);
    op.add_output(DType::kInt8, c.out);
    if (c.to_space) op.set_params(DepthToSpaceParams{c.block});
    else op.set_params(SpaceToDepthParams{c.block});
    EXPECT_EQ(op.check(c.to_space ? kDepthToSpaceEntry : kSpaceToDepthEntry), Status::kBadParams);
  }
}

}  // namespace depth_to_space_test
}  // namespace mote
