#include "ir/ops.h"

#include <ostream>

namespace mote::ir {
namespace {

constexpr const char* kNames[kOpCount] = {
#define MOTE_OP(enumerator, name) name,
#include "ir/ops.inc"
#undef MOTE_OP
};

}  // namespace

const char* op_name(Op op) {
  const auto index = static_cast<size_t>(op);
  return index < kOpCount ? kNames[index] : "(not a Mote op)";
}

std::ostream& operator<<(std::ostream& out, Op op) { return out << op_name(op); }

}  // namespace mote::ir
