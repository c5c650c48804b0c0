// Armv7E-M / Armv8-M DSP int8 ADD of two tensors of the output's shape (no
// broadcasting); bit-exact with add_s8 (binary_quant::AddSub, see elementwise.h).
//
// Each input's rescaling is tabulated once per run for its 256 values in the scratch
// (two int32 tables), then every element goes through add_s8_tables.h's loop (shared
// with add_s8_lut__dsp, whose tables come precomputed in its parameters). Tensors shorter
// than kAddS8TableMinCount use the reference arithmetic directly.
#include "elementwise/add_s8_tables.h"
#include "elementwise/elementwise.h"

namespace mote {

uint32_t add_s8__dsp_scratch_bytes() { return 2 * kAddS8TableEntries * sizeof(int32_t); }

void add_s8__dsp(const QuantAddSubParams& p, const int8_t* a, const int8_t* b, int8_t* out,
                 int32_t count, uint8_t* scratch) {
  using add_s8_tables::AddS8Ref;
  if (count < kAddS8TableMinCount || p.output_multiplier == INT32_MIN) {
    for (int32_t i = 0; i < count; ++i) out[i] = static_cast<int8_t>(AddS8Ref::apply(p, a[i], b[i]));
    return;
  }
  int32_t* a_table = reinterpret_cast<int32_t*>(scratch);
  int32_t* b_table = a_table + kAddS8TableEntries;
  add_s8_tables::build_table(a_table, p.input1_zero_point, p.input1_multiplier, p.input1_shift);
  add_s8_tables::build_table(b_table, p.input2_zero_point, p.input2_multiplier, p.input2_shift);
  add_s8_tables::add_with_tables(p, a_table, b_table, a, b, out, count);
}

Status add_s8__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(add_sub_s8_check(ctx));
  if (!add_s8_tables::same_shape(ctx)) return Status::kBadParams;
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < add_s8__dsp_scratch_bytes() ||
      reinterpret_cast<uintptr_t>(scratch.data()) % alignof(int32_t) != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void add_s8__dsp_run(const OpContext& ctx) {
  add_s8__dsp(ctx.params<QuantAddSubParams>(), static_cast<const int8_t*>(ctx.input_data(0)),
              static_cast<const int8_t*>(ctx.input_data(1)),
              static_cast<int8_t*>(ctx.output_data(0)),
              static_cast<int32_t>(element_count(ctx.output_desc(0))), ctx.scratch().data());
}

const KernelEntry kAddS8DspEntry = {add_s8__dsp_check, add_s8__dsp_run};

}  // namespace mote
