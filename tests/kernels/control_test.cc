// jump and branch (kernels/control): jump names its target; branch names its target when
// the condition's element 0 (nonzero: true) equals `when`, else leaves the next op as it
// is; extra inputs are only listed. check() refuses io, dtypes and parameters that are not
// theirs. The interpreter's loop over them runs in tests/ops (if_test, while_test).
#include "control/control.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace control_test {

using testing::TestOp;

TEST(Jump, ContinuesAtItsTarget) {
  for (const uint32_t target : {0u, 3u, 7u, 0xFFFFFFFFu}) {
    TestOp op;
    op.set_params(JumpParams{target});
    ASSERT_EQ(op.check(kJumpEntry), Status::kOk);
    op.run(kJumpEntry, 5);
    EXPECT_EQ(op.next_op(), target);
  }
}

TEST(Branch, JumpsOnlyWhenTheConditionIsWhen) {
  for (const uint8_t condition : {0, 1, 2, 0xFF}) {
    for (const uint32_t when : {0u, 1u}) {
      TestOp op;
      const uint32_t c = op.add_input(DType::kBool, {2});
      op.add_input(DType::kFloat32, {3});  // a loop variable kept live: not read
      op.set_data(c, std::vector<uint8_t>{condition, static_cast<uint8_t>(condition == 0)});
      op.set_params(BranchParams{2, when});
      ASSERT_EQ(op.check(kBranchEntry), Status::kOk);
      op.run(kBranchEntry, 9);
      const bool holds = condition != 0;
      EXPECT_EQ(op.next_op(), holds == (when == 1) ? 2u : 10u) << int{condition} << " when " << when;
    }
  }
}

TEST(Control, CheckRefusesWhatIsNotTheirs) {
  TestOp jump_with_input;
  jump_with_input.add_input(DType::kBool, {1});
  jump_with_input.set_params(JumpParams{0});
  EXPECT_EQ(jump_with_input.check(kJumpEntry), Status::kBadOp);
  TestOp jump_with_output;
  jump_with_output.add_output(DType::kInt8, {1});
  jump_with_output.set_params(JumpParams{0});
  EXPECT_EQ(jump_with_output.check(kJumpEntry), Status::kBadOp);
  TestOp jump_no_params;
  EXPECT_EQ(jump_no_params.check(kJumpEntry), Status::kBadParams);

  TestOp no_condition;
  no_condition.set_params(BranchParams{0, 1});
  EXPECT_EQ(no_condition.check(kBranchEntry), Status::kBadOp);
  TestOp int_condition;
  int_condition.add_input(DType::kInt8, {1});
  int_condition.set_params(BranchParams{0, 1});
  EXPECT_EQ(int_condition.check(kBranchEntry), Status::kBadParams);
  TestOp empty_condition;
  empty_condition.add_input(DType::kBool, {0});
  empty_condition.set_params(BranchParams{0, 1});
  EXPECT_EQ(empty_condition.check(kBranchEntry), Status::kBadParams);
  TestOp bad_when;
  bad_when.add_input(DType::kBool, {1});
  bad_when.set_params(BranchParams{0, 2});
  EXPECT_EQ(bad_when.check(kBranchEntry), Status::kBadParams);
  TestOp with_output;
  with_output.add_input(DType::kBool, {1});
  with_output.add_output(DType::kBool, {1});
  with_output.set_params(BranchParams{0, 1});
  EXPECT_EQ(with_output.check(kBranchEntry), Status::kBadOp);
  TestOp short_params;
  short_params.add_input(DType::kBool, {1});
  short_params.set_params(JumpParams{0});
  EXPECT_EQ(short_params.check(kBranchEntry), Status::kBadParams);
}

}  // namespace control_test
}  // namespace mote
