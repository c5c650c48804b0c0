#include "fill_bytes/fill_bytes.h"

#include <string.h>

#include "kernel_util.h"

namespace mote {

Status fill_bytes_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 0, 0, 1));
  if (ctx.params_bytes() != sizeof(FillBytesParams)) return Status::kBadParams;
  const int32_t value = ctx.params<FillBytesParams>().value;
  return value >= 0 && value <= 255 ? Status::kOk : Status::kBadParams;
}

void fill_bytes_run(const OpContext& ctx) {
  memset(ctx.output_data(0), ctx.params<FillBytesParams>().value, ctx.output_desc(0).bytes);
}

const KernelEntry kFillBytesEntry = {fill_bytes_check, fill_bytes_run};

}  // namespace mote
