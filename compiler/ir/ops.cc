#include "ir/ops.h"

#include <ostream>

namespace mote::ir {
namespace {

constexpr const char* kNames[kOpCount] = {
#define MOTE_OP(enumerator, name, ...) name,
#include "ir/ops.inc"
#undef MOTE_OP
};

// The words of ops.inc's columns.
constexpr bool fused = true, unfused = false;
constexpr bool weighted = true, unweighted = false;
constexpr QuantOutput own_range = QuantOutput::kOwnRange, input_scale = QuantOutput::kInputScale,
                      fixed_scale = QuantOutput::kFixedScale, index_output = QuantOutput::kIndexOutput,
                      stays_float = QuantOutput::kStaysFloat;
constexpr Tiling pool_window = Tiling::kPoolWindow, filter_window = Tiling::kFilterWindow,
                 elementwise = Tiling::kElementwise, untiled = Tiling::kNone;
constexpr bool over_input = true, own_buffer = false;

constexpr OpTraits kTraits[kOpCount] = {
#define MOTE_OP(enumerator, name, activation, weights, quant_output, tiling, in_place) \
  {activation, weights, quant_output, tiling, in_place},
#include "ir/ops.inc"
#undef MOTE_OP
};

}  // namespace

const char* op_name(Op op) {
  const auto index = static_cast<size_t>(op);
  return index < kOpCount ? kNames[index] : "(not a Mote op)";
}

const OpTraits& op_traits(Op op) {
  static constexpr OpTraits kNone = {false, false, QuantOutput::kStaysFloat, Tiling::kNone, false};
  const auto index = static_cast<size_t>(op);
  return index < kOpCount ? kTraits[index] : kNone;
}

std::ostream& operator<<(std::ostream& out, Op op) { return out << op_name(op); }

}  // namespace mote::ir
