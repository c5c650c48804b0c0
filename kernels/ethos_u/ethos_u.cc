// The Ethos-U NPU op (ethos_u.h): hands the payload and the region table to the driver.
#include "ethos_u/ethos_u.h"

#include "ethos_u/ethos_u_payload.h"

namespace mote {
namespace {

// Region i's tensor: input i + 1, then the outputs. Only for i < inputs - 1 + outputs.
bool region_tensor(const OpContext& ctx, uint32_t region, const TensorDesc** desc, const void** data) {
  const uint32_t input = region + 1;
  if (input < ctx.input_count()) {
    if (!ctx.has_input(input)) return false;
    *desc = &ctx.input_desc(input);
    *data = ctx.input_data(input);
    return true;
  }
  const uint32_t output = input - ctx.input_count();
  *desc = &ctx.output_desc(output);
  *data = ctx.output_data(output);
  return true;
}

// The base addresses and sizes of every region (count: params.region_count).
void region_table(const OpContext& ctx, uint64_t* base, uint32_t* bytes) {
  const EthosUParams& p = ctx.params<EthosUParams>();
  for (uint32_t i = 0; i < p.region_count; ++i) {
    const TensorDesc* desc = nullptr;
    const void* data = nullptr;
    if (i == 2 && p.fast_scratch_bytes != 0) {
      base[i] = reinterpret_cast<uintptr_t>(ctx.npu()->driver->fast_scratch);
      bytes[i] = p.fast_scratch_bytes;
    } else if (region_tensor(ctx, i, &desc, &data)) {
      base[i] = reinterpret_cast<uintptr_t>(data);
      bytes[i] = desc->bytes;
    } else {
      base[i] = 0;
      bytes[i] = 0;
    }
  }
}

bool is_uint8(const OpContext& ctx, uint32_t input, Storage storage) {
  const TensorDesc& t = ctx.input_desc(input);
  return has_dtype(t, DType::kUInt8) && t.storage == static_cast<uint8_t>(storage);
}

}  // namespace

Status ethos_u_check(const OpContext& ctx) {
  if (ctx.params_bytes() != sizeof(EthosUParams)) return Status::kBadParams;
  const EthosUParams& p = ctx.params<EthosUParams>();
  if (ctx.input_count() < kEthosUFeatureMapInput) return Status::kBadOp;
  if (!ctx.has_input(0) || !is_uint8(ctx, 0, Storage::kConstant)) return Status::kBadParams;
  if (ctx.has_input(1) && !is_uint8(ctx, 1, Storage::kConstant)) return Status::kBadParams;
  for (uint32_t i = 2; i < kEthosUFeatureMapInput; ++i)
    if (ctx.has_input(i) && !is_uint8(ctx, i, Storage::kArena)) return Status::kBadParams;
  for (uint32_t i = kEthosUFeatureMapInput; i < ctx.input_count(); ++i)
    if (!ctx.has_input(i)) return Status::kBadOp;
  if (p.fast_scratch_bytes != 0 && ctx.has_input(3)) return Status::kBadParams;

  EthosUPayload payload;
  const auto* bytes = static_cast<const uint8_t*>(ctx.input_data(0));
  if (parse_ethos_u_payload(bytes, ctx.input_desc(0).bytes, &payload) != EthosUPayloadError::kOk ||
      payload.config_word != p.config_word || payload.id_word != p.id_word)
    return Status::kBadParams;
  const uint32_t regions = ctx.input_count() - 1 + ctx.output_count();
  if (p.region_count != (regions < kNpuMaxRegions ? regions : kNpuMaxRegions)) return Status::kBadParams;

  if (ctx.npu() == nullptr || ctx.npu()->driver == nullptr || ctx.npu()->driver->invoke == nullptr)
    return Status::kNoNpuDriver;
  uint64_t base[kNpuMaxRegions];
  uint32_t sizes[kNpuMaxRegions];
  if (p.fast_scratch_bytes != 0) {
    const NpuDriver& driver = *ctx.npu()->driver;
    if (driver.fast_scratch == nullptr || driver.fast_scratch_bytes < p.fast_scratch_bytes)
      return Status::kFastScratchTooSmall;
    if (reinterpret_cast<uintptr_t>(driver.fast_scratch) % 16 != 0) return Status::kFastScratchTooSmall;
  }
  // Arena and constant tensors start 16-byte aligned in their sections, which start
  // aligned; the check keeps that promise explicit for the driver.
  region_table(ctx, base, sizes);
  for (uint32_t i = 0; i < p.region_count; ++i)
    if (base[i] % 16 != 0) return Status::kBadParams;
  return Status::kOk;
}

void ethos_u_run(const OpContext& ctx) {
  const EthosUParams& p = ctx.params<EthosUParams>();
  NpuLink& npu = *ctx.npu();
  const NpuDriver& driver = *npu.driver;
  uint64_t base[kNpuMaxRegions];
  uint32_t sizes[kNpuMaxRegions];
  region_table(ctx, base, sizes);
  if (driver.clean_cache != nullptr) driver.clean_cache(driver.user, base, sizes, p.region_count);
  const int32_t error = driver.invoke(driver.user, static_cast<const uint8_t*>(ctx.input_data(0)),
                                      ctx.input_desc(0).bytes, base, sizes, p.region_count);
  if (error != 0) {
    npu.error = error;
    ctx.jump_to(0xFFFFFFFFu);  // past the last op: the run ends with kNpuFailed
    return;
  }
  if (driver.invalidate_cache != nullptr) driver.invalidate_cache(driver.user, base, sizes, p.region_count);
}

const KernelEntry kEthosUEntry = {ethos_u_check, ethos_u_run};

}  // namespace mote
