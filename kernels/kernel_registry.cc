// The registry's columns as tables indexed by kernel id (kernel_registry.inc), and the
// functions of kernel_ids.h and kernel_registry.h over them.
#include "kernel_registry.h"

#include <string.h>

// The parameter structs and block rules of the pixel-streaming kernels, and the MAC rules.
#include "batch_matmul/batch_matmul.h"
#include "conv2d/conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "fully_connected/fully_connected.h"
#include "gru/gru.h"
#include "rnn/rnn.h"
#include "lstm/lstm.h"
#include "svdf/svdf.h"
#include "pool2d/pool2d.h"
#include "transpose_conv/transpose_conv.h"

namespace mote {
namespace {

// The registry's isa column.
namespace isa {
constexpr KernelIsa portable = KernelIsa::kPortable;
constexpr KernelIsa dsp = KernelIsa::kDsp;
constexpr KernelIsa mve = KernelIsa::kMve;
constexpr KernelIsa v6m = KernelIsa::kV6m;
constexpr KernelIsa fpu = KernelIsa::kFpu;
}  // namespace isa

// The registry's macs column: the family's rule (kernels/<op>/<op>.h), or none.
constexpr uint64_t (*no_macs)(const OpContext&) = nullptr;

// The registry's placement column.
struct Placement {
  KernelPlacement kind;
  uint32_t (*block)(const PixelStreamShape&);
  bool (*window)(const uint8_t* params, size_t bytes, WindowGeometry* window);
  uint32_t (*rows)(const uint8_t* params, size_t bytes, const PixelStreamShape&);
};
namespace placement {
constexpr Placement not_in_place = {KernelPlacement::kNotInPlace, nullptr, nullptr, nullptr};
constexpr Placement alias = {KernelPlacement::kAlias, nullptr, nullptr, nullptr};
constexpr Placement elementwise = {KernelPlacement::kElementwise, nullptr, nullptr, nullptr};

// The window of a params struct P read from the op's parameter bytes.
template <typename P>
bool window_of(const uint8_t* params, size_t bytes, WindowGeometry* window) {
  if (params == nullptr || bytes < sizeof(P)) return false;
  P p;
  memcpy(&p, params, sizeof(P));
  *window = p.window;
  return true;
}
template <typename P>
constexpr Placement pixels(uint32_t (*block)(const PixelStreamShape&)) {
  return {KernelPlacement::kPixelStream, block, window_of<P>, nullptr};
}
template <typename P>
constexpr Placement pixel_rows(uint32_t (*block)(const PixelStreamShape&),
                               uint32_t (*rows)(const uint8_t*, size_t, const PixelStreamShape&)) {
  return {KernelPlacement::kPixelStream, block, window_of<P>, rows};
}
}  // namespace placement

struct KernelFacts {
  uint32_t id;
  const char* name;
  const char* entry_symbol;
  const char* source;
  KernelId reference;
  KernelIsa isa;
  uint64_t (*macs)(const OpContext& ctx);
  Placement placement;
};

using namespace placement;  // the placement column's words

// Row i is the kernel with id i + 1 (checked below).
constexpr KernelFacts kFacts[] = {
#define MOTE_KERNEL(enumerator, id, name, source, reference, isa_word, macs_rule, placement_value) \
  {id, #name, "k" #enumerator "Entry", source, KernelId::k##reference, isa::isa_word, macs_rule, placement_value},
#include "kernel_registry.inc"
#undef MOTE_KERNEL
};
static_assert(sizeof(kFacts) / sizeof(kFacts[0]) == kKernelCount - 1,
              "one registry line per KernelId");

constexpr bool ids_are_consecutive() {
  for (uint32_t i = 0; i < kKernelCount - 1; ++i) {
    if (kFacts[i].id != i + 1) return false;
  }
  return true;
}
static_assert(ids_are_consecutive(),
              "kernel_registry.inc: ids are 1, 2, 3, ... in line order (append new kernels)");

constexpr bool references_are_references() {
  for (const KernelFacts& k : kFacts) {
    const auto reference = static_cast<uint32_t>(k.reference);
    if (reference == 0 || reference >= kKernelCount) return false;
    if (static_cast<uint32_t>(kFacts[reference - 1].reference) != reference) return false;
  }
  return true;
}
static_assert(references_are_references(),
              "kernel_registry.inc: a kernel's reference must be a reference kernel");

const KernelFacts* facts(KernelId id) {
  const auto i = static_cast<uint32_t>(id);
  return i >= 1 && i < kKernelCount ? &kFacts[i - 1] : nullptr;
}

}  // namespace

const char* kernel_name(KernelId id) {
  const KernelFacts* k = facts(id);
  return k != nullptr ? k->name : "";
}

KernelId kernel_id_from_name(const char* name) {
  if (name == nullptr || name[0] == '\0') return KernelId::kInvalid;
  for (const KernelFacts& k : kFacts) {
    if (strcmp(k.name, name) == 0) return static_cast<KernelId>(k.id);
  }
  return KernelId::kInvalid;
}

KernelId kernel_reference(KernelId id) {
  const KernelFacts* k = facts(id);
  return k != nullptr ? k->reference : KernelId::kInvalid;
}

bool kernel_is_variant(KernelId id) {
  const KernelFacts* k = facts(id);
  return k != nullptr && k->reference != id;
}

KernelIsa kernel_isa(KernelId id) {
  const KernelFacts* k = facts(id);
  return k != nullptr ? k->isa : KernelIsa::kPortable;
}

const char* kernel_source(KernelId id) {
  const KernelFacts* k = facts(id);
  return k != nullptr ? k->source : "";
}

const char* kernel_entry_symbol(KernelId id) {
  const KernelFacts* k = facts(id);
  return k != nullptr ? k->entry_symbol : "";
}

uint64_t kernel_macs(KernelId id, const OpContext& ctx) {
  const KernelFacts* k = facts(id);
  return k != nullptr && k->macs != nullptr ? k->macs(ctx) : 0;
}

KernelPlacement kernel_placement(KernelId id) {
  const KernelFacts* k = facts(id);
  return k != nullptr ? k->placement.kind : KernelPlacement::kNotInPlace;
}

uint32_t kernel_pixel_stream_block(KernelId id, const PixelStreamShape& shape) {
  const KernelFacts* k = facts(id);
  return k != nullptr && k->placement.block != nullptr ? k->placement.block(shape) : 0;
}

uint32_t kernel_pixel_stream_rows(KernelId id, const uint8_t* params, size_t params_bytes,
                                  const PixelStreamShape& shape) {
  const KernelFacts* k = facts(id);
  return k != nullptr && k->placement.rows != nullptr ? k->placement.rows(params, params_bytes, shape) : 0;
}

bool kernel_window(KernelId id, const uint8_t* params, size_t params_bytes, WindowGeometry* window) {
  const KernelFacts* k = facts(id);
  return k != nullptr && k->placement.window != nullptr && k->placement.window(params, params_bytes, window);
}

}  // namespace mote
