#include "control/control.h"

#include "kernel_util.h"

namespace mote {

Status jump_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 0, 0, 0));
  return ctx.params_bytes() == sizeof(JumpParams) ? Status::kOk : Status::kBadParams;
}

void jump_run(const OpContext& ctx) { ctx.jump_to(ctx.params<JumpParams>().target); }

const KernelEntry kJumpEntry = {jump_check, jump_run};

Status branch_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 255, 0));
  if (!has_dtype(ctx.input_desc(0), DType::kBool) || ctx.input_desc(0).bytes == 0) return Status::kBadParams;
  if (ctx.params_bytes() != sizeof(BranchParams)) return Status::kBadParams;
  return ctx.params<BranchParams>().when <= 1 ? Status::kOk : Status::kBadParams;
}

void branch_run(const OpContext& ctx) {
  const BranchParams& p = ctx.params<BranchParams>();
  const bool holds = *static_cast<const uint8_t*>(ctx.input_data(0)) != 0;
  if (holds == (p.when != 0)) ctx.jump_to(p.target);
}

const KernelEntry kBranchEntry = {branch_check, branch_run};

}  // namespace mote
