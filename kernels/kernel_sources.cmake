# The kernel library's sources and entries, read from the registry
# (kernel_registry.inc, one MOTE_KERNEL line per kernel). Include it from any project
# that builds or measures the kernels (kernels/CMakeLists.txt, the firmware builds, the
# size probe, the conformance suite list); it sets
#   MOTE_KERNEL_SOURCES   absolute paths of every source of the mote_kernels library
#   MOTE_KERNEL_ENTRIES   every kernel's KernelEntry symbol (k<enumerator>Entry), by id
#   MOTE_KERNEL_VARIANTS  the names of the kernels that are not reference kernels
# and reconfigures the including project when the registry changes. A line it cannot
# read, or ids that are not 1, 2, 3, ... in line order, stop the configuration.
# Cross-compiled for a Cortex-M core, the lists leave out the kernels written for an ISA
# extension the core lacks (MOTE_KERNEL_LEFT_OUT names them): the compiler never selects
# them for that core (compiler/target/target.cc), all_kernels.cc declares their entries
# weak so the kernel table holds null for them (a program using one fails to load with
# kMissingKernel), and no firmware, size probe or conformance suite compiles them. The
# host builds every kernel (the ISA variants through their portable definitions).
# Which macro says the core has an ISA is the same here and in all_kernels.cc.
set(_mote_kernels_dir ${CMAKE_CURRENT_LIST_DIR})
set(_mote_registry ${_mote_kernels_dir}/kernel_registry.inc)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_mote_registry})

# Sources that hold no kernel entry: the tables, shared helpers, host-only
# quantization math (quant/quant_math.cc: no kernel refers to it, so firmware does not
# link it).
set(MOTE_KERNEL_SOURCES
  ${_mote_kernels_dir}/all_kernels.cc
  ${_mote_kernels_dir}/kernel_registry.cc
  ${_mote_kernels_dir}/kernel_util.cc
  ${_mote_kernels_dir}/elementwise/broadcast.cc
  ${_mote_kernels_dir}/ethos_u/ethos_u_payload.cc
  ${_mote_kernels_dir}/quant/quant_math.cc)
set(MOTE_KERNEL_ENTRIES "")
set(MOTE_KERNEL_VARIANTS "")

set(MOTE_KERNEL_LEFT_OUT "")
if(CMAKE_CROSSCOMPILING)
  include(CheckCXXSymbolExists)
  set(_mote_isa_macro_dsp __ARM_FEATURE_DSP)
  set(_mote_isa_macro_mve __ARM_FEATURE_MVE)
  set(_mote_isa_macro_v6m __ARM_ARCH_6M__)
  set(_mote_isa_macro_fpu __ARM_FP)
  foreach(_mote_isa dsp mve v6m fpu)
    check_cxx_symbol_exists(${_mote_isa_macro_${_mote_isa}} "" MOTE_CORE_HAS_${_mote_isa})
  endforeach()
endif()

file(STRINGS ${_mote_registry} _mote_registry_lines REGEX "^MOTE_KERNEL\\(")
set(_mote_next_id 1)
foreach(_mote_line IN LISTS _mote_registry_lines)
  # MOTE_KERNEL(enumerator, id, name, "source", reference, isa, macs, placement)
  if(NOT _mote_line MATCHES "^MOTE_KERNEL\\(([A-Za-z0-9]+), *([0-9]+), *([a-z0-9_]+), *\"([^\"]+)\", *([A-Za-z0-9]+), *(portable|dsp|mve|v6m|fpu), *([a-z0-9_]+), *(.+)\\)$")
    message(FATAL_ERROR "${_mote_registry}: cannot read the line\n  ${_mote_line}")
  endif()
  if(NOT CMAKE_MATCH_2 EQUAL _mote_next_id)
    message(FATAL_ERROR "${_mote_registry}: ${CMAKE_MATCH_3} has id ${CMAKE_MATCH_2}, expected "
                        "${_mote_next_id} (ids are consecutive; append new kernels)")
  endif()
  math(EXPR _mote_next_id "${_mote_next_id} + 1")
  if(CMAKE_CROSSCOMPILING AND NOT CMAKE_MATCH_6 STREQUAL "portable"
     AND NOT MOTE_CORE_HAS_${CMAKE_MATCH_6})
    list(APPEND MOTE_KERNEL_LEFT_OUT ${CMAKE_MATCH_3})
    continue()
  endif()
  list(APPEND MOTE_KERNEL_SOURCES ${_mote_kernels_dir}/${CMAKE_MATCH_4})
  list(APPEND MOTE_KERNEL_ENTRIES k${CMAKE_MATCH_1}Entry)
  if(NOT CMAKE_MATCH_1 STREQUAL CMAKE_MATCH_5)
    list(APPEND MOTE_KERNEL_VARIANTS ${CMAKE_MATCH_3})
  endif()
endforeach()
list(REMOVE_DUPLICATES MOTE_KERNEL_SOURCES)
