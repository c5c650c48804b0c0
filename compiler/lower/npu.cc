// Lowering of ethos_u (an Ethos-U NPU op of a Vela-compiled model) to the ethos_u kernel
// (kernels/ethos_u/ethos_u.h): the payload's words and the fast scratch the importer
// found, and the number of base addresses the driver gets.
#include <algorithm>
#include <string>

#include "lower/node_lowering.h"
// Kernel parameter structs.
#include "ethos_u/ethos_u.h"

namespace mote::lower {

LoweredOp lower_ethos_u(const NodeLowering& l) {
  const ir::Node& node = l.node();
  if (node.inputs.size() < kEthosUFeatureMapInput)
    l.fail("expected the command stream, constant data, scratch and fast scratch inputs");
  if (!l.has_input(0) || !l.input(0).is_constant || l.input(0).dtype != DType::kUInt8)
    l.fail("the command stream is not a uint8 constant");
  if (l.has_input(3)) l.fail("the fast scratch is the driver's buffer, not a tensor");
  const int64_t fast = node.get_int("fast_scratch_bytes", 0);
  if (fast < 0 || fast > kMaxI32) l.fail("fast scratch of " + std::to_string(fast) + " bytes");
  EthosUParams p{};
  p.config_word = static_cast<uint32_t>(node.get_int("config_word", 0));
  p.id_word = static_cast<uint32_t>(node.get_int("id_word", 0));
  p.fast_scratch_bytes = static_cast<uint32_t>(fast);
  p.region_count =
      static_cast<uint32_t>(std::min<size_t>(kNpuMaxRegions, node.inputs.size() - 1 + node.outputs.size()));
  return lowered(KernelId::kEthosU, params_bytes(p));
}

}  // namespace mote::lower
