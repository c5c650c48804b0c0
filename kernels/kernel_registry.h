// What the host tools know about each kernel, read from the registry
// (kernel_registry.inc; its header explains each column). Host side: the compiler, the
// CLI and the tests; firmware never calls these (kernel_registry.cc is not linked
// unless something refers to it).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "kernel_ids.h"
#include "mote/kernel.h"
#include "window_geometry.h"

namespace mote {

// The instruction set a kernel's code is written for.
enum class KernelIsa : uint8_t {
  kPortable,  // plain C++
  kDsp,       // Armv7E-M / Armv8-M DSP extension (cortex-m4, m7, m33, m55)
  kMve,       // Armv8.1-M Helium (cortex-m55)
  kV6m,       // Armv6-M (cortex-m0plus)
  kFpu,       // single-precision floating-point unit (cortex-m4, m7, m33, m55)
};

// Where the memory planner may place a kernel's output 0 (window_geometry.h).
enum class KernelPlacement : uint8_t {
  kNotInPlace,   // a buffer of its own
  kAlias,        // output 0 holds input 0's bytes unchanged: it may share input 0's buffer
  kElementwise,  // over an input of the output's shape and elements at least as wide
  kPixelStream,  // over input 0, shifted down by what its block rule needs
};

// Each returns a neutral value (kInvalid, "", kPortable, kNotInPlace, 0, false) for an
// id that names no kernel.

// The kernel whose results this one gives bit for bit; the id itself for a reference.
KernelId kernel_reference(KernelId id);
// True for an optimized variant (its reference is another kernel).
bool kernel_is_variant(KernelId id);
KernelIsa kernel_isa(KernelId id);
// The file under kernels/ that defines its entry ("<op>/<file>.cc").
const char* kernel_source(KernelId id);
// "k<enumerator>Entry": its `const KernelEntry` object (namespace mote), as the generated
// kernel tables and the size measurements name it.
const char* kernel_entry_symbol(KernelId id);

// Multiply-accumulates of an op of this kernel, from its tensors (a variant counts as its
// reference); 0 for kernels without a MAC rule (elementwise, data movement, ...). The op
// must have passed the kernel's check().
uint64_t kernel_macs(KernelId id, const OpContext& ctx);

KernelPlacement kernel_placement(KernelId id);
// A pixel-streaming kernel's block for these shapes (its rule); 0 for other kernels and
// for shapes the kernel does not stream.
uint32_t kernel_pixel_stream_block(KernelId id, const PixelStreamShape& shape);
// A row-buffering kernel's rows for this op (window_geometry.h), from its parameter
// bytes; 0 for other kernels and for ops it runs pixel by pixel (then the block rule
// holds).
uint32_t kernel_pixel_stream_rows(KernelId id, const uint8_t* params, size_t params_bytes,
                                  const PixelStreamShape& shape);
// A pixel-streaming kernel's stride and pads, read through its parameter struct from the
// op's parameter bytes. False (window untouched) for other kernels and when the bytes
// are fewer than the struct.
bool kernel_window(KernelId id, const uint8_t* params, size_t params_bytes, WindowGeometry* window);

}  // namespace mote
