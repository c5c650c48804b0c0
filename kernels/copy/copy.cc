// Byte copy between two tensors of equal byte size (memmove: input and output may be
// the same buffer when the planner aliased them).
#include <string.h>

#include "copy/copy.h"
#include "kernel_util.h"

namespace mote {

Status copy_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != 0) return Status::kBadParams;
  if (ctx.input_desc(0).bytes != ctx.output_desc(0).bytes) return Status::kBadParams;
  return Status::kOk;
}

void copy_run(const OpContext& ctx) {
  memmove(ctx.output_data(0), ctx.input_data(0), ctx.output_desc(0).bytes);
}

const KernelEntry kCopyEntry = {copy_check, copy_run};

}  // namespace mote
