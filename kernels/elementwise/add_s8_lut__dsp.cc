// Armv7E-M / Armv8-M DSP int8 ADD of two tensors of the output's shape with its two
// rescaling tables precomputed by the compiler (AddS8LutParams, see elementwise.h): the
// loop of add_s8__dsp (add_s8_tables.h) without building the tables per run, so no
// scratch. check() recomputes all 512 entries once at load and refuses any difference.
#include "elementwise/add_s8_tables.h"
#include "elementwise/elementwise.h"

namespace mote {

namespace {

// True when table[v + 128] is table_entry(v, zero_point, multiplier, shift) for every v.
bool table_matches(const int32_t* table, int32_t zero_point, int32_t multiplier, int32_t shift) {
  for (int32_t v = -128; v < 128; ++v) {
    if (table[v + 128] != add_s8_tables::table_entry(v, zero_point, multiplier, shift)) {
      return false;
    }
  }
  return true;
}

}  // namespace

void add_s8_lut__dsp_make_params(const QuantAddSubParams& quant, AddS8LutParams* params) {
  params->quant = quant;
  add_s8_tables::build_table(params->input1_table, quant.input1_zero_point,
                             quant.input1_multiplier, quant.input1_shift);
  add_s8_tables::build_table(params->input2_table, quant.input2_zero_point,
                             quant.input2_multiplier, quant.input2_shift);
}

uint32_t add_s8_lut__dsp_scratch_bytes() { return 0; }

void add_s8_lut__dsp(const AddS8LutParams& p, const int8_t* a, const int8_t* b, int8_t* out,
                     int32_t count) {
  add_s8_tables::add_with_tables(p.quant, p.input1_table, p.input2_table, a, b, out, count);
}

Status add_s8_lut__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR((binary_quant::check_shapes<int8_t, AddS8LutParams>(ctx)));
  if (!add_s8_tables::same_shape(ctx)) return Status::kBadParams;
  const AddS8LutParams& p = ctx.params<AddS8LutParams>();
  if (reinterpret_cast<uintptr_t>(&p) % alignof(AddS8LutParams) != 0) return Status::kBadParams;
  MOTE_RETURN_IF_ERROR(binary_quant::check_add_sub_params<int8_t>(p.quant));
  const QuantAddSubParams& q = p.quant;
  if (!table_matches(p.input1_table, q.input1_zero_point, q.input1_multiplier, q.input1_shift) ||
      !table_matches(p.input2_table, q.input2_zero_point, q.input2_multiplier, q.input2_shift)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void add_s8_lut__dsp_run(const OpContext& ctx) {
  add_s8_lut__dsp(ctx.params<AddS8LutParams>(), static_cast<const int8_t*>(ctx.input_data(0)),
                  static_cast<const int8_t*>(ctx.input_data(1)),
                  static_cast<int8_t*>(ctx.output_data(0)),
                  static_cast<int32_t>(element_count(ctx.output_desc(0))));
}

const KernelEntry kAddS8LutDspEntry = {add_s8_lut__dsp_check, add_s8_lut__dsp_run};

}  // namespace mote
