#include "lower/coverage.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "kernel_registry.h"
#include "target/target.h"

namespace mote::lower {
namespace {

// The dtype tokens of kernel names, in the order coverage lists dtypes.
struct DtypeToken {
  const char* token;
  const char* dtype;
};
constexpr DtypeToken kDtypes[] = {{"f32", "float32"}, {"s8", "int8"},   {"s16", "int16"}, {"s32", "int32"},
                                  {"s64", "int64"},   {"u8", "uint8"},  {"b8", "bool"},   {"bool", "bool"}};

// Kernel name prefixes that are not their op's name: the kernels that run quantize as a
// requantization, maximum and minimum together, and the unary functions (float32 ones in
// one kernel, the integer ones by function).
struct Alias {
  const char* prefix;
  ir::Op op;
};
constexpr Alias kAliases[] = {{"requantize", ir::Op::kQuantize}, {"min_max", ir::Op::kMaximum},
                              {"math", ir::Op::kUnary},          {"abs", ir::Op::kUnary},
                              {"rsqrt", ir::Op::kUnary},         {"logical_not", ir::Op::kUnary}};

bool starts_op(const std::string& name, const std::string& op) {
  return name == op || name.rfind(op + "_", 0) == 0;
}

// The part of a kernel's name after its op or alias prefix ("s8_1x1" of a conv2d kernel
// with a 1x1 and an ISA suffix), without the ISA suffix.
std::string name_after_op(KernelId id, ir::Op op) {
  std::string name = kernel_name(id);
  name = name.substr(0, name.find("__"));
  std::string prefix = ir::op_name(op);
  for (const Alias& a : kAliases)
    if (starts_op(name, a.prefix)) prefix = a.prefix;
  return name.size() > prefix.size() ? name.substr(prefix.size() + 1) : "";
}

const char* isa_name(KernelIsa isa) {
  switch (isa) {
    case KernelIsa::kPortable: return "portable";
    case KernelIsa::kDsp: return "dsp";
    case KernelIsa::kMve: return "mve";
    case KernelIsa::kV6m: return "v6m";
    case KernelIsa::kFpu: return "fpu";
  }
  return "?";
}

bool has_isa(const TargetIsa& isa, KernelIsa kernel) {
  switch (kernel) {
    case KernelIsa::kPortable: return true;
    case KernelIsa::kDsp: return isa.dsp;
    case KernelIsa::kMve: return isa.mve;
    case KernelIsa::kV6m: return isa.v6m;
    case KernelIsa::kFpu: return isa.fpu;
  }
  return false;
}

// The positions in kDtypes of each dtype of "a->b" ("any": past the end).
std::vector<size_t> dtype_ranks(const std::string& dtypes) {
  std::vector<size_t> ranks;
  size_t start = 0;
  while (start <= dtypes.size()) {
    const size_t end = std::min(dtypes.find("->", start), dtypes.size());
    const std::string part = dtypes.substr(start, end - start);
    size_t rank = std::size(kDtypes);
    for (size_t i = 0; i < std::size(kDtypes); ++i)
      if (part == kDtypes[i].dtype) rank = i;
    ranks.push_back(rank);
    start = end + 2;
  }
  return ranks;
}

}  // namespace

std::optional<ir::Op> kernel_op(KernelId id) {
  const std::string name = kernel_name(id);
  for (const Alias& a : kAliases)
    if (starts_op(name, a.prefix)) return a.op;
  std::optional<ir::Op> best;
  size_t best_length = 0;
  for (size_t i = 0; i < ir::kOpCount; ++i) {
    const std::string op = ir::op_name(static_cast<ir::Op>(i));
    if (starts_op(name, op) && op.size() > best_length) {
      best = static_cast<ir::Op>(i);
      best_length = op.size();
    }
  }
  return best;
}

std::vector<KernelId> kernels_of(ir::Op op) {
  const ir::Op runs_as = op == ir::Op::kReshape ? ir::Op::kCopy : op == ir::Op::kMinimum ? ir::Op::kMaximum : op;
  std::vector<KernelId> kernels;
  for (uint32_t i = 1; i < kKernelCount; ++i) {
    const auto id = static_cast<KernelId>(i);
    if (kernel_op(id) == runs_as) kernels.push_back(id);
  }
  return kernels;
}

std::string kernel_dtypes(KernelId id) {
  const std::optional<ir::Op> op = kernel_op(id);
  if (!op) return "any";
  std::vector<std::string> found;
  std::string rest = name_after_op(id, *op);
  size_t start = 0;
  while (start <= rest.size() && !rest.empty()) {
    const size_t end = std::min(rest.find('_', start), rest.size());
    const std::string token = rest.substr(start, end - start);
    for (const DtypeToken& d : kDtypes)
      if (token == d.token) found.push_back(d.dtype);
    start = end + 1;
  }
  if (found.empty()) return "any";
  std::string dtypes = found[0];
  for (size_t i = 1; i < found.size(); ++i) dtypes += "->" + found[i];
  return dtypes;
}

Coverage coverage_of(const std::vector<ir::Op>& ops, const std::vector<std::string>& takes) {
  Coverage c;
  std::map<KernelIsa, std::vector<std::string>> optimized;  // ISA -> dtypes
  auto taken = [&](const std::string& dtypes) {
    return takes.empty() || std::find(takes.begin(), takes.end(), dtypes) != takes.end();
  };
  for (ir::Op op : ops) {
    for (KernelId id : kernels_of(op)) {
      const std::string dtypes = kernel_dtypes(id);
      if (kernel_is_variant(id) && !taken(dtypes)) continue;
      std::vector<std::string>& list = kernel_is_variant(id) ? optimized[kernel_isa(id)] : c.dtypes;
      if (std::find(list.begin(), list.end(), dtypes) == list.end()) list.push_back(dtypes);
    }
  }
  auto by_rank = [](const std::string& a, const std::string& b) { return dtype_ranks(a) < dtype_ranks(b); };
  // The dtypes of the operator's own kernels: "any" only when all are (the reshape or pad
  // an operator may add runs in any dtype).
  if (c.dtypes.size() > 1) c.dtypes.erase(std::remove(c.dtypes.begin(), c.dtypes.end(), "any"), c.dtypes.end());
  if (!takes.empty()) c.dtypes = takes;
  std::sort(c.dtypes.begin(), c.dtypes.end(), by_rank);
  for (auto& [isa, dtypes] : optimized) {
    std::sort(dtypes.begin(), dtypes.end(), by_rank);
    std::string text = std::string(isa_name(isa)) + ":";
    for (const std::string& d : dtypes) text += " " + d;
    text += " (";
    bool first = true;
    for (const TargetInfo& t : targets()) {
      if (t.target == Target::kHost || !has_isa(t.isa, isa)) continue;
      text += (first ? "" : " ") + std::string(t.name);
      first = false;
    }
    c.optimized.push_back(text + ")");
  }
  return c;
}

std::string coverage_line(const std::string& name, const Coverage& coverage) {
  std::string dtypes;
  for (const std::string& d : coverage.dtypes) dtypes += (dtypes.empty() ? "" : " ") + d;
  if (dtypes.empty()) dtypes = "no kernel (resolved while importing)";
  std::string line = "  " + name;
  line += std::string(name.size() < 30 ? 30 - name.size() : 1, ' ') + dtypes;
  if (!coverage.optimized.empty()) {
    line += std::string(dtypes.size() < 30 ? 30 - dtypes.size() : 1, ' ');
    for (size_t i = 0; i < coverage.optimized.size(); ++i) line += (i == 0 ? "" : "; ") + coverage.optimized[i];
  }
  return line;
}

}  // namespace mote::lower
