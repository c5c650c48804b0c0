# Cross-compiling for Arm Cortex-M with the GNU Arm Embedded toolchain (arm-none-eabi-gcc).
#
#   cmake -S . -B build-m4 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/arm-none-eabi.cmake \
#         -DMOTE_CPU=cortex-m4
#
# MOTE_CPU picks the core; the flags below select the matching newlib/libstdc++ multilib
# (they are used for compiling and linking alike). Only code-generation flags live here:
# startup code, linker scripts and specs belong to the firmware that links an executable
# (see platforms/cortex_m).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(MOTE_CPU "cortex-m4" CACHE STRING
    "Target core: cortex-m0plus, cortex-m3, cortex-m4, cortex-m7, cortex-m33, cortex-m55")
set_property(CACHE MOTE_CPU PROPERTY STRINGS
             cortex-m0plus cortex-m3 cortex-m4 cortex-m7 cortex-m33 cortex-m55)
# try_compile() projects re-read this file; hand them the core too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES MOTE_CPU)

if(MOTE_CPU STREQUAL "cortex-m0plus")
  set(_mote_cpu_flags "-mcpu=cortex-m0plus -mfloat-abi=soft")
elseif(MOTE_CPU STREQUAL "cortex-m3")
  set(_mote_cpu_flags "-mcpu=cortex-m3 -mfloat-abi=soft")
elseif(MOTE_CPU STREQUAL "cortex-m4")
  set(_mote_cpu_flags "-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard")
elseif(MOTE_CPU STREQUAL "cortex-m7")
  set(_mote_cpu_flags "-mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard")
elseif(MOTE_CPU STREQUAL "cortex-m33")
  set(_mote_cpu_flags "-mcpu=cortex-m33 -mfpu=fpv5-sp-d16 -mfloat-abi=hard")
elseif(MOTE_CPU STREQUAL "cortex-m55")
  set(_mote_cpu_flags "-mcpu=cortex-m55 -mfloat-abi=hard")
else()
  message(FATAL_ERROR "MOTE_CPU='${MOTE_CPU}' is not a supported core; use one of "
                      "cortex-m0plus cortex-m3 cortex-m4 cortex-m7 cortex-m33 cortex-m55")
endif()

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_AR arm-none-eabi-ar CACHE FILEPATH "")
set(CMAKE_RANLIB arm-none-eabi-ranlib CACHE FILEPATH "")
set(CMAKE_OBJCOPY arm-none-eabi-objcopy CACHE FILEPATH "")
set(CMAKE_SIZE arm-none-eabi-size CACHE FILEPATH "")
# No startup code or linker script yet at configure time: test the compilers by
# building a static library instead of an executable.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(_mote_common_flags "${_mote_cpu_flags} -mthumb -ffunction-sections -fdata-sections")
set(CMAKE_C_FLAGS_INIT "${_mote_common_flags}")
set(CMAKE_CXX_FLAGS_INIT "${_mote_common_flags} -fno-exceptions -fno-rtti \
-fno-threadsafe-statics -fno-unwind-tables -fno-asynchronous-unwind-tables")
set(CMAKE_ASM_FLAGS_INIT "${_mote_cpu_flags} -mthumb")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--gc-sections")

# Look for programs on the host, for libraries and headers only in the target sysroot.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
